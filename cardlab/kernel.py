"""The hot loops of the engines, compiled to C by mypyc when cardlab is installed.

Simulations and the speed targets spend nearly all their time in a few loops: shuffling the
deck for a deal, sorting each dealt hand into suits, copying hands for a clone, playing cards
to tricks, and the protocol loop itself (``legal_actions()``, then ``apply()``, step after
step). They live here, written once in plain typed Python. ``pip install`` (and so
``make lab`` and ``make test``) compiles this module with mypyc when a C compiler is at
hand, in one library with the part of Ted's Game's rules that runs at every step
(:mod:`cardlab.games.teds_game.kernel`); otherwise, or with ``CARDLAB_PURE=1`` set at install
time, the same source runs as ordinary Python and gives the same results, only slower.
:data:`COMPILED` says which one was loaded.

The engines call these functions, and the trick-taking games' states inherit
:class:`TrickKernel` (the trick state, and ``legal_actions``/``apply`` compiled); the rules of
each game (bids, the hat, the hook, scoring) stay in its own module, reached through the
table's hooks, or, for Ted's Game, in its compiled ``TedsKernel``, which extends the table.
Trick play is shared by every trick-taking game, so :func:`play_cards` is the one place
where a card goes on a trick and a trick is won.

The rules the trick games share are written here once, and everything else asks them: the
engines' table, the games' refusals and the exact solver's search (:mod:`cardlab.solvekernel`,
compiled in the same library, so that its calls are C calls): :func:`must_follow` (follow
suit), :func:`beats` (the trick's winner), :func:`dealer_of_hand` (the deal passes left) and
:func:`seeded_stream` (the randomness of every seeded deal).

>>> shuffle_prefix(bytes([0, 0, 0, 0, 0, 0, 0, 128, 255, 255, 255, 255]), 52, 3)
[0, 26, 51]
>>> hands = hands_by_suit([[5, 1, 4], [3]], suit_of=(0, 0, 1, 1, 2, 2), nsuits=3)
>>> hands
[[[1], [], [4, 5]], [[], [3], []]]
>>> copy = copy_hands(hands)
>>> copy == hands and copy[0][2] is not hands[0][2]
True
"""

from __future__ import annotations

from collections.abc import Callable
from hashlib import shake_128
from typing import Any, Final, cast

from mypy_extensions import i64, mypyc_attr

DEAL_MATERIAL: Final = "cardlab-deal"
"""The first part of every seeded deal's hash material (:func:`seeded_stream`)."""


def seeded_stream(seed: int | str, keys: tuple[int | str, ...], count: int) -> bytes:
    """``count`` 32-bit words (``4 * count`` bytes) that depend on ``(seed, *keys)`` alone:
    SHAKE-128 over ``cardlab-deal:seed:key:...``, the randomness of every seeded deal.

    SHAKE-128 is an extendable-output hash: one call gives any length, and a shorter output
    is the start of a longer one, so a deal that shuffles one place more reads the same words
    first. :func:`~cardlab.cards.seeded_cards` shuffles a deck by them.

    >>> seeded_stream(7, ("deal", 1), 2).hex()
    'e1122c1596863cd7'
    """
    material = ":".join([DEAL_MATERIAL, str(seed)] + [str(key) for key in keys])
    return shake_128(material.encode()).digest(4 * count)


def must_follow(led: int, holding: int) -> bool:
    """Follow suit: True when the seat to play must play a card of the suit led.

    That is when a card has been led (``led``, the suit led, is not -1) and the seat holds a
    card of that suit (``holding``, how many it holds or their bits, is not 0); otherwise it
    may play any card. ``holding`` is not read when ``led`` is -1, so a caller may look it up
    as ``hand[led]``: the last suit, ignored. The engines' table and the solver's search both
    ask this function, each with its own way of holding a hand.

    >>> must_follow(-1, 3), must_follow(2, 0), must_follow(2, 1)
    (False, False, True)
    """
    return led >= 0 and holding != 0


