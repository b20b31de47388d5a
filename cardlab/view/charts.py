"""plotly figures of a replay: each function returns a ``plotly.graph_objects.Figure``.

- :func:`score_evolution` — cumulative score per player over hands (games, in a Whot rubber);
- :func:`score_components` — per hand and player: bid points and hat points (Bob's Hat);
- :func:`bid_success` — the share of bids each player made;
- :func:`cards_taken` — cards taken per suit per player;
- :func:`hat_travels` — who holds Bob's Hat after each trick of a hand;
- :func:`cards_in_hand` — cards in hand over the turns (Whot).

And of a simulation's frames (``cardlab.simulate(...).hands`` and ``.games``), each with its
95% confidence intervals (see docs/simulations.md, "Charts and the notebook"):

- :func:`score_distribution` — the final totals per bot (or seat);
- :func:`bid_success_by_size` — the share of bids made by hand size, per bot, seat or bid;
- :func:`bid_points_by_size` — the mean points a bid brings by hand size (Bob's Hat's fewest
  against its most bids);
- :func:`hook_bite_rate` — how often Ted's Game's hook bites, by dealer and hand size;
- :func:`score_from_dealer` — the mean points of a hand by seat counted from the dealer;
- :func:`game_length` — how long games last, one run or several side by side.

A ``hand`` argument counts from 1, as everywhere in cardlab (hand 1 is ``replay.hands[0]``).
All numbers come from :mod:`cardlab.dataframes`, i.e. from replaying the log. plotly reads tags
such as ``<b>``, ``<br>`` and ``<a href>`` in titles, legend names, tick labels and hover text,
so every string from the file (seat names) goes in through :func:`label`: a seat called
``<b>Ann</b>`` shows as typed, not in bold.

Each function returns a :class:`cardlab.view.chartshow.Chart`, a plotly Figure that a notebook
shows in JupyterLab's light or dark theme and with an SVG drawing that an HTML export keeps
(docs/viewer.md, "Charts in a notebook and in its export"). A chart that takes ``template=``
keeps the look of the plotly template given there instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from typing import Any

from .. import dataframes
from ..dataframes import HandResult, hand_results_list, require
from ..errors import CardlabError
from ..replay import LinePath, Replay, index_of_hand
from ..words import names_or
from .chartshow import chart_class

# Colours of Bob's Hat's suits and of the playing-card suits, for the cards-taken bars; black
# is drawn dark grey and the hat light brown, to show on a light and a dark page alike
SWATCH = {"blue": "#1f5fbf", "red": "#c0392b", "orange": "#e67e22", "black": "#666",
          "clubs": "#666", "spades": "#666", "hearts": "#c0392b", "diamonds": "#c0392b"}
HAT = "#9a7046"

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#17becf")


def _go() -> Any:
    return require("plotly.graph_objects")


def _figure(*args: Any, **kwargs: Any) -> Any:
    """A new :class:`~cardlab.view.chartshow.Chart` (a plotly Figure)."""
    return chart_class()(*args, **kwargs)


def label(text: object) -> str:
    """Text from a file, escaped for plotly's pseudo-HTML (which shows the entities as text).

    >>> label('<img src=x onerror="alert(1)"> & co')
    '&lt;img src=x onerror="alert(1)"&gt; &amp; co'
    """
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _labels(replay: Replay) -> list[str]:
    return [label(name) for name in replay.seats]


def hand_word(replay: Replay) -> str:
    """What one entry of ``replay.hands`` is called: a game in a Whot rubber, else a hand
    (the game's :attr:`~cardlab.game.GameType.hand_word`)."""
    return replay.rules.game.game_type.hand_word


def _layout(fig: Any, title: str, x: str, y: str, template: str | None = None) -> Any:
    """The charts' common layout. Without ``template`` the figure is plotly_white, and a
    notebook shows it in JupyterLab's theme (:mod:`cardlab.view.chartshow`)."""
    fig.follow_theme(template is None)
    fig.update_layout(title={"text": title, "x": 0.01, "xanchor": "left"}, xaxis_title=x,
                      yaxis_title=y, template=template or "plotly_white", height=340,
                      margin={"l": 50, "r": 20, "t": 70, "b": 50},
                      legend={"orientation": "h", "x": 1, "xanchor": "right", "y": 1.0,
                              "yanchor": "bottom"})
    return fig


def score_series(replay: Replay, hand: int | None = None, path: LinePath = (),
                 results: list[HandResult] | None = None) -> tuple[list[int], list[list[int]]]:
    """(x values 0..H, per seat the running total after each finished hand); ``hand``
    (counted from 1) and ``path`` put a variation's hand in place of the main line's.

    >>> import cardlab
    >>> score_series(cardlab.example("norwegian-review"), hand=1)[0]
    [0, 1, 2]
    """
    xs, series, _ = _series(replay, hand, path, results)
    return xs, series


def _series(replay: Replay, hand: int | None, path: LinePath,
            results: list[HandResult] | None = None
            ) -> tuple[list[int], list[list[int]], list[str]]:
    xs = [0]
    series = [[0] for _ in replay.seats]
    ticks = ["start"]
    if results is None:
        results = hand_results_list(replay, hand, path)
    elif hand is not None:
        index_of_hand(replay, hand)  # refused as hand_results_list would refuse it
    for res in results:
        if not res.ended:
            continue
        xs.append(res.hand_index + 1)
        size = res.end.get("hand_size")
        ticks.append(f"{res.number}<br>({size})" if size else str(res.number))
        for s in range(len(replay.seats)):
            series[s].append(res.totals[s])
    return xs, series, ticks


def score_evolution(replay: Replay, hand: int | None = None, path: LinePath = (),
                    marker: float | None = None, template: str | None = None,
                    results: list[HandResult] | None = None) -> Any:
    """Cumulative score per player over the hands (games of a Whot rubber).

    With ``hand`` (counted from 1) and ``path`` the variation's hand replaces the main
    line's. ``marker`` draws a vertical line at that x (the viewer moves it to the current
    step). ``results`` may pass :func:`cardlab.dataframes.hand_results_list` already computed.
    """
    go = _go()
    xs, series, ticks = _series(replay, hand, path, results)
    word = hand_word(replay)
    # the hover names the hand in words (plotly would show the tick's text, with its break)
    hover = [t if k == 0 else f"{word} {t.replace('<br>', ' ')}" for k, t in enumerate(ticks)]
    fig = _figure()
    for s, name in enumerate(_labels(replay)):
        fig.add_trace(go.Scatter(x=xs, y=series[s], mode="lines+markers", name=name,
                                 line={"color": PALETTE[s % len(PALETTE)]}, text=hover,
                                 hovertemplate="%{text}: %{y}"))
    points = replay.rules.game.game_type.points_word
    against = f" ({points}: lower is better)" if replay.rules.low_score_wins else ""
    sized = any("<br>" in t for t in ticks)
    _layout(fig, f"Score after each {word}{against}",
            f"{word} (cards dealt each)" if sized else word, "total", template)
    fig.update_xaxes(tickmode="array", tickvals=xs, ticktext=ticks)
    if marker is not None:
        fig.add_shape(type="line", x0=marker, x1=marker, y0=0, y1=1, yref="paper",
                      line={"color": "#e0b400", "width": 3, "dash": "dot"}, name="now")
    return fig


def score_components(replay: Replay) -> Any:
    """Points per hand and player, split into components (Bob's Hat: bids, hat, renege)."""
    go = _go()
    rows = dataframes.component_rows(replay)
    fig = _figure()
    colours = {"bids": "#1f5fbf", "hat": HAT, "renege": "#999", "score": "#2ca02c"}
    for component in dict.fromkeys(row["component"] for row in rows):
        part = [row for row in rows if row["component"] == component]
        if component == "renege" and not any(row["points"] for row in part):
            continue
        hands = [row["hand"] for row in part]
        seats = [label(row["seat"]) for row in part]
        fig.add_trace(go.Bar(x=[hands, seats], y=[row["points"] for row in part],
                             name=component, marker_color=colours.get(component),
                             text=[f"{hand_word(replay)} {h}, {n}"
                                   for h, n in zip(hands, seats, strict=True)],
                             textposition="none", hovertemplate="%{text}: %{y}"))
    fig.update_layout(barmode="relative")
    return _layout(fig, f"Points per {hand_word(replay)}: where they came from",
                   f"{hand_word(replay)} / player", "points")


def bid_success(replay: Replay) -> Any:
    """The share of bids each player made (Bob's Hat: each bid of a hand on its own)."""
    go = _go()
    rows = dataframes.bid_result_rows(replay)
    rates, texts = [], []
    for name in replay.seats:
        mine = [row for row in rows if row["seat"] == name]
        made = sum(1 for row in mine if row["made"])
        rates.append(made / len(mine) if len(mine) else 0.0)
        texts.append(f"{made}/{len(mine)}")
    # the counts above the bars, on the page's background (not on the bar's colour)
    fig = _figure(go.Bar(x=_labels(replay), y=rates, text=texts, textposition="outside",
                         cliponaxis=False, marker_color=[PALETTE[s % len(PALETTE)]
                                                         for s in range(len(replay.seats))]))
    fig.update_yaxes(range=[0, 1], tickformat=".0%")
    return _layout(fig, "Bids made", "player", "share of bids made")


def cards_taken(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Any:
    """Cards taken per suit per player in the game, or in hand ``hand`` (counted from 1):
    the cards of each trick go to its winner."""
    go = _go()
    counts: dict[str, dict[str, int]] = {}
    for row in dataframes.play_rows(replay, hand, path):
        winner = row.get("winner")
        if winner is None or "suit" not in row:
            continue
        per = counts.setdefault(row["suit"], {})
        per[winner] = per.get(winner, 0) + 1
    fig = _figure()
    for suit, per in sorted(counts.items()):
        fig.add_trace(go.Bar(x=_labels(replay), y=[per.get(n, 0) for n in replay.seats],
                             name=suit, marker_color=SWATCH.get(suit)))
    fig.update_layout(barmode="stack")
    where = "the game" if hand is None else f"{hand_word(replay)} {hand}"
    return _layout(fig, f"Cards taken per suit in {where}", "player", "cards")


def hat_travels(replay: Replay, hand: int, path: LinePath = ()) -> Any:
    """Who holds Bob's Hat after each trick of hand ``hand`` (counted from 1)."""
    go = _go()
    rows = dataframes.trick_rows(replay, hand, path)
    xs = [0] + [row["trick"] for row in rows]
    nobody = "(nobody)"
    ys = [nobody] + [label(h) if isinstance(h := row.get("hat_holder"), str) else nobody
                     for row in rows]
    texts = [""] + [f"{label(row['winner'])} takes {label(row['cards'])}" for row in rows]
    fig = _figure(go.Scatter(x=xs, y=ys, mode="lines+markers", line_shape="hv",
                               text=texts, hovertemplate="after trick %{x}: %{y}<br>%{text}",
                               marker={"size": 10, "color": HAT}, name="hat"))
    fig.update_yaxes(categoryorder="array", categoryarray=[nobody, *_labels(replay)])
    fig.update_xaxes(dtick=1)
    return _layout(fig, f"Bob's Hat's travels in hand {hand}", "after trick", "held by")


def cards_in_hand(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Any:
    """Cards each player holds over the turns of the game, or of hand ``hand`` (counted from
    1; Whot; works for any game)."""
    go = _go()
    rows = dataframes.seat_step_rows(replay, hand, path)
    fig = _figure()
    for s, name in enumerate(replay.seats):
        mine = [row for row in rows if row["seat"] == name]
        fig.add_trace(go.Scatter(x=[row["step"] for row in mine],
                                 y=[row["held"] for row in mine],
                                 mode="lines", name=label(name), line_shape="hv",
                                 line={"color": PALETTE[s % len(PALETTE)]}))
    starts = [(row["step"], row["hand"]) for row in rows
              if row["index"] == 0 and row["seat"] == replay.seats[0]]
    for step, number in starts:
        fig.add_vline(x=step, line={"color": "#bbb", "dash": "dot"})
        fig.add_annotation(x=step, y=1, yref="paper", text=f"{hand_word(replay)} {number}",
                           showarrow=False, xanchor="left", font={"size": 10})
    return _layout(fig, "Cards in hand", "step", "cards held")


# -- charts of simulations: the frames cardlab.simulate returns ---------------------------
#
# Every function below takes ``result.hands`` (one row per game, hand and seat) or
# ``result.games`` (one row per game and seat) of :func:`cardlab.simulate`, or a frame read
# back with :func:`cardlab.simulation.load`. The tables behind each chart are public too
# (:func:`hook_bites`, :func:`bid_rows`, :func:`rates`, :func:`means`), so that what a chart
# plots can be printed, filtered and checked by hand. Each chart takes ``template`` (left
# out: JupyterLab's light or dark theme; or a plotly template, e.g. "plotly_dark") and
# ``title`` (in place of the title's first line; the line under it, which says how to read
# the chart, stays).

Z95 = 1.959963984540054  # the 97.5% point of the standard normal: a two-sided 95% interval

POSITION_WORDS = ("dealer", "dealer's left")


def _np() -> Any:
    return require("numpy")


def _need(frame: Any, columns: tuple[str, ...], what: str, table: str | None = None) -> None:
    """Refuse a frame without the columns a chart reads, saying which table has them
    (``table``; by default, the hands table of the registered games that record them)."""
    cols = getattr(frame, "columns", None)
    missing = [c for c in columns if cols is None or c not in cols]
    if not missing:
        return
    table = table or _simulated(lambda have: set(columns) <= have)
    if cols is None:
        raise CardlabError(f"{what} is drawn from a DataFrame of cardlab.simulate ({table}), "
                           f"not {type(frame).__name__}")
    raise CardlabError(f"{what} reads the column(s) {', '.join(missing)}, which this "
                       f"frame does not have: pass {table}")


def _simulated(reads: Callable[[set[str]], bool]) -> str:
    """The hands table a chart reads, named by the registered games whose simulations record
    what ``reads`` asks for (:func:`cardlab.simulation.schema.games_recording`)."""
    from ..simulation.schema import games_recording

    games = games_recording(reads)
    return f"the hands table of a {names_or(games)} simulation" if games else \
        "the hands table of a simulation of a game that records them (no registered game does)"


def mean_ci(values: Any) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% confidence interval, Student's t:
    mean ± t(0.975, n - 1) · s / √n (the interval is nan with fewer than two values).

    >>> [round(x, 3) for x in mean_ci([1, 2, 3, 4])]
    [2.5, 0.446, 4.554]
    """
    from ..simulation.summary import t_quantile

    np = _np()
    xs = np.asarray(values, dtype=float)
    n = len(xs)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(xs.mean())
    if n < 2:
        return mean, math.nan, math.nan
    half = t_quantile(0.975, n - 1) * float(xs.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def rate_ci(successes: int, n: int) -> tuple[float, float, float]:
    """The share ``successes / n`` and its 95% Wilson score interval, which stays inside
    0..1 and is sound for small ``n`` and for shares near 0 or 1.

    >>> [round(x, 3) for x in rate_ci(8, 10)]
    [0.8, 0.49, 0.943]
    >>> rate_ci(0, 0)[0]
    nan
    """
    if n <= 0:
        return math.nan, math.nan, math.nan
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return p, max(0.0, centre - half), min(1.0, centre + half)


def difference_ci(a: Any, b: Any) -> tuple[float, float, float]:
    """mean(a) - mean(b) for two independent samples, and its 95% Welch interval
    (Student's t with the Welch-Satterthwaite degrees of freedom).

    >>> [round(x, 2) for x in difference_ci([5, 6, 7, 8], [1, 2, 3, 4])]
    [4.0, 1.77, 6.23]
    """
    from ..simulation.summary import t_quantile

    np = _np()
    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(xa) < 2 or len(xb) < 2:
        return float(xa.mean() - xb.mean()) if len(xa) and len(xb) else math.nan, \
            math.nan, math.nan
    diff = float(xa.mean() - xb.mean())
    va, vb = float(xa.var(ddof=1)) / len(xa), float(xb.var(ddof=1)) / len(xb)
    if va + vb == 0:
        return diff, diff, diff
    df = (va + vb) ** 2 / (va * va / (len(xa) - 1) + vb * vb / (len(xb) - 1))
    half = t_quantile(0.975, df) * math.sqrt(va + vb)
    return diff, diff - half, diff + half


def ratio_ci(a: Any, b: Any) -> tuple[float, float, float]:
    """mean(a) / mean(b) for two independent samples of positive values (lengths, say), and
    its 95% interval by the delta method on the logarithm: ratio · exp(±1.96 · se), with
    se² = s_a² / (n_a · mean_a²) + s_b² / (n_b · mean_b²). Sound for a few dozen values
    and more.

    >>> [round(x, 2) for x in ratio_ci([10, 12, 14, 16] * 10, [5, 6, 7, 8] * 10)]
    [2.0, 1.85, 2.16]
    """
    np = _np()
    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(xa) < 2 or len(xb) < 2 or xa.mean() <= 0 or xb.mean() <= 0:
        return math.nan, math.nan, math.nan
    ma, mb = float(xa.mean()), float(xb.mean())
    se = math.sqrt(float(xa.var(ddof=1)) / (len(xa) * ma * ma)
                   + float(xb.var(ddof=1)) / (len(xb) * mb * mb))
    ratio = ma / mb
    return ratio, ratio * math.exp(-Z95 * se), ratio * math.exp(Z95 * se)


def _groups(frame: Any, by: list[str]) -> Any:
    return frame.groupby(by, observed=True, sort=True) if by else [((), frame)]


def _key(by: list[str], key: Any) -> dict[str, Any]:
    key = key if isinstance(key, tuple) else (key,)
    return dict(zip(by, key, strict=True))


def _table(pd: Any, frame: Any, by: list[str], rows: list[dict[str, Any]],
           columns: list[str]) -> Any:
    """The rows as a frame whose group columns keep the source's dtypes (a category keeps
    its order: seats in seat order, not alphabetical)."""
    table = pd.DataFrame(rows, columns=columns)
    for column in by:
        table[column] = table[column].astype(frame[column].dtype)
    return table


def rates(frame: Any, flag: str, by: list[str] | tuple[str, ...] = ()) -> Any:
    """Per group of ``by``: n (rows), k (rows where ``flag`` is true), rate = k / n and its
    95% Wilson interval (ci_low, ci_high).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"seat": ["N", "N", "S", "S"], "made": [True, False, True, True]})
    >>> rates(df, "made", ["seat"])[["seat", "n", "k", "rate"]].to_dict("list")
    {'seat': ['N', 'S'], 'n': [2, 2], 'k': [1, 2], 'rate': [0.5, 1.0]}
    """
    pd = require("pandas")
    by = list(by)
    rows = []
    for key, part in _groups(frame, by):
        n, k = len(part), int(part[flag].sum())
        rate, low, high = rate_ci(k, n)
        rows.append({**_key(by, key), "n": n, "k": k, "rate": rate, "ci_low": low,
                     "ci_high": high})
    return _table(pd, frame, by, rows, [*by, "n", "k", "rate", "ci_low", "ci_high"])


def means(frame: Any, value: str, by: list[str] | tuple[str, ...] = ()) -> Any:
    """Per group of ``by``: n, the mean of ``value`` and its 95% t interval.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"bot": ["a", "a", "b", "b"], "score": [1, 3, 10, 10]})
    >>> means(df, "score", ["bot"])[["bot", "n", "mean", "ci_low"]].to_dict("list")
    {'bot': ['a', 'b'], 'n': [2, 2], 'mean': [2.0, 10.0], 'ci_low': [-10.706..., 10.0]}
    """
    pd = require("pandas")
    by = list(by)
    rows = []
    for key, part in _groups(frame, by):
        mean, low, high = mean_ci(part[value].dropna())
        rows.append({**_key(by, key), "n": int(part[value].notna().sum()), "mean": mean,
                     "ci_low": low, "ci_high": high})
    return _table(pd, frame, by, rows, [*by, "n", "mean", "ci_low", "ci_high"])


def hook_bites(hands: Any) -> Any:
    """The dealer's row of every hand of a Ted's Game simulation, with two flags:

    - ``live``: the hook forbade the dealer a bid (the others' bids left a number from 0 to
      the tricks in the hand; the engine's ``hooked``), and ``forbidden`` is that bid;
    - ``bite``: the hook was live *and* the dealer took exactly ``forbidden`` tricks: the one
      bid that would have scored was the one the rules took away (so the dealer missed).

    >>> import cardlab
    >>> run = cardlab.simulate("teds-game", players=4, games=2, seed=1, workers=0,
    ...                        progress=False)
    >>> bites = hook_bites(run.hands)
    >>> len(bites) == 2 * 19, bool((bites["bite"] <= bites["live"]).all())
    (True, True)
    """
    _need(hands, ("dealer", "hooked", "forbidden", "tricks", "bid", "hand_size"), "the hook")
    rows = hands[hands["dealer"]]
    keep = [c for c in ("game", "hand", "seat", "seat_index", "bot", "hand_size", "bid",
                        "tricks", "forbidden") if c in rows.columns]
    out = rows[keep].copy()
    out["live"] = rows["hooked"].astype(bool)
    out["bite"] = (rows["hooked"] & (rows["tricks"] == rows["forbidden"])).fillna(False) \
        .astype(bool)
    return out.reset_index(drop=True)


def hook_rates(hands: Any, by: list[str] | tuple[str, ...] = ("seat", "hand_size"),
               flag: str = "bite") -> Any:
    """:func:`rates` of ``bite`` (or ``live``) over the hands each dealer dealt, per ``by``
    (columns of :func:`hook_bites`: seat, bot, hand_size...)."""
    return rates(hook_bites(hands), flag, by)


BID_COLUMNS = ("bid", "hand_size", "seat", "bot")  # what every bid chart reads of a hand


def _bid_points(columns: Collection[str] | None) -> list[Any]:
    """The bids scored on their own (:class:`cardlab.records.BidPart`) as the registered
    games declare them, those whose points are among ``columns`` (None: all)."""
    from ..simulation.schema import bid_parts

    parts = bid_parts()
    return list(parts.values()) if columns is None else [parts[c] for c in columns if c in parts]


def bid_rows(hands: Any) -> Any:
    """One row per bid of a simulation: game, hand, seat, bot, from_dealer, hand_size, bid,
    kind, made, points.

    A game that records a seat's one bid as ``bid`` and ``made`` (Ted's Game): ``bid`` its
    number as text, ``kind`` "zero" or "tricks", ``points`` the hand's score. A game that
    scores each bid on its own declares where (its records' ``bid_parts``; Bob's Hat's
    three most bids are of kind "most"): a row per bid made, with its points, ``made``
    when they are more than 0 (as :class:`~cardlab.records.BidPart` promises).

    >>> import cardlab
    >>> run = cardlab.simulate("bobs-hat", players=3, games=1, seed=1, workers=0,
    ...                        progress=False, options={"hands": 2})
    >>> rows = bid_rows(run.hands)
    >>> set(rows["bid"]) <= {"fewest", "most-black", "most-blue", "most-red"}
    True
    >>> bool((rows["made"] == (rows["points"] > 0)).all())
    True
    """
    pd = require("pandas")
    _need(hands, BID_COLUMNS, "a bid chart")
    base = [c for c in ("game", "hand", "seat", "bot", "from_dealer", "hand_size")
            if c in hands.columns]
    columns = [*base, "bid", "kind", "made", "points"]
    if "made" in hands.columns:  # Ted's Game
        out = hands[base].copy()
        out["bid"] = hands["bid"].astype(str)
        out["kind"] = (hands["bid"] == 0).map({True: "zero", False: "tricks"})
        out["made"] = hands["made"].astype(bool)
        out["points"] = hands["score"].astype("int64")
        return out[columns].reset_index(drop=True)
    parts = _bid_points(hands.columns)
    if not parts:
        raise CardlabError("a bid chart reads whether each bid was made, from a made column or "
                           "from the points of each bid, and this frame has neither: pass "
                           + _simulated(lambda have: set(BID_COLUMNS) <= have and (
                               "made" in have or bool(_bid_points(have)))))
    pieces = []
    for part in parts:
        mine = hands[hands[part.column].notna()]
        if not len(mine):
            continue
        piece = mine[base].copy()
        piece["bid"], piece["kind"] = part.bid, part.kind
        piece["points"] = mine[part.column].astype("int64")
        piece["made"] = piece["points"] > 0
        pieces.append(piece[columns])
    if not pieces:
        return pd.DataFrame(columns=columns)
    return pd.concat(pieces).sort_index(kind="stable").reset_index(drop=True)


def _colour(i: int, name: object = None) -> str:
    """A line's colour: a bid's or a kind's (its first bid's) as its game declares it, else
    the palette's ``i``-th."""
    named = [part.colour for part in _bid_points(None) if str(name) in (part.bid, part.kind)]
    return named[0] if named else PALETTE[i % len(PALETTE)]


