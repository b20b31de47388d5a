"""Every rule of the Where's Bob's Hat? rulebook, its examples and its unusual situations."""

from __future__ import annotations

import pytest

import cardlab
from cardlab.games.bobs_hat.engine import (
    DECK,
    DOUBLE,
    FEWEST,
    MOST,
    NO_BID,
    BobsHatRules,
    max_hands,
    score_hand,
)

BLUE, RED, BLACK = MOST


def table(dealt, trump="gray", players=3, seats=None, **options):
    """A recorded game with a hand-made first deal (seat 0 deals unless told otherwise)."""
    t = cardlab.new_game("bobs-hat", players=players, seats=seats, **options)
    t.deal({"trump": trump, "hands": dealt})
    return t


def run(t, *actions):
    for action in actions:
        t.act(action)


# -- the cards and the options -------------------------------------------------------------

def test_sixty_cards_one_to_twenty_in_three_colours():
    assert len(DECK) == 60
    assert {DECK.code(c) for c in range(60)} == {
        f"{suit}{rank}" for suit in ("blue", "red", "black") for rank in range(1, 21)}
    assert DECK.parse("Blue 14") == DECK.parse("blu14") == DECK.parse("blå14")
    assert DECK.parse("svart3") == DECK.parse("black3")
    with pytest.raises(cardlab.CardCodeError, match="green7"):
        DECK.parse("green7")
    with pytest.raises(cardlab.CardCodeError, match="blue21"):
        DECK.parse("blue21")


@pytest.mark.parametrize("players,hands", [(3, 12), (4, 10), (5, 8)])
def test_default_number_of_hands_by_player_count(players, hands):
    assert BobsHatRules(players=players).options["hands"] == hands


def test_number_of_hands_can_change_within_what_the_deck_allows():
    assert BobsHatRules(players=4, hands=3).options["hands"] == 3
    assert [max_hands(n) for n in (3, 4, 5)] == [16, 11, 8]  # 5+...+20, 5+...+15, 5+...+12
    with pytest.raises(cardlab.OptionError, match="at most 8 with 5 players"):
        BobsHatRules(players=5, hands=9)


def test_until_the_deck_runs_out():
    rules = BobsHatRules(players=4, until_deck_runs_out=True)
    assert rules.options["hands"] == 11 and rules.hand_size(11) * 4 == 60
    with pytest.raises(cardlab.OptionError, match="contradicts"):
        BobsHatRules(players=4, until_deck_runs_out=True, hands=10)


def test_options_are_checked_and_written_out_in_full():
    with pytest.raises(cardlab.OptionError, match="no option 'colour'"):
        BobsHatRules(colour="blue")
    with pytest.raises(cardlab.OptionError, match="at most 5"):
        BobsHatRules(players=6)
    with pytest.raises(cardlab.OptionError, match="dealer, left-of-dealer"):
        BobsHatRules(opening="youngest")
    with pytest.raises(cardlab.OptionError, match="true or false"):
        BobsHatRules(no_bids="perhaps")
    assert BobsHatRules(no_bids="yes", hands="4").options["no_bids"] is True
    t = cardlab.new_game("bobs-hat", players=4, seed=1)
    assert set(t.replay.options) == {o.name for o in BobsHatRules.OPTIONS}
    with pytest.raises(cardlab.UnknownGameError, match="no game called 'bridge'"):
        cardlab.new_game("bridge")


# -- dealing, trump, the hat, bidding ------------------------------------------------------

def test_hand_sizes_grow_and_the_deal_passes_left():
    t = cardlab.new_game("bobs-hat", players=4, seed=3, first_dealer=2)
    from cardlab.bots import make_bot
    t.play(make_bot("random", "bobs-hat", seed=1), until="game")
    sizes = [len(hand.deal["hands"][0]) for hand in t.replay.hands]
    assert sizes == list(range(5, 15))
    cursor = cardlab.Cursor(t.replay)
    dealers = [cursor.goto_hand(h).position["dealer"] for h in range(1, 11)]
    assert dealers == [(2 + k) % 4 for k in range(10)]


