"""Whot's seat's-view sampler and figures: the hidden cards drawn from what one seat saw.

A Whot seat sees its own cards, the call card and every card played on the pile, the number
of cards each player holds, the stock's size, and every action of the game (a draw never names
its card to the others). From that alone :class:`WhotSampler` rebuilds the game's public
story: it replays the view's actions through the engine from a stand-in deal, swapping
stand-in cards so that each card played comes from its player's unseen cards, and so learns
where every card seen face up is now. The rule text turns the pile over *without shuffling*
when the stock runs out, so a turned-over stock is known card by card, and so is a card drawn
from it, until it is played again. A pass (allowed only to a player who can neither play nor
draw) shows that the passer held no card that followed the call and no WHOT.

Each sample then deals the unseen cards (the pack minus the seat's own cards minus every card
seen face up in this game and not since hidden in an unseen place) uniformly: each other hand
gets its count of them, the unseen part of the stock a uniformly random order; a layout that
contradicts a pass never comes up (it is drawn again, or, when few deals are consistent, the
consistent ones are counted and one is drawn directly: uniform either way). See
``docs/advisor-sampling.md`` ("Whot").

>>> import random, cardlab
>>> from cardlab.advisor import seat_view
>>> table = cardlab.new_game("whot", players=3, seed=5, rubber="single")
>>> actor, text = table.state.to_act(), table.state.legal_texts()[0]
>>> table.act(text)
>>> view = seat_view(table.state, 2, [(actor, text)])
>>> state = WhotSampler(view).sample(random.Random(1))
>>> state.snapshot(2) == view.position, state.held(2) == table.state.held(2)
(True, True)
>>> sorted(figures(state, 2, state))
Traceback (most recent call last):
...
cardlab.errors.CardlabError: hand 1: the figures of a Whot game are read once it has ended
"""

from __future__ import annotations

import math
import random

from ...errors import CardlabError
from ...game import SeatView, State
from . import CODES, DECK, HAND_SIZE, IS_WHOT, PASS, WhotRules, WhotState

# Rejection runs only where at least ACCEPTANCE of the deals are kept, so this many misses in a
# row does not happen by chance: it means something is wrong with the view.
MAX_TRIES = 200_000
# Below this share of deals kept, the counting draw replaces rejection (see _Counting).
ACCEPTANCE = 0.2
# The keys of a seat's position that depend on its own cards (compared once they are placed).
_OWN_KEYS = ("hands", "legal")


