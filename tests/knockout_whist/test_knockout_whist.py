"""The proof of the game contract: Knock-out Whist, a fourth game in one folder, run through
cardlab's surfaces while a test registers it (issue 19, point 7; docs/adding-a-game.md).

- its own referee (:mod:`knockout_whist.referee`), step by step over thousands of random
  games: whose turn, the legal actions (and the refusal of every other one), each trick's
  winner, each hand's scores, the end and the winners;
- the generic conformance checks of ``tests/test_conformance.py``, with the referee as the
  game's oracle;
- the command line (``play``, ``show``, ``validate``, ``html``, ``games``), in this process
  and in a child process (``python -m knockout_whist``);
- the viewer's movie and every seat's view, with the leak checks of ``tests/test_view.py``,
  ``tests/test_seatview.py`` and ``tests/fuzzchecks.py``;
- the recorder (``cardlab.lessons.recorder``), for the games it can record;
- ``cardlab.simulate``: the rows of its own columns (``Game.records``), against the replays.
"""

from __future__ import annotations

import doctest
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import fuzzchecks
import pytest
import test_conformance as conformance
import test_seatview
import test_view

import cardlab
from cardlab.bots import make_bot
from cardlab.cli import run
from cardlab.cursor import Cursor
from cardlab.errors import IllegalActionError
from cardlab.game import get_game, list_games
from cardlab.lessons.exercises import table_view
from cardlab.view.movie import build_movie, iter_frames
from cardlab.view.wording import plural
from cardlab.words import names_and

from . import advice, bot, brute, engine, records, referee
from . import registered as registered_game
from .engine import DECK, SUITS, TRUMP, KnockoutWhistRules, KnockoutWhistState
from .referee import Referee

NAME = "knockout-whist"
HERE = Path(__file__).resolve().parent
TESTS = HERE.parent
ROOT = TESTS.parent
OPTION_SETS = KnockoutWhistRules.conformance_option_sets()
REFEREE_GAMES = 3000


def _played(options: dict, seed: int, kind: str = "heuristic") -> cardlab.Replay:
    table = cardlab.new_game(NAME, seed=seed, **options)
    players = table.replay.rules.players
    table.play([make_bot(kind, NAME, seed=f"{seed}/{s}") for s in range(players)])
    return table.replay


def _long_game(options: dict, hands: int = 2) -> cardlab.Replay:
    """A seeded heuristic game of at least ``hands`` hands (so trumps are chosen too)."""
    for seed in range(1, 200):
        replay = _played(options, seed)
        if len(replay.hands) >= hands:
            return replay
    raise AssertionError(f"no seed below 200 plays {hands} hands with {options}")


# -- the folder, and its registration ---------------------------------------------------------

def test_the_folders_examples_run():
    import knockout_whist

    for module in (knockout_whist, engine, bot, referee, records, advice, brute):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_the_game_is_registered_by_the_test_alone(knockout_whist):
    assert get_game(NAME) is knockout_whist and NAME in list_games()
    assert knockout_whist.rules(players=3).game is knockout_whist
    assert knockout_whist.game_type.tricks and knockout_whist.game_type.exact_solver
    assert knockout_whist.card_faces()["QH"] == ["Q", "♥", "red", 0, "Q♥"]


def test_outside_a_test_no_layer_knows_the_game():
    assert NAME not in list_games()
    with pytest.raises(cardlab.UnknownGameError, match="no game called 'knockout-whist'"):
        cardlab.new_game(NAME, players=2)



