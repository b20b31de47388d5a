"""What a frame says: the texts and parts of one frame, computed from one position.

Every word a person reads in the viewer is written here (the front-end only lays them out):
card names with their printed marks, action texts as people read them, the seat boxes, the
centre, the status line, the teaching lines (Ted's hook, a renege, the draw), the result of a
hand and of the game, the score sheet and the chart points. Each function reads a position
(``State.snapshot`` through :mod:`cardlab.seatview`), never the rules.

>>> pretty("teds-game", "play QH"), plural(1, "card"), signed(-5)
('play Q♥', '1 card', '−5')
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..dataframes import sheet_lines
from ..game import Game, State, get_game
from ..replay import Replay
from ..words import names_and, plural  # noqa: F401  (the views' words: cardlab/words.py)

# The words of the badges a seat box shows (frames name them by kind).
BADGES = {"dealer": "dealer", "turn": "▶ to act", "hat": "holds the hat", "win": "out!",
          "last": "last card!"}
MINUS = "\u2212"
# The places around the table, clockwise from the bottom, as (row, column) of a 3 x 3 grid
# (up to 8 seats) or a 4 x 4 grid whose centre spans the middle four cells.
RING = ((3, 2), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3), (3, 3))
RING_4 = ((4, 3), (4, 2), (4, 1), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4),
          (3, 4), (4, 4))


# -- cards and texts ---------------------------------------------------------------------------

# The caches below are keyed by the registered Game itself, not its name: a game registered
# for a while (a test's own game) and then replaced never finds the faces of the one before.

def card_faces(game: str) -> dict[str, list[Any]]:
    """Every card code of ``game`` → ``[rank, mark, colour, hat, name]``, as its package
    draws them (:meth:`cardlab.game.Game.card_faces`).

    ``mark`` is the printed symbol of the card's suit, colour or shape, ``colour`` a CSS
    word, ``hat`` 1 for a card the game marks (:data:`cardlab.game.CardFace`), ``name`` the
    readable name. Each game's package shows its own faces.

    >>> import cardlab
    >>> all(set(card_faces(name)) == set(game.rules_class.deck.codes)
    ...     for name, game in cardlab.list_games().items())
    True
    """
    return _faces(get_game(game))


@lru_cache(maxsize=8)
def _faces(game: Game) -> dict[str, list[Any]]:
    return game.card_faces()


def pretty(game: str, text: str) -> str:
    """An action text as people read it: card codes by name, bid words with spaces.

    >>> pretty("whot", "play whot20/3 call circle"), pretty("bobs-hat", "bid most-red,fewest")
    ('play WHOT call ● circle', 'bid most red, fewest')
    >>> pretty("bobs-hat", "hat -10")
    'hat −10'
    """
    return _pretty(get_game(game), text)


@lru_cache(maxsize=8192)
def _pretty(game: Game, text: str) -> str:
    faces = _faces(game)
    shown = game.marks
    words = []
    for word in text.split(" "):
        if word in faces:
            words.append(faces[word][4])
        elif word in shown:
            words.append(f"{shown[word]} {word}")
        elif "," in word or "-" in word:
            words.append(", ".join(w.replace("-", " ") if w[:1].isalpha() else
                                   w.replace("-", MINUS) for w in word.split(",")))
        else:
            words.append(word)
    return " ".join(words)


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"{MINUS}{-value}" if value < 0 else "0")


def variation_label(word: str, hand: int, index: int, seat: str, text: str, rest: int,
                    nested: bool = False) -> str:
    """How a variation is named (the viewer's line menu, :func:`cardlab.explore.describe`):
    the hand (``word``: the game's word for one), the action it replaces (``index`` from 0),
    the seat and what it plays instead (``text``, as people read it), and how many actions
    follow. The seat's name ends with a colon, as everywhere an action is told ("Brad: play
    black 12"): "Brad play black 12" read as broken English.

    >>> variation_label("hand", 1, 19, "Brad", "play black 12", 5)
    'hand 1, action 20, Brad: play black 12 (+5 more)'
    >>> variation_label("game", 2, 0, "Ade", "draw", 0, nested=True)
    'game 2, variation of a variation, action 1, Ade: draw'
    """
    depth = "variation of a variation, " if nested else ""
    more = f" (+{rest} more)" if rest else ""
    return f"{word} {hand}, {depth}action {index + 1}, {seat}: {text}{more}"


# -- one frame ---------------------------------------------------------------------------------

class Context:
    """What frames of one replay share: the game's words and the seats."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.game = replay.game
        self.seats = list(replay.seats)
        rules = replay.rules
        self.rules = rules
        self.low_wins = bool(rules.low_score_wins)
        kind = rules.game.game_type
        self.kind = kind
        self.word = kind.hand_word  # what one entry of replay.hands is called
        self.whole = kind.whole_word
        self.marks = rules.game.marks
        self.sheets: dict[Any, dict[str, Any]] = {}  # sheet rows and chart points, made once

    def mark(self, word: str) -> str:
        """The printed mark of a suit, colour or shape of the game ("" when it has none)."""
        return self.marks.get(word, "")

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


def trick_key(pos: dict[str, Any]) -> tuple[int, int] | None:
    trick = pos.get("trick")
    if trick is None:
        return None
    return len(pos.get("tricks") or ()), len(trick["cards"])


def seat_public(ctx: Context, pos: dict[str, Any], seat: int, hand_over: bool,
                 at_deal: list[int]) -> dict[str, Any]:
    """The part of a seat's box every view sees alike: badges and info lines (``pos``
    holds no hands and no legal actions here)."""
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
            info.append("bid " + ", ".join(f"{ctx.mark(w.rsplit('-', 1)[-1])} {w.replace('-', ' ')}"
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
        info.append("taken " + "  ".join(f"{ctx.mark(suit)}{count}"
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
    return {"b": badges, "i": info}


def seat_private(pos: dict[str, Any], seat: int) -> dict[str, Any]:
    """The part of a seat's box that only some views see: its cards (else how many), and
    which of them may be played now."""
    hands = pos.get("hands")
    held = hands[seat] if hands else None
    if held is None:
        counts = pos.get("hand_counts")
        return {"h": counts[seat] if counts else 0}
    out: dict[str, Any] = {"h": held}
    if pos.get("to_act") == seat:
        legal = [t.split(" ")[1] for t in pos.get("legal") or () if t.startswith("play ")]
        if legal:
            out["lg"] = sorted(set(legal) & set(held), key=held.index)
    return out


def centre(ctx: Context, pos: dict[str, Any], completed: bool, out: dict[str, Any]) -> None:
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
        text = f"trump {ctx.mark(trump)} {trump}" if trump else "no trump"
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
            parts.append(f"WHOT called: {ctx.mark(called)} {called}")
        elif isinstance(follow, dict) and follow.get("symbol"):
            also = f" or {follow['number']}" if follow.get("number") is not None else ""
            parts.append(f"to follow: {ctx.mark(follow['symbol'])} {follow['symbol']}{also}")
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


def _hook(ctx: Context, pos: dict[str, Any], state: State) -> str | None:
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


def explain(ctx: Context, pos: dict[str, Any], state: State, step_in_hand: int) -> str | None:
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


def result_text(ctx: Context, pos: dict[str, Any], at_deal: list[int], game_over: bool) -> str:
    """Who won the hand (the game of a Whot rubber) and why, and at the end who won it all."""
    totals = pos["totals"]
    scores = [t - d for t, d in zip(totals, at_deal, strict=True)]
    word = ctx.word.capitalize()
    lines = []
    parts = pos.get("score_parts")
    if ctx.kind.shedding:  # the first out of cards wins; the others score what they hold
        winner = pos.get("winner")
        head = (f"{ctx.name(winner)} is out and wins {ctx.word} {pos.get('hand')}."
                if winner is not None else
                f"{word} {pos.get('hand')} is over ({pos.get('ended') or 'ended'}).")
        against = ", ".join(f"{n} {s}" for n, s in zip(ctx.seats, scores, strict=True))
        lines.append(f"{head} {ctx.kind.points_word.capitalize()} (what is left in hand): "
                     f"{against}.")
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
        if pos.get("rubber_winners"):  # the winners the position names (Whot), if any
            winners = [ctx.seats[s] for s in pos["rubber_winners"]]
        value = totals[ctx.seats.index(winners[0])]
        how = "the lowest total" if ctx.low_wins else "the highest total"
        lines.append(f"The {ctx.whole} is over: {names_and(winners)} "
                     f"{'win' if len(winners) > 1 else 'wins'} with {value}, {how}.")
    return " ".join(lines)


def status_line(ctx: Context, pos: dict[str, Any], act: tuple[int, str] | None,
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


def sheet_rows(ctx: Context, pos: dict[str, Any], game_over: bool) -> list[list[Any]]:
    """The score sheet as the rulebook draws it: each hand's score, from the second on a
    sub-total, and the total at the end of the game."""
    label = ctx.kind.sheet_label
    return [[number, kind, f"{label}{number}" if kind == "score" else kind, values]
            for number, kind, values in sheet_lines(enumerate(pos.get("sheet") or [], 1),
                                                    game_over)]


def chart_points(pos: dict[str, Any], n: int) -> list[list[int]]:
    """The running totals after each finished hand (the chart's points), from 0."""
    running = [0] * n
    out = [running]
    for row in pos.get("sheet") or []:
        running = [a + b for a, b in zip(running, row, strict=True)]
        out.append(running)
    return out


def hand_ended(state: State) -> bool:
    return state.hand_over() or state.chance_kind() == "deal" or state.is_game_over()


def hand_title(ctx: Context, pos: dict[str, Any]) -> str:
    parts = [f"{ctx.word.capitalize()} {pos.get('hand')}"]
    if (pos.get("attempt") or 1) > 1:
        parts[0] += f" (dealt again, attempt {pos['attempt']})"
    facts = []
    if pos.get("dealer") is not None:
        size = pos.get("hand_size")
        facts.append(f"{ctx.name(pos['dealer'])} deals"
                     + (f" {plural(size, 'card')} each" if size else ""))
    if "trump" in pos:
        facts.append(f"trump {ctx.mark(pos['trump'])} {pos['trump']}" if pos["trump"]
                     else "no trump")
    return " — ".join([parts[0], "; ".join(facts)]) if facts else parts[0]
