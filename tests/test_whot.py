"""Whot: every rule of the rule text, the Nigerian special cards, the log and the bots.

Expected values come from the rule text (the pack, the deal, following the call, the turn
over of the pile, scoring, rubbers); positions are built from deals typed in, so each test
knows exactly which cards are where. Card codes are read here with a small parser of its own
(symbol + number, "/k" for the k-th copy), not with the engine's tables.
"""

from __future__ import annotations

import importlib.util
import json
import random
from collections import Counter
from pathlib import Path

import pytest

import cardlab
from cardlab.bots import make_bot
from cardlab.cli import main as cli_main
from cardlab.cursor import Cursor
from cardlab.errors import CardCodeError, IllegalActionError, OptionError, ReplayError
from cardlab.games import whot
from cardlab.games.whot import WhotRules, WhotState

ROOT = Path(__file__).resolve().parents[1]
SYMBOLS = ("circle", "triangle", "cross", "square", "star")
RULE_TEXT_PACK = {  # "The Cards in the Pack", as printed
    "circle": [1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14],
    "triangle": [1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14],
    "cross": [1, 2, 3, 5, 7, 10, 11, 13, 14],
    "square": [1, 2, 3, 5, 7, 10, 11, 13, 14],
    "star": [1, 2, 3, 4, 5, 7, 8],
}


def face(code: str) -> tuple[str, int]:
    """("circle", 7) for "circle7" or "circle7/2"; ("whot", 20) for any WHOT."""
    base = code.split("/")[0]
    symbol = base.rstrip("0123456789")
    return symbol, int(base[len(symbol):])


def pack(packs: int = 1) -> list[str]:
    """Every card code of the game, written from the rule text."""
    codes = []
    for p in range(packs):
        for symbol, numbers in RULE_TEXT_PACK.items():
            codes += [f"{symbol}{n}" + ("" if p == 0 else f"/{p + 1}") for n in numbers]
    codes += ["whot20" if k == 1 else f"whot20/{k}" for k in range(1, 5 * packs + 1)]
    return codes


def cut_for(dealer: int, players: int) -> dict:
    """A cut in which ``dealer`` cuts lowest (circle1) and everyone else higher."""
    higher = iter(["circle14", "circle13", "circle12", "circle11", "circle10", "circle8",
                   "circle7", "circle5", "circle4", "circle3"])
    return {"cuts": [["circle1" if s == dealer else next(higher) for s in range(players)]]}


def deal(hands: list[list[str]], top: list[str] = (), packs: int = 1) -> dict:
    """A deal record: the given hands, then the stock with ``top`` first, the rest after."""
    used = {c for h in hands for c in h} | set(top)
    rest = [c for c in pack(packs) if c not in used]
    return {"hands": hands, "stock": list(top) + rest}


def start(hands: list[list[str]], top: list[str] = (), dealer: int = 0, **options) -> WhotState:
    options.setdefault("rubber", "single")
    rules = WhotRules(players=len(hands), **options)
    state = rules.new_state()
    state.apply_chance(cut_for(dealer, len(hands)))
    state.apply_chance(deal(hands, top, rules.packs))
    return state


def held(state: WhotState, seat: int) -> list[str]:
    return state.snapshot()["hands"][seat]


# -- the pack ---------------------------------------------------------------------------------
def test_the_pack_has_54_cards_as_the_rule_text_lists_them():
    codes = list(whot.DECK.codes[:54])
    assert sorted(codes) == sorted(pack(1))
    assert len(codes) == 54
    by_symbol = Counter(face(c)[0] for c in codes)
    assert by_symbol == {"circle": 12, "triangle": 12, "cross": 9, "square": 9, "star": 7,
                         "whot": 5}


def test_no_sixes_or_nines_and_four_sided_symbols_have_no_multiples_of_four():
    faces = [face(c) for c in whot.DECK.codes]
    assert not [f for f in faces if f[1] in (6, 9)]
    assert not [f for f in faces if f[0] in ("cross", "square") and f[1] % 4 == 0]
    assert {f[1] for f in faces if f[0] == "whot"} == {20}
    assert max(f[1] for f in faces if f[0] != "whot") == 14


def test_card_values_stars_double_and_a_whot_counts_20():
    assert whot.hand_value(["circle7"]) == 7
    assert whot.hand_value(["star7"]) == 14
    assert whot.hand_value(["whot20"]) == 20
    assert whot.hand_value(["star8", "cross13", "whot20/2", "triangle1/2"]) == 16 + 13 + 20 + 1


