"""What a simulation runs: the game and its rules, the bots by seat, one seed per game.

Everything a worker needs to play its games is in a :class:`Spec`, a small picklable value:
a game is played from ``(spec, game number)`` alone, so the results do not depend on which
process plays it, or when.

>>> spec = make_spec("teds-game", players=5, games=3, bots="heuristic,random", seed=7)
>>> spec.seat_bots(1), spec.seat_bots(2)
(['heuristic', 'random', 'heuristic', 'random', 'heuristic'], \
['random', 'heuristic', 'random', 'heuristic', 'random'])
>>> spec.game_seed(1) == make_spec("teds-game", players=5, games=9, seed=7).game_seed(1)
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..bots import KINDS, make_bot
from ..cards import seeded_words
from ..errors import OptionError, brief
from ..game import Rules, get_game
from ..table import default_seats

SEATINGS = ("rotate", "fixed")
MAX_CHUNK = 1000  # games per chunk at most: a chunk's rows are held whole in memory
CHUNKS_WANTED = 64  # chunks per run when the run is small enough to give each a few games
MAX_GAMES = 10**9  # a bound on --games (the game numbers are int32 in the tables)


@dataclasses.dataclass(frozen=True)
class Spec:
    """A validated simulation: the game, its full rules options, the seats and their bots.

    ``bots`` is the list given (``--bots``); :meth:`seat_bots` says which bot sits where in
    each game. Games count from 1, as hands do.
    """

    game: str
    options: Mapping[str, Any]  # every rules option written out (players among them)
    seats: tuple[str, ...]
    bots: tuple[str, ...]
    seating: str
    seed: int | str
    games: int
    chunk: int  # games per chunk (the unit of work, of a row group, of a rerun)

    @property
    def players(self) -> int:
        return len(self.seats)

    def rules(self) -> Rules:
        return get_game(self.game).rules(**self.options)

    def game_seed(self, game: int) -> int:
        """The seed of game ``game`` (from 1): a 63-bit number from ``(seed, game)`` alone."""
        high, low = seeded_words(self.seed, "simulate", game, count=2)
        return ((high << 32) | low) >> 1  # fits a signed 64-bit column

    def seat_bots(self, game: int) -> list[str]:
        """The bot of each seat in game ``game``.

        ``fixed``: seat ``s`` has ``bots[s % len(bots)]`` in every game (the list cycles over
        the seats). ``rotate`` (the default): the list moves one seat on each game, seat ``s``
        having ``bots[(s + game - 1) % len(bots)]``; over any ``len(bots)`` games in a row
        each seat has each bot once, so no bot keeps a seat (nor the first deal).
        """
        m = len(self.bots)
        shift = (game - 1) if self.seating == "rotate" else 0
        return [self.bots[(s + shift) % m] for s in range(self.players)]

    def chunks(self) -> list[tuple[int, int]]:
        """``(first game, count)`` of every chunk, in game order."""
        return [(first, min(self.chunk, self.games - first + 1))
                for first in range(1, self.games + 1, self.chunk)]

    def describe(self) -> dict[str, Any]:
        """The run as JSON-able data (stored in the Parquet files' metadata)."""
        return {"game": self.game, "options": dict(self.options), "seats": list(self.seats),
                "bots": list(self.bots), "seating": self.seating, "seed": self.seed,
                "games": self.games, "chunk": self.chunk}


def default_chunk(games: int) -> int:
    """Games per chunk: about :data:`CHUNKS_WANTED` chunks, at most :data:`MAX_CHUNK` games.

    It depends on the number of games alone, never on the workers, so every backend writes
    the same row groups.

    >>> default_chunk(10), default_chunk(6400), default_chunk(10**6)
    (1, 100, 1000)
    """
    return max(1, min(MAX_CHUNK, math.ceil(games / CHUNKS_WANTED)))


def parse_bots(bots: str | Sequence[str]) -> tuple[str, ...]:
    """``"heuristic,random"`` or ``["heuristic", "random"]`` → a tuple of bot kinds."""
    kinds = bots.split(",") if isinstance(bots, str) else list(bots)
    out = tuple(k.strip() if isinstance(k, str) else k for k in kinds)
    if not out or any(not isinstance(k, str) or not k for k in out):
        raise OptionError(f"--bots names the bots for the seats, comma-separated, from "
                          f"{', '.join(KINDS)}; not {brief(bots)}")
    return out


def make_spec(game: str, *, players: int | None = None, games: int = 100,
              bots: str | Sequence[str] = "heuristic", seed: int | str = 0,
              options: Mapping[str, Any] | None = None, seating: str = "rotate",
              chunk: int | None = None) -> Spec:
    """Check every argument of a simulation (the bad ones raise a ``CardlabError``)."""
    info = get_game(game)  # an unknown game: the list of games
    info.records()  # a game that declares no records cannot be simulated: say so first
    given = dict(options or {})
    for name in ("game", "seed", "seats", "meta", "games", "bots"):
        if name in given:
            raise OptionError(f"{name} is not a rules option of {game}"
                              + (f"; use --{name}" if name != "meta" else ""))
    if "players" in given:
        if players is not None:
            raise OptionError("the number of players is given twice: --players and "
                              "--option players")
        players = given.pop("players")
    if players is not None:
        given["players"] = players
    # bots play: the simulations' options (Whot's safety cap) unless the user set them
    rules = info.rules(**{**info.rules_class.SIMULATION_OPTIONS, **given})
    if isinstance(games, bool) or not isinstance(games, int):
        raise OptionError(f"--games is a whole number of games, not {brief(games)}")
    if games <= 0:
        raise OptionError(f"--games must be at least 1, not {games}")
    if games > MAX_GAMES:
        raise OptionError(f"--games is at most {MAX_GAMES:,}, not {games:,}")
    if seating not in SEATINGS:
        raise OptionError(f"seating is {' or '.join(SEATINGS)}, not {brief(seating)}")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise OptionError(f"the seed is an integer or a text, not {brief(seed)}")
    kinds = parse_bots(bots)
    if seating == "fixed" and len(kinds) > rules.players:
        raise OptionError(f"--bots names {len(kinds)} bots for {rules.players} seats: with "
                          f"fixed seating the last {len(kinds) - rules.players} would never "
                          "play")
    for kind in dict.fromkeys(kinds):
        make_bot(kind, game)  # an unknown bot, or none for this game, fails here
    if chunk is None:
        chunk = default_chunk(games)
    elif isinstance(chunk, bool) or not isinstance(chunk, int) or chunk <= 0:
        raise OptionError(f"chunk is a whole number of games, at least 1, not {brief(chunk)}")
    return Spec(game=game, options=dict(rules.options),
                seats=tuple(default_seats(rules.players)), bots=kinds, seating=seating,
                seed=seed, games=games, chunk=chunk)
