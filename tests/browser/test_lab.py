"""Notebook 01 in JupyterLab, in a real browser, in the light, dark and dark high-contrast
themes.

Once per theme: JupyterLab (one server for the session) opens a copy of the walkthrough
notebook with the theme set in its settings directory, runs every cell, and then the tests
drive the viewer as a student would: the buttons, the keys (JupyterLab's own shortcuts must
not fire), a click in the move list, Brad's seat (the data that reached the browser is searched
for every card Brad cannot see, step by step, against cardlab's ``seatview.hidden_from``), the
what-if menu, axe-core, and the fit of the table at 1024×768 and 1920×1080 (screenshots go to
``artifacts/``).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chartcheck
import expect
import harness
import pytest
import views

import cardlab
import cardlab.view

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/01-norwegian-walkthrough.ipynb"
ROOT_SEL = ".cardlab-viewer"
BRAD = 3
SIZES = [(1024, 768), (1920, 1080)]


class LabPage:
    def __init__(self, page: Any, theme: str, replay: cardlab.Replay) -> None:
        self.page = page
        self.theme = theme
        self.replay = replay  # the kernel's replay, with the variation the notebook added
        self.root = page.locator(ROOT_SEL).first
        self.saved = Path()  # where the kernel's replay was saved

    def show(self, step: int, seat: str = "", line: int = 0) -> None:
        """Put the viewer at ``step`` of ``line`` for ``seat`` through its model, as a click
        would, and wait until the table shows it (a seat's data comes from the kernel)."""
        self.root.evaluate("""(root, [step, seat, line]) => {
            const model = root.cardlabModel;
            model.set('seat', seat); model.set('line', line); model.set('step', step);
            model.save_changes();
        }""", [step, seat, line])
        wait_view(self.page, step, seat)

    def shown(self) -> dict[str, Any]:
        return views.shown(self.root)


def wait_view(page: Any, step: int, seat: str) -> None:
    """Wait until the viewer shows ``step`` for ``seat`` and, for a seat, the kernel has
    replaced the movie by that seat's view alone (the browser switches first from the data
    it has, then the kernel sends the seat's own movie)."""
    page.wait_for_function("""([sel, step, seat]) => {
        const root = document.querySelector(sel);
        const views = Object.keys(root.cardlabModel.get('movie').views || {});
        const data = seat === '' ? views.includes('') : views.join() === seat;
        return data && Number(root.dataset.step) === step && root.dataset.seat === seat;
    }""", arg=[ROOT_SEL, step, seat], timeout=30_000)


@pytest.fixture(scope="module")
def notebooks(lab: harness.LabServer, chromium: Any) -> Iterator[dict[str, Any]]:
    """Notebook 01 opened once per theme, each a copy with its own kernel, all started at
    once: the second theme's cells run while the first theme's tests drive the browser."""
    opened: dict[str, Any] = {}
    try:
        for theme in harness.THEMES:
            lab.set_theme(theme)  # read by the server when the next page loads
            name = f"notebooks/01-{theme}.ipynb"
            shutil.copy(lab.work / NOTEBOOK, lab.work / name)
            page = chromium.new_page(viewport={"width": 1280, "height": 900})
            # JupyterLab and the viewer need nothing but the Lab server (the widget's module
            # comes from the kernel): any other request is aborted and recorded
            local = harness.Offline(page, allow=(lab.url + "/",))
            opened[theme] = (page, local)
            page.goto(lab.notebook_url(name))
            page.wait_for_function("(theme) => document.body.dataset.jpThemeName === theme",
                                   arg=harness.THEMES[theme], timeout=60_000)
            harness.start_run_all(page)
        yield opened
    finally:
        for page, _ in opened.values():
            page.close()


@pytest.fixture(scope="module", params=list(harness.THEMES))
def lab_page(request: pytest.FixtureRequest, lab: harness.LabServer,
             notebooks: dict[str, Any]) -> Iterator[LabPage]:
    theme = request.param
    page, local = notebooks[theme]
    try:
        harness.wait_run_all(page)
        errors = harness.cell_errors(page)
        assert not errors, errors[0][-3000:]
        saved = lab.work / f"kernel-replay-{theme}.json"
        harness.kernel_exec(page, f"replay.save({str(saved)!r})")
        lab_page = LabPage(page, theme, cardlab.load(saved))
        lab_page.saved = saved
        page.locator(ROOT_SEL).first.wait_for()
        yield lab_page
        assert not local.blocked, local.blocked
        assert not local.page_errors, local.page_errors
    except Exception:
        harness.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(harness.ARTIFACTS / f"lab-{theme}-failure.png"))
        raise


