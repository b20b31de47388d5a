"""Serve the built classroom site (lite/_output) on 127.0.0.1: ``make lite-serve``.

Any static web server will do (docs/classroom.md); this one is the standard library's, with
the media types a JupyterLite site needs (WebAssembly, JavaScript modules) set whatever the
machine's own tables say, and caching a browser can trust: each file carries an ETag (a hash
of its bytes) and ``Cache-Control: no-cache``, so a browser keeps the site (and the compiled
WebAssembly that goes with it) and asks at each start whether a file changed: a 304 with no
body if not, the new file if the site was rebuilt. (Dates cannot say it: every file of a build
carries the time of the checkout's last commit, and a rebuild of the same commit with other
changes would look unchanged; a browser left to guess how long a file stays fresh could mix
the files of two builds, and the kernel refuses a wheel whose hash the lockfile does not
name.) JupyterLab's scripts, named by a hash of their contents, are kept for good without
asking (``immutable``): some 300 questions fewer at each start. The browser test
(tests/browser/test_lite.py) and benchmarks/lite_start.py start it too.

    python3 lite/serve.py [FOLDER] [--port 8123]
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import http
import http.server
import os
import re
import sys
from pathlib import Path

TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
         ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
         ".ipynb": "application/json", ".svg": "image/svg+xml", ".css": "text/css"}


# JupyterLab's scripts, named by a hash of their contents (build/9855.9f759d3.js): another
# build names another file, so a browser may keep one for good without asking
HASHED = re.compile(r"/[^/]*\.[0-9a-f]{7,}\.(js|css)$")
_TAGS: dict[tuple[str, int, int, int], str] = {}  # (path, inode, size, mtime) -> ETag


def etag(path: str) -> str:
    """The ETag of the file at ``path``: a hash of its bytes, kept until the file changes."""
    info = os.stat(path)
    key = (path, info.st_ino, info.st_size, info.st_mtime_ns)
    if key not in _TAGS:
        digest = hashlib.sha256()
        with open(path, "rb") as file:
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
        _TAGS[key] = f'"{digest.hexdigest()[:32]}"'
    return _TAGS[key]


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the site's media types and ETags; the log goes quiet."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    _tag: str | None = None

    def send_head(self) -> object:
        self._tag = None
        path = self.translate_path(self.path)
        if os.path.isfile(path):
            self._tag = etag(path)
            asked = self.headers.get("If-None-Match", "")
            if self._tag in (tag.strip().removeprefix("W/") for tag in asked.split(",")):
                self.send_response(http.HTTPStatus.NOT_MODIFIED)
                self.end_headers()
                return None
        return super().send_head()

    def end_headers(self) -> None:
        if self._tag is not None:
            self.send_header("ETag", self._tag)
        if HASHED.search(self.path.split("?")[0]):
            self.send_header("Cache-Control", "max-age=31536000, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")  # keep it, but ask each time
        super().end_headers()

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
