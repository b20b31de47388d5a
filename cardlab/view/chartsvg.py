"""A static SVG drawing of a cardlab chart, for where plotly.js does not run.

A notebook exported with ``jupyter nbconvert --to html`` keeps an output's ``text/html`` and
drops plotly's own mime type, so every chart of :mod:`cardlab.view.charts` carries this
drawing beside its plotly figure (:mod:`cardlab.view.chartshow`). It reads the figure's JSON
(``fig.to_json()``) and draws the part of plotly that cardlab's charts use: scatter lines and
markers (``hv`` steps, error bars, ``scattermode="group"``), bars (grouped, stacked, relative,
text above), boxes, histograms (shared bins, ``histnorm="percent"``), line shapes, text
annotations, a title with a ``<sup>`` line, a horizontal legend and linear, category and
two-level category axes. It computes no number of its own beyond what plotly would (axis
ranges, ticks, quartiles, bin counts).

``follow_theme`` draws the text and grid in JupyterLab's colours (``--jp-content-font-color1``
and the like, which an nbconvert page defines too) on no background, so the drawing reads in a
light and a dark page; otherwise in the colours of the figure's template.

>>> import json
>>> fig = {"data": [{"type": "bar", "x": ["Ann", "Ben"], "y": [3, 5], "name": "cards"}],
...        "layout": {"title": {"text": "Cards <b>taken</b>"}, "height": 300}}
>>> drawing = figure_svg(fig)
>>> drawing.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="cardlab-plot ')
True
>>> drawing.count('class="cl-bar"'), "Cards taken" in drawing
(2, True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from .chartlayout import (
    Axis,
    Look,
    Part,
    errors,
    extent,
    is_dark,
    layout_parts,
    number,
    plain,
    positions,
    quartiles,
    rich_lines,
    set_categories,
    set_range,
    svg_text,
    text_width,
    xml_text,
)

WIDTH = 760  # px: plotly fills the output's width; a drawing keeps this size at most
FONT = '"Open Sans", verdana, arial, sans-serif'

# Lab's variables (an nbconvert page defines them as well), each with the colour used where
# they are not defined: the text, the tick labels, the grid and the zero line
FOLLOW_STYLE = (
    "svg.cardlab-plot-follow .cl-ink{fill:var(--jp-content-font-color1,#222)}"
    "svg.cardlab-plot-follow .cl-ink2{fill:var(--jp-content-font-color2,#444)}"
    "svg.cardlab-plot-follow .cl-ink-stroke{stroke:var(--jp-content-font-color1,#222)}"
    "svg.cardlab-plot-follow .cl-grid{stroke:var(--jp-border-color2,#e0e0e0)}"
    "svg.cardlab-plot-follow .cl-zero{stroke:var(--jp-border-color1,#bdbdbd)}")

DASHES = {"dot": "3,3", "dash": "9,9", "dashdot": "9,3,3,3", "longdash": "15,6"}

#: The elements a drawing is made of (a test checks that nothing else ever appears).
SVG_PLOT_TAGS = frozenset({"svg", "style", "title", "defs", "clipPath", "rect", "g", "path",
                           "line", "circle", "text", "tspan"})


# -- drawing --------------------------------------------------------------------------------

def _stroke(colour: str, width: float, dash: str | None = None) -> str:
    extra = f' stroke-dasharray="{DASHES.get(dash, dash)}"' if dash and dash != "solid" else ""
    return f'stroke="{xml_text(colour)}" stroke-width="{width:g}"{extra}'


def _tip(*lines: object) -> str:
    words = "\n".join(plain(line) for line in lines if line not in (None, ""))
    return f"<title>{xml_text(words)}</title>" if words else ""


def _marker(cx: float, cy: float, trace: Mapping[str, Any], colour: str, tip: str,
            cls: str = "cl-point") -> str:
    marker = trace.get("marker") or {}
    size = number(marker.get("size")) or 6.0
    edge = marker.get("line") or {}
    outline = (f' stroke="{xml_text(edge["color"])}" stroke-width="{edge.get("width", 1)}"'
               if isinstance(edge.get("color"), str) else "")
    if marker.get("symbol") == "diamond":
        r = size * 0.65
        return (f'<path class="{cls}" d="M{cx:.1f},{cy - r:.1f}l{r:.1f},{r:.1f}'
                f'l{-r:.1f},{r:.1f}l{-r:.1f},{-r:.1f}Z" fill="{xml_text(colour)}"{outline}>'
                f"{tip}</path>")
    return (f'<circle class="{cls}" cx="{cx:.1f}" cy="{cy:.1f}" r="{size / 2:g}" '
            f'fill="{xml_text(colour)}"{outline}>{tip}</circle>')


def _draw_scatter(part: Part, x: Axis, y: Axis, look: Look) -> list[str]:
    trace = part.trace
    mode = trace.get("mode", "lines+markers")
    line = trace.get("line") or {}
    points = [(x.px(a + part.offset), y.px(b)) if a is not None and b is not None else None
              for a, b in zip(part.xs, part.ys, strict=False)]
    out = []
    if "lines" in mode:
        d, last = [], None
        for pt in points:
            if pt is None:
                last = None
                continue
            if last is None:
                d.append(f"M{pt[0]:.1f},{pt[1]:.1f}")
            elif line.get("shape") == "hv":
                d.append(f"H{pt[0]:.1f}V{pt[1]:.1f}")
            else:
                d.append(f"L{pt[0]:.1f},{pt[1]:.1f}")
            last = pt
        if d:
            width = number(line.get("width")) or 2.0
            out.append(f'<path class="cl-line" d="{"".join(d)}" fill="none" '
                       f'{_stroke(line.get("color", part.colour), width, line.get("dash"))}/>')
    out += _draw_errors(part, x, y, look)
    if "markers" in mode:
        texts = trace.get("text")
        for i, pt in enumerate(points):
            if pt is None:
                continue
            extra = texts[i] if isinstance(texts, list) and i < len(texts) else texts
            tip = _tip(f"{trace.get('name', '')}", f"{_raw(trace, 'x', i)}: "
                       f"{_raw(trace, 'y', i)}", extra if isinstance(extra, str) else None)
            out.append(_marker(pt[0], pt[1], trace, part.colour, tip))
    return out


def _raw(trace: Mapping[str, Any], letter: str, i: int) -> str:
    values = positions(trace, letter)
    value = values[i] if i < len(values) else ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return " ".join(map(str, value)) if isinstance(value, tuple) else str(value)


def _draw_errors(part: Part, x: Axis, y: Axis, look: Look) -> list[str]:
    spec = part.trace.get("error_y") or {}
    if not spec or spec.get("visible") is False:
        return []
    plus, minus = errors(part.trace, len(part.ys))
    # a scatter's error bars take its colour; a bar's the text's (they cross the bar)
    on_bar = part.trace["type"] == "bar" and "color" not in spec
    colour = look.ink if on_bar else spec.get("color", part.colour)
    cls = "cl-error cl-ink-stroke" if on_bar else "cl-error"
    half = number(spec.get("width"))
    half = 4.0 if half is None else half
    thick = number(spec.get("thickness")) or 2.0
    out = []
    for i, (a, b) in enumerate(zip(part.xs, part.ys, strict=False)):
        if a is None or b is None or (plus[i] == 0 and minus[i] == 0):
            continue
        cx, top, bottom = x.px(a + part.offset), y.px(b + plus[i]), y.px(b - minus[i])
        out.append(f'<path class="{cls}" d="M{cx:.1f},{top:.1f}V{bottom:.1f}'
                   f'M{cx - half:.1f},{top:.1f}h{2 * half:g}M{cx - half:.1f},{bottom:.1f}'
                   f'h{2 * half:g}" fill="none" {_stroke(colour, thick)}/>')
    return out


def _draw_bars(part: Part, x: Axis, y: Axis, look: Look) -> list[str]:
    trace = part.trace
    colours = (trace.get("marker") or {}).get("color")
    opacity = number(trace.get("opacity"))
    fade = f' fill-opacity="{opacity:g}"' if opacity is not None else ""
    texts = trace.get("text") if trace.get("textposition") != "none" else None
    out = []
    for i, (where, top) in enumerate(zip(part.xs, part.ys, strict=False)):
        if where is None or top is None:
            continue
        colour = colours[i] if isinstance(colours, list) else part.colour
        left = x.px(where + part.offset - part.width / 2)
        right = x.px(where + part.offset + part.width / 2)
        y0, y1 = sorted((y.px(part.base[i]), y.px(top)))
        if trace["type"] == "histogram":
            tip = _tip(trace.get("name"), f"{where - part.width / 2:g}–"
                       f"{where + part.width / 2:g}: {top - part.base[i]:.3g}")
        else:
            tip = _tip(trace.get("name"), f"{_raw(trace, 'x', i)}: {_raw(trace, 'y', i)}")
        if top != part.base[i]:  # a bar of 0 has no height: plotly shows nothing there
            out.append(f'<rect class="cl-bar" x="{left:.1f}" y="{y0:.1f}" '
                       f'width="{max(right - left, 0.5):.1f}" height="{max(y1 - y0, 0.5):.1f}" '
                       f'fill="{xml_text(colour)}"{fade}>{tip}</rect>')
        label = texts[i] if isinstance(texts, list) and i < len(texts) else None
        if label:
            inside = trace.get("textposition") in ("auto", "inside") and y1 - y0 >= 18 \
                and right - left >= text_width(label, 12) + 4
            cx = (left + right) / 2
            if inside:
                ink = "#fff" if is_dark(colour) else "#000"
                out.append(svg_text(cx, y0 + 14, label, "cl-bar-text", ink, anchor="middle"))
            else:
                below = top < part.base[i]
                out.append(svg_text(cx, y1 + 14 if below else y0 - 4, label, "cl-ink",
                                    look.ink, anchor="middle"))
    out += _draw_errors(part, x, y, look)
    return out


def _draw_box(part: Part, x: Axis, y: Axis) -> list[str]:
    values = [v for v in (number(v) for v in part.trace.get("y", [])) if v is not None]
    where = part.xs[0]
    if not values or where is None:
        return []
    q1, median, q3 = quartiles(values)
    reach = 1.5 * (q3 - q1)
    low = min(v for v in values if v >= q1 - reach)
    high = max(v for v in values if v <= q3 + reach)
    centre = x.px(where + part.offset)
    half = abs(x.px(where + part.width / 2) - x.px(where))
    colour = (part.trace.get("line") or {}).get("color", part.colour)
    tip = _tip(part.trace.get("name"), f"median {median:.4g}, quartiles {q1:.4g}–{q3:.4g}",
               f"whiskers {low:.4g}–{high:.4g}, {len(values)} values")
    top, bottom = y.px(q3), y.px(q1)
    out = [f'<g class="cl-box">{tip}'
           f'<rect x="{centre - half:.1f}" y="{top:.1f}" width="{2 * half:.1f}" '
           f'height="{max(bottom - top, 0.5):.1f}" fill="{xml_text(colour)}" fill-opacity="0.5" '
           f'{_stroke(colour, 2)}/>'
           f'<path d="M{centre - half:.1f},{y.px(median):.1f}h{2 * half:.1f}'
           f'M{centre:.1f},{top:.1f}V{y.px(high):.1f}M{centre - half / 2:.1f},{y.px(high):.1f}'
           f'h{half:.1f}M{centre:.1f},{bottom:.1f}V{y.px(low):.1f}'
           f'M{centre - half / 2:.1f},{y.px(low):.1f}h{half:.1f}" fill="none" '
           f'{_stroke(colour, 2)}/></g>']
    if part.trace.get("boxpoints", "outliers") in ("outliers", "all"):
        r = (number((part.trace.get("marker") or {}).get("size")) or 6) / 2
        out += [f'<circle class="cl-point" cx="{centre:.1f}" cy="{y.px(v):.1f}" r="{r:g}" '
                f'fill="{xml_text(colour)}"/>' for v in values if v < low or v > high]
    return out


def _shape(shape: Mapping[str, Any], x: Axis, y: Axis) -> str:
    if shape.get("type", "line") != "line":
        return ""
    ends = []
    for letter, axis in (("x", x), ("y", y)):
        ref = shape.get(f"{letter}ref", letter)
        for key in (f"{letter}0", f"{letter}1"):
            value = number(shape.get(key))
            if value is None:
                return ""
            ends.append(axis.frac(value) if ref in ("paper", f"{letter} domain")
                        else axis.px(value))
    line = shape.get("line") or {}
    stroke = _stroke(line.get("color", "#444"), line.get("width", 2), line.get("dash"))
    return (f'<line class="cl-shape" x1="{ends[0]:.1f}" x2="{ends[1]:.1f}" y1="{ends[2]:.1f}" '
            f'y2="{ends[3]:.1f}" {stroke}/>')


def _annotation(note: Mapping[str, Any], x: Axis, y: Axis, look: Look) -> str:
    xv, yv = number(note.get("x")), number(note.get("y"))
    if xv is None or yv is None or not note.get("text"):
        return ""
    px = x.frac(xv) if note.get("xref") in ("paper", "x domain") else x.px(xv)
    py = y.frac(yv) if note.get("yref", "y") in ("paper", "y domain") else y.px(yv)
    size = number((note.get("font") or {}).get("size")) or 12
    anchor = {"left": "start", "right": "end"}.get(note.get("xanchor", "center"), "middle")
    return svg_text(px + (2 if anchor == "start" else 0), py + size * 0.35, note["text"],
                    "cl-ink2", look.ink2, size, anchor)


# -- the whole figure -----------------------------------------------------------------------

def _legend_items(parts: list[Part], layout: Mapping[str, Any]) -> list[Part]:
    shown = [p for p in parts if p.trace.get("showlegend", True) is not False
             and p.trace.get("name") not in (None, "")]
    wanted = layout.get("showlegend")
    if wanted is False or (wanted is None and len(parts) < 2):
        return []
    return shown


def _swatch(part: Part, x0: float, cy: float) -> str:
    trace = part.trace
    if trace["type"] == "scatter":
        line = trace.get("line") or {}
        out = ""
        if "lines" in trace.get("mode", "lines+markers"):
            out += (f'<path d="M{x0:.1f},{cy:.1f}h30" '
                    f'{_stroke(line.get("color", part.colour), 2, line.get("dash"))}/>')
        if "markers" in trace.get("mode", "lines+markers"):
            out += _marker(x0 + 15, cy, {**trace, "marker": {**(trace.get("marker") or {}),
                                                              "size": 8}}, part.colour, "",
                           "cl-swatch")
        return out
    colour = part.colour if not isinstance((trace.get("marker") or {}).get("color"), list) \
        else trace["marker"]["color"][0]
    fill = 0.5 if trace["type"] == "box" else number(trace.get("opacity")) or 1
    return (f'<rect x="{x0 + 9:.1f}" y="{cy - 6:.1f}" width="12" height="12" '
            f'fill="{xml_text(colour)}" fill-opacity="{fill:g}" {_stroke(colour, 1)}/>')


def figure_svg(figure: Mapping[str, Any], follow_theme: bool = True) -> str:
    """The figure (a plotly figure's JSON as a dict) drawn as one ``<svg>`` element."""
    layout = dict(figure.get("layout") or {})
    traces = [dict(t, type=t.get("type", "scatter")) for t in figure.get("data") or []
              if t.get("visible", True) is True]
    look = Look.of(layout, follow_theme)
    width = int(number(layout.get("width")) or WIDTH)
    height = int(number(layout.get("height")) or 450)
    x = Axis("x", layout.get("xaxis") or {})
    y = Axis("y", layout.get("yaxis") or {})
    set_categories(x, traces, "x")
    set_categories(y, traces, "y")
    shapes = [s for s in layout.get("shapes") or [] if isinstance(s, Mapping)]
    parts = layout_parts(traces, layout, x, y, look)
    for axis, letter in ((x, "x"), (y, "y")):
        if not axis.category:
            set_range(axis, *extent(parts, letter, axis, shapes))
    title = (layout.get("title") or {}).get("text") or ""
    rows = _legend_rows(_legend_items(parts, layout), width, layout)
    x_ticks, y_ticks = _place_plot(layout, title, rows, x, y, width, height)

    body: list[str] = []
    if look.paper:
        body.append(f'<rect width="{width}" height="{height}" fill="{xml_text(look.paper)}"/>')
    if look.plot and look.plot != look.paper:
        body.append(f'<rect x="{x.a:.1f}" y="{y.b:.1f}" width="{x.b - x.a:.1f}" '
                    f'height="{y.a - y.b:.1f}" fill="{xml_text(look.plot)}"/>')
    body += _grid(x, x_ticks, y, y_ticks, look)
    body += _axis_labels(x, x_ticks, y, y_ticks, look, height)
    body.append(_traces(parts, shapes, x, y, look))
    body += [_annotation(n, x, y, look) for n in layout.get("annotations") or []
             if isinstance(n, Mapping)]
    if title:
        tx = width * (number((layout.get("title") or {}).get("x")) or 0.05)
        body.append(svg_text(tx, 24, title, "cl-ink", look.ink, 17, gap=1.2))
    body += _legend(rows, x, y.b - 6 - 20 * (len(rows) - 1), look)
    follow = " cardlab-plot-follow" if look.follow else ""
    style = f"<style>{FOLLOW_STYLE}</style>" if look.follow else ""
    label = plain(title) or "chart"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="cardlab-plot{follow}" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
            f'aria-label="{xml_text(label)}" font-family="{xml_text(FONT)}" '
            f'style="max-width:100%;height:auto">{style}<title>{xml_text(label)}</title>'
            f'{"".join(body)}</svg>')