def test_the_dealer_chooses_the_hat_after_seeing_his_cards_before_any_bid():
    t = cardlab.new_game("bobs-hat", players=4, seed=5)
    assert t.state.to_act() == 0 and t.state.legal_texts() == ["hat +10", "hat -10"]
    with pytest.raises(cardlab.IllegalActionError, match="must first choose Bob's Hat"):
        t.act("bid most-blue")
    t.act("hat +10")
    assert t.state.snapshot()["hat"]["value"] == 10


@pytest.mark.parametrize("opening,first", [("dealer", 1), ("left-of-dealer", 2)])
def test_who_bids_first_and_leads(opening, first):
    t = cardlab.new_game("bobs-hat", players=3, seed=2, first_dealer=1, opening=opening)
    t.act("hat -10")
    assert t.state.to_act() == first
    for _ in range(3):
        t.act("bid fewest")
    assert t.state.to_act() == first  # the same player leads the first trick


def test_every_player_bids_one_or_more_of_the_four():
    t = cardlab.new_game("bobs-hat", players=3, seed=2)
    t.act("hat -10")
    legal = t.state.legal_texts()
    assert len(legal) == 15  # every non-empty combination of most blue/red/black and fewest
    assert "bid most-blue,most-red,most-black,fewest" in legal
    with pytest.raises(cardlab.CardCodeError, match="not a bid"):
        t.act("bid most-green")
    with pytest.raises(cardlab.IllegalActionError, match="no bids are not allowed"):
        t.act("bid none")
    with pytest.raises(cardlab.IllegalActionError, match="double fewest is not allowed"):
        t.act("bid double-fewest")


# -- tricks --------------------------------------------------------------------------------

HANDS_3 = [
    ["blue1", "blue9", "red3", "black14", "black2"],
    ["blue5", "blue12", "red15", "red20", "black1"],
    ["blue20", "blue7", "blue8", "black5", "black19"],
]


def test_follow_suit_if_you_can_with_the_reason_in_the_rules_words():
    t = table(HANDS_3, trump="black", seats=["Ann", "Remo", "Cy"])
    run(t, "hat -10", "bid fewest", "bid most-red", "bid most-blue", "play blue9")
    with pytest.raises(cardlab.IllegalActionError) as err:
        t.act("play red15")
    message = str(err.value)
    assert "Remo must follow blue, the suit led: Remo holds blue 5 and blue 12" in message
    assert "hand 1" in message and "seat Remo" in message
    assert err.value.rule == "Remo must follow blue, the suit led"  # a hint names no card
    with pytest.raises(cardlab.IllegalActionError, match="does not hold blue 20"):
        t.act("play blue20")


def test_highest_trump_wins_else_highest_of_the_suit_led_and_the_winner_leads():
    t = table(HANDS_3, trump="black")
    run(t, "hat -10", "bid fewest", "bid most-red", "bid most-blue")
    run(t, "play red3", "play red20", "play black5")  # Cy cannot follow red and trumps
    pos = t.state.snapshot()
    assert pos["tricks"][0]["winner"] == 2 and pos["tricks"][0]["reason"] == "the only trump"
    assert t.state.to_act() == 2
    run(t, "play blue20", "play blue1", "play blue12")
    pos = t.state.snapshot()
    assert pos["tricks"][1]["winner"] == 2
    assert pos["tricks"][1]["reason"] == "highest blue, the suit led"


def test_gray_means_no_trump():
    t = table(HANDS_3, trump="gray")
    run(t, "hat -10", "bid fewest", "bid most-red", "bid most-blue")
    run(t, "play red3", "play red20", "play black5")
    pos = t.state.snapshot()
    assert pos["trump"] is None
    assert pos["tricks"][0]["winner"] == 1  # the black 5 is just a discard


