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
  (``seeded_rng(game seed, "simulate-random")``). With ``--replays`` the same choices are
  made step by step through the protocol, ``legal_actions()[int(rand() * n)]``, and
  recorded (the conformance test checks that the two make the very same choices).

>>> from cardlab.simulation.spec import make_spec
>>> chunk = play_chunk(make_spec("teds-game", players=3, games=2, bots="random", seed=1,
...                              options={"start_size": 2}, chunk=2), 0)
>>> chunk.hands.num_rows, chunk.games.num_rows  # 2 games of 3 hands (2, 1, 2), 3 seats
(18, 6)
"""

from __future__ import annotations

import dataclasses
import itertools
import operator
import os
from collections.abc import Callable
from typing import Any

from ..bots import Bot, kernel_players, make_bot
from ..cards import seeded_rng
from ..game import State
from ..kernel import play_hand
from ..records import HandRecorder
from ..replay import Replay
from ..table import Table
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

def _no_numbers() -> float:
    raise AssertionError("only a game of random bots draws the table's random numbers")


def _counting(rand: Callable[[], float]) -> tuple[Callable[[], float], Any]:
    """``rand`` with a count of its calls, all in C (no Python frame per call): the engine's
    playout calls it once per action, so the count is the number of actions played."""
    counter = itertools.count()
    counted = map(operator.itemgetter(0), zip(iter(rand, None), counter, strict=False))
    return counted.__next__, counter


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


def play_chunk(spec: Spec, index: int, replays: bool = False,
               fault: str | None = None) -> Chunk:
    """Play chunk ``index`` of ``spec.chunks()`` and return its rows (and replays).

    ``fault``: the test-only fault injection (see :func:`fault_setting`)."""
    _maybe_fault(index, fault)
    first, count = spec.chunks()[index]
    rules = spec.rules()
    n = spec.players
    rec = rules.game.records().recorder(n)  # what the game keeps of each hand
    bot_names = sorted(set(spec.bots))
    # per hand
    h_game: list[int] = []
    h_hand: list[int] = []
    h_dealer: list[int] = []
    h_size: list[int] = []
    h_actions: list[int] = []
    # per seat
    s_bot: list[int] = []
    s_score: list[int] = []
    s_total: list[int] = []
    # per game
    g_seed: list[int] = []
    g_hands: list[int] = []
    g_actions: list[int] = []
    g_bot: list[int] = []
    g_total: list[int] = []
    g_winners: list[list[int]] = []
    texts: list[tuple[str, str]] = []
    width = len(str(spec.games))
    for game in range(first, first + count):
        seed = spec.game_seed(game)
        kinds = spec.seat_bots(game)
        bot_index = [bot_names.index(k) for k in kinds]
        all_random = all(k == "random" for k in kinds)
        table: Table | None = None
        if replays:
            replay = Replay(game=spec.game, options=dict(spec.options), seats=list(spec.seats),
                            seed=seed, meta={"simulation": {
                                "seed": spec.seed, "game": game, "bots": kinds}})
            table = Table(replay, auto_deal=False)  # deals one by one: a hand's end is read
            state: State = table.state
        else:
            state = rules.new_state()
            if state.chance_kind() == "setup":
                state.apply_chance(state.seeded_chance(seed))
        bots: list[Bot] = [] if all_random else [
            make_bot(kind, spec.game, seed=f"{seed}/{s}") for s, kind in enumerate(kinds)]
        # bots the kernel plays a whole hand with, in one call (when not recording)
        players = None if all_random or table is not None else kernel_players(bots, state)
        # the table's generator: only an all-random game draws from it (seeding one costs
        # more than a hand of the compiled bots' play)
        rand = seeded_rng(seed, "simulate-random").random if all_random else _no_numbers
        counted, counter = _counting(rand)
        mark = next(counter)  # each next() takes a number too: actions = difference - 1
        before = [0] * n
        hands = actions = 0
        while not state.is_game_over():
            if table is not None:
                table.deal()
            else:
                state.deal_seeded(seed)
            size = rec.hand_size(state)
            played = 0
            if all_random and table is None:
                state.random_playout(counted)
                played = -mark
                mark = next(counter)
                played += mark - 1
            elif players is not None:
                played = play_hand(state, players)  # type: ignore[arg-type]  # a trick table
            else:
                legal = state.legal_actions
                to_act = state.to_act
                while (seat := to_act()) >= 0:
                    if all_random:
                        choices = legal()
                        action = choices[int(rand() * len(choices))]
                    else:
                        action = bots[seat](state, seat)
                    if table is not None:
                        table.apply(action)
                    else:
                        state.apply(action)
                    played += 1
            scores = rec.scores(state)
            totals = [a + b for a, b in zip(before, scores, strict=True)]
            hands += 1
            actions += played
            h_game.append(game)
            h_hand.append(state.hand_number())
            h_dealer.append(rec.dealer(state))
            h_size.append(size)
            h_actions.append(played)
            s_bot.extend(bot_index)
            s_score.extend(scores)
            s_total.extend(totals)
            rec.ended(state)
            before = totals
        g_seed.append(seed)
        g_hands.append(hands)
        g_actions.append(actions)
        g_bot.extend(bot_index)
        final = state.totals()
        if final != before:  # the sheet's rows are the hands' scores in every game
            raise RuntimeError(f"game {game}: the hands' scores add up to {before}, the "
                               f"engine's totals are {final}")
        g_total.extend(final)
        g_winners.append(rules.winners(final))
        if table is not None:
            texts.append((f"game-{game:0{width}d}.json", table.replay.to_json()))
    hands_table = _hands_table(spec, bot_names, rec, h_game, h_hand, h_dealer, h_size,
                               h_actions, s_bot, s_score, s_total)
    games_table = _games_table(spec, bot_names, first, count, g_seed, g_hands, g_actions,
                               g_bot, g_total, g_winners)
    return Chunk(index, first, count, hands_table, games_table, texts, len(h_game))


# -- the tables ----------------------------------------------------------------------------

def _hands_table(spec: Spec, bot_names: list[str], rec: HandRecorder[Any],
                 h_game: list[int], h_hand: list[int], h_dealer: list[int],
                 h_size: list[int], h_actions: list[int], s_bot: list[int],
                 s_score: list[int], s_total: list[int]) -> Any:
    import numpy as np
    import pyarrow as pa

    n = spec.players
    nhands = len(h_game)
    seat_index = np.tile(np.arange(n, dtype=np.int8), nhands)
    dealer = np.repeat(np.asarray(h_dealer, dtype=np.int8), n)
    cols: dict[str, Any] = {
        "game": np.repeat(np.asarray(h_game, dtype=np.int32), n),
        "hand": np.repeat(np.asarray(h_hand, dtype=np.int16), n),
        "seat": pa.DictionaryArray.from_arrays(pa.array(seat_index, pa.int8()),
                                               pa.array(list(spec.seats), pa.string())),
        "seat_index": seat_index,
        "bot": pa.DictionaryArray.from_arrays(pa.array(s_bot, pa.int8()),
                                              pa.array(bot_names, pa.string())),
        "dealer": seat_index == dealer,
        "from_dealer": ((seat_index.astype(np.int16) - dealer) % n).astype(np.int8),
        "hand_size": np.repeat(np.asarray(h_size, dtype=np.int16), n),
        "actions": np.repeat(np.asarray(h_actions, dtype=np.int32), n),
        "score": np.asarray(s_score, dtype=np.int32),
        "total": np.asarray(s_total, dtype=np.int32),
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