def _margins(layout: Mapping[str, Any]) -> dict[str, float]:
    return {"l": 80, "r": 80, "t": 100, "b": 80, **(layout.get("margin") or {})}


def _legend_rows(items: list[Part], width: int,
                 layout: Mapping[str, Any]) -> list[list[tuple[Part, float]]]:
    """The legend's items in rows (with their widths) that fit over the plot."""
    margin = _margins(layout)
    room = width - margin["l"] - margin["r"]
    rows: list[list[tuple[Part, float]]] = [[]]
    used = 0.0
    for part in items:
        w = 40 + text_width(part.trace["name"], 12) + 8
        if rows[-1] and used + w > room:
            rows.append([])
            used = 0.0
        rows[-1].append((part, w))
        used += w
    return rows if items else []


def _place_plot(layout: Mapping[str, Any], title: str, rows: list[list[tuple[Part, float]]],
                x: Axis, y: Axis, width: int, height: int
                ) -> tuple[list[tuple[float, str]], list[tuple[float, str]]]:
    """Put the plot inside the margins, grown (as plotly's ``automargin``) to hold the
    title and the legend above it, the tick labels and the axis titles; its ticks."""
    margin = _margins(layout)
    title_h = sum(13 if all(s for _, s in line) else 21 for line in rich_lines(title) if line) \
        if title else 0
    top = max(margin["t"], title_h + 20 * len(rows) + 18)
    y.a, y.b = height - margin["b"], top
    y_ticks = y.ticks()  # first: the left margin holds its labels
    y_title = (y.spec.get("title") or {}).get("text")
    left = max(margin["l"], max((text_width(t, 12) for _, t in y_ticks), default=0) + 12
               + (22 if y_title else 0))
    x.a, x.b = left, width - margin["r"]
    x_ticks = x.ticks()
    lines = max((len(rich_lines(t)) for _, t in x_ticks), default=1)
    x_title = (x.spec.get("title") or {}).get("text")
    bottom = max(margin["b"], 14 * lines + 10 + (18 if x.groups else 0)
                 + (24 if x_title else 0))
    if bottom != margin["b"]:  # the plot is shorter: its ticks again
        y.a = height - bottom
        y_ticks = y.ticks()
    return x_ticks, y_ticks


