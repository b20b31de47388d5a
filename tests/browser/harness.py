"""The pieces the browser tests (and ``benchmarks/viewer_step.py``) share: Debian's Chromium
driven by Playwright, a JupyterLab server in its own process group, an offline page.

Nothing here downloads anything: Playwright's own browser builds are never fetched
(``PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1``, ``executable_path=/usr/bin/chromium``), the Lab server
listens on 127.0.0.1 only, and offline pages run with every non-``file:`` request aborted.
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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "artifacts"  # git-ignored: screenshots for a human to look at
SHOTS = Path("/tmp/shots")  # the same screenshots, outside the tree
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark",
          "high-contrast": "JupyterLab Dark High Contrast"}
START_TIMEOUT = 60.0


def launch(playwright: Any) -> Any:
    """Debian's Chromium, headless (never a browser Playwright would download)."""
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} is absent: install Debian's chromium (apt-get install "
                           "chromium), or leave the browser tests out on purpose with "
                           "make test PYTEST_ARGS='-m \"not browser\"'")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def write_settings(folder: Path, theme: str = "light") -> None:
    """Lab user settings: the theme, no news or update toast over the page, no autosave.

    The server reads these files at each page load, so a new theme needs a reload, not a
    restart.
    """
    apputils = folder / "@jupyterlab" / "apputils-extension"
    apputils.mkdir(parents=True, exist_ok=True)
    (apputils / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    (apputils / "themes.jupyterlab-settings").write_text(json.dumps({"theme": THEMES[theme]}))
    docs = folder / "@jupyterlab" / "docmanager-extension"
    docs.mkdir(parents=True, exist_ok=True)
    (docs / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}))


class LabServer:
    """JupyterLab on 127.0.0.1 serving ``work``, in its own process group."""

    def __init__(self, work: Path, base: Path) -> None:
        self.work = work
        self.settings = base / "settings"
        write_settings(self.settings)
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = base / "lab.log"
        env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(self.settings),
                   JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"),
                   JUPYTER_RUNTIME_DIR=str(base / "runtime"),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                            os.environ.get("PYTHONPATH")])))
        command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
                   f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
                   f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={work}",
                   # window.jupyterapp, to read the active cell and run Lab commands
                   "--LabApp.expose_app_in_browser=True",
                   # no extension manager asking PyPI for anything
                   "--LabApp.extension_manager=readonly"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-root")
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(command, cwd=work, env=env, stdout=self._log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        try:
            self._wait()
        except BaseException:
            self.stop()
            raise

    def _wait(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterLab exited early:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/status?token={self.token}",
                                            timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"JupyterLab did not answer within {START_TIMEOUT:.0f} s:"
                                       f"\n{self.log_tail()}") from None
                time.sleep(0.3)

    def log_tail(self, chars: int = 3000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:]

    def set_theme(self, theme: str) -> None:
        write_settings(self.settings, theme)

    def notebook_url(self, path: str) -> str:
        """The notebook alone in a fresh workspace of its own: Lab would otherwise reopen the
        documents an earlier page had open, and the notebook on show would not be this one."""
        self._pages = getattr(self, "_pages", 0) + 1
        return (f"{self.url}/lab/workspaces/page{self._pages}/tree/{path}"
                f"?reset&token={self.token}")

    def stop(self) -> None:
        """Stop exactly the server's process group (the server and its kernels)."""
        server = self.process
        if server.poll() is None:
            try:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=15)
            except ProcessLookupError:
                pass
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=5)
        try:  # kernels started by the server share its group: make sure none is left
            os.killpg(server.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._log.close()


# The error outputs of the notebook on show, read from its model: the DOM marks an error
# output with the stderr mime type, like any warning, so the DOM cannot tell them apart.
CELL_ERRORS = """() => {
    const out = [];
    for (const cell of window.jupyterapp.shell.currentWidget.content.widgets) {
        if (cell.model.type !== 'code') continue;
        for (const o of cell.model.outputs.toJSON()) {
            if (o.output_type === 'error') {
                out.push(o.ename + ': ' + o.evalue + '\\n' + (o.traceback || []).join('\\n')
                    .replace(/\\u001b\\[[0-9;]*m/g, ''));
            }
        }
    }
    return out;
}"""

# Every code cell has run when each prompt shows its execution count; "Run All" stops at
# the first error, so an error output ends the wait too.
RUN_ALL_DONE = """() => {
    const prompts = Array.from(document.querySelectorAll(
        '.jp-Notebook .jp-CodeCell .jp-InputArea-prompt'));
    return (""" + CELL_ERRORS + """)().length > 0 ||
        (prompts.length > 0 && prompts.every((p) => /\\[\\d+\\]/.test(p.textContent)));
}"""


RUN_ALL = """async () => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    await panel.context.ready;
    await panel.sessionContext.ready;
    return await app.commands.execute('notebook:run-all-cells');
}"""


def start_run_all(page: Any, timeout_ms: int = 120_000) -> None:
    """Start running every cell of the open notebook (Lab's own "Run All Cells" command, once
    its kernel is ready; clicking the Run menu is flaky on a loaded machine), not waiting for
    the cells: another notebook may run meanwhile."""
    page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]',
                           timeout=timeout_ms)
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.sessionContext",
                           timeout=timeout_ms)
    page.evaluate("() => { window.__cardlabRunAll = (" + RUN_ALL + ")(); }")


