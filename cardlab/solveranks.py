"""The ranks as the exact solver's search reads them (:mod:`cardlab.solvekernel`), compiled by
mypyc in the kernel's library: which cards are equivalent, and the classes of positions its
transposition table keeps.

In a trick the rules read of a card only its suit and its rank *among the cards still in
play* (:func:`cardlab.kernel.beats`), and the score reads its suit and, in some games, a
*kind* the game marks (Bob's Hat's 14s and 15s take the hat). So two positions whose suits
hold, card by card from the highest still in play, cards of the same holders and kinds are
the same position, whatever the absolute ranks of the cards already gone (with the blue 3
gone, the blue 2 and 4 of one seat are as good as the blue 2 and 3 of another deal).

More: a search below a position often reads the ranks of a few top cards of each suit only
(its *relevant* cards: those whose rank decided a trick, and every card above them). Then
every position of the same *shape* (how many cards of each kind each seat holds in each
suit) whose relevant cards have the same holders ends the same way: the cards below are
played alike, whoever holds which. The table keeps each answer for that whole class
(partition search, as in double-dummy bridge solvers). A position is read as two numbers
that the search keeps up to date card by card: its *code* (:meth:`Ranks.code_of`, less a
card by :meth:`Ranks.without`), the holder and kind of every card still held, lowest card
first, and its *shape* (the same, counted). :meth:`Ranks.signature` says how many top cards of
each suit a class counts, :meth:`Ranks.sig_mask` which digits of the code those are;
:meth:`Ranks.relative` and :meth:`Ranks.absolute` carry a best card from one position to
another.

Cards are bits of an int (card ``c`` is ``1 << c``), numbered suit by suit, each suit
ascending, as every suited deck is; :func:`count_bits` and :func:`kth_lowest` read such masks
for the search and its random walks.

>>> # one suit of 5 cards (0-4), two seats: seat 0 holds 0, 3 and 4, seat 1 holds 1 and 2
>>> ranks = Ranks([0] * 5, [0b11111], [0b11001, 0b00110], [0] * 5)
>>> ranks.representatives(0b00110, 0b11111)  # 1 and 2: nothing between them, one class
[2]
>>> # {4, 0: seat 0; 2: seat 1} and {4, 3: seat 0; 1: seat 1}: one shape, two codes
>>> one, two = ranks.code_of(0b10101), ranks.code_of(0b11010)
>>> one[1] == two[1], one[0] == two[0]
(True, False)
>>> top = ranks.sig_mask(ranks.signature(0b10000, 0b10101), 0b10101)  # the 4's rank only
>>> one[0] & top == two[0] & top  # seat 0's in both: one class
True
>>> ranks.without(one[0], 0b10100, 0) == ranks.code_of(0b10100)[0]  # the 0 played
True
>>> ranks.absolute(ranks.relative(4, 0b10101), 0b11010)  # seat 0's top card in both
4
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

# A card's relative place (Ranks.relative): its suit above this many bits, its rank among the
# suit's cards still held below (a suit has fewer than 256 cards).
PLACE_BITS: Final = 8
# A signature (Ranks.signature) gives each suit this many bits: how many of its top cards
# still held are relevant (fewer than 256).
SIG_BITS: Final = 8
SIG_MASK: Final = (1 << SIG_BITS) - 1


def _bit_counts() -> list[int]:
    """How many bits each number below 2 ** 16 has set."""
    counts = [0]
    for _ in range(16):
        counts += [count + 1 for count in counts]
    return counts


BIT_COUNTS: Final = _bit_counts()


class Ranks:
    """The ranks of one search's cards: ``suit_of`` each card's suit, ``suit_mask`` each
    suit's cards, ``hands`` each seat's cards at the root (who holds each card never
    changes), ``kind_of`` each card's kind (cards of different kinds are never merged)."""

    def __init__(self, suit_of: list[int], suit_mask: list[int], hands: list[int],
                 kind_of: list[int]) -> None:
        self.suit_of = suit_of
        self.kind_of = kind_of
        self.suit_mask = suit_mask
        self.top = 0  # the cards the last signature counts (see signature)
        held = 0
        for hand in hands:
            held |= hand
        kinds = max(kind_of) + 1 if kind_of else 1
        values = len(hands) * kinds
        self.bits = max(1, (values - 1).bit_length())
        # each held card's code in the key: its holder and kind, in ``bits`` bits
        self.card_code = [0] * len(suit_of)
        for seat in range(len(hands)):
            rest = hands[seat]
            while rest:
                low = rest & -rest
                card = low.bit_length() - 1
                self.card_code[card] = seat * kinds + kind_of[card]
                rest ^= low
        # the suits that hold cards
        self.suits: list[int] = []
        for mask in suit_mask:
            if mask & held:
                self.suits.append(mask & held)
        # A suit's shape is how many cards of each holder and kind (each code) it holds, as
        # one number in mixed radix: the count of code v times the product of (1 + the count
        # at the root) of the codes below it; the suits' shapes side by side are the
        # position's. A card adds its ``shape_unit`` to it.
        self.shape_unit = [0] * len(suit_of)
        self.shape_width = 0
        for suit in reversed(self.suits):
            counts = [0] * values
            rest = suit
            while rest:
                low = rest & -rest
                counts[self.card_code[low.bit_length() - 1]] += 1
                rest ^= low
            radix = []
            product = 1
            for count in counts:
                radix.append(product)
                product *= count + 1
            rest = suit
            while rest:
                low = rest & -rest
                card = low.bit_length() - 1
                self.shape_unit[card] = radix[self.card_code[card]] << self.shape_width
                rest ^= low
            self.shape_width += max(1, (product - 1).bit_length())

    # -- classes of positions (partition search) -----------------------------------------
    def code_of(self, held: int) -> tuple[int, int]:
        """The cards ``held`` as the table reads them: their *code*, the code (holder and
        kind) of each card in ``bits`` bits, the lowest card in the lowest bits, and their
        *shape*: suit by suit, how many cards of each kind each seat holds. Positions of one
        shape differ only in which seat holds which of a suit's cards; within one shape each
        suit's cards sit at the same digits of the code."""
        code = 0
        shape = 0
        rest = held
        while rest:  # from the highest card down
            top = rest.bit_length() - 1
            code = (code << self.bits) | self.card_code[top]
            shape += self.shape_unit[top]
            rest ^= 1 << top
        return code, shape

    def without(self, code: int, held: int, card: int) -> int:
        """The code (:meth:`code_of`) of ``held`` with ``card``, a card not in ``held``
        (just played), taken out of ``code``, the code of the two: its digit goes, and the
        digits of the cards above it move down one place."""
        place = count_bits(held & ((1 << card) - 1)) * self.bits
        low = code & ((1 << place) - 1)
        return ((code >> (place + self.bits)) << place) | low

    def sig_mask(self, sig: int, held: int) -> int:
        """The digits of the code of ``held`` (:meth:`code_of`) that hold the top cards the
        signature ``sig`` (:meth:`signature`) counts: a class of positions is those of one
        shape whose codes agree on these digits. (The shape fixes how many cards each suit
        holds, so these digits are the same top cards in every position of one shape.)"""
        mask = 0
        place = 0
        for i in range(len(self.suits)):
            top = (sig >> (SIG_BITS * i)) & SIG_MASK
            length = count_bits(held & self.suits[i])
            place += length * self.bits
            mask |= ((1 << (top * self.bits)) - 1) << (place - top * self.bits)
        return mask

    def full_sig(self, held: int) -> int:
        """The signature (:meth:`signature`) of ``held`` with every card relevant."""
        sig = 0
        for i in range(len(self.suits)):
            sig |= count_bits(held & self.suits[i]) << (SIG_BITS * i)
        return sig

    def signature(self, relevant: int, remaining: int) -> int:
        """The signature of the cards ``relevant`` among ``remaining``: for each suit, how
        many of its cards still held are as high as its lowest relevant card, or as the
        lowest card of the same seat and kind joined to it from below (a run of equivalent
        cards is searched as one, so it is never split between relevant and not), in
        ``SIG_BITS`` bits a suit. The cards it counts (:meth:`top_cards`) are left in
        :attr:`top`."""
        sig = 0
        top = 0
        for i in range(len(self.suits)):
            mine = relevant & self.suits[i]
            if mine:
                low = mine & -mine
                held = remaining & self.suits[i]
                below = held & (low - 1)
                code = self.card_code[low.bit_length() - 1]
                while below:
                    under = below.bit_length() - 1
                    if self.card_code[under] != code:
                        break
                    low = 1 << under
                    below ^= low
                counted = held & ~(low - 1)
                top |= counted
                sig |= count_bits(counted) << (SIG_BITS * i)
        self.top = top
        return sig

    def top_cards(self, sig: int, remaining: int) -> int:
        """The cards of ``remaining`` that the signature ``sig`` counts: in each suit, that
        many of its highest cards still held."""
        out = 0
        i = 0
        while sig:  # the suits from the first, to the last that counts a card
            top = sig & SIG_MASK
            sig >>= SIG_BITS
            rest = remaining & self.suits[i]
            i += 1
            while top > 0:
                high = 1 << (rest.bit_length() - 1)
                out |= high
                rest ^= high
                top -= 1
        return out

    def relative(self, card: int, remaining: int) -> int:
        """``card`` (one of ``remaining``) as its suit and its rank among the suit's cards
        ``remaining``: the same card of every position with the same :meth:`key`."""
        suit = self.suit_of[card]
        below = remaining & self.suit_mask[suit] & ((1 << card) - 1)
        return (suit << PLACE_BITS) | count_bits(below)

    def absolute(self, place: int, remaining: int) -> int:
        """The card of ``remaining`` at the relative place ``place`` (:meth:`relative`)."""
        rest = remaining & self.suit_mask[place >> PLACE_BITS]
        skip = place & ((1 << PLACE_BITS) - 1)
        while skip > 0:
            rest &= rest - 1
            skip -= 1
        return (rest & -rest).bit_length() - 1

    # -- equivalent cards ----------------------------------------------------------------
    def joined(self, low: int, high: int, in_play: int) -> bool:
        """True when ``low`` < ``high`` (one seat's cards) change nothing if swapped: the same
        suit and kind, and no card of ``in_play`` ranked between them."""
        if self.suit_of[low] != self.suit_of[high] or self.kind_of[low] != self.kind_of[high]:
            return False
        between = (1 << high) - (1 << (low + 1))
        return (in_play & between) == 0

    def representatives(self, legal: int, in_play: int) -> list[int]:
        """One card of each class of equivalent cards of ``legal`` (the highest of each run)."""
        out: list[int] = []
        rest = legal
        prev = -1
        while rest:
            bit = rest & -rest
            card = bit.bit_length() - 1
            rest ^= bit
            if prev >= 0 and self.joined(prev, card, in_play):
                out[len(out) - 1] = card
            else:
                out.append(card)
            prev = card
        return out

    def representative_mask(self, legal: int, in_play: int) -> int:
        """:meth:`representatives` as a mask: the cards of ``legal`` whose next card up in
        ``in_play`` is not joined to them (another suit or kind, or not in ``legal``)."""
        out = 0
        rest = legal
        while rest:
            bit = rest & -rest
            rest ^= bit
            above = in_play & ~((bit << 1) - 1)
            nxt = above & -above
            if not (nxt & rest):
                out |= bit
                continue
            low = bit.bit_length() - 1
            high = nxt.bit_length() - 1
            if self.suit_of[low] != self.suit_of[high] or self.kind_of[low] != self.kind_of[high]:
                out |= bit
        return out

    def class_of(self, card: int, legal: int, in_play: int) -> list[int]:
        """The cards of ``legal`` equivalent to ``card``, ``card`` first."""
        out = [card]
        low = card
        while True:  # down the run of joined cards, then up
            below = legal & ((1 << low) - 1)
            if not below:
                break
            nxt = below.bit_length() - 1
            if not self.joined(nxt, low, in_play):
                break
            out.append(nxt)
            low = nxt
        high = card
        while True:
            above = legal >> (high + 1)
            if not above:
                break
            nxt = high + 1 + ((above & -above).bit_length() - 1)
            if not self.joined(high, nxt, in_play):
                break
            out.append(nxt)
            high = nxt
        return out


