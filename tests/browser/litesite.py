"""The classroom site (``make lite``: lite/_output) in Chromium, with no network but its own:
what tests/browser/test_lite.py and benchmarks/lite_start.py share.

- :func:`served`: the site on 127.0.0.1 (lite/serve.py, as ``make lite-serve`` serves it);
- :class:`RefusingProxy`: the browser's only way out. Chromium is told to send every request
  that is not for the loopback address to this proxy (``--proxy-server``; loopback goes
  direct, as Chromium always does), which refuses each one (403) and records where it was
  going: a page's, a service worker's or a web worker's (the Pyodide kernel runs in one,
  where Playwright's request interception does not reach). No host name resolves either
  (``--host-resolver-rules``), so not even a DNS query leaves the machine;
- :class:`Profile`: a browser profile of its own (a folder: the HTTP cache, the compiled
  WebAssembly, the site's storage), launched as Chromium with those flags. Closing it and
  launching it again on the same folder is a *warm* start, as a student's browser reopening
  the site; a new folder is a *cold* one;
- :func:`open_notebook`: a notebook of the site opened, Run All started, and when the kernel's
  worker started, the kernel answered, and the first viewer was drawn.
"""

from __future__ import annotations

import http.server
import importlib.util
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import harness

SITE = harness.ROOT / "lite" / "_output"
VIEWER = ".cardlab-viewer"


def lite_module(name: str) -> ModuleType:
    """lite/``name``.py (the site's build script or its server) as a module."""
    path = harness.ROOT / "lite" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"lite_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def notebooks() -> list[str]:
    """The notebooks the site ships (lite/build.py's NOTEBOOKS: the walkthrough, the lessons),
    read from notebooks/: a new lesson is in the list without anyone typing it."""
    return [path.name for path in lite_module("build").site_notebooks()]


@contextmanager
def served(folder: Path = SITE) -> Iterator[str]:
    """``folder`` served on 127.0.0.1 by lite/serve.py; its base URL."""
    if not (folder / "index.html").is_file():
        raise RuntimeError(f"{folder} holds no built site: run `make lite` first")
    httpd = lite_module("serve").server(folder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


class _Refuse(http.server.BaseHTTPRequestHandler):
    """Answers any request (CONNECT for https, a full URL for http) with 403, noting it."""

    def refuse(self) -> None:
        self.server.refused.append(f"{self.command} {self.path}")  # type: ignore[attr-defined]
        self.send_response(403)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = refuse
    do_CONNECT = refuse

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base's name)
        pass


# Chromium's own services, which it calls by itself whatever page it shows (form autofill,
# Google sign-in, its component updater, network time), even with --disable-background-
# networking. They are refused like the rest, but are not the site's: :meth:`outside` leaves
# them out. (A request of the site to any other host, Google's or not, is counted.)
BROWSER_SERVICES = frozenset({"content-autofill.googleapis.com", "accounts.google.com",
                              "update.googleapis.com", "clients2.google.com"})


def _host(request: str) -> str:
    """The host a refused request was going to: ``CONNECT host:443``, ``GET http://host/``."""
    target = request.split(" ", 1)[1]
    return target.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]


class RefusingProxy:
    """The proxy every outside request of the browser goes to, and is refused by.

    ``refused`` lists them, e.g. ``"CONNECT example.org:443"`` or
    ``"GET http://example.com/"``; :meth:`outside`, those not of the browser's own services.
    """

    def __init__(self) -> None:
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Refuse)
        self._httpd.refused = []  # type: ignore[attr-defined]
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    @property
    def refused(self) -> list[str]:
        return self._httpd.refused  # type: ignore[attr-defined,no-any-return]

    def outside(self) -> list[str]:
        """The refused requests that are not Chromium's own (BROWSER_SERVICES)."""
        return [request for request in self.refused if _host(request) not in BROWSER_SERVICES]

    def chromium_args(self) -> list[str]:
        """Chromium's flags that leave it only 127.0.0.1 and this proxy."""
        return [f"--proxy-server=http://127.0.0.1:{self._httpd.server_port}",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


class Profile:
    """One browser profile (``folder``), launched as Chromium with no network but loopback
    (``proxy``); ``page_errors`` collects the uncaught errors of its pages."""

    def __init__(self, playwright: Any, folder: Path, proxy: RefusingProxy) -> None:
        if not harness.CHROMIUM.exists():
            raise RuntimeError(f"{harness.CHROMIUM} is absent: install Debian's chromium")
        self.page_errors: list[str] = []
        self.context = playwright.chromium.launch_persistent_context(
            str(folder), executable_path=str(harness.CHROMIUM),
            args=[*harness.CHROMIUM_ARGS, *proxy.chromium_args()],
            viewport={"width": 1280, "height": 900})

    def new_page(self) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        return page

    def close(self) -> None:
        self.context.close()


@dataclass
class Start:
    """Seconds from opening a notebook until: the kernel's worker started (the page loaded
    JupyterLite and opened the notebook), the kernel answered (Pyodide started and loaded
    its packages, IPython imported), the first viewer was drawn (the first cell ran)."""

    worker: float
    ready: float
    viewer: float
    opened: float  # time.monotonic() as the notebook was opened


    def __str__(self) -> str:
        return (f"first viewer {self.viewer:.1f} s (the kernel's worker at {self.worker:.1f} s, "
                f"the kernel ready at {self.ready:.1f} s)")


def open_notebook(profile: Profile, base: str, notebook: str,
                  timeout_ms: int = 300_000) -> tuple[Any, Start]:
    """A page on the site's ``notebook`` (the Notebook view) with Run All started, and when
    its worker, its kernel and its first viewer were there. The cells go on running."""
    page = profile.new_page()
    worker: list[float] = []
    start = time.monotonic()
    page.on("worker", lambda _: worker.append(time.monotonic() - start))
    page.goto(f"{base}notebooks/index.html?path=notebooks/{notebook}")
    harness.start_run_all(page, timeout_ms)
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext"
                           ".session?.kernel", timeout=timeout_ms)
    page.evaluate("async () => { await window.jupyterapp.shell.currentWidget"
                  ".sessionContext.session.kernel.info; }")
    ready = time.monotonic() - start
    page.locator(VIEWER).first.wait_for(timeout=timeout_ms)
    viewer = time.monotonic() - start
    return page, Start(worker[0] if worker else float("nan"), ready, viewer, start)


# Runs code in the kernel of the notebook on show and returns what it printed (and the
# error's name and value, if it raised).
KERNEL_PRINT = """async (code) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const future = kernel.requestExecute({code, silent: false, store_history: false});
    let out = '';
    future.onIOPub = (msg) => {
        if (msg.header.msg_type === 'stream') out += msg.content.text;
        if (msg.header.msg_type === 'error') out += msg.content.ename + ': ' + msg.content.evalue;
    };
    await future.done;
    return out;
}"""


def kernel_print(page: Any, code: str) -> str:
    """What ``code`` printed, run in the kernel of the notebook on ``page``."""
    return str(page.evaluate(KERNEL_PRINT, code))

