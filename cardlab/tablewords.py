"""What a table says of a position: the words every view shows of one step.

The viewer, the lessons and the recorder write the same things of a position: each seat's
badges and info lines, the centre of the table, the teaching line of the step, the status
line, a hand's title and its result. What every game shares (the dealer, the seat to act,
the totals, the hand's number) is said here, in :class:`TableWords`; the words of a game's
own things (a trump and tricks, Bob's Hat's hat, Ted's hook, Whot's call card) are said by
the game's package, in a subclass it gives as ``Game.table_words``. So a new game with new
things on its table brings their words in its own folder, and no view names them.

Every method reads a position (``State.snapshot``, one seat's view of it through
:mod:`cardlab.seatview`) and the words the view gives it (:class:`Say`), never the rules.

>>> words = TableWords()
>>> class Names:  # what a view gives (cardlab.view.wording.Context is one)
...     word, whole, low_wins, seats = "hand", "game", False, ["Ada", "Bo"]
...     def name(self, seat): return "nobody" if seat is None else self.seats[seat]
...     def mark(self, word): return ""
...     def card(self, code): return code
...     def action(self, text): return text
...     def winners(self, totals): return [0]
>>> words.status_line(Names(), {"hand": 2, "dealer": 1, "hand_counts": [5, 5]}, None)
'Hand 2: Bo deals 5 cards each'
>>> words.seat_public(Names(), {"dealer": 0, "to_act": 0, "totals": [3, 1]}, 0, False, [0, 0])
{'b': ['dealer', 'turn'], 'i': ['total 3']}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from .words import names_and, plural, signed


class Say(Protocol):
    """What a view gives a game's words: the seats' names, the marks of the game's suits or
    shapes, each card's name, the game's word for a hand and for the whole game, and who
    wins on which totals (:class:`cardlab.view.wording.Context` is one)."""

    word: str  # what one hand is called ("hand"; Whot: "game")
    whole: str  # what the whole game is called ("game"; Whot: "rubber")
    low_wins: bool  # the lowest total wins
    seats: list[str]

    def name(self, seat: int | None) -> str:
        """A seat's name ("nobody" for None or -1)."""
        ...

    def mark(self, word: str) -> str:
        """The printed mark of a suit, colour or shape ("" when it has none)."""
        ...

    def card(self, code: str) -> str:
        """A card as people name it ("blue 14", "A♠", "WHOT")."""
        ...

    def action(self, text: str) -> str:
        """An action text as people read it ("play A♠", "bid most red, fewest")."""
        ...

    def winners(self, totals: list[int]) -> list[int]:
        """The seats with the best of ``totals``."""
        ...


class Acting(Protocol):
    """What a teaching line may ask of the state at a step, beyond its position."""

    def to_act(self) -> int: ...

    def legal_texts(self) -> list[str]: ...


