"""Writing files safely: the one place where cardlab writes a file.

:func:`write_text` replaces a file atomically, so a reader (or a crash, or a power cut) sees
either the old file or the new one, never half of one:

- the text goes to a temporary file beside the target, named
  ``.<name>.cardlab-tmp-<pid>-<random>``, which is fsynced, then renamed over the target,
  and then the folder is fsynced so the rename itself is on disk;
- the temporary file is removed on every error, ``KeyboardInterrupt`` included; temporary
  files left by a killed save of the same target (their writer's pid is dead, or they are
  older than :data:`STALE_AFTER` seconds) are removed by the next save of that target;
- a new file gets the mode the umask gives (``0644`` under umask ``022``), an existing
  file keeps its mode (and, where allowed, its owner and group);
- a symbolic link is followed: its target is replaced and the link kept;
- an existing character device or FIFO (``/dev/null``, a named pipe) is written straight
  into, as there is no file to replace; ``/dev/stdout``, ``/dev/stderr`` and ``/dev/fd/N``
  are written through the open descriptor, as a shell redirection would;
- a path that cannot be written raises :class:`~cardlab.errors.SaveError` naming the path
  and the reason (``permission denied``, ``no such folder``, ``is a folder``,
  ``name too long``, ``disk full``, ...).

A folder written file by file (a simulation's table, a Parquet dataset) is built the same
way in a temporary folder beside its target and put in place whole: :class:`AtomicFolder`.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> write_text(os.path.join(folder, "hello.txt"), "hello\\n")
>>> os.listdir(folder)
['hello.txt']
>>> write_text(os.path.join(folder, "no", "hello.txt"), "hello\\n")
Traceback (most recent call last):
    ...
cardlab.errors.SaveError: ...: cannot save: no such folder ...
"""

from __future__ import annotations

import errno as E
import hashlib
import os
import re
import secrets
import shutil
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path

from .errors import SaveError

TEMP_MARK = ".cardlab-tmp-"
STALE_AFTER = 15 * 60  # seconds: no real save takes this long, so its writer is gone
_NAME_MAX = 255  # bytes; the limit of every common file system, used if pathconf cannot say
# Flags some systems lack (Windows): without them the same steps run, a little less guarded.
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)

_REASONS = {
    E.EACCES: "permission denied",
    E.EPERM: "permission denied",
    E.EISDIR: "is a folder",
    E.ENAMETOOLONG: "name too long",
    E.ENOSPC: "disk full",
    E.EROFS: "read-only file system",
    E.ELOOP: "too many levels of symbolic links",
    E.EFBIG: "file too large",
    E.EIO: "input/output error",
    E.ENXIO: "nothing is reading from it",
    E.ETXTBSY: "the file is busy",
}
if hasattr(E, "EDQUOT"):  # not on Windows
    _REASONS[E.EDQUOT] = "disk quota exceeded"


def reason(err: OSError) -> str:
    """The plain words for an operating-system error, without errno numbers or paths.

    >>> reason(PermissionError(13, "Permission denied"))
    'permission denied'
    """
    if err.errno in _REASONS:
        return _REASONS[err.errno]
    if err.strerror:
        return err.strerror[0].lower() + err.strerror[1:]
    return str(err) or type(err).__name__


def temp_prefix(name: str) -> str:
    """The start of every temporary file name for target ``name`` (the part before the pid).

    A long name is shortened, with a hash of the whole name, so the temporary name still
    fits the file system's limit and stays distinct from other targets' temporary files.

    >>> temp_prefix("game.json")
    '.game.json.cardlab-tmp-'
    """
    prefix = f".{name}{TEMP_MARK}"
    room = _NAME_MAX - 40  # leaves room for "<pid>-<random>" and a margin
    if len(os.fsencode(prefix)) <= room:
        return prefix
    digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:12]
    short = name
    while len(os.fsencode(f".{short}~{digest}{TEMP_MARK}")) > room:
        short = short[:-1]  # whole characters, so a UTF-8 sequence is never cut in two
    return f".{short}~{digest}{TEMP_MARK}"


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # another thread of this process may be saving the same file
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: a live process of another user
        return True
    return True


