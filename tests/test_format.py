"""The replay format exactly as documented (docs/replay-format.md), issue 10 items 1, 2, 4, 5:
standard JSON only, strict options and records, lenient repairs, deep variation chains, one
location per error, the seat that makes a bid change, and messages that say who and where."""

from __future__ import annotations

import json

import pytest

import cardlab
from cardlab.bots import make_bot
from cardlab.errors import ActionTextError, LimitError
from cardlab.loader import from_dict
from cardlab.replay import Action
from cardlab.validation import replay_line, validate


def played(game="teds-game", players=3, seed=10, **options):
    table = cardlab.new_game(game, players=players, seed=seed, **options)
    table.play([make_bot("random", game, seed=s) for s in range(players)])
    return table.replay


@pytest.fixture(scope="module")
def teds() -> dict:
    return played(start_size=2).to_dict()


@pytest.fixture(scope="module")
def hat() -> dict:
    return played("bobs-hat", players=3, seed=4, hands=2).to_dict()


def fresh(data: dict) -> dict:
    return json.loads(json.dumps(data))


def refused(text_or_data, *fragments, path=None, cls=cardlab.ReplayError, **kwargs):
    text = text_or_data if isinstance(text_or_data, str) else json.dumps(text_or_data)
    with pytest.raises(cls) as caught:
        cardlab.loads(text, "game.json", **kwargs)
    message = str(caught.value)
    assert message.startswith("game.json"), message
    if path is not None:
        assert caught.value.path == path, message
    for fragment in fragments:
        assert fragment in message, message
    return caught.value


# -- 1. nothing but a ReplayError, whatever the JSON ---------------------------------------

@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000,
                                  '{"a":' * 50_000 + "1" + "}" * 50_000])
def test_json_nested_too_deep_is_a_limit_error(text):
    err = refused(text, "max_nesting", "--limit max_nesting=N", cls=LimitError)
    assert err.limit == "max_nesting"


def test_numbers_python_cannot_read_are_refused_at_their_path(teds):
    data = fresh(teds)
    text = json.dumps(data).replace('"seed": 10', '"seed": ' + "9" * 5000)
    refused(text, "5,000 digits", path="$.seed")
    data["meta"] = {"x": [1, 2]}
    text = json.dumps(data).replace("[1, 2]", "[1, 1e999]")
    refused(text, "too large", path="$.meta.x[1]")


@pytest.mark.parametrize("act", ["bid " + "1" * 4400, "change bid " + "9" * 5000, "bid -1"])
def test_a_teds_bid_of_absurd_digits_is_refused_as_a_bid(teds, act):
    data = fresh(teds)
    data["hands"][0]["actions"][0]["act"] = act
    err = refused(data, "a bid is a number of tricks from 0 to 2",
                  path="$.hands[0].actions[0].act")
    assert (err.hand, err.step) == (1, 1) and err.seat is not None


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_anywhere(teds, constant):
    data = fresh(teds)
    data["meta"] = {"title": "x", "weights": [1, 2]}
    text = json.dumps(data).replace("[1, 2]", f"[1, {constant}]")
    refused(text, "not a JSON number", path="$.meta.weights[1]")


@pytest.mark.parametrize("where", ["title", "note", "seat", "key"])
def test_a_lone_surrogate_is_refused_at_load_with_its_path(teds, where):
    data = fresh(teds)
    if where == "title":
        data["meta"] = {"title": "a\ud800b"}
        path = "$.meta.title"
    elif where == "note":
        data["hands"][0]["actions"][2]["note"] = {"en": "\udfff"}
        path = "$.hands[0].actions[2].note.en"
    elif where == "seat":
        data["seats"][1] = "B\ud800"
        path = "$.seats[1]"
    else:
        data["meta"] = {"\ud800": 1}
        path = '$.meta["\\ud800"]'
    refused(data, "lone surrogate", path=path)


