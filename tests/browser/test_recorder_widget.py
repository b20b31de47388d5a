"""The recording widget in JupyterLab, in a real browser, in the light and dark themes.

A notebook creates a :class:`~cardlab.lessons.recorder.Recorder` for a one-card hand of Ted's
Game, and the test records it as a teacher would, by clicking: the draw for first dealer
(cards of the deck), the deal (a seat chosen, a code typed with an alias), the bids (the
buttons of the seat to act), one refused entry (the dealer's hook bid, typed: its reason is
shown), one card clicked out of turn (refused), an undo, and the cards. After every entry the
file on disk is a whole replay; at the end it is the hand that was played, and the kernel's
replay equals it. axe-core finds nothing serious, every text reaches AA contrast, and
screenshots at 1024×768 go to ``artifacts/`` (and ``/tmp/shots/``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import harness
import pytest
import views

import cardlab

pytestmark = pytest.mark.browser

ROOT_SEL = ".cardlab-recorder"


def cell(*lines: str) -> list[str]:
    """The source of a cell of these lines."""
    return [line + "\n" for line in lines[:-1]] + [lines[-1]]


def notebook(path: str, bobs: str, whot: str) -> dict[str, Any]:
    return harness.notebook(cell("from cardlab.lessons.recorder import Recorder",
                                 f"rec = Recorder({path!r}, 'teds-game', players=3, "
                                 "seats=['Tone', 'Remo', 'Brad'], start_size=1)", "rec"),
                            cell(f"Recorder({bobs!r}, 'bobs-hat', players=3, hands=1)"),
                            cell(f"Recorder({whot!r})"))


@pytest.fixture(scope="module", params=["light", "dark"])
def recorder(request: pytest.FixtureRequest, lab: harness.LabServer,
             chromium: Any) -> Iterator[tuple[Any, Any, Path]]:
    theme = request.param
    folder = lab.work / "recorder"
    folder.mkdir(exist_ok=True)
    name = f"recorder/record-{theme}.ipynb"
    saved = folder / f"class-{theme}.json"
    # a Whot game already begun (a seeded deal, three actions), for the recorder to go on with
    table = cardlab.new_game("whot", players=3, seed=2, rubber="single")
    for _ in range(3):
        table.apply(table.state.legal_actions()[0])
    table.replay.seed = None
    table.save(folder / f"whot-{theme}.json")
    (lab.work / name).write_text(json.dumps(notebook(saved.name, f"bobs-{theme}.json",
                                                     f"whot-{theme}.json")))
    with harness.open_notebook(chromium, lab, name, theme,
                               ready=f"{ROOT_SEL} >> nth=0 >> .cardlab-rec-deck .cardlab-card",
                               artifact="recorder-lab") as page:
        yield page, page.locator(ROOT_SEL).first, saved
        assert not harness.cell_errors(page)  # nothing the widget did raised in the kernel


def wait_entries(root: Any, count: int) -> None:
    root.page.wait_for_function("([sel, n]) => document.querySelector(sel).dataset.entries"
                                " === String(n)", arg=[ROOT_SEL, count], timeout=30_000)


def wait_text(root: Any, selector: str, text: str) -> None:
    """Wait until the element ``selector`` of the recorder shows ``text`` (a part of it)."""
    root.page.wait_for_function(
        "([sel, part, text]) => { const n = document.querySelector(sel + ' ' + part);"
        " return !!n && !n.hidden && n.textContent.includes(text); }",
        arg=[ROOT_SEL, selector, text], timeout=30_000)


def pick(root: Any, code: str) -> None:
    """Click a card of the deck and wait until the kernel has put it in the draft."""
    root.locator(f".cardlab-rec-deck .cardlab-card[data-code='{code}']").click()
    root.locator(f".cardlab-rec-slot .cardlab-card[data-code='{code}']").wait_for()


def contrast(one: str, two: str) -> float:
    """WCAG's contrast ratio of two CSS colours given as ``rgb(r, g, b)``."""
    def lum(text: str) -> float:
        parts = [float(p) / 255 for p in text[text.index("(") + 1:-1].split(",")[:3]]
        lin = [p / 12.92 if p <= 0.03928 else ((p + 0.055) / 1.055) ** 2.4 for p in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted((lum(one), lum(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def check_accessible(page: Any, root: Any) -> None:
    views.check_accessible(page, root, ROOT_SEL)


def test_record_a_hand_by_clicking(recorder: tuple[Any, Any, Path]) -> None:
    page, root, saved = recorder
    try:
        record_a_hand(page, root, saved)
    except Exception:
        harness.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(harness.ARTIFACTS / "recorder-lab-failure.png"))
        raise


def record_a_hand(page: Any, root: Any, saved: Path) -> None:
    theme = "light" if page.evaluate("() => document.body.dataset.jpThemeLight") == "true" \
        else "dark"
    assert root.get_attribute("data-phase") == "setup"
    assert "draw for first dealer" in root.locator(".cardlab-rec-status").text_content()
    # the draw: a card each; Tone's 3 is the lowest, so Tone deals first
    for code in ("3D", "7H", "4H"):
        pick(root, code)
    harness.shoot(page, root, f"recorder-{theme}-draw-1024x768.png")
    root.locator("button.cardlab-rec-submit").click()
    wait_entries(root, 1)
    assert cardlab.load(saved).setup == {"draws": [["3D", "7H", "4H"]], "first_dealer": 0}
    # the deal: Brad's card first (his seat chosen), then typed with an alias, then the rest
    root.locator(".cardlab-rec-slot[data-slot='seat:2'] .cardlab-rec-slot-name").click()
    pick(root, "9C")
    root.locator("input.cardlab-rec-input").fill("queen of spades")
    root.locator("button.cardlab-rec-enter").click()
    root.locator(".cardlab-rec-slot[data-slot='seat:0'] .cardlab-card[data-code='QS']").wait_for()
    # a code that is not a card: the deck's own words, in the widget
    root.locator("input.cardlab-rec-input").fill("purple9")
    root.locator("button.cardlab-rec-enter").click()
    wait_text(root, ".cardlab-rec-message", "'purple9' is not a card of the 52-card deck")
    pick(root, "5H")  # Remo's: the first seat with room
    assert root.locator(".cardlab-rec-slot[data-slot='seat:1'] [data-code='5H']").count() == 1
    pick(root, "2H")  # the card turned up
    assert root.locator(".cardlab-rec-slot[data-slot='turned'] [data-code='2H']").count() == 1
    harness.shoot(page, root, f"recorder-{theme}-deal-1024x768.png")
    root.locator("button.cardlab-rec-submit").click()
    wait_entries(root, 2)
    assert root.get_attribute("data-phase") == "play"
    assert cardlab.load(saved).hands[0].deal == {"hands": [["QS"], ["5H"], ["9C"]],
                                                 "turned": "2H"}
    # the bids: Remo and Brad bid 0; Brad's bid is taken back and made again
    root.locator("button.cardlab-rec-choice[data-text='bid 0']").click()
    wait_entries(root, 3)
    root.locator("button.cardlab-rec-choice[data-text='bid 0']").click()
    wait_entries(root, 4)
    root.locator("button.cardlab-rec-undo").click()
    wait_entries(root, 3)
    wait_text(root, ".cardlab-rec-said", "took back Brad: bid 0")
    assert [a.act for a in cardlab.load(saved).hands[0].actions] == ["bid 0"]
    root.locator("button.cardlab-rec-choice[data-text='bid 0']").click()
    wait_entries(root, 4)
    # Tone deals: the hook forbids bid 1, so it is not offered; typed, it is refused
    offered = root.locator("button.cardlab-rec-choice").evaluate_all(
        "(nodes) => nodes.map((n) => n.dataset.text)")
    assert offered == ["bid 0"]
    root.locator("input.cardlab-rec-input").fill("bid 1")
    root.locator("button.cardlab-rec-enter").click()
    wait_text(root, ".cardlab-rec-message", "the hook: the dealer, Tone, may not bid 1")
    harness.shoot(page, root, f"recorder-{theme}-refused-1024x768.png")
    check_accessible(page, root)
    before = saved.read_bytes()
    assert root.get_attribute("data-entries") == "4"
    root.locator("button.cardlab-rec-choice[data-text='bid 0']").click()
    wait_entries(root, 5)
    assert saved.read_bytes() != before
    # Remo leads; Brad's card clicked out of turn is refused
    root.locator(".cardlab-rec-seat[data-seat='Brad'] .cardlab-card[data-code='9C']").click()
    wait_text(root, ".cardlab-rec-message", "'play 9C' is Remo's to make now, not Brad's")
    assert root.locator(".cardlab-rec-seat[data-seat='Remo'] .cardlab-legal").count() == 1
    for count, (seat, code) in enumerate((("Remo", "5H"), ("Brad", "9C"), ("Tone", "QS")), 6):
        root.locator(f".cardlab-rec-seat[data-seat='{seat}'] .cardlab-card[data-code='{code}']"
                     ).click()
        wait_entries(root, count)
    assert root.get_attribute("data-phase") == "over"
    wait_text(root, ".cardlab-rec-status", "The game is over")
    # the hand's last card taken back: the hand is unfinished, the chart goes; entered again
    assert root.locator(".cardlab-rec-chart").count() == 1
    root.locator("button.cardlab-rec-undo").click()
    wait_entries(root, 7)
    assert root.locator(".cardlab-rec-chart").count() == 0
    root.locator(".cardlab-rec-seat[data-seat='Tone'] .cardlab-card[data-code='QS']").click()
    wait_entries(root, 8)
    wait_text(root, ".cardlab-rec-status", "The game is over")
    # the sheet: Remo took the trick with the trump 5♥ (bid 0, took 1: a miss of 1)
    cells = root.locator(".cardlab-rec-sheet tr.cardlab-rec-score td").all_text_contents()
    replay = cardlab.load(saved)
    assert [int(c) for c in cells] == replay.hands[0].scores == [11, -1, 11]
    # the chart: one marker per seat for the one finished hand, at the sheet's totals
    chart = root.locator(".cardlab-rec-chart")
    assert chart.locator("figcaption").text_content() == "Total after each hand"
    series = chart.locator(".cardlab-rec-series").evaluate_all(
        "(gs) => gs.map((g) => [g.dataset.seat, Array.from(g.querySelectorAll("
        "'.cardlab-rec-point'), (p) => [p.dataset.hand, Number(p.dataset.value)])])")
    assert series == [[name, [["1", total]]] for name, total in zip(replay.seats,
                                                                      replay.totals, strict=True)]
    texts = chart.locator(".cardlab-rec-axis text").all_text_contents()
    assert {"hand", "total", "start", "1", "11", "-1"} <= set(texts)
    legend = chart.locator(".cardlab-rec-legend-item").all_text_contents()
    assert legend == replay.seats
    # each seat a colour of its own, and a dash and a marker of its own too
    looks = chart.locator(".cardlab-rec-series").evaluate_all(
        "(gs) => gs.map((g) => [getComputedStyle(g).color, g.querySelector('path')"
        ".getAttribute('stroke-dasharray'), g.querySelector('.cardlab-rec-point').tagName"
        " + (g.querySelector('.cardlab-rec-point').getAttribute('d') || '').split('L').length])")
    for k in range(3):
        assert len({look[k] for look in looks}) == 3, looks
    panel = chart.evaluate("(n) => getComputedStyle(n).backgroundColor")
    for colour, *_ in looks:  # a line is a graphic: 3:1 against the chart's panel
        assert contrast(colour, panel) >= 3, (colour, panel)
    assert [a.act for a in replay.hands[0].actions] == ["bid 0", "bid 0", "bid 0", "play 5H",
                                                        "play 9C", "play QS"]
    assert replay.totals == [11, -1, 11]
    kernel = saved.with_name(saved.stem + "-kernel.json")
    harness.kernel_exec(page, f"rec.replay.save({str(kernel)!r})")
    assert cardlab.load(kernel) == replay
    harness.shoot(page, root, f"recorder-{theme}-over-1024x768.png")
    check_accessible(page, root)


def test_bobs_hat_and_whot_recorders(recorder: tuple[Any, Any, Path]) -> None:
    """Bob's Hat's deal takes a trump word; a Whot file already begun goes on in the
    browser, its call card in the centre, a card clicked in the hand of the seat to act."""
    page, _, saved = recorder
    theme = "light" if page.evaluate("() => document.body.dataset.jpThemeLight") == "true" \
        else "dark"
    bobs = page.locator(ROOT_SEL).nth(1)
    bobs.locator("button.cardlab-rec-trump[data-word='gray']").click()
    page.wait_for_function("(sel) => document.querySelectorAll(sel)[1].querySelector("
                           "\"[data-word='gray']\").getAttribute('aria-pressed') === 'true'",
                           arg=ROOT_SEL, timeout=30_000)
    bobs.locator(".cardlab-rec-deck .cardlab-card[data-code='blue14']").click()
    bobs.locator(".cardlab-rec-slot[data-slot='seat:0'] [data-code='blue14']").wait_for()
    harness.shoot(page, bobs, f"recorder-{theme}-bobs-deal-1024x768.png")
    whot = page.locator(ROOT_SEL).nth(2)
    assert whot.get_attribute("data-entries") == "5"  # the cut, the deal, three actions
    assert whot.locator(".cardlab-rec-centre .cardlab-card[data-code]").count() == 1
    legal = whot.locator(".cardlab-rec-seat.cardlab-to-act .cardlab-legal")
    choices = whot.locator("button.cardlab-rec-choice")
    if legal.count():
        legal.first.click()
    else:
        choices.first.click()
    page.wait_for_function("(sel) => document.querySelectorAll(sel)[2].dataset.entries === '6'",
                           arg=ROOT_SEL, timeout=30_000)
    assert len(cardlab.load(saved.with_name(f"whot-{theme}.json")).hands[0].actions) == 4
    harness.shoot(page, whot, f"recorder-{theme}-whot-1024x768.png")
    check_accessible(page, whot)
