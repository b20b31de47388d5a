"""What showing a replay costs a saved notebook, and what a notebook shows without the viewer.

A notebook is executed with nbclient in a real kernel (widget state stored, as ``jupyter
nbconvert --execute`` stores it), saved as nbformat writes it, and measured: showing the
19-hand Ted's Game example adds at most 250 kB (it added 2.8 MB: the movie as indented JSON in
the widget state plus a 1 MB copy of the page in an iframe). A kernel where anywidget cannot
be imported shows a replay as its summary and the line that says what to install.

The viewer as a view (docs/viewer.md): moving it returns None, ``at=`` opens it anywhere,
``write_page`` returns the path it wrote.
"""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

import nbformat
import pytest

import cardlab
from cardlab.errors import CardlabError
from cardlab.view.movie import compact_json
from cardlab.view.page import page_html, write_page
from cardlab.view.widget import ReplayViewer, pack

ROOT = Path(__file__).resolve().parents[1]
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
BUDGET = 250_000  # bytes a shown Ted's Game example may add to a saved notebook


def executed(*sources: str, allow_errors: bool = False) -> nbformat.NotebookNode:
    """A notebook of ``sources`` run in this Python's kernel, widget state stored (with
    ``allow_errors``, a cell that raises keeps its error output and the run goes on)."""
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    NotebookClient(nb, kernel_name="python3", timeout=240, store_widget_state=True,
                   allow_errors=allow_errors,
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    return nb


def saved_size(nb: nbformat.NotebookNode, folder: Path, name: str) -> int:
    path = folder / name
    nbformat.write(nb, path)
    return path.stat().st_size


TEDS = 'import cardlab\nreplay = cardlab.example("teds-game-example")'


@pytest.fixture(scope="module")
def sizes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("saved")
    bare = executed(TEDS, "len(replay.hands)")
    once = executed(TEDS, "replay")
    twice = executed(TEDS, "replay", "from cardlab.view import ReplayViewer\n"
                                     "ReplayViewer(replay, at=-1)")
    return {"bare": saved_size(bare, folder, "bare.ipynb"),
            "once": saved_size(once, folder, "once.ipynb"),
            "twice": saved_size(twice, folder, "twice.ipynb"), "notebook": once}


def test_showing_the_teds_example_adds_at_most_250_kb_to_a_saved_notebook(sizes):
    added = sizes["once"] - sizes["bare"]
    print(f"saved: without the viewer {sizes['bare']} B, with it {sizes['once']} B, "
          f"with two {sizes['twice']} B")
    assert 0 < added <= BUDGET, added
    assert sizes["twice"] - sizes["bare"] <= 2 * BUDGET


def test_the_saved_notebook_holds_the_movie_once_packed(sizes):
    nb = sizes["notebook"]
    models = nb.metadata["widgets"][WIDGET_STATE]["state"]
    viewers = [m["state"] for m in models.values() if "packed" in m["state"]]
    assert len(viewers) == 1 and "movie" not in viewers[0]  # the movie stays in the kernel
    movie = json.loads(gzip.decompress(base64.b64decode(viewers[0]["packed"])))
    replay = cardlab.example("teds-game-example")
    assert movie["title"] == replay.meta["title"] and len(movie["views"]) == 5
    outputs = nb.cells[1].outputs
    model_id = outputs[0].data[WIDGET_VIEW]["model_id"]
    assert models[model_id]["state"] is viewers[0]
    box = outputs[1].data["text/html"]  # the export's box: no second copy of anything
    assert f'data-cardlab-model="{model_id}"' in box and len(box) < 10_000
    assert viewers[0]["packed"][:40] not in box and "function render(" not in box
    assert len(page_html(replay)) > 400_000  # what the box carried before, escaped


def test_pack_is_gzipped_compact_json_and_reproducible():
    movie = cardlab.view.build_movie(cardlab.example("norwegian-review"))
    packed = pack(movie)
    assert gzip.decompress(base64.b64decode(packed)).decode("utf-8") == compact_json(movie)
    assert pack(movie) == packed and len(packed) < len(compact_json(movie)) / 4


def test_without_anywidget_a_replay_shows_its_summary_and_what_to_install():
    nb = executed('import sys\nsys.modules["anywidget"] = None  # as if it were not installed',
                  'import cardlab\ncardlab.example("teds-game-example")',
                  '[cardlab.example("norwegian-review")]')
    shown, listed = nb.cells[1].outputs, nb.cells[2].outputs
    assert [o.output_type for o in shown] == ["display_data"]  # no error, no traceback
    assert set(shown[0].data) == {"text/plain"}
    text = shown[0].data["text/plain"]
    assert text == ("Ted's Game: four players, nineteen hands, and the dealer's hook: Ann, Ben, "
                    "Cleo and Dev; 19 hands.\nTo step through it here, install the viewer: "
                    "pip install 'cardlab[widgets]'")
    # a replay's repr is one line, not the dataclass's every action
    one_line = "[<Replay bobs-hat: Tone, Remo, Kathrine, Brad; 2 hands>]"
    assert listed[0].data["text/plain"] == one_line
    assert not nb.metadata.get("widgets")


def test_a_cardlab_error_in_a_notebook_is_one_line_not_a_traceback():
    """IPython shows a CardlabError as the line its ``_render_traceback_`` gives: importing the
    viewer or the exercises without anywidget says what to install; a user's bad file says
    which and why. An error that is not cardlab's keeps its traceback."""
    nb = executed('import sys\nsys.modules["anywidget"] = None  # as if it were not installed',
                  "from cardlab.view import ReplayViewer",
                  "import cardlab.lessons.exercises",
                  'import cardlab\ncardlab.load("no-such-replay.json")',
                  "def broken():\n    return 1 / 0\nbroken()", allow_errors=True)
    install = ("MissingExtraError: anywidget is needed for this (it is not installed: import "
               "of anywidget halted; None in sys.modules); install it with: "
               "pip install 'cardlab[widgets]'")
    shown = []
    for cell in nb.cells[1:]:
        (output,) = cell.outputs
        assert output.output_type == "error"
        shown.append(output.traceback)
    assert shown[0] == shown[1] == [install]
    assert shown[2] == ["ReplayError: no-such-replay.json: no such file"]
    assert len(shown[3]) > 1 and "ZeroDivisionError" in shown[3][-1]  # a bug keeps its stack


# -- a viewer is a view -------------------------------------------------------------------

@pytest.fixture()
def review() -> cardlab.Replay:
    return cardlab.example("norwegian-review")


MOVES = {
    "goto": (5,), "next": (), "prev": (), "first": (), "last": (), "goto_hand": (2,),
    "goto_trick": (1, 4), "goto_action": (1, 19), "set_seat": ("Brad",), "set_lang": ("no",),
    "set_line": (0,), "set_evaluate": (True,),
}


@pytest.mark.parametrize("name", sorted(MOVES))
def test_moving_or_reconfiguring_a_viewer_returns_none(review, name):
    viewer = ReplayViewer(review)
    assert getattr(viewer, name)(*MOVES[name]) is None  # a cell ending in it shows nothing


def test_a_cell_ending_in_a_move_explore_or_evaluate_shows_no_viewer_again():
    """In a kernel: the viewer is shown once; a cell ending in each method that moves or
    reconfigures it shows nothing, ``explore`` shows its Branch as one line, and
    ``evaluate`` shows nothing (its values are on the viewer); no cell shows a widget again."""
    calls = [f"viewer.{name}({', '.join(map(repr, args))})" for name, args in sorted(MOVES.items())]
    nb = executed("import cardlab\nfrom cardlab.view import ReplayViewer\n"
                  "viewer = ReplayViewer(cardlab.example('norwegian-review'))\nviewer",
                  *calls, "viewer.set_seat(None)\nviewer.set_lang('en')\n"
                  "viewer.goto_action(1, 19)",
                  "viewer.explore('play black12', seed=1)",
                  "viewer.set_line(0)\nviewer.goto_action(1, 19)",
                  "viewer.evaluate(rollouts=4, bot='random')",
                  "(viewer.widget.line, viewer.step, viewer.widget.evaluate)")
    first, *cells, where = nb.cells
    assert WIDGET_VIEW in first.outputs[0].data  # shown once, by the cell that made it
    shown = {cell.source.splitlines()[-1]: [o.output_type for o in cell.outputs]
             for cell in cells}
    branch = shown.pop("viewer.explore('play black12', seed=1)")
    assert set(map(tuple, shown.values())) == {()}, shown  # nothing at all
    assert branch == ["execute_result"]
    (result,) = nb.cells[-4].outputs
    assert set(result.data) == {"text/plain"}  # the Branch's line, no widget
    assert result.data["text/plain"].startswith(
        "<Branch hand 1, action 20, Brad: play black 12 (+5 more); hand scores, line → "
        "variation: Tone ")
    assert where.outputs[0].data["text/plain"] == "(0, 19, True)"  # the values are shown
    assert not [o for cell in nb.cells[1:] for o in cell.outputs
                if WIDGET_VIEW in o.get("data", {})]


def test_at_opens_a_viewer_where_it_is_asked(review):
    assert ReplayViewer(review).step == 0
    assert ReplayViewer(review, at=12).step == 12
    last = ReplayViewer(review, at=-1)
    assert last.step == 55 and last.frame()["res"].startswith("Hand 2 is over")
    brad = ReplayViewer(review, seat="Brad", at=(1, 19))  # hand 1, after 19 actions
    assert brad.step == 19 and brad.seat == "Brad" and brad.trick_cards() == ["red12", "red20"]
    second = ReplayViewer(review, at=(2, 0))
    assert second.frame()["hn"] == 2 and second.position["action"] is None
    with pytest.raises(CardlabError, match="hands count from 1"):
        ReplayViewer(review, at=(3, 0))
    with pytest.raises(CardlabError, match="hand 1 has steps 0 to 25"):
        ReplayViewer(review, at=(1, 26))


def test_write_page_returns_the_path_it_wrote(review, tmp_path):
    path = write_page(review, tmp_path / "brad.html", seat="Brad")
    assert path == tmp_path / "brad.html" and isinstance(path, Path)
    assert path.read_text(encoding="utf-8") == page_html(review, seat="Brad")
    assert write_page(review, str(tmp_path / "all.html")) == tmp_path / "all.html"
