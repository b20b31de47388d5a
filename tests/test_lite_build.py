"""The classroom site is reproducible: the same checkout builds it again, file for file.

lite/build.py builds the site a second time, into a temporary folder, from the downloads
``make lite`` kept in lite/.downloads (with pip told to use no index, so nothing could come
from the registries), and every file of it is compared (its sha256) with lite/_output. A
difference names the files: a build that depends on the clock, the order of a dict, the
machine's name, or a site older than its sources (``make test`` rebuilds it first).

Marked ``lite`` (``make test`` leaves it out until ``make lite`` has built the site) and
``checkout`` (it runs the repository's own build, which needs its sources).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

pytestmark = [pytest.mark.lite, pytest.mark.checkout, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "lite" / "_output"
PYTHON = ROOT / "lite" / ".venv" / "bin" / "python"


def hashes(folder: Path) -> dict[str, str]:
    """Each file under ``folder`` (by its path there): the sha256 of its bytes."""
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def test_the_site_builds_again_file_for_file(tmp_path: Path) -> None:
    if not (SITE / "index.html").is_file() or not PYTHON.exists():
        pytest.fail(f"{SITE} holds no built site: run `make lite` first (make test leaves "
                    "this test out until then)")
    again = tmp_path / "site"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([str(PYTHON), "lite/build.py", "--output", str(again)], cwd=ROOT,
                          env={**env, "PIP_NO_INDEX": "1"}, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert not (tmp_path / "site.stage").exists()  # the staging folder is removed
    first, second = hashes(SITE), hashes(again)
    assert len(first) > 100
    only = sorted(set(first) ^ set(second))
    assert only == [], f"in one build only: {only[:20]}"
    differ = sorted(name for name in first if first[name] != second[name])
    assert differ == [], f"{len(differ)} files differ: {differ[:20]}"