def stale_temps(target: str | os.PathLike[str], now: float | None = None) -> list[Path]:
    """The temporary files of ``target`` left by saves that were killed.

    A temporary file is stale when the process that wrote it is gone, or when it is older
    than :data:`STALE_AFTER` seconds (a pid may have been reused by another process).
    """
    path = Path(target)
    folder = path.parent
    pattern = re.compile(re.escape(temp_prefix(path.name)) + r"(\d+)-[0-9a-f]{8}\Z")
    now = time.time() if now is None else now
    out = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        match = pattern.match(entry.name)
        if not match:
            continue
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if age > STALE_AFTER or not _pid_alive(int(match.group(1))):
            out.append(folder / entry.name)
    return out


def _remove_stale(target: Path) -> None:
    for stale in stale_temps(target):
        _remove(stale)  # a file, or the temporary folder of a table (AtomicFolder)


def _remove(path: Path) -> None:
    """Remove a file or a whole folder, quietly: someone else removed it, or we may not (the
    save itself is what matters)."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()
    except OSError:
        pass


def write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """Replace the file at ``path`` with ``text`` atomically (see the module's docstring)."""
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError as err:
        raise SaveError(f"character {err.start} of the text cannot be written in {encoding} "
                        f"({err.reason})", file=os.fspath(path)) from None
    write_bytes(path, data)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file at ``path`` with ``data`` atomically (see the module's docstring)."""
    fd = _open_descriptor(path)
    if fd is not None:
        try:
            if fd in (1, 2):
                (sys.stdout if fd == 1 else sys.stderr).flush()  # keep what was printed first
            _write_all(fd, data)
        except OSError as err:
            raise SaveError(reason(err), file=os.fspath(path), errno=err.errno) from None
        return
    real, shown = _resolve(path)
    try:
        _write(real, data, shown)
    except SaveError:
        raise
    except OSError as err:
        raise SaveError(reason(err), file=shown, errno=err.errno) from None


_DESCRIPTOR = re.compile(r"/(?:dev/fd|proc/self/fd)/(\d+)\Z")


def _open_descriptor(path: str | os.PathLike[str]) -> int | None:
    """The already open file descriptor that ``path`` names (``/dev/stdout``, ``/dev/fd/3``).

    Such a path is written through the descriptor, as a shell redirection would: following
    the link would replace the file that ``> out.txt`` opened instead of writing into it.
    """
    given = os.fsdecode(os.fspath(path))
    if given in ("/dev/stdout", "/dev/stderr"):
        return 1 if given == "/dev/stdout" else 2
    match = _DESCRIPTOR.match(given)
    return int(match.group(1)) if match else None


def is_descriptor(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names an open file descriptor (``/dev/stdout``, ``/dev/fd/3``),
    which :func:`write_bytes` writes through rather than replaces."""
    return _open_descriptor(path) is not None


def check_target(path: str | os.PathLike[str], seekable: bool = False) -> None:
    """Raise :class:`~cardlab.errors.SaveError` now if ``path`` cannot be written.

    The look before long work (every command checks its outputs before the bots play a game,
    the advisor analyses, or a pool starts): a missing folder, a folder, a name too long, a
    path under a file; a folder this process may not write in (an empty file is created
    there and removed); a FIFO that nothing reads (it is then held open until written, so
    its reader does not see an end of file in between); a device that refuses writes
    (``/dev/full``). A disk that fills up later shows only when writing. ``seekable``: the
    writer moves about in the file (a Parquet table), so a FIFO or a terminal is refused.

    >>> check_target("docs")
    Traceback (most recent call last):
        ...
    cardlab.errors.SaveError: docs: cannot save: is a folder
    """
    if _open_descriptor(path) is not None:
        return
    real, shown = _resolve(path)
    try:
        st = _preflight(real, shown)
        if st is not None and _is_stream(st):
            _probe_stream(real, st, seekable)
        else:
            _probe_folder(real)
    except SaveError:
        raise
    except OSError as err:
        raise SaveError(reason(err), file=shown, errno=err.errno) from None


# FIFOs opened by check_target, by (device, inode): held open until written, as a reader that
# saw the check's descriptor close would take it for the end of the data and stop reading.
_HELD: dict[tuple[int, int], int] = {}


def _is_stream(st: os.stat_result) -> bool:
    return stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)


def _open_stream(target: Path, st: os.stat_result) -> int:
    """A descriptor to write ``target`` (a device or FIFO): the one check_target holds, or
    a new one. A FIFO nobody reads fails at once (ENXIO), instead of hanging."""
    fifo = stat.S_ISFIFO(st.st_mode)
    held = _HELD.pop((st.st_dev, st.st_ino), None) if fifo else None
    if held is not None:
        return held
    fd = os.open(target, os.O_WRONLY | _CLOEXEC | (os.O_NONBLOCK if fifo else 0))
    if fifo:
        os.set_blocking(fd, True)
    return fd


def _probe_stream(target: Path, st: os.stat_result, seekable: bool) -> None:
    try:
        fd = _open_stream(target, st)
    except OSError as err:
        if err.errno == E.ENXIO and not stat.S_ISFIFO(st.st_mode):  # a device, not a reader
            raise SaveError("no such device", file=os.fspath(target), errno=err.errno) from None
        raise
    try:
        os.write(fd, b"")  # nothing is written; a device that refuses writes says so here
        if seekable:
            try:
                os.lseek(fd, 0, os.SEEK_CUR)
            except OSError:
                raise SaveError("is a pipe or a terminal, and a table is written by seeking "
                                "in its file; give a file name", file=os.fspath(target)
                                ) from None
    except BaseException:
        os.close(fd)
        raise
    if stat.S_ISFIFO(st.st_mode):
        _HELD[(st.st_dev, st.st_ino)] = fd
    else:
        os.close(fd)


def _probe_folder(target: Path) -> None:
    # What the save itself will do first: create a file beside the target (then remove it).
    probe = target.parent / f"{temp_prefix(target.name)}{os.getpid()}-{secrets.token_hex(4)}"
    os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC | _NOFOLLOW,
                     0o600))
    os.unlink(probe)


def _resolve(path: str | os.PathLike[str]) -> tuple[Path, str]:
    given = os.fspath(path)
    if isinstance(given, bytes):
        given = os.fsdecode(given)
    if not given:
        raise SaveError("no file name given", file=given)
    if given.endswith(("/", os.sep)):
        raise SaveError("is a folder (the name ends with /)", file=given)
    # Follow a symbolic link (chains and dangling links too): the link stays, its target is
    # replaced. The temporary file must sit beside the real target for the rename to be atomic.
    real = Path(os.path.realpath(given)) if os.path.islink(given) else Path(given)
    return real, given if real == Path(given) else f"{given} (a link to {real})"


def _preflight(target: Path, shown: str) -> os.stat_result | None:
    """The target's status (``None`` if it does not exist yet), once it is known writable."""
    st = _status(target, shown)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise SaveError("is a folder", file=shown, errno=E.EISDIR)
    if st is not None and _is_stream(st):
        return st
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise SaveError("is not a regular file", file=shown)
    _check_folder(target, shown)
    return st


def _status(target: Path, shown: str) -> os.stat_result | None:
    """``os.stat`` of the target, ``None`` if it does not exist (or its name is too long,
    which :func:`_check_folder` then reports by name)."""
    try:
        return os.stat(target)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise SaveError(f"{_nearest_file(target.parent)} is a file, not a folder", file=shown,
                        errno=E.ENOTDIR) from None
    except OSError as err:
        if err.errno != E.ENAMETOOLONG:
            raise
        return None


def _check_folder(target: Path, shown: str) -> None:
    """The folder the target goes in exists, and the target's name fits it."""
    folder = target.parent
    if not folder.is_dir():
        if folder.exists() or _nearest_file(folder) is not None:
            raise SaveError(f"{_nearest_file(folder) or folder} is a file, not a folder",
                            file=shown, errno=E.ENOTDIR)
        raise SaveError(f"no such folder {str(folder)!r}", file=shown, errno=E.ENOENT)
    if len(os.fsencode(target.name)) > _name_max(folder):
        raise SaveError(f"name too long ({len(os.fsencode(target.name))} bytes; the most "
                        f"this file system allows is {_name_max(folder)})", file=shown,
                        errno=E.ENAMETOOLONG)


def _write(target: Path, data: bytes, shown: str) -> None:
    st = _preflight(target, shown)
    if st is not None and _is_stream(st):
        _write_stream(target, data, st)
        return
    folder = target.parent
    _remove_stale(target)
    tmp = folder / f"{temp_prefix(target.name)}{os.getpid()}-{secrets.token_hex(4)}"
    fd = -1
    try:
        # 0o666: the kernel applies the umask (and a default ACL), as for any new file.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC | _NOFOLLOW,
                     0o666)
        if st is not None:
            _keep_owner_and_mode(fd, st)
        _write_all(fd, data)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, target)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass  # never created, or already renamed
        raise
    _fsync_folder(folder)


def _keep_owner_and_mode(fd: int, st: os.stat_result) -> None:
    if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, st.st_uid, st.st_gid)  # before chmod: chown clears setuid bits
        except OSError:
            pass  # only root may give a file away; the mode is still kept
    os.fchmod(fd, stat.S_IMODE(st.st_mode))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _write_stream(target: Path, data: bytes, st: os.stat_result) -> None:
    fd = _open_stream(target, st)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)


