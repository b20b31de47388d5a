"""Random playout of 4-player, 10-card Where's Bob's Hat? hands (target: 10,000 hands/s).

Each hand: the seeded deal (hand 6 deals 10 cards), the trump, the hat, 4 bids and 40 plays,
every action chosen uniformly among the legal ones, then the scoring. Measured through the
engine's ``random_playout`` (the figure for the target) and through a plain loop of
``legal_actions()``/``apply()``. Both are the one engine that replays and the viewer use.

    python benchmarks/bobs_hat_playout.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _timing import host_speed, kernel_kind, rate  # noqa: E402

import cardlab  # noqa: E402

RULES = cardlab.get_game("bobs-hat").rules(players=4, hands=6)
BEFORE_HAND_6 = RULES.new_state()
BEFORE_HAND_6.skip_to_hand(6)  # 10 cards each


CHOOSER = random.Random(1)  # the random players' choices (the deal is seeded by hand)


def protocol_hand(seed: int, rng: random.Random = CHOOSER) -> int:
    """One hand through the protocol: legal_actions() and apply() at every step."""
    state = BEFORE_HAND_6.clone()
    state.deal_seeded(seed)
    legal = state.legal_actions
    apply = state.apply
    rand = rng.random
    while True:
        actions = legal()
        if not actions:
            break
        apply(actions[int(rand() * len(actions))])
    assert state.hand_over()
    return 1


def playout_hand(seed: int, rng: random.Random = CHOOSER) -> int:
    """One hand through ``random_playout``: the same choices, the cards played through the
    same ``kernel.play_cards`` as ``apply``, in one call for the whole play phase."""
    state = BEFORE_HAND_6.clone()
    state.deal_seeded(seed)
    state.random_playout(rng.random)
    assert state.hand_over()
    return 1


def main() -> None:
    playout = rate(playout_hand)
    protocol = rate(protocol_hand)
    print(f"bobs-hat, 4 players, 10 cards, random playout: {playout:,.0f} hands/s "
          f"({'meets' if playout >= 10_000 else 'misses'} the 10,000 hands/s target)")
    print(f"  the same hands through legal_actions()/apply() per step: {protocol:,.0f} hands/s")
    print(f"  {host_speed()}; {kernel_kind()}")


if __name__ == "__main__":
    main()
