"""What the trick games share for the exact open-hand solver (:mod:`cardlab.advisor.solver`):
the cards as its search reads them (:func:`open_masks`), and the whole search of a game whose
seat's hand score depends on the tricks it takes alone (:func:`tricks_search`: Ted's Game's
bid against tricks, and any game of that kind), with the scores of its random walks' final
keys (:func:`tricks_outcomes`). A game's ``solver_search`` hook builds its search with them.

>>> import cardlab
>>> table = cardlab.new_game("teds-game", players=3, seed=4, start_size=3)
>>> while table.state.phase != "play":
...     table.act(table.state.legal_texts()[0])  # everyone bids 0
>>> search = tricks_search(table.state, 0, lambda won: -won, bounded=True)
>>> search.root_value(table.state.trick[:], table.state.leader, 3, table.state.turn) <= 0
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ...solvekernel import Search
from .state import TrickTaking


def open_masks(state: TrickTaking) -> tuple[list[int], list[int], list[int]]:
    """The cards as the open-hand search (:class:`cardlab.solvekernel.Search`) reads them:
    each card's suit, each suit's cards as a bit mask, and each seat's hand as a bit mask.

    >>> import cardlab
    >>> state = cardlab.new_game("teds-game", players=3, seed=1).state
    >>> suit_of, suit_mask, hands = open_masks(state)
    >>> sum(suit_mask) == (1 << 52) - 1, [h.bit_count() for h in hands]
    (True, [10, 10, 10])
    """
    suit_of = list(state.suit_of)
    suit_mask = [0] * len(state.deck.suits)
    for card, suit in enumerate(suit_of):
        suit_mask[suit] |= 1 << card
    hands = [sum(1 << card for suit in held for card in suit) for held in state.hands]
    return suit_of, suit_mask, hands


def tricks_search(state: TrickTaking, seat: int, score: Callable[[int], int],
                  bounded: bool) -> Search:
    """The search of ``state`` for ``seat`` when the seat's hand score is ``score(tricks it
    ends the hand with)``: the summary is the seat's tricks, the leaf ``score``; with
    ``bounded``, the score's bounds over the tricks the seat can still end with (from ``a``
    to ``b``: the kernel finds them), for pruning."""
    suit_of, suit_mask, hands = open_masks(state)
    n = state.nseats
    size = len(state.dealt_hands[seat])  # the tricks of the hand

    def leaf(won: int, hat: int) -> int:
        return score(won)

    out = Search(n, seat, suit_of, suit_mask, state.trump, hands, state.tricks_won[seat], 0,
                 [int(s == seat) for s in range(n)], [0] * len(suit_of), 0, -1, 0, 0, -1,
                 leaf)
    if bounded:
        lo = [[min(score(t) for t in range(a, max(a, b) + 1)) for b in range(size + 1)]
              for a in range(size + 1)]
        hi = [[max(score(t) for t in range(a, max(a, b) + 1)) for b in range(size + 1)]
              for a in range(size + 1)]
        out.set_bounds(lo, hi)
    return out


def tricks_outcomes(keys: Iterable[int], outcome: Callable[[int], tuple[int, dict[str, float]]]
                    ) -> dict[int, tuple[int, dict[str, float]]]:
    """The hand score and figures of each final key of :func:`tricks_search`'s random walks
    (the seat's tricks * 2: no hat), ``outcome(tricks)`` giving them, once per key.

    >>> tricks_outcomes({0, 4}, lambda won: (won * 10, {}))
    {0: (0, {}), 4: (20, {})}
    """
    return {key: outcome(key >> 1) for key in keys}


__all__ = ["open_masks", "tricks_outcomes", "tricks_search"]
