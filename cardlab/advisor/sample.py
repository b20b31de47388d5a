"""The seat's view, and samplers of the hidden cards consistent with it.

A :class:`~cardlab.game.SeatView` (declared with the :class:`~cardlab.game.Sampler` protocol
in :mod:`cardlab.game`, the contract the games implement) holds everything one seat knows at
one step of one hand, and nothing else: the rules, the seat, the position as that seat sees
it (:func:`cardlab.seatview.seat_position`) and the hand's actions so far as that seat read
them (``hat chosen``, ``bid (secret)``). :func:`seat_view` is the one place a view is made
from a true state. A sampler is the game's own, built from a view alone (:func:`sampler_for`),
so it cannot peek: each :meth:`~cardlab.game.Sampler.sample` is a whole engine state at that
step, its hidden cards (and hidden choices) drawn uniformly among those consistent with the
view. See ``docs/advisor-sampling.md``.

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

from collections.abc import Sequence

from ..errors import CardlabError
from ..game import Figures, Outcome, Sampler, SeatView, State, get_game
from ..seatview import seat_position, visible_action


def seat_view(state: State, seat: int, actions: Sequence[tuple[int, str]]) -> SeatView:
    """The one place a :class:`SeatView` is made from a true state (through
    :mod:`cardlab.seatview`). ``actions`` are this hand's ``(actor, text)`` pairs so far, as
    recorded; each is turned into what ``seat`` may read of it now. The facts of earlier
    hands the position does not carry come from the game (:meth:`~cardlab.game.Game.
    seat_public`).

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
    return SeatView(rules=state.rules, seat=seat, position=seat_position(state, seat),
                    actions=shown, public=state.rules.game.seat_public(state))


def sampler_for(view: SeatView) -> Sampler:
    """The sampler of ``view``'s game (:meth:`~cardlab.game.Game.sampler`), built from the
    view alone.

    >>> import cardlab
    >>> table = cardlab.new_game("bobs-hat", players=4, seed=7)
    >>> type(sampler_for(seat_view(table.state, 2, []))).__name__
    'TrickSampler'
    """
    if not isinstance(view, SeatView):
        raise CardlabError(f"a sampler is made from a SeatView, not {type(view).__name__}")
    return view.rules.game.sampler(view)


def figures_for(game: str) -> Figures:
    """The figures hook of the game called ``game`` (:meth:`~cardlab.game.Game.figures`):
    ``figures(state_at_end, seat, start)``, 0/1 or numbers, averaged over samples by
    :func:`cardlab.advisor.evaluate`."""
    return get_game(game).figures


def outcome_for(game: str) -> Outcome | None:
    """The fast-path outcome hook of the game called ``game`` (:meth:`~cardlab.game.Game.
    outcome`), or None (the figures hook and the engine's score are used). Each call gives a
    new hook, with its own memo of outcomes: one per evaluation.

    >>> outcome_for("teds-game") is not None, outcome_for("whot")
    (True, None)
    """
    return get_game(game).outcome()


__all__ = ["Sampler", "SeatView", "figures_for", "outcome_for", "sampler_for", "seat_view"]
