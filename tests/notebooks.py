"""Run the notebooks under ``notebooks/`` as tests, and keep the committed files clean.

What students read carries no test code: a notebook's checks live in a test module, which
executes the notebook with nbclient and *probes* it. A probe is a Python expression that runs
in the notebook's own kernel, in a cell inserted right after a given cell at test time (the
file on disk is never written), and whose value comes back to the test as JSON::

    run = execute("03-teds-game.ipynb", {"cell-04": "{'bids': pos['bids']}"})
    assert run.probes["cell-04"]["bids"] == [...]

A probe sees the notebook exactly as the cell before it left it, so a check on an intermediate
state (the trick after one click of *next*) needs no assert in the notebook. Probes only read:
the next cell must find the kernel as the notebook left it.

Every execution also reads, after each code cell, where each viewer the notebook holds by
name stands (``Run.places``), so a test can check that Run All leaves every viewer shown
where its cell put it (``Run.moved_viewers``): a displayed viewer is a view, not a cursor a
later cell moves.

A notebook checked this way says so in its metadata, ``"cardlab": {"executed_by": "<test
file>"}``; ``make test`` leaves such notebooks out of its nbval run (they are executed once,
by their test), and tests/test_notebooks.py checks that the flag and the tests agree.

Committed notebooks carry no outputs, execution counts, widget state, or the other run-time
state JupyterLab saves (`problems`); `strip` removes it. From the repository root::

    .venv/bin/python tests/notebooks.py --strip notebooks/*.ipynb   # clean them in place
    .venv/bin/python tests/notebooks.py                             # list what is not clean

As a git clean filter, git itself commits every notebook stripped (a run leaves no diff)::

    git config filter.notebook-strip.clean ".venv/bin/python tests/notebooks.py --filter"
    echo 'notebooks/**/*.ipynb filter=notebook-strip' >> .git/info/attributes

>>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1", id="a")])
>>> nb.cells[0].execution_count = 1
>>> problems(nb)
['cell 1 (a): execution count 1']
>>> problems(strip(nb))
[]
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"

#: The notebook metadata entry naming the test that executes a notebook (nbval skips those).
EXECUTED_BY = "executed_by"

# Run-time state a save in JupyterLab (or an nbconvert run) writes into the file: a diff for
# nothing. The keys are nbstripout's defaults; language_info keeps only the language's name
# (the rest, down to the patch version of Python, comes from whichever kernel ran last).
CELL_STATE = ("collapsed", "scrolled", "ExecuteTime", "execution", "heading_collapsed",
              "hidden")
NOTEBOOK_STATE = ("widgets", "signature")

# A probe's value is printed after this marker, so nothing the notebook prints is mistaken
# for it.
MARK = "<<cardlab-probe>>"


def committed(folder: Path = NOTEBOOKS) -> list[Path]:
    """Every notebook under ``folder`` that git would see (Lab's checkpoints left out).

    >>> [p.name for p in committed()][:1]
    ['01-norwegian-walkthrough.ipynb']
    """
    return sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def read(path: Path) -> nbformat.NotebookNode:
    """The notebook at ``path``, as nbformat 4."""
    return nbformat.read(path, as_version=4)


def dumps(nb: nbformat.NotebookNode) -> str:
    """The file's text as JupyterLab writes it (nbformat's layout and a final newline)."""
    return nbformat.writes(nb) + "\n"


def _where(k: int, cell: Any) -> str:
    return f"cell {k} ({cell.get('id', 'no id')})"


def problems(nb: nbformat.NotebookNode) -> list[str]:
    """What in ``nb`` should not be committed, one line each, cells counted from 1."""
    found = []
    for key in NOTEBOOK_STATE:
        if key in nb.metadata:
            found.append(f"notebook metadata: {key!r}")
    extra = sorted(set(nb.metadata.get("language_info", {})) - {"name"})
    if extra:
        found.append(f"notebook metadata: language_info {', '.join(extra)}")
    for k, cell in enumerate(nb.cells, start=1):
        if cell.get("outputs"):
            found.append(f"{_where(k, cell)}: {len(cell.outputs)} output(s)")
        if cell.get("execution_count") is not None:
            found.append(f"{_where(k, cell)}: execution count {cell.execution_count}")
        for key in CELL_STATE:
            if key in cell.metadata:
                found.append(f"{_where(k, cell)}: metadata {key!r}")
    return found


def strip(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove from ``nb`` (in place) everything `problems` reports; return ``nb``."""
    for key in NOTEBOOK_STATE:
        nb.metadata.pop(key, None)
    if "language_info" in nb.metadata:
        nb.metadata.language_info = {"name": nb.metadata.language_info.get("name", "python")}
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        for key in CELL_STATE:
            cell.metadata.pop(key, None)
    return nb


# Where each viewer held by a name stands, by its widget's model id: [line, step, seat, lang].
PLACES = ("(lambda V: {v.widget.model_id: [v.widget.line, v.step, v.seat, v.lang] "
          "for v in list(globals().values()) if isinstance(v, V)})("
          "__import__('cardlab.view.widget', fromlist=['ReplayViewer']).ReplayViewer)")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@dataclass
