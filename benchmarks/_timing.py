"""Shared timing helper for the benchmark scripts (not a benchmark itself)."""

from __future__ import annotations

import time
from collections.abc import Callable


def rate(work: Callable[[int], int], seconds: float = 3.0, repeats: int = 3) -> float:
    """Best units per second over ``repeats`` runs of about ``seconds`` each.

    ``work(i)`` does one unit of work for seed ``i`` and returns how many units it did.
    The best run is reported: on a shared machine the slower runs measure the neighbours.
    """
    best = 0.0
    seed = 0
    for _ in range(repeats):
        done = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for _ in range(50):
                done += work(seed)
                seed += 1
        best = max(best, done / (time.perf_counter() - start))
    return best
