"""The replay log: a self-contained JSON record of a game, as a tree of lines.

A replay holds the game and every rules option, the seats, the seed (if any), the setup
record (e.g. the draw for first dealer), and per hand the deal and every action in order,
each action with optional notes and *variations*: alternative lines that start where that
action was played, like variations in a chess PGN. The first line is the main line.

Any position is derived by replaying actions from the deal; the file never stores a second
copy of the rules. :func:`load` checks the JSON Schema, then replays every action, so a
tampered file is refused with the file, the JSON path, the hand, the step and the reason.

>>> import cardlab
>>> table = cardlab.new_game("bobs-hat", players=4, seed=7, seats=["A", "B", "C", "D"])
>>> table.act("hat +10")
>>> table.replay.hands[0].actions[0].act
'hat +10'
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import CardlabError, IllegalActionError, OptionError, ReplayError
from .files import write_text
from .game import Rules, State, get_game
from .seats import seat_name_problem

FORMAT = "cardlab-replay"
VERSION = 1

Note = str | dict[str, str]


@dataclasses.dataclass
class Action:
    """One action of a line: who acted, what they did, notes, and alternative lines."""

    seat: str
    act: str
    note: Note | None = None
    variations: list[list[Action]] = dataclasses.field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "act": self.act}
        if self.note is not None:
            out["note"] = self.note
        if self.variations:
            out["variations"] = [[a.to_dict() for a in line] for line in self.variations]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        return cls(
            seat=data["seat"], act=data["act"], note=data.get("note"),
            variations=[[cls.from_dict(a) for a in line] for line in data.get("variations", [])],
        )


@dataclasses.dataclass
class Hand:
    """One dealt hand: the deal record, the main line of actions, the score change."""

    deal: Any
    actions: list[Action] = dataclasses.field(default_factory=list)
    note: Note | None = None
    scores: list[int] | None = None  # what this hand added to each seat's total

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"deal": self.deal}
        if self.note is not None:
            out["note"] = self.note
        out["actions"] = [a.to_dict() for a in self.actions]
        if self.scores is not None:
            out["scores"] = self.scores
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hand:
        return cls(deal=data["deal"], actions=[Action.from_dict(a) for a in data["actions"]],
                   note=data.get("note"), scores=data.get("scores"))


# A path names a line inside one hand: () is the main line; ((i, v),) is variation v of
# action i of the main line; ((i, v), (j, w)) is variation w of action j of that line.
LinePath = tuple[tuple[int, int], ...]


@dataclasses.dataclass
class Replay:
    """A whole game record. Build one with :func:`cardlab.new_game`, or :func:`load` it."""

    game: str
    options: dict[str, Any]
    seats: list[str]
    seed: int | str | None = None
    setup: Any = None
    hands: list[Hand] = dataclasses.field(default_factory=list)
    meta: dict[str, Any] = dataclasses.field(default_factory=dict)
    totals: list[int] | None = None

    # -- structure -----------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return _rules(self.game, json.dumps(self.options, sort_keys=True))

    def seat_index(self, name: str) -> int:
        return self.seats.index(name)

    def line(self, hand: int, path: LinePath = ()) -> list[Action]:
        """The actions of a line of hand ``hand`` (0-based), from the deal to its end."""
        actions = self.hands[hand].actions
        for index, variation in path:
            actions = actions[:index] + actions[index].variations[variation]
        return actions

    def variation_paths(self, hand: int) -> list[LinePath]:
        """Every variation line of a hand, depth first (the main line ``()`` not included)."""
        out: list[LinePath] = []

        def walk(path: LinePath, actions: list[Action], start: int) -> None:
            for i in range(start, len(actions)):
                for v, line in enumerate(actions[i].variations):
                    sub = (*path, (i, v))
                    out.append(sub)
                    walk(sub, actions[:i] + line, i)

        walk((), self.hands[hand].actions, 0)
        return out

    def add_variation(self, hand: int, path: LinePath, index: int,
                      actions: Sequence[Action]) -> LinePath:
        """Store ``actions`` as an alternative to action ``index`` of a line; returns its path.

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
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "seats": self.seats,
            "seed": self.seed,
        }
        if self.meta:
            out["meta"] = self.meta
        if self.setup is not None:
            out["setup"] = self.setup
        out["hands"] = [h.to_dict() for h in self.hands]
        if self.totals is not None:
            out["totals"] = self.totals
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], file: str | None = None) -> Replay:
        """Check ``data`` against the schema and the rules; raise :class:`ReplayError`."""
        check_schema(data, file)
        replay = cls(
            game=data["game"], options=data["options"], seats=list(data["seats"]),
            seed=data.get("seed"), setup=data.get("setup"),
            hands=[Hand.from_dict(h) for h in data["hands"]],
            meta=data.get("meta", {}), totals=data.get("totals"),
        )
        replay.validate(file)
        return replay

    def to_json(self) -> str:
        """Readable, diff-friendly JSON: one action per line."""
        return dumps(self.to_dict())

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically (see :mod:`cardlab.files`); raise :class:`SaveError` if it cannot."""
        save_text(path, self.to_json())

    def copy(self) -> Replay:
        return copy.deepcopy(self)

    def _ipython_display_(self) -> None:
        """In a notebook a replay shows itself as the table viewer (needs the extras)."""
        from IPython.display import display

        from .view.widget import ReplayViewer

        display(ReplayViewer(self))

    def to_html(self, path: str | os.PathLike[str] | None = None, seat: str | None = None,
                lang: str | None = None) -> str:
        """The replay as one self-contained offline HTML page (the viewer, stepping, notes,
        sheet and chart; ``seat``: that seat's view only). With ``path``, also write it."""
        from .view.page import page_html

        page = page_html(self, seat=seat, lang=lang)
        if path is not None:
            save_text(path, page)
        return page

    # -- replaying -----------------------------------------------------------------------
    def new_state(self) -> State:
        state = self.rules.new_state()
        state.names = list(self.seats)  # type: ignore[attr-defined]
        if state.chance_kind() == "setup":
            state.apply_chance(self.setup)
        return state

    def replay_line(self, state: State, hand: int, actions: Sequence[Action],
                    file: str | None = None, base: str = "", first_step: int = 1
                    ) -> Iterator[State]:
        """Apply ``actions`` to ``state``, yielding the state after each one.

        ``base`` is the JSON path of the action list and ``first_step`` the step number of its
        first action, for error messages.
        """
        for k, action in enumerate(actions):
            step = first_step + k
            where = f"{base}[{k}]"
            seat = state.to_act()
            if seat < 0:
                raise ReplayError(
                    f"hand {hand + 1}, step {step}: {action.act!r} comes after the hand has "
                    "ended", file=file, path=where)
            if action.seat != self.seats[seat] and \
                    action.seat != _out_of_turn(state, action, self.seats):
                raise ReplayError(
                    f"hand {hand + 1}, step {step}: it is {self.seats[seat]}'s turn, not "
                    f"{action.seat}'s", file=file, path=where + ".seat")
            try:
                state.act(action.act)
            except IllegalActionError as err:
                raise ReplayError(
                    str(err.located(hand=hand + 1, step=step, seat=action.seat)),
                    file=file, path=where + ".act") from None
            except CardlabError as err:
                raise ReplayError(f"hand {hand + 1}, step {step}: {err}", file=file,
                                  path=where + ".act") from None
            yield state

    def validate(self, file: str | None = None) -> State:
        """Replay every line through the engine; return the state at the end of the main line.

        Checks seats, deals, every action of every line (variations included), the stored
        scores and totals.
        """
        try:
            rules = self.rules
        except CardlabError as err:
            raise ReplayError(str(err), file=file, path="$.options") from None
        if len(self.seats) != rules.players:
            raise ReplayError(f"{rules.players} players need {rules.players} seats, not "
                              f"{len(self.seats)}", file=file, path="$.seats")
        problem = seat_name_problem(self.seats)
        if problem is not None:
            raise ReplayError(problem[1], file=file, path=f"$.seats[{problem[0]}]")
        try:
            state = self.new_state()
        except CardlabError as err:
            raise ReplayError(f"setup: {err}", file=file, path="$.setup") from None
        for h, hand in enumerate(self.hands):
            base = f"$.hands[{h}]"
            if state.chance_kind() != "deal":
                raise ReplayError(f"hand {h + 1} is dealt, but no deal is due: the game is "
                                  "over or the previous hand unfinished", file=file, path=base)
            before = state.totals()
            try:
                state.apply_chance(hand.deal)
            except CardlabError as err:
                raise ReplayError(f"hand {h + 1}: {err}", file=file, path=base + ".deal") \
                    from None
            start = state.clone()
            for _ in self.replay_line(state, h, hand.actions, file, base + ".actions"):
                pass
            self._validate_variations(start, h, hand.actions, file, base + ".actions", 1)
            scores = [a - b for a, b in zip(state.totals(), before, strict=True)]
            ended = state.chance_kind() == "deal" or state.is_game_over()
            if hand.scores is not None and (not ended or hand.scores != scores):
                raise ReplayError(
                    f"hand {h + 1}: the stored scores {hand.scores} do not match the play, "
                    f"which gives {scores if ended else 'no scores yet (the hand is unfinished)'}",
                    file=file, path=base + ".scores")
        if self.totals is not None and self.totals != state.totals():
            raise ReplayError(f"the stored totals {self.totals} do not match the play, which "
                              f"gives {state.totals()}", file=file, path="$.totals")
        return state

    def _validate_variations(self, start: State, hand: int, actions: list[Action],
                             file: str | None, base: str, first_step: int) -> None:
        state = start.clone()
        for i, action in enumerate(actions):
            for v, line in enumerate(action.variations):
                vbase = f"{base}[{i}].variations[{v}]"
                branch = state.clone()
                for _ in self.replay_line(branch, hand, line, file, vbase, first_step + i):
                    pass
                self._validate_variations(state, hand, line, file, vbase, first_step + i)
            state.act(action.act)  # this line was checked already by the caller


def _out_of_turn(state: State, action: Action, seats: list[str]) -> str | None:
    """The seat name of an action the rules let a seat other than ``to_act()`` make, if any."""
    try:
        seat = state.actor(state.parse_action(action.act))
    except CardlabError:
        return None
    return None if seat < 0 else seats[seat]


@lru_cache(maxsize=64)
def _rules(game: str, options_json: str) -> Rules:
    return get_game(game).rules(**json.loads(options_json))


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema of the replay format (shipped inside the package)."""
    text = resources.files("cardlab").joinpath("replay.schema.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


@lru_cache(maxsize=1)
def _validator() -> Any:
    import fastjsonschema  # compiled once per process: a few ms

    return fastjsonschema.compile(schema())


def check_schema(data: Any, file: str | None = None) -> None:
    """Raise :class:`ReplayError` with the JSON path of the first schema violation."""
    import fastjsonschema

    try:
        _validator()(data)
    except fastjsonschema.JsonSchemaValueException as err:
        path = "$" + "".join(f"[{p}]" if p.isdigit() else f".{p}" for p in err.path[1:])
        reason = err.message.split(" ", 1)[1] if err.message.startswith("data") else err.message
        raise ReplayError(reason, file=file, path=path) from None


def load(path: str | os.PathLike[str]) -> Replay:
    """Read, schema-check and replay a file; raise :class:`ReplayError` naming what is wrong."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError("no such file", file=name) from None
    except (OSError, UnicodeDecodeError) as err:
        raise ReplayError(f"cannot read the file: {err}", file=name) from None
    return loads(text, name)


def loads(text: str, file: str | None = None) -> Replay:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReplayError(f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}",
                          file=file) from None
    return Replay.from_dict(data, file)


