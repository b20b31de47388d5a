"""Exercises that check themselves, on the shipped replays: every position where a kind
applies gives the engine's answer and reason, every other position a clear CardlabError,
and the widget's data holds no answer and nothing hidden from the seat viewing."""

from __future__ import annotations

import json

import pytest

import cardlab
from cardlab.cursor import Cursor
from cardlab.errors import CardlabError, IllegalActionError
from cardlab.games.teds_game import engine as teds_game
from cardlab.lessons import exercises as ex
from cardlab.seatview import hidden_from
from cardlab.view.wording import signed

EXAMPLES = ("norwegian-review", "teds-game-example", "whot-example")
TRICK_EXAMPLES = ("norwegian-review", "teds-game-example")


def steps(replay, hands=None):
    """(hand, index, state) of every step of the main line, hands from 1."""
    cur = Cursor(replay)
    for hand in hands or cur.hands:
        for index in range(len(cur._lines[hand - 1]) + 1):
            yield hand, index, cur.goto(cur.find(hand, index)).state


# -- click the card that wins this trick ---------------------------------------------------

@pytest.mark.parametrize("name", TRICK_EXAMPLES)
def test_trick_winner_at_every_completed_trick(name):
    replay = cardlab.example(name)
    session = ex.Session()
    made = 0
    hands = [1, 2] if name == "norwegian-review" else [1, 5]
    for hand, index, state in steps(replay, hands):
        pos = state.snapshot()
        line = replay.line(hand)
        just_done = (index and line[index - 1].act.startswith("play ") and pos["tricks"]
                     and not pos["trick"]["cards"])
        one_short = len(pos["trick"]["cards"]) == len(replay.seats) - 1
        if not (just_done or one_short):
            with pytest.raises(CardlabError, match="no trick was just completed"):
                ex.TrickWinner(replay, hand, index)
            continue
        exercise = ex.TrickWinner(replay, hand, index, session=session)
        made += 1
        assert exercise.index == (index if just_done else index + 1)
        after = Cursor(replay, hand=hand).goto(exercise.index).state
        done = after.snapshot()["tricks"][-1]
        # the card that won is the one the next trick's leader played (or the hand is over)
        leader_next = after.snapshot()["trick"]["leader"]
        winner_card = dict((s, c) for s, c in done["cards"])[done["winner"]]
        if not after.hand_over():
            assert leader_next == done["winner"]
        assert [c for c, _ in exercise.choices] == [c for _, c in done["cards"]]
        right = exercise.answer(winner_card)
        assert right.right and right.correct == winner_card
        assert done["reason"] in right.text and replay.seats[done["winner"]] in right.text
        for code, _ in exercise.choices:
            if code != winner_card:
                wrong = exercise.check(code)
                assert not wrong.right and done["reason"] in wrong.text
        # the question's data gives nothing away: no winner, no reason, no turn badge
        data = json.dumps(exercise.data())
        assert done["reason"] not in data
        assert "takes the trick" not in data
        assert all("turn" not in s["badges"] for s in exercise.table["seats"])
    assert made >= 8
    assert session.score() == (made, made)


def test_trick_winner_refuses_whot_and_names_the_step():
    whot = cardlab.example("whot-example")
    with pytest.raises(CardlabError, match="Whot has no tricks"):
        ex.TrickWinner(whot, 1, 5)
    review = cardlab.example("norwegian-review")
    with pytest.raises(CardlabError, match="hand 1 after 2 actions: no trick"):
        ex.TrickWinner(review, 1, 2)


# -- what may the dealer not bid? --------------------------------------------------------

