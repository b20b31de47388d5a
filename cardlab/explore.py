"""What if? Branch off a line at any step, let bots finish the hand, keep it as a variation.

At a step of a line (the main line, or a variation already stored), the player to act takes
any legal action instead of the one recorded; bots play the rest of the hand; the new line is
stored in the replay's tree with :meth:`cardlab.replay.Replay.add_variation` and saved with
the replay. :class:`Branch` then compares the hand's final scores along both lines.

"Follow the actual play until I deviate" is just this: step the main line, branch where you
like.

>>> import cardlab
>>> from cardlab.bots import make_bot
>>> table = cardlab.new_game("bobs-hat", players=4, seed=7, hands=1)
>>> table.play([make_bot("heuristic", "bobs-hat", seed=s) for s in range(4)])
>>> chosen = table.replay.hands[0].actions[0].act  # the dealer's choice of hat
>>> other = "hat -10" if chosen == "hat +10" else "hat +10"
>>> b = branch(table.replay, hand=1, index=0, action=other)
>>> b.actions[0].act == other, len(b.actions) == len(table.replay.hands[0].actions)
(True, True)
>>> line_state(table.replay, 1, b.path, 1).snapshot()["hat"]["value"] == int(other[4:]), b.path
(True, ((0, 0),))

Hands are counted from 1 here as everywhere in cardlab's API; ``index`` is the number of
actions of the line played before the branch (0: the branch replaces the first action).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from .bots import Bot, make_bot
from .errors import CardlabError, IllegalActionError, OptionError
from .game import State
from .replay import Action, LinePath, Replay, index_of_hand
from .words import plural

MAX_ACTIONS = 100_000


@dataclasses.dataclass
class Branch:
    """A variation that was played out: where it branches, its actions and both results.

    Its ``repr`` is one line in words (what a notebook cell ending in
    ``viewer.explore(...)`` shows): where it branches, what was played instead, and each
    seat's hand score along the line it branches off → along the variation.
    """

    hand: int  # counted from 1 (hand 1 is replay.hands[0])
    parent: LinePath  # the line it branches off
    index: int  # actions of the parent line applied before it branches
    path: LinePath  # where the variation is stored (give it to Cursor(hand=, path=))
    actions: list[Action]
    parent_scores: list[int] | None  # what the parent line's hand scored (None: unfinished)
    scores: list[int] | None  # what the variation's hand scores (None: it did not finish)
    seats: list[str]
    game: str = ""  # the game's name: its words for the cards and a hand

    def __repr__(self) -> str:
        if not self.game:  # made by hand, with no game to name the cards by
            return (f"<Branch hand {self.hand}, action {self.index + 1}: "
                    f"{plural(len(self.actions), 'action')}>")
        from .game import get_game
        from .view.wording import pretty, signed, variation_label

        first = self.actions[0]
        word = get_game(self.game).game_type.hand_word
        where = variation_label(word, self.hand, self.index, first.seat,
                                pretty(self.game, first.act), len(self.actions) - 1,
                                nested=len(self.path) > 1)
        if self.parent_scores is None or self.scores is None:
            return f"<Branch {where}; the {word} did not finish>"
        scores = ", ".join(f"{name} {signed(main)} → {signed(alt)}" for name, main, alt in
                           zip(self.seats, self.parent_scores, self.scores, strict=True))
        return f"<Branch {where}; {word} scores, line → variation: {scores}>"

    def compare(self) -> list[dict[str, Any]]:
        """One row per seat: the parent line's and the variation's hand score, and the change."""
        rows = []
        for s, name in enumerate(self.seats):
            main = None if self.parent_scores is None else self.parent_scores[s]
            alt = None if self.scores is None else self.scores[s]
            rows.append({"seat": name, "main": main, "variation": alt,
                         "change": None if main is None or alt is None else alt - main})
        return rows

    def frame(self) -> Any:
        """:meth:`compare` as a pandas DataFrame indexed by seat."""
        from .dataframes import require

        pd = require("pandas")
        return pd.DataFrame(self.compare()).set_index("seat")


def line_state(replay: Replay, hand: int, path: LinePath = (), index: int | None = None
               ) -> State:
    """The engine state of ``hand`` (counted from 1) along ``path`` after ``index`` actions
    (``None``: the whole line)."""
    h0 = index_of_hand(replay, hand)
    line = replay.line(hand, path)
    if index is None:
        index = len(line)
    if not 0 <= index <= len(line):
        raise CardlabError(f"the line of hand {hand} has steps 0 to {len(line)}, "
                           f"not {index}")
    state = replay.new_state()
    for h in range(h0):
        state.apply_chance(replay.hands[h].deal)
        for action in replay.hands[h].actions:
            state.act(action.act)
    state.apply_chance(replay.hands[h0].deal)
    for action in line[:index]:
        state.act(action.act)
    return state


def _hand_done(state: State) -> bool:
    return state.to_act() < 0


def _scores_if_done(state: State, before: list[int]) -> list[int] | None:
    if not _hand_done(state):
        return None
    return [a - b for a, b in zip(state.totals(), before, strict=True)]


def make_bots(replay: Replay, bots: str | Sequence[str | Bot] | Bot = "heuristic",
              seed: int | str = 0) -> list[Bot]:
    """One bot per seat from a kind (``"heuristic"``, ``"random"``), a list of kinds or bots,
    or one bot for every seat. A game without a heuristic bot gets random ones, said in the
    ``OptionError`` only when random was not acceptable."""
    n = len(replay.seats)
    if isinstance(bots, str) or callable(bots):
        bots = [bots] * n  # type: ignore[list-item]
    if len(bots) != n:  # type: ignore[arg-type]
        raise OptionError(f"{n} seats need {n} bots, not {len(bots)}")  # type: ignore[arg-type]
    out: list[Bot] = []
    for s, bot in enumerate(bots):  # type: ignore[arg-type]
        out.append(make_bot(bot, replay.game, seed=f"{seed}/{s}") if isinstance(bot, str)
                   else bot)
    return out


def branch(replay: Replay, hand: int, index: int, action: str,
           bots: str | Sequence[str | Bot] | Bot = "heuristic", seed: int | str = 0,
           path: LinePath = ()) -> Branch:
    """Play ``action`` instead of action ``index`` (0-based: after ``index`` actions) of
    ``hand`` (counted from 1) along ``path``; bots finish the hand; store it as a variation.

    ``action`` is readable text ("play black3", "bid 2"); an illegal one raises
    :class:`IllegalActionError` with the engine's reason. The replay is changed in place
    (save it to keep the variation). Branching the same way twice stores it once.
    """
    state = line_state(replay, hand, path, index)
    parent = replay.line(hand, path)
    seat = state.to_act()
    if seat < 0:
        raise IllegalActionError("nobody is to act here: the hand is over",
                                 hand=state.hand_number(), step=index + 1)
    if index >= len(parent):  # a variation replaces a recorded action
        raise CardlabError(f"the line of hand {hand} ends after {plural(len(parent), 'action')}; "
                           "there is no recorded action to replace here")
    before = _totals_at_deal(replay, hand)
    try:
        chosen = state.parse_action(action)
        text = state.action_text(chosen)
        seat = state.actor(chosen)  # usually the seat to act; Ted's bid change is another
        if index < len(parent) and parent[index].act == text:
            from .view.wording import pretty  # the action in words (the views' wording)

            raise CardlabError(f"{pretty(replay.game, text)} is what the line already plays "
                               "here; choose another action to branch")
        state.apply(chosen)  # the engine refuses an illegal action, with its reason
    except IllegalActionError as err:
        raise err.located(hand=state.hand_number(), step=index + 1,
                          seat=replay.seats[seat]) from None
    actions = [Action(replay.seats[seat], text)]
    players = make_bots(replay, bots, seed)
    for _ in range(MAX_ACTIONS):
        if _hand_done(state):
            break
        seat = state.to_act()
        move = players[seat](state, seat)
        actions.append(Action(replay.seats[seat], state.action_text(move)))
        state.apply(move)
    parent_end = line_state(replay, hand, path)
    new_path = replay.add_variation(hand, path, index, actions)
    return Branch(hand=hand, parent=path, index=index, path=new_path, actions=actions,
                  parent_scores=_scores_if_done(parent_end, before),
                  scores=_scores_if_done(state, before), seats=list(replay.seats),
                  game=replay.game)


def _totals_at_deal(replay: Replay, hand: int) -> list[int]:
    return line_state(replay, hand, (), 0).totals()


def compare(replay: Replay, hand: int, path: LinePath) -> Branch:
    """The :class:`Branch` of a stored variation of ``hand`` (counted from 1): its scores
    against its parent line's."""
    if not path:
        raise CardlabError("the main line is not a variation")
    parent = path[:-1]
    index = path[-1][0]
    line = replay.line(hand, path)
    before = _totals_at_deal(replay, hand)
    return Branch(hand=hand, parent=parent, index=index, path=path, actions=line[index:],
                  parent_scores=_scores_if_done(line_state(replay, hand, parent), before),
                  scores=_scores_if_done(line_state(replay, hand, path), before),
                  seats=list(replay.seats), game=replay.game)


def describe(replay: Replay, hand: int, path: LinePath) -> str:
    """A short label for a line of ``hand`` (counted from 1), as the viewer's line menu
    names it: "main line" or "hand 1, action 14, Remo: play red 7 (+11 more)"."""
    from .view.wording import pretty, variation_label  # the views' words

    if not path:
        return "main line"
    index = path[-1][0]
    line = replay.line(hand, path)
    word = replay.rules.game.game_type.hand_word  # a Whot rubber's hands are games
    return variation_label(word, hand, index, line[index].seat,
                           pretty(replay.game, line[index].act), len(line) - index - 1,
                           nested=len(path) > 1)


__all__ = ["Branch", "branch", "compare", "describe", "line_state", "make_bots"]