def test_a_trick_with_a_14_or_15_takes_the_hat_from_the_table_or_a_player():
    t = table(HANDS_3, trump="gray")
    run(t, "hat +10", "bid fewest", "bid most-red", "bid most-blue")
    run(t, "play red3", "play red15", "play blue7")  # Remo wins with the red 15: hat to Remo
    assert t.state.snapshot()["hat"]["holder"] == 1
    run(t, "play blue12", "play blue20", "play blue1")  # Cy takes a trick without 14/15
    assert t.state.snapshot()["hat"]["holder"] == 1
    run(t, "play black19", "play black14", "play black1")  # Cy wins Ann's black 14: the hat
    assert t.state.snapshot()["hat"]["holder"] == 2


# -- scoring: the rulebook's examples --------------------------------------------------------

def taken(*blue_red_black):
    return [list(t) for t in blue_red_black]


def test_example_anna_most_blue():
    # Anna 4 blue, Bob 3, Chris 1: 5 + 4 = 9. With 3 she ties Bob and fails: -5.
    assert score_hand([BLUE, 0, 0], taken((4, 0, 0), (3, 0, 0), (1, 0, 0)), [8, 0, 0], 7,
                      -1, 0, False)[0] == 9
    assert score_hand([BLUE, 0, 0], taken((3, 0, 0), (3, 0, 0), (1, 0, 0)), [7, 0, 0], 7,
                      -1, 0, False)[0] == -5


def test_example_bob_fewest():
    # Seven cards each. Bob takes 3, Anna 12, Chris 6: +7. Bob and Chris 3, Anna 15: -7.
    assert score_hand([0, FEWEST, 0], taken((12, 0, 0), (3, 0, 0), (6, 0, 0)), [21, 0, 0], 7,
                      -1, 0, False)[1] == 7
    assert score_hand([0, FEWEST, 0], taken((15, 0, 0), (3, 0, 0), (3, 0, 0)), [21, 0, 0], 7,
                      -1, 0, False)[1] == -7


def test_example_chris_two_bids_scored_separately():
    # Chris makes most blue with 8 blue (13) and fails most red (-5): 8.
    scores = score_hand([0, 0, BLUE | RED], taken((2, 9, 0), (1, 1, 0), (8, 2, 0)),
                        [11, 12, 0], 11, -1, 0, False)
    assert scores[2] == 8


def test_the_hat_adds_plus_or_minus_ten_and_is_not_a_card_for_fewest():
    scores = score_hand([FEWEST, BLUE, 0], taken((0, 1, 0), (5, 0, 0), (2, 2, 0)), [7, 3, 0], 5,
                        0, 10, False)
    assert scores[0] == 5 + 10  # fewest made (1 card, the hat not counted), hat +10
    scores = score_hand([FEWEST, BLUE, 0], taken((0, 1, 0), (5, 0, 0), (2, 2, 0)), [7, 3, 0], 5,
                        0, -10, False)
    assert scores[0] == 5 - 10


def test_a_hat_never_found_scores_for_nobody():
    # No 14 or 15 is dealt: no trick can take the hat.
    hands = [["blue1", "blue2", "blue3", "blue4", "blue5"],
             ["blue6", "blue7", "blue8", "blue9", "blue10"],
             ["red1", "red2", "red3", "red4", "red5"]]
    t = table(hands, trump="gray")
    run(t, "hat +10", "bid most-black", "bid most-black", "bid fewest")
    from cardlab.bots import make_bot
    t.play(make_bot("random", "bobs-hat", seed=4), until="hand")
    # Unusual situation: no black card dealt, so both most-black bids are made (5 + 0).
    # Cy cannot win a trick (no blue, no trump) but neither can Ann: a tie, so fewest fails.
    assert t.replay.hands[0].scores == [5, 5, -5]
    assert t.state.snapshot()["hat"]["holder"] is None


# -- unusual situations --------------------------------------------------------------------

def test_most_and_fewest_in_the_same_hand_can_both_be_made():
    # Ann takes one trick of 3 red cards (most red), and takes fewer cards than anyone.
    assert score_hand([RED | FEWEST, BLUE, BLACK],
                      taken((0, 3, 0), (4, 0, 0), (2, 0, 3)), [6, 3, 3], 4, -1, 0,
                      False)[0] == (5 + 3) + 4