def test_forbidden_bid_is_the_engines_hook_in_every_hand():
    replay = cardlab.example("teds-game-example")
    session = ex.Session()
    asked = 0
    for hand, index, state in steps(replay):
        pos = state.snapshot()
        if pos["phase"] != "bid" or pos["to_act"] != pos["dealer"]:
            if index < 3:  # the first steps of each hand: not the dealer's bid
                with pytest.raises(CardlabError, match="the dealer is not to bid"):
                    ex.ForbiddenBid(replay, hand, index)
            continue
        size, others = pos["hand_size"], pos["bid_total"]
        if others > size:
            with pytest.raises(CardlabError, match="forbids the dealer nothing"):
                ex.ForbiddenBid(replay, hand, index)
            continue
        exercise = ex.ForbiddenBid(replay, hand, index, session=session)
        asked += 1
        assert exercise.forbidden == size - others
        refused = state.clone()
        with pytest.raises(IllegalActionError) as err:
            refused.act(f"bid {exercise.forbidden}")
        right = exercise.answer(exercise.forbidden)
        assert right.right and err.value.reason in right.text
        for bid, _ in exercise.choices:
            if bid != exercise.forbidden:
                state.clone().act(f"bid {bid}")  # the engine allows every other bid
                wrong = exercise.check(bid)
                assert not wrong.right and err.value.reason in wrong.text
                assert f"may bid {bid}" in wrong.text
        assert err.value.reason not in json.dumps(exercise.data())
    assert asked >= 15
    assert session.score() == (asked, asked)


def test_forbidden_bid_refuses_other_games():
    for name in ("norwegian-review", "whot-example"):
        with pytest.raises(CardlabError, match="about Ted's Game's hook"):
            ex.ForbiddenBid(cardlab.example(name), 1, 0)


# -- which of these may <seat> play? -------------------------------------------------------

def engine_allows(state, code):
    """Whether the engine takes ``play code`` (a WHOT with a call), and its refusal."""
    forms = [f"play {code}"]
    if code.startswith("whot"):
        forms.append(f"play {code} call circle")
    refusal = None
    for text in forms:
        try:
            state.clone().act(text)
        except IllegalActionError as err:
            refusal = refusal or err.reason
            continue
        return True, None
    return False, refusal


@pytest.mark.parametrize("name", EXAMPLES)
def test_legal_plays_against_the_engine(name):
    replay = cardlab.example(name)
    checked = 0
    for hand, index, state in steps(replay, [1]):
        to_act = state.to_act()
        texts = state.legal_texts() if to_act >= 0 else []
        if to_act < 0:
            with pytest.raises(CardlabError, match="nobody is to act"):
                ex.LegalPlays(replay, hand, index)
            continue
        if not any(t.startswith("play ") for t in texts) and name != "whot-example":
            with pytest.raises(CardlabError, match="is not playing a card now"):
                ex.LegalPlays(replay, hand, index)
            continue
        seat = replay.seats[to_act]
        exercise = ex.LegalPlays(replay, hand, index, view=seat)
        held = state.snapshot()["hands"][to_act]
        assert [c for c, _ in exercise.choices] == held
        for code in held:
            allowed, reason = engine_allows(state, code)
            assert (code in exercise.legal) == allowed, (hand, index, code)
            if not allowed:
                assert exercise.reasons[code] == reason
        right = exercise.check(list(exercise.legal))
        assert right.right and f"{seat} may play" in right.text
        for reason in exercise.reasons.values():
            assert reason in right.text
        illegal = [c for c in held if c not in exercise.legal]
        if illegal:
            wrong = exercise.check([*exercise.legal, illegal[0]])
            assert not wrong.right and exercise.reasons[illegal[0]] in wrong.text
            assert "which " + seat + " may not play" in wrong.text
        if exercise.legal:
            missed = exercise.check(exercise.legal[1:])
            assert not missed.right and "you left out" in missed.text
        # nothing in the question says which cards are legal
        assert all(s["legal"] == [] for s in exercise.table["seats"])
        for reason in exercise.reasons.values():
            assert reason not in json.dumps(exercise.data())
        checked += 1
    assert checked >= 10


def test_legal_plays_names_the_seat_to_act():
    review = cardlab.example("norwegian-review")
    with pytest.raises(CardlabError, match="Tone is not to act; Remo is"):
        ex.LegalPlays(review, 1, 6, seat="Tone")
    with pytest.raises(CardlabError, match="which Tone may not see"):
        ex.LegalPlays(review, 1, 6, view="Tone")
    with pytest.raises(CardlabError, match="nobody is to act .the hand is over."):
        ex.LegalPlays(review, 1, None)


# -- what does <seat> score? -------------------------------------------------------------

