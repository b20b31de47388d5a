"""The fuzz test: mutated and tampered replay files at the loader (issue 10, item 8).

The inputs are the shipped replays and one seeded bot game per game and option set, mutated
in their structure and their bytes by tests/fuzzing.py (scripts/fuzz_loads.py runs the same
mutations a million times). Three properties:

- ``cardlab.loads`` raises nothing but a ``CardlabError``;
- a file it accepts saves, loads back equal and shows (``cardlab.text.render``); one that
  ``lenient=True`` repairs becomes a replay that loads without it;
- a tampered game (a card not held, a card the rules forbid there, a wrong seat, a card
  dealt twice, a wrong score or total) is refused at the very hand, step and JSON path of the
  tampering, in the main line and in variations.

Each test counts the examples it ran and checks the count, so a run that silently tested
less fails; the examples add up to 20,000. ``derandomize`` makes every run test the same
inputs, with no example database to keep.
"""

from __future__ import annotations

import contextlib
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fuzzchecks
import fuzzing
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import cardlab

MUTATED_EXAMPLES = 14_000
SHIPPED_EXAMPLES = 2_000
TAMPERED_EXAMPLES = 4_000
assert MUTATED_EXAMPLES + SHIPPED_EXAMPLES + TAMPERED_EXAMPLES >= 20_000


def fuzz_settings(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                    print_blob=False)


SEEDS = st.integers(0, 2**64 - 1)
INTEGERS = st.one_of(st.integers(-300, 300), st.integers(),
                     st.sampled_from([2**31, -2**31, 2**63, -2**63 - 1, 10**100, 10**4000]))
FLOATS = st.floats()  # NaN and infinities included
TEXTS = st.one_of(
    st.text(max_size=12),
    st.text(st.characters(categories=["Cs", "Cc", "Zs", "Po", "Sm"]), max_size=6),
    st.sampled_from(["", "<b>x</b>", "\ud800", "a\udfffb", "\x00", "\u2028"]),
)


class DataChooser:
    """The choices of tests/fuzzing.py, driven by hypothesis.

    The values put into files (integers, floats, strings) are drawn by hypothesis. The many
    small choices of where and how to mutate come from a random generator seeded by one
    hypothesis draw: a draw costs more than a whole mutation, and 20,000 examples must fit
    in the suite's time budget. A failure names the mutations, and the same seed rebuilds
    them.
    """

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.rng = random.Random(data.draw(SEEDS, label="seed"))

    def below(self, n: int) -> int:
        return self.rng.randrange(n)

    def integer(self) -> int:
        return self.data.draw(INTEGERS)

    def floating(self) -> float:
        return self.data.draw(FLOATS)

    def text(self) -> str:
        return self.data.draw(TEXTS)


@contextlib.contextmanager
def users_recursion_limit() -> Iterator[None]:
    """Python's default recursion limit, counted from here as if this were a user's script.

    hypothesis raises the limit while a test runs; a deep file must fail (or not) here just
    as it would in a notebook or the command line.
    """
    depth = 0
    frame = sys._getframe()
    while frame.f_back is not None:
        depth += 1
        frame = frame.f_back
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 1000 - 30)  # about what a script has in use when it calls
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def run_input(inp: fuzzchecks.Input, folder: Path) -> str:
    """The outcome, or a failure naming the exception and how to rebuild the input."""
    try:
        with users_recursion_limit():
            return fuzzchecks.outcome(inp, folder)
    except Exception as err:
        where = folder / "reproducer.py"
        where.write_text(inp.reproducer(), encoding="utf-8", errors="backslashreplace")
        pytest.fail(f"{type(err).__name__}: {str(err)[:500]}\ninput: {inp.what[:2000]}\n"
                    f"reproducer: {where}")


def test_the_corpus_covers_every_game_and_option_set():
    names = [base.name for base in fuzzing.corpus()]
    for game in cardlab.list_games():
        sets = cardlab.get_game(game).rules_class.conformance_option_sets()
        for options in sets:
            assert any(name.startswith(f"{game} seed") and name.endswith(str(options))
                       for name in names), (game, options)
    shipped = sorted(p.name for p in (fuzzing.ROOT / "replays").glob("*.json"))
    assert shipped and names[:len(shipped)] == shipped
    assert any(cardlab.loads(b.text).hands[0].actions[i].variations
               for b in fuzzing.corpus() for i in range(len(b.data["hands"][0]["actions"])))


