"""The viewer: the movie built from positions, what a seat's movie may hold, the widget driven
from Python as a notebook would, and the standalone page.

The expected facts come from the rule texts: the review's hand 1 (trick 4: Remo's red 12,
Kathrine's red 20, Brad's black 3 trumping, Tone's red 14; the hat goes to Brad) and its
scoring (hand 1: everyone misses, Brad also holds the −10 hat), the rulebook (14s and 15s carry
the hat; blue, red and black cards), Ted's Game (the dealer may not make the bids add up to
the tricks; 19 hands of 10 down to 1 and back), Whot (symbols; a WHOT calls a symbol; a rubber
of games, the lowest total wins).
"""

from __future__ import annotations

import html.parser
import json
import re
from pathlib import Path

import pytest
from importpath import PACKAGE

import cardlab
from cardlab.bots import make_bot
from cardlab.errors import CardlabError
from cardlab.explore import line_state
from cardlab.game import list_games
from cardlab.seatview import hidden_from
from cardlab.view import ReplayViewer
from cardlab.view.movie import build_movie, card_faces, evals_of, frame_at, iter_frames, pretty
from cardlab.view.page import export_box, page_html, script_json, write_page
from cardlab.view.wording import plural

ROOT = Path(__file__).resolve().parents[1]
REPLAYS = sorted((ROOT / "replays").glob("*.json"))
REVIEW = ROOT / "replays" / "norwegian-review.json"
TEDS = ROOT / "replays" / "teds-game-example.json"
WHOT = ROOT / "replays" / "whot-example.json"
VIEWER_JS = PACKAGE / "view" / "viewer.js"
EVALUATE_JS = PACKAGE / "view" / "evaluate.js"
BRAD = 3


@pytest.fixture()
def review() -> cardlab.Replay:
    return cardlab.load(REVIEW)


@pytest.fixture(scope="module")
def teds_movie() -> dict:
    return build_movie(cardlab.load(TEDS))


@pytest.fixture(scope="module")
def whot_movie() -> dict:
    return build_movie(cardlab.load(WHOT))


def _played(game: str, players: int, seed: int, **options) -> cardlab.Replay:
    table = cardlab.new_game(game, players=players, seed=seed, **options)
    table.play([make_bot("heuristic", game, seed=s) for s in range(players)])
    return table.replay


def _texts(value) -> list[str]:
    """Every string in a JSON value."""
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(item.keys())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _main_frames(movie: dict, view: str = "") -> list[dict]:
    return list(iter_frames(movie, 0, view))


# -- the movie: what the table shows ---------------------------------------------------------

def test_trick_four_of_the_review(review):
    movie = build_movie(review)
    tricks = movie["views"][""][0]["tricks"]
    step = next(s for h, t, s in tricks if (h, t) == (1, 4))
    assert [c for _, c in frame_at(movie, step)["tk"]["c"]] == ["red12"]
    assert frame_at(movie, step)["tk"]["cap"] == "trick 4, led by Remo"
    done = frame_at(movie, step + 3)
    # the cards lie in front of the players who played them; Remo led, Brad's trump won
    assert done["tk"]["c"] == [[1, "red12"], [2, "red20"], [3, "black3"], [0, "red14"]]
    assert done["tk"]["l"] == 1 and done["tk"]["w"] == "black3"
    assert done["tk"]["why"] == "Brad takes the trick with black 3: the only trump"
    assert done["hat"] == "Bob's Hat −10, held by Brad"
    assert "hat" in done["seats"][str(BRAD)]["b"]
    assert movie["places"][""]["cells"] == [[3, 2], [2, 1], [1, 2], [2, 3]]  # Tone at the bottom
    assert movie["places"]["Brad"]["cells"][BRAD] == [3, 2]  # a seat's view: that seat below


def test_cards_show_a_mark_besides_their_colour():
    faces = card_faces("bobs-hat")
    assert faces["blue14"] == ["14", "◆", "blue", 1, "blue 14"]  # a hat card, with the hat
    assert faces["red13"][3] == 0 and faces["black15"][3] == 1
    assert {faces[f"{c}7"][1] for c in ("blue", "red", "black")} == {"◆", "●", "■"}
    assert card_faces("teds-game")["QH"] == ["Q", "♥", "red", 0, "Q♥"]
    assert card_faces("teds-game")["10S"][1] == "♠"
    assert card_faces("whot")["star3"][1] == "★" and card_faces("whot")["cross5"][1] == "✚"
    assert pretty("bobs-hat", "bid most-red,fewest") == "bid most red, fewest"


