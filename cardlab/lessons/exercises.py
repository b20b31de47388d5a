"""Exercises that check themselves: a question on one position of a replay, answered in the
notebook, with the engine's own reason on every answer.

Four kinds, each made from a replay position (``hand`` counted from 1, ``index`` the actions
of the hand made before it):

- :class:`TrickWinner`, "click the card that wins this trick": at a step just after a trick's
  last card (or just before it: the exercise then stands one card on), the answer is the card
  that won and the reason the engine's (``highest trump``...).
- :class:`ForbiddenBid`, "what may the dealer not bid?" (Ted's Game, the dealer to bid): the
  reason is the engine's refusal of that bid (the hook).
- :class:`LegalPlays`, "which of these may Remo play?": every card of the seat to act; the
  answer is the set of cards it may play, and each other card's reason is the engine's
  refusal message.
- :class:`HandScore`, "what does Kathrine score?" at a hand's end: the reason is the score's
  parts (Bob's Hat's bids and hat), the bid and the tricks (Ted's Game), or the cards left
  in hand (Whot's points against).

A position where a question makes no sense is a :class:`~cardlab.errors.CardlabError` that
says why. ``view`` (a seat's name or number) shows only what that seat sees. A
:class:`Session` keeps the score: each exercise counts once, at its first answer (or when
its answer is shown before any).

**An exercise teaches in tries** (:class:`Tries`): a first wrong answer gets a hint, the rule
it missed in the engine's or the game's words but not the answer (:attr:`Feedback.hint`),
and another try; the answer comes after a second miss, or on *show me*
(:meth:`Exercise.show`); a right answer is praised with the engine's reason.

>>> import cardlab
>>> review = cardlab.example("norwegian-review")
>>> ex = TrickWinner(review, hand=1, index=9, session=Session())
>>> ex.prompt
'Trick 1 of hand 1: click the card that wins this trick.'
>>> ex.check("blue20").text
'Right: Tone takes the trick with blue 20: highest blue, the suit led.'
>>> ex.answer("blue9").right, ex.session.score()
(False, (0, 1))
>>> tries = Tries()
>>> print(tries.respond(ex.check("blue9"), "blue9")["text"])  # doctest: +NORMALIZE_WHITESPACE
Not blue 9. Hint: a trick goes to the highest trump (black) in it; with no trump in it, to
the highest card of the suit led. Try again, or choose Show me.
>>> tries.respond(ex.check("blue5"), "blue5")["text"]
'Not blue 5: Tone takes the trick with blue 20: highest blue, the suit led.'
>>> try:
...     TrickWinner(review, hand=1, index=0)
... except CardlabError as err:
...     print(err)  # doctest: +NORMALIZE_WHITESPACE
hand 1 after 0 actions: no trick was just completed and none is one card short; choose the
step just after a trick's last card
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

from ..cursor import Cursor
from ..dataframes import require
from ..errors import CardCodeError, CardlabError, IllegalActionError, sentence
from ..game import list_games
from ..replay import Replay
from ..view.assets import module, stylesheet
from ..view.wording import Context, card_faces, seat_private, signed
from ..words import names_and, plural
from .tries import HINT, SESSION, SHOWN, TRY_AGAIN, Feedback, Session, Tries

anywidget = require("anywidget")  # the widgets extra: pip install 'cardlab[widgets]'
traitlets = require("traitlets")

HERE = Path(__file__).parent
# the exercise and quiz widgets' front-end, with the helpers and card faces the widgets share
ESM = module(HERE / "lessons.js")
CSS = stylesheet(HERE / "lessons.css")
KINDS = ("trick-winner", "forbidden-bid", "legal-plays", "hand-score")
_ids = itertools.count(1)


def _names(game: str, codes: list[str]) -> dict[str, list[Any]]:
    faces = card_faces(game)
    return {c: faces[c] for c in codes if c in faces}


def table_view(replay: Replay, pos: dict[str, Any], *, totals: bool = True, turn: bool = True,
          completed: bool = True, winner: bool = True, legal: bool = False
          ) -> dict[str, Any]:
    """What a lesson widget draws of a position (already one seat's view, or everyone's):
    per seat its name, badges, info lines and cards (codes, or how many face down), and the
    centre's texts, all written by :mod:`cardlab.view.wording`. ``totals=False`` leaves the
    score lines out, ``turn=False`` the turn badge, ``winner=False`` the trick's winner.
    ``legal=True`` lists the seat to act's playable cards (an exercise never does: it would
    give an answer away). ``cards`` maps every code shown to its face (rank, mark, colour,
    hat, name)."""
    ctx = Context(replay)
    seats = []
    at_deal = list(pos.get("totals") or [0] * len(ctx.seats))
    for s, name in enumerate(ctx.seats):
        public = ctx.table_words.seat_public(ctx, pos, s, False, at_deal)
        info = list(public["i"])
        if not totals and pos.get("totals") is not None and info:
            info = info[:-1]  # seat_public puts the score line last
        badges = [b for b in public["b"] if turn or b != "turn"]
        private = seat_private(pos, s)
        held = private["h"]
        seats.append({"name": name, "badges": badges, "info": info,
                      "hand": held if isinstance(held, list) else None,
                      "count": held if isinstance(held, int) else len(held),
                      "legal": private.get("lg", []) if legal else []})
    out: dict[str, Any] = {}
    ctx.table_words.centre(ctx, pos, completed, out)
    tk = out.get("tk")
    if tk is not None and not winner:
        tk = {k: v for k, v in tk.items() if k not in ("w", "why")}
    shown = [c for s in seats for c in (s["hand"] or [])]
    if tk:
        shown += [code for _, code in tk.get("c", [])]
    for key in ("tr", "call"):
        if isinstance(out.get(key), dict) and out[key].get("c"):
            shown.append(out[key]["c"])
    return {"seats": seats, "trick": tk, "info": out.get("info", []),
            "trump": (out.get("tr") or {}).get("t"), "turned": (out.get("tr") or {}).get("c"),
            "hat": out.get("hat"), "call": (out.get("call") or {}).get("t"),
            "call_card": (out.get("call") or {}).get("c"),
            "cards": _names(ctx.game, shown)}


class Exercise:
    """One question on one position; subclasses set the prompt, choices and the answer."""

    kind = ""
    multiple = False  # several choices make one answer (LegalPlays)
    number = False  # the answer is a whole number typed in (HandScore)

    def __init__(self, replay: Replay, hand: int, index: int | None = None,
                 view: int | str | None = None, session: Session | None = None) -> None:
        self.id = next(_ids)
        self.replay = replay
        self.session = SESSION if session is None else session
        self.view = None if view is None else replay.seat_index(view)
        self.cursor = Cursor(replay, hand=hand, seat=self.view)  # checks the hand (from 1)
        if index is None:
            index = len(self.cursor.line)
        if isinstance(index, bool) or not isinstance(index, int):
            raise CardlabError(f"index is the number of actions made, not {index!r}")
        self.hand = hand
        self.index = index
        self.cursor.goto(self.cursor.find(hand, index))  # a CardlabError names the range
        self.where = (f"{replay.rules.game.game_type.hand_word} {hand} after "
                      f"{plural(index, 'action')}")
        self.prompt = ""
        self.choices: list[tuple[Any, str]] = []  # (value, label)
        self.table: dict[str, Any] = {}

    def _pos(self, index: int, seat: int | None = -1) -> dict[str, Any]:
        cur = Cursor(self.replay, hand=self.hand, seat=self.view if seat == -1 else seat)
        return cur.goto(cur.find(self.hand, index)).position

    def check(self, given: Any) -> Feedback:
        """The verdict on ``given`` (no score is kept: see :meth:`answer`)."""
        raise NotImplementedError

    def answer(self, given: Any) -> Feedback:
        """Check ``given`` and count it in the session if it is this exercise's first."""
        feedback = self.check(given)
        self.session.record(self, given, feedback)
        return feedback

    def solution(self) -> Feedback:
        """The answer as *show me* shows it: the right answer's verdict, told, not praised
        (``right`` is False: no answer was given)."""
        raise NotImplementedError

    def show(self) -> Feedback:
        """The answer on *show me*; shown before any answer, the exercise counts as missed."""
        solution = self.solution()
        self.session.record(self, None, solution)
        return solution

    def _hint(self, before: str, rule: str) -> str:
        return f"{before} {HINT}{rule}.{TRY_AGAIN}"

    def data(self) -> dict[str, Any]:
        """What the widget shows: no answer and no reason is in it before an answer."""
        return {"kind": self.kind, "prompt": self.prompt, "multiple": self.multiple,
                "number": self.number, "game": self.replay.game,
                "choices": [[v, label] for v, label in self.choices], "table": self.table}

    def verdicts(self) -> dict[str, Any]:
        """The verdict of every answer, as data that a page with no kernel (an offline
        handout: :mod:`cardlab.lessons.handouts`) looks an answer up in, knowing no rule:
        ``{"answers": {choice: feedback data}}``, every choice's :meth:`check`. The kinds
        whose answers cannot all be listed (a set of cards, a typed number) say how their
        sentence is made instead (see theirs); ``solution``, what *show me* shows. It holds
        the answer: never in the widget's data.

        >>> import cardlab
        >>> ex = TrickWinner(cardlab.example("norwegian-review"), hand=1, index=9)
        >>> {value: v["right"] for value, v in ex.verdicts()["answers"].items()}
        {'blue20': True, 'blue14': False, 'blue9': False, 'blue5': False}
        """
        return {"answers": {str(v): self.check(v).data() for v, _ in self.choices},
                "solution": self.solution().data()}

    def _choice(self, given: Any) -> Any:
        values = [v for v, _ in self.choices]
        if given not in values or isinstance(given, bool):
            if isinstance(given, str) and self.kind in ("trick-winner", "legal-plays"):
                try:  # the deck's own words for a code that is no card at all
                    self.cursor.state.parse_action(f"play {given}")
                except CardCodeError as err:
                    raise CardlabError(sentence(err)) from None
                except CardlabError:
                    pass
            raise CardlabError(f"{given!r} is not one of the choices: "
                               f"{', '.join(str(v) for v in values)}")
        return given


