"""pandas frames from replays: the score sheet, every card, every trick, every step.

Expected values come from the rule texts: the Norwegian review's account of its two hands
(who played what, who won, where the hat went, what each scored), the rulebook's sample score
sheet (each hand's score, then a sub-total, the last line the total) and its deal sizes, and
the Whot deal of six cards each.
"""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import pytest

import cardlab
from cardlab import dataframes
from cardlab.bots import make_bot
from cardlab.cursor import Cursor

ROOT = Path(__file__).resolve().parents[1]
REVIEW = ROOT / "replays" / "norwegian-review.json"
SEATS = ["Tone", "Remo", "Kathrine", "Brad"]


@pytest.fixture(scope="module")
def review() -> cardlab.Replay:
    return cardlab.load(REVIEW)


@pytest.fixture(scope="module")
def full_game() -> cardlab.Replay:
    table = cardlab.new_game("bobs-hat", players=4, seed=31)
    table.play([make_bot("heuristic", "bobs-hat", seed=s) for s in range(4)])
    return table.replay


def test_the_review_score_sheet_matches_the_review(review):
    sheet = dataframes.score_sheet(review)
    assert list(sheet.columns) == SEATS
    assert list(sheet.index) == [(1, "score"), (2, "score"), (2, "sub-total")]
    assert sheet.loc[(1, "score")].tolist() == [-5, -5, -5, -15]
    assert sheet.loc[(2, "score")].tolist() == [-10, -5, 21, -10]
    assert sheet.loc[(2, "sub-total")].tolist() == [-15, -10, 16, -25]


def test_a_finished_game_sheet_is_laid_out_like_the_sample_sheet(full_game):
    rows = dataframes.sheet_rows(full_game)
    kinds = [kind for _, kind, _ in rows]
    # #1 score, #2 score, sub-total, #3 score, sub-total, ..., #10 score, total
    assert kinds == ["score", "score"] + ["sub-total", "score"] * 8 + ["total"]
    assert [n for n, kind, _ in rows if kind == "score"] == list(range(1, 11))
    running = [0, 0, 0, 0]
    for number, kind, values in rows:
        if kind == "score":
            running = [a + b for a, b in zip(running, values, strict=True)]
            assert values == full_game.hands[number - 1].scores
        else:
            assert values == running
    assert rows[-1][2] == full_game.totals


def test_a_redealt_hand_is_one_line_of_the_sheet():
    table = cardlab.new_game("bobs-hat", players=3, seed=4, hands=2, mode="table")
    table.act("hat -10")
    for _ in range(3):
        table.act(table.state.legal_texts()[0])
    # find a play that does not follow suit although the player could: a renege
    state = table.state
    table.act(state.legal_texts()[0])  # the lead
    seat = state.to_act()
    led = table.replay.hands[0].actions[-1].act.split()[1].rstrip("0123456789")
    held = state.snapshot()["hands"][seat]
    if not any(code.startswith(led) for code in held) or all(c.startswith(led) for c in held):
        pytest.fail("seed 4 should give the second player both the suit led and another")
    off_suit = next(code for code in held if not code.startswith(led))
    table.act(f"play {off_suit}")  # recorded (table mode); the seeded table redeals at once
    assert table.replay.hands[0].scores[seat] == -15
    assert (table.state.hand_number(), table.state.snapshot()["attempt"]) == (1, 2)
    table.play([make_bot("random", "bobs-hat", seed=s) for s in range(3)])
    replay = table.replay
    assert len(replay.hands) == 3  # hand 1 twice (the redeal), then hand 2
    rows = dataframes.sheet_rows(replay)
    assert [(n, kind) for n, kind, _ in rows] == [(1, "score"), (2, "score"), (2, "total")]
    first = [a + b for a, b in zip(replay.hands[0].scores, replay.hands[1].scores, strict=True)]
    assert rows[0][2] == first
    components = dataframes.score_components(replay)
    renege = components[(components["component"] == "renege") & (components["points"] != 0)]
    assert renege[["hand", "seat", "points"]].values.tolist() == [[1, replay.seats[seat], -15]]


def test_plays_has_one_row_per_card_with_the_trick_facts(review):
    plays = dataframes.plays(review)
    assert len(plays) == 4 * 5 + 4 * 6  # every card dealt is played once
    trick = plays[(plays["hand"] == 1) & (plays["trick"] == 4)]
    assert trick["card"].tolist() == ["red12", "red20", "black3", "red14"]
    assert trick["seat"].tolist() == ["Remo", "Kathrine", "Brad", "Tone"]
    assert set(trick["leader"]) == {"Remo"} and set(trick["winner"]) == {"Brad"}
    assert trick["won"].tolist() == [False, False, True, False]
    assert set(trick["reason"]) == {"the only trump"}
    assert trick["suit"].tolist() == ["red", "red", "black", "red"]
    assert trick["rank"].tolist() == [12, 20, 3, 14]
    assert set(trick["trump"]) == {"black"}
    assert trick["step"].tolist() == [18, 19, 20, 21]  # steps count from the deal (step 0)


