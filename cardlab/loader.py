"""Reading a replay file: standard JSON, the format's structure, the limits, then the rules.

:func:`load` reads a file (``cardlab.load``), :func:`loads` JSON text (``cardlab.loads``) and
:func:`from_dict` JSON already parsed. Each turns it into a :class:`~cardlab.replay.Replay`
in one pass over the data, checking the structure the format describes
(docs/replay-format.md; the same rules as ``replay.schema.json``) and the named limits
(:mod:`cardlab.limits`) as it goes, each refusal naming the file and the JSON path.
:func:`validate` then replays every line through the engine. Nothing here recurses, so a
legal replay of any depth loads. This module imports :mod:`cardlab.replay`, never the other
way round.

Action objects, which are nearly all of a long replay, are built straight from the parser
(``{"seat": ..., "act": ...}`` with text values becomes an :class:`~cardlab.replay.Action`
as it is read), so loading a million actions needs no dict per action.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator, Sequence
from typing import Any

from . import strictjson
from .errors import CardlabError, IllegalActionError, OptionError, ReplayError, brief
from .game import Rules, State, get_game
from .limits import DEFAULT_LIMITS, Limits, exceeded
from .replay import EVAL_VERSION, FORMAT, VERSION, VERSIONS, Action, Hand, Replay, index_of_hand
from .seats import seat_name_problem
from .strictjson import DUPLICATE, PairsHook, checked_dict

TOP_KEYS = ("format", "version", "game", "options", "seats", "seed", "meta", "setup", "hands",
            "totals")
REQUIRED = ("format", "version", "game", "options", "seats", "seed", "hands")
HAND_KEYS = ("deal", "note", "actions", "scores")
ACTION_KEYS = ("seat", "act", "note", "variations", "eval")
EVAL_KEYS = ("seat", "rollouts", "seed", "bot", "values", "exact")
EVAL_REQUIRED = ("seat", "rollouts", "seed", "bot", "values")
# The rollout policies an eval record may name (cardlab.advisor.evaluate takes the same).
EVAL_BOTS = ("random", "heuristic", "exact")
# The range of an eval record's numbers (docs/replay-format.md). No game's expected score
# comes near a billion, and within these bounds every sum the views take over a replay at
# the limits (a loss per decision, a million decisions a hand, a thousand hands) stays an
# ordinary float; the seed stays a whole number JavaScript reads exactly (the viewer's).
EVAL_VALUE_MAX = 1e9  # |mean|
EVAL_STDERR_MAX = 1e9
EVAL_ROLLOUTS_MAX = 10**9
EVAL_SEED_MAX = 2**53 - 1  # |seed|


def check_rollouts(rollouts: object) -> int:
    """The ``rollouts`` option of the advisor (``evaluate``, ``analyse``, the bidding lab):
    a whole number from 1 to :data:`EVAL_ROLLOUTS_MAX`, what an eval record may say; else an
    :class:`~cardlab.errors.OptionError`.

    >>> check_rollouts(200)
    200
    >>> check_rollouts(0)
    Traceback (most recent call last):
        ...
    cardlab.errors.OptionError: rollouts is a whole number of at least 1, not 0
    """
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
        raise OptionError(f"rollouts is a whole number of at least 1, not {brief(rollouts)}")
    if rollouts > EVAL_ROLLOUTS_MAX:
        raise OptionError(f"rollouts is at most {EVAL_ROLLOUTS_MAX:,}, not {rollouts:,}")
    return rollouts


LANGUAGE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]+)?")
META_TEXT = ("title", "source", "description", "author", "date")


def action_pairs(flags: dict[str, bool]) -> PairsHook:
    """The parser's object hook: a plain action object becomes an Action at once (its seat
    and act text shared between equal actions); any other object a dict."""
    action_class = Action
    shared: dict[str, str] = {}
    share = shared.setdefault

    def hook(pairs: list[tuple[str, Any]]) -> Any:
        if len(pairs) == 2:
            (k1, seat), (k2, act) = pairs
            if k1 == "seat" and k2 == "act" and type(seat) is str and type(act) is str and act:
                return action_class(share(seat, seat), share(act, act))
        return checked_dict(pairs, flags)

    return hook


class _Reader:
    """One pass over parsed replay data: structure, limits, lenient repairs."""

    def __init__(self, file: str | None, limits: Limits, lenient: bool,
                 repairs: list[str]) -> None:
        self.file = file
        self.limits = limits
        self.lenient = lenient
        self.repairs = repairs
        self.variations = 0
        self.version = VERSION

    def fail(self, path: str, reason: str) -> ReplayError:
        return ReplayError(reason, file=self.file, path=path)

    def over(self, name: str, limit: int, found: str, path: str) -> ReplayError:
        return exceeded(name, limit, found, file=self.file, path=path)

    # -- generic JSON ------------------------------------------------------------------
    def plain(self, value: Any, path: str, nesting: int) -> Any:
        """Free JSON (meta, a deal, the setup): no action objects in it (they turn back into
        dicts), nested no deeper than the limit counting the ``nesting`` levels around it."""
        deepest = strictjson.depth(value)
        if nesting + deepest > self.limits.max_nesting:
            raise self.over("max_nesting", self.limits.max_nesting,
                            f"the JSON is nested {nesting + deepest} deep", path)
        return _plain(value)

    def note(self, value: Any, path: str) -> Any:
        limit = self.limits.max_note_chars
        if isinstance(value, str):
            if len(value) > limit:
                raise self.over("max_note_chars", limit,
                                f"the note has {len(value):,} characters", path)
            return value
        if isinstance(value, dict) and value and DUPLICATE not in value:
            for lang, text in value.items():
                if not isinstance(lang, str) or not LANGUAGE.fullmatch(lang):
                    raise self.fail(path, f"a note's keys are language codes such as 'en' or "
                                          f"'no', not {brief(lang)}")
                if not isinstance(text, str):
                    raise self.fail(f"{path}.{lang}", f"a note's text is a string, not "
                                                      f"{_kind(text)}")
                if len(text) > limit:
                    raise self.over("max_note_chars", limit,
                                    f"the note has {len(text):,} characters", f"{path}.{lang}")
            return value
        raise self.fail(path, "a note is a string, or an object of texts by language "
                              '({"en": "...", "no": "..."})')

    def whole_numbers(self, value: Any, path: str, what: str) -> list[int]:
        if not isinstance(value, list):
            raise self.fail(path, f"{what} are a list of whole numbers, one per seat, not "
                                  f"{_kind(value)}")
        out = []
        for i, number in enumerate(value):
            if type(number) is float and number.is_integer() and self.lenient:
                self.repairs.append(f"{path}[{i}]: {number!r} read as {int(number)}")
                number = int(number)
            if type(number) is not int:
                raise self.fail(f"{path}[{i}]", f"{what} are whole numbers (written without a "
                                                f"decimal point), not {brief(number)}")
            out.append(number)
        return out

    # -- actions and variations ----------------------------------------------------------
    def action(self, value: Any, path: str) -> Action:
        """An action object that the parser's fast path did not take: check it fully."""
        if not isinstance(value, dict):
            raise self.fail(path, f"an action is an object "
                                  f'{{"seat": ..., "act": ...}}, not {_kind(value)}')
        self.keys(value, path, ACTION_KEYS, ("seat", "act"), "an action")
        seat, act = value["seat"], value["act"]
        if not isinstance(seat, str):
            raise self.fail(path + ".seat", f"an action's seat is a seat name, not "
                                            f"{_kind(seat)}")
        if not isinstance(act, str) or not act:
            raise self.fail(path + ".act", "an action's act is the action as text, such as "
                                           f"'play blue14', not {_kind(act)}")
        variations = value.get("variations", [])
        if not isinstance(variations, list):
            raise self.fail(path + ".variations", "an action's variations are a list of lines"
                                                  f", not {_kind(variations)}")
        note = self.note(value["note"], path + ".note") if "note" in value else None
        record = value.get("eval")
        if "eval" in value:
            if self.version < EVAL_VERSION:
                raise self.fail(path + ".eval", f"eval records are in version {EVAL_VERSION} "
                                                f"of the format; this file says version "
                                                f"{self.version}")
            if record is None:  # checked in full where it is replayed (check_eval)
                raise self.fail(path + ".eval", "an eval record is an object, not null")
        return Action(seat, act, note, variations, record)

    def line(self, value: Any, path: str, depth: int) -> list[Action]:
        """Check a line (the main line, depth 0, or a variation) and every line inside it."""
        action_class = Action
        limits = self.limits
        work: list[tuple[Any, str, int]] = [(value, path, depth)]
        root: list[Action] | None = None
        while work:
            actions, where, level = work.pop()
            if not isinstance(actions, list):
                raise self.fail(where, f"a line is a list of actions, not {_kind(actions)}")
            if level and not actions:
                raise self.fail(where, "a variation needs at least one action")
            if len(actions) > limits.max_actions_per_hand:
                raise self.over("max_actions_per_hand", limits.max_actions_per_hand,
                                f"the line has {len(actions):,} actions", where)
            if level > limits.max_variation_depth:
                raise self.over("max_variation_depth", limits.max_variation_depth,
                                f"variations are nested {level} deep", where)
            nesting = 5 + 3 * level  # $, hands, a hand, actions, the action; 3 per variation
            for k, item in enumerate(actions):
                if type(item) is not action_class:
                    item = actions[k] = self.action(item, f"{where}[{k}]")
                elif item.note is not None:
                    item.note = self.note(item.note, f"{where}[{k}].note")
                if item.note is not None and nesting + 1 > limits.max_nesting and \
                        isinstance(item.note, dict):
                    raise self.over("max_nesting", limits.max_nesting,
                                    f"the JSON is nested {nesting + 1} deep", f"{where}[{k}]")
                if item.eval is not None and nesting + 3 > limits.max_nesting:
                    raise self.over("max_nesting", limits.max_nesting,
                                    f"the JSON is nested {nesting + 3} deep",
                                    f"{where}[{k}].eval")
                if item.variations:
                    if nesting + 3 > limits.max_nesting:
                        raise self.over("max_nesting", limits.max_nesting,
                                        f"the JSON is nested {nesting + 3} deep",
                                        f"{where}[{k}].variations")
                    self.variations += len(item.variations)
                    if self.variations > limits.max_variations:
                        raise self.over("max_variations", limits.max_variations,
                                        f"the replay has more than {limits.max_variations:,} "
                                        "variations", f"{where}[{k}].variations")
                    for v in range(len(item.variations) - 1, -1, -1):
                        work.append((item.variations[v], f"{where}[{k}].variations[{v}]",
                                     level + 1))
            if root is None:
                root = actions
        assert root is not None
        return root

    # -- the whole replay ----------------------------------------------------------------
    def keys(self, value: dict[Any, Any], path: str, allowed: tuple[str, ...],
             required: tuple[str, ...], what: str) -> None:
        if DUPLICATE in value:
            raise self.fail(path, f"the key {value[DUPLICATE]!r} is given twice in this "
                                  "object")
        for key in value:
            if key not in allowed:
                raise self.fail(path, f"{what} has no key {key!r}; its keys are "
                                      f"{', '.join(allowed)}")
        missing = [key for key in required if key not in value]
        if missing:
            raise self.fail(path, f"{what} needs the key {missing[0]!r}")

    def replay(self, data: Any) -> Replay:
        if not isinstance(data, dict):
            raise self.fail("$", f"a replay is a JSON object, not {_kind(data)}")
        self.keys(data, "$", TOP_KEYS, (), "a replay")
        if data.get("format") != FORMAT:
            raise self.fail("$.format", f"not a cardlab replay: the format must be "
                                        f"{FORMAT!r}, not {brief(data.get('format'))}")
        if type(data.get("version")) is not int or data["version"] not in VERSIONS:
            raise self.fail("$.version", f"this cardlab reads versions "
                                         f"{', '.join(map(str, VERSIONS))} of the format, "
                                         f"not {brief(data.get('version'))}")
        self.version = data["version"]
        self.keys(data, "$", TOP_KEYS, REQUIRED, "a replay")
        game = data["game"]
        if not isinstance(game, str) or not game:
            raise self.fail("$.game", f"the game is a name such as 'bobs-hat', not "
                                      f"{_kind(game)}")
        options = data["options"]
        if not isinstance(options, dict):
            raise self.fail("$.options", f"the options are an object, not {_kind(options)}")
        options = self.plain(options, "$.options", 1)
        seats = data["seats"]
        if not isinstance(seats, list) or len(seats) < 2:
            raise self.fail("$.seats", "the seats are a list of names, one per player")
        for i, name in enumerate(seats):
            if not isinstance(name, str):
                raise self.fail(f"$.seats[{i}]", f"seat {i + 1}'s name must be text, not "
                                                 f"{_kind(name)}")
        problem = seat_name_problem(seats)
        if problem is not None:
            raise self.fail(f"$.seats[{problem[0]}]", problem[1])
        seed = data["seed"]
        if seed is not None and type(seed) not in (int, str):
            raise self.fail("$.seed", f"the seed is a whole number, a text or null, not "
                                      f"{_kind(seed)}")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise self.fail("$.meta", f"meta is an object, not {_kind(meta)}")
        meta = self.plain(meta, "$.meta", 1)
        for key in META_TEXT:
            if key in meta and not isinstance(meta[key], str):
                raise self.fail(f"$.meta.{key}", f"meta.{key} is text, not {_kind(meta[key])}")
        setup = self.plain(data["setup"], "$.setup", 1) if "setup" in data else None
        hands_data = data["hands"]
        if not isinstance(hands_data, list):
            raise self.fail("$.hands", f"the hands are a list, not {_kind(hands_data)}")
        if len(hands_data) > self.limits.max_hands:
            raise self.over("max_hands", self.limits.max_hands,
                            f"the replay has {len(hands_data):,} hands", "$.hands")
        hands = []
        for h, hand in enumerate(hands_data):
            base = f"$.hands[{h}]"
            if not isinstance(hand, dict):
                raise self.fail(base, f"a hand is an object with its deal and actions, not "
                                      f"{_kind(hand)}")
            self.keys(hand, base, HAND_KEYS, ("deal", "actions"), "a hand")
            note = self.note(hand["note"], base + ".note") if "note" in hand else None
            scores = self.whole_numbers(hand["scores"], base + ".scores", "scores") \
                if "scores" in hand else None
            hands.append(Hand(deal=self.plain(hand["deal"], base + ".deal", 3),
                              actions=self.line(hand["actions"], base + ".actions", 0),
                              note=note, scores=scores))
        totals = self.whole_numbers(data["totals"], "$.totals", "totals") \
            if "totals" in data else None
        return Replay(game=game, options=options, seats=list(seats), seed=seed, setup=setup,
                      hands=hands, meta=meta, totals=totals)