class TrickWinner(Exercise):
    """Click the card that wins this trick (see the module's docstring)."""

    kind = "trick-winner"

    def __init__(self, replay: Replay, hand: int, index: int | None = None,
                 view: int | str | None = None, session: Session | None = None) -> None:
        super().__init__(replay, hand, index, view, session)
        if not replay.rules.game.game_type.tricks:
            raise CardlabError("'click the card that wins this trick' is for the trick-taking "
                               f"games; {replay.rules.title} has no tricks")
        pos = self.cursor.position
        players = len(replay.seats)
        tricks = pos.get("tricks") or []
        index = self.index
        cards = (pos.get("trick") or {}).get("cards") or []
        action = self.cursor.action
        if (not cards and tricks and action is not None
                and action.act.startswith("play ")):
            pass  # the last action completed a trick
        elif len(cards) == players - 1 and index < len(self.cursor.line):
            index += 1  # the trick's last card is to come: stand just after it
            before_count = len(tricks)
            pos = self._pos(index)
            tricks = pos.get("tricks") or []
            if len(tricks) != before_count + 1:  # the last card reneged: dealt again
                raise CardlabError(f"{self.where}: the trick's last card was not played to "
                                   "it (the hand was dealt again); choose another trick")
        else:
            raise CardlabError(f"{self.where}: no trick was just completed and none is one "
                               "card short; choose the step just after a trick's last card")
        self.index = index
        done = tricks[-1]
        number = len(tricks)
        self.trick = done
        self.prompt = f"Trick {number} of hand {hand}: click the card that wins this trick."
        faces = card_faces(replay.game)
        self.choices = [(code, faces[code][4]) for _, code in done["cards"]]
        # the seats as they were before the last card (after it, the turn and the tricks
        # taken would tell who won), the hands as they are after it
        before = self._pos(index - 1)
        after_hands = pos.get("hands")
        before = dict(before, hands=after_hands, hand_counts=pos.get("hand_counts"),
                      trick={"leader": done["leader"], "cards": done["cards"]})
        self.table = table_view(replay, before, totals=False, turn=False, winner=False)
        self.rule = replay.rules.game.trick_rule(self.cursor.state)

    def _why(self) -> str:
        done = self.trick
        win = card_faces(self.replay.game)[done["winning_card"]][4]
        return f"{self.replay.seats[done['winner']]} takes the trick with {win}: {done['reason']}"

    def check(self, given: Any) -> Feedback:
        code = self._choice(given)
        win = self.trick["winning_card"]
        if code == win:
            return Feedback(True, f"Right: {self._why()}.", win)
        name = card_faces(self.replay.game)[code][4]
        return Feedback(False, f"Not {name}: {self._why()}.", win,
                        hint=self._hint(f"Not {name}.", self.rule))

    def solution(self) -> Feedback:
        return Feedback(False, f"{SHOWN}{self._why()}.", self.trick["winning_card"])