def test_plays_of_a_full_game_count_the_rulebook_deal_sizes(full_game):
    plays = dataframes.plays(full_game)
    # hand k deals 4 + k cards to each of the 4 players, and every card is played
    assert len(plays) == sum(4 * (4 + k) for k in range(1, 11))
    assert (plays.groupby(["hand", "trick"])["won"].sum() == 1).all()


def test_tricks_follow_the_hat_as_the_review_tells_it(review):
    tricks = dataframes.tricks(review)
    first = tricks[tricks["hand"] == 1]
    assert first["winner"].tolist() == ["Tone", "Brad", "Remo", "Brad", "Brad"]
    assert first["hat_holder"].tolist() == ["Tone", "Brad", "Remo", "Brad", "Brad"]
    second = tricks[tricks["hand"] == 2]
    assert second["winner"].tolist() == ["Brad", "Kathrine", "Kathrine", "Brad", "Kathrine",
                                         "Remo"]
    assert [h if isinstance(h, str) else None for h in second["hat_holder"]] == \
        [None, None, "Kathrine", "Kathrine", "Kathrine", "Kathrine"]
    assert first["cards"].iloc[3] == "red12 red20 black3 red14"


def test_score_components_split_the_review_scores(review):
    comp = dataframes.score_components(review)
    table = comp.pivot_table(index=["hand", "seat"], columns="component", values="points")
    # hand 1: Brad misses most black (-5) and holds the -10 hat; hand 2: Kathrine makes
    # most red with six red cards (5 + 6) and holds the +10 hat
    assert table.loc[(1, "Brad"), "bids"] == -5 and table.loc[(1, "Brad"), "hat"] == -10
    assert table.loc[(2, "Kathrine"), "bids"] == 11 and table.loc[(2, "Kathrine"), "hat"] == 10
    assert table.loc[(2, "Tone"), "bids"] == -10 and table.loc[(2, "Tone"), "hat"] == 0
    sums = comp.groupby(["hand", "seat"])["points"].sum()
    for hand in (1, 2):
        for s, name in enumerate(SEATS):
            assert sums.loc[(hand, name)] == review.hands[hand - 1].scores[s]


def test_bid_results_of_the_review(review):
    bids = dataframes.bid_results(review)
    made = bids[bids["made"]]
    assert made[["hand", "seat", "bid"]].values.tolist() == [[2, "Kathrine", "most-red"]]
    assert len(bids) == 4 + 6  # one bid each in hand 1; Tone and Brad bid two in hand 2


def test_teds_game_bids_are_made_exactly():
    table = cardlab.new_game("teds-game", players=3, seed=8)
    table.play([make_bot("heuristic", "teds-game", seed=s) for s in range(3)])
    replay = table.replay
    bids = dataframes.bid_results(replay)
    results = dataframes.hand_results_list(replay)
    assert len(bids) == 3 * len(replay.hands)
    for row in bids.itertuples():
        end = results[row.hand - 1].end
        seat = replay.seats.index(row.seat)
        assert row.made == (end["tricks_won"][seat] == int(row.bid))
        score = results[row.hand - 1].scores[seat]
        # Ted's Game: an exact bid scores 10 + bid squared (a zero bid 10 + cards dealt);
        # a miss loses the miss cubed
        if row.made:
            bid = int(row.bid)
            assert score == 10 + (bid * bid if bid else end["hand_size"])
        else:
            assert score == -abs(end["tricks_won"][seat] - int(row.bid)) ** 3


def test_steps_carry_notes_in_either_language(review):
    en = dataframes.steps(review, lang="en")
    no = dataframes.steps(review, lang="no")
    assert len(en) == len(Cursor(review)) == 2 + 25 + 29
    assert en["note"].iloc[0].startswith("Brad deals five cards each")
    assert no["note"].iloc[0].startswith("Brad gir fem kort")
    assert en["verb"].iloc[0] == "deal" and en["action"].iloc[1] == "hat -10"
    assert en.loc[en["step"] == 20, ["seat", "action", "trick"]].values.tolist() == \
        [["Brad", "play black3", 4]]


def test_positions_are_the_cursor_positions(review):
    cursor = Cursor(review)
    walked = list(dataframes.positions(review))
    assert len(walked) == len(cursor)
    for i in (0, 1, 9, 26, 27, len(cursor) - 1):
        assert walked[i] == cursor.goto(i).position
    seat_view = list(dataframes.positions(review, seat=3))
    assert seat_view[20] == Cursor(review, seat=3).goto(20).position


