"""What the browser should show, computed in Python with cardlab itself (the engine decides what
a seat may see; the browser tests compare the page with it).

- :func:`hidden_steps`: for one seat and one line, what the seat cannot see at each step
  (``cardlab.seatview.hidden_from`` on the cursor's state);
- :func:`tokens`: the card-code-like words of a text (JSON, HTML or page source), whole words
  only, so ``blue1`` is not found inside ``blue14``;
- :func:`hostile_replay`: a valid replay whose every free string is an HTML/JavaScript injection.
"""

from __future__ import annotations

import json
import re
from typing import Any

import cardlab
from cardlab.bots import make_bot
from cardlab.seatview import HiddenInfo, hidden_from

# Card codes: letters and digits (blue14, 10H, QS, circle5), Whot's copies with "/2".
_WORD = re.compile(r"[A-Za-z0-9]+(?:/[0-9]+)?")


def tokens(text: str) -> set[str]:
    """The code-like words of ``text``.

    >>> sorted(tokens('<i data-code="blue14">play red1, whot20/2</i>'))
    ['blue14', 'code', 'data', 'i', 'play', 'red1', 'whot20/2']
    """
    return set(_WORD.findall(text))


def deck_codes(replay: cardlab.Replay) -> frozenset[str]:
    return frozenset(replay.rules.deck.codes)


def hidden_steps(replay: cardlab.Replay, seat: int, hand: int | None = None,
                 path: tuple = ()) -> list[HiddenInfo]:
    """What ``seat`` cannot see at each step of a line: the main line over every hand
    (``hand=None``), or hand ``hand`` (counted from 1) following the variation ``path``."""
    cursor = cardlab.Cursor(replay, hand=hand, path=path, seat=seat)
    out = []
    for index in range(len(cursor)):
        cursor.goto(index)
        out.append(hidden_from(cursor.state, seat))
    return out


def trick_starts(replay: cardlab.Replay) -> list[int]:
    """The steps of the main line at which a trick's first card has just been played."""
    cursor = cardlab.Cursor(replay)
    out = []
    for step in range(len(cursor)):
        trick = cursor.goto(step).position.get("trick")
        if trick and len(trick["cards"]) == 1:
            out.append(step)
    return out


def never_seen(replay: cardlab.Replay, seat: int, hidden: list[HiddenInfo]) -> frozenset[str]:
    """The codes ``seat`` sees at no step of a line (hidden at every step)."""
    seen = set().union(*(deck_codes(replay) - h.codes for h in hidden))
    return deck_codes(replay) - seen


# Every string a replay file can carry is one of these. Seat names (the first four) must be
# different, at most 40 characters and free of control characters (cardlab/seats.py), so they
# are short; notes and meta may hold anything, U+2028 included (it ends a line in old JS).
INJECTIONS = [
    '<img src=x onerror="__pwned=1">Tone',
    "</script><script>__pwned=1</script>Remo",
    '"><svg onload="__pwned=1"></svg>Kat',
    '<b onmouseover="__pwned=1">Brad</b>',
    "<script>window.__pwned=1</script>title \u2028 & <!-- end",
    '<style>body{display:none}</style><img src=x onerror="window.__pwned=1">note',
    '{{7*7}} ${window.__pwned=1} <a href="javascript:window.__pwned=1">link</a> \u2029',
    "</script><script>window.__pwned=1</script><!--",
]
SEATS = INJECTIONS[:4]


def hostile_replay(seed: int = 5) -> cardlab.Replay:
    """A whole one-hand Where's Bob's Hat? game, recorded through the public API, whose seat
    names, title, meta fields and notes (both languages) are all HTML/JS injections."""
    seats = SEATS
    meta = {"title": INJECTIONS[4], "source": INJECTIONS[7], "languages": ["en", "no"]}
    table = cardlab.new_game("bobs-hat", players=4, seed=seed, seats=seats, meta=meta, hands=1)
    table.note({"en": INJECTIONS[5], "no": INJECTIONS[6]})  # the deal's note
    bots = [make_bot("heuristic", "bobs-hat", seed=s) for s in range(4)]
    step = 0
    while not table.state.is_game_over():
        seat = table.state.to_act()
        table.apply(bots[seat](table.state, seat))
        table.note({"en": INJECTIONS[step % len(INJECTIONS)],
                    "no": INJECTIONS[(step + 3) % len(INJECTIONS)]})
        step += 1
    return cardlab.loads(table.replay.to_json())  # a valid replay file, checked on load


