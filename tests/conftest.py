"""Checks for the whole suite before it runs.

``make test-matrix`` (scripts/matrix.py) runs the suite against a wheel installed into a fresh
virtual environment. It sets ``CARDLAB_TEST_INSTALLED=1``; the suite then refuses to run when
``import cardlab`` finds anything but the environment's installed copy (a checkout's, say),
which would test the wrong thing and pass.
"""

from __future__ import annotations

import os
import sysconfig
from pathlib import Path

import pytest


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get("CARDLAB_TEST_INSTALLED") != "1":
        return
    import cardlab

    where = Path(cardlab.__file__).resolve()
    installed = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    if not any(where.is_relative_to(folder) for folder in installed):
        raise pytest.UsageError(f"CARDLAB_TEST_INSTALLED=1, yet cardlab was imported from "
                                f"{where}, not from this environment's installed packages")
