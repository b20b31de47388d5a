"""The summary of a run: per bot and per seat, the mean final total with a 95% confidence
interval, and the win rate.

Totals are summed exactly (Python ints) chunk by chunk, so the summary of a run of any size
costs no memory, and is the same whatever the chunks or their order.

The interval is Student's t interval for the mean of the seat-games (``n`` of them): mean ±
t(0.975, n - 1) · s / √n. Seats of one game are not independent of each other (one seat's
points are often another's loss), so read the bots' intervals as a guide, not a test. The win
rate counts a shared win as 1/k for k tied winners (the games table's ``share``).

>>> round(t_quantile(0.975, 10), 4), round(t_quantile(0.975, 1), 3)
(2.2281, 12.706)
"""

from __future__ import annotations

import math
from typing import Any


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile (0.5 < p < 1) of Student's t, by bisection on :func:`t_cdf`."""
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


class Tally:
    """Exact running sums of the games table, per bot and per seat."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, str], list[Any]] = {}  # (by, name) → [n, sum, sumsq, wins]

    def add(self, games: Any) -> None:
        """Add a games table (pyarrow) or frame (pandas): per bot and per seat, the count,
        the sum and the sum of squares of the totals, and the sum of the win shares."""
        import numpy as np
        import pyarrow as pa

        if not isinstance(games, pa.Table):
            games = pa.table({c: pa.array(games[c]) for c in ("seat", "bot", "total",
                                                              "share")})
        total = games.column("total").to_numpy().astype(np.int64)
        share = games.column("share").to_numpy()
        for by in ("bot", "seat"):
            column = games.column(by).unify_dictionaries().combine_chunks()
            if not pa.types.is_dictionary(column.type):
                column = column.dictionary_encode()
            names = column.dictionary.to_pylist()
            index = column.indices.to_numpy()
            size = len(names)
            counts = np.bincount(index, minlength=size)
            sums = np.zeros(size, dtype=np.int64)
            squares = np.zeros(size, dtype=np.int64)
            np.add.at(sums, index, total)  # integer sums: exact
            np.add.at(squares, index, total * total)
            wins = np.bincount(index, weights=share, minlength=size)
            for i, name in enumerate(names):
                if not counts[i]:
                    continue
                group = self.groups.setdefault((by, str(name)), [0, 0, 0, 0.0])
                group[0] += int(counts[i])
                group[1] += int(sums[i])
                group[2] += int(squares[i])
                group[3] += float(wins[i])

    def merge(self, groups: dict[tuple[str, str], list[Any]]) -> None:
        """Add another tally's sums (its :attr:`groups`: a chunk's, from the worker that
        played it); merged chunk by chunk in game order, the sums are those of
        :meth:`add` over the same chunks."""
        for key, (count, total, squares, wins) in groups.items():
            group = self.groups.setdefault(key, [0, 0, 0, 0.0])
            group[0] += count
            group[1] += total
            group[2] += squares
            group[3] += wins

    def rows(self, order: dict[str, list[str]]) -> list[dict[str, Any]]:
        """One dict per group: by, name, n, mean, ci_low, ci_high, win_rate (bots first,
        then seats, each in ``order``)."""
        out = []
        for by in ("bot", "seat"):
            for name in order[by]:
                if (by, name) not in self.groups:
                    continue
                n, total, squares, wins = self.groups[(by, name)]
                mean = total / n
                if n > 1:
                    # exact integer arithmetic for the sum of squared deviations
                    var = (squares * n - total * total) / (n * (n - 1))
                    half = t_quantile(0.975, n - 1) * math.sqrt(max(var, 0.0) / n)
                else:
                    half = math.nan
                out.append({"by": by, "name": name, "n": n, "mean": mean,
                            "ci_low": mean - half, "ci_high": mean + half,
                            "win_rate": wins / n})
        return out


def frame(rows: list[dict[str, Any]]) -> Any:
    """The summary rows as a DataFrame indexed by (by, name)."""
    import pandas as pd

    columns = ["by", "name", "n", "mean", "ci_low", "ci_high", "win_rate"]
    return pd.DataFrame(rows, columns=columns).set_index(["by", "name"])


def text(rows: list[dict[str, Any]], low_wins: bool) -> list[str]:
    """The summary as lines of a table, for the command line."""
    head = f"{'':14} {'n':>9} {'mean total':>11}  {'95% CI':>19} {'win rate':>9}"
    lines = [head]
    for by in ("bot", "seat"):
        for row in (r for r in rows if r["by"] == by):
            ci = ("" if math.isnan(row["ci_low"]) else
                  f"[{row['ci_low']:.2f}, {row['ci_high']:.2f}]")
            label = f"{by} {row['name']}"
            lines.append(f"{label:14} {row['n']:>9,} {row['mean']:>11.2f}  {ci:>19} "
                         f"{row['win_rate']:>8.1%}")
    if low_wins:
        lines.append("(penalty points: the lowest total wins)")
    return lines
