"""The notebook view: card tiles, the table drawn from positions, the ipywidgets viewer (driven
from Python as a notebook would), and the plotly charts.

The expected facts come from the rule texts: the review's hand 1 (trick 4: Remo's red 12,
Kathrine's red 20, Brad's black 3 trumping, Tone's red 14; the hat goes Tone, Brad, Remo, Brad,
Brad), the rulebook (14s and 15s carry the hat; blue, red and black cards), Ted's Game (the
dealer may not make the bids add up to the tricks), Whot (symbols; a WHOT calls a symbol).
"""

from __future__ import annotations

from pathlib import Path

import ipywidgets as widgets
import plotly.graph_objects as go
import pytest

import cardlab
from cardlab.bots import make_bot
from cardlab.cursor import Cursor
from cardlab.view import ReplayViewer, charts
from cardlab.view.cards import back_html, card_html, card_parts
from cardlab.view.table import centre_html, home_seat, render_position, seat_cells, shown_trick

ROOT = Path(__file__).resolve().parents[1]
REVIEW = ROOT / "replays" / "norwegian-review.json"
BRAD = 3


@pytest.fixture()
def review() -> cardlab.Replay:
    return cardlab.load(REVIEW)


@pytest.fixture(scope="module")
def teds() -> cardlab.Replay:
    table = cardlab.new_game("teds-game", players=4, seed=3)
    table.play([make_bot("heuristic", "teds-game", seed=s) for s in range(4)])
    return table.replay


@pytest.fixture(scope="module")
def whot() -> cardlab.Replay:
    table = cardlab.new_game("whot", players=3, seed=3)
    table.play([make_bot("heuristic", "whot", seed=s) for s in range(3)])
    return table.replay


# -- card tiles and the table ----------------------------------------------------------------

def test_card_tiles_show_suit_rank_and_the_hat():
    assert card_parts("bobs-hat", "blue14") == ("blue", "14", "", True)
    assert card_parts("bobs-hat", "black15")[3] and not card_parts("bobs-hat", "red13")[3]
    assert 'class="cl-card cl-red"' in card_html("bobs-hat", "red7")
    assert card_parts("teds-game", "QH") == ("hearts", "Q", "♥", False)
    assert card_parts("teds-game", "10S") == ("spades", "10", "♠", False)
    assert card_parts("whot", "star3") == ("whot", "3", "★", False)
    assert card_parts("whot", "circle14") == ("whot", "14", "●", False)
    assert card_parts("whot", "whot20/2") == ("whot", "WHOT", "", False)
    assert "cl-legal" in card_html("bobs-hat", "red7", legal=True)
    assert "cl-won" in card_html("bobs-hat", "red7", won=True)
    assert card_parts("bobs-hat", "green3") == ("plain", "green3", "", False)
    assert back_html(3).count("cl-back") == 3


@pytest.mark.parametrize("players", range(2, 11))
def test_seats_sit_around_the_table(players):
    cells = seat_cells(players)
    assert len(set(cells)) == players  # up to 8 round a 3 x 3 grid, 9 and 10 round a 4 x 4
    bottom = max(row for row, _ in cells)
    assert cells[0][0] == bottom == (3 if players <= 8 else 4)
    assert not {(2, 2), (2, 3), (3, 2), (3, 3)} & set(cells) if players > 8 else \
        (2, 2) not in cells
    assert seat_cells(players, bottom=1)[1] == cells[0]  # the viewing seat at the bottom


def test_four_seats_go_round_clockwise():
    assert seat_cells(4) == [(3, 2), (2, 1), (1, 2), (2, 3)]
    # compass seats: South at the bottom, West on the left, North at the top
    south = home_seat(["North", "East", "South", "West"])
    assert seat_cells(4, south) == [(1, 2), (2, 3), (3, 2), (2, 1)]
    assert home_seat(["Tone", "Remo", "Kathrine", "Brad"]) == 0


