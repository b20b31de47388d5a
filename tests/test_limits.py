"""Named limits (cardlab/limits.py) and what load reads at all (issue 10, item 3).

Each limit, once exceeded, gives a LimitError naming it and how to raise it; raising it lets
the same file load. load reads regular files only and checks the size before reading, so a
FIFO, /dev/zero or a folder is refused at once."""

from __future__ import annotations

import dataclasses
import json
import os
import threading

import pytest

import cardlab
from cardlab.bots import make_bot
from cardlab.errors import LimitError
from cardlab.limits import DEFAULT_LIMITS, Limits
from cardlab.replay import Action


@pytest.fixture(scope="module")
def game() -> cardlab.Replay:
    table = cardlab.new_game("bobs-hat", players=3, seed=6, hands=3)
    table.play([make_bot("random", "bobs-hat", seed=s) for s in range(3)])
    replay = table.replay
    replay.hands[0].actions[0].note = {"en": "x" * 50, "no": "y" * 10}
    first = replay.hands[1].actions[0]
    other = "hat -10" if first.act == "hat +10" else "hat +10"
    alt = Action(first.seat, other)
    alt.variations.append([Action(first.seat, first.act)])
    first.variations.append([alt])
    return replay


def over(text: str, name: str, value: int, path: str | None = None) -> LimitError:
    limits = Limits(**{name: value})
    with pytest.raises(LimitError) as caught:
        cardlab.loads(text, "big.json", limits=limits)
    err = caught.value
    message = str(err)
    assert err.limit == name and err.value == value, message
    assert f"more than the limit {name}={value:,}" in message
    assert f"load(..., limits=Limits({name}=...))" in message
    assert f"--limit {name}=N" in message
    if path is not None:
        assert err.path == path, message
    raised = dataclasses.replace(limits, **{name: getattr(DEFAULT_LIMITS, name)})
    assert cardlab.loads(text, limits=raised).to_json() == text  # raised: it loads again
    return err


def test_each_limit_names_itself_and_how_to_raise_it(game):
    text = game.to_json()
    longest = max(len(h.actions) for h in game.hands)
    over(text, "max_file_bytes", len(text) - 1)
    over(text, "max_hands", 2, "$.hands")
    over(text, "max_actions_per_hand", longest - 1)
    over(text, "max_variations", 1)
    over(text, "max_variation_depth", 1, "$.hands[1].actions[0].variations[0][0].variations[0]")
    over(text, "max_note_chars", 49, "$.hands[0].actions[0].note.en")
    over(text, "max_nesting", 7)


def test_the_defaults_pass_every_shipped_replay_and_leave_room():
    for name in cardlab.example_names():
        cardlab.loads(cardlab.example(name).to_json(), limits=DEFAULT_LIMITS)
    assert DEFAULT_LIMITS.max_actions_per_hand >= 1_000_000  # a Whot game without a cap
    assert DEFAULT_LIMITS.max_file_bytes >= 60_000_000  # the 1,000,000-action benchmark
    assert DEFAULT_LIMITS.max_nesting >= 5 + 3 * DEFAULT_LIMITS.max_variation_depth


def test_limits_are_positive_whole_numbers_and_parse_from_a_command_line():
    assert Limits.from_pairs({"max-hands": "2_000", "max_nesting": 10}) == Limits(
        max_hands=2000, max_nesting=10)
    for bad in ({"max_hands": "0"}, {"max_hands": "-1"}, {"max_hands": "lots"},
                {"max_cards": "3"}, {"max_hands": "1" * 30}):
        with pytest.raises(cardlab.OptionError):
            Limits.from_pairs(bad)
    with pytest.raises(cardlab.OptionError, match="at most 50,000"):
        Limits(max_nesting=10**6)
    with pytest.raises(cardlab.OptionError):
        Limits(max_hands=True)  # type: ignore[arg-type]
    assert Limits.names() == ("max_file_bytes", "max_hands", "max_actions_per_hand",
                              "max_variations", "max_variation_depth", "max_note_chars",
                              "max_nesting")


def test_the_size_is_checked_before_reading(game, tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    path.write_text(game.to_json(), encoding="utf-8")

    def no_reading(*args, **kwargs):
        raise AssertionError("the file was opened")

    monkeypatch.setattr(os, "open", no_reading)
    with pytest.raises(LimitError, match=r"big\.json: the file has [\d,]+ bytes, more than the "
                                         r"limit max_file_bytes=100"):
        cardlab.load(path, limits=Limits(max_file_bytes=100))


def refused_at_once(path, fragment):
    """``load(path)`` refuses within a few seconds (a thread, so a hang fails the test)."""
    outcome: list[BaseException | None] = []

    def run():
        try:
            cardlab.load(path)
            outcome.append(None)
        except BaseException as err:  # noqa: BLE001  (the test inspects what was raised)
            outcome.append(err)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(10)
    assert outcome, f"load({path}) still running after 10 s"
    err = outcome[0]
    assert isinstance(err, cardlab.ReplayError) and fragment in str(err), err
    assert str(path) in str(err)


def test_a_fifo_a_device_and_a_folder_are_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    refused_at_once(fifo, "not a regular file")
    refused_at_once("/dev/zero", "not a regular file")
    refused_at_once(tmp_path, "it is a folder")
    refused_at_once(tmp_path / "missing.json", "no such file")


def test_an_unreadable_file_and_bytes_that_are_not_utf8(tmp_path, game):
    path = tmp_path / "latin1.json"
    path.write_bytes(game.to_json().replace("Where", "Wh\xe9re").encode("latin-1") + b"\xff")
    with pytest.raises(cardlab.ReplayError, match="not UTF-8 text"):
        cardlab.load(path)
    if os.geteuid() != 0:  # root reads any file
        locked = tmp_path / "locked.json"
        locked.write_text(game.to_json(), encoding="utf-8")
        locked.chmod(0)
        with pytest.raises(cardlab.ReplayError, match="permission denied"):
            cardlab.load(locked)


def test_loads_takes_bytes_and_counts_them(game):
    data = game.to_json().encode("utf-8")
    assert cardlab.loads(data) == game
    with pytest.raises(LimitError, match=f"the replay has {len(data):,} bytes"):
        cardlab.loads(data, limits=Limits(max_file_bytes=len(data) - 1))
    assert json.loads(data)["game"] == "bobs-hat"


def test_load_takes_a_path_only(tmp_path):
    for value in (3, None, b"x.json"):
        with pytest.raises(cardlab.ReplayError, match="load takes the path of a file"):
            cardlab.load(value)  # type: ignore[arg-type]
    with pytest.raises(cardlab.ReplayError, match="cannot read the file"):
        cardlab.load(str(tmp_path / "a\x00b.json"))
