"""The examples in the public API's docstrings run and show what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import cardlab

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(
    info.name for info in pkgutil.walk_packages(cardlab.__path__, prefix="cardlab.")
    if info.name != "cardlab.__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, monkeypatch):
    monkeypatch.chdir(ROOT)  # examples open replays/ by relative path
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"


def test_the_engine_has_examples():
    examples = 0
    for name in ("cardlab.cards", "cardlab.game", "cardlab.replay", "cardlab.cursor",
                 "cardlab.games.bobs_hat.engine", "cardlab.bots", "cardlab.text", "cardlab.errors"):
        finder = doctest.DocTestFinder()
        examples += sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
    assert examples >= 20
