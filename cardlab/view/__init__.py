"""The notebook view of cardlab: the replay viewer, card tiles and plotly charts.

Importing this package is light: ipywidgets and plotly are imported only when the viewer or
a chart is used; without them a :class:`cardlab.frames.MissingExtraError` names the pip
command (``pip install 'cardlab[notebook]'``).

>>> from cardlab.view import card_html
>>> "cl-blue" in card_html("bobs-hat", "blue3")
True
"""

from __future__ import annotations

import importlib
from typing import Any

from .cards import back_html, card_html
from .table import render_position, shown_trick

_LAZY = {
    "ReplayViewer": "viewer",
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


__all__ = ["ReplayViewer", "back_html", "bid_success", "card_html", "cards_in_hand",
           "cards_taken", "hat_travels", "render_position", "score_components",
           "score_evolution", "shown_trick"]
