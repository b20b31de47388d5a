"""Record a whole 4-player game of Ted's Game, with notes that show the hook at work.

Four heuristic bots play all 19 hands (10 cards each down to 1 and back up to 10) from a
fixed seed, through the recording API. The notes say who deals and what is trump, point out
on each dealer's bid which number the hook forbids (and when it changes what the dealer
would have bid), and show one change of bid in the first hand.

Run: python scripts/make_teds_example.py [OUT]  (default replays/teds-game-example.json)
"""

from __future__ import annotations

import sys
from pathlib import Path

import cardlab
from cardlab.bots import make_bot
from cardlab.games.teds_game.bot import HeuristicBot
from cardlab.games.teds_game.engine import BID, CHANGE, TedsGameState

SEATS = ["Ann", "Ben", "Cleo", "Dev"]
SEED = 6  # the draw for first dealer has a tie: two players draw a 4 and draw again
TITLE = "Ted's Game: four players, nineteen hands, and the dealer's hook"


def _deal_note(state: TedsGameState, first: bool) -> str:
    seats = state.names
    dealer = seats[state.dealer]
    text = ""
    if first:
        rows = state.draws
        tied = [seats[s] for s, c in enumerate(rows[0]) if c >= 0 and len(rows) > 1
                and rows[1][s] >= 0]
        text = (f"For first dealer everyone draws a card; {' and '.join(tied)} tie for the "
                f"lowest and draw again, and {dealer} draws lower. " if tied else "")
    turned = state.snapshot()["turned"]
    return (text + f"{dealer} deals {state.size} card{'s' if state.size > 1 else ''} each and "
            f"turns up {turned}: {state.snapshot()['trump']} are trump. "
            f"{seats[(state.dealer + 1) % 4]} bids first and leads.")


def _hook_note(state: TedsGameState, wanted: int, bid: int) -> str:
    dealer = state.names[state.dealer]
    forbidden = state.forbidden_bid()
    others = state.bid_total
    total = others + bid
    text = (f"The hook: the others bid {others}, so {dealer} may not bid {forbidden} "
            f"({others} + {forbidden} = {state.size}, the tricks in this hand).")
    if wanted == forbidden:
        text += (f" {dealer}'s cards are worth about {forbidden}, but that bid is forbidden:"
                 f" {dealer} bids {bid} instead.")
    else:
        text += f" {dealer} bids {bid}."
    side = "over" if total > state.size else "under"
    tricks = f"{state.size} trick{'s' if state.size > 1 else ''}"
    return text + (f" The hand is {side}-bid: {total} bid for {tricks}, so at least one "
                   "player will miss.")


def build() -> cardlab.Replay:
    table = cardlab.new_game("teds-game", players=4, seed=SEED, seats=SEATS,
                             meta={"title": TITLE})
    bots = [make_bot("heuristic", "teds-game", seed=f"{SEED}/{s}") for s in range(4)]
    hand = 0
    while not table.state.is_game_over():
        state = table.state
        assert isinstance(state, TedsGameState)
        if state.hand_number() != hand:
            hand = state.hand_number()
            # the seeded table dealt this hand by itself: the note goes on the deal
            table.replay.hands[-1].note = {"en": _deal_note(state, first=hand == 1)}
        seat = state.to_act()
        action = bots[seat](state, seat)
        if hand == 1 and state.phase == "bid" and state.nbids == 0:
            # the first bidder bids one more, then thinks again before the next player bids
            first_try = action + 1 if action - BID < state.size else action - 1
            table.apply(first_try, note={"en": f"{SEATS[seat]} bids {first_try - BID}."})
            table.apply(CHANGE + action - BID, note={
                "en": f"{SEATS[seat]} changes the bid to {action - BID}: a bid may be changed "
                      f"as long as the next player, {SEATS[(seat + 1) % 4]}, has not bid."})
            continue
        if state.phase == "bid" and seat == state.dealer and state.forbidden_bid() >= 0:
            bot = bots[seat]
            assert isinstance(bot, HeuristicBot)
            wanted = int(bot.expected_tricks(state, seat) + 0.5)
            note = _hook_note(state, wanted, action - BID)
            table.apply(action, note={"en": note})
            continue
        table.apply(action)
    return table.replay


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("replays/teds-game-example.json")
    replay = build()
    replay.save(out)
    print(f"wrote {out}: {len(replay.hands)} hands, totals {replay.totals}")


if __name__ == "__main__":
    main()
