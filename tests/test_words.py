"""Words, not codes: every text a person reads names cards as people do and counts right.

The engine's refusals and rules, every template. The games' message templates are read
from their code (``wordcheck.templates``: each text given to a refusal, and each one a
function that writes refusals or rules returns), and the test shows that the engine's own
examples render every one: the shipped example replays and a seeded game of each kind of
option set (played by random bots), where every action the game names (its action numbers,
-1 and one past the last) is tried at every decision of the first hand; at every bid or hat
decision of the first hands, every non-play action, there and one decision further along
each other choice (a fewest card in use, a no bid already used); every setup and deal record
near the real one (each part dropped, wrong in type, doubled, unknown, or named twice), and
before and after its time; the games' rules at every decision and hand end. The two
templates no example can render are listed with the reason (``UNRENDERED``).

The views, lessons and recorder: for every registered game and a few of its option sets,
seeded games (and a table-mode game with misplays, for the renege and misplay texts), with
a variation at each of the first decisions (by each seat) and a variation of a variation:
every text of the viewer's movie for everyone and each seat (status, centre, seat boxes,
teaching lines, results, the move list, the line menu's labels), the variations' labels as
``cardlab.explore.describe`` and a Branch's line say them, the exercises at every position
they fit (prompt, table, every verdict, hint and answer), the quiz, and the recorder's status
and answers while it records a game entry by entry; and the shipped examples' movies.

Each text is searched for the game's card codes (``Rules.card_codes()``, both of Whot's
packs), for a count with the wrong noun ("1 hands", "1 points against", "3 re-cut(s)"), for
a number with the wrong article ("a 11"), for a seat's name run into an action's verb
("Brad play black 12": the variation labels read so) and for a doubled word. Quoted text
('play blue14', what a person types at the command line or in the recorder) may hold codes;
so may the refusal of a text or a record that names no card or action (a
``CardCodeError``: "codes look like 2C, 3C, ..."; "2C is named twice"), which is about
typing codes. The replays' notes are people's writing, not the engine's, and are not
searched.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import wordcheck
from tablegames import table_mode_game
from wordcheck import slips

import cardlab
from cardlab import explore
from cardlab.bots import make_bot
from cardlab.cursor import Cursor
from cardlab.errors import CardCodeError, CardlabError
from cardlab.game import list_games
from cardlab.lessons import exercises as ex
from cardlab.lessons.quiz import Quiz
from cardlab.lessons.recorder import Recorder
from cardlab.view.movie import build_movie

# keys of the movie that hold data, not words: card faces and codes, action texts the viewer
# sends back, the replay's notes
DATA_KEYS = {"cards", "h", "lg", "c", "w", "alt", "n", "l", "base"}


def option_sets(game: Any) -> list[dict[str, Any]]:
    """A few of the game's conformance option sets: the first two and the first in table
    mode (reneges, misplays)."""
    sets = game.rules_class.conformance_option_sets()
    table = [s for s in sets if s.get("mode") == "table"][:1]
    return sets[:2] + table


def played(name: str, options: dict[str, Any], seed: int) -> cardlab.Replay:
    if options.get("mode") == "table":
        return table_mode_game(name, {k: v for k, v in options.items() if k != "mode"}, seed,
                               misplay_rate=0.2)
    table = cardlab.new_game(name, seed=seed, **options)
    table.play([make_bot("random", name, seed=seed * 10 + s)
                for s in range(table.replay.rules.players)])
    return table.replay


def games() -> Iterator[tuple[str, dict[str, Any], list[cardlab.Replay]]]:
    for name, game in sorted(list_games().items()):
        for options in option_sets(game):
            yield name, options, [played(name, options, seed) for seed in (1, 2)]


CASES = list(games())


def strings(value: Any, out: set[str], key: str = "") -> None:
    """Every string in ``value`` that reads as words (a space in it), but under data keys."""
    if key in DATA_KEYS:
        return
    if key == "choices":  # [action text sent back, its label]: the label is what is read
        for pair in value:
            strings(pair[1], out)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            strings(v, out, str(k))
    elif isinstance(value, list):
        for v in value:
            strings(v, out, key)
    elif isinstance(value, str) and " " in value:
        out.add(value)


# -- the engine: refusals and rules, every template --------------------------------------------

UNKNOWN = "zz99"  # a card code of no game
HANDS = 12  # the hands of an example looked at (one of Bob's Hat's runs to 1,700): enough
# for a refusal that depends on an earlier hand (a seat's one no bid, used) to show


def near(value: Any, depth: int = 0) -> Iterator[Any]:
    """JSON records near ``value`` (a deal or a setup record): each part wrong in type,
    dropped, doubled, unknown, or given a value found elsewhere in the record."""
    yield from ("x", 7, None, [], {}, 2.0, True)
    if depth > 2:
        return
    if isinstance(value, dict):
        leaves = [v for v in _leaves(value) if isinstance(v, str)]
        for key in value:
            yield {k: v for k, v in value.items() if k != key}
            for other in near(value[key], depth + 1):
                yield {**value, key: other}
            for leaf in leaves[:2]:  # a card named twice: dealt and turned up, say
                yield {**value, key: leaf}
        yield {**value, "extra": 1}
    elif isinstance(value, list) and value:
        yield from (value[:-1], [*value, value[-1]], [*value, UNKNOWN])
        for i in range(min(len(value), 3)):
            for other in near(value[i], depth + 1):
                yield [*value[:i], other, *value[i + 1:]]
            if i:
                yield [*value[:i], value[0], *value[i + 1:]]
        if len(value) > 1 and all(isinstance(v, list) and v for v in value[:2]):
            yield [value[0], [value[0][0], *value[1][1:]], *value[2:]]  # a card dealt twice


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def action_space(state: Any) -> list[int]:
    """Every action the game names (its text exists), and a few it does not: -1 and past
    the last."""
    named = []
    for action in range(1 << 12):
        try:
            state.action_text(action)
        except CardlabError:
            continue
        named.append(action)
    return [-1, *named, named[-1] + 1]


def engine_examples(name: str) -> list[cardlab.Replay]:
    """The game's shipped examples, and a game played by random bots under each kind of
    its conformance options (the first set of each that differs in more than the players)."""
    game = cardlab.get_game(name)
    kinds: dict[str, dict[str, Any]] = {}
    for options in game.rules_class.conformance_option_sets():
        kind = repr(sorted((k, str(v)) for k, v in options.items()
                           if k not in ("players", "max_turns")))
        kinds.setdefault(kind, options)
    shipped = [cardlab.example(e) for e in cardlab.example_names()]
    return [r for r in shipped if r.game == name] + [played(name, o, 1) for o in kinds.values()]


def engine_texts(name: str, replays: list[cardlab.Replay]) -> tuple[set[str], set[str]]:
    """The refusals' sentences and rules, and the games' own rule texts, rendered from the
    engine's examples: every action the game names, tried wherever a first hand has a
    decision (and, where no card is played, one decision further along every other choice:
    the bids and the hat, whose refusals depend on the bids before), and out of turn; every
    record near the real setup and deals; the games' rules at every decision and hand end
    (of the first :data:`HANDS` hands)."""
    game = cardlab.get_game(name)
    refusals: set[str] = set()
    rules: set[str] = {game.score_rule(replays[0].rules)}

    def attempt(state: Any, how: Any) -> None:
        try:
            how(state.clone())
        except CardCodeError:
            pass  # about a code typed or written in a record: it may quote codes
        except CardlabError as err:
            refusals.update((str(err), getattr(err, "reason", ""), getattr(err, "rule", "")))

    def everything(state: Any, space: list[int]) -> None:
        for action in space:
            attempt(state, lambda s, a=action: s.apply(a))

    for replay in replays:
        state = replay.rules.new_state(replay.seats)
        space = action_space(state)
        unplayed = [a for a in space if not _text(state, a).startswith("play ")]
        if state.chance_kind() == "setup":
            everything(state, space)  # before the draw for first dealer
            for bad in near(replay.setup):
                attempt(state, lambda s, r=bad: s.apply_chance(r))
            state.apply_chance(replay.setup)
        skip = getattr(state, "skip_to_hand", None)  # a game that may start at a later hand
        if skip is not None:
            for hand in (0, 10 ** 6):
                attempt(state, lambda s, h=hand: s.skip_to_hand(h))
        for number, record in enumerate(replay.hands[:HANDS]):
            for bad in near(record.deal):
                attempt(state, lambda s, r=bad: s.apply_chance(r))
            everything(state, space[:3])  # nobody is to act before the deal
            state.apply_chance(record.deal)
            attempt(state, lambda s, r=record.deal: s.apply_chance(r))  # no deal is due
            if skip is not None:
                attempt(state, lambda s: s.skip_to_hand(2))
            rules.add(game.trick_rule(state))
            for action in record.actions:
                if state.to_act() >= 0:
                    legal = state.legal_texts()
                    rules.add(game.game_type.question(sorted(legal)))
                    if number == 0:
                        everything(state, space)
                    if not any(text.startswith("play ") for text in legal):
                        # a bid or the hat: what is refused here depends on the choices
                        # before (a fewest card in use, a no bid used in an earlier hand)
                        everything(state, unplayed)
                        for other in state.legal_actions():
                            after = state.clone()
                            after.apply(other)
                            if after.to_act() >= 0:
                                everything(after, unplayed)
                state.act(action.act)
            position = state.snapshot()
            for s, seat_name in enumerate(replay.seats):
                rules.add(game.explain_score(position, s, seat_name) or "")
        if len(replay.hands) <= HANDS:
            everything(state, space[:3])  # the game is over
    refusals.discard("")
    rules.discard("")
    return refusals, rules


# Templates no example renders, and why: each still in the code (the test says when one goes).
UNRENDERED = {
    "trick_taking/state.py _illegal_play: no card may be played now":
        "the trick games' shared refusal of a card that breaks no rule of play, which every "
        "registered trick game replaces with its own",
    "whot/state.py _apply_slow: 'last card' is announced with a play":
        "'last card' announced with a draw: no action text names it (the parser refuses "
        "'draw last card' as no Whot action), only a program's number",
}


@pytest.fixture(scope="module")
def engine_words() -> dict[str, tuple[set[str], set[str]]]:
    return {name: engine_texts(name, engine_examples(name)) for name in sorted(list_games())}


def test_every_refusal_and_rule_template_is_rendered(engine_words):
    """Every template of the games' refusals and rules (read from their code) is rendered by
    some example: the search below misses none."""
    texts = {text for refusals, rules in engine_words.values() for text in refusals | rules}
    found = wordcheck.templates()
    assert len(found) > 60
    missed = {where for pattern, where in found.items()
              if not any(re.search(pattern, text) for text in texts)}
    assert missed == set(UNRENDERED), sorted(missed ^ set(UNRENDERED))


@pytest.mark.parametrize("name", sorted(list_games()))
def test_the_engines_refusals_and_rules_name_cards_as_people_do(name, engine_words):
    refusals, rules = engine_words[name]
    assert any("does not hold" in text for text in refusals)
    replays = engine_examples(name)
    seats = sorted({s for r in replays for s in r.seats})
    assert slips(refusals | rules, name) == []
    assert wordcheck.grammar_slips(refusals | rules, seats, verbs(name)) == []


def _text(state: Any, action: int) -> str:
    try:
        return str(state.action_text(action))
    except CardlabError:
        return ""


def verbs(name: str) -> set[str]:
    """The words that start the game's actions ("play", "draw", "hat"...), but "bid", whose
    past tense is itself ("Ann bid 2 and took 3")."""
    state = cardlab.get_game(name).rules().new_state(None)
    first = {state.action_text(a).split()[0] for a in action_space(state)[1:-1]}
    return first - {"bid"}


# -- the views, the lessons and the recorder ------------------------------------------------

def view_texts(replay: cardlab.Replay) -> set[str]:
    """Every text of the replay's movie, for everyone and each seat, with variations added
    (:func:`with_variations`): their labels in the line menu, as each view reads them, and
    as :func:`cardlab.explore.describe` and a Branch's one line say them."""
    replay, branches = with_variations(replay)
    out: set[str] = {repr(b) for b in branches}
    out.update(explore.describe(replay, b.hand, b.path) for b in branches)
    strings(build_movie(replay), out)
    return out


