"""The classroom site's speed and size (``make lite``: lite/_output), in Debian's Chromium.

(a) *cold start*: a browser profile that has never seen the site (a new folder: empty cache
    and storage) opens the first lesson in the Notebook view and runs all its cells; the
    seconds from navigation until the kernel's worker started (JupyterLite loaded, the
    notebook opened), the kernel answered (Pyodide started, its packages loaded, IPython
    imported) and the first viewer was drawn (the first cell ran). Target: first viewer
    <= 25 s.
(b) *warm start*: the same profile, the browser closed and launched again (its cache on disk:
    the site's files and the WebAssembly Chromium compiled), opens the lesson again; the
    same three times. Target: first viewer <= 8 s.
(c) *one decision, 200 rollouts*: in the lesson's kernel, ``cardlab.advisor.evaluate`` of
    the first lead of Ted's Game's example (hand 1, action 5: ten cards in hand, ten legal
    leads), and of Brad's trump in the Norwegian review (hand 1, action 19: the README's
    example), timed inside Python. Best of 3 each (target <= 5 s).
(d) *site size*: every file of lite/_output (target <= 80 MB).

(a) and (b) are the medians of ``--runs`` profiles (5). The browser can reach nothing but
the site (tests/browser/litesite.py: a refusing proxy); the requests it refused that were
not Chromium's own services are counted at the end (0 expected).

    python benchmarks/lite_start.py [--runs 5] [--site lite/_output]

Benchmarks print figures; they are never tests. Figures move with the load on the machine
(2 shared cores): the host-speed line says how busy it was.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))  # harness.py, litesite.py: Chromium

import harness  # noqa: E402
import litesite  # noqa: E402
from _timing import host_speed  # noqa: E402

LESSON = "10-following-suit.ipynb"
COLD_TARGET_S, WARM_TARGET_S, DECISION_TARGET_S, SIZE_TARGET_MB = 25.0, 8.0, 5.0, 80.0
TIMEOUT_MS = 300_000

DECISIONS = {"Ted's Game, hand 1, the first lead": ("teds-game-example", 1, 5),
             "the review, hand 1, Brad's trump": ("norwegian-review", 1, 19)}
DECISION = """
import time
import cardlab
from cardlab.advisor import evaluate
_replay = cardlab.example({name!r})
_start = time.perf_counter()
_advice = evaluate(_replay, hand={hand}, index={index}, rollouts=200, seed=1)
print(f"{{time.perf_counter() - _start:.3f}} {{len(_advice.values)}}")
"""


def verdict(value: float, target: float, unit: str) -> str:
    return f"{value:.1f} {unit} (target <= {target:g} {unit}: " \
        f"{'met' if value <= target else 'NOT met'})"


def start_once(playwright: Any, folder: Path, proxy: litesite.RefusingProxy, base: str,
               decisions: dict[str, list[float]] | None = None) -> litesite.Start:
    """The lesson opened in the profile ``folder`` (launched for it, closed after); with
    ``decisions``, the decisions are timed in its kernel too."""
    profile = litesite.Profile(playwright, folder, proxy)
    try:
        page, start = litesite.open_notebook(profile, base, LESSON, TIMEOUT_MS)
        harness.wait_run_all(page, TIMEOUT_MS)
        for what, (name, hand, index) in DECISIONS.items() if decisions is not None else ():
            code = DECISION.format(name=name, hand=hand, index=index)
            for _ in range(3):
                said = litesite.kernel_print(page, code).split()
                if len(said) != 2:
                    sys.exit(f"the decision did not run in the browser: {said}")
                decisions[what].append(float(said[0]))
        return start
    finally:
        profile.close()


def report(label: str, starts: list[litesite.Start], target: float) -> None:
    def median(name: str) -> float:
        return statistics.median(getattr(s, name) for s in starts)

    print(f"{label}: the kernel's worker {median('worker'):.1f} s, the kernel ready "
          f"{median('ready'):.1f} s, first viewer {verdict(median('viewer'), target, 's')}  "
          f"[runs: {', '.join(f'{s.viewer:.1f}' for s in starts)}]")


def main() -> None:
    parser = argparse.ArgumentParser(description="the classroom site's speed and size")
    parser.add_argument("--runs", type=int, default=5, help="browser profiles (medians)")
    parser.add_argument("--site", type=Path, default=litesite.SITE, help="a built site")
    args = parser.parse_args()
    if not (args.site / "index.html").is_file():
        print(f"{args.site} holds no built site: nothing to measure (make lite builds it)")
        return
    from playwright.sync_api import sync_playwright

    print(host_speed())
    size = sum(p.stat().st_size for p in args.site.rglob("*") if p.is_file()) / 1e6
    cold: list[litesite.Start] = []
    warm: list[litesite.Start] = []
    decisions: dict[str, list[float]] = {what: [] for what in DECISIONS}
    proxy = litesite.RefusingProxy()
    with sync_playwright() as playwright, litesite.served(args.site) as base, \
            tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            folder = Path(tmp) / f"profile{run}"
            cold.append(start_once(playwright, folder, proxy, base))
            warm.append(start_once(playwright, folder, proxy, base,
                                   decisions if run == 0 else None))
    proxy.close()
    report("(a) cold start", cold, COLD_TARGET_S)
    report("(b) warm start", warm, WARM_TARGET_S)
    for what, times in decisions.items():
        print(f"(c) one decision, 200 rollouts, in the browser ({what}): "
              f"{min(times):.2f} s (target <= {DECISION_TARGET_S:g} s: "
              f"{'met' if min(times) <= DECISION_TARGET_S else 'NOT met'})  "
              f"[runs: {', '.join(f'{v:.2f}' for v in times)}]")
    print(f"(d) site size: {verdict(size, SIZE_TARGET_MB, 'MB')}")
    print(f"requests outside the site: {len(proxy.outside())} (Chromium's own services, "
          f"refused too: {len(proxy.refused) - len(proxy.outside())})")


if __name__ == "__main__":
    main()
