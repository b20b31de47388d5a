"""The no-peeking quiz over the shipped replays: it stops at each of the seat's decisions,
its widget's synced state holds nothing of the future and nothing hidden from the seat
before the answer, the reveal and the answers frame say what was chosen, what was played
and the advisor's values."""

from __future__ import annotations

import json

import pytest

import cardlab
from cardlab.analyse import analyse, decision_points
from cardlab.cursor import Cursor
from cardlab.errors import CardlabError
from cardlab.lessons.quiz import COLUMNS, Quiz, QuizWidget, quiz
from cardlab.replay import Action
from cardlab.seatview import hidden_from

EXAMPLES = {"norwegian-review": "Kathrine", "teds-game-example": "Ben", "whot-example": "Chidi"}


def cut_after(replay, hand, index, action):
    """The replay up to a decision with ``action`` made there and nothing after it: a quiz
    that shows no future shows the same before the answer on this and on the original."""
    out = replay.copy()
    out.hands = out.hands[:hand]
    last = out.hands[hand - 1]
    seat = replay.seats[Cursor(replay, hand=hand).goto(index).state.to_act()]
    last.actions = [*last.actions[:index], Action(seat, action)]
    return out


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_quiz_shows_no_future_and_nothing_hidden(name):
    replay = cardlab.example(name)
    seat = EXAMPLES[name]
    number = replay.seats.index(seat)
    widget = QuizWidget(Quiz(replay, seat, hand=1, advisor=False))
    q = widget.quiz
    expected = [p for p in decision_points(replay, number) if p.hand == 1]
    assert len(q.points) == len(expected) >= 3
    for k, point in enumerate(expected):
        assert (q.hand, q.index) == (point.hand, point.index)
        state = Cursor(replay, hand=1).goto(point.index).state
        synced = widget.get_state()
        assert synced["reveal"] == {} and synced["error"] == ""
        text = json.dumps(synced, default=str)
        assert hidden_from(state, number).leaks(text) == []
        assert [c for c, _ in synced["data"]["choices"]] == state.legal_texts()
        # the same data whatever is played here and after: it does not depend on the future,
        # but for the quiz's length, which the progress says from the start ("3 of 12")
        assert synced["data"]["progress"] == f"{k + 1} of {len(expected)}"
        for other in state.legal_texts()[:3]:
            twin = Quiz(cut_after(replay, 1, point.index, other), seat, hand=1, advisor=False)
            twin.at = k
            assert dict(twin.data(), progress="") == dict(synced["data"], progress="")
        played = replay.line(1)[point.index].act
        chosen = state.legal_texts()[-1]
        widget._on_msg(widget, {"type": "answer", "action": chosen}, [])
        assert widget.reveal["played"] == played and widget.reveal["chosen"] == chosen
        assert widget.reveal["same"] == (chosen == played)
        widget._on_msg(widget, {"type": "next"}, [])
    assert widget.data["done"] is True and "quiz is over" in widget.data["summary"]
    frame = widget.answers()
    assert list(frame.columns) == COLUMNS
    assert frame["step"].tolist() == [p.index for p in expected]
    assert set(frame["seat"]) == {seat} and set(frame["hand"]) == {1}
    assert frame["played"].tolist() == [replay.line(1)[p.index].act for p in expected]


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_advisor_values_both_choices(name):
    replay = cardlab.example(name)
    seat = EXAMPLES[name]
    q = Quiz(replay, seat, hand=1, rollouts=8, seed=1, bot="random")
    low = bool(replay.rules.low_score_wins)
    for _ in range(2):
        choices = q.choices()
        reveal = q.answer(choices[0])
        row = q.rows[-1]
        assert set(row["values"]) == set(choices)
        means = {t: v[0] for t, v in row["values"].items()}
        best = (min if low else max)(means.values())
        assert row["best_value"] == best and means[row["best"]] == best
        assert row["loss"] == pytest.approx(abs(best - means[choices[0]]), abs=1e-3)
        assert row["played_loss"] == pytest.approx(abs(best - means[row["played"]]), abs=1e-3)
        assert row["loss"] >= 0 and row["played_loss"] >= 0
        assert "sampled from " + seat + "'s view" in row["source"]
        assert reveal["text"].startswith("You chose")
        ordered = [v[2] for v in reveal["values"]]
        assert ordered == sorted(ordered, reverse=not low)
        q.next()
    # the same seed gives the same numbers
    again = Quiz(replay, seat, hand=1, rollouts=8, seed=1, bot="random")
    again.answer(again.choices()[0])
    third = Quiz(replay, seat, hand=1, rollouts=8, seed=1, bot="random")
    third.answer(third.choices()[0])
    assert third.rows[0]["values"] == again.rows[0]["values"]


