"""The exact open-hand solver (cardlab/advisor/solver.py) against brute force through the engine.

The brute force is a plain minimax over ``clone``/``apply`` of the engine itself, with no
pruning, no table and no equivalent cards, scored by the row the engine writes on the score
sheet when the hand ends: so the solver's search, its summary of the tricks, its equivalent
cards and its leaf scoring are all checked against the rules as the engine plays them.
"""

from __future__ import annotations

import doctest
import importlib
import os
import random
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kernelsource import load_source, pure_kernel

import cardlab
from cardlab import solvekernel
from cardlab.advisor import solver
from cardlab.advisor.solver import best_line, solve, value
from cardlab.errors import CardlabError, SolveBudgetError
from cardlab.game import State

BOBS_TRUMPS = ("blue", "red", "black", "gray")


def hand_score(state: State, seat: int) -> int:
    """The seat's score for the hand just ended: its row on the engine's score sheet."""
    assert state.hand_over()
    return state.sheet[-1][seat]  # type: ignore[attr-defined]


def brute(state: State, seat: int) -> int:
    if state.phase != "play":  # type: ignore[attr-defined]
        return hand_score(state, seat)
    values = [brute(_after(state, card), seat) for card in state.legal_actions()]
    return max(values) if state.to_act() == seat else min(values)


def brute_root(state: State, seat: int) -> dict[int, int]:
    return {card: brute(_after(state, card), seat) for card in state.legal_actions()}


def _after(state: State, action: int) -> State:
    child = state.clone()
    child.apply(action)
    return child


def bobs_position(rng: random.Random, cards_left: int | None = None) -> State:
    """A Bob's Hat hand in its play, random options, trump (gray too), hat, bids and cards
    played; at most ``cards_left`` cards each (default: small enough for brute force)."""
    players = rng.choice((3, 4, 5))
    options = {"players": players, "negative_scoring": rng.random() < 0.5,
               "no_bids": rng.random() < 0.3, "double_fewest": rng.random() < 0.3,
               "opening": rng.choice(("dealer", "left-of-dealer")),
               "hat_reveal": rng.choice(("when-found", "at-once"))}
    state = cardlab.get_game("bobs-hat").rules(**options).new_state()
    record = state.seeded_chance(rng.randrange(10**9))
    record["trump"] = rng.choice(BOBS_TRUMPS)
    state.apply_chance(record)
    while state.phase != "play":  # type: ignore[attr-defined]
        state.apply(rng.choice(state.legal_actions()))
    left = cards_left if cards_left is not None else {3: 4, 4: 3, 5: 2}[players]
    target = rng.randint(1, left)
    while _tricks_left(state) > target:
        state.apply(rng.choice(state.legal_actions()))
    return _into_trick(state, rng)


def teds_position(rng: random.Random, most: int | None = None) -> State:
    """A Ted's Game hand of 1-4 cards (3-5 players) in its play, random bids and cards (up to
    ``most`` cards: larger than brute force can take)."""
    players = rng.choice((3, 4, 5))
    size = rng.randint(1, most or {3: 4, 4: 3, 5: 2}[players])
    state = cardlab.new_game("teds-game", players=players, seed=rng.randrange(10**9),
                             start_size=size, mode=rng.choice(("strict", "table"))).state
    while state.phase != "play":  # type: ignore[attr-defined]
        state.apply(rng.choice(state.legal_actions()))
    return _into_trick(state, rng)


def _tricks_left(state: State) -> int:
    return len(state.dealt_hands[0]) - len(state.history)  # type: ignore[attr-defined]


def _into_trick(state: State, rng: random.Random) -> State:
    """Play a few cards of the current trick, so positions start mid-trick too."""
    for _ in range(rng.randrange(state.rules.players)):
        if _tricks_left(state) == 1:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def check_against_brute_force(state: State, rng: random.Random) -> None:
    seat = rng.randrange(state.rules.players)
    before = state.snapshot()
    values = solve(state, seat)
    assert values == brute_root(state, seat)
    best = max(values.values()) if state.to_act() == seat else min(values.values())
    assert value(state, seat) == best == brute(state, seat)
    assert state.snapshot() == before  # the solver leaves the position as it found it


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32))
def test_bobs_hat_values_are_brute_force_values(seed):
    rng = random.Random(seed)
    check_against_brute_force(bobs_position(rng), rng)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32))
