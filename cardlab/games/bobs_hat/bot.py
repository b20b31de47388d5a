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

from ...bots import LazyRandom, PlayerBot
from ...game import State
from ...playout import Draws
from .engine import BID, DECK, FEWEST, HAT_CARDS, HAT_MINUS, HAT_PLUS, MOST, BobsHatState
from .kernel import HeuristicPlayer

SUIT_OF = DECK.suit_of
RANK_OF = DECK.rank_of
RANKS = bytes(RANK_OF)  # each card's rank, a byte a card (as the compiled player reads it)


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


class HeuristicBot(PlayerBot):
    """The heuristic bot: the hat and the bids here, the card play by the compiled
    :class:`~cardlab.games.bobs_hat.kernel.HeuristicPlayer` (its ``player``, which
    simulations and the advisor's rollouts call from the kernel).

    >>> import cardlab
    >>> table = cardlab.new_game("bobs-hat", players=3, seed=4, hands=1)
    >>> table.play(HeuristicBot(0))
    >>> table.state.is_game_over()
    True
    """

    player: HeuristicPlayer

    def __init__(self, seed: int | str = 0) -> None:
        self.player = HeuristicPlayer(LazyRandom(seed, "bobs-hat-heuristic"), self._decide,
                                      RANKS, HAT_CARDS)

    def __call__(self, state: State, seat: int) -> int:
        assert isinstance(state, BobsHatState)
        return self.player.act(state, seat)

    def _decide(self, state: BobsHatState, seat: int) -> int:
        """The hat or a bid (the player's other phases)."""
        legal = state.legal_actions()
        if legal[0] >= HAT_PLUS:
            return self._hat(state, seat)
        return self._bid(state, seat, legal)

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
        if not flags:  # the strongest suit; a number per suit, read only on a tie
            draws = Draws(self.rng, 3)
            best = 0
            for suit in (1, 2):
                if strength[suit] > strength[best] or (
                        strength[suit] == strength[best] and draws.at(suit) > draws.at(best)):
                    best = suit
            draws.done()
            flags = MOST[best]
        return BID + flags if BID + flags in legal else legal[0]

    def play_card(self, state: BobsHatState, seat: int, legal: list[int]) -> int:
        """The card play alone (``legal``: the state's legal cards, which it reads itself):
        the advisor's rollouts call it at every card, not through the phase dispatch."""
        return self.player.card(state, seat)
