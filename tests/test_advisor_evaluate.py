"""cardlab.advisor.evaluate: every legal action's expected hand score, reproducible, with
common random numbers, sane per-game figures, and every bad input refused by name."""

from __future__ import annotations

import importlib.util
import math
import random

import pytest
from tablegames import after_a_renege, bid_at_random

import cardlab
from cardlab.advisor import Evaluation, evaluate
from cardlab.bots import make_bot
from cardlab.errors import CardlabError

evaluate_mod = importlib.import_module("cardlab.advisor.evaluate")
HAS_SOLVER = importlib.util.find_spec("cardlab.advisor.solver") is not None


def played_to(game: str, seed: int, stop, kind: str = "heuristic", **options):
    """A table whose bots act until ``stop(state)`` holds at a decision; returns
    (replay, hand counted from 1, index)."""
    table = cardlab.new_game(game, seed=seed, **options)
    players = table.replay.rules.players
    bots = [make_bot(kind, game, seed + s) for s in range(players)]
    for _ in range(10_000):
        state = table.state
        if state.to_act() >= 0 and stop(state):
            break
        table.apply(bots[state.to_act()](state, state.to_act()))
    else:
        raise AssertionError("the stop condition never held")
    replay = table.replay
    return replay, len(replay.hands), len(replay.hands[-1].actions)


def mid_play(state) -> bool:
    return state.phase == "play" and len(state.history) == 2 and not state.trick


POSITIONS = [
    ("bobs-hat", {"players": 4}, mid_play),
    ("bobs-hat", {"players": 3, "secret_bidding": True, "hat_reveal": "when-found"},
     lambda s: s.phase == "bid" and s.bidder == 1),
    ("bobs-hat", {"players": 5}, lambda s: s.phase == "hat"),
    ("teds-game", {"players": 4}, mid_play),
    ("teds-game", {"players": 3}, lambda s: s.phase == "bid"),
    ("teds-game", {"players": 6, "mode": "table"}, mid_play),
]


@pytest.mark.parametrize(("game", "options", "stop"), POSITIONS,
                         ids=[f"{g}-{i}" for i, (g, _, _) in enumerate(POSITIONS)])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_every_legal_action_gets_a_reproducible_estimate(game, options, stop, bot):
    replay, hand, index = played_to(game, 3, stop, **options)
    state = cardlab.Cursor(replay, hand=hand).goto(index).state
    result = evaluate(replay, hand, index, rollouts=30, seed=5, bot=bot)
    assert isinstance(result, Evaluation)
    assert list(result.values) == state.legal_texts()
    assert (result.seat, result.hand, result.index, result.rollouts, result.seed, result.bot,
            result.exact) == (state.to_act(), hand, index, 30, 5, bot, False)
    for est in result.values.values():
        assert math.isfinite(est.mean) and est.stderr >= 0
        for key, number in est.figures.items():
            if key != "points against":
                assert 0.0 <= number <= 1.0, key
    assert evaluate(replay, hand, index, rollouts=30, seed=5, bot=bot) == result
    other = evaluate(replay, hand, index, rollouts=30, seed=6, bot=bot)
    assert other.values != result.values  # another seed, other samples
    record = result.record()
    assert record == {"seat": replay.seats[result.seat], "rollouts": 30, "seed": 5,
                      "bot": bot, "values": {t: [e.mean, e.stderr]
                                             for t, e in result.values.items()}}
    assert result.values[result.best()].mean == max(e.mean for e in result.values.values())
    assert result.seat_name == replay.seats[result.seat]


def test_the_seat_may_be_named_or_numbered():
    replay, hand, index = played_to("teds-game", 1, mid_play, players=4)
    result = evaluate(replay, hand, index, rollouts=5)
    by_name = evaluate(replay, hand, index, seat=replay.seats[result.seat], rollouts=5)
    by_number = evaluate(replay, hand, index, seat=result.seat, rollouts=5)
    assert by_name == by_number == result


def test_samples_are_shared_by_every_action(monkeypatch):
    # One sample per rollout, whatever the number of actions: each action plays the same
    # sampled states.
    replay, hand, index = played_to("bobs-hat", 2, mid_play, players=4)
    drawn = []
    real = evaluate_mod.sampler_for

    class Recording:
        def __init__(self, view):
            self.inner = real(view)

        def sample(self, rng):
            state = self.inner.sample(rng)
            drawn.append(state.clone())
            return state

    monkeypatch.setattr(evaluate_mod, "sampler_for", Recording)
    result = evaluate(replay, hand, index, rollouts=12, seed=1, bot="random")
    assert len(result.values) >= 2 and len(drawn) == 12


