"""Ted's Game: the part of its rules that runs at every step, compiled with the kernel.

Every simulated hand and every rollout deals a hand from its seed, takes a bid from each
player (the dealer last, under the hook) and scores the hand. Those rules are written here,
in plain typed Python that ``pip install`` compiles with mypyc in one library with
:mod:`cardlab.kernel` (a native class can only extend a native class of its own library), so
that ``apply`` of a bid or a card never leaves compiled code. Everything else about the game
(its options, the draw for first dealer, recorded deals, bid changes, refusals in the words
of the rules, table-mode reneges, texts and snapshots) is in :mod:`cardlab.games.teds_game.engine`,
whose state class inherits :class:`TedsKernel`. Without a compiler this runs as ordinary
Python and plays the same games (``tests/test_kernel.py``).

>>> score(3, 3, 10), score(0, 0, 10), score(2, 4, 10), score(2, 3, 5)
(19, 20, -8, -1)
>>> BID_ACTIONS[2], HOOKED_BIDS[2][1]  # hand of 2: the dealer hooked off bidding 1
([100, 101, 102], [100, 102])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, cast

from mypy_extensions import i64, mypyc_attr

# absolute, as in solvekernel: tests load this source on its own beside the compiled module
from cardlab.kernel import (
    PLAY,
    OtherPhases,
    Player,
    TrickKernel,
    _choices,
    beats,
    copy_tricks,
    deal_into,
    deal_material,
    dealer_of_hand,
    held_by,
    low_card,
    material_stream,
    play_cards,
)
from cardlab.playout import Draws, Playout

NCARDS: Final = 52
NSUITS: Final = 4
# Actions: a card (0-51) is played; BID + k bids k tricks; CHANGE + k changes the last bid to k.
BID: Final = 100
CHANGE: Final = 200
MAX_NUMBER: Final = 99

PHASE_SETUP: Final = "setup"
PHASE_DEAL: Final = "deal"
PHASE_BID: Final = "bid"
PHASE_OVER: Final = "over"


def max_start(players: int) -> int:
    """The largest hand the deck allows: every player's cards plus one card to turn for trump."""
    return (NCARDS - 1) // players


def score(bid: int, taken: int, dealt: int) -> int:
    """One player's score for a hand: an exact bid scores 10 + bid², an exact zero 10 + the
    cards dealt, a miss loses the miss cubed."""
    if taken == bid:
        return 10 + (dealt if bid == 0 else bid * bid)
    miss = taken - bid if taken > bid else bid - taken
    return -miss * miss * miss


def _bid_actions() -> tuple[list[int], ...]:
    return tuple([BID + k for k in range(size + 1)] for size in range(MAX_NUMBER + 1))


# The bids of a hand of each size, as lists (never changed: legal actions are copies of them,
# and copying a list is quicker than making one of a tuple).
BID_ACTIONS: Final = _bid_actions()


def hooked(size: int, forbidden: int) -> list[int]:
    """The dealer's bids in a hand of ``size`` when the hook forbids ``forbidden`` (or none
    when it is out of 0..size)."""
    bids = BID_ACTIONS[size]
    return bids[:forbidden] + bids[forbidden + 1:] if 0 <= forbidden <= size else bids


def _hooked_bids() -> tuple[tuple[list[int], ...], ...]:
    return tuple(tuple(hooked(size, forbidden) for forbidden in range(size + 1))
                 for size in range(max_start(3) + 1))


def _scores() -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(tuple(tuple(score(bid, taken, size) for taken in range(size + 1))
                       for bid in range(size + 1)) for size in range(max_start(3) + 1))


# The dealer's bids by hand size and forbidden bid, for every hand the deck allows; like
# BID_ACTIONS never changed (legal actions are copies).
HOOKED_BIDS: Final = _hooked_bids()
# score(bid, taken, size) by hand size, bid and tricks taken: the end of a hand reads it
SCORES: Final = _scores()

TEDS_FIELDS: Final = ("sizes", "first_dealer", "dealer", "hand_no", "size", "turned", "bids",
                      "nbids", "bid_total", "hook", "row", "sheet", "bid_actions", "changes",
                      "reneges", "material_seed", "material")
