"""A cursor that steps forward and back through a replay, giving the whole position.

Steps run over the main line across every hand: step 0 of a hand is the position just after
its deal, step *k* the position after its *k*-th action. A cursor can also follow one
variation line of one hand (the steps of that hand up to the branch, then the variation).

Positions are derived by replaying from the hand's deal; the state at each deal is cached,
so any step costs at most one hand's worth of actions.

>>> import cardlab
>>> replay = cardlab.load("replays/norwegian-review.json")
>>> cur = Cursor(replay)
>>> cur.goto_trick(hand=1, trick=1).position["trick"]["cards"][0]
[0, 'blue20']
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .errors import CardlabError
from .game import State
from .replay import Action, LinePath, Replay


@dataclasses.dataclass(frozen=True)
class Step:
    """Where a step is: hand (0-based index into ``replay.hands``) and actions applied."""

    hand: int
    index: int  # 0 = just dealt; k = after the k-th action of the line


class Cursor:
    """Steps through the main line of a replay, or one variation of one hand."""

    def __init__(self, replay: Replay, hand: int | None = None, path: LinePath = (),
                 seat: int | None = None) -> None:
        if path and hand is None:
            raise CardlabError("a variation path belongs to one hand: give hand=")
        self.replay = replay
        self.path = path
        self.seat = seat  # None: see every hand; else that seat's view only
        self.hands = range(len(replay.hands)) if hand is None else range(hand, hand + 1)
        self._lines = {h: replay.line(h, path if h == hand else ()) for h in self.hands}
        self.steps = [Step(h, i) for h in self.hands for i in range(len(self._lines[h]) + 1)]
        self._deal_states: dict[int, State] = {}
        self._index = 0
        self._state: State | None = None

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
        self._state = None
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
        """The step number of (1-based ``hand``, actions applied)."""
        try:
            return self.steps.index(Step(hand - 1, index))
        except ValueError:
            raise CardlabError(f"hand {hand} has no step {index} in this line") from None

    def goto_hand(self, hand: int) -> Cursor:
        """Jump to just after the deal of 1-based ``hand``."""
        return self.goto(self.find(hand, 0))

    def goto_trick(self, hand: int, trick: int) -> Cursor:
        """Jump to the first card of trick ``trick`` (1-based) of ``hand``."""
        for i, step in enumerate(self.steps):
            if step.hand == hand - 1 and step.index > 0:
                self.goto(i)
                pos = self.position
                done = len(pos.get("tricks", []))
                if done == trick - 1 and pos.get("trick", {}).get("cards"):
                    return self
        raise CardlabError(f"hand {hand} has no trick {trick} in this line")

    # -- what is there ---------------------------------------------------------------------
    @property
    def step(self) -> Step:
        return self.steps[self._index]

    @property
    def line(self) -> list[Action]:
        return self._lines[self.step.hand]

    @property
    def action(self) -> Action | None:
        """The action that led to this step (None just after a deal)."""
        step = self.step
        return self.line[step.index - 1] if step.index else None

    @property
    def state(self) -> State:
        """The engine state at this step (a private copy: do not keep it across moves)."""
        if self._state is None:
            step = self.step
            state = self._deal_state(step.hand).clone()
            for action in self.line[: step.index]:
                state.act(action.act)
            self._state = state
        return self._state

    def _deal_state(self, hand: int) -> State:
        """The state just after the deal of ``hand``, built from the nearest cached hand."""
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
        """The whole position (or one seat's view), plus the step's action and notes."""
        pos = self.state.snapshot(self.seat)
        step = self.step
        action = self.action
        record = self.replay.hands[step.hand]
        pos["step"] = self._index
        pos["hand_index"] = step.hand
        pos["action_index"] = step.index
        pos["action"] = None if action is None else {"seat": action.seat, "act": action.act}
        note = record.note if action is None else action.note
        pos["note"] = note
        pos["seats"] = list(self.replay.seats)
        pos["variations"] = (
            [[a.act for a in line] for line in self.line[step.index].variations]
            if step.index < len(self.line) else [])
        return pos

    def note(self, lang: str = "en") -> str | None:
        """The note of this step in ``lang`` (a plain string note is returned as is)."""
        note = self.position["note"]
        if note is None or isinstance(note, str):
            return note
        return note.get(lang) or next(iter(note.values()))
