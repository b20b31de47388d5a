"""The blind sampler of the trick-taking games: every trick game's seat's view, read alone.

:class:`TrickSampler` reads a :class:`~cardlab.game.SeatView` only. From it, it knows the
seat's own cards, every card played (so who played it), the voids shown by not following
suit, a trump card turned up from the deck (face up and in nobody's hand; a separate trump
card, such as Where's Bob's Hat?'s colour card, is not one of the deck) and how many cards
each other seat holds. The other cards lie in the other hands or among the cards nobody was
dealt. (A play the view flags as a renege shows that its seat held the suit led; the sampler
treats it as showing nothing.) A *layout* gives each unseen card a place;
:class:`LayoutDrawer` draws one uniformly among the layouts that respect the voids: a uniform
deal of the unseen cards, kept when no void is broken (rejection keeps uniformity), and after
a run of rejections an exact draw that counts the consistent layouts per suit
(:meth:`LayoutDrawer.count`).

A template state is built once from the view (the game's state at the start of this hand,
:meth:`~cardlab.game.State.at_position`, dealt consistently with the view, the hand's visible
actions replayed); each sample clones it and fills in the other hands. Hidden actions are
drawn per sample (docs/advisor-sampling.md), as the game's hooks say (:class:`TrickHooks`,
which :class:`~.advice.TrickGame` gives every trick game): a face-down value (Bob's Hat's hat)
and secret decisions (its secret bids), by default as the heuristic bot would choose them with
the sampled cards (``hidden="bot"``), or uniformly among the legal choices
(``hidden="uniform"``). Samples whose drawn decisions would change the seat's own legal
actions (which it sees) are drawn again; when the bot's choices never fit (Bob's Hat's bot
never bids double fewest), uniform ones are drawn.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from typing import Any, Protocol, runtime_checkable

from ...errors import CardlabError
from ...game import Bot, RolloutBot, SeatView
from ...rolloutkernel import deal_direct, deal_reject
from .state import SuitedDeck, TrickTaking


@runtime_checkable
class TrickHooks(Protocol):
    """What the trick sampler asks of a game about its hidden actions: the hooks of
    :class:`~.advice.TrickGame`, documented there (declared here, so that the sampler does
    not import the class that makes it)."""

    def heuristic_bot(self, seed: int | str) -> Bot: ...
    def secret_decision(self, text: str) -> bool: ...
    def face_down(self, text: str) -> str | None: ...
    def face_down_value(self, state: TrickTaking) -> int: ...
    def draw_face_down(self, template: TrickTaking, actor: int, dealt: list[int],
                       rng: random.Random, uniform: bool) -> int: ...
    def set_face_down(self, state: TrickTaking, value: int) -> None: ...
    def keep_shown(self, template: TrickTaking, position: dict[str, Any]) -> None: ...

REJECTION_TRIES = 64  # uniform deals tried before the exact draw takes over
EAGER_BUCKETS = 4  # up to this many other hands, the consistent layouts are counted at once
HIDDEN_TRIES = 1000  # draws of secret decisions (bids) tried before giving up on a view
BOT_TRIES = 20  # of which the first are the bot's choices


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
        game = rules.game
        if not isinstance(game, TrickHooks):
            raise CardlabError(f"the trick sampler draws the hands of trick games, not of "
                               f"{rules.title}")
        self.game = game
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
        if pos.get("turned"):  # a card turned up for trump: seen by all, held by nobody
            seen.add(deck.parse(pos["turned"]))
        unknown = [c for c in range(len(deck)) if c not in seen]
        counts = pos["hand_counts"]
        self.others = [s for s in range(n) if s != seat]
        self.drawer = LayoutDrawer(unknown, deck.suit_of, len(deck.suits),
                                   [(counts[s], self.voids[s]) for s in self.others])
        self.legal = list(pos["legal"] or [])
        self._bot: RolloutBot | None = None
        self.face_down = -1  # the seat whose face-down choice each sample draws (-1: none)
        self.template, self.tail = self._template()
        self.known = game.face_down_value(self.template)  # the value when not face down

    # -- the template: the state at this hand's deal, its visible actions replayed ----------
    def _template(self) -> tuple[TrickTaking, list[tuple[int, str]]]:
        view = self.view
        game = self.game
        layout = self.drawer.draw(random.Random(0))
        state = view.rules.state_class.at_position(view.rules, view.position,
                                                   self._dealt(layout), view.public)
        assert isinstance(state, TrickTaking)
        tail: list[tuple[int, str]] = []
        actions = list(view.actions)
        for k, (actor, text) in enumerate(actions):
            if game.secret_decision(text):  # from here on each sample replays what it draws
                tail = actions[k:]
                break
            stand_in = game.face_down(text)
            if stand_in is not None:
                self.face_down = actor
                text = stand_in  # the value each sample draws is set on its clone
            state.act(text)
        game.keep_shown(state, view.position)
        return state, tail

    def _dealt(self, layout: list[list[int]]) -> list[list[int]]:
        """Each seat's dealt cards: the cards it played and the cards it holds."""
        hands = [played[:] for played in self.played]
        hands[self.seat] += self.own
        for s, cards in zip(self.others, layout, strict=True):
            hands[s] += cards
        return hands

    # -- one sample -----------------------------------------------------------------------
    def sample(self, rng: random.Random) -> TrickTaking:
        """A whole state at the view's step (see :class:`~cardlab.game.Sampler`)."""
        game = self.game
        for attempt in range(HIDDEN_TRIES):
            layout = self.drawer.draw(rng)
            state = self._fill(layout)
            if self.face_down >= 0:
                game.set_face_down(state, game.draw_face_down(
                    self.template, self.face_down, state.dealt_hands[self.face_down], rng,
                    self.hidden == "uniform"))
            if not self.tail:
                return state
            # the bot's choices first; when they never fit what the seat sees (the bot does
            # not bid double fewest, say), uniform ones
            self._replay_tail(state, rng, self.hidden == "uniform" or attempt >= BOT_TRIES)
            if state.legal_texts() == self.legal:
                return state
            # the drawn bids would change what the seat may bid, which it sees: draw again
        raise CardlabError("no draw of the secret bids gives the seat the bids it may make "
                           f"here ({HIDDEN_TRIES} tries)")

    def _fill(self, layout: list[list[int]]) -> TrickTaking:
        state = self.template.clone()
        dealt = state.dealt_hands
        for s, cards in zip(self.others, layout, strict=True):
            dealt[s] = self.played[s] + cards  # it holds them less those it played
        state.dealt_hands = dealt
        return state

    # -- one sample's hidden cards only, for the random playouts on masks ------------------
    def plays_on_masks(self) -> bool:
        """True when a sample differs from the template by the other hands' cards (and a
        face-down value) only: the view is in the play phase with no secret decision to
        draw. Then :meth:`draw_hands` draws what :meth:`sample` would, from the same
        numbers."""
        return not self.tail and self.template.phase == "play"

    def draw_hands(self, rng: random.Random) -> tuple[list[list[int]], int]:
        """The cards of each other seat (in the order of :attr:`others`) and the face-down
        value (Bob's Hat's hat; 0 in a game with none) of one sample, reading ``rng`` as
        :meth:`sample` does: the same layout and value as its state, with no state made.
        Only when :meth:`plays_on_masks`."""
        layout = self.drawer.draw(rng)
        actor = self.face_down
        if actor < 0:
            return layout, self.known
        dealt = self.played[actor] + layout[self.others.index(actor)]
        return layout, self.game.draw_face_down(self.template, actor, dealt, rng,
                                                self.hidden == "uniform")

    def _replay_tail(self, state: TrickTaking, rng: random.Random, uniform: bool) -> None:
        game = self.game
        for actor, text in self.tail:
            if not game.secret_decision(text):
                state.act(text)
                continue
            legal = state.legal_actions()
            if uniform:
                state.apply(legal[int(rng.random() * len(legal))])
            else:
                bot = self._heuristic()
                bot.rng = rng
                state.apply(bot(state, actor))

    def _heuristic(self) -> RolloutBot:
        if self._bot is None:
            self._bot = self.game.heuristic_bot(0)
        return self._bot


__all__ = ["LayoutDrawer", "TrickSampler", "voids_shown"]