class WhotSampler:
    """Whole :class:`WhotState` positions drawn uniformly among the hidden-card layouts
    consistent with one seat's view (built from the view alone: it cannot peek).

    The view is checked when the sampler is made: replaying its actions must reach its
    position, or a :class:`~cardlab.errors.CardlabError` says where they part.

    ``method``: how layouts that a pass rules out are avoided, both exactly uniform:
    ``"reject"`` (deal uniformly, draw again on a contradiction), ``"count"`` (count the
    consistent layouts and draw one directly), ``"auto"`` (counting when fewer than
    ``ACCEPTANCE`` of all deals would be kept, else rejection).
    """

    def __init__(self, view: SeatView, method: str = "auto") -> None:
        rules = view.rules
        if not isinstance(rules, WhotRules):
            raise CardlabError(f"the Whot sampler reads a Whot view, not one of {rules.name}")
        pos = view.position
        if pos.get("phase") != "play":
            raise CardlabError(f"hand {pos.get('hand')}: no game of Whot is being played, so "
                               "no card is hidden in play")
        self.view = view
        self.seat = seat = view.seat
        state, seen, voids = _public_story(view)
        own = [DECK.parse(code) for code in pos["hands"][seat] or []]
        _place_own(state, seat, own, seen, list(pos.get("legal") or []))
        _check(state, view, keys=None)
        # The template: every card the seat knows the place of stays where it is; the unseen
        # ones are the pool, dealt afresh into the other hands' unseen places and the stock's.
        mine = set(own)
        self.template = state
        self.pool = sorted(c for c in range(rules.ncards) if c not in seen and c not in mine)
        self.places: list[tuple[int, list[int], list[int], int]] = []
        for s in range(rules.players):
            if s == seat:
                continue
            plain = [c for c in state.hands[s] if c in seen]
            whots = [c for c in state.whots[s] if c in seen]
            unseen = len(state.hands[s]) + len(state.whots[s]) - len(plain) - len(whots)
            self.places.append((s, plain, whots, unseen))
        self.stock_places = [i for i, c in enumerate(state.stock) if c not in seen]
        if sum(p[3] for p in self.places) + len(self.stock_places) != len(self.pool):
            raise CardlabError(f"hand {pos['hand']}: the view's cards do not add up to the pack")
        # A pass constrains the passer's unseen cards now: every unseen card he holds was in
        # his hand when he passed (nothing unseen can be drawn once stock and pile are spent).
        starts, at = {}, 0
        for s, _, _, unseen in self.places:
            starts[s] = (at, at + unseen)
            at += unseen
        self.voids = [(starts[s], forbidden) for s, forbidden in voids if s != seat]
        if method not in ("auto", "reject", "count"):
            raise CardlabError(f"the Whot sampler draws by 'auto', 'reject' or 'count', not "
                               f"{method!r}")
        self.counting: _Counting | None = None
        pool = set(self.pool)
        if method != "reject" and any(hi > lo and pool & f for (lo, hi), f in self.voids):
            counting = _Counting(self.pool, self.voids)
            if method == "count" or counting.acceptance() < ACCEPTANCE:
                self.counting = counting

    def sample(self, rng: random.Random) -> WhotState:
        """A fresh :class:`WhotState` at the view's step, its unseen cards drawn uniformly.

        Another seat's held cards are in no meaningful order (the rules do not show it).
        """
        if self.counting is not None:
            cards = self.counting.draw(rng)
        else:
            cards = self.pool[:]
            for _ in range(MAX_TRIES):
                rng.shuffle(cards)
                if self._fits(cards):
                    break
            else:
                raise CardlabError(f"hand {self.view.position['hand']}: no layout of the "
                                   f"unseen cards agrees with every pass after {MAX_TRIES} "
                                   "draws")
        state = self.template.clone()
        at = 0
        for s, plain, whots, unseen in self.places:
            dealt = cards[at:at + unseen]
            at += unseen
            state.hands[s] = plain + [c for c in dealt if not IS_WHOT[c]]
            state.whots[s] = whots + [c for c in dealt if IS_WHOT[c]]
        stock = state.stock
        for i in self.stock_places:
            stock[i] = cards[at]
            at += 1
        return state

    def _fits(self, cards: list[int]) -> bool:
        for (lo, hi), forbidden in self.voids:
            for i in range(lo, hi):
                if cards[i] in forbidden:
                    return False
        return True