def test_two_packs_keep_the_copies_apart():
    codes = list(whot.DECK.codes)
    assert len(codes) == 108 and len(set(codes)) == 108
    assert sorted(codes) == sorted(pack(2))
    assert "circle7/2" in codes and "whot20/10" in codes and "star8/2" in codes
    assert WhotRules(players=6).packs == 2 and WhotRules(players=5).packs == 1
    assert WhotRules(players=6, packs=1).packs == 1
    with pytest.raises(OptionError, match="two packs"):
        WhotRules(players=9, packs=1)
    state = start([["circle7", "circle7/2", "star3", "star4", "star5", "star7"],
                   ["cross1", "cross2", "cross3", "cross5", "cross7", "cross10"],
                   ["square1", "square2", "square3", "square5", "square7", "square10"],
                   ["triangle1", "triangle2", "triangle3", "triangle4", "triangle5",
                    "triangle7"],
                   ["circle1", "circle2", "circle3", "circle4", "circle5", "circle8"],
                   ["star1", "star2", "star8", "cross11", "cross13", "cross14"]], dealer=5)
    assert state.rules.packs == 2 and len(state.dealt_cards()) == 108
    assert sorted(state.accounted_cards()) == sorted(state.dealt_cards())
    # the same face twice in one hand: naming it plays a copy the player holds
    assert state.to_act() == 0
    state.act("play circle7/2")
    assert held(state, 0) == ["circle7", "star3", "star4", "star5", "star7"]
    assert state.snapshot()["call_card"] == "circle7/2"


def test_a_one_pack_game_refuses_second_pack_codes():
    rules = WhotRules(players=4, rubber="single")
    state = rules.new_state()
    state.apply_chance(cut_for(0, 4))
    record = deal([["circle1", "circle2", "circle3", "circle4", "circle5", "circle7"],
                   ["cross1", "cross2", "cross3", "cross5", "cross7", "cross10"],
                   ["square1", "square2", "square3", "square5", "square7", "square10"],
                   ["star1", "star2", "star3", "star4", "star5", "circle7/2"]])
    with pytest.raises(CardCodeError, match="second pack"):
        state.apply_chance(record)


# -- options ----------------------------------------------------------------------------------
def test_options_are_written_out_in_full_and_reload_the_same():
    for options in ({}, {"rules": "nigerian"}, {"players": 7},
                    {"rules": "nigerian", "pick_two": False, "last_card": False}):
        rules = WhotRules(**options)
        assert WhotRules(**rules.options).options == rules.options
    nigerian = WhotRules(rules="nigerian").options
    assert all(nigerian[k] for k in ("hold_on", "pick_two", "pick_three", "suspension",
                                     "general_market", "last_card", "pick_two_stacking"))
    assert nigerian["last_card_penalty"] == 2
    classic = WhotRules().options
    assert not any(classic[k] for k in ("hold_on", "pick_two", "last_card"))
    assert classic["rubber"] == "short" and WhotRules().games == 5
    assert WhotRules(rubber="long").games == 10 and WhotRules(rubber="single").games == 1


@pytest.mark.parametrize("options,fragment", [
    ({"hold_on": True}, "add rules=nigerian"),
    ({"rules": "nigerian", "pick_two": False, "pick_two_stacking": True}, "needs pick_two"),
    ({"rules": "nigerian", "last_card": False, "last_card_penalty": 2}, "needs last_card"),
    ({"players": 11}, "at most 10"),
    ({"players": 1}, "at least 2"),
    ({"rubber": "medium"}, "single, short, long"),
])
def test_contradicting_options_are_refused(options, fragment):
    with pytest.raises(OptionError, match=fragment):
        WhotRules(**options)


# -- the cut and the deal ---------------------------------------------------------------------
def test_the_lowest_cut_deals_and_a_whot_counts_high():
    state = WhotRules(players=3).new_state()
    assert state.chance_kind() == "setup"
    state.apply_chance({"cuts": [["whot20", "circle14", "square13"]]})
    assert state.first_dealer == 2  # 13 < 14 < 20
    state = WhotRules(players=2).new_state()
    state.apply_chance({"cuts": [["whot20", "circle14"]]})
    assert state.first_dealer == 1


def test_a_tied_cut_is_cut_again_by_the_tied_only():
    state = WhotRules(players=4).new_state()
    record = {"cuts": [["star3", "circle3", "cross10", "whot20"],
                       ["triangle5", "cross2", None, None]]}
    state.apply_chance(record)
    assert state.first_dealer == 1
    assert state.snapshot()["cuts"] == record["cuts"]
    for bad, fragment in [
        ({"cuts": [["star3", "circle3", "cross10", "whot20"]]}, "tie for lowest"),
        ({"cuts": [["star3", "circle3", "cross10", "whot20"],
                   ["triangle5", "cross2", "circle1", None]]}, "does not cut again"),
        ({"cuts": [["star3", "circle4", "cross10", "whot20"], ["triangle5", None, None, None]]},
         "one too many"),
        ({"cuts": [["star3", None, "cross10", "whot20"]]}, "must cut"),
        ({"cuts": [["star3", "star3", "cross10", "whot20"]]}, "twice"),
        ({"dealer": 2}, "cut for first dealer"),
    ]:
        with pytest.raises(IllegalActionError, match=fragment):
            WhotRules(players=4).new_state().apply_chance(bad)


def test_the_deal_is_one_card_at_a_time_from_the_dealers_left():
    state = WhotRules(players=4).new_state()
    hands, stock = state._split_pack(list(range(54)), dealer=1)
    assert hands[2] == [0, 4, 8, 12, 16, 20]  # the dealer's left gets the first card
    assert hands[3] == [1, 5, 9, 13, 17, 21]
    assert hands[0] == [2, 6, 10, 14, 18, 22]
    assert hands[1] == [3, 7, 11, 15, 19, 23]  # the dealer last
    assert stock == list(range(24, 54))


