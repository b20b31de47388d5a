"""``cardlab validate`` and ``cardlab show`` of a 1,000,000-action Whot replay.

Targets (issue 10): validate in at most 5 s and 300 MB peak memory; show in at most 10 s.

The replay is a long rubber (10 games) of 4-player classic Whot with the safety cap set to
100,000 actions a game, played by bots that mostly draw and never play their last two cards,
so every game runs to the cap: 10 x 100,000 = 1,000,000 actions. It is legal, and it passes
the default limits (``cardlab.limits.DEFAULT_LIMITS``): 100,000 actions per hand and about
40 MB. It is made once and cached (``$CARDLAB_BENCH_CACHE``, default
``/tmp/cardlab-bench/whot-1m.json``).

Each command runs in a fresh child process; its wall time and its peak RSS (the child's own
``resource.getrusage(RUSAGE_SELF).ru_maxrss``) are reported beside the targets.

    python benchmarks/validate_large.py [--actions N] [--only validate|show]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import time
from pathlib import Path

from _timing import run_cardlab

import cardlab
from cardlab.games.whot import DRAW, WhotState

GAMES = 10  # a long rubber
TARGETS = {"validate": (5.0, 300.0), "show": (10.0, None), "show --seat": (10.0, None)}


class Stubborn:
    """Plays a random card it may play, but never one of its last two: then it draws.

    So hands stay small, the stock stays large (a draw is always possible) and nobody
    ever goes out: every game runs to the cap."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: WhotState, seat: int) -> int:
        legal = state.legal_actions()
        held = len(state.hands[seat]) + len(state.whots[seat])
        plays = [a for a in legal if a < DRAW] if held > 2 else []
        if plays or DRAW not in legal:
            options = plays or legal
            return options[int(self.rng.random() * len(options))]
        return DRAW


def make(path: Path, actions: int) -> None:
    per_game = actions // GAMES
    table = cardlab.new_game("whot", players=4, seed=2026, rubber="long",
                             max_turns=per_game, meta={"title": "a very long rubber"})
    table.play([Stubborn(s) for s in range(4)], max_actions=actions + 10)  # type: ignore
    assert sum(len(h.actions) for h in table.replay.hands) == actions, "a game ended early"
    path.parent.mkdir(parents=True, exist_ok=True)
    table.save(path)


def _first_seat(path: Path) -> str:
    """The first seat's name, read from the file's head (loading it all would cost seconds)."""
    with path.open(encoding="utf-8") as fh:
        head = fh.read(4096)
    match = re.search(r'"seats":\s*\[\s*("(?:[^"\\]|\\.)*")', head)
    if match is None:
        raise SystemExit(f"{path}: no seats in its first 4 KB")
    return str(json.loads(match.group(1)))


def measure(command: str, path: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of ``cardlab COMMAND FILE`` in a fresh child process
    (``show --seat`` shows the first seat's view)."""
    name, _, flag = command.partition(" ")
    extra = [flag, _first_seat(path)] if flag else []
    seconds, peak, done = run_cardlab([name, str(path), *extra])
    if done.returncode != 0:
        raise SystemExit(f"cardlab {command} failed: {done.stderr}")
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1_000_000)
    parser.add_argument("--only", choices=tuple(TARGETS), help="run one command only")
    args = parser.parse_args()
    folder = Path(os.environ.get("CARDLAB_BENCH_CACHE", "/tmp/cardlab-bench"))
    path = folder / f"whot-{args.actions}.json"
    if not path.exists():
        start = time.perf_counter()
        make(path, args.actions)
        print(f"made {path} in {time.perf_counter() - start:.1f} s")
    replay_actions = sum(1 for line in path.open(encoding="utf-8")
                         if line.lstrip().startswith('{"seat"'))
    print(f"replay: {path}, {path.stat().st_size / 1e6:.1f} MB, {replay_actions:,} actions")
    for command in (args.only,) if args.only else tuple(TARGETS):
        seconds, peak = measure(command, path)
        limit_s, limit_mb = TARGETS[command]
        verdict = "meets" if seconds <= limit_s and (limit_mb is None or peak <= limit_mb) \
            else "misses"
        target = f"≤ {limit_s:.0f} s" + (f", ≤ {limit_mb:.0f} MB" if limit_mb else "")
        print(f"cardlab {command}: {seconds:.2f} s, peak RSS {peak:.0f} MB "
              f"(target {target}: {verdict})")


if __name__ == "__main__":
    main()
