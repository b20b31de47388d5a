"""The exact open-hand solver: every legal card valued at the first play of a 4-player hand.

Targets (issue 22): the worst of 20 seeded deals, in CPU time, 8 cards each in at most 0.3 s
and 10 cards in at most 3 s, in both trick games. Each position is a seeded deal, the hat
and bids chosen by the seeded heuristic bots, then :func:`cardlab.advisor.solver.solve` for
the seat to lead, all hands known: every legal card gets its exact value (paranoid: the seat
against the other three), with no node budget. Where's Bob's Hat? deals 6, 8 and 10 cards
in its hands 2, 4 and 6 (its trump card is turned as dealt, gray included); Ted's Game is
started at that size. Each deal's time is the CPU time of the solve (``time.process_time``:
the 2 cores are shared, so wall time would measure the neighbours), the least of
``--repeats`` runs.

``--against DIR`` times another checkout of cardlab the same way in a child process (its
own compiled kernel: build it there first, e.g. ``python setup.py build_ext --inplace``),
size by size in turn with this one, and prints both side by side with the ratio.

    python benchmarks/solver.py                    # 6, 8 and 10 cards, 20 deals each
    python benchmarks/solver.py --quick            # 6 cards, 2 deals (checks the script runs)
    python benchmarks/solver.py 8 --deals 5        # one size, fewer deals
    python benchmarks/solver.py --against /tmp/main-checkout --repeats 3
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _timing import host_speed  # noqa: E402

import cardlab  # noqa: E402
from cardlab import solvekernel  # noqa: E402
from cardlab.advisor import solver  # noqa: E402
from cardlab.bots import make_bot  # noqa: E402
from cardlab.game import State  # noqa: E402

BOBS_HAND = {6: 2, 8: 4, 10: 6}  # Bob's Hat hand k deals 4 + k cards each
GAMES = ("bobs-hat", "teds-game")
TARGET = {8: 0.3, 10: 3.0}  # seconds, the worst deal


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


def measure(game: str, cards: int, deals: int, repeats: int) -> list[float]:
    """Each deal's CPU seconds to value every first card (the least of ``repeats`` runs)."""
    # a cardlab whose solve has a budget runs without one here; an older one has none
    unbounded = {"nodes": None} if "nodes" in inspect.signature(solver.solve).parameters \
        else {}
    times = []
    for seed in range(deals):
        state = position(game, cards, seed)
        best = float("inf")
        for _ in range(repeats):
            start = time.process_time()
            values = solver.solve(state, state.to_act(), **unbounded)
            best = min(best, time.process_time() - start)
        times.append(best)
        assert sorted(values) == sorted(state.legal_actions())
    return times


def line(game: str, cards: int, times: list[float]) -> str:
    return (f"median {statistics.median(times):7.3f} s, worst {max(times):7.3f} s over "
            f"{len(times)} deals")


def child(against: str, game: str, cards: int, deals: int, repeats: int) -> list[float]:
    """:func:`measure` in a child process on the checkout ``against``."""
    env = dict(os.environ, PYTHONPATH=against)
    here = str(Path(__file__).parent)
    code = (f"import sys, json; sys.path.insert(0, {here!r})\n"
            "import solver\n"
            f"print(json.dumps(solver.measure({game!r}, {cards}, {deals}, {repeats})))")
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=against, text=True,
                          capture_output=True, check=True)
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, help="cards each: 6, 8 or 10")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--against", help="another checkout of cardlab to time beside this one")
    args = parser.parse_args(argv)
    sizes = args.sizes or ([6] if args.quick else [6, 8, 10])
    deals = 2 if args.quick else args.deals
    print(host_speed())
    print(f"solver kernel: {'compiled (mypyc)' if solvekernel.COMPILED else 'plain Python'}; "
          f"CPU time of each solve, the least of {args.repeats} run(s)")
    for cards in sizes:
        for game in GAMES:
            if args.against:
                old = child(args.against, game, cards, deals, args.repeats)
            new = measure(game, cards, deals, args.repeats)
            target = f" (target: worst <= {TARGET[cards]} s)" if cards in TARGET else ""
            print(f"{game:9s} 4 players x {cards:2d} cards: {line(game, cards, new)}{target}")
            if args.against:
                print(f"{'':9s} {'against':>20s}: {line(game, cards, old)}; worst "
                      f"{max(old) / max(new):.1f}x, median "
                      f"{statistics.median(old) / statistics.median(new):.1f}x faster now")
            print(f"{'':9s} deals [{' '.join(f'{t:.2f}' for t in new)}]", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
