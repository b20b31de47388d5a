"""Bad command lines: each one prints one line on stderr naming what was wrong, and exits 2.

Every case runs the real command in a subprocess (``python -m cardlab ...``), so what is
checked is what a user sees: the exit code, exactly one line on stderr, no traceback, and
the thing that was wrong named in the message. Ctrl-C exits 130 and a closed pipe ends
quietly, also without a traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from importpath import CARDLAB_PATH

import cardlab as cardlab_api
from cardlab.bots import make_bot

ROOT = Path(__file__).resolve().parents[1]
REVIEW = ROOT / "replays" / "norwegian-review.json"


def cardlab(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": CARDLAB_PATH}
    return subprocess.run([sys.executable, "-m", "cardlab", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=timeout, env=env,
                          stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def place(tmp_path_factory) -> Path:
    """A folder holding every kind of bad input the cases below name with ``@...``."""
    root = tmp_path_factory.mktemp("cli-errors")
    (root / "a-folder").mkdir()
    (root / "a-file").write_text("not a folder\n", encoding="utf-8")
    os.mkfifo(root / "a-fifo")
    (root / "binary.json").write_bytes(bytes(range(256)) * 4)
    (root / "latin1.json").write_bytes('{"meta": {"title": "Bøb"}}'.encode("latin-1"))
    (root / "empty.json").write_bytes(b"")
    (root / "not-json.json").write_text('{"format": "cardlab-replay", ', encoding="utf-8")
    (root / "a-list.json").write_text("[1, 2, 3]\n", encoding="utf-8")
    os.symlink("/dev/full", root / "full.json")
    shutil.copy(REVIEW, root / "review.json")
    data = json.loads(REVIEW.read_text(encoding="utf-8"))
    tampered = json.loads(json.dumps(data))
    tampered["hands"][0]["actions"][6]["act"] = "play red9"  # Remo holds blue14
    (root / "tampered.json").write_text(json.dumps(tampered), encoding="utf-8")
    blank_seat = json.loads(json.dumps(data))
    blank_seat["seats"][1] = ""
    (root / "blank-seat.json").write_text(json.dumps(blank_seat), encoding="utf-8")
    tab_seat = json.loads(json.dumps(data))
    old = tab_seat["seats"][2]
    tab_seat["seats"][2] = "Kath\trine"
    for hand in tab_seat["hands"]:
        for action in hand["actions"]:
            action["seat"] = "Kath\trine" if action["seat"] == old else action["seat"]
    (root / "tab-seat.json").write_text(json.dumps(tab_seat), encoding="utf-8")
    return root


PLAY = ["play", "bobs-hat", "--option", "hands=1"]
LONG = "x" * 300 + ".json"

# (command line, fragments the one error line must hold); "@" names a file of ``place``.
CASES: list[tuple[list[str], list[str]]] = [
    # the command line itself
    ([], ["required: COMMAND"]),
    (["frobnicate"], ["invalid choice", "frobnicate"]),
    (["play"], ["required: game, --out"]),
    (["play", "bobs-hat"], ["required: --out"]),
    (["play", "bobs-hat", "--out"], ["--out", "expected one argument"]),
    (["show"], ["required: file"]),
    (["validate"], ["required: file"]),
    (["show", "@review.json", "--colour", "red"], ["unrecognized arguments: --colour"]),
    (["games", "extra"], ["unrecognized arguments: extra"]),
    # games, players, options, bots
    (["play", "bridge", "--out", "x.json"], ["no game called 'bridge'"]),
    (["play", "", "--out", "x.json"], ["no game called ''"]),
    ([*PLAY, "--players", "9", "--out", "x.json"], ["players", "at most 5", "9"]),
    ([*PLAY, "--players", "1", "--out", "x.json"], ["players", "at least 3", "1"]),
    ([*PLAY, "--players", "-3", "--out", "x.json"], ["players", "-3"]),
    ([*PLAY, "--players", "10" * 30, "--out", "x.json"], ["players", "at most 5"]),
    ([*PLAY, "--players", "four", "--out", "x.json"], ["--players", "'four'"]),
    (["play", "whot", "--players", "1", "--out", "x.json"], ["whot", "players", "at least 2"]),
    ([*PLAY, "--option", "players=9", "--out", "x.json"], ["players", "at most 5", "9"]),
    ([*PLAY, "--players", "4", "--option", "players=4", "--out", "x.json"],
     ["players is given twice"]),
    ([*PLAY, "--option", "colour=blue", "--out", "x.json"], ["no option 'colour'"]),
    (["play", "teds-game", "--option", "bogus=1", "--out", "x.json"], ["no option 'bogus'"]),
    ([*PLAY, "--option", "hands", "--out", "x.json"], ["'hands'", "NAME=VALUE"]),
    ([*PLAY, "--option", "=3", "--out", "x.json"], ["'=3'", "NAME=VALUE"]),
    (["play", "bobs-hat", "--option", "hands=0", "--out", "x.json"], ["hands", "at least 1"]),
    (["play", "bobs-hat", "--option", "hands=abc", "--out", "x.json"], ["hands", "'abc'"]),
    ([*PLAY, "--option", "double-fewest=maybe", "--out", "x.json"],
     ["double_fewest", "'maybe'"]),
    ([*PLAY, "--option", "seed=4", "--out", "x.json"], ["seed is not a rules option"]),
    ([*PLAY, "--option", "meta=x", "--out", "x.json"], ["meta is not a rules option"]),
    ([*PLAY, "--bots", "genius", "--out", "x.json"], ["not 'genius'"]),
    ([*PLAY, "--bots", "", "--out", "x.json"], ["not ''"]),
    ([*PLAY, "--bots", "random,random", "--out", "x.json"], ["--bots names 2 bots", "4 seats"]),
    # seat names
    ([*PLAY, "--seats", "A,,B,C", "--out", "x.json"], ["seat 2 has an empty name"]),
    ([*PLAY, "--seats", "A,A,B,C", "--out", "x.json"], ["seat 2", "'A'", "seat 1"]),
    ([*PLAY, "--seats", "Ann,ann,B,C", "--out", "x.json"], ["'ann'", "ignoring case"]),
    ([*PLAY, "--seats", "A,B,C", "--out", "x.json"], ["4 players need 4 seat names, not 3"]),
    ([*PLAY, "--seats", "", "--out", "x.json"], ["4 players need 4 seat names, not 1"]),
    ([*PLAY, "--seats", "A,B,C," + "D" * 41, "--out", "x.json"], ["seat 4", "at most 40"]),
    ([*PLAY, "--seats", "A\tB,C,D,E", "--out", "x.json"], ["seat 1", "U+0009"]),
    ([*PLAY, "--seats", "A,B,C,D\x1b[31m", "--out", "x.json"], ["seat 4", "U+001B"]),
    ([*PLAY, "--seats", "A,B\u202e,C,D", "--out", "x.json"], ["seat 2", "U+202E"]),
    ([*PLAY, "--seats", " A,B,C,D", "--out", "x.json"], ["seat 1", "white space"]),
    # seeds
    ([*PLAY, "--seed", "", "--out", "x.json"], ["--seed is empty"]),
    ([*PLAY, "--seed", "7" * 101, "--out", "x.json"], ["--seed", "101 characters"]),
    ([*PLAY, "--seed", "a\nb", "--out", "x.json"], ["--seed", "control character"]),
    # an --out that cannot be written
    ([*PLAY, "--out", ""], ["''", "no file name given"]),
    ([*PLAY, "--out", "no-folder/x.json"], ["no-folder/x.json", "no such folder 'no-folder'"]),
    ([*PLAY, "--out", "@a-folder"], ["a-folder", "is a folder"]),
    ([*PLAY, "--out", "@a-folder/"], ["a-folder/", "is a folder"]),
    ([*PLAY, "--out", "."], [".: cannot save: is a folder"]),
    ([*PLAY, "--out", LONG], ["name too long"]),
    ([*PLAY, "--out", "/sys/cardlab-test.json"], ["/sys/cardlab-test.json",
                                                  "permission denied"]),
    ([*PLAY, "--out", "@a-file/x.json"], ["a-file/x.json", "a-file is a file, not a folder"]),
    ([*PLAY, "--out", "@full.json"], ["full.json", "disk full"]),
    # outputs are checked before the work: a FIFO nothing reads, a device refusing writes
    ([*PLAY, "--out", "@a-fifo"], ["a-fifo: cannot save: nothing is reading from it"]),
    (["analyse", "@review.json", "-o", "@a-fifo"],
     ["a-fifo: cannot save: nothing is reading from it"]),
    (["analyse", "@review.json", "-o", "/dev/full"], ["/dev/full: cannot save: disk full"]),
    (["analyse", "@review.json", "-o", "/sys/cardlab-test.json"],
     ["/sys/cardlab-test.json: cannot save: permission denied"]),
    (["analyse", "@review.json", "-o", "@a-file/x.json"], ["a-file is a file, not a folder"]),
    # files that cannot be read as a replay
    (["validate", "missing.json"], ["missing.json", "no such file"]),
    (["show", "missing.json"], ["missing.json", "no such file"]),
    (["validate", "@a-folder"], ["a-folder: cannot read the file", "folder"]),
    (["show", "@a-folder"], ["a-folder: cannot read the file", "folder"]),
    # a FIFO and a device are refused at once: no blocking, no reading without end
    (["validate", "@a-fifo"], ["a-fifo: cannot read the file", "not a regular file"]),
    (["show", "@a-fifo"], ["a-fifo: cannot read the file", "not a regular file"]),
    (["validate", "/dev/zero"], ["/dev/zero: cannot read the file", "not a regular file"]),
    (["show", "/dev/urandom"], ["/dev/urandom: cannot read the file", "not a regular file"]),
    (["validate", "@binary.json"], ["binary.json", "not UTF-8"]),
    (["validate", "@latin1.json"], ["latin1.json", "not UTF-8"]),
    (["show", "@latin1.json"], ["latin1.json", "not UTF-8"]),
    (["validate", "@empty.json"], ["empty.json", "not valid JSON"]),
    (["show", "@empty.json"], ["empty.json", "not valid JSON"]),
    (["validate", "@not-json.json"], ["not-json.json", "not valid JSON"]),
    (["validate", "@a-list.json"], ["a-list.json"]),
    (["validate", "@a-file/x.json"], ["a-file/x.json", "cannot read the file"]),
    (["validate", LONG], [LONG[:50], "name too long"]),
    (["validate", "@tampered.json"], ["$.hands[0].actions[6].act", "hand 1, step 7, seat Remo"]),
    (["show", "@tampered.json"], ["$.hands[0].actions[6].act", "Remo must follow blue"]),
    (["validate", "@blank-seat.json"], ["blank-seat.json:$.seats[1]"]),
    (["validate", "@tab-seat.json"], ["$.seats[2]", "U+0009"]),
    # show's choices
    (["show", "@review.json", "--seat", "Bob"],
     ["no seat 'Bob'", "the seats are Tone, Remo, Kathrine, Brad"]),
    (["show", "@review.json", "--seat", ""], ["no seat ''", "Tone, Remo, Kathrine, Brad"]),
    (["show", "@review.json", "--lang", "xx"],
     ["no notes in language 'xx'", "its notes are in en, no"]),
    (["show", str(ROOT / "replays" / "whot-example.json"), "--lang", "no"],
     ["no notes in language 'no'", "not written per language"]),
    # limits: a bad flag, and a file over a limit, which names the flag that raises it
    (["validate", "@review.json", "--limit", "bogus=1"], ["no limit 'bogus'", "max_hands"]),
    (["validate", "@review.json", "--limit", "max_hands"], ["'max_hands'", "NAME=N"]),
    (["validate", "@review.json", "--limit", "max_hands=lots"], ["max_hands", "'lots'"]),
    (["validate", "@review.json", "--limit", "max_hands=0"], ["max_hands", "at least 1"]),
    (["validate", "@review.json", "--limit", "max_hands=3", "--limit", "max_hands=4"],
     ["--limit max_hands is given twice"]),
    (["validate", "@review.json", "--limit", "max_hands=1"],
     ["$.hands", "max_hands=1", "--limit max_hands=N"]),
    (["show", "@review.json", "--limit", "max_file_bytes=100"],
     ["review.json", "max_file_bytes=100", "--limit max_file_bytes=N"]),
    (["show", "@review.json", "--limit", "max-note-chars=20"],
     ["note", "max_note_chars=20", "--limit max_note_chars=N"]),
    (["validate", "@review.json", "--limit", "max_actions_per_hand=5"],
     ["$.hands[0].actions", "max_actions_per_hand=5"]),
    (["validate", "@review.json", "--limit", "max_nesting=3"], ["max_nesting=3"]),
    (["validate", "@review.json", "--limit", "max_nesting=99999999"], ["max_nesting"]),
    # the offline page
    (["html", "missing.json"], ["missing.json", "no such file"]),
    (["html", "@a-fifo"], ["a-fifo: cannot read the file", "not a regular file"]),
    (["html", "@review.json", "-o", "@a-folder"], ["a-folder", "is a folder"]),
    (["html", "@review.json", "-o", "no-folder/x.html"], ["no such folder 'no-folder'"]),
    (["html", "@review.json", "-o", "@full.json"], ["full.json", "disk full"]),
    (["html", "@review.json", "-o", "@a-fifo"],
     ["a-fifo: cannot save: nothing is reading from it"]),
    (["html", "@review.json", "--seat", "Bob"], ["no seat 'Bob'", "Tone, Remo"]),
    (["html", "@review.json", "--lang", "xx"], ["no notes in language 'xx'"]),
    (["html", "@review.json", "--limit", "max_hands=1"], ["$.hands", "max_hands=1"]),
]


def _args(args: list[str], place: Path) -> list[str]:
    return [f"{place}/{a[1:]}" if a.startswith("@") else a for a in args]


@pytest.mark.parametrize("args,fragments", CASES, ids=[" ".join(c[0])[:60] for c in CASES])
def test_a_bad_command_line_gives_one_line_and_exit_2(args, fragments, place):
    result = cardlab(*_args(args, place), cwd=place, timeout=60)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert result.returncode == 2, result.stderr
    assert lines[0].startswith(("cardlab: error: ", "cardlab play: error: ",
                                "cardlab show: error: ", "cardlab validate: error: "))
    for fragment in fragments:
        assert fragment in lines[0]
    assert result.stdout == ""


def test_there_are_at_least_60_bad_command_lines():
    assert len(CASES) >= 60
    assert len({tuple(args) for args, _ in CASES}) == len(CASES)  # no case counted twice


def test_a_failed_play_leaves_no_file_and_no_temporary(place):
    before = sorted(p.name for p in place.iterdir())
    for out in ("@a-folder", "@full.json", "@a-file/x.json"):
        cardlab(*PLAY, "--out", *_args([out], place), cwd=place)
    assert sorted(p.name for p in place.iterdir()) == before
    assert list((place / "a-folder").iterdir()) == []


def _big_replay(folder: Path) -> Path:
    """A replay whose text view (about 400 kB) is far larger than a pipe's buffer."""
    table = cardlab_api.new_game("bobs-hat", players=4, seed="big")
    table.play([make_bot("random", "bobs-hat", seed=s) for s in range(4)])
    for hand in table.replay.hands:
        for action in hand.actions:
            action.note = "A long teaching note. " * 40
    out = folder / "big.json"
    table.save(out)
    return out


