"""The Norwegian review's walkthrough, checked trick by trick against the review's account.

The expected values below are read off the review's text (who led what, who won, where the
hat went, what each player scored), independently of scripts/make_walkthrough.py.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import cardlab
from cardlab.cursor import Cursor

ROOT = Path(__file__).resolve().parents[1]
REPLAY = ROOT / "replays" / "norwegian-review.json"

# (leader, [cards in play order], winner, hat holder after the trick) per the review.
REVIEW_TRICKS = {
    1: [
        ("Tone", ["blue20", "blue14", "blue9", "blue5"], "Tone", "Tone"),
        ("Tone", ["blue4", "red9", "blue15", "blue18"], "Brad", "Brad"),
        ("Brad", ["black14", "red6", "black15", "red11"], "Remo", "Remo"),
        ("Remo", ["red12", "red20", "black3", "red14"], "Brad", "Brad"),
        ("Brad", ["black12", "red2", "red7", "blue17"], "Brad", "Brad"),
    ],
    2: [
        ("Remo", ["blue13", "blue19", "red5", "blue7"], "Brad", None),
        ("Brad", ["black17", "black20", "black18", "red2"], "Kathrine", None),
        ("Kathrine", ["red20", "red15", "red12", "red10"], "Kathrine", "Kathrine"),
        ("Kathrine", ["blue10", "red19", "black5", "black19"], "Brad", "Kathrine"),
        ("Brad", ["black1", "black16", "black15", "red7"], "Kathrine", "Kathrine"),
        ("Kathrine", ["blue5", "black10", "red16", "red18"], "Remo", "Kathrine"),
    ],
}
REVIEW_SCORES = {1: [-5, -5, -5, -15], 2: [-10, -5, 21, -10]}  # Tone, Remo, Kathrine, Brad
REVIEW_BIDS = {
    1: [["most-blue"], ["most-red"], ["most-blue"], ["most-black"]],
    2: [["most-red", "most-black"], ["most-black"], ["most-red"], ["most-red", "most-black"]],
}
REVIEW_TRUMP_AND_HAT = {1: ("black", -10), 2: ("red", 10)}


@pytest.fixture(scope="module")
def replay() -> cardlab.Replay:
    return cardlab.load(REPLAY)


def end_of_hand(replay: cardlab.Replay, hand: int) -> dict:
    cursor = Cursor(replay)
    return cursor.goto(cursor.find(hand, len(replay.hands[hand - 1].actions))).position


def test_seats_and_house_rules(replay):
    assert replay.seats == ["Tone", "Remo", "Kathrine", "Brad"]
    assert replay.options["opening"] == "left-of-dealer"
    assert replay.options["hat_reveal"] == "at-once"
    assert replay.options["until_deck_runs_out"] is True
    assert replay.options["hands"] == 11  # 5, 6, ... 15 cards: 60 cards for 4 players
    assert replay.seed is None  # a real game, entered by hand: it replays without a seed


@pytest.mark.parametrize("hand", [1, 2])
def test_every_trick_as_the_review_tells_it(replay, hand):
    seats = replay.seats
    pos = end_of_hand(replay, hand)
    assert pos["hand_size"] == hand + 4
    assert seats[pos["dealer"]] == ["Brad", "Tone"][hand - 1]
    played = []
    for trick in pos["tricks"]:
        played.append((seats[trick["leader"]], [code for _, code in trick["cards"]],
                       seats[trick["winner"]]))
    assert played == [(lead, cards, win) for lead, cards, win, _ in REVIEW_TRICKS[hand]]


@pytest.mark.parametrize("hand", [1, 2])
def test_the_hats_travels(replay, hand):
    cursor = Cursor(replay)
    seats = replay.seats
    holders = []
    done = 0
    last = cursor.find(hand, len(replay.hands[hand - 1].actions))
    for step in range(cursor.find(hand, 0), last + 1):
        pos = cursor.goto(step).position
        if len(pos["tricks"]) > done:  # a trick has just been taken
            done = len(pos["tricks"])
            holder = pos["hat"]["holder"]
            holders.append(None if holder is None else seats[holder])
    assert holders == [h for *_, h in REVIEW_TRICKS[hand]]


@pytest.mark.parametrize("hand", [1, 2])
def test_bids_trump_hat_and_scores(replay, hand):
    pos = end_of_hand(replay, hand)
    assert pos["bids"] == REVIEW_BIDS[hand]
    assert (pos["trump"], pos["hat"]["value"]) == REVIEW_TRUMP_AND_HAT[hand]
    assert replay.hands[hand - 1].scores == REVIEW_SCORES[hand]
    assert pos["sheet"][hand - 1] == REVIEW_SCORES[hand]


def test_the_reviews_counts_of_cards_taken(replay):
    taken = end_of_hand(replay, 1)["taken"]
    tone, remo, kathrine, brad = taken
    assert tone["blue"] == brad["blue"] == 4 and kathrine["blue"] == 0  # "fire hver"
    assert brad["red"] == remo["red"] + 4  # "fire røde kort flere enn ham"
    assert brad["black"] == remo["black"] == 2  # "to hver"
    taken = end_of_hand(replay, 2)["taken"]
    assert sum(taken[0].values()) == 0  # Tone takes no trick at all
    assert taken[2]["red"] == 6  # Kathrine: "seks røde kort"


def test_totals_after_two_hands(replay):
    pos = end_of_hand(replay, 2)
    assert pos["totals"] == [-15, -10, 16, -25]
    assert pos["phase"] == "deal"  # the game goes on: hand 3 (7 cards) is due


def test_notes_in_both_languages_on_the_commented_steps(replay):
    commented = [a for h in replay.hands for a in h.actions if a.note is not None]
    assert len(commented) >= 20
    for action in commented:
        assert set(action.note) == {"no", "en"} and all(action.note.values())
    black3 = [a for a in replay.hands[0].actions if a.act == "play black3"][0]
    assert "trump" in black3.note["en"]
    assert Cursor(replay).goto(0).note("no").startswith("Brad gir")


def test_the_script_reproduces_the_committed_file(tmp_path):
    spec = importlib.util.spec_from_file_location("make_walkthrough",
                                                  ROOT / "scripts" / "make_walkthrough.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "review.json"
    module.build().save(out)
    assert out.read_text(encoding="utf-8") == REPLAY.read_text(encoding="utf-8")


def test_score_parts_as_the_review_adds_them_up(replay):
    # Hand 2: "Kathrine noterer glatt 5+6+10 poeng": most red made with six red, and the hat.
    parts = end_of_hand(replay, 2)["score_parts"]
    assert parts[2] == {"most-red": 5 + 6, "hat": 10}
    assert parts[0] == {"most-red": -5, "most-black": -5}  # Tone fails both bids: -10
    # Hand 1: Brad misses most black and holds the -10 hat: -15.
    assert end_of_hand(replay, 1)["score_parts"][3] == {"most-black": -5, "hat": -10}