def test_a_valid_surrogate_pair_is_an_ordinary_character(teds, tmp_path):
    data = fresh(teds)
    data["meta"] = {"title": "\U0001f98a fox"}
    replay = cardlab.loads(json.dumps(data))  # ensure_ascii: written as \\ud83e\\udd8a
    replay.save(tmp_path / "fox.json")
    assert cardlab.load(tmp_path / "fox.json").meta["title"] == "\U0001f98a fox"


@pytest.mark.parametrize("title", [["x"], 5, None, {"en": "x"}])
def test_meta_title_is_text(teds, title):
    data = fresh(teds)
    data["meta"] = {"title": title}
    refused(data, "meta.title is text", path="$.meta.title")


def test_scores_are_whole_numbers_and_lenient_reads_5_0_as_5(teds):
    data = fresh(teds)
    data["hands"][0]["scores"] = [float(x) for x in data["hands"][0]["scores"]]
    refused(data, "whole numbers", path="$.hands[0].scores[0]")
    data["hands"][0]["scores"][0] = True
    refused(data, "whole numbers", path="$.hands[0].scores[0]")
    data["hands"][0]["scores"][0] = float(teds["hands"][0]["scores"][0])
    replay = cardlab.loads(json.dumps(data), lenient=True)
    assert replay.hands[0].scores == teds["hands"][0]["scores"]
    assert "$.hands[0].scores[0]" in replay.repairs[0]
    cardlab.text.render(replay)


# -- a legal chain of variations 330 deep ---------------------------------------------------

def deep_chain(depth: int) -> cardlab.Replay:
    replay = played("bobs-hat", players=3, seed=2, hands=1)
    node = replay.hands[0].actions[0]  # the dealer's hat: +10 and -10 alternate
    for level in range(depth):
        other = "hat -10" if node.act == "hat +10" else "hat +10"
        twin = Action(node.seat, other, note=f"level {level + 1}")
        node.variations.append([twin])
        node = twin
    return replay


def test_a_chain_of_variations_330_deep_loads_copies_validates_saves_and_shows(tmp_path):
    replay = deep_chain(330)
    path = tmp_path / "deep.json"
    replay.save(path)
    again = cardlab.load(path)
    assert again == replay
    twin = again.copy()
    assert twin == again and twin.hands[0] is not again.hands[0]
    validate(twin)
    assert len(again.variation_paths(1)) == 330
    assert again.variation_paths(1)[-1] == ((0, 0),) * 330
    assert again.line(1, ((0, 0),) * 330)[0].note == "level 330"
    assert cardlab.loads(again.to_json()).to_json() == replay.to_json()  # (dict == recurses)
    assert "Final:" in cardlab.text.render(again)
    assert repr(again.hands[0].actions[0]).endswith("variations=[1 line])")
    twin.hands[0].actions[0].variations[0][0].variations[0][0].note = "changed"
    assert twin != again  # a real copy, compared all the way down


def test_variations_deeper_than_the_limit_are_a_limit_error():
    text = deep_chain(12).to_json()
    err = refused(text, "max_variation_depth=10", cls=LimitError,
                  limits=cardlab.limits.Limits(max_variation_depth=10))
    assert err.limit == "max_variation_depth"


# -- 2. the format exactly as documented ------------------------------------------------------

def test_every_option_is_written_out_and_lenient_fills_in_the_default(hat):
    data = fresh(hat)
    del data["options"]["negative_scoring"]
    refused(data, "option negative_scoring is missing", '"negative_scoring": false',
            path="$.options")
    replay = cardlab.loads(json.dumps(data), lenient=True)
    assert replay.options == hat["options"]
    assert replay.repairs == ["$.options.negative_scoring: missing, the default false"]
    assert json.loads(replay.to_json())["options"] == hat["options"]


