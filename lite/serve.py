"""Serve the built classroom site (lite/_output) on 127.0.0.1: ``make lite-serve``.

Any static web server will do (docs/classroom.md); this one is the standard library's, with
the media types a JupyterLite site needs (WebAssembly, JavaScript modules) set whatever the
machine's own tables say. The browser test (tests/browser/test_lite.py) starts it too.

    python3 lite/serve.py [FOLDER] [--port 8123]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
from pathlib import Path

TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
         ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
         ".ipynb": "application/json", ".svg": "image/svg+xml", ".css": "text/css"}


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the site's media types; the log goes quiet."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base's name)
        pass


def server(folder: Path, port: int = 0) -> http.server.ThreadingHTTPServer:
    """A server of ``folder`` on 127.0.0.1 (port 0: any free port; its ``server_port``)."""
    if not (folder / "index.html").is_file():
        raise SystemExit(f"{folder} holds no built site (no index.html): run `make lite` first")
    handler = functools.partial(Handler, directory=str(folder))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve(folder: Path, port: int) -> None:
    with server(folder, port) as httpd:
        print(f"serving {folder} on http://127.0.0.1:{httpd.server_port}/ "
              "(lab/index.html: JupyterLab; Ctrl+C stops)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass


def main() -> None:
    parser = argparse.ArgumentParser(description="serve the built classroom site")
    parser.add_argument("folder", nargs="?", type=Path,
                        default=Path(__file__).resolve().parent / "_output")
    parser.add_argument("--port", type=int, default=8123)
    args = parser.parse_args()
    serve(args.folder, args.port)
    sys.exit(0)


if __name__ == "__main__":
    main()
