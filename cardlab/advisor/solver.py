"""The exact open-hand solver for the trick-taking games: every card's value, all hands known.

For a position in the play of a hand of Where's Bob's Hat? or Ted's Game, with every hand
face up (the viewer's all-hands view, or one sampled deal of the Monte Carlo advisor),
:func:`solve` gives each legal card of the seat to act the hand score that ``seat`` ends with
under *paranoid* play: ``seat`` plays to maximise its own hand score and every other seat plays
to minimise it, as a coalition that sees all the cards too. :func:`value` is the position's own
value, and :func:`best_line` one line of play that reaches it.

The search (alpha-beta with a transposition table and equivalent cards searched once) lives in
:mod:`cardlab.solvekernel`; this module turns an engine state into its numbers and gives it the
game's own scoring function for the end of the hand (``bobs_hat.score_hand``,
``teds_game.score``), so no rule of scoring is written twice. ``docs/advisor.md`` says more.

>>> import cardlab
>>> from cardlab.bots import make_bot
>>> table = cardlab.new_game("teds-game", players=3, seed=4, start_size=3)
>>> while table.state.phase != "play":
...     table.act(table.state.legal_texts()[0])  # everyone bids 0 (the hook allows it)
>>> state = table.state
>>> values = solve(state, state.to_act())
>>> sorted(values) == sorted(state.legal_actions())
True
>>> value(state, state.to_act()) == max(values.values())
True
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import CardlabError
from ..game import State
from ..games.bobs_hat import engine as bobs_hat
from ..games.teds_game import engine as teds_game
from ..games.trick_taking.state import PLAY, TrickTaking
from ..solvekernel import Search, add_fields

GAMES = ("bobs-hat", "teds-game")
BOBS_FIELD = 6  # bits per (seat, colour) count of cards taken: up to 20 cards of a colour


def solve(state: State, seat: int) -> dict[int, int]:
    """Each legal card of the seat to act → ``seat``'s final hand score under paranoid play.

    ``seat`` (0-based) maximises its hand score, every other seat minimises it, all cards
    known. ``seat`` need not be the seat to act: then the values are those the coalition
    weighs. Play phase of Where's Bob's Hat? or Ted's Game only, otherwise
    :class:`~cardlab.errors.CardlabError`. Cards that are equivalent (the same suit, next to
    each other among the cards still in play, and in Bob's Hat both hat cards or neither) are
    searched once and get the same value.
    """
    search, turn, trick, leader, left = _prepare(state, seat)
    if search is None:
        return dict.fromkeys(state.legal_actions(), _constant(state, seat))
    values = search.root_values(trick, leader, left, turn)
    return {card: values[card] for card in state.legal_actions()}


def value(state: State, seat: int) -> int:
    """The position's paranoid value for ``seat``: its hand score with best play on both sides.

    Equal to ``max(solve(state, seat).values())`` when ``seat`` is to act, and to the ``min``
    otherwise, but found without valuing each card on its own.
    """
    search, turn, trick, leader, left = _prepare(state, seat)
    if search is None:
        return _constant(state, seat)
    return search.root_value(trick, leader, left, turn)


def best_line(state: State, seat: int) -> list[int]:
    """One line of play to the end of the hand along which ``seat`` scores :func:`value`:
    at each step the seat to act plays its best card for its side (the lowest-numbered card
    among equals). ``state`` is left as it was.
    """
    line: list[int] = []
    here = state.clone()
    _check(here, seat)
    while here.phase == PLAY:  # type: ignore[attr-defined]
        values = solve(here, seat)
        pick = max if here.to_act() == seat else min
        target = pick(values.values())
        card = min(c for c, v in values.items() if v == target)
        line.append(card)
        here.apply(card)
    return line


def _check(state: State, seat: int) -> None:
    name = state.rules.name
    if name not in GAMES or not isinstance(state, TrickTaking):
        raise CardlabError(
            f"the exact solver plays the trick-taking games (Where's Bob's Hat?, Ted's Game), "
            f"not {state.rules.title}")
    if type(seat) is not int or not 0 <= seat < state.nseats:
        raise CardlabError(f"the exact solver needs a seat from 0 to {state.nseats - 1} "
                           f"(0-based), not {seat!r}")
    hand = state.hand_number()
    if state.phase != PLAY or state.to_act() < 0:
        when = "the hand is over" if state.hand_over() else f"hand {hand} is in its " \
            f"{state.phase} phase"
        raise CardlabError(
            f"the exact solver works in the play of the cards, once every bid is made: {when}")


def _prepare(state: State, seat: int) -> tuple[Search | None, int, list[int], int, int]:
    """The kernel's search for ``state``, or None when nothing left can change the score."""
    _check(state, seat)
    assert isinstance(state, TrickTaking)
    search = _search(state, seat, bounded=True)
    trick, left = state.trick[:], len(state.dealt_hands[state.leader]) - len(state.history)
    if isinstance(state, bobs_hat.BobsHatState) and search.key_mask == 0 \
            and not search.hat_matters:
        return None, state.turn, trick, state.leader, left
    return search, state.turn, trick, state.leader, left


def playout_search(state: TrickTaking, seat: int) -> Search:
    """The kernel's search for ``state`` (the play phase of a trick game), set for random
    playouts from there (:meth:`~cardlab.solvekernel.Search.random_walk`): its summary
    rules, no bounds. :func:`summary_taken` reads a Bob's Hat summary back.
    """
    _check(state, seat)
    search = _search(state, seat, bounded=False)
    search.set_start(state.trick[:], state.leader,
                     len(state.dealt_hands[state.leader]) - len(state.history))
    return search


def _search(state: TrickTaking, seat: int, bounded: bool) -> Search:
    """The search of ``state`` for ``seat``: the cards, the trump, the summary rules and the
    leaf; with ``bounded``, the game's bounds for pruning too."""
    nsuits = len(state.deck.suits)
    suit_of = list(state.suit_of)
    suit_mask = [0] * nsuits
    for card, suit in enumerate(suit_of):
        suit_mask[suit] |= 1 << card
    hands = [sum(1 << card for suit in held for card in suit) for held in state.hands]
    n = state.nseats
    if isinstance(state, teds_game.TedsGameState):
        bid, size = state.bids[seat], state.size

        def ted_leaf(won: int, hat: int) -> int:
            return teds_game.score(bid, won, size)

        search = Search(n, seat, suit_of, suit_mask, state.trump, hands,
                        state.tricks_won[seat], 0, [int(s == seat) for s in range(n)],
                        [0] * len(suit_of), 0, -1, 0, 0, -1, ted_leaf)
        if bounded:
            # The score is bid against tricks: bound it by the tricks the seat can end
            # with, from ``a`` to ``b`` (the kernel finds them), scored by the game.
            lo = [[min(ted_leaf(t, 0) for t in range(a, max(a, b) + 1))
                   for b in range(size + 1)] for a in range(size + 1)]
            hi = [[max(ted_leaf(t, 0) for t in range(a, max(a, b) + 1))
                   for b in range(size + 1)] for a in range(size + 1)]
            search.set_bounds(lo, hi)
        return search
    assert isinstance(state, bobs_hat.BobsHatState)
    flags = state.bids[seat]
    key_mask = _bobs_key_mask(flags, n)
    hat_matters = int(flags != bobs_hat.NO_BID and state.hat_value != 0)
    field = 3 * BOBS_FIELD
    hat_mask = sum(1 << card for card, hat in enumerate(bobs_hat.IS_HAT) if hat)
    search = Search(n, seat, suit_of, suit_mask, state.trump, hands, 0, field, [0] * n,
                    [1 << (BOBS_FIELD * suit) for suit in suit_of], 1, key_mask, hat_mask,
                    hat_matters, state.hat_holder(), _bobs_leaf(state, seat))
    if bounded:
        most = [suit_mask[suit] for suit, bit in enumerate(bobs_hat.MOST) if flags & bit]
        search.set_bound(_bobs_bound(state, seat, suit_mask, hat_mask), [*most, hat_mask])
    return search


def summary_taken(state: bobs_hat.BobsHatState) -> Callable[[int], list[list[int]]]:
    """Bob's Hat: the cards taken per seat and colour at the end of a hand, from the search's
    summary of the cards taken after ``state`` (``state``'s own tricks added)."""
    base = state.taken()

    def taken(summary: int) -> list[list[int]]:
        return add_fields(base, summary, BOBS_FIELD)
    return taken


def _bobs_key_mask(flags: int, n: int) -> int:
    """The bits of the taken-cards summary that can change this bid's score: every count
    with a fewest bid (it compares totals), else the columns of the colours bid most."""
    if flags == bobs_hat.NO_BID:
        return 0
    if flags & bobs_hat.FEWEST:
        return -1
    mask = 0
    full = (1 << BOBS_FIELD) - 1
    for suit, bit in enumerate(bobs_hat.MOST):
        if flags & bit:
            for s in range(n):
                mask |= full << (BOBS_FIELD * (3 * s + suit))
    return mask


def _bobs_leaf(state: bobs_hat.BobsHatState, seat: int) -> Callable[[int, int], int]:
    """The seat's hand score from the cards taken from now on (the summary) and whether it
    ends with the hat: the game's own ``score_hand``, plus the hand's penalties so far."""
    taken_of = summary_taken(state)
    dealt = state.dealt_suits()
    bids = state.bids[:]
    size, hat_value = state.size, state.hat_value
    negative = bool(state.rules.options["negative_scoring"])
    carried = state.row[seat]

    def leaf(summary: int, holds_hat: int) -> int:
        taken = taken_of(summary)
        # Another holder scores the hat for itself, not for this seat: -1 says the same.
        holder = seat if holds_hat else -1
        return carried + bobs_hat.score_hand(bids, taken, dealt, size, holder, hat_value,
                                             negative)[seat]
    return leaf


def _bobs_bound(state: bobs_hat.BobsHatState, seat: int, suit_mask: list[int],
                hat_mask: int) -> Callable[[int, int, int], tuple[int, int, int]]:
    """Bounds on the seat's hand score at the start of a trick, for pruning, and the key
    of the summary for the transposition table.

    The seat scores each of its bids, plus the hat, on its own (``score_hand`` adds them), so
    the score lies between the sums of each part's lowest and highest. A part's range is
    found with ``score_hand`` itself, the seat bidding that part alone, over a relaxation of
    what can still happen: every way the cards of the colour still held (most) or the
    tricks still to play (fewest) could be shared among the seats. The hat adds its value
    when the seat ends with it, 0 when not; once no 14 or 15 is left, that is settled.

    The key holds, for each part, what its score depends on (a most bid: that colour's
    counts; fewest: each seat's total; the hat: whether the seat holds it, once no 14 or 15
    is left to take it away), or its score once the part's range is one number (settled:
    no card still to play can change it). Positions that agree on it end with the same score
    whatever is played.
    """
    n = state.nseats
    flags = state.bids[seat]
    base = state.taken()
    dealt = state.dealt_suits()
    size, hat_value = state.size, state.hat_value
    negative = bool(state.rules.options["negative_scoring"])
    carried = state.row[seat]
    full = (1 << BOBS_FIELD) - 1
    most = [suit for suit, bit in enumerate(bobs_hat.MOST) if flags & bit]
    fewest = flags & (bobs_hat.FEWEST | bobs_hat.DOUBLE)
    alone = [0] * n
    ranges: dict[tuple[int, tuple[int, ...], int], tuple[int, int]] = {}

    def part(kind: int, start: tuple[int, ...], more: int) -> tuple[int, int]:
        """``kind`` a suit (most) or -1 (fewest): the part's range from counts ``start``
        with ``more`` cards (most) or tricks (fewest) still to share out."""
        key = (kind, start, more)
        got = ranges.get(key)
        if got is None:
            scores = []
            bids = alone[:]
            bids[seat] = bobs_hat.MOST[kind] if kind >= 0 else fewest
            step = 1 if kind >= 0 else n
            for share in _shares(more, n):
                if kind >= 0:
                    taken = [[0, 0, 0] for _ in range(n)]
                    for s in range(n):
                        taken[s][kind] = start[s] + share[s]
                else:
                    taken = [[start[s] + step * share[s], 0, 0] for s in range(n)]
                scores.append(bobs_hat.score_hand(bids, taken, dealt, size, -1, 0,
                                                  negative)[seat])
            got = (min(scores), max(scores))
            ranges[key] = got
        return got


    def bound(summary: int, holds_hat: int, in_play: int) -> tuple[int, int, int]:
        # It reads the counts the key mask keeps, and of the cards in play only how many
        # there are of each colour bid most, of the hat cards, and in all (the kernel keeps
        # its answers under those).
        low = high = carried
        key = 1  # a leading 1: the fields below then read back one way only
        counts = [[base[s][c] + ((summary >> (BOBS_FIELD * (3 * s + c))) & full)
                   for c in range(3)] for s in range(n)]
        fields: list[tuple[int, tuple[int, ...], int]] = [
            (suit, tuple(counts[s][suit] for s in range(n)),
             (in_play & suit_mask[suit]).bit_count()) for suit in most]
        if fewest:
            fields.append((-1, tuple(sum(counts[s]) for s in range(n)),
                           in_play.bit_count() // n))
        for kind, start, more in fields:
            a, b = part(kind, start, more)
            low += a
            high += b
            if a == b:  # settled: its score, offset to be positive
                key = (key << 1 | 1) << 12 | (a + 2048)
            else:
                key <<= 1
                for count in start:
                    key = key << 7 | count
        if hat_value:
            if in_play & hat_mask:
                low += min(0, hat_value)
                high += max(0, hat_value)
            else:
                key = key << 1 | holds_hat
                if holds_hat:
                    low += hat_value
                    high += hat_value
        return low, high, key
    return bound


def _shares(total: int, n: int) -> list[tuple[int, ...]]:
    """Every way to share ``total`` things among ``n`` seats."""
    if n == 1:
        return [(total,)]
    return [(k, *rest) for k in range(total + 1) for rest in _shares(total - k, n - 1)]


def _constant(state: State, seat: int) -> int:
    """The score of a seat whose score no card can change (a Bob's Hat no bid)."""
    assert isinstance(state, bobs_hat.BobsHatState)
    return _bobs_leaf(state, seat)(0, 0)


__all__ = ["best_line", "playout_search", "solve", "summary_taken", "value"]
