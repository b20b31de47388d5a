"""The fixed pyarrow schemas of a simulation's two tables (see docs/simulations.md).

- the **hands** table: one row per (game, hand, seat); the columns every game has
  (:data:`cardlab.records.COMMON_COLUMNS`), then the game's own, which its package declares
  (:meth:`cardlab.game.Game.records`);
- the **games** table: one row per (game, seat): the seed, the length, the total, the winner.

>>> [f.name for f in hands_schema("teds-game")][-5:]
['bid', 'tricks', 'made', 'forbidden', 'hooked']
>>> [f.name for f in games_schema()]
['game', 'seed', 'seat', 'seat_index', 'bot', 'hands', 'actions', 'total', 'winner', 'share']
"""

from __future__ import annotations

from typing import Any

from ..game import get_game
from ..records import COMMON_COLUMNS, Column

SCHEMA_VERSION = 1

GAMES_COLUMNS: tuple[Column, ...] = (
    Column("game", "int32", False, "the game, counted from 1"),
    Column("seed", "int64", False, "the game's seed (cardlab play --seed reproduces it)"),
    Column("seat", "category", False, "the seat's name"),
    Column("seat_index", "int8", False, "the seat's number, from 0"),
    Column("bot", "category", False, "the bot in that seat"),
    Column("hands", "int16", False, "hands played in the game"),
    Column("actions", "int32", False, "actions in the whole game, all seats"),
    Column("total", "int32", False, "the seat's final total"),
    Column("winner", "bool", False, "the seat has the best total (ties: every tied seat)"),
    Column("share", "float64", False, "the seat's share of the win: 1/k for k tied winners, "
                                      "else 0"),
)


def _type(name: str) -> Any:
    import pyarrow as pa

    if name == "category":
        return pa.dictionary(pa.int8(), pa.string())
    return pa.bool_() if name == "bool" else getattr(pa, name)()


def _schema(columns: tuple[Column, ...]) -> Any:
    import pyarrow as pa

    return pa.schema([pa.field(column.name, _type(column.type), nullable=column.nullable)
                      for column in columns])


def hands_columns(game: str) -> tuple[Column, ...]:
    """The columns of the hands table of ``game``: the common ones, then the game's own.

    >>> [column.name for column in hands_columns("whot")][-3:]
    ['cards_left', 'won', 'ended']
    """
    return COMMON_COLUMNS + get_game(game).records().columns


def hands_schema(game: str) -> Any:
    """The pyarrow schema of the hands table of ``game``."""
    return _schema(hands_columns(game))


def games_schema() -> Any:
    """The pyarrow schema of the games table (the same for every game)."""
    return _schema(GAMES_COLUMNS)


def categories(game: str, spec_seats: list[str], bots: list[str]) -> dict[str, list[str]]:
    """The categories of the category columns, in a fixed order (so that frames read from
    a file equal the frames a run returns, whatever the row groups)."""
    out = {"seat": list(spec_seats), "bot": sorted(set(bots))}
    for column, cats in get_game(game).records().categories.items():
        out[column] = list(cats)
    return out
