"""A heuristic Whot bot: sheds high cards, keeps a WHOT for the right moment, calls the symbol
it holds most of, and denies the next player when it can.

It reads only what its seat may know: its own cards, the call card, the number of cards each
player holds, the stock's size, and the public fact of which symbol each player last drew on
(a player who drew on a call probably holds none of that symbol).

- A pick pending against it (Nigerian): answer with a 2 or 5 when allowed, else pick.
- Plain plays are scored: the card's value (shed high cards first), cards left that could
  follow the call it makes (so it can play again next turn), a bonus for a symbol the next
  player was seen not to follow (more when he is close to going out). Nigerian special
  cards: Hold On is welcome (another turn); the cards that hurt others (picks, Suspension,
  General Market) are kept until an opponent is close to going out.
- A WHOT is kept while it can still draw, unless it is close to going out, an opponent is, or
  the WHOT is all it holds; played, it calls the symbol it holds most of (by count, then
  value), or, with nothing else to hold, the symbol the next player last failed to follow.
- It always announces "last card".
"""

from __future__ import annotations

from ...cards import seeded_rng
from ...game import State
from . import (
    ANNOUNCE,
    CALL,
    DRAW,
    GENERAL_MARKET,
    HOLD_ON,
    NUM,
    PICK_THREE,
    PICK_TWO,
    SUSPENSION,
    SYM,
    SYMBOLS,
    VALUE,
    WhotState,
)

EFFECT_BONUS = {HOLD_ON: 6.0, PICK_TWO: 10.0, PICK_THREE: 12.0, SUSPENSION: 8.0,
                GENERAL_MARKET: 9.0}


class HeuristicBot:
    def __init__(self, seed: int | str = 0) -> None:
        self.rng = seeded_rng(seed, "whot-heuristic")

    def __call__(self, state: State, seat: int) -> int:
        assert isinstance(state, WhotState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        choice = self._choose(state, seat, [a for a in legal if a < ANNOUNCE])
        return choice + ANNOUNCE if choice + ANNOUNCE in legal else choice

    def _choose(self, state: WhotState, seat: int, legal: list[int]) -> int:
        plain = [a for a in legal if a < CALL]
        whots = [a for a in legal if CALL <= a < DRAW]
        other = [a for a in legal if a >= DRAW]  # draw, or pass
        if state.pending:
            return plain[0] if plain else other[0]
        n = state.n
        nxt = (seat + 1) % n
        counts = [len(h) + len(w) for h, w in zip(state.hands, state.whots, strict=True)]
        mine = state.hands[seat]
        held = counts[seat]
        closest = min(counts[s] for s in range(n) if s != seat)
        blind = state.last_drew[nxt]  # a symbol the next player could not (or would not) follow
        if plain:
            def score(card: int) -> float:
                value = float(VALUE[card])
                value += 3.0 * sum(1 for c in mine if c != card and (
                    SYM[c] == SYM[card] or NUM[c] == NUM[card]))
                if SYM[card] == blind:
                    value += 12.0 if counts[nxt] <= 2 else 5.0
                effect = state.effects[card]
                if effect == HOLD_ON or (effect == GENERAL_MARKET and closest <= 2):
                    value += EFFECT_BONUS[effect]  # another turn for itself
                elif effect and counts[nxt] <= 3:
                    value += EFFECT_BONUS[effect]  # hurts a next player close to going out
                elif effect:
                    value -= EFFECT_BONUS[effect] / 2  # keep it for when it will matter
                return value + self.rng.random()

            return max(plain, key=score)
        if whots:
            keep = other and other[0] == DRAW and held > 3 and closest > 2 and \
                held > len(state.whots[seat])
            if not keep:
                return self._call(state, seat, whots, blind)
        return other[0] if other else whots[0]

    def _call(self, state: WhotState, seat: int, whots: list[int], blind: int) -> int:
        card = whots[0] & 127
        mine = state.hands[seat]
        if mine:
            weight = [0.0] * len(SYMBOLS)
            for c in mine:
                weight[SYM[c]] += 100 + VALUE[c]
            sym = max(range(len(SYMBOLS)), key=lambda s: (weight[s], self.rng.random()))
        else:
            sym = blind if blind >= 0 else int(self.rng.random() * len(SYMBOLS))
        return CALL + 128 * sym + card