def with_variations(replay: cardlab.Replay) -> tuple[cardlab.Replay, list[Any]]:
    """A copy of ``replay`` with a variation at each of its first hand's first decisions
    (another legal action, by each seat in turn), and one of a variation."""
    replay = replay.copy()
    branches = []
    cursor = Cursor(replay, hand=1)
    for index in range(min(len(cursor.line), len(replay.seats) + 1)):
        state = explore.line_state(replay, 1, (), index)
        played = cursor.line[index].act
        other = next((t for t in state.legal_texts() if t != played), None)
        if other is not None and state.actor(state.parse_action(other)) == state.to_act():
            branches.append(explore.branch(replay, 1, index, other, bots="random", seed=index))
    for first in list(branches):  # a variation of a variation: where one may branch
        line = replay.line(1, first.path)
        for index in range(first.index + 1, min(first.index + 6, len(line))):
            state = explore.line_state(replay, 1, first.path, index)
            other = next((t for t in state.legal_texts() if t != line[index].act), None)
            if other is not None and state.actor(state.parse_action(other)) == state.to_act():
                branches.append(explore.branch(replay, 1, index, other, bots="random",
                                               path=first.path))
                return replay, branches
    return replay, branches


def lesson_texts(replay: cardlab.Replay) -> set[str]:
    """The exercises at every position of the first hand that fits each kind, and the
    quiz of the first seat over the first hand."""
    out: set[str] = set()
    cursor = Cursor(replay, hand=1)
    for index in range(len(cursor.line) + 1):
        for kind in ex.KINDS:
            try:
                exercise = ex.make(kind, replay, 1, index, session=ex.Session())
            except CardlabError as err:
                out.add(str(err))
                continue
            out.add(exercise.prompt)
            strings(exercise.table, out)
            answers: list[Any] = [v for v, _ in exercise.choices]
            if kind == "legal-plays":
                answers = [[], answers[:1], answers, list(getattr(exercise, "legal", []))]
            elif kind == "hand-score":
                answers = [exercise.score, exercise.score + 1]  # type: ignore[attr-defined]
            for given in answers:
                verdict = exercise.check(given)
                out.update((verdict.text, verdict.hint))
                tries = ex.Tries()
                out.add(tries.respond(verdict, given)["text"])
            out.add(exercise.solution().text)
    try:
        quiz = Quiz(replay, 0, hand=1, advisor=False)
    except CardlabError as err:
        out.add(str(err))
    else:
        while not quiz.done:
            strings(quiz.data(), out)
            out.add(quiz.answer(quiz.choices()[-1])["text"])
            quiz.next()
        out.add(quiz.data()["summary"])
    out.discard("")
    return out


