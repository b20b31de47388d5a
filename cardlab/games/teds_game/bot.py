"""A heuristic Ted's Game bot: bids the tricks its hand should take, then plays to take
exactly that many.

It reads only what its seat may know: its own cards, the turned trump, the bids, the tricks
won so far and the cards on the table.

- Bid: its expected tricks, rounded: its share of the tricks in proportion to its share of
  the strength dealt (trumps count most, then aces and kings). As dealer it respects the
  hook: when the rounded number is forbidden it bids the nearer allowed number (the lower
  one on a tie).
- Play: while short of its bid it tries to win the trick (leading its strongest card; when
  following, the cheapest winning card if it plays last, else the highest winner); once its
  bid is made it ducks: the highest card that does not win, or, when every card it may play
  wins, the highest one, to get rid of it.
"""

from __future__ import annotations

from ...cards import seeded_rng
from ...game import State
from ...kernel import beats
from .engine import BID, DECK, NCARDS, TedsGameState

SUIT_OF = DECK.suit_of
RANK_OF = DECK.rank_of
# VALUE[is trump][card]: how much of a trick a card is worth (see expected_tricks)
VALUE = (tuple(1.5 * ((RANK_OF[c] - 2) / 12) ** 5 for c in range(NCARDS)),
         tuple(1.2 + (RANK_OF[c] - 2) / 12 for c in range(NCARDS)))
MEAN_VALUE = (sum(VALUE[1][:13]) + 3 * sum(VALUE[0][:13])) / NCARDS  # per card, one suit trump


class HeuristicBot:
    def __init__(self, seed: int | str = 0) -> None:
        self.rng = seeded_rng(seed, "teds-game-heuristic")

    def __call__(self, state: State, seat: int) -> int:
        assert isinstance(state, TedsGameState)
        legal = state.legal_actions()
        if legal[0] >= BID:
            return self._bid(state, seat, legal)
        return self._play(state, seat, legal)

    # -- bidding -------------------------------------------------------------------------
    def expected_tricks(self, state: TedsGameState, seat: int) -> float:
        """How many tricks this hand should take, from its cards and the trump alone.

        Every trick is won by someone, so a hand's share of the tricks is taken as its share
        of the strength dealt: its cards' value over the value an average hand of the same
        size holds. A trump is worth 1.2 plus its rank on a 0-1 scale (any trump can win a
        trick); an off-trump card 1.5 times its rank to the fifth power (aces count, low
        cards hardly).
        """
        held = state.hands[seat]
        trump = state.trump
        mine = 0.0
        for suit, cards in enumerate(held):
            for card in cards:
                mine += VALUE[suit == trump][card]
        return min(mine / (state.rules.players * MEAN_VALUE), float(state.size))

    def _bid(self, state: TedsGameState, seat: int, legal: list[int]) -> int:
        expected = self.expected_tricks(state, seat)
        wanted = int(expected + 0.5)
        allowed = [a - BID for a in legal]
        if wanted in allowed:
            return BID + wanted
        # the hook forbids it: the nearer allowed bid, below on a tie (or at random when
        # the expectation sits right between them)
        best = min(allowed, key=lambda b: (abs(b - expected), b > wanted, self.rng.random()))
        return BID + best

    # -- play ----------------------------------------------------------------------------
    def _play(self, state: TedsGameState, seat: int, legal: list[int]) -> int:
        short = state.bids[seat] - state.tricks_won[seat]
        trump = state.trump
        if not state.trick:
            if short > 0:  # lead the strongest card: an off-trump ace first, else trump high
                return max(legal, key=lambda c: (RANK_OF[c], SUIT_OF[c] == trump))
            return min(legal, key=lambda c: (SUIT_OF[c] == trump, RANK_OF[c]))
        best = state.win_card
        best_suit = SUIT_OF[best]
        winners = [c for c in legal if beats(c, SUIT_OF[c], best, best_suit, trump)]
        losers = [c for c in legal if c not in winners]
        last = len(state.trick) == state.rules.players - 1
        if short > 0:
            if winners:
                if last:
                    return min(winners, key=lambda c: (SUIT_OF[c] == trump, RANK_OF[c]))
                return max(winners, key=lambda c: (SUIT_OF[c] != trump, RANK_OF[c]))
            return min(legal, key=lambda c: (SUIT_OF[c] == trump, RANK_OF[c]))
        if losers:  # made (or over): duck with the highest card that still loses
            return max(losers, key=lambda c: (SUIT_OF[c] != trump, RANK_OF[c]))
        return max(legal, key=lambda c: RANK_OF[c])

    # The card play by its public name: the advisor's rollouts call it at every card of the
    # play phase (legal: the state's legal actions), not through __call__'s phase dispatch.
    play_card = _play
