"""The text view (``cardlab show``) writes exactly what the positions of its steps say.

``text.render_steps`` builds a whole position only where its text reads one (a deal, a
completed trick, a renege, a hand's end), so a long replay shows fast. ``reference_steps``
below is the straightforward way it replaced: the cursor's full position (a seat's view) at
every step, read line by line. For every shipped replay and seeded games of every game and
option set (plus the hiding options, table-mode records and an unfinished hand), for
everyone and every seat, with and without notes and in each language of the notes, both
write the same lines at the same steps.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tablegames import table_mode_game

import cardlab
from cardlab import console, text
from cardlab.bots import make_bot
from cardlab.cli import main
from cardlab.cursor import Cursor, walk
from cardlab.game import list_games
from cardlab.seatview import visible_action

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "replays").glob("*.json"))


# -- the reference: a whole position at every step ---------------------------------------

def _reveal(cursor: Cursor, redacted: list[tuple[int, str, str]], lines: list[str]
            ) -> list[tuple[int, str, str]]:
    still = []
    for actor, act, shown in redacted:
        now = visible_action(cursor.state, actor, act, cursor.seat)
        if now != shown:
            lines.append(f"  {cursor.replay.seats[actor]}: {now} (revealed)")
        if now != act:
            still.append((actor, act, now))
    return still


def reference_steps(replay: cardlab.Replay, seat: int | None = None, lang: str = "en",
                    notes: bool = True) -> Iterator[tuple[int | None, list[str]]]:
    """``text.render_steps`` as it was: every line read from ``Cursor.position``."""
    seats = replay.seats
    yield None, [replay.meta.get("title") or replay.rules.title, "Seats: " + ", ".join(seats)]
    cursor = Cursor(replay, seat=seat)
    done_tricks = 0
    redacted: list[tuple[int, str, str]] = []
    for index in range(len(cursor)):
        lines: list[str] = []
        pos = cursor.goto(index).position
        step = cursor.step
        if step.index == 0:
            lines.append(text._header(replay, pos, pos.get("attempt", 1)))
            done_tricks, redacted = 0, []
        action = pos["action"]
        if action is not None and ("tricks" not in pos or not action["act"].startswith("play")):
            lines.append(f"  {action['seat']}: {action['act']}")
            recorded = cursor.action
            if recorded is not None and recorded.act != action["act"]:
                redacted.append((seats.index(recorded.seat), recorded.act, action["act"]))
        if "tricks" in pos and len(pos["tricks"]) > done_tricks:
            done_tricks = len(pos["tricks"])
            trick = pos["tricks"][-1]
            cards = ", ".join(f"{seats[s]} {code}" for s, code in trick["cards"])
            lines.append(f"  Trick {done_tricks}: {cards} → {seats[trick['winner']]} "
                         f"({trick['winning_card']}: {trick['reason']})"
                         + replay.rules.game.table_words.transcript_trick(pos, seats))
        if redacted:
            redacted = _reveal(cursor, redacted, lines)
        renege = pos.get("renege")
        if isinstance(renege, dict):
            line = f"  RENEGE by {seats[renege['seat']]} ({renege['card']})"
            if renege.get("penalty"):
                line += f": {renege['penalty']:+d}"
            if renege.get("redeal"):
                line += ", the hand is dealt again"
            lines.append(line)
        said = text._note(pos["note"], lang) if notes else None
        if said:
            lines.append(f"    » {said}")
        if step.index == len(cursor.line):
            record = replay.hands[step.hand - 1]
            if record.scores is not None:
                signed = "" if replay.rules.low_score_wins else "+"
                scores = ", ".join(f"{s} {v:{signed}d}" for s, v in zip(seats, record.scores,
                                                                         strict=True))
                totals = ", ".join(f"{s} {v}" for s, v in zip(seats, pos["totals"],
                                                               strict=True))
                lines.append(f"  Scores: {scores}")
                lines.append(f"  Totals: {totals}")
            else:
                lines.append(f"  ({replay.rules.game.game_type.hand_word} not finished)")
        yield index, lines
    if replay.totals is not None:
        winners = [seats[s] for s in replay.rules.winners(replay.totals)]
        final = ", ".join(f"{s} {v}" for s, v in zip(seats, replay.totals, strict=True))
        yield None, [f"Final: {final} — {' and '.join(winners)} "
                     f"{'win' if len(winners) > 1 else 'wins'}"]


# -- the games compared --------------------------------------------------------------------

def _cached(maker: Callable[..., cardlab.Replay]) -> Callable[..., cardlab.Replay]:
    """Each game is played once for the module (the tests only read the replays)."""
    made: dict[str, cardlab.Replay] = {}

    def get(game: str, options: dict[str, Any], n: int) -> cardlab.Replay:
        key = json.dumps([game, options, n], sort_keys=True)
        if key not in made:
            made[key] = maker(game, options, n)
        return made[key]
    return get


@_cached
def _bot_game(game: str, options: dict[str, Any], seed: int) -> cardlab.Replay:
    table = cardlab.new_game(game, seed=seed, **options)
    kind = "heuristic" if seed % 2 else "random"
    table.play([make_bot(kind, game, seed=seed * 10 + s) for s in range(table.state.rules.players)])
    return table.replay


@_cached
def _table_mode_game(game: str, options: dict[str, Any], seed: int) -> cardlab.Replay:
    return table_mode_game(game, options, seed, misplay_rate=0.05)


@_cached
def _unfinished(game: str, options: dict[str, Any], actions: int) -> cardlab.Replay:
    table = cardlab.new_game(game, seed=4, **options)
    bot = make_bot("random", game, seed=4)
    for _ in range(actions):
        table.apply(bot(table.state, table.state.to_act()))
    return table.replay


def _option_sets() -> list[tuple[str, dict[str, Any]]]:
    out = [(name, options) for name, info in sorted(list_games().items())
           for options in info.rules_class.conformance_option_sets()]
    out.append(("bobs-hat", {"players": 4, "hands": 3, "secret_bidding": True}))
    out.append(("bobs-hat", {"players": 3, "hands": 4, "hat_reveal": "when-found",
                             "secret_bidding": True, "no_bids": True}))
    out.append(("bobs-hat", {"players": 5, "hands": 2, "hat_reveal": "when-found",
                             "mode": "table", "secret_bidding": True}))
    return out


def _ids(value: Any) -> str:
    return value if isinstance(value, str) else ",".join(f"{k}={x}" for k, x in value.items())


def _langs(replay: cardlab.Replay) -> list[str]:
    notes = [h.note for h in replay.hands] + [a.note for h in replay.hands for a in h.actions]
    return sorted({"en"} | {lang for note in notes if isinstance(note, dict) for lang in note})


MARKS = ("Trick ", "; hat: ", "(revealed)", "RENEGE by", "(redeal ", "(hand not finished)",
         "    » ", "bid (secret)", "hat chosen", "Final: ")


def assert_same_text(replay: cardlab.Replay) -> None:
    """For everyone and every seat, with and without notes, in each language of the notes:
    the same lines at the same steps as the reference, and ``render`` their join."""
    for seat in [None, *range(len(replay.seats))]:
        for lang in _langs(replay):
            for notes in (True, False):
                fast = list(text.render_steps(replay, seat=seat, lang=lang, notes=notes))
                slow = list(reference_steps(replay, seat=seat, lang=lang, notes=notes))
                for (step, lines), (ref_step, ref_lines) in zip(fast, slow, strict=True):
                    assert (step, lines) == (ref_step, ref_lines), (seat, lang, notes, step)
                joined = "\n".join(line for _, lines in slow for line in lines)
                assert text.render(replay, seat=seat, lang=lang, notes=notes) == joined


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_replays_read_as_their_positions(path):
    assert_same_text(cardlab.load(path))


@pytest.mark.parametrize("game,options", _option_sets(), ids=_ids)
def test_seeded_games_read_as_their_positions(game, options):
    assert_same_text(_bot_game(game, options, len(json.dumps(options)) % 7 + 1))


TABLE_MODE: list[tuple[str, dict[str, Any], int]] = [
    ("bobs-hat", {"players": 4, "hands": 3}, 2),
    ("bobs-hat", {"players": 3, "hands": 2, "secret_bidding": True,
                  "hat_reveal": "when-found"}, 5),
    ("teds-game", {"players": 4, "start_size": 4}, 3),
    ("whot", {"players": 3, "rubber": "short", "max_turns": 400}, 1),
]


@pytest.mark.parametrize("game,options,seed", TABLE_MODE, ids=[g for g, _, _ in TABLE_MODE])
def test_table_mode_records_read_as_their_positions(game, options, seed):
    assert_same_text(_table_mode_game(game, options, seed))


UNFINISHED: list[tuple[str, dict[str, Any], int]] = [
    ("bobs-hat", {"players": 3, "hands": 2}, 9),
    ("teds-game", {"players": 3, "start_size": 2}, 5),
    ("whot", {"players": 2, "rubber": "single"}, 7),
]


@pytest.mark.parametrize("game,options,actions", UNFINISHED, ids=[g for g, _, _ in UNFINISHED])
def test_an_unfinished_hand_reads_as_its_positions(game, options, actions):
    assert_same_text(_unfinished(game, options, actions))


def _corpus() -> Iterator[cardlab.Replay]:
    yield from (cardlab.load(path) for path in SHIPPED)
    for game, options in _option_sets():
        yield _bot_game(game, options, len(json.dumps(options)) % 7 + 1)
    for game, options, seed in TABLE_MODE:
        yield _table_mode_game(game, options, seed)
    for game, options, actions in UNFINISHED:
        yield _unfinished(game, options, actions)


def test_the_comparison_meets_every_kind_of_line():
    """The games compared above write every kind of line the text view has, so each way
    the fast path reads a step is compared with the reference."""
    written: Counter[str] = Counter()
    for replay in _corpus():
        for seat in [None, *range(len(replay.seats))]:
            shown = text.render(replay, seat=seat)
            written.update({mark: shown.count(mark) for mark in MARKS})
    assert written["Trick "] > 100 and all(written[mark] for mark in MARKS), written


@pytest.mark.parametrize("shortcut,game,options,seed", [
    ("_trick_count", "teds-game", {"players": 3, "start_size": 2}, 1),
    ("_may_renege", "bobs-hat", {"players": 4, "hands": 3}, 2),
])
def test_the_comparison_catches_a_wrong_shortcut(monkeypatch, shortcut, game, options, seed):
    """Break one of the fast path's shortcuts: the comparison must fail (a test that cannot
    fail is no test)."""
    replay = (_table_mode_game(game, options, seed) if shortcut == "_may_renege"
              else _bot_game(game, options, seed))
    assert_same_text(replay)
    monkeypatch.setattr(text, shortcut, lambda *args: 0)
    with pytest.raises(AssertionError):
        assert_same_text(replay)


def test_walk_gives_the_cursor_states_in_one_pass():
    replay = _bot_game("bobs-hat", {"players": 4, "hands": 2, "mode": "table"}, 3)
    cursor = Cursor(replay)
    walked = [(step, hand, index, json.dumps(state.snapshot()))
              for step, hand, index, state in walk(replay)]
    assert len(walked) == len(cursor)
    for step, hand, index, snapshot in walked:
        cursor.goto(step)
        assert (cursor.step.hand, cursor.step.index) == (hand + 1, index)
        assert json.dumps(cursor.state.snapshot()) == snapshot


@pytest.mark.parametrize("seat", [None, "Bo"])
def test_cardlab_show_prints_the_render_line_by_line(tmp_path, capsys, monkeypatch, seat):
    table = cardlab.new_game("whot", players=3, seed=9, seats=["Al", "Bo", "Cy"],
                             rubber="short", max_turns=3000)
    table.play([make_bot("random", "whot", seed=s) for s in range(3)])
    path = tmp_path / "long.json"
    table.save(path)
    index = None if seat is None else table.replay.seats.index(seat)
    expected = text.render(table.replay, seat=index) + "\n"
    count = expected.count("\n")
    assert count > 1000
    # written in chunks of lines: one line, a few, a count that divides the lines exactly,
    # exactly all of them, more than all
    divisor = next(d for d in range(3, count) if count % d == 0)
    for chunk in (1, 7, divisor, count, count + 1, 4096):
        monkeypatch.setattr(console, "SAY_CHUNK", chunk)
        with pytest.raises(SystemExit) as done:
            main(["show", str(path)] + (["--seat", seat] if seat else []))
        assert done.value.code == 0
        assert capsys.readouterr().out == expected, chunk
