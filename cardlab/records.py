"""What a simulation records of each hand: the part of the game contract that
:mod:`cardlab.simulation` reads (see docs/simulations.md).

A simulation's hands table has one row per (game, hand, seat): first the columns every game
has (:data:`COMMON_COLUMNS`), then the game's own. A game's package declares its own columns,
the recorder that reads them off its engine at the end of each hand, and the categories of
its category columns, as one :class:`Records` value (``cardlab/games/<game>/records.py``),
which :meth:`cardlab.game.Game.records` returns. The game's package imports this module, not
:mod:`cardlab.simulation` (imports point downward); nothing here imports numpy or pyarrow.

>>> import cardlab
>>> records = cardlab.get_game("whot").records()
>>> [column.name for column in records.columns]
['cards_left', 'won', 'ended']
>>> records.categories["ended"]
('won', 'blocked', 'cap')
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping
from typing import Any, Generic, NamedTuple, TypeVar


class Column(NamedTuple):
    """One column of a simulation table: its name, its type, whether it may be null, and
    what it means (the text docs/simulations.md gives).

    ``type`` is a pyarrow type's name (``int8`` ... ``int64``, ``float64``, ``bool``,
    ``string``) or ``category``: strings stored as a dictionary, a pandas category.
    """

    name: str
    type: str
    nullable: bool
    meaning: str


class BidPart(NamedTuple):
    """A bid that a game scores on its own, as its hands table records it, for the bid
    charts (:func:`cardlab.view.charts.bid_rows`): the ``column`` of its points (null on the
    rows of seats that did not make that bid; more than 0 when the bid was made, 0 or less
    when not), the bid's name (``bid``), the ``kind`` the charts may group it with, and the
    ``colour`` they draw it in (a CSS colour).

    >>> BidPart("points_fewest", "fewest", "fewest", "#ff9f1c").kind
    'fewest'
    """

    column: str
    bid: str
    kind: str
    colour: str


COLUMN_TYPES = frozenset({"int8", "int16", "int32", "int64", "float64", "bool", "string",
                          "category"})

COMMON_COLUMNS: tuple[Column, ...] = (
    Column("game", "int32", False, "the game, counted from 1 (Whot: a rubber)"),
    Column("hand", "int16", False, "the game's hand number, from 1 (Whot: the game in the "
                                   "rubber)"),
    Column("seat", "category", False, "the seat's name (as in cardlab.dataframes), a category"),
    Column("seat_index", "int8", False, "the seat's number, from 0, in the replay's seat "
                                        "order"),
    Column("bot", "category", False, "the bot in that seat in that game, a category"),
    Column("dealer", "bool", False, "the seat dealt this hand"),
    Column("from_dealer", "int8", False, "seats after the dealer, clockwise: 0 the dealer, 1 "
                                         "the dealer's left, ..."),
    Column("hand_size", "int16", False, "cards dealt to each seat"),
    Column("actions", "int32", False, "actions in this hand, all seats (the same on each "
                                      "row)"),
    Column("score", "int32", False, "what the hand added to the seat's total (Whot: penalty "
                                    "points, lower is better)"),
    Column("total", "int32", False, "the seat's total after the hand"),
)
"""The columns every game's hands table starts with; the simulation fills them."""

S = TypeVar("S")  # the game's State class


class HandRecorder(Generic[S]):
    """Collects one game's values during a chunk of simulated games, hand after hand.

    A simulation calls :meth:`hand_size` just after each deal, and :meth:`dealer`,
    :meth:`scores` and :meth:`ended` once the hand is over; they read the engine's values
    (nothing restates a rule) into plain lists, a few list extensions per hand. At the end of
    the chunk :meth:`build` turns the lists into the game's columns, once.

    A game whose compiled part reads those values itself gives the recorder a ``playout``
    instead (a :class:`cardlab.playout.Playout`, which keeps them as the kernel plays the
    hands, a whole game a call): the simulation reads the common values from it, and
    :meth:`build` the game's own; the four methods above are then not called.
    """

    playout: Any = None  # a compiled Playout that keeps each hand's values, or None

    def __init__(self, players: int) -> None:
        self.players = players

    def hand_size(self, state: S) -> int:
        """Cards dealt to each seat in the hand just dealt."""
        raise NotImplementedError

    def dealer(self, state: S) -> int:
        """The seat that dealt the hand that just ended."""
        raise NotImplementedError

    def scores(self, state: S) -> list[int]:
        """What the hand that just ended added to each seat's total (the score sheet's last
        row: ``totals()`` adds up the whole sheet, slower the longer the game)."""
        raise NotImplementedError

    def ended(self, state: S) -> None:
        """Keep the game's own values of the hand that just ended."""
        raise NotImplementedError

    def build(self, seat_index: Any, dealer: Any) -> dict[str, Any]:
        """The game's columns by name, one value per (game, hand, seat) row: numpy arrays,
        lists or pyarrow arrays (numpy and pyarrow are imported in here, never at import).
        ``seat_index`` and ``dealer`` are the rows' common columns, as numpy arrays."""
        raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class Records:
    """A game's own columns of the hands table, its :class:`HandRecorder` class (called with
    the number of players), the categories of its ``category`` columns in their fixed
    order (so that a frame read back from a file equals the frame a run returns), and the
    bids it scores on their own, each in a column of its points (:class:`BidPart`; none
    when a seat's one bid is recorded as ``bid`` and ``made``)."""

    columns: tuple[Column, ...]
    recorder: Callable[[int], HandRecorder[Any]]
    categories: Mapping[str, tuple[str, ...]] = dataclasses.field(
        default_factory=lambda: types.MappingProxyType({}))
    bid_parts: tuple[BidPart, ...] = ()

    def __post_init__(self) -> None:
        # a game's package is checked as it registers, not when a run writes its first file
        common = {column.name for column in COMMON_COLUMNS}
        names = [column.name for column in self.columns]
        for column in self.columns:
            if column.type not in COLUMN_TYPES:
                raise ValueError(f"column {column.name!r} has the type {column.type!r}; the "
                                 f"types are {', '.join(sorted(COLUMN_TYPES))}")
            if column.name in common or names.count(column.name) > 1:
                raise ValueError(f"column {column.name!r} is declared twice")
        for part in self.bid_parts:
            declared = [column for column in self.columns if column.name == part.column]
            if not declared or not declared[0].nullable or \
                    not declared[0].type.startswith("int"):
                raise ValueError(f"bid {part.bid!r} reads its points from {part.column!r}, "
                                 "which must be a nullable integer column of the game's")
        kinds = {column.name for column in self.columns if column.type == "category"}
        if kinds != set(self.categories):
            raise ValueError(f"the category columns ({', '.join(sorted(kinds)) or 'none'}) "
                             f"and the categories given "
                             f"({', '.join(sorted(self.categories)) or 'none'}) differ")


__all__ = ["COLUMN_TYPES", "COMMON_COLUMNS", "BidPart", "Column", "HandRecorder", "Records"]