def test_an_analysed_replay_uses_its_records():
    review = cardlab.example("norwegian-review")
    done = analyse(review, seat="Remo", rollouts=6, seed=2, bot="random", workers=1)
    q = Quiz(done, "Remo", hand=1)
    point = q.points[0]
    record = done.line(1)[point.index].eval
    assert record is not None
    q.answer(q.choices()[0])
    row = q.rows[0]
    assert row["values"] == {t: [float(m), float(s)] for t, (m, s) in record["values"].items()}
    assert row["source"].startswith("the replay's analysis: 6 sampled deals")


def test_bad_input_is_a_clear_message():
    review = cardlab.example("norwegian-review")
    with pytest.raises(CardlabError, match="no seat 'Bob'"):
        Quiz(review, "Bob")
    with pytest.raises(CardlabError, match="hand"):
        Quiz(review, "Brad", hand=3)
    q = Quiz(review, "Brad", advisor=False)
    with pytest.raises(CardlabError, match="answer this decision first"):
        q.next()
    with pytest.raises(CardlabError, match=r"'play blue99' is not an action Brad may take "
                                           r"here \('blue99' is not a Where's Bob's Hat\? "
                                           r"card .*\); the choices are 'hat \+10', 'hat -10'"):
        q.answer("play blue99")
    q.answer("hat -10")
    with pytest.raises(CardlabError, match="this decision is answered"):
        q.answer("hat -10")
    while not q.done:
        q.answer(q.choices()[0]) if q.revealed is None else q.next()
    with pytest.raises(CardlabError, match="the quiz is over"):
        q.answer("hat -10")
    # in the widget: the message shows, nothing is raised
    widget = quiz(review, "Bob")
    assert widget.quiz is None and "no seat 'Bob'" in widget.error
    assert widget.answers().empty
    live = quiz(review, "Brad", advisor=False)
    live._on_msg(live, {"type": "answer", "action": "bid nothing"}, [])
    assert "'bid nothing' is not an action Brad may take" in live.error
    assert live.reveal == {}
    live._on_msg(live, {"type": "next"}, [])
    assert "answer this decision first" in live.error
    live._on_msg(live, {"type": "answer", "action": "hat +10"}, [])
    assert live.error == "" and live.reveal["chosen"] == "hat +10"


def test_the_script_for_a_handout_is_what_the_quiz_shows_and_reveals():
    whot = cardlab.example("whot-example")
    q = Quiz(whot, "Ade", hand=1, rollouts=6, seed=4, bot="random")
    script = q.script()
    assert q.at == 0 and q.rows == []  # making the script answers nothing
    assert len(script) == len(q.points)
    for entry in script[:4]:
        assert entry["data"] == q.data()
        reveal = q.answer(q.choices()[-1])
        assert entry["played"] == reveal["played"]
        assert entry["values"] == reveal["values"] and entry["best"] == reveal["best"]
        assert entry["source"] == reveal["source"]
        q.next()


def test_an_action_the_rules_refuse_gets_the_engines_reason():
    review = cardlab.example("norwegian-review")
    q = Quiz(review, "Kathrine", hand=1, advisor=False)
    while q.index != 7:  # Kathrine's first card: she must follow blue
        q.answer(q.choices()[0])
        q.next()
    assert q.choices() == ["play blue9", "play blue15", "play blue17"]
    with pytest.raises(CardlabError, match=r"'play red11' is not an action Kathrine may take "
                                           r"here \(Kathrine must follow blue, the suit led: "
                                           r"Kathrine holds blue 9, blue 15 and blue 17\)"):
        q.answer("play red11")
    with pytest.raises(CardlabError, match=r"'play purple9' is not an action Kathrine may take "
                                           r"here \('purple9' is not a Where's Bob's Hat\? card"):
        q.answer("play purple9")
    with pytest.raises(CardlabError, match=r"Kathrine does not hold blue 20"):
        q.answer("play blue20")


@pytest.mark.parametrize(("name", "seat", "asked"), [
    ("norwegian-review", "Brad", {"What do you make Bob's Hat worth?", "What do you bid?",
                                  "Which card do you play?"}),
    ("teds-game-example", "Dev", {"What do you bid?", "Which card do you play?"}),
    ("whot-example", "Ade", {"Which card do you play, or do you draw?"}),
])
def test_the_question_fits_the_decision(name, seat, asked):
    """A bid, the hat or a card: the question is the game's for the kind of choice."""
    replay = cardlab.example(name)
    q = Quiz(replay, seat, hand=1, advisor=False)
    questions = set()
    while not q.done:
        data = q.data()
        kinds = {text.split()[0] for text in q.choices()}
        question = data["prompt"].split(f"you are {seat}. ")[1]
        if kinds == {"play"}:
            assert question == "Which card do you play?"
        elif kinds == {"bid"}:
            assert question == "What do you bid?"
        questions.add(question)
        q.answer(q.choices()[0])
        q.next()
    assert questions >= asked
    assert "What do you play next?" not in questions
