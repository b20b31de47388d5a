"""A rubber of Whot in progress: the cut, the deal, turns, the stock, scoring, views."""

from __future__ import annotations

from typing import Any

from ...cards import seeded_cards
from ...errors import CardCodeError, IllegalActionError, brief
from ...game import State
from ...words import names_or, with_article
from .pack import (
    ANNOUNCE,
    CALL,
    CODES,
    DECK,
    DRAW,
    ENDED_BLOCKED,
    ENDED_CAP,
    ENDED_WON,
    FACE,
    GENERAL_MARKET,
    HAND_SIZE,
    HOLD_ON,
    IS_WHOT,
    MATCH_ALL,
    MATCH_CARD,
    MATCH_SYMBOL,
    NAMES,
    NCARDS,
    NUM,
    PASS,
    PHASE_DEAL,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SETUP,
    PICK_COUNT,
    PICK_TWO,
    SPECIAL_NUMBER,
    SUSPENSION,
    SYM,
    SYMBOL_PLURALS,
    SYMBOLS,
    VALUE,
    WHOT_ACTIONS,
    WHOT_NUMBER,
    cut_rank,
    parse_symbol,
)
from .rules import WhotRules

# "play circle7" -> circle7: a replay's own texts for plain cards, read without parsing
_PLAIN_PLAYS = {f"play {code}": card for card, code in enumerate(CODES) if not IS_WHOT[card]}


