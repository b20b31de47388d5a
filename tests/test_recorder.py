"""The recording widget (cardlab.lessons.recorder): a real game of each game recorded entry by
entry through the widget's messages, as the browser sends them, and through its Python API.

A seeded game played by random bots is the game "at the table": the recorder is given its
draw, its deals and its actions and must end with the very same record, saved after every
entry. Refusals (the rules' reason in the widget, nothing changed), undo, a killed kernel and
reopening are checked on the same games.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from importpath import CARDLAB_PATH

import cardlab
from cardlab.bots import make_bot
from cardlab.errors import CardlabError, IllegalActionError, OptionError
from cardlab.lessons.recorder import Recorder

ROOT = Path(__file__).resolve().parents[1]
GAMES = [("teds-game", {"start_size": 2}), ("bobs-hat", {"hands": 2}),
         ("whot", {"rubber": "single", "rules": "nigerian"})]


def reference(game: str, options: dict[str, Any], seed: int = 3) -> cardlab.Replay:
    """A whole seeded game played by random bots: what happened at the table."""
    table = cardlab.new_game(game, players=3, seed=seed, **options)
    table.play([make_bot("random", game, seed=seed * 10 + s) for s in range(3)])
    assert table.state.is_game_over()
    return table.replay


def entries(replay: cardlab.Replay) -> list[tuple[str, Any]]:
    """The replay as the widget's entries: the draw, each deal, each action."""
    out: list[tuple[str, Any]] = []
    if replay.setup is not None:
        out.append(("setup", replay.setup))
    for hand in replay.hands:
        out.append(("deal", hand.deal))
        out += [("act", action) for action in hand.actions]
    return out


def send(rec: Recorder, **message: Any) -> None:
    """What the browser does: a message to the kernel. Its answer must reach the browser: a
    change of the synced traitlet (one equal to the last value would not be sent)."""
    changes: list[Any] = []

    def seen(change: Any) -> None:
        changes.append(change["new"])

    rec.widget.observe(seen, names="data")
    rec._on_message(rec.widget, message, [])
    rec.widget.unobserve(seen, names="data")
    assert changes and changes[-1] == rec.data(), f"{message} changed nothing in the browser"


def enter(rec: Recorder, kind: str, what: Any) -> None:
    """Make one entry through the widget's messages (the setup and deals card by card)."""
    if kind == "act":
        text = what.act
        if text.startswith("play ") and " " not in text[5:]:
            text = text[5:]  # a card clicked in the seat's hand is sent as its code
        send(rec, type="enter", text=text, seat=what.seat)
    elif kind == "setup":
        rows = next(v for v in what.values() if isinstance(v, list))
        for r, row in enumerate(rows):
            if r:
                send(rec, type="round")
            for s, code in enumerate(row):
                if code is not None:
                    send(rec, type="pick", slot=f"row:{r}:{s}", text=code)
        send(rec, type="submit")
    else:
        for s, hand in enumerate(what["hands"]):
            for code in hand:
                send(rec, type="pick", slot=f"seat:{s}", text=code)
        for key, value in what.items():
            if key == "hands":
                continue
            for code in [value] if isinstance(value, str) else value:
                send(rec, type="pick", slot=key, text=code)
        send(rec, type="submit")
    assert rec.message == "", rec.message


def same_record(a: cardlab.Replay, b: cardlab.Replay) -> bool:
    return (a.setup, a.hands, a.totals, a.options, a.seats) == \
        (b.setup, b.hands, b.totals, b.options, b.seats)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_whole_game_recorded_and_saved_after_every_entry(tmp_path: Path, game: str,
                                                           options: dict[str, Any]) -> None:
    ref = reference(game, options)
    path = tmp_path / "class.json"
    rec = Recorder(path, game, players=3, **options)
    assert rec.phase == ("deal" if game == "bobs-hat" else "setup")
    sent: list[dict[str, Any]] = []  # what reaches the browser: each change of the traitlet
    rec.widget.observe(lambda change: sent.append(change["new"]), names="data")
    for number, (kind, what) in enumerate(entries(ref), start=1):
        before = len(sent)
        enter(rec, kind, what)
        assert len(sent) > before and sent[-1] == rec.data()
        assert rec.entries() == number
        assert rec.widget.data["entries"] == number
        assert cardlab.load(path) == rec.replay  # saved, whole, after every entry
    assert rec.phase == "over"
    assert same_record(rec.replay, ref)
    sheet = rec.widget.data["sheet"]
    assert sheet[-1][1] == "total" and sheet[-1][2] == ref.totals
    assert rec.widget.data["status"].startswith("The game is over")


