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

from typing import Any

from ..cards import seeded_rng
from ..errors import OptionError
from ..game import Bot, State, get_game
from ..kernel import Player, RandomPlayer, TrickKernel
from ..playout import LazyRandom

KINDS = ("random", "heuristic")


def RandomBot(seed: int | str = 0) -> RandomPlayer:  # noqa: N802 (made as a class is)
    """A bot that chooses uniformly among the legal actions, from its own seeded generator
    (``rng``): the ``int(rng.random() * n)``-th of the ``n`` legal actions. It is the
    compiled :class:`~cardlab.kernel.RandomPlayer`, which the kernel calls without Python.

    >>> import cardlab
    >>> state = cardlab.new_game("whot", players=3, seed=1).state
    >>> RandomBot(2)(state, state.to_act()) in state.legal_actions()
    True
    """
    return RandomPlayer(seeded_rng(seed, "random-bot"))


def make_bot(kind: str, game: str, seed: int | str = 0) -> Bot:
    """A bot of ``kind`` ("random" or "heuristic") for ``game``, seeded by ``seed``."""
    info = get_game(game)  # an unknown game fails here, with the list of games
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return info.heuristic_bot(seed)
    raise OptionError(f"bots are {', '.join(KINDS)}, not {kind!r}")


class PlayerBot:
    """A bot whose choices are a compiled :class:`~cardlab.kernel.Player`'s (its ``player``,
    which the kernel calls without Python): a game's heuristic bot keeps its Python face,
    the ``rng`` it reads included, over it."""

    player: Player

    @property
    def rng(self) -> Any:
        """Where the bot's random numbers come from (anything with ``random()``)."""
        return self.player.rng

    @rng.setter
    def rng(self, rng: Any) -> None:
        self.player.rng = rng


def kernel_players(bots: list[Bot], state: State) -> list[Player] | None:
    """The bots as the kernel plays them (:func:`cardlab.kernel.play_hand`: a whole hand in
    one call), when ``state`` is a trick table and every bot is, or has as its ``player``, a
    :class:`~cardlab.kernel.Player`; else None (the bots are called one step at a time).

    >>> import cardlab
    >>> state = cardlab.new_game("teds-game", players=3, seed=1).state
    >>> bots = [make_bot(kind, "teds-game", seed=s) for s, kind in enumerate(
    ...     ["random", "heuristic", "random"])]
    >>> [type(p).__name__ for p in kernel_players(bots, state)]
    ['RandomPlayer', 'HeuristicPlayer', 'RandomPlayer']
    """
    if not isinstance(state, TrickKernel):
        return None
    players: list[Player] = []
    for bot in bots:
        player = bot if isinstance(bot, Player) else getattr(bot, "player", None)
        if not isinstance(player, Player):
            return None
        players.append(player)
    return players


__all__ = ["KINDS", "Bot", "LazyRandom", "PlayerBot", "RandomBot", "kernel_players", "make_bot"]
