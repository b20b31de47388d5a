"""Where's Bob's Hat?: the part of its rules and of its heuristic bot that runs at every card
of a simulation or an advisor's rollout, compiled with the kernel.

The score of a hand (:func:`score_hand`, every bid scored on its own), the heuristic bot's
card play (:class:`HeuristicPlayer`) and the exact solver's summary and bounds
(:class:`Layout`, :class:`PartBounds`) are written here, in plain typed Python that ``pip
install`` compiles with mypyc in one library with :mod:`cardlab.kernel`; the game's engine
(:mod:`cardlab.games.bobs_hat.engine`), bot (:mod:`cardlab.games.bobs_hat.bot`) and solver
(:mod:`cardlab.games.bobs_hat.solving`) use them.
Without a compiler this runs as ordinary Python and plays the same games
(``tests/test_kernel.py``).

>>> score_hand([MOST[0], FEWEST, NO_BID], [[4, 0, 0], [0, 1, 0], [2, 0, 0]], [6, 1, 0], 3,
...            -1, 10, False)
[9, 3, 0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, cast, final

from mypy_extensions import i64

# absolute, as in solvekernel: tests load this source on its own beside the compiled module
from cardlab.kernel import (
    PLAY,
    Player,
    TrickKernel,
    _choices,
    beats,
    bit,
    count_of,
    held_by,
    low_card,
)
from cardlab.playout import Draws, Playout

# Actions: a bid is BID + its flags; the hat's choice HAT_PLUS or HAT_MINUS.
BID: Final = 100
HAT_PLUS: Final = 200
HAT_MINUS: Final = 201
# Bids are bit flags: most blue, most red, most black, fewest, doubled, no bid.
MOST: Final = (1, 2, 4)
FEWEST: Final = 8
DOUBLE: Final = 16
NO_BID: Final = 32
MOST_BITS: Final = bytes(MOST)  # the most-bid flag of each suit, indexed by a suit
BID_WORDS: Final = {1: "most-blue", 2: "most-red", 4: "most-black", 8: "fewest",
                    24: "double-fewest"}


def score_hand(bids: list[int], taken: list[list[int]], dealt_suits: list[int], size: int,
               hat_holder: int, hat_value: int, negative_scoring: bool,
               parts: list[dict[str, int]] | None = None) -> list[int]:
    """Each seat's score for one hand, every bid scored on its own.

    >>> # Anna bids most blue and takes 4 blue; Bob 3, Chris 1: 5 + 4 = 9.
    >>> score_hand([1, 0, 0], [[4, 0, 0], [3, 0, 0], [1, 0, 0]], [8, 0, 0], 7, -1, 0, False)[0]
    9

    With ``parts`` (a list of one dict per seat), each bid's points and the hat's are
    recorded there too: ``{"most-blue": 9, "hat": 0}``.
    """
    n = len(bids)
    totals = [sum(t) for t in taken]
    fewest = min(totals)
    alone_fewest = totals.count(fewest) == 1
    columns = [[t[suit] for t in taken] for suit in range(3)]
    tops = [max(col) for col in columns]
    alone_top = [col.count(top) == 1 for col, top in zip(columns, tops, strict=True)]
    scores = [0] * n
    for seat, flags in enumerate(bids):
        if flags == NO_BID:
            continue
        for suit in range(3):
            most: int = MOST_BITS[suit]
            if flags & most:
                mine = taken[seat][suit]
                # made: more than every other single player (or no card of the suit dealt)
                if dealt_suits[suit] == 0 or (mine == tops[suit] and alone_top[suit]):
                    points = 5 + mine
                else:
                    points = -5 - (mine if negative_scoring else 0)
                scores[seat] += points
                if parts is not None:
                    parts[seat][BID_WORDS[most]] = points
        if flags & FEWEST:
            made = totals[seat] == fewest and alone_fewest
            points = size * (2 if flags & DOUBLE else 1)
            scores[seat] += points if made else -points
            if parts is not None:
                parts[seat][BID_WORDS[flags & (FEWEST | DOUBLE)]] = points if made else -points
    if hat_holder >= 0 and bids[hat_holder] != NO_BID:
        scores[hat_holder] += hat_value
        if parts is not None:
            parts[hat_holder]["hat"] = hat_value
    return scores



def taken_by_suit(table: TrickKernel) -> list[list[int]]:
    """The cards each seat has taken in the hand's tricks so far, per suit.

    >>> from cardlab.kernel import PLAY, TrickKernel
    >>> class Table(TrickKernel):
    ...     pass
    >>> table = Table()
    >>> table.suit_of, table.ncards, table.nseats, table.phase = (0, 0, 1, 1), 4, 2, PLAY
    >>> table.start_tricks([[0, 3], [1, 2]], -1, 0, 2)
    >>> table.apply(3); table.apply(2)  # seat 0 leads the 3, seat 1 follows: seat 0 wins
    >>> taken_by_suit(table)
    [[0, 2], [0, 0]]
    """
    nsuits = table.nsuits
    out = [[0] * nsuits for _ in range(table.nseats)]
    n = table.nseats
    played = table.played
    suit_of = table.suit_of
    at = 0
    for winner in table.winners:
        row = out[winner]
        for k in range(n):
            row[suit_of[played[at + k]]] += 1
        at += n
    return out


def last_taker(table: TrickKernel, cards: i64) -> int:
    """Who took the last trick won that held any of ``cards`` (bits), or -1: Where's Bob's
    Hat?'s holder of the hat."""
    n = table.nseats
    played = table.played
    winners = table.winners
    t = len(winners) - 1
    while t >= 0:
        for k in range(n):
            if cards & bit(played[t * n + k]):
                return winners[t]
        t -= 1
    return -1


