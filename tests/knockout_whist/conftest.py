"""The fixture that registers Knock-out Whist for one test, and unregisters it after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardlab.game import Game, list_games

from . import registered


@pytest.fixture()
def knockout_whist() -> Iterator[Game]:
    """The game, registered while the test runs (then the registry is as it was)."""
    before = set(list_games())
    with registered() as game:
        yield game
    assert set(list_games()) == before
