"""Reading a replay file: standard JSON, the format's structure, the limits, then the rules.

:func:`load` reads a file (``cardlab.load``), :func:`loads` JSON text (``cardlab.loads``) and
:func:`from_dict` JSON already parsed. Each turns it into a :class:`~cardlab.replay.Replay` in
one pass over the data, checking the structure the format describes (docs/replay-format.md;
the same rules as ``replay.schema.json``) and the named limits (:mod:`cardlab.limits`) as it
goes, each refusal naming the file and the JSON path. :func:`cardlab.validation.validate` then
replays every line through the engine. Nothing here recurses, so a legal replay of any depth
loads. This module imports :mod:`cardlab.replay`, never the other way round.

Action objects, which are nearly all of a long replay, are built straight from the parser
(``{"seat": ..., "act": ...}`` with text values becomes an :class:`~cardlab.replay.Action`
as it is read), so loading a million actions needs no dict per action.
"""

from __future__ import annotations

import os
import re
import stat
from importlib import resources
from typing import Any

from . import batches, strictjson
from .errors import ReplayError, brief
from .game import list_games
from .limits import DEFAULT_LIMITS, Limits, exceeded
from .replay import EVAL_VERSION, FORMAT, VERSION, VERSIONS, Action, Hand, Replay, kind_of
from .seats import seat_name_problem
from .strictjson import DUPLICATE, PairsHook, checked_dict
from .validation import validate

TOP_KEYS = ("format", "version", "game", "options", "seats", "seed", "meta", "setup", "hands",
            "totals")
REQUIRED = ("format", "version", "game", "options", "seats", "seed", "hands")
HAND_KEYS = ("deal", "note", "actions", "scores")
ACTION_KEYS = ("seat", "act", "note", "variations", "eval")
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
                                                      f"{kind_of(text)}")
                if len(text) > limit:
                    raise self.over("max_note_chars", limit,
                                    f"the note has {len(text):,} characters", f"{path}.{lang}")
            return value
        raise self.fail(path, "a note is a string, or an object of texts by language "
                              '({"en": "...", "no": "..."})')

    def whole_numbers(self, value: Any, path: str, what: str) -> list[int]:
        if not isinstance(value, list):
            raise self.fail(path, f"{what} are a list of whole numbers, one per seat, not "
                                  f"{kind_of(value)}")
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
                                  f'{{"seat": ..., "act": ...}}, not {kind_of(value)}')
        self.keys(value, path, ACTION_KEYS, ("seat", "act"), "an action")
        seat, act = value["seat"], value["act"]
        if not isinstance(seat, str):
            raise self.fail(path + ".seat", f"an action's seat is a seat name, not "
                                            f"{kind_of(seat)}")
        if not isinstance(act, str) or not act:
            raise self.fail(path + ".act", "an action's act is the action as text, such as "
                                           f"'play blue14', not {kind_of(act)}")
        variations = value.get("variations", [])
        if not isinstance(variations, list):
            raise self.fail(path + ".variations", "an action's variations are a list of lines"
                                                  f", not {kind_of(variations)}")
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
                raise self.fail(where, f"a line is a list of actions, not {kind_of(actions)}")
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
            raise self.fail("$", f"a replay is a JSON object, not {kind_of(data)}")
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
            raise self.fail("$.game", f"the game is a name such as "
                                      f"{sorted(list_games())[0]!r}, not {kind_of(game)}")
        options = data["options"]
        if not isinstance(options, dict):
            raise self.fail("$.options", f"the options are an object, not {kind_of(options)}")
        options = self.plain(options, "$.options", 1)
        seats = data["seats"]
        if not isinstance(seats, list) or len(seats) < 2:
            raise self.fail("$.seats", "the seats are a list of names, one per player")
        for i, name in enumerate(seats):
            if not isinstance(name, str):
                raise self.fail(f"$.seats[{i}]", f"seat {i + 1}'s name must be text, not "
                                                 f"{kind_of(name)}")
        problem = seat_name_problem(seats)
        if problem is not None:
            raise self.fail(f"$.seats[{problem[0]}]", problem[1])
        seed = data["seed"]
        if seed is not None and type(seed) not in (int, str):
            raise self.fail("$.seed", f"the seed is a whole number, a text or null, not "
                                      f"{kind_of(seed)}")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise self.fail("$.meta", f"meta is an object, not {kind_of(meta)}")
        meta = self.plain(meta, "$.meta", 1)
        for key in META_TEXT:
            if key in meta and not isinstance(meta[key], str):
                raise self.fail(f"$.meta.{key}", f"meta.{key} is text, not {kind_of(meta[key])}")
        setup = self.plain(data["setup"], "$.setup", 1) if "setup" in data else None
        hands_data = data["hands"]
        if not isinstance(hands_data, list):
            raise self.fail("$.hands", f"the hands are a list, not {kind_of(hands_data)}")
        if len(hands_data) > self.limits.max_hands:
            raise self.over("max_hands", self.limits.max_hands,
                            f"the replay has {len(hands_data):,} hands", "$.hands")
        hands = []
        for h, hand in enumerate(hands_data):
            base = f"$.hands[{h}]"
            if not isinstance(hand, dict):
                raise self.fail(base, f"a hand is an object with its deal and actions, not "
                                      f"{kind_of(hand)}")
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


