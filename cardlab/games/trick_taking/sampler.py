"""The blind sampler of the trick-taking games (Where's Bob's Hat?, Ted's Game), and their
figures hooks.

:class:`TrickSampler` reads a :class:`~cardlab.advisor.sample.SeatView` only. From it, it
knows the seat's own cards, every card played (so who played it), the voids shown by not
following suit, the trump (Ted's Game: the turned card, face up and in nobody's hand; Bob's
Hat: a separate colour card, not one of the 60) and how many cards each other seat holds.
The other cards lie in the other hands or among the cards nobody was dealt. (A renege flagged
in Ted's Game's table mode shows that its seat held the suit led; the sampler does not use
that, and treats the play as showing nothing.) A *layout* gives
each unseen card a place; :class:`LayoutDrawer` draws one uniformly among the layouts that
respect the voids: a uniform deal of the unseen cards, kept when no void is broken (rejection
keeps uniformity), and after a run of rejections an exact draw that counts the consistent
layouts per suit (:meth:`LayoutDrawer.count`).

A template state is built once from the view (a fresh game moved to this hand, a deal
consistent with the view, the hand's visible actions replayed); each sample clones it and
fills in the other hands. Hidden choices are drawn per sample (docs/advisor-sampling.md):
a face-down hat value and secret bids, by default as the heuristic bot would choose them
with the sampled cards (``hidden="bot"``), or uniformly among the legal choices
(``hidden="uniform"``). Samples whose drawn bids would change the seat's own legal actions
(which it sees) are drawn again; when the bot's bids never fit (it never bids double
fewest), uniform bids are drawn.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from itertools import chain
from types import SimpleNamespace
from typing import Any

from ...advisor.sample import SeatView
from ...errors import CardlabError
from ...kernel import hands_by_suit
from ...solvekernel import deal_direct, deal_reject, taken_counts
from ..bobs_hat.engine import BID_WORDS, DOUBLE, FEWEST, MOST, NO_BID, score_hand
from ..teds_game.engine import score as teds_score
from .state import SuitedDeck, TrickTaking

MADE = {flags: f"made {word}" for flags, word in BID_WORDS.items()}
HAT_HIDDEN = "hat chosen"
BID_HIDDEN = "bid (secret)"
REJECTION_TRIES = 64  # uniform deals tried before the exact draw takes over
EAGER_BUCKETS = 4  # up to this many other hands, the consistent layouts are counted at once
HIDDEN_TRIES = 1000  # draws of hidden bids tried before giving up on a view
BOT_TRIES = 20  # of which the first are the bot's bids


class LayoutDrawer:
    """Uniform draws of where the unseen cards are, given per-bucket counts and voids.

    ``buckets`` is ``[(count, void_mask), ...]`` (bit ``s`` of the mask: no card of suit
    ``s``); the cards left over go to the last, unconstrained bucket (the undealt cards).

    >>> drawer = LayoutDrawer([0, 1, 2, 3], suit_of=(0, 0, 1, 1), nsuits=2,
    ...                       buckets=[(2, 0b01), (1, 0)])
    >>> drawer.count()  # 2 of suit 1 to the first bucket, then 1 of the other 2: 2 ways
    2
    >>> drawer.acceptance()  # of the 6 ways to deal the first bucket, 1 breaks no void
    0.16666666666666666
    >>> sorted(drawer.draw(random.Random(0))[0])
    [2, 3]
    """

    def __init__(self, unknown: list[int], suit_of: tuple[int, ...], nsuits: int,
                 buckets: list[tuple[int, int]]) -> None:
        self.cards = sorted(unknown)
        self.suit_of = suit_of
        self.nsuits = nsuits
        self.counts = [count for count, _ in buckets]
        self.masks = [mask for _, mask in buckets]
        self.dealt = sum(self.counts)
        if self.dealt > len(self.cards):
            raise CardlabError(f"the view is inconsistent: the other hands hold {self.dealt} "
                               f"cards, but only {len(self.cards)} are unseen")
        self.constrained = any(self.masks)
        self.order = [b for b, mask in enumerate(self.masks) if mask]  # void-showing hands
        self.free = [b for b, mask in enumerate(self.masks) if not mask]
        self.tries = REJECTION_TRIES
        self.by_suit = [[c for c in self.cards if suit_of[c] == s] for s in range(nsuits)]
        self._counts: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...]],
                            tuple[list[float], list[tuple[int, ...]]]] = {}
        self.exact_draws = 0  # how many draws the exact method made (for tests, benchmarks)
        # One void-showing hand: its cards are a uniform pick among the cards its voids
        # allow (each pick leaves the same number of ways to deal the rest), the rest a
        # uniform deal: exact, at the cost of one deal, so neither rejection nor counting.
        self.direct = len(self.order) == 1
        if self.direct:
            mask = self.masks[self.order[0]]
            self.allowed = [c for c in self.cards if not mask >> suit_of[c] & 1]
            self.barred = [c for c in self.cards if mask >> suit_of[c] & 1]
            self.tries = 0
        elif self.constrained and len(self.counts) <= EAGER_BUCKETS:
            # Few hands to count over: the count is cheap, so pick the faster method now.
            self.tries = REJECTION_TRIES if self.acceptance() >= 0.5 else 0

    def draw(self, rng: random.Random) -> list[list[int]]:
        """Each bucket's cards, uniformly among the layouts that break no void."""
        # A partial Fisher-Yates shuffle, kept when no void is broken (compiled): it deals
        # the void-showing hands first, so that a broken void is seen (and the deal
        # dropped) as early as possible.
        out = deal_reject(self.cards, self.suit_of, self.order, self.masks, self.counts,
                          self.free, rng.random, self.tries if self.constrained else 1)
        if out is not None:
            return out
        # Rejection failed for a while: the voids rule out many deals. Each draw stays
        # uniform: a uniform proposal kept, or else an exact draw, gives every consistent
        # layout the same chance. From now on the cheaper of the two is used, by the share
        # of deals that break no void.
        if self.tries:
            self.tries = min(self.tries, 4 if self.acceptance() >= 0.5 else 0)
        return self._exact(rng)

    def acceptance(self) -> float:
        """The share of uniform deals of the unseen cards that break no void."""
        unseen = len(self.cards)
        held = sum(self.counts[b] for b in self.order)
        total = math.comb(unseen, held) * _factorial(held)
        for b in self.order:
            total //= _factorial(self.counts[b])
        return self._count(0, self._full()) / total

    # -- the exact method: count the consistent layouts, one void-showing hand at a time ----
    # Hands that showed no void take any cards: given the void-showing hands' cards, the
    # rest is dealt uniformly among them and the undealt cards, in the same number of ways
    # whatever the void-showing hands took. So only those hands are counted over.
    def _full(self) -> tuple[int, ...]:
        return tuple(len(cards) for cards in self.by_suit)

    def count(self) -> int:
        """How many layouts of the unseen cards respect every void shown."""
        rest = len(self.cards) - sum(self.counts[b] for b in self.order)
        ways = 1
        for b, count in enumerate(self.counts):
            if b not in self.order:
                ways *= math.comb(rest, count)
                rest -= count
        return self._count(0, self._full()) * ways

    def _count(self, at: int, left: tuple[int, ...]) -> int:
        """Layouts for the void-showing hands ``order[at:]`` out of ``left`` (unseen cards
        per suit)."""
        key = (at, left)
        known = self._counts.get(key)
        if known is not None:
            return known
        if at == len(self.order):
            total = 1
        else:
            total = 0
            for take, ways in self._takes(self.order[at], left):
                total += ways * self._count(at + 1, tuple(
                    h - k for h, k in zip(left, take, strict=True)))
        self._counts[key] = total
        return total

    def _takes(self, bucket: int, left: tuple[int, ...]
               ) -> list[tuple[tuple[int, ...], int]]:
        """Every way (cards per suit) for ``bucket`` to hold its count out of ``left``,
        with the number of ways to pick such cards."""
        mask = self.masks[bucket]
        caps = [0 if mask >> s & 1 else have for s, have in enumerate(left)]
        out: list[tuple[tuple[int, ...], int]] = []

        def split(suit: int, need: int, done: tuple[int, ...], ways: int) -> None:
            if suit == len(caps) - 1:
                if need <= caps[suit]:
                    out.append(((*done, need), ways * math.comb(left[suit], need)))
                return
            for k in range(min(need, caps[suit]) + 1):
                split(suit + 1, need - k, (*done, k), ways * math.comb(left[suit], k))

        split(0, self.counts[bucket], (), 1)
        return out

    def _exact(self, rng: random.Random) -> list[list[int]]:
        self.exact_draws += 1
        if self.direct:
            return self._direct(rng.random)
        rand = rng.random
        left = self._full()
        if self._count(0, left) == 0:
            raise CardlabError("the view is inconsistent: no deal of the unseen cards "
                               "respects every void shown")
        pools = [cards[:] for cards in self.by_suit]
        out: list[list[int]] = [[] for _ in self.counts]
        for at, bucket in enumerate(self.order):
            key = (at, left)
            choice = self._choices.get(key)
            if choice is None:
                weights = []
                takes = []
                for take, ways in self._takes(bucket, left):
                    ways *= self._count(at + 1, tuple(
                        h - k for h, k in zip(left, take, strict=True)))
                    if ways:
                        weights.append(ways)
                        takes.append(take)
                total = sum(weights)
                cumulative = []
                run = 0
                for w in weights:
                    run += w
                    cumulative.append(run / total)
                choice = (cumulative, takes)
                self._choices[key] = choice
            cumulative, takes = choice
            take = takes[min(bisect_right(cumulative, rand()), len(takes) - 1)]
            part = out[bucket]
            for suit, k in enumerate(take):
                if not k:
                    continue
                pool = pools[suit]
                for i in range(k):  # k cards of the suit, uniformly: a partial shuffle
                    j = i + int(rand() * (len(pool) - i))
                    pool[i], pool[j] = pool[j], pool[i]
                part.extend(pool[:k])
                del pool[:k]
            left = tuple(h - k for h, k in zip(left, take, strict=True))
        rest = [card for pool in pools for card in pool]
        n = len(rest)
        i = 0
        for bucket in self.free:  # the other hands: uniform among the cards left
            part = out[bucket]
            for _ in range(self.counts[bucket]):
                j = i + int(rand() * (n - i))
                rest[i], rest[j] = rest[j], rest[i]
                part.append(rest[i])
                i += 1
        return out


    def _direct(self, rand: Any) -> list[list[int]]:
        """The exact draw with one void-showing hand: a uniform pick among the cards it may
        hold, then a uniform deal of the rest to the other hands (compiled)."""
        out = deal_direct(self.allowed, self.barred, self.order[0], self.counts, self.free,
                          rand)
        if out is None:
            raise CardlabError("the view is inconsistent: no deal of the unseen cards "
                               "respects every void shown")
        return out


