"""Whot (W. H. Storey, 1935): a shedding game, with the Nigerian special cards as an option.

The pack has 54 cards: circles and triangles 1-5, 7, 8, 10-14; crosses and squares 1-3, 5, 7,
10, 11, 13, 14; stars 1-5, 7, 8; five WHOT cards. The lowest cut deals six cards each, one at a
time from his left; the rest is the face-down stock. The player left of the dealer leads any
card; from then on each player in turn plays a card of the call card's symbol or number, or a
WHOT naming the symbol that must follow, or draws the top card of the stock (always allowed,
and it ends the turn). The first to play his last card wins the game; everyone else scores
*against* himself the total of the cards he holds (stars double, a WHOT 20). A rubber is 5
(short) or 10 (long) games and the lowest total wins it. See ``docs/rules-whot.md`` for every
point where the rule text is silent.

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

from ..cards import Deck, draw, seeded_words
from ..errors import CardCodeError, IllegalActionError, OptionError
from ..game import Option, Rules, State, register

# -- the pack -----------------------------------------------------------------------------------
SYMBOLS = ("circle", "triangle", "cross", "square", "star")
WHOT_SYMBOL = len(SYMBOLS)  # the WHOT cards' own "symbol" index
WHOT_NUMBER = 20
NUMBERS: dict[str, tuple[int, ...]] = {
    "circle": (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14),
    "triangle": (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14),
    "cross": (1, 2, 3, 5, 7, 10, 11, 13, 14),
    "square": (1, 2, 3, 5, 7, 10, 11, 13, 14),
    "star": (1, 2, 3, 4, 5, 7, 8),
}
WHOTS_PER_PACK = 5
PACK_SIZE = sum(len(v) for v in NUMBERS.values()) + WHOTS_PER_PACK  # 54
MAX_PACKS = 2
HAND_SIZE = 6
MAX_PLAYERS_ONE_PACK = 8  # 48 cards dealt, 6 left for the lead and the stock

# Faces of one pack in order: (symbol index, number).
_FACES: list[tuple[int, int]] = [(s, num) for s, name in enumerate(SYMBOLS)
                                 for num in NUMBERS[name]]
_FACES += [(WHOT_SYMBOL, WHOT_NUMBER)] * WHOTS_PER_PACK


def _codes() -> list[str]:
    """Pack 1 then pack 2. A face's first copy has the bare code (``circle7``); the k-th copy
    of the same face in the game is ``circle7/k``. WHOTs: whot20 .. whot20/5 in pack 1,
    whot20/6 .. whot20/10 in pack 2."""
    codes = []
    for pack in range(MAX_PACKS):
        whot = 0
        for sym, num in _FACES:
            if sym == WHOT_SYMBOL:
                whot += 1
                copy = pack * WHOTS_PER_PACK + whot
            else:
                copy = pack + 1
            face = f"whot{num}" if sym == WHOT_SYMBOL else f"{SYMBOLS[sym]}{num}"
            codes.append(face if copy == 1 else f"{face}/{copy}")
    return codes


CODES = _codes()
NCARDS = len(CODES)  # 108: the card ints of two packs; one-pack games use 0..53
SYM = tuple(_FACES[c % PACK_SIZE][0] for c in range(NCARDS))
NUM = tuple(_FACES[c % PACK_SIZE][1] for c in range(NCARDS))
IS_WHOT = tuple(s == WHOT_SYMBOL for s in SYM)
VALUE = tuple(WHOT_NUMBER if IS_WHOT[c] else NUM[c] * (2 if SYM[c] == 4 else 1)
              for c in range(NCARDS))
FACE = tuple(code.split("/")[0] for code in CODES)

_ALIASES = {"whot": "whot20", "w20": "whot20"}
for _c, _code in enumerate(CODES):
    if not IS_WHOT[_c]:
        _face, _, _copy = _code.partition("/")
        _sym = SYMBOLS[SYM[_c]]
        _ALIASES[f"{_sym}s{NUM[_c]}" + (f"/{_copy}" if _copy else "")] = _code
DECK = Deck(CODES, aliases=_ALIASES, description="Whot card")

# Which plain (non-WHOT) cards may be played on a call: a table per call card, per called
# symbol, and for the lead (anything). WHOTs are held apart and are always playable.
_PLAIN = [c for c in range(NCARDS) if not IS_WHOT[c]]
MATCH_ALL = bytes(0 if IS_WHOT[c] else 1 for c in range(NCARDS))
MATCH_SYMBOL = tuple(bytes(1 if SYM[c] == s else 0 for c in range(NCARDS))
                     for s in range(len(SYMBOLS)))
MATCH_NUMBER = {num: bytes(1 if NUM[c] == num and not IS_WHOT[c] else 0 for c in range(NCARDS))
                for num in range(1, 15)}
MATCH_CARD = tuple(
    MATCH_ALL if IS_WHOT[t] else
    bytes(1 if not IS_WHOT[c] and (SYM[c] == SYM[t] or NUM[c] == NUM[t]) else 0
          for c in range(NCARDS))
    for t in range(NCARDS))

# -- actions ------------------------------------------------------------------------------------
# 0..107: play that plain card; CALL + 128*s + c: play WHOT c calling symbol s;
# DRAW, PASS; ANNOUNCE added to a play: "... last card" (Nigerian).
CALL = 128
DRAW = 900
PASS = 901
ANNOUNCE = 1024
WHOT_ACTIONS = tuple(tuple(CALL + 128 * s + c for s in range(len(SYMBOLS))) if IS_WHOT[c]
                     else () for c in range(NCARDS))

# Nigerian special cards: the effect of each card, by number.
HOLD_ON, PICK_TWO, PICK_THREE, SUSPENSION, GENERAL_MARKET = 1, 2, 3, 4, 5
SPECIAL_NUMBER = {HOLD_ON: 1, PICK_TWO: 2, PICK_THREE: 5, SUSPENSION: 8, GENERAL_MARKET: 14}
SPECIAL_OPTION = {HOLD_ON: "hold_on", PICK_TWO: "pick_two", PICK_THREE: "pick_three",
                  SUSPENSION: "suspension", GENERAL_MARKET: "general_market"}
PICK_COUNT = {PICK_TWO: 2, PICK_THREE: 3}
NIGERIAN_SWITCHES = ("hold_on", "pick_two", "pick_three", "suspension", "general_market",
                     "last_card")

RUBBER_GAMES = {"single": 1, "short": 5, "long": 10}
PHASE_SETUP, PHASE_DEAL, PHASE_PLAY, PHASE_OVER = "setup", "deal", "play", "over"
ENDED_WON, ENDED_BLOCKED, ENDED_CAP = "won", "blocked", "cap"
DEFAULT_MAX_TURNS = 3000


def cut_rank(card: int) -> int:
    """A card's rank in the cut for first dealer: its number; a WHOT counts high (20)."""
    return NUM[card]


