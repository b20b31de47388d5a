"""Where a run's results go, and who writes them.

- **The tables.** ``-o results.parquet`` is a folder: a Parquet dataset, which pandas,
  pyarrow and dask read as one table. It holds one file per chunk of games, named by its
  games (``games-00001-01000.parquet``, one row group), and the dataset's metadata:
  ``_common_metadata`` (the schema, with the run and pandas' dtypes in its metadata) and
  ``_metadata`` (that, and every file's row group). The games table is the folder beside
  it, ``results.games.parquet``, made the same way.
- **The replays.** ``--replays DIR`` gets one batch per chunk, ``DIR/games-00001-01000.zip``
  (:mod:`cardlab.batches`).

Whoever plays a chunk writes its files, :func:`play_part`: a worker process of the pool, a
dask worker, or this process itself with ``workers=0``. Each file goes under a hidden name
into a folder of the run's own (a table's temporary folder, beside its target; a scratch
folder inside ``DIR``), and is fsynced there, once. The run's process only keeps the books
(:class:`Output`): as it takes each chunk, in game order, it renames the chunk's files to
their names; at the end it writes the two metadata files and puts each table's folder in
place of its target in one step (:class:`cardlab.files.AtomicFolder`), the games table
first. A killed run leaves the targets as they were (and hidden temporary folders that the
next run removes); an interrupted one writes the chunks it took. A worker that cannot see
the run's folders (a dask worker on a machine that does not share this file system) sends
its files' bytes back instead, and this process writes them: the encoding is still the
worker's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import re
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .. import batches
from ..errors import SaveError
from ..files import (
    AtomicFolder,
    check_folder_target,
    check_target,
    fsync_folder,
    is_descriptor,
    reason,
    remove_scratch,
    scratch_folder,
)
from ..records import Column
from .rows import play_chunk
from .schema import (
    GAMES_COLUMNS,
    SCHEMA_VERSION,
    categories,
    games_schema,
    hands_columns,
    hands_schema,
    pandas_metadata,
)
from .spec import Spec
from .summary import Tally

META_KEY = b"cardlab"
PART = re.compile(r"games-\d+-\d+\.parquet\Z")  # a chunk's file of a table
METADATA = ("_common_metadata", "_metadata")


def chunk_stem(spec: Spec, index: int) -> str:
    """The name of chunk ``index``'s files, by its games, with as many digits as the run's
    last game (so that the names sort in game order): its table parts add ``.parquet``,
    its batch of replays ``.zip``.

    >>> from cardlab.simulation.spec import make_spec
    >>> spec = make_spec("whot", games=250, chunk=100)
    >>> [chunk_stem(spec, i) for i in range(3)]
    ['games-001-100', 'games-101-200', 'games-201-250']
    """
    first, count = spec.chunks()[index]
    width = len(str(spec.games))
    return f"games-{first:0{width}d}-{first + count - 1:0{width}d}"


def table_keys(spec: Spec, columns: tuple[Column, ...]) -> dict[bytes, bytes]:
    """The metadata of a table's files: the run (key ``cardlab``) and pandas' dtypes (key
    ``pandas``, which ``pd.read_parquet`` reads)."""
    run = json.dumps({"schema": SCHEMA_VERSION, **spec.describe()}).encode()
    return {META_KEY: run, b"pandas": pandas_key(spec, columns)}


def pandas_key(spec: Spec, columns: tuple[Column, ...]) -> bytes:
    return pandas_metadata(columns, categories(spec.game, list(spec.seats), list(spec.bots)))


def _schemas(spec: Spec) -> tuple[Any, Any]:
    """The hands and games schemas with their files' metadata."""
    return (hands_schema(spec.game).with_metadata(table_keys(spec, hands_columns(spec.game))),
            games_schema().with_metadata(table_keys(spec, GAMES_COLUMNS)))


# -- in whoever plays the chunk ---------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Destination:
    """Where a chunk's files go, sent with each chunk: the tables' temporary folders (with
    the names to show in an error), the replays' scratch folder, and whether the tables
    themselves are wanted back (a run in Python returns them as frames). Absolute paths:
    a worker's working folder may not be this process's."""

    tables: tuple[tuple[str, str], tuple[str, str]] | None = None  # (folder, shown) x 2
    replays: tuple[str, str] | None = None  # (scratch folder, the replays folder shown)
    collect: bool = False
    compress: bool = False  # the replays deflated in their batches


@dataclasses.dataclass
class Part:
    """What comes back of a chunk: its place, the summary's sums, the files written (by
    kind: ``hands``, ``games``, ``replays``: where each was written) or their bytes (when
    the folders could not be reached), the tables' file metadata, and the tables if asked."""

    index: int
    first: int
    count: int
    hand_count: int
    tally: dict[tuple[str, str], list[Any]]
    files: dict[str, str]
    data: dict[str, bytes]
    metadata: dict[str, Any]
    hands: Any = None
    games: Any = None


