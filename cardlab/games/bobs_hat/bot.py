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

from ...cards import seeded_rng
from ...game import State
from .engine import BID, DECK, FEWEST, HAT_MINUS, HAT_PLUS, IS_HAT, MOST, BobsHatState

SUIT_OF = DECK.suit_of
RANK_OF = DECK.rank_of


def choose_hat(held: list[list[int]], trump: int) -> int:
    """The bot's hat as dealer, from its hand (``held``: its cards per suit) and the trump:
    +10 with two or more of the high cards that take hat tricks, else -10. It reads no
    random number (the advisor draws a hidden hat with it: cardlab.games.bobs_hat.advice).

    >>> from cardlab.games.bobs_hat.engine import DECK
    >>> choose_hat([[DECK.card(0, 20), DECK.card(0, 19)], [], []], -1) == HAT_PLUS
    True
    """
    cards = [c for suit in held for c in suit]
    strong = sum(1 for c in cards if RANK_OF[c] >= 16 or (
        SUIT_OF[c] == trump and RANK_OF[c] >= 14))
    return HAT_PLUS if strong >= 2 else HAT_MINUS


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
        return choose_hat(state.hands[seat], state.trump)

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

    def _play(self, state: BobsHatState, seat: int, legal: list[int]) -> int:
        # Runs at every card of every advisor rollout, hence one flat pass over the legal
        # cards; ties go to the first card in the order legal_actions lists them (min and
        # max keep it). tests/test_advisor_evaluate.py checks it against the plain version.
        trick = state.trick
        flags = state.bids[seat]
        if not trick:
            if flags & FEWEST:
                return min(legal, key=RANK_OF.__getitem__)
            wanted = [c for c in legal if flags & MOST[SUIT_OF[c]]]
            return max(wanted or legal, key=RANK_OF.__getitem__)
        best = state.win_card
        best_suit = SUIT_OF[best]
        trump = state.trump
        # The cheapest winner (a non-trump first, then the lowest rank) and the dearest loser
        # (a hat card last, then the highest rank), each as one number, the first kept on a tie.
        winner, winner_key = -1, 1000
        loser, loser_key = -1, -1
        for card in legal:
            suit = SUIT_OF[card]
            if (card > best) if suit == best_suit else (suit == trump):
                key = (100 if suit == trump else 0) + RANK_OF[card]
                if key < winner_key:
                    winner, winner_key = card, key
            else:
                key = (0 if IS_HAT[card] else 100) + RANK_OF[card]
                if key > loser_key:
                    loser, loser_key = card, key
        if winner >= 0:
            # the trick's value for the seat, its first legal card on it: a card of a most
            # suit +1, when it bid fewest -1 a card and -1 more, a hat card the hat value / 5
            value = 0.0
            hat = False
            for card in trick:
                if flags & MOST[SUIT_OF[card]]:
                    value += 1
                hat = hat or IS_HAT[card]
            first = legal[0]
            if flags & MOST[SUIT_OF[first]]:
                value += 1
            if flags & FEWEST:
                value -= len(trick) + 2
            if hat or IS_HAT[first]:
                value += state.hat_value / 5
            if value > 0:
                return winner
        if loser >= 0:
            return loser
        return min(legal, key=RANK_OF.__getitem__)

    # The card play by its public name: the advisor's rollouts call it at every card of the
    # play phase (legal: the state's legal actions), not through __call__'s phase dispatch.
    play_card = _play
