"""The README's 30-second tour runs as written, from a notebook's working directory.

``make lab`` serves the repository root and opens the walkthrough; a notebook's kernel runs in
``notebooks/``, so the tour must not depend on the folder it runs in.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tour() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = text[text.index("## A 30-second tour"):]
    return re.search(r"```python\n(.*?)```", tour, re.S).group(1)


def test_the_tour_runs_from_a_notebooks_folder(tmp_path, monkeypatch, capsys):
    # a copy of notebooks/ with nothing beside it: no replays/ to find by a relative path
    work = tmp_path / "checkout" / "notebooks"
    shutil.copytree(ROOT / "notebooks", work)
    monkeypatch.chdir(work)
    assert not Path("replays").exists() and not Path("../replays").exists()
    code = _tour()
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert (work / "my-game.json").exists()
    assert namespace["branch"].actions[0].act == "play black12"
    out = capsys.readouterr().out
    assert "Trick 4: Remo red12, Kathrine red20, Brad black3, Tone red14" in out
    assert namespace["cursor"].step.hand == 3  # goto_trick(hand=3, ...) counts from 1
    assert namespace["review"].seats == ["Tone", "Remo", "Kathrine", "Brad"]


def test_the_tour_names_no_file_by_a_relative_path_it_did_not_write():
    code = _tour()
    for path in re.findall(r"load\(\"([^\"]+)\"\)", code):
        assert f'save("{path}")' in code, path  # it loads only what it saved itself


def _lab_command(*make_args: str) -> str:
    """The ``jupyter lab`` command ``make lab`` runs (``make -n``: nothing is installed)."""
    out = subprocess.run(["make", "-n", "lab", *make_args], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.replace("\\\n", " ")
    return next(line for line in out.splitlines() if "jupyter lab" in line)


@pytest.mark.checkout
def test_make_lab_opens_the_walkthrough_at_the_repository_root():
    command = _lab_command()
    assert f'"--ServerApp.root_dir={ROOT}"' in command
    assert command.endswith("notebooks/01-norwegian-walkthrough.ipynb")
    assert (ROOT / "notebooks" / "01-norwegian-walkthrough.ipynb").exists()


@pytest.mark.checkout
def test_the_url_make_lab_prints_opens_the_walkthrough(tmp_path):
    """With --no-browser, the URL JupyterLab prints is the walkthrough's, not the Launcher's:
    the command ``make lab`` runs is started (this test's Python as the venv), its printed
    URL read, and the page it names asked for."""
    venv = Path(sys.executable).parent.parent
    port = _free_port()
    command = _lab_command(f"VENV={venv}", f"LAB_ARGS=--no-browser --ServerApp.port={port} "
                           "--ServerApp.port_retries=0 --ServerApp.ip=127.0.0.1 "
                           "--LabApp.extension_manager=readonly")
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"))
    server = subprocess.Popen(shlex.split(command), cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        url = None
        assert server.stdout is not None
        for line in server.stdout:  # the test's timeout ends a server that prints no URL
            found = re.search(rf"(http://127\.0\.0\.1:{port}/\S+)", line)
            if found:
                url = found.group(1)
                break
        assert url is not None, "JupyterLab printed no URL"
        parts = urllib.parse.urlsplit(url)
        assert parts.path == "/lab/tree/notebooks/01-norwegian-walkthrough.ipynb", url
        assert "token=" in parts.query
        _wait_until_it_answers(f"http://127.0.0.1:{port}/api/status?{parts.query}", server)
        with urllib.request.urlopen(url, timeout=30) as page:  # Lab's page for that notebook
            assert page.status == 200 and b"JupyterLab" in page.read()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def _wait_until_it_answers(url: str, server: subprocess.Popen) -> None:
    """Lab prints its URL a moment before it takes connections: ask until it answers (the
    test's timeout bounds the wait)."""
    while True:
        assert server.poll() is None, "JupyterLab exited"
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.2)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_readme_links_and_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make lab" in text and "make test" in text
    for link in ("docs/replay-format.md", "docs/rules-interpretations.md"):
        assert link in text and (ROOT / link).exists()