def hat_choice(held: i64, trump: i64, ranks: bytes, suits: bytes) -> int:
    """The heuristic bot's hat as dealer, from the cards it holds (bits) and the trump: +10
    with two or more of the high cards that take hat tricks (16-20, or 14-20 of trump),
    else -10 (``cardlab.games.bobs_hat.bot.choose_hat``)."""
    strong = 0
    while held:
        card = low_card(held)
        rank: i64 = ranks[card]
        if rank >= 16 or (rank >= 14 and suits[card] == trump):
            strong += 1
        held &= held - 1
    return HAT_PLUS if strong >= 2 else HAT_MINUS


class HeuristicPlayer(Player):
    """The heuristic bot's choices (``cardlab.games.bobs_hat.bot``, which documents them),
    compiled: the kernel's :func:`~cardlab.kernel.play_hand` and the advisor's rollouts call
    it with no Python frame a card. ``ranks``: each card's rank, a byte a card; ``hats``:
    the hat cards as bits.
    """

    def __init__(self, rng: Any, ranks: bytes, hats: i64) -> None:
        self.rng = rng
        self.ranks = ranks
        self.hats = hats

    def act(self, table: TrickKernel, seat: int) -> int:
        if table.phase is PLAY:
            return self.card(table, seat)
        legal = table.legal_actions()
        if legal[0] >= HAT_PLUS:
            return hat_choice(held_by(table, seat), table.trump, self.ranks, table.suits)
        return self.bid(table, seat, legal)

    def bid(self, table: TrickKernel, seat: int, legal: list[int]) -> int:
        """``most`` in each suit where it holds a clear share of the high cards (15 to 20;
        trumps count 1.6 times), ``fewest`` with a weak low hand (an average rank under 8.5
        and at most one trump), else its strongest suit (a random number per suit breaks a
        tie); the first legal bid if that one is not legal."""
        state = cast(Any, table)  # the hand's size is the game's own attribute
        size: int = state.size
        ranks = self.ranks
        held = held_by(table, seat)
        trump = table.trump
        flags: i64 = 0
        strength: list[float] = []
        for suit in range(3):
            cards = held & table.suit_masks[suit]
            count = count_of(cards)
            high = 0
            while cards:
                if ranks[low_card(cards)] >= 15:
                    high += 1
                cards &= cards - 1
            score = float(count) + 0.5 * float(high)
            if suit == trump:
                score *= 1.6
            strength.append(score)
            if score >= 1.6 * float(size) / float(table.nseats) and high:
                flags |= MOST_BITS[suit]
        total = 0
        cards = held
        while cards:
            total += ranks[low_card(cards)]
            cards &= cards - 1
        trumps = count_of(held & table.suit_masks[trump]) if trump >= 0 else 0
        if float(total) / float(count_of(held)) < 8.5 and trumps <= 1:
            flags |= FEWEST
        if not flags:  # the strongest suit; a number per suit, read only on a tie
            draws = Draws(self.rng, 3)
            best = 0
            for suit in (1, 2):
                if strength[suit] > strength[best] or (
                        strength[suit] == strength[best] and draws.at(suit) > draws.at(best)):
                    best = suit
            draws.done()
            flags = MOST_BITS[best]
        return BID + flags if BID + flags in legal else legal[0]

    def card(self, table: TrickKernel, seat: int) -> int:
        """Value the trick for itself (cards of its most-suits, less the trick's size when it
        bid fewest, the hat's value / 5 with a hat card), then win as cheaply as it can when
        that value is positive, else duck under the winning card; ties go to the first card
        in the order of the legal actions."""
        state = cast(Any, table)  # the bids and the hat are the game's own attributes
        flags: i64 = state.bids[seat]
        suits = table.suits
        ranks = self.ranks
        legal = _choices(table, held_by(table, seat))
        if table.led < 0:  # leading
            if flags & FEWEST:
                return _extreme(legal, ranks, False)
            wanted: i64 = 0
            rest = legal
            while rest:
                card = low_card(rest)
                if flags & MOST_BITS[suits[card]]:
                    wanted |= bit(card)
                rest &= rest - 1
            return _extreme(wanted if wanted else legal, ranks, True)
        best = table.win_card
        best_suit = suits[best]
        trump = table.trump
        hats = self.hats
        # the cheapest winner (a non-trump first, then the lowest rank) and the dearest loser
        # (a hat card last, then the highest rank), the first kept on a tie
        winner: i64 = -1
        winner_key: i64 = 1000
        loser: i64 = -1
        loser_key: i64 = -1
        rest = legal
        while rest:
            card = low_card(rest)
            suit = suits[card]
            if beats(card, suit, best, best_suit, trump):
                key: i64 = ranks[card]
                if suit == trump:
                    key += 100
                if key < winner_key:
                    winner = card
                    winner_key = key
            else:
                key = ranks[card]
                if not hats & bit(card):
                    key += 100
                if key > loser_key:
                    loser = card
                    loser_key = key
            rest &= rest - 1
        if winner >= 0:
            # the trick's value for the seat, its first legal card on it: a card of a most
            # suit +1, when it bid fewest -1 a card and -1 more, a hat card the hat value / 5
            value = 0.0
            hat = False
            played = table.played
            on_table = len(played) - len(table.winners) * table.nseats
            for k in range(len(played) - on_table, len(played)):
                card = played[k]
                if flags & MOST_BITS[suits[card]]:
                    value += 1
                hat = hat or bool(hats & bit(card))
            first = low_card(legal)
            if flags & MOST_BITS[suits[first]]:
                value += 1
            if flags & FEWEST:
                value -= float(on_table + 2)
            if hat or hats & bit(first):
                hat_value: int = state.hat_value
                value += hat_value / 5
            if value > 0:
                return winner
        if loser >= 0:
            return loser
        return _extreme(legal, ranks, False)


