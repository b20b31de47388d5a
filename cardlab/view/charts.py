"""plotly figures of a replay: each function returns a ``plotly.graph_objects.Figure``.

- :func:`score_evolution` — cumulative score per player over hands (games, in a Whot rubber);
- :func:`score_components` — per hand and player: bid points and hat points (Bob's Hat);
- :func:`bid_success` — the share of bids each player made;
- :func:`cards_taken` — cards taken per suit per player;
- :func:`hat_travels` — who holds Bob's Hat after each trick of a hand;
- :func:`cards_in_hand` — cards in hand over the turns (Whot).

A ``hand`` argument counts from 1, as everywhere in cardlab (hand 1 is ``replay.hands[0]``).
All numbers come from :mod:`cardlab.frames`, i.e. from replaying the log. plotly reads tags
such as ``<b>``, ``<br>`` and ``<a href>`` in titles, legend names, tick labels and hover text,
so every string from the file (seat names) goes in through :func:`label`: a seat called
``<b>Ann</b>`` shows as typed, not in bold.
"""

from __future__ import annotations

from typing import Any

from .. import frames
from ..frames import HandResult, hand_results_list, require
from ..replay import LinePath, Replay, index_of_hand

# Colours of Bob's Hat's suits and of the playing-card suits, for the cards-taken bars.
SWATCH = {"blue": "#1f5fbf", "red": "#c0392b", "orange": "#e67e22", "black": "#111",
          "clubs": "#111", "spades": "#111", "hearts": "#c0392b", "diamonds": "#c0392b"}

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#17becf")


def _go() -> Any:
    return require("plotly.graph_objects")


def label(text: object) -> str:
    """Text from a file, escaped for plotly's pseudo-HTML (which shows the entities as text).

    >>> label('<img src=x onerror="alert(1)"> & co')
    '&lt;img src=x onerror="alert(1)"&gt; &amp; co'
    """
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _labels(replay: Replay) -> list[str]:
    return [label(name) for name in replay.seats]


def hand_word(replay: Replay) -> str:
    """What one entry of ``replay.hands`` is called: a game in a Whot rubber, else a hand."""
    return "game" if replay.game == "whot" else "hand"


def _layout(fig: Any, title: str, x: str, y: str, template: str = "plotly_white") -> Any:
    fig.update_layout(title={"text": title, "x": 0.01, "xanchor": "left"}, xaxis_title=x,
                      yaxis_title=y, template=template, height=340,
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
                    marker: float | None = None, template: str = "plotly_white",
                    results: list[HandResult] | None = None) -> Any:
    """Cumulative score per player over the hands (games of a Whot rubber).

    With ``hand`` (counted from 1) and ``path`` the variation's hand replaces the main
    line's. ``marker`` draws a vertical line at that x (the viewer moves it to the current
    step). ``results`` may pass :func:`cardlab.frames.hand_results_list` already computed.
    """
    go = _go()
    xs, series, ticks = _series(replay, hand, path, results)
    fig = go.Figure()
    for s, name in enumerate(_labels(replay)):
        fig.add_trace(go.Scatter(x=xs, y=series[s], mode="lines+markers", name=name,
                                 line={"color": PALETTE[s % len(PALETTE)]}))
    word = hand_word(replay)
    against = " (points against: lower is better)" if replay.game == "whot" else ""
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
    df = frames.score_components(replay)
    fig = go.Figure()
    colours = {"bids": "#1f5fbf", "hat": "#6b4b2a", "renege": "#999", "score": "#2ca02c"}
    for component in df["component"].unique():
        part = df[df["component"] == component]
        if component == "renege" and not part["points"].any():
            continue
        fig.add_trace(go.Bar(x=[part["hand"].tolist(), [label(n) for n in part["seat"]]],
                             y=part["points"].tolist(), name=component,
                             marker_color=colours.get(component)))
    fig.update_layout(barmode="relative")
    return _layout(fig, f"Points per {hand_word(replay)}: where they came from",
                   f"{hand_word(replay)} / player", "points")


