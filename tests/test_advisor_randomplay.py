"""cardlab.advisor.randomplay: the random bot's playouts on bit masks give the plain engine
path's numbers exactly (the same draws, random numbers and cards), over every rules option
set of both trick games, at many points of the play: the fast path is only faster."""

from __future__ import annotations

import importlib
import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from tablegames import bid_at_random, table_mode_game

import cardlab
from cardlab import rolloutkernel
from cardlab.advisor import evaluate
from cardlab.advisor.sample import figures_for, sampler_for, seat_view
from cardlab.advisor.solver import playout_search
from cardlab.bots import make_bot
from cardlab.games.bobs_hat.engine import score_hand
from cardlab.games.bobs_hat.solving import layout_of, summary_taken
from cardlab.games.trick_taking.advice import stopped_class
from cardlab.games.trick_taking.sampler import TrickSampler
from cardlab.kernel import play_cards
from cardlab.solveranks import kth_lowest

evaluate_mod = importlib.import_module("cardlab.advisor.evaluate")
randomplay = importlib.import_module("cardlab.advisor.randomplay")
GAMES = ("bobs-hat", "teds-game")


def option_sets(game: str) -> list[dict]:
    return cardlab.get_game(game).rules_class.conformance_option_sets()


def play_positions(game: str, options: dict, seed: int, per_game: int = 4):
    """Seeded games (random or heuristic bots), and up to ``per_game`` decisions of their
    play phase picked at random (a trick's start or its middle, any hand): (replay, hand
    counted from 1, actions made)."""
    table = cardlab.new_game(game, seed=seed, **options)
    players = table.replay.rules.players
    kind = "random" if seed % 2 else "heuristic"
    bots = [make_bot(kind, game, seed * 7 + s) for s in range(players)]
    rng = random.Random(seed)
    picked = 0
    while picked < per_game:
        state = table.state
        seat = state.to_act()
        if seat < 0:
            return
        if state.phase == "play" and rng.random() < 0.25:
            replay = table.replay
            yield replay, len(replay.hands), len(replay.hands[-1].actions)
            picked += 1
        table.apply(bots[seat](state, seat))


def the_plain_path(replay, hand: int, index: int, rollouts: int, seed: int):
    """What evaluate gives through the engine: each sample a state, each action a clone,
    ``apply``, ``random_playout`` to the end of the hand, scored by the engine's own end of
    hand (the score sheet) and the figures hook (``run`` with no outcome hook)."""
    cursor = cardlab.Cursor(replay, hand=hand)
    state = cursor.goto(cursor.find(hand, index)).state.clone()
    seat = state.to_act()
    actions = [(list(replay.seats).index(a.seat), a.act) for a in cursor.line[:index]]
    draw = sampler_for(seat_view(state, seat, actions)).sample
    return evaluate_mod.run(draw, seat, state.legal_texts(), rollouts, seed, "random",
                            replay.game, figures_for(replay.game), None)


class Spy:
    """Counts the samplers that went through the masks' path, and what they had."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: Counter[str] = Counter()
        real = randomplay.random_tallies

        def spied(sampler: TrickSampler, *args, **kwargs):
            self.seen["fast"] += 1
            self.seen["hat hidden"] += sampler.face_down >= 0
            self.seen["voids"] += sampler.drawer.constrained
            self.seen["mid-trick"] += bool(sampler.template.trick)
            return real(sampler, *args, **kwargs)

        monkeypatch.setattr(randomplay, "random_tallies", spied)


@pytest.mark.parametrize("game", GAMES)
def test_the_masks_give_the_plain_paths_numbers_under_every_option_set(game, monkeypatch):
    spy = Spy(monkeypatch)
    compared = 0
    for options in option_sets(game):
        for seed in range(4):
            for replay, hand, index in play_positions(game, options, seed):
                rollouts = 12 + seed * 5
                fast = evaluate(replay, hand, index, rollouts=rollouts, seed=seed + index,
                                bot="random")
                assert fast.values == the_plain_path(replay, hand, index, rollouts,
                                                     seed + index)
                compared += 1
    assert spy.seen["fast"] == compared > 100
    assert spy.seen["voids"] > 10 and spy.seen["mid-trick"] > 10
    if game == "bobs-hat":  # the hat's value still face down for the seat, drawn per sample
        assert spy.seen["hat hidden"] > 5


@pytest.mark.parametrize("game", GAMES)
def test_table_mode_games_with_reneges_give_the_plain_paths_numbers(game, monkeypatch):
    """Table mode: reneges flagged (Ted's Game, played on) and redeals (Bob's Hat)."""
    spy = Spy(monkeypatch)
    options = {"players": 4} if game == "bobs-hat" else {"players": 5, "start_size": 4}
    compared = 0
    for seed in range(3):
        replay = table_mode_game(game, options, seed, 0.15)
        for hand in range(1, min(len(replay.hands), 3) + 1):
            cursor = cardlab.Cursor(replay, hand=hand)
            for index in range(0, len(cursor.line), 3):
                state = cursor.goto(cursor.find(hand, index)).state
                if state.to_act() < 0 or state.phase != "play":
                    continue
                fast = evaluate(replay, hand, index, rollouts=15, seed=index, bot="random")
                assert fast.values == the_plain_path(replay, hand, index, 15, index)
                compared += 1
    assert spy.seen["fast"] == compared > 20


def test_the_p2_positions_give_the_plain_paths_numbers():
    """The benchmark's own positions (benchmarks/advisor_p2.py), at its sample count."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        from advisor_p2 import bobs_hat_position, teds_position
    finally:
        sys.path.pop(0)
    for position in (bobs_hat_position, teds_position):
        replay, hand, index = position()
        fast = evaluate(replay, hand, index, rollouts=1000, seed=1, bot="random")
        assert fast.values == the_plain_path(replay, hand, index, 1000, 1)


