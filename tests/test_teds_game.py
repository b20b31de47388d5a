"""Ted's Game: every rule of the rule text, the readings we chose, bots, replays and the CLI.

The rule text is the seed "Ted's Game" (an Oh Hell variant); the readings are written up in
docs/rules-interpretations.md. Expected numbers here come from the rule text (and the seed's own
scoring tables), worked out by hand, not from running the engine.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from oracle_teds_game import hand_scores as oracle_scores

import cardlab
from cardlab.bots import RandomBot, make_bot
from cardlab.cards import deal_round_robin, draw, seeded_words
from cardlab.cli import run as cli_run
from cardlab.cursor import Cursor
from cardlab.games.teds_game.engine import (
    BID,
    CHANGE,
    DECK,
    TedsGameRules,
    TedsGameState,
    score,
)

ROOT = Path(__file__).resolve().parent.parent
GAME = "teds-game"


# -- helpers ------------------------------------------------------------------------------
def draw_record(players: int, dealer: int) -> dict:
    """A one-round draw in which ``dealer`` draws the only 2."""
    row = [f"{rank}S" for rank in range(3, 3 + players)]
    row[dealer] = "2C"
    return {"draws": [row], "first_dealer": dealer}


def table(players: int = 3, dealer: int = 0, **options) -> cardlab.Table:
    """A table without a seed: the draw and every deal are entered by hand."""
    t = cardlab.new_game(GAME, players=players, **options)
    t.setup(draw_record(players, dealer))
    return t


def state_of(t: cardlab.Table) -> TedsGameState:
    assert isinstance(t.state, TedsGameState)
    return t.state


def play_line(t: cardlab.Table, *acts: str) -> None:
    for act in acts:
        t.act(act)


def random_game(players: int, seed: int, **options) -> cardlab.Table:
    t = cardlab.new_game(GAME, players=players, seed=seed, **options)
    t.play([RandomBot(f"{seed}/{s}") for s in range(players)])
    return t


# -- players, deck, options -----------------------------------------------------------------
def test_three_to_eight_players():
    for players in range(3, 9):
        assert TedsGameRules(players=players).players == players
    for players in (2, 9):
        with pytest.raises(cardlab.OptionError, match="players"):
            TedsGameRules(players=players)


def test_the_standard_deck_aces_high():
    assert len(DECK) == 52 and len(set(DECK.codes)) == 52
    for suit in "CDHS":
        ranks = [DECK.rank_of[DECK.parse(f"{r}{suit}")] for r in
                 ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
        assert ranks == sorted(ranks) and ranks[-1] == 14  # the ace is the highest card


@pytest.mark.parametrize("players, first", [(3, 10), (4, 10), (5, 10), (6, 8), (7, 7), (8, 6)])
def test_first_hand_size_by_players(players, first):
    sizes = TedsGameRules(players=players).hand_sizes()
    assert sizes[0] == sizes[-1] == first
    assert sizes == tuple(range(first, 0, -1)) + tuple(range(2, first + 1))


def test_seven_players_play_thirteen_hands():
    assert TedsGameRules(players=7).hand_sizes() == (7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7)


def test_start_size_option_within_the_deck():
    # one card must be left on the deck to turn up for trump: players * size + 1 <= 52
    for players in range(3, 9):
        most = 51 // players
        assert TedsGameRules(players=players, start_size=most).hand_sizes()[0] == most
        with pytest.raises(cardlab.OptionError, match=f"at most {most}"):
            TedsGameRules(players=players, start_size=most + 1)
    assert TedsGameRules(players=3, start_size=17).hand_sizes()[0] == 17  # 51 cards dealt
    assert TedsGameRules(players=4, start_size="3").options["start_size"] == 3
    assert TedsGameRules(players=5, start_size=1).hand_sizes() == (1,)
    with pytest.raises(cardlab.OptionError):
        TedsGameRules(start_size=0)
    with pytest.raises(cardlab.OptionError, match="mode"):
        TedsGameRules(mode="casual")


def test_options_written_out_in_full():
    assert TedsGameRules(players=6).options == {"players": 6, "start_size": 8, "mode": "strict"}


# -- scoring: the seed's three example tables, row by row ----------------------------------
@pytest.mark.parametrize("bid, taken, dealt, points", [
    (3, 3, 10, 19),  # 10 cards dealt: bids 3 and takes 3
    (0, 0, 10, 20),  # bid 0 and takes 0
    (2, 4, 10, -8),  # bid 2 and took 4: missed by 2
    (1, 1, 5, 11),  # 5 cards dealt: bids 1 and takes 1
    (0, 0, 5, 15),  # bid 0 and takes 0
    (2, 3, 5, -1),  # bid 2 and took 3: missed by 1
])
def test_scoring_examples(bid, taken, dealt, points):
    assert score(bid, taken, dealt) == points


@pytest.mark.parametrize("missed, points", [(1, -1), (2, -8), (3, -27), (4, -64)])
def test_missed_by_table_over_and_under(missed, points):
    assert score(5, 5 + missed, 10) == points  # over
    assert score(5, 5 - missed, 10) == points  # under


@pytest.mark.parametrize("bid, points", [(1, 11), (2, 14), (3, 19), (4, 26), (5, 35), (6, 46)])
def test_correct_bids_table(bid, points):
    assert score(bid, bid, 10) == points
    assert score(bid, bid, 6) == points  # the cards dealt only matter for a zero bid


@pytest.mark.parametrize("dealt", range(1, 11))
def test_zero_bids_table(dealt):
    assert score(0, 0, dealt) == 10 + dealt  # 1 card: 11 points ... 10 cards: 20 points


# -- a whole game entered by hand ---------------------------------------------------------
def test_three_hand_game_by_hand():
    """3 players, start size 2: hands of 2, 1 and 2 cards; seat 0 draws lowest and deals."""
    t = table(3, dealer=0, start_size=2)
    st = state_of(t)
    # hand 1: seat 0 deals, seat 1 bids first and leads; trump hearts
    t.deal({"hands": [["KS", "AS"], ["2C", "3C"], ["2D", "3D"]], "turned": "4H"})
    assert (st.dealer, st.to_act(), st.snapshot()["trump"]) == (0, 1, "hearts")
    play_line(t, "bid 0", "bid 0")
    assert st.to_act() == 0  # the dealer bids last
    with pytest.raises(cardlab.IllegalActionError, match="hook.*may not bid 2"):
        t.act("bid 2")
    t.act("bid 1")
    assert st.to_act() == 1  # left of the dealer leads
    # no one can follow clubs and nobody trumps: the 2 of clubs wins against the ace of spades
    play_line(t, "play 2C", "play 2D", "play KS", "play 3C", "play 3D", "play AS")
    assert t.replay.hands[0].scores == [-1, -8, 12]  # bid 1 took 0; bid 0 took 2; exact zero
    # hand 2: one card each; the deal passes clockwise to seat 1; seat 2 bids first
    t.deal({"hands": [["2H"], ["AS"], ["KS"]], "turned": "5H"})
    assert (st.dealer, st.to_act(), st.hand_size_now()) == (1, 2, 1)
    play_line(t, "bid 0", "bid 1")
    assert st.legal_texts() == ["bid 1"]  # 0 would make the bids add up to the one trick
    t.act("bid 1")
    play_line(t, "play KS", "play 2H", "play AS")  # seat 0 is void in spades and trumps
    assert state_of(t).history[-1][2] == 0
    assert t.replay.hands[1].scores == [11, -1, 11]  # 10 + 1², 1 missed, 10 + 1 card dealt
    # hand 3: two cards again; seat 2 deals, seat 0 leads
    t.deal({"hands": [["4C", "3H"], ["5C", "9H"], ["2C", "6C"]], "turned": "7H"})
    play_line(t, "bid 0", "bid 2")
    assert st.legal_texts() == ["bid 1", "bid 2"]
    t.act("bid 1")
    t.act("play 4C")
    with pytest.raises(cardlab.IllegalActionError, match="must follow clubs"):
        t.act("play 9H")
    play_line(t, "play 5C", "play 2C")
    assert st.to_act() == 1  # the winner of a trick leads the next
    play_line(t, "play 9H", "play 6C", "play 3H")  # 9H beats 3H: the highest trump wins
    assert t.replay.hands[2].scores == [12, 14, -1]
    assert st.is_game_over() and t.replay.totals == [22, 5, 22]
    again = cardlab.loads(t.replay.to_json())
    cursor = Cursor(again)
    for h, hand in enumerate(again.hands):
        cursor.goto(cursor.find(h + 1, len(hand.actions)))
        assert oracle_scores(cursor.position, again.options) == hand.scores


def test_trump_beats_a_higher_card_of_the_suit_led():
    t = table(4, dealer=3, start_size=1)
    t.deal({"hands": [["AD"], ["KD"], ["2S"], ["QD"]], "turned": "9S"})
    play_line(t, "bid 1", "bid 0", "bid 1", "bid 0")
    play_line(t, "play AD", "play KD", "play 2S", "play QD")
    trick = state_of(t).snapshot()["tricks"][0]
    assert (trick["winner"], trick["winning_card"], trick["reason"]) == (2, "2S", "the only trump")


def test_trump_may_be_led():
    t = table(3, dealer=0, start_size=1)
    t.deal({"hands": [["3C"], ["5H"], ["AH"]], "turned": "9H"})
    play_line(t, "bid 0", "bid 0", "bid 0")
    assert "play 5H" in state_of(t).legal_texts()
    play_line(t, "play 5H", "play AH", "play 3C")
    assert state_of(t).snapshot()["tricks"][0]["reason"] == "highest trump"


# -- first dealer: the draw -------------------------------------------------------------------
def test_lowest_card_deals_first():
    t = cardlab.new_game(GAME, players=4, start_size=1)
    t.setup({"draws": [["9C", "4D", "KH", "AS"]], "first_dealer": 1})
    assert state_of(t).first_dealer == 1
    t.deal({"hands": [["2C"], ["3C"], ["4C"], ["5C"]], "turned": "6C"})
    assert state_of(t).dealer == 1 and state_of(t).to_act() == 2


def test_a_tie_for_lowest_draws_again_among_the_tied():
    t = cardlab.new_game(GAME, players=4)
    record = {"draws": [["3C", "3D", "9H", "3S"], ["7C", "KS", None, "5D"]], "first_dealer": 3}
    t.setup(record)
    assert state_of(t).first_dealer == 3
    assert t.replay.setup == record
    assert state_of(t).snapshot()["draw"] == record["draws"]


@pytest.mark.parametrize("record, message", [
    ({"draws": [["3C", "3D", "9H", "4S"]], "first_dealer": 0}, "tie for lowest"),
    ({"draws": [["3C", "5D", "9H", "4S"]], "first_dealer": 1}, "seat 0.*deals first"),
    ({"draws": [["3C", "5D", "9H", "4S"], ["2C", None, None, None]], "first_dealer": 0},
     "already has a single lowest"),
    ({"draws": [["3C", "3D", "9H", "4S"], ["2C", "5C", "8C", None]], "first_dealer": 0},
     "does not draw"),
    ({"draws": [["3C", "3D", "9H", "4S"], ["2C", None, None, None]], "first_dealer": 0},
     "must draw"),
    ({"draws": [["3C", "3C", "9H", "4S"]], "first_dealer": 0}, "named twice"),
    ({"draws": [["3C", "5D", "9H"]], "first_dealer": 0}, "one entry per seat"),
    ({"draws": [["3C", "5D", "9H", "ZZ"]], "first_dealer": 0}, "not a card"),
    ({"draws": []}, "draw for first dealer"),
    ({"draws": [["3C", "5D", "9H", "4S"]], "first_dealer": True}, "deals first"),
])
def test_a_wrong_draw_is_refused(record, message):
    t = cardlab.new_game(GAME, players=4)
    with pytest.raises(cardlab.CardlabError, match=message):
        t.setup(record)


def test_seeded_draws_follow_the_rule():
    for players in range(3, 9):
        for seed in range(60):
            record = cardlab.new_game(GAME, players=players, seed=seed).replay.setup
            drawing = set(range(players))
            for row in record["draws"]:
                assert {s for s, c in enumerate(row) if c is not None} == drawing
                ranks = {s: DECK.rank_of[DECK.parse(row[s])] for s in drawing}
                low = min(ranks.values())
                drawing = {s for s, r in ranks.items() if r == low}
            assert drawing == {record["first_dealer"]}


# -- golden seeded deals ----------------------------------------------------------------------
GOLDEN = [
    (4, 4, {"draws": [["3H", "4D", "8H", "3C"],
                      ["QH", None, None, "2H"]],
             "first_dealer": 3},
     {"hands": [["2C", "KC", "QD", "8H", "KH", "AH", "6S", "7S", "JS", "AS"],
                ["5C", "8C", "9C", "JC", "QC", "2D", "3D", "5H", "JH", "9S"],
                ["6C", "7C", "7D", "JD", "KD", "AD", "3H", "3S", "8S", "QS"],
                ["3C", "4C", "AC", "8D", "10D", "2H", "4H", "7H", "4S", "5S"]],
      "turned": "KS"}),
    (5, 22, {"draws": [["2C", "4S", "9D", "6C", "AS"]],
             "first_dealer": 0},
     {"hands": [["5C", "JC", "2D", "3D", "6D", "QD", "KD", "3H", "4H", "9H"],
                ["6C", "8C", "9C", "10C", "QC", "4D", "8D", "KH", "AH", "9S"],
                ["3C", "KC", "7D", "10D", "6H", "2S", "3S", "5S", "8S", "JS"],
                ["7C", "AC", "AD", "2H", "5H", "7H", "10H", "7S", "QS", "AS"],
                ["2C", "4C", "5D", "9D", "JD", "JH", "QH", "4S", "10S", "KS"]],
      "turned": "8H"}),
    (8, 3, {"draws": [["JS", "4D", "QS", "KD", "2S", "AD", "10D", "4S"]],
             "first_dealer": 4},
     {"hands": [["6C", "8C", "QD", "2H", "5S", "KS"],
                ["10C", "4D", "6D", "JD", "QH", "3S"],
                ["5C", "QC", "3D", "5H", "9H", "8S"],
                ["JC", "7D", "AD", "7H", "10H", "AH"],
                ["3C", "4C", "8D", "6S", "10S", "JS"],
                ["AC", "10D", "KH", "4S", "9S", "AS"],
                ["7C", "9C", "2D", "5D", "3H", "4H"],
                ["2C", "KC", "KD", "6H", "8H", "7S"]],
      "turned": "9D"}),
    (3, 0, {"draws": [["AH", "3S", "9H"]],
             "first_dealer": 1},
     {"hands": [["4C", "9C", "2D", "3D", "5D", "6D", "8D", "2H", "4H", "JH"],
                ["5C", "6C", "8C", "4D", "KD", "7H", "9H", "AH", "7S", "8S"],
                ["JC", "KC", "AC", "9D", "10D", "QD", "10H", "3S", "9S", "KS"]],
      "turned": "10C"}),
]


@pytest.mark.parametrize("players, seed, setup, deal", GOLDEN)
def test_golden_seeded_draw_and_deal(players, seed, setup, deal):
    t = cardlab.new_game(GAME, players=players, seed=seed)
    assert t.replay.setup == setup
    assert t.replay.hands[0].deal == deal
    size = TedsGameRules(players=players).hand_sizes()[0]
    # the deal itself follows the rules: sizes, one of each card, the turned card left over
    dealt = [c for hand in deal["hands"] for c in hand]
    assert all(len(hand) == size for hand in deal["hands"])
    assert len(set(dealt + [deal["turned"]])) == players * size + 1


def test_seeded_deal_is_one_card_at_a_time_from_the_dealers_left_then_the_turn():
    """Rebuilt from the core's shuffle alone: the first card goes left of the dealer, and the
    card after the last one dealt is turned up."""
    for players, seed in ((3, 1), (4, 2), (6, 5), (8, 9)):
        t = cardlab.new_game(GAME, players=players, seed=seed, start_size=3)
        t.play([RandomBot(s) for s in range(players)], until="hand")
        st = state_of(t)
        for hand in (1, 2):
            size = TedsGameRules(players=players, start_size=3).hand_sizes()[hand - 1]
            dealer = (st.first_dealer + hand - 1) % players
            count = players * size + 1
            order = draw(seeded_words(seed, "teds-game", hand, count=count), 52, count)
            hands = deal_round_robin(order, players, size, first=(dealer + 1) % players)
            expected = [sorted(DECK.codes[c] for c in h) for h in hands]
            got = [sorted(h) for h in t.replay.hands[hand - 1].deal["hands"]]
            assert got == expected
            assert t.replay.hands[hand - 1].deal["turned"] == DECK.codes[order[-1]]


def test_seeded_deal_does_not_depend_on_earlier_hands():
    a = cardlab.new_game(GAME, players=4, seed=11, start_size=3)
    b = cardlab.new_game(GAME, players=4, seed=11, start_size=3)
    a.play([RandomBot(1)] * 4, until="hand")
    b.play([make_bot("heuristic", GAME, seed=2)] * 4, until="hand")
    assert a.replay.hands[1].deal == b.replay.hands[1].deal


# -- deal rotation, trump, bidding order ------------------------------------------------------
@pytest.mark.parametrize("players", range(3, 9))
def test_rotation_sizes_and_order_over_a_whole_game(players):
    t = random_game(players, seed=players, start_size=3)
    replay = t.replay
    sizes = (3, 2, 1, 2, 3)
    assert len(replay.hands) == len(sizes)
    first = replay.setup["first_dealer"]
    cursor = Cursor(replay)
    for h, hand in enumerate(replay.hands):
        dealer = (first + h) % players  # the deal passes clockwise (to the left)
        assert all(len(cards) == sizes[h] for cards in hand.deal["hands"])
        bidders = [replay.seat_index(a.seat) for a in hand.actions[:players]]
        assert bidders == [(dealer + 1 + k) % players for k in range(players)]
        assert all(a.act.startswith("bid ") for a in hand.actions[:players])
        cursor.goto(cursor.find(h + 1, players))  # after the dealer's bid
        pos = cursor.position
        assert pos["dealer"] == dealer and pos["to_act"] == (dealer + 1) % players
        assert pos["trump"] == {"C": "clubs", "D": "diamonds", "H": "hearts",
                                "S": "spades"}[pos["turned"][-1]]
        assert pos["turned"] not in [c for cards in hand.deal["hands"] for c in cards]


def test_a_wrong_deal_is_refused():
    t = table(3, dealer=0, start_size=2)
    good = [["KS", "AS"], ["2C", "3C"], ["2D", "3D"]]
    for record, message in [
        ({"hands": good}, "deal is"),
        ({"hands": good[:2], "turned": "4H"}, "each of the 3 players"),
        ({"hands": [["KS"], ["2C", "3C"], ["2D", "3D"]], "turned": "4H"}, "deals 2 cards"),
        ({"hands": [["KS", "AS"], ["2C", "3C"], ["2D", "AS"]], "turned": "4H"}, "twice"),
        ({"hands": good, "turned": "AS"}, "turned card A♠ was also dealt"),
        ({"hands": good, "turned": "1H"}, "not a card"),
    ]:
        with pytest.raises(cardlab.CardlabError, match=message):
            t.deal(record)
    t.deal({"hands": good, "turned": "4H"})


# -- the hook -------------------------------------------------------------------------------
def test_the_hook_refusal_names_the_rule_and_the_number():
    t = table(4, dealer=3, start_size=5)
    t.deal(cardlab.new_game(GAME, players=4, seed=1, start_size=5).replay.hands[0].deal)
    play_line(t, "bid 1", "bid 2", "bid 0")
    st = state_of(t)
    assert st.snapshot()["forbidden_bid"] == 2
    assert "bid 2" not in st.legal_texts() and len(st.legal_texts()) == 5
    with pytest.raises(cardlab.IllegalActionError) as err:
        t.act("bid 2")
    assert "hook" in str(err.value) and "may not bid 2" in str(err.value)
    assert err.value.seat == "West" and err.value.action == "bid 2"
    t.act("bid 3")  # over-bid by one: allowed
    assert st.snapshot()["forbidden_bid"] == 2  # still shown after the dealer's bid


def test_no_number_is_forbidden_when_the_others_already_bid_more_than_the_tricks():
    t = table(3, dealer=0, start_size=2)
    t.deal({"hands": [["KS", "AS"], ["2C", "3C"], ["2D", "3D"]], "turned": "4H"})
    play_line(t, "bid 2", "bid 1")
    st = state_of(t)
    assert st.legal_texts() == ["bid 0", "bid 1", "bid 2"]
    assert st.snapshot()["forbidden_bid"] is None


def test_forbidden_bid_is_unknown_before_the_dealers_turn():
    t = table(3, dealer=0, start_size=2)
    t.deal({"hands": [["KS", "AS"], ["2C", "3C"], ["2D", "3D"]], "turned": "4H"})
    t.act("bid 1")
    assert state_of(t).snapshot()["forbidden_bid"] is None


def test_the_hook_holds_in_every_hand_of_many_seeded_games():
    checked = 0
    for seed in range(240):
        players = 3 + seed % 6
        kind = "heuristic" if seed % 3 == 0 else "random"
        t = cardlab.new_game(GAME, players=players, seed=seed, start_size=1 + seed % 3)
        bots = [make_bot(kind, GAME, seed=f"{seed}/{s}") for s in range(players)]
        while not t.state.is_game_over():
            st = state_of(t)
            if st.phase == "play" and not st.history and not st.trick:
                assert sum(st.bids) != st.size, f"seed {seed}: the bids add up to the tricks"
                checked += 1
            seat = st.to_act()
            t.apply(bots[seat](st, seat))
    assert checked > 600


def test_the_dealer_can_never_be_forced_out_of_bids():
    st = TedsGameRules(players=3, start_size=1).new_state()
    assert isinstance(st, TedsGameState)
    st.apply_chance(draw_record(3, 0))
    st.apply_chance({"hands": [["2C"], ["3C"], ["4C"]], "turned": "5C"})
    st.act("bid 0")
    st.act("bid 0")
    assert st.legal_texts() == ["bid 0"]  # 1 is forbidden; 0 remains


# -- changing a bid -----------------------------------------------------------------------------
def dealt_table(players: int = 4, dealer: int = 3, start_size: int = 5, **options):
    t = table(players, dealer=dealer, start_size=start_size, **options)
    t.deal(cardlab.new_game(GAME, players=players, seed=1, start_size=start_size)
           .replay.hands[0].deal)
    return t


def test_a_bid_may_be_changed_until_the_next_player_bids():
    t = dealt_table()
    st = state_of(t)
    t.act("bid 3")
    t.act("change bid 2", note="North thinks again")
    recorded = t.replay.hands[0].actions[-1]
    assert (recorded.seat, recorded.act) == ("North", "change bid 2")  # the changer's seat
    assert st.to_act() == 1 and st.bids[0] == 2
    t.act("change bid 4")  # as often as North likes, while East has not bid
    t.act("bid 1")  # East bids: North's bid is final
    t.act("change bid 0")  # a change now is East's
    assert t.replay.hands[0].actions[-1].seat == "East"
    snap = st.snapshot()
    assert snap["bids"] == [4, 0, None, None]
    assert snap["bid_changes"] == [{"seat": 0, "from": 3, "to": 2},
                                   {"seat": 0, "from": 2, "to": 4},
                                   {"seat": 1, "from": 1, "to": 0}]
    assert snap["may_change"] == {"seat": 1, "bid": 0}
    assert not any(a >= CHANGE for a in st.legal_actions())  # the seat to act cannot change


def test_a_change_by_the_player_before_the_dealer_moves_the_hook():
    t = dealt_table()
    play_line(t, "bid 1", "bid 1", "bid 1")
    st = state_of(t)
    assert st.snapshot()["forbidden_bid"] == 2
    t.act("change bid 3")  # South, the last before the dealer, changes: 1 + 1 + 3 = 5
    assert st.snapshot()["forbidden_bid"] == 0
    assert st.legal_texts() == ["bid 1", "bid 2", "bid 3", "bid 4", "bid 5"]
    with pytest.raises(cardlab.IllegalActionError, match="may not bid 0"):
        t.act("bid 0")
    t.act("bid 2")
    assert sum(st.bids) != st.size


def test_the_dealers_bid_is_final():
    t = dealt_table()
    play_line(t, "bid 1", "bid 1", "bid 1", "bid 0")
    with pytest.raises(cardlab.IllegalActionError, match="can no longer be changed"):
        t.act("change bid 1")


@pytest.mark.parametrize("acts, text, message", [
    ((), "change bid 1", "nobody has bid yet"),
    (("bid 2",), "change bid 2", "already 2"),
    (("bid 2",), "change bid 6", "from 0 to 5"),
    (("bid 2",), "bid 6", "from 0 to 5"),
    (("bid 2",), "play AS", "must bid before"),
])
def test_bad_bids_and_changes_are_refused(acts, text, message):
    t = dealt_table()
    play_line(t, *acts)
    with pytest.raises(cardlab.IllegalActionError, match=message):
        t.act(text)


def test_a_change_refusal_names_the_changer():
    t = dealt_table()
    t.act("bid 2")
    with pytest.raises(cardlab.IllegalActionError) as err:
        t.act("change bid 2")
    assert err.value.seat == "North"


def test_bid_changes_survive_the_replay_and_the_cursor():
    t = dealt_table()
    play_line(t, "bid 3", "change bid 2", "bid 1", "bid 1", "change bid 0", "bid 1")
    again = cardlab.loads(t.replay.to_json())
    cursor = Cursor(again)
    assert cursor.goto(1).position["bids"] == [3, None, None, None]
    pos = cursor.goto(2).position
    assert pos["bids"] == [2, None, None, None] and pos["action"]["seat"] == "North"
    assert cursor.goto(6).position["bid_changes"][-1] == {"seat": 2, "from": 1, "to": 0}


def test_a_change_recorded_for_a_seat_that_may_not_change_is_refused():
    t = dealt_table()
    play_line(t, "bid 3", "bid 1", "change bid 0")
    data = json.loads(t.replay.to_json())
    data["hands"][0]["actions"][2]["seat"] = "North"  # North's bid is final once East bid
    with pytest.raises(cardlab.ReplayError, match="'change bid 0' is East's to make"):
        cardlab.loads(json.dumps(data))


# -- strict and table modes --------------------------------------------------------------------
RENEGE_DEAL = {"hands": [["2C", "9D"], ["3C", "AH"], ["4C", "5D"]], "turned": "7H"}


def test_strict_mode_refuses_a_renege():
    t = table(3, dealer=0, start_size=2)
    t.deal(RENEGE_DEAL)
    play_line(t, "bid 0", "bid 1", "bid 0", "play 3C")
    with pytest.raises(cardlab.IllegalActionError,
                       match="South must follow clubs, the suit led: South holds 4♣"):
        t.act("play 5D")


def test_table_mode_records_a_renege_with_no_score_change():
    t = table(3, dealer=0, start_size=2, mode="table")
    t.deal(RENEGE_DEAL)
    play_line(t, "bid 0", "bid 1", "bid 0", "play 3C", "play 5D", "play 2C")
    st = state_of(t)
    assert st.snapshot()["reneges"] == [{"trick": 1, "seat": 2, "card": "5D"}]
    assert st.history[0][2] == 1  # 3C is the highest club: the renege does not win
    # seat 1 leads AH (trump) and wins again; seat 2 still follows what it can
    play_line(t, "play AH", "play 4C", "play 9D")
    assert t.replay.hands[0].scores == [score(0, 0, 2), score(0, 2, 2), score(1, 0, 2)]
    with pytest.raises(cardlab.IllegalActionError):
        t.act("play 2C")  # next hand is not dealt
    cardlab.loads(t.replay.to_json())  # the renege replays


def test_a_renege_with_a_trump_can_win_in_table_mode():
    t = table(3, dealer=0, start_size=2, mode="table")
    t.deal({"hands": [["2C", "9D"], ["3C", "AH"], ["4C", "5H"]], "turned": "7H"})
    play_line(t, "bid 0", "bid 1", "bid 0", "play 3C", "play 5H", "play 2C")
    assert state_of(t).history[0][2] == 2


def test_table_mode_still_refuses_a_card_not_held():
    t = table(3, dealer=0, start_size=2, mode="table")
    t.deal(RENEGE_DEAL)
    play_line(t, "bid 0", "bid 1", "bid 0", "play 3C")
    with pytest.raises(cardlab.IllegalActionError, match="does not hold A♠"):
        t.act("play AS")


# -- actions, snapshot, clone -----------------------------------------------------------------
def test_action_texts_and_aliases():
    st = state_of(dealt_table())
    assert st.parse_action("play QS") == DECK.parse("QS")
    for text in ("play TH", "play 10♥", "play 10 of hearts", "play 10h"):
        assert st.parse_action(text) == DECK.parse("10H")
    assert st.parse_action("play queen of spades") == DECK.parse("QS")
    assert st.parse_action("bid 3") == BID + 3
    assert st.parse_action("change bid 2") == st.parse_action("change 2") == CHANGE + 2
    for action in (0, 51, BID, BID + 17, CHANGE + 4):
        assert st.parse_action(st.action_text(action)) == action
    for bad in ("bid", "bid -1", "bid 100", "bid ²", "change", "pass", "play", "play 1H"):
        with pytest.raises(cardlab.CardCodeError):
            st.parse_action(bad)


def test_snapshot_keys_and_one_seats_view():
    t = dealt_table()
    play_line(t, "bid 1", "bid 2")
    st = state_of(t)
    snap = st.snapshot()
    for key in ("hands", "hand_counts", "trick", "tricks", "dealer", "to_act", "legal", "trump",
                "sheet", "totals", "hand_scores", "hand", "hand_size", "phase", "game", "turned",
                "bids", "bid_changes", "tricks_won", "forbidden_bid", "reneges", "draw",
                "first_dealer", "may_change"):
        assert key in snap, key
    assert snap["game"] == GAME and snap["phase"] == "bid" and snap["hand_size"] == 5
    assert snap["hand_counts"] == [5, 5, 5, 5]
    mine = st.snapshot(seat=1)
    assert mine["hands"][1] == snap["hands"][1]
    assert mine["hands"][0] is None and mine["legal"] == []
    assert mine["turned"] == snap["turned"] and mine["bids"] == snap["bids"]
    assert st.snapshot(seat=2)["legal"] == snap["legal"]
    json.dumps(snap)


def test_tricks_won_and_the_current_trick_in_the_snapshot():
    t = table(3, dealer=0, start_size=2)
    t.deal({"hands": [["KS", "AS"], ["2C", "3C"], ["2D", "3D"]], "turned": "4H"})
    play_line(t, "bid 0", "bid 0", "bid 1", "play 2C", "play 2D")
    snap = state_of(t).snapshot()
    assert snap["trick"] == {"leader": 1, "cards": [[1, "2C"], [2, "2D"]]}
    t.act("play KS")
    snap = state_of(t).snapshot()
    assert snap["tricks_won"] == [0, 1, 0]
    assert snap["tricks"][0]["reason"] == "highest clubs, the suit led"


def test_before_the_first_deal_and_after_the_game():
    st = TedsGameRules(players=3, start_size=1).new_state()
    assert st.chance_kind() == "setup" and st.to_act() == -1 and st.hand_number() == 0
    assert st.snapshot()["phase"] == "setup" and st.totals() == [0, 0, 0]
    with pytest.raises(cardlab.IllegalActionError, match="draw cards for first dealer"):
        st.apply(BID)
    st.apply_chance(draw_record(3, 2))
    assert st.chance_kind() == "deal" and not st.hand_over()
    with pytest.raises(cardlab.IllegalActionError, match="first hand must be dealt"):
        st.apply(BID)


def test_clone_is_independent():
    t = dealt_table()
    play_line(t, "bid 1", "bid 2", "change bid 1")
    st = state_of(t)
    twin = st.clone()
    before = st.snapshot()
    twin.act("bid 0")
    twin.act("bid 0")
    twin.apply(twin.legal_actions()[0])
    assert st.snapshot() == before
    assert twin.snapshot() != before


# -- bots ----------------------------------------------------------------------------------------
def exact_rate(kind: str, games: int = 24) -> float:
    made = total = 0
    for seed in range(games):
        t = cardlab.new_game(GAME, players=4, seed=seed, start_size=6)
        t.play([make_bot(kind, GAME, seed=f"{seed}/{s}") for s in range(4)])
        for row in state_of(t).sheet:
            made += sum(1 for points in row if points > 0)
            total += len(row)
    return made / total


def test_heuristic_bot_makes_its_bid_more_often_than_random():
    assert exact_rate("heuristic") > exact_rate("random") + 0.1


def test_heuristic_bot_ducks_once_its_bid_is_made():
    t = table(3, dealer=0, start_size=2)
    t.deal({"hands": [["JS", "AS"], ["2S", "QS"], ["2D", "3D"]], "turned": "4H"})
    play_line(t, "bid 1", "bid 0", "bid 0", "play QS", "play 3D")
    st = state_of(t)
    bot = make_bot("heuristic", GAME, seed=0)
    assert st.to_act() == 0 and st.bids[0] == 0  # the dealer bid 0: made until it wins one
    assert st.action_text(bot(st, 0)) == "play JS"  # under the queen, not over it


def test_heuristic_bot_takes_when_short():
    t = table(3, dealer=0, start_size=2)
    t.deal({"hands": [["KS", "AS"], ["2S", "QS"], ["2D", "3D"]], "turned": "4H"})
    play_line(t, "bid 1", "bid 0", "bid 2", "play QS", "play 3D")
    st = state_of(t)
    bot = make_bot("heuristic", GAME, seed=0)
    assert st.action_text(bot(st, 0)) == "play KS"  # last to play: the cheapest winner


def test_heuristic_dealer_respects_the_hook(monkeypatch):
    t = dealt_table()
    play_line(t, "bid 1", "bid 1", "bid 1")
    st = state_of(t)
    bot = make_bot("heuristic", GAME, seed=0)
    monkeypatch.setattr(type(bot), "expected_tricks", lambda self, state, seat: 2.2)
    assert st.action_text(bot(st, 3)) == "bid 3"  # 2 is forbidden; 3 is nearer than 1
    monkeypatch.setattr(type(bot), "expected_tricks", lambda self, state, seat: 1.8)
    assert st.action_text(bot(st, 3)) == "bid 1"


# -- the example replay and the CLI -----------------------------------------------------------
def load_script():
    spec = importlib.util.spec_from_file_location("make_teds_example",
                                                  ROOT / "scripts" / "make_teds_example.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_replay_loads_and_notes_the_hook():
    replay = cardlab.load(ROOT / "replays" / "teds-game-example.json")
    assert replay.game == GAME and len(replay.seats) == 4
    assert len(replay.hands) == len(TedsGameRules(players=4).hand_sizes())
    assert replay.totals is not None
    cursor = Cursor(replay)
    bites = 0
    for h, hand in enumerate(replay.hands):
        dealer = (replay.setup["first_dealer"] + h) % 4
        index = next(i for i, a in enumerate(hand.actions)
                     if a.act.startswith("bid ") and replay.seat_index(a.seat) == dealer)
        before = cursor.goto(cursor.find(h + 1, index)).position  # the dealer is to bid
        assert before["to_act"] == dealer
        if before["forbidden_bid"] is not None:
            bites += 1
            note = hand.actions[index].note
            assert isinstance(note, dict) and "hook" in note["en"]
            assert f"not bid {before['forbidden_bid']}" in note["en"]
    assert bites >= 10


def test_example_replay_is_what_the_script_makes():
    text = (ROOT / "replays" / "teds-game-example.json").read_text(encoding="utf-8")
    assert load_script().build().to_json() == text


def test_cli_plays_shows_and_validates(tmp_path, capsys):
    out = tmp_path / "teds.json"
    assert cli_run(["play", GAME, "--players", "5", "--seed", "3", "--out", str(out)]) == 0
    replay = cardlab.load(out)
    assert replay.game == GAME and len(replay.hands) == 19
    assert cli_run(["validate", str(out)]) == 0
    assert cli_run(["show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "Ted's Game" in shown and f"turned {replay.hands[0].deal['turned']}" in shown
    assert cli_run(["play", GAME, "--players", "5", "--seed", "3", "--bots", "random",
                    "--option", "start_size=2", "--option", "mode=table",
                    "--out", str(tmp_path / "r.json")]) == 0
