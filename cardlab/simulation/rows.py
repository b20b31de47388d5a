"""Playing a chunk of games and recording the tidy rows: one per (game, hand, seat).

Every value comes from the engine at the end of each hand (its bids, tricks won, cards taken,
``score_parts``, totals, winners), read by the game's own recorder
(:meth:`cardlab.game.Game.records`, in ``cardlab/games/<game>/records.py``); nothing here
restates a rule or names a game. The rows of a chunk are
built column by column in plain lists and turned into pyarrow tables once, so recording
costs a few list extensions per hand.

How a game is played (the same whatever process plays it):

- its seed is :meth:`Spec.game_seed`; the setup (the draw or cut for first dealer) and every
  deal are the seeded ones, as in ``cardlab play``;
- each seat's bot is :func:`cardlab.bots.make_bot` of its kind seeded ``"<game seed>/<seat>"``,
  as ``cardlab play --seed <game seed>`` seeds them, so such a game can be replayed alone;
- when every seat is a random bot, the game is played by the engine's fast path instead,
  ``State.random_playout``, with one generator for the table
  (``seeded_rng(game seed, "simulate-random")``); it makes the very choices a loop of
  ``legal_actions()[int(rand() * n)]`` makes (the conformance test checks);
- the whole game is one call, :meth:`cardlab.playout.Playout.play`: a trick game's hands are
  played by the compiled players a hand a kernel call, any other game's a step at a time;
  with ``--replays`` the same hands are played the same way, each action kept as the int
  the engine applied.

>>> from cardlab.simulation.spec import make_spec
>>> chunk = play_chunk(make_spec("teds-game", players=3, games=2, bots="random", seed=1,
...                              options={"start_size": 2}, chunk=2), 0)
>>> chunk.hands.num_rows, chunk.games.num_rows  # 2 games of 3 hands (2, 1, 2), 3 seats
(18, 6)
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import Any

from ..bots import Bot, kernel_players, make_bot
from ..cards import seeded_rng
from ..game import State
from ..playout import Playout
from ..records import HandRecorder
from ..replay import action_line, dumps, replay_data
from .schema import games_schema, hands_schema
from .spec import Spec

FAULT_ENV = "CARDLAB_SIMULATE_FAULT"  # test-only fault injection: see fault_setting


@dataclasses.dataclass
class Chunk:
    """The rows of one chunk of games, and their replays (name, JSON text) if asked for."""

    index: int
    first: int
    count: int
    hands: Any  # pyarrow.Table, hands_schema(game)
    games: Any  # pyarrow.Table, games_schema()
    replays: list[tuple[str, str]]
    hand_count: int


# -- playing -------------------------------------------------------------------------------

def fault_setting() -> str | None:
    """The test-only fault injection setting, ``CARDLAB_SIMULATE_FAULT=<marker file>:<chunk
    index>``, read by the process that runs the simulation and handed to the workers with
    each chunk (a pool's or a cluster's workers may have started with another environment).
    Only chunks played by a worker process (a pool's or dask's) take it."""
    return os.environ.get(FAULT_ENV) or None


def _maybe_fault(index: int, fault: str | None) -> None:
    """Die at once (``os._exit``) if ``fault`` names this chunk, the first time only: the
    marker file, created then, says it has happened, so the rerun plays normally. The
    marker ``-`` dies every time (a chunk that kills whatever runs it)."""
    if not fault:
        return
    marker, _, wanted = fault.rpartition(":")
    if wanted != str(index) or not marker:
        return
    if marker == "-":  # every time: a chunk that kills any worker it runs on
        os._exit(70)
    try:
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(fd)
    os._exit(70)


class _Recorder:
    """The replays of a chunk's games, written from what the engine did: each deal's
    seeded record, each action as the engine applied it (an int, checked by ``apply``),
    the hands' scores and the totals, the very values a :class:`~cardlab.table.Table`
    records, as :meth:`Replay.to_json` writes them. An action's text depends on the action
    alone (``State.action_text``), so each (seat, action) is written as a line once
    (:func:`~cardlab.replay.action_line`) and a hand's actions are their lines joined."""

    def __init__(self, spec: Spec, keep: Callable[[str, str], None] | None) -> None:
        self.spec = spec
        self.seats = list(spec.seats)
        self.lines: list[str | None] = []  # by action * players + seat: the action's line
        self.width = len(str(spec.games))  # game-0001.json: as many digits as the last game
        self.texts: list[tuple[str, str]] = []
        self.keep = keep or (lambda name, text: self.texts.append((name, text)))

    def game(self, game: int, seed: int, kinds: list[str], setup: Any, state: State,
             log: Playout, first: int, totals: list[int]) -> None:
        """Game ``game``'s replay: its hands are the log's from hand ``first`` on (their
        deals and actions, which are dropped once written)."""
        spec = self.spec
        n = len(self.seats)
        lines = self.lines

        def line(key: int) -> str:  # an action not written yet in this chunk
            action, seat = divmod(key, n)
            if key >= len(lines):
                lines.extend([None] * (key + 1 - len(lines)))
            text = lines[key] = action_line(self.seats[seat], state.action_text(action))
            return text

        hands = log.replay_hands(first, lines, line)
        meta = {"simulation": {"seed": spec.seed, "game": game, "bots": kinds}}
        text = dumps(replay_data(spec.game, dict(spec.options), self.seats, seed, meta, setup,
                                 hands, totals))
        self.keep(f"game-{game:0{self.width}d}.json", text)


