"""What a seat may see, decided in one place: every seat view goes through these functions.

The rules hide some things from a seat for a while: the other hands, Whot's stock and its
order, the cards nobody was dealt, and in Where's Bob's Hat? the hat's value under
``hat_reveal=when-found`` (until a 14 or 15 is first taken) and the other bids under
``secret_bidding`` (until everyone has bid). The engine says what is hidden:
``State.snapshot(seat)`` leaves it out of a position, and ``State.redact_action`` says how an
action reads to a seat that may not see it yet. :class:`cardlab.cursor.Cursor`,
:func:`cardlab.text.render` (so ``cardlab show --seat``) and the viewer use these functions,
so a seat's view never holds what that seat cannot know at that step.

>>> import cardlab
>>> table = cardlab.new_game("bobs-hat", players=4, seed=7, secret_bidding=True)
>>> table.act("hat -10")
>>> table.act("bid most-red")  # North, the dealer, bids first
>>> state = table.state
>>> visible_action(state, 0, "hat -10", seat=1)  # the hat is found later
'hat chosen'
>>> visible_action(state, 0, "bid most-red", seat=1), visible_action(state, 0, "bid most-red", 0)
('bid (secret)', 'bid most-red')
>>> seat_position(state, 1)["bids"], seat_position(state, 1)["hat"]["value"]
([None, None, None, None], None)
>>> sorted(hidden_from(state, 1).texts)
[(0, 'bid most-red'), (0, 'hat +10'), (0, 'hat -10')]
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .game import State

# A card code is a run of letters, digits and "/" (Whot's second copies: whot20/2); matching
# whole tokens keeps "blue1" from being found inside "blue14".
_TOKEN = re.compile(r"[^\s,;:()\[\]{}\"'→»—.]+")
HIDDEN_CARD = "(hidden card)"


@dataclasses.dataclass(frozen=True)
class HiddenInfo:
    """What one seat cannot see at one step: card codes, and ``(actor, text)`` action texts
    that read differently to it (e.g. ``(0, "hat -10")`` while the hat's value is hidden)."""

    codes: frozenset[str]
    texts: frozenset[tuple[int, str]]

    def leaks(self, text: str) -> list[str]:
        """The hidden card codes that ``text`` names, as whole tokens."""
        return sorted({tok for tok in _TOKEN.findall(text) if tok in self.codes})


def visible_action(state: State, actor: int, text: str, seat: int | None) -> str:
    """How the action ``text`` made by seat ``actor`` (already applied, earlier in the hand
    of ``state``) reads to ``seat`` at ``state``. ``seat=None`` (everyone) gives ``text``.

    A play never needs hiding: a played card is face up. The game's hook decides the rest.
    """
    if seat is None or seat == actor:
        return text
    return state.redact_action(actor, text, seat)


def seat_position(state: State, seat: int | None) -> dict[str, Any]:
    """The position as ``seat`` sees it (``None``: everything): ``state.snapshot(seat)``.

    Everything hidden from ``seat`` at this moment is absent: other hands, Whot's stock,
    a hidden hat value, secret bids, another seat's legal actions.
    """
    return state.snapshot(seat)


def seat_positions(state: State, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """``[seat_position(state, seat) for seat in seats]``, computing the public part of the
    position once (``state.snapshots``): the positions share it, so treat them as read-only.
    """
    return state.snapshots(seats)


def hidden_from(state: State, seat: int) -> HiddenInfo:
    """What ``seat`` cannot see in ``state`` (computed from the whole state, for tests and
    for checking a seat's data): the card codes and the hidden action texts."""
    codes = state.rules.deck.codes
    return HiddenInfo(codes=frozenset(codes[c] for c in state.hidden_cards(seat)),
                      texts=frozenset(state.hidden_texts(seat)))


def visible_note(state: State, note: Any, seat: int | None) -> Any:
    """A step's note as ``seat`` may read it at ``state``: as written, unless it names a card
    hidden from ``seat`` or quotes a hidden action, when it is withheld (a short string says
    so). Notes are the annotator's words, written for everyone; this keeps a seat view from
    showing through a note what the seat cannot see."""
    if seat is None or note is None:
        return note
    texts = list(note.values()) if isinstance(note, dict) else [note]
    hidden = hidden_from(state, seat)
    quoted = {text for _, text in hidden.texts}
    if any(hidden.leaks(t) or any(q in t for q in quoted) for t in texts if isinstance(t, str)):
        names = getattr(state, "names", None)
        who = names[seat] if names else f"seat {seat}"
        return f"(note withheld: it names what {who} cannot see at this step)"
    return note


def visible_eval(record: Mapping[str, Any], actor: str, seat: str | None) -> bool:
    """May the view of ``seat`` (a seat's name; None: everyone's) show the eval record
    (``cardlab analyse``) of a decision made by ``actor``, or anything computed from it?

    Everyone's view shows every record. A seat's view shows only its own decisions' records,
    since another seat's values name the cards in its hand, and no ``exact`` one: that was
    solved with every hand open, so its values, best action, loss and mark tell what the
    others hold. Every surface asks this: the values on the table, the ``?``/``??`` marks
    and the lines of ``cardlab show``, the costly decisions, the chart and the luck table
    (:func:`cardlab.advisor.report.decisions` with ``seat_view``), the quiz.

    >>> sampled = {"seat": "Ann", "rollouts": 200, "seed": 0, "bot": "heuristic",
    ...            "values": {"play red3": [2.5, 0.25], "play blue14": [-1.0, 0.5]}}
    >>> opened = dict(sampled, exact=True)
    >>> visible_eval(sampled, "Ann", "Ann"), visible_eval(sampled, "Ann", "Bo")
    (True, False)
    >>> visible_eval(opened, "Ann", "Ann"), visible_eval(opened, "Ann", None)
    (False, True)
    """
    if seat is None:
        return True
    return record.get("seat") == actor == seat and not record.get("exact")


def visible_variations(state: State, variations: Sequence[Sequence[tuple[int, str]]],
                       seat: int | None) -> list[list[str]]:
    """The alternative lines stored at the step after ``state``, as ``seat`` may see them.

    ``variations`` holds each line as ``(actor, text)`` pairs. Everyone (``seat=None``) sees
    every line whole. A seat sees only each line's first action, the one that replaces the
    next action of the line, read as if it were made now: a hidden choice reads as hidden
    (``hat chosen``) and a card that seat cannot see reads ``(hidden card)``. The rest of a
    line would show the other hands as bots played them; a seat view steps into the line
    (``Cursor(replay, hand=, path=, seat=)``) to see it step by step.
    """
    if seat is None:
        return [[text for _, text in line] for line in variations]
    if not variations:
        return []
    hidden = hidden_from(state, seat).codes
    out = []
    for line in variations:
        actor, text = line[0]
        shown = visible_action(state, actor, text, seat)
        out.append([" ".join(HIDDEN_CARD if word in hidden else word
                             for word in shown.split(" "))])
    return out


__all__ = ["HIDDEN_CARD", "HiddenInfo", "hidden_from", "seat_position", "visible_action",
           "visible_eval", "visible_note", "visible_variations"]