def test_mutated_files_raise_only_cardlab_errors_and_accepted_ones_save_load_and_show(
        tmp_path):
    seen: dict[str, int] = {}

    @fuzz_settings(MUTATED_EXAMPLES)
    @given(st.data())
    def mutated(data: st.DataObject) -> None:
        inp = fuzzing.make_input(DataChooser(data))
        result = run_input(inp, tmp_path)
        seen[result] = seen.get(result, 0) + 1

    mutated()
    print(f"mutated files: {seen}")
    assert sum(seen.values()) >= MUTATED_EXAMPLES
    # the mutations reach past the JSON parser and the format's checks: some files are
    # accepted, and some old-style ones repaired by lenient loading
    assert seen.get("accepted", 0) > MUTATED_EXAMPLES // 50
    assert seen.get("repaired", 0) > MUTATED_EXAMPLES // 1000


def test_mutated_shipped_replays(tmp_path):
    shipped = [i for i, base in enumerate(fuzzing.corpus()) if base.name.endswith(".json")]
    seen: dict[str, int] = {}

    @fuzz_settings(SHIPPED_EXAMPLES)
    @given(st.data())
    def mutated(data: st.DataObject) -> None:
        inp = fuzzing.make_input(DataChooser(data), only=shipped)
        assert inp.what.split(";")[0].endswith(".json")
        result = run_input(inp, tmp_path)
        seen[result] = seen.get(result, 0) + 1

    mutated()
    print(f"mutated shipped replays: {seen}")
    assert sum(seen.values()) >= SHIPPED_EXAMPLES
    assert seen.get("accepted", 0) > 0 and seen.get("ReplayError", 0) > SHIPPED_EXAMPLES // 2


# -- tampered games -----------------------------------------------------------------------------

def face(code: str) -> str:
    """Whot's copies of a face (``whot20/2``) are interchangeable in play."""
    return code.split("/")[0]


