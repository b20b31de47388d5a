"""Saves killed with SIGKILL at random moments leave the old file or the new one, never half.

A forked child saves a large replay over the target and is killed at a seeded random moment
within the time a save takes here (measured first, only to spread the kill moments over the
whole save: nothing asserts a duration). After each kill the target must be, byte for byte,
the old file or the new one, and both parse; the next save must leave no temporary file.
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import cardlab
from cardlab.bots import make_bot
from cardlab.files import write_text

KILLS = 50


def two_large_replays() -> tuple[str, str]:
    """The JSON of two different, valid replays of about 2 MB each."""
    table = cardlab.new_game("bobs-hat", players=4, seed="kill test")
    table.play([make_bot("random", "bobs-hat", seed=s) for s in range(4)])
    texts = []
    for version in ("old", "new"):
        for hand in table.replay.hands:
            for action in hand.actions:
                action.note = f"The {version} note on this action. " * 150
        texts.append(table.replay.to_json())
    return texts[0], texts[1]


def temporaries(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if ".cardlab-tmp-" in p.name]


def save_in_a_child(target: Path, text: str) -> tuple[int, int]:
    """Fork a child that saves ``text`` to ``target``; return its pid once it starts saving."""
    ready_read, ready_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(ready_read)
            os.write(ready_write, b"!")
            write_text(target, text)
            time.sleep(60)  # finished before the kill: wait for it
        finally:
            os._exit(0)
    os.close(ready_write)
    return pid, ready_read


def test_a_killed_save_leaves_the_old_or_the_new_file_and_the_next_save_cleans_up(tmp_path):
    old, new = two_large_replays()
    assert len(old) > 1_500_000 and old != new
    old_bytes, new_bytes = old.encode(), new.encode()
    assert cardlab.loads(old).hands and cardlab.loads(new).hands  # both parse
    target = tmp_path / "game.json"
    started = time.perf_counter()
    for _ in range(3):
        write_text(target, old)
    one_save = (time.perf_counter() - started) / 3
    rng = random.Random(2024)
    outcomes = {"old": 0, "new": 0, "temporary left": 0}
    for _ in range(KILLS):
        write_text(target, old)
        pid, ready = save_in_a_child(target, new)
        assert os.read(ready, 1) == b"!"
        os.close(ready)
        time.sleep(rng.uniform(0, 1.3 * one_save))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)  # reaped: its pid is dead for the next save
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        data = target.read_bytes()
        assert data in (old_bytes, new_bytes)
        outcomes["old" if data == old_bytes else "new"] += 1
        outcomes["temporary left"] += bool(temporaries(tmp_path))
        write_text(target, new)  # the next save removes what the killed one left
        assert temporaries(tmp_path) == []
        assert target.read_bytes() == new_bytes
    print(f"{KILLS} kills: {outcomes}")  # shown with pytest -s
    # The kills did land inside saves: some left a temporary file for the next save to remove.
    assert outcomes["temporary left"] > 0, outcomes
    assert sum(outcomes[k] for k in ("old", "new")) == KILLS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    assert cardlab.load(target).to_json() == new