def test_the_deal_record_holds_the_whole_pack_and_is_checked():
    state = WhotRules(players=2).new_state()
    state.apply_chance(cut_for(0, 2))
    good = deal([["circle1", "circle2", "circle3", "circle4", "circle5", "circle7"],
                 ["cross1", "cross2", "cross3", "cross5", "cross7", "cross10"]])
    short = dict(good, stock=good["stock"][:-1])
    twice = dict(good, stock=good["stock"][:-1] + ["circle1"])
    five = dict(good, hands=[good["hands"][0][:5], good["hands"][1]])
    for bad, fragment in [(short, "whole pack"), (twice, "twice"), (five, "six cards"),
                          ({"hands": good["hands"]}, "stock")]:
        with pytest.raises(IllegalActionError, match=fragment):
            state.clone().apply_chance(bad)
    state.apply_chance(good)
    assert state.snapshot()["stock_size"] == 54 - 12


def test_golden_seeded_deals():
    """Pinned so that a change to the seeded shuffle is noticed; each is checked against the
    rule text too (six cards each, the whole pack, the lowest cut deals)."""
    golden = {
        (2, 4): ({"cuts": [["triangle14", "cross10", "star7", "cross3"]]},
                 [["star7", "square13", "square14", "star3", "cross5", "cross10"],
                  ["circle12", "whot20/2", "triangle1", "star5", "star2", "whot20/4"],
                  ["circle4", "star8", "circle2", "cross11", "triangle10", "whot20/5"],
                  ["triangle5", "circle13", "triangle14", "circle7", "cross7", "circle10"]],
                 ["cross1", "cross2", "triangle2", "circle8", "square5"], 3),
        (5, 6): ({"cuts": [["circle11/2", "triangle3", "square10/2", "triangle14", "cross2/2",
                            "triangle10/2"]]},
                 [["circle11", "circle7/2", "whot20/9", "star1/2", "triangle4", "whot20/8"],
                  ["circle11/2", "cross2", "whot20/4", "square3", "star5", "star2/2"],
                  ["whot20/7", "whot20/6", "cross11", "star5/2", "circle5", "cross5"],
                  ["triangle3/2", "circle3", "circle7", "square2", "square13/2", "cross14"],
                  ["circle13", "triangle4/2", "cross13", "cross5/2", "circle12", "star2"],
                  ["cross3/2", "whot20/3", "square11/2", "whot20/5", "star7", "circle2/2"]],
                 ["triangle5", "triangle8", "triangle2", "square2/2", "triangle2/2"], 4),
        (1, 2): ({"cuts": [["cross10", "circle13"]]},
                 [["circle2", "cross5", "triangle13", "triangle11", "square1", "circle4"],
                  ["triangle12", "cross1", "circle1", "star2", "square13", "triangle14"]],
                 ["circle13", "circle3", "cross14", "cross11", "star3"], 0),
    }
    for (seed, players), (cuts, hands, top, dealer) in golden.items():
        table = cardlab.new_game("whot", players=players, seed=seed, rubber="single")
        record = table.replay.hands[0].deal
        assert table.replay.setup == cuts
        assert record["hands"] == hands and record["stock"][:5] == top
        assert table.state.dealer == dealer
        ranks = [face(c)[1] for c in cuts["cuts"][0]]
        assert ranks[dealer] == min(ranks) and ranks.count(min(ranks)) == 1
        packs = 2 if players > 5 else 1
        everything = [c for h in record["hands"] for c in h] + record["stock"]
        assert all(len(h) == 6 for h in record["hands"])
        assert sorted(everything) == sorted(pack(packs))


def test_the_deal_passes_left_and_the_player_left_of_the_dealer_leads():
    table = cardlab.new_game("whot", players=3, seed=11, rubber="short")
    dealers = []
    while not table.state.is_game_over():
        state = table.state
        dealers.append(state.dealer)
        assert state.to_act() == (state.dealer + 1) % 3
        table.play(make_bot("heuristic", "whot", seed=1), until="hand")
    first = dealers[0]
    assert dealers == [(first + k) % 3 for k in range(5)]


# -- a turn -----------------------------------------------------------------------------------
FOUR = [["circle7", "star7", "triangle2", "whot20", "cross11", "square13"],
        ["circle1", "circle2", "triangle7", "star3", "cross1", "square1"],
        ["triangle10", "triangle11", "triangle12", "triangle13", "triangle14", "star1"],
        ["cross2", "cross3", "cross5", "square2", "square3", "square5"]]


def test_the_leader_plays_any_card_and_may_not_draw():
    state = start(FOUR, dealer=3)
    assert state.to_act() == 0
    texts = state.legal_texts()
    assert "draw" not in texts
    assert {"play circle7", "play square13", "play whot20 call star"} <= set(texts)
    with pytest.raises(IllegalActionError, match="leads"):
        state.act("draw")
    state.act("play square13")
    assert state.snapshot()["call_card"] == "square13"


