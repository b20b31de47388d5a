"""Knock-out Whist for the advisor and the exact solver: the figures of a sample, the outcome
at the end of play, and the solver's search. :class:`knockout_whist.KnockoutWhist` hands them
to the advisor through the contract (:mod:`cardlab.game`); nothing here imports the advisor.

A seat's hand score depends on its own tricks alone: each trick is a point, and a seat that
takes none loses its total so far (:func:`points`). So the solver's search is the trick
games' search of that kind (:func:`cardlab.games.trick_taking.solving.tricks_search`).

>>> from knockout_whist.engine import KnockoutWhistRules
>>> state = KnockoutWhistRules(players=2).new_state()
>>> state.apply_chance(state.seeded_chance(3))
>>> summary_outcomes(state, 0, {0, 4})  # no trick: knocked out (nothing to lose yet); 2 tricks
{0: (0, {'knocked out': 1.0}), 4: (2, {'knocked out': 0.0})}
"""

from __future__ import annotations

from typing import Any

from cardlab.games.trick_taking.solving import tricks_outcomes, tricks_search
from cardlab.solvekernel import Search

from .engine import KnockoutWhistState


def points(won: int, before: int) -> int:
    """The hand score of a seat that took ``won`` tricks with ``before`` points so far: a
    point a trick, or, with no trick, minus everything it had (its total is then 0).

    >>> points(3, 5), points(0, 5)
    (3, -5)
    """
    return won if won else -before


def figures(end: KnockoutWhistState, seat: int, start: KnockoutWhistState) -> dict[str, float]:
    """``"knocked out"``: 1 when the seat took no trick in the hand.

    (Only what the seat's own tricks say: the solver's random walks keep the seat's tricks
    alone, so a figure such as "took the most tricks" could not be scored there.)"""
    return {"knocked out": float(end.tricks_won[seat] == 0)}


def outcome(end: Any, seat: int) -> tuple[int, dict[str, float]]:
    """The seat's hand score and figures at the end of play, on a state whose end of play
    scores nothing (:func:`cardlab.games.trick_taking.advice.stopped_class`): the sheet
    still holds the hands before this one only."""
    before = sum(row[seat] for row in end.sheet)
    return points(end.tricks_won[seat], before), figures(end, seat, end)


def search(state: KnockoutWhistState, seat: int, bounded: bool) -> Search:
    """The open-hand search of ``state`` for ``seat``: its leaf :func:`points` of the tricks
    the seat ends with."""
    before = state.totals()[seat]
    return tricks_search(state, seat, lambda won: points(won, before), bounded)


def summary_outcomes(state: KnockoutWhistState, seat: int, keys: set[int]
                     ) -> dict[int, tuple[int, dict[str, float]]]:
    """The seat's hand score and its figures for each final key of the random walks from
    ``state`` (the seat's tricks * 2)."""
    before = state.totals()[seat]
    return tricks_outcomes(keys, lambda won: (points(won, before),
                                              {"knocked out": float(won == 0)}))


__all__ = ["figures", "outcome", "points", "search", "summary_outcomes"]