def _kind(value: Any) -> str:
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


def _plain(value: Any) -> Any:
    """``value`` with any Action the parser made inside free JSON turned back into a dict."""
    action_class = Action
    if type(value) is action_class:
        return value.to_dict()
    if not isinstance(value, (dict, list)):
        return value
    stack = [value]
    while stack:
        node = stack.pop()
        items = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        for key, child in items:
            if type(child) is action_class:
                node[key] = child.to_dict()
            elif isinstance(child, (dict, list)):
                stack.append(child)
    return value


def load(path: str | os.PathLike[str], *, limits: Limits | None = None,
         lenient: bool = False) -> Replay:
    """Read, check and replay a file (``cardlab.load``); raise :class:`ReplayError` naming
    what is wrong.

    Only a regular file is read, and only if it is within ``limits.max_file_bytes`` (checked
    before reading: a FIFO, a device or a folder is refused at once). See :func:`loads`.
    """
    limits = limits or DEFAULT_LIMITS
    name = str(path)
    if not isinstance(path, (str, os.PathLike)):
        raise ReplayError(f"load takes the path of a file, not {type(path).__name__}",
                          file=name)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ReplayError("no such file", file=name) from None
    except (OSError, ValueError) as err:
        raise ReplayError(f"cannot read the file: {_os_reason(err)}", file=name) from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a device, " \
            "a pipe or a socket)"
        raise ReplayError(f"cannot read the file: it is {kind}", file=name)
    if info.st_size > limits.max_file_bytes:
        raise exceeded("max_file_bytes", limits.max_file_bytes,
                       f"the file has {info.st_size:,} bytes", file=name)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) |
                     getattr(os, "O_CLOEXEC", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since the stat above
                raise ReplayError("cannot read the file: it is not a regular file", file=name)
            chunks = []
            left = limits.max_file_bytes + 1
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 24))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
        finally:
            os.close(fd)
    except OSError as err:
        raise ReplayError(f"cannot read the file: {_os_reason(err)}", file=name) from None
    data = b"".join(chunks)
    del chunks
    return loads(data, name, limits=limits, lenient=lenient)