def _error_y(table: Any, centre: str) -> dict[str, Any]:
    """Asymmetric error bars from a table's ci_low and ci_high around ``centre``."""
    return {"type": "data", "symmetric": False, "thickness": 1.5, "width": 4,
            "array": (table["ci_high"] - table[centre]).tolist(),
            "arrayminus": (table[centre] - table["ci_low"]).tolist()}


def _sim_layout(fig: Any, title: str, x: str, y: str, template: str | None,
                heading: str | None = None) -> Any:
    """The charts' common layout; ``heading`` (the caller's ``title=``) replaces the first
    line of the title and keeps the line under it that says how to read the chart."""
    if heading is not None:
        title = heading + (title[title.index("<br>"):] if "<br>" in title else "")
    _layout(fig, title, x, y, template)
    # scattermode "group": the points of several lines at one x stand side by side, as
    # grouped bars do, so their error bars do not hide each other
    fig.update_layout(height=400, margin={"l": 60, "r": 20, "t": 90, "b": 55},
                      scattermode="group", scattergap=0.55)
    return fig


def _lines_by(table: Any, by: str | None, x: str, y: str, hover: str) -> list[Any]:
    """One line with 95% error bars per value of ``by`` (one line for everything: None)."""
    go = _go()
    traces = []
    groups = [(None, table)] if by is None else _groups(table, [by])
    for i, (key, part) in enumerate(groups):
        name = "all" if by is None else label(key[0] if isinstance(key, tuple) else key)
        texts = [f"{k}/{n}" for k, n in zip(part["k"], part["n"], strict=True)] \
            if "k" in part else [f"n = {n}" for n in part["n"]]
        traces.append(go.Scatter(
            x=part[x].tolist(), y=part[y].tolist(), name=name, mode="lines+markers",
            error_y=_error_y(part, y), line={"color": _colour(i, name)}, text=texts,
            hovertemplate=f"{name}<br>{hover}<extra></extra>"))
    return traces


