"""The exercise and quiz widgets in JupyterLab, in a real browser, light and dark.

A notebook shows one exercise of each kind, one made on a position where nobody is to act,
one more for *show me*, and a quiz. The exercises teach in tries (cardlab/lessons/tries.py):
a first wrong click gets a hint, the rule and not the answer (only the card tried is marked,
and the browser holds no answer yet), and another try; a second miss gets the answer, the
right card marked; *show me* gives the answer at once; a right first answer is praised. The
marks of right and wrong cards reach 3:1 against the felt, measured from the computed
styles. The bad exercise shows its message and no traceback, and the quiz asks the question
of the decision ("What do you make Bob's Hat worth?") and counts "1 of N"; before its answer
the browser holds only what the kernel's quiz shows for the seat, after it what was played
and the advisor's values. axe-core finds nothing serious, every text reaches AA contrast,
and screenshots at 1024×768 go to ``artifacts/`` and ``/tmp/shots/``.
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
    "w = exercise('hand-score', review, hand=1, seat='Brad', session=s)\n"
    "w.add_class('ex-show'); w",
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


def model_feedback(root: Any) -> dict[str, Any]:
    return dict(root.evaluate("(n) => n.cardlabModel.get('feedback')"))


def felt_marks(root: Any, theme: str) -> list[dict[str, Any]]:
    """The marks of right and wrong cards on the felt: solid for right, dashed for wrong,
    each with its sign, and at least 3:1 against what lies around the card."""
    marks = views.rings(root, ".cardlab-lesson-card.cardlab-ok, .cardlab-lesson-card.cardlab-no")
    assert marks, "no card is marked"
    for mark in marks:
        right = "cardlab-ok" in mark["cls"]
        assert mark["outline"] == ("solid" if right else "dashed"), mark
        assert mark["width"] >= 3 and mark["sign"] in ('"✔" / ""', '"✘" / ""', '"✔"', '"✘"'), \
            mark
        assert mark["ratio"] >= 3, (theme, mark)
    return marks


def test_exercises_teach_in_tries_and_a_quiz_step(lesson: tuple[Any, str]) -> None:
    page, theme = lesson
    # click the card that wins this trick: a wrong card gets a hint, and another try
    trick = root_of(page, "trick-winner")
    assert trick.get_attribute("data-kind") == "trick-winner"
    assert "highest blue" not in json.dumps(trick.evaluate("(n) => n.cardlabModel.get('data')"))
    trick.locator(".cardlab-lesson-trick button.cardlab-choice[data-code='blue9']").click()
    wait_text(page, "trick-winner", ".cardlab-lesson-feedback.cardlab-hint",
              "✘ Not blue 9. Hint: a trick goes to the highest trump (black) in it; with no "
              "trump in it, to the highest card of the suit led. Try again, or choose Show me.")
    wait_text(page, "trick-winner", ".cardlab-lesson-score", "0 right of 1")
    hint = model_feedback(trick)
    assert hint["stage"] == "hint" and "correct" not in hint  # the browser holds no answer
    assert "blue 20" not in json.dumps(hint) and "highest blue" not in json.dumps(hint)
    assert trick.locator(".cardlab-ok").count() == 0
    assert trick.locator("button.cardlab-no[data-code='blue9']").count() == 1
    assert trick.locator("button.cardlab-show").count() == 1
    felt_marks(trick, theme)
    harness.shoot(page, trick, f"exercise-{theme}-trick-hint-1024x768.png")
    # a second miss: the answer, the right card marked
    trick.locator(".cardlab-lesson-trick button.cardlab-choice[data-code='blue5']").click()
    wait_text(page, "trick-winner", ".cardlab-lesson-feedback.cardlab-wrong",
              "✘ Not blue 5: Tone takes the trick with blue 20: highest blue, the suit led.")
    assert trick.locator("button.cardlab-ok[data-code='blue20']").count() == 1
    assert trick.locator("button.cardlab-no[data-code='blue5']").count() == 1
    assert trick.locator("button.cardlab-show").count() == 0  # the answer is shown
    marks = felt_marks(trick, theme)
    assert {m["value"] for m in marks} == {"blue20", "blue5"}
    harness.shoot(page, trick, f"exercise-{theme}-trick-answer-1024x768.png")
    # what may the dealer not bid? (Ted's Game, hand 2: Ann deals, the others bid 6 of 9):
    # right first time, praised with the engine's reason
    bid = root_of(page, "forbidden-bid")
    bid.locator("button.cardlab-choice[data-value='3']").click()
    wait_text(page, "forbidden-bid", ".cardlab-lesson-feedback.cardlab-right",
              "✔ Right: the hook: the dealer, Ann, may not bid 3: the others bid 6 in all")
    wait_text(page, "forbidden-bid", ".cardlab-lesson-score", "1 right of 2")
    # which of these may Remo play? From Remo's view: the others' cards are face down
    legal = root_of(page, "legal-plays")
    assert legal.locator(".cardlab-lesson-seat[data-seat='Tone'] [data-code]").count() == 0
    assert legal.locator(".cardlab-lesson-seat[data-seat='Tone'] .cardlab-back").count() == 4
    legal.locator("button.cardlab-choice[data-code='red7']").click()
    legal.locator("button.cardlab-check").click()
    wait_text(page, "legal-plays", ".cardlab-lesson-feedback.cardlab-hint",
              "✘ Not quite. Hint: Remo must follow blue, the suit led; you left out a card Remo "
              "may play. Try again, or choose Show me.")
    assert legal.locator(".cardlab-ok, .cardlab-no").count() == 0  # nothing told yet
    assert legal.locator("button[aria-pressed='true'][data-code='red7']").count() == 1
    harness.shoot(page, legal, f"exercise-{theme}-legal-hint-1024x768.png")
    legal.locator("button.cardlab-choice[data-code='red7']").click()  # changed my mind
    legal.locator("button.cardlab-choice[data-code='blue14']").click()
    legal.locator("button.cardlab-check").click()
    wait_text(page, "legal-plays", ".cardlab-lesson-feedback.cardlab-right",
              "✔ Right: Remo may play blue 14. Not red 7, red 9, red 12 and black 15: Remo must "
              "follow blue, the suit led: Remo holds blue 14.")
    assert legal.locator("button.cardlab-no[data-code='red7']").count() == 1
    assert legal.locator("button.cardlab-ok[data-code='blue14']").count() == 1
    assert legal.locator("button.cardlab-ok[data-code='blue14']").get_attribute(
        "aria-label") == "blue 14, may be played"
    felt_marks(legal, theme)  # on a seat's shade of the felt
    harness.shoot(page, legal, f"exercise-{theme}-legal-1024x768.png")
    wait_text(page, "legal-plays", ".cardlab-lesson-score", "1 right of 3")
    # what does Kathrine score? A bad entry first (no try), then the answer
    score = root_of(page, "hand-score")
    score.locator("input.cardlab-answer").fill("minus five")
    score.locator("button.cardlab-check").click()
    wait_text(page, "hand-score", ".cardlab-lesson-feedback.cardlab-lesson-error",
              "a score is a whole number (like -7 or 21), not 'minus five'")
    score.locator("input.cardlab-answer").fill("-5")
    score.locator("input.cardlab-answer").press("Enter")
    wait_text(page, "hand-score", ".cardlab-lesson-feedback.cardlab-right",
              "✔ Right: −5. Kathrine: most blue −5.")
    wait_text(page, "hand-score", ".cardlab-lesson-score", "2 right of 4")
    assert score.locator("input.cardlab-answer").input_value() == "-5"  # kept beside the verdict
    harness.shoot(page, score, f"exercise-{theme}-score-1024x768.png")
    # show me: the answer at once, counted as missed
    shown = root_of(page, "show")
    shown.locator("button.cardlab-show").click()
    wait_text(page, "show", ".cardlab-lesson-feedback.cardlab-shown",
              "The answer: −15. Brad: most black −5, hat −10; in all −15.")
    wait_text(page, "show", ".cardlab-lesson-score", "2 right of 5")
    assert shown.locator("button.cardlab-show").count() == 0
    # an exercise on a position where nobody is to act: its message, no traceback
    bad = root_of(page, "bad")
    assert "hand 1 after 25 actions: nobody is to act (the hand is over)" in \
        bad.locator(".cardlab-lesson-error").text_content()
    assert page.locator(".jp-OutputArea-output[data-mime-type*='stderr']").count() == 0
    check_accessible(page, trick)
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
    prompt = quiz.locator(".cardlab-lesson-prompt").inner_text()
    assert prompt.startswith("Hand 1: you are Brad. What do you make Bob's Hat worth?")
    assert prompt.endswith(f"1 of {len(expected.points)}")
    quiz.locator("button.cardlab-choice[data-value='hat +10']").click()
    wait_text(page, "quiz", ".cardlab-quiz-text", "You chose hat +10; Brad chose hat −10.")
    rows = quiz.locator(".cardlab-quiz-values tr[data-action]")
    assert sorted(rows.evaluate_all("(ns) => ns.map((n) => n.dataset.action)")) == \
        ["hat +10", "hat -10"]
    assert "deals sampled from Brad's view" in quiz.locator(".cardlab-quiz-source").text_content()
    check_accessible(page, quiz)
    harness.shoot(page, quiz, f"quiz-{theme}-reveal-1024x768.png")
    quiz.locator("button.cardlab-quiz-next").click()
    wait_text(page, "quiz", ".cardlab-lesson-progress", f"2 of {len(expected.points)}")
    after = quiz.evaluate("(n) => n.cardlabModel.get('reveal')")
    assert after == {}
