"""What a simulation records of each hand of Knock-out Whist (docs/adding-a-game.md): the
tricks each seat took, and who was knocked out.

>>> [column.name for column in RECORDS.columns]
['tricks', 'knocked_out']
"""

from __future__ import annotations

from typing import Any

from cardlab.records import Column, HandRecorder, Records

from .engine import KnockoutWhistState

COLUMNS = (
    Column("tricks", "int16", False, "tricks the seat took"),
    Column("knocked_out", "bool", False, "the seat took no trick: it is out, and the game over"),
)


class KnockoutWhistRecorder(HandRecorder[KnockoutWhistState]):
    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.tricks: list[int] = []  # per seat

    def hand_size(self, state: KnockoutWhistState) -> int:
        return state.size

    def dealer(self, state: KnockoutWhistState) -> int:
        return state.dealer

    def scores(self, state: KnockoutWhistState) -> list[int]:
        return state.sheet[-1]

    def ended(self, state: KnockoutWhistState) -> None:
        self.tricks.extend(state.tricks_won)

    def build(self, seat_index: Any, dealer: Any) -> dict[str, Any]:
        import numpy as np

        tricks = np.asarray(self.tricks, dtype=np.int16)
        return {"tricks": tricks, "knocked_out": tricks == 0}


RECORDS = Records(COLUMNS, KnockoutWhistRecorder)