EXAMPLE = "example:"
"""The prefix that names a replay shipped with cardlab instead of a file:
``example:norwegian-review`` is accepted wherever a replay's path is."""
_EXAMPLES = "examples"  # the folder of the shipped replays, inside the package


def example_names() -> list[str]:
    """The names of the example replays shipped with cardlab (``cardlab examples``).

    >>> example_names()
    ['norwegian-review', 'teds-game-example', 'whot-example']
    """
    folder = resources.files("cardlab").joinpath(_EXAMPLES)
    return sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".json"))


def stem(source: str | os.PathLike[str]) -> str:
    """The name a file made from the replay at ``source`` takes (``cardlab html`` writes
    ``<stem>.html``): the file's name without its folder and extension, or the example's.

    >>> stem("replays/game.json"), stem("example:whot-example")
    ('game', 'whot-example')
    """
    text = os.fspath(source)
    if text.startswith(EXAMPLE):
        return text[len(EXAMPLE):]
    return os.path.splitext(os.path.basename(text))[0]


def load(path: str | os.PathLike[str], *, limits: Limits | None = None,
         lenient: bool = False) -> Replay:
    """Read, check and replay a file (``cardlab.load``); raise :class:`ReplayError` naming
    what is wrong.

    Only a regular file is read, and only if it is within ``limits.max_file_bytes`` (checked
    before reading: a FIFO, a device or a folder is refused at once). See :func:`loads`.
    A replay inside a batch (a simulation's zip of replays, :mod:`cardlab.batches`) is named
    by the batch's path, a slash and its name: ``replays/games-001-100.zip/game-012.json``.
    ``example:NAME`` reads the example called NAME shipped with cardlab (:func:`example_names`),
    from any folder.

    >>> load("example:norwegian-review").seats
    ['Tone', 'Remo', 'Kathrine', 'Brad']
    >>> load("example:norwegian")
    Traceback (most recent call last):
      ...
    cardlab.errors.ReplayError: example:norwegian: no example replay called 'norwegian'; the \
examples are norwegian-review, teds-game-example, whot-example
    """
    limits = limits or DEFAULT_LIMITS
    name = str(path)
    if not isinstance(path, (str, os.PathLike)):
        raise ReplayError(f"load takes the path of a file, not {type(path).__name__}",
                          file=name)
    if isinstance(path, str) and path.startswith(EXAMPLE):
        return _load_example(path, limits, lenient)
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError) as err:
        inside = batches.split(path)  # a replay inside a batch: batch.zip/game-012.json
        if inside is not None:
            return loads(batches.read(*inside, limits, name), name, limits=limits,
                         lenient=lenient)
        why = "no such file" if isinstance(err, FileNotFoundError) else \
            f"cannot read the file: {_os_reason(err)}"
        raise ReplayError(why, file=name) from None
    except (OSError, ValueError) as err:
        raise ReplayError(f"cannot read the file: {_os_reason(err)}", file=name) from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a device, " \
            "a pipe or a socket)"
        raise ReplayError(f"cannot read the file: it is {kind}", file=name)
    if batches.is_batch(path):
        raise batches.whole_batch(path)
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


def _load_example(source: str, limits: Limits, lenient: bool) -> Replay:
    name = source[len(EXAMPLE):]
    names = example_names()
    if name not in names:
        raise ReplayError(f"no example replay called {name!r}; the examples are "
                          f"{', '.join(names)}", file=source)
    entry = resources.files("cardlab").joinpath(_EXAMPLES).joinpath(f"{name}.json")
    with resources.as_file(entry) as path:  # a real file, even from a zipped install
        return load(path, limits=limits, lenient=lenient)


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
