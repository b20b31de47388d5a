"""The advisor's sampler of hidden cards: blind, consistent, uniform, over both trick games and
their option sets.

- every sample is a state the seat cannot tell from the true one (its view is the same), its
  own cards are its own, nobody holds a suit it showed void in, cards are conserved, and the
  hand plays on to its end;
- invariance: two true states the seat cannot tell apart (two unseen cards swapped between
  hands, or a hidden hat value flipped) give the very same samples for the same seed;
- uniformity: on positions small enough to list every consistent layout, the frequencies pass
  a chi-square test (and a sequential draw, which is biased, fails the same test);
- the sampler is made from a SeatView only.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from scipy.stats import chisquare
from tablegames import after_a_renege

import cardlab
from cardlab.advisor.sample import SeatView, sampler_for, seat_view
from cardlab.bots import make_bot
from cardlab.game import State, get_game
from cardlab.games.trick_taking.sampler import LayoutDrawer, TrickSampler
from cardlab.seatview import hidden_from, seat_position

GAMES = ("bobs-hat", "teds-game")


def option_sets(game: str) -> list[dict]:
    return get_game(game).rules_class.conformance_option_sets()


def random_position(game: str, options: dict, seed: int, kind: str = "random",
                    steps: int | None = None):
    """A table stopped at a random decision of a random early hand (random or heuristic
    bots); returns (table, hand counted from 1, actions of that hand so far)."""
    rng = random.Random(seed)
    table = cardlab.new_game(game, seed=seed, **options)
    rules = table.replay.rules
    bots = [make_bot(kind, game, seed * 10 + s) for s in range(rules.players)]
    target = rng.randint(1, min(3, rules.hands_in_game() or 3))
    while len(table.replay.hands) < target and table.state.to_act() >= 0:
        table.play(bots, until="hand")
    steps = rng.randrange(200) if steps is None else steps
    hand = len(table.replay.hands)
    for _ in range(steps):
        state = table.state
        seat = state.to_act()
        if seat < 0:
            break
        action = bots[seat](state, seat)
        after = state.clone()
        after.apply(action)
        if after.to_act() < 0:  # keep a decision to look at
            break
        table.apply(action)
    hand = len(table.replay.hands)
    return table, hand, actions_of(table)


def actions_of(table) -> list[tuple[int, str]]:
    replay = table.replay
    return [(replay.seats.index(a.seat), a.act) for a in replay.hands[-1].actions]


def true_voids(state) -> list[set[int]]:
    """Suits each seat showed void in, read from the engine's own trick history."""
    n = state.rules.players
    suit_of = state.deck.suit_of
    reneges = {(s, c) for _, s, c in getattr(state, "reneges", []) if isinstance(s, int)}
    voids: list[set[int]] = [set() for _ in range(n)]
    tricks = [(leader, cards) for leader, cards, _ in state.history]
    tricks.append((state.leader, tuple(state.trick)))
    for leader, cards in tricks:
        if not cards:
            continue
        led = suit_of[cards[0]]
        for i, card in enumerate(cards[1:], 1):
            seat = (leader + i) % n
            if suit_of[card] != led and (seat, card) not in reneges:
                voids[seat].add(led)
    return voids


def layout(state, seat: int) -> tuple:
    """Where the cards hidden from ``seat`` are: each other hand, sorted."""
    return tuple(tuple(sorted(c for suit in held for c in suit))
                 for s, held in enumerate(state.hands) if s != seat)


def cases():
    for game in GAMES:
        for number, options in enumerate(option_sets(game)):
            for seed in range(3):
                yield game, options, 1000 * number + seed


CASES = list(cases())


@pytest.mark.parametrize(("game", "options", "seed"), CASES,
                         ids=[f"{g}-{i}" for i, (g, _, _) in enumerate(CASES)])
