"""A simulation's games played in the kernel (cardlab/playout.py) and the replay's text
(cardlab/replaytext.py): each one source, compiled by mypyc at install or run as Python,
the two alike; and what the kernel keeps of a game is what the table's own protocol gives."""

from __future__ import annotations

import doctest
import os
import random
from pathlib import Path

import pytest
from kernelsource import load_source

import cardlab
from cardlab import playout, replay, replaytext
from cardlab.bots import kernel_players, make_bot
from cardlab.cards import seeded_rng
from cardlab.games.teds_game.engine import DECK
from cardlab.games.teds_game.kernel import TedsPlayout
from cardlab.simulation.rows import play_chunk
from cardlab.simulation.spec import make_spec

PACKAGE = Path(cardlab.__file__).parent  # the sources, beside their compiled modules


@pytest.fixture(scope="module")
def pure_playout():
    return load_source("cardlab_playout_pure", PACKAGE / "playout.py")


@pytest.fixture(scope="module")
def pure_text():
    return load_source("cardlab_replaytext_pure", PACKAGE / "replaytext.py")


def test_compiled_with_the_kernel():
    if os.environ.get("CARDLAB_PURE") == "1":
        assert type(replaytext.write).__name__ == "function"
        return
    assert type(replaytext.write).__name__ == "builtin_function_or_method"
    assert type(playout.Playout.play).__name__ == "method_descriptor"


def test_the_source_examples_run(pure_playout, pure_text):
    for module in (pure_playout, pure_text):
        result = doctest.testmod(module)
        assert result.attempted >= 2 and result.failed == 0


def _replays_data() -> list[dict]:
    """Replays' data as the writer takes it: the examples' (their actions objects, notes,
    evals and variations), and a simulation's (actions already written as lines)."""
    data = [cardlab.example(name)._data(False) for name in cardlab.example_names()]
    written: list[dict] = []
    original = replay.dumps

    def keep(value):
        written.append(value)
        return original(value)

    spec = make_spec("teds-game", players=4, games=3, bots="heuristic,random", seed=4,
                     options={"start_size": 3}, chunk=3)
    import cardlab.simulation.rows as rows
    rows.dumps, saved = keep, rows.dumps
    try:
        play_chunk(spec, 0, True)
    finally:
        rows.dumps = saved
    assert written and all(isinstance(h["actions"], str) for d in written for h in d["hands"]
                           if h["actions"])
    return data + written


def test_the_writer_writes_the_same_text_compiled_or_not(pure_text):
    for data in _replays_data():
        text = replaytext.write(data, replay._actions_text)
        assert pure_text.write(data, replay._actions_text) == text
        assert cardlab.loads(text).to_json() == text  # and reads back as what it wrote


def test_a_list_of_text_is_written_as_the_encoder_writes_it(pure_text):
    # the joined items are quoted once when none needs an escape; else item by item
    for items in ([], ["5C"], ["a", "b c"], ['say "hi"', "x"], ["tab\there"], ["é", "\\"]):
        for module in (replaytext, pure_text):
            data = {"hands": [{"deal": {"hands": [items, ["z"]]}, "actions": []}]}
            expected = replaytext.encode([items, ["z"]])
            assert f'"hands": {expected}' in module.write(data, None)


def test_lazy_numbers_are_the_generators_compiled_or_not(pure_playout):
    for module in (playout, pure_playout):
        made = seeded_rng(9, "k")
        stream = [made.random() for _ in range(12)]
        rng = module.LazyRandom(9, "k")
        rng.skip(2)  # numbers 0 and 1 passed over: the generator not made yet
        assert rng.made is None
        draws = module.Draws(rng, 4)  # numbers 2 to 5, one a choice
        assert draws.at(2) == stream[4] and draws.at(0) == stream[2]
        draws.done()  # 5 passed over
        assert rng.random() == stream[6]
        plain = seeded_rng(9, "k")  # any generator: the numbers passed over are drawn
        draws = module.Draws(plain, 3)
        assert draws.at(1) == stream[1]
        draws.done()
        assert plain.random() == stream[3]


def _kept(log, players, games: int) -> list[object]:
    """Ted's Game's hands played by ``log`` (a Playout), heuristic and random seats, and
    games of the table's random numbers recorded, with what it kept."""
    rules = cardlab.get_game("teds-game").rules(players=players, start_size=4)
    log.record()
    out: list[object] = []
    for seed in range(games):
        state = rules.new_state()
        out.append(log.setup(state, seed))
        if seed % 2:
            bots = [make_bot(("heuristic", "random")[s % 2], "teds-game", seed=f"{seed}/{s}")
                    for s in range(players)]
            log.play(state, kernel_players(bots, state), bots, seed, None)
        else:
            log.play(state, None, [], seed, random.Random(seed).random)
        out.append((list(log.deals or []), list(log.keys or []), log.running[:],
                    state.totals()))
        log.deals.clear()
        log.keys.clear()
    out += [log.numbers, log.dealers, log.sizes, log.actions, log.scores]
    return out


def test_a_pure_playout_plays_and_keeps_what_the_compiled_one_does(pure_playout):
    class PurePlayout(pure_playout.Playout):  # Ted's Game read through the base's hooks
        def size(self, table):
            return table.size

        def dealer(self, table):
            return table.dealer

        def scores_of(self, table):
            return table.sheet[-1]

        def keep(self, table):
            pass

    compiled = _kept(TedsPlayout(4, DECK.codes), 4, 8)
    assert _kept(PurePlayout(4), 4, 8) == compiled


@pytest.mark.parametrize("game", sorted(cardlab.list_games()))
def test_what_a_game_kept_is_what_its_table_recorded(game):
    # a simulation's replay, assembled from the kernel's ints, and the same game played
    # through a Table by the same bots: the same text
    spec = make_spec(game, players=3, games=2, bots="heuristic,random", seed=6, chunk=2,
                     options={"teds-game": {"start_size": 2}, "bobs-hat": {"hands": 2},
                              "whot": {"rubber": "single"}}.get(game, {}))
    chunk = play_chunk(spec, 0, True)
    for name, text in chunk.replays:
        number = int(name.removeprefix("game-").removesuffix(".json"))
        recorded = cardlab.loads(text)
        table = cardlab.new_game(game, seed=recorded.seed, seats=recorded.seats,
                                 **spec.options)
        kinds = recorded.meta["simulation"]["bots"]
        assert kinds == spec.seat_bots(number)
        table.play([make_bot(kind, game, seed=f"{recorded.seed}/{s}")
                    for s, kind in enumerate(kinds)])
        table.replay.meta = recorded.meta
        assert table.replay.to_json() == text
