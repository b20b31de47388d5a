"""A plain-text view of a replay: hand by hand, trick by trick, with scores.

Computed from the positions of the steps (a seat's view through :mod:`cardlab.seatview`),
so it works for every game: trick-taking games get a line per trick (who led, the cards,
who won and why); other games a line per action. The main line is walked once, and a whole
position is built only at the steps whose text reads one, so a replay of a million actions
shows in seconds (``benchmarks/validate_large.py``).

>>> import cardlab
>>> print(render(cardlab.example("norwegian-review")).splitlines()[2])
Hand 1 — Brad deals 5 cards each; trump black
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .cursor import walk
from .game import State
from .replay import Action, Note, Replay
from .seatview import seat_position, visible_action, visible_eval, visible_note
from .words import plural


def _note(note: Note | None, lang: str) -> str | None:
    if note is None or isinstance(note, str):
        return note
    return note.get(lang) or next(iter(note.values()))


def _header(replay: Replay, pos: dict[str, Any], attempt: int) -> str:
    """A hand's first line: its number, who deals how many cards, and the game's facts."""
    game = replay.rules.game
    head = f"{game.game_type.hand_word.capitalize()} {pos['hand']}" + (
        f" (redeal {attempt})" if attempt > 1 else "")
    facts = []
    if pos.get("dealer") is not None:
        size = pos.get("hand_size")
        facts.append(f"{replay.seats[pos['dealer']]} deals"
                     + (f" {plural(size, 'card')} each" if size else ""))
    facts += game.table_words.transcript_facts(pos)
    return " — ".join([head, "; ".join(facts)]) if facts else head


def _reveal(state: State, seat: int | None, seats: list[str],
            redacted: list[tuple[int, str, str]], lines: list[str]
            ) -> list[tuple[int, str, str]]:
    """Say which hidden actions the seat sees now; return those still hidden."""
    still = []
    for actor, text, shown in redacted:
        now = visible_action(state, actor, text, seat)
        if now != shown:
            lines.append(f"  {seats[actor]}: {now} (revealed)")
        if now != text:
            still.append((actor, text, now))
    return still


def _trick_count(state: State, pos: dict[str, Any] | None, seat: int | None) -> int:
    """How many tricks of the hand are complete. Trick-taking games list them in
    ``tricks_snapshot()`` (the position's ``tricks``, the same for every seat: a taken
    trick is face up), which is cheap beside a whole position; any other game with tricks
    is asked for its position."""
    if pos is not None:
        return len(pos["tricks"])
    tricks = getattr(state, "tricks_snapshot", None)
    return len(tricks() if tricks is not None else seat_position(state, seat)["tricks"])


def _may_renege(state: State) -> bool:
    """Whether the position may show a renege. A trick-taking game keeps its renege of the
    hand in ``state.renege`` (None if none), and its position's ``renege`` is None then; a
    game without that attribute is asked for its position."""
    return getattr(state, "renege", True) is not None


def _marked(replay: Replay, hand_index: int, index: int, action: Action,
            low_score_wins: bool) -> tuple[str, str]:
    """The mark of an evaluated action (``""``, ``"?"`` or ``"??"``, by
    :func:`cardlab.advisor.report.judge`) and the line that says what it lost."""
    from .advisor.report import judge, played_text

    assert action.eval is not None
    played = played_text(replay, hand_index + 1, index, action)
    verdict = judge(action.eval["values"], played, low_score_wins)
    how = "exact" if action.eval.get("exact") else plural(action.eval["rollouts"], "rollout")
    return verdict.mark, (f"    {verdict.mark} {action.seat}: {played} lost {verdict.loss:.1f} "
                          f"expected points; best {verdict.best} ({how})")


def render(replay: Replay, seat: int | None = None, lang: str = "en",
           notes: bool = True) -> str:
    """The replay as readable text (``seat``: only what that seat could see, step by step).

    Each hand is walked once, forward. In a seat's view each line says what that seat knew
    when it happened: a secret bid reads ``bid (secret)`` at its step, and a line
    ``… (revealed)`` follows at the step where the seat learns it (all have bid, the hat is
    found). For a long replay, write the lines of :func:`render_steps` as they come.

    An analysed replay (``cardlab analyse``) marks a decision that lost expected points with
    ``?`` or ``??`` (docs/advisor.md gives the thresholds), followed by a line saying what it
    lost and what was best; a seat's view marks only that seat's own decisions, and none
    whose record is ``exact`` (solved with every hand open: :func:`cardlab.seatview.visible_eval`).
    """
    return "\n".join(line for _, lines in render_steps(replay, seat, lang, notes)
                     for line in lines)


def render_steps(replay: Replay, seat: int | None = None, lang: str = "en",
                 notes: bool = True) -> Iterator[tuple[int | None, list[str]]]:
    """The lines of :func:`render`, step by step: ``(step, lines)`` with the cursor's step
    number, what was written when that step was reached; ``None`` for the title and the
    final result.

    The lines are what the step's position (``Cursor(replay, seat=seat).position``) says,
    but the whole position is built only where the text reads it: a hand's deal, a
    completed trick, a renege, a hand's end. Elsewhere the step's action and note are read
    as ``seat`` sees them (:mod:`cardlab.seatview`) from the state alone, so a long hand
    costs little more than replaying it. A game's position has the same keys at every
    step (whether it has ``tricks`` or ``renege`` is read at each deal).

    >>> import cardlab
    >>> review = cardlab.example("norwegian-review")
    >>> dict(render_steps(review, seat=3, notes=False))[1]
    ['  Brad: hat -10']
    """
    seats = replay.seats
    words = replay.rules.game.table_words
    title = replay.meta.get("title") or f"{replay.rules.title}"
    yield None, [title, "Seats: " + ", ".join(seats)]
    seat_number = {name: s for s, name in enumerate(seats)}
    low_score_wins = replay.rules.low_score_wins
    trick_marks: dict[int, str] = {}  # seat -> the mark of its play in the current trick
    comments: list[str] = []  # what a marked decision lost, said after its line
    done_tricks = 0
    has_tricks = has_renege = False
    redacted: list[tuple[int, str, str]] = []  # (actor, text, as shown) of hidden actions
    line: list[Action] = []
    for step, hand_index, index, state in walk(replay):
        lines: list[str] = []
        pos: dict[str, Any] | None = None  # the whole position (seat's view), where needed
        if index == 0:
            pos = seat_position(state, seat)
            lines.append(_header(replay, pos, pos.get("attempt", 1)))
            has_tricks, has_renege = "tricks" in pos, "renege" in pos
            line = replay.hands[hand_index].actions
            done_tricks = 0
            redacted = []
            note = replay.hands[hand_index].note
        else:
            action = line[index - 1]
            note = action.note
            actor = seat_number[action.seat]
            shown = visible_action(state, actor, action.act, seat)
            mark = ""
            # in a seat's view only its own decisions, none solved with every hand open
            if action.eval is not None and visible_eval(
                    action.eval, action.seat, None if seat is None else seats[seat]):
                mark, comment = _marked(replay, hand_index, index - 1, action, low_score_wins)
                if mark:
                    comments.append(comment)
            if not has_tricks or not shown.startswith("play"):
                lines.append(f"  {action.seat}: {shown}{mark}")
                if action.act != shown:
                    redacted.append((actor, action.act, shown))
            elif mark:
                trick_marks[actor] = mark
        if has_tricks and _trick_count(state, pos, seat) > done_tricks:
            if pos is None:
                pos = seat_position(state, seat)
            done_tricks = len(pos["tricks"])
            trick = pos["tricks"][-1]
            cards = ", ".join(f"{seats[s]} {code}{trick_marks.get(s, '')}"
                              for s, code in trick["cards"])
            trick_marks.clear()
            lines.append(f"  Trick {done_tricks}: {cards} → {seats[trick['winner']]} "
                         f"({trick['winning_card']}: {trick['reason']})"
                         + words.transcript_trick(pos, seats))
        if redacted:
            redacted = _reveal(state, seat, seats, redacted, lines)
        if has_renege and (pos is not None or _may_renege(state)):
            if pos is None:
                pos = seat_position(state, seat)
            renege = pos.get("renege")
            if isinstance(renege, dict):  # the engine says what a renege costs in this game
                text = f"  RENEGE by {seats[renege['seat']]} ({renege['card']})"
                if renege.get("penalty"):
                    text += f": {renege['penalty']:+d}"
                if renege.get("redeal"):
                    text += ", the hand is dealt again"
                lines.append(text)
        if comments and (not trick_marks or index == len(line)):
            lines.extend(comments)  # a play's comment waits for its trick's line
            comments.clear()
        if notes and note is not None:
            said = _note(visible_note(state, note, seat), lang)
            if said:
                lines.append(f"    » {said}")
        if index == len(line):
            record = replay.hands[hand_index]
            if record.scores is not None:
                if pos is None:
                    pos = seat_position(state, seat)
                signed = "" if low_score_wins else "+"  # Whot: points against
                scores = ", ".join(f"{s} {v:{signed}d}" for s, v in zip(seats, record.scores,
                                                                         strict=True))
                totals = ", ".join(f"{s} {v}" for s, v in zip(seats, pos["totals"],
                                                               strict=True))
                lines.append(f"  Scores: {scores}")
                lines.append(f"  Totals: {totals}")
            else:
                lines.append(f"  ({replay.rules.game.game_type.hand_word} not finished)")
        yield step, lines
    if replay.totals is not None:
        winners = [seats[s] for s in replay.rules.winners(replay.totals)]
        final = ", ".join(f"{s} {v}" for s, v in zip(seats, replay.totals, strict=True))
        yield None, [f"Final: {final} — {' and '.join(winners)} "
                     f"{'win' if len(winners) > 1 else 'wins'}"]