def wait_run_all(page: Any, timeout_ms: int = 120_000) -> None:
    """Wait until every cell has run, or one has failed."""
    page.wait_for_function(RUN_ALL_DONE, timeout=timeout_ms)
    page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]',
                           timeout=timeout_ms)


def run_all_cells(page: Any, timeout_ms: int = 120_000) -> None:
    """Run every cell of the open notebook and wait until all have run or one has failed."""
    start_run_all(page, timeout_ms)
    wait_run_all(page, timeout_ms)


def cell_errors(page: Any) -> list[str]:
    """The tracebacks of the cells that failed, as plain text."""
    return list(page.evaluate(CELL_ERRORS))


class Offline:
    """Every request a page makes that is not for a ``file:`` URL (or another of ``allow``,
    e.g. the Lab server's own address) is aborted and recorded; so are failed requests,
    console errors and uncaught page errors."""

    def __init__(self, page: Any, allow: tuple[str, ...] = ("file:",)) -> None:
        self.page = page
        self.allow = allow
        self.blocked: list[str] = []
        self.failed: list[str] = []
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        page.route("**/*", self._route)
        page.on("requestfailed", lambda request: self.failed.append(request.url))
        page.on("console", lambda msg: self.console_errors.append(msg.text)
                if msg.type == "error" else None)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))

    def _route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(self.allow):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def problems(self) -> dict[str, list[str]]:
        """Everything that went wrong (empty lists when the page was self-contained)."""
        return {"network requests": self.blocked, "failed loads": self.failed,
                "console errors": self.console_errors, "page errors": self.page_errors}


def notebook(*sources: str | list[str]) -> dict[str, Any]:
    """A notebook (nbformat 4, the Python 3 kernel) of code cells not yet run, one a source."""
    return {
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                   "source": source} for source in sources],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                    "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5,
    }


@contextmanager
def open_notebook(chromium: Any, lab: LabServer, name: str, theme: str,
                  viewport: tuple[int, int] = (1024, 768), *, ready: str,
                  artifact: str) -> Iterator[Any]:
    """A page of ``lab`` in ``theme`` showing the notebook ``name`` with every cell run (none
    failed) and the element ``ready`` (a Playwright selector) shown. On leaving, the page made
    no request outside the Lab server and raised nothing; on a failure inside, a screenshot
    goes to ``artifacts/{artifact}-{theme}-failure.png``. The page is closed either way."""
    lab.set_theme(theme)
    page = chromium.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    local = Offline(page, allow=(lab.url + "/",))
    try:
        page.goto(lab.notebook_url(name))
        page.wait_for_function("(theme) => document.body.dataset.jpThemeName === theme",
                               arg=THEMES[theme], timeout=60_000)
        run_all_cells(page)
        errors = cell_errors(page)
        assert not errors, errors[0][-3000:]
        page.locator(ready).first.wait_for()
        yield page
        assert not local.blocked and not local.page_errors, local.problems()
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{artifact}-{theme}-failure.png"))
        raise
    finally:
        page.close()


def shoot(page: Any, root: Any, name: str) -> None:
    """A screenshot of ``page`` with ``root`` scrolled into view, to ``artifacts/`` and
    ``/tmp/shots/`` as ``name``."""
    root.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))
    shutil.copy(ARTIFACTS / name, SHOTS / name)

# Runs Python in the kernel of the notebook on show (no cell, no execution count): how a test
# reads what the kernel holds, e.g. the replay after the notebook added a variation to it.
KERNEL_EXEC = """async (code) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const future = kernel.requestExecute({code, silent: false, store_history: false});
    let error = null;
    future.onIOPub = (msg) => {
        if (msg.header.msg_type === 'error') error = msg.content.ename + ': ' + msg.content.evalue;
    };
    const reply = await future.done;
    return error || reply.content.status;
}"""


def kernel_exec(page: Any, code: str) -> None:
    status = page.evaluate(KERNEL_EXEC, code)
    if status != "ok":
        raise AssertionError(f"the kernel could not run {code!r}: {status}")


# The active cell, the cells' prompts and the notebook's mode: what a JupyterLab shortcut
# (ArrowDown moves to the next cell in command mode, Shift+Enter runs one) would change.
LAB_STATE = """() => {
    const notebook = window.jupyterapp.shell.currentWidget.content;
    return {active: notebook.activeCellIndex, mode: notebook.mode,
            cells: notebook.widgets.length,
            prompts: Array.from(document.querySelectorAll(
                '.jp-Notebook .jp-CodeCell .jp-InputArea-prompt')).map((p) => p.textContent)};
}"""
