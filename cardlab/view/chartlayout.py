"""Where the parts of a chart go, for :mod:`cardlab.view.chartsvg`: plotly's pseudo-HTML read
as lines of text, the numbers of its ticks, the colours of a template, its axes, and the place
of each trace's points, bars and boxes (grouped, stacked, binned) on them.

Nothing here is drawn; each value is what plotly itself would compute (its tick steps and
labels, its quartiles, its bins).

>>> nice_step(1.0, 6), tick_label(-0.2, 0.2, ".0%")
(0.2, '−20%')
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

CHAR = 0.6  # an average glyph's width, in em: enough to keep labels apart


# -- text -----------------------------------------------------------------------------------

def xml_text(text: str) -> str:
    """Text for the SVG: escaped, and in ASCII (``&#8722;`` for a minus), so that a page that
    says nothing of its encoding reads it too."""
    return html.escape(text, quote=True).encode("ascii", "xmlcharrefreplace").decode()


def rich_lines(text: object) -> list[list[tuple[str, bool]]]:
    """plotly's pseudo-HTML as lines of (text, small) runs: ``<br>`` breaks a line, ``<sup>``
    and ``<sub>`` are small, other tags are dropped and entities read (``&lt;`` is ``<``).

    >>> rich_lines("Bids<br><sup>bars: 95%</sup> &amp; more")
    [[('Bids', False)], [('bars: 95%', True), (' & more', False)]]
    """
    lines: list[list[tuple[str, bool]]] = [[]]
    small = 0
    for piece in re.split(r"(<[^>]*>)", str(text)):
        if piece.startswith("<") and piece.endswith(">"):
            tag = piece.strip("</>").split()[0].lower() if piece.strip("</> ") else ""
            closing = piece.startswith("</")
            if tag == "br":
                lines.append([])
            elif tag in ("sup", "sub"):
                small = max(0, small - 1) if closing else small + 1
        elif piece:
            lines[-1].append((html.unescape(piece), small > 0))
    return lines


def plain(text: object) -> str:
    """The words of a pseudo-HTML text on one line.

    >>> plain("Score<br><sup>lower is better</sup>")
    'Score — lower is better'
    """
    return " — ".join("".join(t for t, _ in line) for line in rich_lines(text) if line)


def text_width(text: object, size: float) -> float:
    """About how wide ``text`` is at ``size`` px (its longest line), to keep labels apart."""
    return max((sum(len(t) * (0.7 if s else 1) for t, s in line) for line in rich_lines(text)),
               default=0) * size * CHAR


def svg_text(x: float, y: float, text: object, cls: str, fill: str, size: float = 12,
             anchor: str = "start", rotate: bool = False, gap: float = 1.25) -> str:
    """A ``<text>`` of pseudo-HTML whose first line's baseline is at y (the others go down,
    ``gap`` font sizes apart; ``<sup>`` runs are smaller).

    >>> svg_text(10, 20, "a<br><sup>b</sup>", "cl-ink", "#222")
    '<text x="10.0" y="20.0" class="cl-ink" fill="#222" font-size="12">a<tspan x="10.0" \
dy="15.0"><tspan font-size="8.4">b</tspan></tspan></text>'
    """
    attrs = f'x="{x:.1f}" y="{y:.1f}" class="{cls}" fill="{xml_text(fill)}" font-size="{size:g}"'
    if anchor != "start":
        attrs += f' text-anchor="{anchor}"'
    if rotate:
        attrs += f' transform="rotate(-90 {x:.1f} {y:.1f})"'
    spans = []
    for k, line in enumerate(rich_lines(text)):
        runs = "".join(f'<tspan font-size="{size * 0.7:g}">{xml_text(t)}</tspan>' if small
                       else xml_text(t) for t, small in line)
        if k == 0:
            spans.append(runs)
        else:
            spans.append(f'<tspan x="{x:.1f}" dy="{size * gap:.1f}">{runs}</tspan>')
    return f"<text {attrs}>{''.join(spans)}</text>"


# -- numbers --------------------------------------------------------------------------------

def number(value: Any) -> float | None:
    """``value`` as a float, or None if it is no finite number (JSON's null, a string)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return None if math.isnan(value) or math.isinf(value) else float(value)


def nice_step(span: float, count: float) -> float:
    """The tick step plotly would take for about ``count`` ticks over ``span``: 1, 2 or 5
    times a power of ten.

    >>> nice_step(100, 5), nice_step(0.9, 5), nice_step(3, 8)
    (20.0, 0.2, 0.5)
    """
    raw = span / max(count, 1)
    if raw <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if raw <= m * power * 1.0000001)