def test_the_review_ends_each_hand_with_its_scores(review):
    frames = _main_frames(build_movie(review))
    ends = [k for k, f in enumerate(frames) if "res" in f]
    assert len(ends) == 2  # one result per hand, at its last step
    end = frames[ends[0]]
    # hand 1: everyone misses (−5) and Brad holds the −10 hat, so "this hand" is not +0
    lines = [" ".join(end["seats"][str(s)]["i"]) for s in range(4)]
    assert "this hand −5" in lines[0] and "this hand −15" in lines[BRAD]
    assert not any("this hand 0" in line or "+0" in line for line in lines)
    assert "hat −10" in end["res"] and "Brad −15" in end["res"]
    assert "this hand" not in " ".join(frames[ends[0] - 1]["seats"]["0"]["i"])  # not before


def test_the_game_end_names_the_winner_and_why():
    replay = _played("bobs-hat", 4, 7, hands=2)
    last = _main_frames(build_movie(replay))[-1]
    winners = [replay.seats[s] for s in replay.rules.winners(replay.totals)]
    best = max(replay.totals)
    assert f"The game is over: {' and '.join(winners)}" in last["res"]
    assert f"with {best}, the highest total." in last["res"]
    teds = cardlab.load(TEDS)
    end = _main_frames(build_movie(teds))[-1]["res"]
    assert "The game is over: Cleo wins with 143, the highest total." in end
    assert "bid 3, took 2: missed" in end  # the last hand's bids against its tricks


def test_whot_speaks_of_games_in_a_rubber(whot_movie):
    frames = _main_frames(whot_movie)
    assert frames[0]["st"] == "Game 1: Ade deals 6 cards each — next: Bisi"
    assert frames[0]["info"] == ["game 1 of 5"]
    words = " ".join(t for f in frames for t in _texts({k: v for k, v in f.items()
                                                        if k not in ("alt",)}))
    assert "hand 1 dealt" not in words and "cards each" not in words.replace("6 cards each", "")
    assert not re.search(r"\bwon \d+ of \d+", words)
    # no copy code reaches a text: the cards' codes are data, their names are text
    shown = [t for f in frames for t in (f["st"], f.get("res", ""), f.get("call", {}).get("t", ""))]
    shown += [m["x"] for m in whot_movie["views"][""][0]["moves"]]
    assert not any(re.search(r"[a-z]+\d+/\d+", t) for t in shown)
    assert any("WHOT" in t and "called" in t for t in (f.get("call", {}).get("t", "")
                                                       for f in frames))
    last = frames[-1]["res"]
    assert "Dayo is out and wins game 5" in last
    assert "The rubber is over: Ade wins with 50, the lowest total." in last


def test_one_card_hands_say_one_card(teds_movie):
    assert plural(1, "card") == "1 card" and plural(6, "card") == "6 cards"
    frames = _main_frames(teds_movie)
    one = [f for f in frames if f["hn"] == 10]  # the schedule's one-card hand
    assert one and all("1 card each" in f["info"] for f in one)
    words = " ".join(t for f in frames for t in _texts(f))
    assert "1 cards" not in words


def test_teds_hook_is_said_only_while_the_dealer_bids():
    replay = cardlab.load(TEDS)
    movie = build_movie(replay)
    frames = _main_frames(movie)
    state = replay.new_state()
    said = 0
    step = 0
    for record in replay.hands:
        state.apply_chance(record.deal)
        for k in range(len(record.actions) + 1):
            if k:
                state.act(record.actions[k - 1].act)
            pos = state.snapshot(None)
            hook = [t for t in [frames[step].get("ex", "")] if "The hook" in t]
            dealer_bids = pos["phase"] == "bid" and pos["to_act"] == pos["dealer"]
            if hook:
                said += 1
                assert dealer_bids, (step, hook)
                name = replay.seats[pos["dealer"]]
                forbidden = pos["forbidden_bid"]
                others = sum(b for b in pos["bids"] if b is not None)
                assert hook[0].startswith(f"The hook: {name} may not bid {forbidden}: the "
                                          f"others' bids add up to {others}, and {forbidden} "
                                          f"more would make {pos['hand_size']}")
                assert others + forbidden == pos["hand_size"]
            elif dealer_bids and pos["forbidden_bid"] is not None:
                assert f"bid {pos['forbidden_bid']}" in state.legal_texts()  # no hook bites
            step += 1
    assert said >= 10  # most of the 19 hands have a hook that bites


