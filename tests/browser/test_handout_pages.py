"""Offline handouts (cardlab.lessons.handouts) in a real browser with no network.

Every request that is not for a ``file:`` URL is aborted and recorded, and so are failed
loads, console errors and page errors (harness.Offline): a handout has none. A lesson's
handout shows its viewers at the positions the lesson shows, and they step; its exercises
are answered by clicking and typing, and every feedback the page writes is the one the
kernel would give (the engine's ``check``), for right, wrong and bad answers; the session's
score counts first answers. The quiz is answered and stepped to its end, each reveal the
live quiz's. The page's checker (verdicts.js, run in Chromium) gives, from the verdicts Python
put in the page, the very feedback of ``check`` for every answer: every choice, every set of
cards, typed scores right, wrong and bad.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import expect
import harness
import pytest
import views

import cardlab
from cardlab.errors import CardlabError
from cardlab.lessons import handouts
from cardlab.lessons.exercises import make
from cardlab.lessons.quiz import Quiz
from cardlab.view.movie import build_movie

pytestmark = pytest.mark.browser

NOTEBOOKS = harness.ROOT / "notebooks"
QUIZ = {"hand": 1, "rollouts": 12, "seed": 5}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("handouts")
    out = {"following": folder / "following.html", "bobs": folder / "bobs.html",
           "teds": folder / "teds.html", "quiz": folder / "quiz.html"}
    out["following"].write_text(handouts.lesson_handout(NOTEBOOKS / "10-following-suit.ipynb"),
                                encoding="utf-8")
    out["bobs"].write_text(handouts.lesson_handout(NOTEBOOKS / "11-bobs-hat-lesson.ipynb"),
                           encoding="utf-8")
    out["teds"].write_text(handouts.lesson_handout(NOTEBOOKS / "12-teds-game-lesson.ipynb"),
                           encoding="utf-8")
    review = cardlab.example("norwegian-review")
    out["quiz"].write_text(handouts.quiz_handout(review, "Brad", **QUIZ), encoding="utf-8")
    return out


def open_offline(browser: Any, path: Path) -> tuple[Any, harness.Offline]:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    offline = harness.Offline(page)
    page.goto(path.as_uri())
    page.wait_for_selector(".cardlab-lesson")
    return page, offline


def no_problems(offline: harness.Offline) -> None:
    problems = {k: v for k, v in offline.problems().items() if v}
    assert not problems, problems


def feedback(box: Any) -> str:
    return str(box.locator(".cardlab-lesson-feedback").inner_text()).strip()


def test_a_lesson_handout_offline_viewers_and_exercises(chromium, pages):
    review = cardlab.example("norwegian-review")
    cursor = cardlab.Cursor(review, hand=1)
    page, offline = open_offline(chromium, pages["following"])
    viewers = page.locator(".cardlab-handout-viewer .cardlab-viewer")
    assert viewers.count() == 4
    # the first three stand where the lesson talks about them: after trick 1, Kathrine's
    # turn in trick 2, after trick 4
    steps = [cursor.find(1, 9), cursor.find(1, 11), cursor.find(1, 21)]
    for k, step in enumerate(steps):
        viewer = viewers.nth(k)
        assert viewer.get_attribute("data-step") == str(step)
        assert viewer.locator(".cardlab-counter").inner_text().startswith(f"step {step} of ")
    assert "Brad's trick" in page.locator(".cardlab-handout-viewer").nth(2).inner_text()
    # and they step on, offline
    first = viewers.nth(0)
    first.focus()
    first.press("ArrowRight")
    assert first.get_attribute("data-step") == str(steps[0] + 1)
    assert viewers.nth(1).get_attribute("data-step") == str(steps[1])  # each on its own

    exercises = page.locator(".cardlab-handout-exercise")
    assert exercises.count() == 2
    winner, legal = exercises.nth(0), exercises.nth(1)
    trick = make("trick-winner", review, 1, 21)
    assert winner.locator(".cardlab-lesson-prompt").inner_text() == trick.prompt
    winner.locator('button.cardlab-choice[data-value="red20"]').click()
    assert feedback(winner) == "✘ " + trick.check("red20").text
    assert "Score this session: 0 right of 1" in winner.inner_text()
    winner.locator('button.cardlab-choice[data-value="black3"]').click()
    assert feedback(winner) == "✔ " + trick.check("black3").text
    assert "Score this session: 0 right of 1" in winner.inner_text()  # the first answer counts

    plays = make("legal-plays", review, 1, 15)
    legal.locator('button.cardlab-choice[data-value="red12"]').click()
    legal.locator("button.cardlab-check").click()
    assert feedback(legal) == "✘ " + plays.check(["red12"]).text
    legal.locator('button.cardlab-choice[data-value="red12"]').click()  # unpick it
    legal.locator('button.cardlab-choice[data-value="black15"]').click()
    legal.locator("button.cardlab-check").click()
    assert feedback(legal) == "✔ " + plays.check(["black15"]).text
    legal.locator("button.cardlab-check").click()
    for box in (winner, legal):  # one score for the page's session, shown on each exercise
        assert "Score this session: 0 right of 2" in box.inner_text()
    no_problems(offline)
    page.close()


def test_a_handouts_viewer_keeps_the_moves_to_come(chromium, pages):
    """The handout's first viewer stands after trick 1, as the lesson left it: its move list
    writes out the moves made by then and counts the rest, and the reader can show them."""
    review = cardlab.example("norwegian-review")
    movie = build_movie(review)
    step = cardlab.Cursor(review, hand=1).find(1, 9)
    page, offline = open_offline(chromium, pages["following"])
    viewer = page.locator(".cardlab-handout-viewer .cardlab-viewer").first
    shown = views.move_list(viewer)
    wanted = expect.move_list(movie, step)
    assert shown["moves"] == wanted["moves"] and len(shown["moves"]) == step
    assert shown["later"] == wanted["later"] == [
        f"{len(review.hands[0].actions) - step} moves to come",
        f"{len(review.hands[1].actions)} moves to come"]
    assert not shown["toggle"]["checked"]
    viewer.locator("input.cardlab-future-toggle").check()
    assert views.move_list(viewer)["moves"] == expect.move_list(movie, step, future=True)["moves"]
    no_problems(offline)
    page.close()


def test_a_typed_score_right_wrong_and_bad(chromium, pages):
    review = cardlab.example("norwegian-review")
    page, offline = open_offline(chromium, pages["bobs"])
    kathrine = page.locator(".cardlab-handout-exercise").nth(0)
    exercise = make("hand-score", review, 2, seat="Kathrine")
    box = kathrine.locator("input.cardlab-answer")
    box.fill("abc")
    kathrine.locator("button.cardlab-check").click()
    with pytest.raises(CardlabError) as err:
        exercise.check("abc")
    assert feedback(kathrine) == str(err.value)
    assert "Score this session: 0 right of 0" in kathrine.inner_text()  # not an answer
    for typed in ("5", "\u22125", "-10"):
        box.fill(typed)
        kathrine.locator("button.cardlab-check").click()
        assert feedback(kathrine) == "✘ " + exercise.check(typed).text, typed
    box.fill("21")
    box.press("Enter")
    assert feedback(kathrine) == "✔ " + exercise.check("21").text
    assert "Score this session: 0 right of 1" in kathrine.inner_text()
    brad = page.locator(".cardlab-handout-exercise").nth(1)
    brad.locator("input.cardlab-answer").fill("-15")
    brad.locator("button.cardlab-check").click()
    assert feedback(brad).startswith("✔ Right: −15.")
    assert "Score this session: 1 right of 2" in brad.inner_text()
    quiz = page.locator(".cardlab-handout-exercise").nth(2).locator(".cardlab-lesson")
    assert quiz.get_attribute("data-mode") == "quiz"  # the lesson's quiz: Brad in hand 2
    assert quiz.locator(".cardlab-lesson-progress").inner_text() == "decision 1"
    no_problems(offline)
    page.close()


def first_position(kind: str, replay: cardlab.Replay, hand: int, **options: Any) -> Any:
    """The exercise of ``kind`` at the first position of ``hand`` that suits it."""
    for index in range(len(replay.line(hand)) + 1):
        try:
            return make(kind, replay, hand, index, **options)
        except CardlabError:
            continue
    raise AssertionError(f"no position of hand {hand} suits {kind}")


def test_a_bid_right_and_wrong_in_a_handout_is_the_kernels_verdict(chromium, pages):
    teds = cardlab.example("teds-game-example")
    exercise = first_position("forbidden-bid", teds, 7)  # the dealer's bid (the lesson's)
    page, offline = open_offline(chromium, pages["teds"])
    box = page.locator(".cardlab-handout-exercise").nth(0)
    assert box.locator(".cardlab-lesson-prompt").inner_text() == exercise.prompt
    wrong = next(v for v, _ in exercise.choices if v != exercise.forbidden)
    box.locator(f'button.cardlab-choice[data-value="{wrong}"]').click()
    assert feedback(box) == "✘ " + exercise.check(wrong).text
    assert box.locator(f'button.cardlab-no[data-value="{wrong}"]').count() == 1
    box.locator(f'button.cardlab-choice[data-value="{exercise.forbidden}"]').click()
    assert feedback(box) == "✔ " + exercise.check(exercise.forbidden).text
    assert "Score this session: 0 right of 1" in box.inner_text()  # the first answer counts
    no_problems(offline)
    page.close()


def kernel(exercise: Any, given: Any) -> dict[str, Any]:
    """What the kernel answers: the feedback of ``check``, or the refusal of a bad answer."""
    try:
        return dict(exercise.check(given).data())
    except CardlabError as err:
        return {"error": str(err)}


VERDICT_CASES = [("norwegian-review", "trick-winner", 1, {}),
                 ("teds-game-example", "trick-winner", 2, {}),
                 ("teds-game-example", "forbidden-bid", 7, {}),
                 ("teds-game-example", "forbidden-bid", 2, {}),
                 ("norwegian-review", "legal-plays", 1, {}),
                 ("norwegian-review", "legal-plays", 2, {}),
                 ("teds-game-example", "legal-plays", 3, {}),
                 ("whot-example", "legal-plays", 1, {}),
                 ("norwegian-review", "hand-score", 2, {"seat": "Kathrine"}),
                 ("norwegian-review", "hand-score", 1, {"seat": "Brad"}),
                 ("teds-game-example", "hand-score", 7, {"seat": 0}),
                 ("whot-example", "hand-score", 1, {"seat": 1})]


def test_the_pages_checker_gives_the_kernels_verdict_for_every_answer(chromium):
    cases, expected = [], []
    for name, kind, hand, options in VERDICT_CASES:
        replay = cardlab.example(name)
        exercise = (make(kind, replay, hand, None, **options) if kind == "hand-score"
                    else first_position(kind, replay, hand, **options))
        key = handouts.exercise_spec(exercise)["key"]
        if kind == "legal-plays":  # every set of the cards offered, in two orders
            codes = [v for v, _ in exercise.choices]
            answers: list[Any] = [list(chosen)[::step] for n in range(len(codes) + 1)
                                  for chosen in itertools.combinations(codes, n)
                                  for step in (1, -1)]
        elif kind == "hand-score":
            score = exercise.score
            answers = [str(score), f" {score} ", f"+{abs(score)}", f"\u2212{abs(score)}",
                       str(score + 1), str(score - 1), "0", "-0", "+0", "007", "-12",
                       "\u22125", "99999999999999999999", "abc", "", "5.5", "1_000", "--5",
                       "+-1", "\u0665", "2 1"]
        else:
            answers = [v for v, _ in exercise.choices]
        cases += [[key, given] for given in answers]
        expected += [kernel(exercise, given) for given in answers]
    page = chromium.new_page()
    page.set_content("<!DOCTYPE html><title>verdicts</title>")
    page.add_script_tag(content=handouts.VERDICTS.read_text(encoding="utf-8"))
    shown = page.evaluate("(cases) => cases.map(([key, value]) => verdict(key, value))", cases)
    page.close()
    assert len(shown) == len(expected) > 500
    for case, got, want in zip(cases, shown, expected, strict=True):
        assert got == want, case[1]


def test_the_quiz_handout_answered_to_its_end(chromium, pages):
    review = cardlab.example("norwegian-review")
    live = Quiz(review, "Brad", **QUIZ)
    page, offline = open_offline(chromium, pages["quiz"])
    quiz = page.locator(".cardlab-lesson[data-mode='quiz']")
    same = 0
    k = 0
    while not live.done:
        k += 1
        assert quiz.locator(".cardlab-lesson-progress").inner_text() == f"decision {k}"
        assert quiz.locator(".cardlab-quiz-reveal").count() == 0  # nothing shown before
        labels = quiz.locator("button.cardlab-choice")
        assert [labels.nth(i).get_attribute("data-value") for i in range(labels.count())] == \
            live.choices()
        choice = live.choices()[-1]
        quiz.locator(f'button.cardlab-choice[data-value="{choice}"]').click()
        shown = live.answer(choice)
        same += shown["same"]
        assert quiz.locator(".cardlab-quiz-text").inner_text() == shown["text"]
        rows = quiz.locator("table.cardlab-quiz-values tr[data-action]")
        assert [rows.nth(i).get_attribute("data-action") for i in range(rows.count())] == [
            v[0] for v in shown["values"]]
        assert quiz.locator(f'button.cardlab-played[data-value="{shown["played"]}"]').count()
        quiz.locator("button.cardlab-quiz-next").click()
        live.next()
    assert k >= 3
    end = quiz.locator(".cardlab-lesson-prompt").inner_text()
    assert end == (f"That was the last decision. You chose as Brad did {same} "
                   f"time{'' if same == 1 else 's'} out of {k}.")
    no_problems(offline)
    page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_handout_is_accessible_in_light_and_dark(chromium, pages, scheme):
    page = chromium.new_page(viewport={"width": 1100, "height": 900}, color_scheme=scheme)
    offline = harness.Offline(page)
    page.goto(pages["bobs"].as_uri())
    page.wait_for_selector(".cardlab-lesson")
    exercise = page.locator(".cardlab-handout-exercise").nth(0)
    exercise.locator("input.cardlab-answer").fill("3")
    exercise.locator("button.cardlab-check").click()  # the feedback box is checked too
    views.check_accessible(page, page.locator("main"), "main")
    no_problems(offline)
    page.close()