@register
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
        Option("max_turns", DEFAULT_MAX_TURNS, "safety cap for simulations: a game that "
               "reaches this many actions ends as capped, scored like a block (0: no cap)",
               kind=int, low=0),
        Option("mode", "strict", "strict refuses a misplay; table records it (the card is "
               "taken back and the player draws instead)", choices=("strict", "table")),
    )

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


def symbol_name(sym: int) -> str:
    return SYMBOLS[sym] if sym < len(SYMBOLS) else "whot"


def parse_symbol(text: str) -> int:
    word = text.strip().lower()
    for s, name in enumerate(SYMBOLS):
        if word in (name, name + "s"):
            return s
    raise CardCodeError(f"{text!r} is not a symbol; a WHOT calls circle, triangle, cross, "
                        "square or star")


class WhotState(State):
    """A rubber of Whot in progress (one protocol "hand" is one game of Whot)."""

    rules: WhotRules
    names: list[str]

    def __init__(self, rules: WhotRules) -> None:  # type: ignore[override]
        super().__init__(rules)
        n = rules.players
        self.names = [f"seat {i + 1}" for i in range(n)]
        self.n = n
        self.ncards = rules.ncards
        self.effects = rules.effects
        self.cap = rules.options["max_turns"] or (1 << 62)
        self.slow = rules.nigerian  # the flat path of apply() is for classic Whot
        self.last_card: bool = rules.options["last_card"]
        self.table_mode = rules.options["mode"] == "table"
        self.phase = PHASE_SETUP
        self.cuts: list[list[int | None]] = []
        self.first_dealer = -1
        self.dealer = -1
        self.game_no = 0
        self.hands: list[list[int]] = [[] for _ in range(n)]  # plain cards, in arrival order
        self.whots: list[list[int]] = [[] for _ in range(n)]  # WHOT cards held
        self.stock: list[int] = []  # top card last
        self.pile: list[int] = []  # oldest first; the call card last
        self.match = MATCH_ALL
        self.call_symbol = -1  # the symbol to follow (the called one after a WHOT)
        self.lead = True  # the first card of a game is still to be led
        self.turn = -1
        self.pending = 0  # cards the player to act must pick (Nigerian Pick Two / Three)
        self.pending_effect = 0
        self.passes = 0  # consecutive passes (nothing to play, nothing to draw)
        self.turns = 0  # actions in this game, for the safety cap
        self.turnovers = 0
        self.ended = ""
        self.winner = -1
        self.sheet: list[list[int]] = []
        self.row = [0] * n
        self.kitty = [0] * n
        self.misplays: list[tuple[int, int, int]] = []  # (game, seat, card) in table mode
        self.last_card_calls: list[tuple[int, int]] = []  # (game, seat) announced
        self.last_card_missed: list[tuple[int, int]] = []  # (game, seat) forgot: penalty
        self.last_drew = [-1] * n  # the symbol each seat last drew on (public), -1: played since
        self.dealt: tuple[int, ...] = ()

    # -- chance steps ------------------------------------------------------------------------
    def chance_kind(self) -> str | None:
        phase = self.phase
        if phase == PHASE_SETUP:
            return "setup"
        if phase == PHASE_DEAL:
            return "deal"
        return None

    def seeded_chance(self, seed: int | str) -> dict[str, Any]:
        if self.phase == PHASE_SETUP:
            return {"cuts": [[None if c is None else CODES[c] for c in row]
                             for row in self._seeded_cuts(seed)]}
        if self.phase != PHASE_DEAL:
            raise self.refuse("no deal is due: the game is still being played")
        hands, stock = self._seeded_deal(seed)
        return {"hands": [[CODES[c] for c in h] for h in hands],
                "stock": [CODES[c] for c in stock]}

    def _seeded_cuts(self, seed: int | str) -> list[list[int | None]]:
        """Everyone cuts; the tied lowest cut again until one is lowest."""
        n = self.n
        cutting = list(range(n))
        rounds: list[list[int | None]] = []
        while True:
            words = seeded_words(seed, "cut", len(rounds), count=len(cutting))
            cards = draw(words, self.ncards, len(cutting))
            row: list[int | None] = [None] * n
            for seat, card in zip(cutting, cards, strict=True):
                row[seat] = card
            rounds.append(row)
            low = min(cut_rank(c) for c in cards)
            cutting = [s for s in cutting if cut_rank(row[s]) == low]  # type: ignore[arg-type]
            if len(cutting) == 1:
                return rounds

    def _upcoming_dealer(self) -> int:
        return (self.first_dealer + self.game_no) % self.n

    def _seeded_deal(self, seed: int | str) -> tuple[list[list[int]], list[int]]:
        """The hands (seat order, cards in the order received) and the stock (top first)."""
        words = seeded_words(seed, "deal", self.game_no + 1, count=self.ncards)
        order = draw(words, self.ncards, self.ncards)
        return self._split_pack(order, self._upcoming_dealer())

    def _split_pack(self, order: list[int], dealer: int) -> tuple[list[list[int]], list[int]]:
        n = self.n
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n * HAND_SIZE):
            hands[(dealer + 1 + i) % n].append(order[i])
        return hands, order[n * HAND_SIZE:]

    def deal_seeded(self, seed: int | str) -> None:
        """Same as ``apply_chance(seeded_chance(seed))`` without the round trip via codes."""
        if self.phase != PHASE_DEAL:
            raise self.refuse("no deal is due" if self.phase != PHASE_SETUP
                              else "the cut for first dealer comes first")
        self._begin_game(*self._seeded_deal(seed))

    def apply_chance(self, record: Any) -> None:
        if self.phase == PHASE_SETUP:
            self._apply_cuts(record)
            return
        if self.phase != PHASE_DEAL:
            raise self.refuse("no deal is due: the game is still being played"
                              if self.phase == PHASE_PLAY else "the rubber is over")
        self._begin_game(*self._check_deal(record))

    def _apply_cuts(self, record: Any) -> None:
        n = self.n
        if not isinstance(record, dict) or set(record) != {"cuts"} or \
                not isinstance(record["cuts"], list) or not record["cuts"]:
            raise self.refuse('the Whot setup is the cut for first dealer: {"cuts": [[one '
                              'card per seat], ...then the tied lowest cut again]}')
        cutting = list(range(n))
        rounds: list[list[int | None]] = []
        for r, row in enumerate(record["cuts"]):
            if not cutting or len(cutting) == 1:
                raise self.refuse(f"cut round {r + 1} is one too many: the lowest cut was "
                                  "already alone")
            if not isinstance(row, list) or len(row) != n:
                raise self.refuse(f"cut round {r + 1} needs one entry per seat ({n}), null "
                                  "for a seat that does not cut")
            parsed: list[int | None] = [None] * n
            for seat, code in enumerate(row):
                if (code is None) != (seat not in cutting):
                    who = self.names[seat]
                    raise self.refuse(
                        f"cut round {r + 1}: {who} " + ("must cut: every player cuts first, "
                                                        "then the tied lowest again"
                                                        if code is None else
                                                        "does not cut again: only the tied "
                                                        "lowest do"))
                if code is not None:
                    card = self._parse_card(code)
                    if card in parsed:
                        raise self.refuse(f"cut round {r + 1} names {CODES[card]} twice")
                    parsed[seat] = card
            rounds.append(parsed)
            low = min(cut_rank(parsed[s]) for s in cutting)  # type: ignore[arg-type]
            cutting = [s for s in cutting if cut_rank(parsed[s]) == low]  # type: ignore
        if len(cutting) != 1:
            raise self.refuse("the cut ends in a tie for lowest: the tied players cut again")
        self.cuts = rounds
        self.first_dealer = cutting[0]
        self.phase = PHASE_DEAL

    def _parse_card(self, code: Any) -> int:
        if not isinstance(code, str):
            raise self.refuse(f"{code!r} is not a card code")
        card = DECK.parse(code)
        if card >= self.ncards:
            raise CardCodeError(f"{code!r} is a card of the second pack, which this game "
                                "does not use")
        return card

    def _check_deal(self, record: Any) -> tuple[list[list[int]], list[int]]:
        n = self.n
        if not isinstance(record, dict) or set(record) != {"hands", "stock"}:
            raise self.refuse('a Whot deal is {"hands": [six cards per seat, in the order '
                              'dealt], "stock": [the rest, top card first]}')
        hands, stock = record["hands"], record["stock"]
        if not isinstance(hands, list) or len(hands) != n:
            raise self.refuse(f"the deal must give a hand to each of the {n} players")
        parsed: list[list[int]] = []
        for seat, codes in enumerate(hands):
            if not isinstance(codes, list) or len(codes) != HAND_SIZE:
                got = len(codes) if isinstance(codes, list) else 0
                raise self.refuse(f"each player is dealt six cards, but {self.names[seat]} "
                                  f"was dealt {got}")
            parsed.append([self._parse_card(code) for code in codes])
        if not isinstance(stock, list):
            raise self.refuse("the stock is a list of card codes, top card first")
        rest = [self._parse_card(code) for code in stock]
        seen = [c for h in parsed for c in h] + rest
        if len(set(seen)) != len(seen):
            raise self.refuse("the deal names a card twice; keep the copies of two packs apart "
                              "(circle7 and circle7/2)")
        if len(seen) != self.ncards:
            missing = sorted(set(range(self.ncards)) - set(seen))
            raise self.refuse(f"the deal must hold the whole pack ({self.ncards} cards); "
                              f"missing {', '.join(CODES[c] for c in missing[:5])}")
        return parsed, rest

    def _begin_game(self, hands: list[list[int]], stock: list[int]) -> None:
        self.game_no += 1
        self.dealer = (self.first_dealer + self.game_no - 1) % self.n
        self.hands = [[c for c in h if not IS_WHOT[c]] for h in hands]
        self.whots = [[c for c in h if IS_WHOT[c]] for h in hands]
        self.stock = stock[::-1]
        self.pile = []
        self.match = MATCH_ALL
        self.call_symbol = -1
        self.lead = True
        self.turn = (self.dealer + 1) % self.n
        self.pending = 0
        self.pending_effect = 0
        self.passes = 0
        self.turns = 0
        self.turnovers = 0
        self.ended = ""
        self.winner = -1
        self.row = [0] * self.n
        self.last_drew = [-1] * self.n
        self.dealt = tuple(range(self.ncards))
        self.phase = PHASE_PLAY

    # -- decisions ---------------------------------------------------------------------------
    def to_act(self) -> int:
        return self.turn if self.phase is PHASE_PLAY else -1

    def legal_actions(self) -> list[int]:
        if self.phase is not PHASE_PLAY:
            return []
        seat = self.turn
        if self.pending:
            return self._legal_pending(seat)
        match = self.match
        legal = [c for c in self.hands[seat] if match[c]]
        whots = self.whots[seat]
        if whots:
            for w in whots:
                legal.extend(WHOT_ACTIONS[w])
        if self.lead:
            return legal
        if self.stock or len(self.pile) > 1:
            legal.append(DRAW)
        elif not legal:
            legal.append(PASS)
        if self.last_card and len(self.hands[seat]) + len(whots) == 2:
            legal.extend([a + ANNOUNCE for a in legal if a < DRAW])
        return legal

    def _legal_pending(self, seat: int) -> list[int]:
        legal = []
        if self.rules.stacking[self.pending_effect]:
            number = SPECIAL_NUMBER[self.pending_effect]
            legal = [c for c in self.hands[seat] if NUM[c] == number]
        legal.append(DRAW if self.stock or len(self.pile) > 1 else PASS)
        if self.last_card and len(self.hands[seat]) + len(self.whots[seat]) == 2:
            legal.extend([a + ANNOUNCE for a in legal if a < DRAW])
        return legal

    def apply(self, action: int) -> None:
        """Apply ``action`` for the seat to act; raises :class:`IllegalActionError`.

        Classic Whot takes the flat path below (the hot path of every playout: a plain play,
        a WHOT, a draw); the Nigerian rules, the last-card call and passes take ``_apply_slow``.
        """
        if self.phase is not PHASE_PLAY:
            raise self.refuse("the game is over; the next game must be dealt"
                              if self.phase == PHASE_DEAL else
                              "the cut for first dealer comes first"
                              if self.phase == PHASE_SETUP else "the rubber is over",
                              self._text(action))
        seat = self.turn
        if self.slow or action > DRAW or action < 0:
            self._apply_slow(seat, action)
            return
        if action == DRAW:
            stock = self.stock
            if self.lead or not stock:
                if self.lead or len(self.pile) < 2:
                    self._apply_slow(seat, action)  # refuses, saying why
                    return
                stock = self._turn_over()
            card = stock.pop()
            if IS_WHOT[card]:
                self.whots[seat].append(card)
            else:
                self.hands[seat].append(card)
            self.passes = 0
            self.last_drew[seat] = self.call_symbol
            self.turn = seat + 1 if seat + 1 < self.n else 0
        elif action < CALL:
            hand = self.hands[seat]
            if action not in hand or not self.match[action]:
                self._misplay(seat, action)
                return
            hand.remove(action)
            self.pile.append(action)
            self.match = MATCH_CARD[action]
            self.call_symbol = SYM[action]
            self.lead = False
            self.passes = 0
            self.last_drew[seat] = -1
            if not hand and not self.whots[seat]:
                self._end_game(ENDED_WON, seat)
                return
            self.turn = seat + 1 if seat + 1 < self.n else 0
        else:
            if not self._play_whot(seat, action):
                return
        self.turns += 1
        if self.turns >= self.cap:
            self._end_game(ENDED_CAP, -1)

    def _play_whot(self, seat: int, action: int) -> bool:
        """Play a WHOT with its call; False when that ended the game."""
        card = action & 127
        sym = (action - CALL) >> 7
        whots = self.whots[seat]
        if card >= self.ncards or not IS_WHOT[card] or sym >= len(SYMBOLS) or card not in whots:
            raise self.refuse(self._play_problem(seat, action) or "no such action",
                              self._text(action))
        whots.remove(card)
        self.pile.append(card)
        self.match = MATCH_SYMBOL[sym]
        self.call_symbol = sym
        self.lead = False
        self.passes = 0
        self.last_drew[seat] = -1
        if not whots and not self.hands[seat]:
            self._end_game(ENDED_WON, seat)
            return False
        self.turn = seat + 1 if seat + 1 < self.n else 0
        return True

    def _apply_slow(self, seat: int, action: int) -> None:
        """Draws, passes, the Nigerian rules and the last-card call: not flat, but complete."""
        announce = False
        if action >= ANNOUNCE:
            announce = True
            action -= ANNOUNCE
            if not self.last_card:
                raise self.refuse("'last card' is only announced under the Nigerian rule "
                                  "last_card", self._text(action + ANNOUNCE))
            if action >= DRAW:
                raise self.refuse("'last card' is announced with a play",
                                  self._text(action + ANNOUNCE))
            held = len(self.hands[seat]) + len(self.whots[seat])
            if held != 2 and self._play_problem(seat, action) is None:
                raise self.refuse(f"'last card' is announced by a play that leaves one card; "
                                  f"{self.names[seat]} would have {held - 1}",
                                  self._text(action + ANNOUNCE))
        if action == DRAW or action == PASS:
            legal = self.legal_actions()
            if action not in legal:
                raise self.refuse(self._draw_problem() if action == DRAW else
                                  f"{self.names[seat]} can " +
                                  ("draw" if DRAW in legal else "play") +
                                  ", so cannot pass; a pass is only for a player who can "
                                  "neither play nor draw", self._text(action))
            self._draw_turn(seat)
        elif 0 <= action < DRAW and self._play_problem(seat, action) is not None:
            self._misplay(seat, action)
            return
        elif 0 <= action < CALL:
            hand = self.hands[seat]
            hand.remove(action)
            self.pile.append(action)
            self.match = MATCH_CARD[action]
            self.call_symbol = SYM[action]
            self.lead = False
            self.passes = 0
            self.last_drew[seat] = -1
            if not hand and not self.whots[seat]:
                self._end_game(ENDED_WON, seat)
                return
            self._after_play(seat, announce)
            effect = self.effects[action]
            if effect:
                self._special(seat, effect)
            else:
                self.turn = seat + 1 if seat + 1 < self.n else 0
        elif CALL <= action < DRAW:
            if not self._play_whot(seat, action):
                return
            self._after_play(seat, announce)
        else:
            raise self.refuse(f"{action} is not a Whot action", self._text(action))
        self.turns += 1
        if self.turns >= self.cap and self.phase is PHASE_PLAY:
            self._end_game(ENDED_CAP, -1)

    def _after_play(self, seat: int, announced: bool) -> None:
        """The last-card call (Nigerian): a play that leaves one card must announce it."""
        if not self.last_card:
            return
        if len(self.hands[seat]) + len(self.whots[seat]) != 1:
            return
        if announced:
            self.last_card_calls.append((self.game_no, seat))
            return
        self.last_card_missed.append((self.game_no, seat))
        for _ in range(self.rules.options["last_card_penalty"]):
            if not self._take(seat):
                break

    def _special(self, seat: int, effect: int) -> None:
        """A Nigerian special card's effect, once it is played (and not as the last card)."""
        n = self.n
        nxt = seat + 1 if seat + 1 < n else 0
        if effect == HOLD_ON:
            self.turn = seat
        elif effect == SUSPENSION:
            self.turn = (seat + 2) % n
        elif effect == GENERAL_MARKET:
            for k in range(1, n):
                if not self._take((seat + k) % n):
                    break
            self.turn = seat
        else:  # a pick: stacked on a pick already answered, it grows
            self.pending += PICK_COUNT[effect]
            self.pending_effect = effect
            self.turn = nxt

    def _draw_turn(self, seat: int) -> None:
        """Draw (one card, or every pending card), or pass when there is nothing to draw."""
        count = self.pending or 1
        drew = False
        for _ in range(count):
            if not self._take(seat):
                break
            drew = True
        self.pending = 0
        self.pending_effect = 0
        if drew:
            self.passes = 0
            self.last_drew[seat] = self.call_symbol
        else:
            self.passes += 1
        self.turn = seat + 1 if seat + 1 < self.n else 0
        if self.passes >= self.n:
            self._end_game(ENDED_BLOCKED, -1)

    def _take(self, seat: int) -> bool:
        """``seat`` takes the top card of the stock (turning the pile over when it is empty)."""
        stock = self.stock
        if not stock:
            if len(self.pile) < 2:
                return False
            stock = self._turn_over()
        card = stock.pop()
        if IS_WHOT[card]:
            self.whots[seat].append(card)
        else:
            self.hands[seat].append(card)
        return True

    def _turn_over(self) -> list[int]:
        """The stock is exhausted: the call card stays face up, and the rest of the pile is
        turned face down without shuffling. Turning a face-up pile over puts its bottom card,
        the oldest played, on top: the new stock is drawn oldest card first."""
        pile = self.pile
        self.stock = pile[-2::-1]  # top (drawn first) last: the oldest card
        self.pile = [pile[-1]]
        self.turnovers += 1
        return self.stock

    def _misplay(self, seat: int, action: int) -> None:
        """A held card that does not follow the call: refused, or (table mode) taken back, and
        the player draws, as the rules say he must when he does not play a card."""
        problem = self._play_problem(seat, action)
        card = action if action < CALL else action & 127
        held = 0 <= action < DRAW and card < self.ncards and (
            card in self.whots[seat] if action >= CALL else card in self.hands[seat])
        if self.table_mode and problem is not None and held and \
                not problem.startswith("a WHOT must"):
            self.misplays.append((self.game_no, seat, card))
            self._draw_turn(seat)
            self.turns += 1
            if self.turns >= self.cap and self.phase is PHASE_PLAY:
                self._end_game(ENDED_CAP, -1)
            return
        raise self.refuse(problem or f"{self._text(action)} is not a Whot action here",
                          self._text(action))

    def _draw_problem(self) -> str:
        if self.lead:
            return (f"{self.names[self.turn]} leads: the game begins with a card played from "
                    "the hand")
        return ("there is nothing to draw: the stock is empty and the pile holds only the call "
                "card; a player who cannot play passes")

    def _play_problem(self, seat: int, action: int) -> str | None:
        """Why a play may not be made now, in the words of the rules; None for a legal play
        (and for an action that is not a play at all)."""
        name = self.names[seat]
        if action < 0 or action >= DRAW:
            return None
        card = action if action < CALL else action & 127
        if card >= self.ncards or (action >= CALL and (
                not IS_WHOT[card] or (action - CALL) >> 7 >= len(SYMBOLS))):
            return f"{action} is not a card play of this game"
        if action < CALL and IS_WHOT[card]:
            return f"a WHOT must call a symbol: 'play {CODES[card]} call circle'"
        if card not in self.hands[seat] and card not in self.whots[seat]:
            return f"{name} does not hold {CODES[card]}"
        if self.pending:
            what = "a 2" if self.pending_effect == PICK_TWO else "a 5"
            answer = (f" or answer with {what}" if self.rules.stacking[self.pending_effect]
                      else "")
            if action < CALL and self.rules.stacking[self.pending_effect] and \
                    NUM[card] == SPECIAL_NUMBER[self.pending_effect]:
                return None
            return (f"{name} must pick {self.pending} (draw){answer}: "
                    f"{CODES[card]} cannot be played")
        if action >= CALL or self.lead or self.match[card]:
            return None
        top = self.pile[-1]
        if IS_WHOT[top]:
            return (f"the WHOT called for {SYMBOLS[self.call_symbol]}s: {CODES[card]} is "
                    f"not a {SYMBOLS[self.call_symbol]}; play a {SYMBOLS[self.call_symbol]} "
                    "or a WHOT, or draw")
        return (f"{CODES[card]} follows neither the call card's symbol "
                f"({SYMBOLS[SYM[top]]}) nor its number ({NUM[top]}): play a "
                f"{SYMBOLS[SYM[top]]}, a {NUM[top]}, or a WHOT, or draw")

    def _text(self, action: int) -> str:
        try:
            return self.action_text(action)
        except CardCodeError:
            return str(action)

    # -- the end of a game -------------------------------------------------------------------
    def _end_game(self, ended: str, winner: int) -> None:
        row = [sum(VALUE[c] for c in h) + WHOT_NUMBER * len(w)
               for h, w in zip(self.hands, self.whots, strict=True)]
        self.row = row
        self.sheet.append(row[:])
        top = max(row)
        if top > 0:  # the highest score puts a counter in the kitty; tied highest each do
            for s in range(self.n):
                if row[s] == top:
                    self.kitty[s] += 1
        self.ended = ended
        self.winner = winner
        self.pending = 0
        self.turn = -1
        self.phase = PHASE_OVER if self.game_no >= self.rules.games else PHASE_DEAL

    # -- readable actions --------------------------------------------------------------------
    def action_text(self, action: int) -> str:
        suffix = ""
        if action >= ANNOUNCE:
            action -= ANNOUNCE
            suffix = " last card"
        if 0 <= action < NCARDS:
            return f"play {CODES[action]}{suffix}"
        if CALL <= action < DRAW:
            card, sym = action & 127, (action - CALL) >> 7
            if card < NCARDS and IS_WHOT[card] and sym < len(SYMBOLS):
                return f"play {CODES[card]} call {SYMBOLS[sym]}{suffix}"
        if not suffix and action == DRAW:
            return "draw"
        if not suffix and action == PASS:
            return "pass"
        raise CardCodeError(f"{action} is not a Whot action")

    def parse_action(self, text: str) -> int:
        """``play circle7``, ``play whot20 call star``, ``... last card``, ``draw``, ``pass``.

        Copies of a face are interchangeable in play: naming ``circle7`` (or ``whot20``) plays
        the copy the player holds, so people can type what they see; the log keeps the copy.
        """
        words = text.strip().lower().split()
        announce = 0
        if words[-2:] == ["last", "card"]:
            words = words[:-2]
            announce = ANNOUNCE
        if words == ["draw"] and not announce:
            return DRAW
        if words == ["pass"] and not announce:
            return PASS
        if len(words) >= 2 and words[0] == "play":
            card = self._parse_card(words[1])
            card = self._held_copy(card)
            if IS_WHOT[card]:
                if len(words) != 4 or words[2] != "call":
                    raise CardCodeError(f"{text!r}: a WHOT names the symbol that must follow, "
                                        f"as in 'play {CODES[card]} call circle'")
                return CALL + 128 * parse_symbol(words[3]) + card + announce
            if len(words) == 2:
                return card + announce
        raise CardCodeError(f"{text!r} is not a Whot action; actions look like 'play circle7', "
                            "'play whot20 call star', 'play star3 last card', 'draw' or 'pass'")

    def _held_copy(self, card: int) -> int:
        seat = self.turn
        if seat < 0:
            return card
        held = self.whots[seat] if IS_WHOT[card] else self.hands[seat]
        if card in held:
            return card
        same = sorted(c for c in held if FACE[c] == FACE[card])
        return same[0] if same else card

    # -- progress ----------------------------------------------------------------------------
    def is_game_over(self) -> bool:
        return self.phase == PHASE_OVER

    def hand_number(self) -> int:
        return self.game_no

    def hand_over(self) -> bool:
        return self.ended != ""

    def hand_scores(self) -> list[int]:
        """The current game's penalty points: zeros while it is played, final once it ends."""
        return self.row[:]

    def totals(self) -> list[int]:
        n = self.n
        return [sum(row[s] for row in self.sheet) for s in range(n)]

    def rubber_winners(self) -> list[int]:
        """The seats with the lowest total once the rubber is over (they share the kitty)."""
        return self.rules.winners(self.totals()) if self.phase == PHASE_OVER else []

    def held(self, seat: int) -> list[int]:
        """The cards ``seat`` holds, WHOTs last, each group in card order."""
        return sorted(self.hands[seat]) + sorted(self.whots[seat])

    def clone(self) -> WhotState:
        other = WhotState.__new__(WhotState)
        other.__dict__.update(self.__dict__)
        other.cuts = [row[:] for row in self.cuts]
        other.hands = [h[:] for h in self.hands]
        other.whots = [w[:] for w in self.whots]
        other.stock = self.stock[:]
        other.pile = self.pile[:]
        other.sheet = [row[:] for row in self.sheet]
        other.row = self.row[:]
        other.kitty = self.kitty[:]
        other.misplays = self.misplays[:]
        other.last_card_calls = self.last_card_calls[:]
        other.last_card_missed = self.last_card_missed[:]
        other.last_drew = self.last_drew[:]
        other.names = self.names[:]
        return other

    def dealt_cards(self) -> list[int]:
        return list(self.dealt)

    def accounted_cards(self) -> list[int]:
        if not self.dealt:
            return []
        cards = [c for h in self.hands for c in h]
        for w in self.whots:
            cards.extend(w)
        cards.extend(self.stock)
        cards.extend(self.pile)
        return cards

    def snapshot(self, seat: int | None = None) -> dict[str, Any]:
        """The position; with ``seat``, the other hands are hidden (``None``)."""
        to_act = self.to_act()
        top = self.pile[-1] if self.pile else -1
        pending = {"cards": self.pending,
                   "card": "pick-two" if self.pending_effect == PICK_TWO else "pick-three"} \
            if self.pending else None
        return {
            "game": self.rules.name,
            "phase": self.phase,
            "hand": self.game_no,
            "games": self.rules.games,
            "dealer": None if self.dealer < 0 else self.dealer,
            "first_dealer": None if self.first_dealer < 0 else self.first_dealer,
            "leader": None if self.dealer < 0 else (self.dealer + 1) % self.n,
            "to_act": None if to_act < 0 else to_act,
            "legal": self.legal_texts() if to_act >= 0 and (seat is None or seat == to_act)
            else [],
            "hands": [[CODES[c] for c in self.held(s)] if seat is None or seat == s else None
                      for s in range(self.n)],
            "hand_counts": [len(h) + len(w) for h, w in zip(self.hands, self.whots,
                                                             strict=True)],
            "call_card": CODES[top] if top >= 0 else None,
            "called_symbol": SYMBOLS[self.call_symbol] if top >= 0 and IS_WHOT[top] else None,
            "follow": None if top < 0 else {"symbol": SYMBOLS[self.call_symbol],
                                            "number": None if IS_WHOT[top] else NUM[top]},
            "stock_size": len(self.stock),
            "pile_size": len(self.pile),
            "turnovers": self.turnovers,
            "pending": pending,
            "passes": self.passes,
            "turns": self.turns,
            "last_drew": [None if s < 0 else SYMBOLS[s] for s in self.last_drew],
            "last_card_calls": [s for g, s in self.last_card_calls if g == self.game_no],
            "last_card_missed": [s for g, s in self.last_card_missed if g == self.game_no],
            "misplays": [{"hand": g, "seat": s, "card": CODES[c]} for g, s, c in self.misplays],
            "hand_over": self.hand_over(),
            "ended": self.ended or None,
            "winner": None if self.winner < 0 else self.winner,
            "hand_scores": self.row[:],
            "sheet": [row[:] for row in self.sheet],
            "totals": self.totals(),
            "kitty": self.kitty[:],
            "rubber_winners": self.rubber_winners(),
            "cuts": [[None if c is None else CODES[c] for c in row] for row in self.cuts],
        }


def hand_value(codes: list[str]) -> int:
    """The score against a player holding ``codes``: stars double, a WHOT 20.

    >>> hand_value(["circle7", "star3", "whot20/2"])
    33
    """
    return sum(VALUE[DECK.parse(code)] for code in codes)


__all__ = ["WhotRules", "WhotState", "DECK", "CODES", "IllegalActionError", "hand_value"]
WhotRules.state_class = WhotState
