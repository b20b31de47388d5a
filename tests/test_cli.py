"""The command line: play, show, validate; bad input gives one line on stderr and exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from importpath import PACKAGE

import cardlab
from cardlab.cli import main
from cardlab.view.page import page_html

ROOT = Path(__file__).resolve().parents[1]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardlab", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_play_show_validate(tmp_path, capsys):
    out = tmp_path / "game.json"
    with pytest.raises(SystemExit) as code:
        main(["play", "bobs-hat", "--players", "4", "--seed", "7", "--option", "hands=2",
              "--option", "double-fewest=true", "--out", str(out)])
    assert code.value.code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["options"]["double_fewest"] is True and len(data["hands"]) == 2
    with pytest.raises(SystemExit):
        main(["show", str(out)])
    shown = capsys.readouterr().out
    assert "Trick 1:" in shown and "Totals:" in shown and "Final:" in shown
    with pytest.raises(SystemExit):
        main(["validate", str(out)])
    assert "valid Where's Bob's Hat? replay, 2 hands" in capsys.readouterr().out


def test_one_hand_and_one_game_are_said_in_the_singular(tmp_path, capsys):
    """A one-hand replay is "1 hand" (the issue saw "1 hands"); a Whot rubber of one game
    counts games, its own word."""
    for game, option, word in (("bobs-hat", "hands=1", "1 hand"),
                               ("whot", "rubber=single", "1 game")):
        out = tmp_path / f"{game}.json"
        with pytest.raises(SystemExit):
            main(["play", game, "--seed", "2", "--option", option, "--out", str(out)])
        assert capsys.readouterr().out.startswith(f"wrote {out}: {word}; ")
        with pytest.raises(SystemExit):
            main(["validate", str(out)])
        said = capsys.readouterr().out
        assert f" replay, {word}, " in said and " actions" in said, said


def test_the_same_seed_gives_the_same_file(tmp_path):
    for name in ("a.json", "b.json"):
        with pytest.raises(SystemExit):
            main(["play", "bobs-hat", "--seed", "3", "--option", "hands=2", "--bots",
                  "random,heuristic,random,heuristic", "--out", str(tmp_path / name)])
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_show_from_one_seat_hides_the_others(capsys):
    with pytest.raises(SystemExit):
        main(["show", str(ROOT / "replays" / "norwegian-review.json"), "--seat", "Brad",
              "--lang", "no"])
    shown = capsys.readouterr().out
    assert "Brad gir fem kort" in shown and "Trick 4:" in shown


@pytest.mark.parametrize("args,fragment", [
    (["validate", "missing.json"], "missing.json: no such file"),
    (["play", "bridge", "--out", "x.json"], "no game called 'bridge'"),
    (["play", "bobs-hat", "--option", "colour=blue", "--out", "x.json"], "no option 'colour'"),
    (["play", "bobs-hat", "--option", "hands", "--out", "x.json"], "NAME=VALUE"),
    (["play", "bobs-hat", "--bots", "genius", "--out", "x.json"], "not 'genius'"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_one_line_exit_2(args, fragment):
    result = cli(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in result.stderr


def test_a_tampered_file_names_the_place(tmp_path):
    data = json.loads((ROOT / "replays" / "norwegian-review.json").read_text(encoding="utf-8"))
    data["hands"][0]["actions"][6]["act"] = "play red9"  # Remo holds blue14: he must follow
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    result = cli("validate", str(bad))
    assert result.returncode == 2
    line = result.stderr.strip()
    assert "$.hands[0].actions[6].act" in line and "hand 1, step 7, seat Remo" in line
    assert "Remo must follow blue, the suit led: Remo holds blue 14" in line


def test_play_writes_through_a_link_with_names_that_have_spaces(tmp_path):
    target = tmp_path / "games" / "real.json"
    target.parent.mkdir()
    link = tmp_path / "latest.json"
    link.symlink_to(target)
    result = cli("play", "bobs-hat", "--option", "hands=1", "--seats", "Ann Lee,Bo,Kåre,Di",
                 "--out", str(link))
    assert result.returncode == 0 and result.stderr == ""
    assert link.is_symlink() and json.loads(target.read_text(encoding="utf-8"))["seats"] == [
        "Ann Lee", "Bo", "Kåre", "Di"]
    shown = cli("show", str(link), "--seat", "Ann Lee")
    assert shown.returncode == 0 and "Ann Lee" in shown.stdout
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["games", "latest.json", "real.json"]


def test_a_bad_out_is_refused_before_the_game_is_played(tmp_path, monkeypatch):
    import cardlab.replay

    played = []
    monkeypatch.setattr(cardlab.table.Table, "play", lambda self, bots: played.append(1))
    with pytest.raises(SystemExit) as code:
        main(["play", "bobs-hat", "--out", str(tmp_path / "missing" / "x.json")])
    assert code.value.code == 2 and played == []


def test_a_limit_lowered_refuses_and_raised_again_accepts():
    review = str(ROOT / "replays" / "norwegian-review.json")
    refused = cli("validate", review, "--limit", "max_hands=1")
    assert refused.returncode == 2 and "--limit max_hands=N" in refused.stderr
    accepted = cli("validate", review, "--limit", "max_hands=2", "--limit", "max-note-chars=5000")
    assert accepted.returncode == 0
    assert "valid Where's Bob's Hat? replay, 2 hands" in accepted.stdout
    shown = cli("show", review, "--limit", "max_hands=2")
    assert shown.returncode == 0 and "Totals: Tone -15" in shown.stdout


def test_html_without_out_writes_into_the_current_folder(tmp_path, monkeypatch, capsys):
    examples = PACKAGE / "examples"
    before = sorted(p.name for p in examples.iterdir())
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as code:
        main(["html", str(ROOT / "replays" / "norwegian-review.json")])
    assert code.value.code == 0
    page = tmp_path / "norwegian-review.html"
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert capsys.readouterr().out == f"wrote {page.name}\n"
    assert sorted(p.name for p in examples.iterdir()) == before  # nothing beside the replay


def test_html_future_opens_the_page_with_the_moves_to_come(tmp_path):
    """``--future`` is the one difference: the page's movie says to open with "show moves to
    come" on (tests/browser/test_page.py looks at what the page then shows)."""
    replay = ROOT / "replays" / "norwegian-review.json"
    with pytest.raises(SystemExit):
        main(["html", str(replay), "-o", str(tmp_path / "plain.html")])
    with pytest.raises(SystemExit):
        main(["html", str(replay), "--future", "-o", str(tmp_path / "future.html")])
    plain = (tmp_path / "plain.html").read_text(encoding="utf-8")
    future = (tmp_path / "future.html").read_text(encoding="utf-8")
    assert plain == page_html(cardlab.load(replay))
    assert future == page_html(cardlab.load(replay), future=True)

    def movie(page: str) -> dict:
        start = page.index('id="cardlab-movie">') + len('id="cardlab-movie">')
        return json.loads(page[start:page.index("</script>", start)])

    assert "future" not in movie(plain) and movie(future)["future"] is True
    assert future.replace(',"future":true', "", 1) == plain


