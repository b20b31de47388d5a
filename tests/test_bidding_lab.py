"""The Ted's Game bidding lab (issue 11, point 6): every bid's trick distribution and value.

The lab's numbers come from the advisor's rollouts; what must hold whatever they are: the
probabilities of each bid sum to 1, the chance of making a bid is the chance of its trick
count, the expected score is the distribution's expectation under the engine's own scoring,
it agrees with :func:`cardlab.advisor.evaluate` on the same seed, and the hook's forbidden bid
is marked and not offered.
"""

from __future__ import annotations

import pytest

import cardlab
from cardlab.advisor import evaluate
from cardlab.advisor.bidding import bidding_lab
from cardlab.bots import make_bot
from cardlab.errors import CardlabError, OptionError
from cardlab.explore import line_state
from cardlab.games.teds_game.engine import score


def played(players: int = 4, seed: int = 6, start_size: int = 3) -> cardlab.Replay:
    table = cardlab.new_game("teds-game", players=players, seed=seed, start_size=start_size)
    table.play([make_bot("heuristic", "teds-game", seed=s) for s in range(players)])
    return table.replay


@pytest.mark.parametrize("players, seed, hand", [(4, 6, 1), (3, 2, 2), (5, 8, 3)])
def test_every_seats_lab_is_a_distribution_valued_by_the_engines_scoring(players, seed, hand):
    replay = played(players, seed)
    dealer = None
    for seat in range(players):
        lab = bidding_lab(replay, hand, seat=seat, rollouts=30, seed=seed)
        assert lab.seat == seat and lab.hand == hand
        assert len(lab.bids) == lab.dealt + 1
        assert [b.bid for b in lab.bids] == list(range(lab.dealt + 1))
        for outcome in lab.bids:
            if not outcome.offered:
                assert outcome.bid == lab.forbidden
                assert outcome.mean is outcome.stderr is outcome.tricks is outcome.made is None
                continue
            assert len(outcome.tricks) == lab.dealt + 1
            assert all(0 <= p <= 1 for p in outcome.tricks)
            assert sum(outcome.tricks) == pytest.approx(1.0, abs=1e-12)
            assert outcome.made == outcome.tricks[outcome.bid]
            # each probability is a count over the rollouts
            assert all(abs(p * 30 - round(p * 30)) < 1e-9 for p in outcome.tricks)
            scores = [score(outcome.bid, taken, lab.dealt) for taken in range(lab.dealt + 1)]
            assert lab.scores(outcome.bid) == tuple(scores)
            assert outcome.mean == pytest.approx(
                sum(p * s for p, s in zip(outcome.tricks, scores, strict=True)), abs=1e-9)
            assert outcome.stderr >= 0
        # the state of the game there: the dealer alone is hooked
        state = line_state(replay, hand, (), lab.index)
        assert state.to_act() == seat
        if seat == state.dealer:
            dealer = lab
            hooked = state.forbidden_bid()
            assert lab.forbidden == (None if hooked < 0 else hooked)
        else:
            assert lab.forbidden is None and all(b.offered for b in lab.bids)
        assert lab.best() in [b.bid for b in lab.bids if b.offered]
        assert lab.outcome(lab.best()).mean == max(b.mean for b in lab.bids if b.offered)
        table = lab.table()
        assert [row["bid"] for row in table] == list(range(lab.dealt + 1))
        assert [row["offered"] for row in table] == [b.offered for b in lab.bids]
    assert dealer is not None


def test_the_lab_agrees_with_evaluate_on_the_same_samples():
    replay = played()
    lab = bidding_lab(replay, 1, seat=2, rollouts=25, seed=7, bot="random")
    values = evaluate(replay, 1, lab.index, rollouts=25, seed=7, bot="random").values
    for outcome in lab.bids:
        if outcome.offered:
            estimate = values[f"bid {outcome.bid}"]
            assert outcome.mean == estimate.mean and outcome.stderr == estimate.stderr
            assert outcome.made == estimate.figures["made"]
    assert lab == bidding_lab(replay, 1, seat=2, rollouts=25, seed=7, bot="random")


def test_the_hooks_forbidden_bid_is_marked_not_offered():
    table = cardlab.new_game("teds-game", players=3, seed=4, start_size=3)
    table.act("bid 1")
    table.act("bid 1")  # 1 + 1 + x = 3 tricks: the dealer may not bid 1
    dealer = table.state.dealer
    lab = bidding_lab(table.replay, 1, seat=table.replay.seats[dealer], rollouts=10)
    assert lab.forbidden == 1
    assert [b.bid for b in lab.bids if not b.offered] == [1]
    assert lab.outcome(1).mean is None and lab.best() != 1
    with pytest.raises(OptionError, match="bids are 0 to 3"):
        lab.outcome(4)


def test_the_first_bidder_is_the_default_seat_and_a_line_must_reach_the_seats_turn():
    replay = played()
    lab = bidding_lab(replay, 1, rollouts=5)
    assert lab.index == 0
    assert lab.seat == line_state(replay, 1, (), 0).to_act()
    table = cardlab.new_game("teds-game", players=3, seed=4, start_size=3)
    first = table.state.to_act()
    table.act("bid 1")
    # the seat that has bid: its decision is the position before its bid
    assert bidding_lab(table.replay, 1, seat=first, rollouts=5).index == 0
    second = table.state.to_act()
    assert bidding_lab(table.replay, 1, seat=second, rollouts=5).index == 1  # the line's end
    dealer = table.state.dealer
    with pytest.raises(CardlabError, match="no bidding decision of"):  # not reached yet
        bidding_lab(table.replay, 1, seat=dealer, rollouts=5)


@pytest.mark.parametrize("options, words", [
    ({"rollouts": 0}, "rollouts is a whole number of at least 1"),
    ({"bot": "oracle"}, "the bot is one of random, heuristic, exact, not 'oracle'"),
    ({"seed": "x"}, "seed is a whole number"),
    ({"seat": "Nobody"}, "no seat 'Nobody'"),
    ({"seat": 9}, "no seat 9"),
    ({"hand": 99}, "hands count from 1"),
])
def test_bad_options_name_what_is_wrong(options, words):
    arguments = {"hand": 1, **options}
    with pytest.raises(CardlabError) as caught:
        bidding_lab(played(), **arguments)
    assert words in str(caught.value)


def test_the_lab_is_for_teds_game():
    with pytest.raises(OptionError, match="for Ted's Game, not bobs-hat"):
        bidding_lab(cardlab.example("norwegian-review"), 1)
