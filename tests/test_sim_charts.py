"""The simulation charts of cardlab.view.charts, built from real small simulations: what each
chart plots is what the frames say, computed here again by hand (pandas, scipy), and the
per-bid and hook readings agree with the replays of the same games."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import cardlab
from cardlab import dataframes
from cardlab.errors import CardlabError
from cardlab.game import register, unregister
from cardlab.records import BidPart, Records
from cardlab.view import charts


def run(game, games, **kwargs):
    return cardlab.simulate(game, players=kwargs.pop("players", 4), games=games, seed=11,
                            workers=0, progress=False, **kwargs)


@pytest.fixture(scope="module")
def teds():
    return run("teds-game", 12, bots="heuristic")


@pytest.fixture(scope="module")
def duel():
    return run("teds-game", 8, bots="heuristic,random")


@pytest.fixture(scope="module")
def bobs():
    return run("bobs-hat", 12, bots="heuristic,random")


@pytest.fixture(scope="module")
def whots():
    return {rules: run("whot", 15, options={"rubber": "single", "rules": rules})
            for rules in ("classic", "nigerian")}


def trace(fig, name):
    found = [t for t in fig.data if t.name == name]
    assert len(found) == 1, [t.name for t in fig.data]
    return found[0]


def error_bounds(tr):
    y = np.asarray(tr.y, dtype=float)
    return y - np.asarray(tr.error_y.arrayminus), y + np.asarray(tr.error_y.array)


def wilson(k, n):
    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=0.95, method="wilson")
    return ci.low, ci.high


def t_interval(values):
    values = np.asarray(values, dtype=float)
    return stats.t.interval(0.95, len(values) - 1, loc=values.mean(), scale=stats.sem(values))


# -- the intervals ---------------------------------------------------------------------------

@pytest.mark.parametrize("k,n", [(0, 5), (1, 1), (3, 10), (50, 100), (99, 100), (7, 2000)])
def test_rate_ci_is_wilsons_interval(k, n):
    rate, low, high = charts.rate_ci(k, n)
    assert rate == k / n
    assert (low, high) == pytest.approx(wilson(k, n), abs=1e-9)


def test_mean_and_difference_intervals_are_students_and_welchs():
    rng = np.random.default_rng(5)
    a, b = rng.normal(3, 2, 40), rng.normal(1, 5, 25)
    mean, low, high = charts.mean_ci(a)
    assert mean == pytest.approx(a.mean())
    assert (low, high) == pytest.approx(t_interval(a), rel=1e-7)
    diff, low, high = charts.difference_ci(a, b)
    welch = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    assert diff == pytest.approx(a.mean() - b.mean())
    assert (low, high) == pytest.approx((welch.low, welch.high), rel=1e-7)
    assert math.isnan(charts.mean_ci([4])[1]) and math.isnan(charts.mean_ci([])[0])


def test_ratio_ci_covers_the_true_ratio_about_95_times_in_100():
    rng = np.random.default_rng(2026)
    trials, covered = 400, 0
    for _ in range(trials):
        # skewed like game lengths: exponential, true means 6 and 2 (ratio 3)
        ratio, low, high = charts.ratio_ci(rng.exponential(6, 150), rng.exponential(2, 120))
        assert low < ratio < high
        covered += low <= 3 <= high
    # 95% nominal; a binomial(400, 0.95) count stays within 360..396 with near certainty
    assert 360 <= covered <= 396


# -- the hook ----------------------------------------------------------------------------------

def test_hook_bites_reads_the_dealers_rows(teds):
    hands = teds.hands
    bites = charts.hook_bites(hands)
    dealers = hands[hands["dealer"]]
    assert len(bites) == len(dealers) == hands.drop_duplicates(["game", "hand"]).shape[0]
    for row, (_, hand) in zip(bites.itertuples(), dealers.iterrows(), strict=True):
        table = hands[(hands["game"] == row.game) & (hands["hand"] == row.hand)]
        others = int(table[~table["dealer"]]["bid"].sum())
        # the rule text: the dealer may not bid what makes the bids add up to the tricks
        forbidden = row.hand_size - others
        assert row.live == (forbidden >= 0) == bool(hand["hooked"])
        if row.live:
            assert row.forbidden == forbidden and row.bid != forbidden
        assert row.bite == (row.live and row.tricks == forbidden)
        if row.bite:
            assert not hand["made"]  # a bitten dealer misses
    assert bites["bite"].any() and bites["live"].any()


@pytest.mark.parametrize("by", ["seat", "bot", None])
def test_hook_bite_rate_plots_the_rates_counted_by_hand(teds, duel, by):
    for result in (teds, duel):
        hands = result.hands
        fig = charts.hook_bite_rate(hands, by=by)
        dealers = hands[hands["dealer"]].copy()
        dealers["bite"] = [bool(h) and t == f for h, t, f in
                           zip(dealers["hooked"], dealers["tricks"], dealers["forbidden"],
                               strict=True)]
        groups = [("all", dealers)] if by is None else \
            [(str(k), g) for k, g in dealers.groupby(by, observed=True)]
        assert [t.name for t in fig.data] == [name for name, _ in groups]
        for name, group in groups:
            tr = trace(fig, name)
            sizes = sorted(group["hand_size"].unique())
            assert list(tr.x) == sizes
            low, high = error_bounds(tr)
            for i, size in enumerate(sizes):
                mine = group[group["hand_size"] == size]
                k, n = int(mine["bite"].sum()), len(mine)
                assert tr.y[i] == pytest.approx(k / n)
                assert (low[i], high[i]) == pytest.approx(wilson(k, n), abs=1e-9)
                assert tr.text[i] == f"{k}/{n}"


def test_hook_rates_overall_equals_the_share_of_bitten_hands(teds):
    bites = charts.hook_bites(teds.hands)
    overall = charts.hook_rates(teds.hands, by=())
    assert overall["n"].tolist() == [len(bites)]
    assert overall["rate"][0] == pytest.approx(bites["bite"].mean())
    live = charts.hook_rates(teds.hands, by=["seat"], flag="live")
    assert live["seat"].astype(str).tolist() == list(teds.spec.seats)  # in seat order


# -- bids --------------------------------------------------------------------------------------

def test_bid_success_by_size_plots_the_share_of_bids_made(duel):
    hands = duel.hands
    fig = charts.bid_success_by_size(hands, by="bot")
    assert [t.name for t in fig.data] == ["heuristic", "random"]
    for bot in ("heuristic", "random"):
        mine = hands[hands["bot"] == bot]
        made = mine.groupby("hand_size")["made"].agg(["sum", "count"])
        tr = trace(fig, bot)
        assert list(tr.x) == made.index.tolist()
        assert list(tr.y) == pytest.approx((made["sum"] / made["count"]).tolist())
        low, high = error_bounds(tr)
        for i, (k, n) in enumerate(zip(made["sum"], made["count"], strict=True)):
            assert (low[i], high[i]) == pytest.approx(wilson(k, n), abs=1e-9)


@pytest.mark.parametrize("options", [{}, {"double_fewest": True, "negative_scoring": True,
                                          "no_bids": True}])
def test_bid_rows_of_bobs_hat_agree_with_the_replays(tmp_path, options):
    result = run("bobs-hat", 4, bots="random,heuristic", replays=tmp_path,
                 options={"hands": 4, **options})
    rows = charts.bid_rows(result.hands)
    parts = [c for c in result.hands.columns if c.startswith("points_")]
    assert (result.hands[parts].fillna(0).sum(axis=1) == result.hands["score"]).all()
    seen = []
    for game in range(1, 5):
        replay = cardlab.load(tmp_path / f"games-{game}-{game}.zip" / f"game-{game}.json")
        bids = dataframes.bid_results(replay)
        seen += [(game, h, s, b, bool(m)) for h, s, b, m in
                 zip(bids["hand"], bids["seat"], bids["bid"], bids["made"], strict=True)]
    mine = [(int(g), int(h), str(s), b, bool(m)) for g, h, s, b, m in
            zip(rows["game"], rows["hand"], rows["seat"], rows["bid"], rows["made"],
                strict=True)]
    assert sorted(mine) == sorted(seen)  # every bid, and "made" is the engine's
    assert set(rows["kind"]) <= {"most", "fewest", "double-fewest"}
    assert (rows["kind"] == "most").eq(rows["bid"].str.startswith("most-")).all()


def test_bid_points_by_size_plots_the_mean_points_of_each_kind(bobs):
    rows = charts.bid_rows(bobs.hands)
    fig = charts.bid_points_by_size(bobs.hands, by="kind")
    for kind, group in rows.groupby("kind"):
        tr = trace(fig, kind)
        per = group.groupby("hand_size")["points"]
        assert list(tr.x) == sorted(group["hand_size"].unique())
        assert list(tr.y) == pytest.approx(per.mean().tolist())
        low, high = error_bounds(tr)
        for i, (_, points) in enumerate(per):
            if len(points) > 1 and points.std() > 0:
                assert (low[i], high[i]) == pytest.approx(t_interval(points), rel=1e-6)
    only = charts.bid_points_by_size(bobs.hands, bids=["fewest"])
    assert [t.name for t in only.data] == ["fewest"]


def test_the_bids_are_read_as_their_game_declares_them(bobs):
    # No bid's name, kind or colour is written in the charts: each comes from the game's
    # records (its bid parts), whose points columns must be its own nullable integers.
    records = cardlab.get_game("bobs-hat").records()
    rows = charts.bid_rows(bobs.hands)
    first: dict[str, str] = {}  # a kind is drawn in its first bid's colour
    by_bid = charts.bid_points_by_size(bobs.hands)
    by_kind = charts.bid_points_by_size(bobs.hands, by="kind")
    for part in records.bid_parts:
        mine = rows[rows["bid"] == part.bid]
        assert len(mine) == bobs.hands[part.column].notna().sum()
        assert (mine["kind"] == part.kind).all()
        if len(mine):
            assert trace(by_bid, part.bid).line.color == part.colour
            assert trace(by_kind, part.kind).line.color == first.setdefault(part.kind,
                                                                            part.colour)
    assert set(rows["bid"]) == {part.bid for part in records.bid_parts
                                if bobs.hands[part.column].notna().any()}
    for wrong in ("no_such_column", "bid"):  # not the game's; text, and never null
        with pytest.raises(ValueError, match=f"bid 'x' reads its points from '{wrong}'"):
            Records(records.columns, records.recorder,
                    bid_parts=(BidPart(wrong, "x", "x", "#000"),))


# -- scores, seats, lengths --------------------------------------------------------------------

def test_score_distribution_shows_every_total_and_the_mean(duel):
    games = duel.games
    fig = charts.score_distribution(games)
    means = trace(fig, "mean, 95% CI")
    low, high = error_bounds(means)
    for i, bot in enumerate(["heuristic", "random"]):
        totals = games[games["bot"] == bot]["total"]
        assert sorted(trace(fig, bot).y) == sorted(totals.tolist())
        assert means.x[i] == bot and means.y[i] == pytest.approx(totals.mean())
        assert (low[i], high[i]) == pytest.approx(t_interval(totals), rel=1e-6)
    per_hand = charts.score_distribution(duel.hands, by="seat")
    north = duel.hands[duel.hands["seat"] == "North"]["score"]
    assert sorted(trace(per_hand, "North").y) == sorted(north.tolist())


def test_score_from_dealer_plots_the_mean_per_seat_from_the_dealer(teds, bobs):
    for result in (teds, bobs):
        hands = result.hands
        fig = charts.score_from_dealer(hands)
        (bars,) = fig.data
        assert list(bars.x) == ["dealer", "dealer's left", "dealer +2", "dealer +3"]
        expected = hands.groupby("from_dealer")["score"].mean()
        assert list(bars.y) == pytest.approx(expected.tolist())
        dealer = hands[hands["from_dealer"] == 0]["score"]
        low, high = error_bounds(bars)
        assert (low[0], high[0]) == pytest.approx(t_interval(dealer), rel=1e-6)
        by_bot = charts.score_from_dealer(hands, by="bot", title="Edge")
        assert fig.layout.title.text.startswith("Points per hand")
        assert by_bot.layout.title.text.startswith("Edge<br>")  # the reading line stays
        random = hands[hands["bot"] == "random"]
        if len(random):
            assert list(trace(by_bot, "random").y) == pytest.approx(
                random.groupby("from_dealer")["score"].mean().tolist())


def test_game_length_histograms_hold_each_games_length(whots):
    fig = charts.game_length({rules: r.games for rules, r in whots.items()})
    for rules, result in whots.items():
        per_game = result.games.drop_duplicates("game")["actions"]
        # one Whot game per rubber here: the hands table says the same
        assert per_game.tolist() == result.hands.drop_duplicates("game")["actions"].tolist()
        tr = next(t for t in fig.data if t.name.startswith(f"{rules}: "))
        assert list(tr.x) == per_game.tolist()
        mean, (low, high) = per_game.mean(), t_interval(per_game)
        assert tr.name == f"{rules}: mean {mean:.1f} [{low:.1f}, {high:.1f}]"
    lines = [s.x0 for s in fig.layout.shapes]
    assert lines == pytest.approx([r.games.drop_duplicates("game")["actions"].mean()
                                   for r in whots.values()])


def test_game_length_of_a_rubber_counts_each_game_of_it():
    result = run("whot", 3, options={"rubber": "short"})
    fig = charts.game_length(result.hands)
    per_game = result.hands.drop_duplicates(["game", "hand"])["actions"]
    assert list(fig.data[0].x) == per_game.tolist()
    totals = result.games.drop_duplicates("game")["actions"].tolist()
    assert per_game.groupby(result.hands.drop_duplicates(["game", "hand"])["game"]).sum() \
        .tolist() == totals
    assert "How long a game lasts" in fig.layout.title.text
    teds_hands = charts.game_length(run("teds-game", 1, options={"start_size": 2}).hands)
    assert "How long a hand lasts" in teds_hands.layout.title.text


# -- refusals and looks --------------------------------------------------------------------------

def test_a_frame_without_the_columns_is_refused_naming_the_table(bobs, duel):
    # The table to pass is named by the registered games whose hands tables have what the
    # chart reads: the hook's columns only Ted's Game records, bids Bob's Hat's too.
    with pytest.raises(CardlabError) as refused:
        charts.hook_bite_rate(bobs.hands)
    assert str(refused.value) == (
        "the hook reads the column(s) hooked, forbidden, tricks, which this frame does not "
        "have: pass the hands table of a teds-game simulation")
    with pytest.raises(CardlabError, match="hands table"):
        charts.bid_success_by_size(duel.games)
    with pytest.raises(CardlabError, match="not list"):
        charts.score_distribution([1, 2, 3])
    whot = run("whot", 1, options={"rubber": "single"})
    with pytest.raises(CardlabError) as refused:
        charts.bid_rows(whot.hands)
    assert str(refused.value) == (
        "a bid chart reads the column(s) bid, which this frame does not have: pass the hands "
        "table of a bobs-hat or teds-game simulation")
    with pytest.raises(CardlabError) as refused:
        charts.bid_rows(duel.hands.drop(columns="made"))  # the bids, but not what became of them
    assert str(refused.value) == (
        "a bid chart reads whether each bid was made, from a made column or from the points "
        "of each bid, and this frame has neither: pass the hands table of a bobs-hat or "
        "teds-game simulation")


def test_the_table_a_refusal_asks_for_names_the_games_registered_now(bobs, duel):
    """The games a refusal names come from the registry and what each game records, not from
    a list in the charts: a game registered for the test is named while it is registered."""
    teds = cardlab.get_game("teds-game")

    class VariantRules(teds.rules_class):  # Ted's Game under another name: the same records
        name, title = "teds-variant", "Ted's Variant"

    class Variant(type(teds)):
        rules_class = VariantRules

    register(Variant())
    try:
        with pytest.raises(CardlabError, match="a teds-game or teds-variant simulation$"):
            charts.hook_bites(bobs.hands)
        with pytest.raises(CardlabError,
                           match="a bobs-hat, teds-game or teds-variant simulation$"):
            charts.bid_rows(duel.hands.drop(columns="made"))
    finally:
        unregister("teds-variant")
    with pytest.raises(CardlabError, match="a teds-game simulation$"):
        charts.hook_bites(bobs.hands)


def test_seat_names_are_escaped_and_dark_templates_apply():
    seats = ["<b>Ann</b>", "Ben", "Cy", "Di"]  # as a frame of a recorded table might name them
    hands = run("teds-game", 2, options={"start_size": 2}).hands.copy()
    hands["seat"] = hands["seat"].cat.rename_categories(seats)
    fig = charts.hook_bite_rate(hands, template="plotly_dark")
    assert [t.name for t in fig.data] == ["&lt;b&gt;Ann&lt;/b&gt;", "Ben", "Cy", "Di"]
    assert fig.layout.template.layout.paper_bgcolor != \
        charts.hook_bite_rate(hands).layout.template.layout.paper_bgcolor


def test_rates_and_means_keep_the_group_order_and_count_every_row(duel):
    table = charts.means(duel.hands, "score", ["seat", "hand_size"])
    assert table["n"].sum() == len(duel.hands)
    assert list(dict.fromkeys(table["seat"].astype(str))) == list(duel.spec.seats)
    made = charts.rates(duel.hands, "made", ["bot"])
    assert made["k"].tolist() == duel.hands.groupby("bot", observed=True)["made"].sum().tolist()
    assert isinstance(made, pd.DataFrame)
