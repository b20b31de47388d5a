"""A heuristic Knock-out Whist bot: take tricks cheaply, keep out of the knock-out.

It reads only what its seat may know: its own cards, the trump and the trick on the table.

- Trumps: the suit it holds more of (on a tie, the one whose cards rank higher in all).
- Lead: its highest card (a high card is the surest trick, and one trick saves it).
- Follow: the cheapest card that wins the trick so far, else its lowest card.

>>> from knockout_whist.engine import KnockoutWhistRules
>>> state = KnockoutWhistRules(players=2).new_state()
>>> state.apply_chance(state.seeded_chance(3))
>>> bot = HeuristicBot(0)
>>> state.action_text(bot(state, state.to_act()))
'play KH'
"""

from __future__ import annotations

from cardlab.cards import seeded_rng
from cardlab.game import State

from .engine import DECK, TRUMP, KnockoutWhistState

SUIT_OF = DECK.suit_of
RANK_OF = DECK.rank_of


class HeuristicBot:
    def __init__(self, seed: int | str = 0) -> None:
        # the rules of the bot leave no choice to chance; the generator is the contract's
        self.rng = seeded_rng(seed, "knockout-whist-heuristic")

    def __call__(self, state: State, seat: int) -> int:
        assert isinstance(state, KnockoutWhistState)
        legal = state.legal_actions()
        if legal[0] >= TRUMP:
            held = state.hands[seat]
            return max(legal, key=lambda a: (len(held[a - TRUMP]),
                                             sum(RANK_OF[c] for c in held[a - TRUMP]), -a))
        return self.play_card(state, seat, legal)

    def play_card(self, state: KnockoutWhistState, seat: int, legal: list[int]) -> int:
        """The card the bot plays (``legal``: the legal cards), without the dispatch on
        the phase: the advisor's fast rollouts call it at every card
        (:class:`cardlab.game.CardPlayer`)."""
        if not state.trick:
            return max(legal, key=lambda c: (RANK_OF[c], -c))
        winning = [c for c in legal if _beats(c, state.win_card, state.trump)]
        if winning:
            return min(winning, key=lambda c: (SUIT_OF[c] == state.trump, RANK_OF[c]))
        return min(legal, key=lambda c: (SUIT_OF[c] == state.trump, RANK_OF[c]))


def _beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` would take the trick from ``best``, the card winning it so far."""
    if SUIT_OF[card] == SUIT_OF[best]:
        return RANK_OF[card] > RANK_OF[best]
    return SUIT_OF[card] == trump
