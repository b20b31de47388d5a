"""Seat names: one rule for the recording API, the loader and the CLI (docs/replay-format.md)."""

from __future__ import annotations

import json

import pytest

import cardlab
from cardlab.bots import make_bot
from cardlab.seats import MAX_SEAT_NAME, seat_name_problem

BAD = {
    "": "seat 2 has an empty name",
    "x" * (MAX_SEAT_NAME + 1): f"at most {MAX_SEAT_NAME}",
    " Bea": "white space",
    "Bea ": "white space",
    "Be\ta": "U+0009",
    "Be\na": "U+000A",
    "Be\x00a": "U+0000",
    "Be\x1b[31ma": "U+001B",
    "Be\x7fa": "U+007F",
    "Be\u2028a": "U+2028",
    "Be\u202ea": "U+202E",
    "Be\u2066a": "U+2066",
    "Be\ud800a": "U+D800",
    "ANN": "already the name of seat 1",
}
GOOD = ["Ann", "Bea Lund", "Kåre", "Ngozi Okonjo-Iweala", "李雷", "🦊", "x" * MAX_SEAT_NAME,
        "O'Brien", "a,b"]


@pytest.mark.parametrize("name,reason", BAD.items(), ids=[repr(n)[:20] for n in BAD])
def test_new_game_refuses_a_bad_seat_name(name, reason):
    with pytest.raises(cardlab.OptionError, match="seats: seat 2") as caught:
        cardlab.new_game("bobs-hat", players=3, seed=1, seats=["Ann", name, "Cal"])
    assert reason in str(caught.value)


@pytest.mark.parametrize("name,reason", BAD.items(), ids=[repr(n)[:20] for n in BAD])
def test_the_loader_refuses_the_same_names_at_their_json_path(name, reason):
    table = cardlab.new_game("bobs-hat", players=3, seed=1, hands=1, seats=["Ann", "Bea", "Cal"])
    table.play([make_bot("random", "bobs-hat", seed=s) for s in range(3)])
    data = json.loads(table.replay.to_json())
    data["seats"][1] = name
    for hand in data["hands"]:
        for action in hand["actions"]:
            if action["seat"] == "Bea":
                action["seat"] = name
    with pytest.raises(cardlab.ReplayError, match=r"game\.json:\$\.seats\[1\]"):
        cardlab.loads(json.dumps(data), "game.json")


def test_good_names_record_save_load_and_show(tmp_path):
    for start in range(0, len(GOOD), 3):
        names = (GOOD[start:start + 3] + ["P", "Q", "R"])[:3]
        assert seat_name_problem(names) is None
        table = cardlab.new_game("bobs-hat", players=3, seed=start, hands=1, seats=names)
        table.play([make_bot("random", "bobs-hat", seed=s) for s in range(3)])
        path = tmp_path / f"game{start}.json"
        table.save(path)
        loaded = cardlab.load(path)
        assert loaded.seats == names and loaded.to_json() == table.replay.to_json()
        assert all(name in cardlab.text.render(loaded) for name in names)


def test_seats_count_from_1_in_the_reason_and_0_in_the_index():
    assert seat_name_problem(["A", "B", "C", ""]) == (3, "seat 4 has an empty name")
    assert seat_name_problem(["A", 7]) == (1, "seat 2's name must be text, not 7")


REFUSED_SEATS = ["brad", "", 4, -1, True, 1.0]


@pytest.mark.parametrize("seat", REFUSED_SEATS, ids=repr)
def test_every_seat_argument_is_resolved_by_one_rule(seat):
    """A seat is given by name or by number (from 0) to many functions; each asks
    ``Replay.seat_index``, so each refuses the same seats with the same OptionError."""
    from cardlab.advisor import evaluate, report
    from cardlab.analyse import analyse
    from cardlab.view import ReplayViewer, build_movie, page_html

    review = cardlab.example("norwegian-review")
    with pytest.raises(cardlab.OptionError) as caught:
        review.seat_index(seat)
    message = str(caught.value)
    numbers = "" if isinstance(seat, str) else " (or 0 to 3)"
    assert message == f"no seat {seat!r}; the seats are Tone, Remo, Kathrine, Brad{numbers}"
    callers = {
        "build_movie": lambda: build_movie(review, seat=seat),
        "page_html": lambda: page_html(review, seat=seat),
        "ReplayViewer": lambda: ReplayViewer(review, seat=seat),
        "ReplayViewer.set_seat": lambda: ReplayViewer(review).set_seat(seat),
        "report.decisions": lambda: report.decisions(review, seat=seat),
        "report.luck": lambda: report.luck(review, seat=seat),
        "analyse": lambda: analyse(review, seat=seat, rollouts=1, progress=False),
        "evaluate": lambda: evaluate(review, 1, 0, seat=seat, rollouts=1),
    }
    for name, call in callers.items():
        with pytest.raises(cardlab.OptionError) as caught:
            call()
        assert str(caught.value) == message, name


def test_a_seat_by_name_or_number_is_the_same_seat():
    review = cardlab.example("norwegian-review")
    for number, name in enumerate(review.seats):
        assert review.seat_index(name) == review.seat_index(number) == number
