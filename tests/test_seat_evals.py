"""A seat's view holds no open-hand evaluation (issue 18, point 6).

An eval record marked ``"exact": true`` was solved with every hand open: its values, its
best action, its loss and its mark tell what the other hands hold. The leak tests of issue 9
(tests/test_seatview.py, tests/test_view.py) search a seat's view for hidden cards; these
extend them to eval records. An analysed replay gets exact records (solved with every hand
open near the end of each hand, for every seat, and one on a seat's first decision of a hand,
which the luck table reads), each given a loss that no real score reaches, so that what is
derived from it can be recognised. Then for every seat, on every surface that shows a seat's
view (``text.render``, ``cardlab show --seat``, ``build_movie``, ``page_html``, ``cardlab html
--seat``, the notebook viewer's movie, the report's decisions and luck, the quiz):

- the output is exactly that of the same replay with its exact records removed, so nothing
  computed from them (a mark, a loss, a best play, a luck figure, a summary) is there;
- none of the exact records' distinctive numbers appears in it, nor the step of an exact
  record among its decisions, nor, at that step, the record's best card where it is hidden
  from the seat.

Everyone's view does show them (the check can see what it looks for).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest

import cardlab
from cardlab import text
from cardlab.advisor import evaluate, report
from cardlab.analyse import analyse
from cardlab.cli import main
from cardlab.lessons.quiz import Quiz
from cardlab.seatview import hidden_from
from cardlab.view import ReplayViewer, build_movie, page_html
from cardlab.view.evals import number

LOSS = 81.3      # the first exact record's loss; each next one loses 2 more
EXPECTED = 57.7  # the best value of the exact record on a seat's first decision of a hand
DISTINCT = 50.0  # no value of Where's Bob's Hat? reaches this: a larger one is a trace


@functools.cache
def opened() -> cardlab.Replay:
    """The review, analysed (random rollouts: only the numbers matter here), with exact
    records on each seat's last two plays of every hand and on Brad's first decision of
    hand 2."""
    replay = analyse(cardlab.example("norwegian-review"), rollouts=12, bot="random",
                     progress=False)
    assert all(abs(v[0]) < DISTINCT for hand in replay.hands for a in hand.actions
               if a.eval for v in a.eval["values"].values())  # traces are unambiguous
    loss = LOSS
    for h, hand in enumerate(replay.hands, 1):
        for name in replay.seats:
            plays = [i for i, a in enumerate(hand.actions)
                     if a.eval and a.seat == name and a.act.startswith("play")]
            for i in plays[-2:]:
                record = evaluate(replay, h, i, open_hands=True).record()
                assert record["exact"]
                _lose(record, report.played_text(replay, h, i, hand.actions[i]), loss)
                hand.actions[i].eval = record
                loss += 2
    hand = replay.hands[1]
    first = next(i for i, a in enumerate(hand.actions) if a.eval and a.seat == "Brad")
    record = dict(hand.actions[first].eval, exact=True)
    record["values"] = {t: [v[0], 0.0] for t, v in record["values"].items()}
    played = report.played_text(replay, 2, first, hand.actions[first])
    best = next(t for t in record["values"] if t != played)
    record["values"][best] = [EXPECTED, 0.0]
    _lose(record, played, loss)
    hand.actions[first].eval = record
    return replay


def _lose(record: dict[str, Any], played: str, loss: float) -> None:
    """Make the played action lose ``loss`` against the best of the others (a ``??``)."""
    top = max(v[0] for t, v in record["values"].items() if t != played)
    record["values"][played] = [top - loss, 0.0]


def _exact(replay: cardlab.Replay) -> list[tuple[int, int, int, dict[str, Any]]]:
    """(main-line step, hand from 1, index, record) of every exact record."""
    out, start = [], 0
    for h, hand in enumerate(replay.hands, 1):
        for i, action in enumerate(hand.actions):
            if action.eval and action.eval.get("exact"):
                out.append((start + i, h, i, action.eval))
        start += len(hand.actions) + 1
    return out


def stripped(replay: cardlab.Replay) -> cardlab.Replay:
    """The replay without its exact records."""
    out = replay.copy()
    for hand in out.hands:
        for action in hand.actions:
            if action.eval and action.eval.get("exact"):
                action.eval = None
    return out


def traces(record: dict[str, Any], played: str) -> set[str]:
    """The record's distinctive numbers as the surfaces write them: its loss and every
    value beyond what the game scores, in print (``number``, ``%.1f``) and in JSON."""
    verdict = report.judge(record["values"], played)
    numbers = [verdict.loss, *(v[0] for v in record["values"].values())]
    return {form for x in numbers if abs(x) >= DISTINCT
            for form in (f"{x:.1f}", number(x), json.dumps(number(x))[1:-1], json.dumps(x))}


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main(args)
    out = capsys.readouterr()
    assert done.value.code == 0, out.err
    return out.out


def surfaces(replay: cardlab.Replay, seat: int, tmp: Path,
             capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """Everything a seat's view writes, by surface, as text."""
    name = replay.seats[seat]
    tmp.mkdir(exist_ok=True)
    file = tmp / "replay.json"
    replay.save(file)
    page = tmp / "page.html"
    _cli(["html", str(file), "--seat", name, "-o", str(page)], capsys)
    viewer = ReplayViewer(replay)
    viewer.set_seat(name)  # the notebook's private view: the kernel sends the seat's own movie
    quiz = Quiz(replay, seat=name, rollouts=4, bot="random")
    return {
        "text.render": text.render(replay, seat=seat),
        "cardlab show --seat": _cli(["show", str(file), "--seat", name], capsys),
        "build_movie(seat=)": json.dumps(build_movie(replay, seat=seat), ensure_ascii=False),
        "the seat's lines in everyone's movie": json.dumps(build_movie(replay)["views"][name],
                                                           ensure_ascii=False),
        "page_html(seat=)": page_html(replay, seat=name),
        "cardlab html --seat": page.read_text(encoding="utf-8"),
        "ReplayViewer(seat=)": json.dumps(ReplayViewer(replay, seat=name).widget.movie),
        "ReplayViewer.set_seat": json.dumps(viewer.widget.movie),
        "report.decisions": repr(report.decisions(replay, seat, seat_view=True)),
        "report.luck": repr(report.luck(replay, seat, seat_view=True)),
        "Quiz.script": json.dumps(quiz.script()),
    }


