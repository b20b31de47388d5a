"""Batches of replays: many replay files in one zip archive, and how to name one of them.

``cardlab simulate --replays DIR`` writes the replays of each chunk of games as one batch,
``DIR/games-001-100.zip``. A batch is an ordinary zip archive whose members are replay
files, each byte for byte the file :meth:`cardlab.Replay.save` writes (``unzip`` gives
them back as files). A replay inside a batch is named by the batch's path, a slash and the
member's name, as if the archive were a folder::

    cardlab show replays/games-001-100.zip/game-012.json

:func:`cardlab.load` and every command that reads a replay (``show``, ``validate``,
``html``, ``analyse``) take such a name, and their errors name the replay the same way,
then the JSON path: ``replays/games-001-100.zip/game-012.json:$.hands[3]: ...``.
:func:`names` lists the replays of a batch by those names.

>>> import io, cardlab
>>> text = cardlab.example("whot-example").to_json()
>>> buffer = io.BytesIO()
>>> with Writer(buffer) as batch:
...     batch.add("game-1.json", text)
>>> import zipfile
>>> zipfile.ZipFile(buffer).read("game-1.json").decode() == text
True
"""

from __future__ import annotations

import io
import os
import stat
import zipfile
import zlib
from pathlib import Path
from types import TracebackType
from typing import IO

from .errors import ReplayError
from .limits import Limits, exceeded

SUFFIX = ".zip"
"""How a batch's name ends: only such a file is looked into when a path goes through it."""
LEVEL = 1  # deflate's fastest level, when asked for: replays shrink about 7x
_STAMP = (1980, 1, 1, 0, 0, 0)  # every member's time (zip's first day): a seeded run's batch
# is the same bytes whenever, and wherever, it is written
_SPOOL = 1 << 20  # bytes of members kept in memory before they go to the file


class Writer:
    """Write a batch into ``out`` (a binary file opened for writing), one replay at a time:
    ``add(name, text)``, then ``close()`` (or use it as a context manager). Each member is
    the text as UTF-8, with a fixed time and mode ``rw-r--r--``: stored as it is, or, with
    ``compress``, deflated (about 7 times smaller, and dearer than the rest of writing the
    replay: a simulation's choice, ``--compress-replays``).

    The members go to ``out`` a megabyte at a time (:class:`_Spool`): the zip writer goes
    back to rewrite each member's header, which on a file is a seek and a write more."""

    def __init__(self, out: IO[bytes], compress: bool = False) -> None:
        self.spool = _Spool(out)
        self.archive = zipfile.ZipFile(self.spool, "w")
        self.method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED

    def add(self, name: str, text: str) -> None:
        info = zipfile.ZipInfo(name, _STAMP)
        info.compress_type = self.method
        info.create_system = 3  # Unix: the mode below is read by unzip
        info.external_attr = 0o644 << 16
        self.archive.writestr(info, text.encode("utf-8"), compresslevel=LEVEL)
        self.spool.spill(_SPOOL)

    def close(self) -> None:
        self.archive.close()
        self.spool.spill(0)

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class _Spool:
    """The tail of a file kept in memory: what the zip writer writes lands in a buffer, and
    the buffer goes to the file (:meth:`spill`) between members, once it holds ``limit``
    bytes; the writer never seeks back into a member already spilled."""

    def __init__(self, out: IO[bytes]) -> None:
        self.out = out
        self.base = out.tell() if out.seekable() else 0  # what the file holds already
        self.buffer = io.BytesIO()

    def write(self, data: bytes) -> int:
        return self.buffer.write(data)

    def tell(self) -> int:
        return self.base + self.buffer.tell()

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        if whence == os.SEEK_END:  # the end: the buffer's
            return self.base + self.buffer.seek(offset, os.SEEK_END)
        if whence == os.SEEK_CUR:
            offset += self.tell()
        if offset < self.base:
            raise io.UnsupportedOperation("the spool cannot seek into what it has spilled")
        return self.base + self.buffer.seek(offset - self.base)

    def seekable(self) -> bool:
        return True

    def flush(self) -> None:
        pass  # the buffer goes to the file between members (spill)

    def close(self) -> None:
        pass  # the file is its opener's

    def spill(self, limit: int) -> None:
        """Write the buffer to the file when it holds ``limit`` bytes or more."""
        buffer = self.buffer
        size = len(buffer.getbuffer())
        if size < limit or not size:
            return
        self.out.write(buffer.getbuffer())
        self.base += size
        self.buffer = io.BytesIO()


