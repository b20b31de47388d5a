"""Offline handouts: a lesson notebook, or a quiz, as one self-contained HTML page.

A handout needs no server, no kernel and no network: a teacher e-mails it or puts it on the
school's site, and a student reads it at home. It is built from the same front-ends as the
notebook (issue 6's page, :mod:`cardlab.view.page`): ``viewer.js`` draws each table,
``lessons.js`` each exercise and the quiz, with a small model object in place of the widget's.

- :func:`lesson_handout` executes a lesson notebook (nbclient, from the notebook's folder, as
  ``make lab`` runs it) and writes its text cells as HTML, what its code cells print and the
  tables they show (the tables the text talks about), a viewer at every position the lesson
  shows (after each cell, each viewer whose step, line or seat moved, standing where the
  lesson left it; the reader can step on from there), and every exercise the lesson shows.
  The code itself is left out: the handout is for reading.

**A handout reads as a handout.** What only makes sense in a notebook stays out of it:

- a bare Python value a cell ends with (a dict, a list, a string: its ``repr``) is the
  notebook's way of showing data, and is left out; printed text and tables (a pandas frame,
  whose output has HTML) stay;
- a cell tagged ``notebook-only`` (Lab's property inspector, cell tags) is left out: a text
  cell's words ("Run the cells one by one"), a code cell's printed output (a developer's
  ``print`` of action texts); the viewers and exercises it shows stay;
- a cell's metadata ``"cardlab": {"handout": ...}`` rewords it for the handout: a string is
  Markdown shown in the cell's place (its text, or its output), a list of ``[old, new]``
  pairs replaces those passages of a text cell's Markdown. A passage that is no longer in
  the cell is a :class:`~cardlab.errors.CardlabError`: the rewording would silently stop.
- :func:`quiz_handout` writes the no-peeking quiz of one seat over a replay.

**Answers are checked in the browser.** With no kernel to ask, the page must carry the
answers: each exercise's verdicts (:meth:`~cardlab.lessons.exercises.Exercise.verdicts`, the
feedback of every answer, or for a set of cards and a typed score the words its sentence is
made of, which :meth:`~cardlab.lessons.exercises.Exercise.check` writes with too) and each
quiz decision's key (:meth:`~cardlab.lessons.quiz.Quiz.script`) are in the page's data, as a
printed answer sheet at the back of a book would be. A student who reads the page's source
can find them; the notebook's live widgets never hold them. The page's script
(``verdicts.js``) only looks the answer up and shows what it finds: the rules and the words
are Python's, written once.

The page's scripts are the front-ends' own files, put together by :mod:`cardlab.view.assets`:
the viewer's module booted by ``handout-viewers.js``, ``lessons.js`` booted by
``handout-lessons.js`` (with ``verdicts.js``), each with the stand-in for the widget model
(``view/model.js``).

Every string is data in ``<script type="application/json">`` (escaped as the page escapes
it: :func:`cardlab.view.page.script_json`) and is inserted as text; the lesson's Markdown is
rendered with raw HTML escaped and harmful links removed. The Content-Security-Policy allows
inline script and style only.

>>> import cardlab
>>> page = quiz_handout(cardlab.example("norwegian-review"), "Brad", hand=1, rollouts=8)
>>> page.startswith("<!DOCTYPE html>"), "https://" in page, '"mode":"quiz"' in page
(True, False, True)

From the command line (``make handouts`` runs this for every lesson and one quiz)::

    python -m cardlab.lessons.handouts --out handouts notebooks/10-following-suit.ipynb \\
        --quiz norwegian-review:Brad
"""

from __future__ import annotations

import argparse
import html
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..dataframes import require
from ..errors import CardlabError
from ..files import write_text
from ..replay import Replay
from ..view import assets
from ..view.movie import build_views
from ..view.page import page_movie, script_json
from ..view.wording import pretty

HERE = Path(__file__).parent
NOTEBOOK_ONLY = "notebook-only"  # the cell tag of what a handout leaves out

CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
       "img-src data:")

# The page's scripts: the front-ends (the viewer, lessons.js) and the files that boot them
# on the page's data with a stand-in for the widget model.
LESSONS = HERE / "lessons.js"
VIEWERS = HERE / "handout-viewers.js"
VERDICTS = HERE / "verdicts.js"  # the checker: an answer's verdict, looked up
EXERCISES = (VERDICTS, HERE / "handout-lessons.js")