def test_every_sample_is_consistent_with_the_view(game, options, seed):
    table, _hand, actions = random_position(game, options, seed)
    true = table.state
    rng = random.Random(seed)
    seats = list(range(true.rules.players))
    for seat in rng.sample(seats, 2):
        view = seat_view(true, seat, actions)
        sampler = sampler_for(view)
        voids = true_voids(true)
        own = sorted(c for suit in true.hands[seat] for c in suit)
        seen_layouts = set()
        for k in range(15):
            sample = sampler.sample(random.Random(k))
            # the seat cannot tell the sample from the truth
            assert seat_position(sample, seat) == seat_position(true, seat)
            assert sorted(c for suit in sample.hands[seat] for c in suit) == own
            for other, held in enumerate(sample.hands):
                for suit in voids[other]:
                    assert not held[suit], (other, suit)
            assert sorted(sample.accounted_cards()) == sorted(sample.dealt_cards())
            assert len(set(sample.dealt_cards())) == len(sample.dealt_cards())
            assert sample.hand_counts() == true.hand_counts()
            seen_layouts.add(layout(sample, seat))
            sample.random_playout(random.Random(k).random)  # the hand plays on to its end
            assert sample.to_act() < 0
        if hidden_from(true, seat).codes - {true.deck.codes[c] for c in own}:
            assert len(seen_layouts) > 1 or sum(true.hand_counts()) - len(own) <= 1


@pytest.mark.parametrize(("game", "options", "seed"), CASES,
                         ids=[f"{g}-{i}" for i, (g, _, _) in enumerate(CASES)])
def test_a_game_builds_its_state_at_a_position(game, options, seed):
    """State.at_position, the game's own (the sampler's template is made with it): from the
    whole position, the true deal and the public facts, with the hand's actions replayed,
    it is the true state again, at every hand (the dealer passed by the game's rules)."""
    table, _hand, actions = random_position(game, options, seed)
    true = table.state
    rules = true.rules
    rebuilt = rules.state_class.at_position(rules, true.snapshot(), true.dealt_hands,
                                            rules.game.seat_public(true))
    for _actor, text in actions:
        rebuilt.act(text)
    assert rebuilt.snapshot() == true.snapshot()
    assert rebuilt.legal_texts() == true.legal_texts()
    assert rebuilt.hand_scores() == true.hand_scores() and rebuilt.totals() == true.totals()
    assert rules.game.seat_public(rebuilt) == rules.game.seat_public(true)


def test_the_sampler_and_the_advisor_import_no_game():
    """The advisor, the analysis and the trick games' shared sampler reach a game through
    the contract (cardlab.game) only: none of them imports a game's own package."""
    import ast
    from pathlib import Path

    root = Path(cardlab.__file__).parent
    games = {type(game).__module__.split(".")[2] for game in cardlab.list_games().values()}
    assert {"bobs_hat", "teds_game", "whot"} <= games
    files = [*sorted((root / "advisor").glob("*.py")), root / "analyse.py",
             *sorted((root / "games" / "trick_taking").glob("*.py"))]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                assert not games & set(name.split(".")), (path.name, name)


def swap_pairs(state, seat: int):
    """Pairs (a, x, b, y): seat a's card x and seat b's card y may change places without
    breaking a void either showed (both unseen by ``seat``, of different seats)."""
    voids = true_voids(state)
    suit_of = state.deck.suit_of
    n = state.rules.players
    for a, b in itertools.combinations([s for s in range(n) if s != seat], 2):
        for x in [c for suit in state.hands[a] for c in suit]:
            for y in [c for suit in state.hands[b] for c in suit]:
                if suit_of[x] not in voids[b] and suit_of[y] not in voids[a]:
                    yield a, x, b, y


def swapped(state, a: int, x: int, b: int, y: int):
    other = state.clone()
    suit_of = state.deck.suit_of
    ha = sorted([c for suit in other.hands[a] for c in suit if c != x] + [y])
    hb = sorted([c for suit in other.hands[b] for c in suit if c != y] + [x])
    nsuits = len(state.deck.suits)
    other.hands[a] = [[c for c in ha if suit_of[c] == s] for s in range(nsuits)]
    other.hands[b] = [[c for c in hb if suit_of[c] == s] for s in range(nsuits)]
    dealt = [cards[:] for cards in other.dealt_hands]
    dealt[a] = [y if c == x else c for c in dealt[a]]
    dealt[b] = [x if c == y else c for c in dealt[b]]
    other.dealt_hands = dealt
    return other


