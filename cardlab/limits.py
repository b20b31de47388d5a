"""Named limits on what a replay file may hold, with defaults a real game never meets.

A replay file can come from anywhere, so :func:`cardlab.load` refuses, before it spends
time or memory on it, a file that is larger, longer or deeper than these limits. A file over
a limit raises :class:`LimitError`, which names the limit and how to raise it. Raise a limit
with ``load(path, limits=Limits(max_actions_per_hand=...))``, or on the command line with
``--limit max_actions_per_hand=N``.

>>> DEFAULT_LIMITS.max_hands
1000
>>> Limits(max_hands=20).max_hands, Limits(max_hands=20).max_nesting == DEFAULT_LIMITS.max_nesting
(20, True)
>>> Limits.from_pairs({"max_hands": "20"}) == Limits(max_hands=20)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from .errors import LimitError, OptionError

__all__ = ["DEFAULT_LIMITS", "LimitError", "Limits", "MAX_PAGE_FRAMES", "NESTING_CEILING"]

# Beyond this depth Python's own JSON parser could run out of C stack; no limit goes higher.
NESTING_CEILING = 50_000


@dataclasses.dataclass(frozen=True)
class Limits:
    """The limits a replay must stay within. Every field is a positive whole number.

    The defaults leave room for any real game: the longest game of Where's Bob's Hat? has
    16 hands (plus a redeal for each renege in table mode), Ted's Game at most 33, a rubber
    of Whot 10 games; a hand of Bob's Hat or Ted's Game has a few hundred actions at most.
    A Whot game recorded without the simulations' cap can run long, so a hand may hold a
    million actions (the 1,000,000-action benchmark replay, ten games of 100,000, passes).
    """

    max_file_bytes: int = 100_000_000  #: the size of the file (for ``loads``: its length)
    max_hands: int = 1_000  #: deals in the replay, redeals included
    max_actions_per_hand: int = 1_000_000  #: actions in one line of a hand (each variation)
    max_variations: int = 100_000  #: variation lines in the whole replay
    max_variation_depth: int = 1_000  #: variations inside variations inside ...
    max_note_chars: int = 100_000  #: characters of one note (each language's text)
    max_nesting: int = 4_000  #: JSON arrays and objects inside each other, anywhere

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise OptionError(f"limit {field.name} is a whole number of at least 1, "
                                  f"not {value!r}")
        if self.max_nesting > NESTING_CEILING:
            raise OptionError(f"limit max_nesting is at most {NESTING_CEILING:,}: deeper JSON "
                              "would exhaust the parser's stack")

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The names of the limits, as ``load(..., limits=Limits(NAME=...))`` and the CLI's
        ``--limit NAME=N`` take them."""
        return tuple(field.name for field in dataclasses.fields(cls))

    @classmethod
    def from_pairs(cls, pairs: Mapping[str, str | int],
                   base: Limits | None = None) -> Limits:
        """Limits from ``{"max_hands": "20", ...}`` (what a command line gives), on top of
        ``base`` (default: :data:`DEFAULT_LIMITS`); an unknown name or a bad number is an
        :class:`~cardlab.errors.OptionError`."""
        values: dict[str, int] = {}
        for name, raw in pairs.items():
            key = name.strip().replace("-", "_")
            if key not in cls.names():
                raise OptionError(f"there is no limit {name!r}; the limits are "
                                  f"{', '.join(cls.names())}")
            number = whole_number(raw)
            if number is None:
                raise OptionError(f"limit {key} takes a whole number, not {raw!r}")
            values[key] = number
        return dataclasses.replace(base or DEFAULT_LIMITS, **values)


DEFAULT_LIMITS = Limits()


def whole_number(raw: str | int) -> int | None:
    """``raw`` read as a whole number of at most 18 digits, commas and underscores allowed
    (``"1,000_000"``), as a command line gives it; None if it is not one.

    >>> whole_number(" 1,000_000 "), whole_number("-3"), whole_number("1e9")
    (1000000, None, None)
    """
    text = str(raw).strip().replace("_", "").replace(",", "")
    if not (text.isdecimal() and text.isascii() and len(text) <= 18):
        return None
    return int(text)


def exceeded(name: str, limit: int, found: str, *, file: str | None = None,
             path: str | None = None) -> LimitError:
    """The error for a replay over limit ``name``: what was found, and how to raise it."""
    return LimitError(
        f"{found}, more than the limit {name}={limit:,}; raise it with "
        f"load(..., limits=Limits({name}=...)) or the CLI flag --limit {name}=N",
        file=file, path=path, limit=name, value=limit)


# The page budget: what one movie (an offline page, the notebook viewer) may hold, counted
# by cardlab.view.movie.page_frames: every view's frames of every line (a variation's line
# from its deal) plus each line's path entries. A page costs memory in proportion (about
# 0.5 kB a frame while it is written), so a file that loads within the limits above, but
# whose page would not fit, is refused with a LimitError naming max_page_frames, before
# anything is built (docs/viewer.md). Raise it with page_html(..., budget=N) or --page-budget.
MAX_PAGE_FRAMES = 400_000
