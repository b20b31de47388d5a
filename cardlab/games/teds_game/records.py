"""What a simulation records of each hand of Ted's Game (docs/simulations.md): each seat's
bid and tricks, and the bid the hook forbade the dealer.

>>> from cardlab.games.teds_game.records import RECORDS
>>> [column.name for column in RECORDS.columns]
['bid', 'tricks', 'made', 'forbidden', 'hooked']
"""

from __future__ import annotations

from typing import Any

from ...records import Column, HandRecorder, Records
from .engine import DECK, TedsGameState
from .kernel import TedsPlayout

COLUMNS = (
    Column("bid", "int16", False, "the seat's bid, after any change"),
    Column("tricks", "int16", False, "tricks the seat won"),
    Column("made", "bool", False, "tricks == bid: the bid was made"),
    Column("forbidden", "int16", True, "on the dealer's row: the bid the hook forbade "
                                       "(null when the others' bids left no bid forbidden)"),
    Column("hooked", "bool", False, "the seat dealt and the hook forbade it a bid"),
)


class TedsRecorder(HandRecorder[TedsGameState]):
    """Ted's Game's values of each hand, kept by its compiled part as the kernel plays the
    hands (:class:`~cardlab.games.teds_game.kernel.TedsPlayout`, the ``playout``)."""

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.playout = TedsPlayout(players, DECK.codes)

    def build(self, seat_index: Any, dealer: Any) -> dict[str, Any]:
        import numpy as np
        import pyarrow as pa

        kept = self.playout
        bid = np.asarray(kept.bids, dtype=np.int16)
        tricks = np.asarray(kept.tricks, dtype=np.int16)
        hook = np.repeat(np.asarray(kept.hook, dtype=np.int16), self.players)
        hooked = dealer & (hook >= 0)
        return {"bid": bid, "tricks": tricks, "made": bid == tricks,
                "forbidden": pa.array(hook, pa.int16(), mask=~hooked), "hooked": hooked}


RECORDS = Records(COLUMNS, TedsRecorder)
