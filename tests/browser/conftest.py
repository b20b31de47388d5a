"""Fixtures shared by the browser tests: one Chromium and one JupyterLab server per session.

Every test module here is marked ``browser`` (``pytestmark``). They need Debian's Chromium
(``/usr/bin/chromium``) and fail, saying so, without it; leave them out on purpose with
``make test PYTEST_ARGS='-m "not browser"'``. The Lab server works on a temporary copy of the
notebooks and replays (autosave is off as well, so nothing can touch the repository).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import harness
import pytest


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright, once per session (a second one cannot start beside it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as started:
        yield started


@pytest.fixture(scope="session")
def chromium(playwright: Any) -> Iterator[Any]:
    try:
        browser = harness.launch(playwright)
    except RuntimeError as err:
        pytest.fail(str(err))
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[harness.LabServer]:
    """JupyterLab serving a copy of ``notebooks/`` and ``replays/`` (tests may add files)."""
    base = tmp_path_factory.mktemp("lab")
    work = base / "work"
    shutil.copytree(harness.ROOT / "replays", work / "replays")
    shutil.copytree(harness.ROOT / "notebooks", work / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    try:
        server = harness.LabServer(work, base)
    except RuntimeError as err:
        pytest.fail(str(err))
    yield server
    server.stop()


@pytest.fixture()
def artifacts() -> Path:
    harness.ARTIFACTS.mkdir(exist_ok=True)
    return harness.ARTIFACTS
