"""The replay viewer in a notebook: one anywidget that draws a movie, and a scriptable wrapper.

:class:`ReplayWidget` is the anywidget: the movie (:mod:`cardlab.view.movie`) and where the
viewer stands (``step``, ``seat``, ``line``, ``lang``, ``show_all``, ``big``, ``future``) are
traitlets synced both ways, so stepping, jumping and switching seats run in the browser with no
kernel round trip, and the kernel can read and set where the viewer stands. The front-end is
``viewer.js`` and ``viewer.css`` beside this module (with the helpers and card faces every
front-end shares, put together by :mod:`cardlab.view.assets`).

:class:`ReplayViewer` wraps it with the scriptable API a notebook or a test drives:
``viewer.next()``, ``viewer.goto_trick(1, 4)``, ``viewer.set_seat("Brad")``,
``viewer.explore("play black12")`` (bots finish the hand; the new line is sent to the
browser), and reads what is shown: ``viewer.step``, ``viewer.position``,
``viewer.trick_cards()``, ``viewer.note_text()``, ``viewer.frame()``. The methods that move or
reconfigure a viewer return None: a displayed viewer is a view, and a cell ending in
``viewer.goto_action(1, 19)`` shows nothing new (the viewer above has moved). A place that
needs its own position gets its own viewer: ``ReplayViewer(replay, at=(1, 19))``.

The movie travels packed (gzip and base64, the ``packed`` trait; ``packed.js`` unpacks it in
the browser), so a saved notebook holds it small, once: a notebook's HTML export draws the
viewer from that same saved state (``export.js``, :func:`cardlab.view.page.export_box`).

When a seat is chosen, the browser switches at once from the data it has, and the kernel then
replaces the movie by that seat's view alone, so nothing hidden from the seat stays in the
widget's data (``private=False`` keeps every view in the browser instead).

>>> import cardlab
>>> viewer = ReplayViewer(cardlab.load("replays/norwegian-review.json"))
>>> viewer.goto_trick(1, 4)
>>> viewer.trick_cards()
['red12']
>>> viewer.set_seat("brad")
Traceback (most recent call last):
...
cardlab.errors.OptionError: no seat 'brad'; the seats are Tone, Remo, Kathrine, Brad
"""

from __future__ import annotations

import base64
import gzip
from typing import Any

from .. import explore as _explore
from ..cursor import Cursor
from ..dataframes import require
from ..errors import CardlabError
from ..replay import Action, LinePath, Replay, index_of_hand
from .assets import PACKED, VIEWER, VIEWER_CSS, module, stylesheet
from .movie import assemble, build_views, check_lang, compact_json, frame_at, note_in, pretty
from .page import export_box, json_text

anywidget = require("anywidget")  # the widgets extra: pip install 'cardlab[widgets]'
traitlets = require("traitlets")

BOT_KINDS = ("heuristic", "random")
EVALUATE_ROLLOUTS = 200  # the browser's "evaluate this decision": a modest number, quickly


def pack(movie: dict[str, Any]) -> str:
    """The movie as the widget sends it: compact JSON, gzipped, in base64 (``packed.js``
    unpacks it). Seeded and reproducible: the gzip header holds no time.

    >>> import cardlab
    >>> packed = pack(cardlab.view.build_movie(cardlab.example("norwegian-review")))
    >>> packed.startswith("H4sI"), pack({"a": 1}) == pack({"a": 1})
    (True, True)
    """
    data = compact_json(movie).encode("utf-8")
    return base64.b64encode(gzip.compress(data, compresslevel=9, mtime=0)).decode("ascii")