class ForbiddenBid(Exercise):
    """What may the dealer not bid? (Ted's Game, at the dealer's bid.)"""

    kind = "forbidden-bid"

    def __init__(self, replay: Replay, hand: int, index: int | None = None,
                 view: int | str | None = None, session: Session | None = None) -> None:
        super().__init__(replay, hand, index, view, session)
        if not replay.rules.game.game_type.hook:
            hooked = [g.title for g in list_games().values() if g.game_type.hook]
            raise CardlabError(f"'what may the dealer not bid?' is about "
                               f"{names_and(hooked)}'s hook; this replay is {replay.game}")
        state = self.cursor.state
        pos = self.cursor.position
        names = replay.seats
        dealer = pos.get("dealer")
        if dealer is None or pos.get("phase") != "bid" or pos.get("to_act") != dealer:
            who = pos.get("to_act")
            doing = "nobody is to act" if who is None else f"{names[who]} is to act"
            raise CardlabError(f"{self.where}: the dealer is not to bid ({doing}, in the "
                               f"{pos.get('phase')} phase); choose the step of the dealer's bid")
        forbidden = pos.get("forbidden_bid")  # the engine's: live while the dealer is to bid
        if forbidden is None:
            raise CardlabError(f"{self.where}: the others bid {pos.get('bid_total')} in all, "
                               f"more than the {plural(pos.get('hand_size') or 0, 'trick')}: "
                               "the hook forbids the dealer nothing here")
        self.forbidden = int(forbidden)
        trial = state.clone()
        try:
            trial.act(f"bid {forbidden}")
        except CardlabError as err:
            self.reason = sentence(err)
            self.rule = err.rule if isinstance(err, IllegalActionError) else self.reason
        else:  # the engine would accept it: then there is no hook to ask about
            raise CardlabError(f"{self.where}: the engine forbids the dealer no bid")
        self.dealer = names[dealer]
        self.prompt = f"{self.dealer} deals and bids last: what may {self.dealer} not bid?"
        self.choices = [(b, str(b)) for b in range(pos["hand_size"] + 1)]
        self.table = table_view(replay, pos, totals=False)

    def check(self, given: Any) -> Feedback:
        bid = self._choice(given)
        if bid == self.forbidden:
            return Feedback(True, f"Right: {self.reason}.", self.forbidden)
        return Feedback(False, f"{self.dealer} may bid {bid}. The bid not allowed is "
                               f"{self.forbidden}: {self.reason}.", self.forbidden,
                        hint=self._hint(f"{self.dealer} may bid {bid}.", self.rule))

    def solution(self) -> Feedback:
        return Feedback(False, f"{SHOWN}{self.forbidden}. {self.reason[:1].upper()}"
                              f"{self.reason[1:]}.", self.forbidden)


