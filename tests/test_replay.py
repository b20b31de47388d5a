"""The replay log: format, tampering, atomic saves, variations, golden deals, determinism."""

from __future__ import annotations

import json
import os
import random

import pytest

import cardlab
from cardlab.bots import make_bot
from cardlab.replay import Action, schema


def bots(game="bobs-hat", players=4, kind="heuristic", seed=0):
    return [make_bot(kind, game, seed=f"{seed}/{s}") for s in range(players)]


@pytest.fixture
def game_json() -> dict:
    t = cardlab.new_game("bobs-hat", players=4, seed=11, hands=2)
    t.play(bots())
    return t.replay.to_dict()


def load_dict(data, tmp_path, name="game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return cardlab.load(path)


# -- what a replay holds ---------------------------------------------------------------------

def test_a_replay_is_self_contained_and_replays_without_the_seed(game_json, tmp_path):
    assert game_json["format"] == "cardlab-replay" and game_json["version"] == 1
    assert game_json["seed"] == 11 and game_json["options"]["mode"] == "strict"
    hand = game_json["hands"][0]
    assert set(hand) >= {"deal", "actions", "scores"}
    assert hand["actions"][0] == {"seat": "North", "act": hand["actions"][0]["act"]}
    assert hand["actions"][0]["act"].startswith("hat ")
    game_json["seed"] = None
    replay = load_dict(game_json, tmp_path)
    assert replay.totals == game_json["totals"]


def test_save_then_load_gives_an_equal_replay_one_action_per_line(tmp_path):
    t = cardlab.new_game("bobs-hat", players=3, seed="x", hands=2)
    t.play(bots(players=3))
    path = tmp_path / "g.json"
    t.save(path)
    again = cardlab.load(path)
    assert again == t.replay
    lines = path.read_text(encoding="utf-8").splitlines()
    actions = sum(len(h.actions) for h in t.replay.hands)
    assert sum(1 for line in lines if line.strip().startswith('{"seat"')) == actions


def test_the_schema_ships_in_the_package_and_is_valid():
    import jsonschema

    jsonschema.validators.validator_for(schema()).check_schema(schema())


# -- tampered files are refused, naming where and why ------------------------------------------

def expect_error(data, tmp_path, *fragments):
    with pytest.raises(cardlab.ReplayError) as err:
        load_dict(data, tmp_path)
    message = str(err.value)
    for fragment in fragments:
        assert fragment in message, message
    assert str(tmp_path / "game.json") in message


def first_play(data):
    actions = data["hands"][0]["actions"]
    return next(i for i, a in enumerate(actions) if a["act"].startswith("play"))


def test_a_card_not_held(game_json, tmp_path):
    i = first_play(game_json)
    seat = game_json["hands"][0]["actions"][i]["seat"]
    held = game_json["hands"][0]["deal"]["hands"][game_json["seats"].index(seat)]
    missing = next(f"black{r}" for r in range(1, 21) if f"black{r}" not in held and all(
        f"black{r}" not in h for h in game_json["hands"][0]["deal"]["hands"]))
    game_json["hands"][0]["actions"][i]["act"] = f"play {missing}"
    expect_error(game_json, tmp_path, f"$.hands[0].actions[{i}].act", f"step {i + 1}",
                 f"does not hold {missing.replace('black', 'black ')}", "hand 1")


def test_the_wrong_seat(game_json, tmp_path):
    game_json["hands"][0]["actions"][0]["seat"] = "East"
    expect_error(game_json, tmp_path, "$.hands[0].actions[0].seat", "North's turn, not East's")


def test_a_renege_in_strict_mode(game_json, tmp_path):
    hand = game_json["hands"][0]
    deal = hand["deal"]["hands"]
    seats = game_json["seats"]
    for i, action in enumerate(hand["actions"][:-1]):
        nxt = hand["actions"][i + 1]
        if not (action["act"].startswith("play") and nxt["act"].startswith("play")):
            continue
        led_suit = action["act"][5:].rstrip("0123456789")
        follower = seats.index(nxt["seat"])
        played_before = {a["act"][5:] for a in hand["actions"][: i + 1]}
        offsuit = [c for c in deal[follower] if not c.startswith(led_suit)
                   and c not in played_before]
        follows = [c for c in deal[follower] if c.startswith(led_suit) and c not in played_before]
        if offsuit and follows and nxt["act"][5:].startswith(led_suit):
            nxt["act"] = f"play {offsuit[0]}"
            expect_error(game_json, tmp_path, f"$.hands[0].actions[{i + 1}].act",
                         f"must follow {led_suit}")
            return
    pytest.fail("no trick in this game where a follower could renege")


def test_a_card_dealt_twice(game_json, tmp_path):
    deal = game_json["hands"][0]["deal"]["hands"]
    deal[1][0] = deal[0][0]
    expect_error(game_json, tmp_path, "$.hands[0].deal", "names a card twice")


def test_a_wrong_card_code(game_json, tmp_path):
    game_json["hands"][0]["deal"]["hands"][2][0] = "purple3"
    expect_error(game_json, tmp_path, "$.hands[0].deal", "'purple3' is not a Where's Bob's Hat")


def test_bad_totals_and_bad_scores(game_json, tmp_path):
    game_json["totals"][0] += 1
    expect_error(game_json, tmp_path, "$.totals", "do not match the play")
    game_json["totals"][0] -= 1
    game_json["hands"][1]["scores"][2] -= 5
    expect_error(game_json, tmp_path, "$.hands[1].scores", "hand 2")


def test_schema_errors_give_the_json_path(game_json, tmp_path):
    del game_json["hands"][1]["actions"][3]["act"]
    expect_error(game_json, tmp_path, "$.hands[1].actions[3]", "needs the key 'act'")
    game_json["hands"][1]["actions"][3]["act"] = "bid most-red"
    game_json["format"] = "pgn"
    expect_error(game_json, tmp_path, "$.format")


def test_unknown_game_and_unknown_option(game_json, tmp_path):
    game_json["options"]["colour"] = "blue"
    expect_error(game_json, tmp_path, "$.options", "no option 'colour'")
    del game_json["options"]["colour"]
    game_json["game"] = "bridge"
    expect_error(game_json, tmp_path, "$.game", "no game called 'bridge'")


def test_actions_after_the_end_and_a_missing_deal(game_json, tmp_path):
    game_json["hands"][1]["actions"].append({"seat": "North", "act": "play blue1"})
    expect_error(game_json, tmp_path, "comes after the hand has ended")
    game_json["hands"][1]["actions"].pop()
    game_json["hands"].append(game_json["hands"][1])
    expect_error(game_json, tmp_path, "$.hands[2]", "no deal is due")


def test_not_json_and_a_missing_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "cardlab-replay", ', encoding="utf-8")
    with pytest.raises(cardlab.ReplayError, match=r"broken\.json: not valid JSON"):
        cardlab.load(path)
    with pytest.raises(cardlab.ReplayError, match="no such file"):
        cardlab.load(tmp_path / "nothing.json")


# -- saving is atomic --------------------------------------------------------------------------

def test_a_failed_save_leaves_the_old_file_whole_and_no_temporary(tmp_path, monkeypatch):
    t = cardlab.new_game("bobs-hat", players=3, seed=1, hands=1)
    t.play(bots(players=3))
    path = tmp_path / "g.json"
    t.save(path)
    before = path.read_bytes()
    t.replay.meta["title"] = "changed"

    def crash(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        t.save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


# -- variations --------------------------------------------------------------------------------

def test_variations_branch_off_any_action_and_are_validated(tmp_path):
    t = cardlab.new_game("bobs-hat", players=4, seed=4, hands=1)
    t.play(bots())
    replay = t.replay
    main = replay.hands[0].actions
    index = next(i for i, a in enumerate(main) if a.act.startswith("play"))
    state = replay.new_state()
    state.apply_chance(replay.hands[0].deal)
    for action in main[:index]:
        state.act(action.act)
    alternative = next(a for a in state.legal_texts() if a != main[index].act)
    line = [Action(main[index].seat, alternative, note="what if?")]
    path = replay.add_variation(1, (), index, line)
    assert path == ((index, 0),)
    assert replay.line(1, path)[index].act == alternative
    assert replay.variation_paths(1) == [path]
    assert replay.add_variation(1, (), index, line) == path  # stored once
    again = load_dict(replay.to_dict(), tmp_path)
    assert again.line(1, path)[index].note == "what if?"
    data = replay.to_dict()
    data["hands"][0]["actions"][index]["variations"][0][0]["act"] = "play purple1"
    expect_error(data, tmp_path, f"$.hands[0].actions[{index}].variations[0][0].act")


# -- deals: golden, independent per hand, deterministic ------------------------------------------

GOLDEN = {
    (4, 7): {"trump": "blue", "hands": [
        ["blue2", "blue5", "blue15", "red3", "black15"],
        ["blue7", "red6", "red16", "black8", "black16"],
        ["blue1", "blue6", "blue14", "red12", "black9"],
        ["red9", "red19", "black4", "black13", "black20"]]},
    (4, "class-demo"): {"trump": "gray", "hands": [
        ["blue3", "red3", "red16", "red20", "black16"],
        ["blue7", "blue20", "red11", "red14", "black12"],
        ["red5", "red12", "red19", "black3", "black13"],
        ["blue8", "blue9", "black1", "black8", "black17"]]},
}


@pytest.mark.parametrize("players,seed", list(GOLDEN))
def test_golden_deals(players, seed):
    t = cardlab.new_game("bobs-hat", players=players, seed=seed)
    assert t.replay.hands[0].deal == GOLDEN[(players, seed)]


def test_golden_deal_of_a_later_hand():
    t = cardlab.new_game("bobs-hat", players=3, seed=2024, hands=5)
    t.play(bots(players=3, kind="random"))
    assert t.replay.hands[4].deal == GOLDEN_HAND_5  # hand 5: 9 cards each


GOLDEN_HAND_5 = {"trump": "red", "hands": [
    ["blue4", "blue6", "blue8", "red8", "red12", "black8", "black12", "black15", "black16"],
    ["blue1", "blue18", "red6", "red10", "red13", "red14", "black3", "black9", "black18"],
    ["blue2", "blue13", "blue17", "red3", "red7", "red9", "red16", "red17", "black1"]]}


def test_the_deal_of_a_hand_depends_on_the_seed_and_hand_alone():
    a = cardlab.new_game("bobs-hat", players=4, seed=99, hands=3)
    b = cardlab.new_game("bobs-hat", players=4, seed=99, hands=3)
    a.play(bots(kind="random", seed=1))
    b.play(bots(kind="heuristic", seed=2))  # different play in every hand
    assert [h.deal for h in a.replay.hands] == [h.deal for h in b.replay.hands]


def test_global_random_state_does_not_change_a_seeded_game():
    def play(disturb: bool) -> str:
        t = cardlab.new_game("bobs-hat", players=5, seed=31, hands=3)
        players = bots(players=5, kind="random", seed=5)
        while t.state.to_act() >= 0:
            if disturb:
                random.seed(random.random())
                random.random()
            seat = t.state.to_act()
            t.apply(players[seat](t.state, seat))
        return t.replay.to_json()

    assert play(False) == play(True)


def test_a_seeded_deal_equals_the_recorded_one():
    state = cardlab.get_game("bobs-hat").rules(players=4).new_state()
    twin = state.clone()
    state.deal_seeded(5)
    twin.apply_chance(twin.seeded_chance(5))
    assert state.snapshot() == twin.snapshot()


def test_a_note_after_the_last_action_of_a_hand_stays_on_that_action():
    t = cardlab.new_game("bobs-hat", players=3, seed=8, hands=2)
    t.play(bots(players=3), until="hand")
    assert len(t.replay.hands) == 2  # the seeded table has dealt hand 2 by itself
    t.note("the last card of hand 1")
    assert t.replay.hands[0].actions[-1].note == "the last card of hand 1"
    assert t.replay.hands[1].note is None
    t.act("hat +10")
    t.note({"en": "the dealer of hand 2 chose +10"})
    assert t.replay.hands[1].actions[0].note == {"en": "the dealer of hand 2 chose +10"}
    fresh = cardlab.new_game("bobs-hat", players=3)
    with pytest.raises(cardlab.IllegalActionError, match="nothing has been entered"):
        fresh.note("too early")
    fresh.deal({"trump": "gray", "hands": [[f"{s}{r}" for r in range(1, 6)]
                                           for s in ("blue", "red", "black")]})
    fresh.note("a real deal, typed in")
    assert fresh.replay.hands[0].note == "a real deal, typed in"


def test_an_engine_action_is_recorded_as_its_text_would_be(tmp_path):
    # Table.apply records a legal action as the int it is (no text parsed back); the
    # replay is the one the same actions typed as text give, byte for byte.
    from cardlab.games.teds_game.engine import CHANGE

    for game, options in (("teds-game", {"players": 4, "start_size": 3}),
                          ("bobs-hat", {"players": 4, "hands": 2}),
                          ("whot", {"players": 3, "rubber": "single"})):
        by_int = cardlab.new_game(game, seed=5, **options)
        by_text = cardlab.new_game(game, seed=5, **options)
        players = bots(game, by_int.replay.rules.players, kind="random", seed=5)
        while (seat := by_int.state.to_act()) >= 0:
            action = players[seat](by_int.state, seat)
            by_text.act(by_int.state.action_text(action))
            by_int.apply(action)
        assert by_int.replay.to_json() == by_text.replay.to_json()
    # what is not the seat to act's legal choice goes the way of its text: a bid change out
    # of turn is recorded under the seat that makes it; an illegal int is refused as its
    # text is, hand, step and seat named
    table = cardlab.new_game("teds-game", players=4, seed=1, start_size=3)
    first = table.seats[table.state.to_act()]
    table.apply(table.state.legal_actions()[0])
    table.apply(CHANGE + 1)
    assert (table.replay.hands[0].actions[-1].seat,
            table.replay.hands[0].actions[-1].act) == (first, "change bid 1")
    twin = cardlab.new_game("teds-game", players=4, seed=1, start_size=3)
    twin.act(table.replay.hands[0].actions[0].act)
    twin.act("change bid 1")
    assert twin.replay.to_json() == table.replay.to_json()
    held = set(table.state.legal_actions())
    for action in (next(c for c in range(52) if c not in held), CHANGE + 40):
        errors = []
        with pytest.raises(cardlab.IllegalActionError) as caught:
            table.apply(action)
        errors.append(str(caught.value))
        with pytest.raises(cardlab.IllegalActionError) as caught:
            twin.act(twin.state.action_text(action))
        errors.append(str(caught.value))
        assert errors[0] == errors[1] and "hand 1, step 3" in errors[0], errors