def test_html_with_an_empty_out_is_refused(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cardlab", "html",
                           str(ROOT / "replays" / "norwegian-review.json"), "-o", ""],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr and list(tmp_path.iterdir()) == []


# -- from any folder: the version, the examples, the help ----------------------------------------

def cli_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardlab", *args], capture_output=True,
                          text=True, cwd=folder, timeout=120)


def test_the_version_says_the_python_and_the_kernel(tmp_path):
    import cardlab
    from cardlab import kernel

    done = cli_in(tmp_path, "--version")
    assert done.returncode == 0
    # Nothing on stderr but, with the pure kernel not asked for (no CARDLAB_PURE=1), the one
    # warning its import gives (tests/test_kernel.py checks the warning itself)
    said = done.stderr.splitlines()
    if kernel.COMPILED or os.environ.get("CARDLAB_PURE") == "1":
        assert said == []
    else:
        assert len(said) == 1 and "PureKernelWarning: cardlab's kernel is not compiled" in said[0]
    line = done.stdout.strip()
    assert line.startswith(f"cardlab {cardlab.__version__} (Python {sys.version.split()[0]}")
    assert ("kernel compiled" if kernel.COMPILED else "kernel pure Python") in line


def test_the_shipped_examples_from_any_folder(tmp_path):
    import cardlab

    listed = cli_in(tmp_path, "examples")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert [line.split(":")[1] for line in lines] == cardlab.example_names()
    assert "example:norwegian-review: Where's Bob's Hat?" in lines[0] and "2 hands" in lines[0]
    assert lines[2].endswith("5 games")  # a Whot rubber's hands are games

    shown = cli_in(tmp_path, "show", "example:norwegian-review", "--seat", "Brad")
    assert shown.returncode == 0 and "Trick 4:" in shown.stdout
    checked = cli_in(tmp_path, "validate", "example:teds-game-example")
    teds = cardlab.example("teds-game-example")
    actions = sum(len(hand.actions) for hand in teds.hands)
    assert checked.stdout.strip() == ("example:teds-game-example: valid Ted's Game replay, "
                                      f"19 hands, {actions} actions")
    paged = cli_in(tmp_path, "html", "example:whot-example")
    assert paged.returncode == 0 and (tmp_path / "whot-example.html").stat().st_size > 10_000
    analysed = cli_in(tmp_path, "analyse", "example:norwegian-review", "--rollouts", "2",
                      "--seat", "Brad", "--workers", "1")
    assert analysed.returncode == 0, analysed.stderr
    done = cardlab.load(tmp_path / "norwegian-review-analysed.json")
    assert any(a.eval is not None and a.seat == "Brad" for a in done.hands[0].actions)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "norwegian-review-analysed.json", "whot-example.html"]

    missing = cli_in(tmp_path, "show", "example:norwegian")
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr == ("cardlab: error: example:norwegian: no example replay called "
                              "'norwegian'; the examples are norwegian-review, "
                              "teds-game-example, whot-example\n")


def _commands() -> dict[str, object]:
    from cardlab.cli import _parser

    parser = _parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return {"cardlab": parser, **sub.choices}  # type: ignore[attr-defined]


def test_the_help_names_every_command_and_explains_every_option():
    commands = _commands()
    top = commands.pop("cardlab").format_help()  # type: ignore[attr-defined]
    assert set(commands) == {"play", "show", "validate", "games", "examples", "html",
                             "handouts", "simulate", "analyse"}
    for name in commands:
        assert f"\n    {name} " in top, name
    assert "``" not in top and ":mod:" not in top and ":func:" not in top  # plain text
    for name, parser in commands.items():
        for action in parser._actions:  # type: ignore[attr-defined]
            if action.dest != "help":
                assert action.help, f"cardlab {name}: {action.option_strings or action.dest}"
        assert "``" not in parser.format_help(), name  # type: ignore[attr-defined]
