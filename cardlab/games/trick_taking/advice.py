"""What the trick games share for the advisor: :class:`TrickGame`, the :class:`~cardlab.game.Game`
of a trick game, whose hooks the shared trick sampler (:mod:`.sampler`) reads, and the state
class whose end of play scores nothing (:func:`stopped_class`), for the outcome hooks.

A trick game's package subclasses :class:`TrickGame` and overrides the hooks its rules need:
a face-down choice that only sets a value (Where's Bob's Hat?'s hat), a hidden decision that
shapes what follows (a secret bid), what replaying a view's actions on stand-in cards does
not give back (Ted's Game's renege flags). The sampler itself names no game.

>>> import cardlab
>>> game = cardlab.get_game("teds-game")
>>> isinstance(game, TrickGame), game.face_down("bid 2"), game.secret_decision("bid 2")
(True, None, False)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ...game import Game, Outcome, Sampler, SeatView, State
from .sampler import TrickSampler
from .state import TrickTaking
from .words import TrickWords


class TrickGame(Game):
    """A trick-taking game: its states are :class:`~.state.TrickTaking`, its sampler is the
    shared :class:`~.sampler.TrickSampler`, which asks the hooks below about the game's
    hidden actions. The defaults: no action is hidden."""

    table_words = TrickWords()

    def sampler(self, view: SeatView) -> Sampler:
        return TrickSampler(view)

    def trick_rule(self, state: State) -> str:
        assert isinstance(state, TrickTaking)
        return state.trick_rule()

    # -- hidden actions, as the trick sampler draws them -------------------------------------
    def secret_decision(self, text: str) -> bool:
        """True when ``text`` is what a seat reads of a hidden decision that shapes what
        follows (a secret bid): from there on, each sample replays the view's actions,
        drawing each hidden one among the legal actions (by the heuristic bot or uniformly)."""
        return False

    def face_down(self, text: str) -> str | None:
        """When ``text`` is what a seat reads of a face-down choice that only sets a value
        (no legal action depends on it: Bob's Hat's hat), the action the sampler's template
        plays in its place; each sample then draws the value (:meth:`draw_face_down`).
        None for any other text."""
        return None

    def face_down_value(self, state: TrickTaking) -> int:
        """The value of the face-down choice on ``state`` (0: the game has none)."""
        return 0

    def draw_face_down(self, template: TrickTaking, actor: int, dealt: list[int],
                       rng: random.Random, uniform: bool) -> int:
        """One sample's face-down value: ``actor``'s choice with ``dealt``, the cards it was
        dealt in that sample (``template``: the sampler's template), as its heuristic bot
        would choose, or (``uniform``) uniformly among the choices."""
        raise NotImplementedError(f"{self.name} has no face-down choice")

    def set_face_down(self, state: TrickTaking, value: int) -> None:
        """Put a drawn face-down value on a sample (a state :meth:`face_down` played on)."""
        raise NotImplementedError(f"{self.name} has no face-down choice")

    def keep_shown(self, template: TrickTaking, position: dict[str, Any]) -> None:
        """Put back on the sampler's template what ``position`` shows that replaying the
        view's actions on stand-in cards need not give again (Ted's Game: which plays were
        flagged as reneges)."""


def _play_finished(self: Any) -> None:
    self.turn = -1


_STOPPED: dict[type, type] = {}


def stopped_class(cls: type) -> type:
    """``cls`` whose end of play scores nothing (``turn`` goes to -1): for the outcome hooks.

    When the last trick is won the engine's ``_play_over`` only marks the play finished, and
    the game's outcome hook scores the hand with its own scoring function, once, for the
    seat's value and figures both (the engine's end of hand would score it, and the figures
    read it again). tests/test_advisor_evaluate.py checks both against the engine's own end
    of hand.

    >>> import cardlab
    >>> state = cardlab.new_game("teds-game", players=3, seed=1).state
    >>> stopped_class(type(state)).__name__
    'TedsGameStateAtEndOfPlay'
    """
    sub = _STOPPED.get(cls)
    if sub is None:
        sub = type(f"{cls.__name__}AtEndOfPlay", (cls,),
                   {"_play_over": _play_finished, "__module__": __name__,
                    "__doc__": f"{cls.__name__} whose end of play scores nothing."})
        _STOPPED[cls] = sub
    return sub


def play_outcome(score: Callable[[Any, int], tuple[int, dict[str, float]]]) -> Outcome:
    """The :class:`~cardlab.game.Outcome` of a trick game whose ``score(end_of_play, seat)``
    scores a hand whose play is over on a :func:`stopped_class` state."""
    return Outcome(score=score, stopped=stopped_class)


__all__ = ["TrickGame", "play_outcome", "stopped_class"]
