"""The classroom site (``make lite``, docs/classroom.md) in a real browser, with nothing else.

lite/_output is served on 127.0.0.1 (lite/serve.py) and Chromium aborts every request that
goes anywhere else, so what runs is only what the site holds: JupyterLite, Pyodide's kernel,
cardlab's pure wheel and the wheels it needs. Each lesson runs all its cells in the Pyodide
kernel with no error (and so does the walkthrough, charts and all); then, in the first
lesson, the viewer steps with the keys, an exercise checks an answer, "what if" plays a
branch (the bots finish the hand in the browser's kernel) and the advisor evaluates a
decision. The cold start (a browser that has never seen the site)
and the warm one (the same browser again) are recorded, never asserted
(benchmarks/lite_start.py holds the figures to reach).

Marked ``lite`` (and ``browser``): ``make test`` leaves it out, saying so, until ``make lite``
has built the site; ``.ci/run`` builds it first.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Iterator
from typing import Any

import harness
import pytest
import views

import cardlab

# a test waits for Pyodide: more than the usual bound on a loaded machine (pyproject.toml)
pytestmark = [pytest.mark.browser, pytest.mark.lite, pytest.mark.timeout(600)]

SITE = harness.ROOT / "lite" / "_output"
LESSONS = ("10-following-suit.ipynb", "11-bobs-hat-lesson.ipynb", "12-teds-game-lesson.ipynb",
           "13-whot-lesson.ipynb")
WALKTHROUGH = "01-norwegian-walkthrough.ipynb"  # on the site too, with its charts
VIEWER = ".cardlab-viewer"
RUN_TIMEOUT = 300_000  # ms: a lesson's cells in Pyodide, on a loaded machine


def _serve_module() -> Any:
    spec = importlib.util.spec_from_file_location("lite_serve", harness.ROOT / "lite" / "serve.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The built site served on 127.0.0.1; its base URL."""
    if not (SITE / "index.html").is_file():
        pytest.fail(f"{SITE} holds no built site: run `make lite` first (make test leaves "
                    "this test out until then)")
    httpd = _serve_module().server(SITE)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/"
    httpd.shutdown()
    httpd.server_close()


class Browser:
    """A browser context (its own cache and storage) in which every request outside the
    site is aborted and recorded, with the pages' errors."""

    def __init__(self, chromium: Any, base: str) -> None:
        self.base = base
        self.context = chromium.new_context(viewport={"width": 1280, "height": 900})
        self.blocked: list[str] = []
        self.page_errors: list[str] = []
        self.context.route("**/*", self._route)

    def _route(self, route: Any) -> None:
        if route.request.url.startswith(self.base):
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def open(self, lesson: str) -> tuple[Any, float]:
        """A page on ``lesson`` with Run All started, and the seconds until its first viewer
        was drawn (the kernel started, cardlab imported, the first cell run)."""
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        start = time.monotonic()
        page.goto(f"{self.base}notebooks/index.html?path=notebooks/{lesson}")
        harness.start_run_all(page, RUN_TIMEOUT)
        page.locator(VIEWER).first.wait_for(timeout=RUN_TIMEOUT)
        return page, time.monotonic() - start

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def browser(chromium: Any, site: str) -> Iterator[Browser]:
    opened = Browser(chromium, site)
    yield opened
    opened.close()


def test_cold_and_warm_start(chromium: Any, site: str, record_property: Any) -> None:
    """The first viewer of the first lesson, in a browser new to the site and then again."""
    fresh = Browser(chromium, site)
    try:
        page, cold = fresh.open(LESSONS[0])
        harness.wait_run_all(page, RUN_TIMEOUT)
        assert harness.cell_errors(page) == []
        page.close()
        page, warm = fresh.open(LESSONS[0])
        page.close()
        assert fresh.blocked == [] and fresh.page_errors == [], (fresh.blocked, fresh.page_errors)
    finally:
        fresh.close()
    record_property("cold_start_seconds", round(cold, 1))
    record_property("warm_start_seconds", round(warm, 1))
    print(f"classroom site: first viewer {cold:.1f} s cold, {warm:.1f} s warm")


@pytest.mark.parametrize("lesson", [WALKTHROUGH, *LESSONS])
def test_each_lesson_runs_all_its_cells_in_the_browser(browser: Browser, lesson: str,
                                                       record_property: Any) -> None:
    page, first = browser.open(lesson)
    try:
        start = time.monotonic()
        harness.wait_run_all(page, RUN_TIMEOUT)
        errors = harness.cell_errors(page)
        assert errors == [], errors[0][-3000:]
        cells = page.locator(".jp-Notebook .jp-CodeCell").count()
        prompts = page.locator(".jp-Notebook .jp-CodeCell .jp-InputArea-prompt").all_text_contents()
        assert cells > 3 and all(p.strip() not in ("[ ]:", "[*]:") for p in prompts), prompts
        assert page.locator(VIEWER).count() >= 1
        assert browser.blocked == [] and browser.page_errors == [], \
            (browser.blocked, browser.page_errors)
        record_property("run_all_seconds", round(first + time.monotonic() - start, 1))
    except Exception:
        harness.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(harness.ARTIFACTS / f"lite-{lesson}-failure.png"))
        raise
    finally:
        page.close()


@pytest.fixture(scope="module")
def lesson_page(browser: Browser) -> Iterator[Any]:
    """The first lesson with every cell run."""
    page, _ = browser.open(LESSONS[0])
    harness.wait_run_all(page, RUN_TIMEOUT)
    assert harness.cell_errors(page) == []
    yield page
    assert browser.blocked == [] and browser.page_errors == [], \
        (browser.blocked, browser.page_errors)
    page.close()


def _first_viewer(page: Any) -> Any:
    root = page.locator(VIEWER).first
    root.scroll_into_view_if_needed()
    return root


def _mark(page: Any, root: Any, name: str) -> str:
    """A selector for ``root`` alone (the viewers of a lesson look alike)."""
    root.evaluate("(root, name) => root.setAttribute('data-lite-test', name)", name)
    return f"{VIEWER}[data-lite-test='{name}']"


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
        lesson_page: Any, record_property: Any) -> None:
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
    record_property("branch_seconds", round(time.monotonic() - start, 1))
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
    seconds = time.monotonic() - start
    record_property("evaluate_200_seconds", round(seconds, 1))
    print(f"classroom site: one decision, 200 rollouts, in {seconds:.1f} s")
    page.wait_for_function("(sel) => document.querySelectorAll(sel + ' .cardlab-eval-action')"
                           ".length >= 2", arg=sel, timeout=60_000)
    assert harness.cell_errors(page) == []