class _Counting:
    """The exact draw of a layout that no pass contradicts, by counting.

    Only the passers' places are constrained, and for them a card matters only by which
    passers may hold it (its *kind*). The number of consistent ways to fill the passers'
    places is a sum, over how many cards of each kind each passer takes, of products of
    binomials; it is computed passer by passer with a memo (exact integers). A draw picks each
    passer's numbers with probability proportional to the ways they leave, then which cards,
    uniformly; the other places take the rest in a uniform shuffle. Every consistent layout
    has the same chance: the rest can be laid out in the same number of ways whatever the
    passers took.
    """

    def __init__(self, pool: list[int], voids: list[tuple[tuple[int, int], frozenset[int]]]
                 ) -> None:
        self.size = len(pool)
        forbidden: dict[tuple[int, int], set[int]] = {}
        for span, cards in voids:
            if span[1] > span[0]:
                forbidden.setdefault(span, set()).update(cards)
        self.spans = sorted(forbidden)
        bans = [forbidden[span] for span in self.spans]
        kinds = sorted({tuple(c not in ban for ban in bans) for c in pool})
        self.kinds = [[c for c in pool if tuple(c not in ban for ban in bans) == kind]
                      for kind in kinds]
        self.allowed = [[k for k, kind in enumerate(kinds) if kind[j]]
                        for j in range(len(self.spans))]
        self.memo: dict[tuple[int, tuple[int, ...]], tuple[int, list[tuple[tuple[int, ...],
                                                                             int]]]] = {}

    def ways(self, j: int, left: tuple[int, ...]) -> tuple[int, list[tuple[tuple[int, ...],
                                                                           int]]]:
        """The ways passers j.. can fill their places from ``left`` cards of each kind, and
        each choice of passer j's numbers with the ways it leaves."""
        key = (j, left)
        if key in self.memo:
            return self.memo[key]
        if j == len(self.spans):
            return 1, []
        lo, hi = self.spans[j]
        choices: list[tuple[tuple[int, ...], int]] = []
        total = 0
        for take in _splits(hi - lo, [(k, left[k]) for k in self.allowed[j]], len(left)):
            rest = tuple(n - t for n, t in zip(left, take, strict=True))
            weight = self.ways(j + 1, rest)[0]
            if weight:
                for n, t in zip(left, take, strict=True):
                    weight *= math.comb(n, t)
                choices.append((take, weight))
                total += weight
        self.memo[key] = (total, choices)
        return total, choices

    def acceptance(self) -> float:
        """The share of uniform deals that no pass contradicts."""
        every, left = 1, self.size
        for lo, hi in self.spans:
            every *= math.comb(left, hi - lo)
            left -= hi - lo
        return self.ways(0, tuple(len(k) for k in self.kinds))[0] / every

    def draw(self, rng: random.Random) -> list[int]:
        """The pool in slot order (the places' spans, then the stock), uniformly among the
        layouts no pass contradicts."""
        left = tuple(len(k) for k in self.kinds)
        if self.ways(0, left)[0] == 0:
            raise CardlabError("no layout of the unseen cards agrees with every pass")
        free = [k[:] for k in self.kinds]
        cards: list[int | None] = [None] * self.size
        for j, (lo, _) in enumerate(self.spans):
            total, choices = self.ways(j, left)
            pick, i = rng.randrange(total), 0
            while pick >= choices[i][1]:
                pick -= choices[i][1]
                i += 1
            take = choices[i][0]
            at = lo
            for k, t in enumerate(take):
                if t:
                    for card in rng.sample(free[k], t):
                        free[k].remove(card)
                        cards[at] = card
                        at += 1
            left = tuple(n - t for n, t in zip(left, take, strict=True))
        rest = [c for k in free for c in k]
        rng.shuffle(rest)
        it = iter(rest)
        return [next(it) if c is None else c for c in cards]


def _splits(count: int, limits: list[tuple[int, int]], width: int) -> list[tuple[int, ...]]:
    """Every way to take ``count`` cards, at most ``limit`` of kind ``k`` for each
    ``(k, limit)`` of ``limits`` and none of another kind, as a tuple of ``width`` numbers."""
    out: list[tuple[int, ...]] = []
    take = [0] * width

    def fill(i: int, left: int) -> None:
        if i == len(limits):
            if left == 0:
                out.append(tuple(take))
            return
        k, limit = limits[i]
        for t in range(min(left, limit) + 1):
            take[k] = t
            fill(i + 1, left - t)
        take[k] = 0

    fill(0, count)
    return out