def _extreme(cards: i64, ranks: bytes, highest: bool) -> int:
    """The card of ``cards`` of the highest (or lowest) rank, the first in suit order on a
    tie (as ``max``/``min`` over the legal actions keep it)."""
    out: i64 = -1
    out_rank = 0
    while cards:
        card = low_card(cards)
        rank = ranks[card]
        if out < 0 or (rank > out_rank if highest else rank < out_rank):
            out = card
            out_rank = rank
        cards &= cards - 1
    return out


class BobsPlayout(Playout):
    """A simulation's hands of Where's Bob's Hat? (:class:`~cardlab.playout.Playout`), and
    what it keeps of each besides the common values: the hat's holder (-1: none) and value;
    each seat's bid flags and the cards it took by suit; each seat's points by part of the
    score (the engine's ``score_parts``). ``cardlab.games.bobs_hat.records`` makes the
    columns of them."""

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.hat_holder: list[int] = []  # per hand
        self.hat_value: list[int] = []
        self.bid_flags: list[int] = []  # per hand and seat
        self.taken_suits: list[list[int]] = []
        self.parts: list[dict[str, int]] = []

    def deal(self, table: Any, seed: Any) -> None:
        table.deal_seeded(seed)
        self.keep_deal(table)

    def number(self, table: Any) -> int:
        number: int = table.hand_no
        return number

    def size(self, table: Any) -> int:
        size: int = table.size
        return size

    def dealer(self, table: Any) -> int:
        dealer: int = table.dealer
        return dealer

    def scores_of(self, table: Any) -> list[int]:
        sheet: list[list[int]] = table.sheet
        return sheet[-1]

    def keep(self, table: Any) -> None:
        self.hat_holder.append(table.hat_holder())
        self.hat_value.append(table.hat_value)
        self.bid_flags.extend(table.bids)
        self.taken_suits.extend(table.taken())
        self.parts.extend(table.score_parts() or ())  # a hand that is over has its parts


