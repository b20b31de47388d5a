"""What a seat name may be: the one rule, used by the recording API, the loader and the CLI.

A seat name is what a teacher reads out and what ``cardlab show --seat`` takes, so it must be
something a person can see, type and tell apart from the others:

- at least one character and at most :data:`MAX_SEAT_NAME` characters;
- no white space at either end (``"Ann "`` would look like ``"Ann"``);
- no control characters (tabs, newlines, escape codes), no line or paragraph separators and no
  bidirectional overrides, which would break the text view or disguise a name;
- different from the other seats' names, ignoring case (``"ann"`` and ``"Ann"`` would be
  confused at the table).

>>> seat_name_problem(["Ann", "Bea", "Cal"]) is None
True
>>> seat_name_problem(["Ann", "", "Cal"])
(1, 'seat 2 has an empty name')
>>> seat_name_problem(["Ann", "ANN"])
(1, "seat 2's name 'ANN' is already the name of seat 1 (names are compared ignoring case)")
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

MAX_SEAT_NAME = 40

# Bidirectional embeddings, overrides and isolates: they reorder how the text around them shows.
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


_KINDS = {"Cc": "the control character", "Cs": "the undecodable character",
          "Zl": "the line separator", "Zp": "the paragraph separator"}


def _bad_character(name: str) -> str | None:
    for char in name:
        kind = _KINDS.get(unicodedata.category(char))
        if kind is None and ord(char) in _BIDI:
            kind = "the bidirectional control"
        if kind is not None:
            return f"{kind} U+{ord(char):04X}"
    return None


def seat_name_problem(names: Sequence[object]) -> tuple[int, str] | None:
    """The first seat (counted from 0) whose name breaks the rule, and why; ``None`` if all pass.

    The reason counts seats from 1, as people do.
    """
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        seat = f"seat {index + 1}"
        if not isinstance(name, str):
            return index, f"{seat}'s name must be text, not {name!r}"
        if not name:
            return index, f"{seat} has an empty name"
        if len(name) > MAX_SEAT_NAME:
            return index, (f"{seat}'s name is {len(name)} characters long; a seat name has at "
                           f"most {MAX_SEAT_NAME}")
        bad = _bad_character(name)
        if bad is not None:
            return index, (f"{seat}'s name {name!r} holds {bad}; a seat name is plain "
                           "visible text")
        if name != name.strip():
            return index, f"{seat}'s name {name!r} begins or ends with white space"
        key = name.casefold()
        if key in seen:
            return index, (f"{seat}'s name {name!r} is already the name of seat {seen[key] + 1}"
                           " (names are compared ignoring case)")
        seen[key] = index
    return None
