"""The viewer's front-end in Chromium, on the standalone page (no kernel needed): autoplay,
the note bar, a Whot rubber's end, and a notebook's own HTML export opened offline (each
viewer drawn from the widget's saved state; a notebook saved without it says so)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

import cardlab
from cardlab.view.movie import build_movie
from cardlab.view.page import write_page

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
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


# Each viewer notebook 01 shows, where its cell put it: (step, seat, line) after Run All.
WALKTHROUGH_VIEWERS = [(0, "", 0), (21, "", 0), (19, "Brad", 0), (20, "", 1), (18, "", 0)]
EXPORTED = ".cardlab-export-viewer .cardlab-viewer"  # inside each box's shadow root


def test_a_notebooks_html_export_shows_the_replay_offline(tmp_path, chromium):
    """``jupyter nbconvert --to html --execute`` of the walkthrough, opened with the network
    blocked: each viewer is drawn by its box from the widget's saved state (the CDN's widget
    manager never loads), where its cell put it."""
    notebook = ROOT / "notebooks" / "01-norwegian-walkthrough.ipynb"
    out = tmp_path / "export.html"
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--execute",
                    str(notebook), "--output", str(out)], check=True, capture_output=True,
                   cwd=ROOT / "notebooks")
    text = out.read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-view+json" in text  # the widget, blank offline
    assert "srcdoc" not in text and text.count('class="cardlab-export"') == 5
    page = _offline_page(chromium, out)
    viewers = page.locator(EXPORTED)
    page.wait_for_function("(n) => [...document.querySelectorAll('.cardlab-export-viewer')]"
                           ".filter((h) => h.shadowRoot.querySelector('.cardlab-viewer"
                           "[data-step]')).length === n", arg=len(WALKTHROUGH_VIEWERS))
    shown = [(int(v.get_attribute("data-step")), v.get_attribute("data-seat"),
              int(v.get_attribute("data-line"))) for v in viewers.all()]
    assert shown == WALKTHROUGH_VIEWERS
    assert not page.locator(".cardlab-export-text").first.is_visible()  # nothing to say
    first = viewers.first
    assert first.locator(".cardlab-status").text_content().startswith("Hand 1: Brad deals")
    assert first.locator(".cardlab-seat").count() == 4
    assert not first.locator(".cardlab-whatif-row, .cardlab-whatif").first.is_visible()
    first.focus()
    first.press("ArrowRight")
    assert first.get_attribute("data-step") == "1"
    brad = viewers.nth(2)  # Brad's view: the others' cards face down
    assert brad.locator(".cardlab-seat .cardlab-back").count() > 0
    assert not page.errors
    page.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_exported_viewer_screenshots(tmp_path, chromium, theme):
    notebook = ROOT / "notebooks" / "01-norwegian-walkthrough.ipynb"
    out = tmp_path / f"export-{theme}.html"
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--execute",
                    f"--theme={theme}", str(notebook), "--output", str(out)], check=True,
                   capture_output=True, cwd=ROOT / "notebooks")
    page = _offline_page(chromium, out)
    brad = page.locator(EXPORTED).nth(2)
    brad.wait_for()
    page.wait_for_function("() => document.querySelectorAll('.cardlab-export-viewer')[2]"
                           ".shadowRoot.querySelector('.cardlab-viewer[data-step]')")
    assert brad.evaluate("(v) => v.classList.contains('cardlab-dark')") == (theme == "dark")
    ARTIFACTS.mkdir(exist_ok=True)
    brad.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"export-01-brad-{theme}.png"))
    assert not page.errors
    page.close()


def test_an_export_without_widget_state_says_what_the_replay_is(tmp_path, chromium):
    """A notebook saved without its widget state (JupyterLab's default) exported: the box
    has nothing to draw from, and says what the replay is and how to step through it."""
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'import cardlab\ncardlab.example("whot-example")')])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    NotebookClient(nb, kernel_name="python3", timeout=240, store_widget_state=False).execute()
    saved = tmp_path / "saved.ipynb"
    nbformat.write(nb, saved)
    out = tmp_path / "saved.html"
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", str(saved),
                    "--output", str(out)], check=True, capture_output=True)
    page = _offline_page(chromium, out)
    box = page.locator(".cardlab-export-text")
    box.wait_for()
    assert box.text_content() == (
        "A short rubber of Whot (example, seed 1): Ade, Bisi, Chidi and Dayo; 5 games. To step "
        "through it here, run the notebook (or export it with jupyter nbconvert --to html "
        "--execute).")
    assert page.locator(".cardlab-export-viewer").count() == 0 and not page.errors
    page.close()
