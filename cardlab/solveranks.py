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
(partition search, as in double-dummy bridge solvers): :meth:`Ranks.prepare` reads a
position's shape, :meth:`Ranks.signature` how many top cards of each suit a class counts, and
:meth:`Ranks.sig_code` their holders; :meth:`Ranks.relative` and :meth:`Ranks.absolute` carry
a best card from one position to another.

Cards are bits of an int (card ``c`` is ``1 << c``), numbered suit by suit, each suit
ascending, as every suited deck is.

>>> # one suit of 5 cards (0-4), two seats: seat 0 holds 0, 3 and 4, seat 1 holds 1 and 2
>>> ranks = Ranks([0] * 5, [0b11111], [0b11001, 0b00110], [0] * 5, 3)
>>> ranks.representatives(0b00110, 0b11111)  # 1 and 2: nothing between them, one class
[2]
>>> # {4, 0: seat 0; 2: seat 1} and {4, 3: seat 0; 1: seat 1}: one shape
>>> ranks.prepare(0b10101, 2) == ranks.prepare(0b11010, 1)
True
>>> top = ranks.signature(0b10000, 0b10101)  # only the 4's rank matters: one top card
>>> ranks.sig_code(top, 2) == ranks.sig_code(top, 1)  # seat 0's in both: one class
True
>>> ranks.sig_code(ranks.full(2), 2) == ranks.sig_code(ranks.full(1), 1)  # every card
False
>>> ranks.absolute(ranks.relative(4, 0b10101), 0b11010)  # seat 0's top card in both
4
"""

from __future__ import annotations

from typing import Final

# A card's relative place (Ranks.relative): its suit above this many bits, its rank among the
# suit's cards still held below (a suit has fewer than 256 cards).
PLACE_BITS: Final = 8
# A signature (Ranks.signature) gives each suit this many bits: how many of its top cards
# still held are relevant (fewer than 256).
SIG_BITS: Final = 8
SIG_MASK: Final = (1 << SIG_BITS) - 1


class Ranks:
    """The ranks of one search's cards: ``suit_of`` each card's suit, ``suit_mask`` each
    suit's cards, ``hands`` each seat's cards at the root (who holds each card never
    changes), ``kind_of`` each card's kind (cards of different kinds are never merged)."""

    def __init__(self, suit_of: list[int], suit_mask: list[int], hands: list[int],
                 kind_of: list[int], depth: int) -> None:
        self.suit_of = suit_of
        self.kind_of = kind_of
        self.suit_mask = suit_mask
        held = 0
        for hand in hands:
            held |= hand
        kinds = max(kind_of) + 1 if kind_of else 1
        values = len(hands) * kinds
        self.bits = max(1, (values - 1).bit_length())
        # each held card's code in the key: its holder and kind
        self.code = [0] * len(suit_of)
        for seat in range(len(hands)):
            rest = hands[seat]
            while rest:
                low = rest & -rest
                card = low.bit_length() - 1
                self.code[card] = seat * kinds + kind_of[card]
                rest ^= low
        # the suits that hold cards
        self.suits: list[int] = []
        for mask in suit_mask:
            if mask & held:
                self.suits.append(mask & held)
        # A suit's shape (prepare) is how many cards of each holder and kind (each code) it
        # holds, as one number in mixed radix: the count of code v times the product of
        # (1 + the count at the root) of the codes below it. Each suit's shape has its
        # width, as does the signature.
        self.radix: list[list[int]] = []
        self.shape_widths: list[int] = []
        for suit in self.suits:
            counts = [0] * values
            rest = suit
            while rest:
                low = rest & -rest
                counts[self.code[low.bit_length() - 1]] += 1
                rest ^= low
            radix = []
            product = 1
            for count in counts:
                radix.append(product)
                product *= count + 1
            self.radix.append(radix)
            self.shape_widths.append(max(1, (product - 1).bit_length()))
        self.shape_width = sum(self.shape_widths)
        self.sig_width = SIG_BITS * len(self.suits)
        # the positions prepared, one for each number of tricks left (``depth``): each
        # suit's code (its cards' codes from the highest down), how many cards it holds and
        # its shape
        self.suit_codes: dict[int, tuple[int, int, int]] = {}
        self.now: list[tuple[int, int, int]] = [(0, 0, 0)] * ((depth + 1) * len(self.suits))

    # -- classes of positions (partition search) -----------------------------------------
    def prepare(self, remaining: int, depth: int) -> int:
        """Read the cards ``remaining`` for :meth:`sig_code` at ``depth``, and return their
        *shape*: suit by suit, how many cards of each kind each seat holds. Positions of
        one shape differ only in which seat holds which of a suit's cards."""
        shape = 0
        at = depth * len(self.suits)
        for i in range(len(self.suits)):
            held = remaining & self.suits[i]
            got = self.suit_codes.get(held)
            if got is None:
                code = 0
                length = 0
                pattern = 0
                radix = self.radix[i]
                rest = held
                while rest:  # from the highest card down: a class keeps the top of a code
                    top = rest.bit_length() - 1
                    value = self.code[top]
                    code = (code << self.bits) | value
                    pattern += radix[value]
                    length += 1
                    rest ^= 1 << top
                got = (code, length, pattern)
                self.suit_codes[held] = got
            self.now[at + i] = got
            shape = (shape << self.shape_widths[i]) | got[2]
        return shape

    def full(self, depth: int) -> int:
        """The signature (:meth:`signature`) of the position prepared at ``depth`` with
        every card relevant."""
        sig = 0
        at = depth * len(self.suits)
        for i in range(len(self.suits)):
            sig |= self.now[at + i][1] << (SIG_BITS * i)
        return sig

    def sig_code(self, sig: int, depth: int) -> int:
        """The position prepared at ``depth`` (:meth:`prepare`) as its class of signature
        ``sig``: suit by suit, the holder and kind of each of the top cards the signature
        counts. Positions of one shape, leader and summary whose codes agree are the same
        position up to who holds the cards below those. (The shape and the signature fix
        each suit's length in the code, so the codes of one signature read one way only.)"""
        key = 0
        at = depth * len(self.suits)
        for i in range(len(self.suits)):
            top = (sig >> (SIG_BITS * i)) & SIG_MASK
            code, length, _ = self.now[at + i]
            key = (key << (self.bits * top)) | (code >> (self.bits * (length - top)))
        return key

    def signature(self, relevant: int, remaining: int) -> int:
        """The signature of the cards ``relevant`` among ``remaining``: for each suit, how
        many of its cards still held are as high as its lowest relevant card, or as the
        lowest card of the same seat and kind joined to it from below (a run of equivalent
        cards is searched as one, so it is never split between relevant and not), in
        ``SIG_BITS`` bits a suit. The cards it counts are :meth:`top_cards`."""
        sig = 0
        for i in range(len(self.suits)):
            mine = relevant & self.suits[i]
            if mine:
                low = mine & -mine
                held = remaining & self.suits[i]
                below = held & (low - 1)
                code = self.code[low.bit_length() - 1]
                while below:
                    under = below.bit_length() - 1
                    if self.code[under] != code:
                        break
                    low = 1 << under
                    below ^= low
                sig |= popcount(held & ~(low - 1)) << (SIG_BITS * i)
        return sig

    def top_cards(self, sig: int, remaining: int) -> int:
        """The cards of ``remaining`` that the signature ``sig`` counts: in each suit, that
        many of its highest cards still held."""
        out = 0
        for i in range(len(self.suits)):
            top = (sig >> (SIG_BITS * i)) & SIG_MASK
            rest = remaining & self.suits[i]
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
        return (suit << PLACE_BITS) | popcount(below)

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


def popcount(mask: int) -> int:
    """How many bits of ``mask`` (0 or more) are set.

    >>> popcount(0b1011)
    3
    """
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


class Classes:
    """The classes of positions the table holds for one shape, leader and summary part: a
    signature each (:meth:`Ranks.signature`), the one that answered last first, and for
    each the bounds found by its code (:meth:`Ranks.sig_code`): ``(low, high, place)``."""

    def __init__(self) -> None:
        self.sigs: list[int] = []
        self.tables: list[dict[int, tuple[int, int, int]]] = []

    def table(self, sig: int) -> dict[int, tuple[int, int, int]]:
        """The entries of signature ``sig`` (made on first use)."""
        for k in range(len(self.sigs)):
            if self.sigs[k] == sig:
                return self.tables[k]
        table: dict[int, tuple[int, int, int]] = {}
        self.sigs.append(sig)
        self.tables.append(table)
        return table

    def answered(self, k: int) -> None:
        """The signature at ``k`` answered: move it one place to the front."""
        if k:
            self.sigs[k], self.sigs[k - 1] = self.sigs[k - 1], self.sigs[k]
            self.tables[k], self.tables[k - 1] = self.tables[k - 1], self.tables[k]
