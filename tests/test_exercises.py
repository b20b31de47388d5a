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
        rule = replay.rules.game.trick_rule(after)
        for code, name in exercise.choices:
            if code != winner_card:
                wrong = exercise.check(code)
                assert not wrong.right and done["reason"] in wrong.text
                # the hint is the trick rule: it names the card tried, not the one that won
                assert wrong.hint == f"Not {name}. Hint: {rule}. Try again, or choose Show me."
                assert dict(exercise.choices)[winner_card] not in wrong.hint
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
                assert err.value.rule in wrong.hint and str(exercise.forbidden) not in \
                    wrong.hint.replace(f"may bid {bid}", "")
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
        for code, reason in exercise.reasons.items():  # the engine's reason, or its rule
            assert reason in right.text or exercise.rules[code] in right.text
        illegal = [c for c in held if c not in exercise.legal]
        if illegal:
            wrong = exercise.check([*exercise.legal, illegal[0]])
            assert not wrong.right and (exercise.reasons[illegal[0]] in wrong.text
                                        or exercise.rules[illegal[0]] in wrong.text)
            assert "which " + seat + " may not play" in wrong.text
            # the hint: the rule the card breaks, naming no card the seat holds
            assert exercise.rules[illegal[0]] in wrong.hint
            named = [name for _, name in exercise.choices if any(ch.isdigit() for ch in name)]
            assert not any(name in wrong.hint for name in named), wrong.hint  # (a WHOT: a kind)
        if exercise.legal:
            missed = exercise.check(exercise.legal[1:])
            assert not missed.right and "you left out" in missed.text
            assert "you left out a card " + seat + " may play" in missed.hint
        # nothing in the question says which cards are legal
        assert all(s["legal"] == [] for s in exercise.table["seats"])
        for code, reason in exercise.reasons.items():
            assert reason not in json.dumps(exercise.data())
            assert exercise.rules[code] not in json.dumps(exercise.data())
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
            else:  # Whot: points against, the cards left in hand, or none
                assert exercise.reason.startswith(f"{seat} is left with ") or \
                    exercise.reason == f"{seat} has no card left: 0 points against"
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
    # a first miss: the hint, and neither the answer nor the engine's reason yet
    assert widget.feedback["stage"] == "hint" and widget.feedback["right"] is False
    assert widget.feedback["text"].startswith("Not blue 14. Hint: a trick goes to the highest")
    assert "correct" not in widget.feedback and "highest blue" not in json.dumps(widget.feedback)
    assert widget.score == {"right": 0, "asked": 1}
    widget._on_msg(widget, {"type": "answer", "value": "red7"}, [])
    assert "'red7' is not one of the choices: blue20, blue14, blue9, blue5" in \
        widget.feedback["error"]
    widget._on_msg(widget, {"type": "answer", "value": "purple9"}, [])  # the deck's words
    assert widget.feedback["error"].startswith("'purple9' is not a Where's Bob's Hat? card")
    assert widget.score == {"right": 0, "asked": 1}  # bad answers are not counted
    widget._on_msg(widget, {"type": "answer", "value": "blue9"}, [])  # a bad one is no try
    assert widget.feedback["stage"] == "answer" and widget.feedback["correct"] == "blue20"
    assert "Tone takes the trick with blue 20: highest blue" in widget.feedback["text"]
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
                                        for v, _ in exercise.choices},
                            "solution": exercise.solution().data()}
        assert sum(v["right"] for v in verdicts["answers"].values()) == 1
    elif kind == "legal-plays":  # the right set's; a wrong set's sentence around its slips
        assert verdicts["right"] == exercise.check(exercise.legal).data()
        assert [row[0] for row in verdicts["cards"]] == [v for v, _ in exercise.choices]
        wrong = exercise.check([])
        before, after = verdicts["wrong"]["text"]
        assert wrong.text.startswith(before) and wrong.text.endswith(after)
        before, after = verdicts["wrong"]["hint"]
        assert wrong.hint.startswith(before) and wrong.hint.endswith(after)
    else:  # the right number's; a wrong one's sentence around the number
        score = exercise.score
        assert verdicts["answers"] == {str(score): exercise.check(score).data()}
        before, after = verdicts["wrong"]["text"]
        assert exercise.check(score + 3).text == before + signed(score + 3) + after
        before, after = verdicts["wrong"]["hint"]
        assert exercise.check(score + 3).hint == before + signed(score + 3) + after
        assert verdicts["signs"] == [signed(-1)[:-1], "", "+"]
    assert exercise.session.score() == (0, 0)  # working out the verdicts answers nothing
    assert "correct" not in json.dumps(exercise.data())