def test_teds_game_values_are_brute_force_values(seed):
    rng = random.Random(seed)
    check_against_brute_force(teds_position(rng), rng)


def test_many_fixed_positions_of_both_games():
    # A seeded sweep beside hypothesis's draws: every player count, mid-trick starts and
    # (Bob's Hat) every trump card appear in it.
    rng = random.Random(2026)
    seen = set()
    for i in range(240):
        state = bobs_position(rng) if i % 2 else teds_position(rng)
        seen.add((state.rules.name, state.rules.players, len(state.trick) > 0,  # type: ignore[attr-defined]
                  state.trump))  # type: ignore[attr-defined]
        check_against_brute_force(state, rng)
    assert {(g, n) for g, n, _, _ in seen} >= {(g, n) for g in ("bobs-hat", "teds-game")
                                              for n in (3, 4, 5)}
    assert {t for g, _, _, t in seen if g == "bobs-hat"} == {-1, 0, 1, 2}
    assert {m for _, _, m, _ in seen} == {True, False}


@pytest.mark.parametrize("game", ["bobs-hat", "teds-game"])
def test_the_best_line_scores_the_value_in_the_engine(game):
    # Larger hands than brute force can take: following the solver's line through the
    # engine ends the hand with exactly the value it promised, for the seat and each seat.
    rng = random.Random(7)
    for _ in range(4):
        if game == "bobs-hat":
            state = bobs_position(rng, cards_left=5)
        else:
            state = cardlab.new_game(game, players=4, seed=rng.randrange(10**6),
                                     start_size=5).state
            while state.phase != "play":  # type: ignore[attr-defined]
                state.apply(rng.choice(state.legal_actions()))
        seat = rng.randrange(state.rules.players)
        promised = value(state, seat)
        line = best_line(state, seat)
        here = state.clone()
        for card in line:
            here.apply(card)
        assert hand_score(here, seat) == promised
        values = solve(state, state.to_act())
        assert line[0] in values
        if state.to_act() == seat:
            assert values[line[0]] == promised == max(values.values())


def test_equivalent_cards_share_a_value_and_others_need_not():
    # Ted's Game, 3 players, 4 cards: a seat holding a run of one suit (no card of the run's
    # gap elsewhere) gets one value for the run; the brute force agrees card by card.
    rng = random.Random(11)
    runs = 0
    for _ in range(200):
        state = teds_position(rng)
        seat = state.to_act()
        held = sorted(state.legal_actions())
        in_play = {c for hand in state.hands for suit in hand for c in suit}  # type: ignore[attr-defined]
        in_play.update(state.trick)  # type: ignore[attr-defined]
        values = solve(state, seat)
        for low, high in zip(held, held[1:], strict=False):
            same_suit = state.suit_of[low] == state.suit_of[high]  # type: ignore[attr-defined]
            if same_suit and not any(low < c < high for c in in_play):
                runs += 1
                assert values[low] == values[high]
    assert runs > 20


def test_a_seat_with_a_no_bid_scores_the_same_whatever_is_played():
    rng = random.Random(5)
    found = 0
    while found < 5:
        state = bobs_position(rng)
        for seat, flags in enumerate(state.bids):  # type: ignore[attr-defined]
            if flags == 32:  # bobs_hat.NO_BID
                found += 1
                assert set(solve(state, seat).values()) == {brute(state, seat)}


# from the package: a compiled module first imported by another of its library (mypyc) may
# carry a wrong __file__
SOURCE = Path(cardlab.__file__).with_name("solvekernel.py")
RANKS_SOURCE = SOURCE.with_name("solveranks.py")
# the modules that build a game's search (Game.solver_search)
BUILDERS = ("cardlab.games.trick_taking.solving", "cardlab.games.bobs_hat.solving")


@pytest.fixture(scope="module")
def pure() -> ModuleType:
    """The solver kernel's source loaded as ordinary Python, beside the compiled one, on the
    sources of the engine kernel (whose rules of trick play it asks) and of the ranks."""
    pure = pure_kernel()
    ranks = load_source("cardlab_solveranks_pure", RANKS_SOURCE)
    module = load_source("cardlab_solvekernel_pure", SOURCE, pure, {"cardlab.solveranks": ranks})
    assert not module.COMPILED and module.beats is pure.beats and module.Ranks is ranks.Ranks
    module.ranks_module = ranks
    return module


