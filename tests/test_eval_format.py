"""The eval records of analysed actions in the replay format (issue 11, point 4).

The records come from real runs of the advisor (``cardlab.analyse.analyse`` over
``cardlab.advisor.evaluate``); each refusal starts from such a record and breaks one thing,
and the loader must refuse it at its hand and step, with the JSON path and the right words.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sys
from typing import Any

import jsonschema
import pytest

import cardlab
from cardlab.analyse import analyse, decision_points
from cardlab.bots import make_bot
from cardlab.limits import Limits
from cardlab.loader import from_dict
from cardlab.replay import Action, schema
from cardlab.view.page import page_html


@functools.cache
def _analysed(game: str) -> str:
    options: dict[str, Any] = {"teds-game": {"players": 3, "start_size": 2},
                               "bobs-hat": {"players": 4, "hands": 2},
                               "whot": {"players": 3, "rubber": "single", "max_turns": 60}}[game]
    table = cardlab.new_game(game, seed=5, **options)
    table.play([make_bot("random", game, seed=s) for s in range(options["players"])])
    return analyse(table.replay, rollouts=8, seed=3, progress=False).to_json()


def analysed(game: str = "teds-game") -> cardlab.Replay:
    return cardlab.loads(_analysed(game))


def data(game: str = "teds-game") -> dict[str, Any]:
    return json.loads(_analysed(game))


@pytest.mark.parametrize("game", ["teds-game", "bobs-hat", "whot"])
def test_an_analysed_replay_round_trips_and_validates_against_the_schema(game):
    replay = analysed(game)
    points = decision_points(replay)
    assert points
    marked = [(h, i) for h, hand in enumerate(replay.hands, 1)
              for i, a in enumerate(hand.actions) if a.eval is not None]
    assert marked == [(p.hand, p.index) for p in points]
    as_dict = replay.to_dict()
    assert as_dict["version"] == 2
    jsonschema.validate(as_dict, schema())
    again = cardlab.loads(replay.to_json())
    assert again == replay and again.to_json() == replay.to_json()
    assert from_dict(as_dict) == replay
    for hand in replay.hands:
        for action in hand.actions:
            assert Action.from_dict(action.to_dict()) == action
            assert action.copy() == action


def test_a_replay_without_evals_is_still_written_as_version_1_and_version_1_loads():
    plain = cardlab.example("norwegian-review")
    assert plain.to_dict()["version"] == 1
    text = analysed().to_json()
    stripped = json.loads(text)
    for hand in stripped["hands"]:
        for action in hand["actions"]:
            action.pop("eval", None)
    stripped["version"] = 1
    assert cardlab.loads(json.dumps(stripped)).to_dict()["version"] == 1
    stripped["version"] = 2  # a version-2 file without evals is read too
    assert cardlab.loads(json.dumps(stripped)).to_dict()["version"] == 1


def test_copy_and_equality_see_the_eval():
    replay = analysed()
    action = next(a for a in replay.hands[0].actions if a.eval is not None)
    twin = action.copy()
    text = next(iter(twin.eval["values"]))
    twin.eval["values"][text][0] += 1.0
    assert twin != action  # changing the copy's numbers ...
    assert action.eval["values"][text][0] + 1.0 == twin.eval["values"][text][0]  # ... only
    bare = Action(action.seat, action.act, action.note)
    assert bare != action and "eval" not in bare.to_dict()
    whole = replay.copy()
    next(a for a in whole.hands[0].actions if a.eval is not None).eval["seed"] += 1
    assert whole != replay and replay == analysed()


def _evaluated(doc: dict[str, Any], which: int = 0) -> tuple[int, int, dict[str, Any]]:
    """The hand index, action index and action dict of the which-th evaluated action."""
    found = [(h, i, a) for h, hand in enumerate(doc["hands"])
             for i, a in enumerate(hand["actions"]) if "eval" in a]
    return found[which]


def _refused(doc: dict[str, Any], h: int, i: int, path: str, *words: str,
             text: str | None = None) -> cardlab.ReplayError:
    with pytest.raises(cardlab.ReplayError) as caught:
        cardlab.loads(text if text is not None else json.dumps(doc), "game.json")
    err = caught.value
    assert err.file == "game.json"
    assert err.path == f"$.hands[{h}].actions[{i}].eval{path}", str(err)
    assert err.hand == h + 1 and err.step == i + 1, str(err)
    assert err.seat == doc["hands"][h]["actions"][i]["seat"]
    for word in words:
        assert word in str(err), str(err)
    assert "\n" not in str(err)
    return err


def _not_played(action: dict[str, Any]) -> str:
    return next(t for t in action["eval"]["values"] if t != action["act"])


BREAKS = [
    ("a key that is not a legal action",
     lambda a: a["eval"]["values"].update({"play ZZ": [0.0, 0.0]}), '.values["play ZZ"]',
     ("'play ZZ' is not a legal action here",)),
    ("a legal action left out",
     lambda a: a["eval"]["values"].pop(_not_played(a)), ".values",
     ("the eval has no value for the legal action",)),
    ("the action played left out",
     lambda a: a["eval"]["values"].pop(a["act"]), ".values",
     ("no value for the action played",)),
    ("rollouts 0", lambda a: a["eval"].update(rollouts=0), ".rollouts",
     ("rollouts are a whole number of at least 1", "0")),
    ("rollouts -3", lambda a: a["eval"].update(rollouts=-3), ".rollouts", ("at least 1",)),
    ("rollouts 1.5", lambda a: a["eval"].update(rollouts=1.5), ".rollouts", ("whole number",)),
    ("rollouts true", lambda a: a["eval"].update(rollouts=True), ".rollouts", ("whole number",)),
    ("a negative stderr", lambda a: a["eval"]["values"][a["act"]].__setitem__(1, -0.5),
     '.values["{act}"]', ("a standard error is at least 0", "-0.5")),
    ("an unknown bot", lambda a: a["eval"].update(bot="oracle"), ".bot",
     ("bot is one of random, heuristic, exact", "oracle")),
    ("a seat of no one", lambda a: a["eval"].update(seat="Nobody"), ".seat",
     ("an eval's seat is a seat name", "Nobody")),
    ("a seed that is text", lambda a: a["eval"].update(seed="x"), ".seed", ("whole number",)),
    ("exact as text", lambda a: a["eval"].update(exact="yes"), ".exact", ("true or false",)),
    ("a note that is no text", lambda a: a["eval"].update(note=3), ".note",
     ("note is a text of 1 to 1,000 characters", "the number 3")),
    ("an empty note", lambda a: a["eval"].update(note=""), ".note", ("1 to 1,000",)),
    ("a note too long", lambda a: a["eval"].update(note="x" * 1001), ".note", ("1,000",)),
    ("an unknown key", lambda a: a["eval"].update(confidence=1), "",
     ("has no key 'confidence'",)),
    ("a missing key", lambda a: a["eval"].pop("bot"), "", ("needs the key 'bot'",)),
    ("values as a list", lambda a: a["eval"].update(values=[1, 2]), ".values",
     ("[mean, stderr] by action text",)),
    ("a value of three numbers", lambda a: a["eval"]["values"][a["act"]].append(1.0),
     '.values["{act}"]', ("two numbers",)),
    ("a value as text", lambda a: a["eval"]["values"].__setitem__(a["act"], ["1", "0"]),
     '.values["{act}"]', ("two numbers",)),
    ("a huge whole number", lambda a: a["eval"]["values"][a["act"]].__setitem__(0, 10**400),
     '.values["{act}"]', ("finite",)),
    ("a mean of int(max float)",
     lambda a: a["eval"]["values"][a["act"]].__setitem__(0, -int(sys.float_info.max)),
     '.values["{act}"]', ("mean is a finite number from -1,000,000,000 to 1,000,000,000",)),
    ("a mean of 1e308", lambda a: a["eval"]["values"][a["act"]].__setitem__(0, 1e308),
     '.values["{act}"]', ("1,000,000,000", "1e+308")),
    ("a mean just past the range",
     lambda a: a["eval"]["values"][a["act"]].__setitem__(0, 1_000_000_001),
     '.values["{act}"]', ("mean",)),
    ("a stderr past the range", lambda a: a["eval"]["values"][a["act"]].__setitem__(1, 1e10),
     '.values["{act}"]', ("standard error is a finite number of at most 1,000,000,000",)),
    ("rollouts past the range", lambda a: a["eval"].update(rollouts=10**9 + 1), ".rollouts",
     ("rollouts are at most 1,000,000,000",)),
    ("a seed past the range", lambda a: a["eval"].update(seed=-(2**53)), ".seed",
     ("2**53 - 1",)),
    ("the eval is a list", lambda a: a.update(eval=[]), "", ("an eval record is an object",)),
    ("the eval is null", lambda a: a.update(eval=None), "", ("not null",)),
]


@pytest.mark.parametrize("what, change, path, words", BREAKS, ids=[b[0] for b in BREAKS])
def test_a_broken_eval_record_is_refused_at_its_hand_and_step(what, change, path, words):
    doc = data()
    h, i, action = _evaluated(doc, 3)
    change(action)
    path = path.replace("{act}", action["act"])
    if what == "the eval is null":  # the reader refuses it, before any play: no hand or step
        with pytest.raises(cardlab.ReplayError, match="not null") as caught:
            cardlab.loads(json.dumps(doc))
        assert caught.value.path == f"$.hands[{h}].actions[{i}].eval"
        return
    _refused(doc, h, i, path, *words)


def test_the_seat_of_an_eval_is_the_seat_that_acts():
    doc = data()
    h, i, action = _evaluated(doc, 2)
    other = next(s for s in doc["seats"] if s != action["seat"])
    action["eval"]["seat"] = other
    _refused(doc, h, i, ".seat", f"the eval is {other}'s", f"this action is {action['seat']}'s")


def test_nan_and_infinity_are_refused_in_python_data_and_in_json_text():
    doc = data()
    h, i, action = _evaluated(doc, 1)
    action["eval"]["values"][action["act"]][0] = math.nan
    with pytest.raises(cardlab.ReplayError, match="finite") as caught:
        from_dict(doc)
    assert caught.value.hand == h + 1 and caught.value.step == i + 1
    action["eval"]["values"][action["act"]][0] = math.inf
    with pytest.raises(cardlab.ReplayError, match="finite"):
        from_dict(doc)
    text = json.dumps(doc, allow_nan=True)  # what the file holds: Infinity
    with pytest.raises(cardlab.ReplayError, match="JSON") as caught:
        cardlab.loads(text)
    assert caught.value.path is not None and ".eval.values" in caught.value.path


def test_an_eval_in_a_version_1_file_is_refused():
    doc = data()
    doc["version"] = 1
    h, i, _ = _evaluated(doc)
    with pytest.raises(cardlab.ReplayError, match="eval records are in version 2") as caught:
        cardlab.loads(json.dumps(doc))
    assert caught.value.path == f"$.hands[{h}].actions[{i}].eval"
    doc["version"] = 3
    with pytest.raises(cardlab.ReplayError, match="reads versions 1, 2"):
        cardlab.loads(json.dumps(doc))


def test_an_eval_on_an_action_made_out_of_turn_is_refused():
    table = cardlab.new_game("teds-game", players=3, seed=5, start_size=2)
    table.act("bid 1")
    table.act("change bid 0")  # the first bidder changes its bid: out of turn
    replay = table.replay
    doc = replay.to_dict()
    doc["version"] = 2
    seat = doc["hands"][0]["actions"][1]["seat"]
    doc["hands"][0]["actions"][1]["eval"] = {"seat": seat, "rollouts": 1, "seed": 0,
                                             "bot": "random",
                                             "values": {"change bid 0": [0.0, 0.0]}}
    _refused(doc, 0, 1, "", "made out of turn")


def test_an_eval_in_a_variation_is_checked_in_its_own_line():
    replay = analysed()
    line = replay.hands[0].actions
    k = next(i for i, a in enumerate(line) if a.eval is not None and len(a.eval["values"]) > 1)
    record = line[k].eval
    other = next(t for t in record["values"] if t != line[k].act)
    seat = line[k].seat
    replay.add_variation(1, (), k, [Action(seat, other, eval=dict(record))])
    again = cardlab.loads(replay.to_json())  # the same position: the same legal actions
    assert again.hands[0].actions[k].variations[0][0].eval == record
    doc = replay.to_dict()
    del doc["hands"][0]["actions"][k]["variations"][0][0]["eval"]["values"][other]
    with pytest.raises(cardlab.ReplayError, match="no value for the action played") as caught:
        cardlab.loads(json.dumps(doc))
    assert caught.value.path == \
        f"$.hands[0].actions[{k}].variations[0][0].eval.values"
    assert caught.value.step == k + 1


def test_an_eval_counts_in_the_nesting_limit():
    text = _analysed("teds-game")
    with pytest.raises(cardlab.LimitError, match="max_nesting"):
        cardlab.loads(text, limits=Limits(max_nesting=7))
    assert cardlab.loads(text, limits=Limits(max_nesting=8)) == analysed()


def test_the_format_knows_the_bots_the_advisor_plays():
    from cardlab.advisor.evaluate import BOTS
    from cardlab.validation import EVAL_BOTS

    assert EVAL_BOTS == BOTS


def test_the_schema_refuses_what_the_loader_refuses_in_a_records_shape():
    doc = data()
    _, _, action = _evaluated(doc)
    jsonschema.validate(doc, schema())
    for change in (lambda a: a["eval"].update(rollouts=0),
                   lambda a: a["eval"].update(bot="oracle"),
                   lambda a: a["eval"]["values"][a["act"]].__setitem__(1, -1.0),
                   lambda a: a["eval"].pop("seed"),
                   lambda a: a["eval"].update(note=3)):
        broken = json.loads(json.dumps(doc))
        change(_evaluated(broken)[2])
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema())
    assert action["eval"]["rollouts"] == 8


def test_a_note_loads_validates_and_is_kept():
    doc = data()
    _evaluated(doc)[2]["eval"]["note"] = "not solved within 5 nodes: Monte Carlo instead"
    jsonschema.validate(doc, schema())
    replay = cardlab.loads(json.dumps(doc))
    kept = [a.eval["note"] for h in replay.hands for a in h.actions if a.eval and "note" in a.eval]
    assert kept == ["not solved within 5 nodes: Monte Carlo instead"]
    assert cardlab.loads(replay.to_json()) == replay


def test_a_values_map_of_many_keys_is_refused_at_its_first_key_that_is_not_legal():
    doc = data()
    h, i, action = _evaluated(doc)
    values = action["eval"]["values"]
    values.update({f"play X{k}": [0.0, 0.0] for k in range(100_000)})
    _refused(doc, h, i, '.values["play X0"]', "'play X0' is not a legal action here")


def test_records_at_the_edges_of_the_range_load_show_page_and_add_up():
    """The numbers' range (docs/replay-format.md) keeps every view finite: each decision's
    values at the bounds, the played action a billion below the best, every hand."""
    from cardlab.advisor import report
    from cardlab.validation import EVAL_ROLLOUTS_MAX, EVAL_SEED_MAX, EVAL_STDERR_MAX, EVAL_VALUE_MAX

    doc = data("whot")
    count = 0
    for hand in doc["hands"]:
        for action in hand["actions"]:
            if "eval" in action:
                record = action["eval"]
                count += 1
                record.update(rollouts=EVAL_ROLLOUTS_MAX, seed=EVAL_SEED_MAX * (-1) ** count)
                record["values"] = {text: [EVAL_VALUE_MAX if text == action["act"] else
                                           -EVAL_VALUE_MAX, EVAL_STDERR_MAX * (count % 2)]
                                    for text in record["values"]}
    assert count > 10
    replay = cardlab.loads(json.dumps(doc))
    seat = replay.seats[0]
    assert "lost 2000000000.0 expected points" in cardlab.text.render(replay)  # the marks
    assert "Final:" in cardlab.text.render(replay, seat=0)
    for page in (page_html(replay), page_html(replay, seat=seat)):
        body = re.search(r'id="cardlab-movie">(.*?)</script>', page, re.S).group(1)
        json.loads(body, parse_constant=lambda name: pytest.fail(f"{name} in the page"))
    lost = [d.loss for d in report.decisions(replay)]
    assert lost and all(math.isfinite(x) for x in lost)
    for row in report.luck(replay):
        assert all(math.isfinite(x) for x in (row.result, row.expected, row.skill, row.luck))