def test_the_draw_of_the_hands_is_the_samples_own():
    """draw_hands reads the generator as sample does and gives its other hands and hat."""
    checked = 0
    hats: Counter[str] = Counter()
    for game in GAMES:
        for options in option_sets(game):
            for replay, hand, index in play_positions(game, options, 1, per_game=2):
                cursor = cardlab.Cursor(replay, hand=hand)
                state = cursor.goto(cursor.find(hand, index)).state
                seat = state.to_act()
                actions = [(list(replay.seats).index(a.seat), a.act)
                           for a in cursor.line[:index]]
                view = seat_view(state, seat, actions)
                assert isinstance(sampler_for(view), TrickSampler)
                for hidden in ("bot", "uniform"):  # how a face-down hat is drawn
                    sampler = TrickSampler(view, hidden=hidden)
                    assert sampler.plays_on_masks()
                    one, two = random.Random(index), random.Random(index)
                    for _ in range(20):
                        layout, hat = sampler.draw_hands(one)
                        sample = sampler.sample(two)
                        for other, cards in zip(sampler.others, layout, strict=True):
                            assert sorted(cards) == [c for s in sample.hands[other]
                                                     for c in s]
                        assert hat == getattr(sample, "hat_value", 0)
                        assert one.random() == two.random()  # read alike, to the number
                        checked += 1
                        hats[hidden] += sampler.face_down >= 0
    assert checked > 400 and hats["bot"] > 20 and hats["uniform"] > 20


def test_before_the_play_the_samples_are_states(monkeypatch):
    """Bids still to come, or secret bids to draw: every sample is a state, as before."""
    spy = Spy(monkeypatch)
    table = cardlab.new_game("bobs-hat", players=3, seed=2, secret_bidding=True)
    bots = [make_bot("heuristic", "bobs-hat", s) for s in range(3)]
    checked = 0
    while table.state.phase != "play":
        state = table.state
        replay = table.replay
        hand, index = len(replay.hands), len(replay.hands[-1].actions)
        if len(state.legal_actions()) > 1:
            fast = evaluate(replay, hand, index, rollouts=10, seed=4, bot="random")
            assert fast.values == the_plain_path(replay, hand, index, 10, 4)
            checked += 1
        table.apply(bots[state.to_act()](state, state.to_act()))
    assert checked >= 3 and spy.seen["fast"] == 0


def engine_walk(state, seat: int, card: int, numbers: list[float]):
    """The engine's playout: a clone, ``apply``, random cards by ``play_cards``."""
    end = state.clone()
    end.__class__ = stopped_class(type(state))  # the end of play scores nothing
    end.apply(card)
    if end.turn >= 0:
        play_cards(end, -1, iter(numbers).__next__)
    return end