def _factorial(n: int) -> int:
    return math.factorial(n)


def _binomial(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def voids_shown(deck: SuitedDeck, position: dict[str, Any],
                reneges: set[tuple[int, int]]) -> list[int]:
    """Per seat, a mask of the suits it showed void in by not following the suit led
    (a play flagged as a renege shows nothing: the seat held the suit)."""
    voids = [0] * len(position["hand_counts"])
    tricks = [t["cards"] for t in position["tricks"]] + [position["trick"]["cards"]]
    for cards in tricks:
        if not cards:
            continue
        led = deck.suit_of[deck.parse(cards[0][1])]
        for seat, code in cards[1:]:
            card = deck.parse(code)
            if deck.suit_of[card] != led and (seat, card) not in reneges:
                voids[seat] |= 1 << led
    return voids


class TrickSampler:
    """Draws whole states of a trick-taking hand consistent with one seat's view.

    It reads the :class:`SeatView` only; ``hidden`` says how hidden choices are drawn:
    ``"bot"`` (the heuristic bot's choice with the sampled cards) or ``"uniform"``.
    """

    def __init__(self, view: SeatView, hidden: str = "bot") -> None:
        if not isinstance(view, SeatView):
            raise CardlabError(f"a sampler is made from a SeatView, not {type(view).__name__}")
        if hidden not in ("bot", "uniform"):
            raise CardlabError(f"hidden choices are drawn by 'bot' or 'uniform', not {hidden!r}")
        self.view = view
        self.hidden = hidden
        rules = view.rules
        self.game = rules.name
        deck = rules.deck
        assert isinstance(deck, SuitedDeck)
        self.deck = deck
        pos = view.position
        seat = view.seat
        self.seat = seat
        n = rules.players
        own = pos["hands"][seat]
        if own is None:
            raise CardlabError("the view holds no cards of its own seat")
        self.own = deck.parse_many(own)
        self.played: list[list[int]] = [[] for _ in range(n)]
        for trick in [t["cards"] for t in pos["tricks"]] + [pos["trick"]["cards"]]:
            for s, code in trick:
                self.played[s].append(deck.parse(code))
        reneges = {(r["seat"], deck.parse(r["card"])) for r in pos.get("reneges") or []}
        self.voids = voids_shown(deck, pos, reneges)
        seen = set(self.own)
        for cards in self.played:
            seen.update(cards)
        self.turned = deck.parse(pos["turned"]) if pos.get("turned") else -1
        if self.turned >= 0:
            seen.add(self.turned)
        unknown = [c for c in range(len(deck)) if c not in seen]
        counts = pos["hand_counts"]
        self.others = [s for s in range(n) if s != seat]
        self.drawer = LayoutDrawer(unknown, deck.suit_of, len(deck.suits),
                                   [(counts[s], self.voids[s]) for s in self.others])
        self.legal = list(pos["legal"] or [])
        self._bot: Any = None
        self.template, self.tail, self.hat_hidden = self._template()

    # -- the template: a fresh game moved to this hand, dealt, its visible actions replayed --
    def _template(self) -> tuple[TrickTaking, list[tuple[int, str]], bool]:
        layout = self.drawer.draw(random.Random(0))
        hands = self._dealt(layout)
        state = self._dealt_state(hands)
        hat_hidden = False
        tail: list[tuple[int, str]] = []
        actions = list(self.view.actions)
        for k, (_actor, text) in enumerate(actions):
            if text == BID_HIDDEN:  # from here on each sample replays the bids it draws
                tail = actions[k:]
                break
            if text == HAT_HIDDEN:
                hat_hidden = True
                text = "hat +10"  # the value each sample draws is set on its clone
            state.act(text)
        if self.game == "teds-game":
            # A renege is played as it was, as a card of its own suit; whether the engine
            # flags it again depends on the stand-in cards, so the flags are the view's own.
            deck = self.deck
            state.reneges = [  # type: ignore[attr-defined]
                (r["trick"], r["seat"], deck.parse(r["card"]))
                for r in self.view.position.get("reneges") or []]
        return state, tail, hat_hidden

    def _dealt(self, layout: list[list[int]]) -> list[list[int]]:
        """Each seat's dealt cards: the cards it played and the cards it holds."""
        hands = [played[:] for played in self.played]
        hands[self.seat] += self.own
        for s, cards in zip(self.others, layout, strict=True):
            hands[s] += cards
        return hands

    def _dealt_state(self, hands: list[list[int]]) -> TrickTaking:
        view = self.view
        pos = view.position
        rules = view.rules
        codes = self.deck.codes
        hand = pos["hand"]
        state = rules.new_state()
        assert isinstance(state, TrickTaking)
        deal_hands = [[codes[c] for c in sorted(h)] for h in hands]
        if self.game == "bobs-hat":
            if hand > 1:
                state.skip_to_hand(hand)  # type: ignore[attr-defined]
            state.attempt = pos["attempt"]  # type: ignore[attr-defined]
            state.apply_chance({"trump": pos["trump"] or "gray", "hands": deal_hands})
            state.sheet = [row[:] for row in pos["sheet"][:hand - 1]]  # type: ignore[attr-defined]
            # the current row holds this hand's renege penalties of earlier attempts (once
            # the hand is over they are among its score parts)
            parts = pos["score_parts"]
            state.row = list(pos["hand_scores"]) if not pos["hand_over"] else [  # type: ignore[attr-defined]
                p.get("renege", 0) for p in parts] if parts else [0] * rules.players
            state.no_bid_used = list(view.public.get(  # type: ignore[attr-defined]
                "no_bid_used", [False] * rules.players))
        elif self.game == "teds-game":
            state.apply_chance({"draws": pos["draw"], "first_dealer": pos["first_dealer"]})
            if hand > 1:  # move the game on to this hand: the sheet and the dealer before it
                state.hand_no = hand - 1  # type: ignore[attr-defined]
                state.dealer = (pos["dealer"] - 1) % rules.players  # type: ignore[attr-defined]
                state.sheet = [row[:] for row in pos["sheet"][:hand - 1]]  # type: ignore[attr-defined]
            state.apply_chance({"hands": deal_hands, "turned": codes[self.turned]})
        else:
            raise CardlabError(f"the trick sampler does not play {self.game}")
        return state

    # -- one sample -----------------------------------------------------------------------
    def sample(self, rng: random.Random) -> TrickTaking:
        """A whole state at the view's step (see :class:`~cardlab.advisor.sample.Sampler`)."""
        for attempt in range(HIDDEN_TRIES):
            layout = self.drawer.draw(rng)
            state = self._fill(layout)
            if self.hat_hidden:
                dealer = state.dealer  # type: ignore[attr-defined]
                state.hat_value = self._hat(state.dealt_hands[dealer], rng)  # type: ignore[attr-defined]
            if not self.tail:
                return state
            # the bot's bids first; when they never fit what the seat sees (the bot does not
            # bid double fewest, say), uniform bids
            self._replay_tail(state, rng, self.hidden == "uniform" or attempt >= BOT_TRIES)
            if state.legal_texts() == self.legal:
                return state
            # the drawn bids would change what the seat may bid, which it sees: draw again
        raise CardlabError("no draw of the secret bids gives the seat the bids it may make "
                           f"here ({HIDDEN_TRIES} tries)")

    def _fill(self, layout: list[list[int]]) -> TrickTaking:
        state = self.template.clone()
        by_suit = hands_by_suit(layout, self.deck.suit_of, len(self.deck.suits))
        dealt = list(state.dealt_hands)
        for s, cards, held in zip(self.others, layout, by_suit, strict=True):
            state.hands[s] = held
            dealt[s] = self.played[s] + cards
        state.dealt_hands = dealt
        return state

    def _hat(self, dealt_cards: list[int], rng: random.Random) -> int:
        """The hidden hat value: the bot's choice with the dealer's sampled cards (as dealt:
        ``dealt_cards``), or +10 or -10 at even chances."""
        if self.hidden == "uniform":
            return 10 if rng.random() < 0.5 else -10
        from ..bobs_hat.engine import HAT_PLUS

        template = self.template
        dealer = template.dealer  # type: ignore[attr-defined]
        dealt = hands_by_suit([dealt_cards], self.deck.suit_of, len(self.deck.suits))[0]
        # the bot reads its own hand and the trump only: show it the hand as dealt
        at_deal = SimpleNamespace(hands=[dealt] * template.nseats, trump=template.trump)
        return 10 if self._heuristic()._hat(at_deal, dealer) == HAT_PLUS else -10

    # -- one sample's hidden cards only, for the random playouts on masks ------------------
    def plays_on_masks(self) -> bool:
        """True when a sample differs from the template by the other hands' cards (and a
        hidden hat value) only: the view is in the play phase with no secret bid to draw.
        Then :meth:`draw_hands` draws what :meth:`sample` would, from the same numbers."""
        return not self.tail and self.template.phase == "play"

    def draw_hands(self, rng: random.Random) -> tuple[list[list[int]], int]:
        """The cards of each other seat (in the order of :attr:`others`) and the hat's value
        (Bob's Hat; 0 in Ted's Game) of one sample, reading ``rng`` as :meth:`sample` does:
        the same layout and value as its state, with no state made. Only when
        :meth:`plays_on_masks`."""
        layout = self.drawer.draw(rng)
        hat = getattr(self.template, "hat_value", 0)
        if self.hat_hidden:
            dealer = self.template.dealer  # type: ignore[attr-defined]
            hat = self._hat(self.played[dealer] + layout[self.others.index(dealer)], rng)
        return layout, hat

    def _replay_tail(self, state: TrickTaking, rng: random.Random, uniform: bool) -> None:
        for actor, text in self.tail:
            if text != BID_HIDDEN:
                state.act(text)
                continue
            legal = state.legal_actions()
            if uniform:
                state.apply(legal[int(rng.random() * len(legal))])
            else:
                bot = self._heuristic()
                bot.rng = rng
                state.apply(bot(state, actor))

    def _heuristic(self) -> Any:
        if self._bot is None:
            self._bot = self.view.rules.game.heuristic_bot(0)
        return self._bot


# -- figures hooks ----------------------------------------------------------------------
def bobs_hat_figures(end: Any, seat: int, start: Any) -> dict[str, float]:
    """``"made <bid>"`` for each bid of the seat (1 when it scored its points), and
    ``"hat"`` (1 when the seat ends holding Bob's Hat).

    This runs after every rollout, so it is cheap: a single bid's points are read from the
    engine's score sheet, and several bids from one pass over the cards taken; tests check
    it against the engine's own ``score_parts``. ``start`` is an earlier state of the same
    deal (its row holds any renege penalty of an earlier deal of the hand).

    >>> import cardlab, random
    >>> table = cardlab.new_game("bobs-hat", players=3, seed=2, hands=1)
    >>> state = table.state
    >>> start = state.clone()
    >>> state.random_playout(random.Random(0).random)
    >>> figures = bobs_hat_figures(state, 0, start)
    >>> figures == {f"made {word}": float(points > 0)
    ...             for word, points in state.score_parts()[0].items() if word != "hat"
    ...             } | {"hat": float(state.hat_holder() == 0)}
    True
    """
    flags = end.bids[seat]
    holder = end.hat_holder()
    out: dict[str, float] = {}
    if end.pending == "next" and flags in MADE and end.sheet:
        # One bid: its points are the hand's row less the hat's and any renege penalty of
        # an earlier deal of this hand (in the row from the start), read from the engine's
        # own score sheet.
        points = end.sheet[-1][seat] - start.hand_scores()[seat] - (
            end.hat_value if holder == seat else 0)
        out[MADE[flags]] = 1.0 if points > 0 else 0.0
    elif end.pending == "next" and flags != NO_BID:  # a hand scored (not one to be redealt)
        suit_of = end.suit_of
        taken = [[0, 0, 0] for _ in end.bids]
        for _, cards, winner in end.history:
            row = taken[winner]
            for card in cards:
                row[suit_of[card]] += 1
        mine = taken[seat]
        others = [row for s, row in enumerate(taken) if s != seat]
        for suit in (0, 1, 2):
            if flags & MOST[suit]:
                best = 0
                total = mine[suit]
                for row in others:
                    count = row[suit]
                    total += count
                    if count > best:
                        best = count
                made = total == 0 or mine[suit] > best
                out[MADE[MOST[suit]]] = 1.0 if made else 0.0
        if flags & FEWEST:
            least = sum(mine)
            made = True
            for row in others:
                if row[0] + row[1] + row[2] <= least:
                    made = False
                    break
            out[MADE[flags & (FEWEST | DOUBLE)]] = 1.0 if made else 0.0
    out["hat"] = 1.0 if holder == seat else 0.0
    return out


def teds_game_figures(end: Any, seat: int, start: Any) -> dict[str, float]:
    """``"made"``: 1 when the seat took exactly the tricks it bid."""
    return {"made": 1.0 if end.tricks_won[seat] == end.bids[seat] else 0.0}


# -- outcome hooks: the hand score and the figures at once, at the end of play --------------
# A rollout that starts in the play phase runs on a state of :func:`stopped_class`: when the
# last trick is won the engine's ``_play_over`` only marks the play finished (turn -1), and
# the hook scores the hand with the game's own scoring function, once, for the seat's value
# and figures both (the engine's end of hand would score it, and the figures read it again).
# tests/test_advisor_evaluate.py checks both against the engine's own end of hand.
def _play_finished(self: Any) -> None:
    self.turn = -1


_STOPPED: dict[type, type] = {}


def stopped_class(cls: type) -> type:
    """``cls`` whose end of play scores nothing (``turn`` goes to -1): for the outcome hooks.

    >>> import cardlab
    >>> state = cardlab.new_game("teds-game", players=3, seed=1).state
    >>> stopped_class(type(state)).__name__
    'TedsGameStateAtEndOfPlay'
    """
    sub = _STOPPED.get(cls)
    if sub is None:
        sub = type(f"{cls.__name__}AtEndOfPlay", (cls,),
                   {"_play_over": _play_finished, "__module__": __name__,
                    "__doc__": f"{cls.__name__} whose end of play scores nothing."})
        _STOPPED[cls] = sub
    return sub


def bobs_hat_outcome(end: Any, seat: int, memo: dict[tuple[Any, ...], Any] | None = None
                     ) -> tuple[int, dict[str, float]]:
    """The seat's hand score and :func:`bobs_hat_figures` of a hand whose play is over but
    not yet scored (a :func:`stopped_class` state): ``score_hand`` once, with its parts.

    Playouts often end with the same cards taken, so with a ``memo`` (one evaluation's own
    dict) the outcome is kept under everything ``score_hand`` reads; the figures returned
    are then shared: read them, do not change them.
    """
    taken = taken_counts(end.history, end.suit_of, end.nseats, 3)
    holder = end.hat_holder()
    options = end.rules.options
    key = (seat, holder, end.hat_value, end.size, options["negative_scoring"],
           *end.bids, *chain.from_iterable(taken))
    known = memo.get(key) if memo is not None else None
    if known is None:
        known = bobs_hat_scored(end.bids, taken, end.size, holder, end.hat_value,
                                bool(options["negative_scoring"]), seat)
        if memo is not None:
            if len(memo) >= OUTCOMES_KEPT:
                memo.clear()
            memo[key] = known
    return end.row[seat] + known[0], known[1]


def bobs_hat_scored(bids: list[int], taken: list[list[int]], size: int, holder: int,
                    hat_value: int, negative: bool, seat: int
                    ) -> tuple[int, dict[str, float]]:
    """The seat's points for the hand's bids and the hat (``score_hand``, every card dealt
    taken) and its figures (``"made <bid>"``, ``"hat"``), from the cards taken per seat and
    colour and the hat's holder (-1 or any other seat: the same for ``seat``)."""
    dealt = [0, 0, 0]
    for row in taken:  # every card dealt has been taken
        dealt[0] += row[0]
        dealt[1] += row[1]
        dealt[2] += row[2]
    parts: list[dict[str, int]] = [{} for _ in taken]
    scores = score_hand(bids, taken, dealt, size, holder, hat_value, negative, parts)
    out = {MADE_WORD[word]: 1.0 if points > 0 else 0.0
           for word, points in parts[seat].items() if word != "hat"}
    out["hat"] = 1.0 if holder == seat else 0.0
    return scores[seat], out


OUTCOMES_KEPT = 100_000  # outcomes a memo keeps at most (then it starts again from empty)
MADE_WORD = {word: f"made {word}" for word in BID_WORDS.values()}


def teds_game_outcome(end: Any, seat: int) -> tuple[int, dict[str, float]]:
    """The seat's hand score (``teds_game.score``) and ``"made"``, at the end of play."""
    bid = end.bids[seat]
    won = end.tricks_won[seat]
    return teds_score(bid, won, end.size), {"made": 1.0 if won == bid else 0.0}


__all__ = ["LayoutDrawer", "TrickSampler", "bobs_hat_figures", "bobs_hat_outcome",
           "bobs_hat_scored", "stopped_class", "teds_game_figures", "teds_game_outcome",
           "voids_shown"]
