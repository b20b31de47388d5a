"""The viewer: the movie built from positions, the widget driven from Python as a notebook
would, and the standalone page.

The expected facts come from the rule texts: the review's hand 1 (trick 4: Remo's red 12,
Kathrine's red 20, Brad's black 3 trumping, Tone's red 14; the hat goes to Brad), the
rulebook (14s and 15s carry the hat; blue, red and black cards), Ted's Game (the dealer may
not make the bids add up to the tricks), Whot (symbols; a WHOT calls a symbol; a rubber of
games).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardlab
from cardlab.bots import make_bot
from cardlab.errors import CardlabError
from cardlab.view import ReplayViewer
from cardlab.view.movie import build_movie, card_faces, frame_at, pretty
from cardlab.view.page import page_html

ROOT = Path(__file__).resolve().parents[1]
REVIEW = ROOT / "replays" / "norwegian-review.json"
BRAD = 3


@pytest.fixture()
def review() -> cardlab.Replay:
    return cardlab.load(REVIEW)


def test_trick_four_of_the_review_in_the_movie(review):
    movie = build_movie(review)
    tricks = movie["views"][""][0]["tricks"]
    step = next(s for h, t, s in tricks if (h, t) == (1, 4))
    assert [c for _, c in frame_at(movie, step)["tk"]["c"]] == ["red12"]
    done = frame_at(movie, step + 3)
    assert done["tk"]["c"] == [[1, "red12"], [2, "red20"], [3, "black3"], [0, "red14"]]
    assert done["tk"]["l"] == 1 and done["tk"]["w"] == "black3"
    assert done["tk"]["why"] == "Brad takes the trick with black 3: the only trump"
    assert done["hat"] == "Bob's Hat −10, held by Brad"
    assert "hat" in done["seats"][str(BRAD)]["b"]


def test_cards_show_their_marks():
    assert card_faces("bobs-hat")["blue14"] == ["14", "◆", "blue", 1, "blue 14"]
    assert card_faces("bobs-hat")["red13"][3] == 0
    assert card_faces("teds-game")["QH"] == ["Q", "♥", "red", 0, "Q♥"]
    assert card_faces("whot")["whot20/4"] == ["20", "WHOT", "whot", 0, "WHOT"]
    assert pretty("whot", "play whot20/3 call circle") == "play WHOT call ● circle"


def test_the_viewer_steps_from_python(review):
    viewer = ReplayViewer(review)
    viewer.goto_trick(1, 4)
    assert viewer.trick_cards() == ["red12"]
    viewer.next().next().next()
    assert viewer.trick_cards() == ["red12", "red20", "black3", "red14"]
    assert viewer.widget.step == viewer.step
    viewer.set_seat("Brad").goto_action(1, 19)
    assert viewer.position["hands"][BRAD] == ["black3", "black12"]
    assert list(viewer.widget.movie["views"]) == ["Brad"]


def test_bad_seat_and_language_list_the_choices(review):
    with pytest.raises(CardlabError, match="the seats are Tone, Remo, Kathrine, Brad"):
        ReplayViewer(review, seat="brad")
    viewer = ReplayViewer(review)
    with pytest.raises(CardlabError, match="the seats are Tone, Remo, Kathrine, Brad"):
        viewer.set_seat("brad")
    with pytest.raises(CardlabError, match="en, no"):
        viewer.set_lang("fr")


def test_the_page_is_self_contained(review):
    page = page_html(review)
    # nothing to fetch: no URL but the SVG namespace name, no import, no fetch
    bare = page.replace("http://www.w3.org/2000/svg", "")
    assert "http:" not in bare and "https:" not in bare and "//cdn" not in bare
    assert "import " not in page and "fetch(" not in page and "src=" not in page
    start = page.index('id="cardlab-movie">') + len('id="cardlab-movie">')
    movie = json.loads(page[start:page.index("</script>", start)])
    assert movie["title"] == review.meta["title"]
    assert set(movie["views"]) == {"", *review.seats}


def test_a_seeded_game_of_each_kind_builds():
    for game, players in (("bobs-hat", 4), ("teds-game", 4), ("whot", 3)):
        table = cardlab.new_game(game, players=players, seed=3)
        table.play([make_bot("heuristic", game, seed=s) for s in range(players)])
        movie = build_movie(table.replay)
        last = len(movie["views"][""][0]["frames"]) - 1
        assert "over" in frame_at(movie, last)["res"]
