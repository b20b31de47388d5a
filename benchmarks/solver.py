"""The exact open-hand solver: every legal card valued at the first play of a 4-player hand.

Target (issue 11): a 4-player open-hand position with 6 cards each in < 1 s; 8 and 10 cards
reported. Each position is a seeded deal, the hat and bids chosen by the seeded heuristic bots,
then :func:`cardlab.advisor.solver.solve` for the seat to lead, all hands known: every legal
card gets its exact value (paranoid: the seat against the other three). Where's Bob's Hat?
deals 6, 8 and 10 cards in its hands 2, 4 and 6 (its trump card is turned as dealt, gray
included); Ted's Game is started at that size.

    python benchmarks/solver.py            # 6 and 8 cards, 5 deals each; 10 cards, 2 deals
    python benchmarks/solver.py --quick    # 6 cards, 2 deals (checks the script runs)
    python benchmarks/solver.py 10         # one size only
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _timing import host_speed  # noqa: E402

import cardlab  # noqa: E402
from cardlab import solvekernel  # noqa: E402
from cardlab.advisor.solver import solve  # noqa: E402
from cardlab.bots import make_bot  # noqa: E402
from cardlab.game import State  # noqa: E402

BOBS_HAND = {6: 2, 8: 4, 10: 6}  # Bob's Hat hand k deals 4 + k cards each


def position(game: str, cards: int, seed: int) -> State:
    """The first play of a seeded 4-player hand of ``cards`` cards each, bids by the bots."""
    if game == "bobs-hat":
        state = cardlab.get_game(game).rules(players=4).new_state()
        state.skip_to_hand(BOBS_HAND[cards])  # type: ignore[attr-defined]
        state.deal_seeded(seed)  # type: ignore[attr-defined]
    else:
        state = cardlab.new_game(game, players=4, seed=seed, start_size=cards).state
    bots = [make_bot("heuristic", game, seed=seed * 10 + s) for s in range(4)]
    while state.phase != "play":  # type: ignore[attr-defined]
        seat = state.to_act()
        state.apply(bots[seat](state, seat))
    return state


def measure(game: str, cards: int, deals: int) -> list[float]:
    times = []
    for seed in range(deals):
        state = position(game, cards, seed)
        start = time.perf_counter()
        values = solve(state, state.to_act())
        times.append(time.perf_counter() - start)
        assert sorted(values) == sorted(state.legal_actions())
    return times


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    plan = [(6, 2)] if quick else [(6, 5), (8, 5), (10, 2)]
    sizes = [int(arg) for arg in argv if arg.isdigit()]
    if sizes:
        plan = [(cards, deals) for cards, deals in plan if cards in sizes]
    print(host_speed())
    print(f"solver kernel: {'compiled (mypyc)' if solvekernel.COMPILED else 'plain Python'}")
    for cards, deals in plan:
        for game in ("bobs-hat", "teds-game"):
            times = measure(game, cards, deals)
            print(f"{game:9s} 4 players x {cards:2d} cards, every first card valued: median "
                  f"{statistics.median(times):7.3f} s, max {max(times):7.3f} s over {deals} "
                  f"deals  [{' '.join(f'{t:.2f}' for t in times)}]", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
