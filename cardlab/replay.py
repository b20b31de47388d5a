"""The replay log: a self-contained JSON record of a game, as a tree of lines.

A replay holds the game and every rules option, the seats, the seed (if any), the setup
record (e.g. the draw for first dealer), and per hand the deal and every action in order,
each action with optional notes and *variations*: alternative lines that start where that
action was played, like variations in a chess PGN. The first line is the main line.

Any position is derived by replaying actions from the deal; the file never stores a second
copy of the rules. This module holds the record and writes it; :mod:`cardlab.loader` reads
it (``cardlab.load``: the format checked, then every action replayed, so a tampered file is
refused with the file, the JSON path, the hand, the step and the reason). The layering is
one way: the loader and the views import this module, and it imports neither (but for the
one display hook, :meth:`Replay._ipython_display_`).

>>> import cardlab
>>> table = cardlab.new_game("bobs-hat", players=4, seed=7, seats=["A", "B", "C", "D"])
>>> table.act("hat +10")
>>> table.replay.hands[0].actions[0].act
'hat +10'
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from collections.abc import Iterator, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any, NamedTuple

from . import replaytext, strictjson
from .errors import (
    OptionError,
    ReplayError,
    brief,
)
from .files import write_text
from .game import Game, Rules, State, get_game
from .replaytext import action_line, hand_data

# The format's name and versions (docs/replay-format.md), here once: written by
# :meth:`Replay.to_dict`, checked by :mod:`cardlab.loader`.
FORMAT = "cardlab-replay"
VERSION = 2  # the newest version; a file is written with the oldest that holds it
VERSIONS = (1, 2)  # what loading reads
EVAL_VERSION = 2  # the version that added the eval records of analysed actions

Note = str | dict[str, str]


@dataclasses.dataclass(eq=False, slots=True)
class Action:
    """One action of a line: who acted, what they did, notes, alternative lines, and the
    advisor's evaluation of the decision if it was analysed (``eval``: see
    docs/replay-format.md).

    Comparing, copying and converting actions never recurses, so a chain of variations of
    any depth works (``==``, :meth:`to_dict`, :meth:`copy`).

    >>> a = Action("Ann", "bid 2", variations=[[Action("Ann", "bid 3", note="greedy")]])
    >>> a.to_dict()["variations"][0][0]
    {'seat': 'Ann', 'act': 'bid 3', 'note': 'greedy'}
    >>> Action.from_dict(a.to_dict()) == a, a.copy() == a
    (True, True)
    """

    seat: str
    act: str
    note: Note | None = None
    variations: list[list[Action]] = dataclasses.field(default_factory=list)
    # The decision's evaluation as the file holds it: {"seat", "rollouts", "seed", "bot",
    # "values": {text: [mean, stderr]}, "exact"?}; checked by the loader (docs/replay-format.md)
    eval: dict[str, Any] | None = None

    def _flat(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "act": self.act}
        if self.note is not None:
            out["note"] = self.note
        if self.eval is not None:
            out["eval"] = eval_copy(self.eval)
        return out

    def to_dict(self) -> dict[str, Any]:
        root = self._flat()
        stack = [(self, root)]
        while stack:
            action, out = stack.pop()
            if action.variations:
                lines = out["variations"] = []
                for line in action.variations:
                    dicts = []
                    for child in line:
                        twin = child._flat()
                        dicts.append(twin)
                        if child.variations:
                            stack.append((child, twin))
                    lines.append(dicts)
        return root

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """An action from its JSON dict (no checks: :func:`cardlab.loader.from_dict` checks
        parsed data, :func:`cardlab.loads` text)."""
        def make(d: dict[str, Any]) -> Action:
            record = d.get("eval")
            return cls(seat=d["seat"], act=d["act"], note=d.get("note"),
                       eval=None if record is None else eval_copy(record))

        root = make(data)
        stack = [(data, root)]
        while stack:
            source, action = stack.pop()
            for line in source.get("variations", ()):
                made = []
                for child in line:
                    twin = make(child)
                    made.append(twin)
                    if child.get("variations"):
                        stack.append((child, twin))
                action.variations.append(made)
        return root

    def copy(self) -> Action:
        """A deep copy (the note copied too, the variations line by line)."""
        def make(a: Action) -> Action:
            note = dict(a.note) if isinstance(a.note, dict) else a.note
            return Action(a.seat, a.act, note,
                          eval=None if a.eval is None else eval_copy(a.eval))

        root = make(self)
        stack = [(self, root)]
        while stack:
            source, action = stack.pop()
            for line in source.variations:
                made = []
                for child in line:
                    twin = make(child)
                    made.append(twin)
                    if child.variations:
                        stack.append((child, twin))
                action.variations.append(made)
        return root

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        stack = [(self, other)]
        while stack:
            a, b = stack.pop()
            if a.seat != b.seat or a.act != b.act or a.note != b.note or \
                    a.eval != b.eval or len(a.variations) != len(b.variations):
                return False
            for line_a, line_b in zip(a.variations, b.variations, strict=True):
                if len(line_a) != len(line_b):
                    return False
                stack.extend(zip(line_a, line_b, strict=True))
        return True

    # mutable, so unhashable, like the dataclass it was
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:  # not the dataclass's: that one recurses into variations
        note = "" if self.note is None else f", note={self.note!r}"
        lines = "" if not self.variations else \
            f", variations=[{len(self.variations)} line{'s' if len(self.variations) > 1 else ''}]"
        evaluated = "" if self.eval is None else ", eval={...}"
        return f"Action({self.seat!r}, {self.act!r}{note}{lines}{evaluated})"

    def json_items(self) -> list[tuple[str, Any]]:
        """The JSON path steps and values of this action's fields (for
        :func:`cardlab.strictjson.find`)."""
        items: list[tuple[str, Any]] = [(".seat", self.seat), (".act", self.act)]
        if self.note is not None:
            items.append((".note", self.note))
        if self.variations:
            items.append((".variations", self.variations))
        if self.eval is not None:
            items.append((".eval", self.eval))
        return items


def eval_copy(record: dict[str, Any]) -> dict[str, Any]:
    """A copy of an eval record deep enough that changing the copy leaves the original (its
    ``values`` map and each ``[mean, stderr]`` pair copied)."""
    out = dict(record)
    values = out.get("values")
    if isinstance(values, dict):
        out["values"] = {text: list(pair) if isinstance(pair, list) else pair
                         for text, pair in values.items()}
    return out


def has_evals(hands: Sequence[Hand]) -> bool:
    """Whether any action of any line (variations included) carries an eval record."""
    for hand in hands:  # the main lines first, without a walk: most replays have no more
        for action in hand.actions:
            if action.eval is not None:
                return True
            if action.variations:
                return any(action.eval is not None for line in walk_lines(hands)
                           for action in line.actions)
    return False


@dataclasses.dataclass(eq=False)
class Hand:
    """One dealt hand: the deal record, the main line of actions, the score change."""

    deal: Any
    actions: list[Action] = dataclasses.field(default_factory=list)
    note: Note | None = None
    scores: list[int] | None = None  # what this hand added to each seat's total

    def to_dict(self) -> dict[str, Any]:
        return self._data(True)

    def _data(self, action_dicts: bool) -> dict[str, Any]:
        # to_json keeps the actions as they are: the writer turns each into its line itself
        return hand_data(self.deal, [a.to_dict() for a in self.actions] if action_dicts
                         else self.actions, self.note, self.scores)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hand:
        return cls(deal=data["deal"], actions=[Action.from_dict(a) for a in data["actions"]],
                   note=data.get("note"), scores=data.get("scores"))

    def __eq__(self, other: object) -> bool:  # the deal compared without recursing
        if not isinstance(other, Hand):
            return NotImplemented
        return (self.actions == other.actions and self.note == other.note
                and self.scores == other.scores and strictjson.equal(self.deal, other.deal))

    __hash__ = None  # type: ignore[assignment]

    def copy(self) -> Hand:
        note = dict(self.note) if isinstance(self.note, dict) else self.note
        return Hand(deal=strictjson.copy(self.deal), actions=[a.copy() for a in self.actions],
                    note=note, scores=None if self.scores is None else list(self.scores))


# A path names a line inside one hand: () is the main line; ((i, v),) is variation v of
# action i of the main line; ((i, v), (j, w)) is variation w of action j of that line.
LinePath = tuple[tuple[int, int], ...]


class Line(NamedTuple):
    """One line of a hand as :func:`walk_lines` gives it: ``actions`` are the line's own
    actions (for a variation, those after where it branches), the first of them action
    ``start`` (0-based) of the whole line; ``path`` names it (:data:`LinePath`)."""

    hand_index: int  # 0-based index into ``replay.hands``
    path: LinePath
    actions: list[Action]
    start: int


def walk_lines(hands: Sequence[Hand], first: int = 0) -> Iterator[Line]:
    """Every line of ``hands`` (the main line of each hand, then its variations), each once,
    depth first in file order: the order of :meth:`Replay.variation_paths`, a variation
    before the lines branching off it. ``first`` is the index of ``hands[0]`` in the replay.

    The one walk over a replay's tree (python-chess's ``GameNode.accept`` is the model): an
    explicit stack, never recursion, so a chain of variations of any depth is walked, in time
    linear in the actions plus the lines.

    >>> a = Action("Ann", "bid 2", variations=[[Action("Ann", "bid 3",
    ...     variations=[[Action("Ann", "bid 4")]])], [Action("Ann", "bid 1")]])
    >>> hand = Hand(deal=None, actions=[Action("Bo", "bid 0"), a])
    >>> [(line.path, line.start, [x.act for x in line.actions]) for line in walk_lines([hand])]
    [((), 0, ['bid 0', 'bid 2']), (((1, 0),), 1, ['bid 3']), (((1, 0), (1, 0)), 1, ['bid 4']), \
(((1, 1),), 1, ['bid 1'])]
    """
    for h, hand in enumerate(hands, first):
        stack = [Line(h, (), hand.actions, 0)]
        while stack:
            line = stack.pop()
            yield line
            inside = [Line(h, (*line.path, (line.start + k, v)), variation, line.start + k)
                      for k, action in enumerate(line.actions) if action.variations
                      for v, variation in enumerate(action.variations)]
            stack.extend(reversed(inside))


def note_languages(replay: Replay) -> list[str]:
    """The languages the notes of a replay are written in (``"en"`` first when present),
    every line walked (:func:`walk_lines`).

    >>> import cardlab
    >>> note_languages(cardlab.example("norwegian-review"))
    ['en', 'no']
    """
    found: set[str] = set()
    for hand in replay.hands:
        if isinstance(hand.note, dict):
            found.update(hand.note)
    for line in walk_lines(replay.hands):
        for action in line.actions:
            if isinstance(action.note, dict):
                found.update(action.note)
    return sorted(found, key=lambda lang: (lang != "en", lang))


def index_of_hand(replay: Replay, hand: object) -> int:
    """The index into ``replay.hands`` of hand ``hand``: hands count from 1 in every public
    ``hand`` argument (hand 1 is ``replay.hands[0]``). Anything else (0, a negative, a bool,
    a hand past the end) is an :class:`~cardlab.errors.OptionError` naming the valid range.

    >>> import cardlab
    >>> review = cardlab.example("norwegian-review")
    >>> index_of_hand(review, 1), index_of_hand(review, 2)
    (0, 1)
    >>> index_of_hand(review, 0)
    Traceback (most recent call last):
    ...
    cardlab.errors.OptionError: hands count from 1: the replay has hands 1 to 2, not 0
    """
    count = len(replay.hands)
    if isinstance(hand, int) and not isinstance(hand, bool) and 1 <= hand <= count:
        return hand - 1
    has = ("no hands yet" if count == 0 else "hand 1 only" if count == 1
           else f"hands 1 to {count}")
    raise OptionError(f"hands count from 1: the replay has {has}, not {brief(hand)}")


@dataclasses.dataclass(eq=False)
class Replay:
    """A whole game record. Build one with :func:`cardlab.new_game`, or :func:`cardlab.load` it."""

    game: str
    options: dict[str, Any]
    seats: list[str]
    seed: int | str | None = None
    setup: Any = None
    hands: list[Hand] = dataclasses.field(default_factory=list)
    meta: dict[str, Any] = dataclasses.field(default_factory=dict)
    totals: list[int] | None = None
    # What ``load(..., lenient=True)`` repaired, one line each ("$.options.hands: ' 3 ' read
    # as 3"); empty for a file loaded as it is. Not saved, not compared.
    repairs: list[str] = dataclasses.field(default_factory=list, compare=False, repr=False)

    def __eq__(self, other: object) -> bool:
        """Equal records (``repairs`` aside); free JSON compared without recursing."""
        if not isinstance(other, Replay):
            return NotImplemented
        return (self.game == other.game and self.seats == other.seats
                and self.seed == other.seed and self.totals == other.totals
                and strictjson.equal(self.options, other.options)
                and strictjson.equal(self.setup, other.setup)
                and strictjson.equal(self.meta, other.meta) and self.hands == other.hands)

    __hash__ = None  # type: ignore[assignment]

    # -- structure -----------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return _rules(get_game(self.game), json.dumps(self.options, sort_keys=True))

    def seat_index(self, seat: str | int) -> int:
        """The seat number (from 0) of ``seat``, given by name or by number: every public
        ``seat`` argument is resolved here. Anything else is an
        :class:`~cardlab.errors.OptionError` (a ``ValueError`` too) naming the seats.

        >>> import cardlab
        >>> review = cardlab.example("norwegian-review")
        >>> review.seat_index("Brad"), review.seat_index(2)
        (3, 2)
        >>> review.seat_index("brad")
        Traceback (most recent call last):
        ...
        cardlab.errors.OptionError: no seat 'brad'; the seats are Tone, Remo, Kathrine, Brad
        >>> review.seat_index(4)
        Traceback (most recent call last):
        ...
        cardlab.errors.OptionError: no seat 4; the seats are Tone, Remo, Kathrine, Brad \
