"""Simulations with the heuristic bots against OpenSpiel's ``legal_actions`` loop.

- cardlab: what ``cardlab simulate teds-game --players 5 --bots heuristic`` runs in a worker,
  ``cardlab.simulation.rows.play_chunk`` (the seeded deals, the bots' every bid and card, the
  tidy rows built into pyarrow tables), on whole games (19 hands: 10, 9, ..., 1, ..., 10
  cards each). Each hand is played by the compiled heuristic players in one kernel call
  (``kernel.play_hand``).
- OpenSpiel: ``oh_hell`` with 5 players and 10 tricks, a random action of ``legal_actions()``
  at every node (chance nodes included), driven from Python, as in
  ``benchmarks/teds_vs_openspiel.py``.

``--game bobs-hat`` runs Where's Bob's Hat? (4 players, 10 hands of 5 to 14 cards) instead,
set against the same OpenSpiel hands (OpenSpiel has no Bob's Hat), per card played.

A cardlab game's hands are shorter than OpenSpiel's 10-card hands, so the two are compared
per card played: cardlab's cards a second over 50 (the cards of a 10-card hand of 5
players) is its rate in 10-card hands, the figure set against OpenSpiel's hands a second.
The sides alternate in interleaved rounds (about ``--slice`` seconds each), each rate per
CPU second of this process; the script prints the medians, the median of the rounds' ratios
and the load average. Target: cardlab >= 5x OpenSpiel. Run from the repository root:

    .venv/bin/python benchmarks/bots_vs_openspiel.py [--rounds 9] [--slice 1.0] [--game G]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import kernel_kind, ratio_line, rounds_line  # noqa: E402

from cardlab.simulation.rows import play_chunk  # noqa: E402
from cardlab.simulation.spec import make_spec  # noqa: E402

PLAYERS, TRICKS = 5, 10
CARDS_A_HAND = PLAYERS * TRICKS


# the cardlab game and its players (Ted's Game: 5, as OpenSpiel's hands)
GAMES = {"teds-game": 5, "bobs-hat": 4}


def cardlab_slice(seconds: float, first_seed: int, game: str = "teds-game"
                  ) -> tuple[int, int, float]:
    """Chunks of 20 games played as simulate plays them for about ``seconds``: the hands,
    the cards played and the CPU seconds taken."""
    hands = cards = 0
    seed = first_seed
    cpu = time.process_time()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        spec = make_spec(game, players=GAMES[game], games=20, bots="heuristic", seed=seed,
                         chunk=20)
        chunk = play_chunk(spec, 0)
        sizes = chunk.hands.column("hand_size").to_pylist()
        hands += chunk.hand_count
        cards += sum(sizes)  # one row a seat: each seat's cards
        seed += 1
    return hands, cards, time.process_time() - cpu


def openspiel_slice(game, rng: random.Random, seconds: float) -> tuple[int, float]:
    """Random oh_hell hands by the ``legal_actions`` loop for about ``seconds``."""
    rand = rng.random
    hands = 0
    cpu = time.process_time()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[int(rand() * len(actions))])
        hands += 1
    return hands, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds (9)")
    parser.add_argument("--slice", type=float, default=1.0, help="seconds a side a round")
    parser.add_argument("--game", choices=sorted(GAMES), default="teds-game",
                        help="the cardlab game (default teds-game)")
    args = parser.parse_args()
    try:
        import pyspiel
    except ImportError:
        sys.exit("OpenSpiel is not installed: pip install open-spiel (the [bench] extra)")
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_suits": 4,
                                         "num_cards_per_suit": 13, "num_tricks_fixed": TRICKS})
    print(kernel_kind())
    rng = random.Random(0)
    cardlab_slice(0.3, 10_000, args.game)  # warm up both sides, untimed
    openspiel_slice(game, rng, 0.3)
    ours, hands_rate, theirs, ratios, each = [], [], [], [], []
    seed = 0
    for _ in range(args.rounds):
        hands, cards, cpu = cardlab_slice(args.slice, seed, args.game)
        seed += 1000
        ours.append(cards / CARDS_A_HAND / cpu)
        hands_rate.append(hands / cpu)
        each.append(cards / hands / GAMES[args.game])
        done, cpu = openspiel_slice(game, rng, args.slice)
        theirs.append(done / cpu)
        ratios.append(ours[-1] / theirs[-1])
    print(rounds_line(args.rounds, args.slice))
    print(f"  OpenSpiel oh_hell, legal_actions loop, 10-card hands: median "
          f"{statistics.median(theirs):9,.0f} hands/s")
    print(f"  cardlab simulate {args.game}, heuristic bots, in 10-card hands: median "
          f"{statistics.median(ours):9,.0f} hands/s ({statistics.median(hands_rate):,.0f} of "
          f"its own hands, {statistics.mean(each):.1f} cards each on average)")
    ratio = statistics.median(ratios)
    print(ratio_line("cardlab / OpenSpiel", ratios, ">= 5", ratio >= 5))


if __name__ == "__main__":
    main()
