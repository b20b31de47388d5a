"""Positions → a JSON "movie" that the front-end (``viewer.js``) draws without knowing a rule.

A movie holds every *line* of a replay (the main line, then each variation, one hand each) and,
per *view* (everyone, or one seat), per line the frames of its steps and its move list. A
frame is what the table shows at one step, computed here from the engine's position: the seat
boxes (badges, info lines, the hand or a count of face-down cards), the centre (trick, trump,
hat, call card), the status line, the note, the result banner, the score sheet and the chart
points up to this step. Every text a person reads is written here, in Python; the front-end
only lays it out.

What a seat may see comes from :mod:`cardlab.seatview`: a seat's frame at step *s* is made
from ``seat_position(state, seat)`` and its action texts from ``visible_action``, so it holds
nothing hidden from that seat at *s*. A move's text may read differently later (the hat's
value once found): a move gives ``[[from_step, text], ...]`` then.

Frames are sent as deltas: frame 0 whole, every later frame only the keys that changed
(``None`` deletes a key); :func:`frame_at` rebuilds one, as the front-end does.

>>> import cardlab
>>> movie = build_movie(cardlab.load("replays/norwegian-review.json"))
>>> sorted(movie["views"]), len(movie["lines"])
(['', 'Brad', 'Kathrine', 'Remo', 'Tone'], 1)
>>> [code for _, code in frame_at(movie, 21)["tk"]["c"]]
['red12', 'red20', 'black3', 'red14']
>>> frame_at(movie, 21)["tk"]["why"]
'Brad takes the trick with black 3: the only trump'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from ..errors import CardlabError
from ..frames import note_languages
from ..game import State, get_game
from ..replay import Action, LinePath, Replay
from ..seatview import seat_position, visible_action, visible_note, visible_variations

FORMAT_VERSION = 1
# The words of the badges a seat box shows (frames name them by kind).
BADGES = {"dealer": "dealer", "turn": "▶ to act", "hat": "holds the hat", "win": "out!",
          "last": "last card!"}
MINUS = "\u2212"
# Shapes printed on Bob's Hat's cards (and in texts), so a colour reads without colour.
COLOUR_MARK = {"blue": "◆", "red": "●", "black": "■", "orange": "▲"}
SUIT_MARK = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
WHOT_MARK = {"circle": "●", "triangle": "▲", "cross": "✚", "square": "■", "star": "★"}
# The places around the table, clockwise from the bottom, as (row, column) of a 3 x 3 grid
# (up to 8 seats) or a 4 x 4 grid whose centre spans the middle four cells.
RING = ((3, 2), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3), (3, 3))
RING_4 = ((4, 3), (4, 2), (4, 1), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4),
          (3, 4), (4, 4))


# -- cards and texts ---------------------------------------------------------------------------

@lru_cache(maxsize=8)
def card_faces(game: str) -> dict[str, list[Any]]:
    """Every card code of ``game`` → ``[rank, mark, colour, hat, name]``, from its deck.

    ``mark`` is the printed symbol (♠♥♦♣, Whot's shapes, a shape for Bob's Hat's colours),
    ``colour`` a CSS word, ``hat`` 1 for Bob's Hat's 14s and 15s, ``name`` the readable name.

    >>> card_faces("bobs-hat")["blue14"], card_faces("teds-game")["10S"]
    (['14', '◆', 'blue', 1, 'blue 14'], ['10', '♠', 'black', 0, '10♠'])
    >>> card_faces("whot")["whot20/4"], card_faces("whot")["star3/2"]
    (['20', 'WHOT', 'whot', 0, 'WHOT'], ['3', '★', 'whot', 0, 'star 3'])
    """
    deck: Any = get_game(game).rules_class.deck
    out: dict[str, list[Any]] = {}
    suits = getattr(deck, "suits", None)
    if suits is None:  # Whot: the code spells the face, "/k" marks a later copy
        for code in deck.codes:
            face = code.split("/")[0]
            name = face.rstrip("0123456789")
            number = face[len(name):]
            if name == "whot":
                out[code] = [number, "WHOT", "whot", 0, "WHOT"]
            else:
                out[code] = [number, WHOT_MARK.get(name, ""), "whot", 0, f"{name} {number}"]
        return out
    marked: frozenset[int] = frozenset()
    if game == "bobs-hat":
        from ..games.bobs_hat import HAT_RANKS

        marked = frozenset(HAT_RANKS)
    for card, code in enumerate(deck.codes):
        suit = suits[deck.suit_of[card]]
        rank = deck.rank_of[card]
        label = deck.rank_names.get(rank, str(rank))
        if suit in SUIT_MARK:
            colour = "red" if suit in ("hearts", "diamonds") else "black"
            out[code] = [label, SUIT_MARK[suit], colour, 0, f"{label}{SUIT_MARK[suit]}"]
        else:
            out[code] = [label, COLOUR_MARK.get(suit, ""), suit, int(rank in marked),
                         f"{suit} {label}"]
    return out


def mark(word: str) -> str:
    """The printed mark of a suit, colour or Whot shape ("" when it has none)."""
    return COLOUR_MARK.get(word) or SUIT_MARK.get(word) or WHOT_MARK.get(word) or ""


def pretty(game: str, text: str) -> str:
    """An action text as people read it: card codes by name, bid words with spaces.

    >>> pretty("whot", "play whot20/3 call circle"), pretty("bobs-hat", "bid most-red,fewest")
    ('play WHOT call ● circle', 'bid most red, fewest')
    >>> pretty("bobs-hat", "hat -10")
    'hat −10'
    """
    faces = card_faces(game)
    words = []
    for word in text.split(" "):
        if word in faces:
            words.append(faces[word][4])
        elif word in WHOT_MARK:
            words.append(f"{WHOT_MARK[word]} {word}")
        elif "," in word or "-" in word:
            words.append(", ".join(w.replace("-", " ") if w[:1].isalpha() else
                                   w.replace("-", MINUS) for w in word.split(",")))
        else:
            words.append(word)
    return " ".join(words)


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"{MINUS}{-value}" if value < 0 else "0")


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def names_and(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


# -- one frame ---------------------------------------------------------------------------------

class _Context:
    """What frames of one replay share: the game's words and the seats."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.game = replay.game
        self.seats = list(replay.seats)
        rules = replay.rules
        self.rules = rules
        self.low_wins = bool(rules.low_score_wins)
        self.word = "game" if self.game == "whot" else "hand"  # a Whot rubber's hands: games
        self.whole = "rubber" if self.game == "whot" else "game"

    def name(self, seat: int | None) -> str:
        return "nobody" if seat is None or seat < 0 else self.seats[seat]


def _shown_trick(pos: dict[str, Any], completed: bool) -> dict[str, Any] | None:
    """The trick the centre shows: the one in play, or the one this step just completed."""
    trick = pos.get("trick")
    if trick is None:
        return None
    if trick["cards"]:
        return {"leader": trick["leader"], "cards": trick["cards"], "done": None}
    if completed and pos.get("tricks"):
        last = pos["tricks"][-1]
        return {"leader": last["leader"], "cards": last["cards"], "done": last}
    return {"leader": trick["leader"], "cards": [], "done": None}


def _trick_key(pos: dict[str, Any]) -> tuple[int, int] | None:
    trick = pos.get("trick")
    if trick is None:
        return None
    return len(pos.get("tricks") or ()), len(trick["cards"])


def _seat_frame(ctx: _Context, pos: dict[str, Any], seat: int, hand_over: bool,
                at_deal: list[int]) -> dict[str, Any]:
    to_act = pos.get("to_act")
    badges: list[str] = []  # kinds; their words are the movie's "badges"
    if pos.get("dealer") == seat:
        badges.append("dealer")
    if to_act == seat:
        badges.append("turn")
    hat = pos.get("hat")
    if isinstance(hat, dict) and hat.get("holder") == seat:
        badges.append("hat")
    if pos.get("winner") == seat:
        badges.append("win")
    if seat in (pos.get("last_card_calls") or ()):
        badges.append("last")
    info: list[str] = []
    bids = pos.get("bids")
    if bids:
        bid = bids[seat]
        if isinstance(bid, list):
            info.append("bid " + ", ".join(f"{mark(w.rsplit('-', 1)[-1])} {w.replace('-', ' ')}"
                                           .strip() for w in bid))
        elif bid is not None:
            won = pos.get("tricks_won")
            line = f"bid {bid}"
            if won is not None and pos.get("phase") != "bid":
                line += f" · taken {won[seat]}"
            info.append(line)
        changes = [c for c in pos.get("bid_changes") or () if c.get("seat") == seat]
        if changes:
            info.append("changed " + ", ".join(f"{c['from']}→{c['to']}" for c in changes))
    taken = pos.get("taken")
    if taken and any(taken[seat].values()):
        info.append("taken " + "  ".join(f"{mark(suit)}{count}"
                                         for suit, count in taken[seat].items()))
    totals = pos.get("totals")
    if totals is not None:
        scores = []
        if hand_over:
            word = "points against" if ctx.low_wins else f"this {ctx.word}"
            scores.append(f"{word} {signed(totals[seat] - at_deal[seat])}")
        scores.append(f"total {totals[seat]}")
        kitty = pos.get("kitty")
        if isinstance(kitty, list) and kitty and kitty[seat]:
            scores.append(f"kitty {kitty[seat]}")
        info.append(" · ".join(scores))
    out: dict[str, Any] = {"b": badges, "i": info}
    hands = pos.get("hands")
    held = hands[seat] if hands else None
    if held is not None:
        out["h"] = held
        if to_act == seat:
            legal = [t.split(" ")[1] for t in pos.get("legal") or () if t.startswith("play ")]
            if legal:
                out["lg"] = sorted(set(legal) & set(held), key=held.index)
    else:
        counts = pos.get("hand_counts")
        out["h"] = counts[seat] if counts else 0
    return out


def _centre(ctx: _Context, pos: dict[str, Any], completed: bool, out: dict[str, Any]) -> None:
    game = ctx.game
    faces = card_faces(game)
    number = pos.get("hand")
    total = pos.get("hands_in_game") or pos.get("games")
    info = [f"{ctx.word} {number}" + (f" of {total}" if total else "")]
    if pos.get("hand_size"):
        info.append(f"{plural(pos['hand_size'], 'card')} each")
    out["info"] = info
    if "trump" in pos:
        trump = pos["trump"]
        turned = pos.get("turned")
        text = f"trump {mark(trump)} {trump}" if trump else "no trump"
        if turned:
            text += f" (turned {faces[turned][4]})"
        tr: dict[str, Any] = {"t": text}
        if turned:
            tr["c"] = turned
        out["tr"] = tr
    hat = pos.get("hat")
    if isinstance(hat, dict):
        if not hat.get("chosen"):
            text = "Bob's Hat: not chosen yet"
        elif hat.get("value") is None:
            text = "Bob's Hat: value hidden"
        else:
            text = f"Bob's Hat {signed(hat['value'])}"
        holder = hat.get("holder")
        if holder is not None:
            text += f", held by {ctx.name(holder)}"
        out["hat"] = text
    if "call_card" in pos:
        parts = []
        called = pos.get("called_symbol")
        follow = pos.get("follow")
        if called:
            parts.append(f"WHOT called: {mark(called)} {called}")
        elif isinstance(follow, dict) and follow.get("symbol"):
            also = f" or {follow['number']}" if follow.get("number") is not None else ""
            parts.append(f"to follow: {mark(follow['symbol'])} {follow['symbol']}{also}")
        for key, label in (("stock_size", "stock"), ("pile_size", "pile")):
            if pos.get(key) is not None:
                parts.append(f"{label} {pos[key]}")
        pending = pos.get("pending")
        if isinstance(pending, dict):
            parts.append(f"{pending.get('card', '').replace('-', ' ')}: the next player "
                         f"draws {pending.get('cards')}")
        call: dict[str, Any] = {"t": " · ".join(parts)}
        if pos.get("call_card"):
            call["c"] = pos["call_card"]
        out["call"] = call
    shown = _shown_trick(pos, completed)
    if shown is not None:
        done = shown["done"]
        tricks_done = len(pos.get("tricks") or ())
        leader = shown["leader"]
        tk: dict[str, Any] = {"c": shown["cards"]}
        if shown["cards"]:
            tk["l"] = leader
            num = tricks_done if done else tricks_done + 1
            tk["cap"] = f"trick {num}, led by {ctx.name(leader)}"
        elif pos.get("phase") == "play" and leader is not None and leader >= 0:
            tk["cap"] = f"{ctx.name(leader)} leads the next trick"
        if done:
            tk["w"] = done["winning_card"]
            tk["why"] = (f"{ctx.name(done['winner'])} takes the trick with "
                         f"{faces[done['winning_card']][4]}: {done['reason']}")
        out["tk"] = tk


def _hook(ctx: _Context, pos: dict[str, Any], state: State) -> str | None:
    """Ted's Game's hook, said only while it bites: the seat to act is bidding and the
    engine refuses it the forbidden bid."""
    forbidden = pos.get("forbidden_bid")
    if forbidden is None or pos.get("phase") != "bid" or state.to_act() < 0:
        return None
    legal = state.legal_texts()
    if f"bid {forbidden}" in legal or not any(t.startswith("bid ") for t in legal):
        return None
    who = ctx.name(state.to_act())
    total, size = pos.get("bid_total"), pos.get("hand_size")
    why = ""
    if total is not None and size is not None:
        why = (f": the others' bids add up to {total}, and {forbidden} more would make "
               f"{size}, the number of tricks in this hand")
    return f"The hook: {who} may not bid {forbidden}{why}."


def _explain(ctx: _Context, pos: dict[str, Any], state: State, step_in_hand: int) -> str | None:
    parts = []
    hook = _hook(ctx, pos, state)
    if hook:
        parts.append(hook)
    renege = pos.get("renege")
    if isinstance(renege, dict):
        faces = card_faces(ctx.game)
        line = f"{ctx.name(renege['seat'])} reneged with {faces[renege['card']][4]}"
        if renege.get("penalty"):
            line += f" ({signed(renege['penalty'])})"
        if renege.get("redeal"):
            line += ": the hand is dealt again"
        parts.append(line)
    draw = pos.get("draw")
    if draw and step_in_hand == 0 and pos.get("hand") == 1:
        faces = card_faces(ctx.game)
        rows = []
        for k, row in enumerate(draw):
            cards = ", ".join(f"{ctx.name(s)} {faces[c][4]}" for s, c in enumerate(row) if c)
            rows.append(f"{'draw' if k == 0 else 'draw again'}: {cards}")
        first = pos.get("first_dealer")
        if first is not None:
            rows.append(f"{ctx.name(first)} deals first")
        parts.append("; ".join(rows))
    return " ".join(parts) or None


def _result(ctx: _Context, pos: dict[str, Any], at_deal: list[int], game_over: bool) -> str:
    """Who won the hand (the game of a Whot rubber) and why, and at the end who won it all."""
    totals = pos["totals"]
    scores = [t - d for t, d in zip(totals, at_deal, strict=True)]
    word = ctx.word.capitalize()
    lines = []
    parts = pos.get("score_parts")
    if ctx.game == "whot":
        winner = pos.get("winner")
        head = (f"{ctx.name(winner)} is out and wins {ctx.word} {pos.get('hand')}."
                if winner is not None else
                f"{word} {pos.get('hand')} is over ({pos.get('ended') or 'ended'}).")
        against = ", ".join(f"{n} {s}" for n, s in zip(ctx.seats, scores, strict=True))
        lines.append(f"{head} Points against (what is left in hand): {against}.")
    else:
        best = max(scores)
        tops = [ctx.seats[s] for s, v in enumerate(scores) if v == best]
        lines.append(f"{word} {pos.get('hand')} is over: {names_and(tops)} "
                     f"{'score' if len(tops) > 1 else 'scores'} best ({signed(best)}).")
        rows = []
        for s, name in enumerate(ctx.seats):
            why = ""
            if parts and parts[s]:
                why = " (" + ", ".join(f"{k.replace('-', ' ')} {signed(v)}"
                                       for k, v in parts[s].items()) + ")"
            elif pos.get("bids") and pos.get("tricks_won") is not None:
                bid, won = pos["bids"][s], pos["tricks_won"][s]
                if bid is not None:
                    made = "made it" if bid == won else "missed"
                    why = f" (bid {bid}, took {won}: {made})"
            rows.append(f"{name} {signed(scores[s])}{why}")
        lines.append("; ".join(rows) + ".")
    if game_over:
        winners = [ctx.seats[s] for s in ctx.rules.winners(totals)]
        if ctx.game == "whot" and pos.get("rubber_winners"):
            winners = [ctx.seats[s] for s in pos["rubber_winners"]]
        value = totals[ctx.seats.index(winners[0])]
        how = "the lowest total" if ctx.low_wins else "the highest total"
        lines.append(f"The {ctx.whole} is over: {names_and(winners)} "
                     f"{'win' if len(winners) > 1 else 'wins'} with {value}, {how}.")
    return " ".join(lines)


def _status(ctx: _Context, pos: dict[str, Any], act: tuple[int, str] | None,
            step_in_hand: int) -> str:
    if act is None:
        head = f"{ctx.word.capitalize()} {pos.get('hand')}"
        dealer = pos.get("dealer")
        counts = pos.get("hand_counts") or []
        each = ""
        if counts and len(set(counts)) == 1:
            each = f" {plural(counts[0], 'card')} each"
        text = f"{head}: {ctx.name(dealer)} deals{each}" if dealer is not None else head
    else:
        text = f"{ctx.name(act[0])}: {pretty(ctx.game, act[1])}"
    to_act = pos.get("to_act")
    if to_act is not None:
        text += f" — next: {ctx.name(to_act)}"
        change = pos.get("may_change")
        if isinstance(change, dict) and change.get("seat") is not None:
            text += (f" ({ctx.name(change['seat'])} may still change the bid of "
                     f"{change.get('bid')})")
    return text


def _sheet(ctx: _Context, pos: dict[str, Any], game_over: bool) -> list[list[Any]]:
    """The score sheet as the rulebook draws it: each hand's score, from the second on a
    sub-total, and the total at the end of the game."""
    rows: list[list[Any]] = []
    running = [0] * len(ctx.seats)
    sheet = pos.get("sheet") or []
    label = "game " if ctx.game == "whot" else "#"
    for k, row in enumerate(sheet):
        running = [a + b for a, b in zip(running, row, strict=True)]
        rows.append([k + 1, "score", f"{label}{k + 1}", row])
        if k == len(sheet) - 1 and game_over:
            rows.append([k + 1, "total", "total", running])
        elif k > 0:
            rows.append([k + 1, "sub-total", "sub-total", running])
    return rows


def _points(pos: dict[str, Any], n: int) -> list[list[int]]:
    """The running totals after each finished hand (the chart's points), from 0."""
    running = [0] * n
    out = [running]
    for row in pos.get("sheet") or []:
        running = [a + b for a, b in zip(running, row, strict=True)]
        out.append(running)
    return out


def _ended(state: State) -> bool:
    return state.hand_over() or state.chance_kind() == "deal" or state.is_game_over()


# -- walking lines -----------------------------------------------------------------------------

def _diff(prev: dict[str, Any], cur: dict[str, Any]) -> dict[str, Any]:
    """The keys of ``cur`` that differ from ``prev`` (dicts compared key by key; ``None``
    for a key that went away)."""
    out: dict[str, Any] = {}
    for key, value in cur.items():
        old = prev.get(key)
        if old is value or old == value:
            continue
        if isinstance(value, dict) and isinstance(old, dict):
            out[key] = _diff(old, value)
        else:
            out[key] = value
    for key in prev:
        if key not in cur:
            out[key] = None
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


class _View:
    """The frames and moves of one line for one view, built step by step.

    A seat's frames are stored relative to everyone's frame at the same step when
    ``base`` is everyone's view of the line (a movie holding every view), else relative to the
    seat's own frame before (a movie holding that seat's view alone)."""

    def __init__(self, seat: int | None, base: _View | None = None) -> None:
        self.seat = seat
        self.base = base
        self.frames: list[dict[str, Any]] = []
        self.moves: list[dict[str, Any]] = []
        self.hands: list[dict[str, Any]] = []
        self.tricks: list[list[int]] = []
        self.labels: dict[int, str] = {}
        self.last: dict[str, Any] = {}
        self.pending: list[tuple[dict[str, Any], int, str]] = []  # moves still read otherwise

    def add(self, frame: dict[str, Any]) -> None:
        if self.base is not None:
            self.frames.append(_diff(self.base.last, frame))
        else:
            self.frames.append(_diff(self.last, frame) if self.frames else frame)
        self.last = frame


class _Line:
    """One line to walk: its hand (0-based), actions, first step and the lines branching
    off it (action index → [(line id, first action of that line, its length)])."""

    def __init__(self, hand: int, actions: list[Action], first_step: int,
                 branches: dict[int, list[tuple[int, Action, int]]]) -> None:
        self.hand = hand
        self.actions = actions
        self.first_step = first_step
        self.branches = branches


def _walk(ctx: _Context, state: State, line: _Line, views: list[_View],
          totals_at_deal: list[int]) -> None:
    """Frames of one hand along ``line`` from its deal (``state`` just dealt), for every
    view, walking forward once."""
    record = ctx.replay.hands[line.hand]
    actions = line.actions
    prev_key: tuple[int, int] | None = None
    for k in range(len(actions) + 1):
        step = line.first_step + k
        act: tuple[int, str] | None = None
        if k:
            action = actions[k - 1]
            act = (ctx.seats.index(action.seat), action.act)
            state.act(action.act)
        last = k == len(actions)
        ended = last and _ended(state)
        game_over = ended and state.is_game_over()
        note = record.note if k == 0 else actions[k - 1].note
        key: tuple[int, int] | None = None
        for vi, view in enumerate(views):
            pos = seat_position(state, view.seat)
            if vi == 0:  # where the trick stands is the same in every view
                key = _trick_key(pos)
            completed = key is not None and prev_key is not None and key[0] > prev_key[0]
            shown_note = visible_note(state, note, view.seat)
            view.add(_frame(ctx, state, pos, view, act, k, ended, game_over, totals_at_deal,
                            completed, None if last else actions[k].act))
            if k == 0:
                entry: dict[str, Any] = {"i": line.hand + 1, "s": step,
                                         "t": _hand_title(ctx, pos)}
                if shown_note is not None:
                    entry["n"] = shown_note
                view.hands.append(entry)
            else:
                _add_move(ctx, state, view, act, step, line.hand, key, prev_key, shown_note,
                          [lid for lid, _, _ in line.branches.get(k - 1, ())])
            if key is not None and key[1] == 1:
                view.tricks.append([line.hand + 1, key[0] + 1, step])
            if not last and k in line.branches:  # labels of the lines branching here
                for lid, first, length in line.branches[k]:
                    view.labels[lid] = _branch_label(ctx, state, view.seat, line.hand, k,
                                                     first, length)
        prev_key = key
        for view in views:
            _update_pending(ctx, state, view, step)


def _branch_label(ctx: _Context, state: State, seat: int | None, hand: int, index: int,
                  first: Action, length: int) -> str:
    """How a variation is named in the line menu, as ``seat`` may read it where it branches:
    a card that seat cannot see there reads "(hidden card)"."""
    actor = ctx.seats.index(first.seat)
    text = visible_variations(state, [[(actor, first.act)]], seat)[0][0]
    rest = length - index - 1
    return (f"{ctx.word} {hand + 1}, action {index + 1}: {first.seat} "
            f"{pretty(ctx.game, text)}" + (f" (+{rest} more)" if rest else ""))


def _hand_title(ctx: _Context, pos: dict[str, Any]) -> str:
    parts = [f"{ctx.word.capitalize()} {pos.get('hand')}"]
    if (pos.get("attempt") or 1) > 1:
        parts[0] += f" (dealt again, attempt {pos['attempt']})"
    facts = []
    if pos.get("dealer") is not None:
        size = pos.get("hand_size")
        facts.append(f"{ctx.name(pos['dealer'])} deals"
                     + (f" {plural(size, 'card')} each" if size else ""))
    if "trump" in pos:
        facts.append(f"trump {mark(pos['trump'])} {pos['trump']}" if pos["trump"]
                     else "no trump")
    return " — ".join([parts[0], "; ".join(facts)]) if facts else parts[0]


def _add_move(ctx: _Context, state: State, view: _View, act: tuple[int, str] | None,
              step: int, hand: int, key: tuple[int, int] | None,
              prev_key: tuple[int, int] | None, note: Any, branches: list[int]) -> None:
    assert act is not None
    actor, text = act
    shown = visible_action(state, actor, text, view.seat)
    move: dict[str, Any] = {"s": step, "h": hand + 1, "p": actor, "x": pretty(ctx.game, shown)}
    if key is not None and prev_key is not None and key != prev_key:
        move["t"] = key[0] if key[1] == 0 else key[0] + 1
    if note is not None:
        move["n"] = note
    if branches:
        move["v"] = branches
    if shown != text:
        move["x"] = [[step, move["x"]]]
        view.pending.append((move, actor, text))
    view.moves.append(move)


def _update_pending(ctx: _Context, state: State, view: _View, step: int) -> None:
    """Moves that read otherwise to this seat: note when their text changes (once fully
    shown, a text stays shown)."""
    if not view.pending:
        return
    keep = []
    for move, actor, text in view.pending:
        shown = visible_action(state, actor, text, view.seat)
        pairs = move["x"]
        nice = pretty(ctx.game, shown)
        if pairs[-1][1] != nice:
            pairs.append([step, nice])
        if shown != text:
            keep.append((move, actor, text))
    view.pending = keep


def _frame(ctx: _Context, state: State, pos: dict[str, Any], view: _View,
           act: tuple[int, str] | None, k: int, ended: bool, game_over: bool,
           at_deal: list[int], completed: bool, next_act: str | None) -> dict[str, Any]:
    seat = view.seat
    shown_act = None if act is None else (act[0], visible_action(state, act[0], act[1], seat))
    frame: dict[str, Any] = {
        "st": _status(ctx, pos, shown_act, k),
        "seats": {str(s): _seat_frame(ctx, pos, s, ended, at_deal)
                  for s in range(len(ctx.seats))},
        "sheet": _sheet(ctx, pos, game_over),
        "pts": _points(pos, len(ctx.seats)),
        "hn": pos.get("hand"),
    }
    _centre(ctx, pos, completed, frame)
    explain = _explain(ctx, pos, state, k)
    if explain:
        frame["ex"] = explain
    if ended and pos.get("totals") is not None:
        frame["res"] = _result(ctx, pos, at_deal, game_over)
    if next_act is not None and pos.get("legal"):
        alts = [t for t in pos["legal"] if t != next_act]
        if alts:
            frame["alt"] = alts
    return frame


# -- the movie ---------------------------------------------------------------------------------

def _lines(replay: Replay) -> list[tuple[int | None, LinePath]]:
    out: list[tuple[int | None, LinePath]] = [(None, ())]
    for h in range(len(replay.hands)):
        out.extend((h, path) for path in replay.variation_paths(h))
    return out


def _view_seats(replay: Replay, seat: int | str | None, all_views: bool) -> list[int | None]:
    if seat is None:
        return [None, *range(len(replay.seats))] if all_views else [None]
    return [seat_index(replay, seat)]


def seat_index(replay: Replay, seat: int | str) -> int:
    """The index of a seat given by name or index; a :class:`CardlabError` lists the seats.

    >>> import cardlab
    >>> seat_index(cardlab.load("replays/norwegian-review.json"), "brad")
    Traceback (most recent call last):
    ...
    cardlab.errors.CardlabError: no seat called 'brad'; the seats are Tone, Remo, Kathrine, Brad
    """
    names = list(replay.seats)
    if isinstance(seat, str):
        if seat in names:
            return names.index(seat)
        raise CardlabError(f"no seat called {seat!r}; the seats are {', '.join(names)}")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(names):
        raise CardlabError(f"no seat {seat!r}; the seats are {', '.join(names)} "
                           f"(or 0 to {len(names) - 1})")
    return seat


def check_lang(replay: Replay, lang: str | None) -> str:
    """``lang`` if the replay's notes have it (or it has no notes); else a
    :class:`CardlabError` listing the languages."""
    languages = note_languages(replay) or ["en"]
    if lang is None:
        return languages[0]
    if lang not in languages:
        raise CardlabError(f"the notes of this replay are in {', '.join(languages)}, "
                           f"not {lang!r}")
    return lang


def _place(n: int, bottom: int) -> dict[str, Any]:
    ring = RING if n <= len(RING) else RING_4
    places = [round(i * len(ring) / n) % len(ring) for i in range(n)]
    cells = [ring[places[(s - bottom) % n]] for s in range(n)]
    return {"size": 3 if ring is RING else 4, "cells": [list(c) for c in cells]}


def _home(seats: list[str]) -> int:
    """Everyone's view puts South at the bottom when seats are compass points, else seat 0."""
    return seats.index("South") if "South" in seats and "North" in seats else 0


def build_views(replay: Replay, seats: Iterable[int | None],
                relative: bool = False) -> dict[str, Any]:
    """Every line walked once for the given views: ``{view key: [line data, ...]}`` (key
    ``""`` for everyone, else the seat's name). With ``relative`` (and everyone among the
    views) a seat's frames are stored as what differs from everyone's at the same step."""
    ctx = _Context(replay)
    seat_list = list(seats)
    lines = _lines(replay)
    # (hand, parent path, action index) → [(line id, first action, line length)]
    branches: dict[tuple[int, LinePath, int], list[tuple[int, Action, int]]] = {}
    for lid, (hand, path) in enumerate(lines[1:], 1):
        assert hand is not None
        actions = replay.line(hand, path)
        at = path[-1][0]
        branches.setdefault((hand, path[:-1], at), []).append((lid, actions[at], len(actions)))
    relative = relative and None in seat_list
    order = sorted(seat_list, key=lambda s: s is not None)  # everyone first: the base

    def make_views() -> list[_View]:
        views: list[_View] = []
        for s in order:
            base = views[0] if relative and s is not None else None
            views.append(_View(s, base))
        return views

    out: dict[str, list[dict[str, Any]]] = {_key(replay, s): [] for s in seat_list}
    state = replay.new_state()
    deal_states: dict[int, tuple[State, list[int]]] = {}
    wanted = {h for h, _ in lines[1:]}
    views = make_views()
    step = 0
    for h, record in enumerate(replay.hands):
        state.apply_chance(record.deal)
        at_deal = list(state.totals())
        if h in wanted:
            deal_states[h] = (state.clone(), at_deal)
        own = {at: ids for (hh, p, at), ids in branches.items() if hh == h and not p}
        _walk(ctx, state, _Line(h, record.actions, step, own), views, at_deal)
        step += len(record.actions) + 1
    labels: dict[tuple[int | None, int], str] = {}
    for view in views:
        labels.update({(view.seat, lid): text for lid, text in view.labels.items()})
        out[_key(replay, view.seat)].append(_line_data(view, "main line", relative))
    for lid, (hand, path) in enumerate(lines[1:], 1):
        assert hand is not None
        start, at_deal = deal_states[hand]
        own = {at: ids for (hh, p, at), ids in branches.items() if hh == hand and p == path}
        views = make_views()
        _walk(ctx, start.clone(), _Line(hand, replay.line(hand, path), 0, own), views, at_deal)
        for view in views:
            labels.update({(view.seat, i): text for i, text in view.labels.items()})
            out[_key(replay, view.seat)].append(
                _line_data(view, labels[(view.seat, lid)], relative))
    return out


def _key(replay: Replay, seat: int | None) -> str:
    return "" if seat is None else replay.seats[seat]


def _line_data(view: _View, label: str, relative: bool) -> dict[str, Any]:
    last = view.last
    data = {"label": label, "frames": view.frames, "moves": view.moves, "hands": view.hands,
            "tricks": view.tricks,
            "final": {"sheet": last.get("sheet", []), "pts": last.get("pts", [])}}
    if view.base is not None:
        data["base"] = ""  # each frame is what differs from everyone's at the same step
    return data


def build_movie(replay: Replay, seat: int | str | None = None, lang: str | None = None,
                all_views: bool = True, explore: bool = False) -> dict[str, Any]:
    """The JSON-able movie of ``replay``: everyone's view and (``all_views``) each seat's,
    or with ``seat`` (a name or index) that seat's view only.

    ``lang`` picks the notes' language (a :class:`CardlabError` lists those the replay has);
    ``explore`` says a kernel can play what-if branches (the page has none).
    """
    seats = _view_seats(replay, seat, all_views)
    lang = check_lang(replay, lang)
    views = build_views(replay, seats, relative=True)
    return assemble(replay, views, lang, explore)


def assemble(replay: Replay, views: dict[str, Any], lang: str, explore: bool) -> dict[str, Any]:
    """The movie from views already built (the widget keeps them, to send one seat's)."""
    from ..game import get_game as _get

    lines = _lines(replay)
    n = len(replay.seats)
    body = json.dumps(views, ensure_ascii=False, separators=(",", ":"))
    faces = card_faces(replay.game)
    used = {tok for tok in _STRING.findall(body) if tok in faces}
    places = {key: _place(n, _home(replay.seats) if key == "" else replay.seats.index(key))
              for key in views}
    title = str(replay.meta.get("title") or _get(replay.game).title)
    sub = ", ".join(replay.seats) + (f" · seed {replay.seed}" if replay.seed is not None else "")
    return {
        "version": FORMAT_VERSION,
        "game": replay.game,
        "title": title,
        "subtitle": sub,
        "seats": list(replay.seats),
        "word": "game" if replay.game == "whot" else "hand",
        "langs": note_languages(replay) or ["en"],
        "lang": lang,
        "explore": explore,
        "cards": {code: faces[code] for code in sorted(used)},
        "badges": BADGES,
        "lines": [{"hand": None if h is None else h + 1, "path": [list(p) for p in path]}
                  for h, path in lines],
        "places": places,
        "views": views,
    }


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')  # every JSON string, escapes and all


def frame_at(movie: dict[str, Any], step: int, line: int = 0, view: str = "") -> dict[str, Any]:
    """The whole frame of ``step`` (rebuilt from the deltas, as the front-end does)."""
    data = movie["views"][view][line]
    frames = data["frames"]
    if not 0 <= step < len(frames):
        raise CardlabError(f"step {step} is outside 0..{len(frames) - 1}")
    if "base" in data:
        return _patch(frame_at(movie, step, line, data["base"]), frames[step])
    frame: dict[str, Any] = {}
    for delta in frames[: step + 1]:
        frame = _patch(frame, delta)
    return frame


def note_in(note: Any, lang: str) -> str | None:
    """A note in ``lang`` (a plain string note as it is; else the first language it has)."""
    if note is None or isinstance(note, str):
        return note
    return note.get(lang) or next(iter(note.values()), None)


__all__ = ["assemble", "build_movie", "build_views", "card_faces", "check_lang", "frame_at",
           "note_in", "pretty", "seat_index"]
