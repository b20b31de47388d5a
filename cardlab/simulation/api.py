"""``cardlab.simulate``: play many games with bots, and get tidy tables back.

>>> import cardlab
>>> result = cardlab.simulate("teds-game", players=4, games=3, bots="heuristic,random",
...                           seed=1, options={"start_size": 3}, workers=0, progress=False)
>>> result.hands.shape, result.games.shape  # 3 games of 5 hands (3, 2, 1, 2, 3), 4 seats
((60, 16), (12, 10))
>>> list(result.summary().index)[:2]
[('bot', 'heuristic'), ('bot', 'random')]
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..dataframes import require
from ..errors import CardlabError, OptionError, SaveError, brief
from ..game import get_game
from . import summary as _summary
from .backends import Dask, Pool, Serial, connect, cpu_count
from .output import META_KEY, Output, Part, check_table, pandas_key
from .schema import (
    GAMES_COLUMNS,
    categories,
    games_schema,
    hands_columns,
    hands_schema,
)
from .spec import Spec, make_spec


def _folder_name(path: str | os.PathLike[str]) -> str:
    """A table's folder as given, without a trailing slash (``-o runs/x/`` is ``runs/x``)."""
    text = os.fspath(path)
    return text.rstrip("/" + os.sep) or text


def games_path(out: str | os.PathLike[str]) -> str:
    """Where the games table goes beside the hands table ``out``.

    >>> games_path("results.parquet"), games_path("runs/x/")
    ('results.games.parquet', 'runs/x.games.parquet')
    """
    text = _folder_name(out)
    if text in (os.devnull,):
        return text
    stem = text[: -len(".parquet")] if text.endswith(".parquet") else text
    return f"{stem}.games.parquet"


@dataclasses.dataclass
class SimulationResult:
    """The tables of a run, as pandas DataFrames, and how it went.

    ``hands``: one row per (game, hand, seat); ``games``: one row per (game, seat) — see
    docs/simulations.md for every column. ``interrupted`` is True when Ctrl-C stopped the run
    (the tables then hold the games that finished); ``reruns`` counts chunks played again
    after their worker died.
    """

    spec: Spec
    hands: Any
    games: Any
    reruns: int = 0
    interrupted: bool = False

    def summary(self) -> Any:
        """Per bot and per seat: n (seat-games), the mean final total with its 95%
        confidence interval (ci_low, ci_high), and the win rate (a shared win counts 1/k)."""
        tally = _summary.Tally()
        tally.add(self.games)
        return _summary.frame(tally.rows(_order(self.spec)))


def _order(spec: Spec) -> dict[str, list[str]]:
    return {"bot": sorted(set(spec.bots)), "seat": list(spec.seats)}


def to_frame(table: Any, spec: Spec) -> Any:
    """A pyarrow table of a run as a DataFrame, as pandas reads the run's Parquet files
    (through their pandas metadata: a nullable count is pandas' ``Int16``, not floats with
    NaN), the categories in their fixed order."""
    pd = require("pandas", "sim")
    columns = GAMES_COLUMNS if table.schema.names == [c.name for c in GAMES_COLUMNS] \
        else hands_columns(spec.game)
    meta = {**(table.schema.metadata or {}), b"pandas": pandas_key(spec, columns)}
    frame = table.replace_schema_metadata(meta).to_pandas()
    for column, cats in categories(spec.game, list(spec.seats), list(spec.bots)).items():
        if column in frame:
            series = frame[column]
            if not isinstance(series.dtype, pd.CategoricalDtype):
                series = series.astype(str).astype(pd.CategoricalDtype(cats))
            frame[column] = series.cat.set_categories(cats)  # the same values, in this order
    return frame


def _backend(spec: Spec, workers: int | None, scheduler: Any,
             connect_timeout: float) -> Any:
    if scheduler is not None:
        if workers is not None:
            raise OptionError("--workers and --scheduler both say who plays: give one")
        client = connect(scheduler, connect_timeout) if isinstance(scheduler, str) \
            else scheduler
        return Dask(spec, client), client if isinstance(scheduler, str) else None
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 0):
        raise OptionError(f"--workers is a whole number, 0 (this process) or more, not "
                          f"{brief(workers)}")
    count = cpu_count() if workers is None else workers
    count = min(count, len(spec.chunks()))
    if count <= 1 and workers != 1:
        return Serial(spec), None  # one chunk, or workers=0: no pool to start
    return Pool(spec, max(1, count)), None