def play_part(spec: Spec, index: int, dest: Destination, fault: str | None = None) -> Part:
    """Play chunk ``index``, write its files where ``dest`` says, and say what was done (the
    job every backend runs). ``fault``: the test-only fault injection
    (:func:`~cardlab.simulation.rows.fault_setting`)."""
    stem = chunk_stem(spec, index)
    files: dict[str, str] = {}
    data: dict[str, bytes] = {}
    metadata: dict[str, Any] = {}
    batch = None
    with contextlib.ExitStack() as stack:
        if dest.replays is not None:
            folder, shown = dest.replays
            out = stack.enter_context(_output(folder, f"{stem}.zip", shown, "replays", files,
                                              data))
            batch = stack.enter_context(batches.Writer(out, dest.compress))
        chunk = play_chunk(spec, index, dest.replays is not None, fault,
                           keep=None if batch is None else batch.add)
    if dest.tables is not None:
        for kind, table, schema, (folder, shown) in zip(
                ("hands", "games"), (chunk.hands, chunk.games), _schemas(spec), dest.tables,
                strict=True):
            metadata[kind] = _write_table(table, schema, folder, f"{stem}.parquet", shown,
                                          kind, files, data)
    tally = Tally()
    tally.add(chunk.games)
    return Part(index, chunk.first, chunk.count, chunk.hand_count, tally.groups, files, data,
                metadata, chunk.hands if dest.collect else None,
                chunk.games if dest.collect else None)