def fails_to_follow(held: list[list[int]], led: int, suit: int) -> bool:
    """True when a card of ``suit`` from ``held`` (a hand by suit) would renege: the seat must
    follow the suit led, ``led`` (:func:`must_follow`), and ``suit`` is another one.

    >>> fails_to_follow([[1], [5]], 0, 1), fails_to_follow([[], [5]], 0, 1)
    (True, False)
    """
    return suit != led and must_follow(led, len(held[led]))


def beats(card: int, suit: int, best: int, best_suit: int, trump: int) -> bool:
    """The trick's winner: True when ``card`` (of ``suit``) beats ``best``, the winning card
    so far (of ``best_suit``), with ``trump`` the trump suit (-1: none).

    A card beats a lower card of its own suit (ranks ascend within a suit, as every suited
    deck numbers them), and a trump beats any card that is not a trump; any other card
    loses, so the highest trump, else the highest card of the suit led, wins the trick.

    >>> beats(5, 0, 3, 0, -1), beats(20, 1, 12, 0, -1), beats(20, 1, 12, 0, 1)
    (True, False, True)
    """
    return (suit == best_suit and card > best) or (suit == trump and best_suit != trump)


def dealer_of_hand(first_dealer: int, hand: int, nseats: int) -> int:
    """Dealer rotation: the deal passes to the left (the next seat) after every hand, so hand
    ``hand`` (from 1) is dealt by the seat ``hand - 1`` places left of ``first_dealer``. A
    redeal of a hand keeps its dealer.

    >>> [dealer_of_hand(2, hand, 4) for hand in range(1, 6)]
    [2, 3, 0, 1, 2]
    """
    return (first_dealer + hand - 1) % nseats


def shuffle_prefix(stream: bytes, population: int, count: int) -> list[int]:
    """The first ``count`` places of a Fisher-Yates shuffle of ``0..population-1``.

    ``stream`` holds one little-endian 32-bit word per place. Place ``i`` takes the card at
    ``i + (word * (population - i) >> 32)``: scaling by multiply-and-shift favours no card
    by more than ``population / 2**32`` (below 2**-25 for Whot's 108 cards).
    """
    if count > population:
        raise ValueError(f"a {population}-card deck has no {count} places to shuffle")
    if len(stream) < 4 * count:
        raise ValueError(f"{count} places need {4 * count} bytes, not {len(stream)}")
    return cast(list[int], _shuffled(stream, population, count)[:count])


_ORDERED: Final = 128  # more cards than any deck of the games has (Whot: 108)
_IN_ORDER: Final[list[object]] = list(range(_ORDERED))


def _shuffled(stream: bytes, population: int, count: int) -> list[object]:
    """The deck ``0..population-1`` with its first ``count`` places shuffled (unchecked)."""
    # the cards as plain objects: a swap moves references, with no int unboxing or boxing
    # (a slice of the cards in order: quicker than list(range(...)))
    deck: list[object] = _IN_ORDER[:population] if population <= _ORDERED else list(
        range(population))
    remaining: i64 = population
    i: i64 = 0
    while i < count:
        at: i64 = 4 * i
        # each byte as a machine int before the shifts: no arbitrary-precision arithmetic
        b0: i64 = stream[at]
        b1: i64 = stream[at + 1]
        b2: i64 = stream[at + 2]
        b3: i64 = stream[at + 3]
        word: i64 = b0 | (b1 << 8) | (b2 << 16) | (b3 << 24)
        j: i64 = i + ((word * (remaining - i)) >> 32)
        card = deck[j]
        deck[j] = deck[i]
        deck[i] = card
        i += 1
    return deck