def test_a_game_registered_again_is_seen_afresh(knockout_whist):
    # The views cache a game's faces and texts, and a replay its rules: a game taken out of
    # the registry and replaced by another of the same name must not be seen through them.
    from cardlab.game import register, unregister
    from cardlab.view.wording import card_faces, pretty

    replay = _played({"players": 2}, seed=1, kind="random")
    assert card_faces(NAME)["QH"][4] == "Q♥" and pretty(NAME, "play QH") == "play Q♥"
    assert replay.rules.game is knockout_whist

    class Renamed(type(knockout_whist)):  # the same game, with its cards named in words
        def card_faces(self):
            return {code: [*face[:4], face[4].replace("♥", " of hearts")]
                    for code, face in super().card_faces().items()}

    unregister(NAME)
    other = register(Renamed())
    try:
        assert card_faces(NAME)["QH"][4] == "Q of hearts"
        assert pretty(NAME, "play QH") == "play Q of hearts"
        assert cardlab.loads(replay.to_json()).rules.game is other
    finally:
        unregister(NAME)
        register(knockout_whist)

# -- the referee, step by step ----------------------------------------------------------------

def _refused(state: KnockoutWhistState, ref: Referee, rng: random.Random) -> None:
    """An action the referee calls illegal is refused by the engine, which stays as it was,
    and a card that does not follow suit is refused in the rule's words."""
    legal = set(ref.legal())
    others = [t for t in [f"play {c}" for c in DECK.codes] + [f"trump {s}" for s in SUITS]
              if t not in legal]
    text = rng.choice(others)
    before = state.snapshot()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(state.parse_action(text))
    assert state.snapshot() == before, text
    code = text.split()[1]
    held = ref.hands[ref.to_act] if ref.to_act is not None else []
    if ref.trick and code in held and ref.trump is not None:
        led = SUITS[DECK.suit_of[DECK.parse(ref.trick[0][1])]]
        assert f"must follow {led}" in caught.value.reason


def _refereed_game(options: dict, seed: int) -> Counter[str]:
    """One game, engine and referee side by side; counts what was compared."""
    rules = KnockoutWhistRules(**options)
    state = rules.new_state()
    assert isinstance(state, KnockoutWhistState)
    ref = Referee(rules.options)
    kind = "heuristic" if seed % 3 == 0 else "random"
    bots = [make_bot(kind, NAME, seed=f"{seed}/{s}") for s in range(rules.players)]
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    while True:
        if state.chance_kind() == "deal":
            record = state.seeded_chance(seed)
            state.apply_chance(record)
            ref.deal(record)
        seat = state.to_act()
        assert (None if seat < 0 else seat) == ref.to_act, f"seed {seed}"
        if seat < 0:
            break
        assert sorted(state.legal_texts()) == sorted(ref.legal()), f"seed {seed}"
        if rng.random() < 0.25:
            _refused(state, ref, rng)
            seen["refusals"] += 1
        action = bots[seat](state, seat)
        state.apply(action)
        text = state.action_text(action)
        seen["trump choices"] += text.startswith("trump ")
        winner = ref.act(text)
        if winner is not None:
            seen["tricks"] += 1
            assert state.history[-1][2] == winner, f"seed {seed}: the trick's winner"
        if ref.to_act is None:  # the hand is over
            assert state.hand_over() and state.hand_scores() == ref.sheet[-1], f"seed {seed}"
            assert state.totals() == ref.totals
            assert state.is_game_over() == ref.over
            seen["hands"] += 1
    assert ref.over and state.is_game_over()
    assert rules.winners(state.totals()) == ref.winners()
    assert all(state.totals()[s] == 0 for s in state.knocked_out) and state.knocked_out
    return seen


def test_the_referee_agrees_with_the_engine_step_by_step(knockout_whist):
    seen: Counter[str] = Counter()
    for seed in range(REFEREE_GAMES):
        seen += _refereed_game(OPTION_SETS[seed % len(OPTION_SETS)], seed)
    # every part of the rules was met often: trumps chosen in later hands, refusals
    assert seen["hands"] > 1.3 * REFEREE_GAMES, seen
    assert seen["trump choices"] == seen["hands"] - REFEREE_GAMES
    assert seen["tricks"] > 4 * REFEREE_GAMES and seen["refusals"] > 2 * REFEREE_GAMES, seen


