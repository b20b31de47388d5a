"""One counting convention in the public API: hands count from 1, as people count.

Every public function or method with a ``hand`` argument takes hand 1 for ``replay.hands[0]``
and refuses 0, a negative, a bool, a non-integer and a hand past the end with a CardlabError
that says hands count from 1 and names the valid range.

"Hand ``h`` along variation ``path``" is checked against a second replay whose hand ``h`` *is*
that variation's line: what a function shows for ``hand=h, path=path`` must be what it shows
for that replay, and a hand-limited function shows hand ``h`` alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import cardlab
from cardlab import dataframes, explore
from cardlab.cursor import Cursor
from cardlab.replay import Action, Hand, LinePath, index_of_hand
from cardlab.validation import replay_line
from cardlab.view import ReplayViewer, charts

Call = Callable[[cardlab.Replay, Any, LinePath], Any]


def _rows(value: Any) -> Any:
    """Something comparable with ``==`` from what a function returns."""
    if hasattr(value, "to_plotly_json"):  # a plotly figure
        return value.to_plotly_json()
    if hasattr(value, "data") and hasattr(value, "to_html"):  # a pandas Styler
        return value.data.to_dict("split")
    if hasattr(value, "to_dict"):  # a DataFrame
        return value.to_dict("split")
    if isinstance(value, list) and value and isinstance(value[0], dataframes.Step):
        return [(s.step, s.hand, s.hand_index, s.index, s.action and s.action.act)
                for s in value]
    if isinstance(value, list) and value and isinstance(value[0], dataframes.HandResult):
        return [(r.hand_index, r.number, r.scores, r.totals, r.ended) for r in value]
    return value


# Functions that show one hand when given one (and the whole main line for hand=None).
ONE_HAND: dict[str, Call] = {
    "frames.walk": lambda r, h, p: list(dataframes.walk(r, h, p)),
    "frames.positions": lambda r, h, p: list(dataframes.positions(r, h, p)),
    "frames.play_rows": dataframes.play_rows,
    "frames.plays": dataframes.plays,
    "frames.tricks": dataframes.tricks,
    "frames.steps": lambda r, h, p: dataframes.steps(r, "en", h, p),
    "frames.seat_steps": dataframes.seat_steps,
    "charts.cards_taken": charts.cards_taken,
    "charts.hat_travels": charts.hat_travels,
    "charts.cards_in_hand": charts.cards_in_hand,
}

# Functions that show the whole game with hand ``hand`` played along ``path``.
WHOLE_GAME: dict[str, Call] = {
    "frames.hand_results_list": dataframes.hand_results_list,
    "frames.hand_results": dataframes.hand_results,
    "frames.sheet_rows": dataframes.sheet_rows,
    "frames.score_sheet": dataframes.score_sheet,
    "frames.styled_sheet": lambda r, h, p: dataframes.styled_sheet(r, 1, h, p),
    "charts.score_series": charts.score_series,
    "charts.score_evolution": charts.score_evolution,
}


@pytest.fixture(scope="module")
def review() -> cardlab.Replay:
    return cardlab.example("norwegian-review")


def _with_variation(review: cardlab.Replay, hand: int) -> tuple[cardlab.Replay, LinePath,
                                                                 cardlab.Replay]:
    """The review with a played-out variation of ``hand`` (at its first card), and a copy
    whose hand ``hand`` is that variation's line."""
    replay = review.copy()
    record = replay.hands[hand - 1]
    index = next(i for i, a in enumerate(record.actions) if a.act.startswith("play"))
    state = explore.line_state(replay, hand, (), index)
    other = next(t for t in state.legal_texts() if t != record.actions[index].act)
    branch = explore.branch(replay, hand=hand, index=index, action=other, seed=3)
    assert branch.scores is not None and branch.scores != branch.parent_scores
    line = replay.line(hand, branch.path)
    flat = replay.copy()
    flat.hands[hand - 1] = Hand(deal=record.deal, note=record.note,
                                actions=[Action(a.seat, a.act, a.note) for a in line])
    return replay, branch.path, flat


@pytest.fixture(scope="module", params=[1, 2])
def varied(request, review) -> tuple[int, cardlab.Replay, LinePath, cardlab.Replay]:
    return (request.param, *_with_variation(review, request.param))


@pytest.mark.parametrize("name", sorted(ONE_HAND))
def test_hand_h_is_replay_hands_h_minus_1(name, varied):
    hand, replay, path, flat = varied
    shown = ONE_HAND[name](replay, hand, path)
    assert _rows(shown) == _rows(ONE_HAND[name](flat, hand, ()))
    assert _rows(shown) != _rows(ONE_HAND[name](replay, hand, ()))  # the path is followed
    if name.startswith("frames."):
        indices = {row["hand_index"] for row in (
            [vars(s) for s in shown] if name == "frames.walk" else
            shown if isinstance(shown, list) else shown.to_dict("records"))}
        assert indices == {hand - 1}
    else:
        assert f"hand {hand}" in shown.layout.title.text or name == "charts.cards_in_hand"