def test_theme_and_viewer_root(lab_page: LabPage) -> None:
    page, root = lab_page.page, lab_page.root
    body = page.evaluate("() => ({...document.body.dataset})")
    assert body["jpThemeName"] == harness.THEMES[lab_page.theme]
    assert root.get_attribute("tabindex") == "0"
    assert root.get_attribute("data-lm-suppress-shortcuts") is not None
    shown = lab_page.shown()
    assert sorted(shown["seats"]) == sorted(lab_page.replay.seats)
    assert all(shown["seats"][name]["name"] for name in lab_page.replay.seats)


def trick_codes(shown: dict[str, Any]) -> list[str]:
    return [card["code"] for card in shown["trick"]]


def test_buttons_click_through_trick_4(lab_page: LabPage) -> None:
    cursor = cardlab.Cursor(lab_page.replay)
    start = cursor.goto_trick(1, 4).index
    lab_page.show(start)
    trick = ["red12", "red20", "black3", "red14"]  # the review: Remo leads, Brad trumps
    shown = lab_page.shown()
    assert trick_codes(shown) == trick[:1]
    assert [c["seat"] for c in shown["trick"] if c["leader"]] == ["Remo"]
    for k in range(1, 4):
        lab_page.root.locator("button.cardlab-next").click()
        views.wait_step(lab_page.page, ROOT_SEL, start + k)
        shown = lab_page.shown()
        assert trick_codes(shown) == trick[:k + 1], k
        assert [c["seat"] for c in shown["trick"]] == ["Remo", "Kathrine", "Brad", "Tone"][:k + 1]
        assert shown["current"] == [start + k]
    sides = lab_page.root.evaluate(views.TRICK_SIDES)
    assert [s["seat"] for s in sides] == ["Remo", "Kathrine", "Brad", "Tone"]
    assert all(s["inFront"] for s in sides), sides
    lab_page.root.locator("button.cardlab-prev").click()
    views.wait_step(lab_page.page, ROOT_SEL, start + 2)