(or 0 to 3)
        """
        names = self.seats
        if isinstance(seat, str):
            if seat in names:
                return names.index(seat)
        elif isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
            return seat
        numbers = "" if isinstance(seat, str) else f" (or 0 to {len(names) - 1})"
        raise OptionError(f"no seat {brief(seat)}; the seats are {', '.join(names)}{numbers}")

    def line(self, hand: int, path: LinePath = ()) -> list[Action]:
        """The actions of a line of hand ``hand`` (counted from 1: hand 1 is ``hands[0]``),
        from the deal to its end; ``path`` picks a variation (``()``: the main line)."""
        actions = self.hands[index_of_hand(self, hand)].actions
        for index, variation in path:
            actions = actions[:index] + actions[index].variations[variation]
        return actions

    def variation_paths(self, hand: int) -> list[LinePath]:
        """Every variation line of hand ``hand`` (counted from 1), depth first (the main line
        ``()`` not included)."""
        index = index_of_hand(self, hand)
        return [line.path for line in walk_lines(self.hands[index:index + 1], index)][1:]

    def add_variation(self, hand: int, path: LinePath, index: int,
                      actions: Sequence[Action]) -> LinePath:
        """Store ``actions`` as an alternative to action ``index`` (0-based) of a line of hand
        ``hand`` (counted from 1); returns its path.

        An identical variation already stored there is not stored twice; its path is returned.
        """
        parent = self.line(hand, path)
        if not actions:
            raise ReplayError("a variation needs at least one action")
        if not 0 <= index < len(parent):
            raise ReplayError(f"the line has actions 0 to {len(parent) - 1}; a variation "
                              f"cannot branch off action {index}")
        node = parent[index]  # slicing keeps the nodes, so this is the stored node itself
        if node.act == actions[0].act:
            raise ReplayError(f"{actions[0].act!r} is what the line already plays here")
        owner = tuple(branch for branch in path if branch[0] <= index)
        acts = [a.act for a in actions]
        for v, existing in enumerate(node.variations):
            if [a.act for a in existing] == acts:
                return (*owner, (index, v))
        node.variations.append(list(actions))
        return (*owner, (index, len(node.variations) - 1))

    # -- JSON ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return self._data(True)

    def _data(self, action_dicts: bool) -> dict[str, Any]:
        return replay_data(self.game, self.options, self.seats, self.seed, self.meta,
                           self.setup, [h._data(action_dicts) for h in self.hands], self.totals,
                           evals=has_evals(self.hands))

    def to_json(self) -> str:
        """Readable, diff-friendly JSON: one action per line. Raises :class:`ReplayError` for
        what JSON cannot hold (NaN, a lone surrogate), which a loaded replay never has."""
        return dumps(self._data(False))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically (see :mod:`cardlab.files`); raise :class:`SaveError` if it cannot."""
        save_text(path, self.to_json())

    def copy(self) -> Replay:
        """A deep copy, at any depth of variations."""
        return Replay(game=self.game, options=dict(self.options), seats=list(self.seats),
                      seed=self.seed, setup=strictjson.copy(self.setup),
                      hands=[h.copy() for h in self.hands], meta=strictjson.copy(self.meta),
                      totals=None if self.totals is None else list(self.totals),
                      repairs=list(self.repairs))

    def __repr__(self) -> str:
        """One line: a dataclass's repr would print every action of every hand.

        >>> import cardlab
        >>> cardlab.example("norwegian-review")
        <Replay bobs-hat: Tone, Remo, Kathrine, Brad; 2 hands>
        """
        word = get_game(self.game).game_type.hand_word
        return f"<Replay {self.game}: {', '.join(self.seats)}; {_counted(len(self.hands), word)}>"

    def summary(self) -> str:
        """What the replay is, in a sentence that gives nothing away (no score, no winner).

        >>> import cardlab
        >>> cardlab.example("whot-example").summary()
        'A short rubber of Whot (example, seed 1): Ade, Bisi, Chidi and Dayo; 5 games.'
        >>> cardlab.new_game("teds-game", players=3, seed=1, seats=["A", "B", "C"]).replay.summary()
        "Ted's Game: A, B and C; 1 hand."
        """
        game = get_game(self.game)
        title = str(self.meta.get("title") or game.title)
        if game.title not in title:
            title = f"{title} ({game.title})"
        seats = self.seats if len(self.seats) < 2 else [", ".join(self.seats[:-1]),
                                                          self.seats[-1]]
        return (f"{title}: {' and '.join(seats)}; "
                f"{_counted(len(self.hands), game.game_type.hand_word)}.")

    def _ipython_display_(self) -> None:
        """In a notebook a replay shows itself as the table viewer (needs the widgets
        extra). Without it, the replay shows its :meth:`summary` and the one line that says
        what to install, never a traceback.

        The one place this module reaches up into the view, lazily, as python-chess's
        ``Board._repr_svg_`` reaches ``chess.svg``: the page is
        :func:`cardlab.view.page_html` (:func:`cardlab.view.write_page` writes it)."""
        from IPython.display import display

        try:
            from .view.widget import ReplayViewer
        except ImportError as err:  # MissingExtraError is one: anywidget, traitlets
            text = (f"{self.summary()}\nTo step through it here, install the viewer: "
                    f"{_install_line(err)}")
            display({"text/plain": text}, raw=True)
            return
        display(ReplayViewer(self))

    # -- replaying -----------------------------------------------------------------------
    def new_state(self) -> State:
        state = self.rules.new_state(self.seats)
        if state.chance_kind() == "setup":
            state.apply_chance(self.setup)
        return state


