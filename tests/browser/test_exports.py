"""Every shipped notebook, executed and exported with ``jupyter nbconvert --to html``, shows every
chart when the page is opened offline (issue 20, item 5).

Once per session, each notebook of ``notebooks/`` (a copy: notebooks write files beside
themselves) is run as a teacher would run it, ``jupyter nbconvert --to notebook --execute``,
then exported with nbconvert's HTML exporter (what ``jupyter nbconvert --to html`` runs);
notebook 01 is exported in the dark theme as well (``--theme dark``). Chromium opens each
page from its file with every other request aborted (nbconvert's pages ask the network for
require.js, MathJax and the widget manager: those are refused, and nothing else is asked
for). Each chart output of the executed notebook (a plotly figure) must be drawn on the page:
cardlab's SVG drawing, with a size, a mark for each of the figure's traces, its texts readable
on the page's background, in the light and in the dark page. The chart outputs also stay
small: a drawing, never plotly.js.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chartcheck
import harness
import nbformat
import pytest

# the first test waits for every notebook to run (a few minutes on a loaded machine)
pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

NOTEBOOKS = sorted(p.name for p in (harness.ROOT / "notebooks").glob("*.ipynb"))
PLOTLY = "application/vnd.plotly.v1+json"
# what nbconvert's own page asks the network for (none of it draws a chart)
NBCONVERT_URLS = ("https://cdnjs.cloudflare.com/ajax/libs/require.js/",
                  "https://cdnjs.cloudflare.com/ajax/libs/mathjax/",
                  "https://unpkg.com/@jupyter-widgets/html-manager")
MAX_CHART_OUTPUT = 40_000  # bytes: a chart's output in the notebook (plotly.js is 4.8 MB)


@dataclass
class Export:
    notebook: Path  # the executed notebook
    html: Path  # its export, light theme
    dark: Path | None = None  # its export in the dark theme (notebook 01)

    def charts(self) -> list[dict[str, Any]]:
        """The chart outputs of the executed notebook, in order (their mime bundles)."""
        cells = nbformat.read(self.notebook, as_version=4).cells
        return [out["data"] for cell in cells for out in cell.get("outputs", [])
                if PLOTLY in out.get("data", {})]


def _nbconvert(*args: str, cwd: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(harness.ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", *args], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def _html(notebook: Path, page: Path, theme: str = "light") -> Path:
    """``jupyter nbconvert --to html [--theme dark]``: its exporter, in this process."""
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter(theme=theme).from_filename(str(notebook))
    page.write_text(body, encoding="utf-8")
    return page


@pytest.fixture(scope="session")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Export]:
    """Every notebook executed and exported, two at a time."""
    base = tmp_path_factory.mktemp("exports")
    shutil.copytree(harness.ROOT / "replays", base / "replays")
    shutil.copytree(harness.ROOT / "notebooks", base / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    out = base / "out"
    out.mkdir()

    def run(name: str) -> Export:
        stem = name.removesuffix(".ipynb")
        _nbconvert("--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=600",
                   "--output-dir", str(out), name, cwd=base / "notebooks")
        export = Export(out / name, _html(out / name, out / f"{stem}.html"))
        if name.startswith("01-"):
            export.dark = _html(out / name, out / f"{stem}-dark.html", theme="dark")
        return export

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(NOTEBOOKS, pool.map(run, NOTEBOOKS), strict=True))


@pytest.fixture()
def offline_page(chromium: Any) -> Iterator[tuple[Any, harness.Offline]]:
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    try:
        yield page, harness.Offline(page)
    finally:
        page.close()


def open_export(page: Any, local: harness.Offline, path: Path) -> Any:
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page.locator("svg.cardlab-plot")


def check_page(page: Any, local: harness.Offline, path: Path, charts: list[dict[str, Any]],
               theme: str, shots: str | None = None) -> None:
    drawings = open_export(page, local, path)
    assert drawings.count() == len(charts), (path.name, drawings.count(), len(charts))
    for k, chart in enumerate(charts):
        svg = drawings.nth(k)
        svg.scroll_into_view_if_needed()
        where = f"{path.name}, chart {k + 1} ({chart['text/plain']})"
        figure = chart[PLOTLY]
        seen = chartcheck.chart_seen(svg)
        chartcheck.assert_drawn(seen, chartcheck.drawable(figure), where)
        chartcheck.assert_readable(seen, theme, where)
        title = svg.get_attribute("aria-label")
        assert title and title in chart["text/plain"], (where, title)
        if shots:
            harness.ARTIFACTS.mkdir(exist_ok=True)
            svg.screenshot(path=str(harness.ARTIFACTS / f"{shots}-{k + 1}.png"))
    # the charts asked the network for nothing: only nbconvert's page did (and was refused)
    others = [url for url in local.blocked if not url.startswith(NBCONVERT_URLS)]
    assert not others, others
    assert not local.page_errors, local.page_errors


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_export_draws_every_chart(exports: dict[str, Export], offline_page: Any,
                                      name: str) -> None:
    page, local = offline_page
    export = exports[name]
    charts = export.charts()
    check_page(page, local, export.html, charts, "light",
               shots=f"export-{name[:2]}" if name.startswith("01-") else None)


def test_the_walkthroughs_four_charts_in_a_dark_export(exports: dict[str, Export],
                                                      offline_page: Any) -> None:
    page, local = offline_page
    export = exports[NOTEBOOKS[0]]
    charts = export.charts()
    assert [c["text/plain"] for c in charts] == [
        "<cardlab chart: Score after each hand>",
        "<cardlab chart: Bob's Hat's travels in hand 1>",
        "<cardlab chart: Cards taken per suit in hand 1>",
        "<cardlab chart: Points per hand: where they came from>"]
    assert export.dark is not None
    check_page(page, local, export.dark, charts, "dark", shots="export-01-dark")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.locator("svg.cardlab-plot").first.scroll_into_view_if_needed()
    harness.shoot(page, page.locator("svg.cardlab-plot").first, "export-01-dark-page.png")


def test_chart_outputs_stay_small(exports: dict[str, Export]) -> None:
    """A chart adds a drawing to the saved notebook, never plotly.js: the notebook-size
    budget holds with charts in it."""
    charts = [c for export in exports.values() for c in export.charts()]
    assert len(charts) >= 20  # notebooks 01 to 05 draw 24 charts
    for chart in charts:
        size = len(json.dumps(chart))
        assert size < MAX_CHART_OUTPUT, (chart["text/plain"], size)
        assert "text/html" in chart and chart["text/html"].startswith("<svg")