def use(search_class: type, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every game build its search with ``search_class``."""
    for name in BUILDERS:
        monkeypatch.setattr(importlib.import_module(name), "Search", search_class)


def searched(state: State, seat: int, partition: bool = True,
             nodes: int | None = None) -> tuple[dict[int, int], int]:
    """The values of the cards of the seat to act, and the nodes the search took: with
    ``partition`` False, every position is a class of its own in the table."""
    search, turn, trick, leader, left, settled = solver._prepare(state, seat, nodes)
    search.partition = partition
    return search.root_values(trick, leader, left, turn), search.nodes


def test_the_loaded_solver_kernel_is_compiled_and_current():
    if os.environ.get("CARDLAB_PURE") == "1":
        assert not solvekernel.COMPILED, "CARDLAB_PURE=1 was set, yet a compiled kernel loaded"
        return
    assert solvekernel.COMPILED, (
        "cardlab/solvekernel.py runs as plain Python: the install could not compile it with "
        "mypyc (see pip's warning). Set CARDLAB_PURE=1 to test the pure kernel on purpose.")
    if os.environ.get("CARDLAB_TEST_INSTALLED") == "1":
        return  # a wheel's libraries and sources were built together; staleness is a checkout's
    for source in (SOURCE, RANKS_SOURCE):
        built = max(path.stat().st_mtime for path in SOURCE.parent.iterdir()
                    if path.name.startswith(source.stem) and path.suffix in (".so", ".pyd"))
        assert built >= source.stat().st_mtime, (
            f"cardlab/{source.name} changed after it was compiled, so the old code still "
            "runs: rebuild it with `make test` (or `pip install -e .`)")


def test_the_source_gives_the_values_the_loaded_kernel_gives(pure, monkeypatch):
    rng = random.Random(17)
    states = [bobs_position(rng, cards_left=4) for _ in range(6)]
    states += [teds_position(rng) for _ in range(6)]
    seats = [rng.randrange(state.rules.players) for state in states]
    states += [teds_position(rng, most=6) for _ in range(4)]
    seats = [rng.randrange(state.rules.players) for state in states]
    loaded = [searched(state, seat, partition) for state, seat in zip(states, seats, strict=True)
              for partition in (True, False)]
    use(pure.Search, monkeypatch)
    assert solver._prepare(states[0], 0, None)[0].__class__ is pure.Search
    # the same values after the same number of nodes: the very same search
    assert [searched(state, seat, partition)
            for state, seat in zip(states, seats, strict=True)
            for partition in (True, False)] == loaded
    # the table is only a cache: one that keeps half of it every few positions gives the
    # same values
    monkeypatch.setattr(pure, "MAX_TABLE", 3)
    assert [searched(state, seat)[0] for state, seat in zip(states, seats, strict=True)] == \
        [values for values, _ in loaded[::2]]
    for module in (pure, pure.ranks_module):  # a compiled module hides its examples
        result = doctest.testmod(module)
        assert result.attempted >= 2 and result.failed == 0


def larger_position(seed: int) -> tuple[State, int]:
    """A position of up to 6 (Bob's Hat) or 7 (Ted's Game) cards each, more than brute force
    can take, and a seat."""
    rng = random.Random(seed)
    state = bobs_position(rng, cards_left=6) if seed % 2 else teds_position(rng, most=7)
    return state, rng.randrange(state.rules.players)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_classes_of_positions_give_the_values_of_positions_one_by_one(seed):
    # Larger hands than brute force can take: the table of classes (partition search) and
    # a table of single positions (every card relevant) value every card alike.
    state, seat = larger_position(seed)
    (classes, fewer), (single, more) = searched(state, seat), searched(state, seat, False)
    assert classes == single
    assert fewer <= more * 1.5  # classes save search as a rule (and never cost much)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_the_first_guess_changes_the_nodes_searched_not_the_values(seed):
    # Larger hands than brute force can take: a search guessing its first card's value from
    # random playouts, and one climbing from the score as it stands (as small ones do),
    # value every card alike, and the guessing one leaves the summary and the hat as it
    # found them (a second solve with it gives the same values again).
    state, seat = larger_position(seed)
    search, turn, trick, leader, left, settled = solver._prepare(state, seat, None)
    plain, _, _, _, _, _ = solver._prepare(state, seat, None)
    search.guess_from = 1
    plain.guess_from = left + 1
    guessed = search.root_values(trick, leader, left, turn)
    assert guessed == plain.root_values(trick, leader, left, turn)
    assert search.root_values(trick, leader, left, turn) == guessed


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_the_order_cards_are_tried_in_changes_the_nodes_searched_not_the_values(seed, bold):
    # Larger hands than brute force can take: move ordering (a bold card first or not, by
    # the cuts each kind made) decides how many nodes a search takes and never a value. A
    # search held to one kind of first card values every card as the learning one does.
    state, seat = larger_position(seed)
    search, turn, trick, leader, left, settled = solver._prepare(state, seat, None)
    held, _, _, _, _, _ = solver._prepare(state, seat, None)
    held.cuts = [1 << 40 if bold else -1 << 40] * len(held.cuts)
    learned = search.root_values(trick, leader, left, turn)
    assert held.root_values(trick, leader, left, turn) == learned


def test_a_solve_stops_at_its_budget_at_the_same_node_compiled_or_not(pure, monkeypatch):
    state = bobs_position(random.Random(0), cards_left=5)
    seat = state.to_act()
    full, used = searched(state, seat)
    assert used > 100
    for module in (solvekernel, pure):
        use(module.Search, monkeypatch)
        for nodes in (1, used // 2, used - 1):
            with pytest.raises(SolveBudgetError) as caught:
                solve(state, seat, nodes=nodes)
            assert str(caught.value) == f"not solved within {nodes:,} node" + \
                ("s" if nodes > 1 else "")
            assert caught.value.nodes == nodes
        assert solve(state, seat, nodes=used) == full == solve(state, seat, nodes=None)
        assert searched(state, seat)[1] == used


def test_value_and_the_best_line_have_budgets_too():
    state = bobs_position(random.Random(0), cards_left=5)
    seat = state.rules.players - 1
    with pytest.raises(SolveBudgetError, match="not solved within 3 nodes"):
        value(state, seat, nodes=3)
    # the line's budget is for all its solves: one a card, each smaller than the last
    line = best_line(state, seat, nodes=None)
    first = searched(state, seat)[1]
    with pytest.raises(SolveBudgetError, match=f"not solved within {first + 1:,} nodes"):
        best_line(state, seat, nodes=first + 1)
    assert best_line(state, seat, nodes=10_000_000) == line
    for nodes in (0, -1, True, 1.5, "10"):
        with pytest.raises(CardlabError, match="nodes is a whole number of at least 1"):
            solve(state, seat, nodes=nodes)  # type: ignore[arg-type]


def _bids_open() -> State:
    table = cardlab.new_game("teds-game", players=3, seed=1, start_size=2)
    return table.state


def test_refusals_name_what_is_wrong():
    state = _bids_open()
    with pytest.raises(CardlabError, match="play of the cards, once every bid is made: "
                                            "hand 1 is in its bid phase"):
        solve(state, 0)
    hat = cardlab.new_game("bobs-hat", players=3, seed=1).state
    with pytest.raises(CardlabError, match="hand 1 is in its hat phase"):
        value(hat, 0)
    whot = cardlab.new_game("whot", players=2, seed=1).state
    with pytest.raises(CardlabError, match="trick-taking games .* not Whot"):
        solve(whot, 0)
    play = _bids_open()
    while play.phase != "play":  # type: ignore[attr-defined]
        play.apply(play.legal_actions()[0])
    for seat in (-1, 3, True, "seat 1"):
        with pytest.raises(CardlabError, match="a seat from 0 to 2"):
            solve(play, seat)  # type: ignore[arg-type]
    while play.phase == "play":  # type: ignore[attr-defined]
        play.apply(play.legal_actions()[0])
    with pytest.raises(CardlabError, match="the hand is over"):
        solve(play, 0)
    with pytest.raises(CardlabError, match="the hand is over"):
        best_line(play, 0)