"""The fields of :class:`TedsKernel`, for pickling a state (see ``TABLE_FIELDS``)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class TedsKernel(TrickKernel):
    """A hand of Ted's Game on the trick table: the deal, the bids and the hook, the score.

    ``apply`` takes a legal bid or a card here; anything else (a bid change, or an action
    the rules refuse) goes to the game's ``_apply_other``, which changes the bid or raises
    the refusal in the words of the rules.
    """

    sizes: tuple[int, ...]  # cards each, hand by hand
    first_dealer: i64
    dealer: i64
    hand_no: i64  # the hand being played, from 1 (0 before the first deal)
    size: i64  # cards each in this hand (0 before the first deal)
    turned: i64  # the card turned up for trump, -1 before the first deal
    bids: list[int]  # per seat, -1 before the seat bids
    nbids: i64
    bid_total: i64
    hook: i64  # the bid the hook forbade the dealer (-1: none, or not yet known)
    row: list[int]  # this hand's scores, per seat
    sheet: list[list[int]]  # a row per hand scored
    bid_actions: list[int]  # the bids of this hand (never changed)
    changes: list[tuple[int, int, int]]  # (seat, old bid, new bid) this hand
    reneges: list[tuple[int, int, int]]  # (trick number, seat, card) this hand
    material_seed: Any  # the seed whose deal material is kept (None: none yet)
    material: str  # deal_material(material_seed, ("teds-game",))

    def deal_seeded(self, seed: int | str) -> None:
        """Deal the hand that is due from ``seed``: the one seeded deal of the game (its
        record, ``seeded_chance(seed)``, is what this deals); before the first hand, the
        draw for first dealer (the game's ``_deal_other``).

        The words of :func:`~cardlab.kernel.seeded_stream` for the hand (keys ``teds-game``
        and the hand number) shuffle the deck, which is dealt one card at a time from the
        dealer's left and sorted into suits in one pass of :func:`~cardlab.kernel.deal_into`;
        the next card of the deck is turned up for trump.
        """
        deal_hand(self, seed)

    def random_playout(self, rand: Callable[[], float],
                       record: list[int] | None = None) -> None:
        """Finish the hand with random legal actions: each the ``int(rand() * n)``-th of the
        ``n`` actions ``legal_actions`` lists (the bids, with the hook, then the cards
        through :func:`~cardlab.kernel.play_cards`), in one compiled call; each appended to
        ``record`` (when given) as ``action * seats + seat``."""
        n = self.nseats
        while self.phase is PHASE_BID:
            bids = self.legal_ready
            assert bids is not None  # always ready while bidding (see begin_bids, take_bid)
            seat = self.turn
            action = bids[int(rand() * len(bids))]
            take_bid(self, action - BID)
            if record is not None:
                record.append(action * n + seat)
        if self.phase is PLAY:
            play_cards(self, -1, rand, record, PHASES)

    def apply(self, action: int) -> None:
        """Apply ``action`` for the seat to act: a card through
        :func:`~cardlab.kernel.play_cards`, a legal bid here; anything else through the
        game's ``_apply_other`` (a bid change, or the refusal)."""
        if self.phase is PLAY:
            if not play_cards(self, action, None, None, PHASES):
                self._illegal_play(action)
        else:
            apply_bid(self, action)

    def _play_over(self) -> None:
        """The last trick is won: score the hand, and the next hand (or the end) is due."""
        end_hand(self)

    def copy_table_into(self, other: TrickKernel) -> None:
        """The trick table as :meth:`TrickKernel.copy_table_into` copies it, and the hand's
        bids, changes, reneges and score sheet (the lists a move changes are new)."""
        copy_tricks(self, other)
        mine = cast(TedsKernel, other)
        mine.sizes = self.sizes
        mine.first_dealer = self.first_dealer
        mine.dealer = self.dealer
        mine.hand_no = self.hand_no
        mine.size = self.size
        mine.turned = self.turned
        mine.bids = self.bids[:]
        mine.nbids = self.nbids
        mine.bid_total = self.bid_total
        mine.hook = self.hook
        mine.row = self.row[:]
        mine.sheet = [row[:] for row in self.sheet]
        mine.bid_actions = self.bid_actions
        mine.changes = self.changes[:]
        mine.reneges = self.reneges[:]
        mine.material_seed = self.material_seed
        mine.material = self.material

    # The game's hooks (overridden by its Python class).
    def _deal_other(self, seed: int | str) -> None:
        """``deal_seeded`` when no hand is due: the draw for first dealer, or the refusal."""
        raise NotImplementedError


def deal_hand(table: TedsKernel, seed: int | str) -> None:
    """:meth:`TedsKernel.deal_seeded`, as a function (compiled code calls it directly)."""
    if table.phase is not PHASE_DEAL:
        table._deal_other(seed)
        return
    n: i64 = table.nseats
    hand: i64 = table.hand_no + 1
    size: i64 = table.sizes[hand - 1]
    dealer: i64 = dealer_of_hand(table.first_dealer, hand, n)
    left: i64 = dealer + 1 if dealer + 1 < n else 0
    if table.material_seed is not seed:  # the game's material, made once (its seed's text)
        table.material = deal_material(seed, ("teds-game",))
        table.material_seed = seed
    # seeded_stream(seed, ("teds-game", hand), ...): the hand's number appended
    stream = material_stream(table.material + ":" + str(hand), n * size + 1)
    turned = deal_into(table, stream, size, left, left, NSUITS)
    table.trump = table.suit_of[turned]
    begin_bids(table, turned, dealer, hand, size)


def apply_bid(table: TedsKernel, action: int) -> None:
    """:meth:`TedsKernel.apply` outside the play of cards: a legal bid here, anything else
    through the game's ``_apply_other`` (a bid change, or the refusal)."""
    if table.phase is not PHASE_BID or not take_bid(table, action - BID):
        table._apply_other(action)


def end_hand(table: TedsKernel) -> None:
    """:meth:`TedsKernel._play_over`, as a function (compiled code calls it directly)."""
    size = table.size
    taken = table.tricks_won
    row: list[int] = []
    seat = 0
    if size < len(SCORES):
        scores = SCORES[size]  # score(bid, taken, size), looked up
        for bid in table.bids:
            row.append(scores[bid][taken[seat]])
            seat += 1
    else:
        for bid in table.bids:
            row.append(score(bid, taken[seat], size))
            seat += 1
    table.row = row
    table.sheet.append(row[:])
    table.phase = PHASE_OVER if table.hand_no == len(table.sizes) else PHASE_DEAL
    table.turn = -1


class TedsPhases(OtherPhases):
    """Ted's Game's bids and score as the kernel applies them, without a Python frame."""

    def apply_other(self, table: TrickKernel, action: int) -> None:
        apply_bid(cast(TedsKernel, table), action)

    def play_over(self, table: TrickKernel) -> None:
        end_hand(cast(TedsKernel, table))


PHASES: Final = TedsPhases()


def deal_record(table: TedsKernel, codes: tuple[str, ...]) -> dict[str, Any]:
    """The record of the deal ``table`` holds, its cards named by ``codes``: each seat's
    cards, ascending, and the card turned up for trump (what a seeded deal's record is)."""
    hands: list[list[str]] = []
    for held in table.dealt:
        mask: i64 = held
        cards: list[str] = []
        while mask:
            cards.append(codes[low_card(mask)])
            mask &= mask - 1
        hands.append(cards)
    return {"hands": hands, "turned": codes[table.turned]}


def game_over(table: TedsKernel) -> bool:
    """Whether the game is over: the last hand has been scored."""
    return table.phase == PHASE_OVER


def begin_bids(table: TedsKernel, turned: int, dealer: int, hand_no: int, size: int) -> None:
    """The hand is dealt (the table started): its bidding begins left of the dealer."""
    n = table.nseats
    table.dealer = dealer
    table.hand_no = hand_no
    table.size = size
    table.turned = turned
    table.bids = [-1] * n
    table.nbids = 0
    table.bid_total = 0
    table.hook = -1
    table.changes = []
    table.reneges = []
    table.row = [0] * n
    table.bid_actions = table.legal_ready = BID_ACTIONS[size]  # the first bidder is no dealer
    table.phase = PHASE_BID


def take_bid(table: TedsKernel, bid: int) -> bool:
    """The seat to act bids ``bid`` if the rules allow it; False, changing nothing, if not.

    A bid is a number of tricks from 0 to the cards dealt. The hook binds the dealer alone,
    who bids last: the bids must not add up to the tricks of the hand. The dealer's bid ends
    the bidding, and the player left of the dealer leads the first trick.
    """
    size = table.size
    if bid < 0 or bid > size:
        return False
    seat = table.turn
    if seat == table.dealer:
        forbidden = hook_now(table)
        if bid == forbidden:
            return False
        table.hook = forbidden
        table.bids[seat] = bid
        table.bid_total += bid
        table.nbids += 1
        table.phase = PLAY
        table.turn = table.leader
        table.legal_ready = None
        return True
    table.bids[seat] = bid
    table.bid_total += bid
    table.nbids += 1
    seat = seat + 1 if seat + 1 < table.nseats else 0
    table.turn = seat
    if seat == table.dealer:  # the dealer's bids, ready for legal_actions
        table.legal_ready = dealer_bids(table)
    return True


def hook_now(table: TedsKernel) -> int:
    """The bid the hook forbids the seat to act now, or -1: only the dealer is hooked, and
    only when the others' bids leave a number from 0 to the tricks."""
    if table.turn != table.dealer:
        return -1
    forbidden = table.size - table.bid_total
    return forbidden if forbidden >= 0 else -1


def dealer_bids(table: TedsKernel) -> list[int]:
    """The dealer's legal bids now (the hook), as a list never changed."""
    size = table.size
    forbidden = hook_now(table)
    if forbidden < 0:
        return BID_ACTIONS[size]
    if size < len(HOOKED_BIDS):
        return HOOKED_BIDS[size][forbidden]
    return hooked(size, forbidden)


class HeuristicPlayer(Player):
    """The heuristic bot's choices (``cardlab.games.teds_game.bot``, which documents them),
    compiled: the kernel's :func:`~cardlab.kernel.play_hand` and the advisor's rollouts call
    it with no Python frame a step. ``ranks``: each card's rank, a byte a card (read without
    unboxing); ``values``: what a card is worth toward a trick, ``values[is trump][card]``;
    ``mean``: a card's mean worth.
    """

    def __init__(self, rng: Any, ranks: bytes,
                 values: tuple[tuple[float, ...], tuple[float, ...]], mean: float) -> None:
        self.rng = rng
        self.ranks = ranks
        # each as its own tuple: a fixed-length tuple indexed at run time is boxed anew
        self.plain_values = values[0]
        self.trump_values = values[1]
        self.mean = mean

    def act(self, table: TrickKernel, seat: int) -> int:
        mine = cast(TedsKernel, table)
        if mine.phase is PHASE_BID:
            bids = mine.legal_ready
            assert bids is not None  # always ready while bidding
            return self.bid(bids, self.expected_tricks(mine, seat))
        return self.card(mine, seat)

    def expected_tricks(self, table: TedsKernel, seat: int) -> float:
        """The tricks the seat's hand should take: its cards' worth over an average hand's."""
        worth = 0.0
        trump = table.trump
        trumps: i64 = table.suit_masks[trump] if trump >= 0 else 0
        plain_values = self.plain_values
        trump_values = self.trump_values
        held = held_by(table, seat)
        while held:  # ascending: suit by suit, each suit's cards in order
            low = held & -held
            card = low_card(low)
            worth += trump_values[card] if trumps & low else plain_values[card]
            held ^= low
        return min(worth / (float(table.nseats) * self.mean), float(table.size))

    def bid(self, legal: list[int], expected: float) -> int:
        """The bid of ``legal`` for ``expected`` tricks: rounded; under the hook the nearer
        allowed bid (the lower on a tie; a random number per allowed bid breaks an exact
        tie)."""
        wanted = int(expected + 0.5)
        if BID + wanted in legal:
            return BID + wanted
        best = -1
        best_at = 0
        best_gap = 0.0
        best_over = False
        draws = Draws(self.rng, len(legal))  # a number per allowed bid, read only on a tie
        k = 0
        for action in legal:  # min over (gap, above the wanted bid, a random number)
            bid = action - BID
            gap = abs(float(bid) - expected)
            over = bid > wanted
            if best < 0 or gap < best_gap or (gap == best_gap and (
                    (not over and best_over) or (
                        over == best_over and draws.at(k) < draws.at(best_at)))):
                best, best_at, best_gap, best_over = bid, k, gap, over
            k += 1
        draws.done()
        return BID + best

    def card(self, table: TedsKernel, seat: int) -> int:
        """While short of its bid, win the trick (lead its strongest card; follow with the
        cheapest winner when last, else the highest); once made, duck with the highest card
        that loses (or, when every card wins, the highest)."""
        bid: i64 = table.bids[seat]
        won: i64 = table.tricks_won[seat]
        short = bid > won
        trump = table.trump
        trumps: i64 = 0
        if trump >= 0:
            trumps = table.suit_masks[trump]
        ranks = self.ranks
        legal = _choices(table, held_by(table, seat))
        if table.led < 0:  # leading: the strongest card, or the weakest (a non-trump first)
            if short:
                return _best(legal, ranks, trumps, True, 2, 0, 1)
            return _best(legal, ranks, trumps, False, 1, 0, 100)
        suits = table.suits
        best = table.win_card
        best_suit: i64 = suits[best]
        winners: i64 = 0
        rest = legal
        while rest:
            low = rest & -rest
            card = low_card(low)
            if beats(card, suits[card], best, best_suit, trump):
                winners |= low
            rest ^= low
        losers = legal & ~winners
        if short:
            if winners:
                n: i64 = table.nseats
                if len(table.played) - len(table.winners) * n == n - 1:
                    return _best(winners, ranks, trumps, False, 1, 0, 100)
                return _best(winners, ranks, trumps, True, 1, 100, 0)
            return _best(legal, ranks, trumps, False, 1, 0, 100)
        if losers:
            return _best(losers, ranks, trumps, True, 1, 100, 0)
        return _best(legal, ranks, trumps, True, 1, 0, 0)


def _best(cards: i64, ranks: bytes, trumps: i64, highest: bool, rank_weight: i64,
          other_weight: i64, trump_weight: i64) -> int:
    """The card of ``cards`` with the highest (or lowest) key ``rank * rank_weight`` plus
    ``trump_weight`` for a trump (of ``trumps``) or ``other_weight`` for a card of another
    suit; the first in suit order on a tie (as ``max``/``min`` over the legal actions keep
    it). ``ranks``: each card's rank, a byte a card."""
    out = -1
    out_key: i64 = 0
    while cards:
        low = cards & -cards
        card = low_card(low)
        key: i64 = ranks[card] * rank_weight + (trump_weight if trumps & low else other_weight)
        if out < 0 or (key > out_key if highest else key < out_key):
            out = card
            out_key = key
        cards ^= low
    return out


class TedsPlayout(Playout):
    """A simulation's hands of Ted's Game (:class:`~cardlab.playout.Playout`), and what it keeps
    of each besides the common values: the bid the hook forbade the dealer (-1: none), and
    each seat's bid (after any change) and tricks (``cardlab.games.teds_game.records`` makes
    the columns of them)."""

    def __init__(self, players: int, codes: tuple[str, ...]) -> None:
        super().__init__(players)
        self.phases = PHASES
        self.codes = codes  # each card's code, for the deals' records
        self.hook: list[int] = []  # per hand
        self.bids: list[int] = []  # per hand and seat
        self.tricks: list[int] = []

    def over(self, table: Any) -> bool:
        return game_over(cast(TedsKernel, table))

    def setup(self, table: Any, seed: Any) -> Any:
        deal_hand(cast(TedsKernel, table), seed)  # the draw for first dealer
        return table.setup_record() if self.deals is not None else None

    def deal(self, table: Any, seed: Any) -> None:
        mine = cast(TedsKernel, table)
        deal_hand(mine, seed)
        deals = self.deals
        if deals is not None:
            deals.append(deal_record(mine, self.codes))

    def number(self, table: Any) -> int:
        return cast(TedsKernel, table).hand_no

    def size(self, table: Any) -> int:
        return cast(TedsKernel, table).size

    def dealer(self, table: Any) -> int:
        return cast(TedsKernel, table).dealer

    def scores_of(self, table: Any) -> list[int]:
        return cast(TedsKernel, table).sheet[-1]

    def keep(self, table: Any) -> None:
        mine = cast(TedsKernel, table)
        self.hook.append(mine.hook)
        self.bids.extend(mine.bids)
        self.tricks.extend(mine.tricks_won)
