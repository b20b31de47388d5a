"""The front-ends' files and how they are put together (cardlab.view.assets): each widget's
one ES module and stylesheet, and the scripts the standalone page and the handouts inline.
The modules run in a real browser in tests/browser."""

from __future__ import annotations

import re

import pytest
from importpath import PACKAGE

import cardlab
from cardlab.lessons import handouts
from cardlab.lessons.exercises import ExerciseWidget
from cardlab.lessons.quiz import QuizWidget
from cardlab.lessons.recorder import RecorderWidget
from cardlab.view import assets
from cardlab.view.page import page_html
from cardlab.view.widget import ReplayWidget

FRONT_ENDS = sorted(PACKAGE.glob("**/*.js"))
STYLESHEETS = sorted(PACKAGE.glob("**/*.css"))
WIDGETS = {"viewer": ReplayWidget, "exercise": ExerciseWidget, "quiz": QuizWidget,
           "recorder": RecorderWidget}
HELPERS = ("el", "svg", "button", "themeIsDark", "cardFace", "cardBack")


def declared(source: str) -> list[str]:
    """The names a module declares at its top level (functions and constants)."""
    return re.findall(r"^(?:async )?(?:function|const|let|class) ([A-Za-z_$][\w$]*)", source,
                      re.M)


def test_the_front_end_files_insert_text_only():
    assert {p.name for p in FRONT_ENDS} >= {"common.js", "viewer.js", "moves.js", "evaluate.js",
                                            "model.js", "page.js", "lessons.js", "recorder.js",
                                            "verdicts.js", "handout-lessons.js",
                                            "handout-viewers.js"}
    for path in FRONT_ENDS:
        source = path.read_text(encoding="utf-8")
        if path.name == "export.js":  # its one import: the widget's own saved module (below)
            source = source.replace(EXPORT_IMPORT, "", 1)
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                     "new Function", "import(", "fetch(", "XMLHttpRequest"):
            assert sink not in source, (path.name, sink)
        assert not re.search(r"^\s*import\b", source, re.M), path.name  # nothing to load


# export.js draws a viewer in a notebook's HTML export from the widget's saved state, so it
# imports the widget's module from that state (as anywidget does): a Blob of the state's
# `_esm`, made just before. The page's own data, not the network, and nothing else.
EXPORT_IMPORT = ("const url = URL.createObjectURL(new Blob([state._esm], "
                 '{ type: "text/javascript" }));\n  import(url)')


def test_the_export_box_imports_only_the_widgets_saved_module():
    source = (assets.VIEW / "export.js").read_text(encoding="utf-8")
    assert source.count(EXPORT_IMPORT) == 1 and source.count("import(") == 1
    assert "typeof state._esm !== \"string\"" in source


@pytest.mark.parametrize("name", WIDGETS)
def test_each_widget_is_one_module_with_the_shared_helpers_once(name):
    source = WIDGETS[name]._esm
    export = assets.export_line("renderPacked" if name == "viewer" else "render")
    assert isinstance(source, str) and source.endswith(export + "\n")
    assert source.count("export default") == 1 and source.startswith(
        (assets.VIEW / "common.js").read_text(encoding="utf-8").rstrip("\n"))
    names = declared(source)
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    assert set(HELPERS) <= set(names) and "render" in names
    css = WIDGETS[name]._css
    assert isinstance(css, str) and css.startswith(
        (assets.VIEW / "cards.css").read_text(encoding="utf-8").rstrip("\n"))


def test_the_helpers_and_the_card_faces_are_written_once():
    for path in FRONT_ENDS:
        if path.name != "common.js":
            assert not set(HELPERS) & set(declared(path.read_text(encoding="utf-8"))), path.name
    for path in STYLESHEETS:  # the face's colours, rank and mark live in cards.css alone
        if path.name != "cards.css":
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"\.cardlab-(c-[a-z]+|rank|mark|hatmark)\b", text), path.name


def test_the_page_is_its_data_and_the_viewers_script():
    replay = cardlab.example("norwegian-review")
    page = page_html(replay, seat="Brad")
    data_end = page.index('</script>\n<script type="module">\n')
    script = assets.script(*assets.VIEWER, boot=[assets.VIEW / "page.js"])
    assert page[data_end:] == ('</script>\n<script type="module">\n' + script + "</script>\n"
                               "</body></html>\n")
    style = assets.stylesheet(*assets.VIEWER_CSS)
    assert f"<style>\nbody{{margin:0;padding:12px;background:#e9e7df}}\n{style}</style>" in page
    assert script.count("function pageModel(") == 1 and assets.EXPORT not in script


def test_a_handout_inlines_the_viewer_and_the_lessons_with_their_boot_files():
    page = handouts.quiz_handout(cardlab.example("norwegian-review"), "Brad", hand=1,
                                 rollouts=8)
    scripts = re.findall(r'<script type="module">\n(.*?)</script>', page, re.S)
    assert scripts == [assets.script(handouts.LESSONS, boot=handouts.EXERCISES)]
    for boot in handouts.EXERCISES:
        assert boot.read_text(encoding="utf-8").rstrip("\n") in scripts[0]
    assert "function judge" not in page and "function verdict(" in scripts[0]


def test_a_file_that_cannot_be_inlined_is_refused(tmp_path):
    bad = tmp_path / "bad.js"
    bad.write_text('const x = "</script>";\nfunction render() {}\n' + assets.EXPORT + "\n")
    with pytest.raises(RuntimeError, match="cannot be inlined"):
        assets.script(bad, boot=[])
    two = tmp_path / "two.js"
    two.write_text(assets.EXPORT + "\n" + assets.EXPORT + "\n")
    with pytest.raises(RuntimeError, match="one export line"):
        assets.module(two)
    sheet = tmp_path / "bad.css"
    sheet.write_text("/* </style> */")
    with pytest.raises(RuntimeError, match="cannot be inlined"):
        assets.stylesheet(sheet)