def test_follow_the_symbol_or_the_number_or_play_a_whot_or_draw():
    state = start(FOUR, dealer=3)
    state.act("play circle7")
    assert state.to_act() == 1
    # circle1, circle2 follow the symbol; triangle7 the number; nothing else
    assert sorted(state.legal_texts()) == ["draw", "play circle1", "play circle2",
                                          "play triangle7"]
    with pytest.raises(IllegalActionError, match="neither the call card's symbol"):
        state.act("play square1")
    with pytest.raises(IllegalActionError, match="does not hold"):
        state.act("play circle10")
    state.act("play triangle7")
    assert state.to_act() == 2
    assert sorted(state.legal_texts()) == ["draw"] + [f"play triangle{n}"
                                                      for n in (10, 11, 12, 13, 14)]


def test_star_numbers_play_as_printed_not_doubled():
    state = start(FOUR, dealer=3)
    state.act("play star7")  # star 7 counts 14 at the end, but plays as a 7
    legal = state.legal_texts()
    assert "play triangle7" in legal and "play star3" in legal
    state = start([["circle7", "circle14", "circle1", "circle2", "circle3", "circle4"],
                   ["star7", "cross1", "cross2", "cross3", "cross5", "cross10"]], dealer=1)
    state.act("play circle14")
    assert "play star7" not in state.legal_texts()  # a star 7 is not a 14


def test_you_may_draw_although_you_can_play_and_the_draw_ends_the_turn():
    state = start(FOUR, top=["cross14", "square14"], dealer=3)
    state.act("play circle7")
    assert state.to_act() == 1 and "play circle1" in state.legal_texts()
    state.act("draw")
    assert "cross14" in held(state, 1)  # the top card of the stock
    assert state.to_act() == 2 and state.snapshot()["call_card"] == "circle7"
    state.act("draw")
    assert "square14" in held(state, 2)


def test_a_whot_calls_a_symbol_and_a_whot_may_follow_a_whot():
    hands = [["whot20", "circle7", "circle8", "circle10", "circle11", "circle12"],
             ["whot20/2", "triangle1", "circle1", "star1", "cross1", "square1"],
             ["whot20/3", "whot20/4", "triangle2", "star2", "cross2", "square2"]]
    state = start(hands, dealer=2)
    state.act("play circle7")
    state.act("play whot20/2 call square")  # a WHOT on any call card
    pos = state.snapshot()
    assert pos["call_card"] == "whot20/2" and pos["called_symbol"] == "square"
    legal = state.legal_texts()
    assert "play square2" in legal and "play triangle2" not in legal
    assert "play whot20/3 call circle" in legal
    with pytest.raises(IllegalActionError, match="called for squares"):
        state.act("play star2")
    state.act("play whot call triangles")  # "whot" names a WHOT he holds; plurals are fine
    assert state.snapshot()["called_symbol"] == "triangle"
    assert state.snapshot()["call_card"] == "whot20/3"
    assert "play circle8" not in state.legal_texts()  # 20 is no number to follow
    state.act("draw")
    state.act("play triangle1")
    state.act("play whot20/4 call triangle")  # a WHOT on a WHOT may keep the call
    assert state.snapshot()["called_symbol"] == "triangle"
    with pytest.raises(CardCodeError, match="names the symbol"):
        state.parse_action("play whot20 call")
    with pytest.raises(CardCodeError, match="not a symbol"):
        state.parse_action("play whot20 call hearts")


# -- the stock runs out: the pile is turned over ----------------------------------------------
def test_the_pile_is_turned_over_without_shuffling_oldest_card_on_top():
    hands = [["circle2", "circle4", "circle7", "circle10", "circle12", "circle14"],
             ["circle1", "circle3", "circle5", "circle8", "circle11", "circle13"]]
    state = start(hands, dealer=0)
    for code in ("circle1", "circle2", "circle3", "circle4", "circle5"):
        state.act(f"play {code}")  # the pile, oldest first: circle1 .. circle5 (call card)
    stock = state.snapshot()["stock_size"]
    assert stock == 42
    for _ in range(stock):
        state.act("draw")
    assert state.snapshot()["stock_size"] == 0 and state.snapshot()["pile_size"] == 5
    seat = state.to_act()
    state.act("draw")  # turns the pile over: circle5 stays; circle1 is now the top card
    pos = state.snapshot()
    assert pos["call_card"] == "circle5" and pos["pile_size"] == 1
    assert pos["turnovers"] == 1 and pos["stock_size"] == 3
    assert "circle1" in held(state, seat)
    nxt = state.to_act()
    state.act("draw")
    assert "circle2" in held(state, nxt)
    state.act("draw")
    assert "circle3" in held(state, seat)
    assert sorted(state.accounted_cards()) == sorted(state.dealt_cards())


# -- nothing to draw: pass; everybody passes: blocked -----------------------------------------
def test_a_player_who_can_neither_play_nor_draw_passes():
    # Seat 1 leads circle1; then 42 draws empty the stock, and the pile holds only the call
    # card. Seat 0 is dealt no circle, no 1 and no WHOT, and the stock gives him none either.
    ones_circles_whots = [c for c in pack() if face(c)[0] in ("circle", "whot") or
                          face(c)[1] == 1]
    seat1 = ["circle1", "circle2", "circle3", "circle4", "circle5", "circle7"]
    seat0 = ["triangle2", "triangle3", "cross2", "cross3", "square2", "square3"]
    rest1 = [c for c in ones_circles_whots if c not in seat1]  # 14 cards for seat 1
    others = [c for c in pack() if c not in seat0 + seat1 + rest1]
    top = []  # the draws alternate: seat 0 draws first
    for k in range(42):
        top.append(others.pop() if k % 2 == 0 else (rest1.pop() if rest1 else others.pop()))
    state = start([seat0, seat1], top=top, dealer=0)
    state.act("play circle1")
    for _ in range(42):
        state.act("draw")
    assert state.to_act() == 0 and state.snapshot()["stock_size"] == 0
    assert state.legal_texts() == ["pass"]
    with pytest.raises(IllegalActionError, match="nothing to draw"):
        state.act("draw")
    state.act("pass")
    assert state.snapshot()["passes"] == 1 and state.to_act() == 1
    with pytest.raises(IllegalActionError, match="can play, so cannot pass"):
        state.act("pass")
    state.act("play circle2")
    assert state.snapshot()["passes"] == 0


