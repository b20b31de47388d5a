"""The Monte Carlo advisor's compiled loops that are no part of the solver, compiled by mypyc in
the kernel's library (setup.py): :func:`play_actions` (one sample's playouts on engine states,
one per legal action, in the play phase), :func:`taken_counts` (the cards taken per seat and
suit at the end of a playout), and the sampler's draws :func:`deal_reject` (uniform deals
kept when no void is broken) and :func:`deal_direct` (when one hand has shown a void); for the
random walks on bit masks (:meth:`cardlab.solvekernel.Search.random_walk`),
:func:`random_samples` (a whole evaluation's samples and walks), :func:`hand_masks` (a
sample's hands) and :func:`add_fields` (a walk's summary of the cards taken, read back). Written
once in plain typed Python, like :mod:`cardlab.kernel`; :data:`COMPILED` says which ran.

>>> taken_counts([(0, (0, 3), 1)], (0, 0, 1, 1), 2, 2)
[[0, 0], [1, 1]]
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import Any, Final

# absolute: tests load this source on its own too; the engine's rules are asked in C.
from cardlab.kernel import Player, play_cards, play_hand
from cardlab.solvekernel import Search


def play_actions(start: Any, scratch: Any, actions: list[int], numbers: list[float],
                 spare: Callable[[], float], seat: int,
                 outcome: Callable[[Any, int], tuple[int, dict[str, float]]],
                 players: list[Player] | None, reader: Any,
                 sums: list[float], squares: list[float],
                 fig_sums: list[dict[str, float]], fig_counts: list[dict[str, int]]) -> None:
    """One sample's playouts in the play phase (``cardlab.advisor.evaluate.run``).

    ``scratch`` is the sample (a state whose end of play scores nothing, turning ``turn`` to
    -1) and ``start`` holds a copy of its table; for each action in turn the scratch's table
    is ``start``'s again (from the second on) and the action is applied. The play is then
    finished reading ``numbers`` and then ``spare``: with ``players`` None by random cards
    through the engine's ``play_cards``, else by the bots' card play, one
    :class:`~cardlab.kernel.Player` a seat, through ``kernel.play_hand`` (their random
    numbers come through ``reader.random``). ``outcome(scratch, seat)`` gives the hand
    score, added to ``sums``/``squares``, and the figures, added to
    ``fig_sums``/``fig_counts``, at the action's place.
    """
    i = 0
    for action in actions:
        stream = chain(numbers, iter(spare, None)).__next__
        if i:
            start.copy_table_into(scratch)
        scratch.apply(action)
        if players is None:
            if scratch.turn >= 0:
                play_cards(scratch, -1, stream)
        else:
            reader.random = stream
            play_hand(scratch, players)
        score, figures = outcome(scratch, seat)
        value = float(score)
        sums[i] += value
        squares[i] += value * value
        sums_i = fig_sums[i]
        counts_i = fig_counts[i]
        for key, number in figures.items():
            sums_i[key] = sums_i.get(key, 0.0) + number
            counts_i[key] = counts_i.get(key, 0) + 1
        i += 1


def deal_reject(cards: list[int], suit_of: tuple[int, ...], order: list[int],
                voids: list[int], counts: list[int], free: list[int],
                rand: Callable[[], float], tries: int) -> list[list[int]] | None:
    """Each bucket's cards by a uniform deal of ``cards``, kept when it breaks no void, up
    to ``tries`` deals; None when every one broke a void. A deal is a partial Fisher-Yates
    shuffle (each step reads ``rand()`` once) that deals the buckets ``order`` first (bit
    ``s`` of ``voids[bucket]``: no card of suit ``s``), so that a broken void is seen, and
    the deal dropped, as early as possible, then the buckets ``free``.
    (``cardlab.games.trick_taking.sampler.LayoutDrawer``: why a kept deal is uniform.)

    >>> deal_reject([0, 1, 2, 3], (0, 0, 1, 1), [0], [0b01, 0], [1, 2], [1],
    ...             lambda: 0.99, 1)
    [[3], [0, 1]]
    """
    n = len(cards)
    for _ in range(tries):
        deck = cards[:]
        out: list[list[int]] = [[] for _ in counts]
        i = 0
        ok = True
        for bucket in order:
            mask = voids[bucket]
            part = out[bucket]
            left = counts[bucket]
            while left > 0:
                j = i + int(rand() * (n - i))
                card = deck[j]
                if mask >> suit_of[card] & 1:
                    ok = False
                    break
                deck[j] = deck[i]
                deck[i] = card
                part.append(card)
                i += 1
                left -= 1
            if not ok:
                break
        if not ok:
            continue
        for bucket in free:
            i = _deal_part(deck, i, out[bucket], counts[bucket], rand)
        return out
    return None


def deal_direct(allowed: list[int], barred: list[int], bucket: int, counts: list[int],
                free: list[int], rand: Callable[[], float]) -> list[list[int]] | None:
    """Each bucket's cards: ``counts[bucket]`` of ``allowed`` by a partial Fisher-Yates
    shuffle, then the buckets ``free`` in turn from the rest (the allowed cards left, then
    ``barred``), the same way; each step reads ``rand()`` once. None when too few cards are
    allowed. (``cardlab.games.trick_taking.sampler.LayoutDrawer``: why this draw is uniform.)

    >>> deal_direct([2, 3, 4], [0, 1], 0, [2, 1], [1], lambda: 0.0)
    [[2, 3], [4]]
    """
    pool = allowed[:]
    n = len(pool)
    k = counts[bucket]
    if k > n:
        return None
    out: list[list[int]] = [[] for _ in counts]
    _deal_part(pool, 0, out[bucket], k, rand)
    rest = pool[k:] + barred
    i = 0
    for other in free:
        i = _deal_part(rest, i, out[other], counts[other], rand)
    return out


def _deal_part(deck: list[int], at: int, part: list[int], count: int,
               rand: Callable[[], float]) -> int:
    """Deal ``count`` cards of ``deck[at:]`` to ``part`` by partial Fisher-Yates steps (each
    reads ``rand()`` once, the chosen card swapped to place ``at``); the next place."""
    n = len(deck)
    while count > 0:
        j = at + int(rand() * (n - at))
        card = deck[j]
        deck[j] = deck[at]
        deck[at] = card
        part.append(card)
        at += 1
        count -= 1
    return at


def taken_counts(history: list[tuple[int, tuple[int, ...], int]], suit_of: tuple[int, ...],
                 nseats: int, nsuits: int) -> list[list[int]]:
    """Cards taken per seat per suit, from a hand's tricks ``(leader, cards, winner)`` in one
    pass: what the advisor's rollouts hand to the game's own scoring (Bob's Hat's
    ``score_hand``) at the end of every playout.

    >>> taken_counts([(0, (0, 3), 1), (1, (2, 1), 1)], (0, 0, 1, 1), 2, 2)
    [[0, 0], [2, 2]]
    """
    taken = [[0] * nsuits for _ in range(nseats)]
    for trick in history:
        row = taken[trick[2]]
        for card in trick[1]:
            row[suit_of[card]] += 1
    return taken


def _probe() -> None:
    """A function to look at: compiled, it is a builtin rather than a Python function."""


COMPILED: Final = type(_probe).__name__ != "function"


def add_fields(base: list[list[int]], value: int, bits: int) -> list[list[int]]:
    """``base`` (rows of counts) plus the fields of ``bits`` bits each of ``value`` (0 or
    more), row after row, lowest first: a search's summary of the cards taken per seat and
    suit read back (Bob's Hat's passes 64 bits).

    >>> add_fields([[1, 0], [0, 2]], 0b011_000_110_001, 3)
    [[2, 6], [0, 5]]
    """
    out: list[list[int]] = []
    full = (1 << bits) - 1
    for row in base:
        more: list[int] = []
        for count in row:
            more.append(count + (value & full))
            value >>= bits
        out.append(more)
    return out


def random_walks(search: Search, hands: list[int], turn: int, actions: list[int],
                 numbers: list[float], tally: list[dict[int, int]]) -> None:
    """One sample's random playouts, one per action (a card of ``turn``) from ``hands``,
    all reading the same ``numbers``; each final key of ``search.random_walk``
    (:meth:`cardlab.solvekernel.Search.random_walk`) is counted in ``tally`` at the action's
    place."""
    i = 0
    for card in actions:
        key = search.random_walk(hands, turn, card, numbers)
        counts = tally[i]
        counts[key] = counts.get(key, 0) + 1
        i += 1


def random_samples(search: Search, draw: Callable[[Any], tuple[list[list[int]], int]],
                   rng: Any, needed: int, rollouts: int, known: list[int], seats: list[int],
                   turn: int, actions: list[int],
                   tallies: dict[int, list[dict[int, int]]]) -> None:
    """``rollouts`` samples, each drawn by ``draw(rng)`` (the other hands' cards, for
    ``seats``, and a value that picks the tally), then ``needed`` numbers of
    ``rng.random()``, then :func:`random_walks` from ``known`` (a mask per seat) with the
    drawn cards added, counted in ``tallies[value]`` (made on first use)."""
    rand = rng.random
    numbers = [0.0] * needed
    for _ in range(rollouts):
        layout, value = draw(rng)
        j = 0
        while j < needed:
            numbers[j] = rand()
            j += 1
        tally = tallies.get(value)
        if tally is None:
            tally = [{} for _ in actions]
            tallies[value] = tally
        random_walks(search, hand_masks(known, seats, layout), turn, actions, numbers, tally)


def hand_masks(known: list[int], seats: list[int], cards: list[list[int]]) -> list[int]:
    """``known`` (a mask per seat) with ``cards[k]`` added to seat ``seats[k]``.

    >>> hand_masks([1, 0, 0], [1, 2], [[1, 3], [2]])
    [1, 10, 4]
    """
    out = known[:]
    k = 0
    for seat in seats:
        mask = out[seat]
        for card in cards[k]:
            mask |= 1 << card
        out[seat] = mask
        k += 1
    return out