def figures(state_at_end: State, seat: int, start: State) -> dict[str, float]:
    """Whot's figures for ``seat`` at the end of the game begun at ``start``: ``"out first"``
    (1 when the seat played its last card first, 0 otherwise, a block or the safety cap
    included) and ``"points against"`` (the seat's score for the game: lower is better).

    >>> import random, cardlab
    >>> table = cardlab.new_game("whot", players=2, seed=3, rubber="single", max_turns=3000)
    >>> start = table.state.clone()
    >>> table.state.random_playout(random.Random(0).random)
    >>> fig = figures(table.state, 0, start)
    >>> fig["out first"] in (0.0, 1.0), fig["points against"] == table.state.hand_scores()[0]
    (True, True)
    """
    if not isinstance(state_at_end, WhotState):
        raise CardlabError("Whot's figures read a Whot state")
    hand = start.hand_number()
    if state_at_end.hand_number() != hand or not state_at_end.hand_over():
        raise CardlabError(f"hand {hand}: the figures of a Whot game are read once it has "
                           "ended")
    return {"out first": 1.0 if state_at_end.winner == seat else 0.0,
            "points against": float(state_at_end.hand_scores()[seat])}


# -- the public story of the game ----------------------------------------------------------------
def _public_story(view: SeatView) -> tuple[WhotState, set[int], list[tuple[int, frozenset[int]]]]:
    """Replay the view's actions through the engine from a stand-in deal.

    Returns the state reached (the seat's own cards still stand-ins), the cards seen face up
    in this game (played, or misplayed and taken back: their places are known from then on),
    and each pass that shows a void: (seat, the cards it could not have held).
    """
    rules: WhotRules = view.rules  # type: ignore[assignment]
    pos = view.position
    hand = pos["hand"]
    state: WhotState = rules.new_state()  # type: ignore[assignment]
    state.apply_chance({"cuts": pos["cuts"]})
    state.game_no = hand - 1
    state.sheet = [list(row) for row in pos["sheet"]]
    state.kitty = list(pos["kitty"])
    state.misplays = [(m["hand"], m["seat"], DECK.parse(m["card"])) for m in pos["misplays"]
                      if m["hand"] < hand]
    n, ncards = rules.players, rules.ncards
    order = list(range(ncards))  # any deal will do: the stand-ins are swapped as cards show
    deal = {"hands": [[CODES[c] for c in order[s * HAND_SIZE:(s + 1) * HAND_SIZE]]
                      for s in range(n)],
            "stock": [CODES[c] for c in order[n * HAND_SIZE:]]}
    state.apply_chance(deal)
    seen: set[int] = set()
    voids: list[tuple[int, frozenset[int]]] = []
    for step, (actor, text) in enumerate(view.actions, start=1):
        where = f"hand {hand}, action {step} ({text!r})"
        if state.to_act() != actor:
            raise CardlabError(f"{where}: it is not seat {actor}'s turn in the view's story")
        words = text.split()
        try:
            if words[:1] == ["play"] and len(words) >= 2:
                card = DECK.parse(words[1])
                _bring(state, actor, card, seen, where)
                state.apply(state.parse_action(text))
                seen.add(card)  # on the pile now, or misplayed, shown and taken back
            elif text == "pass" and not state.pending:
                # Only a player who holds nothing to play may pass: no card that follows the
                # call, and no WHOT. Stand-ins that would follow are moved out of his hand.
                forbidden = frozenset(c for c in range(ncards) if IS_WHOT[c] or state.match[c])
                _clear(state, actor, forbidden, seen, where)
                voids.append((actor, forbidden))
                state.apply(PASS)
            else:
                state.apply(state.parse_action(text))
        except CardlabError as err:
            raise CardlabError(f"{where}: the view's story cannot be replayed: {err}") from None
    _check(state, view, keys=_OWN_KEYS)
    return state, seen, voids


def _holding(state: WhotState, seat: int, card: int) -> list[int]:
    return state.whots[seat] if IS_WHOT[card] else state.hands[seat]


def _place(state: WhotState, card: int) -> tuple[int, int]:
    """Where ``card`` is: (seat, -1) in a hand, (-1, index) in the stock, (-1, -1) the pile."""
    for s in range(state.n):
        if card in _holding(state, s, card):
            return s, -1
    if card in state.stock:
        return -1, state.stock.index(card)
    return -1, -1