class TableWords:
    """The words of a table every game shares; a game's package subclasses it for its own.

    The hooks a game overrides are the small ones (:meth:`badges_of`, :meth:`lines_of`,
    :meth:`score_words`, :meth:`centre_parts`, :meth:`teaching`, :meth:`status_more`,
    :meth:`title_facts`, :meth:`attempt_words`, :meth:`result_lines`, :meth:`score_reason`,
    :meth:`game_winners`, :meth:`recorder_lines`, :meth:`transcript_facts`,
    :meth:`transcript_trick`); the public methods
    put them together as every view shows them.
    """

    # The words of the badges a seat box shows, by kind ("turn": the seat to act); a game
    # adds its own kinds (the movie's "badges").
    BADGES: ClassVar[dict[str, str]] = {"dealer": "dealer", "turn": "▶ to act"}

    # -- hooks a game overrides ----------------------------------------------------------------
    def badges_of(self, pos: dict[str, Any], seat: int) -> list[str]:
        """The game's own badge kinds of ``seat`` (words in :attr:`BADGES`)."""
        return []

    def lines_of(self, say: Say, pos: dict[str, Any], seat: int) -> list[str]:
        """The game's own info lines of ``seat`` (its bid, what it took...), before the
        score line."""
        return []

    def score_words(self, pos: dict[str, Any], seat: int) -> list[str]:
        """What the game adds to ``seat``'s score line, after its total."""
        return []

    def hand_count(self, pos: dict[str, Any]) -> int | None:
        """How many hands the whole game has, when the position says (else None)."""
        return None

    def centre_parts(self, say: Say, pos: dict[str, Any], completed: bool,
                     out: dict[str, Any]) -> None:
        """The game's own parts of the centre, added to ``out`` (the movie's ``tr``,
        ``hat``, ``call``, ``tk``: docs/viewer.md); ``completed``: the step completed a
        trick, which the centre then still shows."""

    def teaching(self, say: Say, pos: dict[str, Any], state: Acting,
                 step_in_hand: int) -> list[str]:
        """The game's teaching lines of the step (a rule that bites, a renege, the draw)."""
        return []

    def status_more(self, say: Say, pos: dict[str, Any]) -> str:
        """What the status line adds after the seat to act ("" for nothing)."""
        return ""

    def title_facts(self, say: Say, pos: dict[str, Any]) -> list[str]:
        """The game's facts of a hand's title, after who deals (its trump)."""
        return []

    def attempt_words(self, pos: dict[str, Any]) -> str:
        """What a hand's title adds when the hand was dealt again ("" for nothing)."""
        return ""

    def result_lines(self, say: Say, pos: dict[str, Any], scores: list[int]) -> list[str]:
        """What a finished hand's result says, ``scores`` what each seat scored in it: by
        default who scored best, then each seat's score with its reason
        (:meth:`score_reason`)."""
        best = max(scores)
        tops = [say.seats[s] for s, v in enumerate(scores) if v == best]
        word = say.word.capitalize()
        rows = [f"{name} {signed(scores[s])}{self.score_reason(pos, s)}"
                for s, name in enumerate(say.seats)]
        return [f"{word} {pos.get('hand')} is over: {names_and(tops)} "
                f"{'score' if len(tops) > 1 else 'scores'} best ({signed(best)}).",
                "; ".join(rows) + "."]

    def score_reason(self, pos: dict[str, Any], seat: int) -> str:
        """Why ``seat`` scored what it did, in brackets after its score ("" for nothing): by
        default the parts of its score the position gives (``score_parts``)."""
        parts = pos.get("score_parts")
        if not parts or not parts[seat]:
            return ""
        return " (" + ", ".join(f"{part.replace('-', ' ')} {signed(points)}"
                                for part, points in parts[seat].items()) + ")"

    def game_winners(self, say: Say, pos: dict[str, Any], totals: list[int]) -> list[int]:
        """Who won the whole game, at its end: the best totals."""
        return say.winners(totals)

    def recorder_lines(self, say: Say, pos: dict[str, Any]) -> list[list[Any]]:
        """The lines of the recorder's centre, ``[label, text, [card codes]]``: what is on
        the table besides the hands."""
        return []

    # -- the plain-text transcript (cardlab show), which keeps the replay's card codes -----
    def transcript_facts(self, pos: dict[str, Any]) -> list[str]:
        """The game's facts of a hand's first line, after who deals (its trump)."""
        return []

    def transcript_trick(self, pos: dict[str, Any], seats: list[str]) -> str:
        """What a completed trick's line adds after its winner ("" for nothing)."""
        return ""

    # -- what every view shows -----------------------------------------------------------------
    def seat_public(self, say: Say, pos: dict[str, Any], seat: int, hand_over: bool,
                    at_deal: Sequence[int]) -> dict[str, Any]:
        """The part of a seat's box every view sees alike: badge kinds (``b``) and info
        lines (``i``); ``pos`` holds no hands and no legal actions here."""
        badges: list[str] = []
        if pos.get("dealer") == seat:
            badges.append("dealer")
        if pos.get("to_act") == seat:
            badges.append("turn")
        badges += self.badges_of(pos, seat)
        info = self.lines_of(say, pos, seat)
        totals = pos.get("totals")
        if totals is not None:
            scores = []
            if hand_over:
                word = "points against" if say.low_wins else f"this {say.word}"
                scores.append(f"{word} {signed(totals[seat] - at_deal[seat])}")
            scores.append(f"total {totals[seat]}")
            scores += self.score_words(pos, seat)
            info.append(" · ".join(scores))
        return {"b": badges, "i": info}

    def centre(self, say: Say, pos: dict[str, Any], completed: bool,
               out: dict[str, Any]) -> None:
        """The centre of the table, into ``out``: the hand's number and size (``info``),
        then the game's own parts (:meth:`centre_parts`)."""
        total = self.hand_count(pos)
        info = [f"{say.word} {pos.get('hand')}" + (f" of {total}" if total else "")]
        if pos.get("hand_size"):
            info.append(f"{plural(pos['hand_size'], 'card')} each")
        out["info"] = info
        self.centre_parts(say, pos, completed, out)

    def explain(self, say: Say, pos: dict[str, Any], state: Acting,
                step_in_hand: int) -> str | None:
        """The teaching line of the step, or None."""
        return " ".join(self.teaching(say, pos, state, step_in_hand)) or None

    def status_line(self, say: Say, pos: dict[str, Any], act: tuple[int, str] | None) -> str:
        """Who did what (``act``: the seat and its action text), else the hand and its
        dealer; then who is next."""
        if act is None:
            head = f"{say.word.capitalize()} {pos.get('hand')}"
            dealer = pos.get("dealer")
            counts = pos.get("hand_counts") or []
            each = ""
            if counts and len(set(counts)) == 1:
                each = f" {plural(counts[0], 'card')} each"
            text = f"{head}: {say.name(dealer)} deals{each}" if dealer is not None else head
        else:
            text = f"{say.name(act[0])}: {say.action(act[1])}"
        to_act = pos.get("to_act")
        if to_act is not None:
            text += f" — next: {say.name(to_act)}" + self.status_more(say, pos)
        return text

    def result_text(self, say: Say, pos: dict[str, Any], at_deal: Sequence[int],
                    game_over: bool) -> str:
        """Who won the hand and why, and at the end who won the whole game."""
        totals = pos["totals"]
        scores = [t - d for t, d in zip(totals, at_deal, strict=True)]
        lines = self.result_lines(say, pos, scores)
        if game_over:
            winners = [say.seats[s] for s in self.game_winners(say, pos, totals)]
            value = totals[say.seats.index(winners[0])]
            how = "the lowest total" if say.low_wins else "the highest total"
            lines.append(f"The {say.whole} is over: {names_and(winners)} "
                         f"{'win' if len(winners) > 1 else 'wins'} with {value}, {how}.")
        return " ".join(lines)

    def hand_title(self, say: Say, pos: dict[str, Any]) -> str:
        """A hand's title: its number, who deals how many cards, and the game's facts."""
        head = f"{say.word.capitalize()} {pos.get('hand')}" + self.attempt_words(pos)
        facts = []
        if pos.get("dealer") is not None:
            size = pos.get("hand_size")
            facts.append(f"{say.name(pos['dealer'])} deals"
                         + (f" {plural(size, 'card')} each" if size else ""))
        facts += self.title_facts(say, pos)
        return " — ".join([head, "; ".join(facts)]) if facts else head


__all__ = ["Acting", "Say", "TableWords"]