def fsync_folder(folder: str | os.PathLike[str]) -> None:
    """Put a folder's entries on disk (the renames into it): what :func:`write_bytes` does
    after each rename, done once after many (a run that places a file per chunk)."""
    _fsync_folder(Path(folder))


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    except OSError:
        return  # a folder we may write but not open: the rename is done all the same
    try:
        os.fsync(fd)
    except OSError as err:
        if err.errno not in (E.EINVAL, E.ENOTSUP, E.EBADF):  # file systems without it
            raise
    finally:
        os.close(fd)


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return _NAME_MAX


def _nearest_file(folder: Path) -> Path | None:
    """The first part of ``folder`` that exists and is not a folder, if any."""
    for part in reversed([folder, *folder.parents]):
        try:
            if not stat.S_ISDIR(os.stat(part).st_mode):
                return part
        except OSError:
            return None
    return None


def scratch_folder(parent: str | os.PathLike[str], name: str) -> Path:
    """A new empty folder inside ``parent`` for files written piece by piece before they are
    put in place there, named as temporary files are (``.<name>.cardlab-tmp-<pid>-<random>``,
    so that a reader of ``parent`` skips it); those a killed run left are removed first, as
    stale temporary files are. Remove it with :func:`remove_scratch` when done."""
    folder = Path(parent)
    _remove_stale(folder / name)
    path = folder / f"{temp_prefix(name)}{os.getpid()}-{secrets.token_hex(4)}"
    try:
        os.mkdir(path)
    except OSError as err:
        raise SaveError(reason(err), file=os.fspath(folder), errno=err.errno) from None
    return path


