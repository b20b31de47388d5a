"""cardlab.simulate: the tables are the engine's values, the same whatever plays them, and
equal what the replays of the same games say through cardlab.dataframes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from scipy import stats as scipy_stats

import cardlab
from cardlab import batches, dataframes
from cardlab.records import COMMON_COLUMNS
from cardlab.simulation import games_path, load, make_spec, simulate
from cardlab.simulation.rows import play_chunk
from cardlab.simulation.schema import GAMES_COLUMNS, games_schema, hands_columns, hands_schema
from cardlab.simulation.summary import t_quantile

ROOT = Path(__file__).resolve().parents[1]

# Small runs of every game: a few hands each, several chunks, mixed and all-random tables.
CASES = {
    "teds-game": dict(players=4, options={"start_size": 3}, bots="heuristic,random"),
    "teds-random": dict(game="teds-game", players=5, options={"start_size": 2}, bots="random"),
    "bobs-hat": dict(players=4, options={"hands": 3}, bots="random,heuristic,heuristic"),
    "bobs-random": dict(game="bobs-hat", players=3, options={"hands": 2}, bots="random"),
    "whot": dict(players=3, options={"rubber": "short"}, bots="heuristic,random"),
    "whot-nigerian": dict(game="whot", players=4,
                          options={"rubber": "single", "rules": "nigerian"}, bots="random"),
}


def run_case(name: str, **extra):
    case = dict(CASES[name])
    game = case.pop("game", name)
    args = dict(games=12, seed=5, chunk=4, workers=0, progress=False)
    args.update(case)
    args.update(extra)
    return simulate(game, **args)


def same(a, b) -> None:
    pd.testing.assert_frame_equal(a.hands, b.hands, check_exact=True)
    pd.testing.assert_frame_equal(a.games, b.games, check_exact=True)


@pytest.fixture(scope="module")
def serial():
    return {name: run_case(name) for name in CASES}


def test_the_tables_have_the_documented_schema(serial):
    for result in serial.values():
        game = result.spec.game
        columns = [c[0] for c in hands_columns(game)]
        assert list(result.hands.columns) == columns
        assert list(result.games.columns) == [c[0] for c in GAMES_COLUMNS]
        n = result.spec.players
        assert len(result.games) == 12 * n
        # one row per (game, hand, seat), in that order
        keys = list(zip(result.hands.game, result.hands.hand, result.hands.seat_index,
                        strict=True))
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        assert (result.hands.groupby(["game", "hand"]).size() == n).all()
    doc = (ROOT / "docs" / "simulations.md").read_text()
    # each column's row of the docs: its name, its type and its meaning as declared
    own = [cardlab.get_game(name).records().columns for name in cardlab.list_games()]
    for cols in (COMMON_COLUMNS, GAMES_COLUMNS, *own):
        for column in cols:
            kind = ("category (string)" if column.type == "category" else
                    column.type + (" (nullable)" if column.nullable else ""))
            row = f"| `{column.name}` | {kind} | {column.meaning} |"
            assert row in doc, row


def test_chunking_does_not_change_the_rows(serial):
    for name in ("teds-game", "whot"):
        same(run_case(name, chunk=1), serial[name])
        same(run_case(name, chunk=12), serial[name])


def test_a_process_pool_gives_the_same_frames(serial):
    for name in ("teds-game", "bobs-hat", "whot-nigerian"):
        pooled = run_case(name, workers=2)
        same(pooled, serial[name])
        assert pooled.reruns == 0


def test_the_parquet_files_round_trip(serial, tmp_path):
    for name in ("teds-random", "bobs-hat", "whot"):
        out = tmp_path / f"{name}.parquet"
        result = run_case(name, out=out)
        same(result, serial[name])
        back = load(out)
        same(back, result)
        assert back.spec == result.spec
        hands_file = pq.read_table(out)
        assert hands_file.schema.remove_metadata() == hands_schema(result.spec.game)
        assert pq.read_table(tmp_path / f"{name}.games.parquet").schema.remove_metadata() == \
            games_schema()
        meta = json.loads(hands_file.schema.metadata[b"cardlab"])
        assert meta["game"] == result.spec.game and meta["games"] == 12
        # a folder: one file per chunk of 4 games (one row group each), and the metadata
        for folder, rows in ((out, result.hands), (tmp_path / f"{name}.games.parquet",
                                                   result.games)):
            parts = ["games-01-04.parquet", "games-05-08.parquet", "games-09-12.parquet"]
            assert sorted(p.name for p in folder.iterdir()) == \
                ["_common_metadata", "_metadata", *parts]
            assert [pq.ParquetFile(folder / p).num_row_groups for p in parts] == [1, 1, 1]
            summary = pq.read_metadata(folder / "_metadata")
            assert summary.num_row_groups == 3 and summary.num_rows == len(rows)
            assert [summary.row_group(i).column(0).file_path for i in range(3)] == parts
            common = pq.read_schema(folder / "_common_metadata")
            assert common.metadata[b"cardlab"] == hands_file.schema.metadata[b"cardlab"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"{n}{ext}" for n in ("teds-random", "bobs-hat", "whot")
        for ext in (".parquet", ".games.parquet"))


def test_pandas_alone_reads_the_files_as_load_does(serial, tmp_path):
    # The files carry their pandas metadata: pd.read_parquet, without cardlab, gives the
    # very frames of cardlab.simulation.load, dtypes and category order included.
    assert {case.get("game", name) for name, case in CASES.items()} == \
        set(cardlab.list_games())  # every game
    for name in CASES:
        out = tmp_path / f"{name}.parquet"
        run_case(name, out=out)
        back = load(out)
        same(back, serial[name])
        pd.testing.assert_frame_equal(pd.read_parquet(out), back.hands, check_exact=True)
        pd.testing.assert_frame_equal(pd.read_parquet(games_path(out)), back.games,
                                      check_exact=True)
    forbidden = pd.read_parquet(tmp_path / "teds-game.parquet").forbidden
    assert forbidden.dtype == "Int16" and forbidden.isna().any()  # whole numbers, and nulls


def folder_bytes(*folders: Path) -> dict[str, bytes]:
    return {f"{n}/{p.name}": p.read_bytes() for n, folder in enumerate(folders)
            for p in sorted(folder.iterdir())}


def test_a_seeded_run_writes_the_same_bytes_whatever_plays_it(tmp_path):
    files = {}
    for workers in (0, 2, 0):
        out = tmp_path / f"run-{len(files)}.parquet"
        replays = tmp_path / f"replays-{len(files)}"
        run_case("bobs-hat", out=out, workers=workers, replays=replays)
        files[out] = folder_bytes(out, Path(games_path(out)), replays)
    first, *others = files.values()
    assert len(first) == 3 * 3 + 2 * 2  # 3 chunks: 2 parts and a batch each; 2 x metadata
    assert all(other == first for other in others)


def test_recording_replays_changes_nothing_and_the_replays_agree(serial, tmp_path):
    for name in CASES:
        folder = tmp_path / name
        result = run_case(name, replays=folder)
        same(result, serial[name])  # the fast path and the recorded steps: the same games
        # a batch per chunk of 4 games, each holding its games' replays
        assert sorted(f.name for f in folder.iterdir()) == \
            ["games-01-04.zip", "games-05-08.zip", "games-09-12.zip"]
        names = [n for f in sorted(folder.iterdir()) for n in batches.names(f)]
        assert names == [f"{folder}/games-{(g - 1) // 4 * 4 + 1:02d}-{(g - 1) // 4 * 4 + 4:02d}"
                         f".zip/game-{g:02d}.json" for g in range(1, 13)]
        for g, path in enumerate(names, 1):
            check_against_replay(result, g, cardlab.load(path))


def check_against_replay(result, g: int, replay) -> None:
    """Every column of game ``g``'s rows, from the replay through cardlab.dataframes."""
    game = result.spec.game
    hands = result.hands[result.hands.game == g]
    games = result.games[result.games.game == g]
    n = len(replay.seats)
    assert replay.seed == int(games.seed.iloc[0])
    assert list(games.total) == replay.totals
    assert set(games.seat[games.winner]) == {replay.seats[s] for s in
                                             replay.rules.winners(replay.totals)}
    assert list(games.hands) == [len(replay.hands)] * n
    assert list(games.actions) == [sum(len(h.actions) for h in replay.hands)] * n
    assert list(games.bot) == replay.meta["simulation"]["bots"]
    results = dataframes.hand_results_list(replay)
    assert len(hands) == len(results) * n
    sheet = dataframes.hand_results(replay)
    assert list(hands.score) == list(sheet.score)
    assert list(hands.total) == list(sheet.total)
    assert list(hands.seat.astype(str)) == list(sheet.seat)
    for res, (_, rows) in zip(results, hands.groupby("hand", sort=True), strict=True):
        end = res.end
        rows = rows.sort_values("seat_index")
        assert (rows.hand == res.number).all()
        assert list(rows.dealer) == [s == end["dealer"] for s in range(n)]
        assert list(rows.from_dealer) == [(s - end["dealer"]) % n for s in range(n)]
        assert (rows.actions == len(replay.hands[res.hand_index].actions)).all()
        first = next(dataframes.walk(replay, hand=res.hand_index + 1)).state.snapshot(None)
        assert list(rows.hand_size) == [len(h) for h in first["hands"]]
        if game == "teds-game":
            assert list(rows.bid) == end["bids"]
            assert list(rows.tricks) == end["tricks_won"]
            assert list(rows.made) == [b == t for b, t in zip(end["bids"], end["tricks_won"],
                                                                      strict=True)]
            # the dealer's forbidden bid: the one the hook refused when the dealer was to bid
            before = None
            for step in dataframes.walk(replay, hand=res.hand_index + 1):
                pos = step.state.snapshot(None)
                if pos["to_act"] == end["dealer"] and pos["phase"] == "bid":
                    before = pos["forbidden_bid"]
                    break
            assert list(rows.hooked) == [s == end["dealer"] and before is not None
                                         for s in range(n)]
            assert [None if pd.isna(v) else int(v) for v in rows.forbidden] == \
                [before if s == end["dealer"] else None for s in range(n)]
        elif game == "bobs-hat":
            assert list(rows.bid) == [",".join(b) for b in end["bids"]]
            assert list(rows.taken) == end["taken_total"]
            for suit in ("blue", "red", "black"):
                assert list(rows[f"taken_{suit}"]) == [t[suit] for t in end["taken"]]
            assert list(rows.hat) == [s == end["hat"]["holder"] for s in range(n)]
            assert (rows.hat_value == end["hat"]["value"]).all()
            for s, parts in enumerate(end["score_parts"]):
                row = rows.iloc[s]
                for column in [c for c in rows.columns if c.startswith("points_")]:
                    word = column[len("points_"):].replace("_", "-")
                    value = row[column]
                    assert (None if pd.isna(value) else int(value)) == parts.get(word)
                assert sum(parts.values()) == row.score
        else:
            assert list(rows.cards_left) == end["hand_counts"]
            assert list(rows.won) == [s == end["winner"] for s in range(n)]
            assert (rows.ended.astype(str) == end["ended"]).all()