# The page's own layout: a readable column of text, the tables and exercises full width.
STYLE = """
body{margin:0;padding:12px;background:#f4f2ea;color:#1d1d1b;
  font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.cardlab-handout{max-width:1100px;margin:0 auto}
.cardlab-handout-text{max-width:46em}
.cardlab-handout-text code{background:#e6e2d3;padding:0 .2em;border-radius:3px}
.cardlab-handout pre.cardlab-handout-output{background:#fff;border:1px solid #c9c4b2;
  padding:8px 10px;overflow-x:auto;font-size:14px;line-height:1.35;color:#1d1d1b}
.cardlab-handout-viewer,.cardlab-handout-exercise{margin:14px 0}
.cardlab-handout-caption{font-size:14px;color:#4a4739;margin:10px 0 2px}
@media (prefers-color-scheme: dark){
  body{background:#1e1f1c;color:#ecebe4}
  .cardlab-handout-text code{background:#34352f}
  .cardlab-handout pre.cardlab-handout-output{background:#2a2b27;border-color:#55564e;
    color:#ecebe4}
  .cardlab-handout-caption{color:#c9c7bb}
}
"""

def _css() -> str:
    return STYLE + assets.stylesheet(*assets.VIEWER_CSS, HERE / "lessons.css")


# -- the parts of a page ------------------------------------------------------------------------

def exercise_spec(exercise: Any) -> dict[str, Any]:
    """What the page needs of one exercise: the question as the widget shows it, and the key
    (:meth:`~cardlab.lessons.exercises.Exercise.verdicts`: the verdict of every answer, which
    the page looks up; a page's own, never a widget's)."""
    return {"mode": "exercise", "id": exercise.id, "data": exercise.data(),
            "key": exercise.verdicts()}


def _reveal(quiz: Any, entry: dict[str, Any], action: str) -> dict[str, Any]:
    # what Quiz.answer reveals, from the script's key: the advisor's values are computed once
    from .quiz import compare  # not at the top: quiz.py imports the widget packages

    game = quiz.replay.game
    low = bool(quiz.replay.rules.low_score_wins)
    values = {text: [mean, se] for text, _, mean, se in entry["values"]}
    played = entry["played"]
    row: dict[str, Any] = {"chosen": action, "played": played, "same": action == played,
                           **compare(values, action, played, low, entry["best"])}
    return dict(row, chosen_text=pretty(game, action), played_text=entry["played_text"],
                text=quiz._text(row, game), values=entry["values"], source=entry["source"])


def quiz_spec(quiz: Any) -> dict[str, Any]:
    """What the page needs of a quiz: each decision as shown before the answer, and for
    every choice what the quiz reveals after it (the key)."""
    script = quiz.script()
    reveals = [{action: _reveal(quiz, entry, action) for action, _ in entry["data"]["choices"]}
               for entry in script]
    # the last words, for each number of choices the same as played
    summaries = [f"That was the last decision. You chose as {quiz.name} did {same} "
                 f"time{'' if same == 1 else 's'} out of {len(script)}."
                 for same in range(len(script) + 1)]
    return {"mode": "quiz", "seat": quiz.name, "script": script, "reveals": reveals,
            "summaries": summaries}


def _page(title: str, lang: str, body: list[str], movies: dict[str, dict[str, Any]],
          specs: list[dict[str, Any]]) -> str:
    parts = [
        "<!DOCTYPE html>\n",
        f'<html lang="{html.escape(lang)}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        f"<title>{html.escape(title)}</title><style>\n{_css()}</style></head>",
        '<body><main class="cardlab-handout">\n', "\n".join(body), "\n</main>\n",
    ]
    for key, movie in movies.items():
        parts.append(f'<script type="application/json" class="cardlab-movie" '
                     f'data-movie="{html.escape(key)}">{script_json(movie)}</script>\n')
    parts.append(f'<script type="application/json" id="cardlab-lessons">{script_json(specs)}'
                 "</script>\n")
    if movies:  # the viewer's module, booted on each movie
        parts.append(f'<script type="module">\n{assets.script(*assets.VIEWER, boot=[VIEWERS])}'
                     "</script>\n")
    if specs:  # the exercises' module, booted on the page's key
        parts.append(f'<script type="module">\n{assets.script(LESSONS, boot=EXERCISES)}'
                     "</script>\n")
    parts.append("</body></html>\n")
    return "".join(parts)


