"""What a simulation records of each hand of Where's Bob's Hat? (docs/simulations.md): each
seat's bid, the cards it took by suit, the hat, and the points of each part of the score
(the engine's ``score_parts``).

>>> from cardlab.games.bobs_hat.records import RECORDS
>>> [column.name for column in RECORDS.columns][:5]
['bid', 'taken', 'taken_blue', 'taken_red', 'taken_black']
"""

from __future__ import annotations

from typing import Any

from ...records import BidPart, Column, HandRecorder, Records
from .engine import BID_WORDS, SUITS, BobsHatState, bid_text
from .kernel import BobsPlayout

COLUMNS = (
    Column("bid", "string", False, "the bid, as a replay writes it: most-blue,fewest; none"),
    Column("taken", "int16", False, "cards the seat took"),
    Column("taken_blue", "int16", False, "blue cards taken"),
    Column("taken_red", "int16", False, "red cards taken"),
    Column("taken_black", "int16", False, "black cards taken"),
    Column("hat", "bool", False, "the seat held Bob's Hat at the end of the hand"),
    Column("hat_value", "int8", False, "the hat's value the dealer chose, +10 or -10"),
    Column("points_most_blue", "int16", True, "points of the most-blue bid (null: not bid)"),
    Column("points_most_red", "int16", True, "points of the most-red bid"),
    Column("points_most_black", "int16", True, "points of the most-black bid"),
    Column("points_fewest", "int16", True, "points of the fewest bid"),
    Column("points_double_fewest", "int16", True, "points of the double-fewest bid"),
    Column("points_hat", "int16", True, "the hat's points, on the holder's row (null: none)"),
    Column("points_renege", "int16", True, "a renege's penalty (null: none)"),
)


class BobsHatRecorder(HandRecorder[BobsHatState]):
    """Where's Bob's Hat?'s values of each hand, kept by its compiled part as the kernel
    plays the hands (:class:`~cardlab.games.bobs_hat.kernel.BobsPlayout`, the ``playout``)."""

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.playout = BobsPlayout(players)

    def build(self, seat_index: Any, dealer: Any) -> dict[str, Any]:
        import numpy as np
        import pyarrow as pa

        n = self.players
        kept = self.playout
        flags = kept.bid_flags
        texts = {f: bid_text(f) for f in set(flags)}
        taken = np.asarray(kept.taken_suits, dtype=np.int16).reshape(-1, len(SUITS))
        holder = np.repeat(np.asarray(kept.hat_holder, dtype=np.int8), n)
        out: dict[str, Any] = {
            "bid": [texts[f] for f in flags],
            "taken": taken.sum(axis=1, dtype=np.int16),
            "hat": seat_index == holder,
            "hat_value": np.repeat(np.asarray(kept.hat_value, dtype=np.int8), n),
        }
        for i, suit in enumerate(SUITS):
            out[f"taken_{suit}"] = taken[:, i]
        for word in (*BID_WORDS.values(), "hat", "renege"):
            out["points_" + word.replace("-", "_")] = pa.array(
                [p.get(word) for p in kept.parts], pa.int16())
        return out


# Each bid is scored on its own (the points_<bid> columns), drawn in its card colour (black
# drawn grey, to show on a dark template too); the three most bids are one kind.
BID_PARTS = (
    BidPart("points_most_blue", "most-blue", "most", "#1f77b4"),
    BidPart("points_most_red", "most-red", "most", "#d62728"),
    BidPart("points_most_black", "most-black", "most", "#7f7f7f"),
    BidPart("points_fewest", "fewest", "fewest", "#ff9f1c"),
    BidPart("points_double_fewest", "double-fewest", "double-fewest", "#9467bd"),
)

RECORDS = Records(COLUMNS, BobsHatRecorder, bid_parts=BID_PARTS)