def _progress(total: int, enabled: bool, notebook: bool) -> Any:
    if not enabled:
        return None
    if notebook:
        from tqdm.auto import tqdm
    else:
        from tqdm import tqdm
    return tqdm(total=total, unit="game", desc="simulate", smoothing=0.1)


def run(spec: Spec, *, workers: int | None = None, scheduler: Any = None,
        replays: str | os.PathLike[str] | None = None, compress_replays: bool = False,
        out: str | os.PathLike[str] | None = None,
        games_out: str | os.PathLike[str] | None = None, collect: bool = True,
        progress: bool = True, notebook: bool = True, connect_timeout: float = 10.0,
        on_chunk: Any = None, handle_sigterm: bool = False,
        ) -> tuple[SimulationResult | None, _summary.Tally, dict[str, Any]]:
    """Play ``spec``; write what is asked; return the frames (with ``collect``), the tally and
    what happened (``games`` finished, ``written`` paths, ``interrupted``)."""
    extra = "sim" if scheduler is None else "scale"  # what this run is installed with
    pa = require("pyarrow", extra)
    if collect:
        require("pandas", extra)  # only the frames need it: a CLI run streams pyarrow tables
    folder = None if replays is None else Path(replays)
    if compress_replays and folder is None:
        raise OptionError("compressing the replays needs a folder to save them in "
                          "(--replays DIR)")
    if folder is not None and folder.exists() and not folder.is_dir():
        raise SaveError("is not a folder", file=os.fspath(folder))
    hands_name = games_name = None
    if out is not None:
        hands_name = _folder_name(out)
        games_name = games_path(hands_name) if games_out is None else _folder_name(games_out)
        for path in (hands_name, games_name):
            check_table(path)  # before any game: a Parquet table is a folder of files
        if os.path.abspath(hands_name) == os.path.abspath(games_name) and \
                hands_name != os.devnull:
            raise OptionError("the hands table and the games table would be the same folder")
    backend, own_client = _backend(spec, workers, scheduler, connect_timeout)
    output: Output | None = None
    tally = _summary.Tally()
    hands: list[Any] = []
    games: list[Any] = []
    info: dict[str, Any] = {"games": 0, "written": [], "interrupted": False, "signal": None}
    bar = None
    guard = Signals(terminate=handle_sigterm)
    try:
        with guard:
            output = Output(spec, hands_name, games_name,
                            None if folder is None else os.fspath(folder), collect,
                            compress_replays)
            sink = output
            bar = _progress(spec.games, progress, notebook)

            def take(part: Part) -> None:
                sink.take(part)  # its files put in place: a rename each
                if collect:
                    hands.append(part.hands)
                    games.append(part.games)
                tally.merge(part.tally)
                info["games"] += part.count
                if bar is not None:
                    bar.update(part.count)
                if on_chunk is not None:
                    on_chunk(part)

            try:
                for part in backend.chunks(output.destination()):
                    with guard.deferred():  # a chunk is taken whole, or not at all
                        take(part)
            except KeyboardInterrupt:
                with guard.deferred(drop=True):  # a second Ctrl-C: the same ending
                    info["interrupted"] = True
                    info["signal"] = guard.received[0] if guard.received else None
                    backend.close()
                    for part in backend.finished():  # finished out of order: they count
                        take(part)
            with guard.deferred(drop=not info["interrupted"]):
                backend.close(now=info["interrupted"])
                if info["games"]:
                    output.commit()
                    info["written"] = output.names
                else:
                    output.abort()
                output = None
    except BaseException:
        backend.close()
        if output is not None:
            output.abort()
        raise
    finally:
        if bar is not None:
            bar.close()
        if own_client is not None:
            own_client.close()
    result = None
    if collect:
        result = SimulationResult(
            spec,
            to_frame(pa.concat_tables(hands) if hands else hands_schema(spec.game)
                     .empty_table(), spec),
            to_frame(pa.concat_tables(games) if games else games_schema().empty_table(),
                     spec),
            reruns=backend.reruns, interrupted=info["interrupted"])
    info["reruns"] = backend.reruns
    return result, tally, info


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: the run stops and writes the games that finished."""


class Signals:
    """Ctrl-C (and, with ``terminate``, SIGTERM) while a run is going.

    The signal raises ``KeyboardInterrupt`` (or :class:`Terminated`) as usual, except inside
    :meth:`deferred`, where it waits for the block's end: a chunk is written to both tables
    or to neither. Handlers can only be set in the main thread; elsewhere Python's own
    Ctrl-C handling stays.
    """

    def __init__(self, terminate: bool = False) -> None:
        self.signals = [signal.SIGINT] + ([signal.SIGTERM] if terminate else [])
        self.received: list[int] = []
        self.depth = 0
        self.pending: int | None = None
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> Signals:
        if threading.current_thread() is threading.main_thread():
            for signum in self.signals:
                self.previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        self.previous.clear()

    @staticmethod
    def _error(signum: int) -> KeyboardInterrupt:
        return Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    def _handle(self, signum: int, frame: Any) -> None:
        self.received.append(signum)
        if self.depth:
            self.pending = signum
            return
        raise self._error(signum)

    @contextlib.contextmanager
    def deferred(self, drop: bool = False) -> Iterator[None]:
        """Hold signals until the block ends (then raise; with ``drop``, forget them)."""
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
        if self.depth == 0 and self.pending is not None:
            signum, self.pending = self.pending, None
            if not drop:
                raise self._error(signum)


def simulate(game: str, *, players: int | None = None, games: int = 100,
             bots: str | Sequence[str] = "heuristic", seed: int | str = 0,
             options: Mapping[str, Any] | None = None, seating: str = "rotate",
             workers: int | None = None, scheduler: Any = None,
             replays: str | os.PathLike[str] | None = None, compress_replays: bool = False,
             out: str | os.PathLike[str] | None = None, progress: bool = True,
             chunk: int | None = None, connect_timeout: float = 10.0) -> SimulationResult:
    """Play ``games`` games of ``game`` with bots and return the tidy tables.

    The arguments are those of ``cardlab simulate``: ``players``; ``bots`` (kinds by seat,
    comma-separated or a list, cycling over the seats; ``seating="rotate"`` moves them one
    seat on each game, ``"fixed"`` keeps them); ``seed`` (each game's seed derives from it and
    the game's number); ``options`` (rules options; bots play with the game's simulation
    options, Whot's safety cap, unless set); ``workers`` (``None``: a process pool over all
    cores; ``0``: this process) or ``scheduler`` (a dask.distributed ``Client``, or a
    scheduler's address); ``replays`` (a folder: each game saved as a replay, a zip of them
    per chunk; ``compress_replays``: deflated, about 7 times smaller, at more than the cost
    of writing them); ``out`` (the hands table as a folder of Parquet files, the games table
    beside it: :func:`games_path`; docs/simulations.md#files); ``progress`` (a tqdm bar, a
    widget in a notebook).

    The results are the same, row for row, whatever plays them (see docs/simulations.md).
    """
    spec = make_spec(game, players=players, games=games, bots=bots, seed=seed,
                     options=options, seating=seating, chunk=chunk)
    result, _, _ = run(spec, workers=workers, scheduler=scheduler, replays=replays,
                       compress_replays=compress_replays, out=out, progress=progress,
                       notebook=True, connect_timeout=connect_timeout)
    assert result is not None
    if result.interrupted:
        import sys

        print(f"cardlab: interrupted: the result holds the {len(result.games) // spec.players:,} "
              f"games that finished, of {spec.games:,}", file=sys.stderr)
    return result


def load(path: str | os.PathLike[str],
         games_out: str | os.PathLike[str] | None = None) -> SimulationResult:
    """Read a run's tables back: the hands table at ``path`` (a folder of Parquet files, or
    an older cardlab's single file), the games table beside it."""
    pq = require("pyarrow.parquet")
    games_file = games_path(path) if games_out is None else games_out
    try:
        hands = pq.read_table(os.fspath(path))
        games = pq.read_table(os.fspath(games_file))
    except (OSError, ValueError) as err:
        raise CardlabError(f"{os.fspath(path)}: cannot read the simulation's tables: "
                           f"{str(err).splitlines()[0] if str(err) else err}") from None
    meta = (hands.schema.metadata or {}).get(META_KEY)
    if meta is None:
        raise CardlabError(f"{os.fspath(path)}: not a cardlab simulation (no cardlab "
                           "metadata)")
    data = json.loads(meta)
    get_game(data["game"])
    spec = Spec(game=data["game"], options=data["options"], seats=tuple(data["seats"]),
                bots=tuple(data["bots"]), seating=data["seating"], seed=data["seed"],
                games=data["games"], chunk=data["chunk"])
    return SimulationResult(spec, to_frame(hands, spec), to_frame(games, spec))