@pytest.mark.parametrize("name,value,word", [("hands", " 2 ", "a whole number"),
                                             ("double_fewest", "no", "true or false"),
                                             ("hands", 2.0, "a whole number"),
                                             ("hands", None, "a whole number"),
                                             ("mode", 1, "text")])
def test_option_values_are_of_their_own_json_type(hat, name, value, word):
    data = fresh(hat)
    data["options"][name] = value
    refused(data, f"option {name} is {word}", path=f"$.options.{name}")
    if isinstance(value, str):
        replay = cardlab.loads(json.dumps(data), lenient=True)
        assert replay.options == hat["options"]
        assert replay.repairs == [f"$.options.{name}: {json.dumps(value)} read as "
                                  f"{json.dumps(hat['options'][name])}"]


def test_the_cli_may_still_give_options_as_text():
    table = cardlab.new_game("bobs-hat", players=3, hands=" 2 ", double_fewest="no")
    assert table.replay.options["hands"] == 2 and table.replay.options["double_fewest"] is False


@pytest.mark.parametrize("where", ["top", "option", "hand", "action", "deal", "meta"])
def test_a_key_given_twice_is_refused(hat, where):
    text = json.dumps(fresh(hat))
    if where == "top":
        text = text.replace('"version": 1', '"version": 1, "version": 1')
        path = "$"
    elif where == "option":
        text = text.replace('"hands": 2', '"hands": 2, "hands": 3')
        path = "$.options"
    elif where == "hand":
        text = text.replace('"deal": {', '"note": "a", "note": "b", "deal": {', 1)
        path = "$.hands[0]"
    elif where == "action":
        first = json.dumps(hat["hands"][0]["actions"][0])
        text = text.replace(first, first[:-1] + ', "act": "hat +10"}', 1)
        path = "$.hands[0].actions[0]"
    elif where == "deal":
        text = text.replace('"trump": ', '"trump": "red", "trump": ', 1)
        path = "$.hands[0].deal"
    else:
        text = text.replace('"hands": [', '"meta": {"a": 1, "a": 1}, "hands": [', 1)
        path = "$.meta"
    refused(text, "is given twice in this object", path=path)


def test_a_finished_game_carries_its_scores_and_totals_and_lenient_computes_them(hat):
    data = fresh(hat)
    del data["totals"]
    refused(data, "the game is over, so the replay carries its totals", path="$")
    del data["hands"][1]["scores"]
    refused(data, "hand 2: the hand is over, so it carries its scores", path="$.hands[1]")
    replay = cardlab.loads(json.dumps(data), lenient=True)
    assert replay.totals == hat["totals"] and replay.hands[1].scores == hat["hands"][1]["scores"]
    assert len(replay.repairs) == 2
    data = fresh(hat)
    data["hands"].pop()
    refused(data, "the game is not over, so there are no totals yet", path="$.totals")


def test_no_record_the_game_does_not_have(hat, teds):
    data = fresh(hat)
    data["setup"] = {"cuts": []}
    refused(data, "Where's Bob's Hat? has no setup record", path="$.setup")
    replay = cardlab.loads(json.dumps(data), lenient=True)
    assert replay.setup is None and replay.repairs == [
        "$.setup: dropped (the game has no setup record)"]
    assert "setup" not in json.loads(replay.to_json())
    data = fresh(teds)
    del data["setup"]
    refused(data, "Ted's Game needs its setup record", path="$.setup")


def test_a_replay_not_loaded_from_a_file_cannot_save_what_json_cannot_hold(hat):
    replay = cardlab.loads(json.dumps(hat))
    replay.meta["ratio"] = float("nan")
    with pytest.raises(cardlab.ReplayError, match=r"\$\.meta\.ratio: nan is not a JSON number"):
        replay.to_json()
    replay.meta["ratio"] = "\ud800"
    with pytest.raises(cardlab.ReplayError, match=r"\$\.meta\.ratio: the text holds a lone"):
        replay.to_json()