def frames(deltas: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Whole frames from a line's frames as sent (frame 0 whole, then changed keys only, with
    ``None`` deleting a key), rebuilt as the front-end does."""
    out: list[dict[str, Any]] = []
    frame: dict[str, Any] = {}
    for delta in deltas:
        frame = _patch(frame, delta)
        out.append(frame)
    return out


def _patch(base: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in delta.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _patch(out[key], value)
        else:
            out[key] = value
    return out


def shown_moves(moves: list[dict[str, Any]], step: int,
                hand: int | None = None) -> list[tuple[int, str]]:
    """The moves a line's move list shows at ``step`` (of ``hand`` only, if given):
    ``(actor, text as read then)``."""
    out = []
    for move in moves:
        if move["s"] > step or (hand is not None and move["h"] != hand):
            continue
        text = move["x"]
        if not isinstance(text, str):  # [[from_step, text], ...]: the last one begun
            text = [t for start, t in text if start <= step][-1]
        out.append((move["p"], text))
    return out


class Secrets:
    """Finds what one seat may not see at one step in a text: the hidden card codes, and (with
    ``names``) the names the viewer prints for them (``blue 14``, ``10♠``) when no visible card
    shares the name; whole words only.

    Names are searched only where they would place a card (hands, the trick, menus), not in
    prose: "draw: Ann J♦" at the start of Ted's Game tells the public draw for first dealer,
    whose cards are back in the deck, hidden now, yet it says nothing about where they are.
    """

    def __init__(self, replay: cardlab.Replay, hidden: HiddenInfo | frozenset[str]) -> None:
        from cardlab.view.movie import card_faces, pretty

        codes = hidden.codes if isinstance(hidden, HiddenInfo) else hidden
        self.codes = frozenset(codes)
        owners: dict[str, set[str]] = {}
        for code, face in card_faces(replay.game).items():
            owners.setdefault(face[4], set()).add(code)
        self.code_pattern = _words(self.codes)
        self.name_pattern = _words({name for name, cards in owners.items()
                                    if cards <= self.codes})
        texts = hidden.texts if isinstance(hidden, HiddenInfo) else frozenset()
        self.texts = {(actor, pretty(replay.game, text)) for actor, text in texts}

    def found(self, data: Any, names: bool = True) -> list[str]:
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        out = set()
        for pattern in (self.code_pattern, self.name_pattern if names else None):
            if pattern is not None:
                out.update(pattern.findall(text))
        return sorted(out)


def _words(words: set[str] | frozenset[str]) -> re.Pattern[str] | None:
    if not words:
        return None
    alternation = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w/])(?:{alternation})(?![\w/])")


PROSE = ("ex", "n", "res")  # a frame's explanation, note and result: prose about the hand


def assert_view_hides(replay: cardlab.Replay, view: list[dict[str, Any]],
                      lines: list[dict[str, Any]], seat: int) -> None:
    """One seat's view of a movie (its lines' frames and move lists) against the engine:
    at each step of each line, the frame and this hand's moves shown so far name nothing
    hidden from ``seat`` at that step, and no hidden action text reads as made. (Earlier
    hands' moves are history: their cards went back to the deck, and "undealt" now, but they
    were played face up.)"""
    assert len(view) == len(lines), "one entry per line of the movie"
    for line, data in zip(lines, view, strict=True):
        hand, path = line["hand"], tuple(tuple(p) for p in line["path"])
        hidden = hidden_steps(replay, seat, hand, path)
        whole = frames(data["frames"])
        assert len(whole) == len(hidden), (line, len(whole), len(hidden))
        cursor = cardlab.Cursor(replay, hand=hand, path=path)
        for step, (frame, secret) in enumerate(zip(whole, hidden, strict=True)):
            check = Secrets(replay, secret)
            found = check.found({k: v for k, v in frame.items() if k not in PROSE})
            found += check.found({k: frame.get(k) for k in PROSE}, names=False)
            assert not found, f"{line} step {step}: seat {seat}'s frame shows {found}"
            moves = shown_moves(data["moves"], step, cursor.goto(step).step.hand)
            found = check.found(moves)
            assert not found, f"{line} step {step}: seat {seat}'s moves show {found}"
            told = set(moves) & check.texts
            assert not told, f"{line} step {step}: seat {seat} reads {told}"


def assert_movie_hides(movie: dict[str, Any], replay: cardlab.Replay, seat: int) -> None:
    """A movie that holds only ``seat``'s view: nothing hidden at a step is in that step's
    frame or move list, and no code the seat never sees (on any line) is anywhere in it."""
    name = replay.seats[seat]
    assert set(movie["views"]) == {name}, f"the movie holds views {sorted(movie['views'])}"
    assert_view_hides(replay, movie["views"][name], movie["lines"], seat)
    never = set(deck_codes(replay))
    for line in movie["lines"]:
        hand, path = line["hand"], tuple(tuple(p) for p in line["path"])
        never &= never_seen(replay, seat, hidden_steps(replay, seat, hand, path))
    found = Secrets(replay, frozenset(never)).found(movie)
    assert not found, f"the movie holds {found}, which seat {seat} never sees"


def assert_seat_view(shown: dict[str, Any], position: dict[str, Any], replay: cardlab.Replay,
                     seat: int, hidden: HiddenInfo) -> None:
    """The DOM read-out ``shown`` (views.SHOWN) of ``seat``'s view at the step of ``position``
    (the whole position, everyone's view): the other hands face down with no code, the seat's
    own hand as dealt, nothing hidden anywhere in the viewer's HTML, and a what-if menu of the
    seat's own cards only."""
    step = position["step"]
    assert shown["seat"] == replay.seats[seat], step
    assert not shown["faceless"], f"step {step}: cards drawn without a face: {shown['faceless']}"
    for other, name in enumerate(replay.seats):
        box = shown["seats"][name]
        hand = position["hands"][other]
        if other == seat:
            assert sorted(box["codes"]) == sorted(hand), (step, name)
        else:
            assert box["codes"] == [] and box["backsWithCode"] == 0, (step, name, box)
            assert box["backs"] == len(hand), (step, name, box)
    check = Secrets(replay, hidden)
    found = check.found(shown["html"], names=False) + check.found(shown["seatsHtml"])
    assert not found, f"step {step}: the viewer's HTML shows {found} to {replay.seats[seat]}"
    for option in shown["whatif"]:
        words = tokens(option["value"] + " " + option["text"])
        assert not check.found(option), (step, option)
        assert words & deck_codes(replay) <= set(position["hands"][seat]), (step, option)


def move_list(movie: dict[str, Any], step: int, lang: str = "en",
              future: bool = False) -> dict[str, Any]:
    """What everyone's move list of the main line shows at ``step`` (views.MOVE_LIST), from the
    movie: the moves made by then (all with ``future``) as "Seat: text", their notes and the
    notes of the hands dealt, each hand's title once dealt (its number alone before), and for
    each hand the count of its moves still to come."""
    from cardlab.view.movie import note_in

    data = movie["views"][""][0]
    seats = movie["seats"]
    word = movie["word"].capitalize()
    moves, notes, later, heads = [], [], [], []
    for hand in data["hands"]:
        dealt = future or hand["s"] <= step
        heads.append(hand["t"] if dealt else f"{word} {hand['i']}")
        if dealt and "n" in hand:
            notes.append(note_in(hand["n"], lang))
        to_come = 0
        for move in (m for m in data["moves"] if m["h"] == hand["i"]):
            if future or move["s"] <= step:
                moves.append([0, move["s"], f"{seats[move['p']]}: {move['x']}"])
                if "n" in move:
                    notes.append(note_in(move["n"], lang))
            else:
                to_come += 1
        if to_come:
            later.append(f"{to_come} move{'' if to_come == 1 else 's'} to come")
    return {"moves": moves, "notes": notes, "later": later, "heads": heads}
