"""Speed race: random hands of Ted's Game against OpenSpiel's ``oh_hell``, and state clones.

Both sides do the same work per hand, driven from Python: a 5-player deal of 10 cards each,
the trump card, 5 bids (with the dealer's hook), 50 card plays and the trick winners.

- OpenSpiel: ``oh_hell`` with players=5, num_suits=4, num_cards_per_suit=13,
  num_tricks_fixed=10, measured two ways: as the issue states it (a random action of
  ``legal_actions()`` at every node, chance nodes included: 108 steps a hand), and the usual
  way (a random outcome of ``chance_outcomes()`` at chance nodes). The second is slower; the
  first is the stricter anchor, the one the target is measured against.
- cardlab, per step (the measure: the protocol loop bots and rollouts use): a state after
  the draw for first dealer is cloned, dealt with ``deal_seeded`` (a new seed per hand),
  then a random action of ``legal_actions()`` is applied with ``apply`` until the hand is
  over (55 steps). Target: at least 3 times OpenSpiel's hands per second.
- cardlab, playout: the same clone and deal, then ``random_playout``, which makes the very
  same choices (a conformance test checks) and plays the cards through the same
  ``cardlab.kernel.play_cards`` that ``apply`` uses, in one call per hand.
- clone: the copy a rollout starts from, of the same mid-hand position on both sides (the
  bids made and 5 tricks played), with OpenSpiel's ``State.clone()``.

cardlab's trick state and its ``legal_actions``/``apply`` (the class ``TrickKernel``), the
deal (shuffle, deal and sort into suits in one call) and the trick play are in
``cardlab/kernel.py``; Ted's Game's deal from its seed, bids with the hook and scoring are in
``cardlab/games/teds_game/kernel.py`` (the class ``TedsKernel``, which the game's state inherits).
The install compiles both into one library with mypyc; the script prints which kernel ran.
Only a bid change, a refusal and the texts go to the game's Python module.

The runs share one process, alternating in slices of about half a second, for at least
``--seconds`` each (default 5), so that load from elsewhere hits them alike: compare the
ratios of one run, not absolute figures across runs. Before that every side is warmed up
alike, untimed: CPython 3.11 specializes a function's bytecode only once it has been called
a few times, and a slice function is called once per slice, so without the warm-up every
loop would run its generic bytecode for most of a short run. OpenSpiel is a benchmark-only
dependency (``pip install open-spiel``, the ``bench`` extra). Run from the repository root:

    .venv/bin/python benchmarks/teds_vs_openspiel.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import kernel_kind  # noqa: E402

import cardlab  # noqa: E402
from cardlab.games.teds_game.engine import TedsGameState  # noqa: E402

PLAYERS, TRICKS = 5, 10
SLICE = 0.5  # seconds per turn of each side
# CPython 3.11 specializes a function's bytecode once the function has been called a few
# times (8), not while one call loops: each slice function is first called this many times
# for WARM_SLICE seconds, untimed, so that every side is measured in its steady state.
WARM_CALLS, WARM_SLICE = 10, 0.01


def openspiel_slice(game, rng: random.Random, seconds: float, outcomes: bool) -> int:
    """Play random oh_hell hands for about ``seconds``; return how many were finished.

    ``outcomes``: draw chance nodes from ``chance_outcomes()`` rather than ``legal_actions()``.
    """
    random_ = rng.random
    hands = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            if outcomes and state.is_chance_node():
                choices = state.chance_outcomes()
                state.apply_action(choices[int(random_() * len(choices))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(random_() * len(actions))])
        hands += 1
    return hands


def cardlab_slice(start: TedsGameState, rng: random.Random, seconds: float,
                  first_seed: int, playout: bool) -> int:
    """Play random Ted's Game first hands for about ``seconds``; return how many.

    ``playout``: finish each hand with ``random_playout`` (the same choices, one call)
    rather than a loop of ``legal_actions``/``apply``.
    """
    random_ = rng.random
    hands = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        state = start.clone()
        state.deal_seeded(first_seed + hands)
        if playout:
            state.random_playout(random_)
        else:
            legal = state.legal_actions
            apply = state.apply
            while state.turn >= 0:  # -1 once the hand is over
                actions = legal()
                apply(actions[int(random_() * len(actions))])
        hands += 1
    return hands


def clone_slice(state, seconds: float) -> int:
    """Clone ``state`` for about ``seconds``; return how many clones were made (in 100s)."""
    clone = state.clone
    done = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(100):
            clone()
        done += 100
    return done


def openspiel_mid_hand(game, rng: random.Random):
    """An oh_hell state after the deal, the bids and 5 tricks (25 plays)."""
    state = game.new_initial_state()
    plays = 0
    while plays < PLAYERS * TRICKS // 2:
        actions = state.legal_actions()
        if not state.is_chance_node() and actions[0] < 52:  # a card (bids are 52 and up)
            plays += 1
        state.apply_action(actions[int(rng.random() * len(actions))])
    return state


def cardlab_mid_hand(start: TedsGameState, rng: random.Random) -> TedsGameState:
    """A Ted's Game state after the deal, the bids and 5 tricks (25 plays)."""
    state = start.clone()
    state.deal_seeded(1)
    while len(state.history) < TRICKS // 2:
        actions = state.legal_actions()
        state.apply(actions[int(rng.random() * len(actions))])
    return state