def test_the_sheet_and_chart_show_no_result_before_it_happens(review):
    movie = build_movie(review)
    frames = _main_frames(movie)
    line = movie["views"][""][0]
    assert frames[0]["sheet"] == [] and frames[0]["pts"] == [[0, 0, 0, 0]]
    first_end = next(k for k, f in enumerate(frames) if "res" in f)
    assert all(f["sheet"] == [] for f in frames[:first_end])
    assert frames[first_end]["sheet"] == [[1, "score", "#1", [-5, -5, -5, -15]]]
    # show_all: the whole line's sheet and chart, the review's totals
    assert line["final"]["sheet"][-1] == [2, "sub-total", "sub-total", [-15, -10, 16, -25]]
    assert line["final"]["pts"][-1] == [-15, -10, 16, -25]


def test_a_variation_is_a_line_with_its_moves_nested(review):
    viewer = ReplayViewer(review)
    viewer.goto_action(1, 19)
    branch = viewer.explore("play black12", bots="heuristic", seed=1)
    movie = viewer.widget.movie
    assert movie["lines"] == [{"hand": None, "path": []},
                              {"hand": 1, "path": [list(p) for p in branch.path]}]
    main_moves = movie["views"][""][0]["moves"]
    assert main_moves[19]["v"] == [1] and main_moves[19]["x"] == "play black 3"
    variation = movie["views"][""][1]
    assert variation["label"] == "hand 1, action 20, Brad: play black 12 (+5 more)"
    assert variation["moves"][19]["x"] == "play black 12"
    assert viewer.widget.line == 1 and viewer.step == 20
    assert viewer.frame()["st"].startswith("Brad: play black 12")


# -- what a seat's movie holds -------------------------------------------------------------

def _lines_of(replay):
    """(line index, hand (from 1) or None, path) in the movie's order."""
    out = [(0, None, ())]
    for h in range(len(replay.hands)):
        for path in replay.variation_paths(h + 1):
            out.append((len(out), h + 1, path))
    return out


def _states(replay, hand, path):
    """The engine state at each step of a line (a fresh clone each)."""
    if hand is None:
        state = replay.new_state()
        for record in replay.hands:
            state.apply_chance(record.deal)
            yield state.clone()
            for action in record.actions:
                state.act(action.act)
                yield state.clone()
    else:
        state = line_state(replay, hand, path, 0)
        yield state.clone()
        for action in replay.line(hand, path):
            state.act(action.act)
            yield state.clone()


def _names_of(game: str, codes: set[str]) -> set[str]:
    """The names of hidden cards that name no visible card too (Whot's copies share one)."""
    faces = card_faces(game)
    by_name: dict[str, set[str]] = {}
    for code, face in faces.items():
        by_name.setdefault(face[4], set()).add(code)
    return {name for name, group in by_name.items() if group <= codes}


def _move_text(move: dict, step: int) -> str | None:
    """A move's text as the seat read it at ``step`` (None before it was made)."""
    if isinstance(move["x"], str):
        return move["x"] if move["s"] <= step else None
    shown = [text for start, text in move["x"] if start <= step]
    return shown[-1] if shown else None