def kinds(suit_of: list[int], marks: list[int], values: list[int]) -> list[int]:
    """Each card's kind within its suit: the cards of a suit that every mask of ``marks``
    marks alike and that have the same ``values`` (one number a card) share one, numbered
    from 0 in order of first card.

    >>> kinds([0, 0, 0, 0, 1], [0b00110, 0b10100], [0, 0, 0, 0, 0])  # 1, 2 and 4 marked
    [0, 1, 2, 0, 0]
    """
    seen: dict[tuple[int, int, int], int] = {}
    count = [0] * (max(suit_of) + 1 if suit_of else 0)
    out: list[int] = []
    for card in range(len(suit_of)):
        suit = suit_of[card]
        pattern = 0
        for mask in marks:
            pattern = (pattern << 1) | ((mask >> card) & 1)
        kind = seen.get((suit, pattern, values[card]))
        if kind is None:
            kind = count[suit]
            count[suit] += 1
            seen[(suit, pattern, values[card])] = kind
        out.append(kind)
    return out


def count_bits(mask: int) -> int:
    """How many bits of ``mask`` (0 or more) are set. Below ``2 ** 62`` (a deck of up to
    62 cards) in a machine word, by adding neighbouring counts (a loop over the bits, or
    ``int.bit_count``, which compiled code calls as a Python method, is several times
    slower); above, 16 bits at a time from a table.

    >>> count_bits(0b1011), count_bits((1 << 59) | 1), count_bits((1 << 70) | 3)
    (3, 2, 3)
    """
    if not mask >> 62:
        m: i64 = mask
        m = m - ((m >> 1) & 0x5555555555555555)
        m = (m & 0x3333333333333333) + ((m >> 2) & 0x3333333333333333)
        m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0F
        m = m + (m >> 8)
        m = m + (m >> 16)
        m = m + (m >> 32)
        return int(m & 0x7F)
    count = 0
    while mask:
        count += BIT_COUNTS[mask & 0xFFFF]
        mask >>= 16
    return count