def test_a_renege_in_strict_mode_is_refused():
    t = table(HANDS_3, trump="black")
    run(t, "hat -10", "bid fewest", "bid most-red", "bid most-blue", "play blue9")
    with pytest.raises(cardlab.IllegalActionError, match="must follow blue"):
        t.act("play black1")


def test_table_mode_still_refuses_a_card_not_held():
    t = table(HANDS_3, trump="black", mode="table")
    run(t, "hat -10", "bid fewest", "bid most-red", "bid most-blue", "play blue9")
    with pytest.raises(cardlab.IllegalActionError, match="does not hold black 3"):
        t.act("play black3")  # a card nobody could play: not a renege, just impossible
    with pytest.raises(cardlab.IllegalActionError, match="does not hold blue 20"):
        t.act("play blue20")
    assert t.state.to_act() == 1 and t.state.renege is None


def test_a_renege_in_table_mode_scores_minus_15_and_the_hand_is_redealt():
    t = table(HANDS_3, trump="black", mode="table", seats=["Ann", "Remo", "Cy"])
    run(t, "hat -10", "bid fewest", "bid most-red", "bid most-blue", "play blue9")
    t.act("play black1")  # Remo holds blue but plays black: recorded, detected
    state = t.state
    assert state.snapshot()["renege"] == {"seat": 1, "card": "black1", "penalty": -15,
                                          "redeal": True}
    assert "RENEGE by Remo (black1): -15, the hand is dealt again" in cardlab.text.render(
        t.replay)
    assert state.chance_kind() == "deal" and state.totals() == [0, -15, 0]
    assert t.replay.hands[0].scores == [0, -15, 0]
    t.deal({"trump": "red", "hands": HANDS_3})  # the same dealer shuffles and deals again
    pos = t.state.snapshot()
    assert (pos["hand"], pos["attempt"], pos["dealer"], pos["hand_size"]) == (1, 2, 0, 5)
    from cardlab.bots import make_bot
    t.play(make_bot("random", "bobs-hat", seed=3), until="hand")
    sheet = t.state.snapshot()["sheet"]
    assert len(sheet) == 1 and sheet[0][1] == -15 + t.replay.hands[1].scores[1]
    parts = t.state.snapshot()["score_parts"]
    assert parts[1]["renege"] == -15
    assert [sum(p.values()) for p in parts] == sheet[0]
    reloaded = cardlab.loads(t.replay.to_json())
    assert reloaded.to_dict() == t.replay.to_dict()


# -- optional rules ----------------------------------------------------------------------------

def test_double_fewest_scores_double():
    t = cardlab.new_game("bobs-hat", players=3, seed=2, double_fewest=True)
    t.act("hat -10")
    assert "bid double-fewest" in t.state.legal_texts()
    assert "bid most-red,double-fewest" in t.state.legal_texts()
    assert score_hand([FEWEST | DOUBLE, 0, 0], taken((1, 0, 0), (2, 0, 0), (3, 0, 0)),
                      [6, 0, 0], 5, -1, 0, False)[0] == 10
    assert score_hand([FEWEST | DOUBLE, 0, 0], taken((2, 0, 0), (2, 0, 0), (3, 0, 0)),
                      [7, 0, 0], 5, -1, 0, False)[0] == -10