def hands_by_suit(hands: list[list[int]], suit_of: tuple[int, ...],
                  nsuits: int) -> list[list[list[int]]]:
    """Each hand as one ascending list per suit (seat → suit → cards)."""
    out: list[list[list[int]]] = []
    for cards in hands:
        ordered = sorted(cards)
        total = len(ordered)
        # A deck numbered suit by suit (as every suited deck is) sorts each suit together:
        # then each suit is one slice of the sorted hand.
        by_suit: list[list[int]] = []
        start = 0
        suit = 0
        while suit < nsuits:
            end = start
            while end < total and suit_of[ordered[end]] == suit:
                end += 1
            by_suit.append(ordered[start:end])
            start = end
            suit += 1
        if start < total:  # some card out of suit order: sort the hand into suits one by one
            by_suit = [[] for _ in range(nsuits)]
            for card in ordered:
                by_suit[suit_of[card]].append(card)
        out.append(by_suit)
    return out


def copy_hands(hands: list[list[list[int]]]) -> list[list[list[int]]]:
    """A copy of seat → suit → cards that shares no list with the original."""
    return [[cards[:] for cards in held] for held in hands]


PLAY: Final = "play"
"""The phase in which cards are played to tricks: games set ``phase`` to this very string."""


@mypyc_attr(allow_interpreted_subclasses=True)
class TrickKernel:
    """The trick state of a trick-taking game, and the protocol's hot path over it.

    A game's state class (``cardlab.games.trick_taking.state.TrickTaking``) inherits this:
    these fields are kept in the compiled object (a field read is a C struct read), and
    :meth:`legal_actions` and :meth:`apply` are compiled methods, so the loop that bots and
    playouts run (``legal_actions()``, then ``apply()``) calls C from the first step. While
    ``phase`` is not :data:`PLAY` both hand over to the game's Python hooks
    (``_legal_other``, ``_apply_other``): the rules of bids, the hat and the hook stay in
    each game's module; the play of a card goes straight to :func:`play_cards`.
    """

    hands: list[list[list[int]]]  # seat → suit → cards, each list ascending
    suit_of: tuple[int, ...]
    ncards: int
    nseats: int
    trump: int  # suit index, or -1 for no trump
    turn: int
    leader: int
    led: int  # suit led, or -1 before the first card of a trick
    trick: list[int]
    win_seat: int
    win_card: int
    history: list[tuple[int, tuple[int, ...], int]]  # (leader, cards in play order, winner)
    tricks_won: list[int]
    renege: tuple[int, int] | None  # (seat, card) of a renege entered in table mode
    dealt_hands: list[list[int]]  # the cards each seat was dealt this hand
    phase: str
    # Outside play, the legal actions when the game has them ready: a list never changed
    # (legal_actions returns a copy), or None, and the game's _legal_other says.
    legal_ready: list[int] | None

    def start_tricks(self, hands: list[list[int]], trump: int, leader: int,
                     nsuits: int) -> None:
        """A new hand's table: ``hands`` (seat → cards) sorted into suits, no card played."""
        _new_hand(self, hands_by_suit(hands, self.suit_of, nsuits), hands, trump, leader)

    def deal_stream(self, stream: bytes, size: int, first: int, leader: int,
                    nsuits: int) -> int:
        """Shuffle, deal and start a hand in one pass; return the next card of the deck.

        The deck is shuffled by ``stream`` as :func:`shuffle_prefix` shuffles it (one word
        per place, as many places as the stream has words, at most the whole deck), and
        ``size`` cards each are dealt one at a time from its top, from seat ``first`` on, as
        :func:`~cardlab.cards.deal_round_robin` deals them. The table is then what
        :meth:`start_tricks` makes of those hands in ``nsuits`` suits (each seat's dealt
        cards in ascending order), with no trump yet and ``leader`` to lead. The card after
        the dealt ones (the one a game turns up) is returned, or -1 when the stream has no
        word for it.
        """
        return deal_into(self, stream, size, first, leader, nsuits)

    def legal_actions(self) -> list[int]:
        """The seat to act's choices: in play, the suit led if held, else the whole hand in
        suit order (a new list each time); in other phases, a copy of ``legal_ready`` when
        the game has it ready, else the game's ``_legal_other``."""
        if self.phase is not PLAY:
            ready = self.legal_ready
            if ready is not None:
                return ready[:]
            return self._legal_other()
        held = self.hands[self.turn]
        nsuits = len(held)
        if nsuits == 0:
            return []
        led = self.led
        if must_follow(led, len(held[led])):
            return held[led][:]
        out = held[0][:]
        suit = 1
        while suit < nsuits:
            out.extend(held[suit])
            suit += 1
        return out

    def apply(self, action: int) -> None:
        """Apply ``action`` for the seat to act: in play, a card through :func:`play_cards`
        (``_illegal_play`` refuses, or records, one that may not be played); in other phases,
        the game's ``_apply_other``."""
        if self.phase is not PLAY:
            self._apply_other(action)
        elif not play_cards(self, action, None):
            self._illegal_play(action)

    def clone_state(self, lists: tuple[str, ...], tables: tuple[str, ...]) -> TrickKernel:
        """A copy of the whole state: a new instance of the game's class, no ``__init__``.

        The instance dict (the game's own attributes) is copied, with new copies of the
        ``lists`` that a move changes in place and of each row of the ``tables`` (lists of
        lists); the table's fields as :meth:`copy_table_into` gives them.
        """
        cls = type(self)
        other: TrickKernel = cls.__new__(cls)
        mine: dict[str, Any] = self.__dict__
        theirs = mine.copy()
        for name in lists:
            theirs[name] = list(mine[name])
        for name in tables:
            theirs[name] = [list(row) for row in mine[name]]
        other.__dict__ = theirs
        self.copy_table_into(other)
        return other

    def copy_table_into(self, other: TrickKernel) -> None:
        """Give ``other`` this table: what a move changes is copied, the rest is shared.

        The dealt hands and the card tables are never changed after they are made, and the
        history's tuples are immutable, so those are shared; hands (but for their empty suits,
        which never grow), trick and counts are new.
        """
        copy_tricks(self, other)

    # The game's hooks (overridden by each game's Python class).
    def _legal_other(self) -> list[int]:
        raise NotImplementedError

    def _apply_other(self, action: int) -> None:
        raise NotImplementedError

    def _illegal_play(self, action: int) -> None:
        raise NotImplementedError

    def _play_over(self) -> None:
        """Called when the last trick of the hand has been won: score the hand."""
        raise NotImplementedError