def test_equivalent_cards_get_identical_estimates():
    # Two cards of one suit with no other card of that suit between them that is still in
    # play are the same card for the rest of the hand. With the same samples and the same
    # random numbers for both (common random numbers), every random rollout scores the same
    # (the k-th legal card is the same card but for that one). (The heuristic bots compare
    # ranks across suits when they lead, so for them the two cards differ.)
    def twins(state):
        if state.phase != "play" or state.trick:
            return False
        legal = state.legal_actions()
        live = {c for held in state.hands for suit in held for c in suit}
        return any(b == a + 1 and state.suit_of[a] == state.suit_of[b]
                   for a in legal for b in legal if b in live)

    for game in ("bobs-hat", "teds-game"):
        replay, hand, index = played_to(game, 4, twins, players=4)
        state = cardlab.Cursor(replay, hand=hand).goto(index).state
        legal = state.legal_actions()
        a = next(a for a in legal if a + 1 in legal and state.suit_of[a] == state.suit_of[a + 1])
        for bot in ("random",):
            result = evaluate(replay, hand, index, rollouts=40, seed=2, bot=bot)
            one = result.values[state.action_text(a)]
            two = result.values[state.action_text(a + 1)]
            if game == "bobs-hat" and (state.rules.deck.rank_of[a] in (14, 15)) != (
                    state.rules.deck.rank_of[a + 1] in (14, 15)):
                continue  # a hat card and a plain one differ
            assert (one.mean, one.stderr) == (two.mean, two.stderr), bot


def test_teds_made_frequency_agrees_with_the_values():
    replay, hand, index = played_to("teds-game", 8, mid_play, players=4)
    state = cardlab.Cursor(replay, hand=hand).goto(index).state
    seat = state.to_act()
    bid, size = state.bids[seat], state.size
    win = 10 + (size if bid == 0 else bid * bid)
    result = evaluate(replay, hand, index, rollouts=60, seed=3)
    for est in result.values.values():
        made = est.figures["made"]
        # made hands score `win`, missed ones lose from 1 to size**3
        assert made * win - (1 - made) * size ** 3 - 1e-9 <= est.mean
        assert est.mean <= made * win - (1 - made) * 1 + 1e-9
        if made in (0.0, 1.0):
            assert (est.mean == win) == (made == 1.0)


def test_bobs_hat_figures_name_the_seats_bids():
    replay, hand, index = played_to("bobs-hat", 9, mid_play, players=4)
    state = cardlab.Cursor(replay, hand=hand).goto(index).state
    from cardlab.games.bobs_hat.engine import bid_text

    words = bid_text(state.bids[state.to_act()]).split(",")
    result = evaluate(replay, hand, index, rollouts=20, seed=1)
    for est in result.values.values():
        assert set(est.figures) == {f"made {w}" for w in words} | {"hat"}


# -- bad input -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def position():
    return played_to("bobs-hat", 5, mid_play, players=4)


def test_an_unknown_seat_is_named(position):
    replay, hand, index = position
    with pytest.raises(CardlabError, match="'Nobody'"):
        evaluate(replay, hand, index, seat="Nobody", rollouts=2)
    with pytest.raises(CardlabError, match="no seat 7"):
        evaluate(replay, hand, index, seat=7, rollouts=2)


def test_a_seat_not_to_act_is_refused_naming_both(position):
    replay, hand, index = position
    to_act = cardlab.Cursor(replay, hand=hand).goto(index).state.to_act()
    other = (to_act + 1) % 4
    with pytest.raises(CardlabError) as err:
        evaluate(replay, hand, index, seat=replay.seats[other], rollouts=2)
    assert replay.seats[other] in str(err.value) and replay.seats[to_act] in str(err.value)


@pytest.mark.parametrize("rollouts", [0, -3, True, 2.5, "10"])
def test_bad_rollouts_are_refused(position, rollouts):
    replay, hand, index = position
    with pytest.raises(CardlabError, match="rollouts"):
        evaluate(replay, hand, index, rollouts=rollouts)