def test_the_widget_data_is_json_and_shows_the_choices_of_the_seat_to_act(tmp_path: Path) -> None:
    ref = reference("bobs-hat", {"hands": 1})
    rec = Recorder(tmp_path / "g.json", "bobs-hat", players=3, hands=1)
    data = rec.widget.data
    assert data["phase"] == "deal" and len(data["deck"]) == 60 and "legal" not in data
    json.dumps(data)
    enter(rec, "deal", ref.hands[0].deal)
    data = rec.widget.data
    state = rec.table.state
    assert [t for t, _ in data["legal"]] == state.legal_texts() == ["hat +10", "hat -10"]
    assert data["hands"] == ref.hands[0].deal["hands"]
    assert "deck" not in data  # the deck is shown only while a deal is entered
    assert set(data["faces"]) == {c for h in data["hands"] for c in h}
    json.dumps(data)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_refused_entry_says_why_and_changes_nothing(tmp_path: Path, game: str,
                                                      options: dict[str, Any]) -> None:
    """At every action of the game, an action of the game's that the rules forbid there is
    refused with the engine's own reason, and neither the record nor the file changes."""
    ref = reference(game, options)
    path = tmp_path / "class.json"
    rec = Recorder(path, game, players=3, **options)
    refused = 0
    for kind, what in entries(ref):
        if kind == "act":
            state = rec.table.state
            held = state.snapshot()["hands"][state.to_act()]
            legal = set(state.legal_texts())
            wrong = [f"play {c}" for c in held if f"play {c}" not in legal]
            if wrong:
                before, saved = rec.replay.copy(), path.read_bytes()
                with pytest.raises(IllegalActionError) as engine:
                    state.clone().act(wrong[0])
                assert rec.enter(wrong[0]) is False
                assert rec.widget.data["message"] == rec.message
                assert rec.message.endswith(engine.value.reason)
                assert rec.replay == before and path.read_bytes() == saved
                refused += 1
        enter(rec, kind, what)
    assert refused > 0
    assert same_record(rec.replay, ref)


def test_following_suit_is_refused_in_the_rules_words(tmp_path: Path) -> None:
    ref = reference("teds-game", {"start_size": 2})
    rec = Recorder(tmp_path / "t.json", "teds-game", players=3, start_size=2)
    for kind, what in entries(ref):
        state = rec.table.state
        if kind == "act" and state.snapshot()["phase"] == "play" \
                and state.snapshot()["trick"]["cards"]:
            seat = state.to_act()
            held = state.snapshot()["hands"][seat]
            legal = state.legal_texts()
            off = [c for c in held if f"play {c}" not in legal]
            if off:
                assert not rec.enter(off[0])
                name = rec.replay.seats[seat]
                assert f"{name} must follow" in rec.message, rec.message
                return
        enter(rec, kind, what)
    pytest.fail("no seat could have reneged in this game: choose another seed")


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_undo_takes_back_each_entry_and_saves(tmp_path: Path, game: str,
                                              options: dict[str, Any]) -> None:
    """After every entry, undo gives back the record before it (a deal's cards return to the
    draft), on disk too; the entry made again gives the same record."""
    ref = reference(game, options)
    path = tmp_path / "class.json"
    rec = Recorder(path, game, players=3, **options)
    assert not rec.undo() and "nothing to take back" in rec.message
    for kind, what in entries(ref):
        before = rec.replay.copy()
        enter(rec, kind, what)
        after = rec.replay.copy()
        send(rec, type="undo")
        assert rec.message == ""
        assert same_record(rec.replay, before)
        if path.exists():
            assert cardlab.load(path) == rec.replay
        else:  # the draw taken back: a file without its setup would be no replay
            assert kind == "setup"
        if kind == "deal":  # the cards are back in the draft, for one card to be changed
            assert rec.widget.data["hands"] == what["hands"]
            send(rec, type="submit")
        elif kind == "setup":
            assert rec.widget.data["rows"] == next(v for v in what.values()
                                                   if isinstance(v, list))
            send(rec, type="submit")
        else:
            enter(rec, kind, what)
        assert rec.message == "" and rec.replay == after
    assert same_record(rec.replay, ref)