def test_a_game_with_bots_is_the_game_cardlab_play_plays(tmp_path):
    folder = tmp_path / "replays"
    result = run_case("whot", games=2, chunk=1, replays=folder)
    for g in (1, 2):
        seed = int(result.games.seed[result.games.game == g].iloc[0])
        bots = ",".join(result.games.bot[result.games.game == g].astype(str))
        out = tmp_path / f"play{g}.json"
        subprocess.run([sys.executable, "-m", "cardlab", "play", "whot", "--players", "3",
                        "--option", "rubber=short", "--seed", str(seed), "--bots", bots,
                        "--out", str(out)], check=True, capture_output=True, cwd=ROOT)
        played = cardlab.load(out)
        simulated = cardlab.load(folder / f"games-{g}-{g}.zip" / f"game-{g}.json")
        simulated.meta = {}
        assert played == simulated


def test_seating_rotates_the_bots_or_keeps_them():
    spec = make_spec("bobs-hat", players=4, games=6, bots="random,heuristic,heuristic")
    for seat in range(4):
        seen = [spec.seat_bots(g)[seat] for g in range(1, 4)]
        assert sorted(seen) == ["heuristic", "heuristic", "random"]
    fixed = make_spec("bobs-hat", players=4, games=6, bots="random,heuristic", seating="fixed")
    assert all(fixed.seat_bots(g) == ["random", "heuristic"] * 2 for g in range(1, 7))
    result = run_case("bobs-hat", seating="fixed")
    assert (result.games.bot.astype(str) == [["random", "heuristic", "heuristic", "random"][s]
                                             for s in result.games.seat_index]).all()


