"""Whot (W. H. Storey, 1935): a shedding game, with the Nigerian special cards as an option.

The pack has 54 cards: circles and triangles 1-5, 7, 8, 10-14; crosses and squares 1-3, 5, 7,
10, 11, 13, 14; stars 1-5, 7, 8; five WHOT cards. The lowest cut deals six cards each, one at a
time from his left; the rest is the face-down stock. The player left of the dealer leads any
card; from then on each player in turn plays a card of the call card's symbol or number, or a
WHOT naming the symbol that must follow, or draws the top card of the stock (always allowed,
and it ends the turn). The first to play his last card wins the game; everyone else scores
*against* himself the total of the cards he holds (stars double, a WHOT 20). A rubber is 5
(short) or 10 (long) games and the lowest total wins it. See
``docs/rules-interpretations.md`` for every point where the rule text is silent.

Scores are penalty points: positive, and lower is better (``WhotRules.low_score_wins``).

>>> import cardlab
>>> table = cardlab.new_game("whot", players=3, seed=5, rubber="single")
>>> table.state.snapshot()["hand_counts"]
[6, 6, 6]
>>> table.state.legal_texts()[0].startswith("play ")
True
"""

from __future__ import annotations

from typing import Any

from ...game import CardFace, Game, GameType, RolloutBot, Rules, Sampler, SeatView, State, register
from ...records import Records
from ...words import names_and
from .pack import (  # noqa: F401  (the pack's names are part of this module's API)
    ANNOUNCE,
    CALL,
    CODES,
    DECK,
    DEFAULT_MAX_TURNS,
    DRAW,
    ENDED_BLOCKED,
    ENDED_CAP,
    ENDED_WON,
    FACE,
    GENERAL_MARKET,
    HAND_SIZE,
    HOLD_ON,
    IS_WHOT,
    MATCH_ALL,
    MATCH_CARD,
    MATCH_NUMBER,
    MATCH_SYMBOL,
    MAX_PACKS,
    MAX_PLAYERS_ONE_PACK,
    NAMES,
    NCARDS,
    NIGERIAN_SWITCHES,
    NUM,
    NUMBERS,
    PACK_SIZE,
    PASS,
    PHASE_DEAL,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SETUP,
    PICK_COUNT,
    PICK_THREE,
    PICK_TWO,
    RUBBER_GAMES,
    SPECIAL_NUMBER,
    SPECIAL_OPTION,
    SUSPENSION,
    SYM,
    SYMBOL_PLURALS,
    SYMBOLS,
    VALUE,
    WHOT_ACTIONS,
    WHOT_NUMBER,
    WHOT_SYMBOL,
    WHOTS_PER_PACK,
    cut_rank,
    hand_value,
    parse_symbol,
    symbol_name,
)
from .records import RECORDS
from .rules import WhotRules
from .state import WhotState
from .words import POINTS_WORD, WhotWords

WhotRules.state_class = WhotState

STAR = SYMBOLS.index("star")
# The printed marks of Whot's shapes.
SHAPE_MARK = {"circle": "●", "triangle": "▲", "cross": "✚", "square": "■", "star": "★"}


class Whot(Game):
    """Whot as the layers above see it: a rubber of games, scored in points against."""

    rules_class = WhotRules
    game_type = GameType(hand_word="game", whole_word="rubber", shedding=True,
                         draws_at_table=True, points_word=POINTS_WORD,
                         setup_word="cut", sheet_label="game ",
                         questions=(("play", "Which card do you play?"),
                                    ("draw play", "Which card do you play, or do you draw?"),
                                    ("draw", "Do you draw?")))
    marks = SHAPE_MARK
    table_words = WhotWords()

    def heuristic_bot(self, seed: int | str) -> RolloutBot:
        from .bot import HeuristicBot

        return HeuristicBot(seed)

    def card_faces(self) -> dict[str, CardFace]:
        """The code spells the face; "/k" marks a later copy of a card.

        >>> faces = Whot().card_faces()
        >>> faces["whot20/4"], faces["star3/2"]
        (['20', 'WHOT', 'whot', 0, 'WHOT'], ['3', '★', 'whot', 0, 'star 3'])
        """
        out: dict[str, CardFace] = {}
        for card, code in enumerate(DECK.codes):
            face = code.split("/")[0]
            name = face.rstrip("0123456789")
            number = face[len(name):]
            mark = "WHOT" if name == "whot" else SHAPE_MARK.get(name, "")
            out[code] = [number, mark, "whot", 0, NAMES[card]]
        return out

    def records(self) -> Records:
        return RECORDS

    def score_rule(self, rules: Rules) -> str:
        return ("the first player out of cards scores nothing; everyone else scores against "
                "himself the cards left in his hand: each card its number, a star double, a "
                "WHOT 20")

    def play_facts(self, position: dict[str, Any]) -> dict[str, Any]:
        """The call card and the shape called, after the play."""
        return {"call_card": position.get("call_card"),
                "called_symbol": position.get("called_symbol")}

    def explain_score(self, position: dict[str, Any], seat: int, name: str) -> str | None:
        """The cards left in hand and their sum: each its number, a star double, a WHOT 20.

        >>> Whot().explain_score({"hands": [["triangle10", "cross7", "square10", "star5"]]},
        ...                      0, "Kathrine")  # doctest: +NORMALIZE_WHITESPACE
        'Kathrine is left with triangle 10, cross 7, square 10 and star 5 (a star counts
         double): 10 + 7 + 10 + 10 = 37 points against'
        """
        hands = position.get("hands")
        held = hands[seat] if hands else None
        if held is None:
            return None
        if not held:
            return f"{name} has no card left: 0 points against"
        cards = [DECK.parse(code) for code in held]
        notes = [note for kind, note in ((STAR, "a star counts double"),
                                         (WHOT_SYMBOL, f"a WHOT counts {WHOT_NUMBER}"))
                 if any(SYM[c] == kind for c in cards)]
        said = names_and([NAMES[c] for c in cards]) + (f" ({'; '.join(notes)})" if notes else "")
        values = [VALUE[c] for c in cards]
        sums = " + ".join(str(v) for v in values) + " = " if len(values) > 1 else ""
        return f"{name} is left with {said}: {sums}{sum(values)} points against"

    # -- the advisor ---------------------------------------------------------------------------
    def sampler(self, view: SeatView) -> Sampler:
        from .sampler import WhotSampler

        return WhotSampler(view)

    def figures(self, end: State, seat: int, start: State) -> dict[str, float]:
        from .sampler import figures

        return figures(end, seat, start)


GAME = register(Whot())

__all__ = ["GAME", "SHAPE_MARK", "WhotRules", "WhotState", "DECK", "CODES", "hand_value"]
