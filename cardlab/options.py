"""A rules option: how a game declares one, how a value a user gives is checked, and how the
command line's ``NAME=VALUE`` pairs are read.

A game's :class:`~cardlab.game.Rules` subclass lists its options as :class:`Option` values
(``Rules.OPTIONS``); the rules turn whatever they are given, a typed value from Python or the
string typed after ``--option``, into a checked one with :meth:`Option.coerce`, and a bad one
is an :class:`~cardlab.errors.OptionError` that names the option and why. Nothing here knows
a game: the name in a message is the one the rules pass.

>>> hands = Option("hands", 10, "hands in the game", kind=int, low=1, high=16)
>>> hands.coerce("8", "my-game")
8
>>> hands.coerce("0", "my-game")
Traceback (most recent call last):
...
cardlab.errors.OptionError: my-game option hands is at least 1, not 0
>>> parse_option_pairs(["hands=8", "first-dealer=2"])
{'hands': '8', 'first_dealer': '2'}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from .errors import OptionError, brief


@dataclasses.dataclass(frozen=True)
class Option:
    """One rules option: its default, what values it takes, and what it means."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    kind: type = str
    low: int | None = None
    high: int | None = None

    def coerce(self, value: Any, game: str) -> Any:
        """Turn ``value`` (a typed value, or the string a CLI user typed) into a valid value."""
        where = f"{game} option {self.name}"
        if isinstance(value, str) and self.kind is bool:
            lowered = value.strip().lower()
            if lowered in ("true", "yes", "on", "1"):
                value = True
            elif lowered in ("false", "no", "off", "0"):
                value = False
        elif isinstance(value, str) and self.kind is int:
            try:
                value = int(value)
            except ValueError:
                raise OptionError(f"{where} takes a whole number, not {brief(value)}") from None
        if self.kind is bool and not isinstance(value, bool):
            raise OptionError(f"{where} is true or false, not {brief(value)}")
        if self.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"{where} takes a whole number, not {brief(value)}")
        if self.kind is str and not isinstance(value, str):
            raise OptionError(f"{where} takes one of {self._choices()}, not {brief(value)}")
        if self.choices is not None and value not in self.choices:
            raise OptionError(f"{where} takes one of {self._choices()}, not {brief(value)}")
        if self.low is not None and value < self.low:
            raise OptionError(f"{where} is at least {self.low}, not {brief(value)}")
        if self.high is not None and value > self.high:
            raise OptionError(f"{where} is at most {self.high}, not {brief(value)}")
        return value

    def _choices(self) -> str:
        return ", ".join(str(c) for c in self.choices or ())

    def describe(self) -> dict[str, Any]:
        """A JSON-able description, for listing options."""
        out: dict[str, Any] = {"name": self.name, "default": self.default, "doc": self.doc}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.low is not None:
            out["min"] = self.low
        if self.high is not None:
            out["max"] = self.high
        return out


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """``["hands=8", "mode=table"]`` → ``{"hands": "8", "mode": "table"}``."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"option {pair!r} should look like NAME=VALUE")
        out[name.strip().replace("-", "_")] = value.strip()
    return out