def _os_reason(err: Exception) -> str:
    if isinstance(err, OSError):
        from .files import reason

        return reason(err)
    return str(err)


def loads(text: str | bytes, file: str | None = None, *, limits: Limits | None = None,
          lenient: bool = False) -> Replay:
    """Parse, check and replay a replay given as JSON text (or UTF-8 bytes): ``cardlab.loads``.

    Refuses, with a :class:`ReplayError` naming ``file``, the JSON path and the reason: what
    is not standard JSON (NaN, a key given twice, a lone surrogate, a number Python cannot
    read), what breaks the format (docs/replay-format.md), what goes over ``limits``
    (:class:`~cardlab.errors.LimitError`), and any play the rules forbid. With ``lenient``,
    an old file's missing or loosely written parts are repaired and listed in
    :attr:`Replay.repairs`.

    >>> import cardlab
    >>> text = cardlab.example("norwegian-review").to_json()
    >>> loads(text).seats
    ['Tone', 'Remo', 'Kathrine', 'Brad']
    >>> old = text.replace(', "mode": "strict"', '')  # an option left out
    >>> loads(old, "old.json")
    Traceback (most recent call last):
    ...
    cardlab.errors.ReplayError: old.json:$.options: option mode is missing: a replay writes \
out every option with its value (here: "mode": "strict")
    >>> loads(old, lenient=True).repairs
    ['$.options.mode: missing, the default "strict"']
    """
    limits = limits or DEFAULT_LIMITS
    if isinstance(text, (bytearray, memoryview)):
        text = bytes(text)
    if not isinstance(text, (str, bytes)):
        raise ReplayError(f"loads reads JSON text (str or bytes), not {type(text).__name__}; "
                          "parsed data goes to cardlab.loader.from_dict", file=file)
    if len(text) > limits.max_file_bytes:
        unit = "bytes" if isinstance(text, bytes) else "characters"
        raise exceeded("max_file_bytes", limits.max_file_bytes,
                       f"the replay has {len(text):,} {unit}", file=file)

    def too_deep() -> Exception:
        return exceeded("max_nesting", limits.max_nesting,
                        "arrays and objects nest too deep", file=file)

    data = strictjson.parse(text, file, limits.max_nesting, pairs_hook=action_pairs,
                            on_nesting=too_deep)
    del text
    repairs: list[str] = []
    replay = _Reader(file, limits, lenient, repairs).replay(data)
    del data
    replay.repairs = repairs
    validate(replay, file, lenient=lenient)
    return replay


