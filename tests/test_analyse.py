"""cardlab analyse: every decision of the main line evaluated, reproducibly (issue 11, point 4).

The Python API (:func:`cardlab.analyse.analyse`) and the command line (run as a real
subprocess: one line and exit 2 for every user error, nothing half-written).
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from importpath import CARDLAB_PATH

import cardlab
from cardlab.advisor import evaluate
from cardlab.analyse import analyse, decision_points, decision_seed, default_output
from cardlab.bots import make_bot
from cardlab.cursor import walk
from cardlab.errors import OptionError
from cardlab.explore import line_state
from cardlab.replay import Action

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def _game(game: str) -> str:
    options = {"teds-game": {"players": 3, "start_size": 2},
               "bobs-hat": {"players": 4, "hands": 1},
               "whot": {"players": 3, "rubber": "single", "max_turns": 40}}[game]
    table = cardlab.new_game(game, seed=9, **options)
    table.play([make_bot("heuristic", game, seed=s) for s in range(options["players"])])
    return table.replay.to_json()


def game(name: str = "teds-game") -> cardlab.Replay:
    return cardlab.loads(_game(name))


@pytest.mark.parametrize("name", ["teds-game", "bobs-hat", "whot"])
def test_every_decision_and_only_decisions_get_a_record(name):
    replay = game(name)
    done = analyse(replay, rollouts=6, seed=4, progress=False)
    assert replay == game(name)  # the input is left as it was
    points = {(d.hand, d.index): d.seat for d in decision_points(replay)}
    seen = 0
    for _, hand_index, index, state in walk(replay):
        line = done.hands[hand_index].actions
        if index == len(line):
            continue
        action = line[index]
        key = (hand_index + 1, index)
        is_decision = (state.to_act() >= 0 and action.seat == replay.seats[state.to_act()]
                       and len(state.legal_actions()) >= 2)
        assert (key in points) == is_decision
        assert (action.eval is not None) == is_decision
        if is_decision:
            seen += 1
            assert action.eval["seat"] == action.seat
            assert set(action.eval["values"]) == set(state.legal_texts())
            assert action.eval["seed"] == decision_seed(4, *key)
            assert action.eval["rollouts"] == 6 and action.eval["bot"] == "heuristic"
    assert seen == len(points) > 0
    again = cardlab.loads(done.to_json())
    assert again == done and again.to_dict()["version"] == 2


def test_a_record_is_what_evaluate_gives_with_its_seed():
    replay = game("bobs-hat")
    done = analyse(replay, rollouts=5, seed=11, progress=False)
    for hand_number, hand in enumerate(done.hands, 1):
        for index, action in enumerate(hand.actions):
            if action.eval is not None and index % 5 == 0:
                record = action.eval
                again = evaluate(replay, hand_number, index, rollouts=5, seed=record["seed"],
                                 bot=record["bot"]).record()
                assert again == record


def test_a_pool_of_workers_gives_the_same_replay_as_one_process():
    replay = game("teds-game")
    serial = analyse(replay, rollouts=5, seed=2, progress=False, workers=1)
    pooled = analyse(replay, rollouts=5, seed=2, progress=False, workers=2)
    assert pooled == serial
    assert pooled.to_json() == serial.to_json()


def test_one_seat_only_and_other_records_kept():
    replay = game("teds-game")
    name = replay.seats[1]
    done = analyse(replay, seat=name, rollouts=4, progress=False)
    records = [a for h in done.hands for a in h.actions if a.eval is not None]
    assert records and all(a.seat == name for a in records)
    assert len(records) == len(decision_points(replay, 1))
    assert analyse(replay, seat=1, rollouts=4, progress=False) == done
    # analysing the others adds their records and keeps seat 1's; a new seed replaces them
    everyone = analyse(done, rollouts=4, progress=False)
    assert everyone == analyse(replay, rollouts=4, progress=False)
    reseeded = analyse(everyone, seat=name, rollouts=4, seed=1, progress=False)
    for a, b in zip([a for h in reseeded.hands for a in h.actions],
                    [a for h in everyone.hands for a in h.actions], strict=True):
        assert (a.eval == b.eval) == (a.eval is None or a.seat != name)


def test_a_variations_record_is_kept():
    replay = game("teds-game")
    state = line_state(replay, 1, (), 0)
    other = next(t for t in state.legal_texts() if t != replay.hands[0].actions[0].act)
    record = evaluate(replay, 1, 0, rollouts=3, seed=5).record()
    replay.add_variation(1, (), 0, [Action(replay.seats[state.to_act()], other, eval=record)])
    done = analyse(replay, rollouts=3, progress=False)
    assert done.hands[0].actions[0].variations[0][0].eval == record
    assert cardlab.loads(done.to_json()) == done


@pytest.mark.parametrize("options, words", [
    ({"seat": "Nobody"}, "no seat 'Nobody'"),
    ({"seat": 7}, "no seat 7"),
    ({"rollouts": 0}, "rollouts is a whole number of at least 1, not 0"),
    ({"rollouts": True}, "not True"),
    ({"rollouts": "5"}, "not '5'"),
    ({"bot": "oracle"}, "the bot is one of random, heuristic, exact, not 'oracle'"),
    ({"seed": 1.5}, "seed is a whole number"),
    ({"workers": 0}, "workers is a whole number of at least 1"),
    ({"nodes": 0}, "nodes is a whole number of at least 1 (or None: no budget), not 0"),
    ({"nodes": "many"}, "not 'many'"),
])
def test_bad_options_are_refused_before_any_work(options, words):
    with pytest.raises(OptionError) as caught:
        analyse(game(), progress=False, **options)
    assert words in str(caught.value)


def test_the_exact_bot_past_its_budget_is_monte_carlo_with_a_note():
    replay = game("bobs-hat")
    stopped = analyse(replay, rollouts=3, bot="exact", nodes=1, progress=False)
    records = [a.eval for h in stopped.hands for a in h.actions if a.eval is not None]
    noted = [r for r in records if "note" in r]
    assert noted and all(r["note"].startswith("not solved within 1 node in ")
                         and r["note"].endswith(("the heuristic bot finished them",
                                                 "the heuristic bot finished it"))
                         for r in noted)
    # in nodes, not seconds: the same replay again, and each record is evaluate's
    assert analyse(replay, rollouts=3, bot="exact", nodes=1, progress=False) == stopped
    point = next(p for p in decision_points(stopped)
                 if "note" in stopped.hands[p.hand - 1].actions[p.index].eval)
    record = stopped.hands[point.hand - 1].actions[point.index].eval
    assert evaluate(replay, point.hand, point.index, rollouts=3, seed=record["seed"],
                    bot="exact", nodes=1).record() == record
    assert cardlab.loads(stopped.to_json()) == stopped  # a note loads back
    # the default budget: no solve stops, no note
    plain = analyse(replay, rollouts=3, bot="exact", progress=False)
    assert not any("note" in a.eval for h in plain.hands for a in h.actions if a.eval)


def test_the_exact_bot_is_for_trick_games():
    with pytest.raises(OptionError, match="exact bot plays the trick-taking games, not whot"):
        analyse(game("whot"), bot="exact", progress=False)


# -- the command line ------------------------------------------------------------------------

def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": CARDLAB_PATH}
    return subprocess.run([sys.executable, "-m", "cardlab", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300, env=env, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("analyse")
    (root / "game.json").write_text(_game("teds-game"), encoding="utf-8")
    return root


def test_the_command_writes_the_analysed_replay(folder):
    done = cli("analyse", "game.json", "--rollouts", "4", "--seed", "3", "--workers", "2",
               cwd=folder)
    assert done.returncode == 0, done.stderr
    out = folder / default_output("game.json")
    assert done.stdout.strip().startswith(f"wrote {out.name}: ")
    assert "decision" in done.stderr  # the progress bar
    written = cardlab.load(out)
    assert written == analyse(game(), rollouts=4, seed=3, progress=False)
    assert f"{len(decision_points(written))} decisions evaluated" in done.stdout
    shown = cli("show", out.name, cwd=folder)
    assert shown.returncode == 0 and "Hand 1" in shown.stdout
    seat = written.seats[0]
    only = cli("analyse", "game.json", "--seat", seat, "--rollouts", "3", "-o", "one.json",
               cwd=folder)
    assert only.returncode == 0, only.stderr
    assert {a.seat for h in cardlab.load(folder / "one.json").hands for a in h.actions
            if a.eval is not None} == {seat}


@pytest.mark.parametrize("args, words", [
    (["--seat", "Nobody"], "game.json: no seat 'Nobody'; the seats are"),
    (["--rollouts", "0"], "--rollouts takes a whole number of at least 1, not '0'"),
    (["--rollouts", "many"], "--rollouts takes a whole number of at least 1, not 'many'"),
    (["--rollouts", "-5"], "--rollouts takes a whole number"),
    (["--bot", "oracle"], "--bot is one of random, heuristic, exact, not 'oracle'"),
    (["--seed", "abc"], "--seed takes a whole number, not 'abc'"),
    (["--workers", "0"], "--workers takes a whole number of at least 1"),
    (["--nodes", "0"], "--nodes takes a whole number of at least 1, not '0'"),
    (["--nodes", "lots"], "--nodes takes a whole number of at least 1, not 'lots'"),
    (["-o", "no/such/folder.json"], "cannot save: no such folder"),
    (["--limit", "max_hands=1"], "max_hands"),
])
def test_each_bad_command_line_is_one_line_and_exit_2(folder, args, words):
    before = sorted(os.listdir(folder))
    done = cli("analyse", "game.json", *args, cwd=folder)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardlab: error: "), done.stderr
    assert words in lines[0]
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert sorted(os.listdir(folder)) == before  # nothing written, not even half


def test_the_command_says_when_a_solve_stopped_at_its_budget(tmp_path):
    (tmp_path / "game.json").write_text(_game("bobs-hat"), encoding="utf-8")
    done = cli("analyse", "game.json", "--bot", "exact", "--rollouts", "2", "--nodes", "1",
               "--workers", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = cardlab.load(tmp_path / default_output("game.json"))
    noted = sum(1 for h in written.hands for a in h.actions if a.eval and "note" in a.eval)
    assert noted and (f"in {noted} decision{'s' if noted > 1 else ''} a solve stopped at its "
                      "budget of 1 node and the heuristic bot finished those playouts"
                      in done.stdout)
    roomy = cli("analyse", "game.json", "--bot", "exact", "--rollouts", "2", "-o", "r.json",
                "--nodes", "10,000,000", "--workers", "1", cwd=tmp_path)
    assert roomy.returncode == 0 and "budget" not in roomy.stdout, roomy.stderr


def test_a_file_that_is_not_a_replay_is_one_line(folder):
    (folder / "bad.json").write_text(json.dumps({"format": "x"}), encoding="utf-8")
    done = cli("analyse", "bad.json", cwd=folder)
    assert done.returncode == 2 and "not a cardlab replay" in done.stderr
    missing = cli("analyse", "missing.json", cwd=folder)
    assert missing.returncode == 2 and "no such file" in missing.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_the_analysis_with_exit_130_no_traceback_and_no_file(tmp_path, workers):
    import signal

    table = cardlab.new_game("bobs-hat", players=4, seed=3, hands=2)
    table.play([make_bot("heuristic", "bobs-hat", seed=s) for s in range(4)])
    table.save(tmp_path / "game.json")
    env = {**os.environ, "PYTHONPATH": CARDLAB_PATH}
    # its own process group, as a terminal's foreground job: Ctrl-C reaches every process.
    # As in a terminal, Ctrl-C is not ignored, even when this suite runs as a background job
    # (whose children inherit SIGINT ignored, and Python then leaves it so).
    proc = subprocess.Popen([sys.executable, "-m", "cardlab", "analyse", "game.json",
                             "--rollouts", "2000", "--workers", workers, "-o", "out.json"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stderr is not None
    seen = b""
    # a decision is done, so the workers are at work ("2/37": the progress bar may skip "1/")
    while not re.search(rb"[1-9][0-9]*/[0-9]+", seen):
        chunk = proc.stderr.read1(4096)
        assert chunk, "the command ended before any decision was done"
        seen += chunk
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert b"Traceback" not in seen + err and b"KeyboardInterrupt" not in seen + err
    assert out == b""
    assert sorted(os.listdir(tmp_path)) == ["game.json"]  # no file, no temporary file
