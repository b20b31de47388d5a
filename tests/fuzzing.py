"""Mutated replay files, for the fuzz test (tests/test_fuzz.py) and scripts/fuzz_loads.py.

The corpus is the shipped replays plus one seeded bot game per registered game and option set
(some with variations), analysed games (eval records) and chains of variations up to the depth
limit. A mutation changes the structure (types, keys, numbers, cards, seats, order, nesting,
duplicate keys, lone surrogates), the numbers of eval records (huge, tiny, negative zero, whole
numbers beyond a float, NaN and infinity spellings, text), the depth of a chain of variations,
or the bytes of a file. An accepted file must save, load back equal, show, page and make a
movie, for everyone's view and one seat's (:func:`fuzzchecks.check_accepted`). Every choice goes
through a *chooser*, so the same mutations run under hypothesis (which draws, shrinks and
reports) and in a plain random loop (which is fast enough for a million inputs).

A mutated document may hold :class:`Raw` and :class:`DupKeys` nodes: text that no Python value
serialises to (a number of 5,000 digits, JSON nested 100,000 deep, a key given twice, an escaped
lone surrogate). :func:`emit` writes them into the JSON text.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import reprlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from fuzzchecks import Input

import cardlab
from cardlab import strictjson
from cardlab.bots import make_bot
from cardlab.explore import line_state
from cardlab.limits import DEFAULT_LIMITS, NESTING_CEILING
from cardlab.replay import Action, Replay

ROOT = Path(__file__).resolve().parents[1]
MARK = "\x00fuzz-node-"  # json.dumps writes this as "\u0000fuzz-node-<n>"
INJECTION = '<img src=x onerror="alert(1)">'


@dataclasses.dataclass(frozen=True)
class Raw:
    """JSON text put into the file as it is."""

    text: str


@dataclasses.dataclass(frozen=True)
class DupKeys:
    """An object whose pairs may repeat a key (a dict cannot)."""

    pairs: tuple[tuple[str, Any], ...]


def emit(doc: Any) -> str:
    """The JSON text of ``doc``; NaN and infinities come out as Python's json writes them."""
    nodes: list[Any] = []

    def placeholder(node: Any) -> str:
        if isinstance(node, (Raw, DupKeys)):
            nodes.append(node)
            return f"{MARK}{len(nodes) - 1}"
        raise TypeError(f"cannot write {type(node).__name__}")

    try:
        text = json.dumps(doc, ensure_ascii=False, default=placeholder)
    except RecursionError:  # a chain of variations at the depth limit: deeper than json goes
        nodes.clear()
        text = strictjson.dumps(_held(doc, placeholder), ensure_ascii=False)
    if not nodes:
        return text
    # replace the placeholders, innermost last: a DupKeys node may hold more of them
    parts = text.split(json.dumps(MARK)[:-1])
    out = [parts[0]]
    for part in parts[1:]:
        number, _, rest = part.partition('"')
        node = nodes[int(number)]
        if isinstance(node, Raw):
            out.append(node.text)
        else:
            out.append("{" + ", ".join(f"{json.dumps(k)}: {emit(v)}" for k, v in node.pairs)
                       + "}")
        out.append(rest)
    return "".join(out)


def _held(doc: Any, placeholder: Callable[[Any], str]) -> Any:
    """A copy of ``doc`` with each Raw and DupKeys node, NaN and infinity as its placeholder
    (what ``json.dumps(default=placeholder)`` writes), at any depth."""
    def leaf(value: Any) -> Any:
        if isinstance(value, float) and value != value:
            return placeholder(Raw("NaN"))
        if isinstance(value, float) and value in (float("inf"), float("-inf")):
            return placeholder(Raw("Infinity" if value > 0 else "-Infinity"))
        if isinstance(value, (Raw, DupKeys)):
            return placeholder(value)
        return value

    if not isinstance(doc, (dict, list)):
        return leaf(doc)
    root: Any = {} if isinstance(doc, dict) else []
    stack = [(doc, root)]
    while stack:
        source, target = stack.pop()
        for key, child in (source.items() if isinstance(source, dict) else enumerate(source)):
            if isinstance(child, (dict, list)):
                twin: Any = {} if isinstance(child, dict) else []
                stack.append((child, twin))
            else:
                twin = leaf(child)
            if isinstance(target, dict):
                target[key] = twin
            else:
                target.append(twin)
    return root