def from_dict(data: dict[str, Any], file: str | None = None, *, limits: Limits | None = None,
              lenient: bool = False) -> Replay:
    """A replay from ``data``, JSON already parsed (the inverse of :meth:`Replay.to_dict`),
    checked and replayed as :func:`loads` checks a file; ``data`` itself is left as it is.

    >>> import cardlab
    >>> review = cardlab.example("norwegian-review")
    >>> from_dict(review.to_dict()) == review
    True
    """
    repairs: list[str] = []
    reader = _Reader(file, limits or DEFAULT_LIMITS, lenient, repairs)
    replay = reader.replay(strictjson.copy(data))  # the reader fills in what it checks
    replay.repairs = repairs
    validate(replay, file, lenient=lenient)
    return replay


# -- the rules ------------------------------------------------------------------------------

def checked_rules(replay: Replay, file: str | None, lenient: bool) -> Rules:
    """The replay's rules, every option written out with a value of its own JSON type
    (lenient: missing options defaulted, strings coerced, each repair noted)."""
    try:
        info = get_game(replay.game)
    except CardlabError as err:
        raise ReplayError(str(err), file=file, path="$.game") from None
    options = replay.options
    known = {opt.name: opt for opt in info.options}
    for name in options:
        if name not in known:
            raise ReplayError(f"{info.name} has no option {name!r}; it has "
                              f"{', '.join(known)}", file=file, path="$.options")
    if not lenient:
        for name, opt in known.items():
            if name not in options:
                continue
            value = options[name]
            if not _of_kind(value, opt.kind):
                word = {bool: "true or false", int: "a whole number", str: "text"}[opt.kind]
                raise ReplayError(f"{info.name} option {name} is {word}, not {_kind(value)}",
                                  file=file, path=f"$.options.{name}")
    try:
        rules = info.rules(**{k: v for k, v in options.items() if v is not None})
    except CardlabError as err:
        raise ReplayError(str(err), file=file, path="$.options") from None
    for name in known:
        written = options.get(name, _MISSING)
        value = rules.options[name]
        if written is not _MISSING and written == value and type(written) is type(value):
            continue
        if not lenient:
            said = "is missing" if written is _MISSING else f"is written as {_kind(written)}"
            raise ReplayError(f"option {name} {said}: a replay writes out every option with "
                              f"its value (here: \"{name}\": {strictjson.dumps(value)})",
                              file=file,
                              path=f"$.options.{name}" if written is not _MISSING
                              else "$.options")
        replay.repairs.append(
            f"$.options.{name}: " + ("missing, the default " if written is _MISSING
                                     else f"{strictjson.dumps(written)} read as ")
            + strictjson.dumps(value))
    replay.options = dict(rules.options)
    return rules


