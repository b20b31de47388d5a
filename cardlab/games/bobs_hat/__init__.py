"""Where's Bob's Hat? (Alan R. Moon): everything about the game, in one package.

- :mod:`.engine`: the rules, the state and the scoring;
- :mod:`.bot`: the heuristic bot;
- :class:`BobsHat`: the game as the layers above see it (its type, its faces, its bots, its
  sampler, figures and outcome for the advisor, its solver and its simulation records).

>>> import cardlab
>>> cardlab.get_game("bobs-hat").card_faces()["blue14"]
['14', '◆', 'blue', 1, 'blue 14']
"""

from __future__ import annotations

from typing import Any

from ...game import Bot, CardFace, Game, GameType, State, register
from ...records import Records
from ..trick_taking import COLOUR_MARK, suited_faces
from .engine import DECK, HAT_RANKS, TRUMP_CARDS, BobsHatRules
from .records import RECORDS


class BobsHat(Game):
    rules_class = BobsHatRules
    game_type = GameType(tricks=True, exact_solver=True, trump_words=TRUMP_CARDS)
    marks = COLOUR_MARK

    def heuristic_bot(self, seed: int | str) -> Bot:
        from .bot import HeuristicBot

        return HeuristicBot(seed)

    def card_faces(self) -> dict[str, CardFace]:
        return suited_faces(DECK, HAT_RANKS)

    def records(self) -> Records:
        return RECORDS

    def seat_public(self, state: State) -> dict[str, Any]:
        from .engine import NO_BID, BobsHatState

        assert isinstance(state, BobsHatState)
        # A no bid of an earlier hand was shown to all; this hand's may still be secret.
        return {"no_bid_used": [used and state.bids[s] != NO_BID
                                for s, used in enumerate(state.no_bid_used)]}


GAME = register(BobsHat())
