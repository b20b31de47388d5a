"""The offline page (``cardlab html`` / ``cardlab.view.write_page``) in a real browser with no
network.

Every request that is not for a ``file:`` URL is aborted and recorded, and so are failed loads,
console errors and page errors: a self-contained page has none. The page is stepped with the
keys and compared at every step with what cardlab computes in Python; the seat view and the
``--seat`` page are searched for every card the seat cannot see.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import expect
import harness
import pytest
import views

import cardlab
import cardlab.view
from cardlab.view.page import write_page

pytestmark = pytest.mark.browser

REVIEW = harness.ROOT / "replays" / "norwegian-review.json"
BRAD = 3
ROOT_SEL = ".cardlab-viewer"
MOVIE_JSON = re.compile(
    r'<script type="application/json" id="cardlab-movie">(.*?)</script>', re.S)


def cli_html(replay: Path, out: Path, *args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "cardlab", "html", str(replay), "-o", str(out),
                           *args], capture_output=True, text=True, cwd=harness.ROOT)
    assert done.returncode == 0, done.stderr
    assert out.is_file()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pages")
    out = {"review": folder / "review.html", "brad": folder / "review-brad.html",
           "api": folder / "review-api.html", "no": folder / "review-no.html",
           "future": folder / "review-future.html"}
    cli_html(REVIEW, out["review"])
    cli_html(REVIEW, out["future"], "--future")
    cli_html(REVIEW, out["brad"], "--seat", "Brad")
    cli_html(REVIEW, out["no"], "--lang", "no")
    write_page(cardlab.load(REVIEW), out["api"])
    return out


@pytest.fixture(scope="module")
def replay() -> cardlab.Replay:
    return cardlab.load(REVIEW)


def embedded_movie(source: str) -> Any:
    found = MOVIE_JSON.findall(source)
    assert len(found) == 1, "the page embeds its movie once, as application/json"
    text = found[0]
    # nothing inside can end the script element or a JS line: <, >, &, U+2028/9 are escaped
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}
    return json.loads(text)


def open_offline(browser: Any, path: Path, width: int = 1280,
                 height: int = 900) -> tuple[Any, harness.Offline]:
    page = browser.new_page(viewport={"width": width, "height": height})
    offline = harness.Offline(page)
    page.goto(path.as_uri())
    page.wait_for_selector(f"{ROOT_SEL} .cardlab-card")
    return page, offline


def no_problems(offline: harness.Offline) -> None:
    problems = {k: v for k, v in offline.problems().items() if v}
    assert not problems, problems


def test_cli_and_api_write_the_same_self_contained_page(pages: dict[str, Path]) -> None:
    source = pages["review"].read_text(encoding="utf-8")
    assert pages["api"].read_text(encoding="utf-8") == source
    # nothing is loaded from anywhere: no external script, style sheet, image or frame
    assert not re.search(r"<(script|link|img|iframe|source)\b[^>]*\b(src|href)\s*=", source,
                         re.I)
    assert "@import" not in source and "url(http" not in source
    movie = embedded_movie(source)
    assert movie, "the movie is empty"


def test_page_offline_keys_seat_and_language(chromium: Any, pages: dict[str, Path],
                                             replay: cardlab.Replay) -> None:
    page, offline = open_offline(chromium, pages["review"])
    root = page.locator(ROOT_SEL)
    cursor = cardlab.Cursor(replay)
    last = len(cursor) - 1
    assert views.shown(root)["step"] == 0
    root.focus()
    # every step of the main line, with the keys: the hands and the trick as cardlab says
    for step in range(last + 1):
        assert_everyone_view(views.shown(root), cursor.goto(step).position, replay)
        page.keyboard.press("ArrowRight")
        views.wait_step(page, ROOT_SEL, min(step + 1, last))
    page.keyboard.press("Home")
    views.wait_step(page, ROOT_SEL, 0)
    page.keyboard.press("PageDown")
    views.wait_step(page, ROOT_SEL, cursor.find(2, 0))
    page.keyboard.press("PageUp")
    views.wait_step(page, ROOT_SEL, 0)
    page.keyboard.press("End")
    views.wait_step(page, ROOT_SEL, last)
    page.keyboard.press("ArrowLeft")
    views.wait_step(page, ROOT_SEL, last - 1)
    starts = expect.trick_starts(replay)
    assert starts[3] == cursor.goto_trick(1, 4).index
    page.keyboard.press("Home")
    for _ in range(4):  # trick by trick to the first card of trick 4
        page.keyboard.press("ArrowDown")
    views.wait_step(page, ROOT_SEL, starts[3])
    page.keyboard.press("ArrowUp")
    views.wait_step(page, ROOT_SEL, starts[2])

    # the language: the deal's note in Norwegian, then in English
    page.keyboard.press("Home")
    views.wait_step(page, ROOT_SEL, 0)
    note = replay.hands[0].note
    assert isinstance(note, dict)
    page.select_option("select.cardlab-lang-select", "no")
    page.wait_for_function("([sel, text]) => document.querySelector(sel).textContent"
                           ".includes(text)", arg=[".cardlab-note", note["no"]])
    page.select_option("select.cardlab-lang-select", "en")
    page.wait_for_function("([sel, text]) => document.querySelector(sel).textContent"
                           ".includes(text)", arg=[".cardlab-note", note["en"]])

    # Brad's seat: the data in the browser is Brad's, at every step; the others face down
    page.select_option("select.cardlab-seat-select", "Brad")
    page.wait_for_function(f"document.querySelector('{ROOT_SEL}').dataset.seat === 'Brad'")
    hidden = expect.hidden_steps(replay, BRAD)
    # the page holds every view (it shows everyone's too); Brad's view holds only what he sees
    movie = root.evaluate(views.MOVIE)
    expect.assert_view_hides(replay, movie["views"]["Brad"], movie["lines"], BRAD)
    root.focus()
    page.keyboard.press("Home")
    for step in range(last + 1):
        views.wait_step(page, ROOT_SEL, step)
        shown = views.shown(root)
        expect.assert_seat_view(shown, cursor.goto(step).position, replay, BRAD, hidden[step])
        page.keyboard.press("ArrowRight")
    no_problems(offline)
    page.close()


def assert_everyone_view(shown: dict[str, Any], position: dict[str, Any],
                         replay: cardlab.Replay) -> None:
    step = position["step"]
    assert not shown["faceless"], f"step {step}: cards drawn without a face: {shown['faceless']}"
    for seat, name in enumerate(replay.seats):
        box = shown["seats"][name]
        assert sorted(box["codes"]) == sorted(position["hands"][seat]), (step, name)
        assert box["backs"] == 0, (step, name)
    if position["action_index"]:  # the move that led here is the current one
        assert shown["current"] == [step], step
    trick = [code for _, code in position["trick"]["cards"]]
    shown_trick = [card["code"] for card in shown["trick"]]
    if trick:
        assert shown_trick == trick, step
        leader = replay.seats[position["trick"]["leader"]]
        assert [c["seat"] for c in shown["trick"] if c["leader"]] == [leader], step
        assert [c["seat"] for c in shown["trick"]] == [
            replay.seats[s] for s, _ in position["trick"]["cards"]], step
    elif position.get("tricks") and position["action_index"]:
        # just after a trick's last card the finished trick may stay on show
        done = [code for _, code in position["tricks"][-1]["cards"]]
        assert shown_trick in ([], done), step
    else:
        assert shown_trick == [], step


def test_seat_page_holds_only_brads_view(chromium: Any, pages: dict[str, Path],
                                         replay: cardlab.Replay) -> None:
    source = pages["brad"].read_text(encoding="utf-8")
    hidden = expect.hidden_steps(replay, BRAD)
    never = expect.never_seen(replay, BRAD, hidden)
    assert never, "Brad never sees some cards of the review (the undealt ones at least)"
    assert not expect.tokens(source) & never, sorted(expect.tokens(source) & never)
    assert not expect.Secrets(replay, never).found(source)
    expect.assert_movie_hides(embedded_movie(source), replay, BRAD)
    page, offline = open_offline(chromium, pages["brad"])
    root = page.locator(ROOT_SEL)
    shown = views.shown(root)
    assert shown["seat"] == "Brad"
    options = page.locator("select.cardlab-seat-select option")
    assert "" not in (options.evaluate_all("os => os.map(o => o.value)") or []), \
        "a --seat page offers no switch to everyone"
    root.focus()
    cursor = cardlab.Cursor(replay)
    for step in range(len(cursor)):
        views.wait_step(page, ROOT_SEL, step)
        expect.assert_seat_view(views.shown(root), cursor.goto(step).position, replay, BRAD,
                                hidden[step])
        page.keyboard.press("ArrowRight")
    no_problems(offline)
    page.close()


def test_the_page_keeps_the_future_from_the_move_list(chromium: Any, pages: dict[str, Path],
                                                     replay: cardlab.Replay) -> None:
    """``cardlab html`` writes a page whose move list shows the moves made so far and counts
    the rest; ``--future`` opens it with every move written out. The reader can switch."""
    movie = cardlab.view.build_movie(replay)
    page, offline = open_offline(chromium, pages["review"])
    root = page.locator(ROOT_SEL)
    shown = views.move_list(root)
    wanted = expect.move_list(movie, 0)
    assert shown["moves"] == [] and shown["later"] == wanted["later"] == [
        f"{len(hand.actions)} moves to come" for hand in replay.hands]
    assert "Brad: hat" not in shown["text"] and not shown["toggle"]["checked"]
    root.focus()
    page.keyboard.press("ArrowRight")
    views.wait_step(page, ROOT_SEL, 1)
    assert views.move_list(root)["moves"] == expect.move_list(movie, 1)["moves"] == [
        [0, 1, "Brad: hat −10"]]
    page.close()
    page, more = open_offline(chromium, pages["future"])
    root = page.locator(ROOT_SEL)
    shown = views.move_list(root)
    assert shown["toggle"]["checked"] and shown["later"] == []
    assert shown["moves"] == expect.move_list(movie, 0, future=True)["moves"]
    assert len(shown["moves"]) == sum(len(hand.actions) for hand in replay.hands)
    root.locator("input.cardlab-future-toggle").uncheck()
    assert views.move_list(root)["moves"] == []
    no_problems(offline)
    no_problems(more)
    page.close()


def test_lang_page_opens_in_norwegian(chromium: Any, pages: dict[str, Path],
                                      replay: cardlab.Replay) -> None:
    page, offline = open_offline(chromium, pages["no"])
    note = replay.hands[0].note
    assert isinstance(note, dict)
    assert page.locator(".cardlab-note").text_content() == note["no"]
    assert page.locator("select.cardlab-lang-select").input_value() == "no"
    no_problems(offline)
    page.close()


@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)])
def test_page_fits_the_window(chromium: Any, pages: dict[str, Path], artifacts: Path,
                              size: tuple[int, int]) -> None:
    page, offline = open_offline(chromium, pages["review"], *size)
    root = page.locator(ROOT_SEL)
    root.focus()
    for _ in range(20):  # trick 4 of hand 1 under way (Brad's black 3), a note on show
        page.keyboard.press("ArrowRight")
    views.wait_step(page, ROOT_SEL, 20)
    fit = root.evaluate(views.FIT)
    contrast = root.evaluate(views.CONTRAST)
    page.screenshot(path=str(artifacts / f"page-{size[0]}x{size[1]}.png"))
    assert contrast["checked"] > 50 and not contrast["failures"], contrast
    assert fit["seats"] == len(cardlab.load(REVIEW).seats)
    assert not fit["outside"], fit
    assert not fit["truncated"], fit["truncated"]
    no_problems(offline)
    page.close()


@pytest.mark.parametrize("name", ["norwegian-review", "teds-game-example", "whot-example"])
def test_every_shipped_replay_draws_and_fits(chromium: Any, tmp_path: Path, name: str) -> None:
    """Each game's page at 1024×768, at about 30 steps spread over the whole game and at its
    last step (the result): every face-up card has a face, every seat box is inside the
    window, no button's text is cut, the texts reach AA contrast, and nothing fails."""
    replay = cardlab.load(harness.ROOT / "replays" / f"{name}.json")
    path = tmp_path / f"{name}.html"
    write_page(replay, path)
    page, offline = open_offline(chromium, path, 1024, 768)
    root = page.locator(ROOT_SEL)
    last = len(cardlab.Cursor(replay)) - 1
    for step in sorted({*range(0, last, max(1, last // 30)), last}):
        root.evaluate("(root, step) => root.cardlabModel.set('step', step)", step)
        views.wait_step(page, ROOT_SEL, step)
        shown = views.shown(root)
        assert not shown["faceless"], (step, shown["faceless"])
        fit = root.evaluate(views.FIT)
        assert not fit["outside"] and not fit["truncated"], (step, fit)
    contrast = root.evaluate(views.CONTRAST)
    assert contrast["checked"] > 50 and not contrast["failures"], contrast
    assert views.shown(root)["step"] == last
    no_problems(offline)
    page.close()