def test_seeds_depend_on_the_seed_and_the_game_number_alone(serial):
    spec = make_spec("teds-game", games=50, seed=5)
    assert spec.game_seed(7) == make_spec("whot", games=9, seed=5).game_seed(7)
    seeds = [spec.game_seed(g) for g in range(1, 51)]
    assert len(set(seeds)) == 50 and all(0 <= s < 2**63 for s in seeds)
    assert make_spec("teds-game", seed=6).game_seed(1) != spec.game_seed(1)
    assert make_spec("teds-game", seed="5").game_seed(1) == spec.game_seed(1)  # as deals read it
    # a run of more games starts with the same games
    longer = run_case("teds-game", games=16)
    same_games = longer.games[longer.games.game <= 12].reset_index(drop=True)
    pd.testing.assert_frame_equal(same_games, serial["teds-game"].games, check_exact=True)


def test_the_rules_options_and_the_simulation_options_apply(serial):
    teds = serial["teds-game"]
    sizes = cardlab.get_game("teds-game").rules(players=4, start_size=3).hand_sizes()
    per_game = teds.hands[teds.hands.seat_index == 0].groupby("game").hand_size
    assert all(list(s) == list(sizes) for _, s in per_game)
    whot = serial["whot"].spec
    assert whot.options["max_turns"] == cardlab.get_game("whot").rules_class \
        .SIMULATION_OPTIONS["max_turns"]
    assert make_spec("whot", options={"max_turns": "50"}).options["max_turns"] == 50
    assert (serial["whot"].games.hands == 5).all()  # a short rubber