def test_no_bid_once_per_game_and_no_score_for_that_hand_hat_included():
    t = table(HANDS_3, trump="gray", no_bids=True, hands=2)
    run(t, "hat -10", "bid none", "bid most-red", "bid most-blue")
    run(t, "play black14", "play black1", "play black5")  # Ann takes the hat (-10) ...
    from cardlab.bots import make_bot
    t.play(make_bot("random", "bobs-hat", seed=1), until="hand")
    assert t.replay.hands[0].scores[0] == 0  # ... but passed, so she scores nothing
    t.deal({"trump": "gray", "hands": [[f"blue{r}" for r in range(1, 7)],
                                       [f"red{r}" for r in range(1, 7)],
                                       [f"black{r}" for r in range(1, 7)]]})
    t.act("hat +10")  # seat 1 deals hand 2 and bids first; Ann bids third
    run(t, "bid fewest", "bid fewest")
    assert "bid none" not in t.state.legal_texts()
    with pytest.raises(cardlab.IllegalActionError, match="already used the one no bid"):
        t.act("bid none")
    assert score_hand([NO_BID, BLUE, 0], taken((2, 0, 0), (1, 0, 0), (0, 0, 0)),
                      [3, 0, 0], 5, 0, 10, False) == [0, -5, 0]


def test_secret_bidding_hides_the_bids_until_all_are_made():
    t = cardlab.new_game("bobs-hat", players=3, seed=2, secret_bidding=True)
    run(t, "hat -10", "bid most-blue")
    assert t.state.snapshot(seat=1)["bids"] == [None, None, None]
    assert t.state.snapshot(seat=0)["bids"] == [["most-blue"], None, None]
    run(t, "bid fewest", "bid most-red")
    assert t.state.snapshot(seat=1)["bids"] == [["most-blue"], ["fewest"], ["most-red"]]


def test_negative_scoring_costs_a_point_per_card_of_a_failed_most_bid():
    tk = taken((3, 0, 0), (3, 0, 0), (1, 0, 0))
    assert score_hand([BLUE, 0, 0], tk, [7, 0, 0], 5, -1, 0, True)[0] == -8
    assert score_hand([FEWEST, 0, 0], tk, [7, 0, 0], 5, -1, 0, True)[0] == -5  # fewest: as ever


@pytest.mark.parametrize("reveal,shown", [("at-once", True), ("when-found", False)])
def test_when_the_hat_value_is_shown(reveal, shown):
    t = table(HANDS_3, trump="gray", hat_reveal=reveal)
    t.act("hat +10")
    assert t.state.snapshot(seat=0)["hat"]["value"] == 10  # the dealer knows
    assert (t.state.snapshot(seat=1)["hat"]["value"] == 10) is shown
    run(t, "bid fewest", "bid most-red", "bid most-blue", "play red3", "play red15",
        "play blue7")
    assert t.state.snapshot(seat=1)["hat"]["value"] == 10  # found: everyone knows


# -- seat views ----------------------------------------------------------------------------------

def test_one_seats_view_hides_the_other_hands():
    t = cardlab.new_game("bobs-hat", players=4, seed=9)
    view = t.state.snapshot(seat=2)
    assert view["hands"][2] and all(view["hands"][s] is None for s in (0, 1, 3))
    assert view["hand_counts"] == [5, 5, 5, 5]
    assert view["legal"] == []  # seat 0 (the dealer) acts, not seat 2


# -- bots ------------------------------------------------------------------------------------------

def test_the_heuristic_bot_outscores_random_play():
    from cardlab.bots import make_bot
    heuristic = random = 0.0
    games = 40
    for g in range(games):
        seat = g % 4
        players = [make_bot("random", "bobs-hat", seed=f"{g}/{s}") for s in range(4)]
        players[seat] = make_bot("heuristic", "bobs-hat", seed=g)
        t = cardlab.new_game("bobs-hat", players=4, seed=g, hands=4)
        t.play(players)
        heuristic += t.replay.totals[seat]
        random += (sum(t.replay.totals) - t.replay.totals[seat]) / 3
    assert heuristic / games > random / games + 10


def test_bots_are_seeded():
    from cardlab.bots import make_bot

    def game(bot_seed):
        t = cardlab.new_game("bobs-hat", players=3, seed=1, hands=2)
        t.play([make_bot(kind, "bobs-hat", seed=f"{bot_seed}/{s}")
                for s, kind in enumerate(["random", "heuristic", "random"])])
        return t.replay.to_json()

    assert game(1) == game(1) and game(1) != game(2)