def recorder_texts(replay: cardlab.Replay, folder: Any) -> set[str]:
    """The recorder's status, answers and table while it records ``replay`` entry by entry,
    with a card not held tried before each card play."""
    out: set[str] = set()
    options = {k: v for k, v in replay.options.items() if k != "players"}
    rec = Recorder(folder / f"{replay.game}.json", replay.game, players=len(replay.seats),
                   **options)

    def seen() -> None:
        data = rec.data()
        for key in ("status", "said", "message"):
            out.add(data[key])
        out.update(data.get("moves", []))
        strings(data.get("centre", []), out, "centre")
        out.add(data["chart"]["title"])

    if replay.setup is not None:
        rows = next(v for v in replay.setup.values() if isinstance(v, list))
        for r, row in enumerate(rows):
            if r:
                rec.new_round()
            for s, code in enumerate(row):
                if code is not None:
                    rec.pick(code, f"row:{r}:{s}")
        rec.submit()
        seen()
    for hand in replay.hands:
        for s, cards in enumerate(hand.deal["hands"]):
            for code in cards:
                rec.pick(code, f"seat:{s}")
        extra = next(k for k in hand.deal if k != "hands")
        value = hand.deal[extra]
        for code in ([value] if isinstance(value, str) else value[:3]):
            rec.pick(code, extra)
        seen()
        rec.submit()
        seen()
        for action in hand.actions[:30]:
            if action.act.startswith("play "):
                state = rec.table.state
                held = set(state.snapshot()["hands"][state.to_act()] or [])
                other = next(c for c in rec.replay.rules.card_codes() if c not in held)
                rec.enter(other)
                seen()
            if not rec.enter(action.act, seat=action.seat):
                return out  # (a Whot draw names the stock, which is beyond what was entered)
            seen()
        if len(hand.actions) > 30:
            break
    rec.undo()
    seen()
    out.discard("")
    return out


