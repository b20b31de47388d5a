"""Ted's Game's random playout against a plain C reference that makes exactly its choices.

The reference is ``benchmarks/teds_playout.c``: a bit-mask playout in C, compiled here with
the system C compiler (``cc -O2 -march=native``) into a temporary folder and loaded with
ctypes. Given the same deal streams (the seeded deal's SHAKE-128 words, computed by Python,
as it may) and the same Mersenne Twister (Python's ``random.Random`` state), it deals, bids
(with the hook) and plays each hand as cardlab's ``random_playout`` does, and scores it.

1. The check: ``--check`` hands (default 3,000) of 5 players, 10 cards each, played by
   cardlab (a state after the draw for first dealer, cloned, ``deal_seeded(seed)``, then
   ``random_playout(rng.random)``, one generator for all the hands) and by the C program from
   the same streams and the same generator state: every bid and every card, every hand's
   scores and the generator's final state must be the same.
2. The race, in interleaved rounds (each about ``--slice`` seconds a side, alternating, so
   that load from elsewhere hits both alike): cardlab's loop as above (the clone, the seeded
   deal with its SHAKE-128 digest, the playout), and C's loop over precomputed streams (no
   digest). Each round gives both a rate (hands per CPU second of this process); the script
   prints the medians over ``--rounds`` rounds, the median of the rounds' ratios, and the
   load average. Target: cardlab within 8x of C.

Run from the repository root (the compiled kernel installed: ``make .venv/.stamp-test``):

    .venv/bin/python benchmarks/teds_vs_c.py [--rounds 15] [--slice 0.5] [--check 3000]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import kernel_kind, ratio_line, rounds_line  # noqa: E402

import cardlab  # noqa: E402
from cardlab.games.teds_game.engine import TedsGameState  # noqa: E402
from cardlab.kernel import seeded_stream  # noqa: E402

PLAYERS, SIZE = 5, 10
SOURCE = Path(__file__).with_name("teds_playout.c")
STREAMS = 4096  # distinct deals the C race cycles through


def build(folder: str) -> ctypes.CDLL:
    """The C reference compiled with the system compiler into ``folder``, loaded."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        sys.exit("no C compiler (cc) found: the reference playout is built with one")
    library = os.path.join(folder, "teds_playout.so")
    subprocess.run([compiler, "-O2", "-march=native", "-shared", "-fPIC", "-o", library,
                    str(SOURCE)], check=True)
    lib = ctypes.CDLL(library)
    lib.play_hands.restype = ctypes.c_long
    lib.play_hands.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                               ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32),
                               ctypes.POINTER(ctypes.c_int16), ctypes.POINTER(ctypes.c_int32)]
    return lib


def start_state() -> TedsGameState:
    """A 5-player game of 10 cards a hand after the draw for first dealer."""
    rules = cardlab.get_game("teds-game").rules(players=PLAYERS, start_size=SIZE)
    start = rules.new_state()
    assert isinstance(start, TedsGameState)
    start.apply_chance(start.seeded_chance(1))
    return start


def streams(seeds: range) -> bytes:
    """The seeded deals' streams of hand 1 for ``seeds``, one after another."""
    words = PLAYERS * SIZE + 1
    return b"".join(seeded_stream(seed, ("teds-game", 1), words) for seed in seeds)


def twister(rng: random.Random) -> ctypes.Array:
    """The generator's state as the C program reads it: 624 words and the index."""
    return (ctypes.c_uint32 * 625)(*rng.getstate()[1])


def cardlab_hands(start: TedsGameState, seeds: range, rng: random.Random
                  ) -> tuple[list[list[int]], list[list[int]]]:
    """Each hand's actions (bids in bidding order, then cards in play order) and scores."""
    actions, scores = [], []
    for seed in seeds:
        state = start.clone()
        state.deal_seeded(seed)
        state.random_playout(rng.random)
        order = [(state.dealer + 1 + k) % PLAYERS for k in range(PLAYERS)]
        actions.append([100 + state.bids[seat] for seat in order] + list(state.played))
        scores.append(list(state.sheet[-1]))
    return actions, scores


