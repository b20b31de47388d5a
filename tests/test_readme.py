"""The README's 30-second tour runs as written."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_tour_runs(tmp_path, monkeypatch, capsys):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = text[text.index("## A 30-second tour"):]
    code = re.search(r"```python\n(.*?)```", tour, re.S).group(1)
    shutil.copytree(ROOT / "replays", tmp_path / "replays")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert (tmp_path / "my-game.json").exists()
    assert namespace["branch"].actions[0].act == "play black12"
    assert "Trick 4: Remo red12, Kathrine red20, Brad black3, Tone red14" in capsys.readouterr().out
    assert "make lab" in text and "make test" in text
    for link in ("docs/replay-format.md", "docs/rules-interpretations.md"):
        assert link in text and (ROOT / link).exists()