@pytest.mark.parametrize(("game", "options", "seed"), CASES,
                         ids=[f"{g}-{i}" for i, (g, _, _) in enumerate(CASES)])
def test_positions_the_seat_cannot_tell_apart_give_the_same_samples(game, options, seed):
    for attempt in range(30):
        table, _hand, actions = random_position(game, options, seed + 7 + 1000 * attempt,
                                                steps=attempt % 8)
        true = table.state
        seat = true.to_act()
        pairs = list(swap_pairs(true, seat)) if seat >= 0 else []
        if pairs:
            break
    assert pairs, "no position with two hidden hands"
    rng = random.Random(seed)
    twins = [swapped(true, a, x, b, y) for a, x, b, y in rng.sample(pairs, min(3, len(pairs)))]
    undealt = undealt_twin(true, seat)
    if undealt is not None:
        twins.append(undealt)
    for twin in twins:
        assert layout(twin, seat) != layout(true, seat) or \
            sorted(twin.dealt_cards()) != sorted(true.dealt_cards())
        views = [seat_view(s, seat, actions) for s in (true, twin)]
        assert views[0] == views[1]
        samplers = [sampler_for(v) for v in views]
        for k in range(10):
            got = [s.sample(random.Random(k)) for s in samplers]
            assert layout(got[0], seat) == layout(got[1], seat)
            assert got[0].snapshot() == got[1].snapshot()


def undealt_twin(state, seat: int):
    """The state with one card of another hand and one card nobody was dealt exchanged
    (where no void forbids it), or None when every card was dealt."""
    voids = true_voids(state)
    suit_of = state.deck.suit_of
    seen = set(state.accounted_cards())
    if hasattr(state, "turned"):
        seen.add(state.turned)
    undealt = [c for c in range(state.ncards) if c not in seen]
    for other in range(state.rules.players):
        if other == seat:
            continue
        for x in [c for suit in state.hands[other] for c in suit]:
            for y in undealt:
                if suit_of[y] not in voids[other]:
                    twin = state.clone()
                    held = sorted([c for suit in twin.hands[other] for c in suit if c != x]
                                  + [y])
                    twin.hands[other] = [[c for c in held if suit_of[c] == s]
                                         for s in range(len(state.deck.suits))]
                    dealt = [cards[:] for cards in twin.dealt_hands]
                    dealt[other] = [y if c == x else c for c in dealt[other]]
                    twin.dealt_hands = dealt
                    return twin
    return None


def test_a_hidden_hat_value_is_drawn_blind():
    # Under hat_reveal=when-found the others do not know the hat's value: the two values
    # give the same view and the same samples, hat values included.
    for seed in range(40):
        table = cardlab.new_game("bobs-hat", players=4, seed=seed)
        bots = [make_bot("heuristic", "bobs-hat", s) for s in range(4)]
        for _ in range(7):  # the hat and the bids, then a card or two
            state = table.state
            table.apply(bots[state.to_act()](state, state.to_act()))
        true = table.state
        seat = true.to_act()
        if seat == true.dealer or true.hat_holder() >= 0:
            continue
        twin = true.clone()
        twin.hat_value = -true.hat_value
        actions = actions_of(table)
        views = [seat_view(s, seat, actions) for s in (true, twin)]
        assert views[0] == views[1] and (0 + true.dealer, "hat chosen") in views[0].actions
        samplers = [sampler_for(v) for v in views]
        values = set()
        for k in range(20):
            got = [s.sample(random.Random(k)) for s in samplers]
            assert layout(got[0], seat) == layout(got[1], seat)
            assert got[0].hat_value == got[1].hat_value
            values.add(got[0].hat_value)
        assert values <= {10, -10}
        return
    raise AssertionError("no position with a hidden hat found")


