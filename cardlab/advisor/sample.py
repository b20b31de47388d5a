"""The seat's view, and samplers of the hidden cards consistent with it.

A :class:`SeatView` holds everything one seat knows at one step of one hand, and nothing else:
the rules, the seat, the position as that seat sees it (:func:`cardlab.seatview.seat_position`)
and the hand's actions so far as that seat read them (``hat chosen``, ``bid (secret)``).
:func:`seat_view` is the one place a view is made from a true state. A sampler is built from
a view alone (:func:`sampler_for`), so it cannot peek: each :meth:`Sampler.sample` is a whole
engine state at that step, its hidden cards (and hidden choices) drawn uniformly among those
consistent with the view. See ``docs/advisor-sampling.md``.

>>> import random, cardlab
>>> table = cardlab.new_game("teds-game", players=4, seed=3)
>>> bidder = table.state.to_act()
>>> table.act("bid 2")
>>> seat = table.state.to_act()
>>> view = seat_view(table.state, seat, [(bidder, "bid 2")])
>>> [cards is None for cards in view.position["hands"]].count(False)  # its own hand only
1
>>> state = sampler_for(view).sample(random.Random(1))
>>> [len(cards) for cards in state.snapshot()["hands"]], state.bids[bidder]
([10, 10, 10, 10], 2)
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..errors import CardlabError
from ..game import Rules, State
from ..seatview import seat_position, visible_action

Figures = Callable[[State, int, State], dict[str, float]]


@dataclasses.dataclass(frozen=True)
class SeatView:
    """Everything one seat knows at one step of one hand, and nothing else.

    ``public`` holds the few facts of earlier hands the seat saw that the position does not
    carry (Where's Bob's Hat?: who has used the one no bid of the game, from the bids shown).
    """

    rules: Rules
    seat: int  # 0-based inside the engine
    position: dict[str, Any]  # cardlab.seatview.seat_position(state, seat)
    actions: tuple[tuple[int, str], ...]  # this hand's actions so far, as `seat` reads them
    public: dict[str, Any] = dataclasses.field(default_factory=dict)


def seat_view(state: State, seat: int, actions: Sequence[tuple[int, str]]) -> SeatView:
    """The one place a :class:`SeatView` is made from a true state (through
    :mod:`cardlab.seatview`). ``actions`` are this hand's ``(actor, text)`` pairs so far, as
    recorded; each is turned into what ``seat`` may read of it now.

    >>> import cardlab
    >>> table = cardlab.new_game("bobs-hat", players=4, seed=7)
    >>> table.act("hat -10")
    >>> seat_view(table.state, 1, [(0, "hat -10")]).actions
    ((0, 'hat chosen'),)
    """
    players = state.rules.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise CardlabError(f"seat is a number from 0 to {players - 1}, not {seat!r}")
    shown = tuple((actor, visible_action(state, actor, text, seat)) for actor, text in actions)
    public: dict[str, Any] = {}
    if state.rules.name == "bobs-hat":
        from ..games.bobs_hat.engine import NO_BID, BobsHatState

        assert isinstance(state, BobsHatState)
        # A no bid of an earlier hand was shown to all; this hand's may still be secret.
        public["no_bid_used"] = [used and state.bids[s] != NO_BID
                                 for s, used in enumerate(state.no_bid_used)]
    return SeatView(rules=state.rules, seat=seat, position=seat_position(state, seat),
                    actions=shown, public=public)


class Sampler(Protocol):
    """Draws whole states consistent with one :class:`SeatView`."""

    def sample(self, rng: random.Random) -> State:
        """A full engine State at this step, drawn uniformly among the hidden-card layouts
        consistent with the view. Any hidden action (a face-down hat value, a secret bid)
        is drawn too (documented). The State is a fresh object the caller may mutate."""
        ...


def sampler_for(view: SeatView) -> Sampler:
    """The sampler of ``view``'s game, built from the view alone.

    >>> import cardlab
    >>> table = cardlab.new_game("bobs-hat", players=4, seed=7)
    >>> type(sampler_for(seat_view(table.state, 2, []))).__name__
    'TrickSampler'
    """
    if not isinstance(view, SeatView):
        raise CardlabError(f"a sampler is made from a SeatView, not {type(view).__name__}")
    name = view.rules.name
    if name in ("bobs-hat", "teds-game"):
        from ..games.trick_taking.sampler import TrickSampler

        return TrickSampler(view)
    if name == "whot":
        from ..games.whot.sampler import WhotSampler

        return WhotSampler(view)  # type: ignore[no-any-return]
    raise CardlabError(f"the advisor has no sampler for {name}")


def figures_for(game: str) -> Figures:
    """The per-game figures hook ``figures(state_at_end, seat, start)`` (0/1 or numbers,
    averaged over samples by :func:`cardlab.advisor.evaluate`)."""
    if game in ("bobs-hat", "teds-game"):
        from ..games.trick_taking import sampler as tricks

        return tricks.bobs_hat_figures if game == "bobs-hat" else tricks.teds_game_figures
    if game == "whot":
        from ..games.whot import sampler as whot

        return whot.figures  # type: ignore[no-any-return]
    raise CardlabError(f"the advisor has no figures for {game}")


def outcome_for(game: str) -> Callable[[Any, int], tuple[int, dict[str, float]]] | None:
    """A trick game's outcome hook ``outcome(end_of_play, seat) -> (hand score, figures)``
    for the evaluation's fast path (:func:`cardlab.games.trick_taking.sampler.bobs_hat_outcome`), or
    None (Whot: the figures hook and the engine's score). Each call gives a new hook, with
    its own memo of outcomes: one per evaluation.

    >>> callable(outcome_for("teds-game")), outcome_for("whot")
    (True, None)
    """
    if game in ("bobs-hat", "teds-game"):
        from ..games.trick_taking import sampler as tricks

        if game == "teds-game":
            return tricks.teds_game_outcome
        return functools.partial(tricks.bobs_hat_outcome, memo={})
    return None


__all__ = ["SeatView", "Sampler", "figures_for", "outcome_for", "sampler_for", "seat_view"]
