"""An independent re-computation of Ted's Game scores from a hand's final position.

Written from the rule text, not from the engine: it works out the hand size from the options
and the hand number, finds each trick's winner again from the cards played and the turned
card, checks who led each trick, checks the hook on the bids, and scores each seat.
"""

GAME = "teds-game"
RANKS = {**{str(r): r for r in range(2, 11)}, "J": 11, "Q": 12, "K": 13, "A": 14}


def cards_in_hand(start: int, hand: int) -> int:
    """start, start-1, ..., 1, 2, ..., start (hand is 1-based)."""
    return start - hand + 1 if hand <= start else hand - start + 1


def trick_winner(cards: list, trump: str) -> int:
    """The seat that played the highest trump, else the highest card of the suit led."""
    led = cards[0][1][-1]

    def strength(entry: list) -> tuple[int, int]:
        code = entry[1]
        suit, rank = code[-1], RANKS[code[:-1]]
        return (2 if suit == trump else 1 if suit == led else 0, rank)

    return max(cards, key=strength)[0]


def hand_scores(pos: dict, options: dict) -> list[int]:
    n = len(pos["seats"])
    dealt = cards_in_hand(options["start_size"], pos["hand"])
    assert pos["hand_size"] == dealt
    assert len(pos["tricks"]) == dealt, "the hand ends when every card is played"
    trump = pos["turned"][-1]
    won = [0] * n
    leader = (pos["dealer"] + 1) % n
    for trick in pos["tricks"]:
        assert trick["cards"][0][0] == leader, "the first trick is led left of the dealer, " \
            "each later one by the last winner"
        winner = trick_winner(trick["cards"], trump)
        assert trick["winner"] == winner
        won[winner] += 1
        leader = winner
    bids = pos["bids"]
    assert sum(bids) != dealt, "the hook: the bids never add up to the tricks"
    scores = []
    for bid, taken in zip(bids, won, strict=True):
        if bid == taken:
            scores.append(10 + (dealt if bid == 0 else bid ** 2))
        else:
            scores.append(-abs(bid - taken) ** 3)
    return scores
