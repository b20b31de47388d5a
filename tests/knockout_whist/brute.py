"""A brute-force open-hand search of Knock-out Whist, on the engine itself: the oracle of
the exact solver (:mod:`cardlab.advisor.solver`) for the fixture's test.

Every line of play to the end of the hand is tried by the engine's own ``apply``, and the
hand is scored by the engine's own end of hand (``hand_scores()``), so neither the solver's
search nor the game's :func:`knockout_whist.advice.points` is asked. Paranoid play, as the
solver's: ``seat`` maximises its hand score, every other seat minimises it.

>>> import knockout_whist
>>> with knockout_whist.registered():
...     import cardlab
...     state = cardlab.new_game("knockout-whist", players=2, seed=3, start_size=2).state
>>> state.snapshot()["hands"], state.snapshot()["trump"]  # East (seat 1) leads
([['9H', 'JH'], ['10H', '9S']], 'spades')
>>> {state.action_text(c): v for c, v in brute_values(state, 1).items()}  # 9S, a trump, takes one
{'play 10H': 1, 'play 9S': 1}
"""

from __future__ import annotations

from cardlab.games.trick_taking import PLAY

from .engine import KnockoutWhistState


def brute_values(state: KnockoutWhistState, seat: int) -> dict[int, int]:
    """Each legal card of the seat to act → ``seat``'s hand score with best play after it."""
    out = {}
    for card in state.legal_actions():
        after = state.clone()
        after.apply(card)
        out[card] = _value(after, seat)
    return out


def _value(state: KnockoutWhistState, seat: int) -> int:
    if state.phase is not PLAY:  # the hand is over: the engine has scored it
        return state.hand_scores()[seat]
    pick = max if state.to_act() == seat else min
    return pick(brute_values(state, seat).values())


__all__ = ["brute_values"]