def remove_scratch(path: str | os.PathLike[str]) -> None:
    """Remove a :func:`scratch_folder` (or an :class:`AtomicFolder`'s) with what it holds."""
    _remove(Path(path))


def check_folder_target(path: str | os.PathLike[str],
                        problem: Callable[[Path], str | None]) -> None:
    """Raise :class:`~cardlab.errors.SaveError` now if an :class:`AtomicFolder` could not
    put a folder at ``path``: the look before long work, as :func:`check_target` is for a
    file (a missing folder, a name too long, an existing folder ``problem`` refuses, a
    folder this process may not write in)."""
    real, shown = _resolve(path)
    try:
        _folder_preflight(real, shown, problem)
        _probe_folder(real)
    except SaveError:
        raise
    except OSError as err:
        raise SaveError(reason(err), file=shown, errno=err.errno) from None


def _folder_preflight(real: Path, shown: str, problem: Callable[[Path], str | None]) -> None:
    st = _status(real, shown)
    if st is not None and stat.S_ISDIR(st.st_mode):
        why = problem(real)
        if why is not None:
            raise SaveError(why, file=shown, errno=E.EISDIR)
    elif st is not None and not stat.S_ISREG(st.st_mode):
        raise SaveError("is not a regular file or a folder", file=shown)
    _check_folder(real, shown)