def tick_label(value: float, step: float, tickformat: str = "") -> str:
    """A tick's label as plotly writes it: a true minus, ``.0%``-style formats, ``k`` for
    thousands.

    >>> tick_label(-20, 10), tick_label(0.25, 0.05, ".0%"), tick_label(25000, 5000)
    ('−20', '25%', '25k')
    """
    match = re.fullmatch(r"\.(\d+)%", tickformat)
    if match:
        text = f"{value * 100:.{int(match.group(1))}f}%"
    elif abs(value) >= 10000 and step >= 1000:
        text = f"{value / 1000:.{max(0, _decimals(step / 1000))}f}k"
    else:
        text = f"{value:.{_decimals(step)}f}"
    return text.replace("-", "−") if value < 0 else text


def _decimals(step: float) -> int:
    if step >= 1 and float(step).is_integer():
        return 0
    return min(6, max(0, -math.floor(math.log10(step) + 1e-9) + (0 if _round(step) else 1)))


def _round(step: float) -> bool:
    lead = step / 10 ** math.floor(math.log10(step))
    return abs(lead - round(lead)) < 1e-6


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """Q1, median, Q3 by plotly's default ``quartilemethod="linear"``.

    >>> quartiles([1, 2, 3, 4])
    (1.75, 2.5, 3.25)
    """
    xs = sorted(values)

    def at(p: float) -> float:
        pos = (len(xs) - 1) * p
        low = math.floor(pos)
        high = min(low + 1, len(xs) - 1)
        return xs[low] + (xs[high] - xs[low]) * (pos - low)

    return at(0.25), at(0.5), at(0.75)


# -- colours --------------------------------------------------------------------------------

@dataclass
class Look:
    """The colours of the parts a drawing draws itself (text, grid, backgrounds)."""

    ink: str = "#2a3f5f"
    ink2: str = "#2a3f5f"
    grid: str = "#EBF0F8"
    zero: str = "#EBF0F8"
    paper: str | None = "white"
    plot: str | None = "white"
    colorway: list[str] = field(default_factory=lambda: [
        "#636efa", "#EF553B", "#00cc96", "#ab63fa", "#FFA15A", "#19d3f3", "#FF6692",
        "#B6E880", "#FF97FF", "#FECB52"])
    follow: bool = False

    @classmethod
    def of(cls, layout: Mapping[str, Any], follow: bool) -> Look:
        tmpl = dict((layout.get("template") or {}).get("layout") or {})
        look = cls()
        if tmpl.get("colorway"):
            look.colorway = list(tmpl["colorway"])
        if layout.get("colorway"):
            look.colorway = list(layout["colorway"])
        if follow:  # Lab's colours on no background (the style block sets them)
            look.ink, look.ink2, look.grid, look.zero = "#222", "#444", "#e0e0e0", "#bdbdbd"
            look.paper = look.plot = None
            look.follow = True
            return look
        merged = {**tmpl, **{k: v for k, v in layout.items() if k != "template"}}
        look.ink = look.ink2 = (merged.get("font") or {}).get("color", look.ink)
        axis = {**tmpl.get("yaxis", {}), **layout.get("yaxis", {})}
        look.grid = axis.get("gridcolor", look.grid)
        look.zero = axis.get("zerolinecolor", look.zero)
        look.paper = merged.get("paper_bgcolor", look.paper)
        look.plot = merged.get("plot_bgcolor", look.plot)
        return look


def _hex(colour: str) -> tuple[float, float, float] | None:
    match = re.fullmatch(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})", colour.strip())
    if not match:
        return None
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    return tuple(int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def is_dark(colour: str) -> bool:
    """Whether white text reads better than black on ``colour`` (a hex colour)."""
    rgb = _hex(colour)
    return rgb is not None and 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] < 0.55


# -- axes -----------------------------------------------------------------------------------