def _traces(parts: list[Part], shapes: list[Mapping[str, Any]], x: Axis, y: Axis,
            look: Look) -> str:
    """The traces (bars under boxes under lines and points, as plotly layers them) and the
    shapes, clipped to the plot."""
    drawn: list[str] = []
    for kinds in (("bar", "histogram"), ("box",), ("scatter",)):
        for part in parts:
            if part.trace["type"] not in kinds:
                continue
            if part.trace["type"] == "scatter":
                drawn += _draw_scatter(part, x, y, look)
            elif part.trace["type"] == "box":
                drawn += _draw_box(part, x, y)
            else:
                drawn += _draw_bars(part, x, y, look)
    drawn += [_shape(s, x, y) for s in shapes]
    # an id of its own, the same from run to run: pages hold several drawings
    clip = "cl" + hashlib.sha1("".join(drawn).encode()).hexdigest()[:12]
    # the plot's width exactly (a histogram's last bin may run past the axis), with room
    # above and below for a marker on the edge
    return (f'<defs><clipPath id="{clip}"><rect x="{x.a:.1f}" y="{y.b - 6:.1f}" '
            f'width="{x.b - x.a:.1f}" height="{y.a - y.b + 12:.1f}"/></clipPath></defs>'
            f'<g class="cl-traces" clip-path="url(#{clip})">{"".join(drawn)}</g>')