def hook_bite_rate(hands: Any, by: str | None = "seat", template: str | None = None,
                   title: str | None = None) -> Any:
    """How often the hook bites, by hand size: one line per dealer (``by="seat"``), per the
    dealer's bot (``"bot"``) or for all hands (``None``), with 95% Wilson intervals.

    A hand counts for the seat that dealt it; it bites when the dealer takes exactly the bid
    the hook forbade (see :func:`hook_bites`).

    >>> import cardlab
    >>> run = cardlab.simulate("teds-game", players=4, games=4, seed=1, workers=0,
    ...                        progress=False)
    >>> fig = hook_bite_rate(run.hands)
    >>> [t.name for t in fig.data]
    ['North', 'East', 'South', 'West']
    """
    table = hook_rates(hands, [by, "hand_size"] if by else ["hand_size"])
    fig = _figure(_lines_by(table, by, "hand_size", "rate",
                              "%{x} cards each: %{y:.1%} bitten (%{text})"))
    fig.update_yaxes(tickformat=".0%", rangemode="tozero")
    fig.update_xaxes(dtick=1)
    return _sim_layout(fig, "The hook bites: the dealer takes exactly the forbidden number"
                       "<br><sup>share of the hands each dealer dealt; bars: 95% confidence"
                       "</sup>", "cards dealt each", "hands bitten", template, title)