class _RecorderLog(Playout):
    """A game's :class:`~cardlab.records.HandRecorder` read through the hooks of a
    :class:`~cardlab.playout.Playout` (a game whose compiled part has none of its own)."""

    def __init__(self, recorder: HandRecorder[Any]) -> None:
        super().__init__(recorder.players)
        self.recorder = recorder

    def size(self, table: Any) -> int:
        return self.recorder.hand_size(table)

    def dealer(self, table: Any) -> int:
        return self.recorder.dealer(table)

    def scores_of(self, table: Any) -> list[int]:
        return self.recorder.scores(table)

    def keep(self, table: Any) -> None:
        self.recorder.ended(table)


def play_chunk(spec: Spec, index: int, replays: bool = False, fault: str | None = None,
               keep: Callable[[str, str], None] | None = None) -> Chunk:
    """Play chunk ``index`` of ``spec.chunks()`` and return its rows (and replays).

    ``replays``: record each game, as ``(name, JSON text)`` in :attr:`Chunk.replays`, or,
    with ``keep``, handed to ``keep(name, text)`` as each game ends (a batch written as the
    chunk goes). ``fault``: the test-only fault injection (see :func:`fault_setting`)."""
    _maybe_fault(index, fault)
    first, count = spec.chunks()[index]
    rules = spec.rules()
    rec = rules.game.records().recorder(spec.players)  # what the game keeps of each hand
    # the hands as they are played, and what each gave: the game's compiled part's, or its
    # recorder's read through the same hooks
    log: Playout = rec.playout or _RecorderLog(rec)
    bot_names = sorted(set(spec.bots))
    recorder = _Recorder(spec, keep) if replays else None
    if recorder is not None:
        log.record()
    index_of = {name: i for i, name in enumerate(bot_names)}
    fresh = rules.new_state(recorder.seats) if recorder else rules.new_state()
    # per game
    g_seed: list[int] = []
    g_hands: list[int] = []
    g_actions: list[int] = []
    g_bot: list[int] = []
    g_total: list[int] = []
    g_winners: list[list[int]] = []
    for game in range(first, first + count):
        seed = spec.game_seed(game)
        kinds = spec.seat_bots(game)
        all_random = kinds.count("random") == len(kinds)
        state = fresh.clone()  # a new game's state (a copy costs less than a new one)
        # the draw or the cut for first dealer (and its record, for the replay)
        setup = log.setup(state, seed) if state.chance_kind() == "setup" else None
        bots: list[Bot] = [] if all_random else [
            make_bot(kind, spec.game, seed=f"{seed}/{s}") for s, kind in enumerate(kinds)]
        # the table's generator: only an all-random game draws from it (seeding one costs
        # more than a hand of the compiled bots' play)
        rand = seeded_rng(seed, "simulate-random").random if all_random else None
        # bots the kernel plays a whole hand with, in one call
        players = None if all_random else kernel_players(bots, state)
        hand0 = len(log.numbers)
        log.play(state, players, bots, seed, rand)
        g_seed.append(seed)
        g_hands.append(len(log.numbers) - hand0)
        g_actions.append(sum(log.actions[hand0:]))
        g_bot.extend([index_of[k] for k in kinds])
        final = state.totals()
        if final != log.running:  # the sheet's rows are the hands' scores in every game
            raise RuntimeError(f"game {game}: the hands' scores add up to {log.running}, the "
                               f"engine's totals are {final}")
        g_total.extend(final)
        g_winners.append(rules.winners(final))
        if recorder:
            recorder.game(game, seed, kinds, setup, state, log, hand0, final)
    hands_table = _hands_table(spec, bot_names, rec, log, first, g_hands, g_bot)
    games_table = _games_table(spec, bot_names, first, count, g_seed, g_hands, g_actions,
                               g_bot, g_total, g_winners)
    return Chunk(index, first, count, hands_table, games_table,
                 recorder.texts if recorder else [], len(log.numbers))


