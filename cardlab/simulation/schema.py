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

import functools
from collections.abc import Callable
from typing import Any

from ..errors import CardlabError
from ..game import get_game, list_games
from ..records import COMMON_COLUMNS, BidPart, Column

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


@functools.lru_cache(maxsize=64)
def _schema(columns: tuple[Column, ...]) -> Any:
    """The schema of ``columns``, made once (a schema never changes; every chunk's two
    tables are built with one)."""
    import pyarrow as pa

    return pa.schema([pa.field(column.name, _type(column.type), nullable=column.nullable)
                      for column in columns])


def hands_columns(game: str) -> tuple[Column, ...]:
    """The columns of the hands table of ``game``: the common ones, then the game's own.

    >>> [column.name for column in hands_columns("whot")][-3:]
    ['cards_left', 'won', 'ended']
    """
    return COMMON_COLUMNS + get_game(game).records().columns


def games_recording(reads: Callable[[set[str]], bool]) -> list[str]:
    """The registered games, by name, whose hands table has columns that ``reads`` accepts:
    the games whose simulations a chart of those columns is drawn from.

    >>> games_recording(lambda columns: "score" in columns) == sorted(list_games())
    True
    >>> games_recording(lambda columns: "no such column" in columns)
    []
    """
    games = []
    for name in sorted(list_games()):
        try:
            columns = {column.name for column in hands_columns(name)}
        except CardlabError:  # a game that declares no records is never simulated
            continue
        if reads(columns):
            games.append(name)
    return games


def bid_parts() -> dict[str, BidPart]:
    """The bids the registered games score on their own (:class:`cardlab.records.BidPart`),
    by the column of their points: what the bid charts read of a hands table (a column two
    games declare is read as the first of them by name declares it).

    >>> bid_parts()["points_fewest"].bid
    'fewest'
    """
    parts: dict[str, BidPart] = {}
    for name in sorted(list_games()):
        try:
            declared = get_game(name).records().bid_parts
        except CardlabError:  # a game that declares no records is never simulated
            continue
        for part in declared:
            parts.setdefault(part.column, part)
    return parts


def hands_schema(game: str) -> Any:
    """The pyarrow schema of the hands table of ``game``."""
    return _schema(hands_columns(game))


def games_schema() -> Any:
    """The pyarrow schema of the games table (the same for every game)."""
    return _schema(GAMES_COLUMNS)


def _pandas_column(column: Column, count: int) -> dict[str, Any]:
    # What pa.Schema.from_pandas writes for the frame cardlab.simulation.load returns.
    if column.type == "category":
        kind, dtype = "categorical", "int8"  # the dictionary's indices
        extra: dict[str, Any] | None = {"num_categories": count, "ordered": False}
    else:
        kind = "unicode" if column.type == "string" else column.type
        dtype = "object" if column.type == "string" else column.type
        if column.nullable and column.type.startswith("int"):
            dtype = column.type.replace("int", "Int")  # pandas' nullable integer: Int16
        extra = None
    return {"name": column.name, "field_name": column.name, "pandas_type": kind,
            "numpy_type": dtype, "metadata": extra}


def pandas_metadata(columns: tuple[Column, ...], cats: dict[str, list[str]]) -> bytes:
    """The ``pandas`` key of a table's Parquet metadata, as pyarrow's
    ``Schema.from_pandas`` writes it: with it, a plain ``pd.read_parquet`` gives the dtypes
    :func:`cardlab.simulation.load` gives (a nullable count as ``Int16``, not floats).

    Made from the columns alone, without pandas (a run from the command line does not import
    it) and without any version in it, so a seeded run writes the same bytes every time.

    >>> import json
    >>> meta = json.loads(pandas_metadata(GAMES_COLUMNS, {"seat": ["N", "S"], "bot": ["random"]}))
    >>> meta["columns"][2]
    {'name': 'seat', 'field_name': 'seat', 'pandas_type': 'categorical', 'numpy_type': 'int8', \
'metadata': {'num_categories': 2, 'ordered': False}}
    """
    import json

    return json.dumps({
        "index_columns": [], "column_indexes": [],
        "columns": [_pandas_column(c, len(cats.get(c.name, ()))) for c in columns],
        "attributes": {}}).encode()


def categories(game: str, spec_seats: list[str], bots: list[str]) -> dict[str, list[str]]:
    """The categories of the category columns, in a fixed order (so that frames read from
    a file equal the frames a run returns, whatever the row groups)."""
    out = {"seat": list(spec_seats), "bot": sorted(set(bots))}
    for column, cats in get_game(game).records().categories.items():
        out[column] = list(cats)
    return out