def test_ctrl_c_exits_130_without_a_traceback(tmp_path):
    big = _big_replay(tmp_path)
    env = {**os.environ, "PYTHONPATH": CARDLAB_PATH}
    proc = subprocess.Popen([sys.executable, "-m", "cardlab", "show", str(big)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    # The first bytes of output prove the command is running (past start-up); the rest
    # waits in a full pipe, so the interrupt comes while it is writing.
    assert proc.stdout.read(1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert err == b""


def test_a_closed_pipe_ends_quietly(tmp_path):
    big = _big_replay(tmp_path)
    env = {**os.environ, "PYTHONPATH": CARDLAB_PATH}
    read, write = os.pipe()
    proc = subprocess.Popen([sys.executable, "-m", "cardlab", "show", str(big)],
                            stdout=write, stderr=subprocess.PIPE, env=env)
    os.close(write)
    os.close(read)  # like `| head` having exited: nobody will ever read
    _, err = proc.communicate(timeout=60)
    assert err == b""
    assert proc.returncode == 141


@pytest.mark.parametrize("args", [["games"], ["show", str(REVIEW)], ["validate", str(REVIEW)]])
def test_a_full_disk_behind_standard_output_is_one_line(args, tmp_path):
    env = {**os.environ, "PYTHONPATH": CARDLAB_PATH}
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "cardlab", *args], stdout=full,
                                stderr=subprocess.PIPE, text=True, env=env, timeout=60)
    assert result.stderr == "cardlab: error: standard output: disk full\n"
    assert result.returncode == 2


def test_an_output_encoding_without_the_characters_escapes_them():
    env = {**os.environ, "PYTHONPATH": CARDLAB_PATH, "PYTHONIOENCODING": "ascii"}
    result = subprocess.run([sys.executable, "-m", "cardlab", "show", str(REVIEW)],
                            capture_output=True, env=env, timeout=60)
    assert result.returncode == 0 and result.stderr == b""
    assert b"Where's Bob's Hat? \\u2014 the Norwegian review" in result.stdout