@pytest.mark.parametrize("name", sorted(WHOLE_GAME))
def test_hand_h_along_a_path_replaces_replay_hands_h_minus_1(name, varied):
    hand, replay, path, flat = varied
    shown = WHOLE_GAME[name](replay, hand, path)
    assert _rows(shown) == _rows(WHOLE_GAME[name](flat, None, ()))
    assert _rows(shown) != _rows(WHOLE_GAME[name](replay, None, ()))


def test_replay_methods_count_hands_from_1(varied, review):
    hand, replay, path, _ = varied
    other = 3 - hand
    assert replay.line(hand) == replay.hands[hand - 1].actions
    assert replay.line(other) == replay.hands[other - 1].actions
    assert replay.variation_paths(hand) == [path] and replay.variation_paths(other) == []
    record = replay.hands[hand - 1]
    index, _ = path[0]
    assert record.actions[index].variations == [replay.line(hand, path)[index:]]
    # replay_line names the hand it was given in its errors, counted from 1
    state = replay.new_state()
    for h in range(hand):
        state.apply_chance(replay.hands[h].deal)
        if h < hand - 1:
            for action in replay.hands[h].actions:
                state.act(action.act)
    wrong = [Action(record.actions[0].seat, "play purple1")]
    with pytest.raises(cardlab.ReplayError) as caught:
        next(replay_line(replay, state, hand, wrong))
    assert caught.value.hand == hand


def test_cursor_and_viewer_count_hands_from_1(viewer, review):
    for hand in (1, 2):
        cursor = Cursor(review, hand=hand)
        assert cursor.position["hand_index"] == hand - 1
        start = Cursor(review).goto_hand(hand).step
        viewer.goto_hand(hand)
        assert start.hand == hand and viewer.step == Cursor(review).find(hand)
        viewer.goto_action(hand, 1)
        assert viewer.step == Cursor(review).find(hand, 1)


@pytest.fixture(scope="module")
def viewer(review) -> ReplayViewer:
    return ReplayViewer(review)


def _replay_calls() -> dict[str, Call]:
    bid = [Action("Tone", "hat -10")]
    return {
        "Replay.line": lambda r, h, p: r.line(h, p),
        "Replay.variation_paths": lambda r, h, p: r.variation_paths(h),
        "Replay.add_variation": lambda r, h, p: r.add_variation(h, p, 0, bid),
        "validation.replay_line": lambda r, h, p: replay_line(r, r.new_state(), h, bid),
        "explore.line_state": lambda r, h, p: explore.line_state(r, h, p, 0),
        "explore.branch": lambda r, h, p: explore.branch(r, h, 0, "hat -10"),
        "explore.compare": lambda r, h, p: explore.compare(r, h, ((0, 0),)),
        "explore.describe": lambda r, h, p: explore.describe(r, h, ((0, 0),)),
        "Cursor": lambda r, h, p: Cursor(r, hand=h),
        "Cursor.find": lambda r, h, p: Cursor(r).find(h),
        "Cursor.goto_hand": lambda r, h, p: Cursor(r).goto_hand(h),
        "Cursor.goto_trick": lambda r, h, p: Cursor(r).goto_trick(h, 1),
    }


def _viewer_calls() -> dict[str, Callable[[ReplayViewer, Any], Any]]:
    return {
        "ReplayViewer.goto_hand": lambda v, h: v.goto_hand(h),
        "ReplayViewer.goto_trick": lambda v, h: v.goto_trick(h, 1),
        "ReplayViewer.goto_action": lambda v, h: v.goto_action(h, 0),
        "ReplayViewer.set_line": lambda v, h: v.set_line(hand=h),
    }


EVERY_HAND_ARGUMENT: dict[str, Call] = {**ONE_HAND, **WHOLE_GAME, **_replay_calls()}
VIEWER = _viewer_calls()
BAD_HANDS = [0, -1, 3, True, False, 1.0, "1"]
REFUSED = r"^hands count from 1: the replay has hands 1 to 2, not "


@pytest.mark.parametrize("bad", BAD_HANDS, ids=repr)
@pytest.mark.parametrize("name", sorted(EVERY_HAND_ARGUMENT))
def test_hand_0_and_others_are_refused(name, bad, review):
    before = review.to_json()
    with pytest.raises(cardlab.CardlabError, match=REFUSED):
        EVERY_HAND_ARGUMENT[name](review, bad, ())
    assert review.to_json() == before  # refused before anything was changed


@pytest.mark.parametrize("bad", BAD_HANDS, ids=repr)
@pytest.mark.parametrize("name", sorted(VIEWER))
def test_the_viewer_refuses_hand_0_and_others(name, bad, viewer):
    viewer.goto(5)
    step = viewer.step
    with pytest.raises(cardlab.CardlabError, match=REFUSED):
        VIEWER[name](viewer, bad)
    assert viewer.step == step


def test_the_check_names_the_range_of_any_replay(review):
    assert [index_of_hand(review, h) for h in (1, 2)] == [0, 1]
    one = review.copy()
    del one.hands[1:]
    with pytest.raises(cardlab.CardlabError, match="the replay has hand 1 only, not 2$"):
        index_of_hand(one, 2)
    one.hands.clear()
    with pytest.raises(cardlab.CardlabError, match="the replay has no hands yet, not 1$"):
        index_of_hand(one, 1)
    with pytest.raises(cardlab.CardlabError, match=r"give hand="):
        dataframes.walk(review, None, ((0, 0),))
