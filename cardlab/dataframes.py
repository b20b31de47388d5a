"""Tidy pandas DataFrames from replays: the score sheet, one row per card, one row per step.

Everything here is derived by replaying the log through the engine (the replay is the single
source of truth); nothing restates a rule. The frames are meant for a teacher to filter and
plot on their own:

- :func:`score_sheet` — hand by hand with sub-totals, like the rulebook's sample score sheet;
- :func:`plays` — one row per card played (with trick, leader, winner and why it won);
- :func:`tricks` — one row per completed trick (with the hat holder after it, for Bob's Hat);
- :func:`steps` — one row per step (the action, who acts next, the note in a language);
- :func:`seat_steps` — one row per step and seat (cards held, taken, running total);
- :func:`hand_results`, :func:`score_components`, :func:`bid_results` — per hand and seat.

Every ``hand`` argument counts from 1, as people count (hand 1 is ``replay.hands[0]``;
``None``: the whole main line) and a variation ``path`` needs its hand. In the rows, ``hand``
is the game's hand number (1, 2, ...; a redealt hand keeps its number) and ``hand_index``
the 0-based index into ``replay.hands``.

pandas is imported lazily, so ``import cardlab`` stays light; without it these functions raise
:class:`MissingExtraError` naming the pip command (and that the browser classroom, which has no
pandas, has :mod:`cardlab.tables`). :func:`positions` and each ``*_rows`` function (the rows of
a frame as plain dicts) need no pandas.

>>> import cardlab
>>> from cardlab.bots import make_bot
>>> table = cardlab.new_game("bobs-hat", players=3, seed=2, hands=2)
>>> table.play([make_bot("heuristic", "bobs-hat", seed=s) for s in range(3)])
>>> list(score_sheet(table.replay).index)
[(1, 'score'), (2, 'score'), (2, 'total')]
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterable, Iterator
from types import ModuleType
from typing import Any

from .cursor import position_at  # the one place a position is assembled
from .errors import CardlabError
from .game import HandParts, State, get_game
from .replay import Action, LinePath, Replay, index_of_hand


class MissingExtraError(CardlabError, ImportError):
    """An optional dependency (pandas, plotly, anywidget, pyarrow...) is not installed."""


EXTRAS: dict[str, str] = {
    # what each optional module comes with (pyproject.toml's extras; tests/test_packaging.py
    # checks this table against them): a kernel's viewer, frames and charts...
    "anywidget": "widgets", "traitlets": "widgets", "pandas": "widgets", "numpy": "widgets",
    "plotly": "widgets",
    "pyarrow": "sim",  # ...simulations' Parquet files...
    "dask": "scale", "distributed": "scale",  # ...simulations on a cluster...
    # ...and what runs notebooks (the handouts execute the lessons): JupyterLab's server
    "nbformat": "lab", "nbclient": "lab", "mistune": "lab",
}


#: What the JupyterLite classroom site (docs/classroom.md) cannot have: no pure wheel of it
#: is on the package registries, so its message says what to use there instead.
NOT_IN_BROWSER = frozenset({"pandas", "numpy", "pyarrow"})


def require(module: str, extra: str | None = None) -> ModuleType:
    """Import an optional dependency, or raise :class:`MissingExtraError` saying which extra
    to install (``extra``, else the one that brings the module: :data:`EXTRAS`).

    >>> require("no_such_module_here")
    Traceback (most recent call last):
      ...
    cardlab.dataframes.MissingExtraError: no_such_module_here is needed for this (it is not \
installed: No module named 'no_such_module_here'); install it with: pip install 'cardlab[widgets]'
    """
    try:
        return importlib.import_module(module)
    except ImportError as err:
        top = module.split(".")[0]
        which = extra or EXTRAS.get(top, "widgets")
        browser = (f"; the classroom site in the browser (JupyterLite) has no {top}: "
                   "cardlab.tables gives the same rows as plain tables"
                   if top in NOT_IN_BROWSER else "")
        raise MissingExtraError(
            f"{module} is needed for this (it is not installed: {err}); install it with: "
            f"pip install 'cardlab[{which}]'{browser}") from None


# -- walking a line ------------------------------------------------------------------------

@dataclasses.dataclass
class Step:
    """One step of a walk: where it is, the action that led to it, and the engine state."""

    step: int  # the cursor's step number (0-based over the walked steps)
    hand_index: int  # index into replay.hands
    index: int  # actions of the line applied (0 = just dealt)
    action: Action | None
    line: list[Action]
    state: State  # live during the walk only: copy what you need before the next step

    @property
    def hand(self) -> int:
        """The hand counted from 1 (hand 1 is ``replay.hands[0]``), as ``hand=`` takes it."""
        return self.hand_index + 1

    def position(self, replay: Replay, seat: int | None = None) -> dict[str, Any]:
        """The same dict :attr:`cardlab.cursor.Cursor.position` gives for this step."""
        return position_at(replay, self.state, self.hand_index, self.line, self.index,
                           self.step, seat)


def _index(replay: Replay, hand: int | None, path: LinePath) -> int | None:
    """The 0-based index into ``replay.hands`` of the ``hand`` argument (counted from 1)."""
    if hand is None:
        if path:
            raise CardlabError("a variation path belongs to one hand: give hand=")
        return None
    return index_of_hand(replay, hand)


def walk(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Iterator[Step]:
    """Every step of the main line (``hand=None``) or of one line of hand ``hand`` (counted
    from 1: hand 1 is ``replay.hands[0]``).

    Step numbers match :class:`cardlab.cursor.Cursor` built with the same ``hand`` and ``path``.
    The state is replayed once, forward, so a whole game costs one pass.

    >>> import cardlab
    >>> review = cardlab.example("norwegian-review")
    >>> first = next(walk(review, hand=2))
    >>> first.hand, first.hand_index, first.step
    (2, 1, 0)
    """
    return _walk(replay, _index(replay, hand, path), path)  # checked now, not when iterated


def _walk(replay: Replay, wanted: int | None, path: LinePath) -> Iterator[Step]:
    state = replay.new_state()
    step = 0
    for h, record in enumerate(replay.hands):
        if wanted is not None and h > wanted:
            return
        state.apply_chance(record.deal)
        if wanted is not None and h < wanted:
            for action in record.actions:
                state.act(action.act)
            continue
        line = replay.line(h + 1, path if h == wanted else ())
        yield Step(step, h, 0, None, line, state)
        for k, action in enumerate(line):
            state.act(action.act)
            step += 1
            yield Step(step, h, k + 1, action, line, state)
        step += 1


def positions(replay: Replay, hand: int | None = None, path: LinePath = (),
              seat: int | None = None) -> Iterator[dict[str, Any]]:
    """The position of every step (like ``Cursor.position``), in one forward pass; ``hand``
    counted from 1."""
    return (st.position(replay, seat) for st in walk(replay, hand, path))


def note_text(note: Any, lang: str = "en") -> str | None:
    """A note in ``lang``; a plain string note is returned as is; else the first language."""
    if note is None or isinstance(note, str):
        return note
    if not note:
        return None
    return note.get(lang) or next(iter(note.values()))  # type: ignore[no-any-return]


def _ended(state: State) -> bool:
    return state.hand_over() or state.chance_kind() == "deal" or state.is_game_over()


# -- per hand ------------------------------------------------------------------------------

@dataclasses.dataclass
class HandResult:
    """How one dealt hand (one entry of ``replay.hands``) ended along a line."""

    hand_index: int
    number: int  # the game's hand number (a redeal keeps its number)
    ended: bool
    game_over: bool
    scores: list[int]  # what this hand added to each seat (so far, when not ended)
    totals: list[int]  # running totals after it
    end: dict[str, Any]  # the position at the end of the line
    parts: HandParts  # what the scores were made of, and the bids made (the game's reading)


def hand_results_list(replay: Replay, hand: int | None = None,
                      path: LinePath = ()) -> list[HandResult]:
    """One :class:`HandResult` per hand: the main line, except hand ``hand`` (counted from
    1) along ``path``.

    With a variation, the hands after the branch keep their main-line scores (their deals do
    not depend on play), so the totals show what the variation would have changed.
    """
    wanted = _index(replay, hand, path)
    out: list[HandResult] = []
    state = replay.new_state()
    game = replay.rules.game
    totals = list(state.totals())
    for h, record in enumerate(replay.hands):
        state.apply_chance(record.deal)
        number = state.hand_number()
        before = state.totals()
        line = replay.line(h + 1, path if h == wanted else ())
        if h == wanted and path:
            branch = state.clone()
            for action in line:
                branch.act(action.act)
            end_state = branch
            for action in record.actions:  # the main line carries on to the next deal
                state.act(action.act)
        else:
            for action in line:
                state.act(action.act)
            end_state = state
        scores = [a - b for a, b in zip(end_state.totals(), before, strict=True)]
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        end = end_state.snapshot(None)
        end["hand_index"] = h
        ended = _ended(end_state)
        out.append(HandResult(h, number, ended, end_state.is_game_over(), scores,
                              list(totals), end, game.hand_parts(end, scores, ended)))
    return out


def _pd() -> Any:
    return require("pandas")


HAND_COLUMNS = ["hand", "hand_index", "seat", "score", "total", "ended"]
COMPONENT_COLUMNS = ["hand", "seat", "component", "points"]
BID_COLUMNS = ["hand", "seat", "bid", "made"]


def hand_result_rows(replay: Replay, hand: int | None = None,
                     path: LinePath = ()) -> list[dict[str, Any]]:
    """The rows of :func:`hand_results` as plain dicts (no pandas needed)."""
    rows = []
    for res in hand_results_list(replay, hand, path):
        for s, name in enumerate(replay.seats):
            rows.append({"hand": res.number, "hand_index": res.hand_index, "seat": name,
                         "score": res.scores[s], "total": res.totals[s], "ended": res.ended})
    return rows


def hand_results(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Any:
    """Long frame: one row per hand and seat — hand, seat, score, total, ended."""
    pd = _pd()
    return pd.DataFrame(hand_result_rows(replay, hand, path), columns=HAND_COLUMNS)


def sheet_rows(replay: Replay, hand: int | None = None, path: LinePath = (),
               results: list[HandResult] | None = None) -> list[tuple[int, str, list[int]]]:
    """The score sheet as ``(hand number, "score"|"sub-total"|"total", values)`` rows.

    Like the rulebook's sample sheet: each hand's score, then from the second hand on a
    sub-total, and the last line is the total once the game is over. A redealt hand (a
    renege) is one line: the attempts add up. Unfinished hands are left out.
    """
    if results is None:
        results = hand_results_list(replay, hand, path)
    else:
        _index(replay, hand, path)  # the same arguments are refused with or without results
    per_number: dict[int, list[int]] = {}
    over = False
    for res in results:
        if not res.ended and not any(res.scores):
            continue
        row = per_number.setdefault(res.number, [0] * len(replay.seats))
        for s, value in enumerate(res.scores):
            row[s] += value
        over = res.game_over
    return sheet_lines(((number, per_number[number]) for number in sorted(per_number)), over)


def sheet_lines(scores: Iterable[tuple[int, list[int]]], game_over: bool
                ) -> list[tuple[int, str, list[int]]]:
    """The rulebook's score sheet from each finished hand's ``(number, scores)``: the hand's
    ``"score"`` line, then from the second hand on a ``"sub-total"``, but after the last
    hand of a finished game the ``"total"``. The one rule of the sheet, for
    :func:`sheet_rows` and for the viewer's (:func:`cardlab.view.wording.sheet_rows`).

    >>> sheet_lines([(1, [3, 1]), (2, [0, 2])], game_over=True)
    [(1, 'score', [3, 1]), (2, 'score', [0, 2]), (2, 'total', [3, 3])]
    >>> sheet_lines([(1, [3, 1]), (2, [0, 2])], game_over=False)[-1]
    (2, 'sub-total', [3, 3])
    """
    hands = list(scores)
    rows: list[tuple[int, str, list[int]]] = []
    running: list[int] = []
    for i, (number, score) in enumerate(hands):
        running = [a + b for a, b in zip(running or [0] * len(score), score, strict=True)]
        rows.append((number, "score", score))
        if i == len(hands) - 1 and game_over:
            rows.append((number, "total", running))
        elif i > 0:
            rows.append((number, "sub-total", running))
    return rows


def score_sheet(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Any:
    """The score sheet as a DataFrame: index (hand, line), one column per seat."""
    pd = _pd()
    rows = sheet_rows(replay, hand, path)
    index = pd.MultiIndex.from_tuples([(n, kind) for n, kind, _ in rows], names=["hand", "line"])
    return pd.DataFrame([values for _, _, values in rows], index=index,
                        columns=list(replay.seats))


def styled_sheet(replay: Replay, current: int | None = None, hand: int | None = None,
                 path: LinePath = ()) -> Any:
    """The score sheet as a pandas Styler with hand ``current`` (1-based) highlighted."""
    df = score_sheet(replay, hand, path)

    def mark(row: Any) -> list[str]:
        number, kind = row.name
        style = "background-color: #fff3b0" if number == current else ""
        if kind != "score":
            style += "; font-weight: bold"
        return [style] * len(row)

    # Seat names come from the file: the Styler must show them as text, not markup
    # (pandas' Styler does not escape unless told to).
    styler = df.style.format(escape="html").format_index(escape="html", axis=0)
    return styler.format_index(escape="html", axis=1).apply(mark, axis=1)


def score_components(replay: Replay) -> Any:
    """Long frame: hand, seat, component, points.

    The game names the components (:meth:`cardlab.game.Game.hand_parts`): for Where's Bob's
    Hat? they are ``bids`` (made and failed bids), ``hat`` (Bob's Hat) and ``renege`` (the
    penalty); other games have one ``score`` component.
    """
    return _pd().DataFrame(component_rows(replay), columns=COMPONENT_COLUMNS)


def component_rows(replay: Replay) -> list[dict[str, Any]]:
    """The rows of :func:`score_components` as plain dicts (no pandas needed)."""
    rows = []
    for res in hand_results_list(replay):
        for name, parts in zip(replay.seats, res.parts.components, strict=True):
            for component, points in parts.items():
                rows.append({"hand": res.number, "seat": name, "component": component,
                             "points": points})
    return rows


def bid_results(replay: Replay) -> Any:
    """Long frame: one row per bid made — hand, seat, bid, made (bool).

    The game reads its bids (:meth:`cardlab.game.Game.hand_parts`): Where's Bob's Hat? from
    each bid's points (a made bid scores points, a failed one loses them), Ted's Game by
    comparing the bid with the tricks won (made means exactly).
    """
    return _pd().DataFrame(bid_result_rows(replay), columns=BID_COLUMNS)


def bid_result_rows(replay: Replay) -> list[dict[str, Any]]:
    """The rows of :func:`bid_results` as plain dicts (no pandas needed)."""
    rows = []
    for res in hand_results_list(replay):
        if not res.ended:
            continue
        for name, bids in zip(replay.seats, res.parts.bids, strict=True):
            for word, made in bids:
                rows.append({"hand": res.number, "seat": name, "bid": word, "made": made})
    return rows


# -- per card, per trick, per step ----------------------------------------------------------

def card_facts(game: str, code: str) -> dict[str, Any]:
    """Suit and rank of a card code, read from the game's deck (empty when it has none)."""
    deck = getattr(get_game(game).rules_class, "deck", None)
    if deck is None:
        return {}
    try:
        card = deck.parse(code)
    except CardlabError:
        return {}
    out: dict[str, Any] = {}
    suits = getattr(deck, "suits", None)
    suit_of = getattr(deck, "suit_of", None)
    rank_of = getattr(deck, "rank_of", None)
    if suits is not None and suit_of is not None:
        out["suit"] = suits[suit_of[card]]
    if rank_of is not None:
        out["rank"] = rank_of[card]
    return out