@pytest.mark.parametrize(("name", "options", "replays"), CASES,
                         ids=[f"{n}-{k}" for k, (n, _, _) in enumerate(CASES)])
def test_the_views_lessons_and_recorder_name_cards_as_people_do(name, options, replays,
                                                                   tmp_path):
    texts = view_texts(replays[0]) | lesson_texts(replays[0])
    assert any(text.startswith(("Right: ", "The answer: ")) for text in texts)
    assert any(" Hint: " in text for text in texts)
    assert any("variation of a variation" in text for text in texts)
    if options.get("mode") != "table":
        recorded = recorder_texts(replays[0], tmp_path)
        assert any(" does not hold " in text for text in recorded), sorted(recorded)[:20]
        texts |= recorded
    assert slips(texts, name) == []
    assert wordcheck.grammar_slips(texts, replays[0].seats, verbs(name)) == []


@pytest.mark.parametrize("example", cardlab.example_names())
def test_the_shipped_examples_views_name_cards_as_people_do(example):
    """The examples every lesson shows: every text of their movies, with variations."""
    replay = cardlab.example(example)
    texts = view_texts(replay)
    assert any(text.startswith("hand 1, action 1, ") or text.startswith("game 1, action 1, ")
               for text in texts)
    assert slips(texts, replay.game) == []
    assert wordcheck.grammar_slips(texts, replay.seats, verbs(replay.game)) == []