def test_lenient_repairs_nothing_in_a_good_file():
    for name in ("norwegian-review", "teds-game-example", "whot-example"):
        text = cardlab.example(name).to_json()
        assert cardlab.loads(text, lenient=True).repairs == []
        assert cardlab.loads(text).to_json() == text


# -- 4. one location per error; the seat that makes a bid change ----------------------------

@pytest.mark.parametrize("game,reason", [("bobs-hat", "names a card twice"),
                                         ("teds-game", "names a card twice"),
                                         ("whot", "names a card twice")])
def test_a_bad_deal_from_hand_2_names_hand_2_only(game, reason):
    data = played(game, players=3, seed=3, **({"hands": 3} if game == "bobs-hat" else
                                              {"start_size": 3} if game == "teds-game" else
                                              {"rubber": "short"})).to_dict()
    deal = data["hands"][1]["deal"]["hands"]
    deal[1][0] = deal[0][0]
    err = refused(data, reason, path="$.hands[1].deal")
    assert (err.hand, err.step) == (2, None)
    assert "hand 2" in str(err) and "hand 1" not in str(err) and "hand 3" not in str(err)


def test_a_bid_change_written_under_the_seat_to_act_is_refused():
    data = cardlab.example("teds-game-example").to_dict()
    actions = data["hands"][0]["actions"]
    k = next(i for i, a in enumerate(actions) if a["act"].startswith("change bid"))
    changer = actions[k]["seat"]
    to_act = data["seats"][(data["seats"].index(changer) + 1) % len(data["seats"])]
    actions[k]["seat"] = to_act
    err = refused(data, f"is {changer}'s to make", f"not {to_act}'s",
                  path=f"$.hands[0].actions[{k}].seat")
    assert (err.hand, err.step) == (1, k + 1)


def test_table_act_records_the_changer_and_can_be_told_who_acts():
    table = cardlab.new_game("teds-game", players=3, seed=7, seats=["Ann", "Ben", "Cal"])
    first = table.seats[table.state.to_act()]
    second = table.seats[(table.state.to_act() + 1) % 3]
    table.act("bid 1")
    table.act("change bid 2", seat=first)
    assert table.replay.hands[0].actions[-1] == Action(first, "change bid 2")
    with pytest.raises(cardlab.IllegalActionError,
                       match=f"'change bid 0' is {first}'s to make now, not {second}'s"):
        table.act("change bid 0", seat=second)
    with pytest.raises(cardlab.IllegalActionError,
                       match=f"seat {first}, action 'change bid 2': {first}'s bid is already 2"):
        table.act("change bid 2")
    fresh_table = cardlab.new_game("teds-game", players=3, seed=7)
    with pytest.raises(cardlab.IllegalActionError) as caught:
        fresh_table.act("change bid 1")
    assert caught.value.seat is None and "nobody has bid yet" in str(caught.value)


# -- 5. messages that help ----------------------------------------------------------------

def hat_table():
    table = cardlab.new_game("bobs-hat", players=3, seed=1, seats=["Tone", "Remo", "Brad"])
    return table, table.seats[table.state.to_act()]


def test_an_empty_bid_and_a_no_bid_with_others_say_what_a_bid_is():
    table, dealer = hat_table()
    table.act("hat +10")
    bidder = table.seats[table.state.to_act()]
    with pytest.raises(ActionTextError, match="a bid names one or more of most-blue") as err:
        table.act("bid")
    assert (err.value.hand, err.value.step, err.value.seat) == (1, 2, bidder)
    with pytest.raises(ActionTextError, match=r"a no bid \('bid none'\) is made alone"):
        table.act("bid none,most-red")
    with pytest.raises(ActionTextError, match="named twice"):
        table.act("bid fewest,double-fewest")


def test_choosing_the_hat_twice_says_it_is_chosen():
    table, dealer = hat_table()
    table.act("hat +10")
    with pytest.raises(cardlab.IllegalActionError,
                       match=f"the dealer, {dealer}, has already chosen Bob's Hat"):
        table.act("hat -10")