def bid_success(replay: Replay) -> Any:
    """The share of bids each player made (Bob's Hat: each bid of a hand on its own)."""
    go = _go()
    df = frames.bid_results(replay)
    rates, texts = [], []
    for name in replay.seats:
        mine = df[df["seat"] == name]
        made = int(mine["made"].sum())
        rates.append(made / len(mine) if len(mine) else 0.0)
        texts.append(f"{made}/{len(mine)}")
    fig = go.Figure(go.Bar(x=_labels(replay), y=rates, text=texts, textposition="auto",
                           marker_color=[PALETTE[s % len(PALETTE)]
                                         for s in range(len(replay.seats))]))
    fig.update_yaxes(range=[0, 1], tickformat=".0%")
    return _layout(fig, "Bids made", "player", "share of bids made")


def cards_taken(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Any:
    """Cards taken per suit per player in the game, or in hand ``hand`` (counted from 1):
    the cards of each trick go to its winner."""
    go = _go()
    counts: dict[str, dict[str, int]] = {}
    for row in frames.play_rows(replay, hand, path):
        winner = row.get("winner")
        if winner is None or "suit" not in row:
            continue
        per = counts.setdefault(row["suit"], {})
        per[winner] = per.get(winner, 0) + 1
    fig = go.Figure()
    for suit, per in sorted(counts.items()):
        fig.add_trace(go.Bar(x=_labels(replay), y=[per.get(n, 0) for n in replay.seats],
                             name=suit, marker_color=SWATCH.get(suit)))
    fig.update_layout(barmode="stack")
    where = "the game" if hand is None else f"{hand_word(replay)} {hand}"
    return _layout(fig, f"Cards taken per suit in {where}", "player", "cards")


def hat_travels(replay: Replay, hand: int, path: LinePath = ()) -> Any:
    """Who holds Bob's Hat after each trick of hand ``hand`` (counted from 1)."""
    go = _go()
    df = frames.tricks(replay, hand, path)
    xs = [0] + df["trick"].tolist()
    nobody = "(nobody)"
    ys = [nobody] + [label(h) if isinstance(h, str) else nobody
                     for h in df.get("hat_holder", [])]
    texts = [""] + [f"{label(w)} takes {label(c)}"
                    for w, c in zip(df["winner"], df["cards"], strict=True)]
    fig = go.Figure(go.Scatter(x=xs, y=ys, mode="lines+markers", line_shape="hv",
                               text=texts, hovertemplate="after trick %{x}: %{y}<br>%{text}",
                               marker={"size": 10, "color": "#6b4b2a"}, name="hat"))
    fig.update_yaxes(categoryorder="array", categoryarray=[nobody, *_labels(replay)])
    fig.update_xaxes(dtick=1)
    return _layout(fig, f"Bob's Hat's travels in hand {hand}", "after trick", "held by")


def cards_in_hand(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Any:
    """Cards each player holds over the turns of the game, or of hand ``hand`` (counted from
    1; Whot; works for any game)."""
    go = _go()
    df = frames.seat_steps(replay, hand, path)
    fig = go.Figure()
    for s, name in enumerate(replay.seats):
        mine = df[df["seat"] == name]
        fig.add_trace(go.Scatter(x=mine["step"].tolist(), y=mine["held"].tolist(),
                                 mode="lines", name=label(name), line_shape="hv",
                                 line={"color": PALETTE[s % len(PALETTE)]}))
    starts = df[(df["index"] == 0) & (df["seat"] == replay.seats[0])]
    for step, number in zip(starts["step"], starts["hand"], strict=True):
        fig.add_vline(x=step, line={"color": "#bbb", "dash": "dot"})
        fig.add_annotation(x=step, y=1, yref="paper", text=f"{hand_word(replay)} {number}",
                           showarrow=False, xanchor="left", font={"size": 10})
    return _layout(fig, "Cards in hand", "step", "cards held")


__all__ = ["score_evolution", "score_components", "bid_success", "cards_taken",
           "hat_travels", "cards_in_hand", "score_series", "hand_word", "label"]