class ReplayWidget(anywidget.AnyWidget):  # type: ignore[misc,name-defined]
    """The anywidget drawing a movie; ``viewer.js``/``viewer.css`` are its front-end.

    ``movie`` stays in the kernel; the browser gets it as ``packed`` (:func:`pack`), which
    follows every change of ``movie``."""

    # common.js, viewer.js, moves.js, evaluate.js, present.js and packed.js: one module,
    # entered by renderPacked
    _esm = module(*VIEWER, PACKED, entry="renderPacked")
    _css = stylesheet(*VIEWER_CSS)  # cards.css, viewer.css and present.css
    movie = traitlets.Dict({})
    packed = traitlets.Unicode("").tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    seat = traitlets.Unicode("").tag(sync=True)
    line = traitlets.Int(0).tag(sync=True)
    lang = traitlets.Unicode("en").tag(sync=True)
    show_all = traitlets.Bool(False).tag(sync=True)
    big = traitlets.Bool(False).tag(sync=True)
    evaluate = traitlets.Bool(False).tag(sync=True)  # the advisor's values on the actions
    future = traitlets.Bool(False).tag(sync=True)  # the move list writes out moves to come
    summary = ""  # what the replay is, in a line: the widget's text where it cannot be drawn

    @traitlets.observe("movie")
    def _pack(self, change: Any) -> None:
        self.packed = pack(change["new"])

    def __repr__(self) -> str:
        return self.summary or object.__repr__(self)