def _bids_kept(hands: Any, bids: list[str] | None) -> Any:
    """One row per bid (:func:`bid_rows`), only the ``bids`` named when given."""
    rows = bid_rows(hands)
    return rows if bids is None else rows[rows["bid"].isin(bids)]


def bid_success_by_size(hands: Any, by: str | None = "bot", bids: list[str] | None = None,
                        template: str | None = None, title: str | None = None) -> Any:
    """The share of bids made, by hand size, one line per ``by`` ("bot", "seat", or "bid":
    Bob's Hat's kinds of bid), with 95% Wilson intervals; ``bids`` keeps those bids only.

    >>> import cardlab
    >>> run = cardlab.simulate("teds-game", players=4, games=2, bots="heuristic,random",
    ...                        seed=1, workers=0, progress=False)
    >>> [t.name for t in bid_success_by_size(run.hands).data]
    ['heuristic', 'random']
    """
    rows = _bids_kept(hands, bids)
    table = rates(rows, "made", [by, "hand_size"] if by else ["hand_size"])
    fig = _figure(_lines_by(table, by, "hand_size", "rate",
                              "%{x} cards each: %{y:.1%} made (%{text})"))
    fig.update_yaxes(tickformat=".0%", range=[0, 1.05])
    fig.update_xaxes(dtick=1)
    return _sim_layout(fig, "Bids made, by hand size<br><sup>bars: 95% confidence</sup>",
                       "cards dealt each", "share of bids made", template, title)


