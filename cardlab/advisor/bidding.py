"""The bidding lab: what each bid is worth to a seat at its bidding decision, in a game where
each seat bids how many tricks it will take (``game_type.bids_tricks``: Ted's Game).

For a hand and a seat, at the position where that seat bids (the main line up to its bid),
:func:`bidding_lab` draws ``rollouts`` deals of the cards the seat cannot see (the advisor's
sampler: from the seat's view only), and for **each legal bid** applies it and plays the hand
out with the rollout bot. Every bid is played on the same samples (common random numbers).
For each bid it reports:

- the distribution of the tricks the seat takes after that bid (the bid changes the play:
  the bot plays to make it, and the later bidders see it), ``tricks[t]`` for ``t`` from 0 to
  the cards dealt;
- the expected hand score under the game's scoring (:meth:`cardlab.game.Game.bid_score`;
  Ted's Game's :func:`~cardlab.games.teds_game.engine.score`: 10 + bid² for an exact bid,
  10 + the cards dealt for an exact zero, minus the miss cubed): it equals
  ``sum(tricks[t] * score(bid, t))``, as both come from the same playouts;
- the chance of making the bid exactly.

The rules may forbid a bid (Ted's Game's hook: at the dealer's decision the bid that would
make the bids add up to the tricks). It is listed, marked ``forbidden``, and not offered: it
has no values.

The lab reads the game through its contract only (:meth:`cardlab.game.Game.trick_bid` and
:meth:`~cardlab.game.Game.bid_score`), so it serves any game of Oh Hell's family; it lives in
the advisor, not in a game's package, because it is made of the advisor's rollouts, and a
game's package does not import the advisor.

>>> import cardlab
>>> table = cardlab.new_game("teds-game", players=3, seed=4, start_size=3)
>>> table.act("bid 1"); table.act("bid 1")   # the dealer is to bid: 1 is forbidden
>>> dealer = table.state.dealer
>>> lab = bidding_lab(table.replay, hand=1, seat=dealer, rollouts=40, seed=1)
>>> lab.seat == dealer, lab.forbidden, [b.bid for b in lab.bids if b.offered]
(True, 1, [0, 2, 3])
>>> outcome = lab.outcome(2)
>>> round(sum(outcome.tricks), 9), 0 <= outcome.made <= 1
(1.0, True)
>>> abs(outcome.mean - sum(p * s for p, s in zip(outcome.tricks, lab.scores(2)))) < 1e-9
True
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import CardlabError, OptionError, brief
from ..game import State, TrickBid, get_game, list_games
from ..kernel import TrickKernel
from ..replay import Replay
from ..validation import check_rollouts
from .evaluate import BOTS, run
from .sample import sampler_for, seat_view


@dataclasses.dataclass(frozen=True)
class BidOutcome:
    """One bid at the seat's decision; ``None`` values for the forbidden bid (not offered)."""

    bid: int
    offered: bool           # False only for a bid the rules forbid (Ted's Game's hook)
    mean: float | None      # the expected hand score after this bid
    stderr: float | None    # its standard error
    tricks: tuple[float, ...] | None  # chance of taking t tricks, t = 0 .. cards dealt
    made: float | None      # chance of taking exactly ``bid`` tricks


@dataclasses.dataclass(frozen=True)
class BiddingLab:
    """What every bid is worth at one seat's bidding decision of a hand."""

    game: str          # the game's name
    hand: int          # counted from 1
    index: int         # actions of the hand made before the decision
    seat: int          # 0-based
    dealt: int         # cards dealt to each seat: the tricks of the hand
    rollouts: int
    seed: int
    bot: str
    forbidden: int | None  # the bid the rules forbid the seat (the hook), or None
    bids: tuple[BidOutcome, ...]  # every bid from 0 to ``dealt``, the forbidden one marked

    def outcome(self, bid: int) -> BidOutcome:
        """The outcome of ``bid`` (from 0 to the cards dealt)."""
        if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= self.dealt:
            raise OptionError(f"bids are 0 to {self.dealt} in this hand, not {brief(bid)}")
        return self.bids[bid]

    def scores(self, bid: int) -> tuple[int, ...]:
        """The hand score of ``bid`` for each number of tricks taken, by the game's scoring
        (:meth:`cardlab.game.Game.bid_score`)."""
        self.outcome(bid)
        game = get_game(self.game)
        return tuple(game.bid_score(bid, taken, self.dealt) for taken in range(self.dealt + 1))

    def best(self) -> int:
        """The offered bid with the highest expected score (the lowest of equals)."""
        offered = [b for b in self.bids if b.offered and b.mean is not None]
        return max(offered, key=lambda b: (b.mean, -b.bid)).bid

    def table(self) -> list[dict[str, Any]]:
        """One plain dict per bid (bid, offered, expected, stderr, made, and the chance of
        each trick count), for a DataFrame or a printed table."""
        rows = []
        for b in self.bids:
            row: dict[str, Any] = {"bid": b.bid, "offered": b.offered, "expected": b.mean,
                                   "stderr": b.stderr, "made": b.made}
            for taken in range(self.dealt + 1):
                row[f"P({taken})"] = None if b.tricks is None else b.tricks[taken]
            rows.append(row)
        return rows


