"""Where's Bob's Hat? for the exact open-hand solver (:mod:`cardlab.advisor.solver`) and its
random playouts on bit masks (:mod:`cardlab.advisor.randomplay`): the search of a position in
the play, scored by the game's own ``score_hand``, with the game's bounds and the key of what
can still change the seat's score. :class:`~cardlab.games.bobs_hat.BobsHat` hands them to the
solver (``solver_search``, ``summary_outcomes``).

The search's summary of the cards taken after the position holds, per seat, only the counts
the seat's bids read (:class:`~cardlab.games.bobs_hat.kernel.Layout`, made once a search by
:func:`layout_of`): the seat's colours bid most, and every card taken when it bids fewest. So
it is short (for most bids a machine word, not a long int), and every part of it can change
the seat's score: its key mask is all of it. A seat whose score nothing can change (a no bid,
and no hat value that counts) has an empty summary and no hat that matters: the solver gives
it the one score ``leaf(0, 0)``.

>>> import cardlab
>>> from cardlab.games.bobs_hat.engine import parse_bid
>>> state = cardlab.get_game("bobs-hat").rules(players=4).new_state()
>>> state.bids[0] = parse_bid("most-red")
>>> layout = layout_of(state, 0)
>>> # red, of which 4 seats of 5 cards can take 20: 5 bits a seat
>>> layout.colours, layout.total, layout.widths, layout.key_mask == (1 << 20) - 1
([1], False, [5], True)
"""

from __future__ import annotations

from collections.abc import Callable

from ...solvekernel import Search
from ..trick_taking.solving import open_masks
from .advice import scored
from .engine import DECK, DOUBLE, FEWEST, IS_HAT, MOST, NO_BID, BobsHatState, score_hand
from .kernel import Layout, PartBounds


def search(state: BobsHatState, seat: int, bounded: bool) -> Search:
    """The search of ``state`` for ``seat``: the cards, the trump, the summary of the cards
    taken per seat and colour, the leaf (:func:`leaf_of`); with ``bounded``, the game's bounds
    and the table's key too (:func:`bound_of`)."""
    suit_of, suit_mask, hands = open_masks(state)
    n = state.nseats
    flags = state.bids[seat]
    layout = layout_of(state, seat)
    hat_matters = int(flags != NO_BID and state.hat_value != 0)
    hat_mask = sum(1 << card for card, hat in enumerate(IS_HAT) if hat)
    out = Search(n, seat, suit_of, suit_mask, state.trump, hands, 0, layout.stride, [0] * n,
                 [layout.card_unit(suit) for suit in suit_of], 1, layout.key_mask, hat_mask,
                 hat_matters, state.hat_holder(), leaf_of(state, seat, layout))
    if bounded:
        most = [suit_mask[suit] for suit in layout.colours]
        out.set_bound(bound_of(state, seat, suit_mask, hat_mask, layout), [*most, hat_mask])
    return out


def layout_of(state: BobsHatState, seat: int) -> Layout:
    """The :class:`~cardlab.games.bobs_hat.kernel.Layout` of the search of ``state`` for
    ``seat``, with room for as many cards of a colour as the deck has, and for every card of
    the hand: it reads nothing of where the cards are, so it is the same for every sample of
    the hidden hands."""
    in_deck = [0, 0, 0]
    for suit in DECK.suit_of:
        in_deck[suit] += 1
    cards = state.nseats * state.size
    return Layout(state.bids[seat], state.nseats, [min(count, cards) for count in in_deck],
                  cards)


def summary_outcomes(state: BobsHatState, seat: int, hat: int, keys: set[int]
                     ) -> dict[int, tuple[int, dict[str, float]]]:
    """The seat's hand score and figures for each final key of the random walks from
    ``state`` (``(summary & key_mask) * 2 + seat holds the hat``), ``hat`` the sample's hat
    value, by the game's own scoring (:func:`~cardlab.games.bobs_hat.advice.scored`), once
    per key."""
    out: dict[int, tuple[int, dict[str, float]]] = {}
    taken_of = summary_taken(state, layout_of(state, seat))
    negative = bool(state.rules.options["negative_scoring"])
    carried = state.row[seat]  # this hand's penalties so far
    for key in keys:
        # The table of cards taken is the true one wherever the seat's bids read it (the
        # layout kept those counts); elsewhere it changes only other seats' scores.
        holder = seat if key & 1 else -1  # another holder scores the hat, not the seat
        points, figures = scored(state.bids, taken_of(key >> 1), state.size, holder, hat,
                                 negative, seat)
        out[key] = (carried + points, figures)
    return out


def summary_taken(state: BobsHatState, layout: Layout) -> Callable[[int], list[list[int]]]:
    """The cards taken per seat and colour at the end of a hand as the score of the seat
    of ``layout`` (:func:`layout_of`) reads them (:meth:`Layout.taken`), from the summary of
    its search of the cards taken after ``state`` (``state``'s own tricks added)."""
    base = state.taken()

    def taken(summary: int) -> list[list[int]]:
        return layout.taken(base, summary)
    return taken


def leaf_of(state: BobsHatState, seat: int, layout: Layout) -> Callable[[int, int], int]:
    """The seat's hand score from the cards taken from now on (the summary, as ``layout``
    keeps them) and whether it ends with the hat: the game's own ``score_hand``, plus the
    hand's penalties so far."""
    taken_of = summary_taken(state, layout)
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


def bound_of(state: BobsHatState, seat: int, suit_mask: list[int], hat_mask: int,
             layout: Layout) -> Callable[[int, int, int], tuple[int, int, int]]:
    """Bounds on the seat's hand score at the start of a trick (the summary as ``layout``
    keeps it), for pruning, and the key of the summary for the transposition table.

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
    most = layout.colours
    fewest = flags & (FEWEST | DOUBLE)
    alone = [0] * n
    ranges: dict[tuple[int, tuple[int, ...], int], tuple[int, int]] = {}
    columns = [[base[s][c] for s in range(n)] for c in range(3)]
    totals = [sum(base[s]) for s in range(n)]

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

    kinds = [*most, *([-1] if fewest else [])]
    # a most part reads its colour's column; fewest the column of every card taken, or the
    # three colours' (all bid most)
    every = [len(most)] if layout.total else list(range(len(most)))
    fields = [*[[j] for j in range(len(most))], *([every] if fewest else [])]
    starts = [columns[kind] if kind >= 0 else totals for kind in kinds]
    more_masks = [suit_mask[kind] if kind >= 0 else -1 for kind in kinds]
    per_trick = [1 if kind >= 0 else n for kind in kinds]
    return PartBounds(n, carried, kinds, starts, fields, layout, more_masks, per_trick,
                      hat_value, hat_mask, ranges_of).bound


def _shares(total: int, n: int) -> list[tuple[int, ...]]:
    """Every way to share ``total`` things among ``n`` seats."""
    if n == 1:
        return [(total,)]
    return [(k, *rest) for k in range(total + 1) for rest in _shares(total - k, n - 1)]


__all__ = ["bound_of", "layout_of", "leaf_of", "search", "summary_outcomes",
           "summary_taken"]