def test_secret_bids_are_drawn_and_keep_the_seats_own_choices():
    for seed in range(30):
        table = cardlab.new_game("bobs-hat", players=4, seed=seed, secret_bidding=True,
                                 double_fewest=True, no_bids=True)
        bots = [make_bot("random", "bobs-hat", s) for s in range(4)]
        for _ in range(3):  # the hat and two secret bids
            state = table.state
            table.apply(bots[state.to_act()](state, state.to_act()))
        true = table.state
        seat = true.to_act()
        actions = actions_of(table)
        view = seat_view(true, seat, actions)
        assert [text for _, text in view.actions].count("bid (secret)") == 2
        sampler = sampler_for(view)
        bids = set()
        for k in range(20):
            sample = sampler.sample(random.Random(k))
            assert seat_position(sample, seat) == seat_position(true, seat)
            assert sample.legal_texts() == true.legal_texts()
            bids.add(tuple(sample.bids))
        assert len(bids) > 1 or seed > 25  # the draws vary with the sampled hands
        return


# -- uniformity ------------------------------------------------------------------------
def consistent_layouts(state, seat: int) -> list[tuple]:
    """Every layout of the cards unseen by ``seat`` into the other hands that respects the
    voids shown, listed by brute force (the rest of the unseen cards stay undealt)."""
    voids = true_voids(state)
    suit_of = state.deck.suit_of
    seen = {c for c in state.accounted_cards()} - {
        c for s, held in enumerate(state.hands) if s != seat for suit in held for c in suit}
    unseen = [c for c in range(state.ncards) if c not in seen]
    others = [s for s in range(state.rules.players) if s != seat]
    counts = [state.hand_counts()[s] for s in others]
    out = []

    def place(i: int, left: list[int], done: list[tuple]) -> None:
        if i == len(others):
            out.append(tuple(done))
            return
        allowed = [c for c in left if suit_of[c] not in voids[others[i]]]
        for pick in itertools.combinations(allowed, counts[i]):
            rest = [c for c in left if c not in pick]
            place(i + 1, rest, [*done, tuple(sorted(pick))])

    place(0, unseen, [])
    return out


def small_positions():
    """Late positions of small games where every layout can be listed: the last hand of
    5-player Bob's Hat (all 60 cards dealt) two cards from the end, and the 1- and 2-card
    hands of 3-player Ted's Game. Returns (state, seat, actions, layouts)."""
    found = []
    for seed in range(60):
        table = cardlab.new_game("bobs-hat", players=5, seed=seed, hands=8)
        bots = [make_bot("heuristic", "bobs-hat", s) for s in range(5)]
        while len(table.replay.hands) < 8:
            table.play(bots, until="hand")
        while len(table.state.history) < 10:
            state = table.state
            table.apply(bots[state.to_act()](state, state.to_act()))
        true = table.state
        seat = true.to_act()
        layouts = consistent_layouts(true, seat)
        if any(true_voids(true)) and 30 <= len(layouts) < 2520:
            found.append((true, seat, actions_of(table), layouts))
            break
    for start in (1, 2):
        for seed in range(60):
            table = cardlab.new_game("teds-game", players=3, seed=seed, start_size=start)
            bots = [make_bot("random", "teds-game", s) for s in range(3)]
            while table.state.phase != "play" or len(table.state.history) < start - 1:
                state = table.state
                table.apply(bots[state.to_act()](state, state.to_act()))
            true = table.state
            seat = true.to_act()
            layouts = consistent_layouts(true, seat)
            if start == 1 or any(true_voids(true)):
                found.append((true, seat, actions_of(table), layouts))
                break
    return found


SMALL = small_positions()