def test_undo_of_picked_cards_and_of_the_last_action_of_the_game(tmp_path: Path) -> None:
    ref = reference("teds-game", {"start_size": 1})
    rec = Recorder(tmp_path / "t.json", "teds-game", players=3, start_size=1)
    for kind, what in entries(ref):
        enter(rec, kind, what)
    assert rec.phase == "over" and rec.replay.totals == ref.totals
    assert rec.undo() and rec.phase == "play" and rec.replay.totals is None
    assert rec.widget.data["sheet"] == []  # the only hand is unfinished again
    assert cardlab.load(rec.path).totals is None
    rec2 = Recorder(tmp_path / "u.json", "teds-game", players=3, start_size=1)
    enter(rec2, "setup", ref.setup)
    assert rec2.pick("5h") and rec2.pick("queen of spades")
    assert rec2.widget.data["hands"][:2] == [["5H"], ["QS"]]
    assert rec2.undo() and rec2.widget.data["hands"][:2] == [["5H"], []]
    assert rec2.entries() == 1


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_bad_input_is_a_clear_message_in_the_widget(tmp_path: Path, game: str,
                                                    options: dict[str, Any]) -> None:
    ref = reference(game, options)
    path = tmp_path / "class.json"
    rec = Recorder(path, game, players=3, **options)
    deck = cardlab.get_game(game).rules_class.deck
    # a code that is not a card, while the deal is entered and while it is played
    send(rec, type="pick", slot=None, text="purple99")
    assert rec.widget.data["message"] == f"'purple99' is not a {deck.description} " \
        f"(codes look like {', '.join(deck.codes[:3])}, ...)"
    send(rec, type="pick", slot="seat:9", text=deck.codes[0])
    assert "no place 'seat:9'" in rec.message
    send(rec, type="submit")
    assert rec.message and rec.entries() == 0  # an empty draft is refused by the engine
    for kind, what in entries(ref):
        if kind == "act":
            break
        enter(rec, kind, what)
    first = next(a for k, a in entries(ref) if k == "act")
    saved = path.read_bytes()
    send(rec, type="enter", text="purple99")
    # the rule's sentence alone: no "hand 1, step 1, seat ..." before it
    assert rec.message.startswith("'purple99' is not a") and "seat " not in rec.message
    # an action out of turn: another seat's card, clicked in its hand
    other = next(s for s in rec.replay.seats if s != first.seat)
    code = rec.table.state.snapshot()["hands"][rec.replay.seats.index(other)][0]
    send(rec, type="enter", text=code, seat=other)
    assert f"is {first.seat}'s to make now, not {other}'s" in rec.widget.data["message"]
    assert path.read_bytes() == saved
    assert not any(h.actions for h in rec.replay.hands)
    # a card picked when no deal is due, and a hostile message, are answered, not raised
    send(rec, type="pick", slot="seat:0", text=code)
    assert "no deal or draw is due" in rec.message
    rec._on_message(rec.widget, ["not", "a", "dict"], [])
    send(rec, type="enter", text="play " + "x" * 10_000)
    assert rec.message == "an entry is a card code or an action, at most 200 characters, " \
        "not 10,005"
    send(rec, type="enter", text=first.act, seat=first.seat)
    assert rec.message == "" and rec.replay.hands[0].actions[0] == first


def test_a_tied_draw_needs_another_round(tmp_path: Path) -> None:
    rec = Recorder(tmp_path / "t.json", "teds-game", players=3)
    for code in ("4C", "4D", "9H"):
        assert rec.pick(code)
    assert not rec.pick("KH")
    assert "every player has a card in round 1" in rec.message
    assert not rec.submit()
    assert "tie for lowest card between North, East" in rec.message
    assert rec.entries() == 0 and not rec.path.exists()
    assert rec.new_round() and rec.pick("QS", "row:1:0") and rec.pick("3S", "row:1:1")
    assert rec.submit(), rec.message
    assert rec.replay.setup == {"draws": [["4C", "4D", "9H"], ["QS", "3S", None]],
                                "first_dealer": 1}
    assert rec.table.state.snapshot()["first_dealer"] == 1
    assert cardlab.load(rec.path) == rec.replay


