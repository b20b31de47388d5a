"""The classroom site (``make lite``, docs/classroom.md) in a real browser, with nothing else.

lite/_output is served on 127.0.0.1 (lite/serve.py) and Chromium can reach nothing else: every
other request, a page's or a worker's (the Pyodide kernel runs in a web worker), goes to a
proxy that refuses it and records it (tests/browser/litesite.py), and no host name resolves.
So what runs is only what the site holds: JupyterLite, Pyodide's kernel, cardlab's pure wheel
and the wheels it needs. Each notebook the site ships (the walkthrough and the lessons, read
from notebooks/) runs all its cells in the Pyodide kernel with no error; then, in the first
lesson, the viewer steps with the keys, an exercise checks an answer, "what if" plays a branch
(the bots finish the hand in the browser's kernel), the advisor evaluates a decision, and a
chart loads plotly, which the kernel did not load as it started; and a request from the
kernel to the outside world is refused.

The times a student waits (the cold start: a browser that has never seen the site; the warm
one: the same browser profile, relaunched; each notebook's Run All; a branch; a decision) are
written to ``artifacts/lite-times.txt``, never asserted: benchmarks/lite_start.py measures
them against their targets (medians of several runs).

Marked ``lite`` (and ``browser``): ``make test`` leaves it out, saying so, until ``make lite``
has built the site (and rebuilds a site older than its sources first); ``.ci/run`` builds it
first and prints the times.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import harness
import litesite
import pytest
import views

import cardlab

# a test waits for Pyodide: more than the usual bound on a loaded machine (pyproject.toml)
pytestmark = [pytest.mark.browser, pytest.mark.lite, pytest.mark.timeout(600)]

FIRST_LESSON = "10-following-suit.ipynb"  # the interactive checks below know its content
RUN_TIMEOUT = 300_000  # ms: a notebook's cells in Pyodide, on a loaded machine
TIMES = harness.ARTIFACTS / "lite-times.txt"


@pytest.fixture(scope="module")
def times() -> Iterator[list[str]]:
    """Lines for artifacts/lite-times.txt, written when the module's tests are done."""
    lines: list[str] = []
    yield lines
    harness.ARTIFACTS.mkdir(exist_ok=True)
    TIMES.write_text("the classroom site in Chromium (tests/browser/test_lite.py; figures "
                     "against targets: benchmarks/lite_start.py)\n"
                     + "".join(f"  {line}\n" for line in lines), encoding="utf-8")


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The built site served on 127.0.0.1; its base URL."""
    try:
        with litesite.served() as base:
            yield base
    except RuntimeError as err:
        pytest.fail(f"{err} (make test leaves this test out until then)")


@pytest.fixture(scope="module")
def proxy() -> Iterator[litesite.RefusingProxy]:
    refusing = litesite.RefusingProxy()
    yield refusing
    refusing.close()


def _check_nothing_left(profile: litesite.Profile, proxy: litesite.RefusingProxy) -> None:
    """Nothing of the site went outside (Chromium's own services knock too: not counted),
    and no page raised."""
    assert proxy.outside() == [] and profile.page_errors == [], \
        (proxy.outside(), profile.page_errors)


@pytest.fixture(scope="module")
def browser(playwright: Any, proxy: litesite.RefusingProxy, site: str,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[litesite.Profile]:
    """A browser profile of its own for the notebooks, launched once."""
    try:
        profile = litesite.Profile(playwright, tmp_path_factory.mktemp("profile"), proxy)
    except RuntimeError as err:
        pytest.fail(str(err))
    yield profile
    profile.close()


def test_cold_and_warm_start(playwright: Any, proxy: litesite.RefusingProxy, site: str,
                             tmp_path: Path, times: list[str]) -> None:
    """The first viewer of the first lesson, in a browser new to the site, and then in the
    same browser relaunched (its cache on disk: the site and the compiled WebAssembly)."""
    starts = []
    for _ in ("cold", "warm"):
        profile = litesite.Profile(playwright, tmp_path / "profile", proxy)
        try:
            page, start = litesite.open_notebook(profile, site, FIRST_LESSON, RUN_TIMEOUT)
            harness.wait_run_all(page, RUN_TIMEOUT)
            errors = harness.cell_errors(page)
            assert errors == [], errors[0][-3000:]
            _check_nothing_left(profile, proxy)
            starts.append(start)
        finally:
            profile.close()
    times.append(f"cold start ({FIRST_LESSON}): {starts[0]}")
    times.append(f"warm start ({FIRST_LESSON}): {starts[1]}")


def _site_has(notebook: str) -> bool:
    return (litesite.SITE / "files" / "notebooks" / notebook).is_file()


@pytest.mark.parametrize("notebook", litesite.notebooks())
def test_each_notebook_runs_all_its_cells_in_the_browser(browser: litesite.Profile,
                                                         proxy: litesite.RefusingProxy,
                                                         site: str, notebook: str,
                                                         times: list[str]) -> None:
    assert _site_has(notebook), f"the site has no {notebook}: it is older than notebooks/ " \
        "(make lite rebuilds it)"
    page, start = litesite.open_notebook(browser, site, notebook, RUN_TIMEOUT)
    try:
        harness.wait_run_all(page, RUN_TIMEOUT)
        errors = harness.cell_errors(page)
        assert errors == [], errors[0][-3000:]
        cells = page.locator(".jp-Notebook .jp-CodeCell").count()
        prompts = page.locator(".jp-Notebook .jp-CodeCell .jp-InputArea-prompt").all_text_contents()
        assert cells > 3 and all(p.strip() not in ("[ ]:", "[*]:") for p in prompts), prompts
        assert page.locator(litesite.VIEWER).count() >= 1
        _check_nothing_left(browser, proxy)
        times.append(f"{notebook}: {start}; every cell run at "
                     f"{time.monotonic() - start.opened:.1f} s")
    except Exception:
        harness.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(harness.ARTIFACTS / f"lite-{notebook}-failure.png"))
        raise
    finally:
        page.close()


@pytest.fixture(scope="module")
def lesson_page(browser: litesite.Profile, proxy: litesite.RefusingProxy,
                site: str) -> Iterator[Any]:
    """The first lesson with every cell run."""
    page, _ = litesite.open_notebook(browser, site, FIRST_LESSON, RUN_TIMEOUT)
    harness.wait_run_all(page, RUN_TIMEOUT)
    assert harness.cell_errors(page) == []
    yield page
    _check_nothing_left(browser, proxy)
    page.close()


def _first_viewer(page: Any) -> Any:
    root = page.locator(litesite.VIEWER).first
    root.scroll_into_view_if_needed()
    return root


def _mark(page: Any, root: Any, name: str) -> str:
    """A selector for ``root`` alone (the viewers of a lesson look alike)."""
    root.evaluate("(root, name) => root.setAttribute('data-lite-test', name)", name)
    return f"{litesite.VIEWER}[data-lite-test='{name}']"


def test_the_viewer_steps_with_the_keys(lesson_page: Any) -> None:
    page = lesson_page
    root = _first_viewer(page)
    sel = _mark(page, root, "keys")
    start = int(root.get_attribute("data-step") or "0")
    root.focus()
    page.keyboard.press("ArrowRight")
    views.wait_step(page, sel, start + 1)
    page.keyboard.press("ArrowLeft")
    views.wait_step(page, sel, start)
    page.keyboard.press("Home")
    views.wait_step(page, sel, 0)
    page.keyboard.press("End")
    page.wait_for_function("(sel) => Number(document.querySelector(sel).dataset.step) > 20",
                           arg=sel)


def test_an_exercise_checks_an_answer(lesson_page: Any) -> None:
    page = lesson_page
    # trick 4 of hand 1: who takes it? Brad's black 3, the only trump
    lesson = page.locator(".cardlab-lesson").filter(
        has=page.locator("button.cardlab-choice[data-code='black3']")).first
    lesson.scroll_into_view_if_needed()
    lesson.locator("button.cardlab-choice[data-code='black3']").click()
    lesson.locator("button.cardlab-ok[data-code='black3']").wait_for(timeout=60_000)
    assert "Brad" in lesson.inner_text()


def test_what_if_plays_a_branch_and_the_advisor_evaluates_a_decision(
        lesson_page: Any, times: list[str]) -> None:
    page = lesson_page
    root = _first_viewer(page)
    sel = _mark(page, root, "branch")
    # the first step: Brad, the dealer, chooses the hat's value; the menu offers both (the
    # one he chose too, so as not to tell it): try the other one
    root.focus()
    page.keyboard.press("Home")
    views.wait_step(page, sel, 0)
    lines_before = root.locator("select.cardlab-line-select option").count()
    options = root.locator("select.cardlab-whatif option").evaluate_all(
        "(options) => options.map((o) => o.value).filter(Boolean)")
    chosen = cardlab.example("norwegian-review").hands[0].actions[0].act
    assert sorted(options) == ["hat +10", "hat -10"] and chosen in options
    root.locator("select.cardlab-whatif").select_option(
        next(o for o in options if o != chosen))
    start = time.monotonic()
    root.locator("button.cardlab-try").click()
    page.wait_for_function(
        "(sel) => document.querySelector(sel + ' .cardlab-message').textContent"
        ".includes('the bots finished')", arg=sel, timeout=120_000)
    times.append(f"a what-if branch played to the end: {time.monotonic() - start:.1f} s")
    page.wait_for_function("([sel, n]) => document.querySelectorAll(sel + "
                           "' select.cardlab-line-select option').length > n",
                           arg=[sel, max(lines_before, 1)], timeout=60_000)
    # the advisor: evaluate the decision at this step (the browser asks for 200 deals)
    root.locator("input.cardlab-evaluate").check()
    ask = root.locator("button.cardlab-eval-ask")
    ask.wait_for(timeout=30_000)
    start = time.monotonic()
    ask.click()
    page.wait_for_function(
        "(sel) => document.querySelector(sel + ' .cardlab-eval-message').textContent"
        ".includes('evaluated over')", arg=sel, timeout=180_000)
    times.append(f"one decision evaluated (200 deals), from the click: "
                 f"{time.monotonic() - start:.1f} s")
    page.wait_for_function("(sel) => document.querySelectorAll(sel + ' .cardlab-eval-action')"
                           ".length >= 2", arg=sel, timeout=60_000)
    assert harness.cell_errors(page) == []


# A chart in a lesson that never imported plotly: the site does not load plotly as the kernel
# starts (a second of every start), cardlab loads it from the site on first use.
CHART = """
import sys
import cardlab
from cardlab.view import charts
print("plotly" in sys.modules)
figure = charts.score_evolution(cardlab.example("norwegian-review"))
print("plotly" in sys.modules, len(figure.data))
"""


def test_a_chart_loads_plotly_on_first_use(lesson_page: Any) -> None:
    said = litesite.kernel_print(lesson_page, CHART).split()
    assert said == ["False", "True", "4"], said


# The kernel (a web worker) asks the outside world for a page, over http and https, with the
# browser's fetch; each attempt fails in Python. What happened to it: "refused" if it raised.
OUTSIDE = """
from pyodide.http import pyfetch
for url in ("http://example.com/", "https://example.org/"):
    try:
        response = await pyfetch(url)
    except Exception as err:
        print(url, "refused", type(err).__name__)
    else:
        print(url, "answered", response.status)
"""


def test_an_outside_request_from_the_kernel_is_refused(lesson_page: Any,
                                                       proxy: litesite.RefusingProxy) -> None:
    assert proxy.outside() == []
    said = litesite.kernel_print(lesson_page, OUTSIDE)
    lines = said.strip().splitlines()
    assert len(lines) == 2 and all(" refused " in line for line in lines), said
    # the requests did leave the kernel's worker, and the browser's network stopped them
    assert proxy.outside() == ["GET http://example.com/", "CONNECT example.org:443"], \
        proxy.outside()
    proxy.refused.clear()  # what the other tests check stays "nothing went out"