def _check_seat_movie(replay, seat: int) -> None:
    name = replay.seats[seat]
    movie = build_movie(replay, seat=seat)
    assert list(movie["views"]) == [name]
    seen_anywhere: set[str] = set()
    for index, hand, path in _lines_of(replay):
        data = movie["views"][name][index]
        never: set[str] | None = None
        for step, (state, frame) in enumerate(zip(_states(replay, hand, path),
                                                  iter_frames(movie, index, name),
                                                  strict=True)):
            hidden = hidden_from(state, seat)
            text = json.dumps(frame, ensure_ascii=False)
            assert not hidden.leaks(text), (name, index, step, hidden.leaks(text))
            # names too ("red 14"); not in the teaching line, whose draw for first dealer
            # (Ted's Game) turns up cards of a deck of its own, face up for all
            said = json.dumps({k: v for k, v in frame.items() if k != "ex"}, ensure_ascii=False)
            for hidden_name in _names_of(replay.game, set(hidden.codes)):
                assert not re.search(rf"(?<![\w/]){re.escape(hidden_name)}(?![\w/])", said), \
                    (name, index, step, hidden_name)
            # hidden texts (a hidden hat value, another seat's secret bid); "alt" is the
            # seat's own choices, which may read like another's secret bid
            told = json.dumps({k: v for k, v in frame.items() if k != "alt"}, ensure_ascii=False)
            for actor, act in hidden.texts:
                said_by = f"{replay.seats[actor]}: {pretty(replay.game, act)}"
                assert said_by not in told, (name, step, said_by)
                hand_now = max(entry["i"] for entry in data["hands"] if entry["s"] <= step)
                for move in data["moves"]:  # the moves of this hand, as read at this step
                    if move["p"] == actor and move["s"] <= step and move["h"] == hand_now:
                        assert pretty(replay.game, act) != _move_text(move, step), (name, step)
                if act.startswith("bid "):  # a secret bid: no bid line in that seat's box
                    assert not any(line.startswith("bid")
                                   for line in frame["seats"][str(actor)]["i"]), (name, step)
                if act.startswith("hat "):  # the hat's value stays hidden in the centre too
                    assert frame["hat"] == "Bob's Hat: value hidden", (name, step)
            # the move list at this step: what the seat has seen so far
            for move in data["moves"]:
                pairs = [[move["s"], move["x"]]] if isinstance(move["x"], str) else move["x"]
                for start, shown in pairs:
                    if start <= step and move["s"] <= step:
                        assert not hidden.leaks(shown), (name, step, shown)
            never = set(hidden.codes) if never is None else never & hidden.codes
        assert never is not None
        whole = json.dumps(data, ensure_ascii=False)
        tokens = set(re.findall(r"[^\s,;:()\[\]{}\"'→»—.]+", whole))
        assert not tokens & never, (name, index, sorted(tokens & never)[:5])
        seen_anywhere |= set(card_faces(replay.game)) - never
    assert set(movie["cards"]) <= seen_anywhere


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.stem)
def test_a_seat_movie_of_a_shipped_replay_holds_nothing_hidden(path):
    replay = cardlab.load(path)
    if path == REVIEW:  # a variation too, as a teacher adds one
        from cardlab.explore import branch

        branch(replay, 1, 19, "play black12", seed=1)
    for seat in range(len(replay.seats)):
        _check_seat_movie(replay, seat)


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.stem)
def test_the_what_if_menu_offers_every_legal_action_and_so_tells_nothing(path):
    """At every step of every line, in every view, the menu's actions are the legal actions
    the view may see, in the engine's order, the one played next among them: a menu without
    it told which was played (step 0 of the review offered only "hat +10"). A seat's menu
    holds its own choices only, at its own turn; a line's last step has none."""
    replay = cardlab.load(path)
    if path == REVIEW:
        from cardlab.explore import branch

        branch(replay, 1, 19, "play black12", seed=1)
    movie = build_movie(replay)
    offered = 0
    for view in [None, *range(len(replay.seats))]:
        key = "" if view is None else replay.seats[view]
        for index, hand, path_ in _lines_of(replay):
            frames = list(iter_frames(movie, index, key))
            played = _next_actions(replay, hand, path_)
            for step, (state, frame) in enumerate(zip(_states(replay, hand, path_), frames,
                                                      strict=True)):
                legal = state.snapshot(view).get("legal") or None
                assert frame.get("alt") == (legal if step + 1 < len(frames) else None), \
                    (key, index, step)
                if frame.get("alt") and view is None:
                    offered += 1
                    # the move played is there, unless it was out of turn (Ted's "change
                    # bid", which no menu offers: the menu reads as for any bid)
                    out_of_turn = state.actor(state.parse_action(played[step])) != \
                        state.to_act()
                    assert played[step] in frame["alt"] or out_of_turn, (index, step)
    assert offered > 50


def _next_actions(replay, hand, path):
    """The action played after each step of a line, as _states walks it (None at a hand's
    end)."""
    records = [r.actions for r in replay.hands] if hand is None else [replay.line(hand, path)]
    return [actions[i].act if i < len(actions) else None
            for actions in records for i in range(len(actions) + 1)]


def _option_sets():
    return [pytest.param(name, options, id=f"{name}-{k}")
            for name, info in sorted(list_games().items())
            for k, options in enumerate(info.rules_class.conformance_option_sets())]


@pytest.mark.parametrize(("game", "options"), _option_sets())
def test_a_seat_movie_of_a_seeded_game_holds_nothing_hidden(game, options):
    options = dict(options)
    players = options.pop("players")
    if game == "teds-game":
        options.setdefault("start_size", 3)  # a short schedule keeps the test quick
    if game == "bobs-hat" and not options.get("until_deck_runs_out"):
        options["hands"] = min(options.get("hands", 2), 2)
    replay = _played(game, players, 11, **options)
    for seat in range(players):
        _check_seat_movie(replay, seat)