def test_the_replay_has_exact_records_the_checks_can_see():
    replay = opened()
    found = _exact(replay)
    assert {record["seat"] for *_, record in found} == set(replay.seats)
    assert len({h for _, h, _, _ in found}) == len(replay.hands) == 2
    shown = text.render(replay)
    movie = json.dumps(build_movie(replay), ensure_ascii=False)
    luck = repr(report.luck(replay))
    for _, h, i, record in found:
        played = report.played_text(replay, h, i, replay.hands[h - 1].actions[i])
        verdict = report.judge(record["values"], played)
        assert verdict.mark == "??" and verdict.loss >= DISTINCT
        assert f"lost {verdict.loss:.1f} expected points; best {verdict.best} (exact)" in shown
        assert number(record["values"][played][0]) in movie, (h, i)
    assert f"expected={EXPECTED}" in luck  # Brad's hand 2 starts at the exact record


@pytest.mark.parametrize("seat", range(4))
def test_a_seat_view_holds_nothing_of_an_exact_record(seat, capsys, tmp_path):
    check_seat(opened(), seat, tmp_path, capsys)


def check_seat(replay: cardlab.Replay, seat: int, tmp: Path,
               capsys: pytest.CaptureFixture[str]) -> None:
    """Every surface of the seat's view: no trace of an exact record, and the same output as
    without the exact records; then the steps of the records."""
    name = replay.seats[seat]
    shown = surfaces(replay, seat, tmp / "opened", capsys)
    without = surfaces(stripped(replay), seat, tmp / "stripped", capsys)
    failures = []  # every surface that fails, to name them all
    for surface, output in shown.items():
        for _, h, i, record in _exact(replay):
            played = report.played_text(replay, h, i, replay.hands[h - 1].actions[i])
            leaked = sorted(form for form in traces(record, played) if form in output)
            if leaked:
                failures.append((surface, name, f"hand {h}, action {i + 1}", leaked))
        if output != without[surface]:
            failures.append((surface, name, "differs from the view without exact records"))
    assert not failures, "\n".join(map(repr, failures))
    _check_steps(replay, seat)


@pytest.mark.parametrize("module, surface", [
    ("cardlab.text", "text.render"), ("cardlab.advisor.report", "report.decisions"),
    ("cardlab.view.movie", "build_movie(seat=)"), ("cardlab.lessons.quiz", "Quiz.script")])
def test_the_check_catches_a_surface_that_shows_exact_records(module, surface, monkeypatch,
                                                              capsys, tmp_path):
    """Were one surface to show a seat its own exact records (the rule before issue 18 for
    the marks and the costly decisions), the check above would say which."""
    replay = opened()
    monkeypatch.setattr(module + ".visible_eval",
                        lambda record, actor, seat: seat is None or record["seat"] == seat)
    with pytest.raises(AssertionError, match=re.escape(f"('{surface}', '{replay.seats[0]}'")):
        check_seat(replay, 0, tmp_path, capsys)


def _check_steps(replay: cardlab.Replay, seat: int) -> None:
    """No value and no decision of the seat's movie sits at an exact record's step. Where the
    record is another seat's play, its best card is hidden from this seat there, and the
    seat's text names no hidden card at that step or the next (where a mark would go)."""
    name = replay.seats[seat]
    data = build_movie(replay, seat=seat)["views"][name][0]
    lines = dict(text.render_steps(replay, seat=seat))
    cursor = cardlab.Cursor(replay)
    for step, h, i, record in _exact(replay):
        assert str(step) not in data.get("ev", {}), (name, h, i)
        assert all(d["s"] != step for d in data.get("dec", [])), (name, h, i)
        played = report.played_text(replay, h, i, replay.hands[h - 1].actions[i])
        best = report.judge(record["values"], played).best
        if record["seat"] == name or not best.startswith("play"):
            continue
        for at in (step, step + 1):
            hidden = hidden_from(cursor.goto(at).state, seat)
            assert best.split(" ")[1] in hidden.codes, (name, h, i, best, at)
            assert not hidden.leaks("\n".join(lines.get(at, []))), (name, h, i, at)
