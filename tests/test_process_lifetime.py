"""No process outlives its command: when ``cardlab simulate`` or ``cardlab analyse
--workers 2`` ends, by SIGKILL, SIGTERM, SIGINT or a crash, every process it started (the
pool's workers) is gone within 5 seconds (cardlab/workers.py).

Each case runs the real command in a session of its own, waits until its workers exist,
ends it, then reads the process table (psutil, which dask.distributed brings with it)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from importpath import CARDLAB_PATH

ROOT = Path(__file__).resolve().parents[1]
GRACE = 5.0  # seconds the issue allows a process to outlive its command
START_WITHIN = 120.0  # seconds for the workers to appear (each imports pyarrow)

# Long runs that are ended well before they finish.
SIMULATE = ["simulate", "teds-game", "--players", "5", "--bots", "random", "--games",
            "200000", "--chunk", "20", "--workers", "2", "--no-progress", "-o", "r.parquet"]
ANALYSE = ["analyse", str(ROOT / "replays" / "whot-example.json"), "--workers", "2",
           "--rollouts", "5000", "-o", "a.json"]
# What starts before the command is ended: two worker processes (cardlab's own: no
# forkserver, no resource tracker).
EXPECTED = {"simulate": 2, "analyse": 2}

# The command crashes (an uncaught exception, exit 1) once its first result is in.
CRASH = {
    "simulate": (
        "from cardlab.simulation import make_spec\n"
        "from cardlab.simulation.api import run\n"
        "spec = make_spec('teds-game', players=5, games=200000, bots='random', chunk=20)\n"
        "def boom(chunk):\n"
        "    raise RuntimeError('a crash')\n"
        "run(spec, workers=2, progress=False, collect=False, on_chunk=boom)\n"),
    "analyse": (
        "import tqdm\n"
        "import cardlab\n"
        "from cardlab.analyse import analyse\n"
        "def boom(self, n=1):\n"
        "    raise RuntimeError('a crash')\n"
        "tqdm.tqdm.update = boom\n"
        f"replay = cardlab.load({str(ANALYSE[1])!r})\n"
        "analyse(replay, rollouts=5000, workers=2)\n"),
}


def _start(command: str, crash: bool, tmp_path: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": CARDLAB_PATH}
    if crash:
        args = [sys.executable, "-c", CRASH[command]]
    else:
        args = [sys.executable, "-m", "cardlab", *(SIMULATE if command == "simulate"
                                                  else ANALYSE)]
    # a session of its own: the signal goes to the command alone, never to this test
    return subprocess.Popen(args, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=open(tmp_path / "err", "wb"),
                            start_new_session=True)


def _living(processes: list[psutil.Process]) -> list[psutil.Process]:
    out = []
    for process in processes:
        try:
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                out.append(process)
        except psutil.NoSuchProcess:
            pass
    return out


def _descendants(proc: subprocess.Popen[bytes], count: int, until_end: bool
                 ) -> list[psutil.Process]:
    """Every process below ``proc`` seen until ``count`` of them live at once (or, with
    ``until_end``, until it ends)."""
    main = psutil.Process(proc.pid)
    seen: dict[int, psutil.Process] = {}
    deadline = time.monotonic() + START_WITHIN
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            found = main.children(recursive=True)
        except psutil.NoSuchProcess:
            break
        seen.update((p.pid, p) for p in found)
        if not until_end and len(_living(found)) >= count:
            break
        time.sleep(0.05)
    return list(seen.values())


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "SIGINT", "crash"])
@pytest.mark.parametrize("command", ["simulate", "analyse"])
def test_no_process_outlives_its_command(command, how, tmp_path):
    proc = _start(command, how == "crash", tmp_path)
    started: list[psutil.Process] = []
    try:
        started = _descendants(proc, EXPECTED[command], until_end=how == "crash")
        assert len(started) >= EXPECTED[command], (tmp_path / "err").read_text()
        if how != "crash":
            assert proc.poll() is None, (tmp_path / "err").read_text()
            os.kill(proc.pid, getattr(signal, how))
        proc.wait(timeout=120)
        deadline = time.monotonic() + GRACE
        while _living(started) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [" ".join(p.cmdline())[:120] for p in _living(started)]
        assert left == [], f"alive {GRACE:g} s after the command ended: {left}"
        err = (tmp_path / "err").read_text()
        expected = {"SIGKILL": -signal.SIGKILL, "crash": 1, "SIGINT": 130,
                    "SIGTERM": 143 if command == "simulate" else -signal.SIGTERM}
        assert proc.returncode == expected[how], err
        if how == "crash":
            assert "RuntimeError: a crash" in err
    finally:
        for process in [*_living(started), *([psutil.Process(proc.pid)]
                                             if proc.poll() is None else [])]:
            process.kill()  # only what this test started
        proc.wait(timeout=60)


def test_a_finished_pool_leaves_nothing_behind(tmp_path):
    """A run that ends normally: its workers go with it, and nothing else was started."""
    env = {**os.environ, "PYTHONPATH": CARDLAB_PATH}
    proc = subprocess.Popen([sys.executable, "-m", "cardlab", "simulate", "whot", "--games",
                             "4", "--chunk", "1", "--workers", "2", "--no-progress"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    main = psutil.Process(proc.pid)
    seen: dict[int, psutil.Process] = {}
    while proc.poll() is None:
        try:
            seen.update((p.pid, p) for p in main.children(recursive=True))
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert len(seen) == 2, [" ".join(p.cmdline())[:120] for p in seen.values()]
    deadline = time.monotonic() + GRACE
    while _living(list(seen.values())) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _living(list(seen.values())) == []