def test_everyone_view_shares_frames_with_the_seats_but_not_hands(review):
    movie = build_movie(review)
    for name in review.seats:
        for frame in iter_frames(movie, 0, name):
            seat = review.seats.index(name)
            for s in range(4):
                held = frame["seats"][str(s)]["h"]
                assert isinstance(held, list) == (s == seat)


# -- the widget, driven from Python --------------------------------------------------------

def test_the_viewer_steps_jumps_and_reads_what_is_shown(review):
    viewer = ReplayViewer(review)
    assert viewer.note_text() == "Brad deals five cards each. The trump card he turns up is black."
    viewer.goto_trick(1, 4)
    assert viewer.trick_cards() == ["red12"]
    for _ in range(3):
        viewer.next()
    assert viewer.trick_cards() == ["red12", "red20", "black3", "red14"]
    assert viewer.widget.step == viewer.step == 21
    assert viewer.position["hat"] == {"value": -10, "chosen": True, "holder": 3}
    viewer.last()
    assert viewer.step == len(viewer.widget.movie["views"][""][0]["frames"]) - 1
    viewer.goto_hand(2)
    assert viewer.frame()["hn"] == 2 and viewer.position["action"] is None
    viewer.first()
    viewer.prev()
    assert viewer.step == 0
    viewer.set_lang("no")
    assert viewer.note_text().startswith("Brad gir fem kort til hver")


def test_choosing_a_seat_sends_only_that_seats_view(review):
    viewer = ReplayViewer(review)
    assert set(viewer.widget.movie["views"]) == {"", *review.seats}
    viewer.widget.seat = "Brad"  # as the browser's seat menu does
    assert list(viewer.widget.movie["views"]) == ["Brad"]
    viewer.goto_action(1, 19)
    assert viewer.position["hands"][BRAD] == ["black3", "black12"]
    assert viewer.frame()["seats"]["0"]["h"] == 2
    assert viewer.frame()["alt"] == ["play black3", "play black12"]  # Brad's own choices
    viewer.set_seat(None)
    assert set(viewer.widget.movie["views"]) == {"", *review.seats}
    assert viewer.step == 19  # the place is kept
    shared = ReplayViewer(review, private=False)
    shared.set_seat("Brad")
    assert set(shared.widget.movie["views"]) == {"", *review.seats}


def test_bad_seat_language_and_steps_list_the_choices(review):
    with pytest.raises(CardlabError, match="no seat 'brad'; the seats are Tone, "
                                           "Remo, Kathrine, Brad"):
        ReplayViewer(review, seat="brad")
    viewer = ReplayViewer(review)
    with pytest.raises(CardlabError, match="the seats are Tone, Remo, Kathrine, Brad"):
        viewer.set_seat("brad")
    with pytest.raises(CardlabError, match="the seats are .* \\(or 0 to 3\\)"):
        viewer.set_seat(7)
    with pytest.raises(CardlabError, match="the notes of this replay are in en, no, not 'fr'"):
        viewer.set_lang("fr")
    with pytest.raises(CardlabError, match="hand 1 has no trick 9"):
        viewer.goto_trick(1, 9)
    with pytest.raises(CardlabError, match="hands count from 1: .*hands 1 to 2, not 3"):
        viewer.goto_hand(3)
    with pytest.raises(CardlabError, match="hand 1 has steps 0 to 25"):
        viewer.goto_action(1, 26)


def test_the_browser_asks_for_a_branch_by_message(review):
    viewer = ReplayViewer(review)
    viewer.goto_action(1, 19)
    sent = []
    viewer.widget.send = sent.append
    viewer._on_message(viewer.widget, {"type": "explore", "line": 0, "step": 19,
                                       "action": "play black12"}, [])
    assert len(viewer.widget.movie["lines"]) == 2 and viewer.widget.line == 1
    assert sent[-1]["type"] == "explored"
    assert sent[-1]["text"].startswith("Brad: play black 12 instead; the bots finished")
    viewer._on_message(viewer.widget, {"type": "explore", "line": 1, "step": 20,
                                       "action": "play red99"}, [])
    assert sent[-1]["text"].startswith("refused:")
    # the menu offers the move played too; choosing it steps on along the line, no branch
    viewer.set_line(0)
    viewer.goto_action(1, 19)
    viewer._on_message(viewer.widget, {"type": "explore", "line": 0, "step": 19,
                                       "action": "play black3"}, [])
    assert sent[-1]["text"] == "Brad: play black 3 is what was played here; on to step 20"
    assert len(viewer.widget.movie["lines"]) == 2 and viewer.widget.line == 0
    assert viewer.step == 20 and viewer.trick_cards() == ["red12", "red20", "black3"]


