"""Random playouts of 4-player classic Whot games: games/s and actions/s on one core.

Not a test: run ``.venv/bin/python benchmarks/whot_playout.py [games] [players] [rules]``.
The loop is what a simulation does: legal actions, a uniformly random choice, apply; the
deal takes the seeded fast path (``deal_seeded``). The target is 250,000 actions/s.
"""

from __future__ import annotations

import random
import sys
import time

from cardlab.games.whot import WhotRules, WhotState


def playout(games: int, players: int = 4, rules: str = "classic") -> tuple[int, int, float]:
    """Play ``games`` one-game rubbers with a random policy; (games, actions, seconds)."""
    rule_set = WhotRules(players=players, rubber="single", rules=rules,
                         **WhotRules.SIMULATION_OPTIONS)  # the safety cap, as simulations
    rng = random.Random(1)
    rand = rng.random
    actions = 0
    setup = rule_set.new_state()
    assert isinstance(setup, WhotState)
    setup.apply_chance(setup.seeded_chance(0))
    start = time.perf_counter()
    for seed in range(games):
        state = setup.clone()
        state.deal_seeded(seed)
        legal_actions, apply = state.legal_actions, state.apply
        while state.turn >= 0:
            legal = legal_actions()
            apply(legal[int(rand() * len(legal))])
            actions += 1
    return games, actions, time.perf_counter() - start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    rules = sys.argv[3] if len(sys.argv) > 3 else "classic"
    playout(50, players, rules)  # warm up
    n, actions, seconds = playout(games, players, rules)
    print(f"whot {rules}, {players} players, random playouts: {n} games, {actions} actions in "
          f"{seconds:.2f} s: {n / seconds:,.0f} games/s, {actions / seconds:,.0f} actions/s "
          f"({actions / n:.0f} actions per game)")


if __name__ == "__main__":
    main()
