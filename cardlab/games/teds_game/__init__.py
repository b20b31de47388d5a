"""Ted's Game, an Oh Hell variant: everything about the game, in one package.

- :mod:`.engine`: the rules and the state; :mod:`.table`: the rules that run at every step
  of a hand (the seeded deal, the bids and the hook, the score), compiled with the kernel;
- :mod:`.bot`: the heuristic bot;
- :class:`TedsGame`: the game as the layers above see it.

>>> import cardlab
>>> cardlab.get_game("teds-game").card_faces()["QH"]
['Q', '♥', 'red', 0, 'Q♥']
"""

from __future__ import annotations

from ...game import Bot, CardFace, Game, GameType, register
from ...records import Records
from ..trick_taking import SUIT_MARK, suited_faces
from .engine import DECK, TedsGameRules
from .records import RECORDS


class TedsGame(Game):
    rules_class = TedsGameRules
    game_type = GameType(tricks=True, exact_solver=True, hook=True)
    marks = SUIT_MARK

    def heuristic_bot(self, seed: int | str) -> Bot:
        from .bot import HeuristicBot

        return HeuristicBot(seed)

    def card_faces(self) -> dict[str, CardFace]:
        return suited_faces(DECK)

    def records(self) -> Records:
        return RECORDS


GAME = register(TedsGame())
