"""The viewer's front-end in Chromium, on the standalone page (no kernel needed): autoplay,
the note bar, a Whot rubber's end, a notebook's own HTML export opened offline (each viewer
drawn from the widget's saved state; a notebook saved without it says so), the move list
with no future (and "show moves to come"), and the hand headers and jumps by keyboard.
Screenshots of the move list (light and dark, before and after the toggle) go to
``artifacts/``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import expect
import nbformat
import pytest
import views

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


def _offline_page(browser, path: Path, scheme: str = "light"):
    """``path`` opened with every non-file request aborted; uncaught errors kept."""
    page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
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

    def open_page(replay: cardlab.Replay, scheme: str = "light", **kwargs):
        path = folder / f"page{len(list(folder.iterdir()))}.html"
        write_page(replay, path, **kwargs)
        page = _offline_page(chromium, path, scheme)
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
    # present mode from inside the box's shadow root: full screen, and back
    first.locator(".cardlab-present").click()
    page.wait_for_function("() => { const host = document.querySelector("
                           "'.cardlab-export-viewer'); return document.fullscreenElement === host"
                           " && host.shadowRoot.fullscreenElement !== null; }")
    assert "cardlab-presenting" in (first.get_attribute("class") or "")
    first.locator(".cardlab-present").click()
    page.wait_for_function("() => !document.fullscreenElement")
    assert "cardlab-presenting" not in (first.get_attribute("class") or "")
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


def _list(page) -> dict:
    return views.move_list(page.locator(".cardlab-viewer"))


def _same(shown: dict, wanted: dict) -> None:
    for key in ("moves", "notes", "later", "heads"):
        assert shown[key] == wanted[key], key


def test_the_move_list_shows_no_future(page_of, review):
    """At each step everyone's move list writes out the moves and notes up to that step and
    counts the rest; "show moves to come" writes out everything, and off again hides it."""
    movie = build_movie(review)
    page = page_of(review)
    shown = _list(page)
    # the walkthrough's step 0: the centre says the hat is not chosen, and so does the list
    assert "Bob's Hat: not chosen yet" in page.text_content(".cardlab-centre")
    assert "hat −10" not in shown["text"] and shown["moves"] == []
    assert shown["later"] == ["25 moves to come", "29 moves to come"]
    assert shown["heads"][1] == "Hand 2" and shown["notes"] == [review.hands[0].note["en"]]
    assert shown["toggle"] == {"checked": False, "disabled": False, "shown": True}
    assert not [text for text in _notes_after(movie, 0) if text in shown["text"]]
    page.focus(".cardlab-viewer")
    last = len(movie["views"][""][0]["frames"]) - 1
    for step in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        assert _step(page) == step
        _same(_list(page), expect.move_list(movie, step))
    assert _list(page)["later"] == []  # the game's end: nothing to come
    page.keyboard.press("Home")
    for _ in range(20):  # Brad trumps with the black 3 in trick 4: five moves left in hand 1
        page.keyboard.press("ArrowRight")
    assert _list(page)["later"] == ["5 moves to come", "29 moves to come"]
    page.click("input.cardlab-future-toggle")
    shown = _list(page)
    _same(shown, expect.move_list(movie, 20, future=True))
    assert len(shown["moves"]) == 54 and shown["later"] == [] and _step(page) == 20
    page.click("input.cardlab-future-toggle")  # off again: back to what has happened
    _same(_list(page), expect.move_list(movie, 20))
    assert not page.errors


def _notes_after(movie: dict, step: int) -> list[str]:
    """The English notes of the main line's moves made after ``step``."""
    from cardlab.view.movie import note_in

    return [note_in(m["n"], "en") for m in movie["views"][""][0]["moves"]
            if "n" in m and m["s"] > step]


def test_a_page_made_with_future_opens_with_every_move(page_of, review):
    page = page_of(review, future=True)
    shown = _list(page)
    _same(shown, expect.move_list(build_movie(review), 0, future=True))
    assert shown["toggle"]["checked"] and "Brad: hat −10" in shown["text"]
    page.click("input.cardlab-future-toggle")
    assert _list(page)["later"] == ["25 moves to come", "29 moves to come"]
    assert not page.errors


