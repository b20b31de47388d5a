"""The standalone page: one self-contained HTML file that steps through a replay offline.

The page runs the very front-end of the notebook viewer (``viewer.js`` and ``viewer.css``,
inlined) on the movie embedded as JSON, with a small model object in place of the widget's
(``get``, ``set``, ``on``, ``off``, ``save_changes``, ``send``). It loads nothing from the
network. A teacher e-mails it or puts it on the school's site.

The movie is JSON inside ``<script type="application/json">``, with ``<``, ``>``, ``&`` and
U+2028/U+2029 written as ``\\uXXXX`` escapes, so no string of the replay can end that script
element or start markup; the front-end inserts every string as text. A page made for one seat
holds only that seat's view of the replay.

>>> import cardlab
>>> page = page_html(cardlab.load("replays/norwegian-review.json"), seat="Brad")
>>> page.startswith("<!DOCTYPE html>"), "https://" in page, '"views":{"Brad":' in page
(True, False, True)
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import Any

from ..files import write_text
from ..replay import Replay
from .movie import assemble, build_views, check_lang, seat_index

HERE = Path(__file__).parent
EXPORT = "export default { render };"

# The page's stand-in for the widget model: the movie and where the viewer stands, kept in
# `state`; `send` has no kernel to go to (the what-if controls are hidden). The handouts boot
# their viewers with it too.
PAGE_MODEL = """
function pageModel(state) {
  const handlers = {};
  return {
    get: (key) => state[key],
    set: (key, value) => {
      const changed = state[key] !== value;
      state[key] = value;
      if (changed) for (const f of (handlers["change:" + key] || []).slice()) f();
    },
    on: (event, f) => { (handlers[event] = handlers[event] || []).push(f); },
    off: (event, f) => { handlers[event] = (handlers[event] || []).filter((g) => g !== f); },
    save_changes: () => {},
    send: () => {},
  };
}
"""

BOOT = PAGE_MODEL + """
const movie = JSON.parse(document.getElementById("cardlab-movie").textContent);
const state = { movie, step: 0, seat: movie.start || "", line: 0, lang: movie.lang,
  show_all: false, big: false, evaluate: false };
const model = pageModel(state);
render({ model, el: document.getElementById("cardlab-root") });
document.querySelector(".cardlab-viewer").focus();
"""


def script_json(data: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: it cannot close the element or open a
    comment, whatever its strings hold.

    >>> script_json({"x": "</script><b>&"})
    '{"x":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def module_source() -> str:
    """The front-end's one ES module: ``viewer.js`` with ``evaluate.js`` (the advisor's
    part, kept in its own file to stay readable) put before its export line.

    >>> source = module_source()
    >>> source.index("function evaluateView") < source.index(EXPORT)
    True
    """
    js = (HERE / "viewer.js").read_text(encoding="utf-8")
    extra = (HERE / "evaluate.js").read_text(encoding="utf-8")
    if js.count(EXPORT) != 1:
        raise RuntimeError("viewer.js must end with its one export line")  # our own file
    return js.replace(EXPORT, extra + "\n" + EXPORT)


def _front_end() -> tuple[str, str]:
    js = module_source()
    css = (HERE / "viewer.css").read_text(encoding="utf-8")
    if EXPORT not in js or "</script" in js.lower() or "</style" in css.lower():
        raise RuntimeError("viewer.js/viewer.css cannot be inlined as they are")  # our files
    return js.replace(EXPORT, ""), css


def page_movie(replay: Replay, seat: int | str | None = None, lang: str | None = None,
               views: dict[str, Any] | None = None) -> dict[str, Any]:
    """The movie a page embeds: every view, or with ``seat`` that seat's alone."""
    lang = check_lang(replay, lang)
    if seat is None:
        if views is None or "" not in views:
            views = build_views(replay, [None, *range(len(replay.seats))], relative=True)
        movie = assemble(replay, views, lang, explore=False)
        movie["choices"] = list(views)
    else:
        index = seat_index(replay, seat)
        name = replay.seats[index]
        movie = assemble(replay, build_views(replay, [index]), lang, explore=False)
        movie["choices"] = [name]
        movie["start"] = name
    return movie


def page_html(replay: Replay, seat: int | str | None = None, lang: str | None = None,
              views: dict[str, Any] | None = None) -> str:
    """The whole page as a string (see the module's docstring)."""
    movie = page_movie(replay, seat, lang, views)
    js, css = _front_end()
    title = html.escape(str(movie["title"]))
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{html.escape(movie["lang"])}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">"
        f"<title>{title}</title>"
        f"<style>\nbody{{margin:0;padding:12px;background:#e9e7df}}\n{css}</style></head>"
        # the title as the page's heading, for screen readers (the viewer shows it itself)
        f'<body><main id="cardlab-root"><h1 style="position:absolute;left:-10000px;'
        f'width:1px;height:1px;overflow:hidden">{title}</h1></main>\n'
        f'<script type="application/json" id="cardlab-movie">{script_json(movie)}</script>\n'
        f'<script type="module">\n{js}\n{BOOT}</script>\n'
        "</body></html>\n"
    )


def page_iframe(replay: Replay, seat: str | None = None, lang: str | None = None,
                views: dict[str, Any] | None = None, height: int = 1000) -> str:
    """The page inside a sandboxed ``<iframe srcdoc>`` in a ``div.cardlab-export``: what a
    notebook's HTML export shows where no kernel runs (a live viewer hides it)."""
    page = page_html(replay, seat, lang, views)
    return (f'<div class="cardlab-export"><iframe class="cardlab-page" sandbox="allow-scripts" '
            f'title="cardlab replay" style="width:100%;height:{height}px;border:0" '
            f'srcdoc="{html.escape(page)}"></iframe></div>')


def write_page(replay: Replay, path: str | os.PathLike[str], seat: int | str | None = None,
               lang: str | None = None) -> None:
    """Write the page to ``path`` (atomically: a reader never sees half a page)."""
    write_text(path, page_html(replay, seat, lang))


__all__ = ["page_html", "page_iframe", "page_movie", "script_json", "write_page"]
