"""cardlab simulate under bad input and faults: one line and exit 2 with nothing written; a
worker that dies has its chunk played again; Ctrl-C or SIGTERM leaves no file or a valid
one of the games that finished, and says which."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

from cardlab.simulation import load, make_spec, simulate
from cardlab.simulation.api import to_frame
from cardlab.simulation.rows import FAULT_ENV, play_chunk

ROOT = Path(__file__).resolve().parents[1]


def cardlab(*args: str, cwd: Path, env: dict[str, str] | None = None):
    return subprocess.run([sys.executable, "-m", "cardlab", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=120)


BAD = {
    "unknown game": (["simulate", "chess"], "no game called 'chess'"),
    "unknown bot": (["simulate", "whot", "--bots", "random,clever"],
                    "bots are random, heuristic, not 'clever'"),
    "empty bot": (["simulate", "whot", "--bots", "random,"], "--bots names the bots"),
    "bots that never play": (["simulate", "whot", "--players", "2", "--seating", "fixed",
                              "--bots", "random,heuristic,random"],
                             "--bots names 3 bots for 2 seats: with fixed seating the last 1 "
                             "would never play"),
    "unknown option": (["simulate", "teds-game", "--option", "trumps=none"],
                       "teds-game has no option 'trumps'"),
    "bad value": (["simulate", "teds-game", "--option", "start_size=eleven"],
                  "teds-game option start_size takes a whole number, not 'eleven'"),
    "value out of range": (["simulate", "teds-game", "--players", "9"],
                           "teds-game option players is at most 8, not 9"),
    "option shape": (["simulate", "whot", "--option", "rubber"], "should look like NAME=VALUE"),
    "no games": (["simulate", "whot", "--games", "0"], "--games must be at least 1, not 0"),
    "negative games": (["simulate", "whot", "--games", "-5"], "--games must be at least 1"),
    "games not a number": (["simulate", "whot", "--games", "many"], "invalid int value"),
    "players twice": (["simulate", "whot", "--players", "3", "--option", "players=4"],
                      "the number of players is given twice"),
    "seed as option": (["simulate", "whot", "--option", "seed=3"], "use --seed"),
    "empty seed": (["simulate", "whot", "--seed", " "], "--seed is empty"),
    "workers and scheduler": (["simulate", "whot", "--workers", "2", "--scheduler",
                               "tcp://127.0.0.1:1"], "not allowed with argument"),
    "negative workers": (["simulate", "whot", "--workers", "-1"], "--workers is a whole number"),
    "bad chunk": (["simulate", "whot", "--chunk", "0"], "chunk is a whole number of games"),
    "no such folder": (["simulate", "whot", "-o", "missing/r.parquet"], "no such folder"),
    "replays is a file": (["simulate", "whot", "--replays", "taken", "-o", "r.parquet"],
                          "taken: cannot save: is not a folder"),
    "zero timeout": (["simulate", "whot", "--scheduler", "tcp://127.0.0.1:9",
                      "--connect-timeout", "0"], "--connect-timeout is a number of seconds"),
    "unreachable scheduler": (["simulate", "whot", "--scheduler", "tcp://127.0.0.1:9",
                               "--connect-timeout", "1", "-o", "r.parquet"],
                              "cannot reach the dask scheduler at 'tcp://127.0.0.1:9'"),
    # outputs are checked before the work: a FIFO nothing reads (it would block for ever),
    # a FIFO read by someone (Parquet is written by seeking), a device that refuses writes
    "FIFO without a reader": (["simulate", "whot", "-o", "fifo"],
                              "fifo: cannot save: nothing is reading from it"),
    "games table a FIFO": (["simulate", "whot", "-o", "g"],
                           "g.games.parquet: cannot save: nothing is reading from it"),
    "device that refuses writes": (["simulate", "whot", "-o", "/dev/full"],
                                   "/dev/full: cannot save: disk full"),
    "a device without seeking": (["simulate", "whot", "-o", "/dev/stderr"],
                                 "/dev/stderr: cannot save: is a stream; a run's table is a "
                                 "folder of Parquet files: give a folder's name"),
    "a device that takes writes": (["simulate", "whot", "-o", "/dev/zero"],
                                   "/dev/zero: cannot save: is a device; a run's table is a "
                                   "folder of Parquet files"),
    # a run's table is a folder: it may replace a file or an earlier run's table, never a
    # folder of something else
    "out is a folder of other things": (["simulate", "whot", "-o", "."],
                                        ".: cannot save: is a folder that is not a "
                                        "simulation's table (it holds 'fifo'); give another "
                                        "name, or remove it"),
    "out is under a file": (["simulate", "whot", "-o", "taken/r.parquet"],
                            "taken is a file, not a folder"),
}
# A bad dask argument: one line before any connection, and nothing after it (dask's client
# once printed "Exception ignored in Client.__del__ ... TimeoutError" seconds later; the
# command is run to its end, so such a line would be seen).
BAD_ADDRESSES = ["garbage!!", "", "ftp://10.0.0.5:8786", "tcp://127.0.0.1:99999",
                 "tcp://127.0.0.1:0", "tcp://127.0.0.1:port", "ucx://127.0.0.1:1"]
for address in BAD_ADDRESSES:
    BAD[f"address {address!r}"] = (["simulate", "whot", "--scheduler", address, "-o",
                                    "r.parquet"], "is not a dask scheduler's address")
for timeout in ["inf", "-inf", "1e308", "nan", "0", "-1", "3600.001"]:
    BAD[f"connect timeout {timeout}"] = (
        ["simulate", "whot", "--scheduler", "tcp://127.0.0.1:9", f"--connect-timeout={timeout}",
         "-o", "r.parquet"],
        "--connect-timeout is a number of seconds above 0 and at most 3600, not ")
BAD["a client that fails to start"] = (  # past the address check: dask fails, then closes
    ["simulate", "whot", "--scheduler", f"tcp://{'x' * 300}:8786", "-o", "r.parquet"],
    "cannot reach the dask scheduler at 'tcp://xxx")
BAD["no in-process scheduler"] = (["simulate", "whot", "--scheduler", "inproc://nothing"],
                                  "cannot reach the dask scheduler at 'inproc://nothing'")


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_line_exit_2_and_nothing_written(case, tmp_path):
    args, words = BAD[case]
    (tmp_path / "taken").write_text("a file, not a folder\n")
    os.mkfifo(tmp_path / "fifo")
    os.mkfifo(tmp_path / "g.games.parquet")
    before = sorted(os.listdir(tmp_path))
    proc = cardlab(*args, "--games" if "--games" not in args else "--no-progress",
                   *(["3"] if "--games" not in args else []), cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and words in lines[0], proc.stderr
    assert lines[0].startswith(("cardlab: error: ", "cardlab simulate: error: "))
    assert proc.stdout == ""
    assert sorted(os.listdir(tmp_path)) == before


def test_a_fifo_that_is_read_is_refused_too_as_parquet_is_written_by_seeking(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    reader = os.open(tmp_path / "fifo", os.O_RDONLY | os.O_NONBLOCK)
    try:
        proc = cardlab("simulate", "whot", "--games", "3", "-o", "fifo", cwd=tmp_path)
        assert os.read(reader, 100) == b""  # nothing was written into it, and it was let go
    finally:
        os.close(reader)
    assert proc.returncode == 2
    assert proc.stderr == ("cardlab: error: fifo: cannot save: is a pipe or a terminal, and a "
                           "table is written by seeking in its file; give a file name\n")
    assert os.listdir(tmp_path) == ["fifo"]


def test_a_disk_that_fills_up_during_the_run_is_named(tmp_path, monkeypatch):
    import errno

    import pyarrow.parquet as pq

    from cardlab.errors import SaveError
    from cardlab.simulation.api import run

    def full(self, table, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pq.ParquetWriter, "write_table", full)
    spec = make_spec("whot", games=2, bots="random", options={"rubber": "single"})
    with pytest.raises(SaveError) as caught:
        run(spec, workers=0, out=tmp_path / "r.parquet", progress=False)
    assert str(caught.value) == f"{tmp_path / 'r.parquet'}: cannot save: disk full"
    assert os.listdir(tmp_path) == []  # no table, no temporary file


def test_without_dask_the_scheduler_says_how_to_install_it(tmp_path):
    # dask made unimportable in the child, as on a machine without the scale extra
    code = ("import sys\n"
            "class NoDask:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'dask' or name.startswith(('dask.', 'distributed')):\n"
            "            raise ImportError(f'No module named {name!r}')\n"
            "sys.meta_path.insert(0, NoDask())\n"
            "from cardlab.cli import main\n"
            "main(['simulate', 'whot', '--games', '3', '--scheduler', 'tcp://127.0.0.1:9',"
            " '-o', 'r.parquet'])\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1
    assert "pip install 'cardlab[scale]'" in proc.stderr
    assert os.listdir(tmp_path) == []


def test_a_pool_worker_that_dies_has_its_chunk_played_again(tmp_path, monkeypatch):
    args = dict(players=4, games=12, bots="heuristic,random", seed=8, chunk=2,
                options={"start_size": 3}, progress=False)
    marker = tmp_path / "died"
    monkeypatch.setenv(FAULT_ENV, f"{marker}:0")  # the first chunk: the others finish first
    pooled = simulate("teds-game", workers=2, out=tmp_path / "r.parquet", **args)
    assert marker.exists() and pooled.reruns >= 1
    monkeypatch.delenv(FAULT_ENV)
    serial = simulate("teds-game", workers=0, **args)
    for a, b in ((pooled, serial), (load(tmp_path / "r.parquet"), serial)):
        pd.testing.assert_frame_equal(a.hands, b.hands, check_exact=True)
        pd.testing.assert_frame_equal(a.games, b.games, check_exact=True)


def test_the_fault_hook_never_kills_a_serial_run(tmp_path, monkeypatch):
    marker = tmp_path / "died"
    monkeypatch.setenv(FAULT_ENV, f"{marker}:0")
    result = simulate("whot", games=2, options={"rubber": "single"}, workers=0,
                      progress=False)
    assert len(result.games) == 8 and not marker.exists()


def test_a_chunk_that_always_kills_its_worker_stops_the_run(tmp_path):
    env = {**os.environ, FAULT_ENV: "-:1"}  # chunk 1 (games 3 and 4) dies every time
    proc = cardlab("simulate", "teds-game", "--players", "3", "--games", "6", "--chunk", "2",
                   "--bots", "random", "--option", "start_size=2", "--workers", "2",
                   "--no-progress", "-o", "r.parquet", cwd=tmp_path,
                   env=env)
    assert proc.returncode == 2
    assert proc.stderr == ("cardlab: error: games 3 to 4 (chunk 2): its worker process died "
                           "3 times; giving up\n")
    assert os.listdir(tmp_path) == []  # no table, no temporary file


# -- interrupting ----------------------------------------------------------------------------

PROGRESS = re.compile(r"(\d+)/(\d+) \[")


def start(tmp_path: Path, *args: str) -> subprocess.Popen:
    # a session of its own, as a terminal gives: Ctrl-C there signals the whole group
    return subprocess.Popen([sys.executable, "-m", "cardlab", "simulate", *args],
                            stdout=subprocess.PIPE, stderr=open(tmp_path / "err", "w"),
                            text=True, cwd=tmp_path, start_new_session=True)


def wait_for_progress(tmp_path: Path, proc: subprocess.Popen, games: int) -> None:
    """Until the progress bar shows at least ``games`` games done (no time limit but the
    test run's: the bar is the signal, not a clock)."""
    while proc.poll() is None:
        done = [int(m.group(1)) for m in PROGRESS.finditer((tmp_path / "err").read_text())]
        if done and max(done) >= games:
            return
        time.sleep(0.05)
    raise AssertionError(f"the run ended first: {(tmp_path / 'err').read_text()}")


@pytest.mark.parametrize("how", ["ctrl-c", "SIGINT", "SIGTERM"])
def test_an_interrupted_run_writes_the_games_that_finished(how, tmp_path):
    args = ["teds-game", "--players", "5", "--bots", "random", "--games", "200000",
            "--chunk", "20", "--workers", "2", "--seed", "4", "-o", "r.parquet",
            "--replays", "replays"]
    proc = start(tmp_path, *args)
    wait_for_progress(tmp_path, proc, 40)
    if how == "ctrl-c":  # the terminal's way: the whole process group, workers included
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(getattr(signal, how))
    out, _ = proc.communicate(timeout=600)  # a hang fails the test, not the whole run
    err = (tmp_path / "err").read_text()
    assert proc.returncode == (143 if how == "SIGTERM" else 130), err
    last = err.splitlines()[-1]
    match = re.fullmatch(r"cardlab: interrupted: wrote r\.parquet and r\.games\.parquet with "
                         r"the ([\d,]+) games that finished, of 200,000", last)
    assert match, err
    finished = int(match.group(1).replace(",", ""))
    assert finished >= 40 and finished % 20 == 0  # whole chunks only
    result = load(tmp_path / "r.parquet")
    games = sorted(result.games.game.unique())
    assert len(games) == finished
    assert len(result.hands) == finished * 19 * 5
    # every chunk in the files is the chunk itself, row for row
    spec = make_spec("teds-game", players=5, games=200000, bots="random", seed=4, chunk=20)
    for first in (games[0], games[-1] - 19):
        chunk = play_chunk(spec, (first - 1) // 20)
        rows = result.hands[result.hands.game.between(first, first + 19)]
        pd.testing.assert_frame_equal(rows.reset_index(drop=True),
                                      to_frame(chunk.hands, spec), check_exact=True)
    assert sorted(os.listdir(tmp_path)) == ["err", "r.games.parquet", "r.parquet", "replays"]
    # the replays are those of the games in the tables: a batch per chunk taken, no more
    batches = sorted(os.listdir(tmp_path / "replays"))
    assert batches == [f"games-{first:06d}-{first + 19:06d}.zip" for first in games[::20]]
    assert "wrote" not in out  # the summary of what finished, not the line of a whole run
    assert out.splitlines()[1].startswith("bot random")


def test_an_interrupt_before_any_game_finished_writes_nothing(tmp_path):
    # one chunk of many games, played in this process: it cannot finish before the signal
    proc = start(tmp_path, "bobs-hat", "--games", "100000", "--chunk", "100000",
                 "--workers", "0", "-o", "r.parquet", "--replays", "replays")
    wait_for_progress(tmp_path, proc, 0)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=600)
    err = (tmp_path / "err").read_text()
    assert proc.returncode == 143, err
    assert err.splitlines()[-1] == ("cardlab: interrupted before any game finished: nothing "
                                    "written")
    assert sorted(os.listdir(tmp_path)) == ["err", "replays"]  # no temporary file left
    assert os.listdir(tmp_path / "replays") == []


def test_pyarrow_reads_an_interrupted_file_on_its_own(tmp_path):
    proc = start(tmp_path, "whot", "--bots", "random", "--games", "100000", "--chunk", "5",
                 "--workers", "1", "-o", "w.parquet")
    wait_for_progress(tmp_path, proc, 5)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=600)
    assert proc.returncode == 130
    table = pa.parquet.read_table(tmp_path / "w.parquet")
    assert table.num_rows > 0 and table.num_rows % 4 == 0


