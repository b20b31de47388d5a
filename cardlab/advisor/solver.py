"""The exact open-hand solver for the trick-taking games: every card's value, all hands known.

For a position in the play of a hand of a trick game that declares an exact solver
(``game_type.exact_solver``: Where's Bob's Hat?, Ted's Game), with every hand face up (the
viewer's all-hands view, or one sampled deal of the Monte Carlo advisor), :func:`solve` gives
each legal card of the seat to act the hand score that ``seat`` ends with under *paranoid*
play: ``seat`` plays to maximise its own hand score and every other seat plays to minimise it,
as a coalition that sees all the cards too. :func:`value` is the position's own value, and
:func:`best_line` one line of play that reaches it.

Every solve has a budget of ``nodes`` (:data:`NODES` unless told; ``None``: none), the cards
it may try in all: past it the solve stops with :class:`~cardlab.errors.SolveBudgetError`,
"not solved within N nodes", rather than running on. A node count, not a clock, so the same
solve stops at the same place on every machine, compiled or not (``docs/advisor.md``).

The search (alpha-beta with a transposition table, keys by relative ranks and equivalent
cards searched once) lives in
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
>>> solve(state, state.to_act(), nodes=1)
Traceback (most recent call last):
    ...
cardlab.errors.SolveBudgetError: not solved within 1 node
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

from ..errors import CardlabError, OptionError, SolveBudgetError, brief
from ..game import State, list_games
from ..games.trick_taking.state import PLAY, TrickTaking
from ..solvekernel import Search

# The default budget of a solve, in nodes (a card tried): a few seconds of the compiled
# kernel (docs/advisor.md has the figures), far above any solve of the advisor's exact bot.
NODES = 10_000_000


def solve(state: State, seat: int, nodes: int | None = NODES) -> dict[int, int]:
    """Each legal card of the seat to act → ``seat``'s final hand score under paranoid play.

    ``seat`` (0-based) maximises its hand score, every other seat minimises it, all cards
    known. ``seat`` need not be the seat to act: then the values are those the coalition
    weighs. Play phase of a game with an exact solver only, otherwise
    :class:`~cardlab.errors.CardlabError`. Cards that are equivalent (the same suit, next to
    each other among the cards still in play, and in Bob's Hat both hat cards or neither) are
    searched once and get the same value. Past ``nodes`` nodes, a
    :class:`~cardlab.errors.SolveBudgetError`.
    """
    return _solve(state, seat, nodes)[0]


def _solve(state: State, seat: int, nodes: int | None) -> tuple[dict[int, int], int]:
    """:func:`solve`, and the nodes it took."""
    search, turn, trick, leader, left, settled = _prepare(state, seat, nodes)
    if settled:
        return dict.fromkeys(state.legal_actions(), search.leaf(0, 0)), 0
    with _quiet_gc():
        values = search.root_values(trick, leader, left, turn)
    return {card: values[card] for card in state.legal_actions()}, search.nodes


def value(state: State, seat: int, nodes: int | None = NODES) -> int:
    """The position's paranoid value for ``seat``: its hand score with best play on both sides.

    Equal to ``max(solve(state, seat).values())`` when ``seat`` is to act, and to the ``min``
    otherwise, but found without valuing each card on its own. Past ``nodes`` nodes, a
    :class:`~cardlab.errors.SolveBudgetError`.
    """
    search, turn, trick, leader, left, settled = _prepare(state, seat, nodes)
    if settled:
        return search.leaf(0, 0)
    with _quiet_gc():
        return search.root_value(trick, leader, left, turn)


def best_line(state: State, seat: int, nodes: int | None = NODES) -> list[int]:
    """One line of play to the end of the hand along which ``seat`` scores :func:`value`:
    at each step the seat to act plays its best card for its side (the lowest-numbered card
    among equals). ``state`` is left as it was. ``nodes`` is the budget of the whole line
    (its solves one after another); past it, a :class:`~cardlab.errors.SolveBudgetError`.
    """
    line: list[int] = []
    here = _check(state.clone(), seat)
    budget = left = check_nodes(nodes)
    while here.phase == PLAY:
        try:
            if left is not None and left < 1:
                raise SolveBudgetError(0)
            values, used = _solve(here, seat, left)
        except SolveBudgetError:  # the line's budget, not what was left of it
            raise SolveBudgetError(budget or 0) from None
        if left is not None:
            left -= used
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


@contextlib.contextmanager
def _quiet_gc() -> Iterator[None]:
    """No garbage collection during a search: its table makes many small containers and
    no cycle, and collecting them again and again costs a tenth of the time."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def check_nodes(nodes: object) -> int | None:
    """The ``nodes`` option of a solve: a whole number of at least 1, or None (no budget);
    else an :class:`~cardlab.errors.OptionError`.

    >>> check_nodes(5), check_nodes(None)
    (5, None)
    """
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int)
                              or nodes < 1):
        raise OptionError(f"nodes is a whole number of at least 1 (or None: no budget), not "
                          f"{brief(nodes)}")
    return nodes


def _prepare(state: State, seat: int, nodes: int | None
             ) -> tuple[Search, int, list[int], int, int, bool]:
    """The game's search for ``state`` with its budget, where the play starts, and whether
    nothing left can change the score (no part of the summary counts, and no hat that
    matters): then the search's leaf gives the score, ``leaf(0, 0)``."""
    here = _check(state, seat)
    budget = check_nodes(nodes)
    search = here.rules.game.solver_search(here, seat, True)
    if budget is not None:
        search.set_budget(budget)
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


__all__ = ["NODES", "best_line", "check_nodes", "playout_search", "solvable", "solve", "value"]