def test_the_trumps_are_chosen_by_the_best_of_the_last_hand(knockout_whist):
    replay = _long_game({"players": 3}, hands=2)
    cursor = cardlab.Cursor(replay)
    end = cursor.goto(cursor.find(1, len(replay.hands[0].actions))).state.clone()
    assert isinstance(end, KnockoutWhistState)
    start = cursor.goto(cursor.find(2, 0)).position
    assert start["phase"] == "trump" and start["trump"] is None
    assert start["to_act"] == start["trump_chooser"] == end.most_tricks()
    assert start["legal"] == ["trump hearts", "trump spades"]
    assert replay.hands[1].actions[0].act.startswith("trump ")
    with pytest.raises(IllegalActionError, match="must first choose trumps"):
        cursor.state.clone().act(f"play {start['hands'][start['to_act']][0]}")
    state = cursor.goto(cursor.find(2, 1)).state
    assert state.legal_actions()[0] < TRUMP
    with pytest.raises(IllegalActionError, match="chosen once"):
        state.clone().act("trump hearts")


# -- the generic conformance checks -----------------------------------------------------------

def test_the_generic_conformance_checks(knockout_whist, monkeypatch):
    """``tests/test_conformance.py``'s own tests, with the referee as the game's oracle."""
    monkeypatch.setitem(conformance.ORACLES, NAME, referee)
    conformance.test_every_game_has_an_oracle()
    conformance.test_conformance(NAME)
    conformance.test_random_playout_makes_the_protocols_choices(NAME)


# -- the command line -------------------------------------------------------------------------

def test_the_command_line_plays_shows_validates_and_pages(knockout_whist, tmp_path, capsys):
    game = tmp_path / "game.json"
    assert run(["play", NAME, "--players", "3", "--seed", "9", "--out", str(game)]) == 0
    replay = cardlab.load(game)
    assert replay.totals is not None
    assert replay.to_json() == _played({"players": 3}, 9).to_json()
    totals = ", ".join(f"{s} {v}" for s, v in zip(replay.seats, replay.totals, strict=True))
    hands = plural(len(replay.hands), "hand")
    assert capsys.readouterr().out == f"wrote {game}: {hands}; {totals}\n"

    assert run(["validate", str(game)]) == 0
    actions = sum(len(h.actions) for h in replay.hands)
    assert capsys.readouterr().out == (f"{game}: valid Knock-out Whist (two suits) replay, "
                                       f"{hands}, {actions} actions\n")

    for seat in (None, "East"):
        assert run(["show", str(game)] + (["--seat", seat] if seat else [])) == 0
        shown = capsys.readouterr().out
        index = None if seat is None else replay.seats.index(seat)
        assert shown == cardlab.text.render(replay, seat=index) + "\n"
        assert shown.count("  Trick ") == sum(len(h.deal["hands"][0]) for h in replay.hands)
        assert "Final: " in shown

    page = tmp_path / "game.html"
    assert run(["html", str(game), "-o", str(page), "--seat", "South"]) == 0
    assert capsys.readouterr().out == f"wrote {page}\n"
    movie = test_view._embedded_movie(page.read_text(encoding="utf-8"))
    assert movie["game"] == NAME and list(movie["views"]) == ["South"]

    assert run(["games"]) == 0
    listed = capsys.readouterr().out
    assert f"{NAME}: Knock-out Whist (two suits)\n" in listed
    assert "  start_size=None " in listed and "  first_dealer=0 " in listed


def _child(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), str(ROOT)]))
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_command_line_in_a_child_process(tmp_path):
    """``python -m knockout_whist`` is cardlab's command line with the game registered;
    plain ``python -m cardlab`` does not know it."""
    done = _child("-m", "knockout_whist", "play", NAME, "--players", "2", "--seed", "5",
                  "--bots", "heuristic,random", "--out", "g.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote g.json: ")
    with registered_game():
        table = cardlab.new_game(NAME, players=2, seed=5)
        table.play([make_bot("heuristic", NAME, seed="5/0"), make_bot("random", NAME, seed="5/1")])
        assert cardlab.load(tmp_path / "g.json").to_json() == table.replay.to_json()
    for command in (["validate", "g.json"], ["show", "g.json", "--seat", "East"],
                    ["html", "g.json"]):
        done = _child("-m", "knockout_whist", *command, cwd=tmp_path)
        assert done.returncode == 0 and done.stderr == "", (command, done.stderr)
    assert (tmp_path / "g.html").stat().st_size > 10_000
    done = _child("-m", "cardlab", "validate", "g.json", cwd=tmp_path)
    assert done.returncode == 2
    assert "no game called 'knockout-whist'" in done.stderr


