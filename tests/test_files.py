"""Saving: modes, links, temporary files, and every way a path can fail to be written."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import cardlab
from cardlab.errors import CardlabError, SaveError
from cardlab.files import STALE_AFTER, check_target, stale_temps, temp_prefix, write_text


def temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".cardlab-tmp-" in p.name)


@pytest.fixture
def umask():
    """Set the umask for one test and restore it afterwards."""
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


def a_replay() -> cardlab.Replay:
    from cardlab.bots import make_bot

    table = cardlab.new_game("bobs-hat", players=3, seed=5, hands=1)
    table.play([make_bot("random", "bobs-hat", seed=s) for s in range(3)])
    return table.replay


def dead_pid() -> int:
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    return int(child.stdout)  # reaped by run(), so no process has it (until reused)


# -- modes ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("mask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_mode_the_umask_gives(tmp_path, umask, mask, mode):
    umask(mask)
    write_text(tmp_path / "new.json", "{}\n")
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == mode


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o600, 0o664])
def test_an_existing_file_keeps_its_mode_whatever_the_umask(tmp_path, umask, mode):
    path = tmp_path / "old.json"
    path.write_text("old\n")
    path.chmod(mode)
    umask(0o077)
    a_replay().save(path)
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert cardlab.load(path).game == "bobs-hat"


# -- links ---------------------------------------------------------------------------------------

def test_a_symlink_is_followed_and_kept(tmp_path):
    real_folder = tmp_path / "elsewhere"
    real_folder.mkdir()
    target = real_folder / "game.json"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    a_replay().save(link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert cardlab.load(target).game == "bobs-hat"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert temps(tmp_path) == [] and temps(real_folder) == []


def test_a_chain_of_links_and_a_dangling_link_are_followed(tmp_path):
    (tmp_path / "b.json").symlink_to("c.json")  # c.json does not exist yet
    (tmp_path / "a.json").symlink_to("b.json")
    write_text(tmp_path / "a.json", "new\n")
    assert (tmp_path / "c.json").read_text() == "new\n"
    assert (tmp_path / "a.json").is_symlink() and (tmp_path / "b.json").is_symlink()


def test_a_link_loop_is_an_error_that_names_the_path(tmp_path):
    (tmp_path / "x.json").symlink_to("y.json")
    (tmp_path / "y.json").symlink_to("x.json")
    with pytest.raises(SaveError, match="x.json.*symbolic links"):
        write_text(tmp_path / "x.json", "new\n")


# -- temporary files ----------------------------------------------------------------------------

def test_the_temporary_file_is_named_after_the_target_and_sits_beside_it(tmp_path, monkeypatch):
    seen = []
    real_replace = os.replace

    def spy(src, dst):
        seen.append((Path(src), Path(dst)))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    write_text(tmp_path / "game.json", "x\n")
    [(src, dst)] = seen
    assert src.parent == dst.parent == tmp_path
    assert src.name.startswith(f".game.json.cardlab-tmp-{os.getpid()}-")
    assert temps(tmp_path) == []


def test_stale_temporaries_of_the_same_target_are_removed_by_the_next_save(tmp_path):
    dead = dead_pid()
    mine = tmp_path / f".game.json.cardlab-tmp-{dead}-0badf00d"
    mine.write_text("half a file")
    old_but_alive = tmp_path / ".game.json.cardlab-tmp-1-00c0ffee"  # pid 1 lives, but stale
    old_but_alive.write_text("half a file")
    long_ago = time.time() - STALE_AFTER - 60
    os.utime(old_but_alive, (long_ago, long_ago))
    live = tmp_path / f".game.json.cardlab-tmp-{os.getppid()}-0000beef"  # a save under way
    live.write_text("being written")
    other = tmp_path / f".other.json.cardlab-tmp-{dead}-0badf00d"  # another target's
    other.write_text("half a file")
    lookalike = tmp_path / ".game.json.cardlab-tmp-notapid"
    lookalike.write_text("not ours")
    assert sorted(stale_temps(tmp_path / "game.json")) == sorted([mine, old_but_alive])
    write_text(tmp_path / "game.json", "x\n")
    assert not mine.exists() and not old_but_alive.exists()
    assert live.exists() and other.exists() and lookalike.exists()


def test_a_long_name_gets_a_short_temporary_name_that_is_still_cleaned(tmp_path):
    name = "é" * 120 + ".json"  # 245 bytes: the name fits, ".<name>.cardlab-tmp-..." not
    prefix = temp_prefix(name)
    assert len(os.fsencode(prefix)) < 255 - 30 and prefix != temp_prefix("é" * 119 + "x.json")
    stale = tmp_path / f"{prefix}{dead_pid()}-0badf00d"
    stale.write_text("half")
    write_text(tmp_path / name, "x\n")
    assert (tmp_path / name).read_text() == "x\n"
    assert not stale.exists() and temps(tmp_path) == []


# -- durability ---------------------------------------------------------------------------------

def test_the_file_is_fsynced_before_the_rename_and_the_folder_after(tmp_path, monkeypatch):
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append("fsync folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    def replace(src, dst):
        events.append("rename")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_text(tmp_path / "game.json", "x\n")
    assert events == ["fsync file", "rename", "fsync folder"]


# -- errors leave the old file whole and no temporary --------------------------------------------

def failing(exc: BaseException, after_bytes: int = 0):
    """An os.write that writes ``after_bytes`` once, then raises ``exc``."""
    real_write = os.write
    state = {"left": after_bytes}

    def write(fd, data):
        if state["left"] > 0:
            n = real_write(fd, bytes(data[: state["left"]]))
            state["left"] -= n
            return n
        raise exc

    return write


@pytest.mark.parametrize("exc,match", [
    (OSError(errno.ENOSPC, "No space left on device"), "disk full"),
    (OSError(errno.EDQUOT, "Disk quota exceeded"), "disk quota exceeded"),
    (OSError(errno.EIO, "Input/output error"), "input/output error"),
    (OSError(errno.EFBIG, "File too large"), "file too large"),
])
def test_a_failed_write_leaves_the_old_file_whole_and_no_temporary(tmp_path, monkeypatch, exc,
                                                                   match):
    path = tmp_path / "game.json"
    write_text(path, "old\n")
    monkeypatch.setattr(os, "write", failing(exc, after_bytes=1000))
    with pytest.raises(SaveError, match=f"game.json: cannot save: {match}") as caught:
        write_text(path, "new " * 10_000)
    assert caught.value.errno == exc.errno and isinstance(caught.value, OSError)
    assert path.read_text() == "old\n"
    assert temps(tmp_path) == []


def test_ctrl_c_during_a_save_removes_the_temporary_and_is_not_swallowed(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    write_text(path, "old\n")
    monkeypatch.setattr(os, "write", failing(KeyboardInterrupt(), after_bytes=100))
    with pytest.raises(KeyboardInterrupt):
        write_text(path, "new " * 10_000)
    assert path.read_text() == "old\n" and temps(tmp_path) == []


@pytest.mark.parametrize("step", ["fsync", "replace", "fchmod"])
def test_a_failure_at_any_step_before_the_rename_leaves_no_temporary(tmp_path, monkeypatch, step):
    path = tmp_path / "game.json"
    write_text(path, "old\n")

    def crash(*args, **kwargs):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, step, crash)
    with pytest.raises(SaveError, match="input/output error"):
        write_text(path, "new\n")
    assert path.read_text() == "old\n" and temps(tmp_path) == []


def test_text_that_utf8_cannot_hold_is_refused_before_anything_is_written(tmp_path):
    with pytest.raises(SaveError, match="character 3 .* utf-8"):
        write_text(tmp_path / "game.json", "abc\ud800")
    assert list(tmp_path.iterdir()) == []


def test_every_unwritable_path_names_the_path_and_the_reason(tmp_path):
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "full.json").symlink_to("/dev/full")
    cases = {
        "": "'': cannot save: no file name given",
        f"{tmp_path}/missing/x.json": f"cannot save: no such folder '{tmp_path}/missing'",
        f"{tmp_path}/a-folder": "a-folder: cannot save: is a folder",
        f"{tmp_path}/a-folder/": "a-folder/: cannot save: is a folder (the name ends with /)",
        f"{tmp_path}/{'n' * 256}": "cannot save: name too long (256 bytes; the most",
        "/sys/cardlab-test.json": "/sys/cardlab-test.json: cannot save: permission denied",
        f"{tmp_path}/a-file/x.json": f"cannot save: {tmp_path}/a-file is a file, not a folder",
        f"{tmp_path}/full.json": "full.json (a link to /dev/full): cannot save: disk full",
    }
    for path, message in cases.items():
        with pytest.raises(SaveError) as caught:
            a_replay().save(path)
        assert message in str(caught.value), path
        assert isinstance(caught.value, CardlabError) and isinstance(caught.value, OSError)
        assert caught.value.file.startswith(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "a-folder", "full.json"]
    assert list((tmp_path / "a-folder").iterdir()) == []


def test_check_target_refuses_before_any_work_what_a_save_would(tmp_path):
    (tmp_path / "a-file").write_text("x")
    for path in (tmp_path / "nope" / "x.json", tmp_path, tmp_path / "a-file" / "x.json"):
        with pytest.raises(SaveError):
            check_target(path)
    check_target(tmp_path / "fine.json")
    assert not (tmp_path / "fine.json").exists()


@contextlib.contextmanager
def _read_only_folder(files: dict[str, str]):
    """A folder holding ``files`` that nobody may write in (removed afterwards).

    Not under tmp_path: pytest's folders are 0700, which nobody could not even enter."""
    base = Path(tempfile.mkdtemp(prefix="cardlab-test-"))
    folder = base / "read-only"
    try:
        base.chmod(0o755)
        folder.mkdir()
        for name, text in files.items():
            (folder / name).write_text(text)
        folder.chmod(0o555)
        yield folder
    finally:
        if folder.exists():
            folder.chmod(0o755)
        shutil.rmtree(base)


