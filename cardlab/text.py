"""A plain-text view of a replay: hand by hand, trick by trick, with scores.

Computed from cursor positions alone, so it works for every game: trick-taking games get a
line per trick (who led, the cards, who won and why); other games a line per action.

>>> import cardlab
>>> print(render(cardlab.example("norwegian-review")).splitlines()[2])
Hand 1 — Brad deals 5 cards each; trump black
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .cursor import Cursor
from .replay import Note, Replay
from .seatview import visible_action


def _note(note: Note | None, lang: str) -> str | None:
    if note is None or isinstance(note, str):
        return note
    return note.get(lang) or next(iter(note.values()))


def _header(pos: dict[str, Any], seats: list[str], attempt: int) -> str:
    parts = [f"Hand {pos['hand']}" + (f" (redeal {attempt})" if attempt > 1 else "")]
    facts = []
    if pos.get("dealer") is not None:
        size = pos.get("hand_size")
        facts.append(f"{seats[pos['dealer']]} deals" + (f" {size} cards each" if size else ""))
    if "trump" in pos:
        turned = f" (turned {pos['turned']})" if pos.get("turned") else ""
        facts.append(f"trump {pos['trump'] or 'none'}{turned}")
    if pos.get("call_card"):
        facts.append(f"call card {pos['call_card']}")
    return " — ".join([parts[0], "; ".join(facts)]) if facts else parts[0]


def _reveal(cursor: Cursor, redacted: list[tuple[int, str, str]], lines: list[str]
            ) -> list[tuple[int, str, str]]:
    """Say which hidden actions the seat sees now; return those still hidden."""
    still = []
    for actor, text, shown in redacted:
        now = visible_action(cursor.state, actor, text, cursor.seat)
        if now != shown:
            lines.append(f"  {cursor.replay.seats[actor]}: {now} (revealed)")
        if now != text:
            still.append((actor, text, now))
    return still


def render(replay: Replay, seat: int | None = None, lang: str = "en",
           notes: bool = True) -> str:
    """The replay as readable text (``seat``: only what that seat could see, step by step).

    Each hand is walked once, forward. In a seat's view each line says what that seat knew
    when it happened: a secret bid reads ``bid (secret)`` at its step, and a line
    ``… (revealed)`` follows at the step where the seat learns it (all have bid, the hat is
    found).
    """
    return "\n".join(line for _, lines in render_steps(replay, seat, lang, notes)
                     for line in lines)


def render_steps(replay: Replay, seat: int | None = None, lang: str = "en",
                 notes: bool = True) -> Iterator[tuple[int | None, list[str]]]:
    """The lines of :func:`render`, step by step: ``(step, lines)`` with the cursor's step
    number, what was written when that step was reached; ``None`` for the title and the
    final result.

    >>> import cardlab
    >>> review = cardlab.example("norwegian-review")
    >>> dict(render_steps(review, seat=3, notes=False))[1]
    ['  Brad: hat -10']
    """
    seats = replay.seats
    title = replay.meta.get("title") or f"{replay.rules.title}"
    yield None, [title, "Seats: " + ", ".join(seats)]
    cursor = Cursor(replay, seat=seat)
    done_tricks = 0
    redacted: list[tuple[int, str, str]] = []  # (actor, text, as shown) of hidden actions
    for index in range(len(cursor)):
        lines: list[str] = []
        cursor.goto(index)
        pos = cursor.position
        step = cursor.step
        if step.index == 0:
            lines.append(_header(pos, seats, pos.get("attempt", 1)))
            done_tricks = 0
            redacted = []
        action = pos["action"]
        if action is not None and ("tricks" not in pos or not action["act"].startswith("play")):
            lines.append(f"  {action['seat']}: {action['act']}")
            recorded = cursor.action
            if recorded is not None and recorded.act != action["act"]:
                redacted.append((seats.index(recorded.seat), recorded.act, action["act"]))
        if "tricks" in pos and len(pos["tricks"]) > done_tricks:
            done_tricks = len(pos["tricks"])
            trick = pos["tricks"][-1]
            cards = ", ".join(f"{seats[s]} {code}" for s, code in trick["cards"])
            lines.append(f"  Trick {done_tricks}: {cards} → {seats[trick['winner']]} "
                         f"({trick['winning_card']}: {trick['reason']})")
            holder = pos.get("hat", {}).get("holder")
            if holder is not None:
                lines[-1] += f"; hat: {seats[holder]}"
        if redacted:
            redacted = _reveal(cursor, redacted, lines)
        renege = pos.get("renege")
        if isinstance(renege, dict):  # the engine says what a renege costs in this game
            line = f"  RENEGE by {seats[renege['seat']]} ({renege['card']})"
            if renege.get("penalty"):
                line += f": {renege['penalty']:+d}"
            if renege.get("redeal"):
                line += ", the hand is dealt again"
            lines.append(line)
        text = _note(pos["note"], lang) if notes else None
        if text:
            lines.append(f"    » {text}")
        last_of_hand = step.index == len(cursor.line)
        if last_of_hand:
            record = replay.hands[step.hand - 1]
            if record.scores is not None:
                signed = "" if replay.rules.low_score_wins else "+"  # Whot: points against
                scores = ", ".join(f"{s} {v:{signed}d}" for s, v in zip(seats, record.scores,
                                                                         strict=True))
                totals = ", ".join(f"{s} {v}" for s, v in zip(seats, pos["totals"],
                                                               strict=True))
                lines.append(f"  Scores: {scores}")
                lines.append(f"  Totals: {totals}")
            else:
                lines.append("  (hand not finished)")
        yield index, lines
    if replay.totals is not None:
        winners = [seats[s] for s in replay.rules.winners(replay.totals)]
        final = ", ".join(f"{s} {v}" for s, v in zip(seats, replay.totals, strict=True))
        yield None, [f"Final: {final} — {' and '.join(winners)} "
                     f"{'win' if len(winners) > 1 else 'wins'}"]