def _counted(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _install_line(err: ImportError) -> str:
    """The pip command of a missing extra's error (:func:`cardlab.dataframes.require` ends
    with it), else the notebook extra's."""
    text = str(err)
    mark = "pip install "
    return text[text.rindex(mark):] if mark in text else "pip install 'cardlab[widgets]'"


@lru_cache(maxsize=64)
def _rules(game: Game, options_json: str) -> Rules:
    # Keyed by the registered Game, not its name: a game registered again is a new key.
    return game.rules(**json.loads(options_json))


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema of the replay format (shipped inside the package). The loader checks
    the same structure itself (and more: see docs/replay-format.md)."""
    text = resources.files("cardlab").joinpath("replay.schema.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def replay_data(game: str, options: dict[str, Any], seats: list[str], seed: Any,
                meta: dict[str, Any], setup: Any, hands: list[dict[str, Any]],
                totals: list[int] | None, evals: bool = False) -> dict[str, Any]:
    """A replay as :func:`dumps` writes it: the header, ``hands`` (each :func:`hand_data`),
    the totals. ``evals``: whether an action carries an eval record (the file's version)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        # the oldest version that holds the file: one without evals reads in any cardlab
        "version": EVAL_VERSION if evals else VERSIONS[0],
        "game": game,
        "options": options,
        "seats": seats,
        "seed": seed,
    }
    if meta:
        out["meta"] = meta
    if setup is not None:
        out["setup"] = setup
    out["hands"] = hands
    if totals is not None:
        out["totals"] = totals
    return out


def dumps(data: dict[str, Any]) -> str:
    """JSON with the header indented and each action (with its variations) on one line.

    The actions of a hand may be :class:`Action` objects (as :meth:`Replay.to_json` gives
    them) or their dicts: the same text either way; or, already written, the text of their
    lines (:func:`action_line` each, joined by ``",\\n"``), which is written as it is.

    Standard JSON only: NaN or a lone surrogate (which no UTF-8 file can hold) raise a
    :class:`ReplayError` with the JSON path. Any depth of variations is written.
    """
    try:
        text = _dumps(data)
    except ValueError as err:  # NaN or infinity: json.dumps(allow_nan=False)
        found = strictjson.find(data, _not_json)
        raise ReplayError(found[1] if found else str(err),
                          path=found[0] if found else None) from None
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            found = strictjson.find(data, lambda v: strictjson.lone_surrogate(v)
                                    if isinstance(v, str) else None)
            raise ReplayError(found[1] if found else "the text holds a lone surrogate",
                              path=found[0] if found else None) from None
    return text


def _not_json(value: Any) -> str | None:
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value!r} is not a JSON number (JSON has no NaN or Infinity)"
    return None