def bid_points_by_size(hands: Any, by: str | None = "bid", bids: list[str] | None = None,
                       template: str | None = None, title: str | None = None) -> Any:
    """The mean points a bid scores (made or not), by hand size, one line per ``by`` (the
    bid by default: Bob's Hat's most-blue ... fewest; ``"kind"`` puts the three most bids
    together), with 95% t intervals.

    >>> import cardlab
    >>> run = cardlab.simulate("bobs-hat", players=4, games=3, seed=1, workers=0,
    ...                        progress=False)
    >>> fig = bid_points_by_size(run.hands, bids=["fewest", "most-red"])
    >>> sorted(t.name for t in fig.data)
    ['fewest', 'most-red']
    """
    rows = _bids_kept(hands, bids)
    table = means(rows, "points", [by, "hand_size"] if by else ["hand_size"])
    fig = _figure(_lines_by(table, by, "hand_size", "mean",
                              "%{x} cards each: %{y:.2f} points a bid (%{text})"))
    fig.add_hline(y=0, line={"color": "#888", "width": 1})
    fig.update_xaxes(dtick=1)
    return _sim_layout(fig, "Points a bid brings, made or missed, by hand size"
                       "<br><sup>mean per bid; bars: 95% confidence</sup>",
                       "cards dealt each", "points per bid", template, title)


