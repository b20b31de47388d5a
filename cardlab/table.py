"""Recording a game: a :class:`Table` checks each chance step and action as it is entered,
and :func:`new_game` starts one (seeded, so bots can play it, or by hand, for a real game).

>>> import cardlab
>>> table = cardlab.new_game("bobs-hat", players=4, seed=7)
>>> table.act("hat -10")
>>> table.replay.hands[0].actions[0].act
'hat -10'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from . import strictjson
from .errors import (
    ActionTextError,
    CardlabError,
    IllegalActionError,
    OptionError,
    ReplayError,
    brief,
)
from .game import State, get_game
from .limits import DEFAULT_LIMITS, exceeded
from .replay import Action, Hand, Note, Replay
from .seats import seat_name_problem

Bot = Callable[[State, int], int]


class Table:
    """Records a game as it is played: each chance step and action is checked at once.

    With a seed, deals happen by themselves; without one, enter each deal with :meth:`deal`.
    """

    def __init__(self, replay: Replay, auto_deal: bool = True) -> None:
        self.replay = replay
        self.auto_deal = auto_deal and replay.seed is not None
        self.state = replay.rules.new_state(replay.seats)
        self._hand_totals = [0] * len(replay.seats)
        self._last: Action | Hand | None = None  # what ``note`` attaches to
        if self.state.chance_kind() == "setup" and replay.setup is None and \
                replay.seed is not None:
            replay.setup = self.state.seeded_chance(replay.seed)
        if self.state.chance_kind() == "setup" and replay.setup is not None:
            self.state.apply_chance(replay.setup)
        self._advance()

    @property
    def seats(self) -> list[str]:
        return self.replay.seats

    def _advance(self) -> None:
        if self.auto_deal:
            while self.state.chance_kind() == "deal":
                self.deal()
        if self.state.is_game_over() and self.replay.totals is None:
            self.replay.totals = self.state.totals()

    def _setup_needed(self) -> str:
        return (f"{self.replay.rules.title} needs its setup record first (the draw or cut for "
                "first dealer): enter it with Table.setup(record), or give the table a seed")

    def deal(self, record: Any = None, note: Note | None = None) -> None:
        """Enter the next deal (``None``: the seeded deal). Raises if none is due."""
        kind = self.state.chance_kind()
        upcoming = len(self.replay.hands) + 1
        if kind == "setup":
            raise IllegalActionError(self._setup_needed())
        if kind != "deal":
            raise IllegalActionError("no deal is due: the hand is still being played"
                                     if not self.state.is_game_over() else "the game is over",
                                     hand=self.state.hand_number() or None)
        if note is not None:
            check_note(note)
        seed = None
        if record is None:
            seed = self.replay.seed
            if seed is None:
                raise IllegalActionError("this table has no seed: enter the dealt cards")
            record = self.state.seeded_chance(seed)
        else:
            record = strictjson.copy(record)  # the replay keeps its own copy
        self._hand_totals = self.state.totals()
        try:
            if seed is not None:  # the same state, without reading the card codes back
                self.state.deal_seeded(seed)
            else:
                self.state.apply_chance(record)
        except IllegalActionError as err:
            raise IllegalActionError(err.reason, hand=upcoming, action=err.action) from None
        self.replay.hands.append(Hand(deal=record, note=note))
        self._last = self.replay.hands[-1]

    def setup(self, record: Any) -> None:
        """Enter the game's setup record (e.g. the draw for first dealer)."""
        if self.state.chance_kind() != "setup":
            has_setup = self.replay.rules.new_state().chance_kind() == "setup"
            raise IllegalActionError("no setup is due" + (
                ": it has been entered" if has_setup else
                f": {self.replay.rules.title} has no setup record"))
        self.state.apply_chance(record)
        self.replay.setup = strictjson.copy(record)
        self._advance()

    def act(self, text: str, note: Note | None = None, *, seat: str | None = None) -> None:
        """Apply an action given as text, and record it under the seat that makes it.

        That is the seat to act, or for the few actions the rules let another seat make out
        of turn (a bid change in Ted's Game: the last bidder's), that seat
        (``state.actor``). ``seat`` (a name), when given, must be that seat: a way to say
        who acts, checked.
        """
        state = self.state
        to_act = state.to_act()
        hands = self.replay.hands
        hand, step = self._next_step()
        if to_act < 0:
            kind = state.chance_kind()
            if kind == "setup":
                raise IllegalActionError(f"nobody is to act: {self._setup_needed()}")
            if kind == "deal":
                raise IllegalActionError(f"nobody is to act: the deal of hand {len(hands) + 1} "
                                         "is due; enter it with Table.deal(record)")
            raise IllegalActionError("nobody is to act: the game is over", hand=hand)
        if note is not None:
            check_note(note)
        try:
            action = state.parse_action(text)
        except CardlabError as err:
            reason = err.reason if isinstance(err, IllegalActionError) else str(err)
            raise ActionTextError(reason, hand=hand, step=step,
                                  seat=self.seats[to_act]) from None
        who = state.actor(action)
        name = self.seats[who] if who >= 0 else None
        if seat is not None and seat != (name or self.seats[to_act]):
            raise IllegalActionError(
                f"{text!r} is {name}'s to make now, not {seat}'s" if name else
                f"nobody may make {text!r} now", hand=hand, step=step, seat=seat)
        try:
            canonical = state.action_text(action)
            state.apply(action)
        except CardlabError as err:
            raise _named(err, hand, step, name) from None
        self._record(Action(name or self.seats[to_act], canonical, note))

    def _next_step(self) -> tuple[int | None, int | None]:
        """The hand (from 1) and the step in it that the next action would be."""
        hands = self.replay.hands
        return len(hands) or None, len(hands[-1].actions) + 1 if hands else None

    def apply(self, action: int, note: Note | None = None) -> None:
        """Apply an engine action (an int from ``state.legal_actions()``), and record it.

        A legal choice of the seat to act is checked and recorded as the int it is: its text
        (``state.action_text``) is what the replay keeps, and is never parsed back. Anything
        else (a bid change out of turn, an illegal int) goes through :meth:`act` with its
        text, which applies or refuses it as a typed action is.
        """
        state = self.state
        seat = state.to_act()
        if seat < 0 or action not in state.legal_actions():
            self.act(state.action_text(action), note)
            return
        if note is not None:
            check_note(note)
        text = state.action_text(action)
        try:
            state.apply(action)
        except CardlabError as err:  # the engine's own refusal, named as act names it
            raise _named(err, *self._next_step(), self.seats[seat]) from None
        self._record(Action(self.seats[seat], text, note))

    def _record(self, action: Action) -> None:
        hand = self.replay.hands[-1]
        hand.actions.append(action)
        state = self.state
        if state.to_act() < 0:  # a deal is due or the game is over: the hand has ended
            if state.chance_kind() == "deal" or state.is_game_over():
                after = state.totals()
                hand.scores = [a - b for a, b in zip(after, self._hand_totals, strict=True)]
            self._advance()  # may deal the next hand by itself
        self._last = action

    def note(self, note: Note) -> None:
        """Attach a note to what was entered last: an action, or a deal entered by hand.

        After the action that ends a hand, the note goes on that action even when a seeded
        table has already dealt the next hand by itself.
        """
        if self._last is None:
            raise IllegalActionError("nothing has been entered yet to attach a note to")
        check_note(note)
        self._last.note = note

    def play(self, bots: Sequence[Bot] | Bot, until: str = "game",
             max_actions: int = 1_000_000) -> None:
        """Let bots act (one per seat, or one for all) until the hand or game ends."""
        hand = len(self.replay.hands)
        for _ in range(max_actions):
            seat = self.state.to_act()
            if seat < 0 or (until == "hand" and len(self.replay.hands) != hand):
                return
            bot = bots[seat] if isinstance(bots, Sequence) else bots
            self.apply(bot(self.state, seat))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the replay atomically (see :meth:`Replay.save`)."""
        self.replay.save(path)


def _named(err: CardlabError, hand: int | None, step: int | None,
           seat: str | None) -> IllegalActionError:
    """The engine's refusal of an action, naming where it was made: an illegal action as
    the rules said it, anything else as an action text that names no action."""
    if isinstance(err, IllegalActionError):
        return IllegalActionError(err.reason, hand=hand, step=step, seat=seat,
                                  action=err.action, rule=err.rule)
    return ActionTextError(str(err), hand=hand, step=step, seat=seat)


def new_game(game: str, players: int | None = None, seed: int | str | None = None,
             seats: Sequence[str] | None = None, meta: dict[str, Any] | None = None,
             **options: Any) -> Table:
    """Start recording a new game.

    >>> table = new_game("bobs-hat", players=3, seed=1)
    >>> table.seats, table.state.to_act()
    (['North', 'East', 'South'], 0)
    """
    if players is not None:
        options["players"] = players
    rules = get_game(game).rules(**options)
    names = list(seats) if seats is not None else default_seats(rules.players)
    replay = Replay(game=game, options=dict(rules.options), seats=names, seed=seed,
                    meta=dict(meta or {}))
    if len(names) != rules.players:
        raise OptionError(f"{rules.players} players need {rules.players} seat names, not "
                          f"{len(names)}: {names}")
    problem = seat_name_problem(names)
    if problem is not None:
        raise OptionError(f"seats: {problem[1]}")
    return Table(replay)


def check_note(note: Any) -> None:
    """Refuse a note a replay cannot hold: not text (or texts by language), too long for
    the default limits, or with a lone surrogate (which no file can hold)."""
    from .loader import LANGUAGE

    texts = [note] if isinstance(note, str) else list(note.values()) \
        if isinstance(note, dict) and note else None
    if texts is None or not all(isinstance(t, str) for t in texts) or (
            isinstance(note, dict) and not all(isinstance(k, str) and LANGUAGE.fullmatch(k)
                                               for k in note)):
        raise ReplayError('a note is a string, or texts by language code ({"en": "..."}), '
                          f"not {brief(note)}")
    for text in texts:
        problem = strictjson.lone_surrogate(text)
        if problem is not None:
            raise ReplayError(f"the note cannot be saved: {problem}")
        if len(text) > DEFAULT_LIMITS.max_note_chars:
            raise exceeded("max_note_chars", DEFAULT_LIMITS.max_note_chars,
                           f"the note has {len(text):,} characters")


def default_seats(players: int) -> list[str]:
    base = ["North", "East", "South", "West", "Ann", "Bea", "Cal", "Dee", "Eve", "Fay"]
    return base[:players]
