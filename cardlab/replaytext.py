"""The text of a replay file, compiled with mypyc in the kernel's library.

A replay is written as JSON with its header indented, each hand's deal and scores on a line
each, and each action (with its variations) on a line of its own, so that replays diff well
(docs/replay-format.md). :func:`cardlab.replay.dumps` (which checks what JSON cannot hold)
writes through :func:`write` here; a simulation writes thousands of replays a second, so the
writer is compiled with the kernel, and without a compiler the same source runs as Python.

The actions of a hand are written by the caller's ``actions_text`` (the replay module's, which
knows its :class:`~cardlab.replay.Action` objects), or come already written: the text of
their lines, each :func:`action_line`, joined by ``",\\n"``.

>>> print(write({"game": "g", "hands": [{"deal": {"hands": [["1", "2"], []]},
...                                       "actions": action_line("A", "play 1"),
...                                       "scores": [1, -1]}]}, None))
{
  "game": "g",
  "hands": [
    {
      "deal": {
        "hands": [["1", "2"], []]
      },
      "actions": [
        {"seat": "A", "act": "play 1"}
      ],
      "scores": [1, -1]
    }
  ]
}
<BLANKLINE>
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

# absolute, as in solvekernel: tests load this source on its own beside the compiled module
from cardlab import strictjson

_QUOTE: Final[Callable[[str], str]] = json.encoder.encode_basestring  # type: ignore[attr-defined]
_BETWEEN: Final = '", "'  # between two items of a list of text
_COMPACT: Final = strictjson.encoder(ensure_ascii=False, separators=(", ", ": "))  # any depth

# The line of a plain action (a seat and an act, nothing else) by (seat, act): most of a
# replay's lines, and the same few hundred over and over, so each is encoded once.
_ACTION_LINES: Final[dict[tuple[str, str], str]] = {}
_ACTION_LINES_MAX: Final = 1 << 16  # then the cache starts again: its size stays bounded


def hand_data(deal: Any, actions: Any, note: Any, scores: list[int] | None
              ) -> dict[str, Any]:
    """A hand as :func:`write` writes it (and a replay file holds it): its deal, its note
    (when it has one), its actions, its scores (when the hand has them)."""
    out: dict[str, Any] = {"deal": deal}
    if note is not None:
        out["note"] = note
    out["actions"] = actions
    if scores is not None:
        out["scores"] = scores
    return out


def action_line(seat: str, act: str) -> str:
    """The line a replay file gives a plain action (a seat and an act, nothing else).

    >>> action_line("Ann", "bid 2")
    '        {"seat": "Ann", "act": "bid 2"}'
    """
    key = (seat, act)
    line = _ACTION_LINES.get(key)
    if line is None:
        if len(_ACTION_LINES) >= _ACTION_LINES_MAX:
            _ACTION_LINES.clear()
        line = "        " + _COMPACT({"seat": seat, "act": act})
        _ACTION_LINES[key] = line
    return line


def known_line(seat: str, act: str) -> str | None:
    """:func:`action_line`'s line when it has written it, else None."""
    return _ACTION_LINES.get((seat, act))


def encode(value: Any) -> str:
    """``value`` as the writer's encoder writes it on one line (any depth)."""
    text: str = _COMPACT(value)
    return text


# the keys of a replay's objects, quoted once
_NAMES: Final[dict[str, str]] = {}


def _name(key: Any) -> str:
    """A key: most are text, which needs no encoder's round trip."""
    if not isinstance(key, str):
        return encode(key)
    name = _NAMES.get(key)
    if name is None:
        name = _QUOTE(key)
        if len(_NAMES) < 256:  # a replay's own keys: a few dozen
            _NAMES[key] = name
    return name


def _texts(items: list[Any]) -> str:
    """A list of text as the encoder writes it: when no item needs an escape (their joined
    text quotes as itself), each between quotes, with no call per item."""
    joined = ",".join(items)  # TypeError: not all text
    if len(_QUOTE(joined)) == len(joined) + 2:  # an escape would make it longer
        return f'["{_BETWEEN.join(items)}"]' if items else "[]"
    return "[" + ", ".join([_QUOTE(item) for item in items]) + "]"


def _flat(value: Any) -> str:
    """A value on one line as the encoder writes it: text, whole numbers and lists of them
    (or of lists of text: a deal's cards) without its round trip, anything else by it."""
    if isinstance(value, str):
        return _QUOTE(value)
    if type(value) is int:
        return str(value)
    if type(value) is not list:
        return encode(value)
    parts: list[str] = []
    for item in value:
        if isinstance(item, str):
            parts.append(_QUOTE(item))
        elif type(item) is int:
            parts.append(str(item))
        elif type(item) is list:
            try:
                parts.append(_texts(item))
            except TypeError:  # not all text: the encoder says what it is
                return encode(value)
        else:
            return encode(value)
    return "[" + ", ".join(parts) + "]"


def write(data: dict[str, Any], actions_text: Callable[[Any], str] | None) -> str:
    """The text of ``data`` (a replay's JSON data: a dict whose ``hands`` are dicts).

    ``actions_text``: the joined lines of a hand's actions when they are not written yet (a
    list). Raises ValueError for NaN or infinity (as the encoder does).
    """
    lines = ["{"]
    last = len(data) - 1
    k = 0
    for key, value in data.items():
        comma = "," if k < last else ""
        k += 1
        if key != "hands":  # text, numbers, lists of them, or an object: on one line
            lines.append(f"  {_name(key)}: {_flat(value)}{comma}")
            continue
        lines.append('  "hands": [')
        hands: list[dict[str, Any]] = value
        hlast = len(hands) - 1
        h = 0
        for hand in hands:
            lines.append("    {")
            ilast = len(hand) - 1
            j = 0
            for hkey, hvalue in hand.items():
                hcomma = "," if j < ilast else ""
                j += 1
                if hkey == "actions" and isinstance(hvalue, str):  # its lines, written
                    lines.append('      "actions": [')
                    lines.append(hvalue)
                    lines.append("      ]" + hcomma)
                elif hkey == "actions" and hvalue and actions_text is not None:
                    lines.append('      "actions": [')
                    lines.append(actions_text(hvalue))
                    lines.append("      ]" + hcomma)
                elif hkey == "deal" and isinstance(hvalue, dict):
                    lines.append('      "deal": {')
                    dlast = len(hvalue) - 1
                    d = 0
                    for dkey, dvalue in hvalue.items():
                        lines.append(f"        {_name(dkey)}: {_flat(dvalue)}"
                                     f"{',' if d < dlast else ''}")
                        d += 1
                    lines.append("      }" + hcomma)
                else:
                    lines.append(f"      {_name(hkey)}: {_flat(hvalue)}{hcomma}")
            lines.append("    }," if h < hlast else "    }")
            h += 1
        lines.append("  ]" + comma)
    lines.append("}")
    return "\n".join(lines) + "\n"