def test_an_unknown_bot_is_named(position):
    replay, hand, index = position
    with pytest.raises(CardlabError, match="'clever'"):
        evaluate(replay, hand, index, rollouts=2, bot="clever")


def test_a_finished_hand_and_a_step_outside_the_line_are_refused():
    table = cardlab.new_game("teds-game", players=3, seed=2, start_size=2)
    bots = [make_bot("random", "teds-game", s) for s in range(3)]
    table.play(bots, until="hand")
    replay = table.replay
    end = len(replay.hands[0].actions)
    with pytest.raises(CardlabError, match="hand 1 is over"):
        evaluate(replay, 1, end, rollouts=2)
    with pytest.raises(CardlabError, match="no step"):
        evaluate(replay, 1, end + 1, rollouts=2)
    with pytest.raises(CardlabError, match="hands count from 1"):
        evaluate(replay, 0, 1, rollouts=2)


def test_nobody_to_act_is_refused():
    # Table mode: a renege ends the hand's play; a new deal is due and nobody acts.
    replay = after_a_renege("bobs-hat", 3, range(40)).replay
    with pytest.raises(CardlabError, match="nobody is to act"):
        evaluate(replay, 1, len(replay.hands[0].actions), rollouts=2)


def test_the_exact_bot(position):
    replay, hand, index = position
    if not HAS_SOLVER:  # the solver is a separate module: without it, a clear refusal
        with pytest.raises(CardlabError, match="solver"):
            evaluate(replay, hand, index, rollouts=2, bot="exact")
        return
    state = cardlab.Cursor(replay, hand=hand).goto(index).state
    result = evaluate(replay, hand, index, rollouts=4, seed=1, bot="exact")
    assert list(result.values) == state.legal_texts() and not result.exact
    from cardlab.advisor.solver import solve

    # all hands open, in the play: each card's value is the solver's, exactly
    opened = evaluate(replay, hand, index, bot="heuristic", open_hands=True)
    assert opened.exact and opened.record()["exact"] is True
    values = solve(state, state.to_act())
    assert {t: e.mean for t, e in opened.values.items()} == {
        state.action_text(c): float(v) for c, v in values.items()}
    assert all(e.stderr == 0 for e in opened.values.values())


def test_open_hands_outside_the_play_rolls_out_from_the_true_position():
    replay, hand, index = played_to("teds-game", 6, lambda s: s.phase == "bid", players=4)
    result = evaluate(replay, hand, index, rollouts=10, seed=1, open_hands=True)
    assert not result.exact and result.rollouts == 10
    # the true position is the same every time: the heuristic playout of a bid is fixed
    assert all(est.stderr == 0 for est in result.values.values())


def test_a_solve_past_its_budget_falls_back_to_monte_carlo_and_says_so():
    # open hands in the play: the solve stops at its node budget, and the evaluation is
    # made by rollouts from the open position instead, not exact, with a note
    replay, hand, index = played_to("bobs-hat", 4, mid_play, players=4)
    opened = evaluate(replay, hand, index, rollouts=6, seed=2, open_hands=True, nodes=5)
    assert not opened.exact and opened.rollouts == 6
    assert opened.note == ("not solved within 5 nodes: Monte Carlo instead, 6 rollouts of "
                           "the heuristic bot from the open position")
    assert opened.record()["note"] == opened.note and "exact" not in opened.record()
    # the very numbers of rollouts from the open position, where no solver plays
    state = cardlab.Cursor(replay, hand=hand).goto(index).state
    texts = state.legal_texts()
    plain = evaluate_mod.run(lambda rng: state.clone(), state.to_act(), texts, 6, 2,
                             "heuristic", "bobs-hat", replay.rules.game.figures,
                             replay.rules.game.outcome())
    assert opened.values == plain
    # within its budget the same evaluation is exact and has no note
    solved = evaluate(replay, hand, index, open_hands=True, nodes=10_000_000)
    assert solved.exact and solved.note == "" and "note" not in solved.record()