def test_a_replay_displays_as_the_viewer_then_the_box_for_exports(review, monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, **kw: shown.append(obj))
    review._ipython_display_()
    assert len(shown) == 1 and isinstance(shown[0], ReplayViewer)
    shown[0]._ipython_display_()
    _, widget, box = shown
    data, _ = widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"].startswith(review.summary())  # where no widget can be drawn
    assert box["text/html"] == export_box(widget.model_id, review.summary())
    assert box["text/plain"] == ""
    css = (PACKAGE / "view" / "viewer.css").read_text(encoding="utf-8")
    assert ".cardlab-export { display: none !important; }" in css  # a live viewer hides it


# -- the page ------------------------------------------------------------------------------

def _embedded_movie(page: str) -> dict:
    start = page.index('id="cardlab-movie">') + len('id="cardlab-movie">')
    return json.loads(page[start:page.index("</script>", start)])


def test_the_page_is_one_offline_file(review, tmp_path):
    write_page(review, tmp_path / "review.html")
    page = page_html(review)
    assert (tmp_path / "review.html").read_text(encoding="utf-8") == page
    bare = page.replace("http://www.w3.org/2000/svg", "")
    assert "http:" not in bare and "https:" not in bare and "src=" not in bare
    assert "import " not in page and "fetch(" not in page
    movie = _embedded_movie(page)
    assert movie["title"] == review.meta["title"] and movie["explore"] is False
    assert set(movie["views"]) == {"", *review.seats}
    brad = _embedded_movie(page_html(review, seat="Brad", lang="no"))
    assert list(brad["views"]) == ["Brad"] and brad["choices"] == ["Brad"]
    assert brad["lang"] == "no"


def test_the_front_end_inserts_text_only():
    source = VIEWER_JS.read_text(encoding="utf-8") + EVALUATE_JS.read_text(encoding="utf-8")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "new Function", "import("):
        assert sink not in source


INJECTIONS = ['<img src=x onerror="alert(1)">', "</script><script>alert(2)</script>",
              "<!--", "\u2028</SCRIPT >", "&lt;b&gt;", '"><svg onload=alert(3)>']


