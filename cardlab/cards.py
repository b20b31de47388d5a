"""Card codes, decks and the seeded shuffle.

Inside the engine a card is a small int (an index into its :class:`Deck`); in replays and on
screen it is a readable code such as ``blue14`` or ``QS``. A deck translates both ways and
accepts a few spellings when parsing, so people can type what they see.

>>> deck = Deck(["red1", "red2", "blue1"], aliases={"r1": "red1"})
>>> deck.parse("R1"), deck.code(2)
(0, 'blue1')
>>> shuffled(range(5), seed=7, hand=0) == shuffled(range(5), seed=7, hand=0)
True
>>> hand = seeded_cards(7, "deal", 1, population=52, count=5)  # the same on every machine
>>> len(set(hand)), all(0 <= card < 52 for card in hand)
(5, True)
>>> deal_round_robin("abcdef", players=3, per_player=2, first=1)
[['c', 'f'], ['a', 'd'], ['b', 'e']]
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Iterable, Sequence
from typing import TypeVar

from .errors import CardCodeError, brief
from .kernel import seeded_stream, shuffle_prefix

T = TypeVar("T")


class Deck:
    """An ordered list of distinct card codes, with parsing and formatting.

    ``aliases`` maps extra spellings (matched case-insensitively) to canonical codes.
    """

    __slots__ = ("codes", "_index", "description")

    def __init__(self, codes: Iterable[str], aliases: dict[str, str] | None = None,
                 description: str = "card") -> None:
        self.codes: tuple[str, ...] = tuple(codes)
        self.description = description
        self._index: dict[str, int] = {}
        for i, code in enumerate(self.codes):
            if code.lower() in self._index:
                raise ValueError(f"duplicate card code {code!r}")
            self._index[code.lower()] = i
        for alias, code in (aliases or {}).items():
            self._index.setdefault(alias.lower(), self._index[code.lower()])

    def __len__(self) -> int:
        return len(self.codes)

    def code(self, card: int) -> str:
        """The readable code of card ``card``."""
        return self.codes[card]

    def parse(self, text: str) -> int:
        """The card a code names; raises :class:`CardCodeError` naming the bad code."""
        try:
            return self._index[text.replace(" ", "").lower()]
        except (KeyError, AttributeError, TypeError):
            sample = ", ".join(self.codes[:3])
            raise CardCodeError(
                f"{brief(text)} is not a {self.description} (codes look like {sample}, ...)"
            ) from None

    def parse_many(self, texts: Iterable[str]) -> list[int]:
        """Parse several codes, refusing a card named twice."""
        cards = [self.parse(t) for t in texts]
        seen: set[int] = set()
        for card in cards:
            if card in seen:
                raise CardCodeError(f"{self.codes[card]} is named twice; there is only one")
            seen.add(card)
        return cards


def seeded_rng(seed: int | str, *keys: int | str) -> random.Random:
    """A random generator that depends on ``(seed, *keys)`` alone, on every machine.

    The seed material goes through BLAKE2b so that nearby seeds give unrelated streams, and
    so that the deal of hand *k* is independent of everything played in other hands.
    """
    material = ":".join(str(part) for part in ("cardlab", seed, *keys)).encode()
    return random.Random(int.from_bytes(hashlib.blake2b(material, digest_size=16).digest(), "big"))


def shuffle_with(rng: random.Random, items: list[T]) -> list[T]:
    """Fisher-Yates shuffle in place using only ``rng.random()``.

    Python promises that ``random()`` gives the same sequence for the same seed across
    versions; it makes no such promise for ``shuffle`` or ``randrange``. So deals rely on
    ``random()`` alone and stay the same on every supported Python.
    """
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return items


def seeded_words(seed: int | str, *keys: int | str, count: int) -> tuple[int, ...]:
    """``count`` uniform 32-bit words that depend on ``(seed, *keys)`` alone.

    The words of :func:`~cardlab.kernel.seeded_stream` (SHAKE-128), read little-endian: the
    same words on every machine and every Python, with no reliance on ``random``'s
    internals. Deals use these words through :func:`seeded_cards`.
    """
    return struct.unpack(f"<{count}I", seeded_stream(seed, keys, count))


def seeded_cards(seed: int | str, *keys: int | str, population: int, count: int) -> list[int]:
    """The first ``count`` cards of deck ``0..population-1`` shuffled by ``(seed, *keys)``.

    The same as ``draw(seeded_words(seed, *keys, count=count), population, count)``, in one
    step: this is how every game deals.

    >>> seeded_cards(7, "deal", 1, population=60, count=3) == draw(
    ...     seeded_words(7, "deal", 1, count=3), 60, 3)
    True
    """
    return shuffle_prefix(seeded_stream(seed, keys, count), population, count)


def draw(words: Sequence[int], population: int, count: int) -> list[int]:
    """The first ``count`` cards of deck ``0..population-1``, shuffled by ``words``.

    A Fisher-Yates shuffle run from the front and stopped after ``count`` places: every
    ordered selection is equally likely, and a small deal does not pay for a full shuffle.
    ``words`` holds one 32-bit word per place, such as :func:`seeded_words` gives; each is
    scaled by multiply-and-shift (see :func:`cardlab.kernel.shuffle_prefix`).
    """
    return shuffle_prefix(struct.pack(f"<{count}I", *words[:count]), population, count)


def shuffled(items: Iterable[T], seed: int | str, **keys: int | str) -> list[T]:
    """A new list of ``items`` shuffled by ``(seed, keys)``; see :func:`seeded_rng`."""
    rng = seeded_rng(seed, *(f"{k}={v}" for k, v in sorted(keys.items())))
    return shuffle_with(rng, list(items))


def deal_round_robin(deck_order: Sequence[T], players: int, per_player: int,
                     first: int = 0) -> list[list[T]]:
    """Deal ``per_player`` cards each, one at a time, starting with seat ``first``."""
    top = list(deck_order[: players * per_player])
    return [top[(seat - first) % players::players] for seat in range(players)]
