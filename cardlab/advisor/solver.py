"""The exact open-hand solver for the trick-taking games: every card's value, all hands known.

For a position in the play of a hand of a trick game that declares an exact solver
(``game_type.exact_solver``: Where's Bob's Hat?, Ted's Game), with every hand face up (the
viewer's all-hands view, or one sampled deal of the Monte Carlo advisor), :func:`solve` gives
each legal card of the seat to act the hand score that ``seat`` ends with under *paranoid*
play: ``seat`` plays to maximise its own hand score and every other seat plays to minimise it,
as a coalition that sees all the cards too. :func:`value` is the position's own value, and
:func:`best_line` one line of play that reaches it.

The search (alpha-beta with a transposition table and equivalent cards searched once) lives in
:mod:`cardlab.solvekernel`; the game makes it (:meth:`cardlab.game.Game.solver_search`, in
its package's ``solving`` module): the numbers of the position, and the game's own scoring
function for the end of the hand as the search's leaf, so no rule of scoring is written twice.
This module names no game. ``docs/advisor.md`` says more.

>>> import cardlab
>>> from cardlab.bots import make_bot
>>> table = cardlab.new_game("teds-game", players=3, seed=4, start_size=3)
>>> while table.state.phase != "play":
...     table.act(table.state.legal_texts()[0])  # everyone bids 0 (the hook allows it)
>>> state = table.state
>>> values = solve(state, state.to_act())
>>> sorted(values) == sorted(state.legal_actions())
True
>>> value(state, state.to_act()) == max(values.values())
True
"""

from __future__ import annotations

from ..errors import CardlabError
from ..game import State, list_games
from ..games.trick_taking.state import PLAY, TrickTaking
from ..solvekernel import Search


def solve(state: State, seat: int) -> dict[int, int]:
    """Each legal card of the seat to act → ``seat``'s final hand score under paranoid play.

    ``seat`` (0-based) maximises its hand score, every other seat minimises it, all cards
    known. ``seat`` need not be the seat to act: then the values are those the coalition
    weighs. Play phase of a game with an exact solver only, otherwise
    :class:`~cardlab.errors.CardlabError`. Cards that are equivalent (the same suit, next to
    each other among the cards still in play, and in Bob's Hat both hat cards or neither) are
    searched once and get the same value.
    """
    search, turn, trick, leader, left, settled = _prepare(state, seat)
    if settled:
        return dict.fromkeys(state.legal_actions(), search.leaf(0, 0))
    values = search.root_values(trick, leader, left, turn)
    return {card: values[card] for card in state.legal_actions()}


def value(state: State, seat: int) -> int:
    """The position's paranoid value for ``seat``: its hand score with best play on both sides.

    Equal to ``max(solve(state, seat).values())`` when ``seat`` is to act, and to the ``min``
    otherwise, but found without valuing each card on its own.
    """
    search, turn, trick, leader, left, settled = _prepare(state, seat)
    if settled:
        return search.leaf(0, 0)
    return search.root_value(trick, leader, left, turn)


def best_line(state: State, seat: int) -> list[int]:
    """One line of play to the end of the hand along which ``seat`` scores :func:`value`:
    at each step the seat to act plays its best card for its side (the lowest-numbered card
    among equals). ``state`` is left as it was.
    """
    line: list[int] = []
    here = _check(state.clone(), seat)
    while here.phase == PLAY:
        values = solve(here, seat)
        pick = max if here.to_act() == seat else min
        target = pick(values.values())
        card = min(c for c, v in values.items() if v == target)
        line.append(card)
        here.apply(card)
    return line


def solvable(state: State) -> bool:
    """True when the exact solver plays ``state``: a game that declares one, in the play of
    the cards with a seat to act.

    >>> import cardlab
    >>> solvable(cardlab.new_game("teds-game", players=3, seed=4).state)  # still bidding
    False
    """
    return (state.rules.game.game_type.exact_solver and isinstance(state, TrickTaking)
            and state.phase == PLAY and state.to_act() >= 0)


def _check(state: State, seat: int) -> TrickTaking:
    if not state.rules.game.game_type.exact_solver or not isinstance(state, TrickTaking):
        games = ", ".join(game.title for game in list_games().values()
                          if game.game_type.exact_solver)
        raise CardlabError(
            f"the exact solver plays the trick-taking games ({games}), not {state.rules.title}")
    if type(seat) is not int or not 0 <= seat < state.nseats:
        raise CardlabError(f"the exact solver needs a seat from 0 to {state.nseats - 1} "
                           f"(0-based), not {seat!r}")
    hand = state.hand_number()
    if state.phase != PLAY or state.to_act() < 0:
        when = "the hand is over" if state.hand_over() else f"hand {hand} is in its " \
            f"{state.phase} phase"
        raise CardlabError(
            f"the exact solver works in the play of the cards, once every bid is made: {when}")
    return state


def _prepare(state: State, seat: int) -> tuple[Search, int, list[int], int, int, bool]:
    """The game's search for ``state``, where the play starts, and whether nothing left can
    change the score (no part of the summary counts, and no hat that matters): then the
    search's leaf gives the score, ``leaf(0, 0)``."""
    here = _check(state, seat)
    search = here.rules.game.solver_search(here, seat, True)
    trick, left = here.trick[:], len(here.dealt_hands[here.leader]) - len(here.history)
    settled = search.key_mask == 0 and not search.hat_matters
    return search, here.turn, trick, here.leader, left, settled


def playout_search(state: State, seat: int) -> Search:
    """The game's search for ``state`` (the play phase of a trick game), set for random
    playouts from there (:meth:`~cardlab.solvekernel.Search.random_walk`): its summary
    rules, no bounds. :meth:`~cardlab.game.Game.summary_outcomes` scores its final keys.
    """
    here = _check(state, seat)
    search = here.rules.game.solver_search(here, seat, False)
    search.set_start(here.trick[:], here.leader,
                     len(here.dealt_hands[here.leader]) - len(here.history))
    return search


__all__ = ["best_line", "playout_search", "solvable", "solve", "value"]
