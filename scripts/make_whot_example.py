"""Record an example short rubber of Whot (five games, classic rules) with notes.

Four heuristic bots play seed 1; the notes are written as the game goes: who deals and
leads, each WHOT and its call, the stock running out and the pile turned over, a player who
draws although he could play (nobody must play), and each game's scores and kitty counter.
The first such draw carries a variation: the card that player could have played instead.

Run: python scripts/make_whot_example.py [OUT]  (default replays/whot-example.json)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import cardlab
from cardlab.bots import make_bot
from cardlab.games.whot import CALL, DRAW, WhotState
from cardlab.replay import Action, Replay

SEED = 1
SEATS = ["Ade", "Bisi", "Chidi", "Dayo"]
OPTIONS: dict[str, Any] = {"rubber": "short", "rules": "classic"}
OUT = Path(__file__).resolve().parents[1] / "replays" / "whot-example.json"


def _cut_note(state: WhotState) -> str:
    rounds = state.snapshot()["cuts"]
    cuts = ", ".join(f"{SEATS[s]} {code}" for s, code in enumerate(rounds[0]) if code)
    again = "" if len(rounds) == 1 else f" (after {len(rounds) - 1} re-cut(s) of the tied)"
    return f"The cut: {cuts}. The lowest deals{again}; a WHOT would count high."


def build() -> Replay:
    table = cardlab.new_game("whot", players=4, seed=SEED, seats=SEATS,
                             meta={"title": "A short rubber of Whot (example, seed 1)"},
                             **OPTIONS)
    bots = [make_bot("heuristic", "whot", seed=f"{SEED}/{s}") for s in range(4)]
    variation: tuple[int, int, Action] | None = None
    game = 0
    while True:
        state = table.state
        assert isinstance(state, WhotState)
        seat = state.to_act()
        if seat < 0:
            break
        if state.game_no != game:  # a new game was just dealt
            game = state.game_no
            pos = state.snapshot()
            note = (f"{SEATS[pos['dealer']]} deals six cards each, one at a time from his "
                    f"left; {SEATS[pos['leader']]} leads any card.")
            if game == 1:
                note = _cut_note(state) + " " + note
            table.replay.hands[-1].note = note
            drew_note = False
        legal = state.legal_actions()
        action = bots[seat](state, seat)
        before = state.snapshot()
        could_play = [a for a in legal if a < DRAW]
        record = table.replay.hands[-1]
        table.apply(action)  # the next game is dealt at once when this one ends
        after = table.state.snapshot()
        notes = []
        if CALL <= action < DRAW:
            call = state.action_text(action).split()[-1]
            over = before["called_symbol"]
            notes.append(f"{SEATS[seat]} plays a WHOT and calls {call}s" +
                         (f" over a WHOT that called {over}s" if over else "") + ".")
        if action == DRAW and could_play and not drew_note:
            drew_note = True
            notes.append(f"{SEATS[seat]} could play but draws: nobody is forced to play.")
            if variation is None:
                alt = state.action_text(could_play[0])
                variation = (len(table.replay.hands), len(record.actions) - 1,
                             Action(SEATS[seat], alt,
                                    note=f"{SEATS[seat]} could have played instead."))
        if record.scores is None and after["turnovers"] > before["turnovers"]:
            notes.append(f"The stock ran out: the call card {before['call_card']} stays face "
                         "up and the rest of the pile is turned face down without shuffling, "
                         "so the oldest card played is now the top of the stock.")
        if record.scores is not None:
            sheet = record.scores
            scores = ", ".join(f"{SEATS[s]} {v}" for s, v in enumerate(sheet))
            high = [SEATS[s] for s, v in enumerate(sheet) if v == max(sheet)]
            notes.append(f"{SEATS[seat]} plays his last card and wins game {game}. Scored "
                         f"against each player (stars double, a WHOT 20): {scores}. "
                         f"{' and '.join(high)} put{'s' if len(high) == 1 else ''} a counter "
                         "in the kitty.")
        if table.state.is_game_over():
            totals = table.state.totals()
            best = [SEATS[s] for s in table.replay.rules.winners(totals)]
            notes.append(f"The rubber is over: {' and '.join(best)}, with the lowest total, "
                         f"take{'s' if len(best) == 1 else ''} the kitty of "
                         f"{sum(after['kitty'])} counters.")
        if notes:
            record.actions[-1].note = " ".join(notes)
    replay = table.replay
    if variation is not None:
        replay.add_variation(variation[0], (), variation[1], [variation[2]])
    return replay


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    replay = build()
    replay.save(out)
    print(f"wrote {out}: {len(replay.hands)} games, totals {replay.totals}")


if __name__ == "__main__":
    main()
