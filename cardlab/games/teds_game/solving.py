"""Ted's Game for the exact open-hand solver (:mod:`cardlab.advisor.solver`) and its random
playouts on bit masks (:mod:`cardlab.advisor.randomplay`). The seat's score depends on its own
tricks alone, so the search's summary is the seat's tricks, its leaf the game's ``score``, and
its bounds those of the score over the tricks the seat can still end with.
:class:`~cardlab.games.teds_game.TedsGame` hands them to the solver (``solver_search``,
``summary_outcomes``).

>>> import cardlab
>>> table = cardlab.new_game("teds-game", players=3, seed=4, start_size=3)
>>> while table.state.phase != "play":
...     table.act(table.state.legal_texts()[0])  # everyone bids 0 (the hook allows it)
>>> summary_outcomes(table.state, 0, 0, {0, 2})  # no trick: 10 + 3 cards; one trick: -1
{0: (13, {'made': 1.0}), 2: (-1, {'made': 0.0})}
"""

from __future__ import annotations

from ...solvekernel import Search
from ..trick_taking.advice import open_masks
from .engine import TedsGameState, score


def search(state: TedsGameState, seat: int, bounded: bool) -> Search:
    """The search of ``state`` for ``seat``: its summary the seat's tricks, its leaf the
    game's ``score`` of the seat's bid; with ``bounded``, the score's bounds over the tricks
    the seat can end with."""
    suit_of, suit_mask, hands = open_masks(state)
    n = state.nseats
    bid, size = state.bids[seat], state.size

    def leaf(won: int, hat: int) -> int:
        return score(bid, won, size)

    out = Search(n, seat, suit_of, suit_mask, state.trump, hands, state.tricks_won[seat], 0,
                 [int(s == seat) for s in range(n)], [0] * len(suit_of), 0, -1, 0, 0, -1,
                 leaf)
    if bounded:
        # The score is bid against tricks: bound it by the tricks the seat can end with,
        # from ``a`` to ``b`` (the kernel finds them), scored by the game.
        lo = [[min(leaf(t, 0) for t in range(a, max(a, b) + 1))
               for b in range(size + 1)] for a in range(size + 1)]
        hi = [[max(leaf(t, 0) for t in range(a, max(a, b) + 1))
               for b in range(size + 1)] for a in range(size + 1)]
        out.set_bounds(lo, hi)
    return out


def summary_outcomes(state: TedsGameState, seat: int, value: int, keys: set[int]
                     ) -> dict[int, tuple[int, dict[str, float]]]:
    """The seat's hand score and ``"made"`` for each final key of the random walks from
    ``state`` (the seat's final tricks * 2: there is no hat), by the game's ``score``."""
    bid, size = state.bids[seat], state.size
    out: dict[int, tuple[int, dict[str, float]]] = {}
    for key in keys:
        won = key >> 1  # the seat's tricks
        out[key] = (score(bid, won, size), {"made": 1.0 if won == bid else 0.0})
    return out


__all__ = ["search", "summary_outcomes"]