_MISSING = object()


def _of_kind(value: Any, kind: type) -> bool:
    if kind is bool:
        return type(value) is bool
    if kind is int:
        return type(value) is int
    return isinstance(value, str)


def validate(replay: Replay, file: str | None = None, *, lenient: bool = False) -> State:
    """Replay every line through the engine; return the state at the end of the main line.

    Checks the options, the seats, the setup record, every deal, every action of every line
    (variations included) with its seat, and the stored scores and totals (which a finished
    hand and a finished game must carry).
    """
    rules = checked_rules(replay, file, lenient)
    title = rules.title
    if len(replay.seats) != rules.players:
        raise ReplayError(f"{rules.players} players need {rules.players} seats, not "
                          f"{len(replay.seats)}", file=file, path="$.seats")
    problem = seat_name_problem(replay.seats)
    if problem is not None:
        raise ReplayError(problem[1], file=file, path=f"$.seats[{problem[0]}]")
    state = rules.new_state(replay.seats)
    if state.chance_kind() == "setup":
        if replay.setup is None:
            raise ReplayError(f"{title} needs its setup record (see docs/replay-format.md)",
                              file=file, path="$.setup")
        try:
            state.apply_chance(replay.setup)
        except CardlabError as err:
            raise ReplayError(f"setup: {reason_of(err)}", file=file, path="$.setup") from None
    elif replay.setup is not None:
        if not lenient:
            raise ReplayError(f"{title} has no setup record", file=file, path="$.setup")
        replay.repairs.append("$.setup: dropped (the game has no setup record)")
        replay.setup = None
    for h, hand in enumerate(replay.hands):
        base = f"$.hands[{h}]"
        if state.chance_kind() != "deal":
            raise ReplayError("a hand is dealt, but no deal is due: the game is over or the "
                              "previous hand unfinished", file=file, path=base, hand=h + 1)
        before = state.totals()
        try:
            state.apply_chance(hand.deal)
        except CardlabError as err:
            raise ReplayError(reason_of(err), file=file, path=base + ".deal",
                              hand=h + 1) from None
        branches = any(a.variations for a in hand.actions)
        start = state.clone() if branches else None
        play_line(replay, state, h, hand.actions, file, base + ".actions")
        if start is not None:
            _validate_variations(replay, start, h, hand.actions, file, base + ".actions")
        ended = state.chance_kind() == "deal" or state.is_game_over()
        scores = [a - b for a, b in zip(state.totals(), before, strict=True)]
        if hand.scores is not None and (not ended or hand.scores != scores):
            raise ReplayError(
                f"the stored scores {hand.scores} do not match the play, which gives "
                f"{scores if ended else 'no scores yet (the hand is unfinished)'}",
                file=file, path=base + ".scores", hand=h + 1)
        if hand.scores is None and ended:
            if not lenient:
                raise ReplayError(f"the hand is over, so it carries its scores: {scores}",
                                  file=file, path=base, hand=h + 1)
            replay.repairs.append(f"{base}.scores: missing, computed from the play: {scores}")
            hand.scores = scores
    totals = state.totals()
    if state.is_game_over():
        if replay.totals is None:
            if not lenient:
                raise ReplayError(f"the game is over, so the replay carries its totals: "
                                  f"{totals}", file=file, path="$")
            replay.repairs.append(f"$.totals: missing, computed from the play: {totals}")
            replay.totals = totals
        elif replay.totals != totals:
            raise ReplayError(f"the stored totals {replay.totals} do not match the play, which "
                              f"gives {totals}", file=file, path="$.totals")
    elif replay.totals is not None:
        if not lenient:
            raise ReplayError("the game is not over, so there are no totals yet",
                              file=file, path="$.totals")
        replay.repairs.append("$.totals: dropped (the game is not over)")
        replay.totals = None
    return state