def score_distribution(games: Any, by: str = "bot", template: str | None = None,
                       title: str | None = None) -> Any:
    """The final totals per bot (or per ``by="seat"``): a box per group (the middle half of
    the games, the median, the whiskers) and the mean with its 95% t interval beside it.
    Pass ``result.hands`` and the hands' scores are shown instead (the points of one hand).

    >>> import cardlab
    >>> run = cardlab.simulate("teds-game", players=4, games=4, bots="heuristic,random",
    ...                        seed=1, workers=0, progress=False)
    >>> [t.name for t in score_distribution(run.games).data]
    ['heuristic', 'random', 'mean, 95% CI']
    """
    go = _go()
    per_hand = "hand" in getattr(games, "columns", ())
    value = "score" if per_hand else "total"
    _need(games, (value, by), "the score distribution",
          "the games (or hands) table of a simulation")
    fig = _figure()
    # the mean's diamond: ink on the paper's colour, or mid grey where the theme decides
    ink, paper = ("#808080", "rgba(0,0,0,0)") if template is None else \
        ("#eee", "#111") if "dark" in template else ("#333", "#fff")
    names, table = [], means(games, value, [by])
    for i, (key, part) in enumerate(_groups(games, [by])):
        name = label(key[0] if isinstance(key, tuple) else key)
        names.append(name)
        fig.add_trace(go.Box(y=part[value].tolist(), name=name, boxpoints="outliers",
                             marker={"color": _colour(i), "size": 3},
                             line={"color": _colour(i)}, offsetgroup="box"))
    fig.add_trace(go.Scatter(
        x=names, y=table["mean"].tolist(), mode="markers", name="mean, 95% CI",
        marker={"symbol": "diamond", "size": 10, "color": ink,
                "line": {"color": paper, "width": 1}},
        error_y={**_error_y(table, "mean"), "color": ink},
        text=[f"n = {n}" for n in table["n"]],
        hovertemplate="%{x}: mean %{y:.1f} (%{text})<extra></extra>"))
    what = "Points per hand" if per_hand else "Final totals"
    return _sim_layout(fig, f"{what} per {by}<br><sup>box: the middle half and the median; "
                       "diamond: the mean with its 95% confidence interval</sup>",
                       by, "points in a hand" if per_hand else "final total", template, title)


