"""Positions → a JSON "movie" that the front-end (``viewer.js``) draws without knowing a rule.

A movie holds every *line* of a replay (the main line, then each variation, one hand each) and,
per *view* (everyone, or one seat), per line the frames of its steps and its move list. A
frame is what the table shows at one step, computed here from the engine's position: the seat
boxes (badges, info lines, the hand or a count of face-down cards), the centre (trick, trump,
hat, call card), the status line, the note, the result banner, the score sheet and the chart
points up to this step. Every text a person reads is written here, in Python; the front-end
only lays it out.

What a seat may see comes from :mod:`cardlab.seatview`: a seat's frame at step *s* is made
from its position in ``seat_positions(state, seats)`` (every view at once, the public part
computed once) and its action texts from ``visible_action``, so it holds nothing hidden from
that seat at *s*. A move's text may read differently later (the hat's
value once found): a move gives ``[[from_step, text], ...]`` then.

Frames are sent as deltas: frame 0 whole, every later frame only the keys that changed
(``None`` deletes a key); :func:`frame_at` rebuilds one, as the front-end does.

>>> import cardlab
>>> movie = build_movie(cardlab.load("replays/norwegian-review.json"))
>>> sorted(movie["views"]), len(movie["lines"])
(['', 'Brad', 'Kathrine', 'Remo', 'Tone'], 1)
>>> [code for _, code in frame_at(movie, 21)["tk"]["c"]]
['red12', 'red20', 'black3', 'red14']
>>> frame_at(movie, 21)["tk"]["why"]
'Brad takes the trick with black 3: the only trump'
"""

from __future__ import annotations

import contextlib
import gc
import json
import json.encoder
import re
import secrets
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..errors import CardlabError, LimitError
from ..game import State
from ..limits import MAX_PAGE_FRAMES
from ..replay import Action, LinePath, Replay, note_languages, walk_lines
from ..seatview import (
    seat_positions,
    visible_action,
    visible_eval,
    visible_note,
    visible_variations,
)
from .evals import decisions_data, eval_entry
from .wording import (
    RING,
    RING_4,
    Context,
    card_faces,
    chart_points,
    hand_ended,
    pretty,
    seat_private,
    sheet_rows,
    trick_key,
)

FORMAT_VERSION = 1


# -- walking lines -----------------------------------------------------------------------------

def _diff(prev: dict[str, Any], cur: dict[str, Any]) -> dict[str, Any]:
    """The keys of ``cur`` that differ from ``prev`` (dicts compared key by key; ``None``
    for a key that went away)."""
    out: dict[str, Any] = {}
    for key, value in cur.items():
        old = prev.get(key)
        if old is value or old == value:
            continue
        if isinstance(value, dict) and isinstance(old, dict):
            out[key] = _diff(old, value)
        else:
            out[key] = value
    for key in prev:
        if key not in cur:
            out[key] = None
    return out