def test_a_seats_view_counts_what_it_has_not_seen(page_of, review):
    """A seat's move list keeps to what the seat has seen: the toggle cannot show more."""
    page = page_of(review)
    page.select_option("select.cardlab-seat-select", "Brad")
    page.wait_for_function("document.querySelector('.cardlab-viewer').dataset.seat === 'Brad'")
    shown = _list(page)
    assert shown["toggle"] == {"checked": False, "disabled": True, "shown": True}
    assert shown["moves"] == [] and shown["later"] == ["25 moves to come", "29 moves to come"]
    page.focus(".cardlab-viewer")
    page.keyboard.press("ArrowRight")  # Brad's hat, as Brad knows it
    assert _list(page)["moves"] == [[0, 1, "Brad: hat −10"]]
    assert _list(page)["later"] == ["24 moves to come", "29 moves to come"]
    assert not page.errors


def test_hand_headers_and_jumps_work_by_keyboard(page_of, review):
    """The move list's hand headers are buttons (Enter and Space go to the deal), and the
    jumps by trick and by hand have buttons named for a screen reader."""
    page = page_of(review)
    root = page.locator(".cardlab-viewer")
    hand2 = cardlab.Cursor(review).find(2, 0)
    page.focus(".cardlab-moves button.cardlab-hand-head >> nth=1")
    page.keyboard.press("Enter")
    assert _step(page) == hand2
    assert page.get_attribute(".cardlab-moves button.cardlab-hand-head >> nth=1",
                              "aria-current") == "step"
    page.focus(".cardlab-moves button.cardlab-hand-head >> nth=0")
    page.keyboard.press(" ")
    assert _step(page) == 0
    starts = expect.trick_starts(review)
    for name, step in [("next trick (↓)", starts[0]), ("next trick (↓)", starts[1]),
                       ("previous trick (↑)", starts[0]), ("next hand (Page Down)", hand2),
                       ("previous trick (↑)", starts[4]), ("previous hand (Page Up)", 0)]:
        root.get_by_role("button", name=name, exact=True).click()
        assert _step(page) == step, name
    assert root.get_by_role("button", name="previous hand (Page Up)").is_disabled()
    assert root.locator("button.cardlab-next-trick").inner_text() == "trick ▶"
    whot = page_of(cardlab.load(WHOT))  # no tricks: no trick buttons; its hands are games
    assert whot.locator("button.cardlab-next-trick").is_hidden()
    assert whot.locator("button.cardlab-next-hand").inner_text() == "game ▶"
    whot.get_by_role("button", name="next game (Page Down)").click()
    assert _step(whot) == cardlab.Cursor(cardlab.load(WHOT)).find(2, 0)
    assert not page.errors and not whot.errors


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_move_list_screenshots(page_of, review, artifacts, scheme):
    """The move list at 1280×720 for a person to look at: step 0, step 20 (Brad's black 3),
    and step 20 with the moves to come shown; its texts reach AA contrast in each."""
    page = page_of(review, scheme)
    page.set_viewport_size({"width": 1280, "height": 720})
    root = page.locator(".cardlab-viewer")
    assert "cardlab-dark" in (root.get_attribute("class") or "") or scheme == "light"
    side = page.locator(".cardlab-side")
    page.screenshot(path=str(artifacts / f"moves-{scheme}-step0.png"))
    side.screenshot(path=str(artifacts / f"moves-{scheme}-step0-list.png"))
    page.focus(".cardlab-viewer")
    for _ in range(20):
        page.keyboard.press("ArrowRight")
    page.screenshot(path=str(artifacts / f"moves-{scheme}-step20.png"))
    side.screenshot(path=str(artifacts / f"moves-{scheme}-step20-list.png"))
    page.click("input.cardlab-future-toggle")
    page.screenshot(path=str(artifacts / f"moves-{scheme}-step20-future.png"))
    side.screenshot(path=str(artifacts / f"moves-{scheme}-step20-future-list.png"))
    contrast = root.evaluate(views.CONTRAST)
    assert not contrast["failures"], contrast["failures"]
    assert not page.errors
