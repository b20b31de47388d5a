"""The hot loops of the engines, compiled to C by mypyc when cardlab is installed.

Simulations and the speed targets spend nearly all their time in a few loops: shuffling the
deck for a deal, copying a state for a clone, playing cards to tricks, and the protocol loop
itself (``legal_actions()``, then ``apply()``, step after step). They live here, written once
in plain typed Python. ``pip install`` (and so ``make lab`` and ``make test``) compiles this
module with mypyc when a C compiler is at hand, in one library with the part of Ted's Game's
rules that runs at every step (:mod:`cardlab.games.teds_game.kernel`); otherwise, or with
``CARDLAB_PURE=1`` set at install time, the same source runs as ordinary Python and gives the
same results, only slower. :data:`COMPILED` says which one was loaded.

The engines call these functions, and the trick-taking games' states inherit
:class:`TrickKernel` (the trick state, and ``legal_actions``/``apply`` compiled); the rules of
each game (bids, the hat, the hook, scoring) stay in its own module, reached through the
table's hooks, or, for Ted's Game, in its compiled ``TedsKernel``, which extends the table.
Trick play is shared by every trick-taking game, so :func:`play_cards` is the one place
where a card goes on a trick and a trick is won.

A hand is held as bits, as the exact solver's search holds it: card ``c`` is ``1 << c``, each
seat's dealt cards one int, and the cards played so far another, so what a seat holds is its
dealt cards less those played, a follow-suit check is one ``&`` with the suit's cards, and a
copy of the table copies two ints and three short lists. The lists the other modules read
(``hands``: seat → suit → cards, ``dealt_hands``, ``trick``, ``history``) are made from the
bits when asked.

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
    return material_stream(deal_material(seed, keys), count)


def deal_material(seed: int | str, keys: tuple[int | str, ...]) -> str:
    """What :func:`seeded_stream` hashes for ``(seed, *keys)``: ``cardlab-deal:seed:key:...``.

    One key more appends ``:key``, so a caller that deals many hands of one seed makes its
    seed's material once and appends each hand's number (Ted's Game's deal).

    >>> deal_material(7, ("deal", 1)) == deal_material(7, ("deal",)) + ":1"
    True
    """
    # the material built by concatenation (one pass in C), not a list joined
    material = DEAL_MATERIAL + ":" + str(seed)
    for key in keys:
        material += ":" + str(key)
    return material


def material_stream(material: str, count: int) -> bytes:
    """``count`` 32-bit words of SHAKE-128 over ``material`` (:func:`deal_material`)."""
    return shake_128(material.encode()).digest(4 * count)


def must_follow(led: i64, holding: i64) -> bool:
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


def beats(card: i64, suit: i64, best: i64, best_suit: i64, trump: i64) -> bool:
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
        by_suit: list[list[int]] = [[] for _ in range(nsuits)]
        for card in sorted(cards):
            by_suit[suit_of[card]].append(card)
        out.append(by_suit)
    return out


def copy_hands(hands: list[list[list[int]]]) -> list[list[list[int]]]:
    """A copy of seat → suit → cards that shares no list with the original."""
    return [[cards[:] for cards in held] for held in hands]


MAX_CARDS: Final = 63
"""The most cards a trick game's deck may have: a hand is held in one 64-bit word."""


def bit(card: i64) -> i64:
    """The card as bits: ``1 << card``.

    >>> bit(5)
    32
    """
    one: i64 = card - card + 1  # not a literal: mypyc would shift a C int (32 bits)
    return one << card


def low_card(mask: i64) -> i64:
    """The lowest card of ``mask`` (not 0).

    >>> low_card(40), low_card(1 << 62)
    (3, 62)
    """
    return int(mask & -mask).bit_length() - 1


def mask_of(cards: list[int]) -> i64:
    """The cards as bits (card ``c`` is ``1 << c``).

    >>> mask_of([0, 3, 5])
    41
    """
    mask: i64 = 0
    for card in cards:
        mask |= bit(card)
    return mask


def cards_of(mask: i64) -> list[int]:
    """The cards of ``mask`` (card ``c`` is ``1 << c``), ascending.

    >>> cards_of(41)
    [0, 3, 5]
    """
    out: list[int] = []
    while mask:
        out.append(low_card(mask))
        mask &= mask - 1
    return out


