"""How a notebook shows a cardlab chart: in JupyterLab's theme, and with a drawing for exports.

Every chart of :mod:`cardlab.view.charts` is a :class:`Chart`, a ``plotly.graph_objects.Figure``
that displays as one output holding:

- ``application/vnd.plotly.v1+json``: the figure, which JupyterLab's plotly renderer draws
  (interactive) exactly as given. That renderer knows nothing of Lab's theme, so a chart that
  follows the theme (one made without ``template=``) is shown with no background and with
  its texts in ``<span style="color:var(--jp-content-font-color1, ...)">``: plotly passes the
  style to its SVG, the browser resolves the variable, and the chart changes with the theme
  (:func:`themed`);
- ``text/html``: the same chart drawn in SVG by :mod:`cardlab.view.chartsvg`, which
  ``jupyter nbconvert --to html`` keeps (it drops plotly's type), so an exported notebook
  shows every chart with no script and no network (docs/viewer.md, "Charts in a notebook
  and in its export");
- ``text/plain``: the chart's title.

The figure itself is left as plotly made it (``template="plotly_white"``): ``fig.write_html``,
``fig.write_image`` and ``fig.show(renderer=...)`` give the usual plotly chart (in a
notebook, ``fig.show()`` with no arguments shows what the cell's value would).

>>> import cardlab
>>> from cardlab.view import charts
>>> fig = charts.score_evolution(cardlab.example("norwegian-review"))
>>> sorted(mimebundle(fig))
['application/vnd.plotly.v1+json', 'text/html', 'text/plain']
>>> mimebundle(fig)["text/plain"]
'<cardlab chart: Score after each hand>'
"""

from __future__ import annotations

import copy
import json
from typing import Any

from .chartsvg import figure_svg, plain

PLOTLY_MIME = "application/vnd.plotly.v1+json"

# the texts of a chart that follows the theme: Lab's text colours, with a fallback for a
# front-end without them (VS Code's own colour, then a dark grey for a white page)
INK = "var(--jp-content-font-color1, var(--vscode-editor-foreground, #222))"
INK2 = "var(--jp-content-font-color2, var(--vscode-descriptionForeground, #444))"
GREY = "rgba(128,128,128,{})"  # the grid and the axes: a grey that shows on white and black


def ink(text: object, colour: str = INK) -> str:
    """``text`` (plotly pseudo-HTML) in ``colour``, each of its lines on its own (a span that
    runs over a ``<br>`` would lose its colour after it).

    >>> ink("1<br>(5)", "red")
    '<span style="color:red">1</span><br><span style="color:red">(5)</span>'
    """
    return "<br>".join(f'<span style="color:{colour}">{line}</span>' if line else line
                       for line in str(text).split("<br>"))


def theme_template(colorway: list[str] | None = None) -> dict[str, Any]:
    """The template of a chart that follows Lab's theme: no backgrounds, grey lines, its tick
    labels in Lab's secondary text colour (the other texts are wrapped by :func:`themed`)."""
    prefix, suffix = f'<span style="color:{INK2}">', "</span>"
    axis = {"gridcolor": GREY.format(0.22), "zerolinecolor": GREY.format(0.55),
            "linecolor": GREY.format(0.55), "zerolinewidth": 2, "automargin": True,
            "ticks": "", "title": {"standoff": 15}, "tickprefix": prefix,
            "ticksuffix": suffix}
    layout: dict[str, Any] = {
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "rgba(0,0,0,0)",
        "font": {"color": GREY.format(1)}, "hovermode": "closest",
        "hoverlabel": {"align": "left"}, "title": {"x": 0.05},
        "legend": {"bgcolor": "rgba(0,0,0,0)"}, "xaxis": axis, "yaxis": dict(axis),
        "modebar": {"bgcolor": "rgba(0,0,0,0)", "color": GREY.format(0.7),
                    "activecolor": GREY.format(1)}}
    if colorway:
        layout["colorway"] = colorway
    return {"layout": layout}