# -- choosers ------------------------------------------------------------------------------

class Chooser(Protocol):
    def below(self, n: int) -> int:
        """An int in ``range(n)`` (``n >= 1``)."""

    def integer(self) -> int:
        """Any int, small ones more often (never more than 4,000 digits)."""

    def floating(self) -> float:
        """Any float, NaN and infinities included."""

    def text(self) -> str:
        """Any string, lone surrogates and control characters included."""


def pick(ch: Chooser, items: Sequence[Any]) -> Any:
    return items[ch.below(len(items))]


class RandomChooser:
    """Choices from a seeded :class:`random.Random` (for the million-input script)."""

    ALPHABET = "ab<>&\"'\\/ \n\t\x00\x7f\u00e9\u2014\U0001f600\ud800\udfff{}[]:,0-9e"

    def __init__(self, seed: int | str) -> None:
        self.rng = random.Random(seed)

    def below(self, n: int) -> int:
        return self.rng.randrange(n)

    def integer(self) -> int:
        r = self.rng
        return pick(self, [0, 1, -1, 2, 5, 10, 52, 255, 2**31, -2**31, 2**63, -2**63 - 1,
                           r.randrange(-100, 100), r.getrandbits(r.randrange(1, 200)),
                           -r.getrandbits(r.randrange(1, 64))])

    def floating(self) -> float:
        return pick(self, [0.5, -0.0, 5.0, 1.0, 1e308, -1e-308, float("nan"), float("inf"),
                           float("-inf"), self.rng.uniform(-1e6, 1e6)])

    def text(self) -> str:
        size = pick(self, [0, 1, 2, 5, 20, 300])
        return "".join(self.rng.choice(self.ALPHABET) for _ in range(size))


# -- the corpus ------------------------------------------------------------------------------

@dataclasses.dataclass
class Base:
    """A valid replay to mutate: its text, its data and the paths of all its nodes."""

    name: str
    game: str
    text: str
    data: dict[str, Any]
    replay: Replay
    paths: list[tuple[Any, ...]]


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    stack = [(node, path)]
    while stack:
        value, where = stack.pop()
        children = value.items() if isinstance(value, dict) else enumerate(value) \
            if isinstance(value, list) else ()
        for key, child in children:
            out.append((*where, key))
            stack.append((child, (*where, key)))
    return out


def _bots(game: str, seed: int, players: int) -> list[Callable[..., int]]:
    kind = "heuristic" if seed % 2 else "random"
    return [make_bot(kind, game, seed=f"{seed}/{s}") for s in range(players)]


