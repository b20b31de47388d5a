"""A heuristic Where's Bob's Hat? bot: bids from hand strength, plays toward its bids.

It reads only what its seat may know: its own cards, the trump, the trick on the table,
its own bids and the hat's value (which the dealer chose, or which is public).

- The hat (as dealer): +10 when it holds two or more of the high cards that take hat
  tricks (14-20 of trump, or 16-20 overall), else -10.
- Bids: "most" in every suit where it holds a clear share of the suit's high cards (trump
  counts extra); "fewest" with a weak, low hand; the strongest single suit when neither fits.
- Play: it values the trick for itself (cards of its most-suits, minus the trick's size when
  it bid fewest, plus or minus the hat), then wins as cheaply as it can when that value is
  positive and ducks under the winning card when it is not.
"""

from __future__ import annotations

from ..cards import seeded_rng
from ..game import State
from ..games.bobs_hat import BID, DECK, FEWEST, HAT_MINUS, HAT_PLUS, IS_HAT, MOST, BobsHatState

SUIT_OF = DECK.suit_of
RANK_OF = DECK.rank_of


class HeuristicBot:
    def __init__(self, seed: int | str = 0) -> None:
        self.rng = seeded_rng(seed, "bobs-hat-heuristic")

    def __call__(self, state: State, seat: int) -> int:
        assert isinstance(state, BobsHatState)
        legal = state.legal_actions()
        if legal[0] >= HAT_PLUS:
            return self._hat(state, seat)
        if legal[0] > BID:
            return self._bid(state, seat, legal)
        return self._play(state, seat, legal)

    def _hat(self, state: BobsHatState, seat: int) -> int:
        cards = [c for suit in state.hands[seat] for c in suit]
        strong = sum(1 for c in cards if RANK_OF[c] >= 16 or (
            SUIT_OF[c] == state.trump and RANK_OF[c] >= 14))
        return HAT_PLUS if strong >= 2 else HAT_MINUS

    def _bid(self, state: BobsHatState, seat: int, legal: list[int]) -> int:
        held = state.hands[seat]
        n = state.rules.players
        flags = 0
        strength = []
        for suit in range(3):
            cards = held[suit]
            score = len(cards) + sum(0.5 for c in cards if RANK_OF[c] >= 15)
            if suit == state.trump:
                score *= 1.6
            strength.append(score)
            if score >= 1.6 * state.size / n and any(RANK_OF[c] >= 15 for c in cards):
                flags |= MOST[suit]
        cards = [c for suit in held for c in suit]
        average = sum(RANK_OF[c] for c in cards) / len(cards)
        trumps = len(held[state.trump]) if state.trump >= 0 else 0
        if average < 8.5 and trumps <= 1:
            flags |= FEWEST
        if not flags:
            flags = MOST[max(range(3), key=lambda s: (strength[s], self.rng.random()))]
        return BID + flags if BID + flags in legal else legal[0]

    def _value(self, state: BobsHatState, seat: int, cards: list[int]) -> float:
        flags = state.bids[seat]
        value = 0.0
        for card in cards:
            if flags & MOST[SUIT_OF[card]]:
                value += 1
        if flags & FEWEST:
            value -= len(cards) + 1
        if any(IS_HAT[c] for c in cards):
            value += state.hat_value / 5
        return value

    def _beats(self, state: BobsHatState, card: int, best: int) -> bool:
        suit, best_suit = SUIT_OF[card], SUIT_OF[best]
        if suit == best_suit:
            return card > best
        return suit == state.trump

    def _play(self, state: BobsHatState, seat: int, legal: list[int]) -> int:
        trick = state.trick
        if not trick:
            flags = state.bids[seat]
            if flags & FEWEST:
                return min(legal, key=lambda c: RANK_OF[c])
            wanted = [c for c in legal if flags & MOST[SUIT_OF[c]]]
            return max(wanted or legal, key=lambda c: RANK_OF[c])
        best = state.win_card
        winners = [c for c in legal if self._beats(state, c, best)]
        losers = [c for c in legal if c not in winners]
        if self._value(state, seat, trick + [legal[0]]) > 0 and winners:
            return min(winners, key=lambda c: (SUIT_OF[c] == state.trump, RANK_OF[c]))
        if losers:
            return max(losers, key=lambda c: (not IS_HAT[c], RANK_OF[c]))
        return min(legal, key=lambda c: RANK_OF[c])
