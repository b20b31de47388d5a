"""The standalone page: one self-contained HTML file that steps through a replay offline.

The page runs the very front-end of the notebook viewer (``viewer.js`` with ``evaluate.js``
and ``present.js``, ``viewer.css`` with ``present.css``, put together by
:mod:`cardlab.view.assets` and inlined) on the movie
embedded as JSON; ``page.js`` boots it with a small model object in place of the widget's
(``model.js``: ``get``, ``set``, ``on``, ``off``, ``save_changes``, ``send``). It loads nothing
from the network. A teacher e-mails it or puts it on the school's site.

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
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..errors import SaveError
from ..files import write_bytes
from ..limits import MAX_PAGE_FRAMES
from ..replay import Replay
from .assets import MODEL, VIEW, VIEWER, VIEWER_CSS, inline, script, stylesheet
from .movie import (
    assemble,
    build_views,
    check_lang,
    compact_json,
    json_pieces,
    not_json,
)


def script_json(data: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: it cannot close the element or open a
    comment, whatever its strings hold.

    >>> script_json({"x": "</script><b>&"})
    '{"x":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'

    Standard JSON only: a NaN or an infinity (which ``JSON.parse`` refuses, leaving a blank
    page) is a :class:`~cardlab.errors.CardlabError`, never written.

    >>> script_json({"loss": float("inf")})
    Traceback (most recent call last):
    ...
    cardlab.errors.CardlabError: the page cannot be written: its data holds a number that \
JSON cannot hold (NaN or infinity)
    """
    return _script_safe(json_text(data))


def json_text(data: Any, file: str | None = None) -> str:
    """``data`` as compact JSON, standard JSON only (``allow_nan=False``): a NaN or an
    infinity is a :class:`~cardlab.errors.CardlabError` naming ``file``."""
    try:
        return compact_json(data)
    except ValueError:  # what allow_nan=False refuses
        raise not_json(file) from None



def _script_safe(text: str) -> str:
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        if char in text:
            text = text.replace(char, escape)
    return text


def page_movie(replay: Replay, seat: int | str | None = None, lang: str | None = None,
               views: dict[str, Any] | None = None, budget: int | None = MAX_PAGE_FRAMES,
               file: str | None = None, encode: Callable[[Any], str] | None = None,
               future: bool = False) -> dict[str, Any]:
    """The movie a page embeds: every view, or with ``seat`` that seat's alone. A movie
    over the page ``budget`` is refused before it is built (a
    :class:`~cardlab.errors.LimitError` naming ``file`` and ``max_page_frames``). With
    ``future`` the page opens with *show moves to come* on (``"future": true``)."""
    lang = check_lang(replay, lang)
    if seat is None:
        if views is None or "" not in views:
            views = build_views(replay, [None, *range(len(replay.seats))], relative=True,
                                encode=encode, budget=budget, file=file)
        movie = assemble(replay, views, lang, explore=False)
        movie["choices"] = list(views)
    else:
        index = replay.seat_index(seat)
        name = replay.seats[index]
        movie = assemble(replay, build_views(replay, [index], encode=encode, budget=budget,
                                             file=file), lang, explore=False)
        movie["choices"] = [name]
        movie["start"] = name
    if future:  # absent when off: a page made as before keeps its movie's bytes
        movie["future"] = True
    return movie


def page_html(replay: Replay, seat: int | str | None = None, lang: str | None = None,
              views: dict[str, Any] | None = None, budget: int | None = MAX_PAGE_FRAMES,
              file: str | None = None, future: bool = False) -> str:
    """The whole page as a string (see the module's docstring). A page over the ``budget``
    (:data:`cardlab.limits.MAX_PAGE_FRAMES`) is refused before it is built, naming ``file``
    (the replay) and the limit. The move list writes out the moves up to the step on show;
    with ``future`` the page opens with *show moves to come* on (the reader can switch it)."""
    return "".join(_page_parts(replay, seat, lang, views, budget, file, future=future))


def page_bytes(replay: Replay, seat: int | str | None = None, lang: str | None = None,
               budget: int | None = MAX_PAGE_FRAMES, file: str | None = None,
               future: bool = False) -> bytes:
    """The page of :func:`page_html` as UTF-8, made with less memory: each frame is JSON
    text from when it is made, and is encoded and let go as the page is joined, so the
    page's memory stays a small multiple of its size."""
    return b"".join(part.encode("utf-8") for part in
                    _page_parts(replay, seat, lang, None, budget, file, release=True,
                                future=future))