def deal_into(table: TrickKernel, stream: bytes, size: int, first: int, leader: int,
              nsuits: int) -> int:
    """:meth:`TrickKernel.deal_stream`, as a function: the games' compiled code calls it
    directly (a method would be looked up by name on a state of an interpreted class)."""
    nseats: i64 = table.nseats
    population: i64 = table.ncards
    places: i64 = len(stream) // 4
    if places > population:
        places = population
    dealt: i64 = nseats * size
    if dealt > places:
        raise ValueError(f"{nseats} hands of {size} need {dealt} words, not {places}")
    deck = _shuffled(stream, population, places)  # as shuffle_prefix shuffles
    suit_of = table.suit_of
    tables, starts = _suit_tables(suit_of, nsuits)
    hands: list[list[list[int]]] = []
    cards_of: list[list[int]] = []
    # 1, but not a constant: mypyc would shift a C int literal (32 bits) for 1 << card
    one: i64 = dealt - dealt + 1
    seat: i64 = 0
    while seat < nseats:
        # the seat's cards: places k, k + nseats, ... of the deck for seat first + k
        i: i64 = seat - first if seat >= first else seat - first + nseats
        by_suit: list[list[int]] = []
        mine: list[int] = []
        if not tables:  # no machine word holds a hand, or no tables: sort, then split
            k: i64 = 0
            while k < nsuits:
                by_suit.append([])
                k += 1
            mine = sorted([cast(int, deck[j]) for j in range(i, dealt, nseats)])
            for dealt_card in mine:
                by_suit[suit_of[dealt_card]].append(dealt_card)
        else:  # as the bits of one machine word, each suit's list read from its tables
            mask: i64 = 0
            while i < dealt:
                card: i64 = cast(int, deck[i])
                mask |= one << card
                i += nseats
            suit: i64 = 0
            while suit < nsuits:
                bits: i64 = mask >> starts[suit]
                low = tables[2 * suit]
                high = tables[2 * suit + 1]
                by_suit.append(low[bits & (len(low) - 1)] +
                               high[(bits >> CHUNK) & (len(high) - 1)])
                suit += 1
            for cards in by_suit:  # the suits in card order: the hand ascending
                mine.extend(cards)
        hands.append(by_suit)
        cards_of.append(mine)
        seat += 1
    _new_hand(table, hands, cards_of, -1, leader)
    return cast(int, deck[dealt]) if dealt < places else -1