def _block(kind: str, index: int) -> str:
    if kind == "exercise":
        return f'<div class="cardlab-handout-exercise" data-spec="{index}"></div>'
    raise ValueError(kind)


def quiz_handout(replay: Replay, seat: int | str, **options: Any) -> str:
    """The page of the no-peeking quiz of ``seat`` over ``replay`` (``options``: the quiz's,
    ``hand``, ``rollouts``, ``seed``, ``bot``, ``advisor``). A seat with no decision is a
    :class:`~cardlab.errors.CardlabError`."""
    from .quiz import Quiz

    quiz = Quiz(replay, seat, **options)
    title = f"Quiz: play as {quiz.name}"
    if replay.meta.get("title"):
        title += f" ({replay.meta['title']})"
    where = f"hand {options['hand']}" if options.get("hand") else "the game"
    intro = (f'<div class="cardlab-handout-text"><h1>{html.escape(title)}</h1><p>You sit in '
             f"{html.escape(quiz.name)}'s place and see only what {html.escape(quiz.name)} saw. "
             f"At each of {html.escape(quiz.name)}'s decisions in {where}, choose what you "
             "would do: the page then shows what was played and what the advisor thought of "
             "each choice.</p></div>")
    return _page(title, "en", [intro, _block("exercise", 0)], {}, [quiz_spec(quiz)])


# -- a lesson notebook --------------------------------------------------------------------------

class Recorder:
    """Runs in the lesson's kernel: after each cell, the viewer positions and the exercises
    the cell showed (``after_cell``); at the end, everything the page needs (``dump``)."""

    def __init__(self) -> None:
        self.blocks: list[dict[str, Any]] = []
        self.viewers: dict[int, Any] = {}
        self.last: dict[int, tuple[Any, ...]] = {}
        self.seen: set[int] = set()
        self.specs: list[dict[str, Any]] = []

    def after_cell(self, cell: int, namespace: dict[str, Any]) -> None:
        from ..view.widget import ReplayViewer
        from .exercises import ExerciseWidget
        from .quiz import QuizWidget

        for name, value in list(namespace.items()):
            if name.startswith("_") or not isinstance(value, ReplayViewer):
                continue
            state = (int(value.widget.line), value.step, value.seat or "", value.lang,
                     value.future)
            if self.last.get(id(value)) != state:
                self.viewers[id(value)] = value
                self.last[id(value)] = state
                self.blocks.append({"cell": cell, "kind": "viewer", "viewer": id(value),
                                    "line": state[0], "step": state[1], "seat": state[2],
                                    "lang": state[3], "future": state[4]})
        shown = namespace.get("_")
        if isinstance(shown, (ExerciseWidget, QuizWidget)) and id(shown) not in self.seen:
            self.seen.add(id(shown))
            if isinstance(shown, ExerciseWidget) and shown.exercise is not None:
                spec = exercise_spec(shown.exercise)
            elif isinstance(shown, QuizWidget) and shown.quiz is not None:
                spec = quiz_spec(shown.quiz)
            else:  # the widget shows why it could not be made: so does the page
                spec = {"mode": "exercise", "id": -len(self.specs) - 1, "data": {},
                        "error": shown.error}
            self.specs.append(spec)
            self.blocks.append({"cell": cell, "kind": "exercise", "spec": len(self.specs) - 1})

    def dump(self, path: str) -> None:
        movies: dict[str, Any] = {}
        for block in self.blocks:
            if block["kind"] != "viewer":
                continue
            viewer = self.viewers[block["viewer"]]
            # by replay, not by viewer: a lesson gives each place a viewer of its own, and
            # the viewers of one replay share its movie
            key = f"{id(viewer.replay)}-{block['seat']}-{block['lang']}"
            if key not in movies:
                if block["seat"]:
                    movies[key] = page_movie(viewer.replay, block["seat"], block["lang"])
                else:
                    views = build_views(viewer.replay, [None], relative=True)
                    movies[key] = page_movie(viewer.replay, None, block["lang"], views=views)
            block["movie"] = key
        Path(path).write_text(json.dumps({"blocks": self.blocks, "movies": movies,
                                          "specs": self.specs}), encoding="utf-8")