class ReplayViewer:
    """Step through a replay in a notebook; display it to see the table.

    ``at`` is where it opens: a step of the main line (``-1`` the last), or ``(hand, index)``
    as :meth:`goto_action` takes them (the step after ``index`` actions of ``hand``, counted
    from 1); it opens on the first step by default.

    >>> import cardlab
    >>> review = cardlab.example("norwegian-review")
    >>> ReplayViewer(review, at=(1, 19), seat="Brad")
    <ReplayViewer bobs-hat step 19/55 main line seen by Brad>
    >>> ReplayViewer(review, at=-1).step
    55
    """

    def __init__(self, replay: Replay, seat: int | str | None = None, lang: str | None = None,
                 show_all: bool = False, big: bool = False, bots: str = "heuristic",
                 private: bool = True, future: bool = False,
                 at: int | tuple[int, int] | None = None) -> None:
        self.replay = replay
        self.bots = bots
        self.private = private
        self.last_branch: _explore.Branch | None = None
        first = None if seat is None else replay.seat_index(seat)
        self._lang = check_lang(replay, lang)
        self._views: dict[str, Any] = {}
        self._solo: dict[str, Any] = {}
        self._build()
        key = "" if first is None else replay.seats[first]
        self.widget = ReplayWidget(movie=self._movie_for(key), seat=key, lang=self._lang,
                                   show_all=show_all, big=big, future=bool(future))
        self.widget.summary = (f"{replay.summary()} Run the cell in JupyterLab to step "
                               "through it.")
        self.widget.add_class("cardlab-widget")
        if isinstance(at, tuple):
            self.goto_action(*at)
        elif at is not None:
            self.goto(at if at >= 0 else self._top() + 1 + at)
        self.widget.observe(self._on_seat, names="seat")
        self.widget.on_msg(self._on_message)

    # -- display -------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        """Show the widget, then the box that draws it in a notebook's HTML export.

        ``jupyter nbconvert --to html --execute`` stores the widget's state and draws widget
        views with a widget manager loaded from the network, so offline the widget is blank
        there. The box that follows it (:func:`cardlab.view.page.export_box`) draws the viewer
        from that saved state, so the movie is saved once; a live front-end that draws the
        widget loads ``viewer.css``, which hides the box."""
        from IPython.display import display

        display(self.widget)
        display({"text/html": export_box(self.widget.model_id, self.replay.summary()),
                 "text/plain": ""}, raw=True)

    def __repr__(self) -> str:
        line = self.lines()[self.widget.line][0]
        return (f"<ReplayViewer {self.replay.game} step {self.step}/{self._top()} "
                f"{line}{' seen by ' + self.seat if self.seat else ''}>")

    # -- the movie ---------------------------------------------------------------------------
    def _build(self) -> None:
        seats: list[int | None] = [None, *range(len(self.replay.seats))]
        self._views = build_views(self.replay, seats, relative=True)
        json_text(self._views)  # standard JSON or a CardlabError: a NaN blanks the viewer
        self._solo = {}

    def _movie_for(self, key: str) -> dict[str, Any]:
        choices = ["", *self.replay.seats]
        if key == "" or not self.private:
            movie = assemble(self.replay, self._views, self._lang, explore=True)
        else:
            if key not in self._solo:  # the seat's own movie, holding nothing else
                self._solo[key] = build_views(self.replay, [self.replay.seats.index(key)])
                json_text(self._solo[key])  # (the numbers of a movie are in its views)
            movie = assemble(self.replay, self._solo[key], self._lang, explore=True)
        movie["choices"] = choices
        return movie

    def _on_seat(self, change: Any) -> None:
        key = change["new"]
        if key and key not in self.replay.seats:
            return
        if self.private or key not in self.widget.movie.get("views", {}):
            self.widget.movie = self._movie_for(key)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "evaluate":
            self._on_evaluate(content)
        if not isinstance(content, dict) or content.get("type") != "explore":
            return
        try:
            if content.get("line") != self.widget.line or content.get("step") != self.step:
                raise CardlabError("the viewer moved on before the branch was asked for")
            action = str(content.get("action", ""))
            played = self._recorded()[3]
            if played is not None and played.act == action:
                # the menu offers the move played too, so as not to tell which it was;
                # choosing it steps on along the line (docs/viewer.md)
                self.next()
                text = (f"{played.seat}: {pretty(self.replay.game, action)} is what was "
                        f"played here; on to step {self.step}")
            else:
                branch = self.explore(action)
                text = (f"{branch.actions[0].seat}: "
                        f"{pretty(self.replay.game, branch.actions[0].act)} instead; the "
                        f"bots finished the {self._word()}: now on "
                        f"{self.lines()[self.widget.line][0]}")
        except CardlabError as err:
            text = f"refused: {err}"
        self.widget.send({"type": "explored", "text": text})

    def _on_evaluate(self, content: dict[str, Any]) -> None:
        """The browser's Evaluate asks for the values of a decision that has none."""
        try:
            if content.get("line") != self.widget.line or content.get("step") != self.step:
                raise CardlabError("the viewer moved on before the values were asked for")
            record = self._evaluate(rollouts=EVALUATE_ROLLOUTS)
            text = (f"{record['seat']}'s choices evaluated over {record['rollouts']} sampled "
                    "deals")
        except CardlabError as err:
            text = f"refused: {err}"
        self.widget.send({"type": "evaluated", "text": text})

    def _word(self) -> str:
        return self.replay.rules.game.game_type.hand_word

    def _key(self) -> str:
        return self.widget.seat or ""

    def _line_data(self) -> dict[str, Any]:
        movie = self.widget.movie
        return movie["views"][self._key()][self.widget.line]  # type: ignore[no-any-return]

    def _top(self) -> int:
        return len(self._line_data()["frames"]) - 1

    # -- moving (the public API) ------------------------------------------------------------
    @property
    def step(self) -> int:
        """The step shown (0 = the first deal of the line)."""
        return int(self.widget.step)

    @property
    def seat(self) -> str | None:
        """The seat whose view is shown (None: everyone's)."""
        return self.widget.seat or None

    @property
    def lang(self) -> str:
        return str(self.widget.lang)

    @property
    def future(self) -> bool:
        """Whether the move list writes out the moves after this step too (the toggle *show
        moves to come*; in a seat's view it never does). Off by default: a class sees no move
        before it is made.

        >>> import cardlab
        >>> viewer = ReplayViewer(cardlab.example("norwegian-review"))
        >>> viewer.future
        False
        >>> viewer.future = True
        >>> viewer.widget.future
        True
        """
        return bool(self.widget.future)

    @future.setter
    def future(self, on: bool) -> None:
        self.widget.future = bool(on)

    # Moving and reconfiguring return None: a displayed viewer is a view, not a value for a
    # cell to show again (docs/viewer.md, "A viewer is a view").
    def goto(self, step: int) -> None:
        """Stand on ``step`` of the line (held within its first and last step)."""
        self.widget.step = max(0, min(int(step), self._top()))

    def next(self) -> None:
        self.goto(self.step + 1)

    def prev(self) -> None:
        self.goto(self.step - 1)

    def first(self) -> None:
        self.goto(0)

    def last(self) -> None:
        self.goto(self._top())

    def _hand_step(self, hand: int) -> int:
        index_of_hand(self.replay, hand)  # hands count from 1: 0 or past the end is refused
        hands = self._line_data()["hands"]
        for entry in hands:
            if entry["i"] == hand:
                return int(entry["s"])
        numbers = ", ".join(str(entry["i"]) for entry in hands)
        raise CardlabError(f"this line has no {self._word()} {hand}; it has {numbers}")

    def goto_hand(self, hand: int) -> None:
        """Jump to just after the deal of hand ``hand`` (counted from 1)."""
        self.goto(self._hand_step(hand))

    def goto_trick(self, hand: int, trick: int) -> None:
        """Jump to the first card of trick ``trick`` of hand ``hand`` (both counted from 1)."""
        index_of_hand(self.replay, hand)
        for h, t, step in self._line_data()["tricks"]:
            if (h, t) == (hand, trick):
                self.goto(step)
                return
        raise CardlabError(f"{self._word()} {hand} has no trick {trick} in this line")

    def goto_action(self, hand: int, index: int) -> None:
        """Jump to the step after ``index`` actions of hand ``hand`` (counted from 1)."""
        start = self._hand_step(hand)
        data = self._line_data()
        ends = [entry["s"] for entry in data["hands"] if entry["s"] > start]
        end = (min(ends) - 1) if ends else len(data["frames"]) - 1
        if not 0 <= index <= end - start:
            raise CardlabError(f"{self._word()} {hand} has steps 0 to {end - start} in this "
                               f"line, not {index}")
        self.goto(start + index)

    def set_seat(self, seat: int | str | None) -> None:
        """Show one seat's view (by name or index), or everyone's with ``None``; an unknown
        seat raises a :class:`CardlabError` listing the seats."""
        key = "" if seat is None else self.replay.seats[self.replay.seat_index(seat)]
        self.widget.seat = key

    def set_lang(self, lang: str) -> None:
        """Show the notes in ``lang``; an unknown one raises a :class:`CardlabError` listing
        the languages of the replay's notes."""
        self.widget.lang = check_lang(self.replay, lang)

    def set_line(self, line: int | None = None, *, hand: int | None = None,
                 path: LinePath = ()) -> None:
        """Follow line ``line`` of :meth:`lines` (``None`` or 0: the main line), or the
        variation ``path`` of hand ``hand`` (counted from 1). A variation opens where it
        branches off; the main line keeps the hand."""
        lines = self.widget.movie["lines"]
        if hand is not None:
            index_of_hand(self.replay, hand)
            wanted = {"hand": hand, "path": [list(p) for p in path]}
            matches = [i for i, entry in enumerate(lines) if entry == wanted]
            if not path:
                matches = [0]
            if not matches:
                raise CardlabError(f"hand {hand} has no variation {list(path)}")
            line = matches[0]
        index = 0 if line is None else int(line)
        if not 0 <= index < len(lines):
            raise CardlabError(f"the viewer has lines 0 to {len(lines) - 1}, not {index}")
        entry = lines[index]
        here = lines[self.widget.line]
        self.widget.line = index
        if entry["path"]:
            self.widget.step = entry["path"][-1][0] + 1
        elif here["hand"] is not None:
            self.widget.step = self._hand_step(here["hand"])
        self.goto(self.step)

    def lines(self) -> list[tuple[str, int]]:
        """The lines the viewer can follow, as (label, index)."""
        views = self.widget.movie["views"][self._key()]
        return [(data["label"], i) for i, data in enumerate(views)]

    def _where(self) -> tuple[int, int, LinePath]:
        """The hand (from 1), the actions of it made, and the line's path, of this step."""
        entry = self.widget.movie["lines"][self.widget.line]
        data = self._line_data()
        hand = entry["hand"]
        step = self.step
        if hand is None:  # on the main line: find the hand this step belongs to
            starts = [(e["s"], e["i"]) for e in data["hands"] if e["s"] <= step]
            start, hand = max(starts)
        else:
            start = 0
        path: LinePath = tuple(tuple(p) for p in entry["path"])  # type: ignore[misc]
        return hand, step - start, path

    def _recorded(self) -> tuple[int, int, LinePath, Action | None]:
        """:meth:`_where`, and the action the line plays at this step (None at its end)."""
        hand, index, path = self._where()
        actions = self.replay.line(hand, path)
        return hand, index, path, actions[index] if index < len(actions) else None

    def set_evaluate(self, on: bool = True) -> None:
        """Show (or hide) the advisor's values on the actions, the chart of where the game
        turned, the costly decisions and luck against skill."""
        self.widget.evaluate = bool(on)

    def evaluate(self, rollouts: int = 200, seed: int = 0, bot: str = "heuristic") -> None:
        """Evaluate the decision at this step (:func:`cardlab.advisor.evaluate`, for the seat
        to act, from what that seat can see), store its record on the action played there
        (``replay.save`` keeps it), and show the values on the viewer (*evaluate* is switched
        on). Returns None, as the methods that reconfigure a viewer do: the values are on the
        table above, and a cell ending here shows nothing new (``cardlab.advisor.evaluate``
        returns the numbers themselves). In a seat's view only that seat's own decision may
        be evaluated; a step where nobody is to act (a hand's end) raises a
        :class:`CardlabError`."""
        self._evaluate(rollouts, seed, bot)
        self.widget.evaluate = True

    def _evaluate(self, rollouts: int = 200, seed: int = 0, bot: str = "heuristic"
                  ) -> dict[str, Any]:
        """:meth:`evaluate`'s work: the record, stored and sent to the browser."""
        from ..advisor.evaluate import evaluate

        hand, index, path, action = self._recorded()
        if action is None:
            raise CardlabError(f"nothing was played after step {self.step} of this line: "
                               "no decision to evaluate")
        if self.seat is not None and action.seat != self.seat:
            raise CardlabError(f"this is {action.seat}'s decision, not {self.seat}'s: a seat's "
                               "view evaluates its own decisions only")
        found = evaluate(self.replay, hand, index, seat=action.seat, rollouts=rollouts,
                         seed=seed, bot=bot, path=path)
        record: dict[str, Any] = found.record()
        action.eval = record
        self._build()
        self.widget.movie = self._movie_for(self._key())
        return record

    def explore(self, action: str, bots: str | None = None, seed: int | str = 0
                ) -> _explore.Branch:
        """Play ``action`` instead of the recorded one at this step; bots finish the hand;
        the variation is stored in the replay, sent to the browser and shown (the viewer
        moves onto it). Returns the :class:`~cardlab.explore.Branch`, the what-if's result
        (``branch.compare()``: each seat's hand score along both lines), which shows as one
        line, never as the viewer again. An illegal action raises the engine's
        :class:`~cardlab.errors.IllegalActionError`; the move played here is no variation
        (a :class:`CardlabError`)."""
        hand, index, path = self._where()
        branch = _explore.branch(self.replay, hand, index, action,
                                 bots=bots or self.bots, seed=seed, path=path)
        self.last_branch = branch
        self._build()
        key = self._key()
        self.widget.movie = self._movie_for(key)
        self.set_line(hand=branch.hand, path=branch.path)
        return branch

    # -- what is shown (for notebooks and tests) --------------------------------------------
    def frame(self) -> dict[str, Any]:
        """The frame drawn at this step: the texts, seats, centre, sheet, as sent."""
        movie = self.widget.movie
        return frame_at(movie, self.step, self.widget.line, self._key())

    def trick_cards(self) -> list[str]:
        """The card codes in the centre (the trick in play, or the one just completed)."""
        trick = self.frame().get("tk") or {}
        return [code for _, code in trick.get("c", [])]

    def note_text(self) -> str | None:
        """The note shown at this step, in the chosen language."""
        data = self._line_data()
        note = None
        for entry in data["hands"]:
            if entry["s"] == self.step:
                note = entry.get("n")
        for move in data["moves"]:
            if move["s"] == self.step:
                note = move.get("n")
        return note_in(note, self.lang)

    @property
    def position(self) -> dict[str, Any]:
        """The engine's position at this step, as the chosen seat sees it."""
        entry = self.widget.movie["lines"][self.widget.line]
        seat = None if not self.seat else self.replay.seats.index(self.seat)
        path: LinePath = tuple(tuple(p) for p in entry["path"])  # type: ignore[misc]
        cursor = Cursor(self.replay, hand=entry["hand"], path=path, seat=seat)
        return cursor.goto(self.step).position


__all__ = ["BOT_KINDS", "ReplayViewer", "ReplayWidget"]
