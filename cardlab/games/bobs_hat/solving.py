"""Where's Bob's Hat? for the exact open-hand solver (:mod:`cardlab.advisor.solver`) and its
random playouts on bit masks (:mod:`cardlab.advisor.randomplay`): the search of a position in
the play, scored by the game's own ``score_hand``, with the game's bounds and the key of what
can still change the seat's score. :class:`~cardlab.games.bobs_hat.BobsHat` hands them to the
solver (``solver_search``, ``summary_outcomes``).

The search's summary of the cards taken after the position holds, per seat and colour, a
count of :data:`FIELD` bits; the key mask keeps the counts the seat's bids read (every count
with a fewest bid, else the columns of the colours bid most). A seat whose score nothing can
change (a no bid, and no hat value that counts) has key mask 0 and no hat that matters: the
solver gives it the one score ``leaf(0, 0)``.

>>> from cardlab.games.bobs_hat.engine import NO_BID, parse_bid
>>> key_mask(NO_BID, 3), key_mask(parse_bid("fewest"), 3)
(0, -1)
>>> bin(key_mask(parse_bid("most-red"), 2))  # the red column of each of the two seats
'0b111111000000000000111111000000'
"""

from __future__ import annotations

from collections.abc import Callable

from ...rolloutkernel import add_fields
from ...solvekernel import Search
from ..trick_taking.solving import open_masks
from .advice import scored
from .engine import DOUBLE, FEWEST, IS_HAT, MOST, NO_BID, BobsHatState, score_hand

FIELD = 6  # bits per (seat, colour) count of cards taken: up to 20 cards of a colour


def search(state: BobsHatState, seat: int, bounded: bool) -> Search:
    """The search of ``state`` for ``seat``: the cards, the trump, the summary of the cards
    taken per seat and colour, the leaf (:func:`leaf_of`); with ``bounded``, the game's bounds
    and the table's key too (:func:`bound_of`)."""
    suit_of, suit_mask, hands = open_masks(state)
    n = state.nseats
    flags = state.bids[seat]
    mask = key_mask(flags, n)
    hat_matters = int(flags != NO_BID and state.hat_value != 0)
    hat_mask = sum(1 << card for card, hat in enumerate(IS_HAT) if hat)
    out = Search(n, seat, suit_of, suit_mask, state.trump, hands, 0, 3 * FIELD, [0] * n,
                 [1 << (FIELD * suit) for suit in suit_of], 1, mask, hat_mask, hat_matters,
                 state.hat_holder(), leaf_of(state, seat))
    if bounded:
        most = [suit_mask[suit] for suit, bit in enumerate(MOST) if flags & bit]
        out.set_bound(bound_of(state, seat, suit_mask, hat_mask), [*most, hat_mask])
    return out


def summary_outcomes(state: BobsHatState, seat: int, hat: int, keys: set[int]
                     ) -> dict[int, tuple[int, dict[str, float]]]:
    """The seat's hand score and figures for each final key of the random walks from
    ``state`` (``(summary & key_mask) * 2 + seat holds the hat``), ``hat`` the sample's hat
    value, by the game's own scoring (:func:`~cardlab.games.bobs_hat.advice.scored`), once
    per key."""
    out: dict[int, tuple[int, dict[str, float]]] = {}
    taken_of = summary_taken(state)
    negative = bool(state.rules.options["negative_scoring"])
    carried = state.row[seat]  # this hand's penalties so far
    for key in keys:
        # The table of cards taken is the true one wherever the seat's bids read it (the key
        # mask kept those counts); elsewhere it holds what was taken before the start only,
        # which changes only other seats' scores.
        holder = seat if key & 1 else -1  # another holder scores the hat, not the seat
        points, figures = scored(state.bids, taken_of(key >> 1), state.size, holder, hat,
                                 negative, seat)
        out[key] = (carried + points, figures)
    return out


def summary_taken(state: BobsHatState) -> Callable[[int], list[list[int]]]:
    """The cards taken per seat and colour at the end of a hand, from the search's
    summary of the cards taken after ``state`` (``state``'s own tricks added)."""
    base = state.taken()

    def taken(summary: int) -> list[list[int]]:
        return add_fields(base, summary, FIELD)
    return taken


def key_mask(flags: int, n: int) -> int:
    """The bits of the taken-cards summary that can change this bid's score: every count
    with a fewest bid (it compares totals), else the columns of the colours bid most."""
    if flags == NO_BID:
        return 0
    if flags & FEWEST:
        return -1
    mask = 0
    full = (1 << FIELD) - 1
    for suit, bit in enumerate(MOST):
        if flags & bit:
            for s in range(n):
                mask |= full << (FIELD * (3 * s + suit))
    return mask


def leaf_of(state: BobsHatState, seat: int) -> Callable[[int, int], int]:
    """The seat's hand score from the cards taken from now on (the summary) and whether it
    ends with the hat: the game's own ``score_hand``, plus the hand's penalties so far."""
    taken_of = summary_taken(state)
    dealt = state.dealt_suits()
    bids = state.bids[:]
    size, hat_value = state.size, state.hat_value
    negative = bool(state.rules.options["negative_scoring"])
    carried = state.row[seat]

    def leaf(summary: int, holds_hat: int) -> int:
        taken = taken_of(summary)
        # Another holder scores the hat for itself, not for this seat: -1 says the same.
        holder = seat if holds_hat else -1
        return carried + score_hand(bids, taken, dealt, size, holder, hat_value,
                                             negative)[seat]
    return leaf


