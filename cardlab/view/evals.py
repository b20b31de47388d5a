"""The advisor's numbers in the movie: each decision's values, where a seat's game turned, its
costly decisions, and luck against skill.

The values come from the replay's ``eval`` records (written by ``cardlab analyse`` or
:func:`cardlab.advisor.evaluate`), the costly decisions and the luck from
:mod:`cardlab.advisor.report`; nothing here estimates anything. What is added is only what
the front-end needs to draw them: the actions as people read them, which is best and worst
(the highest and lowest mean), the card each action plays, and the texts.

What a seat may see: in a seat's view only that seat's own decisions appear (another seat's
values name the cards in its hand), and not an ``exact`` record, which was solved with every
hand open (:func:`cardlab.seatview.visible_eval` decides, for the values, the costly
decisions and the luck alike). A decision's values belong to the step where it is made;
what was played shows from the next step, and a hand's luck once the hand is over.

>>> entry = eval_entry("bobs-hat", ["Ann", "Bo"], 0, {"seat": "Ann", "rollouts": 200,
...     "seed": 0, "bot": "heuristic", "values": {"play red3": [2.5, 0.25],
...     "play blue14": [-1.0, 0.5], "play red9": [2.5, 0.2]}})
>>> [row[0] for row in entry["v"]], entry["best"], entry["worst"], entry["c"]["blue14"]
(['play red3', 'play red9', 'play blue14'], ['play red3', 'play red9'], ['play blue14'], 2)
>>> entry["v"][2][4:]
['−1.0', '▼ −1.0 ± 0.5', '▼']
>>> entry["src"].startswith("Ann's choices: expected hand score over 200 sampled deals")
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .wording import MINUS, pretty

BEST, WORST = "▲", "▼"  # marks that say best and worst without colour
BOTS = {"random": "random play", "heuristic": "the heuristic bot",
        "exact": "the heuristic bot, then the exact solver once few cards remain"}


def number(value: float, digits: int = 1) -> str:
    """A value as printed: a sign, one decimal, a real minus sign.

    >>> number(3), number(-0.04), number(-2.25)
    ('+3.0', '0.0', '−2.2')
    """
    text = f"{value:+.{digits}f}"
    if float(text) == 0:
        return f"{0:.{digits}f}"
    return text.replace("-", MINUS)


def source_text(record: dict[str, Any], actor: str, low: bool = False) -> str:
    """Where the numbers came from, in words."""
    what = "points against (fewer is better)" if low else "hand score"
    if record.get("exact"):
        return (f"{actor}'s choices: exact {what}, every hand open, solved to the end "
                "of the hand")
    n = int(record.get("rollouts", 0))
    bot = BOTS.get(str(record.get("bot")), str(record.get("bot")))
    note = f" (the advisor's note: {record['note']})" if record.get("note") else ""
    return (f"{actor}'s choices: expected {what} over {n} sampled deal"
            f"{'' if n == 1 else 's'}, played out by {bot}; "
            f"± one standard error{note}")


def eval_entry(game: str, seats: Sequence[str], actor: int, record: dict[str, Any],
               low: bool = False) -> dict[str, Any]:
    """What the front-end draws for one decision's record: ``v`` the actions best first,
    each ``[text, as read, mean, stderr, value, full, mark]`` (``value`` as printed on a
    card, ``full`` with the mark and the standard error, ``mark`` ▲ best, ▼ worst or "");
    ``best`` and ``worst`` the texts of the highest and lowest mean (the other way round
    with ``low``, Whot's points against; no worst when all are equal); ``c`` each card →
    the index in ``v`` of the best action that plays it; ``p`` the seat; ``src`` where the
    numbers came from."""
    exact = bool(record.get("exact"))
    values = [(text, float(pair[0]), float(pair[1]))
              for text, pair in dict(record.get("values") or {}).items()]
    sign = -1.0 if low else 1.0
    values.sort(key=lambda item: -sign * item[1])  # stable: equal means keep their order
    means = [mean for _, mean, _ in values]
    top, bottom = (means[0], means[-1]) if means else (0.0, 0.0)
    best = [text for text, mean, _ in values if mean == top]
    worst = [text for text, mean, _ in values if mean == bottom] if bottom != top else []
    rows = []
    cards: dict[str, int] = {}
    for i, (text, mean, stderr) in enumerate(values):
        mark = BEST if text in best else WORST if text in worst else ""
        shown = number(mean, 0 if exact and mean == int(mean) else 1)
        full = shown if exact or not math.isfinite(stderr) else f"{shown} ± {stderr:.1f}"
        rows.append([text, pretty(game, text), mean, stderr, shown, f"{mark} {full}".strip(),
                     mark])
        words = text.split(" ")
        if words[0] == "play" and len(words) > 1:  # the card the action plays, as frames do
            cards.setdefault(words[1], i)
    return {"p": actor, "v": rows, "best": best, "worst": worst, "c": cards, "x": exact,
            "src": source_text(record, seats[actor], low)}


def decisions_data(replay: Any, starts: dict[int, int], top: int,
                   seat: int | None) -> dict[str, Any]:
    """The costly decisions and the luck of the main line from :mod:`cardlab.advisor.report`
    (``seat``: what that seat's view may show of its own), placed at their steps: ``starts``
    maps a hand (from 1) to the step of its deal on the main line, ``top`` is its last step.

    ``dec``: one entry per evaluated decision, ``s`` the step where it is made (what was
    played shows from ``s + 1``); ``luck``: one entry per seat and hand, ``s`` the hand's last
    step."""
    from ..advisor import report  # the advisor is needed only by analysed replays

    game = replay.game
    word = replay.rules.game.game_type.hand_word
    dec = []
    for d in report.decisions(replay, seat, seat_view=True):
        if d.hand not in starts:
            continue
        step = starts[d.hand] + d.index
        played = d.values[d.played][0]
        best = d.values[d.best][0]
        text = (f"{replay.seats[d.seat]}, {word} {d.hand}: {pretty(game, d.played)}"
                f"{(' ' + d.mark) if d.mark else ''} ({number(played)}); best "
                f"{pretty(game, d.best)} ({number(best)}), lost {d.loss:.1f}")
        dec.append({"s": step, "p": d.seat, "h": d.hand, "x": pretty(game, d.played),
                    "b": pretty(game, d.best), "pv": played, "bv": best,
                    "l": d.loss, "m": d.mark, "e": d.exact, "t": text})
    ends = sorted(starts.values())
    luck = []
    for row in report.luck(replay, seat, seat_view=True):
        if row.hand not in starts:
            continue
        later = [s for s in ends if s > starts[row.hand]]
        last = (later[0] - 1) if later else top
        luck.append({"s": last, "h": row.hand, "p": row.seat, "r": row.result,
                     "e": row.expected, "k": row.skill, "u": row.luck,
                     "t": [number(row.result, 0), number(row.expected),
                           number(row.skill), number(row.luck)]})
    return {"dec": dec, "luck": luck}


__all__ = ["decisions_data", "eval_entry", "number", "source_text"]
