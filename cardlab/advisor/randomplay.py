"""Random playouts on bit masks: :func:`cardlab.advisor.evaluate`'s path for the random bot
in the play of the trick-taking games (Where's Bob's Hat?, Ted's Game).

At such a position a sample differs from the sampler's template only by the other hands'
cards (and, in Bob's Hat, a hidden hat value): the tricks so far, the bids, the trump and
the score sheet are the view's. So nothing per sample is an engine state:

- the sampler draws the other hands only (:meth:`TrickSampler.draw_hands
  <cardlab.games.trick_taking.sampler.TrickSampler.draw_hands>`, the very draw and numbers of
  :meth:`~cardlab.games.trick_taking.sampler.TrickSampler.sample`);
- each hand is one int per seat, and every legal action's playout is a random walk down the
  exact solver's own search tree (:meth:`cardlab.solvekernel.Search.random_walk`): the
  search's tricks, its summary of what the seat's score depends on (Ted's Game: the seat's
  tricks; Bob's Hat: the cards taken per seat of the colours the seat bid most, of every
  colour with a fewest bid, and whether the seat holds the hat);
- the walks only count their final summaries, per action; each distinct summary is then
  scored once by the game's own scoring function (``teds_game.score``, ``bobs_hat.
  score_hand`` through :func:`~cardlab.games.trick_taking.sampler.bobs_hat_scored`), for the value and
  the figures.

The estimates are those of the plain path, number for number (the same draws, the same random
numbers, the same cards: ``tests/test_advisor_randomplay.py``): a sample reads ``rollouts``'
master generator as :func:`cardlab.advisor.evaluate.run` does, each walk picks the
``int(r * n)``-th lowest of its ``n`` legal cards, which is the engine's pick, and sums of
whole scores are exact in floating point whatever their order.

>>> import cardlab
>>> from cardlab.advisor.sample import sampler_for, seat_view
>>> table = cardlab.new_game("teds-game", players=3, seed=4, start_size=3)
>>> while table.state.phase != "play":
...     table.act(table.state.legal_texts()[0])  # everyone bids 0
>>> state, seats = table.state, list(table.replay.seats)
>>> seat = state.to_act()
>>> seen = [(seats.index(a.seat), a.act) for a in table.replay.hands[-1].actions]
>>> sampler = sampler_for(seat_view(state, seat, seen))
>>> tallies = random_tallies(sampler, seat, state.legal_texts(), 100, 0, 20)
>>> state.legal_texts()
['play 6C', 'play 2H', 'play 6S']
>>> tallies[0]  # per action: the seat's final tricks * 2 (no hat) -> samples
[{0: 80, 2: 18, 4: 2}, {0: 81, 2: 18, 4: 1}, {0: 73, 2: 19, 4: 8}]
>>> outcomes(sampler.template, seat, 0, {0, 2})  # bid 0: no trick scores 10 + 3 cards
{0: (13, {'made': 1.0}), 2: (-1, {'made': 0.0})}
"""

from __future__ import annotations

from typing import Any

from ..cards import seeded_rng
from ..games.bobs_hat import engine as bobs_hat
from ..games.teds_game import engine as teds_game
from ..games.trick_taking.sampler import TrickSampler, bobs_hat_scored
from ..solvekernel import random_samples
from .solver import playout_search, summary_taken

Outcome = tuple[int, dict[str, float]]


def random_tallies(sampler: TrickSampler, seat: int, texts: list[str], rollouts: int,
                   seed: int, numbers_needed: int) -> dict[int, list[dict[int, int]]]:
    """Per hat value (0 in Ted's Game), per action of ``texts``: how many samples ended
    with each final summary key of the search (``(summary & key_mask) * 2 + seat holds the
    hat``: :meth:`~cardlab.solvekernel.Search.random_walk`).

    ``numbers_needed`` random numbers are drawn per sample after its deal, as
    :func:`~cardlab.advisor.evaluate.run` draws them (one per card a playout may play, and
    some).
    """
    template: Any = sampler.template
    search = playout_search(template, seat)
    actions = [template.parse_action(text) for text in texts]
    known = [0] * template.nseats  # the other hands' cards come from each sample
    known[seat] = sum(1 << card for cards in template.hands[seat] for card in cards)
    tallies: dict[int, list[dict[int, int]]] = {}
    random_samples(search, sampler.draw_hands, seeded_rng(seed, "advisor"), numbers_needed,
                   rollouts, known, sampler.others, template.turn, actions, tallies)
    return tallies


def outcomes(template: Any, seat: int, hat: int, keys: set[int]) -> dict[int, Outcome]:
    """The seat's hand score and figures for each final summary key (``hat``: the hat's
    value in Bob's Hat), by the game's own scoring function, once per key."""
    out: dict[int, Outcome] = {}
    if isinstance(template, teds_game.TedsGameState):
        bid, size = template.bids[seat], template.size
        for key in keys:
            won = key >> 1  # the seat's tricks
            out[key] = (teds_game.score(bid, won, size), {"made": 1.0 if won == bid else 0.0})
        return out
    assert isinstance(template, bobs_hat.BobsHatState)
    taken_of = summary_taken(template)
    negative = bool(template.rules.options["negative_scoring"])
    carried = template.row[seat]  # this hand's penalties so far
    for key in keys:
        # The table of cards taken is the true one wherever the seat's bids read it (the key
        # mask kept those counts); elsewhere it holds what was taken before the start only,
        # which changes only other seats' scores.
        holder = seat if key & 1 else -1  # another holder scores the hat, not the seat
        points, figures = bobs_hat_scored(template.bids, taken_of(key >> 1), template.size,
                                          holder, hat, negative, seat)
        out[key] = (carried + points, figures)
    return out


def random_sums(sampler: TrickSampler, seat: int, texts: list[str], rollouts: int,
                seed: int, numbers_needed: int
                ) -> tuple[list[float], list[float], list[dict[str, float]],
                           list[dict[str, int]]]:
    """Per action: the sums of the hand scores and of their squares, and the figures'
    sums and counts, over ``rollouts`` samples (what :func:`~cardlab.advisor.evaluate.run`
    adds up). Sums of whole numbers, so exact in any order."""
    tallies = random_tallies(sampler, seat, texts, rollouts, seed, numbers_needed)
    sums = [0] * len(texts)
    squares = [0] * len(texts)
    fig_sums: list[dict[str, float]] = [{} for _ in texts]
    fig_counts: list[dict[str, int]] = [{} for _ in texts]
    for hat, tally in tallies.items():
        scored = outcomes(sampler.template, seat, hat, set().union(*tally))
        for i, counts in enumerate(tally):
            sums_i, counts_i = fig_sums[i], fig_counts[i]
            for key, count in counts.items():
                score, figures = scored[key]
                sums[i] += count * score
                squares[i] += count * score * score
                for name, number in figures.items():
                    sums_i[name] = sums_i.get(name, 0.0) + count * number
                    counts_i[name] = counts_i.get(name, 0) + count
    return [float(s) for s in sums], [float(s) for s in squares], fig_sums, fig_counts


__all__ = ["outcomes", "random_sums", "random_tallies"]
