"""The exercise and quiz widgets in JupyterLab, in a real browser, light and dark.

A notebook shows one exercise of each kind, one made on a position where nobody is to act,
and a quiz. The test answers each exercise by clicking (a wrong answer and a bad one too),
checks the engine's reason and the session's score shown, that the bad exercise shows its
message and no traceback, and takes one quiz step: before the answer the browser holds only
what the kernel's quiz shows for the seat (no reveal, nothing hidden from the seat); after
it, what was played and the advisor's values. axe-core finds nothing serious, every text
reaches AA contrast, and screenshots at 1024×768 go to ``artifacts/`` and ``/tmp/shots/``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import harness
import pytest
import views

import cardlab
from cardlab.cursor import Cursor
from cardlab.lessons.quiz import Quiz
from cardlab.seatview import hidden_from

pytestmark = pytest.mark.browser

CELLS = [
    "import cardlab\n"
    "from cardlab.lessons.exercises import Session, exercise\n"
    "from cardlab.lessons.quiz import quiz\n"
    "review = cardlab.example('norwegian-review')\n"
    "teds = cardlab.example('teds-game-example')\n"
    "s = Session()",
    "w = exercise('trick-winner', review, hand=1, index=9, session=s)\n"
    "w.add_class('ex-trick-winner'); w",
    "w = exercise('forbidden-bid', teds, hand=2, index=3, session=s)\n"
    "w.add_class('ex-forbidden-bid'); w",
    "w = exercise('legal-plays', review, hand=1, index=6, view='Remo', session=s)\n"
    "w.add_class('ex-legal-plays'); w",
    "w = exercise('hand-score', review, hand=1, seat='Kathrine', view='Kathrine', session=s)\n"
    "w.add_class('ex-hand-score'); w",
    "w = exercise('legal-plays', review, hand=1, session=s)  # at the hand's end\n"
    "w.add_class('ex-bad'); w",
    "q = quiz(review, 'Brad', rollouts=10, seed=0, bot='random')\n"
    "q.add_class('ex-quiz'); q",
]


def notebook() -> dict[str, Any]:
    return harness.notebook(*CELLS)


@pytest.fixture(scope="module", params=["light", "dark"])
def lesson(request: pytest.FixtureRequest, lab: harness.LabServer,
           chromium: Any) -> Iterator[tuple[Any, str]]:
    theme = request.param
    folder = lab.work / "lessons"
    folder.mkdir(exist_ok=True)
    name = f"lessons/exercises-{theme}.ipynb"
    (lab.work / name).write_text(json.dumps(notebook()))
    with harness.open_notebook(chromium, lab, name, theme,
                               ready=".ex-quiz .cardlab-lesson .cardlab-choice",
                               artifact="exercises-lab") as page:
        yield page, theme
        assert not harness.cell_errors(page)  # nothing a click did raised in the kernel


def root_of(page: Any, kind: str) -> Any:
    return page.locator(f".ex-{kind} .cardlab-lesson").first


def wait_text(page: Any, kind: str, part: str, text: str) -> None:
    page.wait_for_function(
        "([sel, text]) => { const n = document.querySelector(sel);"
        " return !!n && !n.hidden && n.textContent.includes(text); }",
        arg=[f".ex-{kind} .cardlab-lesson {part}", text], timeout=30_000)


def check_accessible(page: Any, root: Any) -> None:
    views.check_accessible(page, root, ".cardlab-lesson")


def test_one_exercise_of_each_kind_and_a_quiz_step(lesson: tuple[Any, str]) -> None:
    page, theme = lesson
    # click the card that wins this trick: a wrong card, then the right one (not counted)
    trick = root_of(page, "trick-winner")
    assert trick.get_attribute("data-kind") == "trick-winner"
    assert "highest blue" not in json.dumps(trick.evaluate("(n) => n.cardlabModel.get('data')"))
    trick.locator(".cardlab-lesson-trick button.cardlab-choice[data-code='blue9']").click()
    wait_text(page, "trick-winner", ".cardlab-lesson-feedback",
              "Not blue 9: Tone takes the trick with blue 20: highest blue, the suit led.")
    wait_text(page, "trick-winner", ".cardlab-lesson-score", "0 right of 1")
    trick.locator(".cardlab-lesson-trick button.cardlab-choice[data-code='blue20']").click()
    wait_text(page, "trick-winner", ".cardlab-lesson-feedback", "Right: Tone takes the trick")
    assert trick.locator("button.cardlab-ok[data-code='blue20']").count() == 1
    harness.shoot(page, trick, f"exercise-{theme}-trick-1024x768.png")
    # what may the dealer not bid? (Ted's Game, hand 2: Ann deals, the others bid 6 of 9)
    bid = root_of(page, "forbidden-bid")
    bid.locator("button.cardlab-choice[data-value='3']").click()
    wait_text(page, "forbidden-bid", ".cardlab-lesson-feedback",
              "Right: the hook: the dealer, Ann, may not bid 3: the others bid 6 in all")
    wait_text(page, "forbidden-bid", ".cardlab-lesson-score", "1 right of 2")
    # which of these may Remo play? From Remo's view: the others' cards are face down
    legal = root_of(page, "legal-plays")
    assert legal.locator(".cardlab-lesson-seat[data-seat='Tone'] [data-code]").count() == 0
    assert legal.locator(".cardlab-lesson-seat[data-seat='Tone'] .cardlab-back").count() == 4
    legal.locator("button.cardlab-choice[data-code='blue14']").click()
    legal.locator("button.cardlab-choice[data-code='red7']").click()
    assert legal.locator("button[aria-pressed='true']").count() == 2
    legal.locator("button.cardlab-choice[data-code='red7']").click()  # changed my mind
    legal.locator("button.cardlab-check").click()
    wait_text(page, "legal-plays", ".cardlab-lesson-feedback",
              "Right: Remo may play blue 14. Not red 7, red 9, red 12, black 15: Remo must "
              "follow blue, the suit led")
    assert legal.locator("button.cardlab-no[data-code='red7']").count() == 1
    harness.shoot(page, legal, f"exercise-{theme}-legal-1024x768.png")
    # what does Kathrine score? A bad entry first: the message, then the answer
    score = root_of(page, "hand-score")
    score.locator("input.cardlab-answer").fill("minus five")
    score.locator("button.cardlab-check").click()
    wait_text(page, "hand-score", ".cardlab-lesson-feedback.cardlab-lesson-error",
              "a score is a whole number (like -7 or 21), not 'minus five'")
    score.locator("input.cardlab-answer").fill("-5")
    score.locator("input.cardlab-answer").press("Enter")
    wait_text(page, "hand-score", ".cardlab-lesson-feedback.cardlab-right",
              "Right: −5. Kathrine: most blue −5.")
    wait_text(page, "hand-score", ".cardlab-lesson-score", "3 right of 4")
    assert score.locator("input.cardlab-answer").input_value() == "-5"  # kept beside the verdict
    harness.shoot(page, score, f"exercise-{theme}-score-1024x768.png")
    # an exercise on a position where nobody is to act: its message, no traceback
    bad = root_of(page, "bad")
    assert "hand 1 after 25 actions: nobody is to act (the hand is over)" in \
        bad.locator(".cardlab-lesson-error").text_content()
    assert page.locator(".jp-OutputArea-output[data-mime-type*='stderr']").count() == 0
    check_accessible(page, score)
    quiz_step(page, theme)


def quiz_step(page: Any, theme: str) -> None:
    review = cardlab.example("norwegian-review")
    quiz = root_of(page, "quiz")
    model = quiz.evaluate("(n) => ({data: n.cardlabModel.get('data'),"
                          " reveal: n.cardlabModel.get('reveal')})")
    expected = Quiz(review, "Brad", rollouts=10, seed=0, bot="random")
    # what reached the browser is the kernel quiz's view of Brad's first decision: no
    # reveal, no card hidden from Brad
    assert model["reveal"] == {}
    assert model["data"] == json.loads(json.dumps(expected.data()))
    state = Cursor(review, hand=1).goto(expected.index).state
    assert hidden_from(state, 3).leaks(json.dumps(model)) == []
    assert quiz.locator(".cardlab-lesson-seat[data-seat='Kathrine'] [data-code]").count() == 0
    harness.shoot(page, quiz, f"quiz-{theme}-ask-1024x768.png")
    quiz.locator("button.cardlab-choice[data-value='hat +10']").click()
    wait_text(page, "quiz", ".cardlab-quiz-text", "You chose hat +10; Brad chose hat −10.")
    rows = quiz.locator(".cardlab-quiz-values tr[data-action]")
    assert sorted(rows.evaluate_all("(ns) => ns.map((n) => n.dataset.action)")) == \
        ["hat +10", "hat -10"]
    assert "deals sampled from Brad's view" in quiz.locator(".cardlab-quiz-source").text_content()
    check_accessible(page, quiz)
    harness.shoot(page, quiz, f"quiz-{theme}-reveal-1024x768.png")
    quiz.locator("button.cardlab-quiz-next").click()
    wait_text(page, "quiz", ".cardlab-lesson-progress", "decision 2")
    after = quiz.evaluate("(n) => n.cardlabModel.get('reveal')")
    assert after == {}