def test_the_centre_shows_the_trick_and_the_winner_with_its_reason(review):
    cursor = Cursor(review)
    pos = cursor.goto(19).position  # Remo's red 12 and Kathrine's red 20 are down
    assert shown_trick(pos)["cards"] == [[1, "red12"], [2, "red20"]]
    assert "trick 4, led by Remo" in centre_html(pos)
    pos = cursor.goto(21).position  # Tone's red 14 completes it
    shown = shown_trick(pos)
    assert shown["complete"] and shown["winner"] == BRAD
    html = centre_html(pos)
    assert "Brad takes the trick with black3: the only trump" in html
    assert html.count("cl-won") == 1 and 'cl-won cl-bigcard" title="black3"' in html
    assert "Bob's Hat -10, held by Brad" in html and "trump" in html
    page = render_position(pos)
    assert "<style>" in page and "cardlab-trick" in page


def test_a_game_without_tricks_has_no_trick_in_the_centre(whot):
    pos = Cursor(whot).goto(3).position
    assert shown_trick(pos) is None
    assert "call card" in centre_html(pos) and "stock" in centre_html(pos)


# -- the viewer, driven as a notebook would ----------------------------------------------------

def test_clicking_next_steps_through_trick_four(review):
    viewer = ReplayViewer(review, chart=False)
    viewer.goto_trick(1, 4)
    assert viewer.trick_cards() == ["red12"]
    viewer.next_button.click()
    assert viewer.trick_cards() == ["red12", "red20"]
    viewer.next_button.click()
    viewer.next_button.click()
    assert viewer.trick_cards() == ["red12", "red20", "black3", "red14"]
    assert "the only trump" in viewer.trick.value
    assert "hat" in viewer.seat_boxes[BRAD].value and "cl-hat" in viewer.seat_boxes[BRAD].value
    viewer.prev_button.click()
    assert viewer.trick_cards() == ["red12", "red20", "black3"]
    viewer.first_button.click()
    assert viewer.step == 0 and viewer.slider.value == 0
    viewer.last_button.click()
    assert viewer.step == len(viewer.cursor) - 1 == viewer.slider.max
    viewer.slider.value = 20  # the slider is the one place steps go through
    assert viewer.position["action"] == {"seat": "Brad", "act": "play black3"}


def test_marks_for_dealer_to_act_and_legal_cards(review):
    viewer = ReplayViewer(review, chart=False)
    viewer.goto(19)  # Brad to play, out of red: both his trumps are legal
    brad = viewer.seat_boxes[BRAD].value
    assert "dealer" in brad and "to act" in brad and "cl-acting" in brad
    assert brad.count("cl-legal") == 2
    assert "may play 2 cards" in viewer.status.value
    viewer.goto(2)  # Remo to bid: every bid is a highlighted chip
    assert viewer.status.value.count("cl-chip cl-legal") == len(viewer.position["legal"]) > 1
    assert "most blue" in viewer.seat_boxes[0].value  # Tone's bid is on the table


def test_notes_in_a_chosen_language(review):
    viewer = ReplayViewer(review, chart=False, lang="no")
    assert "Brad gir fem kort" in viewer.note.value
    viewer.set_lang("en")
    assert "Brad deals five cards each" in viewer.note.value
    assert list(viewer.lang_select.options) == ["en", "no"]


def test_one_seats_view_hides_the_other_hands(review):
    viewer = ReplayViewer(review, chart=False, seat="Brad")
    viewer.goto(19)
    pos = viewer.position
    assert pos["hands"][BRAD] == ["black3", "black12"]
    assert all(pos["hands"][s] is None for s in (0, 1, 2))
    for s in (0, 1, 2):
        assert viewer.seat_boxes[s].value.count("cl-back") == pos["hand_counts"][s]
    assert "cl-back" not in viewer.seat_boxes[BRAD].value
    assert viewer.seat_boxes[BRAD].layout.grid_area == "3 / 2"  # Brad sits at the bottom
    viewer.set_seat(None)
    assert "cl-back" not in viewer.seat_boxes[0].value
    assert viewer.seat_boxes[0].layout.grid_area == "3 / 2"