def test_the_grammar_slips_are_found():
    """A seat's name run into an action's verb, and a doubled word, are found; a past tense
    and an action told after a colon are not."""
    texts = {"hand 1, action 20: Brad play black 12 (+5 more)", "She may play: play play",
             "hand 1, action 20, Brad: play black 12", "Ann bid 2 and took 3",
             "Brad plays the black 3", "Ade draws"}
    assert wordcheck.grammar_slips(texts, ["Brad", "Ann", "Ade"], verbs("bobs-hat") | {"draw"}) \
        == ["She may play: play play", "hand 1, action 20: Brad play black 12 (+5 more)"]
    assert verbs("bobs-hat") == {"hat", "play"} and verbs("whot") >= {"draw", "pass", "play"}


def test_the_slips_are_found():
    """The search finds what the issue saw, and lets pass what people write."""
    assert slips({"Remo holds black15", "play a circle, a 11 or a WHOT", "1 hands, 9 actions",
                  "after 1 re-cut(s)", "the choices are 'play blue14', 'play blue9'",
                  "Remo holds black 15", "an 11", "1 hand, 9 actions", "Bob's Hat +10"},
                 "bobs-hat") == ["1 hands, 9 actions", "Remo holds black15", "after 1 re-cut(s)",
                                 "play a circle, a 11 or a WHOT"]
