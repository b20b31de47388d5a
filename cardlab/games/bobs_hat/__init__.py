"""Where's Bob's Hat? (Alan R. Moon): everything about the game, in one package.

- :mod:`.engine`: the rules, the state and the scoring;
- :mod:`.bot`: the heuristic bot;
- :mod:`.advice`: the advisor's figures and outcome; :mod:`.solving`: the exact solver's
  search;
- :class:`BobsHat`: the game as the layers above see it (its type, its faces, its bots, its
  sampler's hidden actions, figures and outcome for the advisor, its solver).

>>> import cardlab
>>> cardlab.get_game("bobs-hat").card_faces()["blue14"]
['14', '◆', 'blue', 1, 'blue 14']
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...game import (
    CardFace,
    GameType,
    HandParts,
    Outcome,
    RolloutBot,
    Rules,
    Scored,
    State,
    register,
)
from ...kernel import hands_by_suit
from ...records import Records
from ..trick_taking import COLOUR_MARK, suited_faces
from ..trick_taking.advice import TrickGame, play_outcome
from ..trick_taking.state import TrickTaking
from .bot import HeuristicBot, choose_hat
from .engine import DECK, HAT_PLUS, HAT_RANKS, NO_BID, TRUMP_CARDS, BobsHatRules, BobsHatState
from .records import RECORDS
from .words import BobsHatWords

if TYPE_CHECKING:
    from ...solvekernel import Search

# What another seat reads of a hidden action (BobsHatState.redact_action): the hat's value
# while it is hidden, and a bid under secret bidding.
HAT_CHOSEN = "hat chosen"
BID_SECRET = "bid (secret)"


class BobsHat(TrickGame):
    rules_class = BobsHatRules
    game_type = GameType(tricks=True, exact_solver=True, trump_words=TRUMP_CARDS,
                         questions=(("bid", "What do you bid?"),
                                    ("play", "Which card do you play?"),
                                    ("hat", "What do you make Bob's Hat worth?")))
    marks = COLOUR_MARK
    table_words = BobsHatWords()

    def heuristic_bot(self, seed: int | str) -> RolloutBot:
        return HeuristicBot(seed)

    def card_faces(self) -> dict[str, CardFace]:
        return suited_faces(DECK, HAT_RANKS)

    def records(self) -> Records:
        return RECORDS

    def score_rule(self, rules: Rules) -> str:
        """The scoring of a hand, each bid on its own (the options change a few words).

        >>> print(BobsHat().score_rule(BobsHat().rules(players=4)))  # doctest: +ELLIPSIS
        each bid scores on its own: a most bid is made with strictly more cards of its \
colour taken than anyone else and scores 5 + those cards, a miss −5; ...
        """
        options = rules.options
        miss = "a miss −5" + (" and 1 more for each card of the colour taken"
                              if options["negative_scoring"] else "")
        double = ", a double fewest twice as much" if options["double_fewest"] else ""
        return ("each bid scores on its own: a most bid is made with strictly more cards of its "
                f"colour taken than anyone else and scores 5 + those cards, {miss}; a fewest "
                "bid is made with strictly fewer cards taken than anyone else and scores the "
                f"number of cards dealt to each{double}, and a miss loses as much; a tie "
                "fails; whoever holds Bob's Hat at the end scores its value")

    def trick_facts(self, position: dict[str, Any], seats: Sequence[str]) -> dict[str, Any]:
        """Who holds the hat after the trick (``hat_holder``, None for nobody)."""
        if "hat" not in position:
            return {}
        holder = position["hat"]["holder"]
        return {"hat_holder": None if holder is None else seats[holder]}

    def seat_facts(self, position: dict[str, Any], seat: int) -> dict[str, Any]:
        """Whether the seat holds the hat (``hat``)."""
        hat = position.get("hat")
        return {"hat": isinstance(hat, dict) and hat["holder"] == seat}

    def hand_parts(self, end: dict[str, Any], scores: list[int], ended: bool) -> HandParts:
        # The engine's score_parts, once the hand is over: each bid's points, the hat's and a
        # renege's. They describe the whole hand number; a renege's penalty was already
        # counted by the attempt that was redealt, so this entry's renege is what is left.
        parts = end.get("score_parts")
        if not parts:
            return super().hand_parts(end, scores, ended)
        components, results = [], []
        for seat_parts, score in zip(parts, scores, strict=True):
            bids = {k: v for k, v in seat_parts.items() if k not in ("hat", "renege")}
            hat = seat_parts.get("hat", 0)
            components.append({"bids": sum(bids.values()), "hat": hat,
                               "renege": score - sum(bids.values()) - hat})
            results.append([(word, points > 0) for word, points in bids.items()])
        return HandParts(components, results)

    # -- the advisor ---------------------------------------------------------------------------
    def seat_public(self, state: State) -> dict[str, Any]:
        assert isinstance(state, BobsHatState)
        # A no bid of an earlier hand was shown to all; this hand's may still be secret.
        return {"no_bid_used": [used and state.bids[s] != NO_BID
                                for s, used in enumerate(state.no_bid_used)]}

    def figures(self, end: State, seat: int, start: State) -> dict[str, float]:
        from .advice import figures

        assert isinstance(end, BobsHatState) and isinstance(start, BobsHatState)
        return figures(end, seat, start)

    def outcome(self) -> Outcome:
        from .advice import outcome

        return play_outcome(functools.partial(outcome, memo={}))

    # The hidden actions: a secret bid shapes the bids after it; the hat's value changes no
    # legal action, so the sampler's template plays +10 and each sample draws the value.
    def secret_decision(self, text: str) -> bool:
        return text == BID_SECRET

    def face_down(self, text: str) -> str | None:
        return "hat +10" if text == HAT_CHOSEN else None

    def face_down_value(self, state: TrickTaking) -> int:
        assert isinstance(state, BobsHatState)
        return state.hat_value

    def draw_face_down(self, template: TrickTaking, actor: int, dealt: list[int],
                       rng: random.Random, uniform: bool) -> int:
        """The hidden hat's value: the heuristic bot's choice with the dealer's sampled cards
        as dealt and the trump, or (``uniform``) +10 or -10 at even chances."""
        if uniform:
            return 10 if rng.random() < 0.5 else -10
        held = hands_by_suit([dealt], DECK.suit_of, len(DECK.suits))[0]
        return 10 if choose_hat(held, template.trump) == HAT_PLUS else -10

    def set_face_down(self, state: TrickTaking, value: int) -> None:
        assert isinstance(state, BobsHatState)
        state.hat_value = value

    # -- the exact solver ----------------------------------------------------------------------
    def solver_search(self, state: State, seat: int, bounded: bool) -> Search:
        from .solving import search

        assert isinstance(state, BobsHatState)
        return search(state, seat, bounded)

    def summary_outcomes(self, state: State, seat: int, value: int, keys: set[int]
                         ) -> dict[int, Scored]:
        from .solving import summary_outcomes

        assert isinstance(state, BobsHatState)
        return summary_outcomes(state, seat, value, keys)


GAME = register(BobsHat())
