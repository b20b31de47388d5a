"""A cursor that steps forward and back through a replay, giving the whole position.

Steps run over the main line across every hand: step 0 of a hand is the position just after
its deal, step *k* the position after its *k*-th action. A cursor can also follow one
variation line of one hand (the steps of that hand up to the branch, then the variation).
Hands are counted from 1, as everywhere in cardlab's API (``Cursor(replay, hand=2)``).

The cursor keeps the state of the step it stands on: stepping forward applies one action
(or deals the next hand), so walking a whole line costs one pass. Stepping back or jumping
replays from the nearest cached deal, so any step costs at most one hand's worth of actions.

With ``seat``, every position is that seat's view (:mod:`cardlab.seatview`): other hands,
hidden choices and secret bids are left out, and the step's action reads as that seat saw it.

>>> import cardlab
>>> replay = cardlab.example("norwegian-review")
>>> cur = Cursor(replay)
>>> cur.goto_trick(hand=1, trick=1).position["trick"]["cards"][0]
[0, 'blue20']
>>> cur.step
Step(hand=1, index=6)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from .errors import CardlabError
from .game import State
from .replay import Action, LinePath, Replay, index_of_hand
from .seatview import seat_position, visible_action, visible_note, visible_variations


@dataclasses.dataclass(frozen=True)
class Step:
    """Where a step is: ``hand`` (counted from 1: hand 1 is ``replay.hands[0]``) and
    ``index``, the actions of the line applied (0 = just dealt)."""

    hand: int
    index: int


def position_at(replay: Replay, state: State, hand_index: int, line: list[Action], index: int,
                step: int, seat: int | None = None) -> dict[str, Any]:
    """The position dict of one step: ``state`` after ``index`` actions of ``line`` in
    ``replay.hands[hand_index]``, seen by ``seat`` (``None``: everyone), with the step
    number, the action that led to it (as ``seat`` reads it), its notes and variations.

    The one place a position is assembled (:class:`Cursor` and :mod:`cardlab.dataframes` use it).
    """
    pos = seat_position(state, seat)
    action = line[index - 1] if index else None
    seats = replay.seats
    pos["step"] = step
    pos["hand_index"] = hand_index  # 0-based index into replay.hands; hand_index + 1 counts
    pos["action_index"] = index
    if action is None:
        pos["action"] = None
    else:
        actor = seats.index(action.seat)
        pos["action"] = {"seat": action.seat,
                         "act": visible_action(state, actor, action.act, seat)}
    note = replay.hands[hand_index].note if action is None else action.note
    pos["note"] = visible_note(state, note, seat)
    pos["seats"] = list(seats)
    pos["variations"] = (
        visible_variations(state, [[(seats.index(a.seat), a.act) for a in var]
                                   for var in line[index].variations], seat)
        if index < len(line) else [])
    return pos


def walk(replay: Replay) -> Iterator[tuple[int, int, int, State]]:
    """The main line of every hand, forward, once: ``(step, hand_index, index, state)`` for
    each step, numbered as :class:`Cursor` numbers them, ``hand_index`` 0-based into
    ``replay.hands`` and ``state`` after ``index`` actions of that hand.

    One state is moved on in place (each action applied once, no clone): read it before
    the next step, or ``clone()`` it to keep it. For a whole-replay pass such as
    :func:`cardlab.text.render`, which needs no position at most steps.

    >>> import cardlab
    >>> review = cardlab.example("norwegian-review")
    >>> [(step, hand, index) for step, hand, index, _ in walk(review)][:3]
    [(0, 0, 0), (1, 0, 1), (2, 0, 2)]
    """
    if not replay.hands:
        return
    state = replay.new_state()
    step = 0
    for hand_index, hand in enumerate(replay.hands):
        state.apply_chance(hand.deal)
        yield step, hand_index, 0, state
        act = state.act
        for index, action in enumerate(hand.actions, 1):
            act(action.act)
            yield step + index, hand_index, index, state
        step += len(hand.actions) + 1


class Cursor:
    """Steps through the main line of a replay, or one variation of one hand.

    ``hand`` (counted from 1) limits the cursor to one hand, ``path`` picks a variation line
    of that hand, ``seat`` (an int) shows only what that seat sees.
    """

    def __init__(self, replay: Replay, hand: int | None = None, path: LinePath = (),
                 seat: int | None = None) -> None:
        if path and hand is None:
            raise CardlabError("a variation path belongs to one hand: give hand=")
        count = len(replay.hands)
        if hand is not None:
            index_of_hand(replay, hand)  # hands count from 1: a CardlabError names the range
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < len(replay.seats)):
            raise CardlabError(f"seat is a number from 0 to {len(replay.seats) - 1} "
                               f"({', '.join(replay.seats)}), not {seat!r}")
        self.replay = replay
        self.path = path
        self.seat = seat  # None: see every hand; else that seat's view only
        indices = range(count) if hand is None else range(hand - 1, hand)
        self.hands = range(indices.start + 1, indices.stop + 1)  # hand numbers, from 1
        self._lines = {h: replay.line(h + 1, path if h + 1 == hand else ()) for h in indices}
        self.steps = [Step(h + 1, i) for h in indices for i in range(len(self._lines[h]) + 1)]
        self._deal_states: dict[int, State] = {}
        self._index = 0
        self._state: State | None = None  # the state of step self._at, kept between moves
        self._at = -1

    # -- moving --------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.steps)

    @property
    def index(self) -> int:
        return self._index

    def goto(self, index: int) -> Cursor:
        if not 0 <= index < len(self.steps):
            raise CardlabError(f"step {index} is outside 0..{len(self.steps) - 1}")
        self._index = index
        return self

    def next(self) -> Cursor:
        return self.goto(min(self._index + 1, len(self.steps) - 1))

    def prev(self) -> Cursor:
        return self.goto(max(self._index - 1, 0))

    def first(self) -> Cursor:
        return self.goto(0)

    def last(self) -> Cursor:
        return self.goto(len(self.steps) - 1)

    def find(self, hand: int, index: int = 0) -> int:
        """The step number of (``hand`` counted from 1, actions applied)."""
        first = self._first_step(hand)
        if first is None or not 0 <= index < len(self._lines[hand - 1]) + 1:
            raise CardlabError(f"hand {hand} has no step {index} in this line")
        return first + index

    def _first_step(self, hand: int) -> int | None:
        index_of_hand(self.replay, hand)  # hands count from 1: 0, a bool... are refused
        if hand not in self.hands:
            return None
        return sum(len(self._lines[h - 1]) + 1 for h in range(self.hands.start, hand))

    def goto_hand(self, hand: int) -> Cursor:
        """Jump to just after the deal of ``hand`` (counted from 1)."""
        return self.goto(self.find(hand, 0))

    def goto_trick(self, hand: int, trick: int) -> Cursor:
        """Jump to the first card of trick ``trick`` of ``hand`` (both counted from 1)."""
        first = self._first_step(hand)
        if first is not None:
            for i in range(first + 1, first + len(self._lines[hand - 1]) + 1):
                pos = self.goto(i).state.snapshot()
                done = len(pos.get("tricks", []))
                if done == trick - 1 and pos.get("trick", {}).get("cards"):
                    return self
                if done >= trick:
                    break
        raise CardlabError(f"hand {hand} has no trick {trick} in this line")

    # -- what is there ---------------------------------------------------------------------
    @property
    def step(self) -> Step:
        return self.steps[self._index]

    @property
    def line(self) -> list[Action]:
        return self._lines[self.step.hand - 1]

    @property
    def action(self) -> Action | None:
        """The action that led to this step (None just after a deal), as recorded."""
        step = self.step
        return self.line[step.index - 1] if step.index else None

    @property
    def state(self) -> State:
        """The engine state at this step. The cursor keeps it and moves it on when it steps
        forward: read it, or ``clone()`` it to keep it or to change it."""
        if self._state is not None and self._at == self._index:
            return self._state
        target = self.steps[self._index]
        state = self._state
        if state is not None and 0 <= self._at < self._index:
            here = self.steps[self._at]
            if here.hand == target.hand:  # forward in the same hand: the actions between
                for action in self._lines[target.hand - 1][here.index:target.index]:
                    state.act(action.act)
                self._at = self._index
                return state
            if (here.hand + 1 == target.hand and not self.path
                    and here.index == len(self._lines[here.hand - 1])):
                # from the end of a hand's main line on to the next deal
                state.apply_chance(self.replay.hands[target.hand - 1].deal)
                if target.hand - 1 not in self._deal_states:
                    self._deal_states[target.hand - 1] = state.clone()
                for action in self._lines[target.hand - 1][:target.index]:
                    state.act(action.act)
                self._at = self._index
                return state
        state = self._deal_state(target.hand - 1).clone()
        for action in self._lines[target.hand - 1][:target.index]:
            state.act(action.act)
        self._state, self._at = state, self._index
        return state

    def _deal_state(self, hand: int) -> State:
        """The state just after the deal of ``replay.hands[hand]``, from the nearest cache."""
        cache = self._deal_states
        if hand in cache:
            return cache[hand]
        earlier = [h for h in cache if h < hand]
        if earlier:
            start = max(earlier)
            state = cache[start].clone()
            for action in self.replay.hands[start].actions:  # main line between hands
                state.act(action.act)
            start += 1
        else:
            state, start = self.replay.new_state(), 0
        for h in range(start, hand + 1):
            state.apply_chance(self.replay.hands[h].deal)
            cache[h] = state.clone()
            if h < hand:
                for action in self.replay.hands[h].actions:
                    state.act(action.act)
        return cache[hand]

    @property
    def position(self) -> dict[str, Any]:
        """The whole position (or one seat's view), plus the step's action and notes.

        In a seat's view the action reads as that seat saw it at this step (``hat chosen``,
        ``bid (secret)``), and ``variations`` lists only each stored line's first action, as
        that seat may see it (:func:`cardlab.seatview.visible_variations`).
        """
        step = self.step
        return position_at(self.replay, self.state, step.hand - 1, self.line, step.index,
                           self._index, self.seat)

    def note(self, lang: str = "en") -> str | None:
        """The note of this step in ``lang`` (a plain string note is returned as is)."""
        note = self.position["note"]
        if note is None or isinstance(note, str):
            return note
        return note.get(lang) or next(iter(note.values()))