@pytest.mark.parametrize("name", EXAMPLES)
def test_hand_score_at_every_hands_end(name):
    replay = cardlab.example(name)
    session = ex.Session()
    cur = Cursor(replay)
    for hand in cur.hands:
        start = cur.goto_hand(hand).state.totals()
        end_state = cur.goto(cur.find(hand, len(replay.line(hand)))).state
        end = end_state.snapshot()
        for s, seat in enumerate(replay.seats):
            exercise = ex.HandScore(replay, hand, seat=seat, session=session)
            assert exercise.score == end["totals"][s] - start[s]
            if end.get("score_parts"):  # Bob's Hat: the parts add up to the score
                assert sum(end["score_parts"][s].values()) == exercise.score
                for part in end["score_parts"][s]:
                    assert part.replace("-", " ") in exercise.reason
            elif name == "teds-game-example":
                bid, won = end["bids"][s], end["tricks_won"][s]
                assert exercise.score == teds_game.score(bid, won, end["hand_size"])
                assert f"bid {bid} and took {won}" in exercise.reason
            else:  # Whot: points against, the cards left in hand
                assert "cards left in hand" in exercise.reason
            right = exercise.answer(str(exercise.score))
            assert right.right and exercise.reason in right.text
            wrong = exercise.check(exercise.score + 1)
            assert not wrong.right and exercise.reason in wrong.text
            assert exercise.reason not in json.dumps(exercise.data())
            if name == "teds-game-example" and hand > 2:
                break  # 19 hands: every seat of the first two is enough
    right, asked = session.score()
    assert right == asked > 0


def test_hand_score_refuses_a_hand_not_over_and_bad_numbers():
    review = cardlab.example("norwegian-review")
    with pytest.raises(CardlabError, match=r"hand 1 after 10 actions: the hand is not "
                                           r"over.*ends after 25 actions"):
        ex.HandScore(review, 1, 10, seat="Kathrine")
    exercise = ex.HandScore(review, 1, seat="Kathrine")
    for bad in ("abc", "1.5", None, True, [3]):
        with pytest.raises(CardlabError, match="a score is a whole number"):
            exercise.check(bad)
    assert exercise.check("\u22125").right == (exercise.score == -5)


# -- the session, the views, the widget ---------------------------------------------------

def test_session_counts_first_answers_only():
    review = cardlab.example("norwegian-review")
    session = ex.Session()
    first = ex.TrickWinner(review, 1, 9, session=session)
    second = ex.HandScore(review, 1, seat="Brad", session=session)
    assert not first.answer("blue9").right
    assert first.answer("blue20").right  # right on the second try: not counted
    assert second.answer(second.score).right
    assert session.score() == (1, 2)
    frame = session.frame()
    assert frame["kind"].tolist() == ["trick-winner", "hand-score"]
    assert frame["right"].tolist() == [False, True]
    assert frame["answer"].tolist() == ["blue9", second.score]


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_seat_view_holds_nothing_hidden_from_that_seat(name):
    replay = cardlab.example(name)
    made = set()
    # the check can fail: everyone's view of a question shows the others' cards
    everyone = ex.make("hand-score", replay, 1, seat=0)
    end = Cursor(replay, hand=1).goto(everyone.index).state
    assert hidden_from(end, 0).leaks(json.dumps(everyone.data())) or name != "whot-example"
    for seat in range(len(replay.seats)):
        for hand, index, _state in steps(replay, [1]):
            for kind in ex.KINDS:
                try:
                    exercise = ex.make(kind, replay, hand, index, view=seat)
                except CardlabError:
                    continue
                at = Cursor(replay, hand=hand).goto(exercise.index).state
                hidden = hidden_from(at, seat)
                assert hidden.leaks(json.dumps(exercise.data())) == [], (kind, index, seat)
                made.add(kind)
                mine = exercise.table["seats"][seat]
                others = [s for i, s in enumerate(exercise.table["seats"]) if i != seat]
                assert all(s["hand"] is None for s in others)
                assert mine["hand"] is not None
    assert made == (set(ex.KINDS) - ({"forbidden-bid"} if name != "teds-game-example" else set())
                    - ({"trick-winner"} if name == "whot-example" else set()))


