"""Where's Bob's Hat? for the advisor: the figures of a sample, the outcome at the end of play
(the hand scored once, for the value and the figures).

The figures are ``"made <bid>"`` for each bid of the seat (1 when it scored its points) and
``"hat"`` (1 when the seat ends holding Bob's Hat), averaged over the samples by
:func:`cardlab.advisor.evaluate`. The layers above reach them through
:class:`~cardlab.games.bobs_hat.BobsHat` (``figures``, ``outcome``).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from .engine import BID_WORDS, DOUBLE, FEWEST, MOST, NO_BID, BobsHatState, score_hand
from .kernel import taken_by_suit

MADE = {flags: f"made {word}" for flags, word in BID_WORDS.items()}
MADE_WORD = {word: f"made {word}" for word in BID_WORDS.values()}
OUTCOMES_KEPT = 100_000  # outcomes a memo keeps at most (then it starts again from empty)


def figures(end: BobsHatState, seat: int, start: BobsHatState) -> dict[str, float]:
    """``"made <bid>"`` for each bid of the seat (1 when it scored its points), and
    ``"hat"`` (1 when the seat ends holding Bob's Hat).

    This runs after every rollout, so it is cheap: a single bid's points are read from the
    engine's score sheet, and several bids from one pass over the cards taken; tests check
    it against the engine's own ``score_parts``. ``start`` is an earlier state of the same
    deal (its row holds any renege penalty of an earlier deal of the hand).

    >>> import cardlab, random
    >>> table = cardlab.new_game("bobs-hat", players=3, seed=2, hands=1)
    >>> state = table.state
    >>> start = state.clone()
    >>> state.random_playout(random.Random(0).random)
    >>> got = figures(state, 0, start)
    >>> got == {f"made {word}": float(points > 0)
    ...         for word, points in state.score_parts()[0].items() if word != "hat"
    ...         } | {"hat": float(state.hat_holder() == 0)}
    True
    """
    flags = end.bids[seat]
    holder = end.hat_holder()
    out: dict[str, float] = {}
    if end.pending == "next" and flags in MADE and end.sheet:
        # One bid: its points are the hand's row less the hat's and any renege penalty of
        # an earlier deal of this hand (in the row from the start), read from the engine's
        # own score sheet.
        points = end.sheet[-1][seat] - start.hand_scores()[seat] - (
            end.hat_value if holder == seat else 0)
        out[MADE[flags]] = 1.0 if points > 0 else 0.0
    elif end.pending == "next" and flags != NO_BID:  # a hand scored (not one to be redealt)
        taken = end.taken()
        mine = taken[seat]
        others = [row for s, row in enumerate(taken) if s != seat]
        for suit in (0, 1, 2):
            if flags & MOST[suit]:
                best = 0
                total = mine[suit]
                for row in others:
                    count = row[suit]
                    total += count
                    if count > best:
                        best = count
                made = total == 0 or mine[suit] > best
                out[MADE[MOST[suit]]] = 1.0 if made else 0.0
        if flags & FEWEST:
            least = sum(mine)
            made = True
            for row in others:
                if row[0] + row[1] + row[2] <= least:
                    made = False
                    break
            out[MADE[flags & (FEWEST | DOUBLE)]] = 1.0 if made else 0.0
    out["hat"] = 1.0 if holder == seat else 0.0
    return out


def outcome(end: Any, seat: int, memo: dict[tuple[Any, ...], Any] | None = None
            ) -> tuple[int, dict[str, float]]:
    """The seat's hand score and :func:`figures` of a hand whose play is over but not yet
    scored (a :func:`~cardlab.games.trick_taking.advice.stopped_class` state): ``score_hand``
    once, with its parts.

    Playouts often end with the same cards taken, so with a ``memo`` (one evaluation's own
    dict) the outcome is kept under everything ``score_hand`` reads; the figures returned
    are then shared: read them, do not change them.
    """
    taken = taken_by_suit(end)
    holder = end.hat_holder()
    options = end.rules.options
    key = (seat, holder, end.hat_value, end.size, options["negative_scoring"],
           *end.bids, *chain.from_iterable(taken))
    known = memo.get(key) if memo is not None else None
    if known is None:
        known = scored(end.bids, taken, end.size, holder, end.hat_value,
                       bool(options["negative_scoring"]), seat)
        if memo is not None:
            if len(memo) >= OUTCOMES_KEPT:
                memo.clear()
            memo[key] = known
    return end.row[seat] + known[0], known[1]


def scored(bids: list[int], taken: list[list[int]], size: int, holder: int, hat_value: int,
           negative: bool, seat: int) -> tuple[int, dict[str, float]]:
    """The seat's points for the hand's bids and the hat (``score_hand``, every card dealt
    taken) and its figures (``"made <bid>"``, ``"hat"``), from the cards taken per seat and
    colour and the hat's holder (-1 or any other seat: the same for ``seat``).

    >>> from cardlab.games.bobs_hat.engine import parse_bid
    >>> taken = [[5, 0, 0], [0, 5, 0], [0, 0, 5]]  # each seat took five of one colour
    >>> scored([parse_bid("most-blue"), 0, 0], taken, 5, 0, 10, False, 0)  # and the +10 hat
    (20, {'made most-blue': 1.0, 'hat': 1.0})
    """
    dealt = [0, 0, 0]
    for row in taken:  # every card dealt has been taken
        dealt[0] += row[0]
        dealt[1] += row[1]
        dealt[2] += row[2]
    parts: list[dict[str, int]] = [{} for _ in taken]
    scores = score_hand(bids, taken, dealt, size, holder, hat_value, negative, parts)
    out = {MADE_WORD[word]: 1.0 if points > 0 else 0.0
           for word, points in parts[seat].items() if word != "hat"}
    out["hat"] = 1.0 if holder == seat else 0.0
    return scores[seat], out


__all__ = ["MADE", "figures", "outcome", "scored"]