@pytest.mark.parametrize("game,text,reason", [
    ("bobs-hat", "hat +5", "Bob's Hat is worth +10 or -10, not '+5'"),
    ("teds-game", "bid -1", "a bid is a number of tricks from 0 to 10, not '-1'"),
    ("whot", "call whot", "a WHOT calls its symbol as it is played"),
])
def test_parse_errors_name_the_hand_step_and_seat(game, text, reason):
    table = cardlab.new_game(game, players=3, seed=1)
    seat = table.seats[table.state.to_act()]
    with pytest.raises(ActionTextError) as caught:
        table.act(text)
    assert reason in str(caught.value)
    assert str(caught.value).startswith(f"hand 1, step 1, seat {seat}: ")
    assert isinstance(caught.value, cardlab.CardCodeError)  # still what it was
    with pytest.raises(ActionTextError, match=f"hand 1, seat {table.state.to_act()}: "):
        table.state.act(text)  # the engine alone names the seat by number


@pytest.mark.parametrize("game", ["teds-game", "whot"])
def test_the_setup_message_names_table_setup(game):
    table = cardlab.new_game(game, players=3)  # no seed: the setup is entered by hand
    for call in (lambda: table.deal({}), lambda: table.act("bid 1")):
        with pytest.raises(cardlab.IllegalActionError, match=r"Table\.setup\(record\)"):
            call()


def test_acting_before_the_deal_does_not_say_hand_0():
    table = cardlab.new_game("bobs-hat", players=3)
    with pytest.raises(cardlab.IllegalActionError) as caught:
        table.act("hat +10")
    message = str(caught.value)
    assert "hand 0" not in message and "the deal of hand 1 is due" in message
    assert r"Table.deal(record)" in message


# -- 6. two readings (docs/rules-interpretations.md) -----------------------------------------

def test_double_fewest_is_bounded_by_the_grey_cards_one_per_player():
    table = cardlab.new_game("bobs-hat", players=3, seed=1, double_fewest=True,
                             seats=["Ann", "Ben", "Cal"])
    table.act("hat +10")
    first = table.seats[table.state.to_act()]
    assert "bid double-fewest" in table.state.legal_texts()
    table.act("bid double-fewest")  # his own grey card and one borrowed: one is left
    second = table.seats[table.state.to_act()]
    legal = table.state.legal_texts()
    assert "bid fewest" in legal and not any("double-fewest" in t for t in legal)
    with pytest.raises(cardlab.IllegalActionError, match=f"only 1 grey card is left "
                                                         f"\\({second}'s own\\)"):
        table.act("bid most-red,double-fewest")
    table.act("bid most-red,fewest")
    legal = table.state.legal_texts()
    assert legal and not any("fewest" in t for t in legal)
    with pytest.raises(cardlab.IllegalActionError, match="every grey fewest card is in use"):
        table.act("bid fewest")
    table.act("bid most-blue")
    assert table.state.free_fewest_cards() == 0 and first != second
    data = table.replay.to_dict()  # a file with two doubles among three players is refused
    data["hands"][0]["actions"][2]["act"] = "bid most-red,double-fewest"
    err = refused(data, "double fewest borrows an opponent's grey card",
                  path="$.hands[0].actions[2].act")
    assert (err.hand, err.step, err.seat) == (1, 3, second)


def test_the_bound_never_binds_without_double_fewest():
    table = cardlab.new_game("bobs-hat", players=3, seed=1)
    table.act("hat -10")
    for _ in range(3):
        assert "bid fewest" in table.state.legal_texts()
        table.act("bid fewest")