def _put(state: WhotState, where: tuple[int, int], old: int, new: int) -> None:
    """Put ``new`` where ``old`` is (a hand, keeping its place when both are alike)."""
    seat, index = where
    if seat < 0:
        state.stock[index] = new
        return
    held = _holding(state, seat, old)
    if IS_WHOT[old] == IS_WHOT[new]:
        held[held.index(old)] = new
    else:
        held.remove(old)
        _holding(state, seat, new).append(new)


def _swap(state: WhotState, a: int, b: int) -> None:
    at_a, at_b = _place(state, a), _place(state, b)
    _put(state, at_a, a, b)
    _put(state, at_b, b, a)


def _stand_ins(state: WhotState, seat: int, exclude: set[int]) -> list[int]:
    return [c for c in state.hands[seat] + state.whots[seat] if c not in exclude]


def _bring(state: WhotState, seat: int, card: int, seen: set[int], where: str) -> None:
    """Make ``seat`` hold ``card``, swapping it with one of the seat's unseen stand-ins."""
    if card in _holding(state, seat, card):
        return
    if card in seen:
        raise CardlabError(f"{where}: {CODES[card]} was seen elsewhere in this game")
    free = _stand_ins(state, seat, seen)
    if not free:
        raise CardlabError(f"{where}: seat {seat} holds no unseen card to play it from")
    alike = [c for c in free if IS_WHOT[c] == IS_WHOT[card]]
    _swap(state, card, (alike or free)[0])


def _clear(state: WhotState, seat: int, forbidden: frozenset[int], seen: set[int],
           where: str) -> None:
    """Swap the passer's unseen stand-ins that could be played for unseen ones that could not,
    from the other hands (the stock is empty when a player may pass)."""
    for card in [c for c in _stand_ins(state, seat, seen) if c in forbidden]:
        others = [c for s in range(state.n) if s != seat for c in _stand_ins(state, s, seen)
                  if c not in forbidden]
        if not others:
            raise CardlabError(f"{where}: seat {seat} could not have been without a card to "
                               "play")
        _swap(state, card, others[0])


def _place_own(state: WhotState, seat: int, own: list[int], seen: set[int],
               legal_texts: list[str]) -> None:
    """Put the seat's own cards in its hand (its stand-ins go back among the unseen), the
    playable ones in the order the view's legal actions list them."""
    where = f"hand {state.game_no}, seat {seat}'s own cards"
    mine = set(own)
    for card in own:
        if card in _holding(state, seat, card):
            continue
        if card in seen:
            raise CardlabError(f"{where}: {CODES[card]} was seen elsewhere in this game")
        free = _stand_ins(state, seat, seen | mine)
        if not free:
            raise CardlabError(f"{where}: the seat holds more cards than the view counts")
        alike = [c for c in free if IS_WHOT[c] == IS_WHOT[card]]
        _swap(state, card, (alike or free)[0])
    if sorted(state.hands[seat] + state.whots[seat]) != sorted(own):
        raise CardlabError(f"{where}: the seat's cards do not agree with the game's story")
    # The engine lists plays in the order the cards arrived in the hand (plain cards, then
    # WHOTs); the view's legal actions show that order for the playable ones: keep it.
    plays = [t.split() for t in legal_texts if t.startswith("play ")]
    for held, wanted in ((state.hands[seat], [DECK.parse(w[1]) for w in plays if len(w) == 2]),
                         (state.whots[seat], list(dict.fromkeys(
                             DECK.parse(w[1]) for w in plays if len(w) == 4)))):
        slots = [i for i, c in enumerate(held) if c in set(wanted)]
        if len(slots) == len(wanted):
            for i, card in zip(slots, wanted, strict=True):
                held[i] = card


def _check(state: WhotState, view: SeatView, keys: tuple[str, ...] | None) -> None:
    """The replayed state must show the seat exactly the view's position (but ``keys``)."""
    got = state.snapshot(view.seat)
    for key, value in view.position.items():
        if keys is not None and key in keys:
            continue
        if got.get(key) != value:
            raise CardlabError(f"hand {view.position['hand']}: the view's actions do not "
                               f"lead to its position ({key}: {got.get(key)!r} against "
                               f"{value!r})")
