"""The classroom site's speed and size (``make lite``: lite/_output), in Debian's Chromium.

(a) *cold start*: a browser that has never seen the site (a new context: empty cache and
    storage) opens the first lesson in the Notebook view and runs all its cells; the time
    from navigation to the kernel ready (Pyodide, cardlab and the widgets loaded, IPython
    started), and to the first viewer drawn. Median of 3 (target: first viewer <= 25 s).
(b) *warm start*: the same browser opens the lesson again (the site in its cache); the same
    two times. Median of 3 (target: first viewer <= 8 s).
(c) *one decision, 200 rollouts*: in the lesson's kernel, ``cardlab.advisor.evaluate`` of
    the first lead of Ted's Game's example (hand 1, action 5: ten cards in hand, ten legal
    leads), and of Brad's trump in the Norwegian review (hand 1, action 19: the README's
    example), timed inside Python. Best of 3 each (target <= 5 s).
(d) *site size*: every file of lite/_output (target <= 80 MB).

Every request outside the site's 127.0.0.1 address is aborted, as in the browser test.

    python benchmarks/lite_start.py

Benchmarks print figures; they are never tests. Figures move with the load on the machine
(2 shared cores): the host-speed line says how busy it was.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))  # harness.py: Chromium

import harness  # noqa: E402
from _timing import host_speed  # noqa: E402

SITE = ROOT / "lite" / "_output"
LESSON = "10-following-suit.ipynb"
COLD_TARGET_S, WARM_TARGET_S, DECISION_TARGET_S, SIZE_TARGET_MB = 25.0, 8.0, 5.0, 80.0
RUNS = 3
TIMEOUT_MS = 300_000

# Runs code in the kernel of the notebook on show and returns what it printed.
KERNEL_PRINT = """async (code) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const future = kernel.requestExecute({code, silent: false, store_history: false});
    let out = '';
    future.onIOPub = (msg) => {
        if (msg.header.msg_type === 'stream') out += msg.content.text;
        if (msg.header.msg_type === 'error') out += msg.content.ename + ': ' + msg.content.evalue;
    };
    await future.done;
    return out;
}"""

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


def serve() -> Any:
    spec = importlib.util.spec_from_file_location("lite_serve", ROOT / "lite" / "serve.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    httpd = module.server(SITE)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


class Context:
    def __init__(self, chromium: Any, base: str) -> None:
        self.base = base
        self.blocked: list[str] = []
        self.context = chromium.new_context(viewport={"width": 1280, "height": 900})
        self.context.route("**/*", self._route)

    def _route(self, route: Any) -> None:
        if route.request.url.startswith(self.base):
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def start(self) -> tuple[Any, float, float]:
        """The lesson's page, seconds to the kernel ready and to the first viewer drawn."""
        page = self.context.new_page()
        start = time.monotonic()
        page.goto(f"{self.base}notebooks/index.html?path=notebooks/{LESSON}")
        harness.start_run_all(page, TIMEOUT_MS)
        page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext"
                               ".session?.kernel", timeout=TIMEOUT_MS)
        page.evaluate("async () => { await window.jupyterapp.shell.currentWidget"
                      ".sessionContext.session.kernel.info; }")
        ready = time.monotonic() - start
        page.locator(".cardlab-viewer").first.wait_for(timeout=TIMEOUT_MS)
        return page, ready, time.monotonic() - start


def verdict(value: float, target: float, unit: str) -> str:
    return f"{value:.1f} {unit} (target <= {target:g} {unit}: " \
        f"{'met' if value <= target else 'NOT met'})"


def main() -> None:
    if not (SITE / "index.html").is_file():
        print(f"{SITE} holds no built site: nothing to measure (make lite builds it)")
        return
    from playwright.sync_api import sync_playwright

    print(host_speed())
    size = sum(p.stat().st_size for p in SITE.rglob("*") if p.is_file()) / 1e6
    httpd = serve()
    base = f"http://127.0.0.1:{httpd.server_port}/"
    cold: list[tuple[float, float]] = []
    warm: list[tuple[float, float]] = []
    decisions: dict[str, list[float]] = {what: [] for what in DECISIONS}
    blocked: list[str] = []
    with sync_playwright() as playwright:
        chromium = harness.launch(playwright)
        for run in range(RUNS):
            context = Context(chromium, base)
            page, ready, viewer = context.start()
            cold.append((ready, viewer))
            harness.wait_run_all(page, TIMEOUT_MS)
            if run == 0:
                for what, (name, hand, index) in DECISIONS.items():
                    code = DECISION.format(name=name, hand=hand, index=index)
                    for _ in range(RUNS):
                        said = page.evaluate(KERNEL_PRINT, code).split()
                        if len(said) != 2:
                            sys.exit(f"the decision did not run in the browser: {said}")
                        decisions[what].append(float(said[0]))
            page.close()
            page, ready, viewer = context.start()
            warm.append((ready, viewer))
            page.close()
            blocked += context.blocked
            context.context.close()
        chromium.close()
    httpd.shutdown()

    def median(runs: list[tuple[float, float]], k: int) -> float:
        return statistics.median(r[k] for r in runs)

    print(f"(a) cold start: kernel ready {median(cold, 0):.1f} s, first viewer "
          f"{verdict(median(cold, 1), COLD_TARGET_S, 's')}  "
          f"[runs: {', '.join(f'{v:.1f}' for _, v in cold)}]")
    print(f"(b) warm start: kernel ready {median(warm, 0):.1f} s, first viewer "
          f"{verdict(median(warm, 1), WARM_TARGET_S, 's')}  "
          f"[runs: {', '.join(f'{v:.1f}' for _, v in warm)}]")
    for what, times in decisions.items():
        print(f"(c) one decision, 200 rollouts, in the browser ({what}): "
              f"{min(times):.2f} s (target <= {DECISION_TARGET_S:g} s: "
              f"{'met' if min(times) <= DECISION_TARGET_S else 'NOT met'})  "
              f"[runs: {', '.join(f'{v:.2f}' for v in times)}]")
    print(f"(d) site size: {verdict(size, SIZE_TARGET_MB, 'MB')}")
    print(f"requests outside the site: {len(blocked)}")


if __name__ == "__main__":
    main()
