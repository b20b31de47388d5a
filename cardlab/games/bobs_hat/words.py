"""What the table of Where's Bob's Hat? says beyond a trick game's words: the hat (its value,
its holder), a seat's bids of colours and the cards it took by colour, a renege, and a hand
dealt again.

>>> words = BobsHatWords()
>>> words.badges_of({"hat": {"chosen": True, "value": 10, "holder": 2}}, 2)
['hat']
>>> words.attempt_words({"attempt": 2})
' (dealt again, attempt 2)'
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...tablewords import Acting, Say
from ...words import signed
from ..trick_taking.words import TrickWords


class BobsHatWords(TrickWords):
    """The words of Bob's Hat's table."""

    BADGES: ClassVar[dict[str, str]] = {**TrickWords.BADGES, "hat": "holds the hat"}
    no_trump = "none (gray)"  # the gray trump card: no trump

    def badges_of(self, pos: dict[str, Any], seat: int) -> list[str]:
        hat = pos.get("hat")
        return ["hat"] if isinstance(hat, dict) and hat.get("holder") == seat else []

    def lines_of(self, say: Say, pos: dict[str, Any], seat: int) -> list[str]:
        """The seat's bids (colours, and most or fewest), then the cards it took by colour."""
        bids = pos.get("bids")
        if bids and isinstance(bids[seat], list):
            info = ["bid " + ", ".join(
                f"{say.mark(word.rsplit('-', 1)[-1])} {word.replace('-', ' ')}".strip()
                for word in bids[seat])]
        else:
            info = super().lines_of(say, pos, seat)
        taken = pos.get("taken")
        if taken and any(taken[seat].values()):
            info.append("taken " + "  ".join(f"{say.mark(suit)}{count}"
                                             for suit, count in taken[seat].items()))
        return info

    def centre_parts(self, say: Say, pos: dict[str, Any], completed: bool,
                     out: dict[str, Any]) -> None:
        self.trump_part(say, pos, out)
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
                text += f", held by {say.name(holder)}"
            out["hat"] = text
        self.trick_part(say, pos, completed, out)

    def teaching(self, say: Say, pos: dict[str, Any], state: Acting,
                 step_in_hand: int) -> list[str]:
        """A renege: who reneged with which card, what it cost, and a new deal if so."""
        renege = pos.get("renege")
        if not isinstance(renege, dict):
            return []
        line = f"{say.name(renege['seat'])} reneged with {say.card(renege['card'])}"
        if renege.get("penalty"):
            line += f" ({signed(renege['penalty'])})"
        if renege.get("redeal"):
            line += ": the hand is dealt again"
        return [line]

    def attempt_words(self, pos: dict[str, Any]) -> str:
        attempt = pos.get("attempt") or 1
        return f" (dealt again, attempt {attempt})" if attempt > 1 else ""

    def transcript_trick(self, pos: dict[str, Any], seats: list[str]) -> str:
        """Who holds the hat after the trick."""
        holder = (pos.get("hat") or {}).get("holder")
        return "" if holder is None else f"; hat: {seats[holder]}"

    def recorder_marks(self, say: Say, pos: dict[str, Any]) -> list[list[Any]]:
        hat = pos.get("hat")
        if not (isinstance(hat, dict) and hat.get("chosen")):
            return []
        holder = hat.get("holder")
        return [["Bob's Hat", f"{hat['value']:+d}"
                 + (f", held by {say.name(holder)}" if holder is not None else ""), []]]


__all__ = ["BobsHatWords"]
