"""The README's 30-second tour runs as written, from a notebook's working directory.

``make lab`` serves the repository root and opens the walkthrough; a notebook's kernel runs in
``notebooks/``, so the tour must not depend on the folder it runs in.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

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


def test_make_lab_opens_the_walkthrough_at_the_repository_root():
    out = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    command = next(line for line in out.splitlines() if "jupyter lab" in line)
    assert f'"--ServerApp.root_dir={ROOT}"' in command
    assert command.endswith("notebooks/01-norwegian-walkthrough.ipynb")
    assert (ROOT / "notebooks" / "01-norwegian-walkthrough.ipynb").exists()


def test_the_readme_links_and_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make lab" in text and "make test" in text
    for link in ("docs/replay-format.md", "docs/rules-interpretations.md"):
        assert link in text and (ROOT / link).exists()