def themed(figure: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``figure`` (a figure's JSON) that follows Lab's theme when plotly draws it.

    >>> fig = {"data": [{"type": "scatter", "name": "Ann", "y": [1, 2]}],
    ...        "layout": {"title": {"text": "Score"}, "template": {"layout": {}}}}
    >>> shown = themed(fig)
    >>> shown["data"][0]["name"].startswith('<span style="color:var(--jp-content-font-color1')
    True
    >>> shown["layout"]["paper_bgcolor"], fig["data"][0]["name"]
    ('rgba(0,0,0,0)', 'Ann')
    """
    shown = copy.deepcopy(figure)
    layout = shown.setdefault("layout", {})
    colorway = (layout.get("template") or {}).get("layout", {}).get("colorway")
    layout["template"] = theme_template(colorway)
    layout["paper_bgcolor"] = layout["plot_bgcolor"] = "rgba(0,0,0,0)"
    _wrap(layout.get("title"), "text", INK)
    _wrap(layout.get("legend", {}).get("title"), "text", INK)
    for key in [k for k in layout if k.startswith(("xaxis", "yaxis"))]:
        axis = layout[key]
        _wrap(axis.get("title"), "text", INK)
        if "ticktext" in axis:  # given labels get no tickprefix
            axis["ticktext"] = [ink(t, INK2) for t in axis["ticktext"]]
    for note in layout.get("annotations") or []:
        _wrap(note, "text", INK2)
    for trace in shown.get("data") or []:
        if isinstance(trace.get("name"), str) and trace["name"]:
            if trace.get("type") == "box" and "x" not in trace and "x0" not in trace:
                trace["x0"] = trace["name"]  # a box stands at its name: keep it there
            trace["name"] = ink(trace["name"])
        if trace.get("type") == "bar" and trace.get("textposition") == "outside" \
                and isinstance(trace.get("text"), list):
            trace["text"] = [ink(t) for t in trace["text"]]
        x = trace.get("x")
        if isinstance(x, list) and len(x) == 2 and all(isinstance(v, list) for v in x):
            # two-level categories: plotly writes the first level with no tickprefix
            x[0] = [ink(v, INK2) for v in x[0]]
    return shown


def _wrap(holder: Any, key: str, colour: str) -> None:
    if isinstance(holder, dict) and isinstance(holder.get(key), str) and holder[key]:
        holder[key] = ink(holder[key], colour)


def figure_json(fig: Any) -> dict[str, Any]:
    """The figure as plain JSON data (numpy arrays become lists, NaN becomes null)."""
    return json.loads(fig.to_json())  # type: ignore[no-any-return]


def follows_theme(fig: Any) -> bool:
    """Whether ``fig`` is a cardlab chart made without ``template=``."""
    return bool(getattr(fig, "_cardlab_follow_theme", False))


def mimebundle(fig: Any) -> dict[str, Any]:
    """What a notebook stores for ``fig``: plotly's figure (in Lab's theme when
    :func:`follows_theme`), its SVG drawing as ``text/html`` and its title as text."""
    figure = figure_json(fig)
    follow = follows_theme(fig)
    shown = themed(figure) if follow else figure
    title = plain((figure.get("layout", {}).get("title") or {}).get("text", "")) or "chart"
    return {PLOTLY_MIME: {**shown, "config": {"displaylogo": False}},
            "text/html": figure_svg(figure, follow_theme=follow),
            "text/plain": f"<cardlab chart: {title}>"}


_CHART: Any = None


def chart_class() -> Any:
    """The class :class:`Chart` (made on first use: plotly is imported only then)."""
    global _CHART
    if _CHART is None:
        from ..dataframes import require

        go = require("plotly.graph_objects")

        class Chart(go.Figure):  # type: ignore[misc,name-defined]
            """A plotly Figure that a notebook shows in Lab's theme, with an SVG drawing
            that an HTML export keeps (see :mod:`cardlab.view.chartshow`)."""

            _cardlab_follow_theme = False

            def follow_theme(self, follow: bool) -> None:
                """Show this chart in Lab's theme (or, False, in its own template)."""
                self._cardlab_follow_theme = follow

            def _ipython_display_(self) -> None:
                import plotly.io as pio
                from IPython.display import display

                if not _notebook_renderer(pio.renderers.default):
                    super()._ipython_display_()  # a terminal: plotly opens a browser
                    return
                display(mimebundle(self), raw=True)

            def _repr_mimebundle_(self, include: Any = None, exclude: Any = None,
                                  **kwargs: Any) -> dict[str, Any]:
                return mimebundle(self)

            def show(self, *args: Any, **kwargs: Any) -> None:
                """In a notebook, with no arguments: as the cell's value shows it (in Lab's
                theme, with its drawing); otherwise as plotly's ``Figure.show``."""
                import plotly.io as pio

                if not args and not kwargs and _in_kernel() \
                        and _notebook_renderer(pio.renderers.default):
                    from IPython.display import display

                    display(mimebundle(self), raw=True)
                    return
                super().show(*args, **kwargs)

        _CHART = Chart
    return _CHART


def _in_kernel() -> bool:
    """Whether this runs in a notebook's kernel (IPython with a kernel attached)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return getattr(get_ipython(), "kernel", None) is not None


def _notebook_renderer(default: str | None) -> bool:
    """Whether plotly's renderers (``pio.renderers.default``) put a figure in a notebook
    output (as under ipykernel) rather than in a browser tab."""
    names = (default or "").split("+")
    return any(n in {"plotly_mimetype", "jupyterlab", "nteract", "vscode", "notebook",
                     "notebook_connected", "colab", "kaggle", "azure", "databricks",
                     "iframe", "iframe_connected", "json"} for n in names)


__all__ = ["INK", "INK2", "PLOTLY_MIME", "chart_class", "figure_json", "follows_theme",
           "ink", "mimebundle", "theme_template", "themed"]