class AtomicFolder:
    """A folder filled file by file and then put in place whole (a simulation's table, a
    Parquet dataset): a reader, or a crash, sees the old target or the new folder, never a
    half one.

    The files go into :attr:`path`, a temporary folder beside the target named as
    :func:`write_bytes` names its temporary files (those of killed runs are removed first).
    :meth:`commit` fsyncs it and puts it in place of the target: a missing target or an empty
    folder is replaced by a rename; a file or a folder whose ``problem`` is ``None`` is
    swapped with it in one step where the system can (Linux's ``renameat2`` exchange), else
    moved aside first; the old one is then removed. :meth:`abort` removes the temporary
    folder. A link is followed, as :func:`write_bytes` follows it. ``problem(folder)`` says
    why an existing folder may not be replaced (it holds what no run wrote), or ``None``;
    it is asked before anything is written.

    >>> import os, tempfile
    >>> parent = tempfile.mkdtemp()
    >>> table = AtomicFolder(os.path.join(parent, "t"), problem=lambda folder: None)
    >>> with open(table.path / "part-0.bin", "wb") as out:
    ...     _ = out.write(b"rows")
    >>> table.commit()
    >>> os.listdir(parent), os.listdir(os.path.join(parent, "t"))
    (['t'], ['part-0.bin'])
    """

    def __init__(self, target: str | os.PathLike[str],
                 problem: Callable[[Path], str | None]) -> None:
        real, self.shown = _resolve(target)
        self.target = real
        try:
            _folder_preflight(real, self.shown, problem)
            _remove_stale(real)
            self.path = real.parent / f"{temp_prefix(real.name)}{os.getpid()}-" \
                                      f"{secrets.token_hex(4)}"
            os.mkdir(self.path)
        except SaveError:
            raise
        except OSError as err:
            raise SaveError(reason(err), file=self.shown, errno=err.errno) from None

    def commit(self) -> None:
        """Put the folder in place (see the class's docstring)."""
        try:
            _fsync_folder(self.path)
            _swap_in(self.path, self.target)
        except OSError as err:
            self.abort()
            raise SaveError(reason(err), file=self.shown, errno=err.errno) from None
        _fsync_folder(self.target.parent)

    def abort(self) -> None:
        """Remove the temporary folder; the target is left as it was."""
        _remove(self.path)


def _swap_in(new: Path, target: Path) -> None:
    """Rename the folder ``new`` to ``target``, which may be missing, an empty folder, a file
    or a folder, and remove what was there."""
    try:
        os.rename(new, target)
        return
    except OSError as err:
        if err.errno not in (E.EEXIST, E.ENOTEMPTY, E.ENOTDIR, E.EISDIR):
            raise
    if _exchange(new, target):
        _remove(new)  # the old target, now under the temporary name
        return
    aside = new.parent / f"{temp_prefix(target.name)}{os.getpid()}-{secrets.token_hex(4)}"
    os.rename(target, aside)
    try:
        os.rename(new, target)
    except OSError:
        os.rename(aside, target)  # the old one back where it was
        raise
    _remove(aside)


_RENAME_EXCHANGE = 2  # renameat2's flag (linux/fs.h)
_AT_FDCWD = -100


def _exchange(first: Path, second: Path) -> bool:
    """Swap two names in one step (Linux's ``renameat2`` with ``RENAME_EXCHANGE``); False
    where the system or the file system cannot, so the caller does it another way."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        call = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError, ImportError):  # no libc symbol (an old C library)
        return False
    if call(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second),
            _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (E.EINVAL, E.ENOSYS, E.ENOTSUP, E.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), os.fspath(second))