def _grid(x: Axis, x_ticks: list[tuple[float, str]], y: Axis,
          y_ticks: list[tuple[float, str]], look: Look) -> list[str]:
    """The grid at the ticks, and the zero lines."""
    # plotly draws no grid across the categories of x (they stand between its bars)
    d = [] if x.category else [f"M{x.px(v):.1f},{y.a:.1f}V{y.b:.1f}" for v, _ in x_ticks]
    d += [f"M{x.a:.1f},{y.px(v):.1f}H{x.b:.1f}" for v, _ in y_ticks]
    out = [f'<path class="cl-grid" d="{"".join(d)}" fill="none" '
           f'stroke="{xml_text(look.grid)}" stroke-width="1"/>']
    for axis, other in ((x, y), (y, x)):
        if not axis.category and axis.lo < 0 < axis.hi:
            at = axis.px(0)
            line = (f"M{at:.1f},{other.a:.1f}V{other.b:.1f}" if axis is x
                    else f"M{other.a:.1f},{at:.1f}H{other.b:.1f}")
            out.append(f'<path class="cl-zero" d="{line}" stroke="{xml_text(look.zero)}" '
                       f'stroke-width="2"/>')
    return out


def _axis_labels(x: Axis, x_ticks: list[tuple[float, str]], y: Axis,
                 y_ticks: list[tuple[float, str]], look: Look, height: int) -> list[str]:
    """The tick labels, the groups of two-level categories, the axis titles."""
    x_title = (x.spec.get("title") or {}).get("text")
    y_title = (y.spec.get("title") or {}).get("text")
    out = [svg_text(x.px(v), y.a + 16, t, "cl-ink2", look.ink2, anchor="middle", gap=1.15)
           for v, t in x_ticks]
    out += [svg_text(x.a - 6, y.px(v) + 4, t, "cl-ink2", look.ink2, anchor="end")
            for v, t in y_ticks]
    lines = max((len(rich_lines(t)) for _, t in x_ticks), default=1)
    below = y.a + 16 + 14 * (lines - 1)
    if x.groups:  # the first level of two-level categories, under its group
        below += 18
        for top, first, last in x.groups:
            out.append(svg_text((x.px(first) + x.px(last)) / 2, below, str(top), "cl-ink2",
                                look.ink2, anchor="middle"))
        edges = [x.px(first - 0.5) for _, first, _ in x.groups] + [x.px(len(x.cats) - 0.5)]
        out.append('<path class="cl-grid" d="' + "".join(
            f"M{e:.1f},{y.a:.1f}v{below - y.a + 4:.1f}" for e in edges)
            + f'" stroke="{xml_text(look.grid)}" fill="none"/>')
    if x_title:
        out.append(svg_text((x.a + x.b) / 2, min(below + 24, height - 6), x_title, "cl-ink",
                            look.ink, 14, anchor="middle"))
    if y_title:
        widest = max((text_width(t, 12) for _, t in y_ticks), default=0)
        at = max(16.0, x.a - widest - 16)
        out.append(svg_text(at, (y.a + y.b) / 2, y_title, "cl-ink", look.ink, 14,
                            anchor="middle", rotate=True))
    return out


def _legend(rows: list[list[tuple[Part, float]]], x: Axis, first_y: float,
            look: Look) -> list[str]:
    out = []
    for k, row in enumerate(rows):
        if not row:
            continue
        cy = first_y + 20 * k - 4
        at = x.b - sum(w for _, w in row)
        for part, w in row:
            out.append(f'<g class="cl-legend-item">{_swatch(part, at, cy)}'
                       + svg_text(at + 40, cy + 4, part.trace["name"], "cl-ink", look.ink)
                       + "</g>")
            at += w
    return out


__all__ = ["FOLLOW_STYLE", "SVG_PLOT_TAGS", "figure_svg"]
