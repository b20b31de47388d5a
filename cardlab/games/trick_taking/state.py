"""Trick-taking mechanics shared by Where's Bob's Hat? and Ted's Game.

Written once: hands held per suit, following suit, the highest trump or else the highest
card of the suit led winning, the winner leading next (the rules themselves are the compiled
kernel's: :func:`~cardlab.kernel.must_follow`, :func:`~cardlab.kernel.beats`), and the
teaching text that says why a card won or why a play is refused. A game's state class
inherits :class:`TrickTaking` and adds its own phases (bids, the hat, the hook) and scoring.

Cards are ints ``suit * ranks + (rank - low_rank)``; each hand is kept as one list per suit,
so following suit and the legal plays are list look-ups rather than scans.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

from ...cards import Deck
from ...game import State
from ...kernel import PLAY, TABLE_FIELDS, TrickKernel, fails_to_follow, force_card, play_cards
from ...words import names_and

T = TypeVar("T", bound="TrickTaking")
# PLAY: the phase in which cards are played to tricks (compared by identity)


# The printed marks of the standard suits, and of coloured suits (a shape for each colour, so
# that a colour reads without colour).
SUIT_MARK = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
COLOUR_MARK = {"blue": "◆", "red": "●", "black": "■", "orange": "▲"}


class SuitedDeck(Deck):
    """A deck of ``len(suits) * len(ranks)`` cards with ``suit``/``rank`` tables, and each
    card's name as people say it (``names``): the standard suits by their signs ("Q♥"),
    coloured suits by the colour and the rank ("blue 14"). The faces the views draw
    (:func:`cardlab.games.trick_taking.suited_faces`) and the engine's refusals both name
    cards so.

    >>> from cardlab.games.bobs_hat.engine import DECK
    >>> DECK.names[DECK.parse("blue14")]
    'blue 14'
    """

    __slots__ = ("suits", "ranks", "suit_of", "rank_of", "rank_names", "names")

    def __init__(self, suits: tuple[str, ...], ranks: tuple[int, ...],
                 code: Any, aliases: dict[str, str], description: str,
                 rank_names: dict[int, str] | None = None) -> None:
        self.suits = suits
        self.ranks = ranks
        self.rank_names = rank_names or {}
        self.suit_of = tuple(s for s in range(len(suits)) for _ in ranks)
        self.rank_of = tuple(r for _ in suits for r in ranks)
        codes = [code(suits[s], r) for s in range(len(suits)) for r in ranks]
        super().__init__(codes, aliases, description)
        self.names = tuple(self._name(card) for card in range(len(codes)))

    def _name(self, card: int) -> str:
        suit = self.suits[self.suit_of[card]]
        rank = self.rank_of[card]
        label = self.rank_names.get(rank, str(rank))
        return f"{label}{SUIT_MARK[suit]}" if suit in SUIT_MARK else f"{suit} {label}"

    def named(self, cards: Any) -> str:
        """The names of ``cards`` (ints), said as a list: "blue 2, blue 5 and blue 9"."""
        return names_and([self.names[c] for c in cards])

    def card(self, suit: int, rank: int) -> int:
        return suit * len(self.ranks) + self.ranks.index(rank)


class TrickTaking(TrickKernel, State):
    """The play of tricks. Subclasses call ``_start_tricks`` at each deal and set
    ``phase = PLAY``; from then on ``apply`` plays cards and calls ``_play_over`` after the
    last trick.

    The trick state (hands, trick, history, turn, phase...) lives in the compiled
    :class:`cardlab.kernel.TrickKernel`, and so do ``legal_actions`` and ``apply``, the
    protocol's hot path: the play of a card is handled there for every trick-taking game,
    and the other phases (bids, the hat...) go to the subclass hooks ``_legal_other`` and
    ``_apply_other``. Everything else a game keeps is an ordinary attribute.
    """

    deck: SuitedDeck
    names: list[str]

    def _init_tricks(self, deck: SuitedDeck, names: list[str]) -> None:
        """Set up the empty table (call once from ``__init__``)."""
        self.deck = deck
        self.names = names
        self.suit_of = deck.suit_of
        self.ncards = len(deck)
        self.nseats = len(names)
        self.phase = ""
        self._start_tricks([[] for _ in names], -1, -1)

    def _start_tricks(self, hands: list[list[int]], trump: int, leader: int) -> None:
        self.start_tricks(hands, trump, leader, len(self.deck.suits))

    def random_playout(self, rand: Callable[[], float],
                       record: list[int] | None = None) -> None:
        """Finish the hand with uniformly random legal actions (simulations, benchmarks).

        Each choice is ``legal_actions()[int(rand() * len(legal_actions()))]``, exactly as a
        loop over the protocol would choose, and appended to ``record`` (when given) as
        ``action * seats + seat``. The cards go through ``kernel.play_cards``, the same code
        that ``apply`` uses, in one call for the whole play phase.
        """
        while True:
            if self.phase is PLAY:
                play_cards(self, -1, rand, record)
                continue
            actions = self.legal_actions()
            seat = self.to_act()
            if not actions or seat < 0:
                return
            action = actions[int(rand() * len(actions))]
            self.apply(action)
            if record is not None:
                record.append(action * self.nseats + seat)

    def _illegal_play(self, action: int) -> None:
        """A card that may not be played: refuse it, or (table mode) record a renege."""
        raise self._refuse_play(self._play_problem(action), "no card may be played now", action)

    def _text(self, action: int) -> str:
        try:
            return self.action_text(action)
        except Exception:  # an int no action maps to: show the int itself
            return str(action)

    def _play_problem(self, card: int) -> str | None:
        """Why ``card`` may not be played now, in the words of the rules, or None."""
        deck = self.deck
        if not 0 <= card < self.ncards:
            return None
        seat = self.turn
        name = self.names[seat]
        held = self.hands[seat]
        if card not in held[deck.suit_of[card]]:
            return f"{name} does not hold {deck.names[card]}"
        led = self.led
        if fails_to_follow(held, led, deck.suit_of[card]):
            return f"{self._follow_rule()}: {name} holds {deck.named(held[led])}"
        return None

    def _follow_rule(self) -> str:
        """The rule a card off the suit led breaks, naming no card: "Remo must follow blue,
        the suit led"."""
        return f"{self.names[self.turn]} must follow {self.deck.suits[self.led]}, the suit led"

    def _refuse_play(self, problem: str | None, fallback: str, action: int) -> Exception:
        """The refusal of a card play: ``problem`` (from :meth:`_play_problem`), else
        ``fallback``; a card off the suit led names the rule alone as its ``rule``."""
        rule = None
        if problem is not None and 0 <= action < self.ncards and self._is_renege(action):
            rule = self._follow_rule()
        return self.refuse(problem or fallback, self._text(action), rule=rule)

    def trick_rule(self) -> str:
        """Who takes a trick, as the rules say it (naming no card): with a trump this hand,
        the highest trump, else the highest card of the suit led."""
        if self.trump >= 0:
            return (f"a trick goes to the highest trump ({self.deck.suits[self.trump]}) in it; "
                    "with no trump in it, to the highest card of the suit led")
        return "a trick goes to the highest card of the suit led (no suit is trump)"

    def _is_renege(self, card: int) -> bool:
        """True when ``card`` is held but does not follow the suit led, which is held too."""
        if not 0 <= card < self.ncards:
            return False
        held = self.hands[self.turn]
        suit = self.suit_of[card]
        return fails_to_follow(held, self.led, suit) and card in held[suit]

    def _force_play(self, card: int) -> None:
        """Table mode: put a held card on the trick even though it reneges (hand abandoned)."""
        self.gone |= 1 << card
        self.played.append(card)

    def _play_anyway(self, card: int) -> None:
        """Table mode: play a held card that reneges, and go on with the trick as played.

        The card counts as a card of its own suit (so a renegade trump can win the trick).
        """
        force_card(self, card)

    # -- teaching text -------------------------------------------------------------------
    def trick_cards(self, leader: int, cards: tuple[int, ...] | list[int]) -> list[list[Any]]:
        """``[[seat, code], ...]`` in play order."""
        n = len(self.hands)
        return [[(leader + i) % n, self.deck.codes[c]] for i, c in enumerate(cards)]

    def win_reason(self, cards: tuple[int, ...] | list[int], winner_card: int) -> str:
        """Why ``winner_card`` takes the trick: "highest trump" or "highest blue, the suit led"."""
        deck = self.deck
        if self.trump >= 0 and deck.suit_of[winner_card] == self.trump:
            trumps = sum(1 for c in cards if deck.suit_of[c] == self.trump)
            return "the only trump" if trumps == 1 else "highest trump"
        suit = deck.suits[deck.suit_of[cards[0]]]
        return f"highest {suit}, the suit led"

    def tricks_snapshot(self) -> list[dict[str, Any]]:
        out = []
        for leader, cards, winner in self.history:
            best = cards[(winner - leader) % len(self.hands)]
            out.append({
                "leader": leader,
                "cards": self.trick_cards(leader, cards),
                "winner": winner,
                "winning_card": self.deck.codes[best],
                "reason": self.win_reason(cards, best),
            })
        return out

    def hands_snapshot(self, seat: int | None) -> list[list[str] | None]:
        codes = self.deck.codes
        return [
            [codes[c] for suit in held for c in suit] if seat is None or seat == s else None
            for s, held in enumerate(self.hands)
        ]

    def hidden_cards(self, seat: int) -> list[int]:
        """The other players' hands and the cards nobody was dealt (the rest of the deck);
        the cards on the table, taken in tricks or turned up for trump are seen by all."""
        seen = bytearray(self.ncards)
        for card in self.accounted_cards():
            seen[card] = 1
        hidden = [card for card in range(self.ncards) if not seen[card]]
        for s, held in enumerate(self.hands):
            if s != seat:
                hidden.extend(card for suit in held for card in suit)
        return hidden

    def hand_counts(self) -> list[int]:
        return [sum(len(suit) for suit in held) for held in self.hands]

    def current_trick_snapshot(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": self.trick_cards(self.leader, self.trick)}

    def accounted_cards(self) -> list[int]:
        cards = [c for held in self.hands for suit in held for c in suit]
        cards.extend(self.trick)
        for _, played, _ in self.history:
            cards.extend(played)
        return cards

    # The game's attributes that a move changes in place: lists to copy, and tables (lists
    # of rows) whose rows are copied too. Everything else in the instance dict is shared.
    _cloned_lists: tuple[str, ...] = ()
    _cloned_tables: tuple[str, ...] = ()
    # The compiled fields (outside the instance dict), for pickling: a game whose state
    # extends the table with compiled fields of its own names them too.
    _table_fields: tuple[str, ...] = TABLE_FIELDS

    def clone(self: T) -> T:
        """An independent copy: what a move changes in place is copied, the rest is shared.

        Numbers, strings, tuples and the lists that are never changed after they are made
        (the dealt hands, the rules) are shared; the hands, the trick, the history
        (:meth:`~cardlab.kernel.TrickKernel.copy_table_into`) and the game's own
        ``_cloned_lists`` and ``_cloned_tables`` are copied, all in the compiled
        :meth:`~cardlab.kernel.TrickKernel.clone_state`.
        """
        return self.clone_state(self._cloned_lists, self._cloned_tables)  # type: ignore[return-value]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and ``copy`` the compiled table's fields along with the game's own."""
        fields = {name: getattr(self, name) for name in self._table_fields}
        return (_restore, (type(self), self.__dict__.copy(), fields))

    def dealt_cards(self) -> list[int]:
        return [card for cards in self.dealt_hands for card in cards]


def _restore(cls: type[T], attributes: dict[str, Any], fields: dict[str, Any]) -> T:
    """Rebuild a pickled state (see :meth:`TrickTaking.__reduce__`)."""
    state = cls.__new__(cls)  # a state without __init__: the fields come next
    state.__dict__.update(attributes)
    for name, value in fields.items():
        setattr(state, name, value)
    state.phase = sys.intern(state.phase)  # the hot path compares phases by identity
    return state