def _add_variations(replay: Replay, seed: int) -> None:
    """Alternatives at a few steps of hand 1 (one of them with a variation of its own),
    finished by a random bot: variations are part of what a file may hold."""
    rng = random.Random(seed)
    bot = make_bot("random", replay.game, seed=seed)
    path: tuple[tuple[int, int], ...] = ()
    for _ in range(3):
        line = replay.line(1, path)
        if len(line) < 3:
            return
        index = rng.randrange(len(line) // 2, len(line))
        state = line_state(replay, 1, path, index)
        others = [a for a in state.legal_actions() if state.action_text(a) != line[index].act]
        if not others:
            continue
        first = others[rng.randrange(len(others))]
        actions = [Action(replay.seats[state.to_act()], state.action_text(first),
                          note={"en": "what if?", "no": "hva om?"})]
        state.apply(first)
        while state.to_act() >= 0 and state.hand_number() == 1 and state.chance_kind() is None:
            seat = state.to_act()
            move = bot(state, seat)
            actions.append(Action(replay.seats[seat], state.action_text(move)))
            state.apply(move)
        path = replay.add_variation(1, path, index, actions)


def _chain(replay: Replay, depth: int, seed: int) -> None:
    """A chain of variations, each branching off the one before, ``depth`` deep: the
    nesting a legal file may have."""
    rng = random.Random(seed)
    path: tuple[tuple[int, int], ...] = ()
    index = 2
    for _ in range(depth):
        line = replay.line(1, path)
        if index >= len(line):
            return
        state = line_state(replay, 1, path, index)
        others = [a for a in state.legal_actions() if state.action_text(a) != line[index].act]
        if not others:
            index += 1
            continue
        move = others[rng.randrange(len(others))]
        actions = [Action(replay.seats[state.to_act()], state.action_text(move))]
        state.apply(move)
        for _ in range(3):  # a few actions on, so the next branch has room
            if state.to_act() < 0:
                break
            legal = state.legal_actions()
            follow = legal[rng.randrange(len(legal))]
            actions.append(Action(replay.seats[state.to_act()], state.action_text(follow)))
            state.apply(follow)
        path = replay.add_variation(1, path, index, actions)
        index += 1


def hat_chain(depth: int) -> Replay:
    """A hand of Bob's Hat whose first action has a variation, which has one, ... ``depth``
    deep: the dealer's hat, +10 and -10 by turns."""
    table = cardlab.new_game("bobs-hat", players=3, seed=7, hands=1)
    table.play(_bots("bobs-hat", 7, 3))
    replay = table.replay
    node = replay.hands[0].actions[0]
    for level in range(depth):
        other = "hat -10" if node.act == "hat +10" else "hat +10"
        twin = Action(node.seat, other, note={"en": f"level {level + 1}"} if level % 7 == 0
                      else None)
        node.variations.append([twin])
        node = twin
    return replay


def _trim(replay: Replay, hands: int) -> None:
    """Keep the first hands of a long game: an unfinished game is a valid file too."""
    if len(replay.hands) > hands:
        del replay.hands[hands:]
        replay.totals = None


def _base(name: str, replay: Replay) -> Base:
    text = replay.to_json()
    data = strictjson.parse(text, max_nesting=NESTING_CEILING)  # json.loads recurses
    return Base(name, replay.game, text, data, cardlab.loads(text), _paths(data))


@functools.lru_cache(maxsize=1)
def corpus() -> tuple[Base, ...]:
    """The shipped replays, then one seeded game per game and option set (built once)."""
    out = [_base(p.name, cardlab.load(p)) for p in sorted((ROOT / "replays").glob("*.json"))]
    seed = 0
    for game in sorted(cardlab.list_games()):
        for options in cardlab.get_game(game).rules_class.conformance_option_sets():
            seed += 1
            table = cardlab.new_game(game, seed=seed, **options)
            table.play(_bots(game, seed, table.replay.rules.players))
            replay = table.replay
            _trim(replay, 3)
            if seed % 3 == 0:
                _add_variations(replay, seed)
            if seed % 4 == 0:
                replay.meta = {"title": f"seeded {game} {seed}", "tags": ["fuzz", seed]}
                replay.hands[0].note = {"en": "the deal", "no": "given"}
            out.append(_base(f"{game} seed {seed} {options}", replay))
    table = cardlab.new_game("whot", players=3, seed=99, rubber="single")
    table.play(_bots("whot", 99, 3))
    _chain(table.replay, 40, 99)
    out.append(_base("whot with a chain of 40 variations", table.replay))
    # eval records (format version 2): every decision of a short game, analysed for real
    from cardlab.analyse import analyse

    table = cardlab.new_game("teds-game", players=3, seed=98, start_size=2)
    table.play(_bots("teds-game", 98, 3))
    out.append(_base("teds-game analysed", analyse(table.replay, rollouts=4, progress=False)))
    table = cardlab.new_game("bobs-hat", players=3, seed=97, hands=1)
    table.play(_bots("bobs-hat", 97, 3))
    out.append(_base("bobs-hat analysed", analyse(table.replay, rollouts=2, progress=False)))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def chain_base() -> Base:
    """A chain of variations exactly ``max_variation_depth`` deep, for the depth mutations
    alone (each of its views walks a thousand lines: the other mutations use the corpus)."""
    depth = DEFAULT_LIMITS.max_variation_depth
    return _base(f"bobs-hat with a chain of {depth} variations (the limit)", hat_chain(depth))


@functools.cache
def branched_bases() -> tuple[int, ...]:
    """The corpus's bases with variations."""
    return tuple(i for i, base in enumerate(corpus()) if deepest_variation(base.data))


@functools.cache
def analysed_bases() -> tuple[int, ...]:
    """The corpus's bases with eval records."""
    return tuple(i for i, base in enumerate(corpus()) if eval_paths(i))


@functools.cache
def eval_paths(index: int) -> tuple[tuple[Any, ...], ...]:
    """The paths of a base's eval records."""
    return tuple(p for p in corpus()[index].paths if p and p[-1] == "eval")


@functools.lru_cache(maxsize=8)
def game_words(game: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(card codes, action texts) seen in the corpus for a game: plausible, wrong values."""
    cards: set[str] = set()
    acts: set[str] = set()
    for base in corpus():
        if base.game != game:
            continue
        for hand in base.data["hands"]:
            stack = [hand["deal"]]
            while stack:
                value = stack.pop()
                if isinstance(value, str):
                    cards.add(value)
                elif isinstance(value, list):
                    stack.extend(value)
                elif isinstance(value, dict):
                    stack.extend(value.values())
            acts.update(a["act"] for a in hand["actions"])
    return tuple(sorted(cards)), tuple(sorted(acts))


# -- structural mutations ---------------------------------------------------------------------

KEYS = ("format", "version", "game", "options", "seats", "seed", "meta", "setup", "hands",
        "totals", "deal", "actions", "scores", "note", "seat", "act", "variations", "title",
        "players", "hands", "trump", "turned", "stock", "draws", "cuts", "first_dealer", "x",
        "eval", "rollouts", "bot", "values", "exact",
        "", "__proto__")

SPECIAL_RAW = (
    "9" * 4301, "-" + "1" * 5000, "1e400", "-1e400", "-0", "1E2", "0.0000", "5.0", "1.5e1",
    '"\\ud800"', '"x\\udfffy"', '"\\ud83d"', '"\\u0000"', "NaN", "Infinity", "-Infinity",
    '"bid ' + "9" * 5000 + '"', '"change bid ' + "1" * 4400 + '"',
)

DEPTHS = (2, 30, 200, 999, 1000, 1001, 3000, 100_000)


def deep(ch: Chooser) -> Raw:
    depth = pick(ch, DEPTHS)
    inner = pick(ch, ["1", "[]", "{}", '"x"', "null"])
    if ch.below(2):
        return Raw("[" * depth + inner + "]" * depth)
    return Raw('{"a": ' * depth + inner + "}" * depth)


def hostile(ch: Chooser, base: Base) -> Any:
    """A value to put somewhere it may not belong."""
    cards, acts = game_words(base.game)
    kind = ch.below(16)
    if kind == 0:
        return ch.integer()
    if kind == 1:
        return ch.floating()
    if kind == 2:
        return ch.text()
    if kind == 3:
        return Raw(pick(ch, SPECIAL_RAW))
    if kind == 4:
        return deep(ch)
    if kind == 5:
        return pick(ch, [None, True, False, [], {}, [None], {"": None}, "", " ", "null", "1"])
    if kind == 6:
        return pick(ch, cards) if cards else ch.text()
    if kind == 7:
        return pick(ch, acts) if acts else ch.text()
    if kind == 8:
        return pick(ch, base.data["seats"])
    if kind == 9:
        return pick(ch, [f"play {pick(ch, cards) if cards else 'x'}", "hat +5", "bid -1",
                         "call whot", "bid none,most-red", "bid", "", "change bid 2",
                         "bid 00", "play", "draw", "pass", "bid ٣", "bid 3 ", " bid 3"])
    if kind == 10:
        return INJECTION
    if kind == 11:
        return [pick(ch, cards) for _ in range(ch.below(6))] if cards else []
    if kind == 12:  # a subtree of this very file, somewhere else: a plausible wrong type
        return node_at(base.data, pick(ch, base.paths))
    if kind == 13:
        return {pick(ch, KEYS): ch.integer()}
    if kind == 14:
        return ch.text() * pick(ch, [1, 100, 5000])
    return Raw(json.dumps(ch.text(), ensure_ascii=True))  # escaped surrogates and controls


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 200
_REPR.maxlong = 60


def _show(value: Any, width: int) -> str:
    """A short repr for the report (a few levels deep: ``repr`` recurses)."""
    return _REPR.repr(value)[:width]


def node_at(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _replaced(doc: Any, path: tuple[Any, ...], change: Callable[[Any], Any]) -> Any:
    """``doc`` with the node at ``path`` replaced by ``change(node)``, the containers on the
    way copied and the rest shared (a deep copy of a big replay per input is too slow)."""
    if not path:
        return change(doc)
    copies = []  # the containers on the way, copied (iterative: a path may be 3,000 deep)
    node = doc
    for key in path:
        copies.append(dict(node) if isinstance(node, dict) else list(node))
        node = node[key]
    value = change(node)
    for copy, key in zip(reversed(copies), reversed(path), strict=True):
        copy[key] = value
        value = copy
    return value


def _containers(base: Base) -> list[tuple[Any, ...]]:
    return [p for p in base.paths if isinstance(node_at(base.data, p), (dict, list))]


@functools.cache
def containers(index: int) -> list[tuple[Any, ...]]:
    return _containers(corpus()[index])


def mutate_tree(ch: Chooser, base: Base, index: int, doc: Any) -> tuple[Any, str]:
    """One structural change of ``doc`` (a mutated copy of ``base``); returns (doc, what)."""
    op = ch.below(13)
    if op == 12:  # what an older or hand-edited file may hold (lenient loading repairs some)
        return _legacy(ch, doc)
    if op in (0, 1, 2, 3, 4):  # the commonest: one node replaced
        path = pick(ch, base.paths)
        try:
            old = node_at(doc, path)
        except (KeyError, IndexError, TypeError):
            return doc, "no-op"
        if op == 1 and isinstance(old, bool):
            new: Any = not old
        elif op == 1 and isinstance(old, int):
            new = pick(ch, [old + 1, old - 1, -old, float(old), Raw(str(old) + ".0"),
                            Raw("9" * 4400), str(old), old * 10**pick(ch, [3, 30, 300])])
        elif op == 2 and isinstance(old, str):
            new = pick(ch, [old + "x", old[:-1], old.upper(), " " + old, old + "\ud800",
                            old * 2, INJECTION + old, old.replace("1", "0")])
        else:
            new = hostile(ch, base)
        return _replaced(doc, path, lambda _: new), f"replace {path} with {_show(new, 200)}"
    path = pick(ch, containers(index))
    try:
        node = node_at(doc, path)
    except (KeyError, IndexError, TypeError):
        return doc, "no-op"
    if not isinstance(node, (dict, list)):
        return doc, "no-op"
    if op == 5 and node:  # delete a key or an item
        key = pick(ch, list(node)) if isinstance(node, dict) else ch.below(len(node))

        def delete(n: Any) -> Any:
            n = dict(n) if isinstance(n, dict) else list(n)
            del n[key]
            return n
        return _replaced(doc, path, delete), f"delete {path}[{key!r}]"
    if op == 6:  # add a key or an item
        value = hostile(ch, base)
        if isinstance(node, dict):
            key = pick(ch, KEYS) if ch.below(3) else ch.text()
            return (_replaced(doc, path, lambda n: {**n, key: value}),
                    f"add {key!r}: {_show(value, 200)} at {path}")
        at = ch.below(len(node) + 1)
        return (_replaced(doc, path, lambda n: n[:at] + [value] + n[at:]),
                f"insert {_show(value, 200)} at {path}[{at}]")
    if op == 7 and isinstance(node, list) and node:  # duplicate an item (a card, an action)
        at, to = ch.below(len(node)), ch.below(len(node) + 1)
        return (_replaced(doc, path, lambda n: n[:to] + [n[at]] + n[to:]),
                f"duplicate {path}[{at}] at {to}")
    if op == 8 and len(node) > 1:  # reorder: swap two items or two keys
        items = list(node.items()) if isinstance(node, dict) else list(node)
        i, j = ch.below(len(items)), ch.below(len(items))
        items[i], items[j] = items[j], items[i]
        if isinstance(node, dict):
            swapped: Any = dict(items)
            if ch.below(2):  # swap the values, keep the keys
                keys = list(node)
                swapped = dict(zip(keys, [v for _, v in items], strict=True))
        else:
            swapped = items
        return _replaced(doc, path, lambda _: swapped), f"swap {path} {i} {j}"
    if op == 9:  # nest: wrap a node, or replace it with something deep
        if ch.below(2):
            wrapped: Any = pick(ch, [[node], {"x": node}, [node, node]])
            return _replaced(doc, path, lambda _: wrapped), f"wrap {path}"
        nested = deep(ch)
        return _replaced(doc, path, lambda _: nested), f"deep {path} {nested.text[:40]}"
    if op == 10 and isinstance(node, dict) and node:  # a key given twice
        key = pick(ch, list(node))
        pairs = list(node.items())
        other = hostile(ch, base) if ch.below(2) else node[key]
        pairs.insert(ch.below(len(pairs) + 1), (key, other))
        dup = DupKeys(tuple(pairs))
        return _replaced(doc, path, lambda _: dup), f"duplicate key {key!r} at {path}"
    # op 11 (or a no-op above): a whole subtree swapped in from another place
    source = pick(ch, base.paths)
    sub = node_at(base.data, source)
    return _replaced(doc, path, lambda _: sub), f"move {source} to {path}"


# Numbers an eval record may not hold, and some at the very edges of what it may.
EVAL_NUMBERS: tuple[Any, ...] = (
    1e308, -1e308, sys.float_info.max, -sys.float_info.max, int(sys.float_info.max),
    -int(sys.float_info.max), 10**400, 1e9, -1e9, 1e9 + 1, -1e9 - 1, 10**9, 10**9 + 1,
    5e-324, -5e-324, 1e-308, -0.0, 0, 2**53 - 1, 2**53, -(2**53), 2**63, 1e15, 0.1,
)
EVAL_RAW = ("NaN", "-NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "-0", "-0.0",
            "1E9", "1e+9", "1000000000.0000001", "9" * 400, '"1.5"', '"NaN"', '"Infinity"',
            '"-0"', "true", "null", "[]", '{"x": 1}', '"\\u0031"')


def eval_number(ch: Chooser) -> Any:
    kind = ch.below(6)
    if kind < 3:
        return pick(ch, EVAL_NUMBERS)
    if kind == 3:
        return Raw(pick(ch, EVAL_RAW))
    if kind == 4:
        return ch.floating()
    return ch.integer()


def mutate_evals(ch: Chooser, index: int, doc: Any) -> tuple[Any, str]:
    """Change the numbers of an analysed base's eval records: one number (a mean, a standard
    error, the rollouts or the seed), or every value of every record, the action played far
    below the others (the losses add up over the hands)."""
    paths = eval_paths(index)
    if ch.below(3):
        path = pick(ch, paths)
        try:
            record = node_at(doc, path)
        except (KeyError, IndexError, TypeError):
            return doc, "no-op"
        if not isinstance(record, dict):
            return doc, "no-op"
        values = record.get("values")
        new = eval_number(ch)
        if ch.below(4) == 0 or not isinstance(values, dict) or not values:
            key = pick(ch, ["rollouts", "seed"])
            return (_replaced(doc, (*path, key), lambda _: new),
                    f"eval {path} {key} = {_show(new, 60)}")
        text = pick(ch, sorted(values))
        slot = ch.below(2)
        if not isinstance(values[text], list) or len(values[text]) != 2:
            return doc, "no-op"
        return (_replaced(doc, (*path, "values", text, slot), lambda _: new),
                f"eval {path} values[{text!r}][{slot}] = {_show(new, 60)}")
    big = pick(ch, [n for n in EVAL_NUMBERS if not isinstance(n, Raw)])
    stderr = pick(ch, [0.5, 0.0, big, abs(big)])
    for path in paths:
        try:
            record = node_at(doc, path)
            played = node_at(doc, path[:-1])["act"]
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(record, dict) or not isinstance(record.get("values"), dict):
            continue
        values = {text: [-big if text == played else big, stderr] for text in record["values"]}
        doc = _replaced(doc, (*path, "values"), lambda _, v=values: v)
    return doc, f"every eval: the played action {_show(-big, 40)}, the others {_show(big, 40)}, " \
                f"stderr {_show(stderr, 40)}"


def deepest_variation(doc: Any) -> tuple[tuple[Any, ...], int] | None:
    """The path of the deepest variation line of ``doc`` (a list of actions) and its depth;
    None when ``doc`` has none. Walks only what has the format's shape."""
    best: tuple[tuple[Any, ...], int] | None = None
    hands = doc.get("hands") if isinstance(doc, dict) else None
    if not isinstance(hands, list):
        return None
    stack: list[tuple[Any, tuple[Any, ...], int]] = [
        (hand.get("actions"), ("hands", h, "actions"), 0)
        for h, hand in enumerate(hands) if isinstance(hand, dict)]
    while stack:
        line, path, depth = stack.pop()
        if not isinstance(line, list):
            continue
        if depth and (best is None or depth > best[1]):
            best = path, depth
        for k, action in enumerate(line):
            variations = action.get("variations") if isinstance(action, dict) else None
            if isinstance(variations, list):
                stack.extend((v, (*path, k, "variations", i), depth + 1)
                             for i, v in enumerate(variations))
    return best


def mutate_depth(ch: Chooser, doc: Any) -> tuple[Any, str]:
    """Make the deepest chain of variations deeper (one level, or a few: up to and past
    ``max_variation_depth``) or one level shallower. A new level branches off the first
    action of the deepest variation with the action it replaced: legal, as in a chain of
    alternatives at one step."""
    found = deepest_variation(doc)
    if found is None:
        return doc, "no-op"
    path, depth = found
    line = node_at(doc, path)
    parent = node_at(doc, path[:-3])
    replaced = parent[path[-3]] if isinstance(parent, list) and \
        isinstance(path[-3], int) and path[-3] < len(parent) else None
    if not line or not isinstance(line[0], dict) or not isinstance(replaced, dict):
        return doc, "no-op"
    if ch.below(4) == 0:  # one level shallower: the deepest variation removed
        holder = node_at(doc, path[:-1])
        return (_replaced(doc, path[:-1], lambda _: [v for i, v in enumerate(holder)
                                                     if i != path[-1]]),
                f"chain {depth} deep made {depth - 1} deep")
    levels = pick(ch, [1, 1, 2, 5])
    pair = [{"seat": replaced.get("seat"), "act": replaced.get("act")},
            {"seat": line[0].get("seat"), "act": line[0].get("act")}]
    below: list[Any] = []
    for level in range(levels, 0, -1):  # innermost first
        action: dict[str, Any] = dict(pair[(level - 1) % 2])
        if below:
            action["variations"] = [below]
        below = [action]
    first = dict(line[0])
    first["variations"] = [*(line[0].get("variations") or []), below] \
        if isinstance(line[0].get("variations"), list) else [below]
    return (_replaced(doc, (*path, 0), lambda _: first),
            f"chain {depth} deep made {depth + levels} deep")


def _legacy(ch: Chooser, doc: Any) -> tuple[Any, str]:
    if not isinstance(doc, dict):
        return doc, "no-op"
    options = doc.get("options")
    hands = doc.get("hands")
    kind = ch.below(5)
    if kind < 3 and isinstance(options, dict) and options:
        key = pick(ch, list(options))
        value = options[key]
        if kind == 0:
            rest = {k: v for k, v in options.items() if k != key}
            return {**doc, "options": rest}, f"option {key} left out"
        # emit, not json.dumps: an earlier mutation may have left a Raw or DupKeys value here
        text = pick(ch, [str(value), f" {value} ", emit(value),
                         {True: "yes", False: "no"}.get(value, str(value)) if
                         isinstance(value, bool) else str(value).upper()])
        return {**doc, "options": {**options, key: text}}, f"option {key} as {text!r}"
    if kind == 3 and isinstance(hands, list) and hands:
        h = ch.below(len(hands))
        hand = hands[h]
        if isinstance(hand, dict) and isinstance(hand.get("scores"), list):
            floats = [float(v) if isinstance(v, int) else v for v in hand["scores"]]
            if ch.below(2):
                changed = {**hand, "scores": floats}
            else:
                changed = {k: v for k, v in hand.items() if k != "scores"}
            return (_replaced(doc, ("hands", h), lambda _: changed),
                    f"hand {h + 1} scores as floats or left out")
    return {k: v for k, v in doc.items() if k != "totals"}, "totals left out"


# -- byte mutations ------------------------------------------------------------------------

JSONISH = b'{}[]:,"\\ 0123456789-+.eEnulltruefalseNaN\xff\xc3\x80\xed\xa0\x80'


def mutate_bytes(ch: Chooser, raw: bytes) -> tuple[bytes, str]:
    """Flip, insert, delete, duplicate or truncate bytes."""
    n = len(raw)
    op = ch.below(6)
    at = ch.below(n + 1)
    if op == 0 and n:
        at = min(at, n - 1)
        bit = 1 << ch.below(8)
        return raw[:at] + bytes([raw[at] ^ bit]) + raw[at + 1:], f"flip bit {bit} of byte {at}"
    if op == 1:
        size = 1 + ch.below(4)
        ins = bytes(JSONISH[ch.below(len(JSONISH))] if ch.below(2) else ch.below(256)
                    for _ in range(size))
        return raw[:at] + ins + raw[at:], f"insert {ins!r} at {at}"
    if op == 2:
        size = 1 + ch.below(pick(ch, [1, 8, 200]))
        return raw[:at] + raw[at + size:], f"delete {size} bytes at {at}"
    if op == 3:
        size = 1 + ch.below(pick(ch, [4, 64, 2000]))
        return raw[:at] + raw[at:at + size] + raw[at:], f"repeat {size} bytes at {at}"
    if op == 4:
        return raw[:at], f"truncate at {at}"
    return raw.replace(b"\n", b"", 1 + ch.below(50)), "join lines"


# -- one input -------------------------------------------------------------------------------

def make_input(ch: Chooser, only: Sequence[int] | None = None) -> Input:
    """A mutated file: structure (1 to 3 changes), bytes, or both; or the numbers of eval
    records, or the depth of a chain of variations. ``only``: the corpus's bases to use."""
    bases = corpus()
    choices = range(len(bases)) if only is None else only
    index = choices[ch.below(len(choices))]
    base = bases[index]
    kind = ch.below(12)
    if kind == 10:  # eval records, of a base that has them
        analysed = [i for i in analysed_bases() if i in choices]
        if analysed:
            index = pick(ch, analysed)
            base = bases[index]
        else:
            kind = 0
    if kind == 11:  # a chain made deeper or shallower: the chain at the limit, or another
        branched = [i for i in branched_bases() if i in choices]
        if only is None and ch.below(3) == 0:
            base = chain_base()
        elif branched:
            index = pick(ch, branched)
            base = bases[index]
        else:
            kind = 0
    what = [base.name]
    text = base.text
    if kind >= 10:
        doc: Any = base.data
        for _ in range(1 + (ch.below(3) == 0)):
            doc, change = mutate_evals(ch, index, doc) if kind == 10 else mutate_depth(ch, doc)
            what.append(change)
        text = emit_readable(doc) if ch.below(2) == 0 else emit(doc)
        return Input(text, None, "; ".join(what), ch.below(8) == 0)
    if kind < 7:
        doc = base.data
        for _ in range(1 + (ch.below(4) == 0) + (ch.below(8) == 0)):
            doc, change = mutate_tree(ch, base, index, doc)
            what.append(change)
        text = emit_readable(doc) if ch.below(4) == 0 else emit(doc)
    if kind >= 6:
        raw = text.encode("utf-8", "surrogatepass")
        for _ in range(1 + (ch.below(4) == 0)):
            raw, change = mutate_bytes(ch, raw)
            what.append(change)
        lenient = ch.below(4) == 0
        try:
            return Input(raw.decode("utf-8"), None, "; ".join(what), lenient)
        except UnicodeDecodeError:
            return Input(None, raw, "; ".join(what), lenient, from_file=ch.below(2) == 0)
    return Input(text, None, "; ".join(what), ch.below(4) == 0)


def emit_readable(doc: Any) -> str:
    """The way cardlab writes files (one action per line), when the document allows it."""
    try:
        if isinstance(doc, dict) and isinstance(doc.get("hands"), list) and all(
                isinstance(h, dict) and isinstance(h.get("actions", []), list)
                for h in doc["hands"]):
            text = cardlab.replay.dumps(doc)
            if MARK not in text and "\\u0000fuzz" not in text:
                return text
    except (TypeError, ValueError):
        pass
    return emit(doc)