def test_jumps_to_a_hand_and_a_trick(review):
    viewer = ReplayViewer(review, chart=False)
    viewer.hand_select.value = 1
    assert viewer.position["hand"] == 2 and viewer.position["action_index"] == 0
    assert viewer.trick_select.disabled is False
    viewer.trick_select.value = 3
    assert viewer.trick_cards() == ["red20"]  # Kathrine leads trick 3 of hand 2
    assert viewer.position["hand"] == 2


def test_the_score_sheet_highlights_the_current_hand(review):
    viewer = ReplayViewer(review, chart=False)
    assert viewer.sheet.value.count("cl-current") == 1  # hand 1: its score line
    viewer.goto_hand(2)
    assert viewer.sheet.value.count("cl-current") == 2  # hand 2: score and sub-total
    assert "<td>21</td>" in viewer.sheet.value  # Kathrine's 21 in hand 2


def test_autoplay_speed_and_keys(review):
    viewer = ReplayViewer(review, chart=False)
    viewer.speed.value = 4.0
    assert viewer.play.interval == 250
    assert viewer.play.max == viewer.slider.max
    viewer._on_key(None, {"key": "ArrowRight"}, [])  # what the key pad sends
    assert viewer.step == 1
    viewer._on_key(None, {"key": "End"}, [])
    assert viewer.step == len(viewer.cursor) - 1
    viewer._on_key(None, {"key": "Home"}, [])
    assert viewer.step == 0


def test_every_interactive_widget_has_a_cardlab_class(review):
    viewer = ReplayViewer(review)
    interactive = (widgets.Button, widgets.Dropdown, widgets.IntSlider, widgets.FloatSlider,
                   widgets.Play, widgets.Text, widgets.IntText)
    found = []

    def walk(w):
        if isinstance(w, interactive):
            found.append(w)
            assert any(c.startswith("cardlab-") for c in w._dom_classes), w
        for child in getattr(w, "children", ()):
            walk(child)

    walk(viewer.widget)
    assert len(found) >= 14
    assert "cardlab-trick" in viewer.trick._dom_classes
    assert "cardlab-next" in viewer.next_button._dom_classes
    assert viewer.chart is not None and "cardlab-chart" in viewer.chart._dom_classes


def test_exploring_from_the_viewer(review):
    viewer = ReplayViewer(review, chart=False)
    viewer.goto(20)  # after Brad's black 3: Tone to play her last card but one
    viewer.goto(19)
    assert list(viewer.action_select.options) == ["play black12"]
    viewer.explore_button.click()
    assert viewer.cursor.path == ((19, 0),)
    assert viewer.position["action"] == {"seat": "Brad", "act": "play black12"}
    assert len(viewer.lines()) == 2 and viewer.line_select.value == (0, ((19, 0),))
    assert "Main line vs variation" in viewer.compare.value
    for name in review.seats:
        assert f"<th>{name}</th>" in viewer.compare.value
    viewer.line_select.value = (None, ())
    assert viewer.cursor.path == () and viewer.position["action_index"] == 20


def test_a_refused_action_is_explained(review):
    viewer = ReplayViewer(review, chart=False)
    viewer.goto(6)  # Remo must follow Tone's blue 20: he holds the blue 14
    viewer.try_text.value = "play red9"
    viewer.try_button.click()
    assert "refused" in viewer.message.value and "must follow blue" in viewer.message.value
    assert not review.variation_paths(0)


def test_the_hook_is_explained(teds):
    viewer = ReplayViewer(teds, chart=False)
    viewer.goto(3)  # hand 1, the dealer bids last
    pos = viewer.position
    forbidden = pos["forbidden_bid"]
    assert pos["to_act"] == pos["dealer"]
    assert sum(b for b in pos["bids"] if b is not None) + forbidden == pos["hand_size"]
    assert f"may not bid {forbidden}" in viewer.trick.value
    assert f"bid {forbidden} ✗ (the hook)" in viewer.status.value
    assert "turned" in viewer.trick.value and "trump" in viewer.trick.value
    viewer.try_text.value = f"bid {forbidden}"
    viewer.try_button.click()
    assert "refused" in viewer.message.value


