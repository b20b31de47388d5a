"""Offline handouts (cardlab.lessons.handouts): the page's parts, a lesson run into a page, the
quiz's key against the live quiz, the command line. The page in a real browser, offline, is
tests/browser/test_handout_pages.py."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

import cardlab
from cardlab.errors import CardlabError
from cardlab.lessons import handouts
from cardlab.lessons.exercises import make
from cardlab.lessons.quiz import Quiz

ROOT = Path(__file__).resolve().parents[1]
DATA = re.compile(r'<script type="application/json"([^>]*)>(.*?)</script>', re.S)


def embedded(page: str) -> tuple[dict[str, dict], list[dict]]:
    """The page's movies (by key) and lesson specs, checked to be escaped script data."""
    movies, specs = {}, None
    for attrs, text in DATA.findall(page):
        assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}
        if 'id="cardlab-lessons"' in attrs:
            specs = json.loads(text)
        else:
            movies[re.search(r'data-movie="([^"]*)"', attrs).group(1)] = json.loads(text)
    assert specs is not None
    return movies, specs


def self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>")
    assert "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'" in page
    # nothing to load: no src, and links only within the page (a harmful link is defused)
    links = re.findall(r'\b(src|href)\s*=\s*"([^"]*)"', page.split("<script", 1)[0])
    assert all(kind == "href" and url.startswith("#") for kind, url in links), links
    assert "https://" not in page


@pytest.fixture(scope="module")
def review() -> cardlab.Replay:
    return cardlab.example("norwegian-review")


# --- the parts -------------------------------------------------------------------------------

def test_an_exercise_spec_is_the_widgets_question_and_the_engines_verdicts(review):
    for kind, hand, index, options in (("trick-winner", 1, 21, {}),
                                       ("forbidden-bid", 7, 3, {}),
                                       ("legal-plays", 1, 11, {}),
                                       ("hand-score", 2, None, {"seat": "Kathrine"})):
        replay = cardlab.example("teds-game-example") if kind == "forbidden-bid" else review
        exercise = make(kind, replay, hand, index, **options)
        spec = handouts.exercise_spec(exercise)
        assert spec["data"] == exercise.data() and spec["mode"] == "exercise"
        key = spec["key"]
        assert key == exercise.verdicts()
        if kind in ("trick-winner", "forbidden-bid"):  # every answer's verdict, looked up
            assert key["answers"] == {str(v): exercise.check(v).data()
                                      for v, _ in exercise.choices}
        elif kind == "legal-plays":
            assert key["right"] == exercise.check(exercise.legal).data()
            assert key["right"]["correct"] == ["blue15", "blue17"]
            # each card says what choosing it, and leaving it out, gets wrong
            assert {code: (chosen, left) for code, _, chosen, left in key["cards"]} == {
                code: ("", "left") if code in ("blue15", "blue17") else ("chose", "")
                for code, _ in exercise.choices}
        else:
            assert key["answers"] == {"21": exercise.check(21).data()}
            # the sentence the page fills in for a wrong score: the kernel's, around the number
            assert key["wrong"]["text"][0] + "+22" + key["wrong"]["text"][1] == \
                exercise.check(22).data()["text"]
            assert exercise.check(22).data()["text"].startswith("Not +22: Kathrine scores +21.")
    # nothing of the key is in what the widget shows
    assert "correct" not in json.dumps(make("trick-winner", review, 1, 21).data())


