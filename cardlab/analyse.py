"""Analyse a whole replay: the advisor's evaluation of every decision of the main line.

:func:`analyse` evaluates each decision (of every seat, or of one) with
:func:`cardlab.advisor.evaluate` and returns a new replay whose actions carry the results as
eval records (docs/replay-format.md); ``cardlab analyse REPLAY`` does the same on the command
line and writes the analysed replay atomically. ``cardlab show`` then marks the costly
decisions with ``?`` and ``??`` and :mod:`cardlab.advisor.report` lists them.

A *decision* is a position of the main line where the seat to act has two or more legal
actions and makes the next action itself: a forced action (one legal card) has nothing to
evaluate, and an out-of-turn action (a Ted's Game bid change) is no choice of the seat to act.

Each decision gets its own seed, derived from ``(seed, hand, index)`` alone and stored in its
record, so a decision's numbers do not depend on which other decisions were analysed, on the
order, or on how many processes shared the work: ``workers=2`` gives the very same replay as
``workers=1``, and ``evaluate(replay, hand, index, rollouts=N, seed=record["seed"],
bot=...)`` gives the record's numbers again.

The ``exact`` bot's solves have a budget of ``nodes`` each (the solver's default unless told):
a playout whose solve runs past it is finished by the heuristic bot, Monte Carlo as the other
bots, and the decision's record says so in its ``note`` (docs/advisor.md). The budget counts
nodes, not time, so the replay is the same on every machine.

>>> import cardlab
>>> from cardlab.bots import make_bot
>>> game = cardlab.new_game("teds-game", players=3, seed=2, start_size=2)
>>> game.play([make_bot("heuristic", "teds-game", seed=s) for s in range(3)])
>>> done = analyse(game.replay, rollouts=20, progress=False)
>>> record = done.hands[0].actions[0].eval
>>> record["seat"] == done.hands[0].actions[0].seat, record["rollouts"]
(True, 20)
>>> cardlab.loads(done.to_json()) == done   # it saves, validates and loads back the same
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from .advisor.solver import NODES, check_nodes
from .cursor import walk
from .errors import CardlabError, OptionError, brief
from .replay import Replay
from .validation import EVAL_BOTS, check_rollouts
from .words import plural

SEED_BITS = 53  # a derived seed stays an exact number in JavaScript too (the viewer reads it)


@dataclasses.dataclass(frozen=True)
class DecisionPoint:
    """Where a decision is: hand (from 1), actions made before it, and the seat (0-based)."""

    hand: int
    index: int
    seat: int


def decision_seed(seed: int, hand: int, index: int) -> int:
    """The seed of the decision after ``index`` actions of hand ``hand``: from these three
    alone (BLAKE2b), a whole number below 2**53.

    >>> decision_seed(0, 1, 0) == decision_seed(0, 1, 0) != decision_seed(0, 1, 1)
    True
    """
    material = f"cardlab-analyse:{seed}:{hand}:{index}".encode()
    digest = hashlib.blake2b(material, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def decision_points(replay: Replay, seat: int | None = None) -> list[DecisionPoint]:
    """Every decision of the main line (see the module's docstring), hand by hand, in
    order; ``seat`` (0-based): that seat's only."""
    out: list[DecisionPoint] = []
    for _, hand_index, index, state in walk(replay):
        actions = replay.hands[hand_index].actions
        if index >= len(actions):
            continue
        to_act = state.to_act()
        if to_act < 0 or (seat is not None and to_act != seat):
            continue
        if actions[index].seat != replay.seats[to_act]:
            continue  # made out of turn: no choice of the seat to act
        if len(state.legal_actions()) < 2:
            continue  # forced
        out.append(DecisionPoint(hand_index + 1, index, to_act))
    return out


def check_options(replay: Replay, seat: str | int | None, rollouts: object, seed: object,
                  bot: object, workers: object, nodes: object = NODES) -> int | None:
    """Refuse a bad option before any work, naming it; return the seat number (or None)."""
    check_rollouts(rollouts)
    check_nodes(nodes)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"seed is a whole number, not {brief(seed)}")
    if bot not in EVAL_BOTS:
        raise OptionError(f"the bot is one of {', '.join(EVAL_BOTS)}, not {brief(bot)}")
    if bot == "exact" and not replay.rules.game.game_type.exact_solver:
        raise OptionError(f"the exact bot plays the trick-taking games, not {replay.game}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise OptionError(f"workers is a whole number of at least 1, not {brief(workers)}")
    return None if seat is None else replay.seat_index(seat)


def analyse(replay: Replay, seat: str | int | None = None, rollouts: int = 200, seed: int = 0,
            bot: str = "heuristic", progress: bool = True, workers: int | None = 1,
            nodes: int | None = NODES) -> Replay:
    """A copy of ``replay`` with an eval record on every decision of the main line (of
    ``seat`` only: its name or 0-based number), by :func:`cardlab.advisor.evaluate` with
    ``rollouts`` samples per decision, the rollout ``bot`` and the budget ``nodes`` of each
    of the ``exact`` bot's solves (None: none).

    Eval records already on those actions are replaced; others are kept. ``progress`` draws
    a tqdm bar on standard error. ``workers`` processes share the decisions (``None``: one
    per core); the result is the same for any number (see the module's docstring).
    """
    number = check_options(replay, seat, rollouts, seed, bot, workers, nodes)
    out = replay.copy()
    points = decision_points(out, number)
    tasks = [(p.hand, p.index, decision_seed(seed, p.hand, p.index)) for p in points]
    count = (os.cpu_count() or 1) if workers is None else workers
    count = max(1, min(count, len(tasks)))
    from tqdm import tqdm

    bar = tqdm(total=len(tasks), desc="analyse", unit="decision", file=sys.stderr,
               disable=not progress, leave=False)
    try:
        for (hand, index, _), record in _results(out, tasks, rollouts, bot, count, nodes):
            out.hands[hand - 1].actions[index].eval = record
            bar.update(1)
    finally:
        bar.close()
    return out


def _results(replay: Replay, tasks: Sequence[tuple[int, int, int]], rollouts: int, bot: str,
             workers: int, nodes: int | None
             ) -> Iterator[tuple[tuple[int, int, int], dict[str, Any]]]:
    if workers <= 1:
        for task in tasks:
            yield task, _evaluate(replay, task, rollouts, bot, nodes)
        return
    from .workers import WorkerPool

    # Each worker loads the replay once; a job is three numbers, a result one record. The
    # workers exit with this process, however it ends (cardlab/workers.py).
    pool = WorkerPool(workers, setup=_start_worker, setup_args=(replay.to_json(), rollouts,
                                                                  bot, nodes))
    todo = list(reversed(tasks))  # a stack: the next task to start is last
    try:
        while todo or pool.busy():
            while todo and pool.free():
                task = todo.pop()
                pool.submit(task, _work, task)
            for outcome in pool.wait():
                if outcome.died:
                    hand, index, _ = outcome.tag
                    raise CardlabError(f"a worker process died while it evaluated hand "
                                       f"{hand}'s decision after {index} actions")
                yield outcome.tag, outcome.value
    except BaseException:
        # Interrupted, failed, or the caller stopped reading: the tasks in flight are not
        # waited for (one can take minutes).
        pool.close(now=True)
        raise
    pool.close(now=False)


def _evaluate(replay: Replay, task: tuple[int, int, int], rollouts: int, bot: str,
              nodes: int | None) -> dict[str, Any]:
    from .advisor import evaluate

    hand, index, seed = task
    return evaluate(replay, hand, index, rollouts=rollouts, seed=seed, bot=bot,
                    nodes=nodes).record()


_WORKER: dict[str, Any] = {}


def _start_worker(text: str, rollouts: int, bot: str, nodes: int | None) -> None:
    from .loader import loads

    _WORKER.update(replay=loads(text), rollouts=rollouts, bot=bot, nodes=nodes)


def _work(task: tuple[int, int, int]) -> dict[str, Any]:
    return _evaluate(_WORKER["replay"], task, _WORKER["rollouts"], _WORKER["bot"],
                     _WORKER["nodes"])


def add_parser(sub: Any) -> None:
    """Register ``cardlab analyse`` on the CLI's subparsers (cardlab/cli.py calls this)."""
    from .limits import Limits

    command = sub.add_parser("analyse", help="evaluate every decision with the advisor and "
                                              "write the analysed replay")
    command.add_argument("file", help="the replay: a file, or example:NAME (see `cardlab "
                                      "examples`)")
    command.add_argument("--seat", help="only this seat's decisions (default: every seat)")
    command.add_argument("--rollouts", default="200",
                         help="samples per decision, each played out (default 200)")
    command.add_argument("--seed", default="0", help="a whole number (default 0)")
    command.add_argument("--bot", default="heuristic",
                         help=f"the rollout policy: {', '.join(EVAL_BOTS)} (default heuristic)")
    command.add_argument("--workers", help="processes sharing the work (default: one per "
                                           "core); the result is the same for any number")
    command.add_argument("--nodes", default=str(NODES),
                         help="the budget of each of the exact bot's solves, in nodes (default "
                              f"{NODES:,}); a playout whose solve runs past it is finished by "
                              "the heuristic bot, and its record says so")
    command.add_argument("-o", "--out", help="where to write the analysed replay (default: "
                                             "<name>-analysed.json in the current folder)")
    command.add_argument("--limit", action="append", default=[], metavar="NAME=N",
                         help="raise (or lower) a limit of what the file may hold; the limits "
                              f"are {', '.join(Limits.names())}")


def default_output(file: str) -> str:
    """Where ``cardlab analyse FILE`` writes without ``-o``: ``<name>-analysed.json`` in the
    current folder (never over the input, which may be a shipped example).

    >>> default_output("replays/game.json"), default_output("example:norwegian-review")
    ('game-analysed.json', 'norwegian-review-analysed.json')
    """
    from .loader import stem

    return stem(file) + "-analysed.json"


def run_command(replay: Replay, file: str, out: str | None, seat: str | None, rollouts: str,
                seed: str, bot: str, workers: str | None, nodes: str = str(NODES)) -> str:
    """The ``cardlab analyse`` command (after loading): check the options, analyse, write
    atomically; return the line to print. Every bad option is an :class:`OptionError`."""
    from .files import check_target

    text = rollouts.strip()
    if not (text.isdecimal() and text.isascii()) or int(text) < 1:
        raise OptionError(f"--rollouts takes a whole number of at least 1, not {rollouts!r}")
    seed_text = seed.strip()
    try:
        seed_number = int(seed_text)
    except ValueError:
        raise OptionError(f"--seed takes a whole number, not {seed!r}") from None
    if bot not in EVAL_BOTS:
        raise OptionError(f"--bot is one of {', '.join(EVAL_BOTS)}, not {bot!r}")
    count: int | None = None
    if workers is not None:
        if not (workers.strip().isdecimal() and workers.isascii()) or int(workers) < 1:
            raise OptionError(f"--workers takes a whole number of at least 1, not {workers!r}")
        count = int(workers)
    budget = nodes.strip().replace(",", "").replace("_", "")
    if not (budget.isdecimal() and budget.isascii()) or int(budget) < 1:
        raise OptionError(f"--nodes takes a whole number of at least 1, not {nodes!r}")
    number: int | None = None
    if seat is not None:
        try:
            number = replay.seat_index(seat)
        except OptionError as err:
            raise OptionError(f"{file}: {err}") from None
    target = default_output(file) if out is None else out
    check_target(target)  # before the work, not after
    done = analyse(replay, seat=number, rollouts=int(text), seed=seed_number, bot=bot,
                   progress=True, workers=count, nodes=int(budget))
    done.save(target)
    points = decision_points(done, number)
    noted = sum(1 for p in points if "note" in (done.hands[p.hand - 1].actions[p.index].eval
                                               or {}))
    line = (f"wrote {target}: {plural(len(points), 'decision')} evaluated, "
            f"{plural(int(text), 'rollout')} each")
    if noted:
        line += (f"; in {plural(noted, 'decision')} a solve stopped at its budget of "
                 f"{plural(int(budget), 'node')} and the heuristic bot finished those "
                 "playouts (each record's note says how many)")
    return line


__all__ = ["DecisionPoint", "add_parser", "analyse", "decision_points", "decision_seed",
           "default_output"]