def play_rows(replay: Replay, hand: int | None = None,
              path: LinePath = ()) -> list[dict[str, Any]]:
    """The rows of :func:`plays` as plain dicts (no pandas needed)."""
    seats = replay.seats
    game = replay.rules.game
    rows: list[dict[str, Any]] = []
    facts: dict[str, dict[str, Any]] = {}

    def card_row(code: str) -> dict[str, Any]:
        if code not in facts:
            facts[code] = card_facts(replay.game, code)
        return facts[code]

    seen_tricks = 0
    current: dict[str, int] = {}  # card code → step it was played, for the open trick
    for st in walk(replay, hand, path):
        if st.index == 0:
            seen_tricks, current = 0, {}
            continue
        pos = st.state.snapshot(None)
        if "tricks" in pos:
            for _, code in pos["trick"]["cards"]:
                current.setdefault(code, st.step)
            done = pos["tricks"]
            while seen_tricks < len(done):
                trick = done[seen_tricks]
                seen_tricks += 1
                for order, (seat, code) in enumerate(trick["cards"], 1):
                    rows.append({
                        "hand": pos["hand"], "hand_index": st.hand_index,
                        "step": current.pop(code, st.step), "trick": seen_tricks,
                        "order": order, "seat": seats[seat], "card": code,
                        **card_row(code), "trump": pos.get("trump"),
                        "leader": seats[trick["leader"]], "winner": seats[trick["winner"]],
                        "won": code == trick["winning_card"], "reason": trick["reason"],
                    })
            end_of_line = st.index == len(st.line)
            if end_of_line:
                for order, (seat, code) in enumerate(pos["trick"]["cards"], 1):
                    rows.append({
                        "hand": pos["hand"], "hand_index": st.hand_index,
                        "step": current.get(code, st.step), "trick": seen_tricks + 1,
                        "order": order, "seat": seats[seat], "card": code, **card_row(code),
                        "trump": pos.get("trump"), "leader": seats[pos["trick"]["leader"]],
                        "winner": None, "won": False, "reason": None,
                    })
        else:
            action = st.action
            assert action is not None
            verb, _, rest = action.act.partition(" ")
            if verb != "play":
                continue
            code = rest.split(" ")[0]
            rows.append({"hand": pos["hand"], "hand_index": st.hand_index, "step": st.step,
                         "seat": action.seat, "card": code, **card_row(code),
                         "action": action.act, **game.play_facts(pos)})
    return rows