def test_keys_step_and_lab_shortcuts_stay_quiet(lab_page: LabPage) -> None:
    page, root, replay = lab_page.page, lab_page.root, lab_page.replay
    cursor = cardlab.Cursor(replay)
    last = len(cursor) - 1
    lab_page.show(0)
    root.focus()
    before = page.evaluate(harness.LAB_STATE)
    starts = expect.trick_starts(replay)
    expected = []
    step = 0
    for key in ["ArrowRight", "ArrowRight", "ArrowLeft", "ArrowDown", "ArrowDown", "ArrowUp",
                "PageDown", "PageUp", "End", "Home"]:
        if key == "ArrowRight":
            step = min(step + 1, last)
        elif key == "ArrowLeft":
            step = max(step - 1, 0)
        elif key == "ArrowDown":
            step = min(s for s in starts if s > step)
        elif key == "ArrowUp":
            step = max(s for s in starts if s < step)
        elif key == "PageDown":
            step = cursor.find(cursor.goto(step).step.hand + 1, 0)
        elif key == "PageUp":
            step = cursor.find(cursor.goto(step).step.hand - 1, 0)
        elif key == "End":
            step = last
        elif key == "Home":
            step = 0
        expected.append((key, step))
    for key, step in expected:
        page.keyboard.press(key)
        views.wait_step(page, ROOT_SEL, step)
    # keys the viewer leaves alone but Lab's command mode takes (j/k: the next/previous cell;
    # the arrows are kept from Lab by the viewer's preventDefault already): only
    # data-lm-suppress-shortcuts on the focused root keeps these from Lab
    for key in ["j", "k", "j"]:
        page.keyboard.press(key)
    page.wait_for_timeout(200)
    assert page.evaluate(harness.LAB_STATE) == before, "a JupyterLab shortcut fired"
    # and trick 4 card by card with the right arrow
    lab_page.show(starts[3])
    root.focus()
    for k in range(1, 4):
        page.keyboard.press("ArrowRight")
        views.wait_step(page, ROOT_SEL, starts[3] + k)
        assert trick_codes(lab_page.shown()) == ["red12", "red20", "black3", "red14"][:k + 1]
    after = page.evaluate(harness.LAB_STATE)
    assert after == before, "a JupyterLab shortcut fired: the notebook changed"
    assert root.evaluate("(root) => root.contains(document.activeElement)")


def test_click_a_move(lab_page: LabPage) -> None:
    black3 = 20  # Brad trumps with the black 3 (hand 1, action 20)
    assert cardlab.Cursor(lab_page.replay).goto(black3).action.act == "play black3"
    # the main line's move (the same step of the variation is nested in .cardlab-variation)
    move = lab_page.root.locator(f'.cardlab-moves .cardlab-move[data-step="{black3}"]'
                                 ":not(.cardlab-variation *)")
    for start, future in [(25, False), (0, True)]:  # a move made, a move to come on show
        lab_page.show(start)
        lab_page.root.evaluate("(root, on) => { root.cardlabModel.set('future', on);"
                               " root.cardlabModel.save_changes(); }", future)
        move.click()
        views.wait_step(lab_page.page, ROOT_SEL, black3)
        shown = lab_page.shown()
        assert shown["current"] == [black3]
        assert trick_codes(shown) == ["red12", "red20", "black3"]
    lab_page.root.evaluate("(root) => { root.cardlabModel.set('future', false);"
                           " root.cardlabModel.save_changes(); }")


def test_the_move_list_keeps_the_future(lab_page: LabPage) -> None:
    """At the walkthrough's step 0 the centre says the hat is not chosen yet, and the move list
    does not tell it either: no move is written out, each hand's moves are counted. "show moves
    to come" writes them out for a review; a seat's view cannot."""
    page, root, replay = lab_page.page, lab_page.root, lab_page.replay
    movie = cardlab.view.build_movie(replay)
    lab_page.show(0)
    root.scroll_into_view_if_needed()  # Lab skips drawing cells out of sight
    assert "not chosen yet" in (root.locator(".cardlab-hat").text_content() or "")
    shown = views.move_list(root)
    wanted = expect.move_list(movie, 0)
    assert shown["moves"] == [] and "hat −10" not in shown["text"]
    assert "25 moves to come" in shown["text"]  # the text read is the list's as drawn
    assert shown["later"] == wanted["later"] == [f"{len(hand.actions)} moves to come"
                                                 for hand in replay.hands]
    assert shown["notes"] == wanted["notes"] and shown["heads"] == wanted["heads"]
    harness.shoot(page, root, f"lab-moves-{lab_page.theme}-step0.png")
    root.locator("input.cardlab-future-toggle").check()
    page.wait_for_function("(sel) => document.querySelector(sel).cardlabModel.get('future')",
                           arg=ROOT_SEL)
    shown = views.move_list(root)
    main = [move for move in shown["moves"] if move[0] == 0]  # the variation's are nested
    assert main == expect.move_list(movie, 0, future=True)["moves"]
    # the first viewer is made before the notebook's variation (a viewer of its own tries
    # it): its variations' moves are nested only once it holds one (a test's what-if)
    nested = root.evaluate("(root) => root.cardlabModel.get('movie').lines.length") > 1
    assert (len(shown["moves"]) > len(main)) == nested and shown["later"] == []
    assert "Brad: hat −10" in shown["text"]
    harness.shoot(page, root, f"lab-moves-{lab_page.theme}-step0-future.png")
    lab_page.show(0, "Brad")  # a seat's view: the toggle is off and cannot be switched on
    shown = views.move_list(root)
    assert shown["toggle"] == {"checked": False, "disabled": True, "shown": True}
    assert shown["moves"] == [] and shown["later"] == wanted["later"]
    lab_page.show(0)
    root.locator("input.cardlab-future-toggle").uncheck()
    assert views.move_list(root)["moves"] == []