def reason_of(err: CardlabError) -> str:
    """The reason alone, without the hand or seat the engine named (the caller says where)."""
    return err.reason if isinstance(err, IllegalActionError) else str(err)


def play_line(replay: Replay, state: State, hand_index: int, actions: list[Action],
              file: str | None, base: str, first_step: int = 1, start: int = 0,
              stop: int | None = None) -> None:
    """Apply ``actions[start:stop]`` to ``state``, checking each one's seat: the seat that
    makes the action (``State.actor``: a bid change in Ted's Game is the last bidder's).
    ``actions[0]`` is step ``first_step``, at JSON path ``base[0]``; ``hand_index`` is the
    0-based index into ``replay.hands`` (messages count hands from 1).

    An action spelt otherwise than the engine writes it (``PLAY CIRCLE5``, bids in another
    order) is stored in the engine's spelling: once loaded, an action has one text, the one
    its eval record's keys use."""
    seats = replay.seats
    to_act, parse, actor, apply = state.to_act, state.parse_action, state.actor, state.apply
    text_of = state.action_text
    spelt: dict[str, str] = {}  # the texts respelt, shared as the parser shares equal texts
    out_of_turn = type(state).actor is not State.actor  # only then may the actor differ
    for k in range(start, len(actions) if stop is None else stop):
        action = actions[k]
        seat = to_act()
        if seat < 0:
            raise _located(f"{brief(action.act)} comes after the hand has ended", hand_index,
                           first_step, k, None, file, f"{base}[{k}]")
        try:
            move = parse(action.act)
        except CardlabError as err:
            raise _located(reason_of(err), hand_index, first_step, k, seats[seat], file,
                           f"{base}[{k}].act") from None
        who = seat
        if out_of_turn:
            who = actor(move)
            if who < 0:
                who = seat
        if action.seat != seats[who]:
            reason = (f"it is {seats[seat]}'s turn, not {action.seat}'s" if who == seat else
                      f"{action.act!r} is {seats[who]}'s to make (the rules let {seats[who]} "
                      f"act out of turn here), not {action.seat}'s")
            raise _located(reason, hand_index, first_step, k, None, file, f"{base}[{k}].seat")
        record = action.eval
        if record is not None:  # the position before the action, for its eval record
            legal = state.legal_texts() if who == seat else None
        try:
            apply(move)
        except CardlabError as err:
            raise _located(reason_of(err), hand_index, first_step, k, action.seat, file,
                           f"{base}[{k}].act") from None
        canonical = text_of(move)
        if canonical != action.act:
            action.act = spelt.setdefault(canonical, canonical)
        if record is not None:
            problem = eval_problem(record, seats, action.seat, canonical, legal)
            if problem is not None:
                raise _located(problem[1], hand_index, first_step, k, action.seat, file,
                               f"{base}[{k}].eval{problem[0]}")


