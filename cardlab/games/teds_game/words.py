"""What the table of Ted's Game says beyond a trick game's words: the hook while it bites,
the draw for first dealer, a changed bid and who may still change one, and how many hands
the game has.

>>> words = TedsWords()
>>> class Say:
...     seats = ["Ada", "Bo", "Cy"]
...     def name(self, seat): return self.seats[seat]
>>> words.status_more(Say(), {"may_change": {"seat": 1, "bid": 2}})
' (Bo may still change the bid of 2)'
"""

from __future__ import annotations

from typing import Any

from ...tablewords import Acting, Say
from ..trick_taking.words import TrickWords


class TedsWords(TrickWords):
    """The words of Ted's Game's table."""

    def lines_of(self, say: Say, pos: dict[str, Any], seat: int) -> list[str]:
        """The seat's bid and tricks taken, then the bid changes it made."""
        info = super().lines_of(say, pos, seat)
        if pos.get("bids"):
            changes = [c for c in pos.get("bid_changes") or () if c.get("seat") == seat]
            if changes:
                info.append("changed " + ", ".join(f"{c['from']}→{c['to']}" for c in changes))
        return info

    def hand_count(self, pos: dict[str, Any]) -> int | None:
        return pos.get("hands_in_game") or None

    def teaching(self, say: Say, pos: dict[str, Any], state: Acting,
                 step_in_hand: int) -> list[str]:
        """The hook while it bites, and at the first step of the game the draw for first
        dealer."""
        lines = []
        hook = self._hook(say, pos, state)
        if hook:
            lines.append(hook)
        draw = pos.get("draw")
        if draw and step_in_hand == 0 and pos.get("hand") == 1:
            rows = []
            for k, row in enumerate(draw):
                cards = ", ".join(f"{say.name(s)} {say.card(c)}" for s, c in enumerate(row) if c)
                rows.append(f"{'draw' if k == 0 else 'draw again'}: {cards}")
            first = pos.get("first_dealer")
            if first is not None:
                rows.append(f"{say.name(first)} deals first")
            lines.append("; ".join(rows))
        return lines

    @staticmethod
    def _hook(say: Say, pos: dict[str, Any], state: Acting) -> str | None:
        """The hook, said only while it bites: the seat to act is bidding and the engine
        refuses it the forbidden bid."""
        forbidden = pos.get("forbidden_bid")
        if forbidden is None or pos.get("phase") != "bid" or state.to_act() < 0:
            return None
        legal = state.legal_texts()
        if f"bid {forbidden}" in legal or not any(t.startswith("bid ") for t in legal):
            return None
        who = say.name(state.to_act())
        total, size = pos.get("bid_total"), pos.get("hand_size")
        why = ""
        if total is not None and size is not None:
            why = (f": the others' bids add up to {total}, and {forbidden} more would make "
                   f"{size}, the number of tricks in this hand")
        return f"The hook: {who} may not bid {forbidden}{why}."

    def status_more(self, say: Say, pos: dict[str, Any]) -> str:
        change = pos.get("may_change")
        if isinstance(change, dict) and change.get("seat") is not None:
            return f" ({say.name(change['seat'])} may still change the bid of {change.get('bid')})"
        return ""


__all__ = ["TedsWords"]
