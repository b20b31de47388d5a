"""The rules options of Whot: players, packs, rubber length, the Nigerian rule set."""

from __future__ import annotations

from typing import Any

from ...errors import OptionError
from ...game import Rules
from ...options import Option
from .pack import (
    DECK,
    DEFAULT_MAX_TURNS,
    IS_WHOT,
    MAX_PACKS,
    MAX_PLAYERS_ONE_PACK,
    NCARDS,
    NIGERIAN_SWITCHES,
    NUM,
    PACK_SIZE,
    PICK_THREE,
    PICK_TWO,
    RUBBER_GAMES,
    SPECIAL_NUMBER,
    SPECIAL_OPTION,
)


class WhotRules(Rules):
    """The rules and options of Whot.

    >>> WhotRules(players=6).options["packs"]
    2
    >>> WhotRules(rules="nigerian").options["pick_two"]
    True
    """

    name = "whot"
    title = "Whot"
    deck = DECK
    low_score_wins = True
    SIMULATION_OPTIONS = {"max_turns": DEFAULT_MAX_TURNS}
    OPTIONS = (
        Option("players", 4, "number of players", kind=int, low=2, high=10),
        Option("packs", None, "packs of 54 cards (default: 1, and 2 with more than five "
               "players; one pack seats at most 8)", kind=int, low=1, high=MAX_PACKS),
        Option("rubber", "short", "games in the rubber: single (1), short (5) or long (10)",
               choices=tuple(RUBBER_GAMES)),
        Option("rules", "classic", "classic (the Whot rule text) or nigerian (special cards "
               "1, 2, 5, 8, 14 and the last-card call, each switchable)",
               choices=("classic", "nigerian")),
        Option("hold_on", None, "nigerian: a 1 (Hold On) lets the same player play again",
               kind=bool),
        Option("pick_two", None, "nigerian: a 2 (Pick Two) makes the next player draw two",
               kind=bool),
        Option("pick_three", None, "nigerian: a 5 (Pick Three) makes the next player draw "
               "three", kind=bool),
        Option("suspension", None, "nigerian: an 8 (Suspension) makes the next player miss "
               "a turn", kind=bool),
        Option("general_market", None, "nigerian: a 14 (General Market) makes every other "
               "player draw one; then the same player plays again", kind=bool),
        Option("pick_two_stacking", None, "nigerian: a Pick Two may be answered with a 2, "
               "which passes the pick on, two cards larger", kind=bool),
        Option("pick_three_stacking", None, "nigerian: a Pick Three may be answered with a "
               "5, which passes the pick on, three cards larger", kind=bool),
        Option("last_card", None, "nigerian: a play that leaves one card must announce "
               "'last card'", kind=bool),
        Option("last_card_penalty", None, "nigerian: cards drawn for not announcing "
               "'last card' (default 2 when last_card is on)", kind=int, low=0, high=10),
        Option("max_turns", 0, "safety cap for simulations and bots: a game that reaches "
               f"this many actions ends as capped, scored like a block (0, the default: no "
               f"cap, as in the rules; simulations use {DEFAULT_MAX_TURNS})",
               kind=int, low=0),
        Option("mode", "strict", "strict refuses a misplay; table records it (the card is "
               "taken back and the player draws instead)", choices=("strict", "table")),
    )

    def hands_in_game(self) -> int:
        return self.games  # the games of the rubber

    def _finish(self, values: dict[str, Any], given: set[str]) -> dict[str, Any]:
        players = values["players"]
        if values["packs"] is None:
            values["packs"] = 2 if players > 5 else 1
        if values["packs"] == 1 and players > MAX_PLAYERS_ONE_PACK:
            raise OptionError(f"whot option packs=1 seats at most {MAX_PLAYERS_ONE_PACK} "
                              f"players: {players} players need two packs")
        nigerian = values["rules"] == "nigerian"
        for name in NIGERIAN_SWITCHES:
            if values[name] is None:
                values[name] = nigerian
            elif values[name] and not nigerian:
                raise OptionError(f"whot option {name} belongs to the Nigerian rule set: "
                                  "add rules=nigerian")
        for stack, card in (("pick_two_stacking", "pick_two"),
                            ("pick_three_stacking", "pick_three")):
            if values[stack] is None:
                values[stack] = values[card]
            elif values[stack] and not values[card]:
                raise OptionError(f"whot option {stack} needs {card} on")
        if values["last_card_penalty"] is None:
            values["last_card_penalty"] = 2 if values["last_card"] else 0
        elif values["last_card_penalty"] and not values["last_card"]:
            raise OptionError("whot option last_card_penalty needs last_card on")
        return values

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        opts = self.options
        self.packs: int = opts["packs"]
        self.ncards: int = PACK_SIZE * self.packs
        self.games: int = RUBBER_GAMES[opts["rubber"]]
        self.nigerian: bool = opts["rules"] == "nigerian"
        effects = [0] * NCARDS
        for effect, number in SPECIAL_NUMBER.items():
            if opts[SPECIAL_OPTION[effect]]:
                for c in range(NCARDS):
                    if NUM[c] == number and not IS_WHOT[c]:
                        effects[c] = effect
        self.effects: tuple[int, ...] = tuple(effects)
        self.stacking: dict[int, bool] = {PICK_TWO: opts["pick_two_stacking"],
                                          PICK_THREE: opts["pick_three_stacking"]}

    def card_codes(self) -> list[str]:
        """The first pack's codes, or both packs' (the deck holds two).

        >>> len(WhotRules(players=4).card_codes()), len(WhotRules(players=8).card_codes())
        (54, 108)
        """
        return list(self.deck.codes[:self.ncards])

    @classmethod
    def conformance_option_sets(cls) -> list[dict[str, Any]]:
        """Both rule sets, 2 to 10 players, one-game rubbers mostly. Random bots take hundreds
        of actions per game, so the cap is lowered here to keep 2,000 games quick; the cap,
        the block and the turn-over still occur (and are tested on their own)."""
        sets: list[dict[str, Any]] = []
        for players in range(2, 11):
            sets.append({"players": players, "rubber": "single", "max_turns": 150})
            sets.append({"players": players, "rubber": "single", "rules": "nigerian",
                         "max_turns": 150})
        sets.append({"players": 4, "rubber": "short", "max_turns": 60})
        sets.append({"players": 3, "rubber": "single", "rules": "nigerian",
                     "pick_two_stacking": False, "pick_three_stacking": False,
                     "mode": "table", "last_card_penalty": 1, "max_turns": 250})
        sets.append({"players": 5, "rubber": "single", "rules": "nigerian", "hold_on": False,
                     "general_market": False, "last_card": False, "packs": 2,
                     "max_turns": 250})
        sets.append({"players": 8, "rubber": "single", "packs": 1, "mode": "table",
                     "max_turns": 250})
        sets.append({"players": 2, "rubber": "short", "rules": "nigerian", "max_turns": 80})
        return sets  # an odd count, so the heuristic seeds (every 4th) meet both rule sets
