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

The choices are made by the compiled :class:`~cardlab.games.teds_game.kernel.HeuristicPlayer`
(its ``player``), which simulations and the advisor's rollouts call from the kernel.

>>> import cardlab
>>> table = cardlab.new_game("teds-game", players=4, seed=7)
>>> bot = HeuristicBot(1)
>>> table.act(table.state.action_text(bot(table.state, table.state.to_act())))
>>> table.replay.hands[0].actions[0].act
'bid 2'
"""

from __future__ import annotations

from ...bots import LazyRandom, PlayerBot
from ...game import State
from .engine import BID, DECK, NCARDS, TedsGameState
from .kernel import HeuristicPlayer

SUIT_OF = DECK.suit_of
RANK_OF = DECK.rank_of
RANKS = bytes(RANK_OF)  # each card's rank, a byte a card (as the compiled player reads it)
# VALUE[is trump][card]: how much of a trick a card is worth (see expected_tricks)
VALUE = (tuple(1.5 * ((RANK_OF[c] - 2) / 12) ** 5 for c in range(NCARDS)),
         tuple(1.2 + (RANK_OF[c] - 2) / 12 for c in range(NCARDS)))
MEAN_VALUE = (sum(VALUE[1][:13]) + 3 * sum(VALUE[0][:13])) / NCARDS  # per card, one suit trump


class HeuristicBot(PlayerBot):
    player: HeuristicPlayer

    def __init__(self, seed: int | str = 0) -> None:
        self.player = HeuristicPlayer(LazyRandom(seed, "teds-game-heuristic"), RANKS, VALUE,
                                      MEAN_VALUE)

    def __call__(self, state: State, seat: int) -> int:
        assert isinstance(state, TedsGameState)
        legal = state.legal_actions()
        if legal[0] >= BID:
            return self.player.bid(legal, self.expected_tricks(state, seat))
        return self.player.card(state, seat)

    def expected_tricks(self, state: TedsGameState, seat: int) -> float:
        """How many tricks this hand should take, from its cards and the trump alone.

        Every trick is won by someone, so a hand's share of the tricks is taken as its share
        of the strength dealt: its cards' value over the value an average hand of the same
        size holds. A trump is worth 1.2 plus its rank on a 0-1 scale (any trump can win a
        trick); an off-trump card 1.5 times its rank to the fifth power (aces count, low
        cards hardly).
        """
        return self.player.expected_tricks(state, seat)

    def play_card(self, state: TedsGameState, seat: int, legal: list[int]) -> int:
        """The card play alone (``legal``: the state's legal cards, which it reads itself):
        the advisor's rollouts call it at every card, not through the phase dispatch."""
        return self.player.card(state, seat)