def test_when_everyone_passes_in_a_row_the_game_ends_blocked_and_is_scored():
    """With the whole pack in play a block cannot happen (the call card's symbol has at least
    six other cards, all in hands); the rule is checked on a position made by hand."""
    state = start([["circle1", "circle2", "circle3", "circle4", "circle5", "circle7"],
                   ["cross1", "cross2", "cross3", "cross5", "cross7", "star8"]], dealer=1)
    state.act("play circle1")
    state.stock = []
    state.hands = [[whot.DECK.parse(c) for c in ("circle2", "triangle3")],
                   [whot.DECK.parse(c) for c in ("cross2", "star8")]]
    state.pile = [whot.DECK.parse("square13")]
    state.match = whot.MATCH_CARD[state.pile[0]]
    assert state.to_act() == 1 and state.legal_texts() == ["pass"]
    state.act("pass")
    assert state.legal_texts() == ["pass"]
    state.act("pass")
    pos = state.snapshot()
    assert pos["ended"] == "blocked" and pos["winner"] is None
    assert pos["hand_scores"] == [2 + 3, 2 + 16]  # as usual: star 8 counts 16
    assert pos["kitty"] == [0, 1] and pos["phase"] == "over"


def test_the_safety_cap_ends_the_game_as_capped_and_scores_it_like_a_block():
    state = start(FOUR, dealer=3, max_turns=5)
    for text in ("play circle7", "draw", "draw", "draw", "draw"):
        state.act(text)
    pos = state.snapshot()
    assert pos["ended"] == "cap" and pos["to_act"] is None and state.hand_over()
    values = [sum(whot.hand_value([c]) for c in h) for h in pos["hands"]]
    assert pos["hand_scores"] == values and state.totals() == values
    assert pos["kitty"] == [1 if v == max(values) else 0 for v in values]
    # no cap by default (a recorded game, as the rules have none); simulations set one
    assert WhotRules().options["max_turns"] == 0 and whot.DEFAULT_MAX_TURNS >= 1000
    assert WhotRules.SIMULATION_OPTIONS == {"max_turns": whot.DEFAULT_MAX_TURNS}
    assert WhotRules(max_turns=0).new_state().cap > 10 ** 9  # 0: no cap


# -- the end of a game, scores, the kitty and the rubber --------------------------------------
def test_the_first_to_play_his_last_card_wins_and_the_others_score_their_cards():
    hands = [["circle7", "circle8", "circle10", "circle11", "circle12", "circle13"],
             ["circle1", "star4", "whot20", "triangle12", "cross13", "square14"],
             ["circle2", "circle3", "circle4", "circle5", "circle14", "triangle1"]]
    state = start(hands, dealer=2)
    for a, b, c in (("circle7", "circle1", "circle2"), ("circle8", "draw", "circle3"),
                    ("circle10", "draw", "circle4"), ("circle11", "draw", "circle5"),
                    ("circle12", "draw", "circle14")):
        for text in (a, b, c):
            state.act(text if text == "draw" else f"play {text}")
    assert held(state, 0) == ["circle13"]
    drawn = held(state, 1)
    state.act("play circle13")
    pos = state.snapshot()
    assert pos["ended"] == "won" and pos["winner"] == 0 and pos["to_act"] is None
    expected_1 = sum(2 * n if s == "star" else n for s, n in map(face, drawn))
    assert pos["hand_scores"] == [0, expected_1, 1]  # seat 2 keeps triangle1
    assert pos["kitty"] == [0, 1, 0]  # the highest score puts a counter in the kitty
    assert state.is_game_over() and state.totals() == [0, expected_1, 1]
    assert pos["rubber_winners"] == [0]


def test_tied_highest_scores_each_put_a_counter_in_the_kitty():
    state = start([["circle1", "circle2", "circle3", "circle4", "circle5", "circle7"],
                   ["cross1", "cross2", "cross3", "cross5", "cross7", "cross10"],
                   ["square1", "square2", "square3", "square5", "square7", "square10"]],
                  dealer=2, max_turns=1)
    state.act("play circle1")  # capped at once: 27, 28, 28
    assert state.snapshot()["hand_scores"] == [2 + 3 + 4 + 5 + 7, 28, 28]
    assert state.kitty == [0, 1, 1]


