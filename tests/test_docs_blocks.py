"""Every shell and Python block of README.md and docs/*.md runs as written, from a folder
that is not the repository: a reader copies a block into a terminal or a script anywhere.

The blocks of one page run in order, in one empty temporary folder (a later block may read
what an earlier one wrote), each Python block as a script of its own (so each needs its own
imports) and each shell line as a command. A Python block whose first line names a file of
the repository (``# from tests/knockout_whist/__init__.py``) is an excerpt of it, not an
example: its lines must be found in that file, in order, so that it cannot drift from it.

Left out, by what they are, not by page: ``make`` targets and ``.venv/`` paths are the
repository's own commands (tests/test_readme.py and the Makefile's tests run them), ``pip
install`` needs the package index (the extras are checked by tests/test_packaging.py),
``bash .ci/run`` is CI itself, and ``python3 -m http.server`` serves until it is stopped.

Every block says what it is, so none can hold a command that never runs: ``sh`` and
``python`` run, ``text`` (output, a usage synopsis, a folder tree) and ``json`` (excerpts of
files, with ``...``) are read only. A block with no language, or another one, fails.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)
RUN = ("sh", "python")
READ_ONLY = ("text", "json")
NOT_FROM_ANY_FOLDER = ("make ", ".venv/", "pip ", "bash .ci/", "python3 -m http.server")


def fences(page: Path) -> list[tuple[int, str, str]]:
    """``(line, language, text)`` of every fenced block of ``page`` (language "" if none)."""
    text = page.read_text(encoding="utf-8")
    return [(text[:m.start()].count("\n") + 2, m.group(1).strip(), m.group(2))
            for m in FENCE.finditer(text)]


def blocks(page: Path) -> list[tuple[int, str, str]]:
    """``(line, language, text)`` of each shell and Python block of ``page``."""
    return [block for block in fences(page) if block[1] in RUN]


def unsaid(page: Path) -> list[str]:
    """Where ``page`` has a block that does not say it runs (sh, python) or is read only."""
    return [f"{page.name}:{line - 1}: ```{language}" for line, language, _ in fences(page)
            if language not in RUN + READ_ONLY]


def shell_commands(text: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, comments and the commands
    that belong to the repository left out."""
    joined = re.sub(r"\s*\\\n\s*", " ", text)
    commands = []
    for line in joined.splitlines():
        command = re.split(r"\s+#", line, maxsplit=1)[0].strip()
        if command and not command.startswith("#") and not command.startswith(
                NOT_FROM_ANY_FOLDER):
            commands.append(command)
    return commands


EXCERPT = re.compile(r"^# from (\S+)\n")


def check_excerpt(text: str, where: str) -> None:
    """The excerpt's lines are lines of the file it names, in order (others may lie between)."""
    match = EXCERPT.match(text)
    assert match, where
    source = (ROOT / match.group(1)).read_text(encoding="utf-8").splitlines()
    at = 0
    for line in text[match.end():].splitlines():
        if not line.strip():
            continue
        while at < len(source) and source[at].rstrip() != line.rstrip():
            at += 1
        assert at < len(source), f"{where}: {line.strip()!r} is not in {match.group(1)}"
        at += 1


def test_the_commands_are_read_as_a_reader_types_them():
    assert shell_commands("cardlab a \\\n    -o x   # why\n# note\nmake lab\ncardlab b\n") == [
        "cardlab a -o x", "cardlab b"]


def test_a_block_that_says_nothing_is_found(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# A\n\n```\ncardlab show game.json\n```\n\n```text\nout\n```\n\n"
                    "```console\n$ cardlab games\n```\n\n```sh\ncardlab games\n```\n")
    assert unsaid(page) == ["page.md:3: ```", "page.md:11: ```console"]
    assert [(line, language) for line, language, _ in blocks(page)] == [(16, "sh")]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_block_says_whether_it_runs(page):
    assert unsaid(page) == [], (
        "a block must say what it is: ```sh or ```python to run it here, ```text for "
        "output, a synopsis or a tree (```json for a file's excerpt)")


def _environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # the `cardlab` command of the Python running the tests, first on the path
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["MPLBACKEND"] = "agg"
    env["HOME"] = str(tmp_path / "home")
    return env


@pytest.mark.timeout(600)
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_block_runs_from_any_folder(page, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "home").mkdir()
    env = _environment(tmp_path)
    for line, language, text in blocks(page):
        where = f"{page.relative_to(ROOT)}:{line}"
        if language == "python" and EXCERPT.match(text):
            check_excerpt(text, where)
        elif language == "python":
            script = work / f"block_{line}.py"
            script.write_text(text, encoding="utf-8")
            done = subprocess.run([sys.executable, script.name], cwd=work, env=env, text=True,
                                  capture_output=True, timeout=300)
            script.unlink()
            assert done.returncode == 0, f"{where}: the Python block failed:\n{done.stderr}"
        else:
            for command in shell_commands(text):
                done = subprocess.run(["bash", "-c", command], cwd=work, env=env, text=True,
                                      capture_output=True, timeout=300)
                assert done.returncode == 0, f"{where}: `{command}` failed:\n{done.stderr}"
