"""Bots: seeded policies that choose an action for a seat.

A bot is any callable ``bot(state, seat) -> action`` (an int from ``state.legal_actions()``).
Bots only read what their seat may know: their own hand and the public table.

>>> import cardlab
>>> from cardlab.bots import make_bot
>>> table = cardlab.new_game("bobs-hat", players=4, seed=1)
>>> table.play([make_bot("heuristic", "bobs-hat", seed=s) for s in range(4)])
>>> table.state.is_game_over()
True
"""

from __future__ import annotations

import random

from ..cards import seeded_rng
from ..errors import OptionError
from ..game import Bot, State, get_game

KINDS = ("random", "heuristic")


class RandomBot:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng: random.Random = seeded_rng(seed, "random-bot")

    def __call__(self, state: State, seat: int) -> int:
        actions = state.legal_actions()
        return actions[int(self.rng.random() * len(actions))]


def make_bot(kind: str, game: str, seed: int | str = 0) -> Bot:
    """A bot of ``kind`` ("random" or "heuristic") for ``game``, seeded by ``seed``."""
    info = get_game(game)  # an unknown game fails here, with the list of games
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return info.heuristic_bot(seed)
    raise OptionError(f"bots are {', '.join(KINDS)}, not {kind!r}")


__all__ = ["KINDS", "Bot", "RandomBot", "make_bot"]