class LegalPlays(Exercise):
    """Which of these may <seat> play? Choose every card the seat to act may play."""

    kind = "legal-plays"
    multiple = True

    def __init__(self, replay: Replay, hand: int, index: int | None = None,
                 view: int | str | None = None, session: Session | None = None,
                 seat: int | str | None = None) -> None:
        super().__init__(replay, hand, index, view, session)
        names = replay.seats
        state = self.cursor.state
        to_act = state.to_act()
        if to_act < 0:
            raise CardlabError(f"{self.where}: nobody is to act"
                               + (" (the hand is over)" if state.hand_over() else ""))
        if seat is not None and replay.seat_index(seat) != to_act:
            raise CardlabError(f"{self.where}: {names[replay.seat_index(seat)]} is not to "
                               f"act; {names[to_act]} is")
        if self.view is not None and self.view != to_act:
            raise CardlabError(f"{self.where}: the question shows {names[to_act]}'s cards, "
                               f"which {names[self.view]} may not see; use view=None or "
                               f"view={names[to_act]!r}")
        full = Cursor(replay, hand=hand, seat=to_act)
        pos = full.goto(full.find(hand, self.index)).position
        texts = pos.get("legal") or []
        if not any(t.startswith("play ") for t in texts) and pos.get("phase") not in (
                "play", None):
            raise CardlabError(f"{self.where}: {names[to_act]} is not playing a card now "
                               f"(the {pos.get('phase')} phase: {', '.join(texts[:6])})")
        held = pos["hands"][to_act] or []
        self.seat = names[to_act]
        self.legal = sorted({t.split(" ")[1] for t in texts if t.startswith("play ")} & set(held),
                            key=held.index)
        self.reasons: dict[str, str] = {}
        self.rules: dict[str, str] = {}  # each refusal's rule, naming no card held (a hint)
        faces = card_faces(replay.game)
        for code in held:
            if code in self.legal:
                continue
            trial = state.clone()
            try:
                trial.act(f"play {code}")
                self.reasons[code] = f"the rules do not list play {faces[code][4]} here"
            except CardlabError as err:
                self.reasons[code] = sentence(err)
                if isinstance(err, IllegalActionError):
                    self.rules[code] = err.rule
            self.rules.setdefault(code, self.reasons[code])
        self.choices = [(code, faces[code][4]) for code in held]
        self.prompt = (f"Which of these may {self.seat} play? Choose every card "
                       f"{self.seat} may play now (none, if none).")
        self.table = table_view(replay, self.cursor.position, totals=False)

    def _words(self) -> dict[str, Any]:
        """The words of the verdicts, written once for :meth:`check` and the page: the right
        answer's text, and the wrong answer's around its slips (the cards chosen that may not
        be played, the cards left out), each slip around the names of its cards; the hint
        around its parts (the rules the cards chosen break, then what was left out, by how
        many cards: ``left``)."""
        faces = card_faces(self.replay.game)
        legal = names_and([faces[c][4] for c in self.legal]) or "none of them"
        # the cards the engine refuses by one rule, said once: with the engine's reason when
        # it is the same for all of them ("...: Remo holds blue 14"), else with the rule
        groups: dict[str, list[str]] = {}
        for code in self.reasons:
            groups.setdefault(self.rules[code], []).append(code)
        refused = " ".join(
            f"Not {names_and([faces[c][4] for c in codes])}: "
            f"{self.reasons[codes[0]] if len({self.reasons[c] for c in codes}) == 1 else rule}."
            for rule, codes in groups.items())
        tail = f"{self.seat} may play {legal}. {refused}".rstrip()
        left = [""] + [f"you left out {'a card' if n == 1 else plural(n, 'card')} "
                       f"{self.seat} may play" for n in range(1, len(self.legal) + 1)]
        return {"right": f"Right: {tail}", "shown": f"{SHOWN}{tail}",
                "wrong": ["Not quite (", f"): {tail}"],
                "slips": {"chose": ["you chose ", f", which {self.seat} may not play"],
                          "left": ["you left out ", ""]},
                "names": ", ", "last": " and ", "and": "; ",
                "hint": [f"Not quite. {HINT}", f".{TRY_AGAIN}"], "parts": "; ", "left": left}

    def _cards(self) -> list[list[str]]:
        """Each card offered, in the hand's order: its code, its name, the slip that choosing
        it makes and the one that leaving it out makes ("" for none), and the rule that
        choosing it breaks ("" for none)."""
        return [[code, name, "" if code in self.legal else "chose",
                 "left" if code in self.legal else "", self.rules.get(code, "")]
                for code, name in self.choices]

    def check(self, given: Any) -> Feedback:
        if isinstance(given, str) or not hasattr(given, "__iter__"):
            raise CardlabError(f"the answer is a list of cards, not {given!r}")
        chosen = [self._choice(code) for code in given]
        found = self._slips(chosen)
        words = self._words()
        if not any(found.values()):
            return Feedback(True, words["right"], list(self.legal), dict(self.reasons))
        said = [before + _listed(found[kind], words) + after
                for kind, (before, after) in words["slips"].items() if found[kind]]
        before, after = words["wrong"]
        cards = {row[0]: row for row in self._cards()}
        parts = list(dict.fromkeys(cards[code][4] for code in chosen if cards[code][4]))
        if found["left"]:
            parts.append(words["left"][len(found["left"])])
        return Feedback(False, before + words["and"].join(said) + after, list(self.legal),
                        dict(self.reasons),
                        hint=words["parts"].join(parts).join(words["hint"]))

    def solution(self) -> Feedback:
        return Feedback(False, self._words()["shown"], list(self.legal), dict(self.reasons))

    def _slips(self, chosen: list[str]) -> dict[str, list[str]]:
        # the names of the cards of each slip: as chosen, then as offered (the page's order)
        found: dict[str, list[str]] = {"chose": [], "left": []}
        cards = {row[0]: row for row in self._cards()}
        for code in chosen:
            if cards[code][2]:
                found[cards[code][2]].append(cards[code][1])
        for code, name, _, left, _ in cards.values():
            if left and code not in chosen:
                found[left].append(name)
        return found

    def verdicts(self) -> dict[str, Any]:
        """The verdicts of a set of cards (see :meth:`Exercise.verdicts`): ``right``, the
        feedback of the right set; ``wrong``, a wrong set's, its text in two halves around
        the slips and its hint in two halves around the hint's parts; ``cards``, each card
        offered with its slips and its rule (:meth:`_cards`); ``slips``, each slip's text in
        two halves around its cards' names; ``names``, ``last`` and ``and``, what joins
        names and slips; ``parts`` what joins the hint's parts, ``left`` the part saying
        how many cards were left out; ``solution``, what *show me* shows. :meth:`check`
        writes its sentences with the same words."""
        words = self._words()
        right = self.check(self.legal).data()
        return {"right": right, "wrong": dict(right, right=False, text=words["wrong"],
                                              hint=words["hint"]),
                "cards": self._cards(), "slips": words["slips"], "names": words["names"],
                "last": words["last"], "and": words["and"], "parts": words["parts"],
                "left": words["left"], "solution": self.solution().data()}