def test_teds_game_shows_tricks_won_against_bids(teds):
    viewer = ReplayViewer(teds, chart=False)
    viewer.goto(len(teds.hands[0].actions))  # the end of hand 1
    pos = viewer.position
    for s in range(4):
        assert f"won {pos['tricks_won'][s]} of {pos['bids'][s]}" in viewer.seat_boxes[s].value
        taken = [int(part[1:]) for part in viewer.seat_boxes[s].value.split("taken ")[1]
                 .split("</div>")[0].split()] if pos["tricks_won"][s] else []
        assert sum(taken) == 4 * pos["tricks_won"][s]  # four cards in each trick won


def test_whot_shows_call_card_called_symbol_and_sizes(whot):
    viewer = ReplayViewer(whot, chart=False)
    for step in range(len(viewer.cursor)):
        viewer.goto(step)
        if viewer.position["called_symbol"]:
            break
    else:
        pytest.fail("the seeded rubber should have a WHOT call")
    pos = viewer.position
    assert " call " in pos["action"]["act"]
    centre = viewer.trick.value
    assert f"WHOT called: <b>{pos['called_symbol']}" in centre
    assert f"stock {pos['stock_size']}" in centre and f"pile {pos['pile_size']}" in centre
    assert "game " in viewer.sheet.value


def test_the_score_chart_marks_the_current_step(review):
    viewer = ReplayViewer(review)
    chart = viewer.chart
    assert [t.name for t in chart.data] == review.seats
    assert list(chart.data[3].y) == [0, -15, -25]  # Brad: -15, then -10 more
    viewer.goto_hand(2)
    assert chart.layout.shapes[0].x0 == 1.0
    viewer.last()
    assert chart.layout.shapes[0].x0 == 2.0
    viewer.goto(13)  # 13 of hand 1's 25 actions
    assert chart.layout.shapes[0].x0 == pytest.approx(13 / 25)


def test_displaying_a_replay_shows_the_viewer(review, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    review._ipython_display_()
    assert len(shown) == 1 and isinstance(shown[0], ReplayViewer)
    bundle = shown[0]._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


# -- charts ------------------------------------------------------------------------------------

def test_score_evolution(review):
    fig = charts.score_evolution(review)
    assert isinstance(fig, go.Figure)
    assert [list(t.y) for t in fig.data] == [[0, -5, -15], [0, -5, -10], [0, -5, 16],
                                             [0, -15, -25]]


def test_hat_travels_as_the_review_tells_it(review):
    fig = charts.hat_travels(review, 0)
    assert list(fig.data[0].y) == ["(nobody)", "Tone", "Brad", "Remo", "Brad", "Brad"]
    assert list(fig.data[0].x) == [0, 1, 2, 3, 4, 5]


def test_cards_taken_per_suit(review):
    fig = charts.cards_taken(review, hand=0)
    taken = {t.name: dict(zip(t.x, t.y, strict=True)) for t in fig.data}
    # the review's hand 1: Tone and Brad took four blue each; Brad six red; Brad and Remo
    # two black each
    assert taken["blue"]["Tone"] == 4 and taken["blue"]["Brad"] == 4
    assert taken["red"]["Brad"] == 6 and taken["red"]["Remo"] == 2
    assert taken["black"]["Brad"] == 2 and taken["black"]["Remo"] == 2
    assert sum(sum(t.y) for t in fig.data) == 20


def test_score_components_and_bid_success(review):
    fig = charts.score_components(review)
    hat = next(t for t in fig.data if t.name == "hat")
    assert sorted(v for v in hat.y if v) == [-10, 10]
    fig = charts.bid_success(review)
    assert list(fig.data[0].x) == review.seats
    assert list(fig.data[0].text) == ["0/3", "0/2", "1/2", "0/3"]


def test_cards_in_hand_over_the_turns(whot):
    fig = charts.cards_in_hand(whot, hand=0)
    assert len(fig.data) == 3
    assert all(t.y[0] == 6 for t in fig.data)  # six cards each at the deal
    assert min(min(t.y) for t in fig.data) == 0  # someone went out
