"""How `cardlab show` (text.render) and a seat's Cursor walk scale with the actions of a hand.

Before the cursor kept its state, every step replayed the hand from its deal, so a hand of
n actions cost n²/2 actions (2,000 actions took 3.3 s, 10,000 took 78 s). Now a walk applies
each action once: the time per action should stay flat as the hand grows.

Run: python benchmarks/show_long_hand.py
"""

from __future__ import annotations

import random
import time

import cardlab
from cardlab.cursor import Cursor


def long_whot_game(actions: int, seed: int = 1) -> cardlab.Replay:
    """A 2-player game of Whot that mostly draws, so one game (one hand) runs long."""
    table = cardlab.new_game("whot", players=2, seed=seed, rubber="single", max_turns=0)
    rng = random.Random(seed)
    while table.state.to_act() >= 0 and len(table.replay.hands[-1].actions) < actions:
        texts = table.state.legal_texts()
        table.act("draw" if "draw" in texts and rng.random() < 0.97 else rng.choice(texts))
    return table.replay


def best_of(work, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    for target in (500, 1000, 2000):
        replay = long_whot_game(target, seed=target)
        n = sum(len(hand.actions) for hand in replay.hands)
        show = best_of(lambda r=replay: cardlab.text.render(r))
        seat = best_of(lambda r=replay: cardlab.text.render(r, seat=1))

        def walk(r: cardlab.Replay = replay) -> None:
            cursor = Cursor(r, seat=0)
            for i in range(len(cursor)):
                cursor.goto(i).position  # noqa: B018

        cursor = best_of(walk)
        print(f"{n:6d} actions in one hand: show {show:6.3f} s ({show / n * 1e6:5.1f} µs/action), "
              f"show --seat {seat:6.3f} s, seat cursor walk {cursor:6.3f} s "
              f"({cursor / n * 1e6:5.1f} µs/action)")


if __name__ == "__main__":
    main()