def chi_square_p(draw, layouts: list[tuple], per_cell: int = 8) -> float:
    index = {lay: i for i, lay in enumerate(layouts)}
    n = per_cell * len(layouts)
    counts = Counter()
    rng = random.Random(12345)
    for _ in range(n):
        got = draw(rng)
        assert got in index, got  # never an inconsistent layout
        counts[got] += 1
    observed = [counts[lay] for lay in layouts]
    return float(chisquare(observed).pvalue)


@pytest.mark.parametrize("case", range(len(SMALL)))
def test_samples_are_uniform_over_the_consistent_layouts(case):
    true, seat, actions, layouts = SMALL[case]
    assert len(layouts) >= 30
    sampler = sampler_for(seat_view(true, seat, actions))
    p = chi_square_p(lambda rng: layout(sampler.sample(rng), seat), layouts)
    assert p > 0.001


def test_the_small_positions_include_voids_and_both_games():
    assert {s.rules.name for s, *_ in SMALL} == set(GAMES)
    assert sum(1 for s, *_ in SMALL if any(true_voids(s))) >= 2


def test_the_exact_draw_alone_is_uniform():
    true, seat, actions, layouts = next(c for c in SMALL if any(true_voids(c[0])))
    sampler = sampler_for(seat_view(true, seat, actions))
    assert isinstance(sampler, TrickSampler)
    sampler.drawer.tries = 0  # no rejection: every draw is the exact, counted one
    assert sampler.drawer.count() == len(layouts)
    p = chi_square_p(lambda rng: layout(sampler.sample(rng), seat), layouts)
    assert p > 0.001
    assert sampler.drawer.exact_draws >= 8 * len(layouts)


def sequential_draw(cards, suit_of, buckets, rng):
    """The biased way: each hand in turn takes uniformly random cards among those its voids
    allow, starting again when a later hand is left without enough allowed cards."""
    while True:
        left = list(cards)
        out = []
        for count, mask in buckets:
            allowed = [c for c in left if not mask >> suit_of[c] & 1]
            if len(allowed) < count:
                break
            pick = []
            for _ in range(count):
                card = allowed.pop(int(rng.random() * len(allowed)))
                pick.append(card)
                left.remove(card)
            out.append(tuple(sorted(pick)))
        else:
            return tuple(out)


def test_the_chi_square_test_catches_a_sequential_draw():
    # Six cards of suits 0 0 0 1 1 2; the first hand (2 cards) showed void in suit 2, the
    # second (2 cards) in suit 0; two cards stay undealt.
    suit_of = (0, 0, 0, 1, 1, 2)
    cards = list(range(6))
    buckets = [(2, 0b100), (2, 0b001)]
    layouts = sorted({(a, b) for a in itertools.combinations(cards, 2)
                      for b in itertools.combinations([c for c in cards if c not in a], 2)
                      if all(suit_of[c] != 2 for c in a) and all(suit_of[c] != 0 for c in b)})
    drawer = LayoutDrawer(cards, suit_of, 3, buckets)
    assert drawer.count() == len(layouts)
    fair = chi_square_p(lambda rng: tuple(tuple(sorted(p)) for p in drawer.draw(rng)),
                        layouts, per_cell=400)
    drawer.tries = 0
    exact = chi_square_p(lambda rng: tuple(tuple(sorted(p)) for p in drawer.draw(rng)),
                         layouts, per_cell=400)
    biased = chi_square_p(lambda rng: sequential_draw(cards, suit_of, buckets, rng),
                          layouts, per_cell=400)
    assert fair > 0.001 and exact > 0.001
    assert biased < 1e-6


