"""Ted's Game, an Oh Hell variant: everything about the game, in one package.

- :mod:`.engine`: the rules and the state; :mod:`.kernel`: the rules that run at every step
  of a hand (the seeded deal, the bids and the hook, the score), compiled with the kernel;
- :mod:`.bot`: the heuristic bot;
- :mod:`.advice`: the advisor's figures and outcome; :mod:`.solving`: the exact solver's
  search;
- :class:`TedsGame`: the game as the layers above see it.

>>> import cardlab
>>> cardlab.get_game("teds-game").card_faces()["QH"]
['Q', '♥', 'red', 0, 'Q♥']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...game import (
    CardFace,
    GameType,
    Outcome,
    RolloutBot,
    Rules,
    Scored,
    State,
    TrickBid,
    register,
)
from ...records import Records
from ...words import plural
from ..trick_taking import SUIT_MARK, suited_faces
from ..trick_taking.advice import TrickGame, play_outcome
from ..trick_taking.state import TrickTaking
from .bot import HeuristicBot
from .engine import BID, DECK, PHASE_BID, TedsGameRules, TedsGameState, score
from .records import RECORDS
from .words import TedsWords

if TYPE_CHECKING:
    from ...solvekernel import Search


class TedsGame(TrickGame):
    rules_class = TedsGameRules
    game_type = GameType(tricks=True, exact_solver=True, hook=True, bids_tricks=True)
    marks = SUIT_MARK
    table_words = TedsWords()

    def heuristic_bot(self, seed: int | str) -> RolloutBot:
        return HeuristicBot(seed)

    def card_faces(self) -> dict[str, CardFace]:
        return suited_faces(DECK)

    def records(self) -> Records:
        return RECORDS

    def score_rule(self, rules: Rules) -> str:
        return ("an exact bid scores 10 + the bid squared, and an exact zero 10 + the number of "
                "cards dealt to each; a miss, over or under, loses the miss cubed")

    def explain_score(self, position: dict[str, Any], seat: int, name: str) -> str | None:
        """The bid, the tricks taken and the sum that makes the hand's score.

        >>> import cardlab
        >>> from cardlab.cursor import Cursor
        >>> teds = cardlab.example("teds-game-example")
        >>> end = Cursor(teds, hand=1).goto(Cursor(teds).find(1, len(teds.line(1)))).position
        >>> TedsGame().explain_score(end, 0, "Ann")
        'Ann bid 2 and took 2: an exact bid scores 10 + 2 × 2 = 14'
        """
        bids, won, size = position.get("bids"), position.get("tricks_won"), \
            position.get("hand_size")
        if not bids or won is None or size is None or bids[seat] is None:
            return None
        bid, took = bids[seat], won[seat]
        head = f"{name} bid {bid} and took {took}"
        if bid == took == 0:
            return (f"{head}: an exact zero scores 10 + the {plural(size, 'card')} dealt = "
                    f"{score(0, 0, size)}")
        if bid == took:
            return f"{head}: an exact bid scores 10 + {bid} × {bid} = {score(bid, took, size)}"
        miss = abs(took - bid)
        return (f"{head}: a miss by {miss} loses {miss} × {miss} × {miss} = "
                f"{-score(bid, took, size)}")

    # -- the advisor ---------------------------------------------------------------------------
    def figures(self, end: State, seat: int, start: State) -> dict[str, float]:
        from .advice import figures

        assert isinstance(end, TedsGameState) and isinstance(start, TedsGameState)
        return figures(end, seat, start)

    def outcome(self) -> Outcome:
        from .advice import outcome

        return play_outcome(outcome)

    def keep_shown(self, template: TrickTaking, position: dict[str, Any]) -> None:
        from .advice import keep_reneges

        assert isinstance(template, TedsGameState)
        keep_reneges(template, position)

    # -- the exact solver ----------------------------------------------------------------------
    def solver_search(self, state: State, seat: int, bounded: bool) -> Search:
        from .solving import search

        assert isinstance(state, TedsGameState)
        return search(state, seat, bounded)

    def summary_outcomes(self, state: State, seat: int, value: int, keys: set[int]
                         ) -> dict[int, Scored]:
        from .solving import summary_outcomes

        assert isinstance(state, TedsGameState)
        return summary_outcomes(state, seat, value, keys)

    # -- the bidding lab -----------------------------------------------------------------------
    def trick_bid(self, state: State) -> TrickBid | None:
        assert isinstance(state, TedsGameState)
        if state.phase != PHASE_BID:
            return None
        forbidden = state.forbidden_bid()
        return TrickBid(tricks=state.hand_size_now(),
                        offered={state.parse_action(text) - BID: text
                                 for text in state.legal_texts()},
                        forbidden=None if forbidden < 0 else forbidden)

    def bid_score(self, bid: int, taken: int, tricks: int) -> int:
        return score(bid, taken, tricks)


GAME = register(TedsGame())
