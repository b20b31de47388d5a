"""Ted's Game for the advisor: the figure of a sample (``"made"``: the seat took exactly the
tricks it bid), the outcome at the end of play (the hand scored once by the game's own
``score``) and the renege flags a sampled template keeps.
:class:`~cardlab.games.teds_game.TedsGame` hands them to the advisor.

>>> import cardlab, random
>>> table = cardlab.new_game("teds-game", players=3, seed=4, start_size=3)
>>> state = table.state
>>> state.random_playout(random.Random(0).random)
>>> figures(state, 0, state) == {"made": float(state.tricks_won[0] == state.bids[0])}
True
"""

from __future__ import annotations

from typing import Any

from .engine import DECK, TedsGameState, score


def figures(end: TedsGameState, seat: int, start: TedsGameState) -> dict[str, float]:
    """``"made"``: 1 when the seat took exactly the tricks it bid."""
    return {"made": 1.0 if end.tricks_won[seat] == end.bids[seat] else 0.0}


def outcome(end: Any, seat: int) -> tuple[int, dict[str, float]]:
    """The seat's hand score (``teds_game.score``) and ``"made"``, at the end of play (on a
    :func:`~cardlab.games.trick_taking.advice.stopped_class` state)."""
    bid = end.bids[seat]
    won = end.tricks_won[seat]
    return score(bid, won, end.size), {"made": 1.0 if won == bid else 0.0}


def keep_reneges(template: TedsGameState, position: dict[str, Any]) -> None:
    """A renege is played as it was, as a card of its own suit; whether the engine flags it
    again when the sampler replays it depends on the stand-in cards, so the flags are the
    view's own."""
    template.reneges = [(r["trick"], r["seat"], DECK.parse(r["card"]))
                        for r in position.get("reneges") or []]


__all__ = ["figures", "keep_reneges", "outcome"]
