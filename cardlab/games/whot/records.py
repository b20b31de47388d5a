"""What a simulation records of each game of a Whot rubber (docs/simulations.md): the cards
each seat held at the end, who went out, and how the game ended.

>>> from cardlab.games.whot.records import RECORDS
>>> [column.name for column in RECORDS.columns]
['cards_left', 'won', 'ended']
"""

from __future__ import annotations

from typing import Any

from ...records import Column, HandRecorder, Records
from .pack import ENDED_BLOCKED, ENDED_CAP, ENDED_WON
from .state import WhotState

COLUMNS = (
    Column("cards_left", "int16", False, "cards the seat held when the game ended"),
    Column("won", "bool", False, "the seat played its last card (nobody on a block or cap)"),
    Column("ended", "category", False, "how the game ended: won, blocked or cap, a category"),
)

ENDINGS = (ENDED_WON, ENDED_BLOCKED, ENDED_CAP)  # the order of the "ended" categories


class WhotRecorder(HandRecorder[WhotState]):
    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.winner: list[int] = []  # per game of the rubber
        self.endings: list[str] = []
        self.cards_left: list[int] = []  # per seat

    def hand_size(self, state: WhotState) -> int:
        return len(state.hands[0]) + len(state.whots[0])

    def dealer(self, state: WhotState) -> int:
        return state.dealer

    def scores(self, state: WhotState) -> list[int]:
        return state.sheet[-1]

    def ended(self, state: WhotState) -> None:
        self.winner.append(state.winner)
        self.endings.append(state.ended)
        self.cards_left.extend(len(h) + len(w) for h, w in
                               zip(state.hands, state.whots, strict=True))

    def build(self, seat_index: Any, dealer: Any) -> dict[str, Any]:
        import numpy as np
        import pyarrow as pa

        n = self.players
        winner = np.repeat(np.asarray(self.winner, dtype=np.int8), n)
        ended = np.repeat(np.asarray([ENDINGS.index(e) for e in self.endings],
                                     dtype=np.int8), n)
        return {"cards_left": np.asarray(self.cards_left, dtype=np.int16),
                "won": seat_index == winner,
                "ended": pa.DictionaryArray.from_arrays(pa.array(ended, pa.int8()),
                                                        pa.array(list(ENDINGS), pa.string()))}


RECORDS = Records(COLUMNS, WhotRecorder, {"ended": ENDINGS})
