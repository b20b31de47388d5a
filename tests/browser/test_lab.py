"""A real browser runs notebook 01 in JupyterLab, clicks the viewer's Next button and steps on
with the keyboard.

Debian's Chromium (``/usr/bin/chromium``) driven by Playwright; Playwright's own browser
builds are never downloaded. Without Chromium the test fails and says how to install it
(``.ci/run`` does, with apt-get); to leave it out on purpose, deselect it with
``make test PYTEST_ARGS='-m "not browser"'``. The JupyterLab server runs on 127.0.0.1 on a
free port, in its own process group, on a temporary copy of the notebook and the replay (so
autosave cannot touch the repository), and is stopped afterwards.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
NOTEBOOK = "01-norwegian-walkthrough.ipynb"
ARTIFACTS = ROOT / "artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
START_TIMEOUT = 60.0
RUN_TIMEOUT_MS = 120_000


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _settings(folder: Path) -> None:
    """Lab settings: no news or update toast over the page, no autosave."""
    notes = folder / "@jupyterlab" / "apputils-extension"
    notes.mkdir(parents=True)
    (notes / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    docs = folder / "@jupyterlab" / "docmanager-extension"
    docs.mkdir(parents=True)
    (docs / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is absent: install Debian's chromium (apt-get install "
                    "chromium; .ci/run does), or leave this test out on purpose with "
                    "make test PYTEST_ARGS='-m \"not browser\"'")
    base = tmp_path_factory.mktemp("lab")
    work = base / "work"
    (work / "notebooks").mkdir(parents=True)
    shutil.copytree(ROOT / "replays", work / "replays")
    shutil.copy(ROOT / "notebooks" / NOTEBOOK, work / "notebooks" / NOTEBOOK)
    settings = base / "settings"
    _settings(settings)
    port = _free_port()
    token = secrets.token_hex(16)
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(settings),
               JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"),
               JUPYTER_RUNTIME_DIR=str(base / "runtime"),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                        os.environ.get("PYTHONPATH")])),
               PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD="1")
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={work}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    log = (base / "lab.log").open("wb")
    server = subprocess.Popen(command, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)  # its own process group
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if server.poll() is not None:
                pytest.fail(f"JupyterLab exited early:\n{(base / 'lab.log').read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("JupyterLab did not answer within a minute")
                time.sleep(0.3)
        yield {"url": url, "token": token, "log": base / "lab.log"}
    finally:
        _stop(server)
        log.close()


def _stop(server: subprocess.Popen) -> None:
    """Stop exactly the server's process group (the server and its kernels)."""
    if server.poll() is None:
        try:
            os.killpg(server.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=5)
    try:  # kernels started by the server share its group: make sure none is left
        os.killpg(server.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


TITLES = """(viewer) => Array.from(viewer.querySelectorAll('.cardlab-trick .cl-card'))
    .map((card) => card.getAttribute('title'))"""


def test_run_notebook_01_and_click_next(lab):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 2200})
        try:
            page.goto(f"{lab['url']}/lab/tree/notebooks/{NOTEBOOK}?token={lab['token']}")
            page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]',
                                   timeout=RUN_TIMEOUT_MS)
            page.locator(".jp-Notebook .jp-Cell").first.click()
            page.locator(".lm-MenuBar-item", has_text="Run").first.click()
            page.locator('li[data-command="runmenu:run-all"]').click()
            # every code cell has run when each prompt shows its execution count
            page.wait_for_function(
                """() => {
                    const prompts = Array.from(document.querySelectorAll(
                        '.jp-Notebook .jp-CodeCell .jp-InputArea-prompt'));
                    return prompts.length > 0 &&
                        prompts.every((p) => /\\[\\d+\\]/.test(p.textContent));
                }""", timeout=RUN_TIMEOUT_MS)
            errors = page.locator('.jp-OutputArea-output[data-mime-type='
                                  '"application/vnd.jupyter.error"]')
            assert errors.count() == 0, errors.first.inner_text()

            viewer = page.locator(".cardlab-viewer").first
            viewer.scroll_into_view_if_needed()
            page.wait_for_function(f"() => ({TITLES})(document.querySelector('.cardlab-viewer'))"
                                   ".join(' ') === 'red12'", timeout=30_000)
            assert "led by Remo" in (viewer.locator(".cardlab-trick").text_content() or "")

            viewer.locator("button.cardlab-next").click()
            page.wait_for_function(f"() => ({TITLES})(document.querySelector('.cardlab-viewer'))"
                                   ".join(' ') === 'red12 red20'", timeout=30_000)
            trick = viewer.locator(".cardlab-trick")
            assert trick.locator(".cl-card").evaluate_all(
                "cards => cards.map(c => c.getAttribute('title'))") == ["red12", "red20"]
            assert "Kathrine" in (trick.text_content() or "")
            # the key pad: focus it, and the right arrow steps on (Brad trumps with the 3)
            viewer.locator(".cardlab-keys-pad").click()
            page.keyboard.press("ArrowRight")
            page.wait_for_function(f"() => ({TITLES})(document.querySelector('.cardlab-viewer'))"
                                   ".join(' ') === 'red12 red20 black3'", timeout=30_000)
            # the seat boxes, the score sheet and the chart are drawn too
            assert viewer.locator(".cardlab-seat-box").count() == 4
            assert viewer.locator(".cardlab-sheet table.cl-sheet").count() == 1
            page.wait_for_selector(".cardlab-viewer .js-plotly-plot", timeout=30_000)

            ARTIFACTS.mkdir(exist_ok=True)
            viewer.screenshot(path=str(ARTIFACTS / "lab-viewer.png"))
        except Exception:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "lab-failure.png"))
            prompts = page.locator(".jp-InputArea-prompt").all_text_contents()
            print("prompts when it failed:", prompts)
            raise
        finally:
            browser.close()
