"""What the table of a trick game says: the trump, the trick in the centre and who took it,
a seat's bid and the tricks it took, and why a hand scored what it did
(:class:`~cardlab.tablewords.TableWords`, for every trick game; a game's package adds its own
things in a subclass).

>>> words = TrickWords()
>>> class Say:
...     word, whole, low_wins, seats = "hand", "game", False, ["Ada", "Bo"]
...     def name(self, seat): return self.seats[seat]
...     def mark(self, word): return "♠" if word == "spades" else ""
...     def card(self, code): return code
...     def action(self, text): return text
>>> words.title_facts(Say(), {"trump": "spades"}), words.title_facts(Say(), {"trump": None})
(['trump ♠ spades'], ['no trump'])
>>> words.lines_of(Say(), {"bids": [2, None], "tricks_won": [1, 0], "phase": "play"}, 0)
['bid 2 · taken 1']
"""

from __future__ import annotations

from typing import Any

from ...tablewords import Say, TableWords


def shown_trick(pos: dict[str, Any], completed: bool) -> dict[str, Any] | None:
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


class TrickWords(TableWords):
    """The words of a trick game's table."""

    def lines_of(self, say: Say, pos: dict[str, Any], seat: int) -> list[str]:
        """A seat's bid of a number of tricks and, once play has begun, the tricks taken."""
        bids = pos.get("bids")
        if not bids or bids[seat] is None:
            return []
        won = pos.get("tricks_won")
        line = f"bid {bids[seat]}"
        if won is not None and pos.get("phase") != "bid":
            line += f" · taken {won[seat]}"
        return [line]

    def centre_parts(self, say: Say, pos: dict[str, Any], completed: bool,
                     out: dict[str, Any]) -> None:
        self.trump_part(say, pos, out)
        self.trick_part(say, pos, completed, out)

    def trump_part(self, say: Say, pos: dict[str, Any], out: dict[str, Any]) -> None:
        """The trump (``tr``): its suit, and the card turned up that made it, if any."""
        if "trump" not in pos:
            return
        trump = pos["trump"]
        turned = pos.get("turned")
        text = f"trump {say.mark(trump)} {trump}" if trump else "no trump"
        if turned:
            text += f" (turned {say.card(turned)})"
        part: dict[str, Any] = {"t": text}
        if turned:
            part["c"] = turned
        out["tr"] = part

    def trick_part(self, say: Say, pos: dict[str, Any], completed: bool,
                   out: dict[str, Any]) -> None:
        """The trick on the table (``tk``): its cards, who led it, and once it is complete
        who took it with which card and why."""
        shown = shown_trick(pos, completed)
        if shown is None:
            return
        done = shown["done"]
        tricks_done = len(pos.get("tricks") or ())
        leader = shown["leader"]
        part: dict[str, Any] = {"c": shown["cards"]}
        if shown["cards"]:
            part["l"] = leader
            number = tricks_done if done else tricks_done + 1
            part["cap"] = f"trick {number}, led by {say.name(leader)}"
        elif pos.get("phase") == "play" and leader is not None and leader >= 0:
            part["cap"] = f"{say.name(leader)} leads the next trick"
        if done:
            part["w"] = done["winning_card"]
            part["why"] = (f"{say.name(done['winner'])} takes the trick with "
                           f"{say.card(done['winning_card'])}: {done['reason']}")
        out["tk"] = part

    def title_facts(self, say: Say, pos: dict[str, Any]) -> list[str]:
        if "trump" not in pos:
            return []
        trump = pos["trump"]
        return [f"trump {say.mark(trump)} {trump}" if trump else "no trump"]

    def score_reason(self, pos: dict[str, Any], seat: int) -> str:
        """The parts of the score, else a bid of a number of tricks: made when the seat took
        exactly as many."""
        parts = super().score_reason(pos, seat)
        if parts or not pos.get("bids") or pos.get("tricks_won") is None:
            return parts
        bid, won = pos["bids"][seat], pos["tricks_won"][seat]
        if bid is None:
            return ""
        return f" (bid {bid}, took {won}: {'made it' if bid == won else 'missed'})"

    def recorder_lines(self, say: Say, pos: dict[str, Any]) -> list[list[Any]]:
        lines: list[list[Any]] = []
        if "trump" in pos:
            lines.append(["trump", str(pos.get("trump") or self.no_trump), []])
        if pos.get("turned"):
            lines.append(["turned up", "", [pos["turned"]]])
        lines += self.recorder_marks(say, pos)
        trick = pos.get("trick")
        if isinstance(trick, dict) and trick.get("cards"):
            lines.append(["trick", ", ".join(say.name(s) for s, _ in trick["cards"]),
                          [code for _, code in trick["cards"]]])
        return lines

    no_trump = "none"  # what the recorder says of a hand without a trump

    def transcript_facts(self, pos: dict[str, Any]) -> list[str]:
        if "trump" not in pos:
            return []
        turned = f" (turned {pos['turned']})" if pos.get("turned") else ""
        return [f"trump {pos['trump'] or 'none'}{turned}"]

    def recorder_marks(self, say: Say, pos: dict[str, Any]) -> list[list[Any]]:
        """The game's own lines of the recorder's centre, between the trump and the trick."""
        return []


__all__ = ["TrickWords", "shown_trick"]