def kth_lowest(cards: int, r: float) -> int:
    """The ``int(r * n)``-th lowest (from 0) of the ``n`` set bits of ``cards`` (a mask of
    at most 63 cards), ``0 <= r < 1``: a random walk's pick (:mod:`cardlab.solvekernel`).

    >>> kth_lowest(0b101100, 0.0), kth_lowest(0b101100, 0.5), kth_lowest(0b101100, 0.99)
    (2, 3, 5)
    """
    mask: i64 = cards
    k: i64 = int(r * float(count_bits(cards)))
    while k > 0:
        mask &= mask - 1
        k -= 1
    low: int = mask & -mask
    return low.bit_length() - 1


def trump_range(hands: list[int], seat: int, trumps: int) -> int:
    """The tricks the trumps still held (``trumps``; ``hands``: each seat's cards) surely
    give ``seat`` (the low 6 bits) and surely take from it (above): the exact solver's trump
    bound (:mod:`cardlab.solvekernel`).

    A trump of the seat wins its trick unless a higher trump of another falls on it, and
    a card falls on one trick only: all but as many as can be matched to a higher one
    (from the top down) win. An opponent's trump likewise takes its trick unless matched
    to a higher one of the seat's: the opponent with the most unmatched. Both read the
    holders of the trumps down to the seat's lowest; the shape says the rest.

    >>> # seat 0 holds trumps 5 and 2, seat 1 holds 4 and 3, seat 2 holds 1
    >>> got = trump_range([0b100100, 0b011000, 0b000010], 0, 0b111110)
    >>> got & 63, got >> 6  # the 5 wins one; seat 1's 4 and 3 take one (the 5 covers one)
    (1, 1)
    """
    mine = hands[seat] & trumps
    won = 0
    if mine:
        lowest = mine & -mine
        higher = 0  # the others' trumps above, not yet matched to one of the seat's
        rest = trumps & ~(lowest - 1)
        while rest:
            top = rest.bit_length() - 1
            rest ^= 1 << top
            if not (mine >> top) & 1:
                higher += 1
            elif higher:
                higher -= 1
            else:
                won += 1
    most = 0
    for other in range(len(hands)):
        theirs = hands[other] & trumps
        if other == seat or not theirs:
            continue
        cover = 0  # the seat's trumps above, not yet matched to one of theirs
        lost = 0
        rest = mine | theirs
        while rest:
            top = rest.bit_length() - 1
            rest ^= 1 << top
            if (mine >> top) & 1:
                cover += 1
            elif cover:
                cover -= 1
            else:
                lost += 1
        if lost > most:
            most = lost
    return most << 6 | won


