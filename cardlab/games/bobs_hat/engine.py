"""Where's Bob's Hat? (Alan R. Moon): rules, state and scoring.

60 cards, 1-20 in blue, red and black. Hand *k* deals 4+k cards each; the dealer turns up a
trump card (gray: no trump), looks at his cards and picks Bob's Hat, +10 or -10; then everyone
bids one or more of most blue / most red / most black / fewest, and the tricks are played.
Taking a trick with a 14 or 15 in it takes the hat. See ``docs/rules-interpretations.md`` for
every point where the rulebook is silent.

>>> import cardlab
>>> table = cardlab.new_game("bobs-hat", players=4, seed=7)
>>> table.state.phase
'hat'
>>> table.act("hat -10")
>>> table.state.legal_texts()[:2]
['bid most-blue', 'bid most-red']
"""

from __future__ import annotations

from typing import Any

from ...errors import CardCodeError, IllegalActionError, OptionError, brief
from ...game import Rules
from ...kernel import dealer_of_hand, mask_of, seeded_stream
from ...options import Option
from ...words import plural
from ..trick_taking.state import PLAY, SuitedDeck, TrickTaking
from .kernel import (
    BID,
    BID_WORDS,
    DOUBLE,
    FEWEST,
    HAT_MINUS,
    HAT_PLUS,
    MOST,
    NO_BID,
    last_taker,
    score_hand,
    taken_by_suit,
)

SUITS = ("blue", "red", "black")
TRUMP_CARDS = ("blue", "red", "black", "gray")  # gray: no trump
DECK = SuitedDeck(
    SUITS, tuple(range(1, 21)), code=lambda suit, rank: f"{suit}{rank}",
    aliases={f"{alias}{r}": f"{suit}{r}" for r in range(1, 21)
             for suit, aliases in (("blue", ("blu", "blå")), ("red", ("r", "rød")),
                                   ("black", ("blk", "svart")))
             for alias in aliases},
    description="Where's Bob's Hat? card",
)
HAT_RANKS = (14, 15)
IS_HAT = tuple(rank in HAT_RANKS for rank in DECK.rank_of)
HAT_CARDS = mask_of([card for card, hat in enumerate(IS_HAT) if hat])  # as bits
FIRST_HAND_SIZE = 5
DEFAULT_HANDS = {3: 12, 4: 10, 5: 8}

# Bids are bit flags on top of BID (MOST, FEWEST, DOUBLE, NO_BID: the compiled part's, which
# scores them); the hat choice is HAT_PLUS / HAT_MINUS (the compiled part's too).
RENEGE_PENALTY = -15

PHASE_DEAL, PHASE_HAT, PHASE_BID, PHASE_OVER = "deal", "hat", "bid", "over"
PHASE_PLAY = PLAY


def max_hands(players: int) -> int:
    """How many hands the deck allows: sizes 5, 6, ... while everyone still gets a card each."""
    return len(DECK) // players - FIRST_HAND_SIZE + 1