def test_seat_steps_count_cards_in_hand_for_whot():
    table = cardlab.new_game("whot", players=3, seed=5, rubber="single")
    table.play([make_bot("heuristic", "whot", seed=s) for s in range(3)])
    df = dataframes.seat_steps(table.replay)
    start = df[df["step"] == 0]
    assert start["held"].tolist() == [6, 6, 6]  # Whot deals six cards each
    end = df[df["step"] == df["step"].max()]
    assert 0 in end["held"].tolist()  # the winner played his last card
    plays = dataframes.plays(table.replay)
    assert (plays["action"].str.startswith("play ")).all()
    assert set(plays.columns) >= {"hand", "step", "seat", "card", "call_card"}
    assert (plays["card"] == plays["call_card"]).all()  # a played card becomes the call card


def test_the_styled_sheet_highlights_the_current_hand(review):
    styled = dataframes.styled_sheet(review, current=1).to_html()
    assert "#fff3b0" in styled


def test_a_missing_extra_names_the_pip_command():
    with pytest.raises(dataframes.MissingExtraError, match=r"pip install 'cardlab\[widgets\]'"):
        dataframes.require("cardlab_no_such_module")
    with pytest.raises(dataframes.MissingExtraError, match=r"pip install 'cardlab\[sim\]'"):
        dataframes.require("pyarrow.cardlab_no_such_module")  # pyarrow's extra
    with pytest.raises(dataframes.MissingExtraError, match=r"pip install 'cardlab\[scale\]'"):
        dataframes.require("cardlab_no_such_module", "scale")
    assert issubclass(dataframes.MissingExtraError, cardlab.CardlabError)
    assert issubclass(dataframes.MissingExtraError, ImportError)


class FakePyodide:
    """What a browser's Pyodide offers :func:`dataframes.load_in_browser`: ``pyodide_js`` with
    ``loadPackage`` and ``pyodide.ffi`` with ``run_sync``. Loading a package writes its module
    into ``site`` (a folder on sys.path), as Pyodide unpacks a wheel into site-packages."""

    def __init__(self, site: Path, can_wait: bool) -> None:
        self.site, self.can_wait, self.loaded = site, can_wait, []

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        js = types.ModuleType("pyodide_js")
        js.loadPackage = lambda name: ("load", name)  # a promise, as run_sync sees it
        ffi = types.ModuleType("pyodide.ffi")
        ffi.can_run_sync = lambda: self.can_wait
        ffi.run_sync = self.run_sync
        package = types.ModuleType("pyodide")
        package.ffi = ffi
        monkeypatch.setitem(sys.modules, "pyodide_js", js)
        monkeypatch.setitem(sys.modules, "pyodide", package)
        monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
        monkeypatch.setattr(sys, "platform", "emscripten")
        monkeypatch.syspath_prepend(str(self.site))

    def run_sync(self, promise: tuple[str, str]) -> None:
        _, name = promise
        self.loaded.append(name)
        (self.site / f"{name}.py").write_text("LOADED = True\n", encoding="utf-8")


def test_in_the_browser_a_missing_package_is_loaded_on_first_use(tmp_path, monkeypatch):
    fake = FakePyodide(tmp_path, can_wait=True)
    fake.install(monkeypatch)
    module = dataframes.require("cardlab_test_lazy")
    assert module.LOADED and fake.loaded == ["cardlab_test_lazy"]
    # pandas is never on the site: nothing is asked, the message names cardlab.tables
    with pytest.raises(dataframes.MissingExtraError, match="cardlab.tables"):
        dataframes.require("pandas.cardlab_no_such_module")
    assert fake.loaded == ["cardlab_test_lazy"]


def test_in_a_browser_that_cannot_wait_the_message_says_to_import_it(tmp_path, monkeypatch):
    fake = FakePyodide(tmp_path, can_wait=False)
    fake.install(monkeypatch)
    with pytest.raises(dataframes.MissingExtraError) as raised:
        dataframes.require("cardlab_test_lazy2.graph")
    said = str(raised.value)
    assert "run `import cardlab_test_lazy2` in a cell first" in said and "\n" not in said
    assert fake.loaded == []


def test_in_the_browser_a_package_the_site_lacks_is_a_missing_extra(tmp_path, monkeypatch):
    fake = FakePyodide(tmp_path, can_wait=True)
    fake.run_sync = lambda promise: fake.loaded.append(promise[1])  # nothing comes
    fake.install(monkeypatch)
    with pytest.raises(dataframes.MissingExtraError, match=r"cardlab\[scale\]"):
        dataframes.require("cardlab_test_absent", "scale")
    assert fake.loaded == ["cardlab_test_absent"]