# -- tries: a hint first, the answer after a second miss or on show me ---------------------

def test_a_first_miss_gets_a_hint_and_a_second_the_answer_in_the_widget():
    review = cardlab.example("norwegian-review")
    session = ex.Session()
    widget = ex.exercise("legal-plays", review, hand=1, index=6, view="Remo", session=session)
    widget._on_msg(widget, {"type": "answer", "value": ["red7"]}, [])
    hint = widget.feedback
    assert hint == {"stage": "hint", "right": False, "given": ["red7"],
                    "text": "Not quite. Hint: Remo must follow blue, the suit led; you left out "
                            "a card Remo may play. Try again, or choose Show me."}
    widget._on_msg(widget, {"type": "answer", "value": ["red9"]}, [])
    answer = widget.feedback
    assert answer["stage"] == "answer" and answer["correct"] == ["blue14"]
    assert "Remo holds blue 14" in answer["text"] and answer["reasons"]["red9"]
    widget._on_msg(widget, {"type": "answer", "value": ["blue14"]}, [])
    assert widget.feedback["stage"] == "right"
    assert session.score() == (0, 1)  # the first answer counts


def test_right_first_time_is_praised_and_show_me_tells_the_answer():
    teds = cardlab.example("teds-game-example")
    session = ex.Session()
    right = ex.exercise("forbidden-bid", teds, hand=2, index=3, session=session)
    right._on_msg(right, {"type": "answer", "value": 3}, [])
    assert right.feedback["stage"] == "right"
    assert right.feedback["text"].startswith("Right: the hook: the dealer, Ann, may not bid 3")
    shown = ex.exercise("hand-score", teds, hand=2, seat="Ann", session=session)
    shown._on_msg(shown, {"type": "show"}, [])
    score = shown.exercise.score
    assert shown.feedback["stage"] == "answer" and shown.feedback["correct"] == score
    assert shown.feedback["text"].startswith(f"The answer: {signed(score)}. Ann bid ")
    shown._on_msg(shown, {"type": "answer", "value": str(score + 1)}, [])  # done: no hint now
    assert shown.feedback["stage"] == "answer"
    assert session.score() == (1, 2)  # shown before any answer: counted as missed
    assert session.records[1]["answer"] is None and not session.records[1]["right"]


def test_tries_after_a_right_answer_show_whole_verdicts():
    review = cardlab.example("norwegian-review")
    exercise = ex.TrickWinner(review, 1, 9, session=ex.Session())
    tries = ex.Tries()
    assert tries.respond(exercise.check("blue20"), "blue20")["stage"] == "right"
    assert tries.respond(exercise.check("blue9"), "blue9")["stage"] == "answer"


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_hand_score_reason_adds_up(name):
    """The game's own sum (Whot's cards left, stars double; Ted's Game's bid and tricks), or
    the parts of the score and their total, gives the hand's score."""
    import re

    replay = cardlab.example(name)
    checked = 0
    for hand in Cursor(replay).hands[:4]:
        for seat in replay.seats:
            exercise = ex.HandScore(replay, hand, seat=seat)
            reason = exercise.reason.replace("\u2212", "-")
            if name == "whot-example":
                sums = re.search(r": ((?:\d+ \+ )*\d+ = )?(\d+) points against$", reason)
                assert sums, reason
                if sums.group(1):
                    assert sum(int(n) for n in sums.group(1)[:-3].split(" + ")) == \
                        int(sums.group(2))
                assert int(sums.group(2)) == exercise.score
                if "star" in reason:
                    assert "a star counts double" in reason
            elif name == "teds-game-example":
                last = int(reason.rsplit("= ", 1)[1])
                assert (last if "exact" in reason else -last) == exercise.score, reason
            else:
                numbers = [int(n) for n in re.findall(r"[+-]\d+", reason.split("; in all")[0])]
                assert sum(numbers) == exercise.score, reason
            checked += 1
    assert checked >= 8
