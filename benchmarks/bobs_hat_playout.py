"""Random playout of 4-player, 10-card Where's Bob's Hat? hands (target: 10,000 hands/s).

Each hand: the seeded deal (hand 6 deals 10 cards), the trump, the hat, 4 bids and 40 plays,
every action chosen uniformly from ``legal_actions()`` and checked by ``apply``, then the
scoring. This is the one engine that replays and the viewer use, not a faster copy.

    python benchmarks/bobs_hat_playout.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _timing import rate  # noqa: E402

import cardlab  # noqa: E402

RULES = cardlab.get_game("bobs-hat").rules(players=4, hands=6)
BEFORE_HAND_6 = RULES.new_state()
BEFORE_HAND_6.skip_to_hand(6)  # 10 cards each


CHOOSER = random.Random(1)  # the random players' choices (the deal is seeded by hand)


def one_hand(seed: int, rng: random.Random = CHOOSER) -> int:
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


def main() -> None:
    hands_per_second = rate(one_hand)
    print(f"bobs-hat random playout, 4 players, 10 cards: {hands_per_second:,.0f} hands/s "
          f"({'meets' if hands_per_second >= 10_000 else 'misses'} the 10,000 hands/s target)")


if __name__ == "__main__":
    main()