def test_the_exact_bots_playouts_past_the_budget_are_finished_by_the_heuristic_bot():
    replay, hand, index = played_to("teds-game", 5, mid_play, players=3, start_size=4)
    stopped = evaluate(replay, hand, index, rollouts=5, seed=3, bot="exact", nodes=1)
    playouts = 5 * len(stopped.values)
    assert stopped.note.startswith("not solved within 1 node in ")
    assert stopped.note.endswith(f" of {playouts} playouts: the heuristic bot finished them")
    # the budget is in nodes, not time: the same call gives the same numbers and note
    assert evaluate(replay, hand, index, rollouts=5, seed=3, bot="exact", nodes=1) == stopped
    # no solve past a budget the solves fit in: no note, the numbers of the default
    roomy = evaluate(replay, hand, index, rollouts=5, seed=3, bot="exact", nodes=10**6)
    assert roomy.note == "" and roomy == evaluate(replay, hand, index, rollouts=5, seed=3,
                                                    bot="exact")
    assert roomy.values != stopped.values  # the solver's play and the heuristic's differ


@pytest.mark.parametrize("nodes", [0, -3, True, 2.5, "100"])
def test_a_bad_budget_is_refused_by_name(nodes):
    replay, hand, index = played_to("teds-game", 5, mid_play, players=3, start_size=4)
    with pytest.raises(CardlabError, match="nodes is a whole number of at least 1"):
        evaluate(replay, hand, index, rollouts=2, bot="exact", nodes=nodes)


def test_exact_is_for_trick_games_only():
    replay = cardlab.example("whot-example")
    cursor = cardlab.Cursor(replay, hand=1)
    index = next(i for i in range(len(cursor.line)) if cursor.goto(i).state.to_act() >= 0)
    with pytest.raises(CardlabError, match="exact"):
        evaluate(replay, 1, index, rollouts=2, bot="exact")


def test_the_run_engine_is_seeded_by_its_argument():
    replay, hand, index = played_to("teds-game", 7, mid_play, players=5)
    first = evaluate(replay, hand, index, rollouts=8, seed=11, bot="random")
    random.seed(999)  # the global generator plays no part
    assert evaluate(replay, hand, index, rollouts=8, seed=11, bot="random") == first


@pytest.mark.parametrize("options", cardlab.get_game("bobs-hat").rules_class
                         .conformance_option_sets())
def test_bobs_hat_figures_agree_with_the_engines_score_parts(options):
    from cardlab.games.bobs_hat.advice import figures as bobs_hat_figures

    for seed in range(15):
        table = cardlab.new_game("bobs-hat", seed=seed, **options)
        state = table.state
        start = state.clone()
        state.random_playout(random.Random(seed).random)
        for seat in range(state.rules.players):
            figures = bobs_hat_figures(state, seat, start)
            parts = state.score_parts()
            expected = {f"made {word}": float(points > 0)
                        for word, points in (parts[seat] if parts else {}).items()
                        if word not in ("hat", "renege")}
            expected["hat"] = float(state.hat_holder() == seat)
            assert figures == expected


@pytest.mark.parametrize("game", ["bobs-hat", "teds-game"])
def test_the_outcome_hooks_score_as_the_engines_end_of_hand(game):
    """The fast path's outcome (play stopped at its end, scored once by the game's scoring
    function) equals the engine's own end of hand: the sheet's row and the figures hook."""
    from cardlab.advisor.sample import figures_for, outcome_for
    from cardlab.kernel import play_cards

    figures, outcome = figures_for(game), outcome_for(game)
    assert outcome is not None
    checked = 0
    for options in cardlab.get_game(game).rules_class.conformance_option_sets():
        for seed in range(12):
            state = cardlab.new_game(game, seed=seed, **options).state
            rng = random.Random(seed)
            bid_at_random(state, rng)
            for _ in range(int(rng.random() * 3) * state.rules.players):  # some tricks
                if len(state.history) + 1 >= len(state.dealt_hands[0]):
                    break  # the last trick is left to the playouts
                legal = state.legal_actions()
                state.apply(legal[int(rng.random() * len(legal))])
            numbers = [rng.random() for _ in range(200)]
            start = state.clone()
            engine = state.clone()
            engine.random_playout(iter(numbers).__next__)
            fast = state.clone()
            fast.__class__ = outcome.stopped(type(state))
            play_cards(fast, -1, iter(numbers).__next__)
            assert fast.turn == -1 and fast.history == engine.history
            for seat in range(state.rules.players):
                value, figs = outcome.score(fast, seat)
                assert value == evaluate_mod._hand_score(engine, seat, start)
                assert figs == figures(engine, seat, start)
                checked += 1
    assert checked > 100