def test_ctrl_c_while_a_chunk_is_taken_waits_for_it_and_keeps_what_finished(tmp_path):
    # The signal arrives in the middle of taking chunk 2 (after its rows are written, before
    # the run goes on): the chunk is kept whole, the run stops, the files hold 2 chunks.
    from cardlab.simulation.api import run

    spec = make_spec("teds-game", players=3, games=12, bots="random", seed=6, chunk=3,
                     options={"start_size": 2})
    taken = []

    def on_chunk(chunk):
        taken.append(chunk.index)
        if len(taken) == 2:
            os.kill(os.getpid(), signal.SIGINT)
            taken.append("after the signal")  # still here: the signal waits for the end

    out = tmp_path / "r.parquet"
    result, tally, info = run(spec, workers=0, out=out, progress=False, on_chunk=on_chunk)
    assert taken == [0, 1, "after the signal"]
    assert info["interrupted"] and info["games"] == 6 and info["signal"] == signal.SIGINT
    assert result.interrupted and sorted(result.games.game.unique()) == list(range(1, 7))
    back = load(out)
    pd.testing.assert_frame_equal(back.hands, result.hands, check_exact=True)
    pd.testing.assert_frame_equal(back.games, result.games, check_exact=True)
    assert sum(g[0] for k, g in tally.groups.items() if k[0] == "bot") == 6 * 3