def _patch(base: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in delta.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _patch(out[key], value)
        else:
            out[key] = value
    return out


class _View:
    """The frames and moves of one line for one view, built step by step.

    A seat's frames are stored relative to everyone's frame at the same step when
    ``base`` is everyone's view of the line (a movie holding every view), else relative to the
    seat's own frame before (a movie holding that seat's view alone)."""

    def __init__(self, seat: int | None, base: _View | None = None,
                 encode: Callable[[Any], str] | None = None) -> None:
        self.seat = seat
        self.base = base
        # With ``encode`` (a page being written) each frame, and each move once its text is
        # final, is kept as its JSON text: a few hundred bytes instead of a tree of dicts.
        self.encode = encode
        self.pack: Callable[[Any], Any] = encode or _same
        self.frames: list[Any] = []
        self.moves: list[Any] = []
        self.hands: list[dict[str, Any]] = []
        self.tricks: list[list[int]] = []
        self.labels: dict[int, str] = {}
        self.last: dict[str, Any] = {}
        self.parts: tuple[dict[str, Any], list[dict[str, Any]], list[str] | None] | None = None
        self.pending: list[tuple[dict[str, Any], int, str]] = []  # moves still read otherwise
        self.evals: dict[str, dict[str, Any]] = {}  # step → the decision's values (analysis)

    def add(self, public: dict[str, Any], private: list[dict[str, Any]],
            alt: list[str] | None) -> None:
        """Store this step's frame from its public part, each seat's private part (cards)
        and the what-if choices."""
        base = self.base
        self.parts = (public, private, alt)
        if base is not None and base.parts is not None and base.parts[0] is public:
            # the common case: only the cards (and the choices) differ from everyone's frame
            delta: dict[str, Any] = {}
            seats = {}
            for s, (mine, theirs) in enumerate(zip(private, base.parts[1], strict=True)):
                if mine != theirs:
                    seats[str(s)] = {**{key: None for key in theirs}, **mine}
            if seats:
                delta["seats"] = seats
            if alt != base.parts[2]:
                delta["alt"] = alt
            self.frames.append(self.pack(delta))
            return
        frame = dict(public)
        frame["seats"] = {str(s): {**part, **private[s]}
                          for s, part in enumerate(public["seats"])}
        if alt:
            frame["alt"] = alt
        if base is not None:  # everyone's frame of this step is its last (it goes first)
            self.frames.append(self.pack(_diff(base.last, frame)))
        else:
            self.frames.append(self.pack(_diff(self.last, frame) if self.frames else frame))
        self.last = frame

    def full(self) -> dict[str, Any]:
        """This step's whole frame."""
        assert self.parts is not None
        public, private, alt = self.parts
        frame = dict(public)
        frame["seats"] = {str(s): {**part, **private[s]}
                          for s, part in enumerate(public["seats"])}
        if alt:
            frame["alt"] = alt
        return frame


class _Line:
    """One line to walk: its hand (0-based), actions, first step and the lines branching
    off it (action index → [(line id, first action of that line, its length)])."""

    def __init__(self, hand: int, actions: list[Action], first_step: int,
                 branches: dict[int, list[tuple[int, Action, int]]]) -> None:
        self.hand = hand
        self.actions = actions
        self.first_step = first_step
        self.branches = branches


def _walk(ctx: Context, state: State, line: _Line, views: list[_View],
          totals_at_deal: list[int]) -> None:
    """Frames of one hand along ``line`` from its deal (``state`` just dealt), for every
    view, walking forward once."""
    record = ctx.replay.hands[line.hand]
    actions = line.actions
    prev_key: tuple[int, int] | None = None
    for k in range(len(actions) + 1):
        step = line.first_step + k
        act: tuple[int, str] | None = None
        if k:
            action = actions[k - 1]
            act = (ctx.seats.index(action.seat), action.act)
            state.act(action.act)
        last = k == len(actions)
        ended = last and hand_ended(state)
        game_over = ended and state.is_game_over()
        note = record.note if k == 0 else actions[k - 1].note
        key: tuple[int, int] | None = None
        shared: list[Any] = []
        positions = seat_positions(state, [view.seat for view in views])
        for vi, view in enumerate(views):
            pos = positions[vi]
            if vi == 0:  # where the trick stands is the same in every view
                key = trick_key(pos)
            completed = key is not None and prev_key is not None and key[0] > prev_key[0]
            shown_note = visible_note(state, note, view.seat)
            _frame(ctx, state, pos, view, act, k, ended, game_over, totals_at_deal,
                   completed, None if last else actions[k].act, shared)
            if k == 0:
                entry: dict[str, Any] = {"i": line.hand + 1, "s": step,
                                         "t": ctx.table_words.hand_title(ctx, pos)}
                if shown_note is not None:
                    entry["n"] = shown_note
                view.hands.append(entry)
            else:
                _add_move(ctx, state, view, act, step, line.hand, key, prev_key, shown_note,
                          [lid for lid, _, _ in line.branches.get(k - 1, ())])
            if key is not None and key[1] == 1:
                view.tricks.append([line.hand + 1, key[0] + 1, step])
            if not last and k in line.branches:  # labels of the lines branching here
                for lid, first, length in line.branches[k]:
                    view.labels[lid] = _branch_label(ctx, state, view.seat, line.hand, k,
                                                     first, length)
        prev_key = key
        for view in views:
            _update_pending(ctx, state, view, step)
        if not last:
            _add_eval(ctx, actions[k], step, views)


def _add_eval(ctx: Context, action: Action, step: int, views: list[_View]) -> None:
    """The values of the decision made at ``step`` (an analysed action's ``eval`` record),
    in the views that may hold them (:func:`cardlab.seatview.visible_eval`)."""
    record = getattr(action, "eval", None)  # present on analysed replays only
    if not record:
        return
    entry = None
    for view in views:
        name = None if view.seat is None else ctx.seats[view.seat]
        if visible_eval(record, action.seat, name):
            entry = entry or eval_entry(ctx.game, ctx.seats, ctx.seats.index(action.seat),
                                        record, ctx.low_wins)
            view.evals[str(step)] = entry


def _branch_label(ctx: Context, state: State, seat: int | None, hand: int, index: int,
                  first: Action, length: int) -> str:
    """How a variation is named in the line menu, as ``seat`` may read it where it branches:
    a card that seat cannot see there reads "(hidden card)"."""
    actor = ctx.seats.index(first.seat)
    text = visible_variations(state, [[(actor, first.act)]], seat)[0][0]
    rest = length - index - 1
    return (f"{ctx.word} {hand + 1}, action {index + 1}: {first.seat} "
            f"{pretty(ctx.game, text)}" + (f" (+{rest} more)" if rest else ""))


def _add_move(ctx: Context, state: State, view: _View, act: tuple[int, str] | None,
              step: int, hand: int, key: tuple[int, int] | None,
              prev_key: tuple[int, int] | None, note: Any, branches: list[int]) -> None:
    assert act is not None
    actor, text = act
    shown = visible_action(state, actor, text, view.seat)
    move: dict[str, Any] = {"s": step, "h": hand + 1, "p": actor, "x": pretty(ctx.game, shown)}
    if key is not None and prev_key is not None and key != prev_key:
        move["t"] = key[0] if key[1] == 0 else key[0] + 1
    if note is not None:
        move["n"] = note
    if branches:
        move["v"] = branches
    if shown != text:
        move["x"] = [[step, move["x"]]]
        view.pending.append((move, actor, text))
        view.moves.append(move)  # its text changes later: encoded at the line's end
    else:
        view.moves.append(view.pack(move))


def _update_pending(ctx: Context, state: State, view: _View, step: int) -> None:
    """Moves that read otherwise to this seat: note when their text changes (once fully
    shown, a text stays shown)."""
    if not view.pending:
        return
    keep = []
    for move, actor, text in view.pending:
        shown = visible_action(state, actor, text, view.seat)
        pairs = move["x"]
        nice = pretty(ctx.game, shown)
        if pairs[-1][1] != nice:
            pairs.append([step, nice])
        if shown != text:
            keep.append((move, actor, text))
    view.pending = keep


# Keys of a position that differ between views while the rest is public: a frame's public
# parts are computed from the position without them, so they cannot show them.
PRIVATE = frozenset({"hands", "legal"})


def _frame(ctx: Context, state: State, pos: dict[str, Any], view: _View,
           act: tuple[int, str] | None, k: int, ended: bool, game_over: bool,
           at_deal: list[int], completed: bool, next_act: str | None,
           shared: list[tuple[dict[str, Any], tuple[int, str] | None, dict[str, Any]]]
           ) -> None:
    """The frame of one view at one step, added to the view.

    Its public part is computed from the position without the :data:`PRIVATE` keys, so it
    cannot show them; views whose public positions are equal at this step (``shared`` holds
    those already computed) share it, so the seat views cost little more than everyone's."""
    seat = view.seat
    shown_act = None if act is None else (act[0], visible_action(state, act[0], act[1], seat))
    open_pos = {key: value for key, value in pos.items() if key not in PRIVATE}
    for other_pos, other_act, other in shared:
        if other_act == shown_act and other_pos == open_pos:
            public = other
            break
    else:
        public = _public(ctx, state, open_pos, shown_act, k, ended, game_over, at_deal,
                         completed)
        shared.append((open_pos, shown_act, public))
    private = [seat_private(pos, s) for s in range(len(ctx.seats))]
    alts = None
    if next_act is not None and pos.get("legal"):
        alts = [t for t in pos["legal"] if t != next_act] or None
    view.add(public, private, alts)


def _sheet_and_points(ctx: Context, pos: dict[str, Any], game_over: bool) -> dict[str, Any]:
    """The sheet and the chart points, made once per distinct sheet (they change only when a
    hand ends), so the frames of a hand share them."""
    key = (tuple(map(tuple, pos.get("sheet") or ())), game_over)
    cached = ctx.sheets.get(key)
    if cached is None:
        cached = ctx.sheets[key] = {"sheet": sheet_rows(ctx, pos, game_over),
                                    "pts": chart_points(pos, len(ctx.seats))}
    return cached


def _public(ctx: Context, state: State, pos: dict[str, Any], shown_act: tuple[int, str] | None,
            k: int, ended: bool, game_over: bool, at_deal: list[int],
            completed: bool) -> dict[str, Any]:
    words = ctx.table_words
    public: dict[str, Any] = {
        "st": words.status_line(ctx, pos, shown_act),
        "seats": [words.seat_public(ctx, pos, s, ended, at_deal)
                  for s in range(len(ctx.seats))],
        **_sheet_and_points(ctx, pos, game_over),
        "hn": pos.get("hand"),
    }
    words.centre(ctx, pos, completed, public)
    teaching = words.explain(ctx, pos, state, k)
    if teaching:
        public["ex"] = teaching
    if ended and pos.get("totals") is not None:
        public["res"] = words.result_text(ctx, pos, at_deal, game_over)
    return public


# -- the movie ---------------------------------------------------------------------------------

def _lines(replay: Replay) -> list[tuple[int | None, LinePath]]:
    out: list[tuple[int | None, LinePath]] = [(None, ())]
    for h in range(len(replay.hands)):
        out.extend((h, path) for path in replay.variation_paths(h + 1))
    return out


def _view_seats(replay: Replay, seat: int | str | None, all_views: bool) -> list[int | None]:
    if seat is None:
        return [None, *range(len(replay.seats))] if all_views else [None]
    return [replay.seat_index(seat)]


def check_lang(replay: Replay, lang: str | None) -> str:
    """``lang`` if the replay's notes have it (or it has no notes); else a
    :class:`CardlabError` listing the languages."""
    languages = note_languages(replay) or ["en"]
    if lang is None:
        return languages[0]
    if lang not in languages:
        raise CardlabError(f"the notes of this replay are in {', '.join(languages)}, "
                           f"not {lang!r}")
    return lang


def _place(n: int, bottom: int) -> dict[str, Any]:
    ring = RING if n <= len(RING) else RING_4
    places = [round(i * len(ring) / n) % len(ring) for i in range(n)]
    cells = [ring[places[(s - bottom) % n]] for s in range(n)]
    return {"size": 3 if ring is RING else 4, "cells": [list(c) for c in cells]}


def _home(seats: list[str]) -> int:
    """Everyone's view puts South at the bottom when seats are compass points, else seat 0."""
    return seats.index("South") if "South" in seats and "North" in seats else 0


def page_frames(replay: Replay, views: int) -> int:
    """What a movie of ``views`` views of ``replay`` holds, counted as the page budget counts
    it (:data:`cardlab.limits.MAX_PAGE_FRAMES`): every view's frames of every line (a
    variation's line from its deal) and :data:`LINE_FRAMES` more per line and view, plus a
    frame per :data:`PATH_ENTRIES_PER_FRAME` entries of the lines' paths (rounded up).
    Counted from the tree alone, before anything is built.

    >>> import cardlab
    >>> review = cardlab.example("norwegian-review")  # two hands, no variations
    >>> page_frames(review, 1) == sum(len(hand.actions) + 1 + LINE_FRAMES
    ...                               for hand in review.hands)
    True
    >>> page_frames(review, 5) == 5 * page_frames(review, 1)  # everyone's and 4 seats' views
    True
    """
    frames = entries = 0
    for line in walk_lines(replay.hands):
        frames += views * (line.start + len(line.actions) + 1 + LINE_FRAMES)
        entries += len(line.path)
    return frames + -(-entries // PATH_ENTRIES_PER_FRAME)


# What a line costs besides its frames, in frames: each view keeps per line its moves, its
# hands and tricks, its label and its final sheet (about 2.5 kB, where a frame's text takes
# 0.3-0.8 kB while the page is made), so many short variations cost what their count says.
LINE_FRAMES = 4
# A line's path is listed in the page as two numbers per entry: some bytes, so the budget
# counts a frame per this many entries (a chain of variations 1,000 deep lists 500,500).
PATH_ENTRIES_PER_FRAME = 32


def check_page_budget(replay: Replay, views: int, budget: int | None,
                      file: str | None = None) -> None:
    """Refuse, before building anything, a movie over ``budget`` (:func:`page_frames`; None:
    no budget) with a :class:`~cardlab.errors.LimitError` naming the file and the limit."""
    if budget is None:
        return
    frames = page_frames(replay, views)
    if frames > budget:
        raise LimitError(
            f"the page would hold {frames:,} frames ({views} view{'s' if views > 1 else ''} "
            f"of every line, each line from its deal), more than the page budget "
            f"max_page_frames={budget:,}; page a seat's view alone (--seat), or raise the "
            f"budget with page_html(..., budget=N) or the CLI flag --page-budget N",
            file=file, limit="max_page_frames", value=budget)


@contextlib.contextmanager
def _no_cycles() -> Iterator[None]:
    """The cyclic garbage collector paused: a movie is a tree of new dicts, none in a cycle,
    and a collection of a growing heap is repeated work (a third of a long movie's time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def build_views(replay: Replay, seats: Iterable[int | None], relative: bool = False,
                encode: Callable[[Any], str] | None = None,
                budget: int | None = MAX_PAGE_FRAMES, file: str | None = None
                ) -> dict[str, Any]:
    """Every line walked once for the given views: ``{view key: [line data, ...]}`` (key
    ``""`` for everyone, else the seat's name). With ``relative`` (and everyone among the
    views) a seat's frames are stored as what differs from everyone's at the same step.

    A movie over ``budget`` (:func:`check_page_budget`) is refused before it is built;
    ``encode`` keeps frames and moves as their JSON text (see :func:`json_pieces`)."""
    seat_list = list(seats)
    check_page_budget(replay, len(seat_list), budget, file)
    with _no_cycles():
        return _build_views(replay, seat_list, relative, encode)


def _build_views(replay: Replay, seat_list: list[int | None], relative: bool,
                 encode: Callable[[Any], str] | None) -> dict[str, Any]:
    ctx = Context(replay)
    # the variation lines in movie order (as _lines), each with its whole line of actions
    # (its parent's up to the branch, then its own), and per line (hand, path) the lines
    # branching off it: action index → [(line id, first action, line length)]
    lines: list[tuple[int, LinePath, list[Action]]] = []
    whole: dict[tuple[int, LinePath], list[Action]] = {}
    branches: dict[tuple[int, LinePath], dict[int, list[tuple[int, Action, int]]]] = {}
    for found in walk_lines(replay.hands):
        key = (found.hand_index, found.path)
        if not found.path:
            whole[key] = found.actions
            continue
        parent = (found.hand_index, found.path[:-1])
        actions = whole[key] = whole[parent][:found.start] + found.actions
        lines.append((found.hand_index, found.path, actions))
        branches.setdefault(parent, {}).setdefault(found.start, []).append(
            (len(lines), found.actions[0], len(actions)))
    del whole
    relative = relative and None in seat_list
    order = sorted(seat_list, key=lambda s: s is not None)  # everyone first: the base

    def make_views() -> list[_View]:
        views: list[_View] = []
        for s in order:
            base = views[0] if relative and s is not None else None
            views.append(_View(s, base, encode))
        return views

    out: dict[str, list[dict[str, Any]]] = {_key(replay, s): [] for s in seat_list}
    state = replay.new_state()
    deal_states: dict[int, tuple[State, list[int]]] = {}
    wanted = {h for h, _, _ in lines}
    views = make_views()
    step = 0
    for h, record in enumerate(replay.hands):
        state.apply_chance(record.deal)
        at_deal = list(state.totals())
        if h in wanted:
            deal_states[h] = (state.clone(), at_deal)
        _walk(ctx, state, _Line(h, record.actions, step, branches.get((h, ()), {})), views,
              at_deal)
        step += len(record.actions) + 1
    labels: dict[tuple[int | None, int], str] = {}
    analysed = any(view.evals for view in views)
    for view in views:
        labels.update({(view.seat, lid): text for lid, text in view.labels.items()})
        data = _line_data(view, "main line")
        if analysed:  # the report of the main line: costly decisions, luck against skill
            starts = {entry["i"]: entry["s"] for entry in view.hands}
            data.update(decisions_data(replay, starts, step - 1, view.seat))
        out[_key(replay, view.seat)].append(data)
    for lid, (hand, path, actions) in enumerate(lines, 1):
        start, at_deal = deal_states[hand]
        views = make_views()
        _walk(ctx, start.clone(), _Line(hand, actions, 0, branches.get((hand, path), {})),
              views, at_deal)
        for view in views:
            labels.update({(view.seat, i): text for i, text in view.labels.items()})
            out[_key(replay, view.seat)].append(
                _line_data(view, labels[(view.seat, lid)]))
    return out


def _key(replay: Replay, seat: int | None) -> str:
    return "" if seat is None else replay.seats[seat]


def _same(value: Any) -> Any:
    return value


def _line_data(view: _View, label: str) -> dict[str, Any]:
    last = view.parts[0] if view.parts is not None else {}  # the last step's public part
    moves = view.moves
    if view.encode is not None:  # the moves whose text was still to change
        moves = [m if isinstance(m, str) else view.encode(m) for m in moves]
    data: dict[str, Any] = {"label": label, "frames": view.frames, "moves": moves,
                            "hands": view.hands, "tricks": view.tricks,
                            "final": {"sheet": last.get("sheet", []),
                                      "pts": last.get("pts", [])}}
    if view.base is not None:
        data["base"] = ""  # each frame is what differs from everyone's at the same step
    if view.evals and view.base is not None:  # everyone's line holds the same entries
        data["evs"] = sorted(view.evals, key=int)
    elif view.evals:
        data["ev"] = view.evals
    return data


def build_movie(replay: Replay, seat: int | str | None = None, lang: str | None = None,
                all_views: bool = True, explore: bool = False) -> dict[str, Any]:
    """The JSON-able movie of ``replay``: everyone's view and (``all_views``) each seat's,
    or with ``seat`` (a name or index) that seat's view only.

    ``lang`` picks the notes' language (a :class:`CardlabError` lists those the replay has);
    ``explore`` says a kernel can play what-if branches (the page has none).
    """
    seats = _view_seats(replay, seat, all_views)
    lang = check_lang(replay, lang)
    views = build_views(replay, seats, relative=True)
    return assemble(replay, views, lang, explore)


def assemble(replay: Replay, views: dict[str, Any], lang: str, explore: bool) -> dict[str, Any]:
    """The movie from views already built (the widget keeps them, to send one seat's)."""
    from ..game import get_game as _get

    lines = _lines(replay)
    n = len(replay.seats)
    faces = card_faces(replay.game)
    if "" in views:  # everyone's view may name any card
        used = set(faces)
    else:  # a seat's movie names only the cards its view holds
        try:
            used = {tok for piece in json_pieces({"views": views}, compact_json)
                    for tok in _STRING.findall(piece) if tok in faces}
        except ValueError:  # what allow_nan=False refuses
            raise not_json() from None
    places = {key: _place(n, _home(replay.seats) if key == "" else replay.seats.index(key))
              for key in views}
    title = str(replay.meta.get("title") or _get(replay.game).title)
    sub = ", ".join(replay.seats) + (f" · seed {replay.seed}" if replay.seed is not None else "")
    return {
        "version": FORMAT_VERSION,
        "game": replay.game,
        "title": title,
        "subtitle": sub,
        "seats": list(replay.seats),
        "word": replay.rules.game.game_type.hand_word,
        "langs": note_languages(replay) or ["en"],
        "lang": lang,
        "explore": explore,
        "cards": {code: faces[code] for code in sorted(used)},
        "badges": replay.rules.game.table_words.BADGES,
        "lines": [{"hand": None if h is None else h + 1, "path": [list(p) for p in path]}
                  for h, path in lines],
        "places": places,
        "views": views,
    }


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')  # every JSON string, escapes and all
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False,
                            check_circular=False)
# The C encoder made once (JSONEncoder.encode makes one per call, a third of the cost of
# encoding a small frame); the same text as _ENCODER.encode, NaN and infinity refused.
_MAKE_ENCODER = getattr(json.encoder, "c_make_encoder", None)  # CPython's, untyped
_C_ENCODER = None if _MAKE_ENCODER is None else _MAKE_ENCODER(
    None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", False, False,
    False)


def compact_json(value: Any) -> str:
    """``value`` as compact JSON (no spaces, not ASCII-escaped), standard JSON only: NaN or
    infinity raise ``ValueError`` (``allow_nan=False``).

    >>> compact_json({"a": [1, 2.5, "é"]})
    '{"a":[1,2.5,"é"]}'
    """
    if _C_ENCODER is None or isinstance(value, str):
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))