def plays(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Any:
    """One row per card played: hand, step, trick, order, seat, card, suit, rank, trump,
    leader, winner, won (this card took the trick), reason. In a game without tricks a row
    has the game's own facts after the play instead (:meth:`cardlab.game.Game.play_facts`:
    Whot's call card and called symbol)."""
    pd = _pd()
    return pd.DataFrame(play_rows(replay, hand, path))


def tricks(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Any:
    """One row per completed trick: hand, trick, leader, winner, winning card, reason, cards,
    and the game's own facts after it (:meth:`cardlab.game.Game.trick_facts`: who holds
    Bob's Hat)."""
    return _pd().DataFrame(trick_rows(replay, hand, path))


def trick_rows(replay: Replay, hand: int | None = None,
               path: LinePath = ()) -> list[dict[str, Any]]:
    """The rows of :func:`tricks` as plain dicts (no pandas needed)."""
    rows = []
    seen = 0
    game = replay.rules.game
    for st in walk(replay, hand, path):
        if st.index == 0:
            seen = 0
            continue
        pos = st.state.snapshot(None)
        done = pos.get("tricks", [])
        while seen < len(done):
            trick = done[seen]
            seen += 1
            row = {"hand": pos["hand"], "hand_index": st.hand_index, "step": st.step,
                   "trick": seen, "leader": replay.seats[trick["leader"]],
                   "winner": replay.seats[trick["winner"]],
                   "winning_card": trick["winning_card"], "reason": trick["reason"],
                   "cards": " ".join(code for _, code in trick["cards"]),
                   **game.trick_facts(pos, replay.seats)}
            rows.append(row)
    return rows


def steps(replay: Replay, lang: str = "en", hand: int | None = None,
          path: LinePath = ()) -> Any:
    """One row per step: step, hand, hand_index, index, seat (who acted), action, verb,
    phase, to_act (who acts next), trick (number of the trick in play), note (in ``lang``)."""
    return _pd().DataFrame(step_rows(replay, lang, hand, path))


def step_rows(replay: Replay, lang: str = "en", hand: int | None = None,
              path: LinePath = ()) -> list[dict[str, Any]]:
    """The rows of :func:`steps` as plain dicts (no pandas needed)."""
    rows = []
    for st in walk(replay, hand, path):
        pos = st.state.snapshot(None)
        action = st.action
        to_act = pos.get("to_act")
        note = st.line[st.index - 1].note if action else replay.hands[st.hand_index].note
        row = {
            "step": st.step, "hand": pos.get("hand"), "hand_index": st.hand_index,
            "index": st.index, "seat": action.seat if action else None,
            "action": action.act if action else None,
            "verb": action.act.split(" ")[0] if action else "deal",
            "phase": pos.get("phase"),
            "to_act": None if to_act is None else replay.seats[to_act],
            "note": note_text(note, lang),
        }
        if "tricks" in pos:
            row["trick"] = len(pos["tricks"]) + (1 if pos["trick"]["cards"] else 0)
        rows.append(row)
    return rows


def seat_steps(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Any:
    """One row per step and seat: step, hand, seat, held (cards in hand), taken (cards or
    tricks taken this hand), hand_score, total, to_act, and the game's own facts
    (:meth:`cardlab.game.Game.seat_facts`: whether the seat holds Bob's Hat)."""
    return _pd().DataFrame(seat_step_rows(replay, hand, path))


def seat_step_rows(replay: Replay, hand: int | None = None,
                   path: LinePath = ()) -> list[dict[str, Any]]:
    """The rows of :func:`seat_steps` as plain dicts (no pandas needed)."""
    rows = []
    game = replay.rules.game
    for st in walk(replay, hand, path):
        pos = st.state.snapshot(None)
        counts = pos.get("hand_counts")
        taken = pos.get("taken_total", pos.get("tricks_won"))
        totals = pos.get("totals") or st.state.totals()
        hand_scores = pos.get("hand_scores")
        for s, name in enumerate(replay.seats):
            rows.append({
                "step": st.step, "hand": pos.get("hand"), "hand_index": st.hand_index,
                "index": st.index, "seat": name,
                "held": None if counts is None else counts[s],
                "taken": None if taken is None else taken[s],
                "hand_score": None if hand_scores is None else hand_scores[s],
                "total": totals[s], "to_act": pos.get("to_act") == s,
                **game.seat_facts(pos, s),
            })
    return rows


__all__ = [
    "MissingExtraError", "require", "walk", "positions", "note_text",
    "HandResult", "hand_results_list", "hand_results", "sheet_lines", "sheet_rows",
    "score_sheet", "styled_sheet", "score_components", "bid_results", "card_facts",
    "play_rows", "plays", "tricks", "steps", "seat_steps", "hand_result_rows",
    "component_rows", "bid_result_rows", "trick_rows", "step_rows", "seat_step_rows",
    "HAND_COLUMNS", "COMPONENT_COLUMNS", "BID_COLUMNS",
]
