"""Every key of the viewer's movie is defined in docs/viewer.md ("The movie's keys"): the
keys are short, so the table is where a reader learns what ``st``, ``hn`` or ``lg`` hold."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import cardlab
from cardlab.view.movie import build_movie, iter_frames
from cardlab.view.page import page_movie

DOC = Path(__file__).resolve().parents[1] / "docs" / "viewer.md"
# Maps whose keys are data (a card code, a view, a seat number, a step, a language), not names.
DATA_KEYS = {"cards", "places", "views", "seats", "ev", "c", "n", "badges"}


def _keys(value: Any, out: set[str], parent: str = "") -> None:
    stack = [(value, parent)]
    while stack:
        node, key = stack.pop()
        if isinstance(node, dict):
            for k, child in node.items():
                if key not in DATA_KEYS:
                    out.add(k)
                stack.append((child, "" if key in DATA_KEYS and key != "ev" else k))
        elif isinstance(node, list):
            stack.extend((child, key) for child in node)


def _documented() -> set[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### The movie's keys"):text.index("## What a seat sees")]
    return set(re.findall(r"`(?:ev\[step\]\.|\.)?([a-z]+)`", section))


def test_every_movie_key_is_in_the_table():
    replays = [cardlab.example(name) for name in cardlab.example_names()]
    analysed = cardlab.example("norwegian-review")
    from cardlab.advisor import evaluate

    analysed.hands[0].actions[0].eval = evaluate(analysed, 1, 0, rollouts=4, seed=1).record()
    keys: set[str] = set()
    for replay in [*replays, analysed]:
        movie = build_movie(replay)
        _keys({k: v for k, v in movie.items() if k != "views"}, keys)
        for view, lines in movie["views"].items():
            for index, line in enumerate(lines):
                _keys({k: v for k, v in line.items() if k != "frames"}, keys)
                for frame in iter_frames(movie, index, view):
                    _keys(frame, keys)
        _keys(page_movie(replay, seat=replay.seats[0]), keys)
    missing = keys - _documented()
    assert not missing, f"movie keys not defined in docs/viewer.md: {sorted(missing)}"
    assert {"st", "hn", "ex", "res", "pts", "lg", "tk"} <= keys  # the walk saw the frames
