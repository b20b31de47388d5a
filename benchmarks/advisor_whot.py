"""Whot's blind sampler and the advisor on a Whot decision.

What is measured:

- the sampler: building a ``WhotSampler`` from a seat's view (it replays the game's actions
  once) and drawing samples from it, at a mid-game decision of a 4-player classic Whot game
  (heuristic bots, seed 7) and at a crowded 8-player one-pack decision where players have
  passed (layouts that contradict a pass are drawn again);
- the whole ``cardlab.advisor.evaluate`` of that 4-player decision: ``--rollouts`` samples,
  each legal action played on each and the game played out (heuristic and random bots,
  the simulation options' safety cap).

Each figure is the best of ``--repeats`` runs (the host may be busy). Run from the repository
root:

    .venv/bin/python benchmarks/advisor_whot.py [--rollouts 1000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import rate  # noqa: E402

import cardlab  # noqa: E402
from cardlab.advisor import evaluate  # noqa: E402
from cardlab.advisor.sample import SeatView, seat_view  # noqa: E402
from cardlab.bots import make_bot  # noqa: E402
from cardlab.games.whot import WhotRules  # noqa: E402
from cardlab.games.whot.sampler import WhotSampler  # noqa: E402


def decision(players: int, seed: int, bot: str, want: str, **options: object
             ) -> tuple[cardlab.Replay, int, SeatView]:
    """Play a seeded game until ``want`` holds: "mid" (a play or a draw, 12 actions in) or
    "passed" (just after the game's first pass); the replay, the index and the view."""
    table = cardlab.new_game("whot", players=players, seed=seed, rubber="single",
                             **WhotRules.SIMULATION_OPTIONS, **options)
    state = table.state
    bots = [make_bot(bot, "whot", seed=seed * 10 + s) for s in range(players)]
    actions: list[tuple[int, str]] = []
    while state.to_act() >= 0:
        legal = state.legal_texts()
        if want == "mid" and len(actions) >= 12 and "draw" in legal and len(legal) > 2:
            break
        if want == "passed" and actions and actions[-1][1] == "pass":
            break
        seat = state.to_act()
        text = state.action_text(bots[seat](state, seat))
        actions.append((seat, text))
        table.act(text)
    else:
        raise SystemExit(f"no such decision in the {players}-player game of seed {seed}")
    return table.replay, len(actions), seat_view(state, state.to_act(), actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    replay, index, view = decision(4, 7, "heuristic", "mid")
    crowded = None
    for seed in range(200):
        try:
            crowded = decision(8, seed, "random", "passed", packs=1)[2]
        except SystemExit:
            continue
        if len(WhotSampler(crowded).pool) >= 20:  # a pass while many cards are unseen
            break
    for name, v in (("4 players, mid-game", view), ("8 players, after a pass", crowded)):
        if v is None:
            continue
        built = rate(lambda i, v=v: (WhotSampler(v), 1)[1], args.seconds, args.repeats)
        sampler = WhotSampler(v)
        rng = random.Random(0)
        drawn = rate(lambda i, s=sampler, r=rng: (s.sample(r), 1)[1], args.seconds,
                     args.repeats)
        print(f"{name}: {len(v.actions)} actions, {len(sampler.pool)} unseen cards, "
              f"{len(sampler.voids)} passes shown; sampler built {built:,.0f}/s "
              f"({1000 / built:.2f} ms), samples {drawn:,.0f}/s")
    legal = len(view.position["legal"])
    for bot in ("heuristic", "random"):
        best = float("inf")
        for _ in range(args.repeats):
            gc.disable()
            start = time.perf_counter()
            evaluate(replay, 1, index, rollouts=args.rollouts, seed=1, bot=bot)
            best = min(best, time.perf_counter() - start)
            gc.enable()
        print(f"evaluate, {bot} bot: {args.rollouts} samples x {legal} legal actions in "
              f"{best:.2f} s ({1e6 * best / args.rollouts / legal:.0f} us per playout)")


if __name__ == "__main__":
    main()