RECORDER = Recorder()
_HOOK = "__import__('cardlab.lessons.handouts', fromlist=['RECORDER']).RECORDER"


def _markdown() -> Any:
    mistune = require("mistune")  # nbconvert's Markdown renderer, in the notebook extra
    return mistune.create_markdown(escape=True, plugins=["table", "strikethrough"])


def _outputs(cell: Any) -> list[str]:
    """What a code cell printed and the tables it showed, as the handout shows them; a bare
    Python value it ended with is left out (see the module's docstring)."""
    out = []
    for item in cell.get("outputs", []):
        if item.output_type == "stream" and item.name == "stdout":
            out.append(item.text)
        elif item.output_type == "execute_result":
            data = item.get("data", {})
            if "text/html" not in data or "text/plain" not in data or \
                    "application/vnd.jupyter.widget-view+json" in data:
                continue  # a widget (drawn by its block), or a bare value: the notebook's
            out.append(data["text/plain"] + "\n")
    text = "".join(out).rstrip("\n")
    # focusable: a wide table scrolls sideways, and a keyboard must reach it
    return [f'<pre class="cardlab-handout-output" tabindex="0">{html.escape(text)}</pre>'
            ] if text else []


def _reworded(cell: Any, where: str) -> str | None:
    """The Markdown a cell's ``cardlab.handout`` metadata puts in its place (a text cell's
    own with its passages replaced), None when it has none."""
    said = (cell.get("metadata", {}).get("cardlab") or {}).get("handout")
    if said is None:
        return None
    if isinstance(said, str):
        return said
    if cell.cell_type != "markdown" or not isinstance(said, list) or not all(
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(t, str) for t in pair)
            for pair in said):
        raise CardlabError(f"{where}: the handout's words are Markdown, or (a text cell's) "
                           "a list of [passage, its handout words] pairs")
    text = cell.source
    for old, new in said:
        if old not in text:
            raise CardlabError(f"{where}: the handout rewords {old!r}, which the cell no "
                               "longer says")
        text = text.replace(old, new)
    return text


def _cell_blocks(cell: Any, where: str, markdown: Any) -> list[str]:
    """A cell of the lesson as the handout shows it (its viewers and exercises aside)."""
    if NOTEBOOK_ONLY in (cell.get("metadata", {}).get("tags") or ()):
        return []
    reworded = _reworded(cell, where)
    if reworded is not None:
        return [f'<div class="cardlab-handout-text">{markdown(reworded)}</div>']
    if cell.cell_type == "markdown":
        return [f'<div class="cardlab-handout-text">{markdown(cell.source)}</div>']
    if cell.cell_type == "code":
        return _outputs(cell)
    return []


