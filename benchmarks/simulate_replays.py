"""What ``--replays`` costs a simulation: its work with the replays recorded against without.

Issue 22 asks for at most 2x. For each case, the same chunk of games is played in this
process in interleaved rounds (without, with, without, with, ...), each timed in CPU
seconds (``time.process_time``), and the median of each is reported with the ratio:

- **the chunk's job**, what a worker does for a chunk: play its games, build the rows,
  write the two Parquet parts (and, with ``--replays``, assemble each game's replay and
  write the chunk's batch), each file fsynced (its wait is not CPU);
- **the command**, ``cardlab simulate ... --workers 0 -o DIR [--replays DIR]`` run whole in
  a fresh process, its own CPU time (``RUSAGE_SELF``: start-up, imports and the bookkeeping
  included), in the same interleaved rounds.

Run it from the repository root, with the compiled kernel (``make .venv/.stamp-test``):

    .venv/bin/python benchmarks/simulate_replays.py                 # every case, 7 rounds
    .venv/bin/python benchmarks/simulate_replays.py --rounds 3 --case teds-random
    .venv/bin/python benchmarks/simulate_replays.py --compress      # --compress-replays

It runs against an older cardlab too (one that wrote a file per replay from the run's
process): the job is then what that cardlab did for a chunk, its rows and replays written
as it wrote them, so the two can be compared on one machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import host_speed, kernel_kind  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# name: (game, players, bots, options, games in the chunk)
CASES = {
    "teds-random": ("teds-game", 5, "random", {}, 300),
    "teds-heuristic": ("teds-game", 5, "heuristic", {}, 60),
    "bobs-random": ("bobs-hat", 4, "random", {}, 300),
    "bobs-heuristic": ("bobs-hat", 4, "heuristic", {}, 60),
    "whot-random": ("whot", 4, "random", {}, 60),
}


COMPRESS = False  # --compress: the replays deflated in their batches (--compress-replays)


def job(spec, folder: Path, replays: bool) -> int:
    """One chunk's work, as a worker does it; the hands played."""
    try:
        from cardlab.simulation.output import Destination, play_part
    except ImportError:  # an older cardlab: the chunk played, then written as it wrote it
        return _old_job(spec, folder, replays)
    tables = []
    for name in ("hands", "games"):
        path = folder / name
        path.mkdir()
        tables.append((str(path), name))
    scratch = None
    if replays:
        (folder / "replays").mkdir()
        scratch = (str(folder / "replays"), "replays")
    dest = Destination((tables[0], tables[1]), scratch)
    if COMPRESS:
        dest = Destination((tables[0], tables[1]), scratch, compress=True)
    part = play_part(spec, 0, dest)
    return part.hand_count


def _old_job(spec, folder: Path, replays: bool) -> int:
    import pyarrow.parquet as pq

    from cardlab.files import write_text
    from cardlab.simulation.rows import play_chunk
    from cardlab.simulation.schema import games_schema, hands_schema

    chunk = play_chunk(spec, 0, replays)
    pq.write_table(chunk.hands.cast(hands_schema(spec.game)), folder / "h.parquet")
    pq.write_table(chunk.games.cast(games_schema()), folder / "g.parquet")
    if replays:
        (folder / "replays").mkdir()
        for name, text in chunk.replays:
            write_text(folder / "replays" / name, text)
    return chunk.hand_count


def time_jobs(name: str, rounds: int) -> dict[str, float]:
    from cardlab.simulation.spec import make_spec

    game, players, bots, options, games = CASES[name]
    spec = make_spec(game, players=players, games=games, bots=bots, seed=1, options=options,
                     chunk=games)
    job(spec, Path(tempfile.mkdtemp()), True)  # warm: imports, caches
    seconds: dict[bool, list[float]] = {False: [], True: []}
    hands = 0
    for _ in range(rounds):
        for replays in (False, True):
            with tempfile.TemporaryDirectory() as folder:
                start = time.process_time()
                hands = job(spec, Path(folder), replays)
                seconds[replays].append(time.process_time() - start)
    plain, recorded = statistics.median(seconds[False]), statistics.median(seconds[True])
    return {"hands": hands, "plain": plain, "recorded": recorded,
            "ratios": [r / p for p, r in zip(seconds[False], seconds[True], strict=True)]}


def command_cpu(args: list[str]) -> float:
    """``cardlab ARGS`` in a fresh process: its own CPU seconds (user + system)."""
    code = ("import resource, sys\nfrom cardlab.cli import main\n"
            f"sys.argv = ['cardlab', *{args!r}]\n"
            "try:\n    main()\nfinally:\n"
            "    use = resource.getrusage(resource.RUSAGE_SELF)\n"
            "    sys.stderr.write(f'\\ncpu {use.ru_utime + use.ru_stime}\\n')\n")
    done = subprocess.run([sys.executable, "-c", code], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, cwd=ROOT)
    if "cpu " not in done.stderr:
        sys.exit(done.stderr)
    return float(done.stderr.rsplit("cpu ", 1)[1])


def time_commands(name: str, rounds: int) -> dict[str, float]:
    game, players, bots, options, games = CASES[name]
    base = ["simulate", game, "--players", str(players), "--bots", bots, "--games",
            str(games * 4), "--seed", "1", "--workers", "0", "--no-progress"]
    compress = ["--compress-replays"] if COMPRESS else []
    for key, value in options.items():
        base += ["--option", f"{key}={value}"]
    seconds: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(rounds):
        for replays in (False, True):
            with tempfile.TemporaryDirectory() as folder:
                extra = ["--replays", os.path.join(folder, "replays"), *compress] if replays \
                    else []
                seconds[replays].append(command_cpu(
                    [*base, "-o", os.path.join(folder, "r.parquet"), *extra]))
    plain, recorded = statistics.median(seconds[False]), statistics.median(seconds[True])
    return {"games": games * 4, "plain": plain, "recorded": recorded}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument("--case", choices=sorted(CASES), action="append",
                        help="a case to run (repeat for more; default: all)")
    parser.add_argument("--no-command", action="store_true",
                        help="time the chunk's job only, not the whole command")
    parser.add_argument("--compress", action="store_true",
                        help="the replays deflated in their batches (--compress-replays)")
    args = parser.parse_args()
    global COMPRESS
    COMPRESS = args.compress
    print(kernel_kind())
    print(host_speed())
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{args.rounds} interleaved rounds; medians of CPU seconds\n")
    for name in args.case or list(CASES):
        found = time_jobs(name, args.rounds)
        hands = found["hands"]
        ratios = ", ".join(f"{r:.2f}" for r in found["ratios"])
        print(f"{name}: the chunk's job, {hands:,} hands: without "
              f"{found['plain'] / hands * 1e6:6.1f} us/hand, with replays "
              f"{found['recorded'] / hands * 1e6:6.1f} us/hand: "
              f"{found['recorded'] / found['plain']:.2f}x (rounds: {ratios})")
        if not args.no_command:
            whole = time_commands(name, args.rounds)
            print(f"{'':{len(name)}}  the command, {whole['games']:,} games: without "
                  f"{whole['plain']:.2f} s, with replays {whole['recorded']:.2f} s: "
                  f"{whole['recorded'] / whole['plain']:.2f}x")
    print(f"\nload average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
