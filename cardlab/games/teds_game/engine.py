"""Ted's Game, an Oh Hell variant: rules, state and scoring.

3 to 8 players, the standard 52 cards, aces high. The first hand deals 10 cards each (3-5
players), 8 (6), 7 (7) or 6 (8); each later hand one card fewer down to 1, then one more per
hand back up to the start. The card left on top of the deck after the deal is turned up: its
suit is trump. Bidding starts left of the dealer and ends with the dealer, who may not bid the
number that makes the bids add up to the tricks of the hand (the hook). A bid may be changed
while the next player has not yet bid. An exact bid scores 10 + bid², an exact zero 10 + the
cards dealt, a miss loses the miss cubed. See ``docs/rules-interpretations.md`` for every reading
of the rule text.

The rules that run at every step of a hand (the deal from a seed, the bids and the hook, the
score) are in :mod:`cardlab.games.teds_game.kernel`, compiled with the kernel; this module has the
rest and the state class, which inherits that table.

>>> import cardlab
>>> table = cardlab.new_game("teds-game", players=4, seed=7)
>>> state = table.state
>>> state.phase, state.hand_size_now(), state.snapshot()["turned"]
('bid', 10, '3S')
>>> table.act("bid 3")
>>> table.act("change bid 2")  # the next player has not bid yet: still allowed
>>> table.replay.hands[0].actions[-1].seat == table.replay.hands[0].actions[0].seat
True
"""

from __future__ import annotations

from typing import Any

from ...cards import seeded_cards
from ...errors import CardCodeError, IllegalActionError, OptionError, brief
from ...game import Rules
from ...kernel import TABLE_FIELDS, dealer_of_hand
from ...options import Option
from ...words import plural
from ..trick_taking.state import PLAY, SuitedDeck, TrickTaking
from .kernel import (
    BID,
    CHANGE,
    MAX_NUMBER,
    NCARDS,
    PHASE_BID,
    PHASE_DEAL,
    PHASE_OVER,
    PHASE_SETUP,
    TEDS_FIELDS,
    TedsKernel,
    begin_bids,
    deal_record,
    dealer_bids,
    game_over,
    hook_now,
    max_start,
    score,
    take_bid,
)

SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RANK_CODES = {**{r: str(r) for r in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_WORDS = {11: "jack", 12: "queen", 13: "king", 14: "ace"}


def _aliases() -> dict[str, str]:
    """Other spellings people type: ``TH`` or ``10♥`` for ``10H``, ``queen of spades``."""
    out: dict[str, str] = {}
    for suit, symbol in zip(SUITS, SUIT_SYMBOLS, strict=True):
        letter = suit[0].upper()
        for rank, code in RANK_CODES.items():
            canonical = f"{code}{letter}"
            out[f"{code}{symbol}"] = canonical
            out[f"{RANK_WORDS.get(rank, code)}of{suit}"] = canonical
            if rank == 10:
                out[f"T{letter}"] = canonical
                out[f"T{symbol}"] = canonical
    return out


DECK = SuitedDeck(
    SUITS, tuple(range(2, 15)),
    code=lambda suit, rank: f"{RANK_CODES[rank]}{suit[0].upper()}",
    aliases=_aliases(), description="card of the 52-card deck",
    rank_names={r: c for r, c in RANK_CODES.items() if r > 10},
)
SUIT_OF = DECK.suit_of
RANK_OF = DECK.rank_of
assert len(DECK) == NCARDS
DEFAULT_START = {3: 10, 4: 10, 5: 10, 6: 8, 7: 7, 8: 6}


class TedsGameRules(Rules):
    """The rules and options of Ted's Game.

    >>> TedsGameRules(players=7).hand_sizes()
    (7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7)
    """

    name = "teds-game"
    title = "Ted's Game"
    deck = DECK
    OPTIONS = (
        Option("players", 4, "number of players", kind=int, low=3, high=8),
        Option("start_size", None,
               "cards each in the first (and last) hand: default 10 for 3-5 players, 8 for 6, "
               "7 for 7, 6 for 8; at most 51 // players, so that a card is left to turn up "
               "for trump", kind=int, low=1),
        Option("mode", "strict",
               "strict refuses a renege; table records it and flags it, with no score change "
               "(the rules give no penalty)", choices=("strict", "table")),
    )

    def _finish(self, values: dict[str, Any], given: set[str]) -> dict[str, Any]:
        players = values["players"]
        if values["start_size"] is None:
            values["start_size"] = DEFAULT_START[players]
        most = max_start(players)
        if values["start_size"] > most:
            size = values["start_size"]
            raise OptionError(
                f"teds-game option start_size is at most {most} with {players} players: "
                f"{players} hands of {size} need {players * size} cards, plus one to turn up "
                f"for trump, and the deck has {NCARDS}")
        return values

    @classmethod
    def conformance_option_sets(cls) -> list[dict[str, Any]]:
        sets: list[dict[str, Any]] = []
        for players in range(3, 9):
            sets.append({"players": players, "start_size": 2})
            sets.append({"players": players, "start_size": 3, "mode": "table"})
        sets.append({"players": 8})  # the full game at the deck's limit: 6..1..6
        sets.append({"players": 3, "start_size": 1})
        return sets

    def hands_in_game(self) -> int:
        return len(self.hand_sizes())

    def hand_sizes(self) -> tuple[int, ...]:
        """Cards dealt each, hand by hand: start, start-1, ..., 1, 2, ..., start."""
        start = self.options["start_size"]
        return tuple(range(start, 0, -1)) + tuple(range(2, start + 1))


def _refusal(reason: str, hand: int, seat: int | None, action: str) -> IllegalActionError:
    return IllegalActionError(reason, hand=hand or None, seat=seat, action=action)


class TedsGameState(TrickTaking, TedsKernel):
    """A game of Ted's Game in progress.

    Seats are numbered clockwise, so the player to a seat's left is the next seat.
    """

    rules: TedsGameRules

    def __init__(self, rules: TedsGameRules) -> None:  # type: ignore[override]
        super().__init__(rules)
        n = rules.players
        self._init_tricks(DECK, [f"seat {i + 1}" for i in range(n)])
        self.phase = PHASE_SETUP
        self.table_mode = rules.options["mode"] == "table"
        self.sizes = rules.hand_sizes()
        self.hand_no = 0
        self.first_dealer = -1
        self.draws: list[list[int]] = []  # the draw for first dealer: card per seat, -1: none
        self.dealer = -1
        self.size = 0
        self.turned = -1
        self.bids = [-1] * n
        self.nbids = 0
        self.bid_total = 0
        self.hook = -1
        self.changes = []
        self.reneges = []
        self.sheet = []
        self.row = [0] * n
        self.bid_actions = []
        self.material_seed = None  # no deal made yet (see deal_hand)
        self.material = ""

    @classmethod
    def at_position(cls, rules: Rules, position: dict[str, Any], hands: list[list[int]],
                    public: dict[str, Any]) -> TedsGameState:
        """The state at the deal of the position's hand (:meth:`State.at_position`): the
        draw for first dealer, the game moved on to the hand (the deal passing as the rules
        pass it, :func:`cardlab.kernel.dealer_of_hand`) with the score sheet before it, then
        the deal.

        >>> import cardlab
        >>> state = cardlab.new_game("teds-game", players=4, seed=2).state
        >>> again = TedsGameState.at_position(state.rules, state.snapshot(), state.dealt_hands, {})
        >>> again.snapshot() == state.snapshot()
        True
        """
        assert isinstance(rules, TedsGameRules)
        state = cls(rules)
        state.apply_chance({"draws": position["draw"], "first_dealer": position["first_dealer"]})
        hand = position["hand"]
        if hand > 1:  # the hands before it, dealt by the dealers in turn
            state.hand_no = hand - 1
            state.dealer = dealer_of_hand(state.first_dealer, hand - 1, rules.players)
        state.sheet = [row[:] for row in position["sheet"][:hand - 1]]
        state.apply_chance({"hands": [[DECK.codes[c] for c in sorted(h)] for h in hands],
                            "turned": position["turned"]})
        return state

    def hand_size_now(self) -> int:
        """Cards dealt each in the current hand (0 before the first deal)."""
        return self.size

    # -- chance: the draw for first dealer, then each deal ------------------------------
    def chance_kind(self) -> str | None:
        phase = self.phase
        if phase == PHASE_DEAL:
            return "deal"
        return "setup" if phase == PHASE_SETUP else None

    def seeded_chance(self, seed: int | str) -> dict[str, Any]:
        if self.phase == PHASE_SETUP:
            return _draw_record(*seeded_draw(seed, self.rules.players))
        # the record of the one seeded deal: what deal_seeded deals (or refuses), on a copy
        dealt = self.clone()
        dealt.deal_seeded(seed)
        return dealt.dealt_record()

    def setup_record(self) -> dict[str, Any]:
        """The record of the draw for first dealer, once made: as ``seeded_chance`` gives
        a seeded draw's."""
        return _draw_record(self.draws, self.first_dealer)

    def dealt_record(self) -> dict[str, Any]:
        """The record of the deal of the hand being played (or just played): each seat's
        cards and the card turned up, as ``seeded_chance`` gives a seeded deal's."""
        return deal_record(self, DECK.codes)

    def apply_chance(self, record: Any) -> None:
        if self.phase == PHASE_SETUP:
            self._drawn(*self._check_setup(record))
            return
        if self.phase != PHASE_DEAL:
            raise self.refuse(self._wrong_action(-1))
        try:
            checked = self._check_deal(record)
        except IllegalActionError as err:  # named with the hand being dealt, not the last one
            raise IllegalActionError(err.reason, hand=self.hand_no + 1,
                                     action=err.action) from None
        self._begin_hand(*checked)

    def _deal_other(self, seed: int | str) -> None:
        """The seeded draw for first dealer, as its record would enter it (no card codes);
        any other time, no deal is due."""
        if self.phase != PHASE_SETUP:
            raise self.refuse(self._wrong_action(-1))
        self._drawn(*seeded_draw(seed, self.rules.players))

    def _drawn(self, draws: list[list[int]], first_dealer: int) -> None:
        """The draw for first dealer is made: the first hand is due."""
        self.draws, self.first_dealer = draws, first_dealer
        self.phase = PHASE_DEAL

    def _begin_hand(self, turned: int, hands: list[list[int]]) -> None:
        n = self.nseats
        dealer = dealer_of_hand(self.first_dealer, self.hand_no + 1, n)
        self.start_tricks(hands, SUIT_OF[turned], dealer + 1 if dealer + 1 < n else 0, len(SUITS))
        begin_bids(self, turned, dealer, self.hand_no + 1, self.sizes[self.hand_no])

    def _check_setup(self, record: Any) -> tuple[list[list[int]], int]:
        """Parse and check the draw for first dealer: (cards per round, first dealer)."""
        n = self.rules.players
        shape = ('the draw for first dealer is {"draws": [[a card per seat, null for a seat '
                 'that does not draw], ...], "first_dealer": seat number}')
        if not isinstance(record, dict) or set(record) != {"draws", "first_dealer"}:
            raise self.refuse(shape)
        rows = record["draws"]
        if not isinstance(rows, list) or not rows:
            raise self.refuse(shape)
        drawing = list(range(n))
        parsed: list[list[int]] = []
        for number, row in enumerate(rows, start=1):
            if len(drawing) == 1:
                raise self.refuse(f"round {number - 1} of the draw already has a single lowest "
                                  f"card, so there is no round {number}")
            if not isinstance(row, list) or len(row) != n:
                raise self.refuse(f"round {number} of the draw needs one entry per seat ({n}), "
                                  "null for a seat that does not draw")
            for seat, code in enumerate(row):
                if seat in drawing and code is None:
                    raise self.refuse(f"in round {number} of the draw {self.names[seat]} must "
                                      "draw a card" + (" (tied for lowest)" if number > 1
                                                       else ""))
                if seat not in drawing and code is not None:
                    raise self.refuse(f"in round {number} of the draw {self.names[seat]} does "
                                      "not draw: only the players tied for lowest draw again")
            cards = DECK.parse_many([row[s] for s in drawing])
            parsed.append([-1] * n)
            for seat, card in zip(drawing, cards, strict=True):
                parsed[-1][seat] = card
            low = min(RANK_OF[c] for c in cards)
            drawing = [s for s, c in zip(drawing, cards, strict=True) if RANK_OF[c] == low]
        if len(drawing) > 1:
            tied = ", ".join(self.names[s] for s in drawing)
            raise self.refuse(f"the draw ends in a tie for lowest card between {tied}: they "
                              "draw again, in one more round")
        dealer = drawing[0]
        given = record["first_dealer"]
        if type(given) is not int or given != dealer:  # 2.0 and true are not seat numbers
            raise self.refuse(f"{self.names[dealer]} (seat {dealer}) drew the lowest card and "
                              f"deals first, not seat {brief(given)}")
        return parsed, dealer

    def _check_deal(self, record: Any) -> tuple[int, list[list[int]]]:
        """Parse and check a deal record: (the turned card, the hands)."""
        n = self.rules.players
        hand = self.hand_no + 1
        size = self.sizes[hand - 1]
        if not isinstance(record, dict) or set(record) != {"hands", "turned"}:
            raise self.refuse('a Ted\'s Game deal is {"hands": [[card codes] per seat], '
                              '"turned": the card turned up for trump}')
        hands = record["hands"]
        if not isinstance(hands, list) or len(hands) != n:
            raise self.refuse(f"the deal must give a hand to each of the {n} players")
        parsed: list[list[int]] = []
        for seat, codes in enumerate(hands):
            if not isinstance(codes, list) or len(codes) != size:
                got = len(codes) if isinstance(codes, list) else 0
                raise self.refuse(f"hand {hand} deals {plural(size, 'card')} each, but "
                                  f"{self.names[seat]} was dealt {got}")
            parsed.append(DECK.parse_many(codes))
        turned = DECK.parse(record["turned"])
        seen = {c for cards in parsed for c in cards}
        if len(seen) != n * size:
            raise self.refuse("the deal names a card twice; the deck has one of each")
        if turned in seen:
            raise self.refuse(f"the turned card {DECK.names[turned]} was also dealt to a "
                              "player; it is the top card left on the deck after the deal")
        return turned, parsed

    # -- decisions -----------------------------------------------------------------------
    def to_act(self) -> int:
        phase = self.phase
        return self.turn if phase is PLAY or phase == PHASE_BID else -1

    def actor(self, action: int) -> int:
        """A bid change is made by the last bidder, while the next player is to bid; -1 when
        no one may change a bid now (before the first bid, after the dealer's)."""
        if CHANGE <= action <= CHANGE + MAX_NUMBER:
            return self.change_seat()
        return self.to_act()

    def change_seat(self) -> int:
        """Who may change a bid now (the last bidder, until the next player bids), else -1."""
        if self.phase != PHASE_BID or not self.nbids:
            return -1
        return self.turn - 1 if self.turn else self.rules.players - 1

    def forbidden_bid(self) -> int:
        """The bid the hook forbids the dealer: live while the dealer is to bid, then the one
        it forbade; -1 before the dealer's turn or when the other bids exceed the tricks."""
        if self.phase == PHASE_BID and self.turn == self.dealer:
            return hook_now(self)
        return self.hook

    def _legal_other(self) -> list[int]:
        """No legal actions: the bids are always ready while bidding (``legal_ready``:
        ``begin_bids``, ``take_bid`` and a bid change set them, the hook included), so this
        is asked only before a deal and at the end."""
        return []

    def _apply_other(self, action: int) -> None:
        """What :meth:`TedsKernel.apply` leaves to the game: a bid change, and the refusals."""
        if self.phase == PHASE_BID:
            bid = action - BID
            if 0 <= bid <= self.size:
                if take_bid(self, bid):
                    return
                # a number of tricks the hand has, refused: only the hook refuses one
                raise self.refuse(self._hook_reason(hook_now(self)), f"bid {bid}",
                                  rule=self.hook_rule())
            if CHANGE <= action <= CHANGE + MAX_NUMBER:
                self._change(action - CHANGE)
                return
        raise self.refuse(self._wrong_action(action), self._text(action))

    # the hand's random playout, bids and cards, is the compiled TedsKernel's (TrickTaking's,
    # first in the order of the bases, plays the bids one Python step at a time)
    random_playout = TedsKernel.random_playout

    def _hook_reason(self, forbidden: int) -> str:
        others = self.bid_total
        return (f"the hook: the dealer, {self.names[self.dealer]}, may not bid {forbidden}: the "
                f"others bid {others} in all, and {others} + {forbidden} = {self.size}, the "
                "number of tricks in this hand; the bids must not add up to the tricks")

    def hook_rule(self) -> str:
        """The hook as the rules say it, naming no bid (what a hint says)."""
        return ("the hook: the dealer bids last, and the bids must not add up to the number "
                "of tricks in the hand")

    def _change(self, bid: int) -> None:
        seat = self.change_seat()
        text = f"change bid {bid}"
        if seat < 0:
            raise _refusal("nobody has bid yet in this hand, so there is no bid to change",
                           self.hand_no, None, text)
        name = self.names[seat]
        if bid > self.size:
            raise _refusal(f"a bid is a number of tricks from 0 to {self.size}: this hand has "
                           f"{plural(self.size, 'trick')}", self.hand_no, seat, text)
        old = self.bids[seat]
        if bid == old:
            raise _refusal(f"{name}'s bid is already {bid}", self.hand_no, seat, text)
        self.bids[seat] = bid
        self.bid_total += bid - old
        self.changes.append((seat, old, bid))
        if self.turn == self.dealer:  # the total changed: so did the hook
            self.legal_ready = dealer_bids(self)

    def _illegal_play(self, action: int) -> None:
        if self.table_mode and 0 <= action < NCARDS and \
                action in self.hands[self.turn][SUIT_OF[action]] and self._is_renege(action):
            self._renege(action)
            return
        raise self._refuse_play(self._play_problem(action), self._wrong_action(action), action)

    def _renege(self, card: int) -> None:
        """Table mode: the card is played as it was, and the renege is flagged.

        It counts as a card of its own suit (so a trump played on a renege can win). The
        rules give no penalty, so no score changes.
        """
        seat = self.turn
        self.reneges.append((len(self.winners) + 1, seat, card))
        self.renege = (seat, card)
        self._play_anyway(card)

    def _wrong_action(self, action: int) -> str:
        phase = self.phase
        if phase == PHASE_SETUP:
            return "first the players draw cards for first dealer"
        if phase == PHASE_DEAL:
            return ("the first hand must be dealt" if self.hand_no == 0
                    else "the hand is over; the next hand must be dealt")
        if phase == PHASE_OVER:
            return "the game is over"
        name = self.names[self.turn]
        if phase == PHASE_BID:
            if BID <= action < CHANGE:
                return (f"a bid is a number of tricks from 0 to {self.size}: this hand has "
                        f"{plural(self.size, 'trick')}")
            return f"{name} must bid before any card is played"
        if BID <= action < CHANGE:
            return f"the bidding is over; {name} must play a card"
        if CHANGE <= action <= CHANGE + MAX_NUMBER:
            return ("bids can no longer be changed: a bid may be changed only until the next "
                    "player bids, and the dealer's bid ended the bidding")
        return f"{name} must play a card"

    # -- readable actions ----------------------------------------------------------------
    def action_text(self, action: int) -> str:
        if 0 <= action < NCARDS:
            return f"play {DECK.codes[action]}"
        if BID <= action <= BID + MAX_NUMBER:
            return f"bid {action - BID}"
        if CHANGE <= action <= CHANGE + MAX_NUMBER:
            return f"change bid {action - CHANGE}"
        raise CardCodeError(f"{action} is not a Ted's Game action")

    def parse_action(self, text: str) -> int:
        words = text.strip().lower().split()
        if len(words) >= 2 and words[0] == "play":
            return DECK.parse("".join(words[1:]))
        base = CHANGE if words[:1] == ["change"] else BID
        number = words[2:] if words[:2] == ["change", "bid"] else words[1:]
        if words[:1] in (["bid"], ["change"]) and len(number) == 1:
            digits = number[0]
            # at most 3 digits before int(): Python refuses to read more than 4,300
            if digits.isdecimal() and digits.isascii() and len(digits) <= 3 and \
                    int(digits) <= MAX_NUMBER:
                return base + int(digits)
            size = f"0 to {self.size}" if self.size else "0 up to the cards dealt"
            raise CardCodeError(f"a bid is a number of tricks from {size}, not "
                                f"{digits[:20]!r}{'…' if len(digits) > 20 else ''}")
        raise CardCodeError(
            f"{text!r} is not a Ted's Game action; actions look like 'bid 2', 'change bid 1' "
            "or 'play QS'")

    # -- progress ------------------------------------------------------------------------
    def is_game_over(self) -> bool:
        return game_over(self)

    def hand_number(self) -> int:
        return self.hand_no

    def hand_over(self) -> bool:
        return self.hand_no > 0 and len(self.sheet) == self.hand_no

    def hand_scores(self) -> list[int]:
        return self.row[:]

    def totals(self) -> list[int]:
        if not self.sheet:
            return [0] * self.rules.players
        return [sum(column) for column in zip(*self.sheet, strict=True)]

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

    # the compiled table's fields, the hand's own included (copied by TedsKernel.copy_table_into)
    _table_fields = TABLE_FIELDS + TEDS_FIELDS

    def seat_fields(self, seat: int | None) -> dict[str, Any]:
        """The other players' hands are hidden from ``seat``, and so are another seat's
        legal actions."""
        return {
            "legal": self.legal_texts_for(seat),
            "hands": self.hands_snapshot(seat),
        }

    def snapshot(self, seat: int | None = None) -> dict[str, Any]:
        """The position; with ``seat``, only what that seat may see (:meth:`seat_fields`)."""
        codes = DECK.codes
        to_act = self.to_act()
        changer = self.change_seat()
        forbidden = self.forbidden_bid()
        pos: dict[str, Any] = {
            "game": self.rules.name,
            "phase": self.phase,
            "hand": self.hand_no,
            "hands_in_game": len(self.sizes),
            "hand_sizes": list(self.sizes),
            "hand_over": self.hand_over(),
            "hand_size": self.size,
            "first_dealer": None if self.first_dealer < 0 else self.first_dealer,
            "draw": [[None if c < 0 else codes[c] for c in row] for row in self.draws],
            "dealer": None if self.dealer < 0 else self.dealer,
            "to_act": None if to_act < 0 else to_act,
            "legal": None,  # this and "hands": the seat fields, filled in below
            "may_change": None if changer < 0 else {"seat": changer,
                                                     "bid": self.bids[changer]},
            "turned": None if self.turned < 0 else codes[self.turned],
            "trump": None if self.trump < 0 else SUITS[self.trump],
            "hands": None,
            "hand_counts": self.hand_counts(),
            "bids": [None if b < 0 else b for b in self.bids],
            "bid_total": self.bid_total,
            "bid_changes": [{"seat": s, "from": old, "to": new}
                            for s, old, new in self.changes],
            "forbidden_bid": None if forbidden < 0 else forbidden,
            "tricks_won": self.tricks_won[:],
            "trick": self.current_trick_snapshot(),
            "tricks": self.tricks_snapshot(),
            "reneges": [{"trick": t, "seat": s, "card": codes[c]}
                        for t, s, c in self.reneges],
            "hand_scores": self.row[:],
            "sheet": [r[:] for r in self.sheet],
            "totals": self.totals(),
        }
        pos.update(self.seat_fields(seat))
        return pos


def _draw_record(rows: list[list[int]], dealer: int) -> dict[str, Any]:
    """The record of a draw for first dealer: each round's cards (null: a seat that does not
    draw), and the first dealer."""
    return {"draws": [[None if c < 0 else DECK.codes[c] for c in row] for row in rows],
            "first_dealer": dealer}


def seeded_draw(seed: int | str, players: int) -> tuple[list[list[int]], int]:
    """The draw for first dealer: everyone draws; the lowest rank deals; players tied for the
    lowest draw again (each round from a freshly shuffled deck) until one is lowest.

    Returns the cards per round (-1 for a seat not drawing) and the first dealer.
    """
    drawing = list(range(players))
    rows: list[list[int]] = []
    while True:
        cards = seeded_cards(seed, "teds-game-draw", len(rows) + 1, population=NCARDS,
                             count=len(drawing))
        row = [-1] * players
        for seat, card in zip(drawing, cards, strict=True):
            row[seat] = card
        rows.append(row)
        low = min(RANK_OF[c] for c in cards)
        drawing = [s for s, c in zip(drawing, cards, strict=True) if RANK_OF[c] == low]
        if len(drawing) == 1:
            return rows, drawing[0]


__all__ = ["TedsGameRules", "TedsGameState", "score", "seeded_draw", "DECK", "BID", "CHANGE"]
TedsGameRules.state_class = TedsGameState