# A part's settled score goes into the bound's key plus this (scores are far smaller).
SETTLED_OFFSET: Final = 2048


@final
class Layout:
    """Where the exact solver's summary keeps the cards each seat takes after the position,
    for a seat bidding ``flags`` among ``n``: per seat, a field of ``widths[j]`` bits (enough
    for every card that can be taken) for each column ``j``: each colour the seat bids most
    (``colours``), then, when it bids fewest of fewer than three, every card taken
    (``total``). A seat's fields sit side by side in ``stride`` bits, the seats' one after
    another. ``in_play``: at most how many cards of each colour are still to be taken;
    ``cards``: of all colours. :meth:`field` reads a field back, for the solver's leaf and
    playouts (:meth:`taken`) and its bounds (:class:`PartBounds`) alike.

    >>> layout = Layout(MOST[1], 2, [5, 9, 3], 17)  # most red; red counts up to 9: 4 bits
    >>> layout.colours, layout.widths, layout.key_mask
    ([1], [4], 255)
    >>> layout.field(3 << 4 | 5, 1, 0)  # seat 1 took 3 red (seat 0 took 5)
    3
    >>> layout.taken([[1, 0, 0], [0, 2, 0]], 3 << 4 | 5)  # added to the cards taken before
    [[1, 5, 0], [0, 5, 0]]
    >>> Layout(NO_BID, 2, [5, 9, 3], 17).key_mask
    0
    """

    def __init__(self, flags: int, n: int, in_play: list[int], cards: int) -> None:
        bids = flags != NO_BID
        self.n = n
        self.colours = [suit for suit in range(len(MOST)) if bids and flags & MOST[suit]]
        self.total = bool(bids and flags & FEWEST and len(self.colours) < 3)
        most = [in_play[suit] for suit in self.colours] + ([cards] if self.total else [])
        self.widths = [max(1, count.bit_length()) for count in most]
        self.offsets = [sum(self.widths[:j]) for j in range(len(self.widths))]
        self.full = [(1 << width) - 1 for width in self.widths]
        self.stride = sum(self.widths)
        self.key_mask = (1 << (self.stride * n)) - 1

    def card_unit(self, suit: int) -> int:
        """What a card of ``suit`` adds to its taker's fields."""
        unit = 0
        for j in range(len(self.colours)):
            if self.colours[j] == suit:
                unit |= 1 << self.offsets[j]
        return unit | (1 << self.offsets[-1] if self.total else 0)

    def field(self, summary: int, seat: int, column: int) -> int:
        """The seat's count in ``column`` of ``summary``."""
        return (summary >> (self.stride * seat + self.offsets[column])) & self.full[column]

    def taken(self, base: list[list[int]], summary: int) -> list[list[int]]:
        """The cards taken per seat and colour at the end (``base``: before the position)
        as far as the seat's score reads them: the colours bid most as taken, and each
        seat's total (the cards taken of the other colours, all counted in the first of
        them) when it bids fewest; the rest as in ``base``."""
        out = [row[:] for row in base]
        others = [suit for suit in range(3) if suit not in self.colours]
        for s in range(self.n):
            most = 0
            for j in range(len(self.colours)):
                count = self.field(summary, s, j)
                out[s][self.colours[j]] += count
                most += count
            if self.total:
                out[s][others[0]] += self.field(summary, s, len(self.colours)) - most
        return out