def not_json(file: str | None = None) -> CardlabError:
    """The error for a movie holding a NaN or an infinity, which no page or viewer may carry
    (``JSON.parse`` refuses it: the page would be blank)."""
    where = f"{file}: " if file else ""
    return CardlabError(f"{where}the page cannot be written: its data holds a number that "
                        "JSON cannot hold (NaN or infinity)")


def json_pieces(movie: dict[str, Any], encode: Callable[[Any], str],
                release: bool = False) -> Iterator[str]:
    """The JSON text of a movie in pieces that join to ``encode(movie)``, where the lines'
    ``frames`` and ``moves`` may hold their items as JSON text already
    (``build_views(..., encode=...)``). A JSON string never spans two pieces. With
    ``release``, each item is dropped from the movie once given (the movie is spent).

    >>> views = {"": [{"label": "x", "frames": ['{"a":1}', {"b": 2}], "moves": []}]}
    >>> "".join(json_pieces({"views": views}, compact_json))
    '{"views":{"":[{"label":"x","frames":[{"a":1},{"b":2}],"moves":[]}]}}'
    """
    holes: list[list[Any]] = []
    token = f"cardlab-{secrets.token_hex(8)}-"  # no string of the replay holds it

    def hole(items: list[Any]) -> str:
        holes.append(items)
        return f"{token}{len(holes) - 1}"

    views = {key: [dict(data, frames=hole(data["frames"]), moves=hole(data["moves"]))
                   for data in lines] for key, lines in movie["views"].items()}
    text = encode(dict(movie, views=views))
    parts = re.split(f'"{token}(\\d+)"', text)
    for k, part in enumerate(parts):
        if k % 2 == 0:
            yield part
            continue
        yield "["
        items = holes[int(part)]
        for i, item in enumerate(items):
            if i:
                yield ","
            if release:
                items[i] = None
            yield item if isinstance(item, str) else encode(item)
        yield "]"


