"""Monte Carlo evaluation of every legal action at one decision of a replay.

:func:`evaluate` takes the position after ``index`` actions of hand ``hand`` (counted from 1),
makes the acting seat's view (:func:`~cardlab.advisor.sample.seat_view`) and draws
``rollouts`` samples of what that seat cannot see (:func:`~cardlab.advisor.sample.sampler_for`).
Every legal action is then applied to each sample and the hand is played out by the bots;
the estimate of an action is the mean of the seat's hand score over the samples, with its
standard error, and the game's own figures (chance each bid is made, of ending with the hat,
of going out first...).

Common random numbers: sample *k* is the same deal, and its playouts draw the same random
numbers, for every action, so differences between actions are sharp. Everything derives
from ``seed``: the same call gives the same numbers.

- A value is the seat's score for the hand (its row of the score sheet: Whot's points
  against, where the lowest is best, ``Evaluation.low_score_wins``); the standard error is
  the samples' standard deviation over the square root of their number.
- A figure is averaged over the samples that have it (a Bob's Hat "made most-red" only
  where the seat bid most red, which differs between samples only before its bid).
- The ``exact`` bot plays as the heuristic until every hand holds at most
  :data:`EXACT_CARDS` cards, then every card by the open-hand solver (the seat its best,
  the others the worst for it). ``open_hands=True`` in the play of a trick game solves each
  action exactly (standard error 0, ``exact`` true, one "rollout").
- Every solve has a budget of ``nodes`` (:data:`~cardlab.advisor.solver.NODES` unless told).
  A playout of the ``exact`` bot whose solve runs past it is finished by the heuristic bot,
  and an open-hands evaluation whose solve does is made by Monte Carlo instead, the rollouts
  starting from the true position; either way the evaluation's ``note`` says so, and so
  does its record. The budget counts nodes, not time, so the numbers stay the same on every
  machine.
- How the samples are drawn, and the hook for weighting them by bids:
  ``docs/advisor-sampling.md``.
- Speed (trick games, a sample in the play phase). With the random bot, no state is made per
  sample: the sampler draws the other hands only, and the playouts are random walks on bit
  masks down the exact solver's search, each final summary scored once by the game's own
  scoring (:mod:`cardlab.advisor.randomplay`, ``docs/advisor.md``). With the heuristic bot
  the playouts stop at the end of play and the game's own scoring function scores the hand
  once for the value and the figures (``Game.outcome``); one sample's playouts run in a
  compiled loop (``cardlab.rolloutkernel.play_actions``). Either way the numbers are those of
  the plain path, exactly.

>>> import cardlab
>>> review = cardlab.example("norwegian-review")
>>> result = evaluate(review, hand=1, index=7, rollouts=50, seed=3, bot="random")
>>> result.seat, list(result.values)
(2, ['play blue9', 'play blue15', 'play blue17'])
>>> result.record()["rollouts"], result.values["play blue9"].stderr > 0
(50, True)
>>> evaluate(review, hand=1, index=7, rollouts=50, seed=3, bot="random") == result
True
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any

from ..cards import seeded_rng
from ..cursor import Cursor
from ..errors import CardlabError, OptionError, SolveBudgetError, brief
from ..game import CardPlayer, Figures, HandsSampler, Outcome, State, get_game
from ..kernel import PLAY, Player, TrickKernel
from ..replay import LinePath, Replay
from ..rolloutkernel import play_actions
from ..validation import EVAL_SEED_MAX, check_rollouts  # the bounds of the record it writes
from ..words import plural
from .randomplay import random_sums
from .sample import sampler_for, seat_view
from .solver import NODES, check_nodes, solvable

BOTS = ("random", "heuristic", "exact")
# The "exact" bot hands over to the open-hand solver once every hand holds at most this
# many cards: small enough that a solve per card played stays cheap inside a rollout.
EXACT_CARDS = 3


@dataclasses.dataclass(frozen=True)
class Estimate:
    """One action's value: the mean hand score, its standard error, and the game's figures
    (each the mean over the samples that have it)."""

    mean: float
    stderr: float
    figures: dict[str, float]


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """Every legal action's estimate at one decision (``values`` in the engine's order)."""

    seat: int
    hand: int  # from 1
    index: int
    rollouts: int
    seed: int
    bot: str
    exact: bool
    values: dict[str, Estimate]  # legal action text -> estimate (expected HAND score)
    seat_name: str = ""
    low_score_wins: bool = False  # Whot: the hand score is points against, the lowest best
    note: str = ""  # what fell back (the solver's budget), in words; "" when nothing did

    def best(self) -> str:
        """The action with the best mean: the highest, or the lowest when low scores win
        (the first such in the engine's order)."""
        sign = -1.0 if self.low_score_wins else 1.0
        return max(self.values, key=lambda text: sign * self.values[text].mean)

    def record(self) -> dict[str, Any]:
        """The replay's ``"eval"`` record: ``{"seat": name, "rollouts": N, "seed": S,
        "bot": b, "values": {text: [mean, stderr]}}``, plus ``"exact": true`` when exact and
        the ``"note"`` when there is one."""
        out: dict[str, Any] = {
            "seat": self.seat_name, "rollouts": self.rollouts, "seed": self.seed,
            "bot": self.bot,
            "values": {text: [est.mean, est.stderr] for text, est in self.values.items()},
        }
        if self.exact:
            out["exact"] = True
        if self.note:
            out["note"] = self.note
        return out


@dataclasses.dataclass
class SolverBudget:
    """The budget of each solve of the ``exact`` bot's playouts (``nodes``; None: none), and
    how many of ``playouts`` ran past it (``stopped``: the heuristic bot finished those)."""

    nodes: int | None = NODES
    playouts: int = 0
    stopped: int = 0

    def note(self) -> str:
        """The evaluation's note: "" when every solve finished."""
        if not self.stopped:
            return ""
        return (f"{SolveBudgetError(self.nodes or 0)} in {self.stopped:,} of "
                f"{plural(self.playouts, 'playout')}: the heuristic bot finished "
                f"{'it' if self.stopped == 1 else 'them'}")


def evaluate(replay: Replay, hand: int, index: int, seat: str | int | None = None,
             rollouts: int = 1000, seed: int = 0, bot: str = "heuristic",
             path: LinePath = (), open_hands: bool = False, nodes: int | None = NODES
             ) -> Evaluation:
    """Evaluate every legal action after ``index`` actions of hand ``hand`` (from 1) of the
    line ``path``, for the seat to act (``seat``: its name or 0-based number, which must be
    the seat to act; ``None``: the seat to act).

    ``bot`` plays the rollouts: ``"random"``, ``"heuristic"``, or ``"exact"`` (heuristic, then
    the open-hand solver once few cards remain; trick games only). ``open_hands=True`` (the
    all-hands view) samples nothing: in the play of a trick game every action is solved
    exactly; otherwise the rollouts start from the true position. ``nodes`` is the budget of
    each solve (None: none); past it the evaluation falls back as the module says, with a
    ``note``.
    """
    _check_options(rollouts, bot, seed)
    budget = SolverBudget(check_nodes(nodes))
    state, line, to_act, names = _position(replay, hand, index, path)
    chosen = _seat(replay, seat, to_act, hand, index)
    game = replay.rules.game
    solver = game.game_type.exact_solver
    if bot == "exact" and not solver:
        raise OptionError(f"the exact bot plays the trick-taking games, not {game.name}")
    figures = game.figures
    low = bool(replay.rules.low_score_wins)
    texts = state.legal_texts()
    fallback = ""
    if open_hands and solvable(state):
        try:
            values = _solved(state, chosen, texts, figures, budget.nodes)
        except SolveBudgetError as stop:
            fallback = (f"{stop}: Monte Carlo instead, {plural(rollouts, 'rollout')} of the "
                        f"{bot} bot from the open position")
        else:
            return Evaluation(seat=chosen, hand=hand, index=index, rollouts=1, seed=seed,
                              bot=bot, exact=True, values=values, seat_name=names[chosen],
                              low_score_wins=low)
    if open_hands:
        def draw(rng: random.Random) -> State:
            return state.clone()
    else:
        actions = [(names.index(a.seat), a.act) for a in line[:index]]
        sampler = sampler_for(seat_view(state, chosen, actions))
        if bot == "random" and solver and isinstance(sampler, HandsSampler) \
                and sampler.plays_on_masks():
            # random playouts on bit masks down the solver's search, no state per sample:
            # the same numbers (cardlab.advisor.randomplay)
            sums = random_sums(sampler, chosen, texts, rollouts, seed,
                               _numbers_needed(sampler.template))
            return Evaluation(seat=chosen, hand=hand, index=index, rollouts=rollouts,
                              seed=seed, bot=bot, exact=False,
                              values=_estimates(texts, rollouts, *sums),
                              seat_name=names[chosen], low_score_wins=low)
        draw = sampler.sample
    values = run(draw, chosen, texts, rollouts, seed, bot, game.name, figures, game.outcome(),
                 budget)
    note = "; ".join(part for part in (fallback, budget.note()) if part)
    return Evaluation(seat=chosen, hand=hand, index=index, rollouts=rollouts, seed=seed,
                      bot=bot, exact=False, values=values, seat_name=names[chosen],
                      low_score_wins=low, note=note)


def _check_options(rollouts: object, bot: object, seed: object) -> None:
    check_rollouts(rollouts)
    if bot not in BOTS:
        raise OptionError(f"bots are {', '.join(BOTS)}, not {bot!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) > EVAL_SEED_MAX:
        raise OptionError(f"seed is a whole number from -{EVAL_SEED_MAX:,} to "
                          f"{EVAL_SEED_MAX:,}, not {brief(seed)}")


def _position(replay: Replay, hand: int, index: int, path: LinePath
              ) -> tuple[State, list[Any], int, list[str]]:
    cursor = Cursor(replay, hand=hand, path=path)  # checks the hand (from 1) and the path
    if isinstance(index, bool) or not isinstance(index, int):
        raise OptionError(f"index is the number of actions made, not {index!r}")
    state = cursor.goto(cursor.find(hand, index)).state.clone()
    to_act = state.to_act()
    if to_act < 0:
        if state.hand_over():
            raise CardlabError(f"hand {hand} is over after {plural(index, 'action')}: there is "
                               "no decision left to evaluate")
        raise CardlabError(f"nobody is to act in hand {hand} after {plural(index, 'action')}")
    return state, cursor.line, to_act, list(replay.seats)


def _seat(replay: Replay, seat: str | int | None, to_act: int, hand: int, index: int) -> int:
    names = replay.seats
    if seat is None:
        return to_act
    number = replay.seat_index(seat)  # a name or a number; else the error lists the seats
    if number != to_act:
        raise CardlabError(f"{names[number]} is not to act in hand {hand} after {index} "
                           f"actions: {names[to_act]} is; only the seat to act is evaluated")
    return number


def run(draw: Callable[[random.Random], State], seat: int, texts: Sequence[str],
        rollouts: int, seed: int, bot: str, game: str, figures: Figures,
        outcome: Outcome | None = None, budget: SolverBudget | None = None
        ) -> dict[str, Estimate]:
    """The estimates of ``texts`` over ``rollouts`` states drawn by ``draw``: the engine of
    :func:`evaluate`, for callers that draw their own states (the bidding lab).

    One generator, seeded by ``seed``, draws sample after sample and, for each, the random
    numbers its playouts read: the same numbers for every action (common random numbers).
    ``outcome`` (a trick game's :class:`~cardlab.game.Outcome`, whose figures are those
    ``figures`` gives) is the fast path for samples in the play phase with the random or
    heuristic bot: the playout stops at the end of play and the hand is scored once.
    ``budget``: the ``exact`` bot's budget per solve, which counts the playouts that ran past
    it (default: :data:`~cardlab.advisor.solver.NODES`).
    """
    master = seeded_rng(seed, "advisor")
    rand = master.random
    budget = SolverBudget() if budget is None else budget
    playout = _playout(bot, game, seat, budget)
    sums = [0.0] * len(texts)
    squares = [0.0] * len(texts)
    fig_sums: list[dict[str, float]] = [{} for _ in texts]
    fig_counts: list[dict[str, int]] = [{} for _ in texts]
    actions: list[int] | None = None
    spare = random.Random(seed)  # numbers past a sample's own (a long Whot hand): shared
    spare_rand = spare.random
    fast = outcome if bot != "exact" else None  # the exact bot plays on past the play
    players: list[Player] | None = None
    reader: Any = None
    pristine: Any = None
    for _ in range(rollouts):
        start = draw(master)
        if actions is None:
            actions = [start.parse_action(text) for text in texts]
        numbers = [rand() for _ in range(_numbers_needed(start))]
        if fast is not None and isinstance(start, TrickKernel) and start.phase is PLAY:
            # The play only is left: the playouts stop at the end of play and the outcome
            # hook scores the hand once for the value and the figures (the same numbers as
            # the engine's end of hand: tests/test_advisor_evaluate.py). In the play phase
            # of a stopped state only the compiled table changes (the cards; the end of
            # play scores nothing), so one clone per sample serves every action: the table
            # is copied back from the start before each (a compiled loop).
            start.__class__ = fast.stopped(type(start))  # type: ignore[misc]
            assert isinstance(start, TrickKernel)  # the play phase is the kernel's
            # the start's table kept aside (one holder for the run: only the table is read
            # from it), the sample itself played on
            if pristine is None:
                pristine = start.clone()
                if bot != "random":
                    players, reader = _card_play(bot, game, start.nseats)
            else:
                start.copy_table_into(pristine)
            play_actions(pristine, start, actions, numbers, spare_rand, seat,
                         fast.score, players, reader, sums, squares, fig_sums, fig_counts)
            continue
        for i, action in enumerate(actions):
            state = start.clone()
            state.apply(action)
            playout(state, chain(numbers, iter(spare_rand, None)).__next__)
            value = float(_hand_score(state, seat, start))
            sums[i] += value
            squares[i] += value * value
            sums_i, counts_i = fig_sums[i], fig_counts[i]
            for key, number in figures(state, seat, start).items():
                sums_i[key] = sums_i.get(key, 0.0) + number
                counts_i[key] = counts_i.get(key, 0) + 1
    return _estimates(texts, rollouts, sums, squares, fig_sums, fig_counts)


def _estimates(texts: Sequence[str], rollouts: int, sums: list[float], squares: list[float],
               fig_sums: list[dict[str, float]], fig_counts: list[dict[str, int]]
               ) -> dict[str, Estimate]:
    """Each action's estimate from the sums over the samples of its hand scores, of their
    squares, and of its figures (with how many samples had each)."""
    out = {}
    for i, text in enumerate(texts):
        mean = sums[i] / rollouts
        var = (squares[i] - rollouts * mean * mean) / (rollouts - 1) if rollouts > 1 else 0.0
        out[text] = Estimate(mean=mean, stderr=math.sqrt(max(var, 0.0) / rollouts),
                             figures={k: fig_sums[i][k] / fig_counts[i][k]
                                      for k in sorted(fig_sums[i])})
    return out


def _card_play(bot: str, game: str, seats: int) -> tuple[list[Player] | None, Any]:
    """The fast path's card play: None for random cards, else the heuristic bot as the
    kernel plays it, one :class:`~cardlab.kernel.Player` a seat (the compiled ``player``
    of a bot that has one, else its ``play_card``: :class:`~cardlab.game.CardPlayer`,
    called straight, not through the bot's dispatch on the phase), and the stand-in
    generator it reads."""
    if bot == "random":
        return None, None
    heuristic = get_game(game).heuristic_bot(0)
    if not isinstance(heuristic, CardPlayer):
        raise TypeError(f"{game} has an outcome hook, so its heuristic bot plays a card with "
                        "play_card(state, seat, legal)")
    reader = _Numbers()
    heuristic.rng = reader
    player = getattr(heuristic, "player", None)
    if not isinstance(player, Player):
        player = _CardPlay(heuristic)
    return [player] * seats, reader


class _CardPlay(Player):
    """A bot's ``play_card`` as the kernel calls a player (a bot with no compiled one)."""

    def __init__(self, bot: CardPlayer) -> None:
        self.bot = bot

    def act(self, table: TrickKernel, seat: int) -> int:
        return self.bot.play_card(table, seat, table.legal_actions())


def _numbers_needed(state: State) -> int:
    """Random numbers a playout of the rest of the hand reads at most: one per decision
    (trick games: every card held, a bid each and the hat); 64 for other games."""
    if not isinstance(state, TrickKernel):
        return 64
    hands = state.hands
    return sum(map(len, chain.from_iterable(hands))) + 2 * len(hands) + 2


def _hand_score(state: State, seat: int, start: State) -> int:
    """The seat's score for the hand just finished: its row of the score sheet when the
    game keeps one, else what its total gained from the start of the hand (``start`` is a
    state earlier in the same hand)."""
    sheet = getattr(state, "sheet", None)
    if sheet and state.hand_over() and len(sheet) == state.hand_number():
        return int(sheet[-1][seat])
    return state.totals()[seat] - (start.totals()[seat] - start.hand_scores()[seat])


class _Numbers:
    """Stands in for a bot's random generator: its ``random`` reads the sample's numbers."""

    __slots__ = ("random",)

    def __init__(self) -> None:
        self.random: Callable[[], float] = random.random


def _playout(bot: str, game: str, seat: int, budget: SolverBudget
             ) -> Callable[[State, Callable[[], float]], None]:
    """A function that finishes the hand of a state with ``bot``, reading random numbers
    from the function it is given. The ``exact`` bot's solves have ``budget``: a playout
    whose solve runs past it is finished by the heuristic bot, and counted there."""
    if bot == "random":
        def random_playout(state: State, numbers: Callable[[], float]) -> None:
            state.random_playout(numbers)

        return random_playout
    heuristic = get_game(game).heuristic_bot(0)
    stream = _Numbers()
    heuristic.rng = stream
    solve = _solver() if bot == "exact" else None
    apply_bot = heuristic

    def bot_playout(state: State, numbers: Callable[[], float]) -> None:
        stream.random = numbers
        to_act = state.to_act
        apply = state.apply
        solver = solve
        budget.playouts += 1
        while True:
            actor = to_act()
            if actor < 0:
                return
            if solver is not None and _few_cards(state):
                try:
                    _solve_out(state, seat, solver, budget.nodes)
                    return
                except SolveBudgetError:
                    solver = None  # the heuristic bot plays on from where it stopped
                    budget.stopped += 1
                    continue
            apply(apply_bot(state, actor))

    return bot_playout


def _few_cards(state: State) -> bool:
    return (isinstance(state, TrickKernel) and state.phase == PLAY
            and max(sum(len(s) for s in held) for held in state.hands) <= EXACT_CARDS)


def _solver() -> Callable[[State, int, int | None], dict[int, int]]:
    try:
        from .solver import solve
    except ImportError:
        raise CardlabError("the exact bot needs the open-hand solver (cardlab.advisor.solver),"
                           " which is not installed in this cardlab") from None
    return solve  # type: ignore[no-any-return]


def _solve_out(state: State, seat: int,
               solve: Callable[[State, int, int | None], dict[int, int]],
               nodes: int | None) -> None:
    """Finish the play with paranoid choices: ``seat`` takes its best card by the solver,
    every other seat the card worst for ``seat`` (the first such in the engine's order).
    Each solve has the budget ``nodes``; past it a :class:`SolveBudgetError` leaves the
    cards played so far on ``state``."""
    while True:
        actor = state.to_act()
        if actor < 0:
            return
        values = solve(state, seat, nodes)
        pick = max if actor == seat else min
        best = pick(values.values())
        state.apply(next(card for card in state.legal_actions() if values[card] == best))


def _solved(state: State, seat: int, texts: Sequence[str], figures: Figures,
            nodes: int | None) -> dict[str, Estimate]:
    solve = _solver()
    out = {}
    for text in texts:
        after = state.clone()
        after.act(text)
        _solve_out(after, seat, solve, nodes)
        out[text] = Estimate(mean=float(_hand_score(after, seat, state)), stderr=0.0,
                             figures=figures(after, seat, state))
    return out


__all__ = ["BOTS", "EXACT_CARDS", "Estimate", "Evaluation", "SolverBudget", "evaluate", "run"]
