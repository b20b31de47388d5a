"""The replay's tree walked without recursion, actions in one spelling, and pages that stay
within a budget (issue 18, points 2 and 3).

The every-limit file here is scaled down (``Limits(...)`` small, every one of them reached
exactly, all at once) so the test stays quick; benchmarks/hostile_pages.py builds the full
size file at ``DEFAULT_LIMITS`` (a 1,000,000-action hand, 100,000 variations, a chain 1,000
deep, a note of 100,000 characters) and times validate, show and html on it."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

import cardlab
from cardlab import strictjson
from cardlab.analyse import analyse
from cardlab.bots import make_bot
from cardlab.cli import main
from cardlab.errors import CardlabError, LimitError
from cardlab.limits import DEFAULT_LIMITS, MAX_PAGE_FRAMES, Limits
from cardlab.replay import Action, Hand, Replay, note_languages, walk_lines
from cardlab.view.movie import build_movie, page_frames
from cardlab.view.page import page_bytes, page_html, write_page

# -- the one walker ---------------------------------------------------------------------------


def recursive_paths(actions: list[Action], path: tuple, start: int) -> list[tuple]:
    """Every variation path below a line, depth first, written as the plain recursion the
    walker replaces (the oracle: small trees only)."""
    out = []
    for k, action in enumerate(actions):
        for v, line in enumerate(action.variations):
            inner = (*path, (start + k, v))
            out.append(inner)
            out.extend(recursive_paths(line, inner, start + k))
    return out


def random_tree(rng: random.Random, size: int) -> Hand:
    hand = Hand(deal=None, actions=[Action("A", f"a{i}") for i in range(rng.randint(1, 6))])
    lines = [hand.actions]
    for n in range(size):
        line = rng.choice(lines)
        at = rng.randrange(len(line))
        variation = [Action("A", f"v{n}.{j}") for j in range(rng.randint(1, 4))]
        line[at].variations.append(variation)
        lines.append(variation)
    return hand


@pytest.mark.parametrize("seed", range(30))
def test_walk_lines_gives_every_line_once_in_the_order_of_a_recursion(seed):
    rng = random.Random(seed)
    hands = [random_tree(rng, rng.randint(0, 40)) for _ in range(rng.randint(1, 3))]
    walked = list(walk_lines(hands))
    expected = [(h, p) for h, hand in enumerate(hands)
                for p in [(), *recursive_paths(hand.actions, (), 0)]]
    assert [(line.hand_index, line.path) for line in walked] == expected
    replay = Replay("x", {}, ["A", "B"], hands=hands)
    for line in walked:  # each line's own actions are the tail of the whole line
        whole = replay.line(line.hand_index + 1, line.path)
        assert whole[line.start:] == line.actions and len(whole) == line.start + len(
            line.actions)


def bobs_hat_chain(depth: int, notes: bool = True) -> Replay:
    """A hand of Bob's Hat whose first action has a chain of variations ``depth`` deep,
    each with a note in two languages (the dealer's hat: +10 and -10 alternate)."""
    table = cardlab.new_game("bobs-hat", players=3, seed=2, hands=1)
    table.play([make_bot("heuristic", "bobs-hat", seed=s) for s in range(3)])
    node = table.replay.hands[0].actions[0]
    for level in range(depth):
        other = "hat -10" if node.act == "hat +10" else "hat +10"
        note = {"en": f"level {level + 1}", "nb": "nivå"} if notes else None
        twin = Action(node.seat, other, note=note)
        node.variations.append([twin])
        node = twin
    return table.replay


def test_a_chain_exactly_max_variation_depth_deep_shows_pages_and_views():
    depth = DEFAULT_LIMITS.max_variation_depth
    replay = cardlab.loads(bobs_hat_chain(depth).to_json())
    assert note_languages(replay) == ["en", "nb"]  # was a RecursionError
    assert len(replay.variation_paths(1)) == depth
    assert "Final:" in cardlab.text.render(replay)
    page = page_html(replay, seat=replay.seats[0])
    assert page.count("level 1000") == 1 and page.endswith("</html>\n")
    movie = build_movie(replay)
    assert len(movie["lines"]) == depth + 1
    assert movie["lines"][-1]["path"] == [[0, 0]] * depth
    pytest.importorskip("anywidget")
    from cardlab.view.widget import ReplayViewer

    viewer = ReplayViewer(replay)
    assert len(viewer.lines()) == depth + 1


# -- one spelling per action ----------------------------------------------------------------


def analysed_whot(actions: int) -> Replay:
    table = cardlab.new_game("whot", players=2, seed=5, rubber="single", max_turns=actions)
    table.play([make_bot("random", "whot", seed=s) for s in range(2)])
    return analyse(table.replay, rollouts=2, bot="random", progress=False)


def test_any_spelling_loads_as_the_engines_and_shows_the_same():
    replay = analysed_whot(40)
    text = replay.to_json()
    data = json.loads(text)
    for action in data["hands"][0]["actions"]:
        action["act"] = "  " + action["act"].upper().replace(" ", "  ") + " "
    shouted = cardlab.loads(json.dumps(data))
    assert [a.act for a in shouted.hands[0].actions] == [a.act for a in replay.hands[0].actions]
    assert shouted.to_json() == text  # saved back in the engine's spelling
    assert cardlab.text.render(shouted) == cardlab.text.render(replay)
    assert any(a.eval is not None for a in shouted.hands[0].actions)
    assert page_html(shouted) == page_html(replay)
    # equal texts share one string, as the parser shares them
    draws = [a.act for a in shouted.hands[0].actions if a.act == "draw"]
    assert len({id(t) for t in draws}) <= 1


def test_an_eval_record_without_the_played_text_is_an_error_not_a_replay_from_the_deal():
    from cardlab.advisor.report import decisions

    replay = analysed_whot(20)
    action = next(a for a in replay.hands[0].actions if a.eval is not None)
    action.act = action.act.upper()  # made by hand, never loaded: no lookup replays the hand
    with pytest.raises(CardlabError, match="the eval has no value for the action played"):
        decisions(replay)


# -- pages: standard JSON, and a budget --------------------------------------------------------


def test_a_page_never_carries_a_non_json_number(tmp_path):
    replay = analysed_whot(20)
    action = next(a for a in replay.hands[0].actions if a.eval is not None)
    action.eval["values"][action.act] = [float("inf"), 0.0]  # bypassing load, which checks
    for make in (lambda: page_html(replay), lambda: page_bytes(replay, file="w.json"),
                 lambda: page_html(replay, seat=action.seat)):
        with pytest.raises(CardlabError, match="JSON cannot hold"):
            make()
    with pytest.raises(CardlabError, match="JSON cannot hold"):
        write_page(replay, tmp_path / "w.html")
    assert not (tmp_path / "w.html").exists()


def test_the_page_budget_is_counted_before_building_and_names_itself(tmp_path, capsys):
    replay = bobs_hat_chain(30, notes=False)
    path = tmp_path / "chain.json"
    replay.save(path)
    frames = page_frames(replay, 4)
    page_html(replay, budget=frames)  # exactly at the budget: made
    assert page_bytes(replay, budget=frames) == page_html(replay).encode("utf-8")
    with pytest.raises(LimitError) as caught:
        page_html(replay, budget=frames - 1)
    assert caught.value.limit == "max_page_frames" and f"{frames:,} frames" in str(caught.value)
    out = tmp_path / "chain.html"
    code = cli("html", str(path), "-o", str(out), "--page-budget", str(frames - 1))
    err = capsys.readouterr().err.strip()
    assert code == 2 and not out.exists() and len(err.splitlines()) == 1
    assert str(path) in err and f"max_page_frames={frames - 1:,}" in err
    assert "--page-budget" in err
    assert cli("html", str(path), "-o", str(out), "--page-budget", str(frames)) == 0
    assert out.read_text(encoding="utf-8") == page_html(replay)


def test_every_shipped_replay_pages_well_within_the_budget():
    for name in cardlab.example_names():
        replay = cardlab.example(name)
        assert page_frames(replay, len(replay.seats) + 1) < MAX_PAGE_FRAMES // 20
        assert page_bytes(replay) == page_html(replay).encode("utf-8")


# -- a file at every limit at once -----------------------------------------------------------


def drawing_whot(actions: int) -> Replay:
    """One game of Whot of at most ``actions`` actions in which both seats draw while they
    may (the safety cap, or a seat going out, ends it)."""
    table = cardlab.new_game("whot", players=2, seed=9, rubber="single", max_turns=actions)
    while table.state.to_act() >= 0:
        texts = table.state.legal_texts()
        table.act("draw" if "draw" in texts else texts[0])
    return table.replay


def at_every_limit() -> tuple[str, Limits]:
    """A replay at every limit at once (scaled down: a hand as long as a line may be, as many
    variations as a replay may hold, of which a chain as deep as they may nest, a note as
    long as a note may be, the file as large and as nested as it may be) and those limits."""
    variations, depth, note = 150, 60, 5_000
    replay = drawing_whot(300)
    line = replay.hands[0].actions
    actions = len(line)  # the limit is the main line's length
    assert actions >= 100
    line[0].note = "é" * note
    node = line[1]
    for _ in range(depth):  # a chain: each variation inside the one before
        twin = Action(node.seat, node.act)
        node.variations.append([twin])
        node = twin
    line[2].variations.extend([Action(line[2].seat, line[2].act)]
                              for _ in range(variations - depth))
    text = replay.to_json()
    data = json.loads(text)
    limits = Limits(max_file_bytes=len(text.encode("utf-8")), max_hands=1,
                    max_actions_per_hand=actions, max_variations=variations,
                    max_variation_depth=depth, max_note_chars=note,
                    max_nesting=strictjson.depth(data))
    return text, limits


def cli(*args: str) -> int:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    return int(done.value.code or 0)


def test_a_file_at_every_limit_at_once_validates_shows_pages_and_analyses(tmp_path, capsys):
    text, limits = at_every_limit()
    data = text.encode("utf-8")
    replay = cardlab.loads(data, "every.json", limits=limits)
    for field in dataclasses.fields(limits):  # each limit is reached: one less refuses it
        value = getattr(limits, field.name)
        if value == 1:  # max_hands: a limit cannot be 0
            continue
        with pytest.raises(LimitError) as caught:
            cardlab.loads(data, "every.json",
                          limits=dataclasses.replace(limits, **{field.name: value - 1}))
        assert caught.value.limit == field.name
    assert len(replay.variation_paths(1)) == limits.max_variations
    assert max(len(p) for p in replay.variation_paths(1)) == limits.max_variation_depth
    path = tmp_path / "every.json"
    path.write_bytes(data)
    flags = [f"--limit={f.name}={getattr(limits, f.name)}" for f in dataclasses.fields(limits)]
    assert cli("validate", str(path), *flags) == 0
    assert cli("show", str(path), *flags) == 0
    assert cli("show", str(path), "--seat", replay.seats[1], *flags) == 0
    out = tmp_path / "every.html"
    assert cli("html", str(path), "-o", str(out), *flags) == 0
    assert out.read_text(encoding="utf-8") == page_html(replay)
    capsys.readouterr()
    assert cli("html", str(path), "-o", str(out), "--page-budget", "1000", *flags) == 2
    err = capsys.readouterr().err
    assert "max_page_frames=1,000" in err and str(path) in err
    assert page_html(replay, seat=replay.seats[0]).endswith("</html>\n")
    done = analyse(replay, seat=0, rollouts=1, bot="random", progress=False)
    evaluated = [a for a in done.hands[0].actions if a.eval is not None]
    assert evaluated and all(a.seat == replay.seats[0] for a in evaluated)
    again = cardlab.loads(done.to_json())
    assert again == done
    assert cardlab.text.render(again).count("\n") >= limits.max_actions_per_hand
    assert page_html(again).endswith("</html>\n")