def test_outside_a_browser_nothing_is_loaded():
    assert dataframes.load_in_browser("plotly") is False


def test_importing_cardlab_and_its_view_stays_light():
    code = ("import sys, cardlab, cardlab.dataframes, cardlab.explore, cardlab.view, "
            "cardlab.view.charts\n"
            "print(sorted(m for m in ('pandas', 'plotly', 'ipywidgets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


# -- linear time: each frame walks each hand once ------------------------------------------------

def _long_whot() -> cardlab.Replay:
    """One Whot game of 2,000 actions: players who draw whenever they may."""
    import random

    table = cardlab.new_game("whot", players=3, seed=4, rubber="single")
    rng = random.Random(1)
    while table.state.to_act() >= 0 and len(table.replay.hands[0].actions) < 2000:
        texts = table.state.legal_texts()
        table.act("draw" if "draw" in texts and rng.random() < 0.93 else rng.choice(texts))
    return cardlab.loads(table.replay.to_json())


def _with_variation(replay: cardlab.Replay) -> tuple[cardlab.Replay, tuple]:
    from cardlab import explore

    state = explore.line_state(replay, 1, (), 2)
    other = next(t for t in state.legal_texts() if t != replay.hands[0].actions[2].act)
    return replay, explore.branch(replay, hand=1, index=2, action=other, bots="random").path


FRAME_FUNCTIONS = {
    "walk": lambda r, h, p: list(dataframes.walk(r, h, p)),
    "positions": lambda r, h, p: list(dataframes.positions(r, h, p)),
    "hand_results_list": dataframes.hand_results_list,
    "hand_results": dataframes.hand_results,
    "sheet_rows": dataframes.sheet_rows,
    "score_sheet": dataframes.score_sheet,
    "styled_sheet": lambda r, h, p: dataframes.styled_sheet(r, 1, h, p).to_html(),
    "score_components": lambda r, h, p: dataframes.score_components(r),
    "bid_results": lambda r, h, p: dataframes.bid_results(r),
    "play_rows": dataframes.play_rows,
    "plays": dataframes.plays,
    "tricks": dataframes.tricks,
    "steps": lambda r, h, p: dataframes.steps(r, "en", h, p),
    "seat_steps": dataframes.seat_steps,
}


@pytest.fixture(scope="module")
def long_games() -> list[cardlab.Replay]:
    return [_long_whot(), *_with_variation(cardlab.loads(_full_game_json()))]


def _full_game_json() -> str:
    table = cardlab.new_game("bobs-hat", players=4, seed=31)
    table.play([make_bot("heuristic", "bobs-hat", seed=s) for s in range(4)])
    return table.replay.to_json()


@pytest.mark.parametrize("name", sorted(FRAME_FUNCTIONS))
def test_frames_replay_each_action_once(name, long_games, monkeypatch):
    """Work is counted, not timed: the engine calls a frame makes are at most a small
    constant per action, so a 2,000-action hand is not replayed from its deal at each step."""
    whot, review_like, path = long_games
    calls: dict[str, int] = {}

    def counting(cls: type, method: str) -> None:
        original = getattr(cls, method)

        def counted(self, *args, **kwargs):
            calls[method] = calls.get(method, 0) + 1
            return original(self, *args, **kwargs)

        monkeypatch.setattr(cls, method, counted)

    for replay in (whot, review_like):
        cls = type(replay.new_state())
        for method in ("apply", "apply_chance", "clone", "snapshot", "legal_actions"):
            counting(cls, method)
    counting(cardlab.Replay, "line")
    for replay, hand, line in ((whot, None, ()), (review_like, None, ()),
                               (review_like, 1, path)):
        calls.clear()
        FRAME_FUNCTIONS[name](replay, hand, line)
        actions = sum(len(h.actions) for h in replay.hands)
        if line:
            actions += len(replay.line(1, line))
        steps = actions + len(replay.hands)
        where = f"{name} on {replay.game} ({actions} actions), path {line}"
        assert actions >= 400, where
        assert 0 < calls.get("apply", 0) <= actions, (where, calls)
        assert calls.get("apply_chance", 0) <= len(replay.hands) + 1, (where, calls)
        assert calls.get("clone", 0) <= len(replay.hands), (where, calls)
        assert calls.get("snapshot", 0) <= steps + len(replay.hands), (where, calls)
        assert calls.get("legal_actions", 0) <= 2 * steps, (where, calls)
        assert calls.get("line", 0) <= 2 * len(replay.hands), (where, calls)