# -- the tables ----------------------------------------------------------------------------

def _hands_table(spec: Spec, bot_names: list[str], rec: HandRecorder[Any], log: Playout,
                 first: int, g_hands: list[int], g_bot: list[int]) -> Any:
    import numpy as np
    import pyarrow as pa

    n = spec.players
    nhands = len(log.numbers)
    count = len(g_hands)
    per_game = np.asarray(g_hands, dtype=np.int64)  # each game's hands
    seat_index = np.tile(np.arange(n, dtype=np.int8), nhands)
    dealer = np.repeat(np.asarray(log.dealers, dtype=np.int8), n)
    games = np.repeat(np.arange(first, first + count, dtype=np.int32), per_game)
    # each hand's seats' bots: their game's
    bots = np.repeat(np.asarray(g_bot, dtype=np.int8).reshape(count, n), per_game, axis=0)
    scores = np.asarray(log.scores, dtype=np.int64).reshape(nhands, n)
    # each seat's total after each hand: the running sums of its game's scores
    running = scores.cumsum(axis=0)
    starts = np.cumsum(per_game) - per_game  # each game's first hand
    before = np.concatenate([np.zeros((1, n), np.int64), running])[starts]
    totals = running - np.repeat(before, per_game, axis=0)
    cols: dict[str, Any] = {
        "game": np.repeat(games, n),
        "hand": np.repeat(np.asarray(log.numbers, dtype=np.int16), n),
        "seat": pa.DictionaryArray.from_arrays(pa.array(seat_index, pa.int8()),
                                               pa.array(list(spec.seats), pa.string())),
        "seat_index": seat_index,
        "bot": pa.DictionaryArray.from_arrays(pa.array(bots.reshape(-1), pa.int8()),
                                              pa.array(bot_names, pa.string())),
        "dealer": seat_index == dealer,
        "from_dealer": ((seat_index.astype(np.int16) - dealer) % n).astype(np.int8),
        "hand_size": np.repeat(np.asarray(log.sizes, dtype=np.int16), n),
        "actions": np.repeat(np.asarray(log.actions, dtype=np.int32), n),
        "score": scores.reshape(-1).astype(np.int32),
        "total": totals.reshape(-1).astype(np.int32),
    }
    cols.update(rec.build(seat_index, cols["dealer"]))
    schema = hands_schema(spec.game)
    return pa.table([pa.array(cols[f.name], f.type) if not isinstance(cols[f.name], pa.Array)
                     else cols[f.name].cast(f.type) for f in schema], schema=schema)


def _games_table(spec: Spec, bot_names: list[str], first: int, count: int,
                 g_seed: list[int], g_hands: list[int], g_actions: list[int],
                 g_bot: list[int], g_total: list[int], g_winners: list[list[int]]) -> Any:
    import numpy as np
    import pyarrow as pa

    n = spec.players
    seat_index = np.tile(np.arange(n, dtype=np.int8), count)
    winner = np.zeros(count * n, dtype=bool)
    share = np.zeros(count * n, dtype=np.float64)
    for g, seats in enumerate(g_winners):
        for s in seats:
            winner[g * n + s] = True
            share[g * n + s] = 1 / len(seats)
    cols: dict[str, Any] = {
        "game": np.repeat(np.arange(first, first + count, dtype=np.int32), n),
        "seed": np.repeat(np.asarray(g_seed, dtype=np.int64), n),
        "seat": pa.DictionaryArray.from_arrays(pa.array(seat_index, pa.int8()),
                                               pa.array(list(spec.seats), pa.string())),
        "seat_index": seat_index,
        "bot": pa.DictionaryArray.from_arrays(pa.array(g_bot, pa.int8()),
                                              pa.array(bot_names, pa.string())),
        "hands": np.repeat(np.asarray(g_hands, dtype=np.int16), n),
        "actions": np.repeat(np.asarray(g_actions, dtype=np.int32), n),
        "total": np.asarray(g_total, dtype=np.int32),
        "winner": winner,
        "share": share,
    }
    schema = games_schema()
    return pa.table([pa.array(cols[f.name], f.type) if not isinstance(cols[f.name], pa.Array)
                     else cols[f.name].cast(f.type) for f in schema], schema=schema)