class Run:
    """An executed notebook: ``notebook`` without the probe cells, ``probes`` by cell id, and
    ``places``: after each code cell (by id, in order), where each named viewer stood."""

    notebook: nbformat.NotebookNode
    probes: dict[str, Any]
    places: dict[str, dict[str, list[Any]]]

    def cell(self, cell_id: str) -> nbformat.NotebookNode:
        """The executed cell with this id."""
        for cell in self.notebook.cells:
            if cell.get("id") == cell_id:
                return cell
        raise KeyError(f"no cell {cell_id!r} in the notebook")

    def printed(self, cell_id: str) -> str:
        """What the cell printed (its standard output)."""
        return "".join(out.text for out in self.cell(cell_id).outputs
                       if out.output_type == "stream" and out.name == "stdout")

    def shown_viewers(self, cell_id: str) -> list[str]:
        """The model ids of the widgets the cell displayed."""
        return [out.data[WIDGET_VIEW]["model_id"] for out in self.cell(cell_id).outputs
                if WIDGET_VIEW in out.get("data", {})]

    def moved_viewers(self) -> list[str]:
        """Each viewer a cell showed that a later cell moved (its line, step, seat or
        language at the end of the run differ from when its cell had run), one line each."""
        if not self.places:
            return []
        end = list(self.places.values())[-1]
        moved = []
        for cell_id, places in self.places.items():
            for model in self.shown_viewers(cell_id):
                if model in places and places[model] != end.get(model):
                    moved.append(f"the viewer shown by cell {cell_id} stood at {places[model]}"
                                 f" (line, step, seat, language) and ends at {end.get(model)}")
        return moved

    def text(self, cell_id: str) -> str:
        """What the cell showed as text: its printed lines, then its value's text repr."""
        parts = []
        for out in self.cell(cell_id).outputs:
            if out.output_type == "stream" and out.name == "stdout":
                parts.append(out.text)
            elif "data" in out and "text/plain" in out.data:
                parts.append(out.data["text/plain"] + "\n")
        return "".join(parts)


def _probe_source(expression: str) -> str:
    # the expression in parentheses, so a probe may span lines; json.dumps without a default:
    # a value that is not plain data fails the run instead of being compared as a string
    return f"print({MARK!r} + __import__('json').dumps(\n{expression}\n))"


def execute(name: str, probes: Mapping[str, str] | None = None, *,
            folder: Path = NOTEBOOKS, timeout: int = 600) -> Run:
    """Execute ``<folder>/<name>`` in the ``python3`` kernel of the running Python, from
    ``folder`` (``notebooks/``, as ``make lab`` and nbval run them), with each probe run right
    after its cell.

    Any cell that raises fails the run (nbclient's CellExecutionError shows the traceback).
    """
    from nbclient import NotebookClient  # only the tests that execute notebooks need it

    probes = dict(probes or {})
    nb = read(folder / name)
    ids = [cell.get("id") for cell in nb.cells]
    unknown = sorted(set(probes) - set(ids))
    if unknown:
        raise KeyError(f"{name}: no cell {', '.join(map(repr, unknown))} to probe")
    cells = []
    for cell in nb.cells:
        cells.append(cell)
        if cell.get("id") in probes:
            cells.append(nbformat.v4.new_code_cell(_probe_source(probes[cell.id]),
                                                   id=f"probe-{cell.id}"))
        if cell.cell_type == "code":
            cells.append(nbformat.v4.new_code_cell(_probe_source(PLACES),
                                                   id=f"places-{cell.get('id')}"))
    nb.cells = cells
    # kernel "python3" with argv "python": jupyter_client starts it with this sys.executable
    NotebookClient(nb, kernel_name="python3", timeout=timeout, store_widget_state=False,
                   resources={"metadata": {"path": str(folder)}}).execute()
    values: dict[str, Any] = {}
    places: dict[str, Any] = {}
    kept = []
    for cell in nb.cells:
        kind, _, of = cell.get("id", "").partition("-")
        if kind not in ("probe", "places"):
            kept.append(cell)
            continue
        printed = "".join(o.text for o in cell.outputs if o.output_type == "stream")
        line = next(x for x in printed.splitlines() if x.startswith(MARK))
        (values if kind == "probe" else places)[of] = json.loads(line[len(MARK):])
    nb.cells = kept
    return Run(nb, values, places)


def main(argv: list[str]) -> int:
    """``--strip PATH...`` cleans the notebooks in place; ``--filter`` cleans the notebook on
    standard input to standard output (a git clean filter); ``[PATH...]`` lists their problems
    (every committed notebook when no path is given) and exits 1 if there are any."""
    if argv == ["--filter"]:
        text = sys.stdin.read()
        try:
            nb = nbformat.reads(text, as_version=4)
        except Exception as err:  # git keeps the file as it is when a clean filter fails
            print(f"tests/notebooks.py --filter: not a notebook ({err})", file=sys.stderr)
            return 1
        sys.stdout.write(dumps(strip(nb)))
        return 0
    clean = argv[:1] == ["--strip"]
    paths = [Path(a) for a in argv[1 if clean else 0:]] or committed()
    bad = 0
    for path in paths:
        nb = read(path)
        if clean:
            text = dumps(strip(nb))
            if path.read_text(encoding="utf-8") != text:
                part = path.with_name(path.name + ".part")  # a whole file or the old one
                part.write_text(text, encoding="utf-8")
                os.replace(part, path)
                print(f"stripped {path}")
        else:
            for problem in problems(nb):
                print(f"{path}: {problem}")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