def _dumps(data: dict[str, Any]) -> str:
    return replaytext.write(data, _actions_text)


def _actions_text(actions: list[Any]) -> str:
    """The lines of a hand's actions (objects or their dicts), joined: a plain action's line
    written once per (seat, act)."""
    known = replaytext.known_line
    action_class = Action
    return ",\n".join([
        known(action.seat, action.act) or _action_line(action)
        if type(action) is action_class and action.note is None and action.eval is None
        and not action.variations else _action_line(action) for action in actions])


def _action_line(action: Any) -> str:
    """An action's line of :func:`_dumps` (its JSON, indented), from the object or its dict."""
    if type(action) is not Action:
        return "        " + replaytext.encode(action)
    if action.note is not None or action.eval is not None or action.variations:
        return "        " + replaytext.encode(action.to_dict())
    return action_line(action.seat, action.act)


def save_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically; see :mod:`cardlab.files` for what that promises."""
    write_text(path, text)


def kind_of(value: Any) -> str:
    """What a value read from a replay file is, as a refusal names it.

    >>> kind_of(None), kind_of(3), kind_of("hat +5"), kind_of([1])
    ('null', 'the number 3', "the text 'hat +5'", 'a list')
    """
    if type(value) is Action:
        return "an action object"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if isinstance(value, list):
        return "a list"
    return "an object"
