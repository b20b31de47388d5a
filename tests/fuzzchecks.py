"""What a mutated file must do, for the fuzz test (tests/fuzzing.py makes the files): be
refused with a CardlabError, or load, save, load back equal and show (:func:`outcome`).

>>> import cardlab, tempfile, pathlib
>>> outcome(Input("{}", None, "an empty object"), pathlib.Path(tempfile.mkdtemp()))
'ReplayError'
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import cardlab
from cardlab import strictjson
from cardlab.limits import NESTING_CEILING
from cardlab.replay import Replay
from cardlab.view.movie import build_movie
from cardlab.view.page import page_html


@dataclasses.dataclass
class Input:
    text: str | None  # what goes to cardlab.loads
    raw: bytes | None  # bytes that are not UTF-8: to cardlab.loads, or cardlab.load a file
    what: str  # how it was made, for the report
    lenient: bool = False  # load with lenient=True (the repairs of old files)
    from_file: bool = False  # the bytes go through cardlab.load

    def reproducer(self) -> str:
        """A few lines of Python that rebuild the input and load it."""
        data = self.text if self.text is not None else self.raw
        flag = ", lenient=True" if self.lenient else ""
        return (f"# {self.what}\nimport cardlab\ndata = {data!r}\n"
                + (f"open('bad.json', 'wb').write(data)\ncardlab.load('bad.json'{flag})\n"
                   if self.from_file else f"cardlab.loads(data{flag})\n"))



# -- what must hold ------------------------------------------------------------------------

def outcome(inp: Input, folder: Path) -> str:
    """Load the input; the name of the CardlabError, or "accepted" once the accepted replay
    saves, loads back equal and shows. Any other exception propagates."""
    try:
        if inp.from_file:
            path = folder / "input.json"
            path.write_bytes(inp.raw or b"")
            replay = cardlab.load(path, lenient=inp.lenient)
        else:
            data = inp.text if inp.text is not None else inp.raw or b""
            replay = cardlab.loads(data, lenient=inp.lenient)
    except cardlab.CardlabError as err:
        return type(err).__name__
    if inp.lenient and replay.repairs:
        # what lenient loading repaired is a replay in the format exactly
        try:
            strict = cardlab.loads(replay.to_json())
        except cardlab.CardlabError as err:
            raise AcceptedButBroken(f"repaired, it is still refused: {err}") from err
        if strict.to_json() != replay.to_json():
            raise AcceptedButBroken("repaired, it loads back as another replay")
        check_accepted(replay, folder)
        return "repaired"
    check_accepted(replay, folder)
    return "accepted"


class AcceptedButBroken(AssertionError):
    """An accepted file that does not save, load back equal or show."""


_CHECKED: set[bytes] = set()  # digests of replays already checked: same data, same outcome


def check_accepted(replay: Replay, folder: Path) -> None:
    """Save, load back and show: raise :class:`AcceptedButBroken` if any of it fails.

    Two files that load to the same replay (they differ in white space, key order or number
    spelling) are the same replay to save and show, so each replay is checked once.
    """
    # cardlab's own writer: json.dumps (and == on dicts) recurse, and meta may legally hold
    # JSON nested deeper than Python's recursion limit
    key = hashlib.blake2b(replay.to_json().encode("utf-8", "surrogatepass")).digest()
    if key in _CHECKED:
        return
    target = folder / "accepted.json"
    try:
        replay.save(target)
    except cardlab.CardlabError as err:
        raise AcceptedButBroken(f"it does not save: {type(err).__name__}") from err
    try:
        again = cardlab.load(target)
    except cardlab.CardlabError as err:
        raise AcceptedButBroken(f"saved, it no longer loads: {err}") from err
    if again.to_json() != replay.to_json():
        raise AcceptedButBroken("saved and loaded back, it is not the same replay")
    if again != replay:
        raise AcceptedButBroken("saved and loaded back, it is not equal (NaN?)")
    check_views(again)
    if len(_CHECKED) > 100_000:
        _CHECKED.clear()
    _CHECKED.add(key)


_PAGE_JSON = re.compile(r'<script type="application/json" id="cardlab-movie">(.*?)</script>',
                        re.S)


def check_views(replay: Replay) -> None:
    """Everything a loaded replay is for must complete, for everyone's view and the first
    seat's: ``show`` (:func:`cardlab.text.render`), the movie (``build_movie``) and the page
    (``page_html``); and the page's JSON is standard JSON (no NaN, no Infinity). Any other
    exception propagates, to be reported with its type.

    Everyone's page is made from everyone's movie just built (as the widget makes it:
    ``page_html(replay)`` would build every seat's view too, three times the work); the seat's
    page is ``page_html(replay, seat=...)``, which builds that seat's movie as
    ``build_movie(seat=...)``.
    """
    seat = replay.seats[0]
    for view in (None, 0):
        cardlab.text.render(replay, seat=view)
    everyone = build_movie(replay, all_views=False)
    for page in (page_html(replay, views=everyone["views"]), page_html(replay, seat=seat)):
        found = _PAGE_JSON.search(page)
        if found is None:
            raise AcceptedButBroken("its page holds no movie")
        try:
            json.loads(found.group(1), parse_constant=_not_json)
        except RecursionError:  # deeper than json goes: cardlab's own parser
            strictjson.parse(found.group(1), max_nesting=NESTING_CEILING)
        except ValueError as err:
            raise AcceptedButBroken(f"its page's JSON is not standard JSON: {err}") from err


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