def lesson_handout(notebook: str | os.PathLike[str], timeout: int = 600,
                   future: bool | None = None) -> str:
    """Execute the lesson ``notebook`` and return its handout page (see the module's
    docstring). A cell that fails is a :class:`~cardlab.errors.CardlabError` naming it.

    Each viewer's move list shows the moves up to where it stands, as the lesson's viewer did
    (its ``future``); ``future=True`` or ``False`` opens every viewer of the page with *show
    moves to come* on or off (the reader can switch it)."""
    nbformat = require("nbformat")
    nbclient = require("nbclient")
    path = Path(notebook)
    try:
        nb = nbformat.read(path, as_version=4)
    except (OSError, ValueError) as err:
        raise CardlabError(f"{path}: not a notebook cardlab can read ({err})") from None
    for k, cell in enumerate(nb.cells):  # a stale rewording is refused before the lesson runs
        _reworded(cell, f"{path.name}: cell {k + 1}")
    cells = []
    for k, cell in enumerate(nb.cells):
        cells.append(cell)
        if cell.cell_type == "code":
            cells.append(nbformat.v4.new_code_cell(f"{_HOOK}.after_cell({k}, globals())",
                                                   id=f"handout-{k}"))
    with tempfile.TemporaryDirectory() as tmp:
        dump = Path(tmp) / "handout.json"
        cells.append(nbformat.v4.new_code_cell(f"{_HOOK}.dump({str(dump)!r})", id="handout-end"))
        nb.cells = cells
        client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=timeout,
                                         store_widget_state=False,
                                         resources={"metadata": {"path": str(path.parent)}})
        try:
            client.execute()
        except nbclient.exceptions.CellExecutionError as err:
            first = str(err).strip().splitlines()[-1] if str(err).strip() else "an error"
            raise CardlabError(f"{path}: a cell failed while the lesson ran: {first}") from None
        record = json.loads(dump.read_text(encoding="utf-8"))
    markdown = _markdown()
    after: dict[int, list[dict[str, Any]]] = {}
    for block in record["blocks"]:
        after.setdefault(block["cell"], []).append(block)
    body: list[str] = []
    title, lang = path.stem, ""
    originals = [c for c in nb.cells if not c.get("id", "").startswith("handout-")]
    for k, cell in enumerate(originals):
        if cell.cell_type == "markdown" and title == path.stem:
            heads = [line[2:].strip() for line in cell.source.splitlines()
                     if line.startswith("# ")]
            title = heads[0].replace("*", "") if heads else title
        body.extend(_cell_blocks(cell, f"{path.name}: cell {k + 1}", markdown))
        for block in after.get(k, []):
            if block["kind"] == "viewer":
                lang = lang or block["lang"]  # the page's language: its first viewer's
                ahead = block.get("future") if future is None else future
                body.append(f'<div class="cardlab-handout-viewer" data-movie="'
                            f'{html.escape(block["movie"])}" data-step="{block["step"]}" '
                            f'data-line="{block["line"]}" data-seat="'
                            f'{html.escape(block["seat"])}"'
                            f'{" data-future" if ahead else ""}></div>')
            else:
                body.append(_block("exercise", block["spec"]))
    return _page(title, lang or "en", body, record["movies"], record["specs"])


# -- the command line ---------------------------------------------------------------------------

def write_handouts(out: str | os.PathLike[str], notebooks: Sequence[str],
                   quizzes: Sequence[str] = (), future: bool | None = None) -> list[Path]:
    """Write a handout per lesson notebook (``<stem>.html``) and per quiz
    (``"EXAMPLE:SEAT"``, ``quiz-<example>-<seat>.html``) into ``out``; return the paths.
    ``future``: the lessons' viewers open with *show moves to come* on or off
    (:func:`lesson_handout`; None: as each lesson's viewer was)."""
    import cardlab

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for notebook in notebooks:
        target = folder / (Path(notebook).stem + ".html")
        write_text(target, lesson_handout(notebook, future=future))
        written.append(target)
    for entry in quizzes:
        name, sep, seat = entry.partition(":")
        if not sep or not seat:
            raise CardlabError(f"--quiz {entry!r}: write EXAMPLE:SEAT, e.g. norwegian-review:Brad")
        target = folder / f"quiz-{name}-{seat}.html".replace(" ", "-")
        write_text(target, quiz_handout(cardlab.example(name), seat))
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardlab.lessons.handouts",
                                     description="Write offline handouts of lessons and quizzes.")
    parser.add_argument("notebooks", nargs="*", help="lesson notebooks")
    parser.add_argument("--out", default="handouts", help="the folder (default: handouts)")
    parser.add_argument("--quiz", action="append", default=[], metavar="EXAMPLE:SEAT",
                        help="a quiz over a shipped example replay, from one seat")
    parser.add_argument("--future", action="store_true", default=None,
                        help="open every viewer with the moves to come written out (by "
                             "default each shows the moves up to where the lesson left it)")
    args = parser.parse_args(argv)
    try:
        for path in write_handouts(args.out, args.notebooks, args.quiz, future=args.future):
            print(f"wrote {path} ({path.stat().st_size // 1024} kB)")
    except CardlabError as err:
        print(f"cardlab handouts: {err}", file=sys.stderr)
        return 2
    return 0


__all__ = ["RECORDER", "Recorder", "exercise_spec", "lesson_handout", "main", "quiz_handout",
           "quiz_spec", "write_handouts"]

if __name__ == "__main__":
    sys.exit(main())