def test_the_quiz_key_reveals_what_the_live_quiz_reveals(review):
    quiz = Quiz(review, "Brad", hand=1, rollouts=12, seed=3)
    spec = handouts.quiz_spec(quiz)
    assert spec["seat"] == "Brad" and len(spec["script"]) == len(spec["reveals"]) >= 3
    for k, (entry, reveals) in enumerate(zip(spec["script"], spec["reveals"], strict=True)):
        choices = [value for value, _ in entry["data"]["choices"]]
        assert list(reveals) == choices
        for choice in (choices[0], choices[-1], entry["played"]):
            live = Quiz(review, "Brad", hand=1, rollouts=12, seed=3)
            for _ in range(k):
                live.answer(live.choices()[0])
                live.next()
            assert live.data() == entry["data"]  # the page shows what the widget showed
            shown = live.answer(choice)
            page = reveals[choice]
            for key in ("chosen", "played", "same", "best", "loss", "played_loss", "text",
                        "source", "chosen_text", "played_text"):
                assert page[key] == shown[key], (k, choice, key)
            assert [v[:2] for v in page["values"]] == [v[:2] for v in shown["values"]]


def test_quiz_handout_page(review):
    page = handouts.quiz_handout(review, "Brad", hand=1, rollouts=8)
    self_contained(page)
    movies, specs = embedded(page)
    assert movies == {} and len(specs) == 1 and specs[0]["mode"] == "quiz"
    assert page.count('class="cardlab-handout-exercise" data-spec="0"') == 1
    assert "<title>Quiz: play as Brad" in page
    with pytest.raises(CardlabError, match="Zed"):
        handouts.quiz_handout(review, "Zed")


# --- a lesson --------------------------------------------------------------------------------