def check(lib: ctypes.CDLL, start: TedsGameState, hands: int) -> None:
    """cardlab and C make the same choices, hand for hand, and end with the same state."""
    seeds = range(hands)
    rng = random.Random(2024)
    state = twister(rng)
    ours, our_scores = cardlab_hands(start, seeds, rng)
    per_hand = PLAYERS + PLAYERS * SIZE
    actions = (ctypes.c_int16 * (hands * per_hand))()
    scores = (ctypes.c_int32 * (hands * PLAYERS))()
    lib.play_hands(hands, PLAYERS, SIZE, start.first_dealer, streams(seeds), state, actions,
                   scores)
    for h in range(hands):
        theirs = list(actions[h * per_hand:(h + 1) * per_hand])
        assert theirs == ours[h], f"hand {h}: C played {theirs}, cardlab {ours[h]}"
        assert list(scores[h * PLAYERS:(h + 1) * PLAYERS]) == our_scores[h], f"hand {h}"
    assert list(state) == list(rng.getstate()[1]), "the generators ended apart"
    print(f"check: {hands:,} hands, {hands * per_hand:,} choices, the same in C and cardlab "
          "(and the scores, and the generator's final state)")


def cardlab_slice(start: TedsGameState, rng: random.Random, seconds: float, first: int
                  ) -> tuple[int, float]:
    """Hands played by cardlab's loop in about ``seconds``; and the CPU seconds taken."""
    rand = rng.random
    hands = 0
    cpu = time.process_time()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(100):
            state = start.clone()
            state.deal_seeded(first + hands)
            state.random_playout(rand)
            hands += 1
    return hands, time.process_time() - cpu


def c_slice(lib: ctypes.CDLL, start: TedsGameState, data: bytes, state: ctypes.Array,
            seconds: float) -> tuple[int, float]:
    """Hands played by the C loop in about ``seconds``; and the CPU seconds taken."""
    hands = 0
    cpu = time.process_time()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        lib.play_hands(STREAMS, PLAYERS, SIZE, start.first_dealer, data, state, None, None)
        hands += STREAMS
    return hands, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds (15)")
    parser.add_argument("--slice", type=float, default=0.5, help="seconds a side a round")
    parser.add_argument("--check", type=int, default=3000, help="hands checked (3,000)")
    args = parser.parse_args()
    print(kernel_kind())
    start = start_state()
    with tempfile.TemporaryDirectory() as folder:
        lib = build(folder)
        check(lib, start, args.check)
        data = streams(range(STREAMS))
        state = twister(random.Random(1))
        rng = random.Random(1)
        for _ in range(3):  # warm up both sides, untimed
            cardlab_slice(start, rng, 0.05, 0)
            c_slice(lib, start, data, state, 0.05)
        ours, theirs, ratios = [], [], []
        done = 0
        for _ in range(args.rounds):
            hands, cpu = cardlab_slice(start, rng, args.slice, done)
            done += hands
            ours.append(hands / cpu)
            hands, cpu = c_slice(lib, start, data, state, args.slice)
            theirs.append(hands / cpu)
            ratios.append(theirs[-1] / ours[-1])
    print(rounds_line(args.rounds, args.slice))
    print(f"  C reference (deal from the stream, bids, play, score): median "
          f"{statistics.median(theirs):12,.0f} hands/s "
          f"({1e9 / statistics.median(theirs):6.0f} ns a hand)")
    print(f"  cardlab clone + deal_seeded + random_playout:         median "
          f"{statistics.median(ours):12,.0f} hands/s "
          f"({1e9 / statistics.median(ours):6.0f} ns a hand)")
    ratio = statistics.median(ratios)
    print(ratio_line("C / cardlab", ratios, "<= 8", ratio <= 8))


if __name__ == "__main__":
    main()
