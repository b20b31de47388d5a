"""The what-if menu gives nothing away, in JupyterLab, in a real browser.

A notebook shows the three example replays in viewers (the Norwegian review analysed with
*evaluate* on, so the Evaluate panel lists every action with its value). At every step of
every example, with the moves to come hidden (the default), the menu ``what if, instead:``
and the Evaluate list are read from the page: the menu offers exactly the legal actions of
the frame (the move played among them, unless it was out of turn: Ted's Game's *change
bid*), each option drawn alike (the same attributes but its value, the first one chosen
whatever was played), and every action of the Evaluate list is a button drawn alike but its
value's marks: nothing tells the move played from the others. The move list writes out no
later move. The same is read in Brad's own view of the review at his decisions.

Choosing the move played and *try it* steps on along the game, with no new line; the message
that says so goes when the viewer steps back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import harness
import pytest

import cardlab
from cardlab.analyse import analyse
from cardlab.view.movie import build_movie, evals_of, iter_frames

pytestmark = pytest.mark.browser

EXAMPLES = cardlab.example_names()
SEL = ".cardlab-menu-{} .cardlab-viewer"

def notebook() -> dict[str, Any]:
    cells = [["import cardlab\n", "from cardlab.view import ReplayViewer\n",
              "review = cardlab.load('review-analysed.json')"]]
    for k, name in enumerate(EXAMPLES):
        replay = "review" if name == "norwegian-review" else f"cardlab.example({name!r})"
        cells.append([f"v{k} = ReplayViewer({replay})\n",
                      f"v{k}.widget.add_class('cardlab-menu-{k}')\n",
                      *(["v0.set_evaluate(True)\n"] if name == "norwegian-review" else []),
                      f"v{k}"])
    return harness.notebook(*cells)


# Every step of the line on show, read from the page: the menu's options (each option's
# attributes but its value, whether it is chosen), the Evaluate list's items (tag, attributes
# but the action and its numbers, classes but its value's mark), and the moves written out
# beyond the step.
READ = """(root) => {
    const m = root.cardlabModel;
    const top = m.get('movie').views[m.get('seat') || ''][0].frames.length - 1;
    const attrs = (node, skip) => Array.from(node.attributes)
        .filter((a) => !skip.includes(a.name)).map((a) => a.name + '=' + a.value).sort()
        .join(' ');
    const out = [];
    for (let step = 0; step <= top; step++) {
        m.set('step', step);
        m.save_changes();
        const menu = root.querySelector('select.cardlab-whatif');
        out.push({
            step: Number(root.dataset.step), value: menu.value, disabled: menu.disabled,
            options: Array.from(menu.options).map((o) => ({value: o.value, text: o.textContent,
                look: attrs(o, ['value']), chosen: o.selected})),
            evals: Array.from(root.querySelectorAll('.cardlab-eval-action')).map((e) => ({
                action: e.dataset.action, tag: e.tagName,
                look: attrs(e, ['data-action', 'data-mean', 'data-stderr', 'class']),
                cls: e.className.replace(/cardlab-eval-(best|worst|other)/, '')})),
            later: Array.from(root.querySelectorAll('.cardlab-moves button.cardlab-move'))
                .filter((b) => b.getClientRects().length && Number(b.dataset.step) > step)
                .length,
        });
    }
    return out;
}"""


@pytest.fixture(scope="module")
def menu_page(lab: harness.LabServer, chromium: Any) -> Iterator[tuple[Any, cardlab.Replay]]:
    folder = lab.work / "menu"
    folder.mkdir(exist_ok=True)
    review = analyse(cardlab.example("norwegian-review"), rollouts=2, bot="random",
                     progress=False)
    review.save(folder / "review-analysed.json")
    (folder / "menu.ipynb").write_text(json.dumps(notebook()))
    with harness.open_notebook(chromium, lab, "menu/menu.ipynb", "light", (1280, 900),
                               ready=f"{SEL.format(len(EXAMPLES) - 1)} .cardlab-card",
                               artifact="whatif-menu") as page:
        yield page, review


def played_after(replay: cardlab.Replay) -> list[tuple[str, bool] | None]:
    """For each step of the main line: the action played next and whether it was the turn
    of the seat to act (None at a hand's end)."""
    out: list[tuple[str, bool] | None] = []
    state = replay.new_state()
    for record in replay.hands:
        state.apply_chance(record.deal)
        for action in record.actions:
            in_turn = state.actor(state.parse_action(action.act)) == state.to_act()
            out.append((action.act, in_turn))
            state.act(action.act)
        out.append(None)
    return out


def check_steps(shown: list[dict[str, Any]], replay: cardlab.Replay, view: str) -> int:
    """The menu and the Evaluate list at every step tell nothing of the move played; the
    number of steps with a menu."""
    movie = build_movie(replay)
    frames = list(iter_frames(movie, 0, view))
    evals = evals_of(movie, 0, view)
    played = played_after(replay)
    assert [s["step"] for s in shown] == list(range(len(frames)))
    menus = 0
    for step, (seen, frame) in enumerate(zip(shown, frames, strict=True)):
        assert seen["later"] == 0, (view, step)  # no move to come is written out
        options = [o["value"] for o in seen["options"]]
        assert options == (frame.get("alt") or []), (view, step)
        if not options:
            assert seen["disabled"], (view, step)
            continue
        menus += 1
        act, in_turn = played[step] or ("", False)
        assert act in options or not in_turn, (view, step, act)
        # drawn alike: the same attributes, a text each, the first chosen
        assert len({o["look"] for o in seen["options"]}) == 1, (view, step, seen["options"])
        assert all(o["text"] for o in seen["options"])
        assert [o["chosen"] for o in seen["options"]] == [True] + [False] * (len(options) - 1)
        assert seen["value"] == options[0] and not seen["disabled"]
        entry = evals.get(str(step))
        if entry is None or view != "" and replay.seats.index(view) != entry["p"]:
            continue
        items = seen["evals"]
        assert sorted(i["action"] for i in items) == sorted(row[0] for row in entry["v"])
        assert {i["tag"] for i in items} == {"BUTTON"}, (view, step, items)
        assert len({(i["look"], i["cls"]) for i in items}) == 1, (view, step, items)
    return menus


def test_the_menu_and_the_evaluate_list_tell_nothing_of_the_move_played(
        menu_page: tuple[Any, cardlab.Replay]) -> None:
    page, review = menu_page
    for k, name in enumerate(EXAMPLES):
        root = page.locator(SEL.format(k)).first
        replay = review if name == "norwegian-review" else cardlab.example(name)
        shown = root.evaluate(READ)
        assert check_steps(shown, replay, "") > 20, name
        if name == "norwegian-review":
            assert sum(bool(s["evals"]) for s in shown) > 20  # the Evaluate list was read
    # Brad's own view: his choices, at his turns
    root = page.locator(SEL.format(EXAMPLES.index("norwegian-review"))).first
    root.evaluate("(root) => { root.cardlabModel.set('seat', 'Brad');"
                  " root.cardlabModel.save_changes(); }")
    page.wait_for_function("(sel) => Object.keys(document.querySelector(sel).cardlabModel"
                           ".get('movie').views).join() === 'Brad'",
                           arg=SEL.format(EXAMPLES.index("norwegian-review")), timeout=30_000)
    assert check_steps(root.evaluate(READ), review, "Brad") > 5


def test_trying_the_move_played_steps_on(menu_page: tuple[Any, cardlab.Replay]) -> None:
    page, review = menu_page
    sel = SEL.format(EXAMPLES.index("norwegian-review"))
    root = page.locator(sel).first
    root.evaluate("(root) => { const m = root.cardlabModel; m.set('seat', ''); m.set('step', 0);"
                  " m.save_changes(); }")
    page.wait_for_function("(sel) => Object.keys(document.querySelector(sel).cardlabModel"
                           ".get('movie').views).includes('')", arg=sel, timeout=30_000)
    root.evaluate("(root) => { root.cardlabModel.set('step', 0); "
                  "root.cardlabModel.save_changes(); }")
    lines = root.locator("select.cardlab-line-select option").count()
    chosen = review.hands[0].actions[0].act  # Brad's hat, the first move
    root.locator("select.cardlab-whatif").select_option(chosen)
    root.locator("button.cardlab-try").click()
    page.wait_for_function(f"document.querySelector('{sel}').dataset.step === '1'",
                           timeout=30_000)
    # The kernel steps on, then says so: the step reaches the page (and clears the "playing
    # out" message of step 0) a moment before the message does.
    page.wait_for_function(f"document.querySelector('{sel} .cardlab-message').textContent"
                           " !== ''", timeout=30_000)
    message = root.locator(".cardlab-message").text_content()
    assert message == "Brad: hat −10 is what was played here; on to step 1"
    assert root.locator("select.cardlab-line-select option").count() == lines
    harness.shoot(page, root, "whatif-played-light-1280x900.png")
    # the message belongs to that step: back at step 0 it no longer says what was played
    root.focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"document.querySelector('{sel}').dataset.step === '0'")
    assert root.locator(".cardlab-message").text_content() == ""
