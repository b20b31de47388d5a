"""What a frame says: the texts and parts of one frame, computed from one position.

Every word a person reads in the viewer is written by Python (the front-end only lays them
out): here, card names with their printed marks, action texts as people read them, the
score sheet and the chart points, and :class:`Context`, the words a frame's texts are made
with; the game's table words (:class:`cardlab.tablewords.TableWords`, from the game's
package: ``Game.table_words``) write the seat boxes, the centre, the status line, the
teaching lines, a hand's title and its result with them. Each function reads a position
(``State.snapshot`` through :mod:`cardlab.seatview`), never the rules.

>>> pretty("teds-game", "play QH"), plural(1, "card"), signed(-5)
('play Q♥', '1 card', '−5')
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..dataframes import sheet_lines
from ..game import Game, State, get_game
from ..replay import Replay
from ..words import MINUS, plural, signed  # noqa: F401  (the views' words: cardlab/words.py)

# The places around the table, clockwise from the bottom, as (row, column) of a 3 x 3 grid
# (up to 8 seats) or a 4 x 4 grid whose centre spans the middle four cells.
RING = ((3, 2), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3), (3, 3))
RING_4 = ((4, 3), (4, 2), (4, 1), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4),
          (3, 4), (4, 4))


# -- cards and texts ---------------------------------------------------------------------------

# The caches below are keyed by the registered Game itself, not its name: a game registered
# for a while (a test's own game) and then replaced never finds the faces of the one before.

def card_faces(game: str) -> dict[str, list[Any]]:
    """Every card code of ``game`` → ``[rank, mark, colour, hat, name]``, as its package
    draws them (:meth:`cardlab.game.Game.card_faces`).

    ``mark`` is the printed symbol of the card's suit, colour or shape, ``colour`` a CSS
    word, ``hat`` 1 for a card the game marks (:data:`cardlab.game.CardFace`), ``name`` the
    readable name. Each game's package shows its own faces.

    >>> import cardlab
    >>> all(set(card_faces(name)) == set(game.rules_class.deck.codes)
    ...     for name, game in cardlab.list_games().items())
    True
    """
    return _faces(get_game(game))


@lru_cache(maxsize=8)
def _faces(game: Game) -> dict[str, list[Any]]:
    return game.card_faces()


def pretty(game: str, text: str) -> str:
    """An action text as people read it: card codes by name, bid words with spaces.

    >>> pretty("whot", "play whot20/3 call circle"), pretty("bobs-hat", "bid most-red,fewest")
    ('play WHOT call ● circle', 'bid most red, fewest')
    >>> pretty("bobs-hat", "hat -10")
    'hat −10'
    """
    return _pretty(get_game(game), text)


@lru_cache(maxsize=8192)
def _pretty(game: Game, text: str) -> str:
    faces = _faces(game)
    shown = game.marks
    words = []
    for word in text.split(" "):
        if word in faces:
            words.append(faces[word][4])
        elif word in shown:
            words.append(f"{shown[word]} {word}")
        elif "," in word or "-" in word:
            words.append(", ".join(w.replace("-", " ") if w[:1].isalpha() else
                                   w.replace("-", MINUS) for w in word.split(",")))
        else:
            words.append(word)
    return " ".join(words)


# -- one frame ---------------------------------------------------------------------------------

class Context:
    """What frames of one replay share: the game's words and the seats (the
    :class:`cardlab.tablewords.Say` its table words are given), and those table words.

    >>> import cardlab
    >>> ctx = Context(cardlab.example("norwegian-review"))
    >>> ctx.name(3), ctx.card("blue14"), ctx.action("bid most-red")
    ('Brad', 'blue 14', 'bid most red')
    """

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.game = replay.game
        self.seats = list(replay.seats)
        rules = replay.rules
        self.rules = rules
        self.low_wins = bool(rules.low_score_wins)
        kind = rules.game.game_type
        self.kind = kind
        self.word = kind.hand_word  # what one entry of replay.hands is called
        self.whole = kind.whole_word
        self.marks = rules.game.marks
        self.table_words = rules.game.table_words
        self.faces = card_faces(self.game)
        self.sheets: dict[Any, dict[str, Any]] = {}  # sheet rows and chart points, made once

    def mark(self, word: str) -> str:
        """The printed mark of a suit, colour or shape of the game ("" when it has none)."""
        return self.marks.get(word, "")

    def name(self, seat: int | None) -> str:
        return "nobody" if seat is None or seat < 0 else self.seats[seat]

    def card(self, code: str) -> str:
        """A card as people name it."""
        return self.faces[code][4]

    def action(self, text: str) -> str:
        """An action text as people read it (:func:`pretty`)."""
        return pretty(self.game, text)

    def winners(self, totals: list[int]) -> list[int]:
        return self.rules.winners(totals)


def trick_key(pos: dict[str, Any]) -> tuple[int, int] | None:
    trick = pos.get("trick")
    if trick is None:
        return None
    return len(pos.get("tricks") or ()), len(trick["cards"])


def seat_private(pos: dict[str, Any], seat: int) -> dict[str, Any]:
    """The part of a seat's box that only some views see: its cards (else how many), and
    which of them may be played now."""
    hands = pos.get("hands")
    held = hands[seat] if hands else None
    if held is None:
        counts = pos.get("hand_counts")
        return {"h": counts[seat] if counts else 0}
    out: dict[str, Any] = {"h": held}
    if pos.get("to_act") == seat:
        legal = [t.split(" ")[1] for t in pos.get("legal") or () if t.startswith("play ")]
        if legal:
            out["lg"] = sorted(set(legal) & set(held), key=held.index)
    return out


def sheet_rows(ctx: Context, pos: dict[str, Any], game_over: bool) -> list[list[Any]]:
    """The score sheet as the rulebook draws it: each hand's score, from the second on a
    sub-total, and the total at the end of the game."""
    label = ctx.kind.sheet_label
    return [[number, kind, f"{label}{number}" if kind == "score" else kind, values]
            for number, kind, values in sheet_lines(enumerate(pos.get("sheet") or [], 1),
                                                    game_over)]


def chart_points(pos: dict[str, Any], n: int) -> list[list[int]]:
    """The running totals after each finished hand (the chart's points), from 0."""
    running = [0] * n
    out = [running]
    for row in pos.get("sheet") or []:
        running = [a + b for a, b in zip(running, row, strict=True)]
        out.append(running)
    return out


def hand_ended(state: State) -> bool:
    return state.hand_over() or state.chance_kind() == "deal" or state.is_game_over()