def frame_at(movie: dict[str, Any], step: int, line: int = 0, view: str = "") -> dict[str, Any]:
    """The whole frame of ``step`` (rebuilt from the deltas, as the front-end does)."""
    data = movie["views"][view][line]
    frames = data["frames"]
    if not 0 <= step < len(frames):
        raise CardlabError(f"step {step} is outside 0..{len(frames) - 1}")
    if "base" in data:
        return _patch(frame_at(movie, step, line, data["base"]), frames[step])
    frame: dict[str, Any] = {}
    for delta in frames[: step + 1]:
        frame = _patch(frame, delta)
    return frame


def evals_of(movie: dict[str, Any], line: int = 0, view: str = "") -> dict[str, Any]:
    """The values of the decisions of a line of a view, by step (as a string): a seat's line
    stored beside everyone's lists its steps (``evs``) and shares everyone's entries."""
    data = movie["views"][view][line]
    if "evs" in data:
        shared = evals_of(movie, line, data["base"])
        return {step: shared[step] for step in data["evs"]}
    return dict(data.get("ev", {}))


def iter_frames(movie: dict[str, Any], line: int = 0, view: str = ""
                ) -> Iterator[dict[str, Any]]:
    """Every whole frame of a line of a view, in order (as the front-end rebuilds them)."""
    data = movie["views"][view][line]
    base = iter_frames(movie, line, data["base"]) if "base" in data else None
    frame: dict[str, Any] = {}
    for delta in data["frames"]:
        frame = _patch(next(base) if base is not None else frame, delta)
        yield frame


def note_in(note: Any, lang: str) -> str | None:
    """A note in ``lang`` (a plain string note as it is; else the first language it has)."""
    if note is None or isinstance(note, str):
        return note
    return note.get(lang) or next(iter(note.values()), None)


__all__ = ["assemble", "build_movie", "build_views", "card_faces", "check_lang", "evals_of",
           "frame_at", "iter_frames", "note_in", "pretty"]