def test_a_rubber_is_five_or_ten_games_and_the_lowest_total_wins():
    for rubber, games in (("short", 5), ("long", 10)):
        table = cardlab.new_game("whot", players=3, seed=3, rubber=rubber)
        table.play([make_bot("heuristic", "whot", seed=s) for s in range(3)])
        assert len(table.replay.hands) == games
        state = table.state
        assert state.is_game_over() and len(state.sheet) == games
        totals = [sum(row[s] for row in state.sheet) for s in range(3)]
        assert table.replay.totals == totals
        assert sum(state.kitty) >= games
        pos = state.snapshot()
        assert pos["rubber_winners"] == [s for s in range(3) if totals[s] == min(totals)]
        assert state.rules.winners(totals) == pos["rubber_winners"]


# -- modes ------------------------------------------------------------------------------------
def test_strict_mode_refuses_a_misplay_and_table_mode_records_it():
    state = start(FOUR, top=["cross14"], dealer=3)
    state.act("play circle7")
    with pytest.raises(IllegalActionError, match="neither"):
        state.act("play square1")
    state = start(FOUR, top=["cross14"], dealer=3, mode="table")
    state.act("play circle7")
    state.act("play square1")  # taken back; he must draw instead, and his turn ends
    pos = state.snapshot()
    assert "square1" in pos["hands"][1] and "cross14" in pos["hands"][1]
    assert pos["misplays"] == [{"hand": 1, "seat": 1, "card": "square1"}]
    assert pos["to_act"] == 2 and pos["call_card"] == "circle7"
    with pytest.raises(IllegalActionError, match="does not hold"):
        state.act("play square1")  # a card not held is refused in table mode too


def test_a_table_mode_misplay_is_kept_in_the_log_and_replays():
    table = cardlab.new_game("whot", players=4, seats=["A", "B", "C", "D"], rubber="single",
                             mode="table")
    table.setup(cut_for(3, 4))
    table.deal(deal(FOUR, top=["cross14"]))
    table.act("play circle7")
    table.act("play square1")
    again = cardlab.loads(table.replay.to_json())
    assert again.hands[0].actions[1].act == "play square1"
    pos = Cursor(again).last().position
    assert pos["misplays"] == [{"hand": 1, "seat": 1, "card": "square1"}]


# -- the Nigerian rules -----------------------------------------------------------------------
NIGERIAN = [["circle1", "circle2", "circle5", "circle8", "circle14", "star7"],
            ["triangle1", "triangle2", "triangle5", "triangle8", "cross14", "star1"],
            ["square1", "square2", "square5", "circle3", "square14", "star2"],
            ["cross1", "cross2", "cross5", "circle4", "triangle14", "star3"]]
TOP = ["circle10", "circle11", "circle12", "circle13", "cross13", "square13", "triangle13"]


def nigerian(**options) -> WhotState:
    return start(NIGERIAN, top=TOP, dealer=3, rules="nigerian", **options)


def test_hold_on_lets_the_same_player_play_again():
    state = nigerian()
    state.act("play circle1")
    assert state.to_act() == 0
    state.act("play circle2")
    assert state.to_act() == 1
    state = nigerian(hold_on=False)
    state.act("play circle1")
    assert state.to_act() == 1


def test_pick_two_makes_the_next_player_draw_two():
    state = nigerian(pick_two_stacking=False)
    state.act("play circle2")
    assert state.to_act() == 1 and state.snapshot()["pending"] == {"cards": 2,
                                                                  "card": "pick-two"}
    assert state.legal_texts() == ["draw"]
    with pytest.raises(IllegalActionError, match="must pick 2"):
        state.act("play triangle2")
    state.act("draw")
    assert state.snapshot()["hand_counts"][1] == 8
    assert {"circle10", "circle11"} <= set(held(state, 1))
    assert state.to_act() == 2 and state.snapshot()["pending"] is None
    assert "play square2" in state.legal_texts()  # the 2 stays the call card


def test_pick_two_stacking_passes_the_pick_on_two_cards_larger():
    state = nigerian()
    state.act("play circle2")
    assert sorted(state.legal_texts()) == ["draw", "play triangle2"]
    state.act("play triangle2")
    assert state.to_act() == 2 and state.snapshot()["pending"]["cards"] == 4
    state.act("play square2")
    assert state.to_act() == 3 and state.snapshot()["pending"]["cards"] == 6
    state.act("play cross2")
    assert state.snapshot()["pending"]["cards"] == 8
    state.act("draw")  # seat 0 picks all eight
    assert state.snapshot()["hand_counts"][0] == 5 + 8 and state.to_act() == 1


def test_pick_three_makes_the_next_player_draw_three():
    state = nigerian(pick_three_stacking=False)
    state.act("play circle5")
    assert state.legal_texts() == ["draw"]
    state.act("draw")
    assert state.snapshot()["hand_counts"][1] == 9 and state.to_act() == 2
    state = nigerian()
    state.act("play circle5")
    assert "play triangle5" in state.legal_texts()
    assert "play triangle2" not in state.legal_texts()  # a 2 does not answer a Pick Three


def test_suspension_makes_the_next_player_miss_a_turn():
    state = nigerian()
    state.act("play circle8")
    assert state.to_act() == 2
    state = nigerian(suspension=False)
    state.act("play circle8")
    assert state.to_act() == 1