@dataclass
class Axis:
    """One axis: linear (``lo``..``hi``) or category (``cats`` at 0, 1, ...); ``a``..``b``
    are its pixels (b is the far end: the right, or the top of the plot for y)."""

    name: str
    spec: Mapping[str, Any]
    cats: list[Any] = field(default_factory=list)
    groups: list[tuple[Any, int, int]] = field(default_factory=list)  # two-level categories
    lo: float = 0.0
    hi: float = 1.0
    a: float = 0.0
    b: float = 1.0

    @property
    def category(self) -> bool:
        return bool(self.cats)

    def coord(self, value: Any) -> float | None:
        """A value's place on the axis: a number, or a category's index."""
        if self.category:
            key = tuple(value) if isinstance(value, list) else value
            return float(self.cats.index(key)) if key in self.cats else None
        return number(value)

    def px(self, coord: float) -> float:
        lo, hi = (-0.5, len(self.cats) - 0.5) if self.category else (self.lo, self.hi)
        return self.a + (coord - lo) / ((hi - lo) or 1) * (self.b - self.a)

    def frac(self, f: float) -> float:
        return self.a + f * (self.b - self.a)

    def ticks(self) -> list[tuple[float, str]]:
        if self.category:
            return [(float(i), str(c[-1] if isinstance(c, tuple) else c))
                    for i, c in enumerate(self.cats)]
        spec = self.spec
        if spec.get("tickmode") == "array" or "tickvals" in spec:
            texts = spec.get("ticktext") or [str(v) for v in spec.get("tickvals", [])]
            return [(float(v), str(t)) for v, t in zip(spec.get("tickvals", []), texts,
                                                       strict=False)
                    if number(v) is not None and self.lo - 1e-9 <= v <= self.hi + 1e-9]
        # as plotly counts them: a tick each 80 px across (40 px up), 4 to 9 of them, plus one
        count = min(9.0, max(4.0, abs(self.b - self.a) / (80 if self.name == "x" else 40))) + 1
        step = number(spec.get("dtick")) or nice_step(self.hi - self.lo, count)
        first = math.ceil(self.lo / step - 1e-9)
        out: list[tuple[float, str]] = []
        k = first
        while k * step <= self.hi + step * 1e-9 and len(out) < 200:
            out.append((k * step, tick_label(k * step, step, spec.get("tickformat", ""))))
            k += 1
        return out


def _is_multi(values: Any) -> bool:
    return (isinstance(values, list) and len(values) == 2
            and all(isinstance(v, list) for v in values))


def positions(trace: Mapping[str, Any], letter: str) -> list[Any]:
    """A trace's x (or y) values, as plotly reads them (a box's name stands for its x)."""
    values = trace.get(letter)
    if values is None:
        if trace["type"] == "box" and letter == "x":
            return [trace.get("name", "trace")]
        other = trace.get("y" if letter == "x" else "x") or []
        return list(range(len(other)))
    if _is_multi(values):
        return [tuple(pair) for pair in zip(*values, strict=False)]
    return list(values)


def set_categories(axis: Axis, traces: list[dict[str, Any]], letter: str) -> None:
    """Make ``axis`` a category axis if the traces' values along it are words (or pairs of
    them): the ``categoryarray`` first, then each value as it first appears."""
    seen: list[Any] = []
    spec = axis.spec
    if spec.get("categoryorder") == "array":
        seen.extend(spec.get("categoryarray", []))
    numeric = True
    for trace in traces:
        if trace["type"] == "histogram" and letter == "x":
            continue
        if trace["type"] == "box" and letter == "y":
            continue
        for value in positions(trace, letter):
            if isinstance(value, (str, tuple)):
                numeric = False
            if value not in seen:
                seen.append(value)
    if numeric and spec.get("type") != "category":
        return
    if any(isinstance(v, tuple) for v in seen):  # two levels: keep each group together
        order: list[Any] = []
        for top in dict.fromkeys(v[0] for v in seen if isinstance(v, tuple)):
            order.extend(v for v in seen if isinstance(v, tuple) and v[0] == top)
        seen = order
        start = 0
        for k in range(1, len(seen) + 1):
            if k == len(seen) or seen[k][0] != seen[start][0]:
                axis.groups.append((seen[start][0], start, k - 1))
                start = k
    axis.cats = seen


# -- the parts of a chart, laid out ---------------------------------------------------------