@contextlib.contextmanager
def _output(folder: str, name: str, shown: str, kind: str, files: dict[str, str],
            data: dict[str, bytes]) -> Iterator[IO[bytes]]:
    """A binary file to write ``name`` into: a hidden file in ``folder``, fsynced once
    written (its path kept in ``files``), or, when this process cannot see ``folder``, a
    buffer whose bytes go back (in ``data``). An operating-system error names ``shown``."""
    if not os.path.isdir(folder):  # its name is the run's own: another machine's files
        buffer = io.BytesIO()
        yield buffer
        data[kind] = buffer.getvalue()
        return
    path = os.path.join(folder, f".{name}.{os.getpid()}-{secrets.token_hex(4)}")
    with _naming(shown):
        with open(path, "xb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
    files[kind] = path


def _write_table(table: Any, schema: Any, folder: str, name: str, shown: str, kind: str,
                 files: dict[str, str], data: dict[str, bytes]) -> Any:
    """Write one chunk's table as a Parquet file (see :func:`_output`); its metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    collected: list[Any] = []
    with _naming(shown):
        if not os.path.isdir(folder):
            sink = pa.BufferOutputStream()
            with pq.ParquetWriter(sink, schema, metadata_collector=collected) as writer:
                writer.write_table(table)
            data[kind] = sink.getvalue().to_pybytes()
            return collected[0]
        path = os.path.join(folder, f".{name}.{os.getpid()}-{secrets.token_hex(4)}")
        with pq.ParquetWriter(path, schema, metadata_collector=collected) as writer:
            writer.write_table(table)
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    files[kind] = path
    return collected[0]


@contextlib.contextmanager
def _naming(name: str) -> Iterator[None]:
    """An operating-system error while writing ``name`` (a full disk) as a SaveError naming
    it: pyarrow's own error names no file, and the temporary name means nothing to anyone."""
    try:
        yield
    except SaveError:
        raise
    except OSError as err:
        raise SaveError(reason(err), file=name, errno=err.errno) from None


# -- in the run's process -----------------------------------------------------------------------

def table_problem(folder: Path) -> str | None:
    """Why an existing folder may not be replaced by a run's table: it holds something no
    run wrote (a run's table holds its parts, its metadata files and hidden temporary
    files). ``None``: it may (an empty folder too)."""
    try:
        names = sorted(os.listdir(folder))
    except OSError as err:
        return reason(err)
    other = [n for n in names if not (PART.match(n) or n in METADATA or n.startswith("."))]
    if other:
        return (f"is a folder that is not a simulation's table (it holds {other[0]!r}); "
                "give another name, or remove it")
    return None


def check_table(path: str | os.PathLike[str]) -> None:
    """Raise a SaveError now if a run's table cannot go to ``path`` (before any game is
    played): a folder that is not a run's table, a missing folder, a stream."""
    shown = os.fspath(path)
    if shown == os.devnull:
        return  # a run that keeps no table
    if is_descriptor(path):
        raise SaveError(f"is a stream; {_FOLDER}", file=shown)
    try:
        st = os.stat(path)
    except OSError:
        st = None  # missing, or what check_folder_target names below
    if st is not None and (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
        check_target(path, seekable=True)  # a FIFO or a device says what is wrong with it
        raise SaveError(f"is a device; {_FOLDER}, or /dev/null to keep none", file=shown)
    check_folder_target(path, table_problem)


_FOLDER = "a run's table is a folder of Parquet files: give a folder's name"


class Output:
    """The books of a run's files, kept by the run's process: the tables' temporary folders
    (or none: no ``-o``, or ``-o /dev/null``), the replays' scratch folder (or none), and
    the metadata of each chunk taken. See the module's docstring."""

    def __init__(self, spec: Spec, out: str | None, games_out: str | None,
                 replays: str | None, collect: bool, compress: bool = False) -> None:
        self.spec = spec
        self.collect = collect
        self.compress = compress
        self.folders: list[AtomicFolder] = []
        self.names = [] if out is None else [out, games_out or os.devnull]
        self.replays = None if replays is None else Path(os.path.abspath(replays))
        self.scratch: Path | None = None
        self.metadata: dict[str, dict[int, Any]] = {"hands": {}, "games": {}}
        try:
            if out is not None and out != os.devnull:
                for path in (out, games_out):
                    self.folders.append(AtomicFolder(path or os.devnull, table_problem))
            if self.replays is not None:
                self.replays.mkdir(parents=True, exist_ok=True)
                self.scratch = scratch_folder(self.replays, "batches")
        except BaseException:
            self.abort()
            raise

    def destination(self) -> Destination:
        tables = None
        if self.folders:
            hands, games = self.folders
            tables = ((os.path.abspath(hands.path), hands.shown),
                      (os.path.abspath(games.path), games.shown))
        replays = None
        if self.scratch is not None and self.replays is not None:
            replays = (os.fspath(self.scratch), os.fspath(self.replays))
        return Destination(tables, replays, self.collect, self.compress)

    def _target(self, kind: str, stem: str) -> tuple[Path, str]:
        if kind == "replays":
            assert self.replays is not None
            return self.replays / f"{stem}.zip", os.fspath(self.replays)
        folder = self.folders[0 if kind == "hands" else 1]
        return folder.path / f"{stem}.parquet", folder.shown

    def take(self, part: Part) -> None:
        """Put a chunk's files in place (a rename each, or its bytes written here)."""
        stem = chunk_stem(self.spec, part.index)
        for kind in ("games", "hands", "replays"):  # as the tables' folders: games first
            if kind not in part.files and kind not in part.data:
                continue
            target, shown = self._target(kind, stem)
            with _naming(shown):
                if kind in part.files:
                    os.replace(part.files[kind], target)
                else:
                    _write_here(target.parent, target.name, part.data[kind])
        for kind, meta in part.metadata.items():
            self.metadata[kind][part.index] = meta

    def commit(self) -> None:
        """Write the tables' metadata files and put the tables in place (the games table
        first: once the hands table is there, its games table is too)."""
        import pyarrow.parquet as pq

        if self.folders:
            for folder, schema, kind in zip(self.folders, _schemas(self.spec),
                                            ("hands", "games"), strict=True):
                with _naming(folder.shown):
                    for name in os.listdir(folder.path):  # what an untaken chunk left
                        if name.startswith("."):
                            os.unlink(folder.path / name)
                    pq.write_metadata(schema, folder.path / "_common_metadata")
                    taken = self.metadata[kind]
                    pieces = []
                    for index in sorted(taken):
                        taken[index].set_file_path(f"{chunk_stem(self.spec, index)}.parquet")
                        pieces.append(taken[index])
                    pq.write_metadata(schema, folder.path / "_metadata",
                                      metadata_collector=pieces)
            for folder in reversed(self.folders):
                folder.commit()
        if self.replays is not None:
            with _naming(os.fspath(self.replays)):
                fsync_folder(self.replays)  # the renames of the batches, once
        self._drop_scratch()

    def abort(self) -> None:
        """Remove the temporary folders: the targets are left as they were (batches already
        placed, of the chunks taken, stay)."""
        for folder in self.folders:
            folder.abort()
        self._drop_scratch()

    def _drop_scratch(self) -> None:
        if self.scratch is not None:
            remove_scratch(self.scratch)
            self.scratch = None


def _write_here(folder: Path, name: str, data: bytes) -> None:
    """Write a file a worker could not write (its bytes came back), under a hidden name,
    fsynced, then renamed to ``name``."""
    path = folder / f".{name}.{os.getpid()}-{secrets.token_hex(4)}"
    try:
        with open(path, "xb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(path, folder / name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