# -- the viewer and the seat views --------------------------------------------------------------

def _viewed_replays() -> list[cardlab.Replay]:
    replays = [_played(options, seed=k + seed, kind="heuristic" if k % 2 else "random")
               for seed in (1, 20, 40) for k, options in enumerate(OPTION_SETS)]
    replays.append(_long_game({"players": 2}, hands=3))
    replays.append(_long_game({"players": 3}, hands=2))
    return replays


def test_every_seat_view_and_movie_holds_nothing_hidden(knockout_whist):
    """The leak checks the real games pass: ``check_seat_views`` (positions and the lines
    of ``show``), the seat movies of the viewer, and ``check_views`` (show, movie, page)."""
    for replay in _viewed_replays():
        seen = test_seatview.check_seat_views(replay)
        assert seen["codes hidden"] > 0 and seen["own cards shown"] > 0
        assert seen["steps as everyone"] > 0 and seen["texts hidden"] == 0
        for seat in range(len(replay.seats)):
            test_view._check_seat_movie(replay, seat)
        fuzzchecks.check_views(replay)


def test_the_checks_catch_a_leak(knockout_whist, monkeypatch):
    """A seat view broken on purpose fails the same checks (a check that cannot fail is none)."""
    replay = _long_game({"players": 2}, hands=2)
    test_seatview.check_seat_views(replay)

    def every_hand(self: KnockoutWhistState, seat: int | None) -> dict:
        return {"legal": self.legal_texts_for(seat), "hands": self.hands_snapshot(None)}

    monkeypatch.setattr(KnockoutWhistState, "seat_fields", every_hand)
    with pytest.raises(AssertionError):
        test_seatview.check_seat_views(replay)
    with pytest.raises(AssertionError):
        test_view._check_seat_movie(replay, 0)


def test_the_movie_says_what_happened(knockout_whist):
    replay = _long_game({"players": 2}, hands=2)
    movie = build_movie(replay)
    assert movie["game"] == NAME and movie["title"] == "Knock-out Whist (two suits)"
    assert set(movie["cards"]) == set(DECK.codes)
    frames = list(iter_frames(movie, 0, ""))
    assert len(frames) == sum(len(h.actions) + 1 for h in replay.hands)
    said = json.dumps(frames, ensure_ascii=False)
    chooser = replay.hands[1].actions[0]
    assert f"{chooser.seat}: trump {'♥ hearts' if 'hearts' in chooser.act else '♠ spades'}" \
        in said
    assert "takes the trick with" in said and "highest trump" in said
    last = frames[-1]["res"]
    assert replay.totals is not None
    out = [replay.seats[s] for s, total in enumerate(replay.totals) if total == 0]
    assert out and all(f"{name} " in last for name in out)
    assert "knocked out" in last and "The game is over" in last


def test_its_own_table_words_show_in_every_view(knockout_whist):
    """The fixture's table words (its folder's ``words.py``) add a badge and a teaching
    line: the viewer, a seat's movie and a lesson's table show them, and nothing outside
    the folder knows them."""
    replay = _long_game({"players": 3}, hands=1)
    out = [replay.seats[s] for s, total in enumerate(replay.totals or ()) if total == 0]
    assert out
    for seat in (None, 0):
        movie = build_movie(replay, seat=seat)
        assert movie["badges"]["out"] == "knocked out"
        view = "" if seat is None else replay.seats[seat]
        end = list(iter_frames(movie, 0, view))[-1]  # the main line
        badged = [replay.seats[int(s)] for s, box in end["seats"].items() if "out" in box["b"]]
        assert badged == out
        assert end["ex"].startswith(names_and(out) + " took no trick")
    table = table_view(replay, Cursor(replay, hand=len(replay.hands)).last().position)
    assert [box["name"] for box in table["seats"] if "out" in box["badges"]] == out


