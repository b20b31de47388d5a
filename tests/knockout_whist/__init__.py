"""Knock-out Whist with two suits: a fourth game in one folder, as a test fixture.

It proves the game contract (:mod:`cardlab.game`): everything about the game is in this
folder, and nothing outside it names the game. The game is not registered on import: a test
registers it for its own duration (``registered()``, the ``knockout_whist`` fixture of
``conftest.py``), and ``python -m knockout_whist ...`` runs the ``cardlab`` command line
with it registered. ``docs/adding-a-game.md`` walks through this folder.

The rules
---------

- **Players and cards.** 2 to 4 players; a deck of 14 cards, hearts and spades, each 8, 9,
  10, J, Q, K, A (ace high). Codes: ``8H`` ... ``AH``, ``8S`` ... ``AS``.
- **Hands.** Hand *k* deals ``start_size - k + 1`` cards each (option ``start_size``,
  default and at most 13 // players: 6, 4 or 3), one at a time from the dealer's left.
  The first dealer is seat ``first_dealer`` (option, default 0); the deal passes left.
- **Trumps.** In the first hand the next card of the deck is turned up: its suit is trump.
  In every later hand the player who took the most tricks in the hand before (of players
  tied, the one who took a trick first in it) chooses trumps after the deal, having seen
  their cards: ``trump hearts`` or ``trump spades``.
- **Play.** The player left of the dealer leads the first trick; the winner of a trick leads
  the next. Players must follow suit if they can; otherwise they may play any card. The
  highest trump wins the trick, else the highest card of the suit led.
- **Score.** Each trick taken scores 1 point. A player who takes no trick in a hand is
  *knocked out* and loses every point scored so far (their score for that hand is minus
  their total before it, so their total is 0).
- **End.** The game ends after the first hand that knocks a player out (at the latest the
  hand of one card, which knocks out all but one). The highest total wins; every player
  knocked out has 0, every other at least 1.

With two players this is the classic knock-out game. With more, the classic game plays on
without the knocked-out players; here the first knock-out ends it, because the shared trick
mechanics deal every seat in every hand (``cardlab.kernel.TrickKernel`` has no seat that sits
a hand out).

>>> with registered():
...     import cardlab
...     table = cardlab.new_game("knockout-whist", players=2, seed=1)
...     table.state.snapshot()["turned"], table.state.legal_texts()[:3]
('QH', ['play 8H', 'play 9H', 'play 10H'])
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from cardlab.game import (
    CardFace,
    Game,
    GameType,
    Outcome,
    RolloutBot,
    Scored,
    State,
    register,
    unregister,
)
from cardlab.games.trick_taking import SUIT_MARK, suited_faces
from cardlab.games.trick_taking.advice import TrickGame, play_outcome
from cardlab.records import Records

from .engine import DECK, KnockoutWhistRules, KnockoutWhistState
from .words import KnockoutWords

if TYPE_CHECKING:
    from cardlab.solvekernel import Search


class KnockoutWhist(TrickGame):
    """The game as the layers above see it: a trick game, hidden hands, seeded deals, the
    shared trick sampler (nothing but the cards is hidden: trumps are chosen aloud), the
    advisor's figures and outcome, and the exact solver (:mod:`.advice`)."""

    rules_class = KnockoutWhistRules
    game_type = GameType(tricks=True, exact_solver=True)
    marks = SUIT_MARK  # "trump hearts" reads "trump ♥ hearts"
    table_words = KnockoutWords()  # the knocked-out seats, in the game's own words

    def heuristic_bot(self, seed: int | str) -> RolloutBot:
        from .bot import HeuristicBot

        return HeuristicBot(seed)

    def card_faces(self) -> dict[str, CardFace]:
        return suited_faces(DECK)

    def records(self) -> Records:
        from .records import RECORDS

        return RECORDS

    # -- the advisor ---------------------------------------------------------------------------
    def figures(self, end: State, seat: int, start: State) -> dict[str, float]:
        from .advice import figures

        assert isinstance(end, KnockoutWhistState) and isinstance(start, KnockoutWhistState)
        return figures(end, seat, start)

    def outcome(self) -> Outcome:
        from .advice import outcome

        return play_outcome(outcome)

    # -- the exact solver ----------------------------------------------------------------------
    def solver_search(self, state: State, seat: int, bounded: bool) -> Search:
        from .advice import search

        assert isinstance(state, KnockoutWhistState)
        return search(state, seat, bounded)

    def summary_outcomes(self, state: State, seat: int, value: int, keys: set[int]
                         ) -> dict[int, Scored]:
        from .advice import summary_outcomes

        assert isinstance(state, KnockoutWhistState)
        return summary_outcomes(state, seat, keys)


GAME = KnockoutWhist()


@contextlib.contextmanager
def registered() -> Iterator[Game]:
    """The game registered while the ``with`` block runs, and unregistered after."""
    register(GAME)
    try:
        yield GAME
    finally:
        unregister(GAME.name)


__all__ = ["GAME", "KnockoutWhist", "registered"]