def test_bobs_hat_trump_and_whot_stock(tmp_path: Path) -> None:
    rec = Recorder(tmp_path / "b.json", "bobs-hat", players=3, hands=1)
    assert not rec.pick("purple", "trump") and "blue, red, black or gray" in rec.message
    assert rec.pick("gray") and rec.widget.data["extra"]["word"] == "gray"
    hands = [["blue1", "blue2", "blue3", "blue4", "blå5"], ["red1", "r2", "red3", "red4", "red5"],
             ["black1", "black2", "black3", "black4", "svart5"]]
    for s, hand in enumerate(hands):
        for code in hand:
            assert rec.pick(code, f"seat:{s}"), rec.message
    assert not rec.pick("blue6", "seat:0") and "has the 5 cards" in rec.message
    assert not rec.pick("blue1", "seat:1") and "already given to North" in rec.message
    assert rec.submit(), rec.message
    assert rec.replay.hands[0].deal["trump"] == "gray"
    assert rec.replay.hands[0].deal["hands"][0][4] == "blue5"  # the alias read as its card
    whot = Recorder(tmp_path / "w.json", "whot", players=3, rubber="single")
    enter(whot, "setup", {"cuts": [["circle1", "circle2", "circle3"]]})
    assert not whot.pick("circle1/2") and "second pack" in whot.message
    for s in range(3):
        assert whot.pick(f"triangle{[2, 3, 5][s]}", f"seat:{s}")
        for code in (f"cross{[2, 3, 5][s]}", f"square{[2, 3, 5][s]}", f"star{[2, 3, 5][s]}",
                     f"circle{[4, 5, 7][s]}", f"triangle{[4, 10, 11][s]}"):
            assert whot.pick(code, f"seat:{s}"), whot.message
    assert whot.pick("whot", "stock") and whot.pick("star7", "stock")
    assert whot.submit(), whot.message
    stock = whot.replay.hands[0].deal["stock"]
    assert stock[:2] == ["whot20", "star7"] and len(stock) == 54 - 18
    assert len(set(stock)) == len(stock)
    assert cardlab.load(whot.path) == whot.replay


def test_reopening_the_file_goes_on_where_it_ends(tmp_path: Path) -> None:
    ref = reference("whot", {"rubber": "single"})
    path = tmp_path / "class.json"
    rec = Recorder(path, "whot", players=3, rubber="single")
    steps = entries(ref)
    for kind, what in steps[:9]:
        enter(rec, kind, what)
    again = Recorder(path)
    assert again.entries() == 9 and again.replay == rec.replay
    for kind, what in steps[9:]:
        enter(again, kind, what)
    assert same_record(again.replay, ref)
    with pytest.raises(OptionError, match="records whot, not bobs-hat"):
        Recorder(path, "bobs-hat")
    with pytest.raises(OptionError, match="records players=3, not 4"):
        Recorder(path, "whot", players=4)
    with pytest.raises(CardlabError, match="no such file"):
        Recorder(tmp_path / "none.json")


CHILD = """
import sys
from cardlab.lessons.recorder import Recorder
sys.path.insert(0, {tests!r})
import test_recorder as t
ref = t.reference("teds-game", {{"start_size": 3}})
rec = Recorder({path!r}, "teds-game", players=3, start_size=3)
for number, (kind, what) in enumerate(t.entries(ref), start=1):
    t.enter(rec, kind, what)
    print(number, flush=True)
"""


def test_a_killed_kernel_leaves_the_last_complete_replay(tmp_path: Path) -> None:
    """The recording process is killed (SIGKILL, no clean-up) after some entries: the file
    holds a whole replay of the first k entries, and a recorder reopened on it goes on."""
    path = tmp_path / "class.json"
    ref = reference("teds-game", {"start_size": 3})
    steps = entries(ref)
    code = CHILD.format(tests=str(ROOT / "tests"), path=str(path))
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             cwd=tmp_path, env=dict(os.environ, PYTHONPATH=CARDLAB_PATH))
    assert child.stdout is not None
    done = 0
    while done < 12:
        line = child.stdout.readline()
        assert line, "the recording process ended early"
        done = int(line)
    os.kill(child.pid, signal.SIGKILL)  # maybe in the middle of saving entry 13 or later
    child.wait()
    rec = Recorder(path)
    kept = rec.entries()
    assert done <= kept <= len(steps)
    for kind, what in steps[kept:]:
        enter(rec, kind, what)
    assert same_record(rec.replay, ref)


