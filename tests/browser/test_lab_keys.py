"""Keys stay in the viewer, in JupyterLab, in a real browser.

A notebook of its own shows the Norwegian review (analysed for Brad, with *evaluate* on, so the
Evaluate panel has its buttons and menu) above a long run of printed cells, so the notebook
can scroll. From every control inside the viewer that can take focus (the root, the buttons,
the slider, the selects, the check boxes, each move and hand header written out, the Evaluate
panel's buttons and menu), every key the viewer binds (docs/viewer.md: ←/→ a step, ↑/↓ a
trick, Page Up/Page Down a hand, Home/End) is pressed once, from the same step. Each time the
viewer must respond (the step cardlab computes for that key; a menu's ↑/↓ choose its option
instead), focus must stay inside the viewer, and JupyterLab must not move: its active cell, its
mode, the cells' prompts and the notebook's scroll position are read before and after. ``j``
and ``k``, Lab's own keys for the next and the previous cell, are pressed from every control
too. A second viewer, made with ``future=True``, opens with the moves to come written out.
All of it runs twice: everyone's view in the light theme, and Brad's own view in the dark one.

The exercise, quiz and recorder widgets share the viewer's way of keeping Lab's shortcuts out
(``keepKeysInside`` in common.js): a notebook shows an exercise of each kind, a quiz and a
recorder, and from every kind of control of each, Lab's command-mode keys (``j``, ``k``,
``a``, ``b``, ``m``, ↑, ↓) must leave Lab's active cell, mode, cells and prompts as they were
and focus in the widget, in the light and the dark theme.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import harness
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import cardlab
from cardlab.analyse import analyse
from cardlab.view.movie import build_movie

pytestmark = pytest.mark.browser

REVIEW = harness.ROOT / "replays" / "norwegian-review.json"
KEYS_SEL = ".cardlab-keys .cardlab-viewer"
AHEAD_SEL = ".cardlab-ahead .cardlab-viewer"
BASE = 13  # the step every key is pressed from: Brad to lead trick 3 of hand 1, a decision
# with values for three cards (the panel's other two are buttons)
BOUND = ["ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp", "PageDown", "PageUp", "Home", "End"]

NOTEBOOK = harness.notebook(
    ["import cardlab\n", "from cardlab.view import ReplayViewer\n",
     "replay = cardlab.load('review-analysed.json')\n"],
    ["viewer = ReplayViewer(replay)\n", "viewer.widget.add_class('cardlab-keys')\n",
     "viewer.set_evaluate(True)\n", "viewer"],
    ["ahead = ReplayViewer(replay, future=True)\n", "ahead.widget.add_class('cardlab-ahead')\n",
     "ahead"],
    *[[f"print('\\n'.join(f'line {{k}} of cell {cell}' for k in range(40)))\n"]
      for cell in range(6)])

# Every control inside the viewer that can take focus now, each named so that it can be found
# again after the viewer redraws (the Evaluate panel's buttons are made anew at each step):
# a selector (its tag, its own class, its data-step/-line/-action/-seat) and its place among
# the matches. The root itself is "".
CONTROLS = """(root) => {
    const out = [{sel: '', nth: 0, tag: 'DIV'}];
    for (const node of root.querySelectorAll('button, input, select, textarea, a[href], ' +
                                             '[tabindex]')) {
        if (node.disabled || node.tabIndex < 0 || node.closest('[hidden]') ||
            !node.getClientRects().length) continue;
        const name = Array.from(node.classList).find((c) => c !== 'cardlab-button');
        let sel = node.tagName.toLowerCase() + '.' + CSS.escape(name);
        for (const key of ['step', 'line', 'action', 'seat']) {
            if (node.dataset[key] !== undefined) {
                sel += `[data-${key}="${CSS.escape(node.dataset[key])}"]`;
            }
        }
        const nth = Array.from(root.querySelectorAll(sel)).indexOf(node);
        out.push({sel, nth, tag: node.tagName,
                  options: node.tagName === 'SELECT'
                      ? Array.from(node.options).map((o) => o.value) : null});
    }
    return out;
}"""

# What JupyterLab would change if a key reached it: the active cell, the mode, the prompts,
# and the scroll position of everything that scrolls around the viewer (the notebook's
# panel, the page). And where the viewer stands, and whether focus is inside it.
STATE = """(root) => {
    const notebook = window.jupyterapp.shell.currentWidget.content;
    const scrolled = [];
    for (let el = root.parentElement; el; el = el.parentElement) {
        if (el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth) {
            scrolled.push([el.className, el.scrollTop, el.scrollLeft]);
        }
    }
    const page = document.scrollingElement;
    const focused = document.activeElement;
    return {lab: {active: notebook.activeCellIndex, mode: notebook.mode,
                  cells: notebook.widgets.length,
                  prompts: Array.from(document.querySelectorAll(
                      '.jp-Notebook .jp-CodeCell .jp-InputArea-prompt')).map((p) => p.textContent),
                  scrolled, page: [page.scrollTop, page.scrollLeft]},
            step: Number(root.dataset.step), inside: root.contains(focused),
            value: focused.tagName === 'SELECT' ? focused.value : null};
}"""

# The view of `seat` ("" everyone's) in English at `step` with the moves to come hidden (the
# model's change events redraw the viewer at once), then focus one control (as named by
# CONTROLS): false while the kernel is still sending that view's data back (a key had chosen
# another seat).
PREPARE = """(root, [step, sel, nth, seat]) => {
    const m = root.cardlabModel;
    m.set('seat', seat); m.set('lang', 'en'); m.set('future', false); m.set('step', step);
    m.save_changes();
    if (!Object.keys(m.get('movie').views || {}).includes(seat) ||
        Number(root.dataset.step) !== step) return false;
    const node = sel ? root.querySelectorAll(sel)[nth] : root;
    node.focus();
    return document.activeElement === node;
}"""

# The viewer has responded to a key: it stands at `step`, and a menu shows `value`.
RESPONDED = """([sel, step, value]) => Number(document.querySelector(sel).dataset.step) === step
    && (value === null || document.activeElement.value === value)"""


def expected_step(key: str, step: int, tricks: list[int], hands: list[int], last: int) -> int:
    """Where ``key`` takes the viewer from ``step`` (docs/viewer.md: going back from inside a
    trick or hand goes to its own start first)."""
    def forward(starts: list[int]) -> int:
        return next((s for s in starts if s > step), last)

    def back(starts: list[int]) -> int:
        return max([s for s in starts if s < step], default=0)

    return {"ArrowRight": min(step + 1, last), "ArrowLeft": max(step - 1, 0),
            "ArrowDown": forward(tricks), "ArrowUp": back(tricks), "PageDown": forward(hands),
            "PageUp": back(hands), "Home": 0, "End": last}[key]


# The viewer's key test runs twice: everyone's view in the light theme, Brad's own view in the
# dark one (there the toggle of moves to come is off and disabled, and the Evaluate panel and
# the what-if menu are Brad's).
RUNS = [("light", ""), ("dark", "Brad")]


@pytest.fixture(scope="module", params=RUNS, ids=[f"{t}-{s or 'everyone'}" for t, s in RUNS])
def keys_page(request: pytest.FixtureRequest, lab: harness.LabServer,
              chromium: Any) -> Iterator[tuple[Any, dict[str, Any], str]]:
    theme, seat = request.param
    folder = lab.work / "keys"
    folder.mkdir(exist_ok=True)
    replay = analyse(cardlab.load(REVIEW), seat="Brad", rollouts=4, bot="random",
                     progress=False)
    replay.save(folder / "review-analysed.json")
    name = f"keys/keys-{theme}.ipynb"
    (lab.work / name).write_text(json.dumps(NOTEBOOK))
    movie = build_movie(replay)["views"][""][0]
    steps = {"tricks": [t[2] for t in movie["tricks"]], "hands": [h["s"] for h in movie["hands"]],
             "last": len(movie["frames"]) - 1, "moves": movie["moves"]}
    with harness.open_notebook(chromium, lab, name, theme, (1280, 720),
                               ready=f"{KEYS_SEL} .cardlab-card",
                               artifact="lab-keys") as page:
        yield page, steps, seat


def prepare(page: Any, root: Any, control: dict[str, Any], seat: str) -> dict[str, Any]:
    """The viewer of ``seat`` at BASE with ``control`` focused; what JupyterLab and the viewer
    show."""
    if seat:
        # a key may have chosen another seat, whose view the kernel is still sending, and the
        # movie held may be this seat's old one: the kernel answers in order, so once it has
        # run a line, that view has been sent, and the view asked for next comes after it
        harness.kernel_exec(page, "None")
    if not root.evaluate(PREPARE, [BASE, control["sel"], control["nth"], seat]):
        page.wait_for_function("([sel, seat]) => Object.keys(document.querySelector(sel)"
                               ".cardlabModel.get('movie').views || {}).includes(seat)",
                               arg=[KEYS_SEL, seat], timeout=30_000)
        assert root.evaluate(PREPARE, [BASE, control["sel"], control["nth"], seat]), control
    state: dict[str, Any] = root.evaluate(STATE)
    return state


def test_every_bound_key_from_every_control_stays_in_the_viewer(keys_page: Any) -> None:
    page, steps, seat = keys_page
    root = page.locator(KEYS_SEL).first
    prepare(page, root, {"sel": "", "nth": 0}, seat)
    controls = root.evaluate(CONTROLS)
    kinds = {c["sel"].split("[")[0] for c in controls}
    # the check is only as good as what it pressed from: every kind of control is there
    # (in a seat's view the toggle of moves to come is disabled: it takes no focus)
    assert {"", "button.cardlab-next", "button.cardlab-next-trick", "button.cardlab-prev-hand",
            "input.cardlab-slider", "select.cardlab-seat-select", "select.cardlab-speed",
            "input.cardlab-show-all", "button.cardlab-move", "button.cardlab-hand-head",
            "button.cardlab-eval-action", "select.cardlab-whatif",
            *([] if seat else ["input.cardlab-future-toggle"])} <= kinds, sorted(kinds)
    assert ("input.cardlab-future-toggle" in kinds) == (seat == "")
    # each move made so far, written out
    assert sum(c["sel"].startswith("button.cardlab-move[") for c in controls) == BASE
    pressed = 0
    for control in controls:
        for key in [*BOUND, "j", "k"]:
            before = prepare(page, root, control, seat)
            page.keyboard.press(key)
            wanted_value = None
            if key in ("j", "k"):
                # not the viewer's: nothing may happen; the step the next key makes shows
                # that this one was handled (keys are handled in order)
                page.keyboard.press("ArrowRight")
                wanted = BASE + 1
            elif control["tag"] == "SELECT" and key in ("ArrowUp", "ArrowDown"):
                # a menu's ↑/↓ choose its option (the seat and the language switch the view)
                options = control["options"]
                here = options.index(before["value"])
                wanted_value = options[min(max(here + (1 if key == "ArrowDown" else -1), 0),
                                           len(options) - 1)]
                wanted = BASE
            else:
                wanted = expected_step(key, BASE, steps["tricks"], steps["hands"],
                                       steps["last"])
            try:
                page.wait_for_function(RESPONDED, arg=[KEYS_SEL, wanted, wanted_value],
                                       timeout=10_000)
            except PlaywrightTimeout:
                pass  # the assertions below say what went wrong
            after = root.evaluate(STATE)
            assert after["lab"] == before["lab"], f"{key} from {control} reached JupyterLab"
            assert after["inside"], f"{key} from {control}: focus left the viewer"
            assert after["step"] == wanted, f"{key} from {control}: the viewer did not step"
            if wanted_value is not None:
                assert after["value"] == wanted_value, f"{key} from {control}: no new option"
            pressed += 1
    assert pressed == len(controls) * (len(BOUND) + 2)
    prepare(page, root, {"sel": "", "nth": 0}, seat)


def test_a_viewer_made_with_future_opens_with_the_moves_to_come(keys_page: Any) -> None:
    page, steps, _ = keys_page
    root = page.locator(AHEAD_SEL).first
    assert root.get_attribute("data-step") == "0"
    toggle = root.locator("input.cardlab-future-toggle")
    assert toggle.is_checked()
    shown = root.locator(".cardlab-moves button.cardlab-move:visible")
    assert shown.count() == len(steps["moves"])
    assert root.locator(".cardlab-later:visible").count() == 0
    toggle.uncheck()  # and the toggle hides them again
    page.wait_for_function("(sel) => !document.querySelector(sel)"
                           ".querySelector('.cardlab-moves button.cardlab-move:not([hidden])')",
                           arg=AHEAD_SEL)
    assert root.evaluate("(root) => root.cardlabModel.get('future')") is False


# -- the exercise, quiz and recorder widgets ---------------------------------------------------

# One exercise of each kind, a quiz and a recorder, above a run of printed cells.
LESSONS = harness.notebook(
    ["import cardlab\n", "from cardlab.lessons.exercises import Session, exercise\n",
     "from cardlab.lessons.quiz import quiz\n",
     "from cardlab.lessons.recorder import Recorder\n",
     "review = cardlab.example('norwegian-review')\n",
     "teds = cardlab.example('teds-game-example')\n", "s = Session()"],
    ["w = exercise('trick-winner', review, hand=1, index=9, session=s)\n",
     "w.add_class('keys-trick-winner'); w"],
    ["w = exercise('forbidden-bid', teds, hand=2, index=3, session=s)\n",
     "w.add_class('keys-forbidden-bid'); w"],
    ["w = exercise('legal-plays', review, hand=1, index=6, view='Remo', session=s)\n",
     "w.add_class('keys-legal-plays'); w"],
    ["w = exercise('hand-score', review, hand=1, seat='Kathrine', view='Kathrine', session=s)\n",
     "w.add_class('keys-hand-score'); w"],
    ["q = quiz(review, 'Brad', rollouts=4, seed=0, bot='random')\n",
     "q.add_class('keys-quiz'); q"],
    ["rec = Recorder('keys-record.json', 'teds-game', players=3, "
     "seats=['Tone', 'Remo', 'Brad'], start_size=1)\n", "rec"],
    *[[f"print('\\n'.join(f'line {{k}} of cell {cell}' for k in range(40)))\n"]
      for cell in range(6)])
WIDGETS = {"trick-winner": ".keys-trick-winner .cardlab-lesson",
           "forbidden-bid": ".keys-forbidden-bid .cardlab-lesson",
           "legal-plays": ".keys-legal-plays .cardlab-lesson",
           "hand-score": ".keys-hand-score .cardlab-lesson",
           "quiz": ".keys-quiz .cardlab-lesson", "recorder": ".cardlab-recorder"}
# JupyterLab's command-mode keys: the next and the previous cell, a new cell above and below,
# a cell made Markdown, the cursor to the cell above and below (these two also scroll a page
# from a focused button, as anywhere: the widgets bind no arrow key)
LAB_KEYS = ["j", "k", "a", "b", "m", "ArrowUp", "ArrowDown"]
# Resolves once every scrolled element of the page has held its place for ten frames (a focus
# change can start Lab's smooth scroll to the cell), or after two seconds.
SETTLED = """async () => {
    const places = () => JSON.stringify(Array.from(document.querySelectorAll('*'))
        .filter((el) => el.scrollTop || el.scrollLeft).map((el) => [el.scrollTop, el.scrollLeft]));
    let last = null, still = 0;
    for (let frame = 0; frame < 120 && still < 10; frame++) {
        await new Promise((done) => requestAnimationFrame(done));
        const now = places();
        still = now === last ? still + 1 : 0;
        last = now;
    }
}"""


@pytest.fixture(scope="module", params=["light", "dark"])
def lessons_page(request: pytest.FixtureRequest, lab: harness.LabServer,
                 chromium: Any) -> Iterator[Any]:
    theme = request.param
    folder = lab.work / "keys"
    folder.mkdir(exist_ok=True)
    name = f"keys/lessons-{theme}.ipynb"
    (lab.work / name).write_text(json.dumps(LESSONS).replace("keys-record.json",
                                                             f"keys-record-{theme}.json"))
    with harness.open_notebook(chromium, lab, name, theme, (1280, 720),
                               ready=".cardlab-recorder .cardlab-rec-deck .cardlab-card",
                               artifact="lab-keys-lessons") as page:
        page.locator(".keys-quiz .cardlab-lesson .cardlab-choice").first.wait_for()
        yield page


def focus(root: Any, control: dict[str, Any]) -> dict[str, Any]:
    """``control`` (as CONTROLS names it) focused; what JupyterLab shows."""
    assert root.evaluate("(root, [sel, nth]) => { const node = sel ? "
                         "root.querySelectorAll(sel)[nth] : root; node.focus();"
                         " return document.activeElement === node; }",
                         [control["sel"], control["nth"]]), control
    root.page.evaluate(SETTLED)  # Lab's own scrolling after a focus change is done
    state: dict[str, Any] = root.evaluate(STATE)
    return state


def test_no_lab_shortcut_fires_from_an_exercise_a_quiz_or_a_recorder(lessons_page: Any) -> None:
    """From every kind of control of each widget (the first two of each: a recorder's deck
    has 52 cards alike), each of Lab's command-mode keys leaves Lab's cells, mode and prompts
    as they were, and focus in the widget; the letters do not scroll either."""
    page = lessons_page
    pressed = 0
    kinds: set[str] = set()
    for name, selector in WIDGETS.items():
        root = page.locator(selector).first
        controls = [c for c in root.evaluate(CONTROLS) if c["sel"] and c["nth"] < 2]
        assert controls, name
        kinds |= {c["sel"].split("[")[0] for c in controls}
        for control in controls:
            for key in LAB_KEYS:
                before = focus(root, control)
                page.keyboard.press(key)
                page.evaluate(SETTLED)
                after = root.evaluate(STATE)
                if key.startswith("Arrow"):  # the page may scroll, as from any button
                    for state in (before, after):
                        state["lab"].pop("scrolled")
                        state["lab"].pop("page")
                assert after["lab"] == before["lab"], f"{key} from {control} in {name}"
                assert after["inside"], f"{key} from {control} in {name}: focus left"
                pressed += 1
    # the check is only as good as what it pressed from: every kind of control is there
    assert {"button.cardlab-card", "button.cardlab-choice", "button.cardlab-check",
            "button.cardlab-show", "input.cardlab-answer", "button.cardlab-rec-slot-name"} \
        <= kinds, sorted(kinds)
    assert pressed >= 6 * 2 * len(LAB_KEYS)