def test_general_market_makes_every_other_player_draw_one_then_the_player_goes_again():
    state = nigerian()
    state.act("play circle14")
    counts = state.snapshot()["hand_counts"]
    assert counts == [5, 7, 7, 7]
    assert "circle10" in held(state, 1) and "circle11" in held(state, 2)
    assert "circle12" in held(state, 3)  # in turn from the player's left
    assert state.to_act() == 0


def test_a_special_card_played_as_the_last_card_wins():
    state = start([["circle2", "triangle5", "triangle7", "triangle8", "triangle10",
                    "triangle11"],
                   ["cross1", "cross2", "cross3", "cross5", "cross7", "cross10"]],
                  dealer=1, rules="nigerian", max_turns=0)
    state.hands[0] = [whot.DECK.parse("circle2")]  # a doctored position: one card left
    state.act("play circle2")
    assert state.snapshot()["ended"] == "won" and state.snapshot()["pending"] is None


def test_last_card_must_be_announced_or_the_player_draws_the_penalty():
    hands = [["circle7", "circle10", "circle11", "circle12", "circle13", "triangle3"],
             ["circle3", "cross3", "cross7", "cross10", "cross11", "cross13"],
             ["square3", "square7", "square10", "square11", "square13", "star3"]]
    top = ["star4", "star5", "star7", "star8", "cross1", "cross2", "cross5", "square1"]
    state = start(hands, top=top, dealer=2, rules="nigerian")
    for text in ("circle7", "circle3", "draw", "circle10", "draw", "draw", "circle11",
                 "draw", "draw", "circle12", "draw", "draw"):
        state.act(text if text == "draw" else f"play {text}")
    assert state.to_act() == 0  # circle7, 10, 11, 12 played: circle13 and triangle3 left
    assert "play triangle3 last card" not in state.legal_texts()  # triangle3 cannot follow
    assert sorted(held(state, 0)) == ["circle13", "triangle3"]
    legal = state.legal_texts()
    assert "play circle13 last card" in legal and "play circle13" in legal
    twin = state.clone()
    state.act("play circle13 last card")
    assert state.snapshot()["last_card_calls"] == [0]
    assert held(state, 0) == ["triangle3"]
    twin.act("play circle13")  # forgot: the table makes him draw two
    assert twin.snapshot()["last_card_missed"] == [0]
    assert len(held(twin, 0)) == 3
    with pytest.raises(IllegalActionError, match="leaves one card"):
        start(hands, top=top, dealer=2, rules="nigerian").act("play circle7 last card")
    with pytest.raises(IllegalActionError, match="last_card"):
        start(hands, top=top, dealer=2).act("play circle7 last card")


def test_a_whot_does_not_answer_a_pick():
    hands = [["circle2", "circle3", "circle4", "circle7", "circle8", "circle10"],
             ["whot20", "cross3", "cross7", "cross10", "cross11", "cross13"]]
    state = start(hands, top=["star4", "star5"], dealer=1, rules="nigerian")
    state.act("play circle2")
    assert state.legal_texts() == ["draw"]
    with pytest.raises(IllegalActionError, match="must pick 2"):
        state.act("play whot20 call star")


# -- every play follows the call, in many seeded games ----------------------------------------
def _follows(before: dict, act: str) -> bool:
    words = act.split()
    if words[0] != "play":
        return True
    symbol, number = face(words[1])
    if before["pending"]:
        return number == (2 if before["pending"]["card"] == "pick-two" else 5)
    if before["call_card"] is None or symbol == "whot":
        return True
    if before["called_symbol"]:
        return symbol == before["called_symbol"]
    call_symbol, call_number = face(before["call_card"])
    return symbol == call_symbol or number == call_number


@pytest.mark.parametrize("rules", ["classic", "nigerian"])
def test_every_play_followed_the_call(rules):
    for seed in range(12):
        players = 2 + seed % 7
        table = cardlab.new_game("whot", players=players, seed=seed, rubber="single",
                                 rules=rules, max_turns=400)
        kind = "heuristic" if seed % 2 else "random"
        table.play([make_bot(kind, "whot", seed=f"{seed}/{s}") for s in range(players)])
        cursor = Cursor(table.replay)
        before = cursor.first().position
        for index in range(1, len(cursor)):
            pos = cursor.goto(index).position
            assert _follows(before, pos["action"]["act"]), (seed, pos["action"], before)
            before = pos


# -- the position, the log, the CLI -----------------------------------------------------------
def test_the_position_has_every_key_and_a_seat_sees_only_its_own_hand():
    table = cardlab.new_game("whot", players=4, seed=5, rules="nigerian")
    table.act(table.state.legal_texts()[0])
    pos = Cursor(table.replay).last().position
    for key in ("game", "phase", "hand", "dealer", "to_act", "legal", "hands", "hand_counts",
                "call_card", "called_symbol", "stock_size", "pile_size", "pending", "sheet",
                "totals", "hand_scores", "kitty", "ended", "winner"):
        assert key in pos, key
    assert pos["game"] == "whot" and pos["phase"] == "play" and pos["hand"] == 1
    assert pos["stock_size"] + pos["pile_size"] + sum(pos["hand_counts"]) == 54
    view = Cursor(table.replay, seat=1).last().position
    assert view["hands"][1] == pos["hands"][1]
    assert [h for s, h in enumerate(view["hands"]) if s != 1] == [None] * 3
    assert view["legal"] == ([] if pos["to_act"] != 1 else pos["legal"])


