"""Random playouts on bit masks: :func:`cardlab.advisor.evaluate`'s path for the random bot
in the play of a trick game with an exact solver (Where's Bob's Hat?, Ted's Game).

At such a position a sample differs from the sampler's template only by the other hands'
cards (and, in Bob's Hat, a hidden hat value): the tricks so far, the bids, the trump and
the score sheet are the view's. So nothing per sample is an engine state:

- the sampler draws the other hands only (:meth:`HandsSampler.draw_hands
  <cardlab.game.HandsSampler.draw_hands>`, the very draw and numbers of its
  :meth:`~cardlab.game.Sampler.sample`);
- each hand is one int per seat, and every legal action's playout is a random walk down the
  exact solver's own search tree (:meth:`cardlab.solvekernel.Search.random_walk`): the
  search's tricks, its summary of what the seat's score depends on (Ted's Game: the seat's
  tricks; Bob's Hat: the cards taken per seat of the colours the seat bid most, of every
  colour with a fewest bid, and whether the seat holds the hat);
- the walks only count their final summaries, per action; each distinct summary is then
  scored once by the game's own scoring function (:meth:`cardlab.game.Game.
  summary_outcomes`: ``teds_game.score``, ``bobs_hat.score_hand``), for the value and the
  figures.

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
>>> state.rules.game.summary_outcomes(sampler.template, seat, 0, {0, 2})  # bid 0: 10 + 3 cards
{0: (13, {'made': 1.0}), 2: (-1, {'made': 0.0})}
"""

from __future__ import annotations

from ..cards import seeded_rng
from ..game import HandsSampler, Scored
from ..games.trick_taking.state import TrickTaking
from ..rolloutkernel import random_samples
from .solver import playout_search


def random_tallies(sampler: HandsSampler, seat: int, texts: list[str], rollouts: int,
                   seed: int, numbers_needed: int) -> dict[int, list[dict[int, int]]]:
    """Per face-down value (the hat's in Bob's Hat, 0 in a game with none), per action of
    ``texts``: how many samples ended with each final summary key of the search
    (``(summary & key_mask) * 2 + seat holds the hat``:
    :meth:`~cardlab.solvekernel.Search.random_walk`).

    ``numbers_needed`` random numbers are drawn per sample after its deal, as
    :func:`~cardlab.advisor.evaluate.run` draws them (one per card a playout may play, and
    some).
    """
    template = sampler.template
    assert isinstance(template, TrickTaking)
    search = playout_search(template, seat)
    actions = [template.parse_action(text) for text in texts]
    known = [0] * template.nseats  # the other hands' cards come from each sample
    known[seat] = sum(1 << card for cards in template.hands[seat] for card in cards)
    tallies: dict[int, list[dict[int, int]]] = {}
    random_samples(search, sampler.draw_hands, seeded_rng(seed, "advisor"), numbers_needed,
                   rollouts, known, sampler.others, template.turn, actions, tallies)
    return tallies


def random_sums(sampler: HandsSampler, seat: int, texts: list[str], rollouts: int,
                seed: int, numbers_needed: int
                ) -> tuple[list[float], list[float], list[dict[str, float]],
                           list[dict[str, int]]]:
    """Per action: the sums of the hand scores and of their squares, and the figures'
    sums and counts, over ``rollouts`` samples (what :func:`~cardlab.advisor.evaluate.run`
    adds up). Sums of whole numbers, so exact in any order."""
    tallies = random_tallies(sampler, seat, texts, rollouts, seed, numbers_needed)
    template = sampler.template
    game = template.rules.game
    sums = [0] * len(texts)
    squares = [0] * len(texts)
    fig_sums: list[dict[str, float]] = [{} for _ in texts]
    fig_counts: list[dict[str, int]] = [{} for _ in texts]
    for value, tally in tallies.items():
        scored: dict[int, Scored] = game.summary_outcomes(template, seat, value,
                                                          set().union(*tally))
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


__all__ = ["random_sums", "random_tallies"]
