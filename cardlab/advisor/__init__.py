"""The advisor: the seat's-view sampler, Monte Carlo evaluation and the open-hand solver.

>>> import cardlab
>>> from cardlab.advisor import evaluate
>>> review = cardlab.example("norwegian-review")
>>> result = evaluate(review, hand=1, index=7, rollouts=20, seed=1)
>>> result.best() in result.values
True
"""

from __future__ import annotations

from .evaluate import Estimate, Evaluation, evaluate
from .sample import Sampler, SeatView, sampler_for, seat_view

__all__ = ["Estimate", "Evaluation", "Sampler", "SeatView", "evaluate", "sampler_for",
           "seat_view"]
