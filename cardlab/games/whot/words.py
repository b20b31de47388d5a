"""What the table of Whot says: the call card and what must follow it, the stock and the
pile, a card that makes the next player draw, who is out and who called last card, the
kitty, and a game's result in points against.

>>> words = WhotWords()
>>> words.badges_of({"winner": 1, "last_card_calls": [1]}, 1)
['win', 'last']
>>> words.score_words({"kitty": [0, 3]}, 1)
['kitty 3']
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...tablewords import Say, TableWords
from ...words import plural

POINTS_WORD = "points against"  # what a game's score is: the cards left in hand


class WhotWords(TableWords):
    """The words of Whot's table."""

    BADGES: ClassVar[dict[str, str]] = {**TableWords.BADGES, "win": "out!",
                                        "last": "last card!"}

    def badges_of(self, pos: dict[str, Any], seat: int) -> list[str]:
        badges = []
        if pos.get("winner") == seat:
            badges.append("win")
        if seat in (pos.get("last_card_calls") or ()):
            badges.append("last")
        return badges

    def score_words(self, pos: dict[str, Any], seat: int) -> list[str]:
        kitty = pos.get("kitty")
        return [f"kitty {kitty[seat]}"] if isinstance(kitty, list) and kitty and kitty[seat] \
            else []

    def hand_count(self, pos: dict[str, Any]) -> int | None:
        return pos.get("games") or None

    def centre_parts(self, say: Say, pos: dict[str, Any], completed: bool,
                     out: dict[str, Any]) -> None:
        """The call card (``call``): the card to follow, the shape a WHOT called or what
        follows it, the stock and the pile, and a card that makes the next player draw."""
        if "call_card" not in pos:
            return
        parts = []
        called = pos.get("called_symbol")
        follow = pos.get("follow")
        if called:
            parts.append(f"WHOT called: {say.mark(called)} {called}")
        elif isinstance(follow, dict) and follow.get("symbol"):
            also = f" or {follow['number']}" if follow.get("number") is not None else ""
            parts.append(f"to follow: {say.mark(follow['symbol'])} {follow['symbol']}{also}")
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

    def result_lines(self, say: Say, pos: dict[str, Any], scores: list[int]) -> list[str]:
        """The first player out of cards wins the game; the others score what they hold."""
        winner = pos.get("winner")
        head = (f"{say.name(winner)} is out and wins {say.word} {pos.get('hand')}."
                if winner is not None else
                f"{say.word.capitalize()} {pos.get('hand')} is over "
                f"({pos.get('ended') or 'ended'}).")
        against = ", ".join(f"{name} {score}"
                            for name, score in zip(say.seats, scores, strict=True))
        return [f"{head} {POINTS_WORD.capitalize()} (what is left in hand): {against}."]

    def game_winners(self, say: Say, pos: dict[str, Any], totals: list[int]) -> list[int]:
        """The rubber's winners as the position names them (ties broken by the rules)."""
        return list(pos.get("rubber_winners") or say.winners(totals))

    def transcript_facts(self, pos: dict[str, Any]) -> list[str]:
        return [f"call card {pos['call_card']}"] if pos.get("call_card") else []

    def recorder_lines(self, say: Say, pos: dict[str, Any]) -> list[list[Any]]:
        if not pos.get("call_card"):
            return []
        called = pos.get("called_symbol")
        return [["call card", f"called: {called}" if called else "", [pos["call_card"]]],
                ["stock", plural(pos.get("stock_size", 0), "card"), []]]


__all__ = ["POINTS_WORD", "WhotWords"]
