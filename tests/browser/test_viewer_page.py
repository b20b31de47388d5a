"""The viewer's front-end in Chromium, on the standalone page (no kernel needed): autoplay,
the note bar, a Whot rubber's end, and a notebook's own HTML export opened offline."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import cardlab
from cardlab.view.movie import build_movie
from cardlab.view.page import write_page

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
REVIEW = ROOT / "replays" / "norwegian-review.json"
WHOT = ROOT / "replays" / "whot-example.json"


@pytest.fixture()
def review() -> cardlab.Replay:
    return cardlab.load(REVIEW)


def _offline_page(browser, path: Path):
    """``path`` opened with every non-file request aborted; uncaught errors kept."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.route("**/*", lambda route: route.continue_()
               if route.request.url.startswith("file:") else route.abort())
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri())
    page.errors = errors
    return page


@pytest.fixture(scope="module")
def page_of(chromium, tmp_path_factory):
    """Open a replay's page."""
    folder = tmp_path_factory.mktemp("pages")

    def open_page(replay: cardlab.Replay, **kwargs):
        path = folder / f"page{len(list(folder.iterdir()))}.html"
        write_page(replay, path, **kwargs)
        page = _offline_page(chromium, path)
        page.wait_for_selector(".cardlab-viewer[data-step]")
        return page

    return open_page


def _step(page) -> int:
    return int(page.get_attribute(".cardlab-viewer", "data-step"))


def test_pausing_autoplay_keeps_the_place(page_of, review):
    page = page_of(review)
    page.select_option("select.cardlab-speed", "4")
    page.click(".cardlab-autoplay")
    page.wait_for_function("() => +document.querySelector('.cardlab-viewer').dataset.step >= 3")
    page.click(".cardlab-autoplay")  # pause
    paused = _step(page)
    assert paused >= 3 and page.text_content(".cardlab-autoplay") == "▶ play"
    page.wait_for_timeout(800)  # at 4 steps a second it would have moved on by now
    assert _step(page) == paused
    page.click(".cardlab-autoplay")  # and it goes on from there, not from the start
    page.wait_for_function(f"() => +document.querySelector('.cardlab-viewer').dataset.step > "
                           f"{paused}")
    page.click(".cardlab-autoplay")
    assert _step(page) > paused and not page.errors


def test_the_note_bar_shows_only_a_note(page_of, review):
    movie = build_movie(review)
    noted = {m["s"] for m in movie["views"][""][0]["moves"] if "n" in m} | {0, 26}
    bare = min(s for s in range(56) if s not in noted)
    page = page_of(review)
    assert page.is_visible(".cardlab-note")
    assert page.text_content(".cardlab-note").startswith("Brad deals five cards each")
    page.focus(".cardlab-viewer")
    for _ in range(bare):
        page.keyboard.press("ArrowRight")
    assert _step(page) == bare and not page.is_visible(".cardlab-note")
    assert page.text_content(".cardlab-note") == ""


def test_the_page_shows_the_winner_and_whot_names(page_of):
    page = page_of(cardlab.load(WHOT))
    page.focus(".cardlab-viewer")
    page.keyboard.press("End")
    assert "The rubber is over: Ade wins with 50, the lowest total." in \
        page.text_content(".cardlab-result")
    # Whot cards show their symbols; the WHOT cards their word, never a copy code
    marks = page.eval_on_selector_all(".cardlab-card[data-code] .cardlab-mark",
                                      "nodes => nodes.map(n => n.textContent)")
    assert marks and set(marks) <= {"●", "▲", "✚", "■", "★", "WHOT"}
    assert not re.search(r"[a-z]+\d+/\d+", page.inner_text(".cardlab-viewer"))
    assert not page.errors


def test_a_notebooks_html_export_shows_the_replay_offline(tmp_path, chromium):
    notebook = ROOT / "notebooks" / "01-norwegian-walkthrough.ipynb"
    out = tmp_path / "export.html"
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--execute",
                    str(notebook), "--output", str(out)], check=True, capture_output=True,
                   cwd=ROOT / "notebooks")
    text = out.read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-view+json" in text  # the widget, blank offline
    page = _offline_page(chromium, out)
    frames = [f for f in page.frames if f != page.main_frame]
    assert len(frames) == 1, "the export holds no page"  # the one viewer of notebook 01
    frames[0].wait_for_selector(".cardlab-viewer[data-step]")
    assert frames[0].text_content(".cardlab-status").startswith("Hand 1: Brad deals")
    assert frames[0].locator(".cardlab-seat").count() == 4
    frames[0].focus(".cardlab-viewer")
    frames[0].press(".cardlab-viewer", "ArrowRight")
    assert frames[0].get_attribute(".cardlab-viewer", "data-step") == "1"
    assert not page.errors
