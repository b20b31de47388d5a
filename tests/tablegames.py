"""Games recorded as a table records them, shared by the tests of the seat views and the text
view: bots play, and now and then a player puts down a card against the rules (a renege, and
in Bob's Hat the redeal it brings; a Whot misplay shown and taken back)."""

from __future__ import annotations

import random
from typing import Any

import cardlab
from cardlab.bots import make_bot
from cardlab.kernel import PLAY


def table_mode_game(game: str, options: dict[str, Any], seed: int,
                    misplay_rate: float) -> cardlab.Replay:
    """A seeded game in ``mode="table"``; at a play, with probability ``misplay_rate``, the
    player to act plays a card the rules forbid there instead of the bot's choice."""
    table = cardlab.new_game(game, seed=seed, mode="table", **options)
    rng = random.Random(seed)
    bots = [make_bot("random", game, seed=seed * 10 + s)
            for s in range(table.state.rules.players)]
    for _ in range(20_000):
        seat = table.state.to_act()
        if seat < 0:
            break
        legal = table.state.legal_texts()
        pos = table.state.snapshot()
        off = [f"play {c}" for c in pos["hands"][seat] or [] if f"play {c}" not in legal
               and "whot" not in c and any(t.startswith("play ") for t in legal)]
        if off and pos["phase"] == "play" and rng.random() < misplay_rate:
            table.act(rng.choice(off))
        else:
            table.apply(bots[seat](table.state, seat))
    return table.replay


def after_a_renege(game: str, players: int, seeds: range) -> cardlab.Table:
    """A game in ``mode="table"`` just after a renege: heuristic bots play until a trick is
    under way where the player to act holds the suit led and another card, and that player
    puts down the other card. The first of ``seeds`` where that happens."""
    for seed in seeds:
        table = cardlab.new_game(game, players=players, seed=seed, mode="table")
        bots = [make_bot("heuristic", game, s) for s in range(players)]
        while table.state.phase != "play" or not table.state.trick:
            state = table.state
            table.apply(bots[state.to_act()](state, state.to_act()))
        state = table.state
        held = state.hands[state.turn]
        off = [c for s, cards in enumerate(held) if s != state.led for c in cards]
        if held[state.led] and off:
            table.act(state.action_text(off[0]))
            return table
    raise AssertionError("no position to renege in")


def bid_at_random(state: Any, rng: random.Random) -> None:
    """A trick game's bids (and Bob's Hat's hat) made at random, up to the first card."""
    while state.phase is not PLAY:
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
