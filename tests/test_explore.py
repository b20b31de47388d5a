"""What if? Branching off a line, bots finishing the hand, the variation kept in the replay.

The review's hand 1, trick 4 (Remo leads the red 12, Kathrine the red 20, Brad, out of red,
trumps with the black 3) is the branch point used throughout; what is legal there follows the
rulebook: follow suit if you can, else play any card.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import cardlab
from cardlab import explore
from cardlab.bots import make_bot
from cardlab.cursor import Cursor
from cardlab.replay import Action
from cardlab.validation import validate

ROOT = Path(__file__).resolve().parents[1]
REVIEW = ROOT / "replays" / "norwegian-review.json"
BRAD_TRUMPS = 19  # hand 1: actions before Brad's black 3 (hat, 4 bids, 14 cards)


@pytest.fixture()
def review() -> cardlab.Replay:
    return cardlab.load(REVIEW)


def test_branch_where_brad_took_the_hat(review):
    main = [a.act for a in review.hands[0].actions]
    assert main[BRAD_TRUMPS] == "play black3"
    b = explore.branch(review, hand=1, index=BRAD_TRUMPS, action="play black12", seed=1)
    assert b.path == ((BRAD_TRUMPS, 0),) and b.parent == () and b.index == BRAD_TRUMPS
    assert b.actions[0] == Action("Brad", "play black12")
    line = review.line(1, b.path)
    assert [a.act for a in line[:BRAD_TRUMPS]] == main[:BRAD_TRUMPS]
    assert len(line) == len(main)  # bots played the hand to its end: every card
    assert [a.act for a in review.hands[0].actions] == main  # the main line is untouched
    # the variation replays through the engine and the hand is over
    end = explore.line_state(review, 1, b.path)
    assert end.to_act() < 0 and end.hand_over()
    assert b.parent_scores == [-5, -5, -5, -15]  # the review's hand 1
    assert b.scores == [x - y for x, y in zip(end.totals(), [0, 0, 0, 0], strict=True)]
    rows = b.compare()
    assert [r["seat"] for r in rows] == review.seats
    assert all(r["change"] == r["variation"] - r["main"] for r in rows)
    validate(review)


def test_a_variation_is_saved_and_loaded(review, tmp_path):
    b = explore.branch(review, 1, BRAD_TRUMPS, "play black12", bots="random", seed=2)
    path = tmp_path / "with-variation.json"
    review.save(path)
    again = cardlab.load(path)
    assert again.variation_paths(1) == [b.path]
    assert again.line(1, b.path) == review.line(1, b.path)
    cursor = Cursor(again, hand=1, path=b.path)
    assert cursor.goto(BRAD_TRUMPS + 1).position["action"] == {"seat": "Brad",
                                                                "act": "play black12"}


def test_the_same_branch_twice_is_stored_once_and_is_deterministic(review):
    first = explore.branch(review, 1, BRAD_TRUMPS, "play black12", seed=5)
    again = explore.branch(review, 1, BRAD_TRUMPS, "play black12", seed=5)
    assert again.path == first.path and again.actions == first.actions
    assert len(review.hands[0].actions[BRAD_TRUMPS].variations) == 1


def test_an_illegal_action_is_refused_with_the_rules_reason(review):
    # trick 1: Tone led the blue 20; Remo holds the blue 14, so he must follow blue
    with pytest.raises(cardlab.IllegalActionError, match="must follow blue") as err:
        explore.branch(review, 1, 6, "play red9")
    assert err.value.seat == "Remo" and err.value.hand == 1
    with pytest.raises(cardlab.IllegalActionError, match="does not hold"):
        explore.branch(review, 1, BRAD_TRUMPS, "play blue15")
    assert not review.variation_paths(1)


def test_what_the_line_already_plays_is_not_a_variation(review):
    with pytest.raises(cardlab.CardlabError,
                       match="^play black 3 is what the line already plays here"):
        explore.branch(review, 1, BRAD_TRUMPS, "play black3")
    with pytest.raises(cardlab.CardlabError, match="the hand is over"):
        explore.branch(review, 1, len(review.hands[0].actions), "play black3")
    with pytest.raises(cardlab.CardlabError, match="hands 1 to 2, not 6"):
        explore.branch(review, 6, 0, "hat +10")
    unfinished = cardlab.new_game("bobs-hat", players=3, seed=1)
    unfinished.act("hat -10")
    with pytest.raises(cardlab.CardlabError, match="no recorded action"):
        explore.branch(unfinished.replay, 1, 1, unfinished.state.legal_texts()[0])


def test_a_variation_of_a_variation(review):
    # hand 2: Tone chose the hat +10; try -10, then, in that line, another first bid
    b = explore.branch(review, 2, 0, "hat -10", seed=3)
    assert b.actions[0].seat == "Tone"
    state = explore.line_state(review, 2, b.path, 1)
    played = review.line(2, b.path)[1].act
    other = next(t for t in state.legal_texts() if t != played)
    c = explore.branch(review, 2, 1, other, path=b.path, seed=4)
    assert c.path == (*b.path, (1, 0)) and c.parent == b.path
    assert [a.act for a in review.line(2, c.path)[:2]] == ["hat -10", other]
    assert c.parent_scores == b.scores
    assert set(review.variation_paths(2)) == {b.path, c.path}
    again = explore.compare(review, 2, c.path)
    assert again.scores == c.scores and again.parent_scores == c.parent_scores
    validate(review)


def test_bots_for_the_rest_of_the_hand(review):
    bots = explore.make_bots(review, ["heuristic", "random", make_bot("random", "bobs-hat"),
                                      "heuristic"], seed=1)
    assert len(bots) == 4
    with pytest.raises(cardlab.OptionError, match="4 seats need 4 bots"):
        explore.make_bots(review, ["random"] * 3)
    with pytest.raises(cardlab.OptionError, match="bots are random, heuristic"):
        explore.make_bots(review, "clever")


def test_teds_game_hook_and_an_out_of_turn_bid_change():
    table = cardlab.new_game("teds-game", players=4, seed=3)
    table.play([make_bot("heuristic", "teds-game", seed=s) for s in range(4)])
    replay = table.replay
    cursor = Cursor(replay)
    # the dealer's bid in hand 1 (the last of the four bids)
    pos = cursor.goto(3).position
    assert pos["to_act"] == pos["dealer"] and pos["forbidden_bid"] is not None
    with pytest.raises(cardlab.IllegalActionError) as err:
        explore.branch(replay, 1, 3, f"bid {pos['forbidden_bid']}")
    assert err.value.seat == replay.seats[pos["dealer"]]
    # after the first bid, the first bidder may change it while the next has not bid
    first = replay.hands[0].actions[0]
    bid = int(first.act.split()[1])
    b = explore.branch(replay, 1, 1, f"change bid {bid + 1}", seed=2)
    assert b.actions[0].seat == first.seat  # recorded for the seat that changed its bid
    assert explore.line_state(replay, 1, b.path, 2).snapshot()["bids"][
        replay.seats.index(first.seat)] == bid + 1
    validate(replay)


def test_describe_names_the_branch(review):
    assert explore.describe(review, 1, ()) == "main line"
    b = explore.branch(review, 1, BRAD_TRUMPS, "play black12", seed=1)
    assert explore.describe(review, 1, b.path) == "hand 1, action 20, Brad: play black 12 (+5 more)"


def test_hands_count_from_1_everywhere(review):
    """branch, line_state, compare, describe and Cursor all count hands from 1."""
    b = explore.branch(review, 1, BRAD_TRUMPS, "play black12", seed=1)
    assert b.hand == 1
    cursor = Cursor(review, hand=b.hand, path=b.path)
    assert cursor.step.hand == 1 and list(cursor.hands) == [1]
    assert cursor.last().position["action"]["act"] == review.line(1, b.path)[-1].act
    assert explore.compare(review, b.hand, b.path).scores == b.scores
    # hand 2's first action is Tone's hat choice (Tone deals hand 2)
    assert explore.line_state(review, 2, (), 1).snapshot()["hat"]["value"] == 10
    assert Cursor(review, hand=2).goto(1).position["action"]["act"] == "hat +10"
    for bad in (0, 3, True):
        with pytest.raises(cardlab.CardlabError, match="hands 1 to 2"):
            explore.line_state(review, bad)
        with pytest.raises(cardlab.CardlabError, match="hands 1 to 2"):
            Cursor(review, hand=bad)
