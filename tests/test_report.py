"""Decisions, marks and luck from analysed replays (issue 11, points 4 and 5).

The threshold tests set values by hand (that is what they test); everything else reads
replays analysed for real by the advisor, played by random bots so that costly decisions
occur.
"""

from __future__ import annotations

import functools
import math
import re

import pytest

import cardlab
from cardlab import text
from cardlab.advisor import report
from cardlab.advisor.report import BLUNDER, MISTAKE, NOISE, judge
from cardlab.analyse import analyse
from cardlab.bots import make_bot
from cardlab.errors import OptionError

# -- the thresholds (explicit values) ----------------------------------------------------


@pytest.mark.parametrize("loss, se, mark", [
    (MISTAKE - 0.01, 0.0, ""), (MISTAKE, 0.0, "?"), (BLUNDER - 0.01, 0.0, "?"),
    (BLUNDER, 0.0, "??"), (30.0, 0.0, "??"), (0.0, 0.0, ""),
    # the noise: the loss must be more than NOISE standard errors of the difference
    (3.0, 3.0 / NOISE / math.sqrt(2) + 0.01, ""), (3.0, 3.0 / NOISE / math.sqrt(2) - 0.01, "?"),
    (6.0, 6.0 / NOISE / math.sqrt(2) + 0.01, ""), (6.0, 6.0 / NOISE / math.sqrt(2) - 0.01, "??"),
])
def test_the_marks_follow_the_documented_thresholds(loss, se, mark):
    values = {"play a": [1.0, se], "play b": [1.0 - loss, se], "play c": [-50.0, 0.0]}
    verdict = judge(values, "play b")
    assert verdict.mark == mark
    assert verdict.best == ("play b" if loss == 0 else "play a")
    assert verdict.loss == pytest.approx(loss)
    if loss:
        assert verdict.noise == pytest.approx(math.hypot(se, se))


def test_the_best_action_loses_nothing_and_equals_are_no_mistake():
    values = {"bid 0": [3.0, 0.1], "bid 1": [3.0, 0.1], "bid 2": [-9.0, 0.1]}
    assert judge(values, "bid 1") == judge(values, "bid 1")
    assert judge(values, "bid 1").loss == 0 and judge(values, "bid 1").mark == ""
    assert judge(values, "bid 2").mark == "??"


def test_where_the_lowest_score_wins_the_lowest_mean_is_best():
    values = {"draw": [12.0, 0.2], "play circle7": [4.0, 0.2]}
    assert judge(values, "draw", low_score_wins=True).mark == "??"
    assert judge(values, "draw", low_score_wins=True).best == "play circle7"
    assert judge(values, "play circle7", low_score_wins=True).loss == 0
    assert judge(values, "play circle7").mark == "??"  # the other way round


def test_judging_an_action_without_a_value_is_an_error():
    with pytest.raises(OptionError, match="no value for the action played"):
        judge({"bid 0": [1.0, 0.0]}, "bid 1")


# -- real analysed replays ---------------------------------------------------------------

@functools.cache
def _analysed(game: str, seed: int) -> str:
    options = {"teds-game": {"players": 3, "start_size": 3},
               "bobs-hat": {"players": 4, "hands": 2},
               "whot": {"players": 3, "rubber": "single", "max_turns": 60}}[game]
    table = cardlab.new_game(game, seed=seed, **options)
    table.play([make_bot("random", game, seed=s) for s in range(options["players"])])
    return analyse(table.replay, rollouts=24, seed=seed, progress=False).to_json()


def analysed(game: str = "teds-game", seed: int = 1) -> cardlab.Replay:
    return cardlab.loads(_analysed(game, seed))


GAMES = [("teds-game", 1), ("bobs-hat", 2), ("whot", 3)]