def dumps(data: dict[str, Any]) -> str:
    """JSON with the header indented and each action (with its variations) on one line."""

    def compact(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))

    lines = ["{"]
    items = list(data.items())
    for k, (key, value) in enumerate(items):
        comma = "," if k < len(items) - 1 else ""
        if key != "hands":
            lines.append(f"  {compact(key)}: {compact(value)}{comma}")
            continue
        lines.append('  "hands": [')
        for h, hand in enumerate(value):
            lines.append("    {")
            hitems = list(hand.items())
            for j, (hkey, hvalue) in enumerate(hitems):
                hcomma = "," if j < len(hitems) - 1 else ""
                if hkey == "actions" and hvalue:
                    lines.append('      "actions": [')
                    for a, action in enumerate(hvalue):
                        acomma = "," if a < len(hvalue) - 1 else ""
                        lines.append(f"        {compact(action)}{acomma}")
                    lines.append(f"      ]{hcomma}")
                elif hkey == "deal" and isinstance(hvalue, dict):
                    lines.append('      "deal": {')
                    ditems = list(hvalue.items())
                    for d, (dkey, dvalue) in enumerate(ditems):
                        dcomma = "," if d < len(ditems) - 1 else ""
                        lines.append(f"        {compact(dkey)}: {compact(dvalue)}{dcomma}")
                    lines.append(f"      }}{hcomma}")
                else:
                    lines.append(f"      {compact(hkey)}: {compact(hvalue)}{hcomma}")
            lines.append("    }" + ("," if h < len(value) - 1 else ""))
        lines.append("  ]" + comma)
    lines.append("}")
    return "\n".join(lines) + "\n"


