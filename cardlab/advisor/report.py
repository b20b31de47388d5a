"""What an analysed replay says: each decision's loss and mark, and luck against skill.

A replay analysed by ``cardlab analyse`` (:func:`cardlab.analyse.analyse`) carries an eval
record on every evaluated action: the expected hand score of each legal action, with its
standard error. This module reads those records (it computes no value itself):

- :func:`judge` compares what was played with the best action and gives the mark, ``?`` or
  ``??``, of a costly decision (the thresholds and why: docs/advisor.md);
- :func:`decisions` lists every evaluated decision of the main line, and
  :func:`luck` splits each hand's result into expectation, skill and luck.

The text view (``cardlab show``) and the viewer's chart, costly-decision list and luck
table are drawn from these, so every view shows the same marks.

>>> verdict = judge({"play red9": [-3.1, 0.4], "play red12": [-0.6, 0.4]}, "play red9")
>>> verdict.best, round(verdict.loss, 2), verdict.mark
('play red12', 2.5, '?')
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import OptionError, brief
from ..replay import Action, Replay
from ..seatview import visible_eval

# A decision is marked when it lost at least this many expected points (of the seat's hand
# score) against the best action, and more than NOISE standard errors of that difference:
MISTAKE = 2.0   # "?": about a fifth of a bid's or the hat's swing (docs/advisor.md)
BLUNDER = 5.0   # "??": about half of it
NOISE = 2.0     # standard errors of the difference: a smaller gap may be sampling noise


@dataclasses.dataclass(frozen=True)
class Verdict:
    """How one decision compares with the best action of its eval record."""

    best: str    # the action with the best expected score (the first of equals, by text order)
    loss: float  # expected points lost against it, >= 0
    noise: float  # the standard error of that difference (see :func:`judge`)
    mark: str    # "", "?" or "??"


def judge(values: Mapping[str, Sequence[float]], played: str,
          low_score_wins: bool = False) -> Verdict:
    """The best action of ``values`` (action text -> ``[mean, stderr]``), what ``played`` lost
    against it and its mark.

    The mark is ``??`` for a loss of at least :data:`BLUNDER` points, ``?`` for at least
    :data:`MISTAKE`, and only when the loss is also more than :data:`NOISE` standard errors of
    the difference, ``sqrt(se_best**2 + se_played**2)``. That is the standard error of the
    difference of independent means; the advisor plays every action on the same sampled deals
    (common random numbers), which makes the two means positively correlated and the true
    standard error of their difference smaller, so the test errs on the side of no mark. An
    exact record (standard errors 0) is judged by the thresholds alone. ``low_score_wins``
    (Whot: points against) makes the lowest mean the best.

    >>> judge({"bid 0": [4.0, 0.3], "bid 1": [-2.5, 0.4]}, "bid 1").mark
    '??'
    >>> judge({"bid 0": [4.0, 3.0], "bid 1": [-2.5, 2.0]}, "bid 1").mark  # too noisy to tell
    ''
    """
    if played not in values:
        raise OptionError(f"the eval has no value for the action played, {brief(played)}")
    sign = -1.0 if low_score_wins else 1.0
    best = max(sorted(values), key=lambda text: sign * values[text][0])
    best_mean, best_se = values[best][0], values[best][1]
    mean, se = values[played][0], values[played][1]
    loss = max(0.0, sign * (best_mean - mean))
    if played == best or loss == 0.0:
        return Verdict(played, 0.0, 0.0, "")
    noise = math.hypot(best_se, se)
    mark = ""
    if loss > NOISE * noise:
        mark = "??" if loss >= BLUNDER else "?" if loss >= MISTAKE else ""
    return Verdict(best, loss, noise, mark)


@dataclasses.dataclass(frozen=True)
class Decision:
    """One evaluated decision of the main line."""

    hand: int    # counted from 1
    index: int   # actions of the hand made before it (as ``evaluate(replay, hand, index)``)
    seat: int    # 0-based
    played: str
    values: dict[str, tuple[float, float]]  # action text -> (mean, stderr)
    best: str
    loss: float  # best mean - played mean (points against: played - best), >= 0
    mark: str    # "", "?" or "??" (see :func:`judge`)
    exact: bool
    noise: float = 0.0  # the standard error of the loss (see :func:`judge`)


def _seat_number(replay: Replay, seat: int | str | None) -> int | None:
    return None if seat is None else replay.seat_index(seat)


def played_text(replay: Replay, hand: int, index: int, action: Action) -> str:
    """The played action's text as the eval record's keys write it: the action's own text,
    since a loaded or recorded action is stored in the engine's spelling (the loader respells
    ``PLAY CIRCLE5`` as ``play circle5``), so no lookup replays the hand. ``hand`` (from 1)
    and ``index`` say where the action is, for the message if the record has no such key."""
    record = action.eval
    if record is not None and action.act not in record["values"]:
        raise OptionError(f"hand {hand}, action {index + 1}: the eval has no value for the "
                          f"action played, {brief(action.act)} (a replay's actions are in "
                          "the engine's spelling once loaded: load or validate it)")
    return action.act


def decisions(replay: Replay, seat: int | str | None = None,
              seat_view: bool = False) -> list[Decision]:
    """Every evaluated decision of the main line, hand by hand, in order (``seat``: of that
    seat only, a number from 0 or a name).

    ``seat_view=True``: only those that ``seat``'s own view may show
    (:func:`cardlab.seatview.visible_eval`), so none whose record is ``exact``, solved with
    every hand open; what is computed from the list (the costly decisions, the chart,
    :func:`luck`) then holds nothing of those either.

    >>> import cardlab
    >>> from cardlab.analyse import analyse
    >>> from cardlab.bots import make_bot
    >>> game = cardlab.new_game("teds-game", players=3, seed=2, start_size=2)
    >>> game.play([make_bot("heuristic", "teds-game", seed=s) for s in range(3)])
    >>> done = analyse(game.replay, rollouts=20, progress=False)
    >>> first = decisions(done)[0]
    >>> first.hand, first.index, first.played in first.values, first.loss >= 0
    (1, 0, True, True)
    """
    wanted = _seat_number(replay, seat)
    viewer = None if wanted is None or not seat_view else replay.seats[wanted]
    low = replay.rules.low_score_wins
    out: list[Decision] = []
    for h, hand in enumerate(replay.hands, 1):
        for index, action in enumerate(hand.actions):
            record = action.eval
            if record is None:
                continue
            who = replay.seat_index(record["seat"])
            if (wanted is not None and who != wanted) or \
                    not visible_eval(record, action.seat, viewer):
                continue
            played = played_text(replay, h, index, action)
            values = {text: (float(pair[0]), float(pair[1]))
                      for text, pair in record["values"].items()}
            verdict = judge(values, played, low)
            out.append(Decision(hand=h, index=index, seat=who, played=played, values=values,
                                best=verdict.best, loss=verdict.loss, mark=verdict.mark,
                                exact=bool(record.get("exact", False)), noise=verdict.noise))
    return out


@dataclasses.dataclass(frozen=True)
class HandLuck:
    """One seat's hand: its result against what it could expect, split into skill and luck.

    ``result = expected + skill + luck`` (in points against, for Whot: ``expected - skill -
    luck``), so a positive ``luck`` is good luck in every game.
    """

    hand: int       # counted from 1
    seat: int       # 0-based
    result: int     # the seat's hand score
    expected: float  # the best value at the seat's first evaluated decision of the hand
    skill: float    # -(the sum of the losses of the seat's evaluated decisions), <= 0
    luck: float     # what the cards and the others' play gave beyond that
    decisions: int = 0  # how many evaluated decisions the skill sums


def luck(replay: Replay, seat: int | str | None = None,
         seat_view: bool = False) -> list[HandLuck]:
    """Luck against skill, per finished hand and seat with at least one evaluated decision
    (``seat``: that seat only; ``seat_view``: from the decisions that seat's view may show,
    as :func:`decisions`, so no ``exact`` record counts in the expectation or the skill).

    ``expected`` is what the seat could expect at its first evaluated decision of the hand,
    knowing its own cards (the best action's value: so the deal of the seat's own cards is
    not luck here, but the cards of the others and their play are). Each later decision
    lost its ``loss`` against the best action; the rest of the result is luck:
    ``luck = result - expected - skill`` with ``skill = -sum(losses)`` (for a game where the
    lowest score wins, Whot, the signs turn so that luck and skill are in points for the seat).

    >>> import cardlab
    >>> from cardlab.analyse import analyse
    >>> from cardlab.bots import make_bot
    >>> game = cardlab.new_game("teds-game", players=3, seed=2, start_size=2)
    >>> game.play([make_bot("heuristic", "teds-game", seed=s) for s in range(3)])
    >>> row = luck(analyse(game.replay, rollouts=20, progress=False), seat=0)[0]
    >>> abs(row.result - (row.expected + row.skill + row.luck)) < 1e-9
    True
    """
    sign = -1.0 if replay.rules.low_score_wins else 1.0
    firsts: dict[tuple[int, int], Decision] = {}
    losses: dict[tuple[int, int], list[float]] = {}
    for decision in decisions(replay, seat, seat_view):
        key = (decision.hand, decision.seat)
        firsts.setdefault(key, decision)
        losses.setdefault(key, []).append(decision.loss)
    out = []
    for (hand, who), first in firsts.items():
        scores = replay.hands[hand - 1].scores
        if scores is None:
            continue  # the hand is not finished: no result yet
        expected = first.values[first.best][0]
        skill = -math.fsum(losses[(hand, who)])
        result = scores[who]
        out.append(HandLuck(hand=hand, seat=who, result=result, expected=expected,
                            skill=skill, luck=sign * (result - expected) - skill,
                            decisions=len(losses[(hand, who)])))
    out.sort(key=lambda row: (row.hand, row.seat))
    return out


def summary(replay: Replay) -> list[dict[str, Any]]:
    """Per seat: decisions evaluated, marks, expected points lost, and the luck of its
    finished hands (plain dicts, for a table)."""
    rows = []
    all_decisions = decisions(replay)
    all_luck = luck(replay)
    for who, name in enumerate(replay.seats):
        mine = [d for d in all_decisions if d.seat == who]
        hands = [row for row in all_luck if row.seat == who]
        rows.append({"seat": name, "decisions": len(mine),
                     "?": sum(d.mark == "?" for d in mine),
                     "??": sum(d.mark == "??" for d in mine),
                     "lost": math.fsum(d.loss for d in mine),
                     "luck": math.fsum(row.luck for row in hands)})
    return rows