def score_from_dealer(hands: Any, by: str | None = None, value: str = "score",
                      template: str | None = None, title: str | None = None) -> Any:
    """The mean points of a hand by where a seat sits from that hand's dealer (the dealer,
    the dealer's left, ...), with 95% t intervals; ``by="bot"`` draws one set per bot.

    >>> import cardlab
    >>> run = cardlab.simulate("bobs-hat", players=4, games=2, seed=1, workers=0,
    ...                        progress=False)
    >>> score_from_dealer(run.hands).data[0].x
    ('dealer', "dealer's left", 'dealer +2', 'dealer +3')
    """
    go = _go()
    _need(hands, ("from_dealer", value), "the dealer's edge",
          "the hands table of a simulation")
    players = int(hands["from_dealer"].max()) + 1 if len(hands) else 0
    words = [*POSITION_WORDS, *(f"dealer +{k}" for k in range(2, players))][:players]
    table = means(hands, value, [by, "from_dealer"] if by else ["from_dealer"])
    table["position"] = [words[k] for k in table["from_dealer"]]
    fig = _figure()
    groups = [(None, table)] if by is None else _groups(table, [by])
    for i, (key, part) in enumerate(groups):
        name = "all seats" if by is None else label(key[0] if isinstance(key, tuple) else key)
        fig.add_trace(go.Bar(x=part["position"].tolist(), y=part["mean"].tolist(), name=name,
                             marker_color=_colour(i), error_y=_error_y(part, "mean"),
                             text=[f"n = {n}" for n in part["n"]], textposition="none",
                             hovertemplate=f"{name}<br>%{{x}}: %{{y:.2f}} (%{{text}})"
                                           "<extra></extra>"))
    fig.update_layout(barmode="group", showlegend=by is not None)
    fig.add_hline(y=0, line={"color": "#888", "width": 1})
    return _sim_layout(fig, "Points per hand by seat, counted from the dealer"
                       "<br><sup>mean; bars: 95% confidence</sup>", "seat in the hand",
                       "mean points in a hand", template, title)


