"""How a notebook shows a chart (issue 20, items 5 and 9): cardlab.view.chartshow and chartsvg.

Each chart displays as plotly's figure (which JupyterLab draws), an SVG drawing as
``text/html`` (which nbconvert's HTML export keeps) and its title as text. A chart made without
``template=`` follows Lab's theme: its plotly figure has no background and every text it shows
in a colour of Lab's; its drawing takes Lab's colours too. The drawing is checked here against
the figure, mark by mark; the browser tests (tests/browser/test_exports.py, test_lab.py) look
at both in Chromium.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import nbformat
import pytest

import cardlab
import notebooks
from cardlab.bots import make_bot
from cardlab.view import charts
from cardlab.view.chartlayout import nice_step, quartiles, tick_label
from cardlab.view.chartshow import (
    INK,
    INK2,
    PLOTLY_MIME,
    _notebook_renderer,
    figure_json,
    mimebundle,
    themed,
)
from cardlab.view.chartsvg import FOLLOW_STYLE, SVG_PLOT_TAGS, figure_svg

SVG = "{http://www.w3.org/2000/svg}"


def played(game: str, seed: int, **options: Any) -> cardlab.Replay:
    table = cardlab.new_game(game, players=4, seed=seed, seats=["Ann", "Ben", "Cleo", "Dev"],
                             **options)
    table.play([make_bot("heuristic", game, seed=s) for s in range(4)])
    return table.replay


@pytest.fixture(scope="module")
def figures() -> dict[str, Any]:
    """Every kind of chart cardlab draws, as the notebooks draw them."""
    review = cardlab.example("norwegian-review")
    bobs = played("bobs-hat", 2024)
    whot = played("whot", 5)
    teds = cardlab.simulate("teds-game", players=4, games=6, bots="heuristic,random", seed=1,
                            workers=0, progress=False)
    runs = {rules: cardlab.simulate("whot", games=4, seed=1, workers=0, progress=False,
                                    options={"rubber": "single", "rules": rules})
            for rules in ("classic", "nigerian")}
    return {
        "score_evolution": charts.score_evolution(review, marker=1.0),
        "hat_travels": charts.hat_travels(review, 1),
        "cards_taken": charts.cards_taken(review, hand=1),
        "score_components": charts.score_components(review),
        "bid_success": charts.bid_success(bobs),
        "cards_in_hand": charts.cards_in_hand(whot),
        "hook_bite_rate": charts.hook_bite_rate(teds.hands),
        "bid_success_by_size": charts.bid_success_by_size(teds.hands),
        "score_distribution": charts.score_distribution(teds.games),
        "score_from_dealer": charts.score_from_dealer(teds.hands, by="bot"),
        "game_length": charts.game_length({k: r.games for k, r in runs.items()}),
    }


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def marks(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in (el.get("class") or "").split()]


def expected_marks(figure: dict[str, Any]) -> dict[str, int]:
    """What the drawing must hold for the figure: a line per line trace, a point per marker,
    a bar per bar value but 0 (a histogram's per filled bin), a box per box trace."""
    want = {"cl-line": 0, "cl-point": 0, "cl-bar": 0, "cl-box": 0}
    for trace in figure["data"]:
        kind = trace.get("type", "scatter")
        ys = [y for y in trace.get("y", []) if y is not None]
        if kind == "scatter":
            mode = trace.get("mode", "lines+markers")
            want["cl-line"] += "lines" in mode and bool(ys)
            want["cl-point"] += len(ys) if "markers" in mode else 0
        elif kind == "bar":
            want["cl-bar"] += sum(1 for y in ys if y != 0)
        elif kind == "histogram":
            size, start = trace["xbins"]["size"], trace["xbins"]["start"]
            want["cl-bar"] += len({(x - start) // size for x in trace["x"]})
        elif kind == "box":
            want["cl-box"] += 1
    return want


def test_every_chart_displays_plotly_a_drawing_and_its_title(figures):
    for name, fig in figures.items():
        bundle = mimebundle(fig)
        assert sorted(bundle) == [PLOTLY_MIME, "text/html", "text/plain"], name
        title = fig.layout.title.text.split("<br>")[0]
        assert bundle["text/plain"].startswith(f"<cardlab chart: {title}"), name
        root = parse(bundle["text/html"])
        assert root.tag == SVG + "svg" and "cardlab-plot-follow" in root.get("class"), name
        assert {el.tag.removeprefix(SVG) for el in root.iter()} <= SVG_PLOT_TAGS, name
        assert mimebundle(fig) == bundle, f"{name}: the same chart gives the same output"


def test_the_drawing_has_every_mark_of_the_figure(figures):
    for name, fig in figures.items():
        figure = figure_json(fig)
        root = parse(figure_svg(figure))
        for cls, count in expected_marks(figure).items():
            if cls == "cl-point" and name == "score_distribution":
                # the boxes' outliers are points too
                assert len(marks(root, cls)) >= count, name
            else:
                assert len(marks(root, cls)) == count, (name, cls)
        words = "".join(root.itertext())
        for trace in figure["data"]:
            if len(figure["data"]) > 1 and trace.get("name"):
                assert trace["name"] in words, (name, trace["name"])  # in the legend


def points(root: ET.Element) -> list[tuple[float, float]]:
    return [(float(el.get("cx")), float(el.get("cy"))) for el in marks(root, "cl-point")]


def test_points_and_bars_stand_where_their_values_say():
    figure = {"data": [{"type": "scatter", "mode": "markers", "x": [0, 1, 2], "y": [5, -5, 10]},
                       {"type": "bar", "x": [0, 1, 2], "y": [2, 4, 8]}],
              "layout": {"height": 400, "width": 600, "showlegend": False}}
    root = parse(figure_svg(figure))
    (x0, y5), (x1, y_5), (x2, y10) = points(root)
    assert x0 < x1 < x2
    assert y10 < y5 < y_5  # up is more
    assert (y5 - y10) == pytest.approx((y_5 - y5) / 2, abs=0.2)  # 5 up is half of 10 down
    bars = marks(root, "cl-bar")
    heights = [float(b.get("height")) for b in bars]
    assert heights[1] == pytest.approx(2 * heights[0], abs=0.2)
    assert heights[2] == pytest.approx(4 * heights[0], abs=0.2)
    # each bar rests on 0: the zero line
    zero = next(z.get("d") for z in marks(root, "cl-zero") if "H" in z.get("d"))
    at = float(re.search(r"M[\d.]+,([\d.]+)H", zero).group(1))
    assert all(float(b.get("y")) + float(b.get("height")) == pytest.approx(at, abs=0.2)
               for b in bars)


def test_stacked_relative_and_grouped_bars():
    base = {"x": ["a", "b"], "type": "bar"}
    stacked = {"data": [{**base, "y": [1, 2]}, {**base, "y": [3, -1]}],
               "layout": {"barmode": "relative"}}
    root = parse(figure_svg(stacked))
    a1, b1, a2, b2 = marks(root, "cl-bar")
    top_of_a1 = float(a1.get("y"))
    assert float(a2.get("y")) + float(a2.get("height")) == pytest.approx(top_of_a1, abs=0.2)
    assert float(b2.get("y")) > float(b1.get("y"))  # b's -1 hangs below 0, under b's +2
    grouped = {"data": [{**base, "y": [1, 2]}, {**base, "y": [3, 1]}], "layout": {}}
    a1, b1, a2, b2 = marks(parse(figure_svg(grouped)), "cl-bar")
    assert float(a1.get("x")) < float(a2.get("x")) < float(b1.get("x"))  # side by side


def test_the_numbers_plotly_would_write():
    assert nice_step(1.0, 6) == 0.2 and nice_step(180, 6) == 50 and nice_step(2300, 6) == 500
    assert tick_label(-10, 10) == "−10" and tick_label(0.4, 0.2, ".0%") == "40%"
    assert tick_label(1.5, 0.5) == "1.5" and tick_label(-1500, 500) == "−1500"
    assert quartiles([1, 2, 3, 4, 5]) == (2, 3, 4)


def test_the_drawing_writes_text_as_text():
    """A name from a file reaches a chart through charts.label (plotly would read its tags):
    the drawing shows it as typed, and no element comes from it."""
    hostile = '<script>alert(1)</script> &amp; <b onclick="x">'
    name = charts.label(hostile)
    figure = {"data": [{"type": "bar", "x": [name], "y": [1], "name": name},
                       {"type": "bar", "x": [name], "y": [2], "name": "two"}],
              "layout": {"title": {"text": "A &lt;b&gt; title<br><sup>how to read it</sup>"}}}
    svg = figure_svg(figure)
    root = parse(svg)  # well-formed XML: every text escaped
    assert {el.tag.removeprefix(SVG) for el in root.iter()} <= SVG_PLOT_TAGS
    texts = [t for el in root.iter(SVG + "text") for t in ["".join(el.itertext())]]
    assert texts.count(hostile) == 2  # the tick label and the legend
    assert "A <b> title" in texts[-1] or any("A <b> title" in t for t in texts)
    assert any("how to read it" in t for t in texts)
    assert svg.isascii()  # a page that names no encoding reads it too


def test_a_theme_following_chart_shows_its_texts_in_labs_colours(figures):
    for name, fig in figures.items():
        shown = themed(figure_json(fig))
        layout = shown["layout"]
        assert layout["paper_bgcolor"] == layout["plot_bgcolor"] == "rgba(0,0,0,0)", name
        assert layout["title"]["text"].startswith(f'<span style="color:{INK}">'), name
        for axis in ("xaxis", "yaxis"):
            assert layout[axis]["title"]["text"].startswith("<span"), (name, axis)
            assert INK2 in layout["template"]["layout"][axis]["tickprefix"]
            for text in layout[axis].get("ticktext", []):
                assert all(line.startswith("<span") for line in text.split("<br>")), name
        for trace in shown["data"]:
            if trace.get("name"):
                assert trace["name"].startswith(f'<span style="color:{INK}">'), name
            if "hovertemplate" not in trace:
                # plotly's own hover writes x as the axis does: in a span of Lab's colour,
                # which may not read on the hover box's colour
                assert "ticktext" not in layout["xaxis"], name
                assert "<span" not in json.dumps(trace.get("x")), name
        for note in layout.get("annotations", []):
            assert note["text"].startswith("<span"), name
        # the figure itself is left alone: fig.show() and write_html give plotly's own look
        assert fig.layout.template.layout.paper_bgcolor == "white"
        assert "<span" not in json.dumps(figure_json(fig)), name


def test_the_theme_keeps_a_box_at_its_name(figures):
    shown = themed(figure_json(figures["score_distribution"]))
    boxes = [t for t in shown["data"] if t["type"] == "box"]
    assert [b["x0"] for b in boxes] == ["heuristic", "random"]


def test_a_chart_given_a_template_keeps_it():
    run = cardlab.simulate("teds-game", players=4, games=3, seed=1, workers=0, progress=False)
    fig = charts.hook_bite_rate(run.hands, template="plotly_dark")
    bundle = mimebundle(fig)
    assert "<span" not in json.dumps(bundle[PLOTLY_MIME])
    assert bundle[PLOTLY_MIME]["layout"]["template"]["layout"]["paper_bgcolor"] == \
        "rgb(17,17,17)"
    root = parse(bundle["text/html"])
    assert "cardlab-plot-follow" not in root.get("class")
    assert FOLLOW_STYLE not in bundle["text/html"]
    paper = next(el for el in root if el.tag == SVG + "rect")
    assert paper.get("fill") == "rgb(17,17,17)"  # the template's paper


def test_a_kernel_shows_a_chart_and_its_drawing(tmp_path):
    """In a real kernel: a cell's value and ``fig.show()`` store the three parts; a figure
    made by plotly itself is left to plotly."""
    cells = ["import cardlab\nfrom cardlab.view import charts\n"
             "fig = charts.score_evolution(cardlab.example('norwegian-review'))\nfig",
             "fig.show()",
             "import plotly.graph_objects as go\ngo.Figure(go.Bar(y=[1, 2]))"]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c, id=f"c{k}")
                                         for k, c in enumerate(cells)])
    nbformat.write(nb, tmp_path / "charts.ipynb")
    run = notebooks.execute("charts.ipynb", folder=tmp_path)
    for cell in ("c0", "c1"):
        (out,) = run.cell(cell).outputs
        assert sorted(out.data) == [PLOTLY_MIME, "text/html", "text/plain"], cell
        assert out.data["text/html"].startswith('<svg xmlns="http://www.w3.org/2000/svg"')
        assert out.data[PLOTLY_MIME]["layout"]["paper_bgcolor"] == "rgba(0,0,0,0)"
    (plain_plotly,) = run.cell("c2").outputs
    assert "text/html" not in plain_plotly.data and PLOTLY_MIME in plain_plotly.data


def test_only_a_notebook_renderer_gets_the_bundle():
    assert _notebook_renderer("plotly_mimetype+notebook")
    assert _notebook_renderer("vscode")
    assert not _notebook_renderer("browser")
    assert not _notebook_renderer(None)