class PartBounds:
    """The exact solver's bounds on one seat's hand score at a trick's start, part by part
    (:func:`cardlab.games.bobs_hat.solving.bound_of` says what they are and builds this):
    the seat's bids (``kinds``: a suit for a most bid, -1 for fewest) and the hat, each
    part's range found by ``ranges(kind, counts, more)`` once per counts of every seat and
    ``more`` still to share out, and kept. Compiled, as it is asked at every new summary of
    a search: ``bound`` reads the summary's fields itself.

    A part's counts are ``starts[j][seat]`` plus the fields ``fields[j]`` (columns of the
    summary's :class:`Layout`); ``more`` is how many cards of ``more_masks[j]`` are in play,
    divided by ``per_trick[j]`` (1 for cards, the seats for tricks).

    >>> # two seats; the seat bids most of suit 0 (cards 0-3, 4 bits a seat: at most 9);
    >>> # the part scores -5 to 5 + its count + the cards left; the hat (card 4) is worth 10
    >>> layout = Layout(MOST[0], 2, [9, 0, 0], 9)
    >>> bounds = PartBounds(2, 0, [0], [[0, 0]], [[0]], layout, [0b1111], [1], 10,
    ...                     0b10000, lambda kind, counts, more: (-5, 5 + counts[0] + more))
    >>> bounds.bound(0b0010_0001, 1, 0b10011)  # it took 1, the other 2; hat still to take
    (-5, 18, 32898)
    >>> bounds.bound(0b0010_0001, 1, 0b00011)  # the hat is gone, and the seat holds it
    (5, 18, 65797)
    """

    def __init__(self, n: int, carried: int, kinds: list[int], starts: list[list[int]],
                 fields: list[list[int]], layout: Layout,
                 more_masks: list[int], per_trick: list[int], hat_value: int, hat_mask: int,
                 ranges: Callable[[int, tuple[int, ...], int], tuple[int, int]]) -> None:
        self.n = n
        self.carried = carried
        self.kinds = kinds
        self.starts = starts
        self.fields = fields
        self.layout = layout
        self.more_masks = more_masks
        self.per_trick = per_trick
        self.hat_value = hat_value
        self.hat_mask = hat_mask
        self.ranges = ranges
        self.found: dict[int, tuple[int, int]] = {}  # ranges' answers, by part, counts, more

    def bound(self, summary: int, holds_hat: int, in_play: int) -> tuple[int, int, int]:
        """The seat's lowest and highest hand score from a trick's start with ``summary``,
        the hat (``holds_hat``: the seat holds it) and the cards ``in_play``, and the key
        of what the parts' scores depend on (see ``bound_of``)."""
        low = self.carried
        high = low
        key = 1  # a leading 1: the fields below then read back one way only
        n = self.n
        layout = self.layout
        for j in range(len(self.kinds)):
            packed = 0  # every seat's count, 7 bits each
            for seat in range(n):
                count = self.starts[j][seat]
                for column in self.fields[j]:
                    count += layout.field(summary, seat, column)
                packed = (packed << 7) | count
            more = count_of(in_play & self.more_masks[j]) // self.per_trick[j]
            kind = self.kinds[j]
            at = (((packed << 8) | more) << 3) | (kind + 1)
            got = self.found.get(at)
            if got is None:
                counts = [(packed >> (7 * (n - 1 - seat))) & 127 for seat in range(n)]
                got = self.ranges(kind, tuple(counts), more)
                self.found[at] = got
            a, b = got
            low += a
            high += b
            if a == b:  # settled: the part's score, not its counts
                key = (((key << 1) | 1) << 12) | (a + SETTLED_OFFSET)
            else:
                key = (key << (1 + 7 * n)) | packed
        hat_value = self.hat_value
        if hat_value:
            if in_play & self.hat_mask:
                low += min(0, hat_value)
                high += max(0, hat_value)
            else:
                key = (key << 1) | holds_hat
                if holds_hat:
                    low += hat_value
                    high += hat_value
        return low, high, key