def check_cardlab_hand(start: TedsGameState) -> None:
    """One hand of the benchmark loop, checked: 5 bids with the hook, then 50 plays."""
    state = start.clone()
    state.deal_seeded(0)
    rng = random.Random(0)
    bids = plays = 0
    while state.turn >= 0:
        actions = state.legal_actions()
        if actions[0] >= 100:
            bids += 1
        else:
            plays += 1
        state.apply(actions[int(rng.random() * len(actions))])
    assert (bids, plays) == (PLAYERS, PLAYERS * TRICKS), (bids, plays)
    assert sum(state.bids) != TRICKS and state.hand_over()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="minimum seconds for each side (default 5)")
    args = parser.parse_args()
    try:
        import pyspiel
    except ImportError:
        sys.exit("OpenSpiel is not installed: pip install open-spiel (the [bench] extra)")

    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_suits": 4,
                                         "num_cards_per_suit": 13,
                                         "num_tricks_fixed": TRICKS})
    rules = cardlab.get_game("teds-game").rules(players=PLAYERS, start_size=TRICKS)
    start = rules.new_state()  # before the draw for first dealer
    assert isinstance(start, TedsGameState)
    start.apply_chance(start.seeded_chance(1))  # now the first hand is due
    check_cardlab_hand(start)

    rngs = {key: random.Random(i) for i, key in
            enumerate(("openspiel", "openspiel-outcomes", "cardlab", "playout"))}
    os_mid = openspiel_mid_hand(game, random.Random(5))
    cl_mid = cardlab_mid_hand(start, random.Random(5))
    assert len(cl_mid.history) == TRICKS // 2 and not cl_mid.trick
    runs = {
        "openspiel": lambda t=SLICE: openspiel_slice(game, rngs["openspiel"], t, False),
        "openspiel-outcomes": lambda t=SLICE: openspiel_slice(game, rngs["openspiel-outcomes"],
                                                              t, True),
        "cardlab": lambda t=SLICE: cardlab_slice(start, rngs["cardlab"], t, done["cardlab"],
                                                 False),
        "playout": lambda t=SLICE: cardlab_slice(start, rngs["playout"], t, done["playout"],
                                                 True),
        "openspiel-clone": lambda t=SLICE: clone_slice(os_mid, t),
        "cardlab-clone": lambda t=SLICE: clone_slice(cl_mid, t),
    }
    spent = dict.fromkeys(runs, 0.0)
    done = dict.fromkeys(runs, 0)
    for run in runs.values():  # warm up every side alike (see WARM_CALLS), untimed
        for _ in range(WARM_CALLS):
            run(WARM_SLICE)
    while min(spent.values()) < args.seconds:
        for key, run in runs.items():  # alternate, so load from elsewhere hits all alike
            t0 = time.perf_counter()
            done[key] += run()
            spent[key] += time.perf_counter() - t0
    rate = {k: done[k] / spent[k] for k in done}
    labels = {"openspiel": ("OpenSpiel oh_hell, legal_actions at every node", "hands"),
              "openspiel-outcomes": ("OpenSpiel oh_hell, chance_outcomes at chance nodes",
                                     "hands"),
              "cardlab": ("cardlab teds-game, legal_actions/apply per step", "hands"),
              "playout": ("cardlab teds-game, random_playout (same choices)", "hands"),
              "openspiel-clone": ("OpenSpiel oh_hell, clone of a mid-hand state", "clones"),
              "cardlab-clone": ("cardlab teds-game, clone of a mid-hand state", "clones")}
    for key, (label, unit) in labels.items():
        print(f"{label:52s} {done[key]:8d} {unit:6s} in {spent[key]:5.1f} s = "
              f"{rate[key]:9.0f} {unit}/s")
    print(kernel_kind())
    step = rate["cardlab"] / rate["openspiel"]
    print(f"ratio cardlab step / openspiel: {step:.2f} "
          f"(target >= 3: {'met' if step >= 3 else 'NOT met'})")
    for key, anchor in (("cardlab", "openspiel-outcomes"), ("playout", "openspiel"),
                        ("playout", "openspiel-outcomes"), ("cardlab-clone", "openspiel-clone")):
        print(f"ratio {key} / {anchor}: {rate[key] / rate[anchor]:.2f} (for reference)")


if __name__ == "__main__":
    main()
