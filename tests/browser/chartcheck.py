"""What a person sees of a chart, read in the browser: the browser tests of the charts share it
(tests/browser/test_exports.py for nbconvert's pages, test_lab.py for JupyterLab).

``CHART_SEEN`` takes one chart (cardlab's ``<svg>`` drawing, or the ``.jp-RenderedPlotly`` of a
plotly chart in Lab, whose texts are spread over several ``svg.main-svg``) and returns its
size, the marks it draws with a non-empty shape (lines, bars, points, boxes, error bars), the
background it is drawn on (the first opaque colour behind its first svg), and every text with
its contrast against that background, WCAG's ratio, alpha blended.
"""

from __future__ import annotations

from typing import Any

CHART_SEEN = """(root) => {
    const svg = root.tagName.toLowerCase() === 'svg' ? root : root.querySelector('svg');
    const parse = (text) => {
        const m = (text || '').match(/rgba?\\(([^)]+)\\)/);
        if (!m) return null;
        const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
        return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
    };
    const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a),
        g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1});
    const lum = (c) => {
        const f = (v) => {
            v /= 255;
            return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
    };
    const ratio = (a, b) => {
        const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05);
    };
    // the background: the svg's own, then its ancestors', down to the first opaque one
    let layers = [];
    for (let node = svg; node; node = node.parentElement) {
        const colour = parse(getComputedStyle(node).backgroundColor);
        if (colour && colour.a > 0) {
            layers.push(colour);
            if (colour.a === 1) break;
        }
    }
    let bg = {r: 255, g: 255, b: 255, a: 1};
    for (const layer of layers.reverse()) bg = over(layer, bg);
    // a drawing of a fixed template paints its paper: the first rect the size of the svg
    const box = root.getBoundingClientRect();
    const paper = svg.querySelector(':scope > rect');
    if (paper && paper.getBoundingClientRect().width >= box.width - 1) {
        const fill = parse(getComputedStyle(paper).fill);
        if (fill) bg = over(fill, bg);
    }
    const marks = [];
    const traces = root.querySelectorAll(
        'g.cl-traces path, g.cl-traces rect, g.cl-traces circle, g.cl-traces line,' +
        ' g.overplot path, g.overplot rect');
    for (const el of traces) {
        const b = el.getBBox();
        const shaped = el.tagName === 'path' ? (el.getAttribute('d') || '').length > 4 : true;
        if (shaped && (b.width > 0 || b.height > 0)) {
            marks.push(el.getAttribute('class') || el.tagName);
        }
    }
    const texts = [];
    const failures = [];
    for (const el of root.querySelectorAll('svg text, svg tspan')) {
        const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
        if (!own || el.closest('.hoverlayer, .cl-bar-text, title')) continue;
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (!r.width || !r.height || style.visibility !== 'visible' || style.display === 'none')
            continue;
        const ink = parse(style.fill);
        if (!ink) continue;
        const seen = {...ink, a: ink.a * Number(style.fillOpacity)};
        const contrast = ratio(over(seen, bg), bg);
        const size = parseFloat(style.fontSize);
        const need = size >= 24 ? 3 : 4.5;
        const text = el.textContent.trim().slice(0, 40);
        texts.push(text);
        if (contrast < need) {
            failures.push({text, fill: style.fill, contrast: Math.round(contrast * 100) / 100,
                           need});
        }
    }
    return {width: box.width, height: box.height, marks, texts, failures,
            background: lum(bg), bgColour: `rgb(${bg.r}, ${bg.g}, ${bg.b})`};
}"""


def chart_seen(chart: Any) -> dict[str, Any]:
    """``CHART_SEEN`` for ``chart`` (a Playwright locator)."""
    return dict(chart.evaluate(CHART_SEEN))


def drawable(figure: dict[str, Any]) -> int:
    """How many of a figure's traces have something to draw (a bar trace of zeros has not)."""
    count = 0
    for trace in figure["data"]:
        values = trace.get("y") or trace.get("x") or []
        if trace.get("type") == "bar":
            values = [v for v in values if v]
        count += any(v is not None for v in values)
    return count


def assert_drawn(seen: dict[str, Any], traces: int, where: str) -> None:
    """The chart has a size, at least one mark per trace and text to read."""
    assert seen["width"] > 200 and seen["height"] > 150, (where, seen["width"], seen["height"])
    assert len(seen["marks"]) >= traces, (where, traces, seen["marks"])
    assert seen["texts"], where


def assert_readable(seen: dict[str, Any], theme: str, where: str) -> None:
    """The chart's background is dark in a dark theme and light in a light one, and every
    text reaches AA contrast against it."""
    if theme == "light":
        assert seen["background"] > 0.7, (where, seen["bgColour"])
    else:
        assert seen["background"] < 0.05, (where, seen["bgColour"])
    assert not seen["failures"], (where, seen["bgColour"], seen["failures"])