def test_the_fast_path_gives_the_plain_paths_numbers():
    """evaluate with the outcome hook (the fast path) and without it: the same estimates."""
    def last_card(state) -> bool:  # the action itself ends the play
        return (state.phase == "play" and len(state.trick) == state.nseats - 1
                and all(sum(map(len, held)) <= 1 for held in state.hands))

    for game in ("bobs-hat", "teds-game"):
        for stop in (mid_play, last_card):
            replay, hand, index = played_to(game, 4, stop)
            for bot in ("random", "heuristic"):
                fast = evaluate(replay, hand, index, rollouts=30, seed=5, bot=bot)
                plain = evaluate_mod.run(*_run_args(replay, hand, index, bot), None)
                assert fast.values == plain


def _run_args(replay, hand, index, bot):
    from cardlab.advisor.sample import figures_for, sampler_for, seat_view

    cursor = cardlab.Cursor(replay, hand=hand)
    state = cursor.goto(cursor.find(hand, index)).state.clone()
    seat = state.to_act()
    actions = [(list(replay.seats).index(a.seat), a.act) for a in cursor.line[:index]]
    draw = sampler_for(seat_view(state, seat, actions)).sample
    return (draw, seat, state.legal_texts(), 30, 5, bot, replay.game,
            figures_for(replay.game))


def reference_bobs_play(state, seat, legal):
    """The Bob's Hat heuristic's card play as first written (cardlab.games.bobs_hat.bot before it
    was made fast for the advisor's rollouts): the fast one must choose the same cards."""
    from cardlab.games.bobs_hat.engine import DECK, FEWEST, IS_HAT, MOST

    suit_of, rank_of = DECK.suit_of, DECK.rank_of

    def value(cards):
        flags = state.bids[seat]
        v = float(sum(1 for c in cards if flags & MOST[suit_of[c]]))
        if flags & FEWEST:
            v -= len(cards) + 1
        if any(IS_HAT[c] for c in cards):
            v += state.hat_value / 5
        return v

    def beats(card, best):
        if suit_of[card] == suit_of[best]:
            return card > best
        return suit_of[card] == state.trump

    trick = state.trick
    if not trick:
        flags = state.bids[seat]
        if flags & FEWEST:
            return min(legal, key=lambda c: rank_of[c])
        wanted = [c for c in legal if flags & MOST[suit_of[c]]]
        return max(wanted or legal, key=lambda c: rank_of[c])
    winners = [c for c in legal if beats(c, state.win_card)]
    losers = [c for c in legal if c not in winners]
    if value(trick + [legal[0]]) > 0 and winners:
        return min(winners, key=lambda c: (suit_of[c] == state.trump, rank_of[c]))
    if losers:
        return max(losers, key=lambda c: (not IS_HAT[c], rank_of[c]))
    return min(legal, key=lambda c: rank_of[c])


@pytest.mark.parametrize("options", cardlab.get_game("bobs-hat").rules_class
                         .conformance_option_sets())
def test_the_fast_bobs_hat_heuristic_plays_as_the_reference(options):
    checked = 0
    for seed in range(12):
        table = cardlab.new_game("bobs-hat", seed=seed, **options)
        bot = make_bot("heuristic", "bobs-hat", seed)
        other = make_bot("random", "bobs-hat", seed)
        state = table.state
        while state.to_act() >= 0:
            seat = state.to_act()
            if state.phase == "play":
                assert bot(state, seat) == reference_bobs_play(state, seat,
                                                               state.legal_actions())
                checked += 1
            state.apply(other(state, seat) if seed % 2 else bot(state, seat))
    assert checked > 100


def test_whot_values_are_points_against_and_the_lowest_is_best():
    replay = cardlab.example("whot-example")
    cursor = cardlab.Cursor(replay, hand=1)
    index = next(i for i in range(len(cursor.line))
                 if len(cursor.goto(i).state.legal_actions()) > 1)
    result = evaluate(replay, 1, index, rollouts=20, seed=1, bot="heuristic")
    assert result.low_score_wins
    assert result.values[result.best()].mean == min(e.mean for e in result.values.values())
    for est in result.values.values():
        assert est.mean == pytest.approx(est.figures["points against"])
        assert 0.0 <= est.figures["out first"] <= 1.0