def write_notebook(folder: Path, cells: list[tuple[str, str]]) -> Path:
    nb = nbformat.v4.new_notebook(cells=[
        (nbformat.v4.new_markdown_cell if kind == "md" else nbformat.v4.new_code_cell)(
            source, id=f"c{k}") for k, (kind, source) in enumerate(cells)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    path = folder / "lesson.ipynb"
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    return path


def test_a_lesson_becomes_its_text_its_printed_tables_its_viewers_and_exercises(tmp_path):
    path = write_notebook(tmp_path, [
        ("md", "# A *small* lesson\n\nRead **this**. <script>alert(1)</script> "
               "[bad](javascript:alert(1))"),
        ("code", "import cardlab\nfrom cardlab.view import ReplayViewer\n"
                 "from cardlab.lessons.exercises import exercise\n"
                 "review = cardlab.example('norwegian-review')\n"
                 "viewer = ReplayViewer(review, lang='en')\nviewer"),
        ("code", "viewer.goto_action(1, 9)\nprint('after trick', 1)\n'a value'"),
        ("code", "hidden_code = 42"),                      # moves nothing, shows nothing
        ("code", "viewer.set_seat('Brad')\nexercise('trick-winner', review, hand=1, index=21)"),
        ("code", "exercise('forbidden-bid', review, hand=1)"),   # shows its error
    ])
    before = path.read_text(encoding="utf-8")
    page = handouts.lesson_handout(path)
    assert path.read_text(encoding="utf-8") == before and list(tmp_path.iterdir()) == [path]
    self_contained(page)
    assert "<title>A small lesson</title>" in page and "<strong>this</strong>" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "javascript:" not in page
    assert "hidden_code" not in page and "import cardlab" not in page  # no code
    assert ('<pre class="cardlab-handout-output" tabindex="0">after trick 1\n&#x27;a value&#x27;'
            "</pre>") in page
    viewers = re.findall(r'<div class="cardlab-handout-viewer" data-movie="([^"]*)" '
                         r'data-step="(\d+)" data-line="(\d+)" data-seat="([^"]*)">', page)
    cursor = cardlab.Cursor(cardlab.example("norwegian-review"), hand=1)
    after9 = cursor.find(1, 9)
    assert [(int(s), int(line), seat) for _, s, line, seat in viewers] == [
        (0, 0, ""), (after9, 0, ""), (after9, 0, "Brad")]
    movies, specs = embedded(page)
    assert set(movies) == {key for key, *_ in viewers} and len(movies) == 2
    assert movies[viewers[2][0]]["choices"] == ["Brad"]  # the seat's view alone
    assert list(movies[viewers[0][0]]["views"]) == [""]
    assert [s["data"].get("kind") for s in specs] == ["trick-winner", None]
    assert "is about Ted's Game's hook" in specs[1]["error"]
    # text, then each cell's output and blocks, in the lesson's order
    order = [page.index(x) for x in ("<strong>this</strong>", 'data-step="0"', "after trick 1",
                                     'data-seat="Brad"', 'data-spec="0"', 'data-spec="1"')]
    assert order == sorted(order)


def test_the_viewers_show_the_moves_to_come_as_the_lesson_or_the_call_says(tmp_path):
    """A handout's viewer opens with "show moves to come" as the lesson's viewer was made
    (``future=True``), unless ``lesson_handout(..., future=...)`` says for all."""
    path = write_notebook(tmp_path, [
        ("code", "import cardlab\nfrom cardlab.view import ReplayViewer\n"
                 "review = cardlab.example('norwegian-review')\n"
                 "viewer = ReplayViewer(review)\nviewer"),
        ("code", "ahead = ReplayViewer(review, future=True)\nahead"),
    ])

    def hosts(page: str) -> list[bool]:
        found = re.findall(r'<div class="cardlab-handout-viewer" [^>]*>', page)
        assert len(found) == 2, found
        return [" data-future>" in host for host in found]

    assert hosts(handouts.lesson_handout(path)) == [False, True]
    assert hosts(handouts.lesson_handout(path, future=True)) == [True, True]
    assert hosts(handouts.lesson_handout(path, future=False)) == [False, False]


def test_a_failing_lesson_is_one_clear_error(tmp_path):
    path = write_notebook(tmp_path, [("code", "import cardlab\ncardlab.example('nope')")])
    with pytest.raises(CardlabError, match=r"lesson.ipynb: a cell failed while the lesson ran"):
        handouts.lesson_handout(path)
    with pytest.raises(CardlabError, match="not a notebook"):
        handouts.lesson_handout(tmp_path / "missing.ipynb")


def test_the_following_suit_handout_shows_the_lessons_positions():
    page = handouts.lesson_handout(ROOT / "notebooks" / "10-following-suit.ipynb")
    self_contained(page)
    review = cardlab.example("norwegian-review")
    cursor = cardlab.Cursor(review, hand=1)
    steps = [int(s) for s in re.findall(r'data-step="(\d+)"', page)]
    # the review's viewer after trick 1, at Kathrine's turn, after trick 4; then Ted's trick
    assert steps[:3] == [cursor.find(1, 9), cursor.find(1, 11), cursor.find(1, 21)]
    assert len(steps) == 4
    movies, specs = embedded(page)
    assert len(movies) == 2 and [s["data"]["kind"] for s in specs] == ["trick-winner",
                                                                       "legal-plays"]
    assert html.escape("Kathrine must follow blue, the suit led") in page  # printed refusal


# --- the command line ------------------------------------------------------------------------

def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardlab.lessons.handouts", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_the_command_line_writes_the_handouts_and_refuses_in_one_line(tmp_path):
    out = tmp_path / "handouts"
    done = run("--out", str(out), "--quiz", "norwegian-review:Remo")
    assert done.returncode == 0, done.stderr
    assert [p.name for p in out.iterdir()] == ["quiz-norwegian-review-Remo.html"]
    assert done.stdout.startswith(f"wrote {out / 'quiz-norwegian-review-Remo.html'} (")
    for bad, says in (("norwegian-review", "write EXAMPLE:SEAT"),
                      ("no-such-example:Ann", "no-such-example")):
        failed = run("--out", str(tmp_path / "x"), "--quiz", bad)
        assert failed.returncode == 2 and failed.stdout == ""
        lines = failed.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("cardlab handouts: ") and says in lines[0]
        assert not list((tmp_path / "x").glob("*.html"))


def test_make_handouts_is_the_same_command():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "handouts:" in makefile and "-m cardlab.lessons.handouts" in makefile
    assert "handouts/" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()