def test_whot_draws_name_the_card_drawn_at_the_table(tmp_path: Path) -> None:
    """The stock is not entered at the deal; each draw names the cards drawn at the table
    (until the pile is turned over, when the stock is known): the game is the same one."""
    ref = reference("whot", {"rubber": "single"}, seed=5)
    rec = Recorder(tmp_path / "w.json", "whot", players=3, rubber="single")
    state = ref.new_state()
    named = 0
    for kind, what in entries(ref):
        if kind == "setup":
            enter(rec, kind, what)
            continue
        if kind == "deal":
            state.apply_chance(what)
            enter(rec, kind, {"hands": what["hands"], "stock": []})  # the stock unknown
            continue
        seat = ref.seats.index(what.seat)
        before = state.snapshot()
        state.act(what.act)
        after = state.snapshot()
        if what.act == "draw" and not after["turnovers"]:
            drawn = sorted(set(after["hands"][seat]) - set(before["hands"][seat]))
            assert rec.enter("draw " + " ".join(drawn), seat=what.seat), rec.message
            named += 1
        else:
            enter(rec, kind, what)
        assert cardlab.load(rec.path) == rec.replay
    assert named > 3
    assert [h.actions for h in rec.replay.hands] == [h.actions for h in ref.hands]
    assert rec.replay.totals == ref.totals
    # a card that is not in the stock any more is refused, and changes nothing
    rec2 = Recorder(tmp_path / "w2.json", "whot", players=3, rubber="single")
    enter(rec2, "setup", ref.setup)
    enter(rec2, "deal", {"hands": ref.hands[0].deal["hands"], "stock": []})
    first = ref.hands[0].actions[0]
    enter(rec2, "act", first)
    held = ref.hands[0].deal["hands"][0][0]
    saved = rec2.path.read_bytes()
    assert not rec2.enter(f"draw {held}") and "no " in rec2.message and "left in the stock" \
        in rec2.message
    assert rec2.path.read_bytes() == saved


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_the_chart_holds_the_engines_totals_after_each_hand(tmp_path: Path, game: str,
                                                            options: dict[str, Any]) -> None:
    """The chart's points are 0 at the start, then the engine's totals after each finished
    hand; an entry that finishes no hand leaves them be; an undo takes the last point back."""
    ref = reference(game, options)
    rec = Recorder(tmp_path / "c.json", game, players=3, **options)
    seats = len(ref.seats)
    expected = [[0] * seats]
    todo = entries(ref)
    for k, (kind, what) in enumerate(todo):
        before = rec.widget.data["chart"]
        enter(rec, kind, what)
        ends_hand = kind == "act" and (k + 1 == len(todo) or todo[k + 1][0] == "deal")
        if ends_hand:
            expected.append(list(rec.table.state.totals()))
        chart = rec.widget.data["chart"]
        assert chart["points"] == expected
        assert chart["labels"] == ["start"] + [str(n) for n in range(1, len(expected))]
        if ends_hand:  # taken back, the hand is unfinished again: its point goes
            send(rec, type="undo")
            assert rec.widget.data["chart"] == before
            enter(rec, kind, what)
            assert rec.widget.data["chart"] == chart
    assert expected[-1] == ref.totals and len(expected) == len(ref.hands) + 1
    low = " (points against: lower is better)" if game == "whot" else ""
    word = "game" if game == "whot" else "hand"
    assert rec.widget.data["chart"]["title"] == f"Total after each {word}{low}"
    assert rec.widget.data["chart"]["x"] == word


def test_a_refusal_at_the_recorder_is_the_rules_sentence_in_card_names(tmp_path):
    """The norwegian review recorded up to Remo's first card: a red card on a blue lead is
    refused with the rule's sentence alone, naming cards as people do; the CardlabError keeps
    its "where" for the command line."""
    review = cardlab.example("norwegian-review")
    rec = Recorder(tmp_path / "class.json", "bobs-hat", players=4, seats=review.seats,
                   **{k: v for k, v in review.options.items() if k != "players"})
    ref = cardlab.Replay(game=review.game, options=review.options, seats=review.seats,
                         setup=review.setup, hands=[review.hands[0]])
    for kind, what in entries(ref)[:7]:  # the deal, the hat, four bids, Tone's blue 20
        enter(rec, kind, what)
    state = rec.table.state
    assert state.names[state.to_act()] == "Remo"
    red = next(c for c in state.snapshot()["hands"][1] if c.startswith("red"))
    send(rec, type="enter", text=red, seat="Remo")
    assert rec.message == ("Remo must follow blue, the suit led: Remo holds blue 14")
    with pytest.raises(IllegalActionError) as err:
        rec.table.act(f"play {red}")
    assert str(err.value).startswith(f"hand 1, step 7, seat Remo, action 'play {red}': ")
    send(rec, type="pick", text="blue20")
    assert rec.message == "no deal or draw is due: enter the actions"
