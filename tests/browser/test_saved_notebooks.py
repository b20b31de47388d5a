"""A saved notebook that shows replays, opened again in JupyterLab before any cell runs.

The notebook is executed with nbclient (its widget state stored, as ``jupyter nbconvert
--execute`` stores it) and saved; JupyterLab then opens it without running it:

- trusted (signed with ``jupyter trust``, in this server's own data folder), the widget
  manager draws each viewer from its saved state, where its cell put it, and the viewer's
  stylesheet hides the box that would draw it in an HTML export;
- untrusted (anyone else's file), JupyterLab draws no widget and sanitizes the HTML: each
  viewer is its one line of text (the replay's summary), and the box shows nothing;
- trusted but saved without widget state (JupyterLab's default), the box says what the
  replay is and how to step through it.

The server here has a data folder of its own (``JUPYTER_DATA_DIR``), so trusting a notebook
touches no signature database outside the test's temporary folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import harness
import nbformat
import pytest

import cardlab

pytestmark = pytest.mark.browser

SOURCES = ['import cardlab\nfrom cardlab.view import ReplayViewer\n\n'
           'review = cardlab.example("norwegian-review")\nreview',
           'brad = ReplayViewer(review, seat="Brad", at=(1, 19))\nbrad']
SUMMARY = cardlab.example("norwegian-review").summary()


@pytest.fixture(scope="module")
def saved_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[harness.LabServer]:
    from nbclient import NotebookClient

    base = tmp_path_factory.mktemp("saved-lab")
    folder = base / "work" / "notebooks"
    folder.mkdir(parents=True)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in SOURCES])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    NotebookClient(nb, kernel_name="python3", timeout=240, store_widget_state=True).execute()
    nbformat.write(nb, folder / "trusted.ipynb")
    # another file's content (a signature is the content's digest): one nobody trusted
    other = nbformat.from_dict(nb)
    other.cells.insert(0, nbformat.v4.new_markdown_cell("A notebook from someone else."))
    nbformat.write(other, folder / "untrusted.ipynb")
    nb.metadata.pop("widgets")
    nbformat.write(nb, folder / "no-state.ipynb")
    data = base / "data"
    env = dict(os.environ, JUPYTER_DATA_DIR=str(data))
    for name in ("trusted.ipynb", "no-state.ipynb"):
        subprocess.run([sys.executable, "-m", "jupyter", "trust", str(folder / name)], env=env,
                       check=True, capture_output=True)
    before = os.environ.get("JUPYTER_DATA_DIR")
    os.environ["JUPYTER_DATA_DIR"] = str(data)  # the server's notary reads it at start
    try:
        server = harness.LabServer(base / "work", base)
    except RuntimeError as err:
        pytest.fail(str(err))
    finally:
        if before is None:
            del os.environ["JUPYTER_DATA_DIR"]
        else:
            os.environ["JUPYTER_DATA_DIR"] = before
    yield server
    server.stop()


def opened(chromium: Any, lab: harness.LabServer, name: str, theme: str = "light") -> Any:
    """The notebook open in Lab, its saved outputs drawn, no cell run."""
    lab.set_theme(theme)
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    page.goto(lab.notebook_url(f"notebooks/{name}"))
    page.wait_for_function("(theme) => document.body.dataset.jpThemeName === theme",
                           arg=harness.THEMES[theme], timeout=60_000)
    page.wait_for_function("() => document.querySelectorAll('.jp-OutputArea-output')"
                           ".length >= 4", timeout=60_000)
    return page


def shot(page: Any, name: str) -> None:
    harness.ARTIFACTS.mkdir(exist_ok=True)
    harness.SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(harness.ARTIFACTS / name))
    shutil.copy(harness.ARTIFACTS / name, harness.SHOTS / name)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_trusted_notebook_draws_each_viewer_from_its_saved_state(chromium, saved_lab, theme):
    page = opened(chromium, saved_lab, "trusted.ipynb", theme)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.wait_for_function("() => document.querySelectorAll('.cardlab-viewer[data-step]')"
                               ".length === 2", timeout=60_000)
        viewers = page.locator(".cardlab-viewer")
        assert [(v.get_attribute("data-step"), v.get_attribute("data-seat"))
                for v in viewers.all()] == [("0", ""), ("19", "Brad")]
        assert viewers.nth(1).locator(".cardlab-trick .cardlab-card[data-code]").count() == 2
        boxes = page.locator(".cardlab-export")
        assert boxes.count() == 2 and not any(box.is_visible() for box in boxes.all())
        assert viewers.first.evaluate("(v) => v.classList.contains('cardlab-dark')") == (
            theme == "dark")
        viewers.nth(1).scroll_into_view_if_needed()
        shot(page, f"saved-trusted-{theme}.png")
        assert not errors, errors
    finally:
        page.close()


def test_an_untrusted_notebook_shows_each_viewer_as_its_line(chromium, saved_lab):
    page = opened(chromium, saved_lab, "untrusted.ipynb")
    try:
        assert page.locator(".cardlab-viewer").count() == 0  # no widget, no script ran
        texts = page.locator(".jp-OutputArea-output[data-mime-type='text/plain']")
        lines = [t.inner_text() for t in texts.all()]
        expected = f"{SUMMARY} Run the cell in JupyterLab to step through it."
        assert lines == [expected, expected], lines
        boxes = page.locator(".cardlab-export")
        assert not any(box.is_visible() for box in boxes.all())
        assert page.locator(".cardlab-export script").count() == 0  # sanitized away
        shot(page, "saved-untrusted-light.png")
    finally:
        page.close()


def test_a_notebook_saved_without_widget_state_says_what_it_shows(chromium, saved_lab):
    page = opened(chromium, saved_lab, "no-state.ipynb")
    try:
        texts = page.locator(".cardlab-export-text")
        texts.first.wait_for()
        assert [t.inner_text() for t in texts.all()] == [
            f"{SUMMARY} To step through it here, run the notebook (or export it with jupyter "
            "nbconvert --to html --execute)."] * 2
        assert page.locator(".cardlab-viewer").count() == 0
        shot(page, "saved-no-state-light.png")
    finally:
        page.close()


def test_the_notebooks_are_what_the_fixture_made(saved_lab):
    folder: Path = saved_lab.work / "notebooks"
    trusted = nbformat.read(folder / "trusted.ipynb", as_version=4)
    assert "widgets" in trusted.metadata
    assert "widgets" not in nbformat.read(folder / "no-state.ipynb", as_version=4).metadata