def save_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically; see :mod:`cardlab.files` for what that promises."""
    write_text(path, text)


# -- recording -------------------------------------------------------------------------------

Bot = Callable[[State, int], int]


class Table:
    """Records a game as it is played: each chance step and action is checked at once.

    With a seed, deals happen by themselves; without one, enter each deal with :meth:`deal`.
    """

    def __init__(self, replay: Replay, auto_deal: bool = True) -> None:
        self.replay = replay
        self.auto_deal = auto_deal and replay.seed is not None
        self.state = replay.rules.new_state()
        self.state.names = list(replay.seats)  # type: ignore[attr-defined]
        self._hand_totals = [0] * len(replay.seats)
        self._last: Action | Hand | None = None  # what ``note`` attaches to
        if self.state.chance_kind() == "setup" and replay.setup is None and \
                replay.seed is not None:
            replay.setup = self.state.seeded_chance(replay.seed)
        if self.state.chance_kind() == "setup" and replay.setup is not None:
            self.state.apply_chance(replay.setup)
        self._advance()

    @property
    def seats(self) -> list[str]:
        return self.replay.seats

    def _advance(self) -> None:
        if self.auto_deal:
            while self.state.chance_kind() == "deal":
                self.deal()
        if self.state.is_game_over() and self.replay.totals is None:
            self.replay.totals = self.state.totals()

    def deal(self, record: Any = None, note: Note | None = None) -> None:
        """Enter the next deal (``None``: the seeded deal). Raises if none is due."""
        kind = self.state.chance_kind()
        if kind == "setup":
            raise IllegalActionError("the game needs its setup record first")
        if kind != "deal":
            raise IllegalActionError("no deal is due: the hand is still being played"
                                     if not self.state.is_game_over() else "the game is over",
                                     hand=self.state.hand_number())
        if record is None:
            if self.replay.seed is None:
                raise IllegalActionError("this table has no seed: enter the dealt cards")
            record = self.state.seeded_chance(self.replay.seed)
        self._hand_totals = self.state.totals()
        self.state.apply_chance(record)
        self.replay.hands.append(Hand(deal=record, note=note))
        self._last = self.replay.hands[-1]

    def setup(self, record: Any) -> None:
        """Enter the game's setup record (e.g. the draw for first dealer)."""
        if self.state.chance_kind() != "setup":
            raise IllegalActionError("no setup is due")
        self.state.apply_chance(record)
        self.replay.setup = record
        self._advance()

    def act(self, text: str, note: Note | None = None) -> None:
        """Apply an action given as text for the seat to act, and record it."""
        state = self.state
        seat = state.to_act()
        hand = len(self.replay.hands)
        step = len(self.replay.hands[-1].actions) + 1 if self.replay.hands else 0
        if seat < 0:
            raise IllegalActionError("nobody is to act: a deal is due" if
                                     state.chance_kind() else "the game is over", hand=hand)
        try:
            action = state.parse_action(text)
            seat = state.actor(action)
            canonical = state.action_text(action)
            state.apply(action)
        except IllegalActionError as err:
            raise err.located(hand=hand, step=step, seat=self.seats[seat]) from None
        self._record(Action(self.seats[seat], canonical, note))

    def apply(self, action: int, note: Note | None = None) -> None:
        """Apply an engine action (an int from ``state.legal_actions()``), and record it."""
        self.act(self.state.action_text(action), note)

    def _record(self, action: Action) -> None:
        hand = self.replay.hands[-1]
        hand.actions.append(action)
        if self.state.chance_kind() == "deal" or self.state.is_game_over():
            after = self.state.totals()
            hand.scores = [a - b for a, b in zip(after, self._hand_totals, strict=True)]
        self._advance()  # may deal the next hand by itself
        self._last = action

    def note(self, note: Note) -> None:
        """Attach a note to what was entered last: an action, or a deal entered by hand.

        After the action that ends a hand, the note goes on that action even when a seeded
        table has already dealt the next hand by itself.
        """
        if self._last is None:
            raise IllegalActionError("nothing has been entered yet to attach a note to")
        self._last.note = note

    def play(self, bots: Sequence[Bot] | Bot, until: str = "game",
             max_actions: int = 1_000_000) -> None:
        """Let bots act (one per seat, or one for all) until the hand or game ends."""
        hand = len(self.replay.hands)
        for _ in range(max_actions):
            seat = self.state.to_act()
            if seat < 0 or (until == "hand" and len(self.replay.hands) != hand):
                return
            bot = bots[seat] if isinstance(bots, Sequence) else bots
            self.apply(bot(self.state, seat))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the replay atomically (see :meth:`Replay.save`)."""
        self.replay.save(path)


def new_game(game: str, players: int | None = None, seed: int | str | None = None,
             seats: Sequence[str] | None = None, meta: dict[str, Any] | None = None,
             **options: Any) -> Table:
    """Start recording a new game.

    >>> table = new_game("bobs-hat", players=3, seed=1)
    >>> table.seats, table.state.to_act()
    (['North', 'East', 'South'], 0)
    """
    if players is not None:
        options["players"] = players
    rules = get_game(game).rules(**options)
    names = list(seats) if seats is not None else default_seats(rules.players)
    replay = Replay(game=game, options=dict(rules.options), seats=names, seed=seed,
                    meta=dict(meta or {}))
    if len(names) != rules.players:
        raise OptionError(f"{rules.players} players need {rules.players} seat names, not "
                          f"{len(names)}: {names}")
    problem = seat_name_problem(names)
    if problem is not None:
        raise OptionError(f"seats: {problem[1]}")
    return Table(replay)


def default_seats(players: int) -> list[str]:
    base = ["North", "East", "South", "West", "Ann", "Bea", "Cal", "Dee", "Eve", "Fay"]
    return base[:players]
