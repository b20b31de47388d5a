"""A replay is data, never markup: a replay whose every free string (seat names, title, meta,
notes in both languages) is an HTML/JavaScript injection is shown in JupyterLab and in the
offline page, stepped through end to end and viewed from a seat. Nothing may run (the
injections set ``window.__pwned``), no injected element may exist, and every string must
read as the text it is.

In JupyterLab this matters most: script in the page can run code in the kernel, so an
injection there is code execution on the teacher's machine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import expect
import harness
import pytest
import views

import cardlab
from cardlab.view.page import write_page

pytestmark = pytest.mark.browser

ROOT_SEL = ".cardlab-viewer"

# Elements or attributes an injection would have created, anywhere in the document. The one
# iframe allowed is the viewer's own offline page for a notebook's HTML export: sandboxed
# without allow-same-origin, so its scripts cannot reach the notebook (its inside is checked
# as a frame of its own).
INJECTED = """() => {
    const found = Array.from(document.querySelectorAll(
        'img[src="x"], svg[onload], [onerror], [onload], [onmouseover], iframe,' +
        ' a[href^="javascript"], .cardlab-viewer script, .cardlab-viewer style'))
        .filter((el) => !(el.tagName === 'IFRAME' && el.classList.contains('cardlab-page') &&
                          el.hasAttribute('sandbox') &&
                          !/allow-same-origin/.test(el.getAttribute('sandbox'))));
    return {pwned: window.__pwned === undefined ? null : String(window.__pwned),
            found: found.map((el) => el.outerHTML.slice(0, 200))};
}"""


@pytest.fixture(scope="module")
def hostile() -> cardlab.Replay:
    return expect.hostile_replay()


def note_text(note: Any, lang: str) -> str | None:
    if note is None or isinstance(note, str):
        return note
    return note.get(lang) or next(iter(note.values()))


def walk_and_check(page: Any, root: Any, replay: cardlab.Replay) -> None:
    """Step the viewer ``root`` from the first step to the last with the keys: at each step
    the note reads as its text, the seat names as theirs, and nothing ran."""
    lang = root.evaluate("(root) => root.cardlabModel.get('lang')")
    assert str(replay.meta["title"]) in (root.text_content() or ""), "the title reads as text"
    cursor = cardlab.Cursor(replay)
    root.focus()
    page.keyboard.press("Home")
    for step in range(len(cursor)):
        views.wait_step(page, ROOT_SEL, step)
        shown = views.shown(root)
        expected = note_text(cursor.goto(step).position["note"], lang)
        if expected:
            assert shown["note"] is not None and expected in shown["note"], step
        for name in replay.seats:
            assert name in shown["seats"], (step, sorted(shown["seats"]))
            assert name in (shown["seats"][name]["name"] or ""), step
        page.keyboard.press("ArrowRight")
    # and from a seat whose name is an injection too
    root.locator("select.cardlab-seat-select").select_option(replay.seats[3])
    page.wait_for_function("([sel, name]) => document.querySelector(sel).dataset.seat === name",
                           arg=[ROOT_SEL, replay.seats[3]], timeout=30_000)
    options = root.locator("select.cardlab-seat-select option").all_text_contents()
    assert all(any(name in text for text in options) for name in replay.seats), options
    page.mouse.move(10, 10)
    for box in root.locator(".cardlab-seat-name").all():
        box.hover()  # an onmouseover, had one got through, would fire now


def assert_inert(page: Any) -> None:
    for frame in page.frames:  # the page and any sandboxed page inside it
        state = frame.evaluate(INJECTED)
        assert state["pwned"] is None, f"an injected script ran in {frame.url[:80]}"
        assert not state["found"], state["found"]


def test_injection_in_the_page(chromium: Any, hostile: cardlab.Replay, tmp_path: Path) -> None:
    path = tmp_path / "hostile.html"
    write_page(hostile, path)
    source = path.read_text(encoding="utf-8")
    for text in expect.INJECTIONS:  # no string of the replay is in the page as markup
        assert text not in source, text
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    offline = harness.Offline(page)
    page.goto(path.as_uri())
    page.wait_for_selector(f"{ROOT_SEL} .cardlab-card")
    root = page.locator(ROOT_SEL)
    walk_and_check(page, root, hostile)
    assert_inert(page)
    title = str(hostile.meta["title"])
    assert page.title() == title or title in (root.text_content() or "")
    problems = {k: v for k, v in offline.problems().items() if v}
    assert not problems, problems
    page.close()


def test_injection_in_jupyterlab(chromium: Any, lab: harness.LabServer,
                                 hostile: cardlab.Replay) -> None:
    hostile.save(lab.work / "hostile.json")
    cells = [
        "import cardlab\nfrom cardlab.view import ReplayViewer\n\n"
        "replay = cardlab.load('../hostile.json')\nviewer = ReplayViewer(replay)\nviewer",
        "replay  # a replay shows itself as a viewer too",
        "replay.seats, replay.meta",
    ]
    notebook = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {},
                           "outputs": [], "source": source} for source in cells],
                "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                            "language": "python"}},
                "nbformat": 4, "nbformat_minor": 5}
    (lab.work / "notebooks" / "hostile.ipynb").write_text(json.dumps(notebook))
    lab.set_theme("light")
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(lab.notebook_url("notebooks/hostile.ipynb"))
        harness.run_all_cells(page)
        assert not harness.cell_errors(page), harness.cell_errors(page)[0][-3000:]
        page.wait_for_function(f"document.querySelectorAll('{ROOT_SEL}').length === 2",
                               timeout=30_000)
        assert_inert(page)
        walk_and_check(page, page.locator(ROOT_SEL).first, hostile)
        assert_inert(page)
        assert not errors, errors
    finally:
        page.close()