def test_whots_cap_is_for_simulations_not_for_a_recorded_game():
    from cardlab.games.whot import DEFAULT_MAX_TURNS, WhotRules

    recorded = cardlab.new_game("whot", players=3)
    assert recorded.replay.options["max_turns"] == 0 and recorded.state.cap > 10**15
    assert WhotRules.SIMULATION_OPTIONS == {"max_turns": DEFAULT_MAX_TURNS}
    assert cardlab.get_game("bobs-hat").rules_class.SIMULATION_OPTIONS == {}
    # an old file that wrote the old default keeps its cap: every option is written out
    old = cardlab.example("whot-example").to_dict()
    old["options"]["max_turns"] = 3000
    assert cardlab.loads(json.dumps(old)).rules.options["max_turns"] == 3000


def test_bots_on_the_command_line_play_whot_with_the_cap(tmp_path):
    from cardlab.cli import main as cli_main

    out = tmp_path / "whot.json"
    with pytest.raises(SystemExit) as code:
        cli_main(["play", "whot", "--players", "3", "--seed", "2", "--option",
                  "rubber=single", "--out", str(out)])
    assert code.value.code == 0
    assert cardlab.load(out).options["max_turns"] == 3000
    with pytest.raises(SystemExit):
        cli_main(["play", "whot", "--players", "3", "--seed", "2", "--option",
                  "rubber=single", "--option", "max_turns=0", "--out", str(out)])
    assert cardlab.load(out).options["max_turns"] == 0


def test_the_shipped_schema_accepts_what_the_loader_accepts_and_refuses_loose_options():
    import jsonschema

    from cardlab.replay import schema

    for name in cardlab.example_names():
        jsonschema.validate(cardlab.example(name).to_dict(), schema())
    data = cardlab.example("whot-example").to_dict()
    data["options"]["packs"] = None
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema())


def test_replay_line_checks_each_action_at_its_own_path():
    review = cardlab.example("norwegian-review")
    state = review.new_state()
    state.apply_chance(review.hands[0].deal)
    line = [*review.hands[0].actions[:3], Action("Tone", "play purple1")]
    steps = replay_line(review, state, 1, line, "f.json", "$.line")
    assert [next(steps) is state for _ in range(3)] == [True] * 3
    with pytest.raises(cardlab.ReplayError) as caught:
        next(steps)
    assert (caught.value.path, caught.value.hand, caught.value.step) == ("$.line[3].act", 1, 4)


def test_a_seat_number_in_a_record_is_a_whole_number():
    data = cardlab.example("teds-game-example").to_dict()
    data["setup"]["first_dealer"] = float(data["setup"]["first_dealer"])
    refused(data, "deals first, not seat 3.0", path="$.setup")


def test_an_unknown_seat_name_lists_the_seats():
    review = cardlab.example("norwegian-review")
    assert review.seat_index("Brad") == 3
    with pytest.raises(cardlab.OptionError, match="no seat 'brad'; the seats are Tone, Remo, "
                                                  "Kathrine, Brad"):
        review.seat_index("brad")


def test_free_json_nested_deep_but_within_the_limit_loads_saves_compares_and_copies(hat, tmp_path):
    data = fresh(hat)
    text = json.dumps(data).replace('"hands": [', '"meta": {"deep": ' + "[" * 3000 + "]" * 3000
                                    + '}, "hands": [', 1)
    replay = cardlab.loads(text)
    replay.save(tmp_path / "deep.json")
    again = cardlab.load(tmp_path / "deep.json")
    assert again == replay and again.copy() == replay and again.to_json() == replay.to_json()
    again.meta["deep"] = [[]]
    assert again != replay
    assert "Final:" in cardlab.text.render(replay)


def test_loads_refuses_what_is_not_text(hat):
    for value in (hat, None, 5):
        with pytest.raises(cardlab.ReplayError, match="loads reads JSON text"):
            cardlab.loads(value)  # type: ignore[arg-type]
    assert cardlab.loads(bytearray(json.dumps(hat).encode())).totals == hat["totals"]
    assert from_dict(hat).totals == hat["totals"]
