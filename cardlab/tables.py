"""Plain tables of a replay, without pandas: what a lesson shows where pandas is missing.

:mod:`cardlab.dataframes` gives pandas frames, for a teacher to filter and plot; a browser
classroom (the JupyterLite site, docs/classroom.md) has no pandas, so the lessons use these
tables instead. A :class:`Table` is a list of rows (dicts) with its columns in order; a notebook
shows it as an HTML table, ``print`` as aligned text. It filters with :meth:`Table.where`,
picks columns with :meth:`Table.select` and gives its values with :meth:`Table.tolist` and
:meth:`Table.column`. The functions below have the names, arguments and columns of the frames
in :mod:`cardlab.dataframes` (one row per card played, per trick, per step...).

>>> import cardlab
>>> review = cardlab.example("norwegian-review")
>>> first = plays(review).where(hand=1, trick=1).select("seat", "card", "won")
>>> first.tolist()[0]
['Tone', 'blue20', True]
>>> print(first)
seat      card    won
Tone      blue20  True
Remo      blue14  False
Kathrine  blue9   False
Brad      blue5   False
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, overload

from . import dataframes
from .errors import CardlabError
from .replay import LinePath, Replay


class Table:
    """Rows (dicts) with their columns in order; ``index`` names the column shown first, in
    bold, as a frame's index is, or gives one label per row (a column without a name).

    Rows may be dicts, or sequences in the order of ``columns`` (which they then need).

    >>> t = Table([("a", 1.234), ("b", 2.0)], columns=["name", "value"], index="name")
    >>> t.round(1).tolist(), t.column("value"), len(t)
    ([['a', 1.2], ['b', 2.0]], [1.234, 2.0], 2)
    >>> print(Table([{"red": 2}, {"red": 0, "blue": 1}], index=["Ann", "Bo"]))
         red  blue
    Ann  2
    Bo   0    1
    """

    def __init__(self, rows: Iterable[Mapping[str, Any] | Sequence[Any]],
                 columns: Sequence[str] | None = None,
                 index: str | Sequence[Any] | None = None) -> None:
        listed = list(rows)
        if index is not None and not isinstance(index, str):
            labels = list(index)
            if len(labels) != len(listed):
                raise CardlabError(f"{len(labels)} index label(s) for {len(listed)} row(s)")
            if columns is None and not all(isinstance(row, Mapping) for row in listed):
                raise CardlabError("a table of sequences needs columns= to name them")
            named = [self._pair(columns or (), row) for row in listed]
            listed = [{"": label, **row} for label, row in zip(labels, named, strict=True)]
            columns = None if columns is None else ["", *columns]
            index = ""
        if columns is None:
            names: dict[str, None] = {}
            for row in listed:
                if not isinstance(row, Mapping):
                    raise CardlabError("a table of sequences needs columns= to name them")
                names.update(dict.fromkeys(row))
            columns = list(names)
        self.columns: list[str] = list(columns)
        self.rows: list[dict[str, Any]] = [
            dict(row) if isinstance(row, Mapping) else self._zip(row) for row in listed]
        if index is not None and index not in self.columns:
            raise CardlabError(f"the table has no column {index!r} to be its index "
                               f"(its columns: {', '.join(self.columns)})")
        self.index = index

    def _zip(self, row: Sequence[Any]) -> dict[str, Any]:
        return self._pair(self.columns, row)

    @staticmethod
    def _pair(columns: Sequence[str], row: Mapping[str, Any] | Sequence[Any]) -> dict[str, Any]:
        if isinstance(row, Mapping):
            return dict(row)
        if len(row) != len(columns):
            raise CardlabError(f"a row of {len(row)} value(s) in a table of "
                               f"{len(columns)} column(s): {', '.join(columns)}")
        return dict(zip(columns, row, strict=True))

    def _like(self, rows: list[dict[str, Any]], columns: list[str] | None = None) -> Table:
        columns = self.columns if columns is None else columns
        index = self.index if self.index in columns else None
        return Table(rows, columns, index)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)

    @overload
    def __getitem__(self, key: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, key: slice) -> Table: ...

    def __getitem__(self, key: int | slice) -> dict[str, Any] | Table:
        """A row (a dict) by its number, or a table of a slice of the rows."""
        if isinstance(key, slice):
            return self._like(self.rows[key])
        return self.rows[key]

    def where(self, test: Callable[[dict[str, Any]], Any] | None = None,
              **equal: Any) -> Table:
        """The rows where each column named in ``equal`` has that value, and (when given)
        ``test(row)`` is true."""
        unknown = [name for name in equal if name not in self.columns]
        if unknown:
            raise CardlabError(f"the table has no column {', '.join(unknown)} "
                               f"(its columns: {', '.join(self.columns)})")
        return self._like([row for row in self.rows
                           if all(row.get(k) == v for k, v in equal.items())
                           and (test is None or test(row))])

    def select(self, *columns: str) -> Table:
        """The table with only these columns, in this order."""
        unknown = [name for name in columns if name not in self.columns]
        if unknown:
            raise CardlabError(f"the table has no column {', '.join(unknown)} "
                               f"(its columns: {', '.join(self.columns)})")
        return self._like([{c: row.get(c) for c in columns} for row in self.rows],
                          list(columns))

    def column(self, name: str) -> list[Any]:
        """The values of one column, row by row."""
        if name not in self.columns:
            raise CardlabError(f"the table has no column {name!r} "
                               f"(its columns: {', '.join(self.columns)})")
        return [row.get(name) for row in self.rows]

    def tolist(self) -> list[list[Any]]:
        """Each row's values in the order of the columns (as a frame's ``values.tolist()``)."""
        return [[row.get(c) for c in self.columns] for row in self.rows]

    def round(self, digits: int = 0) -> Table:
        """The table with every float rounded to ``digits`` decimals."""
        return self._like([{k: round(v, digits) if isinstance(v, float) else v
                            for k, v in row.items()} for row in self.rows])

    def _ordered(self) -> list[str]:
        if self.index is None:
            return self.columns
        return [self.index, *(c for c in self.columns if c != self.index)]

    def __repr__(self) -> str:
        columns = self._ordered()
        cells = [[str(c) for c in columns]] + [[_text(row.get(c)) for c in columns]
                                               for row in self.rows]
        widths = [max(len(line[k]) for line in cells) for k in range(len(columns))]
        return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True))
                         .rstrip() for line in cells)

    def _repr_html_(self) -> str:
        columns = self._ordered()
        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in columns)
        body = "".join(
            "<tr>" + "".join(
                (f"<th>{html.escape(_text(row.get(c)))}</th>" if c == self.index else
                 f"<td>{html.escape(_text(row.get(c)))}</td>") for c in columns) + "</tr>"
            for row in self.rows)
        return (f'<table class="cardlab-table"><thead><tr>{head}</tr></thead>'
                f"<tbody>{body}</tbody></table>")


def _text(value: Any) -> str:
    """A cell as a reader sees it: nothing for a missing value, a minus sign as typed."""
    return "" if value is None else str(value)


def plays(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Table:
    """One row per card played (:func:`cardlab.dataframes.plays`' columns)."""
    return Table(dataframes.play_rows(replay, hand, path))


def tricks(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Table:
    """One row per completed trick (:func:`cardlab.dataframes.tricks`' columns)."""
    return Table(dataframes.trick_rows(replay, hand, path))


def steps(replay: Replay, lang: str = "en", hand: int | None = None,
          path: LinePath = ()) -> Table:
    """One row per step, with its note in ``lang`` (:func:`cardlab.dataframes.steps`)."""
    return Table(dataframes.step_rows(replay, lang, hand, path))


def seat_steps(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Table:
    """One row per step and seat (:func:`cardlab.dataframes.seat_steps`' columns)."""
    return Table(dataframes.seat_step_rows(replay, hand, path))


def hand_results(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Table:
    """One row per hand and seat (:func:`cardlab.dataframes.hand_results`' columns)."""
    return Table(dataframes.hand_result_rows(replay, hand, path), dataframes.HAND_COLUMNS)


def bid_results(replay: Replay) -> Table:
    """One row per bid made (:func:`cardlab.dataframes.bid_results`' columns)."""
    return Table(dataframes.bid_result_rows(replay), dataframes.BID_COLUMNS)


def score_components(replay: Replay) -> Table:
    """Per hand and seat, the points of each component (:func:`cardlab.dataframes.
    score_components`' columns)."""
    return Table(dataframes.component_rows(replay), dataframes.COMPONENT_COLUMNS)


def score_sheet(replay: Replay, hand: int | None = None, path: LinePath = ()) -> Table:
    """The score sheet: hand, line (score, sub-total, total) and one column per seat."""
    seats = list(replay.seats)
    return Table([{"hand": number, "line": kind, **dict(zip(seats, values, strict=True))}
                  for number, kind, values in dataframes.sheet_rows(replay, hand, path)],
                 ["hand", "line", *seats])


__all__ = ["Table", "plays", "tricks", "steps", "seat_steps", "hand_results", "bid_results",
           "score_components", "score_sheet"]