def whatif(shown: dict[str, Any]) -> set[str]:
    return {o["value"] for o in shown["whatif"] if o["value"]}


def test_brads_seat_hides_the_other_hands(lab_page: LabPage) -> None:
    page, root, replay = lab_page.page, lab_page.root, lab_page.replay
    lab_page.show(0)
    page.select_option(f"{ROOT_SEL} select.cardlab-seat-select", "Brad")
    wait_view(page, 0, "Brad")
    # the data in the browser is Brad's view only, and holds nothing he cannot see
    movie = root.evaluate(views.MOVIE)
    expect.assert_movie_hides(movie, replay, BRAD)
    # and so does the page at every step of the main line (the data and the DOM do not depend
    # on the theme: the second theme checks the steps around Brad's trump and the new deal)
    cursor = cardlab.Cursor(replay)
    hidden = expect.hidden_steps(replay, BRAD)
    last = len(cursor) - 1
    steps = range(last + 1) if lab_page.theme == "light" else [18, 19, 20, 21, 25, 26, last]
    root.focus()
    page.keyboard.press("Home")
    here = 0
    for step in steps:
        for _ in range(step - here):
            page.keyboard.press("ArrowRight")
        here = step
        views.wait_step(page, ROOT_SEL, step)
        expect.assert_seat_view(lab_page.shown(), cursor.goto(step).position, replay, BRAD,
                                hidden[step])
    # the what-if menu: Brad's two trumps before he plays the black 3 (both: the menu does
    # not tell which he played); nothing of Tone's
    lab_page.show(19, "Brad")
    assert whatif(lab_page.shown()) == {"play black3", "play black12"}
    lab_page.show(20, "Brad")  # Tone to act (red 2 or red 14): not Brad's choice to try
    assert whatif(lab_page.shown()) == set()
    lab_page.show(20, "")
    assert whatif(lab_page.shown()) == {"play red2", "play red14"}