def lengths(frame: Any) -> Any:
    """The length of each game in actions (every play, bid, draw or call is one), as a
    Series: from the games table one per game; from the hands table one per (game, hand),
    i.e. per game of a Whot rubber."""
    per_hand = "hand" in getattr(frame, "columns", ())
    _need(frame, ("game", "actions"), "game length", "the hands or games table of a simulation")
    keys = ["game", "hand"] if per_hand else ["game"]
    return frame.drop_duplicates(keys)["actions"].reset_index(drop=True)


def game_length(frames_by_label: Any, template: str | None = None,
                title: str | None = None) -> Any:
    """How long games last, in actions: a histogram per run, its mean (95% t interval) in the
    legend and as a dotted line (:func:`ratio_ci` says how many times longer one run is).
    Pass one frame, or ``{"label": frame, ...}`` to compare runs (e.g. classic and Nigerian
    Whot); a hands table counts each game of a Whot rubber.

    The runs share their bins. The x axis stops at the longest 1% of all the games, so that
    a few very long ones do not squash the rest (they still count in the shares and means).

    >>> import cardlab
    >>> runs = {rules: cardlab.simulate("whot", games=5, seed=1, workers=0, progress=False,
    ...                                 options={"rubber": "single", "rules": rules})
    ...         for rules in ("classic", "nigerian")}
    >>> fig = game_length({k: r.games for k, r in runs.items()})
    >>> [t.name.split(":")[0] for t in fig.data]
    ['classic', 'nigerian']
    """
    go = _go()
    np = _np()
    if hasattr(frames_by_label, "columns"):
        frames_by_label = {"all games": frames_by_label}
    unit = "game"
    runs = []
    for name, frame in frames_by_label.items():
        if "hand" in getattr(frame, "columns", ()) and "cards_left" not in frame.columns:
            unit = "hand"  # a hand of Ted's Game or Bob's Hat; a Whot "hand" is a game
        runs.append((label(name), lengths(frame)))
    every = np.concatenate([xs.to_numpy(dtype=float) for _, xs in runs]) if runs else []
    top = float(np.quantile(every, 0.99)) if len(every) else 1.0
    size = max(1.0, math.ceil(top / 40))  # about 40 bins up to the axis' end
    fig = _figure()
    for i, (name, xs) in enumerate(runs):
        mean, low, high = mean_ci(xs)
        fig.add_trace(go.Histogram(
            x=xs.tolist(), name=f"{name}: mean {mean:.1f} [{low:.1f}, {high:.1f}]",
            histnorm="percent", opacity=0.65, marker_color=_colour(i),
            xbins={"start": 0, "size": size}, bingroup="length",
            hovertemplate=f"{name}<br>%{{x}} actions: %{{y:.1f}}% of the {unit}s"
                          "<extra></extra>"))
        fig.add_vline(x=mean, line={"color": _colour(i), "dash": "dot", "width": 2})
    fig.update_layout(barmode="overlay")
    fig.update_xaxes(range=[0, top + size])
    return _sim_layout(fig, f"How long a {unit} lasts<br><sup>share of {unit}s by their "
                       "number of actions; dotted: the mean (legend: with its 95% confidence "
                       "interval); the longest 1% are off the edge</sup>",
                       f"actions in the {unit}", f"share of {unit}s (%)", template, title)


__all__ = ["score_evolution", "score_components", "bid_success", "cards_taken",
           "hat_travels", "cards_in_hand", "score_series", "hand_word", "label",
           "mean_ci", "rate_ci", "difference_ci", "ratio_ci", "rates", "means", "hook_bites",
           "hook_rates", "bid_rows",
           "hook_bite_rate", "bid_success_by_size", "bid_points_by_size",
           "score_distribution", "score_from_dealer", "lengths", "game_length"]
