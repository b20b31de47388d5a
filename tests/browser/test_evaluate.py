"""Evaluate in a real browser: an analysed replay in the offline page and in JupyterLab.

The review is analysed with cardlab's own advisor (``cardlab.analyse``, few random rollouts:
the viewer only carries the numbers). With the *evaluate* switch on, the values of the
decision at a step must be on its legal actions (each playable card's tag, every action in the
panel) with the best marked ▲ and the worst ▼, as the replay's eval records say; the "where
did it turn" chart has one point per evaluated decision of the chosen seat, as
``cardlab.advisor.report`` lists them; a click on a costly decision goes to its step; axe-core
finds nothing serious and every text reaches AA contrast. In JupyterLab, a decision with no
record is evaluated by the kernel on request. Screenshots (light and dark, 1024×768 and
1920×1080) go to ``artifacts/``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import expect
import harness
import pytest
import views

import cardlab
from cardlab.advisor import report
from cardlab.analyse import analyse

pytestmark = pytest.mark.browser

REVIEW = harness.ROOT / "replays" / "norwegian-review.json"
ROOT_SEL = ".cardlab-viewer"
SIZES = [(1024, 768), (1920, 1080)]
SEAT = "Brad"  # a seat with a costly decision in the analysed review (seeded: always)

# What the Evaluate part shows, read from the DOM.
SHOWN = """(root) => {
    const tags = {};
    for (const card of root.querySelectorAll('.cardlab-hand .cardlab-card[data-code]')) {
        const tag = card.querySelector('.cardlab-eval-tag');
        if (!tag) continue;
        tags[card.dataset.code] = {mean: Number(tag.dataset.mean), text: tag.textContent,
            best: card.classList.contains('cardlab-eval-best'),
            worst: card.classList.contains('cardlab-eval-worst'),
            seat: card.closest('.cardlab-seat').dataset.seat,
            label: card.getAttribute('aria-label')};
    }
    const panel = root.querySelector('.cardlab-eval');
    return {
        step: Number(root.dataset.step),
        tags,
        panel: !panel.hidden,
        source: root.querySelector('.cardlab-eval-source').textContent,
        actions: Array.from(root.querySelectorAll('.cardlab-eval-action')).map((a) => ({
            action: a.dataset.action, mean: Number(a.dataset.mean), text: a.textContent,
            best: a.classList.contains('cardlab-eval-best'),
            worst: a.classList.contains('cardlab-eval-worst')})),
        points: Array.from(root.querySelectorAll('.cardlab-turn-svg .cardlab-turn-point'))
            .map((p) => Number(p.dataset.step)),
        costly: Array.from(root.querySelectorAll('.cardlab-costly-item'))
            .map((b) => ({step: Number(b.dataset.step), seat: b.dataset.seat})),
        luckRows: root.querySelectorAll('.cardlab-luck-table tbody th').length,
        analysis: !root.querySelector('.cardlab-analysis').hidden,
    };
}"""


def decision_steps(replay: cardlab.Replay) -> dict[int, tuple[str, dict[str, Any]]]:
    """Main-line step where each evaluated decision is made → (seat name, eval record)."""
    out, step = {}, 0
    for hand in replay.hands:
        for index, action in enumerate(hand.actions):
            if action.eval is not None:
                out[step + index] = (action.seat, action.eval)
        step += len(hand.actions) + 1
    return out


def played_at(replay: cardlab.Replay, step: int) -> str:
    """The action made at ``step`` of the main line (the decision taken there)."""
    start = 0
    for hand in replay.hands:
        if step - start < len(hand.actions):
            return hand.actions[step - start].act
        start += len(hand.actions) + 1
    raise AssertionError(f"no action at step {step}")


def card_choice(replay: cardlab.Replay, seat: str | None = None) -> int:
    """The first step where a seat (``seat``) chooses among three cards or more."""
    return next(step for step, (who, record) in decision_steps(replay).items()
                if (seat is None or who == seat) and len(record["values"]) >= 3
                and all(text.startswith("play ") for text in record["values"]))


def set_view(root: Any, step: int, seat: str = "", show_all: bool = False) -> None:
    root.evaluate("""(root, [step, seat, all]) => { const m = root.cardlabModel;
        m.set('seat', seat); m.set('show_all', all); m.set('step', step); m.save_changes(); }""",
                  [step, seat, show_all])
    root.page.wait_for_function("([sel, step]) => Number(document.querySelector(sel)"
                                ".dataset.step) === step", arg=[ROOT_SEL, step])


def check_values(shown: dict[str, Any], seat: str, record: dict[str, Any]) -> None:
    """The values of ``record`` on the legal actions: the panel lists every action with its
    mean, the cards carry theirs; best ▲ and worst ▼ marked as the means say."""
    values = record["values"]
    means = [pair[0] for pair in values.values()]
    best = {t for t, v in values.items() if v[0] == max(means)}
    worst = {t for t, v in values.items() if v[0] == min(means)} - best
    assert shown["panel"] and "sampled deals" in shown["source"], shown["source"]
    assert {a["action"]: a["mean"] for a in shown["actions"]} == \
        {t: v[0] for t, v in values.items()}
    for item in shown["actions"]:
        assert item["best"] == (item["action"] in best), item
        assert item["worst"] == (item["action"] in worst), item
        assert ("▲" in item["text"]) == item["best"] and ("▼" in item["text"]) == item["worst"]
        assert "±" in item["text"]
    played = {t.split(" ")[1]: t for t in values if t.startswith("play ")}
    assert set(shown["tags"]) == set(played), (shown["tags"], played)
    for code, tag in shown["tags"].items():
        text = played[code]
        assert tag["seat"] == seat and tag["mean"] == values[text][0]
        assert tag["best"] == (text in best) and tag["worst"] == (text in worst)
        assert ("▲" in tag["text"]) == tag["best"] and ("▼" in tag["text"]) == tag["worst"]
        assert "±" in tag["label"]  # a screen reader hears the value and its error
    assert best and worst  # the test's decisions have both


def check_chart_and_costly(root: Any, replay: cardlab.Replay, seats: list[str]) -> None:
    """With every result shown: one point per evaluated decision of each seat, the costly
    decisions of every seat listed; a click on one goes to its step, where its values are."""
    decisions = report.decisions(replay)
    starts = {}
    step = 0
    for h, hand in enumerate(replay.hands, 1):
        starts[h] = step
        step += len(hand.actions) + 1
    set_view(root, 0, root.evaluate("(root) => root.dataset.seat"), show_all=True)
    for name in seats:
        menu = root.locator("select.cardlab-turn-seat")
        if menu.is_enabled():  # everyone's view: the chart's seat is chosen
            menu.select_option(str(replay.seats.index(name)))
        shown = root.evaluate(SHOWN)
        mine = [starts[d.hand] + d.index for d in decisions if replay.seats[d.seat] == name]
        assert shown["points"] == mine and mine, name
        assert shown["luckRows"] == len(report.luck(replay, name))
    costly = [(starts[d.hand] + d.index, replay.seats[d.seat]) for d in decisions
              if d.mark and replay.seats[d.seat] in seats]
    shown = root.evaluate(SHOWN)
    assert [(c["step"], c["seat"]) for c in shown["costly"]] == \
        sorted(costly, key=lambda c: replay.seats.index(c[1]))
    assert costly, "the analysed review has costly decisions"
    target = shown["costly"][-1]
    root.locator(f".cardlab-costly-item[data-step='{target['step']}']").click()
    views.wait_step(root.page, ROOT_SEL, target["step"])
    seat, record = decision_steps(replay)[target["step"]]
    shown = root.evaluate(SHOWN)
    assert {a["action"] for a in shown["actions"]} == set(record["values"])
    assert root.locator(".cardlab-costly-item.cardlab-current").get_attribute(
        "data-step") == str(target["step"])


def check_accessible(page: Any, root: Any) -> None:
    views.check_accessible(page, root, ROOT_SEL)


# -- the offline page --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[cardlab.Replay, Path]:
    folder = tmp_path_factory.mktemp("evaluate")
    replay = analyse(cardlab.load(REVIEW), rollouts=12, bot="random", progress=False)
    path = folder / "review-analysed.json"
    replay.save(path)
    return cardlab.load(path), path


def html_page(source: Path, *args: str) -> Path:
    out = source.with_name(source.stem + "".join(args).replace(" ", "-") + ".html")
    done = subprocess.run([sys.executable, "-m", "cardlab", "html", str(source), "-o", str(out),
                           *args], capture_output=True, text=True, cwd=harness.ROOT)
    assert done.returncode == 0, done.stderr
    return out


def open_page(chromium: Any, path: Path, theme: str = "light",
              size: tuple[int, int] = (1280, 900)) -> tuple[Any, Any, harness.Offline]:
    # "high-contrast": the system's forced colours (Windows high contrast), on dark
    forced = theme == "high-contrast"
    page = chromium.new_page(viewport={"width": size[0], "height": size[1]},
                             color_scheme="dark" if forced else theme,
                             forced_colors="active" if forced else "none")
    offline = harness.Offline(page)
    page.goto(path.as_uri())
    page.wait_for_selector(f"{ROOT_SEL} .cardlab-card")
    return page, page.locator(ROOT_SEL), offline


def test_the_page_puts_the_values_on_the_actions(chromium: Any, analysed: Any) -> None:
    replay, path = analysed
    page, root, offline = open_page(chromium, html_page(path))
    try:
        step = card_choice(replay)
        set_view(root, step)
        assert not root.evaluate(SHOWN)["panel"]  # off until switched on
        root.locator("input.cardlab-evaluate").check()
        seat, record = decision_steps(replay)[step]
        check_values(root.evaluate(SHOWN), seat, record)
        bids = next(s for s, (_, r) in decision_steps(replay).items()
                    if all(t.startswith("bid ") for t in r["values"]) and len(r["values"]) > 2)
        set_view(root, bids)  # a bid: the values are on the panel's actions, no card
        shown = root.evaluate(SHOWN)
        assert not shown["tags"] and {a["action"] for a in shown["actions"]} == \
            set(decision_steps(replay)[bids][1]["values"])
        set_view(root, step)
        check_accessible(page, root)
        check_chart_and_costly(root, replay, list(replay.seats))
        problems = {k: v for k, v in offline.problems().items() if v}
        assert not problems, problems
    finally:
        page.close()


def test_a_seat_page_shows_only_its_own_values(chromium: Any, analysed: Any) -> None:
    replay, path = analysed
    page, root, offline = open_page(chromium, html_page(path, "--seat", SEAT))
    try:
        movie = root.evaluate(views.MOVIE)
        # the data that reached the browser: nothing hidden from the seat at any step, and
        # no card it never sees anywhere (its values included)
        expect.assert_movie_hides(movie, replay, replay.seats.index(SEAT))
        evals = movie["views"][SEAT][0]["ev"]
        assert {entry["p"] for entry in evals.values()} == {replay.seats.index(SEAT)}
        assert {int(s) for s in evals} == {s for s, (who, _) in decision_steps(replay).items()
                                           if who == SEAT}
        root.locator("input.cardlab-evaluate").check()
        step = card_choice(replay, SEAT)
        set_view(root, step, SEAT)
        check_values(root.evaluate(SHOWN), SEAT, decision_steps(replay)[step][1])
        other = next(s for s, (who, _) in decision_steps(replay).items() if who != SEAT)
        set_view(root, other, SEAT)
        shown = root.evaluate(SHOWN)
        assert not shown["tags"] and not shown["actions"]
        check_chart_and_costly(root, replay, [SEAT])
        check_accessible(page, root)
        assert not {k: v for k, v in offline.problems().items() if v}
    finally:
        page.close()


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
@pytest.mark.parametrize("size", SIZES)
def test_page_screenshots(chromium: Any, analysed: Any, artifacts: Path, theme: str,
                          size: tuple[int, int]) -> None:
    """For a person to look at; checked: the table's seats inside the window, no button text
    cut, AA contrast with the values on; in forced colours best and worst keep an outline
    each (solid, dashed), besides their marks."""
    replay, path = analysed
    page, root, _ = open_page(chromium, html_page(path), theme, size)
    try:
        root.locator("input.cardlab-evaluate").check()
        set_view(root, card_choice(replay))
        fit = root.evaluate(views.FIT)
        assert not fit["outside"] and not fit["truncated"], fit
        assert not root.evaluate(views.CONTRAST)["failures"]
        if theme == "high-contrast":
            styles = root.evaluate("""(root) => ['best', 'worst'].map((k) => getComputedStyle(
                root.querySelector('.cardlab-eval-action.cardlab-eval-' + k)).outlineStyle)""")
            assert styles == ["solid", "dashed"], styles
        page.screenshot(path=str(artifacts / f"evaluate-page-{theme}-{size[0]}x{size[1]}.png"),
                        full_page=True)
    finally:
        page.close()


# -- JupyterLab ----------------------------------------------------------------------------------

NOTEBOOK = harness.notebook(["import cardlab\n", "from cardlab.view import ReplayViewer\n",
                              "replay = cardlab.load('review-one-seat.json')\n",
                              "viewer = ReplayViewer(replay)\n", "viewer"])


@pytest.fixture(scope="module", params=["light", "dark"])
def lab_viewer(request: pytest.FixtureRequest, lab: harness.LabServer,
               chromium: Any) -> Iterator[tuple[Any, Any, cardlab.Replay]]:
    """The review analysed for one seat only (the others' decisions have no record), shown by
    ReplayViewer in a notebook of its own."""
    theme = request.param
    folder = lab.work / "evaluate"
    folder.mkdir(exist_ok=True)
    replay = analyse(cardlab.load(REVIEW), seat=SEAT, rollouts=12, bot="random",
                     progress=False)
    replay.save(folder / "review-one-seat.json")
    name = f"evaluate/evaluate-{theme}.ipynb"
    (lab.work / name).write_text(json.dumps(NOTEBOOK))
    with harness.open_notebook(chromium, lab, name, theme, (1280, 900),
                               ready=f"{ROOT_SEL} >> nth=0 >> .cardlab-card",
                               artifact="evaluate-lab") as page:
        yield page, page.locator(ROOT_SEL).first, replay


def test_lab_shows_values_and_asks_the_kernel(lab_viewer: Any, artifacts: Path) -> None:
    page, root, replay = lab_viewer
    theme = page.evaluate("() => document.body.dataset.jpThemeLight") == "true"
    root.locator("input.cardlab-evaluate").check()
    step = card_choice(replay, SEAT)
    set_view(root, step)
    check_values(root.evaluate(SHOWN), SEAT, decision_steps(replay)[step][1])
    # every choice in the panel is a button, the one played too (none stands out as played):
    # it picks that action in the what-if menu
    played = played_at(replay, step)
    other = next(t for t in decision_steps(replay)[step][1]["values"] if t != played)
    root.locator(f"button.cardlab-eval-action[data-action='{other}']").click()
    assert root.locator("select.cardlab-whatif").input_value() == other
    root.locator(f"button.cardlab-eval-action[data-action='{played}']").click()
    assert root.locator("select.cardlab-whatif").input_value() == played
    assert root.locator("span.cardlab-eval-action").count() == 0
    check_accessible(page, root)
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_timeout(300)
        name = f"evaluate-lab-{'light' if theme else 'dark'}-{size[0]}x{size[1]}.png"
        page.screenshot(path=str(artifacts / name))
    page.set_viewport_size({"width": 1280, "height": 900})
    check_chart_and_costly(root, replay, [SEAT])
    # a decision with no record (Remo's): the kernel evaluates it on request
    remo = next(s for s, (who, r) in
                decision_steps(analyse(replay, seat="Remo", rollouts=1, bot="random",
                                       progress=False)).items()
                if who == "Remo" and len(r["values"]) >= 3
                and all(t.startswith("play ") for t in r["values"]))
    set_view(root, remo)
    assert not root.evaluate(SHOWN)["actions"]
    root.locator("button.cardlab-eval-ask").click()
    page.wait_for_function("([sel, step]) => !!(document.querySelector(sel).cardlabModel"
                           ".get('movie').views[''][0].ev || {})[String(step)]",
                           arg=[ROOT_SEL, remo], timeout=60_000)
    page.wait_for_selector(f"{ROOT_SEL} .cardlab-eval-tag")
    shown = root.evaluate(SHOWN)
    assert "over 200 sampled deals" in shown["source"]
    assert {tag["seat"] for tag in shown["tags"].values()} == {"Remo"}
    page.wait_for_function(  # the kernel's answer follows the new movie
        "(sel) => document.querySelector(sel + ' .cardlab-eval-message').textContent === "
        "\"Remo's choices evaluated over 200 sampled deals\"", arg=ROOT_SEL, timeout=30_000)
    # Tone's view: the kernel sends Tone's movie alone, holding none of the others' values
    root.evaluate("(root) => { root.cardlabModel.set('seat', 'Tone');"
                  " root.cardlabModel.save_changes(); }")
    page.wait_for_function("(sel) => Object.keys(document.querySelector(sel).cardlabModel"
                           ".get('movie').views).join() === 'Tone'", arg=ROOT_SEL,
                           timeout=30_000)
    movie = root.evaluate(views.MOVIE)
    assert "ev" not in movie["views"]["Tone"][0] and not root.evaluate(SHOWN)["tags"]