CHUNK: Final = 10  # ranks per table of a suit: 2**10 lists


def suit_tables(suit_of: tuple[int, ...], nsuits: int
                ) -> tuple[list[list[list[int]]], list[int]]:
    """For a deck numbered suit by suit, ranks ascending, at most 63 cards and 2 * CHUNK
    ranks a suit: per suit two tables (its low CHUNK ranks, then the rest), each the list of
    the suit's cards for every pattern of held cards, and the suit's first card. Else empty.

    A hand held as bits then makes each suit's list in one step: the lists of the two
    patterns its bits show, joined.

    >>> tables, starts = suit_tables((0, 0, 0, 1, 1), 2)
    >>> starts, tables[0], tables[2]  # suit 0: cards 0-2; suit 1: cards 3-4
    ([0, 3], [[], [0], [1], [0, 1], [2], [0, 2], [1, 2], [0, 1, 2]], [[], [3], [4], [3, 4]])
    """
    tables: list[list[list[int]]] = []
    starts: list[int] = []
    if len(suit_of) > 63:
        return [], []
    card = 0
    for suit in range(nsuits):
        start = card
        while card < len(suit_of) and suit_of[card] == suit:
            card += 1
        ranks = card - start
        if ranks > 2 * CHUNK:
            return [], []
        starts.append(start)
        for first, width in ((start, min(ranks, CHUNK)), (start + CHUNK, max(ranks - CHUNK, 0))):
            tables.append([[first + r for r in range(width) if pattern >> r & 1]
                           for pattern in range(1 << width)])
    if card != len(suit_of):  # a card out of suit order
        return [], []
    return tables, starts


# suit_tables of the decks dealt so far, by the identity of their suit_of tuple (a deck's
# tuple lives as long as the game module: each is made once)
_TABLES: dict[int, tuple[tuple[int, ...], list[list[list[int]]], list[int]]] = {}


def _suit_tables(suit_of: tuple[int, ...], nsuits: int
                 ) -> tuple[list[list[list[int]]], list[int]]:
    entry = _TABLES.get(id(suit_of))
    if entry is None or entry[0] is not suit_of:
        tables, starts = suit_tables(suit_of, nsuits)
        entry = (suit_of, tables, starts)
        _TABLES[id(suit_of)] = entry
    return entry[1], entry[2]


def _new_hand(table: TrickKernel, hands: list[list[list[int]]], dealt: list[list[int]],
              trump: int, leader: int) -> None:
    """The table at the start of a hand: ``hands`` held (by suit), as ``dealt``, no card
    played, ``leader`` to lead."""
    table.hands = hands
    table.trump = trump
    table.turn = leader
    table.leader = leader
    table.led = -1
    table.trick = []
    table.win_seat = -1
    table.win_card = -1
    table.history = []
    table.tricks_won = [0] * len(hands)
    table.renege = None
    table.dealt_hands = dealt
    table.legal_ready = None


