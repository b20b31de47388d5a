"""Ted's Game for the exact open-hand solver (:mod:`cardlab.advisor.solver`) and its random
playouts on bit masks (:mod:`cardlab.advisor.randomplay`). The seat's score depends on its own
tricks alone (its bid against them, by the game's ``score``), so its search is the trick games'
search of that kind (:func:`~cardlab.games.trick_taking.solving.tricks_search`).
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
from ..trick_taking.solving import tricks_outcomes, tricks_search
from .engine import TedsGameState, score


def search(state: TedsGameState, seat: int, bounded: bool) -> Search:
    """The search of ``state`` for ``seat``: its leaf the game's ``score`` of the seat's bid
    against the tricks it ends with."""
    bid, size = state.bids[seat], state.size

    def points(won: int) -> int:
        return score(bid, won, size)

    return tricks_search(state, seat, points, bounded)


def summary_outcomes(state: TedsGameState, seat: int, value: int, keys: set[int]
                     ) -> dict[int, tuple[int, dict[str, float]]]:
    """The seat's hand score and ``"made"`` for each final key of the random walks from
    ``state``, by the game's ``score``."""
    bid, size = state.bids[seat], state.size

    def outcome(won: int) -> tuple[int, dict[str, float]]:
        return score(bid, won, size), {"made": 1.0 if won == bid else 0.0}

    return tricks_outcomes(keys, outcome)


__all__ = ["search", "summary_outcomes"]
