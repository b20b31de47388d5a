"""One generic conformance test over every registered game and its option sets.

Thousands of seeded games per game, played by a mix of random and heuristic bots through the
recording API. At every step: someone can act or a chance step is due or the game is over;
every card is where the state says (conservation); the chosen action is among the legal ones
and the engine accepts it; a clone behaves like the original. At the end of every hand the
scores are recomputed from the position by an independent oracle (tests/oracle_*.py), and
``hand_scores()`` equals what the hand added to ``totals()`` (a hand redealt after a renege
counts from its first deal). At the end of every game the replay round-trips through JSON
unchanged and re-validates.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from pathlib import Path

import pytest

import cardlab
from cardlab.bots import make_bot
from cardlab.cursor import Cursor

GAMES_PER_GAME = 2000
HERE = Path(__file__).parent


def _oracles() -> dict:
    found = {}
    for info in pkgutil.iter_modules([str(HERE)]):
        if info.name.startswith("oracle_"):
            module = importlib.import_module(info.name)
            found[module.GAME] = module
    return found


ORACLES = _oracles()


def test_every_game_has_an_oracle():
    assert set(cardlab.list_games()) <= set(ORACLES), "each game needs tests/oracle_<game>.py"


def _bots(game: str, seed: int, players: int):
    kind = "heuristic" if seed % 4 == 3 else "random"
    try:
        return [make_bot(kind, game, seed=f"{seed}/{s}") for s in range(players)]
    except cardlab.OptionError:  # no heuristic bot for this game: random ones
        return [make_bot("random", game, seed=f"{seed}/{s}") for s in range(players)]


def play_checked(game: str, options: dict, seed: int, oracle) -> cardlab.Replay:
    table = cardlab.new_game(game, seed=seed, **options)
    state = table.state
    bots = _bots(game, seed, table.replay.rules.players)
    probe = random.Random(seed)
    blank = table.replay.rules.new_state()  # no position at all
    while True:
        state = table.state
        dealt, accounted = sorted(state.dealt_cards()), sorted(state.accounted_cards())
        assert dealt == accounted, f"seed {seed}: cards not conserved"
        seat = state.to_act()
        if seat < 0:
            assert state.is_game_over(), f"seed {seed}: nobody can act, yet the game goes on"
            break
        legal = state.legal_actions()
        assert legal, f"seed {seed}: {table.seats[seat]} is to act but has no legal action"
        action = bots[seat](state, seat)
        assert action in legal
        # an action's text names it, and depends on the action alone (State.action_text)
        text = state.action_text(action)
        assert state.parse_action(text) == action and blank.action_text(action) == text
        if probe.random() < 0.05:  # a clone must behave exactly like the original
            twin = state.clone()
            twin.apply(action)
            hands_before = len(table.replay.hands)
            table.apply(action)
            if len(table.replay.hands) == hands_before:
                assert twin.snapshot() == table.state.snapshot()
            # Every view at once shares the public part; each equals that seat's own view,
            # and nothing of one view is written into another's.
            views = [None, *range(table.replay.rules.players)]
            shared = table.state.snapshots(views)
            assert shared == [table.state.snapshot(v) for v in views], f"seed {seed}"
        else:
            table.apply(action)
    replay = table.replay
    text = replay.to_json()
    again = cardlab.loads(text)
    assert again.to_dict() == replay.to_dict()
    assert again.to_json() == text
    cursor = Cursor(again)
    before: dict[int, list[int]] = {}  # each hand number's totals before its first deal
    for h, hand in enumerate(again.hands):
        start = cursor.goto(cursor.find(h + 1, 0)).state
        before.setdefault(start.hand_number(), start.totals())
        cursor.goto(cursor.find(h + 1, len(hand.actions)))
        end = cursor.state
        if end.hand_over():  # its scores are final: what the hand added to the totals
            gained = [t - b for t, b in zip(end.totals(), before[end.hand_number()],
                                            strict=True)]
            assert end.hand_scores() == gained, f"seed {seed}, hand {h + 1}"
        assert hand.scores is not None
        assert oracle.hand_scores(cursor.position, again.options) == hand.scores, (
            f"seed {seed}, hand {h + 1}: oracle and engine disagree")
    columns = zip(*(h.scores for h in replay.hands), strict=True)
    assert replay.totals == [sum(col) for col in columns]
    return replay


@pytest.mark.parametrize("game", sorted(cardlab.list_games()))
def test_conformance(game):
    rules_class = cardlab.get_game(game).rules_class
    option_sets = rules_class.conformance_option_sets()
    oracle = ORACLES[game]
    for seed in range(GAMES_PER_GAME):
        options = option_sets[seed % len(option_sets)]
        play_checked(game, options, seed, oracle)


@pytest.mark.parametrize("game", sorted(cardlab.list_games()))
def test_random_playout_makes_the_protocols_choices(game):
    """``random_playout`` (the simulations' fast path) ends every hand exactly where a loop of
    ``legal_actions()`` and ``apply`` with the same random numbers ends it."""
    rules_class = cardlab.get_game(game).rules_class
    for seed, options in enumerate(rules_class.conformance_option_sets() * 4):
        table = cardlab.new_game(game, seed=seed, **options)
        fast, slow = table.state.clone(), table.state.clone()
        record: list[int] = []  # each action the playout makes, as action * seats + seat
        fast.random_playout(random.Random(seed).random, record)
        rand = random.Random(seed).random
        made = []
        n = len(table.seats)
        while (seat := slow.to_act()) >= 0:
            actions = slow.legal_actions()
            action = actions[int(rand() * len(actions))]
            slow.apply(action)
            made.append(action * n + seat)
        assert fast.snapshot() == slow.snapshot(), f"{game} seed {seed}"
        assert fast.totals() == slow.totals()
        assert record == made


@pytest.mark.parametrize("game", sorted(cardlab.list_games()))
def test_a_seeded_chance_step_is_its_record_entered(game):
    """``deal_seeded`` enters the chance step that is due (the setup too) as its seeded
    record, ``apply_chance(seeded_chance(seed))``, would; a trick game says the record of
    the deal it holds (``dealt_record``)."""
    rules_class = cardlab.get_game(game).rules_class
    for seed, options in enumerate(rules_class.conformance_option_sets()):
        fast = cardlab.get_game(game).rules(**options).new_state()
        slow = cardlab.get_game(game).rules(**options).new_state()
        steps = 0
        while (kind := fast.chance_kind()) is not None and steps < 3:
            record = slow.seeded_chance(seed)
            slow.apply_chance(record)
            fast.deal_seeded(seed)
            assert fast.snapshot() == slow.snapshot(), f"{game} seed {seed}"
            if kind == "deal" and hasattr(fast, "dealt_record"):
                assert fast.dealt_record() == record
            if kind == "setup" and hasattr(fast, "setup_record"):
                assert fast.setup_record() == record
            if fast.to_act() >= 0:  # a hand to play before the next deal
                fast.random_playout(random.Random(seed).random)
                slow.random_playout(random.Random(seed).random)
            steps += 1
