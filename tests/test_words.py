"""Words, not codes: every text a person reads names cards as people do and counts right.

For every registered game (``cardlab.game.list_games``) and a few of its option sets, seeded
games played by random bots (and a table-mode game with misplays, for the renege and misplay
texts) are the engine's own examples. At every decision every action of the game that is not
legal there is tried (each kind: a card not held, a card that does not follow, a bid or a hat
out of turn, the hook...), and each refusal's sentence and rule is kept; so are the games'
rules (who takes a trick, how a hand is scored, a hand score's sum, the question a decision
asks), every text of the viewer's movie for everyone and each seat (status, centre, seat
boxes, teaching lines, results, the move list), the exercises at every position they fit
(prompt, table, every verdict, hint and answer), the quiz, and the recorder's status and
answers while it records a game entry by entry.

Each text is searched for the game's card codes (``Rules.card_codes()``, both of Whot's
packs), for a count with the wrong noun ("1 hands", "3 re-cut(s)") and for a number with
the wrong article ("a 11"). Quoted text ('play blue14', what a person types at the command
line or in the recorder) may hold codes; so may the refusal of a text that names no action
(an ``ActionTextError``: "codes look like 2C, 3C, ..."), which is about typing codes. The
replays' notes are people's writing, not the engine's, and are not searched.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from tablegames import table_mode_game
from wordcheck import slips

import cardlab
from cardlab.bots import make_bot
from cardlab.cursor import Cursor, walk
from cardlab.errors import ActionTextError, CardlabError, IllegalActionError
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


# -- the engine: refusals and rules ---------------------------------------------------------

def engine_texts(name: str, replays: list[cardlab.Replay]) -> tuple[set[str], set[str]]:
    """The refusals' sentences and rules, and the games' own rule texts."""
    game = cardlab.get_game(name)
    universe = sorted({a.act for r in replays for h in r.hands for a in h.actions})
    refusals: set[str] = set()
    rules: set[str] = {game.score_rule(replays[0].rules)}
    rng = random.Random(name)
    for replay in replays:
        for _, _, index, state in walk(replay):
            seat = state.to_act()
            if seat < 0:
                if state.hand_over():
                    position = state.snapshot()
                    for s, seat_name in enumerate(replay.seats):
                        rules.add(game.explain_score(position, s, seat_name) or "")
                continue
            legal = set(state.legal_texts())
            rules.add(game.game_type.question(sorted(legal)))
            if index == 0:
                rules.add(game.trick_rule(state))
            for text in rng.sample(universe, min(25, len(universe))):
                if text in legal:
                    continue
                try:
                    state.clone().act(text)
                except ActionTextError:
                    pass  # about the text typed: it may quote codes
                except IllegalActionError as err:
                    refusals.update((err.reason, err.rule))
    rules.discard("")
    return refusals, rules


@pytest.mark.parametrize(("name", "options", "replays"), CASES,
                         ids=[f"{n}-{k}" for k, (n, _, _) in enumerate(CASES)])
def test_the_engines_refusals_and_rules_name_cards_as_people_do(name, options, replays):
    refusals, rules = engine_texts(name, replays)
    # every kind of refusal is among them: a card not held, and several more
    templates = {re.sub(r"\d+", "N", text) for text in refusals}
    assert any("does not hold" in text for text in refusals)
    assert len(templates) >= 5, sorted(templates)
    assert slips(refusals | rules, name) == []


# -- the views, the lessons and the recorder ------------------------------------------------

def view_texts(replay: cardlab.Replay) -> set[str]:
    out: set[str] = set()
    strings(build_movie(replay), out)
    return out


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
    if options.get("mode") != "table":
        recorded = recorder_texts(replays[0], tmp_path)
        assert any(" does not hold " in text for text in recorded), sorted(recorded)[:20]
        texts |= recorded
    assert slips(texts, name) == []


def test_the_slips_are_found():
    """The search finds what the issue saw, and lets pass what people write."""
    assert slips({"Remo holds black15", "play a circle, a 11 or a WHOT", "1 hands, 9 actions",
                  "after 1 re-cut(s)", "the choices are 'play blue14', 'play blue9'",
                  "Remo holds black 15", "an 11", "1 hand, 9 actions", "Bob's Hat +10"},
                 "bobs-hat") == ["1 hands, 9 actions", "Remo holds black15", "after 1 re-cut(s)",
                                 "play a circle, a 11 or a WHOT"]