# -- the recorder ----------------------------------------------------------------------------

def test_the_recorder_records_a_one_hand_game(knockout_whist, tmp_path):
    """A game the first hand ends (a knock-out in hand 1), entered card by card as a teacher
    would: the saved file is the game. (A game of more hands cannot be recorded yet: the
    recorder expects every deal to have one key besides ``hands``; docs/adding-a-game.md.)"""
    from cardlab.lessons.recorder import Recorder

    recorded = 0
    for seed in range(1, 40):
        replay = _played({"players": 3}, seed)
        if len(replay.hands) != 1:
            continue
        path = tmp_path / f"class-{seed}.json"
        rec = Recorder(path, NAME, players=3)
        deal = replay.hands[0].deal
        assert rec.phase == "deal"
        for s, cards in enumerate(deal["hands"]):
            for code in cards:
                assert rec.pick(code, f"seat:{s}"), rec.message
        assert rec.pick(deal["turned"]) and rec.submit(), rec.message
        for action in replay.hands[0].actions:
            assert rec.enter(action.act.removeprefix("play "), seat=action.seat), rec.message
        assert rec.phase == "over"
        saved = cardlab.load(path)
        assert saved.hands[0].deal == deal and saved.totals == replay.totals
        assert [a.act for a in saved.hands[0].actions] == [a.act for a in replay.hands[0].actions]
        recorded += 1
    assert recorded >= 3


# -- simulations -----------------------------------------------------------------------------

def test_a_simulation_records_the_games_own_columns(knockout_whist, tmp_path):
    """The hands table has the common columns and the game's own (its records.py), and each
    row says what the replay of the same game says (serially: a spawned worker would not
    know a game registered by a test)."""
    from cardlab import batches, dataframes
    from cardlab.simulation import simulate
    from cardlab.simulation.schema import hands_columns

    folder = tmp_path / "replays"
    result = simulate(NAME, players=4, games=9, bots="heuristic,random", seed=3, chunk=4,
                      workers=0, progress=False, replays=folder, out=tmp_path / "kw.parquet")
    hands = result.hands
    assert list(hands.columns) == [column.name for column in hands_columns(NAME)]
    assert list(hands.columns)[-2:] == ["tricks", "knocked_out"]
    # each game's replay, in its chunk's batch (games-1-4.zip/game-1.json, ...)
    named = {name.rsplit("/", 1)[1]: name for batch in sorted(folder.iterdir())
             for name in batches.names(batch)}
    assert sorted(named) == sorted(f"game-{g}.json" for g in range(1, 10))
    for g in range(1, 10):
        replay = cardlab.load(named[f"game-{g}.json"])
        rows = hands[hands.game == g]
        games = result.games[result.games.game == g]
        assert list(games.total) == replay.totals
        results = dataframes.hand_results_list(replay)
        assert len(rows) == 4 * len(results)
        for res, (_, hand) in zip(results, rows.groupby("hand", sort=True), strict=True):
            hand = hand.sort_values("seat_index")
            end = res.end
            assert list(hand.score) == res.scores
            assert list(hand.tricks) == end["tricks_won"]
            assert list(hand.knocked_out) == [t == 0 for t in end["tricks_won"]]
            assert list(hand.dealer) == [s == end["dealer"] for s in range(4)]
            assert (hand.hand_size == end["hand_size"]).all()
    # the game ends at the first knock-out, or after its last hand
    last = hands.groupby("game").hand.transform("max") == hands.hand
    assert not hands[~last].knocked_out.any()
    back = cardlab.simulation.load(tmp_path / "kw.parquet")
    assert back.hands.equals(hands) and back.games.equals(result.games)