def is_card(game: str, value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        cardlab.get_game(game).rules_class.deck.parse(value)
    except cardlab.CardlabError:
        return False
    return True


def _lines(replay: cardlab.Replay, h: int) -> list[tuple]:
    return [(), *replay.variation_paths(h + 1)]


def _location(h: int, path: tuple, k: int) -> tuple[tuple[Any, ...], int]:
    """The JSON location of action ``k`` of a line (which must lie past its last branch)
    and its step number (steps count from 1 at the first action)."""
    loc: tuple[Any, ...] = ("hands", h, "actions")
    start = 0
    for index, variation in path:
        loc = (*loc, index - start, "variations", variation)
        start = index
    assert k >= start
    return (*loc, k - start), k + 1


def json_path(loc: tuple[Any, ...]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)


def _set(doc: Any, loc: tuple[Any, ...], value: Any) -> Any:
    return fuzzing._replaced(doc, loc, lambda _: value)


def numbers(word: str, message: str) -> set[int]:
    return {int(n) for n in re.findall(rf"\b{word} (\d+)\b", message)}


def tamper(ch: DataChooser, base: fuzzing.Base
           ) -> tuple[str, Any, str, str, int, int | None] | None:
    """A tampered copy of ``base``: (kind, data, what, expected JSON path, hand, step), or
    None when this base has nothing to tamper in the place chosen."""
    replay = base.replay
    kind = ch.below(5)
    h = ch.below(len(replay.hands))
    record = replay.hands[h]
    if kind == 2:  # a wrong score, or wrong totals
        if record.scores is None:
            return None
        s = ch.below(len(replay.seats))
        wrong = list(record.scores)
        wrong[s] += ch.integer() or 1
        if ch.below(4) == 0 and replay.totals is not None:
            totals = list(replay.totals)
            totals[s] += wrong[s] - record.scores[s]
            return ("totals", _set(base.data, ("totals",), totals), f"totals[{s}]",
                    "$.totals", 0, None)
        return ("score", _set(base.data, ("hands", h, "scores"), wrong),
                f"hand {h + 1} scores[{s}]", f"$.hands[{h}].scores", h + 1, None)
    if kind == 3:  # a card dealt twice (from a pack that holds one of each)
        if base.data["options"].get("packs", 1) != 1:
            return None
        leaves = fuzzing._paths(record.deal)
        cards = [p for p in leaves if is_card(base.game, fuzzing.node_at(record.deal, p))]
        if len(cards) < 2:
            return None
        a, b = ch.below(len(cards)), ch.below(len(cards))
        code = fuzzing.node_at(record.deal, cards[b])
        if fuzzing.node_at(record.deal, cards[a]) == code:
            return None
        return ("card dealt twice", _set(base.data, ("hands", h, "deal", *cards[a]), code),
                f"hand {h + 1} deal {cards[a]} = {code}", f"$.hands[{h}].deal", h + 1, None)
    # a card not held, or a wrong seat, at one action of one line
    lines = _lines(replay, h)
    path = lines[ch.below(len(lines))]
    line = replay.line(h + 1, path)
    start = path[-1][0] if path else 0
    if len(line) <= start:
        return None
    k = start + ch.below(len(line) - start)
    state = replay.new_state()
    for earlier in replay.hands[:h]:
        state.apply_chance(earlier.deal)
        for action in earlier.actions:
            state.act(action.act)
    state.apply_chance(record.deal)
    for action in line[:k]:
        state.act(action.act)
    actor = state.actor(state.parse_action(line[k].act))
    loc, step = _location(h, path, k)
    if kind == 0:
        held = {face(c) for c in state.snapshot(None)["hands"][actor]}
        cards, _ = fuzzing.game_words(base.game)
        missing = [c for c in cards if is_card(base.game, c) and face(c) not in held]
        code = missing[ch.below(len(missing))]
        return ("card not held", _set(base.data, (*loc, "act"), f"play {code}"),
                f"{json_path(loc)} plays {code}, not held", json_path((*loc, "act")),
                h + 1, step)
    if kind == 4:  # a card held, but one the rules forbid here (strict mode: no renege)
        if base.data["options"].get("mode") != "strict" or actor != state.to_act():
            return None
        legal = set(state.legal_texts())
        held = state.snapshot(None)["hands"][actor]
        forbidden = [c for c in held if not any(t == f"play {c}" or t.startswith(f"play {c} ")
                                                for t in legal)]
        if not forbidden:
            return None
        code = forbidden[ch.below(len(forbidden))]
        return ("illegal card", _set(base.data, (*loc, "act"), f"play {code}"),
                f"{json_path(loc)} plays {code}, held but not allowed",
                json_path((*loc, "act")), h + 1, step)
    others = [name for s, name in enumerate(replay.seats) if s != actor]
    name = others[ch.below(len(others))]
    return ("wrong seat", _set(base.data, (*loc, "seat"), name), f"{json_path(loc)} by {name}",
            json_path((*loc, "seat")), h + 1, step)


def test_a_tampered_game_is_refused_at_its_hand_and_step():
    seen: dict[str, int] = {}

    @fuzz_settings(TAMPERED_EXAMPLES)
    @given(st.data())
    def tampered(data: st.DataObject) -> None:
        ch = DataChooser(data)
        bases = fuzzing.corpus()
        base = bases[ch.below(len(bases))]
        made = tamper(ch, base)
        assume(made is not None)  # not counted: hypothesis draws another example
        assert made is not None
        kind, doc, what, where, hand, step = made
        text = fuzzing.emit(doc)
        try:
            with users_recursion_limit():
                cardlab.loads(text)
        except cardlab.ReplayError as caught:
            err = caught
        else:
            pytest.fail(f"{base.name}: {what}: accepted")
        message = str(err)
        context = f"{base.name}: {what}: {message}"
        # a card named in an action taken out of turn (Ted's bid change) also changes who
        # may take it: then the seat is what is refused, at the same step
        assert err.path == where or (kind == "card not held" and err.path == where[:-len("act")]
                                                               + "seat"), context
        assert numbers("hand", message) == ({hand} if hand else set()), context
        assert numbers("step", message) == ({step} if step else set()), context
        assert (err.hand, err.step) == (hand or None, step), context  # for programs too
        seen[kind] = seen.get(kind, 0) + 1

    tampered()
    print(f"tampered games: {seen}")
    assert sum(seen.values()) >= TAMPERED_EXAMPLES
    assert len(seen) == 6 and min(seen.values()) > TAMPERED_EXAMPLES // 100, seen
