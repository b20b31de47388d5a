"""Loading and validating a full 10-hand Where's Bob's Hat? replay (target: under 50 ms).

"Load" is the whole of ``cardlab.load``: read the file, parse the JSON, check it against the
JSON Schema, then replay every action through the engine and compare the stored scores.
Reported: the imports (cardlab and its game modules), the first load in a fresh process
(which also compiles the schema check) and the best of many warm loads.

    python benchmarks/replay_load.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cardlab
from cardlab.bots import make_bot

FIRST_LOAD = """
import time, sys
t0 = time.perf_counter()
import cardlab
cardlab.list_games()  # imports every game module
t1 = time.perf_counter()
cardlab.load(sys.argv[1])
t2 = time.perf_counter()
print(f"{(t1 - t0) * 1000:.1f} {(t2 - t1) * 1000:.1f}")
"""


def main() -> None:
    table = cardlab.new_game("bobs-hat", players=4, seed=2026)  # 10 hands, 5 to 14 cards
    table.play([make_bot("heuristic", "bobs-hat", seed=s) for s in range(4)])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        table.save(path)
        actions = sum(len(h.actions) for h in table.replay.hands)
        out = subprocess.run([sys.executable, "-c", FIRST_LOAD, str(path)], check=True,
                             capture_output=True, text=True).stdout.split()
        import_ms, first_ms = float(out[0]), float(out[1])
        best = float("inf")
        for _ in range(30):
            start = time.perf_counter()
            cardlab.load(path)
            best = min(best, time.perf_counter() - start)
        size = path.stat().st_size
    print(f"replay: 10 hands, {actions} actions, {size:,} bytes")
    print(f"import cardlab and its games: {import_ms:.1f} ms; first load + validate in a "
          f"fresh process (includes compiling the schema check): "
          f"{first_ms:.1f} ms; warm load + validate: {best * 1000:.1f} ms "
          f"({'meets' if max(first_ms, best * 1000) < 50 else 'misses'} the 50 ms target)")


if __name__ == "__main__":
    main()
