"""Knock-out Whist with two suits: the rules and the state (the rules are in the package's
docstring, :mod:`knockout_whist`).

Built on the shared trick mechanics (:mod:`cardlab.games.trick_taking`): the state inherits
:class:`~cardlab.games.trick_taking.TrickTaking`, so following suit, the trick's winner and
the winner's lead are the compiled kernel's; this module adds the deal, the choice of trumps
and the score.

>>> rules = KnockoutWhistRules(players=3)
>>> rules.hand_sizes()
(4, 3, 2, 1)
>>> state = rules.new_state()
>>> state.apply_chance(state.seeded_chance(7))
>>> state.snapshot()["trump"], state.legal_texts()[:2]
('spades', ['play 9H', 'play 10H'])
"""

from __future__ import annotations

from typing import Any

from cardlab.cards import deal_round_robin, seeded_cards
from cardlab.errors import CardCodeError, IllegalActionError, OptionError, brief
from cardlab.game import Rules
from cardlab.games.trick_taking import PLAY, SuitedDeck, TrickTaking
from cardlab.kernel import dealer_of_hand
from cardlab.options import Option

SUITS = ("hearts", "spades")
SYMBOLS = ("♥", "♠")
RANK_CODES = {8: "8", 9: "9", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


def _aliases() -> dict[str, str]:
    """Other spellings people type: ``A♥`` or ``TH`` for ``AH``/``10H``."""
    out: dict[str, str] = {}
    for suit, symbol in zip(SUITS, SYMBOLS, strict=True):
        letter = suit[0].upper()
        for rank, code in RANK_CODES.items():
            out[f"{code}{symbol}"] = f"{code}{letter}"
            if rank == 10:
                out[f"T{letter}"] = f"10{letter}"
    return out


DECK = SuitedDeck(
    SUITS, tuple(RANK_CODES), code=lambda suit, rank: f"{RANK_CODES[rank]}{suit[0].upper()}",
    aliases=_aliases(), description="card of the 14-card Knock-out Whist deck",
    rank_names={r: c for r, c in RANK_CODES.items() if r > 10},
)
NCARDS = len(DECK)
TRUMP = 100  # the action "trump <suit>" is TRUMP + the suit's index
PHASE_DEAL, PHASE_TRUMP, PHASE_OVER = "deal", "trump", "over"


def max_start(players: int) -> int:
    """The most cards each in the first hand: one card must be left to turn up for trump."""
    return (NCARDS - 1) // players


class KnockoutWhistRules(Rules):
    """The rules and options of Knock-out Whist with two suits.

    >>> KnockoutWhistRules(players=2).options["start_size"]
    6
    >>> KnockoutWhistRules(players=4, start_size=4)
    Traceback (most recent call last):
    ...
    cardlab.errors.OptionError: knockout-whist option start_size is at most 3 with 4 \
players: 4 hands of 4 need 16 cards, plus one to turn up for trump, and the deck has 14
    """

    name = "knockout-whist"
    title = "Knock-out Whist (two suits)"
    deck = DECK
    OPTIONS = (
        Option("players", 2, "number of players", kind=int, low=2, high=4),
        Option("start_size", None,
               "cards each in the first hand (then one fewer each hand, down to 1): default "
               "and at most 13 // players, so that a card is left to turn up for trump",
               kind=int, low=1),
        Option("first_dealer", 0, "seat of the first dealer", kind=int, low=0),
    )

    def _finish(self, values: dict[str, Any], given: set[str]) -> dict[str, Any]:
        players = values["players"]
        most = max_start(players)
        if values["start_size"] is None:
            values["start_size"] = most
        size = values["start_size"]
        if size > most:
            raise OptionError(
                f"{self.name} option start_size is at most {most} with {players} players: "
                f"{players} hands of {size} need {players * size} cards, plus one to turn up "
                f"for trump, and the deck has {NCARDS}")
        if values["first_dealer"] >= players:
            raise OptionError(f"{self.name} option first_dealer is a seat from 0 to "
                              f"{players - 1}")
        return values

    @classmethod
    def conformance_option_sets(cls) -> list[dict[str, Any]]:
        sets: list[dict[str, Any]] = []
        for players in (2, 3, 4):
            sets.append({"players": players})
            sets.append({"players": players, "start_size": 2, "first_dealer": players - 1})
        sets.append({"players": 2, "start_size": 1})
        return sets

    def hand_sizes(self) -> tuple[int, ...]:
        """Cards dealt each, hand by hand: start, start - 1, ..., 1 (the game may end
        sooner: at the first knock-out)."""
        return tuple(range(self.options["start_size"], 0, -1))


class KnockoutWhistState(TrickTaking):
    """A game of Knock-out Whist in progress. Seats are clockwise: a seat's left is the next
    seat."""

    rules: KnockoutWhistRules

    def __init__(self, rules: KnockoutWhistRules) -> None:  # type: ignore[override]
        super().__init__(rules)
        n = rules.players
        self._init_tricks(DECK, [f"seat {i + 1}" for i in range(n)])
        self.phase = PHASE_DEAL
        self.sizes = rules.hand_sizes()
        self.hand_no = 0
        self.dealer = -1
        self.size = 0
        self.turned = -1  # the card turned up for trump (hand 1 only), else -1
        self.chooser = -1  # who chose (or chooses) this hand's trumps; -1: turned up
        self.next_chooser = -1  # who chooses the next hand's trumps, once this one is over
        self.sheet: list[list[int]] = []  # one row per finished hand
        self.row = [0] * n  # the current hand's scores (0 until it is over)
        self.knocked_out: list[int] = []  # the seats the last hand knocked out

    # what clone copies (see TrickTaking.clone): sheet grows in place; row and knocked_out
    # are replaced, never changed, but are copied too so that no rule change can share them
    _cloned_lists = ("sheet", "row", "knocked_out")

    @classmethod
    def at_position(cls, rules: Rules, position: dict[str, Any], hands: list[list[int]],
                    public: dict[str, Any]) -> KnockoutWhistState:
        """The state at the deal of the position's hand (:meth:`State.at_position`): the
        game moved on to the hand (the deal passing left, :func:`cardlab.kernel.
        dealer_of_hand`) with the score sheet before it and, after the first hand, the seat
        that chooses its trumps (the position's ``trump_chooser``: it took the most tricks in
        the hand before, which the position no longer shows); then the deal.

        >>> state = KnockoutWhistRules(players=3).new_state()
        >>> state.apply_chance(state.seeded_chance(7))
        >>> again = KnockoutWhistState.at_position(state.rules, state.snapshot(1),
        ...                                        state.dealt_hands, {})
        >>> again.snapshot() == state.snapshot()
        True
        """
        assert isinstance(rules, KnockoutWhistRules)
        state = cls(rules)
        hand = position["hand"]
        record: dict[str, Any] = {"hands": [[DECK.codes[c] for c in sorted(h)] for h in hands]}
        if hand > 1:  # the hands before it, dealt by the dealers in turn
            state.hand_no = hand - 1
            state.dealer = dealer_of_hand(rules.options["first_dealer"], hand - 1,
                                          rules.players)
            state.next_chooser = position["trump_chooser"]
        else:
            record["turned"] = position["turned"]
        state.sheet = [row[:] for row in position["sheet"][:hand - 1]]
        state.apply_chance(record)
        return state

    # -- chance: each deal -----------------------------------------------------------------
    def chance_kind(self) -> str | None:
        return "deal" if self.phase == PHASE_DEAL else None

    def _next_dealer(self) -> int:
        if self.hand_no == 0:
            return int(self.rules.options["first_dealer"])
        return (self.dealer + 1) % self.nseats

    def seeded_chance(self, seed: int | str) -> dict[str, Any]:
        if self.phase != PHASE_DEAL:
            raise self.refuse(self._wrong_action(-1))
        n = self.nseats
        hand = self.hand_no + 1
        size = self.sizes[hand - 1]
        turned = 1 if hand == 1 else 0  # only the first hand turns a card up
        order = seeded_cards(seed, self.rules.name, hand, population=NCARDS,
                             count=n * size + turned)
        hands = deal_round_robin(order, n, size, (self._next_dealer() + 1) % n)
        record: dict[str, Any] = {"hands": [[DECK.codes[c] for c in sorted(h)] for h in hands]}
        if turned:
            record["turned"] = DECK.codes[order[n * size]]
        return record

    def apply_chance(self, record: Any) -> None:
        if self.phase != PHASE_DEAL:
            raise self.refuse(self._wrong_action(-1))
        try:
            turned, hands = self._check_deal(record)
        except IllegalActionError as err:  # named with the hand being dealt, not the last one
            raise IllegalActionError(err.reason, hand=self.hand_no + 1,
                                     action=err.action) from None
        self._begin_hand(turned, hands)

    def _check_deal(self, record: Any) -> tuple[int, list[list[int]]]:
        """Parse and check a deal record: (the turned card or -1, the hands)."""
        n = self.nseats
        hand = self.hand_no + 1
        size = self.sizes[hand - 1]
        keys = {"hands", "turned"} if hand == 1 else {"hands"}
        if not isinstance(record, dict) or set(record) != keys:
            raise self.refuse(
                'the first deal is {"hands": [[card codes] per seat], "turned": the card '
                'turned up for trump}' if hand == 1 else
                'a deal after the first is {"hands": [[card codes] per seat]}: the trumps '
                "are chosen, not turned up")
        hands = record["hands"]
        if not isinstance(hands, list) or len(hands) != n:
            raise self.refuse(f"the deal must give a hand to each of the {n} players")
        parsed: list[list[int]] = []
        for seat, codes in enumerate(hands):
            if not isinstance(codes, list) or len(codes) != size:
                got = len(codes) if isinstance(codes, list) else 0
                raise self.refuse(f"hand {hand} deals {size} cards each, but "
                                  f"{self.names[seat]} was dealt {got}")
            parsed.append(DECK.parse_many(codes))
        seen = {c for cards in parsed for c in cards}
        if len(seen) != n * size:
            raise self.refuse("the deal names a card twice; the deck has one of each")
        turned = -1
        if hand == 1:
            if not isinstance(record["turned"], str):
                raise self.refuse(f"the turned card is a card code, not "
                                  f"{brief(record['turned'])}")
            turned = DECK.parse(record["turned"])
            if turned in seen:
                raise self.refuse(f"the turned card {DECK.codes[turned]} was also dealt to a "
                                  "player; it is the top card left after the deal")
        return turned, parsed

    def _begin_hand(self, turned: int, hands: list[list[int]]) -> None:
        n = self.nseats
        self.dealer = self._next_dealer()
        self.hand_no += 1
        self.size = self.sizes[self.hand_no - 1]
        self.turned = turned
        self.row = [0] * n
        leader = (self.dealer + 1) % n
        if turned >= 0:  # the first hand: the turned card's suit is trump, play begins
            self.start_tricks(hands, DECK.suit_of[turned], leader, len(SUITS))
            self.phase = PLAY
        else:  # a later hand: trumps are chosen first, by the last hand's best player
            self.start_tricks(hands, -1, leader, len(SUITS))
            self.chooser = self.next_chooser
            self.phase = PHASE_TRUMP
            self.turn = self.chooser

    # -- decisions -------------------------------------------------------------------------
    def to_act(self) -> int:
        phase = self.phase
        return self.turn if phase is PLAY or phase == PHASE_TRUMP else -1

    def _legal_other(self) -> list[int]:
        if self.phase == PHASE_TRUMP:
            return [TRUMP + suit for suit in range(len(SUITS))]
        return []

    def _apply_other(self, action: int) -> None:
        if self.phase == PHASE_TRUMP and TRUMP <= action < TRUMP + len(SUITS):
            self.trump = action - TRUMP
            self.phase = PLAY
            self.turn = self.leader
            return
        raise self.refuse(self._wrong_action(action), self._text(action))

    def _illegal_play(self, action: int) -> None:
        raise self._refuse_play(self._play_problem(action), self._wrong_action(action), action)

    def _wrong_action(self, action: int) -> str:
        phase = self.phase
        if phase == PHASE_DEAL:
            return ("the first hand must be dealt" if self.hand_no == 0
                    else "the hand is over; the next hand must be dealt")
        if phase == PHASE_OVER:
            return "the game is over"
        name = self.names[self.turn]
        if phase == PHASE_TRUMP:
            return (f"{name} took the most tricks last hand and must first choose trumps: "
                    "'trump hearts' or 'trump spades'")
        if TRUMP <= action < TRUMP + len(SUITS):
            return (f"trumps are {SUITS[self.trump]} for this hand: they are chosen once, "
                    f"before the first lead; {name} must play a card")
        return f"{name} must play a card"

    def _play_over(self) -> None:
        """Score the hand: a trick is a point; a seat that took none is knocked out and
        loses every point it had. The first knock-out ends the game."""
        won = self.tricks_won
        before = self.totals()
        self.row = [-before[s] if won[s] == 0 else won[s] for s in range(self.nseats)]
        self.sheet.append(self.row[:])
        self.knocked_out = [s for s in range(self.nseats) if won[s] == 0]
        self.turn = -1
        if self.knocked_out or self.hand_no == len(self.sizes):
            self.phase = PHASE_OVER
            return
        self.next_chooser = self.most_tricks()
        self.phase = PHASE_DEAL

    def most_tricks(self) -> int:
        """The seat that took the most tricks this hand; of seats tied, the one that took a
        trick first."""
        best = max(self.tricks_won)
        for _, _, winner in self.history:
            if self.tricks_won[winner] == best:
                return winner
        raise AssertionError("a finished hand has tricks")

    # -- readable actions ------------------------------------------------------------------
    def action_text(self, action: int) -> str:
        if 0 <= action < NCARDS:
            return f"play {DECK.codes[action]}"
        if TRUMP <= action < TRUMP + len(SUITS):
            return f"trump {SUITS[action - TRUMP]}"
        raise CardCodeError(f"{action} is not a Knock-out Whist action")

    def parse_action(self, text: str) -> int:
        verb, _, rest = text.strip().lower().partition(" ")
        rest = rest.strip()
        if verb == "play":
            return DECK.parse(rest)
        if verb == "trump":
            if rest in SUITS:
                return TRUMP + SUITS.index(rest)
            raise CardCodeError(f"trumps are hearts or spades, not {brief(rest)}")
        raise CardCodeError(f"{brief(text)} is not a Knock-out Whist action; actions look "
                            "like 'play QH' or 'trump spades'")

    # -- progress --------------------------------------------------------------------------
    def is_game_over(self) -> bool:
        return self.phase == PHASE_OVER

    def hand_number(self) -> int:
        return self.hand_no

    def hand_over(self) -> bool:
        return self.hand_no > 0 and len(self.sheet) == self.hand_no

    def hand_scores(self) -> list[int]:
        return self.row[:]

    def totals(self) -> list[int]:
        return [sum(row[s] for row in self.sheet) for s in range(self.nseats)]

    def dealt_cards(self) -> list[int]:
        cards = super().dealt_cards()
        if self.turned >= 0:
            cards.append(self.turned)
        return cards

    def accounted_cards(self) -> list[int]:
        cards = super().accounted_cards()
        if self.turned >= 0:
            cards.append(self.turned)
        return cards

    # -- what a seat may see -----------------------------------------------------------------
    def seat_fields(self, seat: int | None) -> dict[str, Any]:
        """The other players' hands are hidden from ``seat``, and so are another seat's
        legal actions; nothing else is hidden (trumps are chosen aloud)."""
        return {"legal": self.legal_texts_for(seat), "hands": self.hands_snapshot(seat)}

    def score_parts(self) -> list[dict[str, int]] | None:
        """Once the hand is over, each seat's points: ``{"tricks": 3}``, and for a seat
        knocked out ``{"tricks": 0, "knocked-out": -5}`` (the points it loses)."""
        if not self.hand_over():
            return None
        return [{"tricks": won} if won else {"tricks": 0, "knocked-out": self.row[s]}
                for s, won in enumerate(self.tricks_won)]

    def snapshot(self, seat: int | None = None) -> dict[str, Any]:
        """The position; with ``seat``, only what that seat may see (:meth:`seat_fields`)."""
        to_act = self.to_act()
        pos: dict[str, Any] = {
            "game": self.rules.name,
            "phase": self.phase,
            "hand": self.hand_no,
            "hand_sizes": list(self.sizes),
            "hand_over": self.hand_over(),
            "hand_size": self.size,
            "dealer": None if self.dealer < 0 else self.dealer,
            "to_act": None if to_act < 0 else to_act,
            "legal": None,  # this and "hands": the seat fields, filled in below
            "turned": None if self.turned < 0 else DECK.codes[self.turned],
            "trump": None if self.trump < 0 else SUITS[self.trump],
            "trump_chooser": None if self.chooser < 0 else self.chooser,
            "hands": None,
            "hand_counts": self.hand_counts(),
            "tricks_won": self.tricks_won[:],
            "trick": self.current_trick_snapshot(),
            "tricks": self.tricks_snapshot(),
            "knocked_out": self.knocked_out[:],
            "hand_scores": self.row[:],
            "score_parts": self.score_parts(),
            "sheet": [r[:] for r in self.sheet],
            "totals": self.totals(),
        }
        pos.update(self.seat_fields(seat))
        return pos


KnockoutWhistRules.state_class = KnockoutWhistState

__all__ = ["DECK", "SUITS", "TRUMP", "KnockoutWhistRules", "KnockoutWhistState", "max_start"]
