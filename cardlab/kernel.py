"""The hot loops of the engines, compiled to C by mypyc when cardlab is installed.

Simulations and the speed targets spend nearly all their time in a few loops: shuffling the
deck for a deal, sorting each dealt hand into suits, copying hands for a clone, and playing
cards to tricks. They live here, written once in plain typed Python. ``pip install`` (and so
``make lab`` and ``make test``) compiles this one module with mypyc when a C compiler is at
hand; otherwise, or with ``CARDLAB_PURE=1`` set at install time, the same source runs as
ordinary Python and gives the same results, only slower. :data:`COMPILED` says which one was loaded.

The engines call these functions and nothing else here; the rules of each game stay in its
own module. Trick play is shared by every trick-taking game, so :func:`play_cards` is the one
place where a card goes on a trick and a trick is won.

>>> shuffle_prefix(bytes([0, 0, 0, 0, 0, 0, 0, 128, 255, 255, 255, 255]), 52, 3)
[0, 26, 51]
>>> hands = hands_by_suit([[5, 1, 4], [3]], suit_of=(0, 0, 1, 1, 2, 2), nsuits=3)
>>> hands
[[[1], [], [4, 5]], [[], [3], []]]
>>> copy = copy_hands(hands)
>>> copy == hands and copy[0][2] is not hands[0][2]
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

from mypy_extensions import i64


def shuffle_prefix(stream: bytes, population: int, count: int) -> list[int]:
    """The first ``count`` places of a Fisher-Yates shuffle of ``0..population-1``.

    ``stream`` holds one little-endian 32-bit word per place. Place ``i`` takes the card at
    ``i + (word * (population - i) >> 32)``: scaling by multiply-and-shift favours no card
    by more than ``population / 2**32`` (below 2**-25 for Whot's 108 cards).
    """
    if count > population:
        raise ValueError(f"a {population}-card deck has no {count} places to shuffle")
    if len(stream) < 4 * count:
        raise ValueError(f"{count} places need {4 * count} bytes, not {len(stream)}")
    deck = list(range(population))
    remaining: i64 = population
    i: i64 = 0
    while i < count:
        at: i64 = 4 * i
        word: i64 = (stream[at] | (stream[at + 1] << 8) | (stream[at + 2] << 16)
                     | (stream[at + 3] << 24))
        j: i64 = i + ((word * (remaining - i)) >> 32)
        card = deck[j]
        deck[j] = deck[i]
        deck[i] = card
        i += 1
    return deck[:count]


def hands_by_suit(hands: list[list[int]], suit_of: tuple[int, ...],
                  nsuits: int) -> list[list[list[int]]]:
    """Each hand as one ascending list per suit (seat → suit → cards)."""
    out: list[list[list[int]]] = []
    for cards in hands:
        by_suit: list[list[int]] = [[] for _ in range(nsuits)]
        for card in sorted(cards):
            by_suit[suit_of[card]].append(card)
        out.append(by_suit)
    return out


def copy_hands(hands: list[list[list[int]]]) -> list[list[list[int]]]:
    """A copy of seat → suit → cards that shares no list with the original."""
    return [[cards[:] for cards in held] for held in hands]


class TrickTable(Protocol):
    """What :func:`play_cards` reads and writes: the trick state of a trick-taking game."""

    hands: list[list[list[int]]]  # seat → suit → cards, each list ascending
    suit_of: tuple[int, ...]
    ncards: int
    nseats: int
    trump: int  # suit index, or -1 for no trump
    turn: int
    leader: int
    led: int  # suit led, or -1 before the first card of a trick
    trick: list[int]
    win_seat: int
    win_card: int
    history: list[tuple[int, tuple[int, ...], int]]  # (leader, cards in play order, winner)
    tricks_won: list[int]
    dealt_hands: list[list[int]]

    def _play_over(self) -> None: ...


def play_cards(table: TrickTable, card: int, rand: Callable[[], float] | None) -> bool:
    """Play ``card`` for the seat to act, or with ``rand`` random cards to the end of play.

    With ``rand`` None: returns False, changing nothing, when the seat does not hold
    ``card`` or it fails to follow suit. With ``rand``: plays uniformly random legal cards
    until every card is played, each the ``int(rand() * n)``-th of the ``n`` legal cards
    in the order ``legal_actions`` lists them (the suit led, else the hand in suit order).

    Each card goes on the trick, the winning card so far is kept (the highest trump, else
    the highest card of the suit led), and after the last seat the trick goes to its
    winner, who leads next. When the winner has no card left to lead, the hand's play is
    over and ``table._play_over()`` lets the game score it.
    """
    hands = table.hands
    suit_of = table.suit_of
    trump: int = table.trump
    nseats: int = table.nseats
    trick = table.trick
    history = table.history
    tricks_won = table.tricks_won
    dealt = table.dealt_hands
    leader: int = table.leader
    seat: int = table.turn
    led: int = table.led
    win_seat: int = table.win_seat
    win_card: int = table.win_card
    suit = 0
    while True:
        held = hands[seat]
        if rand is None:
            if card < 0 or card >= table.ncards:
                return False
            suit = suit_of[card]
            cards = held[suit]
            if card not in cards or (led >= 0 and suit != led and len(held[led]) > 0):
                return False
            cards.remove(card)
        elif led >= 0 and len(held[led]) > 0:  # must follow: a random card of the suit led
            cards = held[led]
            card = cards.pop(int(rand() * len(cards)))
            suit = led
        else:  # any card: the k-th of the hand in suit order, as legal_actions lists it
            # A seat still to play in this trick holds its dealt cards less one per trick.
            k = int(rand() * (len(dealt[seat]) - len(history)))
            cards = held[0]
            for cards in held:
                if k < len(cards):
                    break
                k -= len(cards)
            card = cards.pop(k)
            suit = suit_of[card]
        trick.append(card)
        if led < 0:
            led = suit
            win_seat = seat
            win_card = card
        else:
            win_suit = suit_of[win_card]
            if (suit == win_suit and card > win_card) or (suit == trump and win_suit != trump):
                win_seat = seat
                win_card = card
        if len(trick) < nseats:
            seat = seat + 1 if seat + 1 < nseats else 0
            if rand is None:
                break
            continue
        history.append((leader, tuple(trick), win_seat))
        tricks_won[win_seat] += 1
        trick.clear()
        led = -1
        seat = leader = win_seat
        if len(dealt[seat]) == len(history):  # the winner has no card to lead: play is over
            _store(table, seat, leader, led, win_seat, win_card)
            table._play_over()
            return True
        if rand is None:
            break
    _store(table, seat, leader, led, win_seat, win_card)
    return True


def _store(table: TrickTable, turn: int, leader: int, led: int, win_seat: int,
           win_card: int) -> None:
    table.turn = turn
    table.leader = leader
    table.led = led
    table.win_seat = win_seat
    table.win_card = win_card


def _probe() -> None:
    """A function to look at: compiled, it is a builtin rather than a Python function."""


COMPILED: Final = type(_probe).__name__ != "function"