def test_a_folder_without_write_permission():
    """As root, permission bits do not stop a write: a forked child drops to nobody first."""
    with _read_only_folder({"game.json": "old\n"}) as folder:
        said = _in_a_child_as_nobody(lambda: write_text(folder / "game.json", "new\n"))
        assert said == f"{folder}/game.json: cannot save: permission denied"
        assert (folder / "game.json").read_text() == "old\n" and temps(folder) == []


def _in_a_child_as_nobody(save) -> str:
    """Run ``save`` in a forked child (as nobody when we are root); the SaveError's text."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child reports through the pipe and never returns into pytest
        try:
            os.close(read)
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            save()
            os.write(write, b"saved")
        except SaveError as err:
            os.write(write, str(err).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode()
    os.waitpid(pid, 0)
    return said


# -- streams -------------------------------------------------------------------------------------

def test_a_device_or_fifo_is_written_into_not_replaced(tmp_path):
    write_text("/dev/null", "x\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(SaveError, match="pipe: cannot save: nothing is reading from it"):
        write_text(fifo, "x\n")  # at once: no reader, no hang
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is there: writing works
    try:
        write_text(fifo, "through the pipe\n")
        assert os.read(reader, 100) == b"through the pipe\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_check_target_refuses_a_fifo_nothing_reads_and_a_device_refusing_writes(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(SaveError, match="pipe: cannot save: nothing is reading from it"):
        check_target(fifo)
    with pytest.raises(SaveError, match="/dev/full: cannot save: disk full"):
        check_target("/dev/full")
    check_target("/dev/null")


def test_check_target_holds_a_read_fifo_open_until_it_is_written(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        check_target(fifo)
        # A writer is still there: the reader waits (no end of file between check and save).
        with pytest.raises(BlockingIOError):
            os.read(reader, 100)
        write_text(fifo, "after the check\n")
        assert os.read(reader, 100) == b"after the check\n"
        assert os.read(reader, 100) == b""  # the save is done: now the end
    finally:
        os.close(reader)


def test_check_target_refuses_a_folder_it_may_not_write_in():
    with _read_only_folder({}) as folder:

        def check():
            check_target(folder / "game.json")
            raise SaveError("no error", file="")

        said = _in_a_child_as_nobody(check)
        assert said == f"{folder}/game.json: cannot save: permission denied"
        assert os.listdir(folder) == []  # the probe file is gone


def test_an_open_descriptor_is_written_through_as_a_shell_redirection_would(tmp_path):
    out = tmp_path / "redirected.txt"
    with open(out, "wb") as handle:  # like `cardlab play --out /dev/stdout > redirected.txt`
        handle.write(b"before\n")
        handle.flush()
        inode = os.fstat(handle.fileno()).st_ino
        write_text(f"/dev/fd/{handle.fileno()}", "after\n")
        check_target(f"/dev/fd/{handle.fileno()}")
    assert out.read_bytes() == b"before\nafter\n" and out.stat().st_ino == inode
    read, write = os.pipe()
    try:
        write_text(f"/proc/self/fd/{write}", "through a pipe\n")
        assert os.read(read, 100) == b"through a pipe\n"
    finally:
        os.close(read)
        os.close(write)
    with pytest.raises(SaveError, match="/dev/fd/9999: cannot save: bad file descriptor"):
        write_text("/dev/fd/9999", "x")