class BobsHatRules(Rules):
    """The rules and options of Where's Bob's Hat?

    >>> BobsHatRules(players=5).options["hands"]
    8
    """

    name = "bobs-hat"
    title = "Where's Bob's Hat?"
    deck = DECK
    OPTIONS = (
        Option("players", 4, "number of players", kind=int, low=3, high=5),
        Option("hands", None, "hands in the game (default 12/10/8 for 3/4/5 players)",
               kind=int, low=1),
        Option("until_deck_runs_out", False,
               "house rule: play hands of 5, 6, 7... until the deck cannot deal another",
               kind=bool),
        Option("first_dealer", 0, "seat of the first dealer (the youngest player)", kind=int,
               low=0),
        Option("opening", "dealer",
               "who bids first and leads the first trick: the dealer (rulebook) or the player"
               " left of the dealer (the Norwegian review)",
               choices=("dealer", "left-of-dealer")),
        Option("hat_reveal", "when-found",
               "whether the hat's value is shown at once or only when a hat card is first taken",
               choices=("when-found", "at-once")),
        Option("double_fewest", False, "optional rule: a fewest bid may be doubled", kind=bool),
        Option("no_bids", False, "optional rule: each player may pass one hand per game",
               kind=bool),
        Option("secret_bidding", False,
               "optional rule: bids are chosen in secret and shown together", kind=bool),
        Option("negative_scoring", False,
               "optional rule: a failed most bid also loses 1 per card taken in that suit",
               kind=bool),
        Option("mode", "strict",
               "strict refuses a renege; table records it (-15, the hand is redealt)",
               choices=("strict", "table")),
    )

    def hands_in_game(self) -> int:
        return int(self.options["hands"])

    def _finish(self, values: dict[str, Any], given: set[str]) -> dict[str, Any]:
        players = values["players"]
        most = max_hands(players)
        if values["until_deck_runs_out"]:
            if "hands" in given and values["hands"] != most:
                raise OptionError(
                    f"bobs-hat option hands={values['hands']} contradicts until_deck_runs_out: "
                    f"with {players} players the deck runs out after {most} hands")
            values["hands"] = most
        elif values["hands"] is None:
            values["hands"] = DEFAULT_HANDS[players]
        if values["hands"] > most:
            raise OptionError(
                f"bobs-hat option hands is at most {most} with {players} players: hand "
                f"{most + 1} would need {(most + FIRST_HAND_SIZE) * players} of the 60 cards")
        if values["first_dealer"] >= players:
            raise OptionError(f"bobs-hat option first_dealer is a seat from 0 to {players - 1}")
        return values

    @classmethod
    def conformance_option_sets(cls) -> list[dict[str, Any]]:
        sets: list[dict[str, Any]] = []
        for players in (3, 4, 5):
            sets.append({"players": players, "hands": 3})
            sets.append({"players": players, "hands": 2, "opening": "left-of-dealer",
                         "hat_reveal": "at-once", "double_fewest": True, "no_bids": True,
                         "secret_bidding": True, "negative_scoring": True})
            sets.append({"players": players, "until_deck_runs_out": True, "mode": "table",
                         "no_bids": True, "first_dealer": players - 1})
        return sets

    def hand_size(self, hand: int) -> int:
        """Cards dealt to each player in hand ``hand`` (1-based)."""
        return FIRST_HAND_SIZE + hand - 1

    def legal_bids(self, may_pass: bool) -> tuple[int, ...]:
        """The bid flags a player may choose (``may_pass``: a no bid is still available)."""
        return self._bids[may_pass]

    @property
    def _bids(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        cached = self.__dict__.get("_bid_cache")
        if cached is None:
            plain = tuple(range(1, 16))
            doubled = tuple(f | DOUBLE for f in plain if f & FEWEST) if self.options[
                "double_fewest"] else ()
            cached = (plain + doubled, plain + doubled + (NO_BID,))
            self.__dict__["_bid_cache"] = cached
            self.__dict__["_bid_actions"] = tuple([BID + f for f in bids] for bids in cached)
            self.__dict__["_bid_sets"] = tuple(frozenset(bids) for bids in cached)
        return cached  # type: ignore[no-any-return]

    def bid_actions(self, may_pass: bool) -> list[int]:
        """The bid actions (ints) a player may choose, as a new list."""
        self._bids  # noqa: B018  (fills the caches)
        return self.__dict__["_bid_actions"][may_pass][:]  # type: ignore[no-any-return]


def _greys(flags: int) -> int:
    """The grey fewest cards a bid puts on the table: 1 for fewest, 2 for double fewest."""
    if flags == NO_BID or not flags & FEWEST:
        return 0
    return 2 if flags & DOUBLE else 1


def bid_text(flags: int) -> str:
    """``"most-blue,fewest"``; ``"none"`` for a no bid."""
    if flags == NO_BID:
        return "none"
    words = [BID_WORDS[f] for f in MOST if flags & f]
    if flags & FEWEST:
        words.append(BID_WORDS[FEWEST | DOUBLE] if flags & DOUBLE else BID_WORDS[FEWEST])
    return ",".join(words)


def parse_bid(text: str) -> int:
    """The bid flags a bid text names: ``"most-blue,fewest"``; ``"none"`` for a no bid.

    >>> parse_bid("most-red,fewest") == 2 | FEWEST
    True
    >>> parse_bid("")
    Traceback (most recent call last):
    ...
    cardlab.errors.CardCodeError: a bid names one or more of most-blue, most-red, most-black, \
fewest and double-fewest, as in 'bid most-blue,fewest' (or 'bid none', with the optional rule)
    """
    words = [w for w in text.replace("+", ",").replace(" ", ",").split(",") if w]
    if not words:
        raise CardCodeError(
            "a bid names one or more of most-blue, most-red, most-black, fewest and "
            "double-fewest, as in 'bid most-blue,fewest' (or 'bid none', with the optional "
            "rule)")
    if words == ["none"]:
        return NO_BID
    if "none" in words:
        raise CardCodeError("a no bid ('bid none') is made alone: it cannot be combined with "
                            "other bids")
    flags = 0
    lookup = {v: k for k, v in BID_WORDS.items()}
    for word in words:
        if word not in lookup:
            raise CardCodeError(
                f"{word!r} is not a bid; bids are most-blue, most-red, most-black, fewest, "
                "double-fewest, or none")
        if flags & lookup[word]:
            raise CardCodeError(f"{word!r} is named twice, or together with "
                                f"{'fewest' if word == 'double-fewest' else 'double-fewest'}:"
                                " a player bids each at most once")
        flags |= lookup[word]
    return flags


class BobsHatState(TrickTaking):
    """A game of Where's Bob's Hat? in progress."""

    rules: BobsHatRules

    def __init__(self, rules: BobsHatRules) -> None:  # type: ignore[override]
        super().__init__(rules)
        n = rules.players
        self._init_tricks(DECK, [f"seat {i + 1}" for i in range(n)])
        self.phase = PHASE_DEAL
        self.hand_no = 1
        self.attempt = 1
        self.pending = "first"  # which deal is due: first, next, redeal, or "" (none)
        self.dealer = rules.options["first_dealer"]
        self.opener = self._opener(self.dealer)
        self.size = rules.hand_size(1)
        self.hat_value = 0
        self.bids = [0] * n
        self.bidder = 0  # how many have bid
        self.no_bid_used = [False] * n
        self.may_pass = bool(rules.options["no_bids"])
        # the bid actions open to a player, without and with a no bid still in hand
        # (lists, never changed: legal actions are copies, and a list copies fastest)
        self.bid_choices = (rules.bid_actions(False), rules.bid_actions(True))
        self.bid_sets = (frozenset(self.bid_choices[0]), frozenset(self.bid_choices[1]))
        self.double_fewest = bool(rules.options["double_fewest"])  # read at every bid
        self.sheet: list[list[int]] = []  # one finished row per hand number
        self.row = [0] * n  # the current hand's score so far (a renege penalty lands here)
        self.reneges: list[tuple[int, int, int]] = []  # (hand, seat, card) of each renege

    def skip_to_hand(self, hand: int) -> None:
        """Start the game at a later hand (before the first deal), for drills and simulations.

        Hand ``hand`` deals ``4 + hand`` cards each; the deal has passed left ``hand - 1``
        times. A replay always starts at hand 1, so recordings do not use this.
        """
        if self.pending != "first" or self.history:
            raise self.refuse("skip_to_hand works only before the first deal")
        if not 1 <= hand <= self.rules.options["hands"]:
            raise self.refuse(f"this game has hands 1 to {self.rules.options['hands']}")
        self.hand_no = hand
        self.dealer = dealer_of_hand(self.rules.options["first_dealer"], hand, self.nseats)
        self.sheet = [[0] * self.rules.players for _ in range(hand - 1)]

    @classmethod
    def at_position(cls, rules: Rules, position: dict[str, Any], hands: list[list[int]],
                    public: dict[str, Any]) -> BobsHatState:
        """The state at this deal of the position's hand (:meth:`State.at_position`): the game
        moved on to the hand (:meth:`skip_to_hand`: the deal passes by the rules) and its
        attempt, the score sheet before it, this hand's renege penalties of earlier attempts,
        and who has used the one no bid (``public["no_bid_used"]``).

        >>> import cardlab
        >>> state = cardlab.new_game("bobs-hat", players=3, seed=1).state
        >>> again = BobsHatState.at_position(state.rules, state.snapshot(), state.dealt_hands, {})
        >>> again.snapshot() == state.snapshot()
        True
        """
        assert isinstance(rules, BobsHatRules)
        state = cls(rules)
        hand = position["hand"]
        if hand > 1:
            state.skip_to_hand(hand)
        state.attempt = position["attempt"]
        state.apply_chance({"trump": position["trump"] or "gray",
                            "hands": [[DECK.codes[c] for c in sorted(h)] for h in hands]})
        state.sheet = [row[:] for row in position["sheet"][:hand - 1]]
        # the current row holds this hand's renege penalties of earlier attempts (once the
        # hand is over they are among its score parts)
        parts = position["score_parts"]
        state.row = list(position["hand_scores"]) if not position["hand_over"] else [
            p.get("renege", 0) for p in parts] if parts else [0] * rules.players
        state.no_bid_used = list(public.get("no_bid_used", [False] * rules.players))
        return state

    def _opener(self, dealer: int) -> int:
        """Who bids first and leads the first trick."""
        if self.rules.options["opening"] == "dealer":
            return dealer
        return (dealer + 1) % self.rules.players

    # -- chance --------------------------------------------------------------------------
    def chance_kind(self) -> str | None:
        return "deal" if self.phase == PHASE_DEAL else None

    def _upcoming(self) -> tuple[int, int, int]:
        """(hand number, attempt, dealer) of the deal that is due."""
        if self.pending == "next":
            hand = self.hand_no + 1
            return hand, 1, dealer_of_hand(self.rules.options["first_dealer"], hand, self.nseats)
        if self.pending == "redeal":
            return self.hand_no, self.attempt + 1, self.dealer
        return self.hand_no, self.attempt, self.dealer

    def seeded_chance(self, seed: int | str) -> dict[str, Any]:
        # the record of the one seeded deal: what deal_seeded deals (or refuses), on a copy
        dealt = self.clone()
        dealt.deal_seeded(seed)
        return dealt.dealt_record()

    def dealt_record(self) -> dict[str, Any]:
        """The record of the deal of the hand being played (or just played): the trump card
        turned and each seat's cards, as ``seeded_chance`` gives a seeded deal's."""
        code = DECK.codes.__getitem__
        return {"trump": "gray" if self.trump < 0 else TRUMP_CARDS[self.trump],
                "hands": [list(map(code, cards)) for cards in self.dealt_hands]}

    def deal_seeded(self, seed: int | str) -> None:
        """Deal the hand that is due from ``seed``: the one seeded deal of the game (its
        record, ``seeded_chance(seed)``, is what this deals).

        The words of :func:`~cardlab.kernel.seeded_stream` for the deal (keys ``bobs-hat``,
        the hand number and the attempt), one per card dealt and one more, are shuffled,
        dealt one card at a time from the dealer's left and sorted into suits in one call of
        the compiled :meth:`~cardlab.kernel.TrickKernel.deal_stream`; the top two bits of the
        last word turn one of the four trump cards.
        """
        if self.phase != PHASE_DEAL:
            raise self.refuse("no deal is due: the hand is still being played")
        hand, attempt, dealer = self._upcoming()
        n = self.nseats
        size = self.rules.hand_size(hand)
        stream = seeded_stream(seed, ("bobs-hat", hand, attempt), n * size + 1)
        first = dealer + 1 if dealer + 1 < n else 0
        self.deal_stream(stream, size, first, -1, len(DECK.suits))
        trump = stream[-1] >> 6  # the last word's top 2 bits: one of the four trump cards
        self._begin_hand(-1 if trump == 3 else trump, None)

    def apply_chance(self, record: Any) -> None:
        if self.phase != PHASE_DEAL:
            raise self.refuse("no deal is due: the hand is still being played")
        hand, attempt, dealer = self._upcoming()
        try:
            checked = self._check_deal(record, hand)
        except IllegalActionError as err:  # named with the hand being dealt, not the last one
            raise IllegalActionError(err.reason, hand=hand, action=err.action) from None
        self._begin_hand(*checked)

    def _begin_hand(self, trump: int, hands: list[list[int]] | None) -> None:
        """The hand begins with ``hands`` dealt (None: the table is dealt already)."""
        self.hand_no, self.attempt, self.dealer = self._upcoming()
        self.pending = ""
        self.opener = self._opener(self.dealer)
        self.size = self.rules.hand_size(self.hand_no)
        if hands is None:
            self.trump = trump
            self.turn = self.leader = self.opener
        else:
            self._start_tricks(hands, trump, self.opener)
        self.bids = [0] * self.rules.players
        self.bidder = 0
        self.hat_value = 0
        self.phase = PHASE_HAT
        self.turn = self.dealer

    def _check_deal(self, record: Any, hand: int) -> tuple[int, list[list[int]]]:
        """Parse and check a deal record: (trump suit or -1, hands)."""
        n = self.rules.players
        size = self.rules.hand_size(hand)
        if not isinstance(record, dict) or set(record) != {"trump", "hands"}:
            raise self.refuse('a Bob\'s Hat deal is {"trump": ..., "hands": [...]}')
        if record["trump"] not in TRUMP_CARDS:
            raise self.refuse(f"the trump card is blue, red, black or gray, not "
                              f"{brief(record['trump'])}")
        hands = record["hands"]
        if not isinstance(hands, list) or len(hands) != n:
            raise self.refuse(f"the deal must give a hand to each of the {n} players")
        parsed: list[list[int]] = []
        seen: set[int] = set()
        for seat, codes in enumerate(hands):
            if not isinstance(codes, list) or len(codes) != size:
                got = len(codes) if isinstance(codes, list) else 0
                raise self.refuse(f"hand {hand} deals {plural(size, 'card')} each, but "
                                  f"{self.names[seat]} was dealt {got}")
            cards = [DECK.parse(code) for code in codes]
            seen.update(cards)
            parsed.append(cards)
        if len(seen) != n * size:
            raise self.refuse("the deal names a card twice; the deck has one of each")
        trump = TRUMP_CARDS.index(record["trump"])
        return (-1 if trump == 3 else trump), parsed

    # -- decisions -----------------------------------------------------------------------
    def to_act(self) -> int:
        return self.turn if self.phase in (PHASE_HAT, PHASE_BID, PHASE_PLAY) else -1

    def _legal_other(self) -> list[int]:
        phase = self.phase
        if phase == PHASE_BID:
            choices = self.bid_choices[self.may_pass and not self.no_bid_used[self.turn]]
            if self.double_fewest:
                free = self.free_fewest_cards()
                if free < 2:  # the grey cards left do not allow every fewest bid
                    return [a for a in choices if _greys(a - BID) <= free]
            return choices[:]
        if phase == PHASE_HAT:
            return [HAT_PLUS, HAT_MINUS]
        return []

    def _play_over(self) -> None:
        self._end_hand()

    def _illegal_play(self, action: int) -> None:
        if self.rules.options["mode"] == "table" and self._is_renege(action):
            self._renege(action)
            return
        raise self._refuse_play(self._play_problem(action), self._wrong_phase(action), action)

    def _apply_other(self, action: int) -> None:
        phase = self.phase
        if phase == PHASE_BID and BID < action < HAT_PLUS:
            flags = action - BID
            may_pass = self.may_pass and not self.no_bid_used[self.turn]
            if action not in self.bid_sets[may_pass]:
                raise self.refuse(self._bid_problem(flags, may_pass), bid_text(flags))
            if flags & FEWEST and self.double_fewest and \
                    _greys(flags) > self.free_fewest_cards():
                raise self.refuse(self._greys_problem(flags), bid_text(flags))
            seat = self.turn
            self.bids[seat] = flags
            if flags == NO_BID:
                self.no_bid_used[seat] = True
            self.bidder += 1
            self.turn = seat + 1 if seat + 1 < self.nseats else 0
            if self.bidder == self.nseats:
                self.phase = PHASE_PLAY
                self.turn = self.leader = self.opener
            return
        if phase == PHASE_HAT and action in (HAT_PLUS, HAT_MINUS):
            self.hat_value = 10 if action == HAT_PLUS else -10
            self.phase = PHASE_BID
            self.turn = self.opener
            return
        raise self.refuse(self._wrong_phase(action), self._text(action))

    def _wrong_phase(self, action: int) -> str:
        if action in (HAT_PLUS, HAT_MINUS) and self.phase in (PHASE_BID, PHASE_PLAY):
            return (f"the dealer, {self.names[self.dealer]}, has already chosen Bob's Hat for "
                    "this hand; it is chosen once, before the bids")
        if self.phase == PHASE_HAT:
            return f"the dealer, {self.names[self.dealer]}, must first choose Bob's Hat: +10 or -10"
        if self.phase == PHASE_BID:
            return f"{self.names[self.turn]} must bid before any card is played"
        if self.phase == PHASE_PLAY:
            return f"the bids are made; {self.names[self.turn]} must play a card"
        return "the hand is over; the next hand must be dealt" if not self.is_game_over() \
            else "the game is over"

    def free_fewest_cards(self) -> int:
        """Grey fewest cards not yet in use this hand: the box has one per player; a fewest
        bid uses its bidder's, a double fewest also borrows one from an opponent, who then
        cannot bid fewest himself (docs/rules-interpretations.md)."""
        return self.rules.players - sum(_greys(flags) for flags in self.bids)

    def _greys_problem(self, flags: int) -> str:
        free = self.free_fewest_cards()
        if free == 0:
            return ("every grey fewest card is in use: the box has one per player, and a "
                    "double fewest borrows an opponent's")
        return (f"double fewest borrows an opponent's grey card, and only {free} grey card "
                f"is left ({self.names[self.turn]}'s own): bid fewest instead")

    def _bid_problem(self, flags: int, may_pass: bool) -> str:
        name = self.names[self.turn]
        if flags == NO_BID:
            if not self.rules.options["no_bids"]:
                return "no bids are not allowed (the optional rule 'no bids' is off)"
            return f"{name} has already used the one no bid allowed per game"
        if flags & DOUBLE and not self.rules.options["double_fewest"]:
            return "double fewest is not allowed (the optional rule is off)"
        if flags & NO_BID:
            return "a no bid cannot be combined with other bids"
        return "a bid is one or more of most blue, most red, most black and fewest"

    def _renege(self, card: int) -> None:
        """Table mode: a renege scores -15 and the hand is replayed with a new deal."""
        seat = self.turn
        self.renege = (seat, card)
        self.reneges.append((self.hand_no, seat, card))
        self._force_play(card)
        self.row[seat] += RENEGE_PENALTY
        for s, flags in enumerate(self.bids):  # the replayed hand may be passed again
            if flags == NO_BID:
                self.no_bid_used[s] = False
        self.pending = "redeal"
        self.phase = PHASE_DEAL
        self.turn = -1

    def taken(self) -> list[list[int]]:
        """Cards taken per seat per suit (blue, red, black) so far this hand."""
        return taken_by_suit(self)

    def score_parts(self) -> list[dict[str, int]] | None:
        """Once a hand is over: each seat's points per bid, for the hat, and for a renege.

        E.g. ``{"most-blue": 9, "fewest": -7, "hat": -10}``; None while the hand is played.
        """
        parts: list[dict[str, int]] = [{} for _ in range(self.rules.players)]
        if self.renege is not None and self.pending == "redeal":
            parts[self.renege[0]]["renege"] = RENEGE_PENALTY
            return parts
        if self.pending != "next" or not self.sheet:
            return None
        taken = self.taken()
        dealt = [sum(column) for column in zip(*taken, strict=True)]
        score_hand(self.bids, taken, dealt, self.size, self.hat_holder(), self.hat_value,
                   self.rules.options["negative_scoring"], parts)
        penalties = self.sheet[-1][:]  # the row also holds this hand's renege penalties
        for seat, row_total in enumerate(penalties):
            earned = sum(parts[seat].values())
            if row_total != earned:
                parts[seat]["renege"] = row_total - earned
        return parts

    def dealt_suits(self) -> list[int]:
        """How many cards of each suit (blue, red, black) were dealt this hand."""
        counts = [0, 0, 0]
        for cards in self.dealt_hands:
            for card in cards:
                counts[DECK.suit_of[card]] += 1
        return counts

    def hat_holder(self) -> int:
        """Who holds Bob's Hat: the last to take a trick with a 14 or 15 in it, else -1."""
        return last_taker(self, HAT_CARDS)

    def _end_hand(self) -> None:
        taken = self.taken()
        dealt = [sum(column) for column in zip(*taken, strict=True)]  # every card is taken
        scores = score_hand(self.bids, taken, dealt, self.size,
                            self.hat_holder(), self.hat_value,
                            self.rules.options["negative_scoring"])
        row = [a + b for a, b in zip(self.row, scores, strict=True)]
        self.sheet.append(row)
        self.row = [0] * self.rules.players
        self.phase = PHASE_OVER if self.hand_no == self.rules.options["hands"] else PHASE_DEAL
        self.pending = "next"
        self.turn = -1

    # -- readable actions ----------------------------------------------------------------
    def action_text(self, action: int) -> str:
        if 0 <= action < len(DECK):
            return f"play {DECK.codes[action]}"
        if action == HAT_PLUS:
            return "hat +10"
        if action == HAT_MINUS:
            return "hat -10"
        if BID < action < HAT_PLUS:
            return f"bid {bid_text(action - BID)}"
        raise CardCodeError(f"{action} is not a Where's Bob's Hat? action")

    def parse_action(self, text: str) -> int:
        verb, _, rest = text.strip().partition(" ")
        rest = rest.strip()
        if verb == "play":
            return DECK.parse(rest)
        if verb == "bid":
            return BID + parse_bid(rest)
        if verb == "hat" and rest in ("+10", "10", "-10"):
            return HAT_MINUS if rest == "-10" else HAT_PLUS
        if verb == "hat":
            raise CardCodeError(f"Bob's Hat is worth +10 or -10, not {rest!r}: 'hat +10' or "
                                "'hat -10'")
        raise CardCodeError(
            f"{text!r} is not a Where's Bob's Hat? action; actions look like 'hat -10', "
            "'bid most-blue,fewest' or 'play blue14'")

    # -- progress ------------------------------------------------------------------------
    def is_game_over(self) -> bool:
        return self.phase == PHASE_OVER

    def hand_number(self) -> int:
        return self.hand_no

    def hand_over(self) -> bool:
        return self.pending == "next"

    def hand_scores(self) -> list[int]:
        """The hand's points so far (its renege penalties until it is scored), and once it is
        over its row of the score sheet (which holds those penalties too)."""
        if self.pending == "next" and self.sheet:
            return self.sheet[-1][:]
        return self.row[:]

    def totals(self) -> list[int]:
        """Finished hands plus the current hand's penalties (a renege counts at once)."""
        return [sum(col) for col in zip(*self.sheet, self.row, strict=True)]

    # what clone copies (see TrickTaking.clone)
    _cloned_lists = ("bids", "no_bid_used", "row", "reneges")
    _cloned_tables = ("sheet",)

    # -- what a seat may see ------------------------------------------------------------
    def _hat_hidden_from(self, seat: int, holder: int | None = None) -> bool:
        """Under ``hat_reveal=when-found`` only the dealer knows the hat's value until a trick
        with a 14 or 15 in it is taken (a hand with no 14 or 15 dealt never reveals it)."""
        if self.rules.options["hat_reveal"] != "when-found" or seat == self.dealer:
            return False
        return (self.hat_holder() if holder is None else holder) < 0

    def _bids_secret(self) -> bool:
        """Under ``secret_bidding`` the bids are shown together once everyone has bid."""
        return bool(self.rules.options["secret_bidding"]) and self.phase == PHASE_BID

    def redact_action(self, actor: int, text: str, seat: int) -> str:
        """``hat -10`` reads ``hat chosen`` while the value is hidden from ``seat``; another
        seat's bid reads ``bid (secret)`` until all have bid under secret bidding."""
        if actor == seat:
            return text
        if text.startswith("hat ") and self._hat_hidden_from(seat):
            return "hat chosen"
        if text.startswith("bid ") and self._bids_secret():
            return "bid (secret)"
        return text

    def hidden_texts(self, seat: int) -> list[tuple[int, str]]:
        out: list[tuple[int, str]] = []
        if self.hat_value and self._hat_hidden_from(seat):
            out += [(self.dealer, "hat +10"), (self.dealer, "hat -10")]
        if self._bids_secret():
            out += [(s, f"bid {bid_text(flags)}") for s, flags in enumerate(self.bids)
                    if flags and s != seat]
        return out

    def seat_fields(self, seat: int | None) -> dict[str, Any]:
        """Other hands are hidden from ``seat``, and so are secret bids and a hidden hat value
        (while that seat cannot know them yet), and the legal actions of another seat."""
        bids_visible = not self._bids_secret()
        bids: list[list[str] | None] = []
        for s, flags in enumerate(self.bids):
            shown = flags and (seat is None or seat == s or bids_visible)
            bids.append(bid_text(flags).split(",") if shown else None)
        holder = self.hat_holder()
        hat_known = seat is None or not self._hat_hidden_from(seat, holder)
        return {
            "legal": self.legal_texts_for(seat),
            "hat": {"value": self.hat_value if (self.hat_value and hat_known) else None,
                    "chosen": bool(self.hat_value),
                    "holder": None if holder < 0 else holder},
            "hands": self.hands_snapshot(seat),
            "bids": bids,
        }

    def snapshot(self, seat: int | None = None) -> dict[str, Any]:
        """The position; with ``seat``, only what that seat may see (:meth:`seat_fields`)."""
        taken = self.taken()
        to_act = self.to_act()
        pos: dict[str, Any] = {
            "game": self.rules.name,
            "phase": self.phase,
            "hand": self.hand_no,
            "attempt": self.attempt,
            "hand_over": self.hand_over(),
            "hand_size": self.size,
            "dealer": self.dealer,
            "to_act": None if to_act < 0 else to_act,
            "legal": None,  # this and the other seat fields: filled in below, in this order
            "trump": None if self.trump < 0 else SUITS[self.trump],
            "hat": None,
            "hands": None,
            "hand_counts": self.hand_counts(),
            "bids": None,
            "trick": self.current_trick_snapshot(),
            "tricks": self.tricks_snapshot(),
            "taken": [dict(zip(SUITS, t, strict=True)) for t in taken],
            "taken_total": [sum(t) for t in taken],
            "renege": None if self.renege is None else {
                "seat": self.renege[0], "card": DECK.codes[self.renege[1]],
                "penalty": RENEGE_PENALTY, "redeal": True},
            "hand_scores": self.hand_scores(),
            "score_parts": self.score_parts(),
            "sheet": [r[:] for r in self.sheet],
            "totals": self.totals(),
        }
        pos.update(self.seat_fields(seat))
        return pos


__all__ = ["BobsHatRules", "BobsHatState", "score_hand", "DECK", "IllegalActionError", "MOST",
           "FEWEST", "DOUBLE", "NO_BID", "BID_WORDS"]
BobsHatRules.state_class = BobsHatState
