"""Where a run's results go: the tables as Parquet datasets (a folder, a part per chunk,
written by whoever played the chunk) and the replays as batches; the rows and the replays
are those cardlab gave before the workers wrote their own files; a run replaces an earlier
run's table whole (or an older single file), never a folder of something else, and a killed
run leaves the old table or the new one."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cardlab import files
from cardlab.errors import SaveError
from cardlab.simulation import games_path, load, make_spec
from cardlab.simulation.api import run
from cardlab.simulation.output import Destination, Output, play_part

ROOT = Path(__file__).resolve().parents[1]

# Seeded runs and the digests of their rows and replays, as the cardlab before this layout
# (commit dcf887e: one Parquet file per table, one JSON file per replay, written by the run's
# own process) gave them: the layout changed, not a value, not a byte of a replay.
BEFORE = {
    "teds-game": (dict(players=4, options={"start_size": 3}, bots="heuristic,random"),
                  ["cde0557370a003d1", "88071c2e35751382", "af2a9a793c9e3078"]),
    "teds-random": (dict(game="teds-game", players=5, options={"start_size": 2},
                         bots="random"),
                    ["d98eba0a063d843e", "d0a83d30ec48bf0a", "4cf137ed1f9af215"]),
    "bobs-hat": (dict(players=4, options={"hands": 3}, bots="random,heuristic,heuristic"),
                 ["107e4c579bd269e7", "af0221d7d9118ef9", "43393edec35f8c74"]),
    "bobs-random": (dict(game="bobs-hat", players=3, options={"hands": 2}, bots="random"),
                    ["ac883a9bf3dffb9a", "ffe1d73144c476c8", "bca09c38874e012f"]),
    "whot": (dict(players=3, options={"rubber": "short"}, bots="heuristic,random"),
             ["3eb762e3be46f499", "0163092970ad14a5", "3fa3ad0e6797e6a4"]),
    "whot-nigerian": (dict(game="whot", players=4,
                           options={"rubber": "single", "rules": "nigerian"}, bots="random"),
                      ["72cc78bf1e0a33bd", "e03791aaa810bacc", "3234f9f51b92175d"]),
    "teds-full": (dict(game="teds-game", players=5, bots="random"),
                  ["44872ff851ed63c5", "afd7c21d9bea0880", "2022916ddc7d8d26"]),
}


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def batch_texts(folder: Path) -> dict[str, str]:
    texts = {}
    for batch in sorted(folder.iterdir()):
        with zipfile.ZipFile(batch) as archive:
            texts.update({name: archive.read(name).decode() for name in archive.namelist()})
    return texts


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_the_rows_and_the_replays_are_those_of_before(name, tmp_path):
    case, digests = BEFORE[name]
    case = dict(case)
    game = case.pop("game", name)
    spec = make_spec(game, games=12, seed=5, chunk=4, **case)
    result, _, _ = run(spec, workers=0, replays=tmp_path / "r", out=tmp_path / "t.parquet",
                       progress=False)
    hands = pa.Table.from_pandas(result.hands, preserve_index=False).to_pydict()
    games = pa.Table.from_pandas(result.games, preserve_index=False).to_pydict()
    assert [digest(hands), digest(games), digest(batch_texts(tmp_path / "r"))] == digests
    back = load(tmp_path / "t.parquet")  # and the files hold those rows
    pd.testing.assert_frame_equal(back.hands, result.hands, check_exact=True)
    pd.testing.assert_frame_equal(back.games, result.games, check_exact=True)


def small_spec(games: int = 6):
    return make_spec("teds-game", players=3, games=games, bots="random", seed=2, chunk=2,
                     options={"start_size": 2})


def test_a_run_replaces_an_earlier_table_or_an_older_single_file(tmp_path):
    out = tmp_path / "r.parquet"
    spec = small_spec()
    # an older cardlab's output: one Parquet file per table
    first, _, _ = run(spec, workers=0, out=tmp_path / "first.parquet", progress=False)
    for source, target in ((tmp_path / "first.parquet", out),
                           (tmp_path / "first.games.parquet", Path(games_path(out)))):
        pq.write_table(pq.read_table(source), target)
    old = load(out)  # an old single file is read as before
    pd.testing.assert_frame_equal(old.hands, first.hands, check_exact=True)
    for spec in (small_spec(4), small_spec(8)):  # a file, then a table, replaced whole
        result, _, info = run(spec, workers=0, out=out, progress=False)
        assert out.is_dir() and info["written"] == [str(out), games_path(out)]
        back = load(out)
        pd.testing.assert_frame_equal(back.hands, result.hands, check_exact=True)
        assert sorted(p.name for p in out.iterdir())[-1] == \
            f"games-{spec.games - 1}-{spec.games}.parquet"  # no part of the run before
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "first.games.parquet", "first.parquet", "r.games.parquet", "r.parquet"]


def test_a_folder_of_something_else_is_never_replaced(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me\n")
    with pytest.raises(SaveError, match="is a folder that is not a simulation's table"):
        run(small_spec(), workers=0, out=out, progress=False)
    assert os.listdir(out) == ["notes.txt"]
    assert sorted(os.listdir(tmp_path)) == ["mine"]  # nothing else was made
    empty = tmp_path / "empty.parquet"
    empty.mkdir()
    run(small_spec(), workers=0, out=empty, progress=False)  # an empty folder is taken
    assert len(load(empty).games) == 6 * 3


def test_without_the_folder_exchange_the_table_is_replaced_all_the_same(tmp_path,
                                                                          monkeypatch):
    out = tmp_path / "r.parquet"
    run(small_spec(4), workers=0, out=out, progress=False)
    monkeypatch.setattr(files, "_exchange", lambda first, second: False)
    result, _, _ = run(small_spec(), workers=0, out=out, progress=False)
    pd.testing.assert_frame_equal(load(out).hands, result.hands, check_exact=True)
    assert sorted(os.listdir(tmp_path)) == ["r.games.parquet", "r.parquet"]


def test_a_worker_that_cannot_see_the_folders_sends_the_bytes_back(tmp_path):
    # A dask worker on another machine: the run's folders are not there. The worker still
    # encodes the files; this process writes their bytes, the same bytes.
    spec = small_spec()
    output = Output(spec, str(tmp_path / "r.parquet"), str(tmp_path / "r.games.parquet"),
                    str(tmp_path / "replays"), collect=False)
    here = output.destination()
    elsewhere = Destination(tuple((f"{folder}-elsewhere", shown) for folder, shown
                                  in here.tables),  # type: ignore[arg-type]
                            (f"{here.replays[0]}-elsewhere", here.replays[1]))
    for index in range(len(spec.chunks())):
        part = play_part(spec, index, elsewhere)
        assert part.files == {} and sorted(part.data) == ["games", "hands", "replays"]
        output.take(part)
    output.commit()
    run(spec, workers=0, out=tmp_path / "direct.parquet", replays=tmp_path / "direct",
        progress=False)
    for mine, theirs in (("r.parquet", "direct.parquet"),
                         ("r.games.parquet", "direct.games.parquet"), ("replays", "direct")):
        assert {p.name: p.read_bytes() for p in (tmp_path / mine).iterdir()} == \
            {p.name: p.read_bytes() for p in (tmp_path / theirs).iterdir()}


def test_the_run_process_gets_no_rows_it_does_not_keep(tmp_path):
    parts = []
    run(small_spec(), workers=2, out=tmp_path / "r.parquet", replays=tmp_path / "rp",
        collect=False, progress=False, on_chunk=parts.append)
    assert [p.index for p in parts] == [0, 1, 2]
    assert all(p.hands is None and p.games is None for p in parts)  # the workers wrote them
    assert all(sorted(p.files) == ["games", "hands", "replays"] for p in parts)
    assert [name for name in os.listdir(tmp_path / "rp")] != []
    assert not [name for name in os.listdir(tmp_path / "rp") if name.startswith(".")]


def test_a_killed_run_leaves_the_old_table_or_the_new_one(tmp_path):
    """SIGKILL at seeded random moments of a run that replaces a table: the target is always
    a whole table, the old run's or the new one's, and the next run removes what the killed
    one left."""
    out = tmp_path / "r.parquet"
    base = [sys.executable, "-m", "cardlab", "simulate", "teds-game", "--players", "3",
            "--bots", "random", "--option", "start_size=3", "--chunk", "5", "--workers",
            "0", "--no-progress", "-o", str(out), "--replays", str(tmp_path / "rp")]
    subprocess.run([*base, "--games", "20", "--seed", "1"], check=True, cwd=ROOT,
                   capture_output=True)
    old = load(out)
    started = time.perf_counter()
    subprocess.run([*base, "--games", "40", "--seed", "2"], check=True, cwd=ROOT,
                   capture_output=True)
    whole = time.perf_counter() - started  # only to spread the kills over a run
    new = load(out)
    rng = random.Random(22)
    seen = {"old": 0, "new": 0}
    for kill in range(12):
        seed = "2" if kill % 2 else "1"  # the run going on replaces the other one's table
        before = load(out)
        proc = subprocess.Popen([*base, "--games", "20" if seed == "1" else "40", "--seed",
                                 seed], cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 1.1) * whole)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        after = load(out)  # a whole table: every part and both metadata files
        if len(after.games) == len(before.games):
            pd.testing.assert_frame_equal(after.games, before.games, check_exact=True)
        else:
            pd.testing.assert_frame_equal(after.games, (new if seed == "2" else old).games,
                                          check_exact=True)
        seen["old" if len(after.games) == len(before.games) else "new"] += 1
        summary = pq.read_metadata(out / "_metadata")
        assert summary.num_rows == len(after.hands)
    print(f"12 kills: {seen}")  # shown with pytest -s
    subprocess.run([*base, "--games", "20", "--seed", "1"], check=True, cwd=ROOT,
                   capture_output=True)
    assert sorted(os.listdir(tmp_path)) == ["r.games.parquet", "r.parquet", "rp"]
    assert not [n for n in os.listdir(tmp_path / "rp") if n.startswith(".")]
    assert not [n for n in os.listdir(out) if n.startswith(".")]
