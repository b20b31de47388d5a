"""Viewer speed on a full 10-hand, 4-player Where's Bob's Hat? replay (targets: a step under
20 ms, opening under 300 ms).

- *step*: move one step (``viewer.next()``): the cursor's position, the seat boxes, the centre,
  the status line, the note, the score sheet, the jump menus, the explore menu, and the score
  chart's marker — everything the kernel computes for a step.
- *open*: ``ReplayViewer(replay)``: the cursor, the widgets, the score sheet, the chart.

Measured twice: in this process (no front end: widget messages go nowhere) and inside a real
IPython kernel started with jupyter_client, where every widget change is serialised and sent
over the kernel's sockets as it would be to JupyterLab. The imports of ipywidgets, plotly and
anywidget are paid once per kernel and reported apart ("first open").

    python benchmarks/viewer_step.py
"""

from __future__ import annotations

import ast
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STEP_TARGET_MS = 20.0
OPEN_TARGET_MS = 300.0


def full_game(seed: int) -> Any:
    import cardlab
    from cardlab.bots import make_bot

    table = cardlab.new_game("bobs-hat", players=4, seed=seed)
    table.play([make_bot("heuristic", "bobs-hat", seed=s) for s in range(4)])
    assert len(table.replay.hands) == 10 and table.state.is_game_over()
    return table.replay


def measure() -> dict[str, Any]:
    replay = full_game(2024)
    start = time.perf_counter()
    from cardlab.view import ReplayViewer

    viewer = ReplayViewer(replay)
    first_open = (time.perf_counter() - start) * 1000
    opens = []
    for seed in range(2025, 2033):
        other = full_game(seed)
        start = time.perf_counter()
        ReplayViewer(other)
        opens.append((time.perf_counter() - start) * 1000)
    steps = []
    for _ in range(2):  # walk the whole game forward twice
        viewer.first()
        for _ in range(len(viewer.cursor) - 1):
            start = time.perf_counter()
            viewer.next()
            steps.append((time.perf_counter() - start) * 1000)
    jumps = []
    for target in range(0, len(viewer.cursor), 37):  # slider jumps across hands
        start = time.perf_counter()
        viewer.goto(target)
        jumps.append((time.perf_counter() - start) * 1000)
    steps.sort()
    return {"steps": len(viewer.cursor), "chart": viewer.chart is not None,
            "step_median": statistics.median(steps), "step_p95": steps[int(0.95 * len(steps))],
            "step_max": steps[-1], "jump_median": statistics.median(jumps),
            "open_median": statistics.median(opens), "open_max": max(opens),
            "first_open": first_open}


def report(where: str, m: dict[str, Any]) -> bool:
    print(f"{where}: {m['steps']} steps, chart {'on' if m['chart'] else 'off'}")
    print(f"  viewer step: median {m['step_median']:.2f} ms, p95 {m['step_p95']:.2f} ms, "
          f"max {m['step_max']:.2f} ms (target < {STEP_TARGET_MS:.0f} ms)")
    print(f"  slider jump: median {m['jump_median']:.2f} ms")
    print(f"  viewer open: median {m['open_median']:.1f} ms, max {m['open_max']:.1f} ms "
          f"(target < {OPEN_TARGET_MS:.0f} ms); first open with the imports "
          f"{m['first_open']:.0f} ms")
    return bool(m["step_p95"] < STEP_TARGET_MS and m["open_median"] < OPEN_TARGET_MS)


def in_kernel() -> dict[str, Any] | None:
    """Run :func:`measure` inside a fresh IPython kernel; None without jupyter_client."""
    try:
        from jupyter_client.manager import start_new_kernel
    except ImportError:
        return None
    manager, client = start_new_kernel(kernel_name="python3", cwd=str(ROOT))
    result: dict[str, Any] = {}
    code = (f"import runpy\nbench = runpy.run_path({str(Path(__file__).resolve())!r}, "
            "run_name='viewer_step_in_kernel')\nbench['measure']()")
    try:
        def hook(msg: dict[str, Any]) -> None:
            if msg["msg_type"] == "execute_result":
                result.update(ast.literal_eval(msg["content"]["data"]["text/plain"]))
            elif msg["msg_type"] == "error":
                print("\n".join(msg["content"]["traceback"]), file=sys.stderr)

        client.execute_interactive(code, timeout=600, output_hook=hook)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    return result or None


def main() -> int:
    ok = report("this process", measure())
    kernel = in_kernel()
    if kernel is None:
        print("in a kernel: skipped (jupyter_client is not installed)")
    else:
        ok = report("inside an IPython kernel (widget messages sent)", kernel) and ok
    print("within targets" if ok else "OVER TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
