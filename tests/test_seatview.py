"""What a seat may see: nothing hidden from a seat leaves the engine in that seat's view.

For every shipped replay and for seeded bot games of every registered game and option set
(plus the options that hide things: Bob's Hat's secret bidding and ``hat_reveal=when-found``),
at every step and for every seat, the seat's position (as JSON) and the lines ``text.render``
writes at that step name no card and no action text that :func:`cardlab.seatview.hidden_from`
computes as hidden on the omniscient state; and everything the seat may see is there, equal
to the omniscient view. Then one targeted test per rule.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from importpath import PACKAGE
from tablegames import table_mode_game

import cardlab
from cardlab import explore, seatview, text
from cardlab.bots import make_bot
from cardlab.cursor import Cursor
from cardlab.game import list_games

SHIPPED = sorted((PACKAGE / "examples").glob("*.json"))
REVIEW = PACKAGE / "examples" / "norwegian-review.json"

# The setup's face-up cards (Whot's cut, Ted's draw for first dealer) are public records of
# cards that go back into the pack before the deal: a code there tells nothing of a hand.
PUBLIC_RECORDS = ("cuts", "draw")
# The keys a seat's view may differ in from everyone's; every other key must be equal.
SEAT_KEYS = {"hands", "legal", "bids", "hat", "action", "variations", "note"}


def _masked(pos: dict[str, Any], whole: dict[str, Any]) -> dict[str, Any]:
    """The position without the setup's public records, and of Whot's misplays (each shown
    to the table) only those whose card the misplayer still holds: the others are history,
    like the cards played, and name a card that has moved on since (``whole`` is everyone's
    view of the same step; the generic check compares the records with it)."""
    out = {k: v for k, v in pos.items() if k not in PUBLIC_RECORDS}
    if "misplays" in out:
        out["misplays"] = [m for m in out["misplays"] if m["hand"] == pos["hand"]
                           and m["card"] in (whole["hands"][m["seat"]] or [])]
    return out


def _actor(replay: cardlab.Replay, action: dict[str, Any] | None) -> int | None:
    return None if action is None else replay.seats.index(action["seat"])


def check_seat_views(replay: cardlab.Replay) -> Counter[str]:
    """Assert the seat-view invariants at every step for every seat; count what was checked."""
    seen: Counter[str] = Counter()
    full = Cursor(replay)
    everyone = [(step, lines) for step, lines in text.render_steps(replay) if step is not None]
    fulls = []
    for i in range(len(full)):
        fulls.append((full.goto(i).state.clone(), full.position))
    for seat in range(len(replay.seats)):
        view = Cursor(replay, seat=seat)
        written = {step: lines for step, lines in text.render_steps(replay, seat=seat)
                   if step is not None}
        for i in range(len(view)):
            state, whole = fulls[i]
            hidden = seatview.hidden_from(state, seat)
            pos = view.goto(i).position
            where = f"step {i}, seat {replay.seats[seat]}"
            # nothing hidden is there
            assert hidden.leaks(json.dumps(_masked(pos, whole), ensure_ascii=False)) == [], where
            for line in written[i]:
                assert hidden.leaks(line) == [], (where, line)
                for actor, hidden_text in hidden.texts:
                    assert line.strip() != f"{replay.seats[actor]}: {hidden_text}", (where, line)
            if pos["action"] is not None:
                assert (_actor(replay, pos["action"]), pos["action"]["act"]) not in hidden.texts
            for actor, hidden_text in hidden.texts:  # the hidden values themselves
                if hidden_text.startswith("hat "):
                    assert pos["hat"]["value"] is None, where
                    assert all("hat" not in parts for parts in pos["score_parts"] or []), where
                if hidden_text.startswith("bid "):
                    assert pos["bids"][actor] is None, where
            seen["codes hidden"] += len(hidden.codes)
            seen["texts hidden"] += len(hidden.texts)
            # everything public is there, as everyone sees it
            for key in whole:
                if key not in SEAT_KEYS:
                    assert pos[key] == whole[key], (where, key)
            assert pos["hands"][seat] == whole["hands"][seat], where
            assert all(h is None for s, h in enumerate(pos["hands"]) if s != seat), where
            own = whole["hands"][seat] or []
            dumped = json.dumps(pos, ensure_ascii=False)
            assert all(f'"{code}"' in dumped for code in own), where
            seen["own cards shown"] += len(own)
            assert pos["legal"] == (whole["legal"] if whole["to_act"] == seat else []), where
            if not hidden.texts:  # nothing hidden but cards: the same bids, hat and action
                for key in ("bids", "hat", "action"):
                    assert pos.get(key) == whole.get(key), (where, key)
                if pos["note"] == whole["note"]:
                    lines = [line for line in written[i] if not line.endswith("(revealed)")]
                    assert lines == everyone[i][1], where
                    seen["steps as everyone"] += 1
            else:
                seen["steps with hidden texts"] += 1
    return seen


def _bot_game(game: str, options: dict[str, Any], seed: int) -> cardlab.Replay:
    table = cardlab.new_game(game, seed=seed, **options)
    kind = "heuristic" if seed % 2 else "random"
    table.play([make_bot(kind, game, seed=seed * 10 + s) for s in range(table.state.rules.players)])
    return table.replay


def _option_sets() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name, info in sorted(list_games().items()):
        for options in info.rules_class.conformance_option_sets():
            out.append((name, options))
    # the options that hide things, on their own and together
    out.append(("bobs-hat", {"players": 4, "hands": 3, "secret_bidding": True}))
    out.append(("bobs-hat", {"players": 3, "hands": 4, "hat_reveal": "when-found",
                             "secret_bidding": True, "no_bids": True}))
    out.append(("bobs-hat", {"players": 5, "hands": 2, "hat_reveal": "when-found",
                             "mode": "table", "secret_bidding": True}))
    return out


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_replays_show_a_seat_nothing_hidden(path):
    seen = check_seat_views(cardlab.load(path))
    assert seen["codes hidden"] > 0 and seen["own cards shown"] > 0
    assert seen["steps as everyone"] > 0


@pytest.mark.parametrize("game,options", _option_sets(),
                         ids=lambda v: v if isinstance(v, str) else
                         ",".join(f"{k}={x}" for k, x in v.items()))
def test_seeded_games_show_a_seat_nothing_hidden(game, options):
    seen = check_seat_views(_bot_game(game, options, seed=len(json.dumps(options)) % 7 + 1))
    assert seen["codes hidden"] > 0 and seen["own cards shown"] > 0
    if game == "bobs-hat" and options.get("secret_bidding"):
        assert seen["steps with hidden texts"] > 0


def _table_mode_game(game: str, options: dict[str, Any], seed: int) -> cardlab.Replay:
    return table_mode_game(game, options, seed, misplay_rate=0.04)


@pytest.mark.parametrize("game,options,record", [
    ("bobs-hat", {"players": 4, "hands": 3}, "renege"),
    ("bobs-hat", {"players": 3, "hands": 2, "secret_bidding": True}, "renege"),
    ("teds-game", {"players": 4, "start_size": 4}, "reneges"),
    ("whot", {"players": 3, "rubber": "short", "max_turns": 400}, "misplays"),
])
def test_table_mode_records_show_a_seat_nothing_hidden(game, options, record):
    for seed in range(1, 30):
        replay = _table_mode_game(game, options, seed)
        final = Cursor(replay)
        if any(final.goto(i).position.get(record) for i in range(len(final))):
            break
    else:
        raise AssertionError(f"no seed recorded a {record}")
    seen = check_seat_views(replay)
    assert seen["codes hidden"] > 0 and seen["own cards shown"] > 0


def _leak_hands(original):
    return lambda self, seat=None: original(self, None)


def _leak_stock(original):
    def snapshot(self, seat=None):
        pos = original(self, seat)
        pos["stock_top"] = self.rules.deck.codes[self.stock[-1]] if self.stock else None
        return pos
    return snapshot


def _leak_hat(original):
    def snapshot(self, seat=None):
        pos = original(self, seat)
        pos["hat"]["value"] = self.hat_value or None
        return pos
    return snapshot


def _leak_bids(original):
    def snapshot(self, seat=None):
        pos = original(self, seat)
        pos["bids"] = original(self, None)["bids"]
        return pos
    return snapshot


@pytest.mark.parametrize("game,options,method,leak", [
    ("teds-game", {"players": 3, "start_size": 2}, "snapshot", _leak_hands),
    ("whot", {"players": 3, "rubber": "single"}, "snapshot", _leak_stock),
    ("bobs-hat", {"players": 4, "hands": 2}, "snapshot", _leak_hat),
    ("bobs-hat", {"players": 4, "hands": 1, "secret_bidding": True}, "snapshot", _leak_bids),
    ("bobs-hat", {"players": 4, "hands": 1, "secret_bidding": True}, "redact_action",
     lambda original: lambda self, actor, text, seat: text),
], ids=["other hands", "whot stock", "hat value", "secret bids", "secret bid texts"])
def test_the_checks_catch_a_leak(monkeypatch, game, options, method, leak):
    """Break the engine's seat view on purpose: the generic check must fail (a test that
    cannot fail is no test)."""
    replay = _bot_game(game, options, seed=1)
    check_seat_views(replay)  # sound as shipped
    state_class = type(replay.new_state())
    monkeypatch.setattr(state_class, method, leak(getattr(state_class, method)))
    with pytest.raises(AssertionError):
        check_seat_views(replay)


# -- Bob's Hat: the hat's value ------------------------------------------------------------

def _hat_hand(options: dict[str, Any]) -> tuple[cardlab.Replay, int, int]:
    """A seeded Bob's Hat game, a hand in it whose hat is found after the first trick, and
    the step (of that hand) at which the first 14 or 15 is taken."""
    for seed in range(1, 40):
        replay = _bot_game("bobs-hat", {"players": 4, "hands": 2, **options}, seed)
        cursor = Cursor(replay, hand=1)
        for i in range(len(cursor)):
            pos = cursor.goto(i).state.snapshot()
            if pos["hat"]["holder"] is not None:
                if len(pos["tricks"]) > 1:
                    return replay, 1, i
                break
    raise AssertionError("no seed gave a hat found after the first trick")


def test_the_hat_value_is_hidden_until_a_hat_card_is_taken():
    replay, hand, found = _hat_hand({"hat_reveal": "when-found"})
    record = replay.hands[hand - 1]
    dealer_name, choice = record.actions[0].seat, record.actions[0].act
    dealer = replay.seats.index(dealer_name)
    value = int(choice.split()[1])
    other = (dealer + 1) % 4
    view = Cursor(replay, hand=hand, seat=other)
    for i in range(len(view)):
        pos = view.goto(i).position
        if 1 <= i < found:
            assert pos["hat"]["value"] is None and pos["hat"]["chosen"]
            assert choice not in json.dumps(pos)
            assert seatview.visible_action(view.state, dealer, choice, other) == "hat chosen"
        elif i >= found:
            assert pos["hat"]["value"] == value
            assert seatview.visible_action(view.state, dealer, choice, other) == choice
    assert view.goto(1).position["action"] == {"seat": dealer_name, "act": "hat chosen"}
    # the dealer knows it from the start
    mine = Cursor(replay, hand=hand, seat=dealer).goto(1).position
    assert mine["hat"]["value"] == value and mine["action"]["act"] == choice
    # the text view: hidden at its step, revealed with the trick that finds the hat
    steps = dict(text.render_steps(replay, seat=other, notes=False))
    assert f"  {dealer_name}: hat chosen" in steps[1]
    assert f"  {dealer_name}: {choice} (revealed)" in steps[found]
    assert not any(choice in line for i in range(1, found) for line in steps[i])
    assert f"  {dealer_name}: {choice}" in dict(text.render_steps(replay, seat=dealer))[1]


def test_the_hat_value_is_shown_at_once_under_the_house_rule():
    replay, hand, found = _hat_hand({"hat_reveal": "at-once"})
    choice = replay.hands[0].actions[0].act
    dealer = replay.seats.index(replay.hands[0].actions[0].seat)
    for seat in range(4):
        pos = Cursor(replay, hand=1, seat=seat).goto(1).position
        assert pos["action"]["act"] == choice and pos["hat"]["value"] == int(choice[4:])
        assert not seatview.hidden_from(Cursor(replay).goto(1).state, seat).texts
    assert dealer >= 0


# -- Bob's Hat: secret bidding ---------------------------------------------------------------

def test_secret_bids_are_hidden_until_all_have_bid_then_shown():
    replay = _bot_game("bobs-hat", {"players": 4, "hands": 1, "secret_bidding": True}, seed=3)
    actions = replay.hands[0].actions
    bids = [(replay.seats.index(a.seat), a.act) for a in actions[1:5]]
    assert all(act.startswith("bid ") for _, act in bids)
    last = 5  # the step of the fourth bid
    for seat in range(4):
        view = Cursor(replay, seat=seat)
        steps = dict(text.render_steps(replay, seat=seat, notes=False))
        for i in range(2, last):
            pos = view.goto(i).position
            actor, act = bids[i - 2]
            shown = [b for b in pos["bids"] if b is not None]
            mine = pos["bids"][seat]
            assert shown == ([] if mine is None else [mine])  # only its own, if made
            assert pos["action"]["act"] == (act if actor == seat else "bid (secret)")
            line = f"  {replay.seats[actor]}: {act if actor == seat else 'bid (secret)'}"
            assert line in steps[i]
        pos = view.goto(last).position
        assert all(b is not None for b in pos["bids"])  # all have bid: shown together
        assert pos["action"]["act"] == bids[-1][1]
        revealed = [line for line in steps[last] if line.endswith("(revealed)")]
        assert revealed == [f"  {replay.seats[a]}: {act} (revealed)" for a, act in bids[:-1]
                            if a != seat]


# -- Whot: the stock -------------------------------------------------------------------------

def test_whot_never_shows_the_stock_or_a_drawn_card():
    replay = _bot_game("whot", {"players": 3, "rubber": "single"}, seed=4)
    full = Cursor(replay)
    draws = 0
    for seat in range(3):
        view = Cursor(replay, seat=seat)
        for i in range(len(view)):
            state = full.goto(i).state
            stock = {state.rules.deck.codes[c] for c in state.stock}
            assert stock <= seatview.hidden_from(state, seat).codes
            pos = view.goto(i).position
            assert "stock" not in pos and pos["stock_size"] == len(stock)
            tokens = set(seatview._TOKEN.findall(json.dumps(_masked(pos, full.position))))
            assert not tokens & stock
            if pos["action"] and pos["action"]["act"] == "draw":
                draws += 1
                actor = replay.seats.index(pos["action"]["seat"])
                if actor != seat:  # the drawn card joins a hand this seat cannot see
                    assert pos["hands"][actor] is None
    assert draws > 0


# -- variations and notes in a seat's view ---------------------------------------------------

def test_a_seat_sees_only_the_first_action_of_a_variation_as_it_may_see_it():
    review = cardlab.load(REVIEW)
    brad, tone = review.seats.index("Brad"), review.seats.index("Tone")
    b = explore.branch(review, 1, 19, "play black12", seed=1)
    assert len(b.actions) > 1
    everyone = Cursor(review).goto(19).position["variations"]
    assert everyone == [[a.act for a in b.actions]]
    assert Cursor(review, seat=brad).goto(19).position["variations"] == [["play black12"]]
    assert Cursor(review, seat=tone).goto(19).position["variations"] == [
        [f"play {seatview.HIDDEN_CARD}"]]
    # stepping into the variation shows each step as that seat saw it
    inside = Cursor(review, hand=1, path=b.path, seat=tone)
    pos = inside.goto(20).position
    assert pos["action"] == {"seat": "Brad", "act": "play black12"}  # played: face up
    assert pos["hands"][brad] is None


def test_a_note_that_names_a_hidden_card_is_withheld():
    review = cardlab.load(REVIEW)
    remo = review.seats.index("Remo")
    code = Cursor(review).goto(3).position["hands"][remo][0]
    assert code in seatview.hidden_from(Cursor(review).goto(3).state, 0).codes
    review.hands[0].actions[2].note = {"en": f"Remo holds {code}.", "no": "Remo har det."}
    assert Cursor(review).goto(3).position["note"]["en"] == f"Remo holds {code}."
    withheld = Cursor(review, seat=0).goto(3).position["note"]
    assert isinstance(withheld, str) and "withheld" in withheld and code not in withheld
    assert Cursor(review, seat=remo).goto(3).position["note"]["en"] == f"Remo holds {code}."


# -- the cursor and the text view walk a line once -------------------------------------------

def test_stepping_forward_applies_one_action_per_step(monkeypatch):
    replay = _bot_game("whot", {"players": 4, "rubber": "short"}, seed=5)
    state_class = type(replay.new_state())
    calls = Counter[str]()
    act = state_class.act

    def counting(self, action_text):
        calls["act"] += 1
        return act(self, action_text)

    monkeypatch.setattr(state_class, "act", counting)
    actions = sum(len(h.actions) for h in replay.hands)
    cursor = Cursor(replay, seat=2)
    for i in range(len(cursor)):
        cursor.goto(i).position  # noqa: B018
    assert calls["act"] == actions  # each action applied once for the whole walk
    calls.clear()
    text.render(replay, seat=1)
    assert calls["act"] == actions
    calls.clear()
    cursor.goto(len(cursor) // 2).position  # noqa: B018  (a jump back replays one hand at most)
    assert calls["act"] <= max(len(h.actions) for h in replay.hands)


def test_a_cursor_gives_the_same_positions_in_any_order():
    replay = _bot_game("bobs-hat", {"players": 3, "hands": 3, "mode": "table"}, seed=2)
    walked = [json.dumps(p) for p in _positions(Cursor(replay, seat=1))]
    jumping = Cursor(replay, seat=1)
    order = list(range(len(jumping)))[::-3] + list(range(0, len(jumping), 2))
    for i in order:
        assert json.dumps(jumping.goto(i).position) == walked[i]


def _positions(cursor: Cursor) -> list[dict[str, Any]]:
    return [cursor.goto(i).position for i in range(len(cursor))]


def test_cardlab_show_seat_prints_what_the_seat_knew(tmp_path, capsys):
    from cardlab.cli import main

    replay = _bot_game("bobs-hat", {"players": 4, "hands": 1, "secret_bidding": True}, seed=3)
    path = tmp_path / "secret.json"
    replay.save(path)
    first_bidder = replay.hands[0].actions[1]
    watcher = next(s for s in replay.seats if s != first_bidder.seat)
    with pytest.raises(SystemExit) as done:
        main(["show", str(path), "--seat", watcher])
    assert done.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"  {first_bidder.seat}: bid (secret)" in lines
    told = lines.index(f"  {first_bidder.seat}: {first_bidder.act} (revealed)")
    assert told > lines.index(f"  {first_bidder.seat}: bid (secret)")
    assert f"  {first_bidder.seat}: {first_bidder.act}" not in lines
    assert text.render(replay, seat=replay.seats.index(watcher)).splitlines() == lines