def replay_line(replay: Replay, state: State, hand: int, actions: Sequence[Action],
                file: str | None = None, base: str = "", first_step: int = 1
                ) -> Iterator[State]:
    """Apply ``actions`` to ``state`` (a position of ``replay``), yielding the state after
    each one; each action is checked (its seat too) as :func:`load` checks it. ``hand``
    counts from 1; ``base`` is the JSON path of the action list and ``first_step`` the step
    number of its first action, for error messages.

    >>> import cardlab
    >>> review = cardlab.example("norwegian-review")
    >>> state = review.new_state()
    >>> state.apply_chance(review.hands[0].deal)
    >>> [s.to_act() for s in replay_line(review, state, 1, review.hands[0].actions[:2])]
    [0, 1]
    """
    index = index_of_hand(replay, hand)  # the hand is checked now, not at the first step
    return _replay_line(replay, state, index, list(actions), file, base, first_step)


def _replay_line(replay: Replay, state: State, index: int, line: list[Action],
                 file: str | None, base: str, first_step: int) -> Iterator[State]:
    for k in range(len(line)):
        play_line(replay, state, index, line, file, base, first_step, start=k, stop=k + 1)
        yield state


def eval_problem(record: Any, seats: list[str], actor: str, played: str,
                 legal: list[str] | None) -> tuple[str, str] | None:
    """What is wrong with an action's eval record, as (JSON path below ``.eval``, reason), or
    None. ``actor`` made the action, ``played`` is its text as the engine writes it, and
    ``legal`` the legal action texts of the position (None: the action was made out of
    turn, so it is no decision of the seat to act). Looks at a fixed depth, never recurses.

    >>> record = {"seat": "Ann", "rollouts": 0, "seed": 1, "bot": "random",
    ...           "values": {"bid 0": [1.5, 0.2], "bid 1": [-2.0, 0.3]}}
    >>> eval_problem(record, ["Ann", "Bo"], "Ann", "bid 1", ["bid 0", "bid 1"])
    ('.rollouts', "an eval's rollouts are a whole number of at least 1, not the number 0")
    >>> record["rollouts"], record["values"]["bid 1"] = 200, [-2e300, 0.3]
    >>> eval_problem(record, ["Ann", "Bo"], "Ann", "bid 1", ["bid 0", "bid 1"])[1]
    "a value's mean is a finite number from -1,000,000,000 to 1,000,000,000 (an expected \
score), not -2e+300"
    """
    if type(record) is not dict:
        return "", f"an eval record is an object with the keys {', '.join(EVAL_REQUIRED)}, " \
                   f"not {_kind(record)}"
    if DUPLICATE in record:
        return "", f"the key {record[DUPLICATE]!r} is given twice in this object"
    for key in record:
        if key not in EVAL_KEYS:
            return "", f"an eval record has no key {brief(key)}; its keys are " \
                       f"{', '.join(EVAL_KEYS)}"
    for key in EVAL_REQUIRED:
        if key not in record:
            return "", f"an eval record needs the key {key!r}"
    seat = record["seat"]
    if not isinstance(seat, str) or seat not in seats:
        return ".seat", f"an eval's seat is a seat name ({', '.join(seats)}), not {_kind(seat)}"
    if legal is None:
        return "", "an eval is of a decision of the seat to act, and this action is made out " \
                   "of turn"
    if seat != actor:
        return ".seat", f"the eval is {seat}'s, but this action is {actor}'s: an eval is of " \
                        "the decision of the seat that acts"
    rollouts = record["rollouts"]
    if type(rollouts) is not int or rollouts < 1:
        return ".rollouts", f"an eval's rollouts are a whole number of at least 1, not " \
                            f"{_kind(rollouts)}"
    if rollouts > EVAL_ROLLOUTS_MAX:
        return ".rollouts", f"an eval's rollouts are at most {EVAL_ROLLOUTS_MAX:,}, not " \
                            f"{brief(rollouts)}"
    seed = record["seed"]
    if type(seed) is not int or abs(seed) > EVAL_SEED_MAX:
        return ".seed", f"an eval's seed is a whole number from -{EVAL_SEED_MAX:,} to " \
                        f"{EVAL_SEED_MAX:,} (2**53 - 1), not {_kind(seed)}"
    bot = record["bot"]
    if not isinstance(bot, str) or bot not in EVAL_BOTS:
        return ".bot", f"an eval's bot is one of {', '.join(EVAL_BOTS)}, not {_kind(bot)}"
    if "exact" in record and type(record["exact"]) is not bool:
        return ".exact", f"an eval's exact is true or false, not {_kind(record['exact'])}"
    values = record["values"]
    if type(values) is not dict:
        return ".values", "an eval's values are an object of [mean, stderr] by action text, " \
                          f"not {_kind(values)}"
    if DUPLICATE in values:
        return ".values", f"the key {values[DUPLICATE]!r} is given twice in this object"
    known = set(legal)
    for text, pair in values.items():  # a hostile map of many keys stops at its first bad one
        where = ".values" + _key_step(text)
        if text not in known:
            return where, f"{brief(text)} is not a legal action here; the eval's values are " \
                          f"the legal actions: {brief(legal)}"
        if type(pair) is not list or len(pair) != 2 or \
                any(type(x) not in (int, float) for x in pair):
            return where, f"a value is [mean, stderr], two numbers, not {_kind(pair)}"
        mean, stderr = pair
        # compared as written: an int too large for a float (10**400) is out of range too
        if not -EVAL_VALUE_MAX <= mean <= EVAL_VALUE_MAX:  # false for NaN
            return where, f"a value's mean is a finite number from -{EVAL_VALUE_MAX:,.0f} to " \
                          f"{EVAL_VALUE_MAX:,.0f} (an expected score), not {brief(mean)}"
        if stderr < 0:
            return where, f"a standard error is at least 0, not {stderr!r}"
        if not stderr <= EVAL_STDERR_MAX:
            return where, f"a standard error is a finite number of at most " \
                          f"{EVAL_STDERR_MAX:,.0f}, not {brief(stderr)}"
    if played not in values:
        return ".values", f"the eval has no value for the action played, {played!r}"
    for text in legal:
        if text not in values:
            return ".values", f"the eval has no value for the legal action {text!r}"
    return None


def _key_step(key: str) -> str:
    return strictjson.children({key: None}).__next__()[0]  # the parser's own path spelling


def _located(reason: str, hand_index: int, first_step: int, k: int, seat: str | None,
             file: str | None, path: str) -> ReplayError:
    return ReplayError(reason, file=file, path=path, hand=hand_index + 1, step=first_step + k,
                       seat=seat)


def _validate_variations(replay: Replay, start: State, hand_index: int, actions: list[Action],
                         file: str | None, base: str) -> None:
    """Every variation of a hand, depth first, each replayed from the position where it
    branches: the line it branches off is stepped up to there (a clone per line)."""
    work: list[tuple[State, list[Action], str, int]] = [(start, actions, base, 1)]
    while work:
        state, line, where, first_step = work.pop()
        for i, action in enumerate(line):
            for v, variation in enumerate(action.variations):
                vbase = f"{where}[{i}].variations[{v}]"
                branch = state.clone()
                origin = branch.clone()
                play_line(replay, branch, hand_index, variation, file, vbase, first_step + i)
                if any(a.variations for a in variation):
                    work.append((origin, variation, vbase, first_step + i))
            state.act(action.act)  # this line was checked already