def test_a_replay_made_of_injections_stays_text(tmp_path):
    seats = [INJECTIONS[0], INJECTIONS[1][:40], INJECTIONS[5], "<b>D</b>&amp;"]
    table = cardlab.new_game("bobs-hat", players=4, seed=5, hands=1, seats=seats,
                             meta={"title": INJECTIONS[1]})
    table.play([make_bot("heuristic", "bobs-hat", seed=s) for s in range(4)])
    replay = table.replay
    for k, action in enumerate(replay.hands[0].actions):
        action.note = {"en": INJECTIONS[k % len(INJECTIONS)], "xx": INJECTIONS[2]}
    replay.hands[0].note = INJECTIONS[3]
    page = page_html(replay)
    script = page[page.index('id="cardlab-movie">'):page.index("</script>")]
    for bad in ("<", ">", "&", "\u2028"):
        assert bad not in script.split(">", 1)[1]
    movie = _embedded_movie(page)  # the strings come back whole
    assert movie["seats"] == seats and movie["title"] == INJECTIONS[1]

    class Tags(html.parser.HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: list[str] = []

        def handle_starttag(self, tag, attrs):
            self.tags.append(tag)

    parser = Tags()
    parser.feed(page)
    assert sorted(set(parser.tags)) == ["body", "h1", "head", "html", "main", "meta", "script",
                                        "style", "title"]
    assert parser.tags.count("script") == 2
    box = Tags()
    box.feed(export_box("m1", replay.summary()))
    assert box.tags == ["div", "p", "script"]
    assert json.loads(script_json(INJECTIONS)) == INJECTIONS


def test_cardlab_html_writes_the_page(tmp_path, capsys):
    from cardlab.cli import main

    out = tmp_path / "brad.html"
    with pytest.raises(SystemExit) as done:
        main(["html", str(REVIEW), "--seat", "Brad", "--lang", "no", "-o", str(out)])
    assert done.value.code == 0 and capsys.readouterr().out == f"wrote {out}\n"
    movie = _embedded_movie(out.read_text(encoding="utf-8"))
    assert list(movie["views"]) == ["Brad"] and movie["lang"] == "no"
    with pytest.raises(SystemExit) as done:
        main(["html", str(REVIEW), "--seat", "brad", "-o", str(tmp_path / "x.html")])
    err = capsys.readouterr().err
    assert done.value.code == 2 and err.count("\n") == 1 and "Tone, Remo, Kathrine, Brad" in err
    assert not (tmp_path / "x.html").exists()


# -- Evaluate: the advisor's records in the movie ---------------------------------------------

@pytest.fixture(scope="module")
def analysed() -> cardlab.Replay:
    """The review with every decision evaluated (few random rollouts: the movie only carries
    the numbers), and Tone's first card of hand 1 solved exactly with every hand open."""
    from cardlab.advisor import evaluate
    from cardlab.analyse import analyse

    replay = analyse(cardlab.load(REVIEW), rollouts=12, bot="random", progress=False)
    replay.hands[0].actions[20].eval = evaluate(replay, 1, 20, open_hands=True).record()
    return replay


def _decision_steps(replay: cardlab.Replay) -> dict[int, tuple[int, dict]]:
    """Main-line step where each evaluated decision is made → (actor, record)."""
    out, step = {}, 0
    for hand in replay.hands:
        for index, action in enumerate(hand.actions):
            if action.eval is not None:
                out[step + index] = (replay.seats.index(action.seat), action.eval)
        step += len(hand.actions) + 1
    return out


@pytest.fixture(scope="module")
def analysed_whot() -> cardlab.Replay:
    from cardlab.analyse import analyse

    return analyse(cardlab.load(WHOT), rollouts=3, bot="random", progress=False)


def test_each_decision_carries_its_values_at_its_step(analysed):
    wanted = _decision_steps(analysed)
    assert exact_step_in(wanted) and len(wanted) > 30
    _check_values_at_steps(analysed, wanted)


def test_whot_values_are_points_against_the_fewest_best(analysed_whot):
    wanted = _decision_steps(analysed_whot)
    assert any("draw" in record["values"] for _, record in wanted.values())
    _check_values_at_steps(analysed_whot, wanted)
    entry = next(iter(build_movie(analysed_whot)["views"][""][0]["ev"].values()))
    assert "expected points against (fewer is better)" in entry["src"]


def _check_values_at_steps(replay: cardlab.Replay, wanted: dict[int, tuple[int, dict]]) -> None:
    movie = build_movie(replay)
    data = movie["views"][""][0]
    assert {int(s) for s in data["ev"]} == set(wanted)
    low = replay.rules.low_score_wins
    pick, drop = (min, max) if low else (max, min)
    for step, (actor, record) in wanted.items():
        entry = data["ev"][str(step)]
        frame = frame_at(movie, step)
        assert entry["p"] == actor and "turn" in frame["seats"][str(actor)]["b"]
        assert [row[0] for row in entry["v"]] == sorted(
            record["values"], key=lambda t: record["values"][t][0], reverse=not low)
        assert {row[0]: row[2:4] for row in entry["v"]} == record["values"]
        means = [pair[0] for pair in record["values"].values()]
        assert entry["best"] == [t for t, v in record["values"].items() if v[0] == pick(means)]
        assert entry["worst"] == ([t for t, v in record["values"].items()
                                   if v[0] == drop(means)] if min(means) < max(means) else [])
        for row in entry["v"]:  # best and worst say so without colour too
            assert row[6] == ("▲" if row[0] in entry["best"] else
                              "▼" if row[0] in entry["worst"] else "")
        held = frame["seats"][str(actor)]["h"]
        for code, i in entry["c"].items():  # a card's value: the best action playing it
            plays = [k for k, row in enumerate(entry["v"])
                     if row[0].split(" ")[:2] == ["play", code]]  # a WHOT: one per call
            assert code in held and i == plays[0]
        assert ("exact hand score" in entry["src"]) == bool(record.get("exact"))
        if not record.get("exact"):
            assert f"over {record['rollouts']} sampled deals, played out by random play" \
                in entry["src"]


def exact_step_in(wanted: dict[int, tuple[int, dict]]) -> bool:
    return any(record.get("exact") for _, record in wanted.values())


def test_the_report_gives_the_chart_costly_decisions_and_luck(analysed):
    from cardlab.advisor import report

    data = build_movie(analysed)["views"][""][0]
    starts = {entry["i"]: entry["s"] for entry in data["hands"]}
    decisions = report.decisions(analysed)
    assert [(d["s"], d["p"], d["l"], d["m"]) for d in data["dec"]] == [
        (starts[d.hand] + d.index, d.seat, d.loss, d.mark) for d in decisions]
    for d in data["dec"]:
        assert d["pv"] <= d["bv"] and d["t"].startswith(analysed.seats[d["p"]] + ", hand ")
    rows = report.luck(analysed)
    assert [(r["h"], r["p"], r["r"], r["e"], r["k"], r["u"]) for r in data["luck"]] == [
        (r.hand, r.seat, r.result, r.expected, r.skill, r.luck) for r in rows]
    ends = {1: starts[2] - 1, 2: len(data["frames"]) - 1}  # luck shows at the hand's end
    assert all(r["s"] == ends[r["h"]] for r in data["luck"])
    assert "ev" not in build_movie(cardlab.load(REVIEW))["views"][""][0]  # none: no panel


@pytest.mark.parametrize("solo", [True, False], ids=["seat-movie", "every-view-movie"])
def test_a_seat_view_holds_only_its_own_decisions_values(analysed, solo):
    movie = build_movie(analysed, seat=None if not solo else 0)
    wanted = _decision_steps(analysed)
    for seat, name in enumerate(analysed.seats):
        if solo and seat:
            movie = build_movie(analysed, seat=seat)
        data = movie["views"][name][0]
        own = {s for s, (actor, record) in wanted.items()
               if actor == seat and not record.get("exact")}  # exact: every hand was open
        assert {int(s) for s in evals_of(movie, 0, name)} == own and own
        assert ("ev" in data) == solo  # beside everyone's, a seat's line shares its entries
        assert {d["p"] for d in data["dec"]} == {seat} == {r["p"] for r in data["luck"]}


@pytest.mark.parametrize("which", ["analysed", "analysed_whot"])
def test_a_seat_movie_of_an_analysed_replay_holds_nothing_hidden(which, request):
    analysed = request.getfixturevalue(which)
    for seat in range(len(analysed.seats)):
        _check_seat_movie(analysed, seat)  # every frame, and the whole movie's codes
        _check_seat_evals(analysed, seat)


def _check_seat_evals(replay: cardlab.Replay, seat: int) -> None:
    """A seat's values name nothing hidden from it at the step they belong to, and what was
    played nothing hidden at the next step, when it shows."""
    name = replay.seats[seat]
    data = build_movie(replay, seat=seat)["views"][name][0]
    states = list(_states(replay, None, ()))
    for key, entry in data["ev"].items():
        assert not hidden_from(states[int(key)], seat).leaks(json.dumps(entry)), (name, key)
    for d in data["dec"]:
        assert not hidden_from(states[d["s"] + 1], seat).leaks(json.dumps(d)), (name, d)


def test_the_eval_check_catches_a_leak(analysed, monkeypatch):
    """Were a seat's movie to hold the others' values, the check above would say so."""
    import cardlab.view.movie as movie_module

    monkeypatch.setattr(movie_module, "visible_eval", lambda record, actor, seat: True)
    with pytest.raises(AssertionError, match="Brad"):
        _check_seat_evals(analysed, BRAD)


def test_the_page_and_the_widget_evaluate(analysed, tmp_path):
    brad = _embedded_movie(page_html(analysed, seat="Brad"))
    assert {e["p"] for e in brad["views"]["Brad"][0]["ev"].values()} == {BRAD}
    bare = cardlab.load(REVIEW)
    viewer = ReplayViewer(bare, at=(1, 19))
    viewer.set_evaluate()
    assert viewer.widget.evaluate is True
    sent = []
    viewer.widget.send = sent.append
    viewer._on_message(viewer.widget, {"type": "evaluate", "line": 0, "step": 19}, [])
    assert sent[-1] == {"type": "evaluated",
                        "text": "Brad's choices evaluated over 200 sampled deals"}
    record = bare.hands[0].actions[19].eval  # kept on the kernel's replay
    assert record["seat"] == "Brad" and set(record["values"]) == {"play black3", "play black12"}
    assert evals_of(viewer.widget.movie)["19"]["p"] == BRAD
    viewer.set_seat("Tone")
    with pytest.raises(CardlabError, match="this is Brad's decision, not Tone's"):
        viewer.evaluate()
    assert "19" not in evals_of(viewer.widget.movie, 0, "Tone")  # Brad's: not in Tone's view
    viewer.set_seat(None)
    viewer.last()
    viewer._on_message(viewer.widget, {"type": "evaluate", "line": 0,
                                       "step": viewer.step}, [])
    assert sent[-1]["text"].startswith("refused: nothing was played after step")