def copy_tricks(table: TrickKernel, other: TrickKernel) -> None:
    """:meth:`TrickKernel.copy_table_into`, as a function (see :func:`deal_into`)."""
    # An empty suit is shared: no hand's list ever grows (a deal makes new ones), and a
    # play only takes from a suit that holds cards.
    other.hands = [[cards[:] if cards else cards for cards in held] for held in table.hands]
    other.suit_of = table.suit_of
    other.ncards = table.ncards
    other.nseats = table.nseats
    other.trump = table.trump
    other.turn = table.turn
    other.leader = table.leader
    other.led = table.led
    other.trick = table.trick[:]
    other.win_seat = table.win_seat
    other.win_card = table.win_card
    other.history = table.history[:]
    other.tricks_won = table.tricks_won[:]
    other.renege = table.renege
    other.dealt_hands = table.dealt_hands
    other.phase = table.phase
    other.legal_ready = table.legal_ready


TABLE_FIELDS: Final = ("hands", "suit_of", "ncards", "nseats", "trump", "turn", "leader", "led",
                       "trick", "win_seat", "win_card", "history", "tricks_won", "renege",
                       "dealt_hands", "phase", "legal_ready")
"""The fields of :class:`TrickKernel`, for pickling a state (the compiled object has no dict)."""


def play_cards(table: TrickKernel, card: int, rand: Callable[[], float] | None) -> bool:
    """Play ``card`` for the seat to act, or with ``rand`` random cards to the end of play.

    With ``rand`` None: returns False, changing nothing, when the seat does not hold
    ``card`` or it fails to follow suit. With ``rand``: plays uniformly random legal cards
    until every card is played, each the ``int(rand() * n)``-th of the ``n`` legal cards
    in the order ``legal_actions`` lists them (the suit led, else the hand in suit order).

    Either way each card goes on the trick through :func:`_place`.
    """
    if rand is None:
        if card < 0 or card >= table.ncards:
            return False
        suit = table.suit_of[card]
        held = table.hands[table.turn]
        if fails_to_follow(held, table.led, suit):
            return False
        cards = held[suit]
        at = 0
        for held_card in cards:  # one scan finds the card (or not) and where it is
            if held_card == card:
                cards.pop(at)  # a list pop compiles to a direct call (del would not)
                _place(table, card, suit)
                return True
            at += 1
        return False
    while True:
        seat = table.turn
        held = table.hands[seat]
        led = table.led
        if must_follow(led, len(held[led])):  # a random card of the suit led
            cards = held[led]
            card = cards.pop(int(rand() * len(cards)))
            suit = led
        else:  # any card: the k-th of the hand in suit order, as legal_actions lists it
            # A seat still to play in this trick holds its dealt cards less one per trick.
            k = int(rand() * (len(table.dealt_hands[seat]) - len(table.history)))
            cards = held[0]
            for cards in held:
                if k < len(cards):
                    break
                k -= len(cards)
            card = cards.pop(k)
            suit = table.suit_of[card]
        if _place(table, card, suit):
            return True


def _place(table: TrickKernel, card: int, suit: int) -> bool:
    """Put ``card`` (of ``suit``, just taken from the hand of the seat to act) on the trick.

    The winning card so far is kept (:func:`beats`), and after the last seat the trick goes
    to its winner, who leads next. When the winner has no card left to lead, the hand's play
    is over: ``table._play_over()`` lets the game score it, and True says so.
    """
    trick = table.trick
    trick.append(card)
    seat = table.turn
    if table.led < 0:
        table.led = suit
        table.win_seat = seat
        table.win_card = card
    else:
        win_card = table.win_card
        if beats(card, suit, win_card, table.suit_of[win_card], table.trump):
            table.win_seat = seat
            table.win_card = card
    nseats = table.nseats
    if len(trick) < nseats:
        table.turn = seat + 1 if seat + 1 < nseats else 0
        return False
    winner = table.win_seat
    history = table.history
    history.append((table.leader, tuple(trick), winner))
    table.tricks_won[winner] += 1
    trick.clear()
    table.led = -1
    table.turn = winner
    table.leader = winner
    if len(table.dealt_hands[winner]) == len(history):  # no card left to lead: play is over
        table._play_over()
        return True
    return False


def _probe() -> None:
    """A function to look at: compiled, it is a builtin rather than a Python function."""


COMPILED: Final = type(_probe).__name__ != "function"
