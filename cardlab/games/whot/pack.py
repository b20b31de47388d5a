"""The Whot pack: card codes (two packs kept apart), faces, values, match tables and
the numbering of actions."""

from __future__ import annotations

from ...cards import Deck
from ...errors import CardCodeError

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
# Each card as people name it: "circle 7" (a copy of a card of the second pack too), "WHOT".
NAMES = tuple("WHOT" if IS_WHOT[c] else f"{SYMBOLS[SYM[c]]} {NUM[c]}" for c in range(NCARDS))
# The symbols in the plural, as a WHOT's call is said ("the WHOT called for crosses").
SYMBOL_PLURALS = ("circles", "triangles", "crosses", "squares", "stars")

_ALIASES = {"whot": "whot20", "w20": "whot20"}
for _c, _code in enumerate(CODES):
    if not IS_WHOT[_c]:
        _face, _, _copy = _code.partition("/")
        _sym = SYMBOLS[SYM[_c]]
        _ALIASES[f"{_sym}s{NUM[_c]}" + (f"/{_copy}" if _copy else "")] = _code
DECK = Deck(CODES, aliases=_ALIASES, description="Whot card")

# Which plain (non-WHOT) cards may be played on a call: a table per call card, per called
# symbol, and for the lead (anything). WHOTs are held apart and are always playable.
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


def symbol_name(sym: int) -> str:
    return SYMBOLS[sym] if sym < len(SYMBOLS) else "whot"


def parse_symbol(text: str) -> int:
    word = text.strip().lower()
    for s, name in enumerate(SYMBOLS):
        if word in (name, name + "s"):
            return s
    raise CardCodeError(f"{text!r} is not a symbol; a WHOT calls circle, triangle, cross, "
                        "square or star")


def hand_value(codes: list[str]) -> int:
    """The score against a player holding ``codes``: stars double, a WHOT 20.

    >>> hand_value(["circle7", "star3", "whot20/2"])
    33
    """
    return sum(VALUE[DECK.parse(code)] for code in codes)