def test_the_widget_checks_in_the_kernel_and_shows_errors():
    review = cardlab.example("norwegian-review")
    session = ex.Session()
    widget = ex.exercise("trick-winner", review, hand=1, index=9, session=session)
    assert widget.error == "" and widget.feedback == {}
    state = json.dumps(widget.get_state())
    assert "highest blue" not in state
    widget._on_msg(widget, {"type": "answer", "value": "blue14"}, [])
    assert widget.feedback["right"] is False and "highest blue" in widget.feedback["text"]
    assert widget.score == {"right": 0, "asked": 1}
    widget._on_msg(widget, {"type": "answer", "value": "red7"}, [])
    assert "'red7' is not one of the choices: blue20, blue14, blue9, blue5" in \
        widget.feedback["error"]
    widget._on_msg(widget, {"type": "answer", "value": "purple9"}, [])  # the deck's words
    assert widget.feedback["error"].startswith("'purple9' is not a Where's Bob's Hat? card")
    assert widget.score == {"right": 0, "asked": 1}  # bad answers are not counted
    bad = ex.exercise("legal-plays", review, hand=1, index=None)
    assert bad.data == {} and "nobody is to act" in bad.error
    assert bad.answer("blue9") is None
    unknown = ex.exercise("who-deals", review, hand=1)
    assert "no exercise 'who-deals'; the kinds are trick-winner" in unknown.error
    out_of_range = ex.exercise("hand-score", review, hand=3)
    assert "hand" in out_of_range.error and "3" in out_of_range.error
    past_end = ex.exercise("trick-winner", review, hand=1, index=99)
    assert "hand 1 has no step 99" in past_end.error
    assert "the trick-winner exercise takes no 'seat'; its options are view, session" in \
        ex.exercise("trick-winner", review, hand=1, index=9, seat="Tone").error
    assert "hands count from 1: the replay has hands 1 to 2, not '1'" in \
        ex.exercise("trick-winner", review, hand="1", index=9).error
    assert "index is the number of actions made, not '9'" in \
        ex.exercise("trick-winner", review, hand=1, index="9").error
    not_a_seat = ex.exercise("hand-score", review, hand=1, seat="Bob")
    assert "no seat 'Bob'; the seats are Tone, Remo, Kathrine, Brad" in not_a_seat.error


@pytest.mark.parametrize("kind", ex.KINDS)
def test_the_verdicts_for_a_page_without_kernel_are_those_of_check(kind):
    replay = cardlab.example("teds-game-example" if kind == "forbidden-bid"
                             else "norwegian-review")
    where = {"trick-winner": dict(hand=1, index=9), "forbidden-bid": dict(hand=2, index=3),
             "legal-plays": dict(hand=1, index=6), "hand-score": dict(hand=1, seat="Brad")}
    exercise = ex.make(kind, replay, **where[kind], session=ex.Session())
    verdicts = exercise.verdicts()
    if kind in ("trick-winner", "forbidden-bid"):  # every choice's verdict, one of them right
        assert verdicts == {"answers": {str(v): exercise.check(v).data()
                                        for v, _ in exercise.choices}}
        assert sum(v["right"] for v in verdicts["answers"].values()) == 1
    elif kind == "legal-plays":  # the right set's; a wrong set's sentence around its slips
        assert verdicts["right"] == exercise.check(exercise.legal).data()
        assert [row[0] for row in verdicts["cards"]] == [v for v, _ in exercise.choices]
        wrong = exercise.check([])
        before, after = verdicts["wrong"]["text"]
        assert wrong.text.startswith(before) and wrong.text.endswith(after)
    else:  # the right number's; a wrong one's sentence around the number
        score = exercise.score
        assert verdicts["answers"] == {str(score): exercise.check(score).data()}
        before, after = verdicts["wrong"]["text"]
        assert exercise.check(score + 3).text == before + signed(score + 3) + after
        assert verdicts["signs"] == [signed(-1)[:-1], "", "+"]
    assert exercise.session.score() == (0, 0)  # working out the verdicts answers nothing
    assert "correct" not in json.dumps(exercise.data())