def test_axe_finds_nothing_serious(lab_page: LabPage) -> None:
    from axe_playwright_python.sync_playwright import Axe

    lab_page.show(20)  # a trick on the table, a note on show
    results = Axe().run(lab_page.page, context=ROOT_SEL)
    serious = [v for v in results.response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert not serious, results.generate_report()


@pytest.mark.parametrize("seat", ["", "Brad"])
def test_text_contrast(lab_page: LabPage, seat: str) -> None:
    """Every text of the viewer reaches WCAG AA against what it is drawn on, in this theme
    (axe leaves the table's centre "incomplete": it is drawn over a gradient)."""
    lab_page.show(20, seat)
    contrast = lab_page.root.evaluate(views.CONTRAST)
    assert contrast["checked"] > 50, contrast
    assert not contrast["failures"], contrast["failures"]


# The cells with a plotly chart, and a scroll to the k-th of them (Lab draws only the cells
# near the window)
SCROLL_TO_CHART = """async (k) => {
    const notebook = window.jupyterapp.shell.currentWidget.content;
    const cells = notebook.widgets.map((cell, i) => [cell, i]).filter(([cell]) =>
        cell.model.type === 'code' && cell.model.outputs.toJSON().some(
            (o) => o.data && o.data['application/vnd.plotly.v1+json']));
    await notebook.scrollToItem(cells[k][1], 'center');
    return cells.length;
}"""


def test_charts_follow_the_theme(lab_page: LabPage, artifacts: Path) -> None:
    """The walkthrough's four plotly charts are drawn on Lab's own background, dark in the
    dark themes and light in the light one, each with its traces, and every text on them
    reaches AA contrast against it (issue 20, item 9)."""
    page = lab_page.page
    count = page.evaluate(SCROLL_TO_CHART, 0)
    assert count == 4
    for k in range(count):
        page.evaluate(SCROLL_TO_CHART, k)
        chart = page.locator(".jp-RenderedPlotly").nth(k)
        chart.locator(".main-svg .gtitle").first.wait_for(timeout=30_000)  # drawn last
        chart.scroll_into_view_if_needed()
        where = f"chart {k + 1}, {lab_page.theme}"
        seen = chartcheck.chart_seen(chart)
        chartcheck.assert_drawn(seen, 1, where)
        chartcheck.assert_readable(seen, lab_page.theme, where)
        chart.screenshot(path=str(artifacts / f"lab-charts-{lab_page.theme}-{k + 1}.png"))
    page.screenshot(path=str(artifacts / f"lab-charts-{lab_page.theme}-page.png"))


@pytest.mark.parametrize("size", SIZES)
def test_table_fits_the_window(lab_page: LabPage, artifacts: Path,
                               size: tuple[int, int]) -> None:
    page = lab_page.page
    lab_page.show(20)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    try:
        page.wait_for_timeout(300)  # the viewer reflows on resize
        fit = lab_page.root.evaluate(views.FIT)
        page.wait_for_timeout(100)
        page.screenshot(path=str(artifacts / f"lab-{lab_page.theme}-{size[0]}x{size[1]}.png"))
        print(f"{lab_page.theme} {size}: cards in hand {fit['cardHeight']:.0f} px high")
        assert fit["seats"] == 4
        assert not fit["outside"], fit
        assert not fit["truncated"], fit["truncated"]
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_try_a_what_if_from_the_browser(lab_page: LabPage) -> None:
    """The one kernel round trip: "try it" asks the kernel to play the other card; bots finish
    the hand, the new line reaches the browser and is shown. (Last in this file: it adds a
    line to the kernel's replay.)"""
    page, root = lab_page.page, lab_page.root
    lab_page.show(20)  # Tone to play: the red 14 was played, the red 2 could have been
    lines = root.evaluate("(root) => root.cardlabModel.get('movie').lines.length")
    root.locator("select.cardlab-whatif").select_option("play red2")
    root.locator("button.cardlab-try").click()
    page.wait_for_function("([sel, n]) => document.querySelector(sel).cardlabModel"
                           ".get('movie').lines.length === n + 1", arg=[ROOT_SEL, lines],
                           timeout=30_000)
    page.wait_for_function(f"document.querySelector('{ROOT_SEL}').dataset.line === '{lines}'",
                           timeout=30_000)
    shown = lab_page.shown()
    assert shown["step"] == 21 and "Tone" in (shown["status"] or "")
    assert [c["code"] for c in shown["trick"]] == ["red12", "red20", "black3", "red2"]
    # the kernel's replay holds the new variation
    path = lab_page.saved.with_name(f"kernel-replay-{lab_page.theme}-tried.json")
    harness.kernel_exec(page, f"replay.save({str(path)!r})")
    replay = cardlab.load(path)
    tried = [replay.line(1, p) for p in replay.variation_paths(1)]
    assert any(line[20].act == "play red2" and line[20].seat == "Tone" for line in tried)
