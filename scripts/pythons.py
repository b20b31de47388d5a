"""Find the CPython interpreters that cardlab supports, for ``make dist`` and ``make test-matrix``.

An interpreter is taken from ``python3.X`` on the PATH when that runs, otherwise from pyenv's
versions folder (pyenv's shims answer only for the versions pyenv has selected, so a machine
with 3.10–3.13 installed under pyenv often runs none of them by that name).

    >>> from pythons import SUPPORTED
    >>> SUPPORTED[0], SUPPORTED[-1]
    ('3.10', '3.13')
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

# The Pythons of pyproject.toml's classifiers (tests/test_packaging.py keeps the two equal).
SUPPORTED = ("3.10", "3.11", "3.12", "3.13")


def _version_of(python: str) -> str | None:
    """The major.minor ``python`` says it is, or None when it does not run."""
    try:
        done = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=60)
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _pyenv_root() -> Path | None:
    if os.environ.get("PYENV_ROOT"):
        return Path(os.environ["PYENV_ROOT"])
    pyenv = shutil.which("pyenv")
    if pyenv is None:
        return None
    done = subprocess.run([pyenv, "root"], capture_output=True, text=True, timeout=60)
    return Path(done.stdout.strip()) if done.returncode == 0 else None


def find_python(version: str) -> str:
    """The path of a CPython ``version`` ("3.12") interpreter; SystemExit with one line if none."""
    on_path = shutil.which(f"python{version}")
    if on_path and _version_of(on_path) == version:
        return on_path
    root = _pyenv_root()
    if root is not None:
        for folder in sorted((root / "versions").glob(f"{version}.*"), reverse=True):
            candidate = folder / "bin" / f"python{version}"
            if candidate.exists() and _version_of(str(candidate)) == version:
                return str(candidate)
    raise SystemExit(f"no Python {version} found (neither python{version} on the PATH nor "
                     f"under pyenv); install it, or leave it out with PYTHONS=...")


def tag(version: str) -> str:
    """The wheel tag of a CPython version: ``tag("3.10") == "cp310"``."""
    return "cp" + version.replace(".", "")