@pytest.mark.parametrize("game, seed", GAMES)
def test_decisions_read_every_record_of_the_main_line(game, seed):
    replay = analysed(game, seed)
    low = replay.rules.low_score_wins
    found = report.decisions(replay)
    records = [(h, i, a) for h, hand in enumerate(replay.hands, 1)
               for i, a in enumerate(hand.actions) if a.eval is not None]
    assert [(d.hand, d.index) for d in found] == [(h, i) for h, i, _ in records]
    for decision, (_, _, action) in zip(found, records, strict=True):
        assert replay.seats[decision.seat] == action.seat == action.eval["seat"]
        assert decision.played == action.act
        assert decision.values == {t: tuple(v) for t, v in action.eval["values"].items()}
        means = {t: v[0] for t, v in decision.values.items()}
        best = (min if low else max)(means.values())
        assert means[decision.best] == best
        assert decision.loss == pytest.approx(abs(best - means[decision.played]))
        assert decision.mark == judge(action.eval["values"], action.act, low).mark
    for seat, name in enumerate(replay.seats):
        assert report.decisions(replay, seat) == [d for d in found if d.seat == seat]
        assert report.decisions(replay, name) == report.decisions(replay, seat)


@pytest.mark.parametrize("game, seed", GAMES)
def test_luck_is_the_result_less_the_expectation_and_the_skill(game, seed):
    replay = analysed(game, seed)
    sign = -1 if replay.rules.low_score_wins else 1
    found = report.decisions(replay)
    rows = report.luck(replay)
    assert rows
    for row in rows:
        mine = [d for d in found if d.hand == row.hand and d.seat == row.seat]
        assert row.decisions == len(mine) > 0
        assert row.result == replay.hands[row.hand - 1].scores[row.seat]
        assert row.expected == mine[0].values[mine[0].best][0]
        assert row.skill == pytest.approx(-sum(d.loss for d in mine)) and row.skill <= 0
        assert row.luck == pytest.approx(sign * (row.result - row.expected) - row.skill)
    finished = {(d.hand, d.seat) for d in found if replay.hands[d.hand - 1].scores is not None}
    assert {(r.hand, r.seat) for r in rows} == finished
    summary = report.summary(replay)
    assert sum(r["decisions"] for r in summary) == len(found)
    assert sum(r["?"] + r["??"] for r in summary) == sum(bool(d.mark) for d in found)


def _marked_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if re.match(r"^ {4}\?\?? ", line)]


@pytest.mark.parametrize("game, seed", GAMES)
def test_show_marks_exactly_the_decisions_whose_loss_passes_the_thresholds(game, seed):
    replay = analysed(game, seed)
    found = report.decisions(replay)
    marked = [d for d in found if d.mark]
    assert marked, "the random bots' game should hold a costly decision"
    lines = text.render(replay).splitlines()
    comments = _marked_lines(lines)
    assert comments == [f"    {d.mark} {replay.seats[d.seat]}: {d.played} lost {d.loss:.1f} "
                        f"expected points; best {d.best} (24 rollouts)" for d in marked]
    # each mark sits on its action: on its line, or on the card in its trick's line
    body = lines[1:]  # the title may hold a "?" of its own (Where's Bob's Hat?)
    inline = sum(line.count("?") for line in body if not re.match(r"^ {4}\?", line))
    assert inline == sum(len(d.mark) for d in marked)
    unmarked = text.render(cardlab.loads(_strip(replay))).splitlines()
    assert unmarked[0] == lines[0] and "?" not in "\n".join(unmarked[1:])
    assert [line.replace("?", "") for line in body if line not in comments] == unmarked[1:]


def _strip(replay: cardlab.Replay) -> str:
    bare = replay.copy()
    for hand in bare.hands:
        for action in hand.actions:
            action.eval = None
    return bare.to_json()


def test_a_play_in_a_trick_game_is_marked_on_its_card():
    replay = analysed("bobs-hat", 2)
    plays = [d for d in report.decisions(replay) if d.mark and d.played.startswith("play")]
    assert plays
    lines = text.render(replay).splitlines()
    for d in plays:
        card = f"{replay.seats[d.seat]} {d.played.split()[1]}{d.mark}"
        assert any(line.startswith("  Trick") and (card + "," in line or card + " →" in line)
                   for line in lines), card


@pytest.mark.parametrize("game, seed", GAMES)
def test_a_seats_view_marks_only_that_seats_own_decisions(game, seed):
    replay = analysed(game, seed)
    found = report.decisions(replay)
    for seat, name in enumerate(replay.seats):
        comments = _marked_lines(text.render(replay, seat=seat).splitlines())
        mine = [d for d in found if d.mark and d.seat == seat]
        assert len(comments) == len(mine)
        assert all(line.split()[1] == f"{name}:" for line in comments)