@dataclass
class Part:
    """A trace, ready to draw: where its points are (coordinates on the axes)."""

    trace: dict[str, Any]
    index: int
    colour: str
    xs: list[float | None]
    ys: list[float | None]
    base: list[float] = field(default_factory=list)  # bars: where each bar starts
    offset: float = 0.0  # along x, in axis units (grouped bars, scatter and boxes)
    width: float = 0.0  # bars and boxes, in axis units


def _colour(trace: Mapping[str, Any], index: int, look: Look) -> str:
    marker = trace.get("marker") or {}
    for value in (marker.get("color"), (trace.get("line") or {}).get("color")):
        if isinstance(value, str):
            return value
    return look.colorway[index % len(look.colorway)]


def _histogram(trace: Mapping[str, Any], bins: Mapping[str, float]) -> tuple[list[float],
                                                                              list[float]]:
    values = [v for v in (number(x) for x in trace.get("x", [])) if v is not None]
    size = bins["size"]
    counts: dict[int, int] = {}
    for v in values:
        k = math.floor((v - bins["start"]) / size)
        counts[k] = counts.get(k, 0) + 1
    scale = 100 / len(values) if trace.get("histnorm") == "percent" and values else 1
    keys = sorted(counts)
    return ([bins["start"] + (k + 0.5) * size for k in keys],
            [counts[k] * scale for k in keys])


def _bins(traces: list[dict[str, Any]]) -> dict[Any, dict[str, float]]:
    """The bins of each histogram's bingroup: the first trace's xbins (plotly shares them)."""
    found: dict[Any, dict[str, float]] = {}
    for k, trace in enumerate(traces):
        if trace["type"] != "histogram":
            continue
        key = trace.get("bingroup") or k
        spec = trace.get("xbins") or {}
        if key not in found or not found[key].get("given"):
            values = [v for v in (number(x) for x in trace.get("x", [])) if v is not None]
            size = number(spec.get("size")) or nice_step(
                (max(values) - min(values)) if values else 1, 20)
            start = number(spec.get("start"))
            if start is None:
                start = math.floor(min(values, default=0) / size) * size
            found[key] = {"size": size, "start": start, "given": float(bool(spec))}
    return found


def layout_parts(traces: list[dict[str, Any]], layout: Mapping[str, Any], x: Axis, y: Axis,
                 look: Look) -> list[Part]:
    """Each trace's points on the axes, its bars stacked or grouped, its scatter offsets."""
    parts = []
    bins = _bins(traces)
    for k, trace in enumerate(traces):
        colour = _colour(trace, k, look)
        kind = trace["type"]
        if kind == "histogram":
            key = trace.get("bingroup") or k
            centres, heights = _histogram(trace, bins[key])
            part = Part(trace, k, colour, list(centres), list(heights),
                        width=bins[key]["size"])
        elif kind == "box":
            where = x.coord(positions(trace, "x")[0])
            part = Part(trace, k, colour, [where], [])
        else:
            xs = [x.coord(v) for v in positions(trace, "x")]
            ys = [y.coord(v) for v in positions(trace, "y")]
            part = Part(trace, k, colour, xs, ys)
        parts.append(part)
    _place_bars(parts, layout)
    _place_groups(parts, layout, x)
    return parts


def _place_bars(parts: list[Part], layout: Mapping[str, Any]) -> None:
    bars = [p for p in parts if p.trace["type"] in ("bar", "histogram")]
    if not bars:
        return
    mode = layout.get("barmode", "group")
    histograms = all(p.trace["type"] == "histogram" for p in bars)
    gap = number(layout.get("bargap"))
    gap = (0.0 if histograms else 0.2) if gap is None else gap
    slot = 1 - gap
    up: dict[float, float] = {}
    down: dict[float, float] = {}
    for n, part in enumerate(bars):
        unit = part.width or 1.0
        part.width = unit * slot / (len(bars) if mode == "group" else 1)
        if mode == "group":
            part.offset = unit * (-slot / 2 + (n + 0.5) * slot / len(bars))
        part.base = []
        for i, (where, value) in enumerate(zip(part.xs, part.ys, strict=False)):
            value = value or 0.0
            start = 0.0
            if mode in ("stack", "relative") and where is not None:
                pile = down if (mode == "relative" and value < 0) else up
                start = pile.get(where, 0.0)
                pile[where] = start + value
            part.base.append(start)
            part.ys[i] = start + value


