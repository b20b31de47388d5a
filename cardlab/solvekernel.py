"""The hot loop of the exact open-hand solver (:mod:`cardlab.advisor.solver`), compiled by mypyc.

A paranoid alpha-beta search over the cards still to play in a trick-taking hand, with every
hand known: one seat maximises its hand score, every other seat minimises it. The play of a
trick follows the engine's own rules, :func:`cardlab.kernel.must_follow` and
:func:`cardlab.kernel.beats`; the rest of the game reaches this module only as numbers the
solver's per-game hooks computed from the engine: which cards are of which suit, the trump
suit, how a finished trick adds to a running summary, and a ``leaf`` callable (the game's own
scoring function) that turns a final summary into the seat's hand score. Written once in plain
typed Python, like :mod:`cardlab.kernel`; ``pip install`` compiles the two in one library
when a C compiler is at hand, and :data:`COMPILED` says which one loaded.

Cards are bits of an int (card ``c`` is ``1 << c``); within a suit the bit order is the rank
order. The cards never change hands, so the set of cards still held says who holds each one.
The transposition table, at each trick's start, keeps an answer for a whole class of
positions (:mod:`cardlab.solveranks`): the same leader and summary part, the same shape, and
the same holders of the cards whose ranks the search below read (``relevant``: each trick's
winner when another card of its suit was on it, and the cards above). Every search has a
budget of nodes (:meth:`Search.set_budget`): past it, :class:`~cardlab.errors.SolveBudgetError`.

>>> # Two seats, one suit (cards 0-3, higher wins), no trump; seat 0 holds 0 and 3, seat 1
>>> # holds 1 and 2. The summary counts seat 0's tricks; the leaf scores them as they are.
>>> s = Search(2, 0, [0, 0, 0, 0], [0b1111], -1, [0b1001, 0b0110], 0, 0, [1, 0],
...            [0, 0, 0, 0], 0, -1, 0, 0, -1, lambda summary, hat: summary)
>>> s.root_values([], 0, 2, 0)  # seat 0 leads: the 3 wins one trick, the 0 loses one
{0: 1, 3: 1}

The Monte Carlo advisor's random playouts walk the same tree: :meth:`Search.random_walk`
plays random legal cards from a start (:meth:`Search.set_start`) through the search's own
tricks and summary; :func:`cardlab.rolloutkernel.random_samples` runs a whole evaluation's
samples of them (:mod:`cardlab.advisor.randomplay`), and
:func:`cardlab.rolloutkernel.add_fields` reads a summary of cards taken back.
The advisor's other compiled loops are in :mod:`cardlab.rolloutkernel`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, final

# absolute: tests load this source on its own too. The rules of trick play are the engine's
# (follow suit, the trick's winner), asked in C: setup.py compiles both in one library.
from cardlab.errors import SolveBudgetError
from cardlab.kernel import beats, must_follow
from cardlab.solveranks import Classes, Ranks, count_bits, kinds, kth_lowest, purge, trump_range

# Beyond any hand score: a leaf scores less than this either way (Search._final checks).
INF: Final = 1 << 20
NO_CUT: Final = INF + 1  # Search._range_cut: no answer
NO_BUDGET: Final = 1 << 62  # nodes: more than any search takes
# The table is a cache: when it holds this many positions it keeps the half with the most
# tricks left (solveranks.purge), which keeps a long search (10 cards each) within a few hundred
# MB and changes no value.
MAX_TABLE: Final = 1_000_000
# Positions with fewer tricks left than this are searched again rather than kept.
STORE_FROM: Final = 2
# The first guess of a search of this many tricks or more (Search._estimate) is the lower
# quartile of this many random playouts; a smaller search climbs to its value cheaply.
GUESS_FROM: Final = 5
GUESS_WALKS: Final = 64
# A table entry is one int (a short one: no tuple, no boxed numbers): from the top, its lower
# and upper bounds (each plus INF, in BOUND_BITS bits), the best card's relative place
# (Ranks.relative: its suit and rank among the suit's cards held, in PLACE_BITS bits) and
# the tricks left (in LEFT_BITS bits, for solveranks.purge).
LEFT_BITS: Final = 6
PLACE_BITS: Final = 12
BOUND_BITS: Final = 22
PLACE_SHIFT: Final = LEFT_BITS
HIGH_SHIFT: Final = PLACE_SHIFT + PLACE_BITS
LOW_SHIFT: Final = HIGH_SHIFT + BOUND_BITS
LEFT_MASK: Final = (1 << LEFT_BITS) - 1
PLACE_MASK: Final = (1 << PLACE_BITS) - 1
BOUND_MASK: Final = (1 << BOUND_BITS) - 1


@final
class Search:
    """One search: the position, the summary rules, and a transposition table.

    ``hands``: per seat, the mask of cards held. ``card_unit``/``trick_unit``: what a trick
    adds to the summary (per card, per winner; shifted ``field * winner`` bits when
    ``count_cards``); ``key_mask``: the part of the summary that can change the seat's score;
    ``hat_mask``: cards whose trick gives the winner the hat (0: no hat); ``holder``: the
    hat's holder now; ``leaf(summary, seat_holds_hat)``: the seat's hand score at the end.
    ``lo``/``hi``: optional bounds on that score, ``[fewest][most]`` for a summary (the
    seat's tricks, when ``count_cards`` is 0) that ends from ``fewest`` to ``most``, or empty;
    ``bound(summary, seat_holds_hat, cards_in_play)``: optional bounds computed by the game,
    with the table's key for the summary (see :meth:`set_bound`).
    """

    def __init__(self, nseats: int, seat: int, suit_of: list[int], suit_mask: list[int],
                 trump: int, hands: list[int], summary: int, field: int,
                 trick_unit: list[int], card_unit: list[int], count_cards: int,
                 key_mask: int, hat_mask: int, hat_matters: int, holder: int,
                 leaf: Callable[[int, int], int]) -> None:
        self.nseats = nseats
        self.seat_bits = max(1, (nseats - 1).bit_length())
        self.seat = seat
        self.suit_of = suit_of
        self.suit_mask = suit_mask
        self.trump = trump
        self.hands = hands
        self.summary = summary
        self.field = field
        self.trick_unit = trick_unit
        self.card_unit = card_unit
        self.count_cards = count_cards
        self.key_mask = key_mask
        self.hat_mask = hat_mask
        self.hat_matters = hat_matters
        self.holder_is_seat = 1 if holder == seat else 0
        self.leaf = leaf
        self.leaves: list[dict[int, int]] = [{}, {}]  # leaf's answers: by hat, then summary
        if len(suit_mask) > 1 << (PLACE_BITS - 8) or len(suit_of) // nseats > LEFT_MASK:
            raise ValueError("the solver takes at most 16 suits and 63 tricks")
        self.ranks = self._ranks([])
        self.budget = NO_BUDGET  # nodes (set_budget)
        self.max_table = MAX_TABLE
        self.store_from = STORE_FROM
        self.guess_from = GUESS_FROM
        self.lo: list[list[int]] = []
        self.hi: list[list[int]] = []
        self.bound: Callable[[int, int, int], tuple[int, int, int]] | None = None
        self.bound_masks: list[int] = []
        self.mask_widths: list[int] = []  # bits of each mask's count in _boundary's key
        self.left_width = 6  # and of the tricks left
        self.count_width = 7
        self.bounds: dict[int, tuple[int, int, int]] = {}  # bound's answers, part as an id
        self.parts: dict[int, int] = {}  # bound's parts -> small ids, for the table's key
        self.trump_ranges: dict[int, int] = {}  # _trump_range's answers, by trumps held
        self.remaining = 0
        for held in hands:
            self.remaining |= held
        # the cards still held as the table reads them (Ranks.code_of), kept up to date card
        # by card (_after)
        self.code = 0
        self.shape = 0
        self.ncards = len(suit_of)
        self.tricks_left = 0
        self.trick: list[int] = []
        self.trick_mask = 0
        self.count = 0  # cards on the trick
        self.units = 0  # what they add to the summary (card_unit)
        self.chosen = -1  # the card of the last _choose
        # Move ordering (_first_move): per context (_context), the cuts made by a bold card
        # (_bold) less those made by another
        self.cuts = [0] * (4 * nseats)
        # the cards whose holders the last answer depends on (see the module's docstring)
        self.relevant = 0
        self.partition = True
        self.buckets: dict[int, Classes] = {}  # the table: shape, leader, part -> classes
        self.size = 0  # entries in the table
        self.leader = 0
        self.led = -1
        self.win_seat = -1
        self.win_card = -1
        self.nodes = 0
        # the start of the random playouts (set_start): the trick state to go back to
        self.start_trick: list[int] = []
        self.start_units = 0
        self.start_trick_mask = 0
        self.start_led = -1
        self.start_win_seat = -1
        self.start_win_card = -1
        self.start_leader = 0
        self.start_tricks_left = 0
        self.start_summary = summary
        self.start_holder = self.holder_is_seat

    def set_bounds(self, lo: list[list[int]], hi: list[list[int]]) -> None:
        """Bounds on the final score, ``lo[fewest][most]`` for a final summary (the seat's
        tricks) from ``fewest`` to ``most``."""
        self.lo = lo
        self.hi = hi

    def set_bound(self, bound: Callable[[int, int, int], tuple[int, int, int]],
                  masks: list[int]) -> None:
        """Bounds on the final score from the summary, the hat and the cards still held,
        asked at the start of each trick (they must hold whatever is played from there),
        and the summary's part of the table's key: two positions with the same cards held,
        leader and key part must end with the same score whatever is played (so the game
        may leave out of it what can no longer change the score).

        ``bound`` may depend on the cards still held only through how many of each of
        ``masks`` are left, and on the summary only through its ``key_mask`` part: its
        answers are kept under that key, so it is asked once per key."""
        self.bound = bound
        self.bound_masks = masks
        # _boundary's key: the counts, the hat and the tricks left, each in as many bits as
        # its largest value (cards only leave), so that most keys fit in a machine word
        self.mask_widths = [max(1, count_bits(self.remaining & mask).bit_length())
                            for mask in masks]
        self.left_width = (count_bits(self.remaining) // self.nseats + 1).bit_length()
        self.count_width = 1 + sum(self.mask_widths) + self.left_width
        self.ranks = self._ranks(masks)

    def set_budget(self, nodes: int) -> None:
        """Search at most ``nodes`` nodes in all (:attr:`nodes`: the choices of a card
        searched): past them the search stops with :class:`~cardlab.errors.SolveBudgetError`,
        whatever the clock says, so a search stops at the same node on every machine."""
        self.budget = nodes

    def _ranks(self, masks: list[int]) -> Ranks:
        """The ranks of the cards held (:class:`~cardlab.solveranks.Ranks`): cards the hat,
        the summary or the bounds' masks tell apart are of different kinds."""
        return Ranks(self.suit_of, self.suit_mask, self.hands,
                     kinds(self.suit_of, [self.hat_mask, *masks], self.card_unit))

    # -- the root ------------------------------------------------------------------------
    def _enter(self, trick: list[int], leader: int, tricks_left: int) -> None:
        """Put the cards already on the current trick (play order, from ``leader``)."""
        self.trick = []
        self.trick_mask = 0
        self.count = 0
        self.units = 0
        self.leader = leader
        self.led = -1
        self.win_seat = -1
        self.win_card = -1
        self.tricks_left = tricks_left
        self.code, self.shape = self.ranks.code_of(self.remaining)
        seat = leader
        for card in trick:
            self._put(seat, card)
            seat = seat + 1 if seat + 1 < self.nseats else 0

    def _put(self, seat: int, card: int) -> None:
        """``seat`` plays ``card`` to the trick, which keeps its cards (``trick``)."""
        self.trick.append(card)
        self._play(seat, card)

    def _play(self, seat: int, card: int) -> None:
        """``seat`` plays ``card`` to the trick: its mask, its count, what it adds to the
        summary, and who wins it so far (by the engine's :func:`~cardlab.kernel.beats`)."""
        self.count += 1
        self.trick_mask |= 1 << card
        self.units += self.card_unit[card]
        suit = self.suit_of[card]
        if self.led < 0:
            self.led = suit
            self.win_seat = seat
            self.win_card = card
        elif beats(card, suit, self.win_card, self.suit_of[self.win_card], self.trump):
            self.win_seat = seat
            self.win_card = card

    def root_values(self, trick: list[int], leader: int, tricks_left: int,
                    turn: int) -> dict[int, int]:
        """Each legal card of ``turn`` → its exact value.

        ``tricks_left`` counts the tricks not yet won, the current one included.
        """
        self._enter(trick, leader, tricks_left)
        legal = self._legal(turn)
        out: dict[int, int] = {}
        in_play = self.remaining | self.trick_mask
        reps = self.ranks.representatives(legal, in_play)
        guess = -INF  # none: _exact starts from the score as it stands
        if reps and tricks_left >= self.guess_from:
            guess = self._estimate(trick, leader, tricks_left, turn, reps[0])
            self._enter(trick, leader, tricks_left)
        best = -INF if turn == self.seat else INF
        for card in reps:
            val = self._exact(turn, card, guess)
            # the next card's guess: the best value yet for the side to play (most cards of
            # a position share it; a worse one fails low from there)
            best = max(best, val) if turn == self.seat else min(best, val)
            guess = best
            for other in self.ranks.class_of(card, legal, in_play):
                out[other] = val
        return out

    def _estimate(self, trick: list[int], leader: int, tricks_left: int, turn: int,
                  card: int) -> int:
        """A first guess at the value of ``turn`` playing ``card`` (the search's position,
        as :meth:`root_values` has it): the lower quartile of :data:`GUESS_WALKS` random
        playouts (:meth:`random_walk`, on numbers from a fixed seed, so every search makes
        the same guess). Any guess gives the same value; a close one spares MTD(f) the
        null-window searches of the climb from the score as it stands, each as costly as
        the last when near the value (random play is no worse than the worst replies, and
        the quartile leans towards them)."""
        self.set_start(trick, leader, tricks_left)
        numbers = [0.0] * (self.nseats * tricks_left)
        values: list[int] = []
        seed = 1
        for _ in range(GUESS_WALKS):
            for i in range(len(numbers)):
                seed = (seed * 1103515245 + 12345) % 2147483648  # an LCG: enough for a guess
                numbers[i] = seed / 2147483648
            self.random_walk(self.hands, turn, card, numbers)
            values.append(self._final())  # the walk left its summary and hat in place
        self.summary = self.start_summary
        self.holder_is_seat = self.start_holder
        values.sort()
        return values[len(values) // 4]

    def _exact(self, turn: int, card: int, guess: int) -> int:
        """The exact value of playing ``card`` (-1: of the position, ``turn`` to play), by
        MTD(f): a series of null-window searches (is the value at least ``beta``?) closing
        in from ``guess``. A null window prunes far more than a wide one, the table keeps
        what each search proved, and the cards of one position often share a value, so the
        best value yet is the next card's first guess (:meth:`root_values`)."""
        lower = -INF
        upper = INF
        g = guess if guess > -INF else self._final()
        while lower < upper:
            beta = g + 1 if g == lower else g
            if card >= 0:
                g = self._after(turn, card, beta - 1, beta)
            elif self.count:
                g = self._choose(turn, beta - 1, beta, -1)
            else:  # a trick's start: ``turn`` leads
                g = self._boundary(turn, beta - 1, beta)
            if g < beta:
                upper = g
            else:
                lower = g
        return g

    def root_value(self, trick: list[int], leader: int, tricks_left: int, turn: int) -> int:
        """The position's value (the seat's best, or the coalition's best, from ``turn``)."""
        self._enter(trick, leader, tricks_left)
        return self._exact(turn, -1, -INF)

    # -- the cards that may be played ---------------------------------------------------
    def _legal(self, turn: int) -> int:
        # a seat's cards never change hands: those it held, still held
        return self._follow(self.hands[turn] & self.remaining)

    def _follow(self, held: int) -> int:
        """The cards of ``held`` that may be played now (:func:`~cardlab.kernel.must_follow`):
        the suit led if held, else all."""
        led = self.led
        follow = held & self.suit_mask[led]
        return follow if must_follow(led, follow) else held

    # -- the search ----------------------------------------------------------------------
    def _final(self) -> int:
        summary = self.summary
        flag = self.holder_is_seat
        leaves = self.leaves[flag]  # not one key of both: a summary may be a long int
        got = leaves.get(summary)
        if got is None:
            got = self.leaf(summary, flag)
            if not -INF < got < INF:
                raise ValueError(f"the solver takes hand scores from {1 - INF} to {INF - 1}, "
                                 f"not {got}")
            leaves[summary] = got
        return got

    def _boundary(self, leader: int, alpha: int, beta: int) -> int:
        """A fresh trick led by ``leader``; every seat holds ``tricks_left`` cards. Leaves in
        ``relevant`` the cards whose holders the answer depends on (see the module)."""
        self.relevant = 0
        left = self.tricks_left
        if left == 0:
            return self._final()
        if left == 1:
            return self._last_trick(leader)
        reduced = self.summary & self.key_mask
        if self.lo:
            # the seat's tricks end between ``fewest`` and ``most``: first from the tricks
            # left alone (no card relevant), then from the trumps (_trump_range)
            cut = self._range_cut(reduced, reduced + left, alpha, beta)
            if cut != NO_CUT:
                return cut
            if self.trump >= 0:
                lost = self._trump_range()
                cut = self._range_cut(reduced + (lost & LEFT_MASK),
                                      reduced + left - (lost >> LEFT_BITS), alpha, beta)
                if cut != NO_CUT:
                    return cut
            self.relevant = 0
        bound = self.bound
        if bound is not None:
            remaining = self.remaining
            counts = self.holder_is_seat  # in a machine word, before the summary joins it
            widths = self.mask_widths
            for i in range(len(widths)):
                counts = (counts << widths[i]) | count_bits(remaining & self.bound_masks[i])
            bkey = (reduced << self.count_width) | (counts << self.left_width) | left
            got = self.bounds.get(bkey)
            if got is None:
                low, high, part = bound(self.summary, self.holder_is_seat, remaining)
                got = (low, high, self.parts.setdefault(part, len(self.parts)))
                self.bounds[bkey] = got
            low, high, part = got
            if low == high or high <= alpha:  # from counts alone: no card is relevant
                return high
            if low >= beta:
                return low
        else:
            part = reduced * 2 + (self.holder_is_seat & self.hat_matters)
        if left < self.store_from:  # a small subtree: cheaper to search than to remember
            return self._choose(leader, alpha, beta, -1)
        return self._stored(leader, left, part, alpha, beta)

    def _trump_range(self) -> int:
        """At a trick's start, the tricks the trumps still held surely give the seat and
        surely take from it (:func:`~cardlab.solveranks.trump_range`), with their cards (the
        trumps down to the seat's lowest) in ``relevant``. The cards never change hands, so
        the answer depends on the trumps still held alone, and is kept under them."""
        trumps = self.remaining & self.suit_mask[self.trump]
        mine = self.hands[self.seat] & trumps
        if mine:
            self.relevant |= trumps & ~((mine & -mine) - 1)
        got = self.trump_ranges.get(trumps)
        if got is None:
            got = trump_range(self.hands, self.seat, trumps)
            self.trump_ranges[trumps] = got
        return got

    def _range_cut(self, fewest: int, most: int, alpha: int, beta: int) -> int:
        """The bound (``lo``/``hi``) of a final summary from ``fewest`` to ``most`` when it
        answers the window ``alpha``..``beta``, else :data:`NO_CUT`."""
        if most >= len(self.lo):
            return NO_CUT
        low = self.lo[fewest][most]
        high = self.hi[fewest][most]
        if low == high or high <= alpha:
            return high
        if low >= beta:
            return low
        return NO_CUT

    def _stored(self, leader: int, left: int, part: int, alpha: int, beta: int) -> int:
        """:meth:`_boundary` through the table: every class of positions stored that this
        one belongs to (the same shape, leader and ``part``, and the same holders of each
        class's relevant cards: the same digits of the code) gives bounds; then the search,
        stored as its own class."""
        ranks = self.ranks
        remaining = self.remaining
        code = self.code
        base = (((part << self.seat_bits) | leader) << ranks.shape_width) | self.shape
        classes = self.buckets.get(base)
        low = -INF
        high = INF
        low_sig = 0
        high_sig = 0
        place = -1  # the best card of the first class that answered, as Ranks.relative
        if classes is not None:
            masks = classes.masks
            for k in range(len(masks)):
                entry = classes.tables[k].get(code & masks[k])
                if entry is None:
                    continue
                sig = classes.sigs[k]
                classes.answered(k)
                bound = (entry >> LOW_SHIFT) - INF
                if bound > low:
                    low = bound
                    low_sig = sig
                bound = ((entry >> HIGH_SHIFT) & BOUND_MASK) - INF
                if bound < high:
                    high = bound
                    high_sig = sig
                if place < 0:
                    place = (entry >> PLACE_SHIFT) & PLACE_MASK
                if low >= beta or high <= alpha or low == high:
                    break  # enough to answer
            if low >= beta:
                self.relevant = ranks.top_cards(low_sig, remaining)
                return low
            if high <= alpha:
                self.relevant = ranks.top_cards(high_sig, remaining)
                return high
            if low == high:
                self.relevant = (ranks.top_cards(low_sig, remaining)
                                 | ranks.top_cards(high_sig, remaining))
                return low
        else:
            classes = Classes()
            self.buckets[base] = classes
        best_card = ranks.absolute(place, remaining) if place >= 0 else -1
        used = 0
        if low > alpha:
            alpha = low
            used |= ranks.top_cards(low_sig, remaining)
        if high < beta:
            beta = high
            used |= ranks.top_cards(high_sig, remaining)
        val = self._choose(leader, alpha, beta, best_card)
        card = self.chosen
        sig = ranks.signature(self.relevant | used, remaining) if self.partition \
            else ranks.full_sig(remaining)
        k = classes.find(sig, ranks.sig_mask(sig, remaining))
        key = code & classes.masks[k]
        entry = classes.tables[k].get(key)
        if entry is not None:
            low = (entry >> LOW_SHIFT) - INF
            high = ((entry >> HIGH_SHIFT) & BOUND_MASK) - INF
        else:
            low, high = -INF, INF
            self.size += 1
        if val <= alpha:
            high = val
        elif val >= beta:
            low = val
        else:
            low = high = val
        if self.size > self.max_table:
            # keep the positions with the most tricks left (they saved the most work);
            # every class stays, with fewer entries
            self.size = purge(self.buckets, self.max_table // 2, LEFT_MASK, self.ncards)
        classes.tables[k][key] = ((low + INF) << LOW_SHIFT | (high + INF) << HIGH_SHIFT
                                  | ranks.relative(card, remaining) << PLACE_SHIFT | left)
        self.relevant = ranks.top if self.partition else remaining
        return val

    def _last_trick(self, leader: int) -> int:
        """Every seat has one card left: the play is forced."""
        seat = leader
        for _ in range(self.nseats):
            self._play(seat, (self.hands[seat] & self.remaining).bit_length() - 1)
            seat = seat + 1 if seat + 1 < self.nseats else 0
        saved_summary = self.summary
        saved_hat = self.holder_is_seat
        self._score_trick()
        val = self._final()
        self.relevant = self._deciding()
        self.summary = saved_summary
        self.holder_is_seat = saved_hat
        self.count = 0
        self.units = 0
        self.trick_mask = 0
        self.led = -1
        return val

    def _deciding(self) -> int:
        """The full trick's winning card when its rank decided the trick (another card of
        its suit is on it), else nothing: a mask, for ``relevant``."""
        bit = 1 << self.win_card
        if self.trick_mask & self.suit_mask[self.suit_of[self.win_card]] & ~bit:
            return bit
        return 0

    def _close_trick(self) -> None:
        """The current trick is full: score it and let its winner lead the next (the caller
        then empties ``trick``)."""
        self._score_trick()
        self.count = 0
        self.units = 0
        self.trick_mask = 0
        self.led = -1
        self.tricks_left -= 1
        self.leader = self.win_seat

    def _score_trick(self) -> None:
        winner = self.win_seat
        if self.count_cards:
            self.summary += self.units << (self.field * winner)
        else:
            self.summary += self.trick_unit[winner]
        if self.trick_mask & self.hat_mask:
            self.holder_is_seat = 1 if winner == self.seat else 0

    def _choose(self, turn: int, alpha: int, beta: int, first: int) -> int:
        """The best value for ``turn`` (max for the seat, min otherwise); its card is left
        in ``chosen``. ``first``: a card to try first (the table's best), or -1."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise SolveBudgetError(self.budget)
        reps = self.ranks.representative_mask(self._legal(turn), self.remaining | self.trick_mask)
        if first < 0 or not (reps >> first) & 1:
            first = self._first_move(turn, reps) if reps & (reps - 1) else -1
        if first >= 0:
            reps ^= 1 << first
        maximise = turn == self.seat
        best = -INF if maximise else INF
        card = first
        best_card = first
        relevant = 0
        while True:
            if card < 0:
                if not reps:
                    break
                low = reps & -reps
                reps ^= low
                card = low.bit_length() - 1
            val = self._after(turn, card, alpha, beta)
            relevant |= self.relevant
            if reps:
                reps &= ~self._alike(card, reps, self.relevant)
            if maximise:
                if val > best:
                    best = val
                    best_card = card
                    if val > alpha:
                        alpha = val
            elif val < best:
                best = val
                best_card = card
                if val < beta:
                    beta = val
            if alpha >= beta:
                relevant = self.relevant  # the cut holds by this card alone
                self.cuts[self._context(turn)] += 1 if self._bold(card) else -1
                break
            card = -1
        self.chosen = best_card
        self.relevant = relevant
        return best

    # -- move ordering: any order gives the same values; a good first card, fewer nodes ----
    def _first_move(self, turn: int, reps: int) -> int:
        """The card of ``reps`` (two or more) for ``turn`` to try first, or -1 (the lowest):
        a bold one or not, by which made more cuts in this context (:attr:`cuts`: the
        history heuristic, by kind of card rather than by card, which says little of
        another position). Within a trick the bold card is the lowest that takes it so far,
        the other the highest that does not (a duck that sheds the card likeliest to take
        an unwanted trick later); to lead, the bold card is the highest that tops its suit
        (the highest card of all when none does), the other the lowest."""
        bold = self.cuts[self._context(turn)] >= 0
        if not self.count:
            rest = reps
            while rest:
                high = rest.bit_length() - 1
                rest ^= 1 << high
                if self._bold(high):
                    return high if bold else -1
            return reps.bit_length() - 1 if bold else -1
        winner = -1
        duck = -1
        rest = reps
        while rest:  # from the lowest card up
            low = rest & -rest
            rest ^= low
            card = low.bit_length() - 1
            if self._bold(card):
                if winner < 0:
                    winner = card
            else:
                duck = card
        if bold:
            return winner if winner >= 0 else duck
        return duck if duck >= 0 else winner

    def _bold(self, card: int) -> bool:
        """Within a trick, True when ``card`` would take it so far; to lead, when no card of
        its suit in play ranks above it (it takes the trick unless trumped)."""
        suit = self.suit_of[card]
        if self.count:
            return beats(card, suit, self.win_card, self.suit_of[self.win_card], self.trump)
        return not ((self.remaining | self.trick_mask) & self.suit_mask[suit]) >> (card + 1)

    def _context(self, turn: int) -> int:
        """Where ``turn`` plays, for move ordering: its side (the seat or the others), to
        lead or else whether its side takes the trick so far, and how many cards are on it."""
        mine = turn == self.seat
        side = 2 if mine else 0
        if self.count and (self.win_seat == self.seat) == mine:
            side += 1
        return side * self.nseats + self.count

    def _alike(self, card: int, reps: int, relevant: int) -> int:
        """The cards of ``reps`` whose answer is ``card``'s (just searched, ``relevant`` its
        relevant cards): of its suit and kind, with both below every relevant card of the
        suit. Every line of play then ends the trick alike, with the same winner and
        summary (the suit and kind decide them: a card below the winning card's rank, which
        is relevant once another card of its suit is on the trick, loses like ``card``; the
        led suit and the cards in play are the same), and the positions after it differ
        only in which of the two cards the seat kept: the same shape and the same holders
        of the relevant cards, so the answer holds for both and they need no search."""
        suit = self.suit_of[card]
        same = reps & self.suit_mask[suit]
        mine = relevant & self.suit_mask[suit]
        if mine:
            low = mine & -mine
            if (1 << card) >= low:  # card is relevant, or above one
                return 0
            same &= low - 1
        kind_of = self.ranks.kind_of
        kind = kind_of[card]
        rest = same
        while rest:
            bit = rest & -rest
            rest ^= bit
            if kind_of[bit.bit_length() - 1] != kind:
                same ^= bit
        return same

    def _after(self, turn: int, card: int, alpha: int, beta: int) -> int:
        """The value once ``turn`` has played ``card``."""
        bit = 1 << card
        self.remaining ^= bit
        code, shape = self.code, self.shape
        if self.tricks_left > self.store_from:  # else no position below reads them (_stored)
            self.code = self.ranks.without(code, self.remaining, card)
            self.shape = shape - self.ranks.shape_unit[card]
        led, win_seat, win_card, units = self.led, self.win_seat, self.win_card, self.units
        leader = self.leader
        self._play(turn, card)
        if self.count < self.nseats:
            nxt = turn + 1 if turn + 1 < self.nseats else 0
            val = self._choose(nxt, alpha, beta, -1)
            self.count -= 1
            self.trick_mask ^= bit
        else:
            trick_mask = self.trick_mask
            saved_summary = self.summary
            saved_hat = self.holder_is_seat
            deciding = self._deciding()
            self._close_trick()
            val = self._boundary(self.win_seat, alpha, beta)
            self.relevant |= deciding
            self.tricks_left += 1
            self.summary = saved_summary
            self.holder_is_seat = saved_hat
            self.count = self.nseats - 1
            self.trick_mask = trick_mask ^ bit
        self.led, self.win_seat, self.win_card, self.units = led, win_seat, win_card, units
        self.leader = leader
        self.remaining ^= bit
        self.code, self.shape = code, shape
        return val


    # -- random playouts: a random walk down the search's tree (the Monte Carlo advisor) ------
    def set_start(self, trick: list[int], leader: int, tricks_left: int) -> None:
        """Where every :meth:`random_walk` starts: the cards already on the current trick
        (play order, from ``leader``), ``tricks_left`` tricks not yet won (the current one
        included), the summary and the hat's holder as the search was made with."""
        self.summary = self.start_summary
        self.holder_is_seat = self.start_holder
        self._enter(trick, leader, tricks_left)
        self.start_trick = self.trick[:]
        self.start_units = self.units
        self.start_trick_mask = self.trick_mask
        self.start_led = self.led
        self.start_win_seat = self.win_seat
        self.start_win_card = self.win_card
        self.start_leader = self.leader
        self.start_tricks_left = self.tricks_left

    def random_walk(self, hands: list[int], turn: int, card: int,
                    numbers: list[float]) -> int:
        """From the start (:meth:`set_start`) with ``hands`` (per seat, the mask of cards
        held), ``turn`` plays ``card``, then every seat random legal cards to the end of
        the hand; returns the final ``(summary & key_mask) * 2 + seat holds the hat``: the
        part of the summary that can change the seat's score, as in the table's key (so
        walks that differ only where the seat's score cannot are counted together).

        The ``k``-th random card reads ``numbers[k]``: it is the ``int(r * n)``-th lowest
        of the ``n`` legal cards, which is the engine's ``kernel.play_cards`` choice (the
        ``int(r * n)``-th of ``legal_actions``: the suit led, else the hand in suit order)
        when the cards are numbered suit by suit, each suit ascending, as every suited
        deck is. The tricks are the search's own (:meth:`_put`, :meth:`_score_trick`).
        The cards played go into one mask rather than out of ``hands``, which are left as
        they were (so every action's walk reads the same list); ``remaining`` is not kept
        either: no walk reads it.
        """
        self.trick = self.start_trick[:]
        self.count = len(self.trick)
        self.units = self.start_units
        self.trick_mask = self.start_trick_mask
        self.led = self.start_led
        self.win_seat = self.start_win_seat
        self.win_card = self.start_win_card
        self.leader = self.start_leader
        self.tricks_left = self.start_tricks_left
        self.summary = self.start_summary
        self.holder_is_seat = self.start_holder
        nseats = self.nseats
        at = 0
        gone = 0  # the cards played in this walk
        while True:
            gone |= 1 << card
            self._put(turn, card)
            if len(self.trick) < nseats:
                turn = turn + 1 if turn + 1 < nseats else 0
            else:
                self._close_trick()
                self.trick.clear()
                turn = self.win_seat
                if self.tricks_left == 0:
                    break
            card = kth_lowest(self._follow(hands[turn] & ~gone), numbers[at])
            at += 1
        return (self.summary & self.key_mask) * 2 + self.holder_is_seat


def _probe() -> None:
    """A function to look at: compiled, it is a builtin rather than a Python function."""


COMPILED: Final = type(_probe).__name__ != "function"
