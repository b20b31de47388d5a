"""The small words of every message: a count with its noun, a list said with "and" or "or",
a number with its article. The engines, the views and the command line all write with
these, so that no message reads "1 hands" or "a 11".

>>> plural(1, "hand"), plural(3, "hand"), plural(2, "match", "matches")
('1 hand', '3 hands', '2 matches')
>>> names_and(["Tone", "Remo", "Brad"]), names_or(["a circle", "an 11", "a WHOT"])
('Tone, Remo and Brad', 'a circle, an 11 or a WHOT')
>>> [with_article(n) for n in (2, 8, 11, 14, 18)]
['a 2', 'an 8', 'an 11', 'a 14', 'an 18']
>>> signed(5), signed(-5), signed(0)
('+5', '−5', '0')
"""

from __future__ import annotations

from collections.abc import Sequence


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` (thousands set apart: "1,200") and its noun: ``word`` for one, ``many``
    (``word + "s"`` unless given) for any other count."""
    return f"{count:,} {word}" if count == 1 else f"{count:,} {many or word + 's'}"


def _joined(items: Sequence[str], last: str) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def names_and(names: Sequence[str]) -> str:
    """``"A, B and C"`` (no comma before the last word)."""
    return _joined(names, "and")


def names_or(names: Sequence[str]) -> str:
    """``"A, B or C"``."""
    return _joined(names, "or")


MINUS = "\u2212"  # the minus sign a score is printed with (not the hyphen)


def signed(value: int) -> str:
    """A score with its sign: "+5", "−5" (a minus sign), "0"."""
    return f"+{value}" if value > 0 else (f"{MINUS}{-value}" if value < 0 else "0")


def with_article(number: int | str) -> str:
    """A number as it is said with its article: "an" before a number said with a vowel
    (8, 11, 18, 80...), "a" before the others (numbers up to the thousands)."""
    text = str(number)
    spoken_vowel = text.startswith("8") or text in ("11", "18")
    return f"{'an' if spoken_vowel else 'a'} {text}"


__all__ = ["MINUS", "names_and", "names_or", "plural", "signed", "with_article"]
