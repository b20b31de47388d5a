"""The front-ends' files, put together: each widget's one ES module and one stylesheet, and the
scripts a standalone page inlines.

anywidget takes one module string (``_esm``) and one stylesheet (``_css``), with no build step,
and a page can import nothing (it works offline, under a Content-Security-Policy that allows
inline script only). So the shared pieces are joined in at import, as text:

- ``common.js`` (``el``, ``svg``, ``button``, ``themeIsDark``, ``cardFace``, ``cardBack``)
  comes first in every front-end's module, then the front-end's own file, then the files
  that extend it (``moves.js``, ``evaluate.js`` and ``present.js`` for the viewer), then the
  front-end's export line;
- ``cards.css`` (the card faces, one look everywhere) comes first in every stylesheet (the
  viewer's is ``viewer.css`` then ``present.css``);
- a page's script is the same module without its export line, followed by the boot files
  that draw the page's widgets with a stand-in for the widget model (``model.js``);
- the viewer's widget adds ``packed.js`` and enters by ``renderPacked``: its movie travels
  gzipped (the ``packed`` trait), which ``packed.js`` unpacks before ``render`` sees it.

>>> source = module(*VIEWER)
>>> source.index("function el(") < source.index("function render(") \\
...     < source.index("function evaluateView") < source.index("function presentView") \\
...     < source.index(EXPORT)
True
>>> source.count(EXPORT), source.endswith(EXPORT + "\\n")
(1, True)
>>> EXPORT in script(*VIEWER, boot=[VIEW / "page.js"])
False
>>> module(*VIEWER, PACKED, entry="renderPacked").endswith(
...     "export default { render: renderPacked };\\n")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

VIEW = Path(__file__).parent
COMMON = VIEW / "common.js"
CARDS = VIEW / "cards.css"
MODEL = VIEW / "model.js"
EXPORT = "export default { render };"
# the viewer, which moves.js (the move list), evaluate.js (the advisor's numbers) and
# present.js (the projector mode) extend; its stylesheets likewise
VIEWER = (VIEW / "viewer.js", VIEW / "moves.js", VIEW / "evaluate.js", VIEW / "present.js")
VIEWER_CSS = (VIEW / "viewer.css", VIEW / "present.css")
PACKED = VIEW / "packed.js"  # the widget's movie, unpacked in the browser


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def export_line(entry: str = "render") -> str:
    """The module's export line: anywidget calls ``render``, here the function ``entry``."""
    return EXPORT if entry == "render" else f"export default {{ render: {entry} }};"


def module(main: Path, *extras: Path, entry: str = "render") -> str:
    """One ES module: ``common.js``, the front-end ``main`` (which ends with its one export
    line), then ``extras``, then the export line, whose ``render`` is the function
    ``entry``."""
    text = _read(main)
    if text.count(EXPORT) != 1:
        raise RuntimeError(f"{main.name} must hold its one export line")  # our own file
    body = text.replace(EXPORT, "").rstrip("\n")
    parts = [_read(COMMON).rstrip("\n"), body, *(_read(p).rstrip("\n") for p in extras)]
    return "\n\n".join(parts) + "\n\n" + export_line(entry) + "\n"


def script(main: Path, *extras: Path, boot: Sequence[Path]) -> str:
    """The body of a page's ``<script type="module">``: :func:`module` without its export
    line, then ``model.js`` and the ``boot`` files, which draw the page's widgets. It must
    not hold ``</script``, which would end the element early."""
    parts = [module(main, *extras).replace(EXPORT, "").rstrip("\n"), _read(MODEL).rstrip("\n"),
             *(_read(p).rstrip("\n") for p in boot)]
    text = "\n\n".join(parts) + "\n"
    if "</script" in text.lower():
        raise RuntimeError(f"{main.name} cannot be inlined as it is")  # our own files
    return text


def inline(*files: Path, wrap: bool = False) -> str:
    """``files`` as the body of one classic ``<script>`` (``wrap``: inside a function, so the
    names they declare are no globals of the page). It must not hold ``</script``."""
    text = "\n\n".join(_read(p).rstrip("\n") for p in files)
    if wrap:
        text = f"(function () {{\n{text}\n}})();"
    if "</script" in text.lower():
        raise RuntimeError(f"{files[-1].name} cannot be inlined as it is")  # our own files
    return text + "\n"


def stylesheet(*sheets: Path) -> str:
    """One stylesheet: ``cards.css``, then ``sheets``. Ready to inline in a ``<style>`` too
    (it cannot hold ``</style``)."""
    text = "\n".join(_read(p).rstrip("\n") for p in (CARDS, *sheets)) + "\n"
    if "</style" in text.lower():
        raise RuntimeError("a stylesheet cannot be inlined as it is")  # our own files
    return text


__all__ = ["EXPORT", "MODEL", "PACKED", "VIEW", "VIEWER", "VIEWER_CSS", "export_line", "inline",
           "module", "script", "stylesheet"]
