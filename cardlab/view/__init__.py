"""The notebook view of cardlab: the replay viewer (one front-end for the notebook and the
standalone page), and plotly charts.

- :mod:`cardlab.view.movie`: positions → the JSON movie the front-end draws;
- :mod:`cardlab.view.evals`: the advisor's eval records and report in the movie (Evaluate);
- :mod:`cardlab.view.widget`: :class:`ReplayViewer` and the anywidget :class:`ReplayWidget`;
- :mod:`cardlab.view.page`: one self-contained offline HTML page (``cardlab html``):
  :func:`page_html` its text, :func:`write_page` the file;
- :mod:`cardlab.view.charts`: plotly figures, which a notebook shows in JupyterLab's theme
  and with an SVG drawing that its HTML export keeps (:mod:`cardlab.view.chartshow`; the
  drawing: :mod:`cardlab.view.chartsvg` and :mod:`cardlab.view.chartlayout`);
- ``viewer.js`` (with ``moves.js``, ``evaluate.js`` and ``present.js``, the projector mode)
  and ``viewer.css`` (with ``present.css``): the front-end, joined by
  :mod:`cardlab.view.assets` with ``common.js`` and ``cards.css``, the helpers and card faces
  that every cardlab front-end shares, into one module and one stylesheet.

Importing this package is light: anywidget and plotly are imported only when the viewer or a
chart is used; without them a :class:`cardlab.dataframes.MissingExtraError` names the pip
command (``pip install 'cardlab[widgets]'``).

>>> from cardlab.view import build_movie, page_html
>>> callable(build_movie) and callable(page_html)
True
"""

from __future__ import annotations

import importlib
from typing import Any

from .movie import build_movie
from .page import page_html, write_page

_LAZY = {
    "ReplayViewer": "widget",
    "ReplayWidget": "widget",
    "score_evolution": "charts",
    "score_components": "charts",
    "bid_success": "charts",
    "cards_taken": "charts",
    "hat_travels": "charts",
    "cards_in_hand": "charts",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cardlab.view' has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = ["ReplayViewer", "ReplayWidget", "bid_success", "build_movie", "cards_in_hand",
           "cards_taken", "hat_travels", "page_html", "score_components", "score_evolution",
           "write_page"]