def _listed(names: list[str], words: dict[str, Any]) -> str:
    """Names said as a list with the page's words: "a, b and c" (verdicts.js says it so)."""
    if len(names) < 2:
        return "".join(names)
    return words["names"].join(names[:-1]) + words["last"] + names[-1]


# A typed score: digits with a sign or none (the typographic minus too), nothing else; the
# handouts' page reads typed scores with the same pattern.
NUMBER = "[+\\-\u2212]?[0-9]+"
NOT_A_SCORE = "a score is a whole number (like -7 or 21), not "


class HandScore(Exercise):
    """What does <seat> score? At a hand's end (``index=None``: the end of the hand)."""

    kind = "hand-score"
    number = True

    def __init__(self, replay: Replay, hand: int, index: int | None = None,
                 view: int | str | None = None, session: Session | None = None,
                 seat: int | str = 0) -> None:
        super().__init__(replay, hand, index, view, session)
        state = self.cursor.state
        if not state.hand_over():
            raise CardlabError(f"{self.where}: the hand is not over, so its scores are not "
                               f"final (it ends after {plural(len(self.cursor.line), 'action')})")
        s = replay.seat_index(seat)
        self.seat = replay.seats[s]
        pos = self.cursor.position
        # the hand's score as the sheet has it: the totals now less the totals at its deal
        # (a game may clear its running row once the hand is written to the sheet)
        self.score = int(pos["totals"][s] - self._pos(0)["totals"][s])
        self.reason = self._reason(state, pos, s)
        self.low = bool(replay.rules.low_score_wins)  # Whot's hand score is points against
        kind = replay.rules.game.game_type
        word = kind.hand_word.capitalize()
        self.prompt = (f"{word} {hand} is over: how many {kind.points_word} does {self.seat} "
                       "have?" if self.low else f"{word} {hand} is over: what does {self.seat} "
                                                "score?")
        self.table = table_view(replay, pos, totals=False)
        self.rule = replay.rules.game.score_rule(replay.rules) or \
            f"look again at how this {kind.hand_word} was scored"

    def _reason(self, state: Any, pos: dict[str, Any], s: int) -> str:
        """Why the seat scores what it does: the game's own sum where it has one, else the
        position's parts of the score written out."""
        name = self.seat
        told = self.replay.rules.game.explain_score(pos, s, name)
        if told:
            return told
        parts = pos.get("score_parts")
        if parts is not None:
            items = parts[s]
            if not items:
                return f"{name} scores nothing: no bid paid and no hat"
            said = ", ".join(f"{k.replace('-', ' ')} {signed(v)}" for k, v in items.items())
            total = f"; in all {signed(sum(items.values()))}" if len(items) > 1 else ""
            return f"{name}: {said}{total}"
        if pos.get("bids") is not None and pos.get("tricks_won") is not None:
            bid, won = pos["bids"][s], pos["tricks_won"][s]
            how = "exactly the bid" if bid == won else "a miss"
            return f"{name} bid {bid} and took {won}: {how}"
        count = plural(pos["hand_counts"][s], "card")
        return f"{name}'s {self.replay.rules.game.game_type.points_word} are the {count} " \
               "left in hand"

    def _say(self, value: int) -> str:
        return str(value) if self.low else signed(value)

    def _wrong(self) -> list[str]:
        # a wrong score's sentence, in two halves around the number given
        verb = "has" if self.low else "scores"
        return ["Not ", f": {self.seat} {verb} {self._say(self.score)}. {self.reason}."]

    def check(self, given: Any) -> Feedback:
        value = given
        if isinstance(given, str):
            text = given.strip()
            value = int(text.replace("\u2212", "-")) if re.fullmatch(NUMBER, text) else None
        if isinstance(value, bool) or not isinstance(value, int):
            raise CardlabError(f"{NOT_A_SCORE}{given!r}")
        if value == self.score:
            return Feedback(True, f"Right: {self._say(self.score)}. {self.reason}.", self.score)
        before, after = self._wrong()
        hint_before, hint_after = self._wrong_hint()
        said = self._say(value)
        return Feedback(False, before + said + after, self.score,
                        hint=hint_before + said + hint_after)

    def _wrong_hint(self) -> list[str]:
        # a wrong score's hint, in two halves around the number given
        return ["Not ", f". {HINT}{self.rule}.{TRY_AGAIN}"]

    def solution(self) -> Feedback:
        return Feedback(False, f"{SHOWN}{self._say(self.score)}. {self.reason}.", self.score)

    def verdicts(self) -> dict[str, Any]:
        """The verdicts of a typed score (see :meth:`Exercise.verdicts`): ``answers``, the
        right number's feedback; ``wrong``, any other number's, its text and its hint each
        in two halves around the number; ``number``, the pattern a typed score matches
        (:data:`NUMBER`); ``signs``, what is written before a negative number, zero and a
        positive one; ``bad``, the refusal of anything else, in two halves around the text
        typed; and ``solution``, what *show me* shows."""
        right = self.check(self.score).data()
        return {"answers": {str(self.score): right},
                "wrong": dict(right, right=False, text=self._wrong(), hint=self._wrong_hint()),
                "number": NUMBER, "signs": [self._say(v)[:-1] for v in (-1, 0, 1)],
                "bad": [NOT_A_SCORE + "'", "'"], "solution": self.solution().data()}