@pytest.mark.parametrize("game", GAMES)
def test_each_walk_plays_the_engines_cards(game):
    """Every hand known: the search's random walk ends with the engine's summary (Ted's
    Game: the seat's tricks; Bob's Hat: the cards taken per seat and colour that the
    seat's bids read, and whether the seat holds the hat), for every legal card, over every
    option set."""
    checked = 0
    kinds: set[tuple[tuple[int, ...], bool]] = set()
    for options in option_sets(game):
        for seed in range(12):
            state = cardlab.new_game(game, seed=seed, **options).state
            rng = random.Random(seed)
            bid_at_random(state, rng)
            for _ in range(int(rng.random() * 2.5 * state.nseats)):  # some cards
                if len(state.history) + 1 >= len(state.dealt_hands[0]):
                    break
                legal = state.legal_actions()
                state.apply(legal[int(rng.random() * len(legal))])
            seat = int(rng.random() * state.nseats)
            search = playout_search(state, seat)
            masks = [sum(1 << c for s in held for c in s) for held in state.hands]
            numbers = [rng.random() for _ in range(60)]
            for card in state.legal_actions():
                key = search.random_walk(masks, state.turn, card, numbers)
                end = engine_walk(state, seat, card, numbers)
                holds = end.hat_holder() == seat if game == "bobs-hat" else False
                assert key & 1 == holds
                if game == "teds-game":
                    assert key >> 1 == end.tricks_won[seat]
                else:  # what the seat's bids read of the cards taken after the start
                    taken = end.taken()
                    layout = layout_of(state, seat)
                    read = summary_taken(state, layout)(key >> 1)
                    for s in range(state.nseats):
                        assert [read[s][c] for c in layout.colours] == \
                            [taken[s][c] for c in layout.colours]
                        if layout.total:
                            assert sum(read[s]) == sum(taken[s])
                    # and so the seat's score, whoever took the cards it does not read
                    dealt, negative = state.dealt_suits(), state.rules.options["negative_scoring"]
                    assert score_hand(state.bids, read, dealt, state.size, -1, 0, negative)[seat] \
                        == score_hand(state.bids, taken, dealt, state.size, -1, 0, negative)[seat]
                    kinds.add((tuple(layout.colours), layout.total))
                checked += 1
    assert checked > 250
    assert game == "teds-game" or len(kinds) > 3  # several kinds of bids


# the sources, from the package: a compiled module first imported by another of its library
# (mypyc) may carry a wrong __file__
PACKAGE = Path(cardlab.__file__).parent


@pytest.fixture(scope="module")
def pure() -> ModuleType:
    """cardlab/solvekernel.py loaded as plain Python (what runs without a compiler)."""
    spec = importlib.util.spec_from_file_location(
        "cardlab_solvekernel_source", PACKAGE / "solvekernel.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert not module.COMPILED
    return module


def test_the_kernel_source_walks_as_the_loaded_kernel(pure, pure_rollouts, monkeypatch):
    """The plain-Python sources of solvekernel and rolloutkernel walk as the loaded
    (compiled) kernel."""
    solver = importlib.import_module("cardlab.advisor.solver")
    cases = [(g, o, s) for g in GAMES for o in option_sets(g)[:3] for s in range(2)]
    loaded = []
    for game, options, seed in cases:
        for replay, hand, index in play_positions(game, options, seed, per_game=2):
            loaded.append(evaluate(replay, hand, index, rollouts=10, seed=3, bot="random"))
    monkeypatch.setattr(solver, "Search", pure.Search)
    monkeypatch.setattr(randomplay, "random_samples", pure_rollouts.random_samples)
    again = []
    for game, options, seed in cases:
        for replay, hand, index in play_positions(game, options, seed, per_game=2):
            again.append(evaluate(replay, hand, index, rollouts=10, seed=3, bot="random"))
    assert again == loaded and len(loaded) > 10


def test_the_kth_lowest_card_is_the_engines_pick():
    """int(r * n)-th of the legal cards in the order legal_actions lists them."""
    rng = random.Random(8)
    for _ in range(2000):
        cards = sorted(rng.sample(range(60), rng.randint(1, 12)))
        r = rng.random()
        mask = sum(1 << c for c in cards)
        assert kth_lowest(mask, r) == cards[int(r * len(cards))]


@pytest.fixture(scope="module")
def pure_rollouts() -> ModuleType:
    """cardlab/rolloutkernel.py loaded as plain Python (what runs without a compiler)."""
    spec = importlib.util.spec_from_file_location(
        "cardlab_rolloutkernel_source", PACKAGE / "rolloutkernel.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert not module.COMPILED
    return module


def test_the_kernels_rejection_deal_is_its_sources(pure_rollouts):
    """rolloutkernel.deal_reject (the sampler's rejection draw), compiled and as plain
    Python: the same deals (or the same None) from the same numbers, voids or none."""
    rng = random.Random(3)
    suit_of = tuple(c // 13 for c in range(52))
    kept = 0
    for _ in range(300):
        cards = sorted(rng.sample(range(52), rng.randint(6, 30)))
        counts = [rng.randint(0, len(cards) // 4) for _ in range(3)]
        voids = [rng.choice([0, 0, 1, 2, 5, 8]) for _ in counts]
        order = [b for b, v in enumerate(voids) if v]
        free = [b for b, v in enumerate(voids) if not v]
        seed = rng.random()
        got = [module.deal_reject(cards, suit_of, order, voids, counts, free,
                                  random.Random(seed).random, 3)
               for module in (rolloutkernel, pure_rollouts)]
        assert got[0] == got[1]
        if got[0] is not None:
            kept += 1
            assert [len(part) for part in got[0]] == counts
            for part, void in zip(got[0], voids, strict=True):
                assert not any(void >> suit_of[c] & 1 for c in part)
    assert 50 < kept < 300