def _decision(replay: Replay, hand: int, seat: int | str | None
              ) -> tuple[State, int, int, list[tuple[int, str]], TrickBid]:
    """The state before ``seat``'s bid in hand ``hand`` (main line), its index, the seat,
    the hand's actions before it and what the seat may bid."""
    from ..cursor import Cursor

    game = replay.rules.game
    if not game.game_type.bids_tricks:
        games = " or ".join(g.title for g in list_games().values() if g.game_type.bids_tricks)
        raise OptionError(f"the bidding lab is for {games}, not {replay.game}")
    cursor = Cursor(replay, hand=hand)  # checks the hand (from 1)
    line = cursor.line
    wanted = None if seat is None else replay.seat_index(seat)
    first = cursor.find(hand, 0)
    for index in range(len(line) + 1):
        state = cursor.goto(first + index).state
        decision = game.trick_bid(state)
        if decision is None:  # the bidding is over
            break
        to_act = state.to_act()
        bids_here = index == len(line) or line[index].seat == replay.seats[to_act]
        if bids_here and (wanted is None or to_act == wanted):
            actions = [(replay.seats.index(a.seat), a.act) for a in line[:index]]
            return state.clone(), index, to_act, actions, decision
    who = "any seat" if wanted is None else replay.seats[wanted]
    raise CardlabError(f"hand {hand} has no bidding decision of {who} on its main line"
                       + (" (it has bid already, or the line ends before its turn)"
                          if wanted is not None else ""))


def bidding_lab(replay: Replay, hand: int, seat: int | str | None = None,
                rollouts: int = 1000, seed: int = 0, bot: str = "heuristic") -> BiddingLab:
    """Every bid's trick distribution and expected score at ``seat``'s bidding decision of
    hand ``hand`` (from 1; ``seat``: a name or 0-based number, ``None``: the first seat to
    bid), over ``rollouts`` samples of what the seat cannot see, played out by ``bot``
    (``random``, ``heuristic`` or ``exact``). See the module's docstring.
    """
    check_rollouts(rollouts)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"seed is a whole number, not {brief(seed)}")
    if bot not in BOTS:
        raise OptionError(f"the bot is one of {', '.join(BOTS)}, not {brief(bot)}")
    state, index, who, actions, decision = _decision(replay, hand, seat)
    dealt = decision.tricks
    offered = decision.offered
    texts = list(offered.values())
    counts = range(dealt + 1)

    def figures(end: State, seat: int, start: State) -> dict[str, float]:
        assert isinstance(end, TrickKernel)  # a game whose bids are tricks plays tricks
        taken = end.tricks_won[seat]
        return {f"tricks {t}": 1.0 if t == taken else 0.0 for t in counts}

    draw = sampler_for(seat_view(state, who, actions)).sample
    values = run(draw, who, texts, rollouts, seed, bot, replay.game, figures)
    bids = []
    for bid in counts:
        text = offered.get(bid)
        if text is None:
            bids.append(BidOutcome(bid, False, None, None, None, None))
            continue
        estimate = values[text]
        tricks = tuple(estimate.figures[f"tricks {t}"] for t in counts)
        bids.append(BidOutcome(bid, True, estimate.mean, estimate.stderr, tricks,
                               tricks[bid]))
    return BiddingLab(game=replay.game, hand=hand, index=index, seat=who, dealt=dealt,
                      rollouts=rollouts, seed=seed, bot=bot, forbidden=decision.forbidden,
                      bids=tuple(bids))


__all__ = ["BidOutcome", "BiddingLab", "bidding_lab"]
