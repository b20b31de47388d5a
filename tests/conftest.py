"""Checks for the whole suite before it runs.

``make test-matrix`` (scripts/matrix.py) runs the suite against a wheel installed into a fresh
virtual environment. It sets ``CARDLAB_TEST_INSTALLED=1``; the suite then refuses to run when
``import cardlab`` finds this checkout's copy instead, which would test the wrong thing and pass.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get("CARDLAB_TEST_INSTALLED") != "1":
        return
    import cardlab

    where = Path(cardlab.__file__).resolve()
    if where.is_relative_to(ROOT / "cardlab"):
        raise pytest.UsageError(f"CARDLAB_TEST_INSTALLED=1, yet cardlab was imported from the "
                                f"checkout ({where}), not from the installed wheel")