CLASSES: dict[str, type[Exercise]] = {"trick-winner": TrickWinner,
                                      "forbidden-bid": ForbiddenBid,
                                      "legal-plays": LegalPlays, "hand-score": HandScore}


def make(kind: str, replay: Replay, hand: int, index: int | None = None, **options: Any
         ) -> Exercise:
    """The exercise of ``kind`` (one of :data:`KINDS`) on a position; a CardlabError if the
    position does not suit it."""
    if kind not in CLASSES:
        raise CardlabError(f"no exercise {kind!r}; the kinds are {', '.join(KINDS)}")
    allowed = ["view", "session"] + (["seat"] if kind in ("legal-plays", "hand-score") else [])
    for key in options:
        if key not in allowed:
            raise CardlabError(f"the {kind} exercise takes no {key!r}; its options are "
                               f"{', '.join(allowed)}")
    return CLASSES[kind](replay, hand, index, **options)


def score_of(session: Session) -> dict[str, int]:
    right, asked = session.score()
    return {"right": right, "asked": asked}


class ExerciseWidget(anywidget.AnyWidget):  # type: ignore[misc,name-defined]
    """An exercise in the notebook: the browser sends the answer, the kernel checks it.

    The synced ``data`` holds the question and what the view may show, never the answer;
    ``feedback`` is what the student is shown once an answer came (:meth:`Tries.respond`:
    after a first miss the hint alone, still no answer; ``{"error": message}`` for a bad
    answer), and ``error`` when the exercise could not be made (the message shows in place
    of it).
    """

    _esm = ESM
    _css = CSS
    mode = traitlets.Unicode("exercise").tag(sync=True)
    data = traitlets.Dict({}).tag(sync=True)
    feedback = traitlets.Dict({}).tag(sync=True)
    score = traitlets.Dict({"right": 0, "asked": 0}).tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)

    def __init__(self, exercise: Exercise | None = None, error: str = "",
                 session: Session | None = None) -> None:
        super().__init__()
        self.exercise = exercise
        self.session = exercise.session if exercise is not None else (session or SESSION)
        self.error = error
        self.tries = Tries()
        if exercise is not None:
            self.data = exercise.data()
        self.score = score_of(self.session)
        self.on_msg(self._on_msg)

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "answer":
            self.answer(content.get("value"))
        elif isinstance(content, dict) and content.get("type") == "show":
            self.show()

    def answer(self, value: Any) -> Feedback | None:
        """Answer as the browser does: what the student is shown of the verdict (see
        :class:`Tries`: a first miss gets its hint only) goes to ``feedback`` (a bad answer's
        message in ``feedback["error"]``, which is no try), and the session's score is
        updated. Returns the whole verdict."""
        if self.exercise is None:
            return None
        try:
            feedback = self.exercise.answer(value)
        except CardlabError as err:
            self.feedback = {"error": str(err)}
            return None
        self.feedback = self.tries.respond(feedback, value)
        self.score = score_of(self.session)
        return feedback

    def show(self) -> Feedback | None:
        """*Show me*: the answer, whatever was tried."""
        if self.exercise is None:
            return None
        solution = self.exercise.show()
        self.feedback = self.tries.show(solution)
        self.score = score_of(self.session)
        return solution


def exercise(kind: str, replay: Replay, hand: int, index: int | None = None,
             **options: Any) -> ExerciseWidget:
    """The widget of an exercise (:func:`make`'s arguments). A position that does not suit
    the exercise gives a widget that shows the CardlabError's message, not a traceback:

    >>> import cardlab
    >>> exercise("forbidden-bid", cardlab.example("norwegian-review"), hand=1).error
    "'what may the dealer not bid?' is about Ted's Game's hook; this replay is bobs-hat"
    """
    try:
        return ExerciseWidget(make(kind, replay, hand, index, **options))
    except CardlabError as err:
        return ExerciseWidget(None, error=str(err), session=options.get("session"))

__all__ = ["KINDS", "SESSION", "Exercise", "ExerciseWidget", "Feedback", "ForbiddenBid",
           "HandScore", "LegalPlays", "Session", "TrickWinner", "Tries", "exercise", "make",
           "table_view"]