def _place_groups(parts: list[Part], layout: Mapping[str, Any], x: Axis) -> None:
    """Scatter points side by side at one x, as ``scattermode="group"`` does (a box stays at
    its place, under the points)."""
    members = [p for p in parts if p.trace["type"] == "scatter"]
    boxes = [p for p in parts if p.trace["type"] == "box"]
    grouped = layout.get("scattermode") == "group"
    keys: list[Any] = []
    for part in members:
        key = part.trace.get("offsetgroup") or (part.trace["type"], part.index)
        if key not in keys:
            keys.append(key)
    if x.category:
        spacing = 1.0
    else:
        places = sorted({v for p in members for v in p.xs if v is not None})
        spacing = min((b - a for a, b in zip(places, places[1:], strict=False) if b > a),
                      default=1.0)
    gap = number(layout.get("scattergap"))
    slot = spacing * (1 - (0.2 if gap is None else gap))
    for part in boxes:
        part.width = 0.5 if x.category else spacing * 0.5
    if not grouped or len(keys) < 2:
        return
    for part in members:
        key = part.trace.get("offsetgroup") or (part.trace["type"], part.index)
        part.offset = -slot / 2 + (keys.index(key) + 0.5) * slot / len(keys)


def extent(parts: list[Part], letter: str, axis: Axis,
           shapes: list[Mapping[str, Any]]) -> tuple[float, float, bool]:
    """The data's extent along an axis, and whether bars or histograms rest on 0 there."""
    values: list[float] = []
    rests = False
    for part in parts:
        kind = part.trace["type"]
        if letter == "x":
            half = part.width / 2 if kind in ("bar", "histogram") else 0
            values += [v + part.offset + s for v in part.xs if v is not None
                       for s in (-half, half)]
            continue
        if kind == "box":
            values += [v for v in (number(y) for y in part.trace.get("y", [])) if v is not None]
            continue
        if kind in ("bar", "histogram"):
            rests = True
            values += [b for b in part.base]
        plus, minus = errors(part.trace, len(part.ys))
        for i, v in enumerate(part.ys):
            if v is not None:
                values += [v + plus[i], v - minus[i]]
    ref = letter
    for shape in shapes:
        if shape.get(f"{letter}ref", ref) == ref:
            values += [v for v in (number(shape.get(f"{letter}0")),
                                   number(shape.get(f"{letter}1"))) if v is not None]
    if not values:
        return 0.0, 1.0, rests
    return min(values), max(values), rests


def set_range(axis: Axis, lo: float, hi: float, rests: bool) -> None:
    """The axis' range: as given, or the data's extent with 5% room (none beyond 0 where
    bars rest on it or ``rangemode="tozero"``), as plotly's autorange."""
    given = axis.spec.get("range")
    if isinstance(given, list) and len(given) == 2 and all(number(v) is not None
                                                           for v in given):
        axis.lo, axis.hi = float(given[0]), float(given[1])
        return
    rests = rests or axis.spec.get("rangemode") == "tozero"  # no room beyond 0, as plotly
    if rests:
        lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi - lo < 1e-12:
        lo, hi = lo - 1, hi + 1
    pad = (hi - lo) * 0.05
    axis.lo = lo if (rests and lo == 0) else lo - pad
    axis.hi = hi if (rests and hi == 0) else hi + pad


def errors(trace: Mapping[str, Any], n: int) -> tuple[list[float], list[float]]:
    """A trace's error bars, up and down from each point (symmetric unless ``arrayminus``
    is given, as plotly takes them)."""
    spec = trace.get("error_y") or {}
    if not spec or spec.get("visible") is False:
        return [0.0] * n, [0.0] * n
    plus = [number(v) or 0.0 for v in spec.get("array", [])] + [0.0] * n
    symmetric = spec.get("symmetric", "arrayminus" not in spec)
    minus = plus if symmetric else \
        [number(v) or 0.0 for v in spec.get("arrayminus", [])] + [0.0] * n
    return [max(0.0, v) for v in plus[:n]], [max(0.0, v) for v in minus[:n]]


__all__ = ["Axis", "Look", "Part", "errors", "extent", "is_dark", "layout_parts", "nice_step",
           "number", "plain", "positions", "quartiles", "rich_lines", "set_categories",
           "set_range", "svg_text", "text_width", "tick_label", "xml_text"]
