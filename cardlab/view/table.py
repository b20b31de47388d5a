"""A position (``Cursor.position``) drawn as a card table: seat boxes around a centre.

Everything shown is read from the position the engine gives: hands, bids, tricks, winners
and their reasons, the hook's forbidden bid, scores. Nothing here knows a rule of any game;
which keys a game's positions carry decides what is drawn. No third-party imports.

>>> pos = {"game": "bobs-hat", "seats": ["A", "B", "C"], "trick": {"leader": 1, "cards":
...        [[1, "red3"], [2, "red9"]]}, "tricks": [], "action": None}
>>> shown_trick(pos)["cards"]
[[1, 'red3'], [2, 'red9']]
"""

from __future__ import annotations

from html import escape
from typing import Any

from .cards import HAT_SVG, back_html, card_html, card_parts, style_tag, swatch, symbol

# The places around the centre, clockwise (each next seat to the left) from the bottom, as
# (row, column): a 3 x 3 grid seats up to 8 players; Whot's bigger tables get a 4 x 4 grid
# whose centre spans the middle four cells.
RING = ((3, 2), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3), (3, 3))
CENTRE = (2, 2)
RING_4 = ((4, 3), (4, 2), (4, 1), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4),
          (3, 4), (4, 4))


def table_grid(players: int) -> tuple[str, str, str]:
    """(CSS grid-template-columns, grid-template-rows, the centre's grid-area)."""
    if players <= len(RING):
        return "1fr 1.5fr 1fr", "auto auto auto", f"{CENTRE[0]} / {CENTRE[1]}"
    return "1fr 1fr 1fr 1fr", "auto auto auto auto", "2 / 2 / 4 / 4"


def home_seat(seats: list[str]) -> int:
    """The seat drawn at the bottom when everyone's view is shown: South when the seats are
    named after the compass (so North sits at the top), else the first seat."""
    return seats.index("South") if "South" in seats and "North" in seats else 0


def seat_cells(players: int, bottom: int = 0) -> list[tuple[int, int]]:
    """The (row, column) of each seat, seat ``bottom`` at the bottom."""
    ring = RING if players <= len(RING) else RING_4
    places = [round(i * len(ring) / players) % len(ring) for i in range(players)]
    return [ring[places[(s - bottom) % players]] for s in range(players)]


def shown_trick(pos: dict[str, Any]) -> dict[str, Any] | None:
    """The trick the centre shows: the one in play, or the one the last card just completed.

    Returns ``{"leader", "cards", "complete", "winner", "winning_card", "reason"}``; None
    for a game without tricks.
    """
    trick = pos.get("trick")
    if trick is None:
        return None
    if trick["cards"]:
        return {"leader": trick["leader"], "cards": trick["cards"], "complete": False,
                "winner": None, "winning_card": None, "reason": None}
    done = pos.get("tricks") or []
    action = pos.get("action")
    if done and action is not None and action["act"].startswith("play"):
        last = done[-1]
        return {"leader": last["leader"], "cards": last["cards"], "complete": True,
                "winner": last["winner"], "winning_card": last["winning_card"],
                "reason": last["reason"]}
    return {"leader": trick["leader"], "cards": [], "complete": False, "winner": None,
            "winning_card": None, "reason": None}


def legal_cards(pos: dict[str, Any]) -> set[str]:
    """Card codes the player to act may play (from the position's legal actions)."""
    out = set()
    for text in pos.get("legal") or ():
        verb, _, rest = text.partition(" ")
        if verb == "play" and rest:
            out.add(rest.split(" ")[0])
    return out