def split(path: str | os.PathLike[str]) -> tuple[str, str] | None:
    """``(batch, member)`` when ``path`` names a replay inside a batch: the nearest part of
    it that exists is a regular file whose name ends with ``.zip``; else ``None``.

    >>> split("no/such/folder/game.json") is None
    True
    """
    whole = Path(path)
    for parent in whole.parents:
        try:
            info = os.stat(parent)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except (OSError, ValueError):
            return None
        if stat.S_ISREG(info.st_mode) and parent.name.lower().endswith(SUFFIX):
            return os.fspath(parent), whole.relative_to(parent).as_posix()
        return None
    return None


def is_batch(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` (a regular file) is named as a batch is: it ends with ``.zip``."""
    return os.fspath(path).lower().endswith(SUFFIX)


def read(batch: str, member: str, limits: Limits, shown: str) -> bytes:
    """The bytes of replay ``member`` of ``batch``; a :class:`~cardlab.errors.ReplayError`
    naming ``shown`` (the name as given) if the batch or the member cannot be read. Both
    the batch and the member must be within ``limits.max_file_bytes`` (the member's size
    is checked before it is unpacked, and again as it is)."""
    limit = limits.max_file_bytes
    try:
        with open(batch, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > limit:
                raise exceeded("max_file_bytes", limit, f"the batch has {size:,} bytes",
                               file=shown)
            with _open(file, batch, shown) as archive:
                try:
                    info = archive.getinfo(member)
                except KeyError:
                    raise ReplayError(_missing(archive, batch, member), file=shown) from None
                if info.file_size > limit:
                    raise exceeded("max_file_bytes", limit,
                                   f"the replay has {info.file_size:,} bytes", file=shown)
                with archive.open(info) as data:
                    out = data.read(limit + 1)
    except ReplayError:
        raise
    except OSError as err:
        from .files import reason

        raise ReplayError(f"cannot read the file: {reason(err)}", file=shown) from None
    except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError,
            ValueError) as err:  # a damaged member, an encrypted one, an unknown method
        raise ReplayError(f"cannot unpack it from the batch {batch}: {err}",
                          file=shown) from None
    if len(out) > limit:  # the archive said less than it holds
        raise exceeded("max_file_bytes", limit, f"the replay has more than {limit:,} bytes",
                       file=shown)
    return out


def _open(file: IO[bytes], batch: str, shown: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(file)
    except zipfile.BadZipFile:
        raise ReplayError(f"{batch} is not a batch of replays (a zip archive), so nothing "
                          "is inside it", file=shown) from None


def _missing(archive: zipfile.ZipFile, batch: str, member: str) -> str:
    inside = [name for name in archive.namelist() if not name.endswith("/")]
    held = (f"it holds {inside[0]}" if len(inside) == 1 else
            f"it holds {len(inside)} replays, {inside[0]} to {inside[-1]}" if inside else
            "it is empty")
    return f"no replay called {member!r} in the batch {batch}; {held}"


def names(path: str | os.PathLike[str]) -> list[str]:
    """The replays of the batch at ``path``, named as :func:`cardlab.load` takes them, in the
    batch's order.

    >>> import cardlab, tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "b.zip"), "wb") as out, Writer(out) as batch:
    ...     batch.add("game-1.json", cardlab.example("whot-example").to_json())
    >>> [os.path.relpath(name, folder) for name in names(os.path.join(folder, "b.zip"))]
    ['b.zip/game-1.json']
    """
    shown = os.fspath(path)
    try:
        with open(path, "rb") as file, _open(file, shown, shown) as archive:
            return [f"{shown}/{name}" for name in archive.namelist()
                    if not name.endswith("/")]
    except OSError as err:
        from .files import reason

        raise ReplayError(f"cannot read the file: {reason(err)}", file=shown) from None


def whole_batch(path: str | os.PathLike[str]) -> ReplayError:
    """The error for a batch given where one replay is wanted: it says how to name one."""
    shown = os.fspath(path)
    try:
        inside = names(path)
    except ReplayError as err:
        return err
    if not inside:
        return ReplayError("is a batch of replays (a zip archive), and it is empty", file=shown)
    return ReplayError(f"is a batch of {len(inside)} replays (a zip archive); name one of them, "
                       f"as in {inside[0]}", file=shown)
