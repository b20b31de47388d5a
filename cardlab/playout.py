"""Whole games played in the kernel, for simulations; compiled with mypyc in the kernel's library.

A simulation plays many games and keeps a few numbers of each hand
(:mod:`cardlab.simulation.rows`). :meth:`Playout.play` plays one game's hands, from the
first deal to the end of the game, in one call: each hand dealt from the game's seed, played
by the seats' bots (compiled players, :func:`~cardlab.kernel.play_hand`; the table's random
numbers, the state's ``random_playout``; or any bots, one step at a time), and what each hand
gave appended to plain lists. With a replay recorded it also keeps each hand's deal record
and every action, as the int the engine applied.

What a hand gave is the game's to say: a game's compiled part subclasses :class:`Playout`
(in ``cardlab/games/<game>/kernel.py``) and reads its own table's fields without a Python
frame; any other game's recorder is read through the same hooks from Python
(``cardlab.simulation.rows``).

The heuristic bots draw a random number only to break a rare tie, and seeding a generator
costs more than a hand of play: :class:`LazyRandom` makes its generator only when a number
is read, and :class:`Draws` hands out a number per choice, drawn only when read; the stream
moves on as if every number had been drawn.

>>> rng = seeded_rng(3, "x")
>>> numbers = [rng.random() for _ in range(4)]
>>> draws = Draws(LazyRandom(3, "x"), 3)
>>> draws.at(1) == numbers[1] and draws.at(0) == numbers[0]
True
>>> lazy = draws.rng
>>> draws.done()  # number 2 passed over: the stream moves on to number 3
>>> lazy.random() == numbers[3]
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mypy_extensions import i64, mypyc_attr

# absolute, as in solvekernel: tests load this source on its own beside the compiled module
from cardlab.cards import seeded_rng
from cardlab.kernel import OtherPhases, Player, play_hand
from cardlab.replaytext import hand_data


class LazyRandom:
    """``seeded_rng(seed, *keys)``, made when its first number is read, with the same numbers.

    :meth:`skip` passes over numbers without making the generator: they are drawn, and
    dropped, only if a later number is read.

    >>> LazyRandom(3, "x").random() == seeded_rng(3, "x").random()
    True
    >>> rng, made = LazyRandom(3, "x"), seeded_rng(3, "x")
    >>> rng.skip(2)  # no generator made yet
    >>> rng.random() == [made.random() for _ in range(3)][2]
    True
    """

    def __init__(self, seed: int | str, *keys: int | str) -> None:
        self.seed = seed
        self.keys = keys
        self.owed: i64 = 0  # numbers passed over before the generator was made
        self.made: Any = None

    def random(self) -> float:
        made = self.made
        if made is None:
            made = self.made = seeded_rng(self.seed, *self.keys)
            owed = self.owed
            while owed > 0:
                made.random()
                owed -= 1
        number: float = made.random()
        return number

    def skip(self, count: i64) -> None:
        """Pass over the next ``count`` numbers."""
        made = self.made
        if made is None:
            self.owed += count
            return
        while count > 0:
            made.random()
            count -= 1


class Draws:
    """A random number from ``rng`` for each of ``count`` choices, the stream's next numbers
    in the choices' order, each drawn only when :meth:`at` reads it; :meth:`done` passes over
    the rest (``rng.skip`` when ``rng`` has it, else drawing them), so the stream moves on
    exactly as if every number had been drawn."""

    def __init__(self, rng: Any, count: i64) -> None:
        self.rng = rng
        self.count = count
        self.drawn: list[float] = []

    def at(self, k: i64) -> float:
        """The number of choice ``k`` (from 0)."""
        drawn = self.drawn
        while len(drawn) <= k:
            number: float = self.rng.random()
            drawn.append(number)
        return drawn[k]

    def done(self) -> None:
        left: i64 = self.count - len(self.drawn)
        if left <= 0:
            return
        rng = self.rng
        if isinstance(rng, LazyRandom):
            rng.skip(left)
            return
        while left > 0:
            rng.random()
            left -= 1


@mypyc_attr(allow_interpreted_subclasses=True)
class Playout:
    """One chunk's hands as the kernel plays them, and what each gave, in plain lists.

    Per hand: ``numbers`` (the game's hand number), ``dealers``, ``sizes`` (cards dealt to
    each seat), ``actions`` (made in the hand, all seats); per hand and seat, in seat order,
    ``scores`` (what the hand added); ``running``, the game's totals so far. After
    :meth:`record`, also ``deals`` (each hand's deal record, what ``seeded_chance`` gives)
    and ``keys`` (every action, ``action * players + seat``).

    The game's hooks (:meth:`number`, :meth:`size`, :meth:`dealer`, :meth:`scores_of`,
    :meth:`keep`, and :meth:`over`, :meth:`deal`) read a state after the deal and at the end
    of each hand; a game's compiled part overrides them (or a recorder's adapter, in Python)
    and may give ``phases``, the :class:`~cardlab.kernel.OtherPhases` of its bids and score.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.numbers: list[int] = []
        self.dealers: list[int] = []
        self.sizes: list[int] = []
        self.actions: list[int] = []
        self.scores: list[int] = []
        self.running: list[int] = [0] * players  # this game's totals so far
        self.deals: list[Any] | None = None
        self.keys: list[int] | None = None
        self.scratch: list[int] = []  # a random hand's actions, counted, when none are kept
        self.phases: OtherPhases | None = None  # the game's bids and score, without Python

    def record(self) -> None:
        """Keep each hand's deal record and actions too (a replay's)."""
        self.deals = []
        self.keys = []

    # -- the game's hooks ------------------------------------------------------------------
    def over(self, table: Any) -> bool:
        """Whether the game is over."""
        done: bool = table.is_game_over()
        return done

    def deal(self, table: Any, seed: Any) -> None:
        """Deal the hand that is due from ``seed`` (and keep its record, when recording)."""
        deals = self.deals
        if deals is not None:
            deals.append(table.seeded_chance(seed))
        table.deal_seeded(seed)

    def setup(self, table: Any, seed: Any) -> Any:
        """Make the game's setup that is due (the draw or the cut for first dealer) from
        ``seed``; its record when recording, else None."""
        record = table.seeded_chance(seed) if self.deals is not None else None
        table.deal_seeded(seed)  # the record's state, without the round trip of card codes
        return record

    def keep_deal(self, table: Any) -> None:
        """When recording, keep the record of the deal ``table`` holds (a game whose state
        says it, ``dealt_record``, deals first and calls this: no copy of the state)."""
        deals = self.deals
        if deals is not None:
            deals.append(table.dealt_record())

    def number(self, table: Any) -> int:
        """The hand's number in the game."""
        number: int = table.hand_number()
        return number

    def size(self, table: Any) -> int:
        """Cards dealt to each seat in the hand just dealt."""
        raise NotImplementedError

    def dealer(self, table: Any) -> int:
        """Who dealt the hand that just ended."""
        raise NotImplementedError

    def scores_of(self, table: Any) -> list[int]:
        """What the hand that just ended added to each seat's total."""
        raise NotImplementedError

    def keep(self, table: Any) -> None:
        """Keep the game's own values of the hand that just ended."""
        raise NotImplementedError

    # -- the kernel's part -----------------------------------------------------------------
    def play(self, table: Any, players: list[Player] | None, bots: list[Any] | None,
             seed: Any, rand: Callable[[], float] | None) -> None:
        """Play the game's hands from the first deal to the end of the game.

        Each hand is played by ``players`` (compiled players on a trick table, a hand a
        kernel call), else by ``rand`` (the table's random numbers, ``random_playout``),
        else by ``bots`` (``bot(state, seat)``, then ``apply``, a step at a time).
        """
        n = self.players
        self.running = [0] * n
        while not self.over(table):
            self.deal(table, seed)
            self.sizes.append(self.size(table))
            if players is not None:
                count = play_hand(table, players, self.keys, self.phases)
            elif rand is not None:
                count = self._random_hand(table, rand)
            else:
                assert bots is not None
                count = self._stepwise(table, bots)
            self.ended(table, count)

    def _random_hand(self, table: Any, rand: Callable[[], float]) -> int:
        keys = self.keys
        made = keys if keys is not None else self.scratch
        before = len(made)
        table.random_playout(rand, made)
        count = len(made) - before
        if keys is None:
            made.clear()
        return count

    def _stepwise(self, table: Any, bots: list[Any]) -> int:
        n = self.players
        keys = self.keys
        count = 0
        while True:
            seat: int = table.to_act()
            if seat < 0:
                return count
            action: int = bots[seat](table, seat)
            table.apply(action)
            if keys is not None:
                keys.append(action * n + seat)
            count += 1

    def replay_hands(self, first: int, lines: list[str | None],
                     line: Callable[[int], str]) -> list[dict[str, Any]]:
        """The hands kept since :meth:`record`, from hand ``first`` of the lists on, as a
        replay file holds them (:func:`~cardlab.replaytext.hand_data`): each deal's record,
        its actions' lines joined (``lines[key]``, else ``line(key)``, which writes one
        there), its scores (a hand with no action has none). The kept deals and actions are
        dropped."""
        deals = self.deals
        keys = self.keys
        assert deals is not None and keys is not None
        n = self.players
        counts = self.actions
        scores = self.scores
        out: list[dict[str, Any]] = []
        at = 0
        hand = first
        for deal in deals:
            count = counts[hand]
            if count:
                texts: list[str] = []
                for k in range(at, at + count):
                    key = keys[k]
                    text = lines[key] if key < len(lines) else None
                    if text is None:
                        text = line(key)
                    texts.append(text)
                out.append(hand_data(deal, ",\n".join(texts), None,
                                     scores[hand * n:hand * n + n]))
            else:  # no action: no scores either, as a table's replay keeps such a hand
                out.append(hand_data(deal, [], None, None))
            at += count
            hand += 1
        deals.clear()
        keys.clear()
        return out

    def ended(self, table: Any, count: int) -> None:
        """The hand is over: keep its number, dealer, actions and scores, and add them up."""
        self.numbers.append(self.number(table))
        self.dealers.append(self.dealer(table))
        self.actions.append(count)
        scores = self.scores_of(table)
        running = self.running
        for seat in range(self.players):
            running[seat] += scores[seat]
        self.scores.extend(scores)
        self.keep(table)

