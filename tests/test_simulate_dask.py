"""cardlab.simulate on dask.distributed: a LocalCluster of 2 worker processes, started and
stopped here, gives the very frames a serial run gives, also when a worker dies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from dask.distributed import Client, LocalCluster

from cardlab.simulation import load, simulate
from cardlab.simulation.rows import FAULT_ENV

ROOT = Path(__file__).resolve().parents[1]
RUNS = {
    "teds-game": dict(players=4, options={"start_size": 3}, bots="heuristic,random"),
    "whot": dict(players=3, options={"rubber": "single", "rules": "nigerian"},
                 bots="random"),
}


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=":0") as local:
        yield local


@pytest.fixture(scope="module")
def client(cluster):
    with Client(cluster) as c:
        yield c


def run(game, **extra):
    args = dict(games=10, seed=3, chunk=2, progress=False)
    args.update(RUNS[game])
    args.update(extra)
    return simulate(game, **args)


def same(a, b) -> None:
    pd.testing.assert_frame_equal(a.hands, b.hands, check_exact=True)
    pd.testing.assert_frame_equal(a.games, b.games, check_exact=True)


def test_dask_gives_the_serial_frames(client):
    for game in RUNS:
        on_dask = run(game, scheduler=client)
        assert len(on_dask.games.game.unique()) == 10
        same(on_dask, run(game, workers=0))


def test_the_dask_workers_write_the_files_a_serial_run_writes(client, tmp_path):
    # each worker writes its chunks' parts and batches; this process only renames them
    for name, workers in (("dask", None), ("serial", 0)):
        run("teds-game", scheduler=client if workers is None else None, workers=workers,
            out=tmp_path / f"{name}.parquet", replays=tmp_path / f"{name}-replays")
    for ending in (".parquet", ".games.parquet", "-replays"):
        dask, serial = (tmp_path / f"{name}{ending}" for name in ("dask", "serial"))
        assert {p.name: p.read_bytes() for p in dask.iterdir()} == \
            {p.name: p.read_bytes() for p in serial.iterdir()}
    assert len(list((tmp_path / "dask-replays").iterdir())) == 5  # 10 games, 2 a chunk


def test_a_worker_that_dies_has_its_chunk_played_again(client, tmp_path, monkeypatch):
    marker = tmp_path / "died"
    monkeypatch.setenv(FAULT_ENV, f"{marker}:1")
    on_dask = run("teds-game", scheduler=client)
    assert marker.exists()  # the worker playing chunk 1 did die
    monkeypatch.delenv(FAULT_ENV)
    same(on_dask, run("teds-game", workers=0))
    # the cluster got its worker back
    client.wait_for_workers(2, timeout=60)


def test_the_command_line_runs_on_a_scheduler_address(cluster, tmp_path):
    out = tmp_path / "r.parquet"
    proc = subprocess.run(
        [sys.executable, "-m", "cardlab", "simulate", "whot", "--players", "3", "--option",
         "rubber=single", "--option", "rules=nigerian", "--bots", "random", "--games", "10",
         "--seed", "3", "--chunk", "2", "--scheduler", cluster.scheduler_address,
         "-o", str(out), "--no-progress"],
        capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    same(load(out), run("whot", workers=0))


def test_a_chunk_that_kills_every_worker_is_given_up_on(tmp_path, monkeypatch):
    # dask itself gives up on a task after allowed-failures deaths (KilledWorker); cardlab
    # submits it again, up to 3 plays in all, then stops with one line and writes nothing
    import dask

    from cardlab.errors import CardlabError

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                         dashboard_address=":0") as local, Client(local) as c:
        monkeypatch.setenv(FAULT_ENV, "-:2")  # chunk 2 (games 5 and 6) dies every time
        with pytest.raises(CardlabError, match=r"^games 5 to 6 \(chunk 3\): the workers "
                                               r"playing it died 3 times; giving up$"):
            run("teds-game", scheduler=c, out=tmp_path / "r.parquet")
        # The nannies restart the workers the chunk killed. A cluster closed while one is
        # still restarting trips over dask's own join of a process not yet started
        # ("can only join a started process"): the test's cluster waits for its workers.
        c.wait_for_workers(2, timeout=120)
    assert list(tmp_path.iterdir()) == []