def test_one_void_showing_hand_is_drawn_directly_and_uniformly():
    # Seven cards of suits 0 0 0 1 1 2 2; the first hand (2 cards) showed void in suits 0
    # and 2, the second takes 3 of any suit; two stay undealt. The direct pick and the
    # counted draw are both uniform.
    suit_of = (0, 0, 0, 1, 1, 2, 2)
    cards = list(range(7))
    buckets = [(2, 0b101), (3, 0)]
    layouts = sorted({(a, b) for a in itertools.combinations(cards, 2)
                      for b in itertools.combinations([c for c in cards if c not in a], 3)
                      if all(suit_of[c] == 1 for c in a)})
    drawer = LayoutDrawer(cards, suit_of, 3, buckets)
    assert drawer.direct and drawer.count() == len(layouts)

    def draw(rng):
        return tuple(tuple(sorted(p)) for p in drawer.draw(rng))

    direct = chi_square_p(draw, layouts, per_cell=300)
    assert drawer.exact_draws == 300 * len(layouts)
    drawer.direct = False  # the counting method on the same buckets
    counted = chi_square_p(draw, layouts, per_cell=300)
    assert direct > 0.001 and counted > 0.001


# -- blindness by construction ------------------------------------------------------------
def test_the_sampler_takes_a_view_never_a_state():
    table = cardlab.new_game("teds-game", players=4, seed=1)
    with pytest.raises(cardlab.CardlabError, match="SeatView"):
        sampler_for(table.state)  # type: ignore[arg-type]
    with pytest.raises(cardlab.CardlabError, match="SeatView"):
        TrickSampler(table.state)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES)
def test_the_view_holds_nothing_the_seat_cannot_see(game):
    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for k, v in value.items():
                yield from strings(k)
                yield from strings(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                yield from strings(v)
        else:
            assert not isinstance(value, State)

    for number, options in enumerate(option_sets(game)):
        table, _hand, actions = random_position(game, options, 50 + number)
        state = table.state
        for seat in range(state.rules.players):
            view = seat_view(state, seat, actions)
            assert isinstance(view, SeatView)
            hidden = hidden_from(state, seat)
            quoted = {text for _, text in hidden.texts}
            # (Ted's Game's draw for first dealer is a separate, public shuffle)
            shown = {k: v for k, v in view.position.items() if k != "draw"}
            for text in strings([shown, view.actions, view.public]):
                assert not hidden.leaks(text), text
                assert text not in quoted, text


def test_a_changed_bid_is_replayed_as_the_seat_saw_it():
    table = cardlab.new_game("teds-game", players=4, seed=7)
    for text in ("bid 3", "change bid 2", "bid 1"):
        table.act(text)
    true = table.state
    seat = true.to_act()
    view = seat_view(true, seat, actions_of(table))
    sampler = sampler_for(view)
    for k in range(10):
        sample = sampler.sample(random.Random(k))
        assert seat_position(sample, seat) == seat_position(true, seat)
        assert sample.changes == true.changes


def test_hidden_choices_may_be_drawn_uniformly():
    for seed in range(40):
        table = cardlab.new_game("bobs-hat", players=4, seed=seed, secret_bidding=True)
        bots = [make_bot("heuristic", "bobs-hat", s) for s in range(4)]
        for _ in range(3):  # the hat, two secret bids
            state = table.state
            table.apply(bots[state.to_act()](state, state.to_act()))
        true = table.state
        seat = true.to_act()
        if seat == true.dealer:
            continue
        sampler = TrickSampler(seat_view(true, seat, actions_of(table)), hidden="uniform")
        hats, bids = set(), set()
        for k in range(60):
            sample = sampler.sample(random.Random(k))
            assert seat_position(sample, seat) == seat_position(true, seat)
            hats.add(sample.hat_value)
            bids.add(tuple(sample.bids))
        assert hats == {10, -10} and len(bids) > 10
        with pytest.raises(cardlab.CardlabError, match="'sometimes'"):
            TrickSampler(seat_view(true, seat, actions_of(table)), hidden="sometimes")
        return
    raise AssertionError("no position found")


def test_a_flagged_renege_is_kept_in_the_samples():
    table = after_a_renege("teds-game", 4, range(60))  # a renege: flagged, no score change
    true = table.state
    assert true.reneges
    seat = true.to_act()
    sampler = sampler_for(seat_view(true, seat, actions_of(table)))
    for k in range(10):
        sample = sampler.sample(random.Random(k))
        assert seat_position(sample, seat) == seat_position(true, seat)
