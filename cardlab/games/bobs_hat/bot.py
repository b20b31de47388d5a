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
from ...kernel import mask_of
from .engine import DECK, HAT_CARDS, BobsHatState
from .kernel import HeuristicPlayer, hat_choice

SUIT_OF = DECK.suit_of
RANK_OF = DECK.rank_of
RANKS = bytes(RANK_OF)  # each card's rank, a byte a card (as the compiled player reads it)
SUITS = bytes(SUIT_OF)  # and each card's suit


def choose_hat(held: list[list[int]], trump: int) -> int:
    """The bot's hat as dealer, from its hand (``held``: its cards per suit) and the trump:
    +10 with two or more of the high cards that take hat tricks, else -10 (the compiled
    player's :func:`~cardlab.games.bobs_hat.kernel.hat_choice`). It reads no random number
    (the advisor draws a hidden hat with it: cardlab.games.bobs_hat.advice).

    >>> from cardlab.games.bobs_hat.engine import DECK, HAT_PLUS
    >>> choose_hat([[DECK.card(0, 20), DECK.card(0, 19)], [], []], -1) == HAT_PLUS
    True
    """
    return hat_choice(mask_of([c for suit in held for c in suit]), trump, RANKS, SUITS)


class HeuristicBot(PlayerBot):
    """The heuristic bot: its hat, bids and card play are the compiled
    :class:`~cardlab.games.bobs_hat.kernel.HeuristicPlayer`'s (its ``player``, which
    simulations and the advisor's rollouts call from the kernel).

    >>> import cardlab
    >>> table = cardlab.new_game("bobs-hat", players=3, seed=4, hands=1)
    >>> table.play(HeuristicBot(0))
    >>> table.state.is_game_over()
    True
    """

    player: HeuristicPlayer

    def __init__(self, seed: int | str = 0) -> None:
        self.player = HeuristicPlayer(LazyRandom(seed, "bobs-hat-heuristic"), RANKS, HAT_CARDS)

    def __call__(self, state: State, seat: int) -> int:
        assert isinstance(state, BobsHatState)
        return self.player.act(state, seat)

    def play_card(self, state: BobsHatState, seat: int, legal: list[int]) -> int:
        """The card play alone (``legal``: the state's legal cards, which it reads itself):
        the advisor's rollouts call it at every card, not through the phase dispatch."""
        return self.player.card(state, seat)