class WhotState(State):
    """A rubber of Whot in progress (one protocol "hand" is one game of Whot)."""

    rules: WhotRules
    names: list[str]

    def __init__(self, rules: WhotRules) -> None:  # type: ignore[override]
        super().__init__(rules)
        n = rules.players
        self.names = [f"seat {i + 1}" for i in range(n)]
        self.n = n
        self.ncards = rules.ncards
        self.effects = rules.effects
        self.cap = rules.options["max_turns"] or (1 << 62)
        self.slow = rules.nigerian  # the flat path of apply() is for classic Whot
        self.last_card: bool = rules.options["last_card"]
        self.table_mode = rules.options["mode"] == "table"
        self.phase = PHASE_SETUP
        self.cuts: list[list[int | None]] = []
        self.first_dealer = -1
        self.dealer = -1
        self.game_no = 0
        self.hands: list[list[int]] = [[] for _ in range(n)]  # plain cards, in arrival order
        self.whots: list[list[int]] = [[] for _ in range(n)]  # WHOT cards held
        self.stock: list[int] = []  # top card last
        self.pile: list[int] = []  # oldest first; the call card last
        self.match = MATCH_ALL
        self.call_symbol = -1  # the symbol to follow (the called one after a WHOT)
        self.lead = True  # the first card of a game is still to be led
        self.turn = -1
        self.pending = 0  # cards the player to act must pick (Nigerian Pick Two / Three)
        self.pending_effect = 0
        self.passes = 0  # consecutive passes (nothing to play, nothing to draw)
        self.turns = 0  # actions in this game, for the safety cap
        self.turnovers = 0
        self.ended = ""
        self.winner = -1
        self.sheet: list[list[int]] = []
        self.row = [0] * n
        self.kitty = [0] * n
        self.misplays: list[tuple[int, int, int]] = []  # (game, seat, card) in table mode
        self.last_card_calls: list[tuple[int, int]] = []  # (game, seat) announced
        self.last_card_missed: list[tuple[int, int]] = []  # (game, seat) forgot: penalty
        self.last_drew = [-1] * n  # the symbol each seat last drew on (public), -1: played since
        self.dealt: tuple[int, ...] = ()

    # -- chance steps ------------------------------------------------------------------------
    def chance_kind(self) -> str | None:
        phase = self.phase
        if phase == PHASE_SETUP:
            return "setup"
        if phase == PHASE_DEAL:
            return "deal"
        return None

    def seeded_chance(self, seed: int | str) -> dict[str, Any]:
        if self.phase == PHASE_SETUP:
            return {"cuts": [[None if c is None else CODES[c] for c in row]
                             for row in self._seeded_cuts(seed)]}
        if self.phase != PHASE_DEAL:
            raise self.refuse("no deal is due: the game is still being played")
        hands, stock = self._seeded_deal(seed)
        return {"hands": [[CODES[c] for c in h] for h in hands],
                "stock": [CODES[c] for c in stock]}

    def _seeded_cuts(self, seed: int | str) -> list[list[int | None]]:
        """Everyone cuts; the tied lowest cut again until one is lowest."""
        n = self.n
        cutting = list(range(n))
        rounds: list[list[int | None]] = []
        while True:
            cards = seeded_cards(seed, "cut", len(rounds), population=self.ncards,
                                 count=len(cutting))
            row: list[int | None] = [None] * n
            for seat, card in zip(cutting, cards, strict=True):
                row[seat] = card
            rounds.append(row)
            low = min(cut_rank(c) for c in cards)
            cutting = [s for s in cutting if cut_rank(row[s]) == low]  # type: ignore[arg-type]
            if len(cutting) == 1:
                return rounds

    def _upcoming_dealer(self) -> int:
        return (self.first_dealer + self.game_no) % self.n

    def _seeded_deal(self, seed: int | str) -> tuple[list[list[int]], list[int]]:
        """The hands (seat order, cards in the order received) and the stock (top first)."""
        order = seeded_cards(seed, "deal", self.game_no + 1, population=self.ncards,
                             count=self.ncards)
        return self._split_pack(order, self._upcoming_dealer())

    def _split_pack(self, order: list[int], dealer: int) -> tuple[list[list[int]], list[int]]:
        n = self.n
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n * HAND_SIZE):
            hands[(dealer + 1 + i) % n].append(order[i])
        return hands, order[n * HAND_SIZE:]

    def deal_seeded(self, seed: int | str) -> None:
        """Same as ``apply_chance(seeded_chance(seed))``: a deal without the round trip via
        codes; the cut for first dealer through its record."""
        if self.phase == PHASE_SETUP:
            self.apply_chance(self.seeded_chance(seed))
            return
        if self.phase != PHASE_DEAL:
            raise self.refuse("no deal is due")
        self._begin_game(*self._seeded_deal(seed))

    def apply_chance(self, record: Any) -> None:
        if self.phase == PHASE_SETUP:
            self._apply_cuts(record)
            return
        if self.phase != PHASE_DEAL:
            raise self.refuse("no deal is due: the game is still being played"
                              if self.phase == PHASE_PLAY else "the rubber is over")
        try:
            checked = self._check_deal(record)
        except IllegalActionError as err:  # named with the game being dealt, not the last one
            raise IllegalActionError(err.reason, hand=self.game_no + 1,
                                     action=err.action) from None
        self._begin_game(*checked)

    def _apply_cuts(self, record: Any) -> None:
        n = self.n
        if not isinstance(record, dict) or set(record) != {"cuts"} or \
                not isinstance(record["cuts"], list) or not record["cuts"]:
            raise self.refuse('the Whot setup is the cut for first dealer: {"cuts": [[one '
                              'card per seat], ...then the tied lowest cut again]}')
        cutting = list(range(n))
        rounds: list[list[int | None]] = []
        for r, row in enumerate(record["cuts"]):
            if not cutting or len(cutting) == 1:
                raise self.refuse(f"cut round {r + 1} is one too many: the lowest cut was "
                                  "already alone")
            if not isinstance(row, list) or len(row) != n:
                raise self.refuse(f"cut round {r + 1} needs one entry per seat ({n}), null "
                                  "for a seat that does not cut")
            parsed: list[int | None] = [None] * n
            for seat, code in enumerate(row):
                if (code is None) != (seat not in cutting):
                    who = self.names[seat]
                    raise self.refuse(
                        f"cut round {r + 1}: {who} " + ("must cut: every player cuts first, "
                                                        "then the tied lowest again"
                                                        if code is None else
                                                        "does not cut again: only the tied "
                                                        "lowest do"))
                if code is not None:
                    card = self._parse_card(code)
                    if card in parsed:
                        raise self.refuse(f"cut round {r + 1} names {NAMES[card]} twice")
                    parsed[seat] = card
            rounds.append(parsed)
            low = min(cut_rank(parsed[s]) for s in cutting)  # type: ignore[arg-type]
            cutting = [s for s in cutting if cut_rank(parsed[s]) == low]  # type: ignore
        if len(cutting) != 1:
            raise self.refuse("the cut ends in a tie for lowest: the tied players cut again")
        self.cuts = rounds
        self.first_dealer = cutting[0]
        self.phase = PHASE_DEAL

    def _parse_card(self, code: Any) -> int:
        if not isinstance(code, str):
            raise self.refuse(f"{brief(code)} is not a card code")
        card = DECK.parse(code)
        if card >= self.ncards:
            raise CardCodeError(f"{code!r} is a card of the second pack, which this game "
                                "does not use")
        return card

    def _check_deal(self, record: Any) -> tuple[list[list[int]], list[int]]:
        n = self.n
        if not isinstance(record, dict) or set(record) != {"hands", "stock"}:
            raise self.refuse('a Whot deal is {"hands": [six cards per seat, in the order '
                              'dealt], "stock": [the rest, top card first]}')
        hands, stock = record["hands"], record["stock"]
        if not isinstance(hands, list) or len(hands) != n:
            raise self.refuse(f"the deal must give a hand to each of the {n} players")
        parsed: list[list[int]] = []
        for seat, codes in enumerate(hands):
            if not isinstance(codes, list) or len(codes) != HAND_SIZE:
                got = len(codes) if isinstance(codes, list) else 0
                raise self.refuse(f"each player is dealt six cards, but {self.names[seat]} "
                                  f"was dealt {got}")
            parsed.append([self._parse_card(code) for code in codes])
        if not isinstance(stock, list):
            raise self.refuse("the stock is a list of card codes, top card first")
        rest = [self._parse_card(code) for code in stock]
        seen = [c for h in parsed for c in h] + rest
        if len(set(seen)) != len(seen):
            raise self.refuse("the deal names a card twice; keep the copies of two packs apart "
                              "('circle7' and 'circle7/2')")
        if len(seen) != self.ncards:
            missing = sorted(set(range(self.ncards)) - set(seen))
            raise self.refuse(f"the deal must hold the whole pack ({self.ncards} cards); "
                              f"missing {', '.join(NAMES[c] for c in missing[:5])}")
        return parsed, rest

    def _begin_game(self, hands: list[list[int]], stock: list[int]) -> None:
        self.game_no += 1
        self.dealer = (self.first_dealer + self.game_no - 1) % self.n
        self.hands = [[c for c in h if not IS_WHOT[c]] for h in hands]
        self.whots = [[c for c in h if IS_WHOT[c]] for h in hands]
        self.stock = stock[::-1]
        self.pile = []
        self.match = MATCH_ALL
        self.call_symbol = -1
        self.lead = True
        self.turn = (self.dealer + 1) % self.n
        self.pending = 0
        self.pending_effect = 0
        self.passes = 0
        self.turns = 0
        self.turnovers = 0
        self.ended = ""
        self.winner = -1
        self.row = [0] * self.n
        self.last_drew = [-1] * self.n
        self.dealt = tuple(range(self.ncards))
        self.phase = PHASE_PLAY

    # -- decisions ---------------------------------------------------------------------------
    def to_act(self) -> int:
        return self.turn if self.phase is PHASE_PLAY else -1

    def legal_actions(self) -> list[int]:
        if self.phase is not PHASE_PLAY:
            return []
        seat = self.turn
        if self.pending:
            return self._legal_pending(seat)
        match = self.match
        legal = [c for c in self.hands[seat] if match[c]]
        whots = self.whots[seat]
        if whots:
            for w in whots:
                legal.extend(WHOT_ACTIONS[w])
        if self.lead:
            return legal
        if self.stock or len(self.pile) > 1:
            legal.append(DRAW)
        elif not legal:
            legal.append(PASS)
        if self.last_card and len(self.hands[seat]) + len(whots) == 2:
            legal.extend([a + ANNOUNCE for a in legal if a < DRAW])
        return legal

    def _legal_pending(self, seat: int) -> list[int]:
        legal = []
        if self.rules.stacking[self.pending_effect]:
            number = SPECIAL_NUMBER[self.pending_effect]
            legal = [c for c in self.hands[seat] if NUM[c] == number]
        legal.append(DRAW if self.stock or len(self.pile) > 1 else PASS)
        if self.last_card and len(self.hands[seat]) + len(self.whots[seat]) == 2:
            legal.extend([a + ANNOUNCE for a in legal if a < DRAW])
        return legal

    def apply(self, action: int) -> None:
        """Apply ``action`` for the seat to act; raises :class:`IllegalActionError`.

        Classic Whot takes the flat path below (the hot path of every playout: a plain play,
        a WHOT, a draw); the Nigerian rules, the last-card call and passes take ``_apply_slow``.
        """
        if self.phase is not PHASE_PLAY:
            raise self.refuse("the game is over; the next game must be dealt"
                              if self.phase == PHASE_DEAL else
                              "the cut for first dealer comes first"
                              if self.phase == PHASE_SETUP else "the rubber is over",
                              self._text(action))
        seat = self.turn
        if self.slow or action > DRAW or action < 0:
            self._apply_slow(seat, action)
            return
        if action == DRAW:
            if self.lead or not self._take(seat):
                self._apply_slow(seat, action)  # refuses, saying why
                return
            self.passes = 0
            self.last_drew[seat] = self.call_symbol
            self.turn = seat + 1 if seat + 1 < self.n else 0
        elif action < CALL:
            hand = self.hands[seat]
            if action not in hand or not self.match[action]:
                self._misplay(seat, action)
                return
            if self._place_card(seat, action):
                return
            self.turn = seat + 1 if seat + 1 < self.n else 0
        else:
            if not self._play_whot(seat, action):
                return
        self.turns += 1
        if self.turns >= self.cap:
            self._end_game(ENDED_CAP, -1)

    def _play_whot(self, seat: int, action: int) -> bool:
        """Play a WHOT with its call; False when that ended the game."""
        card = action & 127
        sym = (action - CALL) >> 7
        whots = self.whots[seat]
        if card >= self.ncards or not IS_WHOT[card] or sym >= len(SYMBOLS) or card not in whots:
            found = self._play_refusal(seat, action)
            raise self.refuse(found[0] if found else "no such action", self._text(action),
                              rule=found[1] if found else None)
        whots.remove(card)
        self.pile.append(card)
        self.match = MATCH_SYMBOL[sym]
        self.call_symbol = sym
        self.lead = False
        self.passes = 0
        self.last_drew[seat] = -1
        if not whots and not self.hands[seat]:
            self._end_game(ENDED_WON, seat)
            return False
        self.turn = seat + 1 if seat + 1 < self.n else 0
        return True

    def _apply_slow(self, seat: int, action: int) -> None:
        """Draws, passes, the Nigerian rules and the last-card call: not flat, but complete."""
        announce = False
        if action >= ANNOUNCE:
            announce = True
            action -= ANNOUNCE
            if not self.last_card:
                raise self.refuse("'last card' is only announced under the Nigerian rule "
                                  "last_card", self._text(action + ANNOUNCE))
            if action >= DRAW:
                raise self.refuse("'last card' is announced with a play",
                                  self._text(action + ANNOUNCE))
            held = len(self.hands[seat]) + len(self.whots[seat])
            if held != 2 and self._play_problem(seat, action) is None:
                raise self.refuse(f"'last card' is announced by a play that leaves one card; "
                                  f"{self.names[seat]} would have {held - 1}",
                                  self._text(action + ANNOUNCE))
        if action == DRAW or action == PASS:
            legal = self.legal_actions()
            if action not in legal:
                raise self.refuse(self._draw_problem() if action == DRAW else
                                  f"{self.names[seat]} can " +
                                  ("draw" if DRAW in legal else "play") +
                                  ", so cannot pass; a pass is only for a player who can "
                                  "neither play nor draw", self._text(action))
            self._draw_turn(seat)
        elif 0 <= action < DRAW and self._play_problem(seat, action) is not None:
            self._misplay(seat, action)
            return
        elif 0 <= action < CALL:
            if self._place_card(seat, action):
                return
            self._after_play(seat, announce)
            effect = self.effects[action]
            if effect:
                self._special(seat, effect)
            else:
                self.turn = seat + 1 if seat + 1 < self.n else 0
        elif CALL <= action < DRAW:
            if not self._play_whot(seat, action):
                return
            self._after_play(seat, announce)
        else:
            raise self.refuse(f"{action} is not a Whot action", self._text(action))
        self.turns += 1
        if self.turns >= self.cap and self.phase is PHASE_PLAY:
            self._end_game(ENDED_CAP, -1)

    def _place_card(self, seat: int, card: int) -> bool:
        """Play a plain card the seat holds, which follows the call: it becomes the call
        card. Returns True when it was the seat's last card (the game is won and over)."""
        hand = self.hands[seat]
        hand.remove(card)
        self.pile.append(card)
        self.match = MATCH_CARD[card]
        self.call_symbol = SYM[card]
        self.lead = False
        self.passes = 0
        self.last_drew[seat] = -1
        if not hand and not self.whots[seat]:
            self._end_game(ENDED_WON, seat)
            return True
        return False

    def _after_play(self, seat: int, announced: bool) -> None:
        """The last-card call (Nigerian): a play that leaves one card must announce it."""
        if not self.last_card:
            return
        if len(self.hands[seat]) + len(self.whots[seat]) != 1:
            return
        if announced:
            self.last_card_calls.append((self.game_no, seat))
            return
        self.last_card_missed.append((self.game_no, seat))
        for _ in range(self.rules.options["last_card_penalty"]):
            if not self._take(seat):
                break

    def _special(self, seat: int, effect: int) -> None:
        """A Nigerian special card's effect, once it is played (and not as the last card)."""
        n = self.n
        nxt = seat + 1 if seat + 1 < n else 0
        if effect == HOLD_ON:
            self.turn = seat
        elif effect == SUSPENSION:
            self.turn = (seat + 2) % n
        elif effect == GENERAL_MARKET:
            for k in range(1, n):
                if not self._take((seat + k) % n):
                    break
            self.turn = seat
        else:  # a pick: stacked on a pick already answered, it grows
            self.pending += PICK_COUNT[effect]
            self.pending_effect = effect
            self.turn = nxt

    def _draw_turn(self, seat: int) -> None:
        """Draw (one card, or every pending card), or pass when there is nothing to draw."""
        count = self.pending or 1
        drew = False
        for _ in range(count):
            if not self._take(seat):
                break
            drew = True
        self.pending = 0
        self.pending_effect = 0
        if drew:
            self.passes = 0
            self.last_drew[seat] = self.call_symbol
        else:
            self.passes += 1
        self.turn = seat + 1 if seat + 1 < self.n else 0
        if self.passes >= self.n:
            self._end_game(ENDED_BLOCKED, -1)

    def _take(self, seat: int) -> bool:
        """``seat`` takes the top card of the stock (turning the pile over when it is empty)."""
        stock = self.stock
        if not stock:
            if len(self.pile) < 2:
                return False
            stock = self._turn_over()
        card = stock.pop()
        if IS_WHOT[card]:
            self.whots[seat].append(card)
        else:
            self.hands[seat].append(card)
        return True

    def _turn_over(self) -> list[int]:
        """The stock is exhausted: the call card stays face up, and the rest of the pile is
        turned face down without shuffling. Turning a face-up pile over puts its bottom card,
        the oldest played, on top: the new stock is drawn oldest card first."""
        pile = self.pile
        self.stock = pile[-2::-1]  # top (drawn first) last: the oldest card
        self.pile = [pile[-1]]
        self.turnovers += 1
        return self.stock

    def _misplay(self, seat: int, action: int) -> None:
        """A held card that does not follow the call: refused, or (table mode) taken back, and
        the player draws, as the rules say he must when he does not play a card."""
        found = self._play_refusal(seat, action)
        problem, rule = found if found is not None else (None, None)
        card = action if action < CALL else action & 127
        held = 0 <= action < DRAW and card < self.ncards and (
            card in self.whots[seat] if action >= CALL else card in self.hands[seat])
        if self.table_mode and problem is not None and held and \
                not (action < CALL and IS_WHOT[card]):
            self.misplays.append((self.game_no, seat, card))
            self._draw_turn(seat)
            self.turns += 1
            if self.turns >= self.cap and self.phase is PHASE_PLAY:
                self._end_game(ENDED_CAP, -1)
            return
        raise self.refuse(problem or f"{self._text(action)} is not a Whot action here",
                          self._text(action), rule=rule)

    def _draw_problem(self) -> str:
        if self.lead:
            return (f"{self.names[self.turn]} leads: the game begins with a card played from "
                    "the hand")
        return ("there is nothing to draw: the stock is empty and the pile holds only the call "
                "card; a player who cannot play passes")

    def _play_problem(self, seat: int, action: int) -> str | None:
        """Why a play may not be made now, in the words of the rules; None for a legal play
        (and for an action that is not a play at all)."""
        found = self._play_refusal(seat, action)
        return None if found is None else found[0]

    def _play_refusal(self, seat: int, action: int) -> tuple[str, str] | None:
        """Why a play may not be made now, and the rule it breaks naming no card of the hand
        (what a hint says); None for a legal play (and for an action that is no play)."""
        name = self.names[seat]
        if action < 0 or action >= DRAW:
            return None
        card = action if action < CALL else action & 127
        if card >= self.ncards or (action >= CALL and (
                not IS_WHOT[card] or (action - CALL) >> 7 >= len(SYMBOLS))):
            text = f"{action} is not a card play of this game"
            return text, text
        if action < CALL and IS_WHOT[card]:
            text = ("a WHOT calls the symbol that must follow: circle, triangle, cross, square "
                    "or star")
            return text, text
        if card not in self.hands[seat] and card not in self.whots[seat]:
            text = f"{name} does not hold {NAMES[card]}"
            return text, text
        if self.pending:
            what = with_article(SPECIAL_NUMBER[self.pending_effect])
            answer = (f" or answer with {what}" if self.rules.stacking[self.pending_effect]
                      else "")
            if action < CALL and self.rules.stacking[self.pending_effect] and \
                    NUM[card] == SPECIAL_NUMBER[self.pending_effect]:
                return None
            rule = f"{name} must pick {self.pending} (draw){answer}"
            return f"{rule}: {NAMES[card]} cannot be played", rule
        if action >= CALL or self.lead or self.match[card]:
            return None
        top = self.pile[-1]
        if IS_WHOT[top]:
            called = SYMBOLS[self.call_symbol]
            play = f"play {names_or(['a ' + called, 'a WHOT'])}, or draw"
            rule = f"the WHOT called for {SYMBOL_PLURALS[self.call_symbol]}: {play}"
            return (f"{NAMES[card]} is not a {called}: the WHOT called for "
                    f"{SYMBOL_PLURALS[self.call_symbol]}; {play}"), rule
        symbol, number = SYMBOLS[SYM[top]], NUM[top]
        play = f"play {names_or(['a ' + symbol, with_article(number), 'a WHOT'])}, or draw"
        return (f"{NAMES[card]} matches neither the call card's symbol ({symbol}) nor its "
                f"number ({number}): {play}",
                f"a card must match the call card's symbol ({symbol}) or its number "
                f"({number}): {play}")

    def _text(self, action: int) -> str:
        try:
            return self.action_text(action)
        except CardCodeError:
            return str(action)

    # -- the end of a game -------------------------------------------------------------------
    def _end_game(self, ended: str, winner: int) -> None:
        row = [sum(VALUE[c] for c in h) + WHOT_NUMBER * len(w)
               for h, w in zip(self.hands, self.whots, strict=True)]
        self.row = row
        self.sheet.append(row[:])
        top = max(row)
        if top > 0:  # the highest score puts a counter in the kitty; tied highest each do
            for s in range(self.n):
                if row[s] == top:
                    self.kitty[s] += 1
        self.ended = ended
        self.winner = winner
        self.pending = 0
        self.turn = -1
        self.phase = PHASE_OVER if self.game_no >= self.rules.games else PHASE_DEAL

    # -- readable actions --------------------------------------------------------------------
    def action_text(self, action: int) -> str:
        suffix = ""
        if action >= ANNOUNCE:
            action -= ANNOUNCE
            suffix = " last card"
        if 0 <= action < NCARDS:
            return f"play {CODES[action]}{suffix}"
        if CALL <= action < DRAW:
            card, sym = action & 127, (action - CALL) >> 7
            if card < NCARDS and IS_WHOT[card] and sym < len(SYMBOLS):
                return f"play {CODES[card]} call {SYMBOLS[sym]}{suffix}"
        if not suffix and action == DRAW:
            return "draw"
        if not suffix and action == PASS:
            return "pass"
        raise CardCodeError(f"{action} is not a Whot action")

    def parse_action(self, text: str) -> int:
        """``play circle7``, ``play whot20 call star``, ``... last card``, ``draw``, ``pass``.

        Copies of a face are interchangeable in play: naming ``circle7`` (or ``whot20``) plays
        the copy the player holds, so people can type what they see; the log keeps the copy.
        """
        if text == "draw":  # the canonical texts, as a replay stores them: no parsing
            return DRAW
        card = _PLAIN_PLAYS.get(text, -1)
        if 0 <= card < self.ncards:
            return self._held_copy(card)
        words = text.strip().lower().split()
        announce = 0
        if words[-2:] == ["last", "card"]:
            words = words[:-2]
            announce = ANNOUNCE
        if words == ["draw"] and not announce:
            return DRAW
        if words == ["pass"] and not announce:
            return PASS
        if len(words) >= 2 and words[0] == "play":
            card = self._parse_card(words[1])
            card = self._held_copy(card)
            if IS_WHOT[card]:
                if len(words) != 4 or words[2] != "call":
                    raise CardCodeError(f"{text!r}: a WHOT names the symbol that must follow, "
                                        f"as in 'play {CODES[card]} call circle'")
                return CALL + 128 * parse_symbol(words[3]) + card + announce
            if len(words) == 2:
                return card + announce
        if words[:1] == ["call"]:
            raise CardCodeError(f"{text!r}: a WHOT calls its symbol as it is played, as in "
                                "'play whot20 call star'; a call is not an action of its own")
        raise CardCodeError(f"{text!r} is not a Whot action; actions look like 'play circle7', "
                            "'play whot20 call star', 'play star3 last card', 'draw' or 'pass'")

    def _held_copy(self, card: int) -> int:
        seat = self.turn
        if seat < 0:
            return card
        held = self.whots[seat] if IS_WHOT[card] else self.hands[seat]
        if card in held:
            return card
        same = sorted(c for c in held if FACE[c] == FACE[card])
        return same[0] if same else card

    # -- progress ----------------------------------------------------------------------------
    def is_game_over(self) -> bool:
        return self.phase == PHASE_OVER

    def hand_number(self) -> int:
        return self.game_no

    def hand_over(self) -> bool:
        return self.ended != ""

    def hand_scores(self) -> list[int]:
        """The current game's penalty points: zeros while it is played, final once it ends."""
        return self.row[:]

    def totals(self) -> list[int]:
        n = self.n
        return [sum(row[s] for row in self.sheet) for s in range(n)]

    def rubber_winners(self) -> list[int]:
        """The seats with the lowest total once the rubber is over (they share the kitty)."""
        return self.rules.winners(self.totals()) if self.phase == PHASE_OVER else []

    def held(self, seat: int) -> list[int]:
        """The cards ``seat`` holds, WHOTs last, each group in card order."""
        return sorted(self.hands[seat]) + sorted(self.whots[seat])

    def clone(self) -> WhotState:
        other = WhotState.__new__(WhotState)
        other.__dict__.update(self.__dict__)
        other.cuts = [row[:] for row in self.cuts]
        other.hands = [h[:] for h in self.hands]
        other.whots = [w[:] for w in self.whots]
        other.stock = self.stock[:]
        other.pile = self.pile[:]
        other.sheet = [row[:] for row in self.sheet]
        other.row = self.row[:]
        other.kitty = self.kitty[:]
        other.misplays = self.misplays[:]
        other.last_card_calls = self.last_card_calls[:]
        other.last_card_missed = self.last_card_missed[:]
        other.last_drew = self.last_drew[:]
        other.names = self.names[:]
        return other

    def dealt_cards(self) -> list[int]:
        return list(self.dealt)

    def accounted_cards(self) -> list[int]:
        if not self.dealt:
            return []
        cards = [c for h in self.hands for c in h]
        for w in self.whots:
            cards.extend(w)
        cards.extend(self.stock)
        cards.extend(self.pile)
        return cards

    def hidden_cards(self, seat: int) -> list[int]:
        """The other hands and the stock (its order too), except a card another player was
        seen to misplay in this game and took back: the whole table saw it."""
        shown = {(s, c) for g, s, c in self.misplays if g == self.game_no}
        hidden = list(self.stock)
        for s in range(self.n):
            if s != seat:
                hidden.extend(c for c in self.hands[s] + self.whots[s] if (s, c) not in shown)
        return hidden

    def seat_fields(self, seat: int | None) -> dict[str, Any]:
        """The other hands are hidden from ``seat`` (``None``), and so are another seat's
        legal actions."""
        return {
            "legal": self.legal_texts_for(seat),
            "hands": [[CODES[c] for c in self.held(s)] if seat is None or seat == s else None
                      for s in range(self.n)],
        }

    def snapshot(self, seat: int | None = None) -> dict[str, Any]:
        """The position; with ``seat``, the other hands are hidden (``None``), and so are the
        stock's cards and order (only its size is shown)."""
        to_act = self.to_act()
        top = self.pile[-1] if self.pile else -1
        pending = {"cards": self.pending,
                   "card": "pick-two" if self.pending_effect == PICK_TWO else "pick-three"} \
            if self.pending else None
        pos: dict[str, Any] = {
            "game": self.rules.name,
            "phase": self.phase,
            "hand": self.game_no,
            "games": self.rules.games,
            "dealer": None if self.dealer < 0 else self.dealer,
            "first_dealer": None if self.first_dealer < 0 else self.first_dealer,
            "leader": None if self.dealer < 0 else (self.dealer + 1) % self.n,
            "to_act": None if to_act < 0 else to_act,
            "legal": None,  # this and "hands": the seat fields, filled in below
            "hands": None,
            "hand_counts": [len(h) + len(w) for h, w in zip(self.hands, self.whots,
                                                             strict=True)],
            "call_card": CODES[top] if top >= 0 else None,
            "called_symbol": SYMBOLS[self.call_symbol] if top >= 0 and IS_WHOT[top] else None,
            "follow": None if top < 0 else {"symbol": SYMBOLS[self.call_symbol],
                                            "number": None if IS_WHOT[top] else NUM[top]},
            "stock_size": len(self.stock),
            "pile_size": len(self.pile),
            "turnovers": self.turnovers,
            "pending": pending,
            "passes": self.passes,
            "turns": self.turns,
            "last_drew": [None if s < 0 else SYMBOLS[s] for s in self.last_drew],
            "last_card_calls": [s for g, s in self.last_card_calls if g == self.game_no],
            "last_card_missed": [s for g, s in self.last_card_missed if g == self.game_no],
            "misplays": [{"hand": g, "seat": s, "card": CODES[c]} for g, s, c in self.misplays],
            "hand_over": self.hand_over(),
            "ended": self.ended or None,
            "winner": None if self.winner < 0 else self.winner,
            "hand_scores": self.row[:],
            "sheet": [row[:] for row in self.sheet],
            "totals": self.totals(),
            "kitty": self.kitty[:],
            "rubber_winners": self.rubber_winners(),
            "cuts": [[None if c is None else CODES[c] for c in row] for row in self.cuts],
        }
        pos.update(self.seat_fields(seat))
        return pos