def count_of(mask: i64) -> i64:
    """How many cards ``mask`` holds.

    >>> count_of(41)
    3
    """
    n: i64 = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def kth_card(mask: i64, k: i64) -> i64:
    """The ``k``-th lowest card (from 0) of ``mask``, which holds more than ``k``.

    >>> kth_card(41, 1)
    3
    """
    while k > 0:
        mask &= mask - 1
        k -= 1
    return low_card(mask)


def deck_masks(suit_of: tuple[int, ...], nsuits: int) -> tuple[list[int], bool]:
    """Each suit's cards as bits, and whether the deck is numbered suit by suit (then the
    cards in suit order are the cards in ascending order).

    >>> deck_masks((0, 0, 1, 1, 2), 3), deck_masks((0, 1, 0), 2)
    (([3, 12, 16], True), ([5, 2], False))
    """
    if len(suit_of) > MAX_CARDS:
        raise ValueError(f"a trick game's deck has at most {MAX_CARDS} cards (a hand is held "
                         f"in one 64-bit word), not {len(suit_of)}")
    masks = [0] * nsuits
    ordered = True
    card = 0
    for suit in suit_of:
        masks[suit] |= bit(card)
        if card and suit < suit_of[card - 1]:
            ordered = False
        card += 1
    return masks, ordered


# deck_masks of the decks dealt so far, by the identity of their suit_of tuple (a deck's
# tuple lives as long as the game module: each is made once)
_DECKS: dict[int, tuple[tuple[int, ...], list[int], bool, bytes]] = {}


