"""What Knock-out Whist's table says beyond a trick game's words: who was knocked out, as a
badge on the seat's box and as the teaching line of the step that ends the hand. The
fixture brings them in its own folder, as a shipped game does (``Game.table_words``).

>>> words = KnockoutWords()
>>> words.badges_of({"knocked_out": [1]}, 1), words.BADGES["out"]
(['out'], 'knocked out')
"""

from __future__ import annotations

from typing import Any, ClassVar

from cardlab.games.trick_taking.words import TrickWords
from cardlab.tablewords import Acting, Say
from cardlab.words import names_and


class KnockoutWords(TrickWords):
    BADGES: ClassVar[dict[str, str]] = {**TrickWords.BADGES, "out": "knocked out"}

    def badges_of(self, pos: dict[str, Any], seat: int) -> list[str]:
        return ["out"] if seat in (pos.get("knocked_out") or ()) else []

    def teaching(self, say: Say, pos: dict[str, Any], state: Acting,
                 step_in_hand: int) -> list[str]:
        out = pos.get("knocked_out") or []
        if not out or not pos.get("hand_over"):
            return []
        who = names_and([say.name(seat) for seat in out])
        return [f"{who} took no trick: {'they are' if len(out) > 1 else 'knocked out'}"
                + (" knocked out" if len(out) > 1 else "") + "."]