def bound_of(state: BobsHatState, seat: int, suit_mask: list[int],
                hat_mask: int) -> Callable[[int, int, int], tuple[int, int, int]]:
    """Bounds on the seat's hand score at the start of a trick, for pruning, and the key
    of the summary for the transposition table.

    The seat scores each of its bids, plus the hat, on its own (``score_hand`` adds them), so
    the score lies between the sums of each part's lowest and highest. A part's range is
    found with ``score_hand`` itself, the seat bidding that part alone, over a relaxation of
    what can still happen: every way the cards of the colour still held (most) or the
    tricks still to play (fewest) could be shared among the seats. The hat adds its value
    when the seat ends with it, 0 when not; once no 14 or 15 is left, that is settled.

    The key holds, for each part, what its score depends on (a most bid: that colour's
    counts; fewest: each seat's total; the hat: whether the seat holds it, once no 14 or 15
    is left to take it away), or its score once the part's range is one number (settled:
    no card still to play can change it). Positions that agree on it end with the same score
    whatever is played.
    """
    n = state.nseats
    flags = state.bids[seat]
    base = state.taken()
    dealt = state.dealt_suits()
    size, hat_value = state.size, state.hat_value
    negative = bool(state.rules.options["negative_scoring"])
    carried = state.row[seat]
    full = (1 << FIELD) - 1
    most = [suit for suit, bit in enumerate(MOST) if flags & bit]
    fewest = flags & (FEWEST | DOUBLE)
    alone = [0] * n
    ranges: dict[tuple[int, tuple[int, ...], int], tuple[int, int]] = {}
    found: dict[tuple[int, tuple[int, ...], int], tuple[int, int]] = {}
    # where each seat's count of a colour sits in the summary, and its count before it
    shifts = [[FIELD * (3 * s + c) for s in range(n)] for c in range(3)]
    columns = [[base[s][c] for s in range(n)] for c in range(3)]
    totals = [sum(base[s]) for s in range(n)]

    def part(kind: int, start: tuple[int, ...], more: int) -> tuple[int, int]:
        """``kind`` a suit (most) or -1 (fewest): the part's range from counts ``start``
        with ``more`` cards (most) or tricks (fewest) still to share out."""
        key = (kind, start, more)
        got = found.get(key)
        if got is None:
            got = ranges_of(kind, start, more)
            found[key] = got
        return got

    def ranges_of(kind: int, start: tuple[int, ...], more: int) -> tuple[int, int]:
        # No other seat bids here, so which of them holds which count changes nothing:
        # their counts are sorted, and one range serves every order of them.
        others = sorted(start[:seat] + start[seat + 1:])
        start = (*others[:seat], start[seat], *others[seat:])
        key = (kind, start, more)
        got = ranges.get(key)
        if got is None:
            scores = []
            bids = alone[:]
            bids[seat] = MOST[kind] if kind >= 0 else fewest
            step = 1 if kind >= 0 else n
            for share in _shares(more, n):
                if kind >= 0:
                    taken = [[0, 0, 0] for _ in range(n)]
                    for s in range(n):
                        taken[s][kind] = start[s] + share[s]
                else:
                    taken = [[start[s] + step * share[s], 0, 0] for s in range(n)]
                scores.append(score_hand(bids, taken, dealt, size, -1, 0, negative)[seat])
            got = (min(scores), max(scores))
            ranges[key] = got
        return got

    def add(key: int, start: tuple[int, ...], a: int, b: int) -> int:
        """The key with one part's: its score once settled (offset to be positive), else
        its counts."""
        if a == b:
            return (key << 1 | 1) << 12 | (a + 2048)
        key <<= 1
        for count in start:
            key = key << 7 | count
        return key

    def bound(summary: int, holds_hat: int, in_play: int) -> tuple[int, int, int]:
        # It reads the counts the key mask keeps, and of the cards in play only how many
        # there are of each colour bid most, of the hat cards, and in all (the kernel keeps
        # its answers under those).
        low = high = carried
        key = 1  # a leading 1: the fields below then read back one way only
        for suit in most:
            column, at = columns[suit], shifts[suit]
            start = tuple([column[s] + ((summary >> at[s]) & full) for s in range(n)])
            a, b = part(suit, start, (in_play & suit_mask[suit]).bit_count())
            low += a
            high += b
            key = add(key, start, a, b)
        if fewest:
            start = tuple([totals[s] + ((summary >> shifts[0][s]) & full)
                           + ((summary >> shifts[1][s]) & full)
                           + ((summary >> shifts[2][s]) & full) for s in range(n)])
            a, b = part(-1, start, in_play.bit_count() // n)
            low += a
            high += b
            key = add(key, start, a, b)
        if hat_value:
            if in_play & hat_mask:
                low += min(0, hat_value)
                high += max(0, hat_value)
            else:
                key = key << 1 | holds_hat
                if holds_hat:
                    low += hat_value
                    high += hat_value
        return low, high, key
    return bound


def _shares(total: int, n: int) -> list[tuple[int, ...]]:
    """Every way to share ``total`` things among ``n`` seats."""
    if n == 1:
        return [(total,)]
    return [(k, *rest) for k in range(total + 1) for rest in _shares(total - k, n - 1)]


__all__ = ["FIELD", "bound_of", "key_mask", "leaf_of", "search", "summary_outcomes",
           "summary_taken"]