def _deck(table: TrickKernel, nsuits: int) -> None:
    """Give the table its deck's suit masks and suits as bytes (made once per deck)."""
    suit_of = table.suit_of
    entry = _DECKS.get(id(suit_of))
    if entry is None or entry[0] is not suit_of or len(entry[1]) != nsuits:
        masks, ordered = deck_masks(suit_of, nsuits)
        entry = (suit_of, masks, ordered, bytes(suit_of))
        _DECKS[id(suit_of)] = entry
    table.suit_masks = entry[1]
    table.suit_ordered = entry[2]
    table.suits = entry[3]
    table.nsuits = nsuits


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

    The hand is held as bits (see the module's docstring); ``hands``, ``dealt_hands``,
    ``trick`` and ``history`` are lists made from them when read.
    """

    suit_of: tuple[int, ...]
    suit_masks: list[int]  # each suit's cards as bits (the deck's own list: never changed)
    suits: bytes  # suit_of, a byte a card (read without unboxing)
    suit_ordered: bool  # the deck is numbered suit by suit
    ncards: i64
    nseats: i64
    nsuits: i64
    dealt: list[int]  # per seat, the cards dealt this hand as bits (never changed in place)
    gone: i64  # the cards played this hand (tricks won and the trick on the table) as bits
    played: list[int]  # the cards played this hand, in play order
    winners: list[int]  # the winner of each trick won so far
    first_leader: i64  # who led the hand's first trick (once a card is played)
    trump: i64  # suit index, or -1 for no trump
    turn: i64
    leader: i64
    led: i64  # suit led, or -1 before the first card of a trick
    win_seat: i64
    win_card: i64
    tricks_won: list[int]
    renege: tuple[int, int] | None  # (seat, card) of a renege entered in table mode
    phase: str
    # Outside play, the legal actions when the game has them ready: a list never changed
    # (legal_actions returns a copy), or None, and the game's _legal_other says.
    legal_ready: list[int] | None

    def start_tricks(self, hands: list[list[int]], trump: int, leader: int,
                     nsuits: int) -> None:
        """A new hand's table: ``hands`` (seat → cards) held, no card played."""
        _deck(self, nsuits)
        _new_hand(self, [mask_of(cards) for cards in hands], trump, leader)

    def deal_stream(self, stream: bytes, size: int, first: int, leader: int,
                    nsuits: int) -> int:
        """Shuffle, deal and start a hand in one pass; return the next card of the deck.

        The deck is shuffled by ``stream`` as :func:`shuffle_prefix` shuffles it (one word
        per place, as many places as the stream has words, at most the whole deck), and
        ``size`` cards each are dealt one at a time from its top, from seat ``first`` on, as
        :func:`~cardlab.cards.deal_round_robin` deals them. The table is then what
        :meth:`start_tricks` makes of those hands in ``nsuits`` suits, with no trump yet and
        ``leader`` to lead. The card after the dealt ones (the one a game turns up) is
        returned, or -1 when the stream has no word for it.
        """
        return deal_into(self, stream, size, first, leader, nsuits)

    # -- the lists other modules read, made from the bits --------------------------------
    @property
    def hands(self) -> list[list[list[int]]]:
        """What each seat holds: seat → suit → cards, each list ascending (a new list)."""
        gone = self.gone
        return [_by_suit(self, held & ~gone) for held in self.dealt]

    @property
    def dealt_hands(self) -> list[list[int]]:
        """The cards each seat was dealt this hand, ascending (a new list)."""
        return [cards_of(held) for held in self.dealt]

    @dealt_hands.setter
    def dealt_hands(self, hands: list[list[int]]) -> None:
        """Deal these cards instead (the sampler's): each seat holds them less those it has
        played."""
        self.dealt = [mask_of(cards) for cards in hands]

    @property
    def trick(self) -> list[int]:
        """The cards on the table, in play order (a new list)."""
        return self.played[len(self.winners) * self.nseats:]

    @property
    def history(self) -> list[tuple[int, tuple[int, ...], int]]:
        """The tricks won so far: (leader, cards in play order, winner) (a new list)."""
        out: list[tuple[int, tuple[int, ...], int]] = []
        n = self.nseats
        played = self.played
        leader = self.first_leader
        at = 0
        for winner in self.winners:
            out.append((leader, tuple(played[at:at + n]), winner))
            leader = winner
            at += n
        return out

    def held(self, seat: int) -> i64:
        """What ``seat`` holds, as bits."""
        return held_by(self, seat)

    def legal_actions(self) -> list[int]:
        """The seat to act's choices: in play, the suit led if held, else the whole hand in
        suit order (a new list each time); in other phases, a copy of ``legal_ready`` when
        the game has it ready, else the game's ``_legal_other``."""
        if self.phase is not PLAY:
            ready = self.legal_ready
            if ready is not None:
                return ready[:]
            return self._legal_other()
        seat = self.turn
        if seat < 0:
            return []
        return _in_suit_order(self, _choices(self, self.dealt[seat] & ~self.gone))

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

        The deck's masks and the dealt cards are never changed in place, so those are shared;
        the cards played, the winners and the counts are new.
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


def held_by(table: TrickKernel, seat: int) -> i64:
    """:meth:`TrickKernel.held`, as a function (compiled code calls it directly: a method of
    a state of an interpreted class is looked up by name)."""
    return table.dealt[seat] & ~table.gone


def _by_suit(table: TrickKernel, held: i64) -> list[list[int]]:
    """``held`` (bits) as one ascending list per suit."""
    return [cards_of(held & suit) for suit in table.suit_masks]


def _choices(table: TrickKernel, held: i64) -> i64:
    """The cards of ``held`` (the seat to act's) that may be played now: the suit led if
    held (:func:`must_follow`), else all."""
    led = table.led
    follow: i64 = held & table.suit_masks[led]  # led -1: the last suit, not read
    return follow if must_follow(led, follow) else held


def _in_suit_order(table: TrickKernel, cards: i64) -> list[int]:
    """The cards of ``cards`` in suit order, each suit ascending (a new list)."""
    if table.suit_ordered:
        return cards_of(cards)
    out: list[int] = []
    for suit in table.suit_masks:
        out.extend(cards_of(cards & suit))
    return out


def _kth_in_suit_order(table: TrickKernel, cards: i64, k: i64) -> i64:
    """The ``k``-th card (from 0) of ``cards`` in suit order."""
    if table.suit_ordered:
        return kth_card(cards, k)
    for suit in table.suit_masks:
        mine: i64 = cards & suit
        n = count_of(mine)
        if k < n:
            return kth_card(mine, k)
        k -= n
    return -1


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
    masks: list[int] = []
    seat: i64 = 0
    while seat < nseats:
        # the seat's cards: places k, k + nseats, ... of the deck for seat first + k
        i: i64 = seat - first if seat >= first else seat - first + nseats
        mask: i64 = 0
        while i < dealt:
            mask |= bit(cast(int, deck[i]))
            i += nseats
        masks.append(mask)
        seat += 1
    _deck(table, nsuits)
    _new_hand(table, masks, -1, leader)
    return cast(int, deck[dealt]) if dealt < places else -1


def _new_hand(table: TrickKernel, dealt: list[int], trump: int, leader: int) -> None:
    """The table at the start of a hand: ``dealt`` held (bits per seat), no card played,
    ``leader`` to lead."""
    table.dealt = dealt
    table.gone = 0
    table.played = []
    table.winners = []
    table.first_leader = leader
    table.trump = trump
    table.turn = leader
    table.leader = leader
    table.led = -1
    table.win_seat = -1
    table.win_card = -1
    table.tricks_won = [0] * len(dealt)
    table.renege = None
    table.legal_ready = None


def copy_tricks(table: TrickKernel, other: TrickKernel) -> None:
    """:meth:`TrickKernel.copy_table_into`, as a function (see :func:`deal_into`)."""
    other.suit_of = table.suit_of
    other.suit_masks = table.suit_masks
    other.suits = table.suits
    other.suit_ordered = table.suit_ordered
    other.ncards = table.ncards
    other.nseats = table.nseats
    other.nsuits = table.nsuits
    other.dealt = table.dealt
    other.gone = table.gone
    other.played = table.played[:]
    other.winners = table.winners[:]
    other.first_leader = table.first_leader
    other.trump = table.trump
    other.turn = table.turn
    other.leader = table.leader
    other.led = table.led
    other.win_seat = table.win_seat
    other.win_card = table.win_card
    other.tricks_won = table.tricks_won[:]
    other.renege = table.renege
    other.phase = table.phase
    other.legal_ready = table.legal_ready


TABLE_FIELDS: Final = ("suit_of", "suit_masks", "suits", "suit_ordered", "ncards", "nseats",
                       "nsuits", "dealt", "gone", "played", "winners", "first_leader", "trump",
                       "turn", "leader", "led", "win_seat", "win_card", "tricks_won", "renege",
                       "phase", "legal_ready")
"""The fields of :class:`TrickKernel`, for pickling a state (the compiled object has no dict)."""


def play_cards(table: TrickKernel, card: int, rand: Callable[[], float] | None,
               keys: list[int] | None = None, other: OtherPhases | None = None) -> bool:
    """Play ``card`` for the seat to act, or with ``rand`` random cards to the end of play.

    With ``rand`` None: returns False, changing nothing, when the seat does not hold
    ``card`` or it fails to follow suit. With ``rand``: plays uniformly random legal cards
    until every card is played, each the ``int(rand() * n)``-th of the ``n`` legal cards
    in the order ``legal_actions`` lists them (the suit led, else the hand in suit order),
    each appended to ``keys`` (when given) as ``card * seats + seat``.

    Either way each card goes on the trick through :func:`_place`; once the last trick is
    won the game scores the hand (its ``_play_over``, or ``other.play_over``).
    """
    if rand is None:
        if card < 0 or card >= table.ncards:
            return False
        held: i64 = table.dealt[table.turn] & ~table.gone
        if not held & bit(card):
            return False
        suit = table.suits[card]
        led = table.led
        if suit != led and must_follow(led, held & table.suit_masks[led]):
            return False
        if _place(table, card, suit):
            _play_over(table, other)
        return True
    while True:
        seat = table.turn
        choices = _choices(table, table.dealt[seat] & ~table.gone)
        pick: i64 = _kth_in_suit_order(table, choices, int(rand() * float(count_of(choices))))
        if keys is not None:
            keys.append(pick * table.nseats + seat)
        if _place(table, pick, table.suits[pick]):
            _play_over(table, other)
            return True


def force_card(table: TrickKernel, card: int) -> None:
    """Table mode: the seat to act puts ``card``, which it holds, on the trick whether or
    not it follows suit (a renege), and the trick goes on as played: the card counts as a
    card of its own suit (so a renegade trump can win the trick)."""
    if _place(table, card, table.suits[card]):
        table._play_over()


def _place(table: TrickKernel, card: i64, suit: i64) -> bool:
    """Put ``card`` (of ``suit``, held by the seat to act) on the trick.

    The winning card so far is kept (:func:`beats`), and after the last seat the trick goes
    to its winner, who leads next. When the winner has no card left to lead, the hand's play
    is over, and True says so (the caller lets the game score it).
    """
    table.gone |= bit(card)
    played = table.played
    seat = table.turn
    if not played:  # the hand's first card: its leader is the one history starts from
        table.first_leader = seat
    played.append(card)
    if table.led < 0:
        table.led = suit
        table.win_seat = seat
        table.win_card = card
    else:
        win_card = table.win_card
        if beats(card, suit, win_card, table.suits[win_card], table.trump):
            table.win_seat = seat
            table.win_card = card
    nseats = table.nseats
    winners = table.winners
    if len(played) - len(winners) * nseats < nseats:
        table.turn = seat + 1 if seat + 1 < nseats else 0
        return False
    winner = table.win_seat
    winners.append(winner)
    table.tricks_won[winner] += 1
    table.led = -1
    table.turn = winner
    table.leader = winner
    return not table.dealt[winner] & ~table.gone  # no card left to lead: play is over


def _play_over(table: TrickKernel, other: OtherPhases | None) -> None:
    """The last trick is won: the game scores the hand (``other``'s hook when given, no
    Python frame; else the state's ``_play_over``)."""
    if other is None:
        table._play_over()
    else:
        other.play_over(table)


# -- bots the kernel calls: whole hands in one call (simulations, the advisor's rollouts) ---
@mypyc_attr(allow_interpreted_subclasses=True)
class Player:
    """A bot as the kernel calls it: :meth:`act` chooses the seat to act's action on a trick
    table. The random player is :class:`RandomPlayer`; each game's heuristic bot has one
    (Ted's Game's in its compiled kernel). A compiled player is called from
    :func:`play_hand` as C calls C, with no Python frame a step.

    ``rng``: where its random numbers come from (anything with ``random()``).
    """

    rng: Any

    def act(self, table: TrickKernel, seat: int) -> int:
        raise NotImplementedError


class RandomPlayer(Player):
    """Uniformly random legal actions: the ``int(rng.random() * n)``-th of the ``n`` that
    ``legal_actions()`` lists (cardlab.bots.RandomBot).

    >>> import random
    >>> RandomPlayer(random.Random(0)).rng.random() == random.Random(0).random()
    True
    """

    def __init__(self, rng: Any) -> None:
        self.rng = rng

    def __call__(self, state: Any, seat: int) -> int:
        """The bot's choice in any game's state."""
        actions: list[int] = state.legal_actions()
        return actions[int(self.rng.random() * len(actions))]

    def act(self, table: TrickKernel, seat: int) -> int:
        """The same choice on a trick table, the cards read from its bits (no list made)."""
        if table.phase is PLAY:
            choices = _choices(table, table.dealt[seat] & ~table.gone)
            return _kth_in_suit_order(
                table, choices, int(self.rng.random() * float(count_of(choices))))
        actions = table.legal_ready
        if actions is None:
            actions = table.legal_actions()
        return actions[int(self.rng.random() * len(actions))]


@mypyc_attr(allow_interpreted_subclasses=True)
class OtherPhases:
    """How :func:`play_hand` applies an action outside the play of cards (a bid, the hat),
    and how the hand is scored once its last trick is won: through the state's ``apply`` and
    ``_play_over``, unless a game's compiled part does them directly (a method of a state of
    an interpreted class is looked up by name)."""

    def apply_other(self, table: TrickKernel, action: int) -> None:
        table.apply(action)

    def play_over(self, table: TrickKernel) -> None:
        """The last trick of the hand is won: score it."""
        table._play_over()


def play_hand(table: TrickKernel, players: list[Player], keys: list[int] | None = None,
              other: OtherPhases | None = None) -> int:
    """Let ``players`` (one a seat) act until nobody is to act in this hand (every trick
    game's end of a hand sets ``turn`` to -1); return how many actions they made, each
    appended to ``keys`` (when given) as ``action * seats + seat``.

    A card goes through :func:`play_cards` (``_illegal_play`` when it may not be played), any
    other action through ``other`` (:class:`OtherPhases`), else the state's ``apply``.
    """
    count = 0
    n = table.nseats
    while True:
        seat = table.turn
        if seat < 0:
            return count
        action = players[seat].act(table, seat)
        if table.phase is PLAY:
            if not play_cards(table, action, None, None, other):
                table._illegal_play(action)
        elif other is None:
            table.apply(action)
        else:
            other.apply_other(table, action)
        if keys is not None:
            keys.append(action * n + seat)
        count += 1


def _probe() -> None:
    """A function to look at: compiled, it is a builtin rather than a Python function."""


COMPILED: Final = type(_probe).__name__ != "function"
