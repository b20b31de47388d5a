"""An independent referee of Knock-out Whist with two suits, written from the rules in the
package's docstring, not from the engine: plain Python over card codes and action texts,
importing nothing of cardlab.

- :class:`Referee` keeps a game step by step: the deals it is given, whose turn it is, the
  legal actions as texts, each trick's winner, each hand's scores and the end of the game.
- :func:`hand_scores` re-computes one hand's scores from the hand's final position, as the
  generic conformance test (``tests/test_conformance.py``) asks of every game's oracle.

>>> ref = Referee({"players": 2, "start_size": 1, "first_dealer": 0})
>>> ref.deal({"hands": [["AH"], ["KS"]], "turned": "8S"})
>>> ref.to_act, ref.legal()
(1, ['play KS'])
>>> ref.act("play KS"), ref.legal()
(None, ['play AH'])
>>> ref.act("play AH"), ref.sheet, ref.over
(1, [[0, 1]], True)
"""

from __future__ import annotations

GAME = "knockout-whist"
RANKS = {"8": 8, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
SUITS = {"H": "hearts", "S": "spades"}


def suit(code: str) -> str:
    return SUITS[code[-1]]


def rank(code: str) -> int:
    return RANKS[code[:-1]]


def trick_winner(cards: list[tuple[int, str]], trump: str) -> int:
    """The seat of the highest trump played, else of the highest card of the suit led."""
    led = suit(cards[0][1])
    trumps = [(rank(code), seat) for seat, code in cards if suit(code) == trump]
    if trumps:
        return max(trumps)[1]
    return max((rank(code), seat) for seat, code in cards if suit(code) == led)[1]


def start_size(options: dict) -> int:
    return options.get("start_size") or 13 // options["players"]


class Referee:
    """One game of Knock-out Whist, kept by the rules alone."""

    def __init__(self, options: dict) -> None:
        self.n = options["players"]
        self.start = start_size(options)
        self.dealer = options.get("first_dealer", 0) - 1  # the first deal moves it on
        self.hand = 0
        self.sheet: list[list[int]] = []
        self.chooser: int | None = None  # who chooses the next hand's trumps
        self.over = False
        self.hands: list[list[str]] = []
        self.trump: str | None = None
        self.to_act: int | None = None
        self.trick: list[tuple[int, str]] = []
        self.won: list[int] = []
        self.first_win: list[int] = []  # the order in which seats first took a trick
        self.leader = -1

    def deal(self, record: dict) -> None:
        assert not self.over and self.to_act is None, "a deal is due only between hands"
        self.hand += 1
        self.dealer = (self.dealer + 1) % self.n
        size = self.start - self.hand + 1
        hands = record["hands"]
        assert len(hands) == self.n and all(len(h) == size for h in hands)
        dealt = [code for h in hands for code in h]
        if self.hand == 1:
            assert set(record) == {"hands", "turned"}
            dealt.append(record["turned"])
            self.trump = suit(record["turned"])
        else:
            assert set(record) == {"hands"}
            self.trump = None
        assert len(set(dealt)) == len(dealt), "each card once"
        self.hands = [list(h) for h in hands]
        self.won = [0] * self.n
        self.first_win = []
        self.trick = []
        self.leader = (self.dealer + 1) % self.n
        self.to_act = self.leader if self.trump is not None else self.chooser

    def legal(self) -> list[str]:
        if self.to_act is None:
            return []
        if self.trump is None:
            return ["trump hearts", "trump spades"]
        held = self.hands[self.to_act]
        if self.trick:
            led = suit(self.trick[0][1])
            following = [c for c in held if suit(c) == led]
            if following:
                return [f"play {c}" for c in following]
        return [f"play {c}" for c in held]

    def act(self, text: str) -> int | None:
        """Apply a legal action; returns the trick's winner when it completes a trick."""
        assert text in self.legal(), (text, self.legal())
        seat = self.to_act
        assert seat is not None
        if text.startswith("trump "):
            self.trump = text.split()[1]
            self.to_act = self.leader
            return None
        card = text.split()[1]
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.n:
            self.to_act = (seat + 1) % self.n
            return None
        assert self.trump is not None, "cards are played once trumps are known"
        winner = trick_winner(self.trick, self.trump)
        self.won[winner] += 1
        if winner not in self.first_win:
            self.first_win.append(winner)
        self.trick = []
        self.to_act = self.leader = winner
        if not self.hands[winner]:
            self._end_hand()
        return winner

    def _end_hand(self) -> None:
        before = self.totals
        self.sheet.append([won if won else -before[s] for s, won in enumerate(self.won)])
        self.to_act = None
        best = max(self.won)
        self.chooser = next(s for s in self.first_win if self.won[s] == best)
        self.over = 0 in self.won or self.hand == self.start

    @property
    def totals(self) -> list[int]:
        return [sum(row[s] for row in self.sheet) for s in range(self.n)]

    def winners(self) -> list[int]:
        best = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]


def hand_scores(pos: dict, options: dict) -> list[int]:
    """The scores of the hand whose final position is ``pos``, found again from the tricks
    (each winner, each leader) and the earlier rows of the sheet."""
    n = len(pos["seats"])
    size = start_size(options) - pos["hand"] + 1
    assert pos["hand_size"] == size
    assert len(pos["tricks"]) == size, "the hand ends when every card is played"
    if pos["hand"] == 1:
        assert pos["turned"] is not None and pos["trump"] == suit(pos["turned"])
    else:
        assert pos["turned"] is None
    trump = pos["trump"]
    dealer = (options.get("first_dealer", 0) + pos["hand"] - 1) % n
    assert pos["dealer"] == dealer
    leader = (dealer + 1) % n
    won = [0] * n
    for trick in pos["tricks"]:
        cards = [(seat, code) for seat, code in trick["cards"]]
        assert cards[0][0] == leader, "left of the dealer leads, then each trick's winner"
        assert [seat for seat, _ in cards] == [(leader + i) % n for i in range(n)]
        winner = trick_winner(cards, trump)
        assert trick["winner"] == winner
        won[winner] += 1
        leader = winner
    before = [sum(row[s] for row in pos["sheet"][:pos["hand"] - 1]) for s in range(n)]
    scores = [w if w else -before[s] for s, w in enumerate(won)]
    assert pos["knocked_out"] == [s for s in range(n) if won[s] == 0]
    return scores