def test_a_replay_round_trips_and_a_tampered_one_is_refused():
    table = cardlab.new_game("whot", players=3, seed=9, rubber="single")
    table.play([make_bot("random", "whot", seed=s) for s in range(3)])
    text = table.replay.to_json()
    assert cardlab.loads(text).to_json() == text
    data = json.loads(text)
    data["hands"][0]["actions"][0]["act"] = "draw"  # the leader may not draw
    with pytest.raises(ReplayError, match="leads"):
        cardlab.loads(json.dumps(data))
    data = json.loads(text)
    data["hands"][0]["deal"]["stock"].pop()
    with pytest.raises(ReplayError, match="whole pack"):
        cardlab.loads(json.dumps(data))


def test_the_example_rubber_is_valid_and_is_what_its_script_records():
    path = ROOT / "replays" / "whot-example.json"
    replay = cardlab.load(path)
    assert replay.game == "whot" and len(replay.hands) == 5
    assert replay.options["rubber"] == "short"
    spec = importlib.util.spec_from_file_location("make_whot_example",
                                                  ROOT / "scripts" / "make_whot_example.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.build().to_json() == path.read_text(encoding="utf-8")
    notes = [a.note for h in replay.hands for a in h.actions if a.note]
    assert any("turned face down" in n for n in notes)
    assert any("over a WHOT" in n for n in notes)
    assert any(replay.variation_paths(h) for h in range(1, len(replay.hands) + 1))


def test_the_cli_plays_shows_and_validates_whot(tmp_path, capsys):
    out = tmp_path / "whot.json"
    with pytest.raises(SystemExit) as code:
        cli_main(["play", "whot", "--players", "4", "--seed", "5", "--option", "rubber=short",
                  "--option", "rules=nigerian", "--out", str(out)])
    assert code.value.code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["options"]["rules"] == "nigerian" and len(data["hands"]) == 5
    with pytest.raises(SystemExit):
        cli_main(["show", str(out)])
    shown = capsys.readouterr().out
    assert "Game 5" in shown and "Final:" in shown  # a Whot hand is a game of the rubber
    with pytest.raises(SystemExit):
        cli_main(["validate", str(out)])
    assert "valid Whot replay, 5 games" in capsys.readouterr().out


# -- bots -------------------------------------------------------------------------------------
def test_the_heuristic_bot_calls_the_symbol_it_holds_most_of():
    bot = make_bot("heuristic", "whot", seed=1)
    hands = [["triangle1", "triangle2", "triangle3", "triangle4", "triangle5", "triangle7"],
             ["whot20", "star1", "star2", "star3", "circle14", "cross1"]]
    state = start(hands, dealer=1)
    state.act("play triangle7")  # seat 1 has no triangle and no 7
    assert state.action_text(bot(state, 1)) == "draw"  # early: it keeps its WHOT
    # a doctored position: seat 0 is close to going out (two cards), so now seat 1 plays
    # its WHOT, and calls stars (three stars, one circle, one cross)
    state.hands[0] = [whot.DECK.parse(c) for c in ("triangle1", "triangle2")]
    assert state.action_text(bot(state, 1)) == "play whot20 call star"


def test_the_heuristic_bot_keeps_a_whot_early_and_sheds_high_cards_first():
    bot = make_bot("heuristic", "whot", seed=1)
    hands = [["triangle7", "circle1", "circle2", "circle3", "circle4", "circle5"],
             ["whot20", "star8", "cross1", "square2", "square3", "square5"]]
    state = start(hands, dealer=1)
    state.act("play triangle7")  # seat 1 cannot follow: keeps the WHOT and draws
    assert state.action_text(bot(state, 1)) == "draw"
    state = start([["circle7", "circle1", "circle2", "circle3", "circle4", "circle5"],
                   ["circle13", "circle8", "star1", "square2", "square3", "square5"]],
                  dealer=1)
    state.act("play circle7")
    assert state.action_text(bot(state, 1)) == "play circle13"


def test_heuristic_bots_beat_random_bots():
    penalty = {"heuristic": 0, "random": 0}
    for seed in range(30):
        kinds = ["heuristic", "random"] if seed % 2 else ["random", "heuristic"]
        table = cardlab.new_game("whot", players=2, seed=seed, rubber="single",
                                 rules="nigerian" if seed % 3 == 0 else "classic")
        table.play([make_bot(k, "whot", seed=f"{seed}/{i}") for i, k in enumerate(kinds)])
        for seat, kind in enumerate(kinds):
            penalty[kind] += table.state.totals()[seat]
    assert penalty["heuristic"] * 2 < penalty["random"]


def test_seeded_games_do_not_depend_on_the_global_random_state():
    def record(disturb: bool) -> str:
        table = cardlab.new_game("whot", players=3, seed=21, rubber="single",
                                 rules="nigerian")
        bots = [make_bot("random", "whot", seed=s) for s in range(3)]
        while table.state.to_act() >= 0:
            if disturb:
                random.seed(random.random())
            seat = table.state.to_act()
            table.apply(bots[seat](table.state, seat))
        return table.replay.to_json()

    assert record(False) == record(True)