def test_the_summary_is_the_t_interval_and_the_win_share(serial):
    for df in (1, 2, 5, 29, 30, 100, 10_000):
        assert t_quantile(0.975, df) == pytest.approx(scipy_stats.t.ppf(0.975, df), rel=1e-9)
    for result in serial.values():
        summary = result.summary()
        games = result.games
        for by in ("bot", "seat"):
            for name, group in games.groupby(by, observed=True):
                row = summary.loc[(by, str(name))]
                n = len(group)
                mean = group.total.mean()
                low, high = scipy_stats.t.interval(0.95, n - 1, loc=mean,
                                                   scale=group.total.std(ddof=1) / n**0.5)
                assert row.n == n
                assert row["mean"] == pytest.approx(mean)
                if group.total.std() > 0:
                    assert (row.ci_low, row.ci_high) == (pytest.approx(low), pytest.approx(high))
                assert row.win_rate == pytest.approx(group.share.mean())
        # every game's shares add up to 1
        assert (games.groupby("game").share.sum().round(12) == 1).all()


def test_the_command_line_writes_the_tables_and_prints_the_summary(serial, tmp_path):
    out = tmp_path / "r.parquet"
    proc = subprocess.run(
        [sys.executable, "-m", "cardlab", "simulate", "teds-game", "--players", "4",
         "--games", "12", "--bots", "heuristic,random", "--seed", "5", "--option",
         "start_size=3", "--chunk", "4", "--workers", "2", "-o", str(out)],
        capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    same(load(out), serial["teds-game"])
    lines = proc.stdout.splitlines()
    summary = serial["teds-game"].summary()
    for (by, name), row in summary.iterrows():
        line = next(ln for ln in lines if ln.startswith(f"{by} {name} "))
        assert f"{row['mean']:.2f}" in line and f"{row.win_rate:.1%}" in line
        assert f"[{row.ci_low:.2f}, {row.ci_high:.2f}]" in line
    assert lines[-1] == f"wrote {out} and {tmp_path / 'r.games.parquet'}: 12 games"
    assert "12/12" in proc.stderr  # the progress bar


def test_import_cardlab_stays_light():
    code = ("import sys, cardlab; heavy = [m for m in ('pandas', 'pyarrow', 'dask', 'numpy', "
            "'cardlab.simulation') if m in sys.modules]; print(heavy); "
            "cardlab.simulate; print('pandas' in sys.modules, 'dask' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.split("\n")
    assert out[0] == "[]"
    assert out[1] == "False False"  # cardlab.simulate itself imports no pandas or dask


def test_every_chunk_plays_its_own_games():
    spec = make_spec("teds-game", players=3, games=7, bots="random", seed=2,
                     options={"start_size": 2}, chunk=3)
    assert spec.chunks() == [(1, 3), (4, 3), (7, 1)]
    chunk = play_chunk(spec, 2)
    assert chunk.first == 7 and chunk.count == 1
    assert set(chunk.hands.column("game").to_pylist()) == {7}


def test_an_existing_file_is_replaced_whole_and_dev_null_takes_a_run(serial, tmp_path):
    out = tmp_path / "r.parquet"
    out.write_text("an older file\n")
    (tmp_path / "r.games.parquet").write_text("an older file\n")
    same(run_case("whot", out=out), serial["whot"])
    same(load(out), serial["whot"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.games.parquet", "r.parquet"]
    same(run_case("whot", out="/dev/null"), serial["whot"])


@pytest.mark.parametrize("scheduler,extra", [(None, "sim"), ("tcp://127.0.0.1:9", "scale")])
def test_a_missing_pyarrow_names_the_extra_of_the_run(monkeypatch, scheduler, extra):
    # A run on this machine needs [sim]; one on a cluster [scale], which brings pyarrow too.
    # Said before any connection is tried or any game played.
    from cardlab.dataframes import MissingExtraError

    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now fails
    with pytest.raises(MissingExtraError, match=rf"pip install 'cardlab\[{extra}\]'"):
        cardlab.simulate("bobs-hat", games=2, scheduler=scheduler, progress=False)