def _page_parts(replay: Replay, seat: int | str | None, lang: str | None,
                views: dict[str, Any] | None, budget: int | None, file: str | None,
                release: bool = False, future: bool = False) -> Iterator[str]:
    def encode(value: Any) -> str:
        return json_text(value, file)

    movie = page_movie(replay, seat, lang, views, budget, file, encode, future)
    js = script(*VIEWER, boot=[VIEW / "page.js"])  # page.js boots the viewer on the movie
    css = stylesheet(*VIEWER_CSS)
    title = html.escape(str(movie["title"]))
    yield (
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
        '<script type="application/json" id="cardlab-movie">')
    try:  # the escapes of script_json, piece by piece (no escaped text spans two pieces)
        for piece in json_pieces(movie, compact_json, release=release):
            yield _script_safe(piece)
    except ValueError:  # what allow_nan=False refuses
        raise not_json(file) from None
    del movie
    yield (f'</script>\n<script type="module">\n{js}</script>\n'
           "</body></html>\n")


def export_box(model_id: str, summary: str) -> str:
    """What a notebook shows after a viewer's widget, for the notebook's HTML export: a
    ``div.cardlab-export`` holding ``export.js`` (with ``model.js``), which draws the viewer
    from the widget's saved state (model ``model_id``) where no widget manager runs; a live
    viewer hides the box (``viewer.css``). Only where that state is missing does the box show
    its text: ``summary`` and how to step through it (hidden twice over: JupyterLab's
    sanitizer, for an untrusted notebook, drops ``hidden`` but keeps the style, and there the
    widget's own text says what the replay is). A few kilobytes: the movie, the module and the
    stylesheet are the widget's own, saved once.

    >>> box = export_box("a1b2", "Ted's Game: Ann and Ben; 3 hands.")
    >>> box.startswith('<div class="cardlab-export" data-cardlab-model="a1b2">')
    True
    >>> "Ted&#x27;s Game: Ann and Ben; 3 hands. To step" in box, len(box) < 5000
    (True, True)
    """
    text = html.escape(f"{summary} To step through it here, run the notebook (or export it "
                       "with jupyter nbconvert --to html --execute).")
    return (f'<div class="cardlab-export" data-cardlab-model="{html.escape(model_id)}">'
            f'<p class="cardlab-export-text" hidden style="display:none">{text}</p>'
            f"<script>\n{_EXPORT_SCRIPT}</script></div>")


# model.js and export.js in one function, run where the script stands (not a module: a module
# has no document.currentScript)
_EXPORT_SCRIPT = inline(MODEL, VIEW / "export.js", wrap=True)


def page_iframe(replay: Replay, seat: str | None = None, lang: str | None = None,
                views: dict[str, Any] | None = None, height: int = 1000,
                future: bool = False) -> str:
    """The page inside a sandboxed ``<iframe srcdoc>`` in a ``div.cardlab-page-frame``: to
    embed it in another page (a school's site). A notebook no longer shows it: its HTML
    export draws the viewer from the widget's saved state (:func:`export_box`)."""
    page = page_html(replay, seat, lang, views, future=future)
    return (f'<div class="cardlab-page-frame"><iframe class="cardlab-page" '
            f'sandbox="allow-scripts" title="cardlab replay" '
            f'style="width:100%;height:{height}px;border:0" '
            f'srcdoc="{html.escape(page)}"></iframe></div>')


def write_page(replay: Replay, path: str | os.PathLike[str], seat: int | str | None = None,
               lang: str | None = None, budget: int | None = MAX_PAGE_FRAMES,
               file: str | None = None, future: bool = False) -> Path:
    """Write the page to ``path`` (atomically: a reader never sees half a page) and return
    the path written (:func:`page_html` gives the page's text instead); ``file`` names the
    replay in a refusal (the page budget, a number JSON cannot hold). With ``future`` the
    page opens with *show moves to come* on (:func:`page_html`)."""
    try:
        data = page_bytes(replay, seat, lang, budget, file, future=future)
    except UnicodeEncodeError as err:  # a lone surrogate, which a loaded replay never holds
        raise SaveError(f"the page holds a character that UTF-8 cannot write ({err.reason})",
                        file=os.fspath(path)) from None
    write_bytes(path, data)
    return Path(path)


__all__ = ["export_box", "json_text", "page_bytes", "page_html", "page_iframe", "page_movie",
           "script_json", "write_page"]