def _name(pos: dict[str, Any], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return escape(pos["seats"][seat])


def _bid_chips(pos: dict[str, Any], seat: int) -> str:
    bids = pos.get("bids")
    if not bids:
        return ""
    bid = bids[seat]
    if bid is None:
        shown = "—"
    elif isinstance(bid, list):
        chips = []
        for word in bid:
            suit = word.rsplit("-", 1)[-1]
            mark = swatch(suit) if suit in ("blue", "red", "black") else ""
            chips.append(f'<span class="cl-chip">{mark}{escape(word.replace("-", " "))}'
                         "</span>")
        shown = "".join(chips)
    else:
        shown = f'<span class="cl-chip">{escape(str(bid))}</span>'
    extra = ""
    if "tricks_won" in pos and isinstance(bid, int):
        extra = f" · won {pos['tricks_won'][seat]} of {bid}"
    elif "tricks_won" in pos and bid is None:
        extra = f" · won {pos['tricks_won'][seat]}"
    changes = [c for c in pos.get("bid_changes") or () if c.get("seat") == seat]
    if changes:
        extra += " · changed " + ", ".join(f"{c['from']}→{c['to']}" for c in changes)
    return f'<div class="cl-line">bid {shown}{extra}</div>'


def _taken(pos: dict[str, Any], seat: int, game: str) -> str:
    taken = pos.get("taken")
    if taken:
        parts = "".join(f"{swatch(suit)}{count}" for suit, count in taken[seat].items())
        return f'<div class="cl-line">taken{parts}</div>'
    tricks = pos.get("tricks")
    if not tricks:
        return ""
    counts: dict[str, int] = {}  # the cards of the tricks this seat won, per suit
    for trick in tricks:
        if trick["winner"] == seat:
            for _, code in trick["cards"]:
                css, _, sign, _ = card_parts(game, code)
                counts[sign or css] = counts.get(sign or css, 0) + 1
    if not counts:
        return ""
    parts = " ".join(f"{sign}{n}" for sign, n in sorted(counts.items()))
    return f'<div class="cl-line">taken {parts}</div>'


def seat_html(pos: dict[str, Any], seat: int, game: str | None = None) -> str:
    """One seat's box: name, dealer / to-act / hat marks, bids, taken, hand, scores."""
    game = game or pos.get("game", "")
    to_act = pos.get("to_act")
    badges = []
    if pos.get("dealer") == seat:
        badges.append('<span class="cl-badge" title="dealer">dealer</span>')
    if to_act == seat:
        badges.append('<span class="cl-badge cl-turn" title="acts next">▶ to act</span>')
    hat = pos.get("hat")
    if isinstance(hat, dict) and hat.get("holder") == seat:
        badges.append(f'<span class="cl-badge cl-hat" title="holds Bob\'s Hat">{HAT_SVG} hat'
                      '</span>')
    if pos.get("winner") == seat:
        badges.append('<span class="cl-badge cl-win">out!</span>')
    if seat in (pos.get("last_card_calls") or ()):
        badges.append('<span class="cl-badge cl-turn">last card!</span>')
    parts = [f'<div class="cl-seat{" cl-acting" if to_act == seat else ""}">'
             f'<span class="cl-name">{_name(pos, seat)}</span>{"".join(badges)}']
    parts.append(_bid_chips(pos, seat))
    parts.append(_taken(pos, seat, game))
    hands = pos.get("hands")
    held = hands[seat] if hands else None
    counts = pos.get("hand_counts")
    if held is not None:
        legal = legal_cards(pos) if to_act == seat else set()
        tiles = "".join(card_html(game, code, code in legal) for code in held)
        parts.append(f'<div class="cl-line">{tiles or "<i>no cards</i>"}</div>')
    elif counts is not None:
        parts.append(f'<div class="cl-line">{back_html(counts[seat])}</div>')
    scores = []
    hand_scores = pos.get("hand_scores")
    if hand_scores is not None and pos.get("hand_over"):
        scores.append(f"this hand {hand_scores[seat]:+d}")
    totals = pos.get("totals")
    if totals is not None:
        scores.append(f"total {totals[seat]}")
    kitty = pos.get("kitty")
    if isinstance(kitty, list) and kitty and kitty[seat]:
        scores.append(f"kitty {kitty[seat]}")
    if scores:
        parts.append(f'<div class="cl-line">{" · ".join(scores)}</div>')
    parts.append("</div>")
    return "".join(parts)


def _trump_html(pos: dict[str, Any], game: str) -> str:
    if "trump" not in pos:
        return ""
    turned = pos.get("turned")
    trump = pos["trump"]
    lead = f"turned {card_html(game, turned)} " if turned else ""
    if trump is None:
        return f"{lead}no trump" if pos.get("phase") not in ("deal",) else ""
    sign = symbol(trump)
    return f"{lead}trump {swatch(trump)}{escape(trump)}{(' ' + sign) if sign else ''}"


def _hat_html(pos: dict[str, Any]) -> str:
    hat = pos.get("hat")
    if not isinstance(hat, dict):
        return ""
    if not hat.get("chosen"):
        text = "not chosen yet"
    elif hat.get("value") is None:
        text = "value hidden"
    else:
        text = f"{hat['value']:+d}"
    holder = hat.get("holder")
    held = f", held by {_name(pos, holder)}" if holder is not None else ""
    return f"{HAT_SVG} Bob's Hat {text}{held}"


def _trick_html(pos: dict[str, Any], game: str) -> str:
    shown = shown_trick(pos)
    if shown is None:
        return ""
    if not shown["cards"]:
        leader = shown["leader"]
        if pos.get("phase") == "play" and leader is not None and leader >= 0:
            return f'<div class="cl-info">{_name(pos, leader)} leads the next trick</div>'
        return ""
    cards = []
    for seat, code in shown["cards"]:
        won = shown["complete"] and code == shown["winning_card"]
        lead = " cl-leader" if seat == shown["leader"] else ""
        cards.append(f'<span class="cl-played{lead}">{card_html(game, code, won=won, big=True)}'
                     f'<br><span class="cl-who">{_name(pos, seat)}</span></span>')
    number = len(pos.get("tricks") or ()) + (0 if shown["complete"] else 1)
    head = (f'<div class="cl-info">trick {number}, led by {_name(pos, shown["leader"])}'
            "</div>")
    tail = ""
    if shown["complete"]:
        tail = (f'<div class="cl-reason">{_name(pos, shown["winner"])} takes the trick with '
                f'{escape(shown["winning_card"])}: {escape(shown["reason"])}</div>')
    return head + "".join(cards) + tail


def _whot_html(pos: dict[str, Any], game: str) -> str:
    if "call_card" not in pos:
        return ""
    parts = []
    call = pos.get("call_card")
    if call:
        parts.append(f"call card {card_html(game, call, big=True)}")
    called = pos.get("called_symbol")
    follow = pos.get("follow")
    if called:
        parts.append(f"WHOT called: <b>{escape(str(called))} {symbol(str(called))}</b>")
    elif isinstance(follow, dict) and follow.get("symbol"):
        sym = str(follow["symbol"])
        number = follow.get("number")
        also = f" or {number}" if number is not None else ""
        parts.append(f"to follow: {symbol(sym)} {escape(sym)}{also}")
    for key, label in (("stock_size", "stock"), ("pile_size", "pile")):
        if pos.get(key) is not None:
            parts.append(f"{label} {pos[key]}")
    pending = pos.get("pending")
    if isinstance(pending, dict):
        parts.append(f"<b>{escape(str(pending.get('card', '')))}</b>: the next player draws "
                     f"{pending.get('cards')}")
    elif pending:
        parts.append(f"pending: {escape(str(pending))}")
    winner = pos.get("winner")
    ended = pos.get("ended")
    if winner is not None:
        parts.append(f"<b>{_name(pos, winner)} is out!</b>")
    elif ended:
        parts.append(f"<b>the game ended: {escape(str(ended))}</b>")
    rubber = pos.get("rubber_winners")
    if rubber and pos.get("to_act") is None and pos.get("phase") == "over":
        names = " and ".join(_name(pos, s) for s in rubber)
        parts.append(f"<b>the rubber goes to {names}</b>")
    return " · ".join(parts)


def _draw_html(pos: dict[str, Any], game: str) -> str:
    """Ted's Game's draw for first dealer, shown with the first deal."""
    rows = pos.get("draw")
    if not rows or pos.get("action") is not None or pos.get("hand") != 1:
        return ""
    out = []
    for k, row in enumerate(rows, 1):
        cards = " ".join(f"{_name(pos, s)} {card_html(game, code)}"
                         for s, code in enumerate(row) if code)
        out.append(f"{'draw' if k == 1 else 'draw again'}: {cards}")
    first = pos.get("first_dealer")
    deals = f" → {_name(pos, first)} deals first" if first is not None else ""
    return f'<div class="cl-info">{"<br>".join(out)}{deals}</div>'


def hook_html(pos: dict[str, Any]) -> str:
    """The teaching line for a forbidden bid (Ted's Game's hook), from the position."""
    forbidden = pos.get("forbidden_bid")
    if forbidden is None:
        return ""
    to_act = pos.get("to_act")
    who = _name(pos, to_act)
    total = pos.get("bid_total")
    size = pos.get("hand_size")
    why = ""
    if total is not None and size is not None:
        why = (f": the bids so far add up to {total}, and {forbidden} more would make "
               f"{size}, the number of tricks in this hand")
    return (f'<div class="cl-explain">The hook: {who} may not bid {forbidden}{why}.</div>')


def centre_html(pos: dict[str, Any], game: str | None = None) -> str:
    """The centre: hand, trump / turned card, the hat, the trick (or Whot's call card)."""
    game = game or pos.get("game", "")
    word = "game" if "games" in pos else "hand"
    info = [f"{word} {pos.get('hand', '?')}"]
    total = pos.get("hands_in_game") or pos.get("games")
    if total:
        info[0] += f" of {total}"
    if pos.get("hand_size"):
        info.append(f"{pos['hand_size']} cards each")
    for extra in (_trump_html(pos, game), _hat_html(pos)):
        if extra:
            info.append(extra)
    body = [f'<div class="cl-centre"><div class="cl-info">{" · ".join(info)}</div>']
    whot = _whot_html(pos, game)
    if whot:
        body.append(f'<div class="cl-info">{whot}</div>')
    body.append(_trick_html(pos, game))
    body.append(_draw_html(pos, game))
    body.append(hook_html(pos))
    renege = pos.get("renege")
    if renege:
        body.append(f'<div class="cl-explain">{_name(pos, renege["seat"])} reneged with '
                    f'{escape(renege["card"])}: the hand is played again</div>')
    if pos.get("hand_over") and pos.get("phase") != "play":
        body.append(f'<div class="cl-info"><b>{word} over</b></div>')
    body.append("</div>")
    return "".join(body)


def status_html(pos: dict[str, Any]) -> str:
    """The last action, who acts next, and the legal actions (highlighted chips)."""
    parts = []
    action = pos.get("action")
    if action is None:
        parts.append(f"step {pos.get('step', 0)}: hand {pos.get('hand', '?')} dealt")
    else:
        parts.append(f"step {pos.get('step', 0)}: <b>{escape(action['seat'])}</b> "
                     f"{escape(action['act'])}")
    to_act = pos.get("to_act")
    if to_act is not None:
        legal = pos.get("legal") or []
        cards = legal_cards(pos)
        # chips for every action that is more than "play CARD" (bids, draws, WHOT calls)
        others = [t for t in legal if not t.startswith("play ") or len(t.split()) > 2]
        line = f" — next: <b>{_name(pos, to_act)}</b>"
        if cards:
            line += f" may play {len(cards)} card{'s' if len(cards) != 1 else ''} (lifted)"
        chips = "".join(f'<span class="cl-chip cl-legal">{escape(t)}</span>' for t in others)
        if pos.get("forbidden_bid") is not None and legal:
            chips += (f'<span class="cl-chip cl-bad" title="refused: the hook">bid '
                      f'{pos["forbidden_bid"]} ✗ (the hook)</span>')
        if chips:
            line += f"{' or' if cards else ''}: {chips}"
        change = pos.get("may_change")
        if isinstance(change, dict) and change.get("seat") is not None:
            line += (f" · {_name(pos, change['seat'])} may still change the bid of "
                     f"{change.get('bid')}")
        parts.append(line)
    elif pos.get("phase") == "over" or pos.get("ended"):
        parts.append(" — the game is over")
    return f'<div class="cl-last">{"".join(parts)}</div>'


def note_html(note: str | None) -> str:
    return f'<div class="cl-note">{escape(note) if note else "&nbsp;"}</div>'


def render_position(pos: dict[str, Any], bottom: int | None = None) -> str:
    """The whole table as one self-contained HTML snippet (CSS included)."""
    game = pos.get("game", "")
    n = len(pos["seats"])
    cells = seat_cells(n, home_seat(pos["seats"]) if bottom is None else bottom)
    boxes = []
    for seat, (row, col) in enumerate(cells):
        boxes.append(f'<div style="grid-area:{row}/{col}">{seat_html(pos, seat, game)}</div>')
    columns, rows, centre = table_grid(n)
    boxes.append(f'<div class="cardlab-trick" style="grid-area:{centre}">'
                 f"{centre_html(pos, game)}</div>")
    grid = (f'<div class="cl-felt" style="display:grid;grid-template-columns:{columns};'
            f'grid-template-rows:{rows};gap:6px;max-width:860px">{"".join(boxes)}</div>')
    return style_tag() + grid + status_html(pos)


__all__ = ["home_seat", "table_grid", "seat_cells", "shown_trick", "legal_cards", "seat_html",
           "centre_html", "status_html", "note_html", "hook_html", "render_position"]