class Classes:
    """The classes of positions the table holds for one shape, leader and summary part: a
    signature each (:meth:`Ranks.signature`) and its digits of the code
    (:meth:`Ranks.sig_mask`), the one that answered last first, and for each the entries
    found by the code's digits (an entry packs the bounds and the best card: see
    :mod:`cardlab.solvekernel`)."""

    def __init__(self) -> None:
        self.sigs: list[int] = []
        self.masks: list[int] = []
        self.tables: list[dict[int, int]] = []

    def find(self, sig: int, mask: int) -> int:
        """The place of signature ``sig`` (made on first use, with its digits ``mask``)."""
        for k in range(len(self.sigs)):
            if self.sigs[k] == sig:
                return k
        self.sigs.append(sig)
        self.masks.append(mask)
        self.tables.append({})
        return len(self.sigs) - 1

    def answered(self, k: int) -> None:
        """The signature at ``k`` answered: move it to the front (the next position of the
        shape is likely to be answered by it too, and each one tried before costs a miss)."""
        if k:
            self.sigs.insert(0, self.sigs.pop(k))
            self.masks.insert(0, self.masks.pop(k))
            self.tables.insert(0, self.tables.pop(k))


def purge(buckets: dict[int, Classes], at_most: int, left_mask: int, most_left: int) -> int:
    """The exact solver's table is full: keep in each class of ``buckets`` only the entries
    with the most tricks left (each entry's ``entry & left_mask``, at most ``most_left``),
    at most ``at_most`` of them in all, and return how many are kept.

    >>> classes = Classes()
    >>> _ = classes.find(0, 0)
    >>> classes.tables[0].update({1: 3, 2: 1, 3: 2})  # entries with 3, 1 and 2 tricks left
    >>> purge({0: classes}, 2, 7, 10), classes.tables[0]
    (2, {1: 3, 3: 2})
    """
    counts = [0] * (most_left + 1)
    for classes in buckets.values():
        for table in classes.tables:
            for entry in table.values():
                counts[min(entry & left_mask, most_left)] += 1
    keep = len(counts)
    kept = 0
    while keep > 0 and kept + counts[keep - 1] <= at_most:
        keep -= 1
        kept += counts[keep]
    for classes in buckets.values():
        for k in range(len(classes.tables)):
            classes.tables[k] = {key: entry for key, entry in classes.tables[k].items()
                                 if entry & left_mask >= keep}
    return kept
