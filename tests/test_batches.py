"""Batches of replays (a simulation's zip per chunk): every command that reads a replay reads
one inside a batch, named batch.zip/member, and says where when it cannot."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

import cardlab
from cardlab import batches
from cardlab.cli import main
from cardlab.errors import LimitError, ReplayError
from cardlab.limits import Limits


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> Path:
    """A simulation's batches: 2 chunks of 2 short Bob's Hat games."""
    folder = tmp_path_factory.mktemp("sim") / "replays"
    cardlab.simulate("bobs-hat", players=3, games=4, chunk=2, bots="random", seed=3,
                     options={"hands": 2}, workers=0, progress=False, replays=folder)
    return folder / "games-1-2.zip"


def test_a_batch_holds_the_files_a_save_writes(batch, tmp_path):
    assert sorted(p.name for p in batch.parent.iterdir()) == ["games-1-2.zip",
                                                              "games-3-4.zip"]
    with zipfile.ZipFile(batch) as archive:
        assert archive.namelist() == ["game-1.json", "game-2.json"]
        for info in archive.infolist():
            assert info.date_time == (1980, 1, 1, 0, 0, 0)  # the same bytes whenever written
            assert info.compress_type == zipfile.ZIP_STORED  # unless asked: see below
            assert (info.external_attr >> 16) & 0o777 == 0o644
            text = archive.read(info).decode("utf-8")
            replay = cardlab.loads(text)
            replay.save(tmp_path / info.filename)  # what cardlab play would have written
            assert (tmp_path / info.filename).read_text(encoding="utf-8") == text
    assert batches.names(batch) == [f"{batch}/game-1.json", f"{batch}/game-2.json"]


def test_replays_asked_to_be_compressed_are_deflated_the_same_texts(batch, tmp_path):
    folder = tmp_path / "replays"
    cardlab.simulate("bobs-hat", players=3, games=4, chunk=2, bots="random", seed=3,
                     options={"hands": 2}, workers=0, progress=False, replays=folder,
                     compress_replays=True)
    for name in ("games-1-2.zip", "games-3-4.zip"):
        with zipfile.ZipFile(folder / name) as packed, \
                zipfile.ZipFile(batch.parent / name) as stored:
            assert {i.compress_type for i in packed.infolist()} == {zipfile.ZIP_DEFLATED}
            assert packed.namelist() == stored.namelist()
            for member in stored.namelist():
                assert packed.read(member) == stored.read(member)
        assert (folder / name).stat().st_size < (batch.parent / name).stat().st_size / 3
    with pytest.raises(cardlab.CardlabError, match="needs a folder"):
        cardlab.simulate("bobs-hat", players=3, games=1, bots="random", workers=0,
                         progress=False, compress_replays=True)


def test_a_batch_larger_than_its_spool_is_whole(tmp_path):
    # members go to the file a megabyte at a time: a batch of several megabytes is one
    # zip archive, every member whole, at the offsets its directory says
    texts = {f"game-{k}.json": f"{k}:" + "x" * 300_000 + "\n" for k in range(12)}
    for compress in (False, True):
        path = tmp_path / f"b{compress}.zip"
        with open(path, "wb") as out, batches.Writer(out, compress) as writer:
            for name, text in texts.items():
                writer.add(name, text)
        with zipfile.ZipFile(path) as archive:
            assert archive.testzip() is None
            assert {n: archive.read(n).decode() for n in archive.namelist()} == texts


def test_load_and_every_command_read_a_replay_inside_a_batch(batch, tmp_path, capsys,
                                                             monkeypatch):
    name = f"{batch}/game-2.json"
    replay = cardlab.load(name)
    assert replay.meta["simulation"]["game"] == 2
    for command in (["validate", name], ["show", name, "--seat", "North"]):
        with pytest.raises(SystemExit) as code:
            main(command)
        assert code.value.code == 0
    said = capsys.readouterr().out
    assert f"{name}: valid Where's Bob's Hat? replay, 2 hands" in said
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as code:
        main(["html", name])
    assert code.value.code == 0 and (tmp_path / "game-2.html").exists()  # the member's name
    with pytest.raises(SystemExit) as code:
        main(["analyse", name, "--rollouts", "2", "--workers", "1", "-o", "a.json"])
    assert code.value.code == 0
    assert cardlab.load(tmp_path / "a.json").hands[0].actions[0].eval is not None


BAD = {
    "member missing": ("games-1-2.zip/game-9.json",
                       "games-1-2.zip/game-9.json: no replay called 'game-9.json' in the "
                       "batch {folder}/games-1-2.zip; it holds 2 replays, game-1.json to "
                       "game-2.json"),
    "the batch itself": ("games-1-2.zip",
                         "games-1-2.zip: is a batch of 2 replays (a zip archive); name one of "
                         "them, as in {folder}/games-1-2.zip/game-1.json"),
    "no such batch": ("games-5-6.zip/game-5.json", "games-5-6.zip/game-5.json: no such file"),
    "not a zip": ("fake.zip/game-1.json",
                  "fake.zip/game-1.json: {folder}/fake.zip is not a batch of replays (a zip "
                  "archive), so nothing is inside it"),
    "a file, not a zip": ("notes.txt/game-1.json",
                          "notes.txt/game-1.json: cannot read the file: not a directory"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_name_says_what_is_there(case, batch, capsys):
    folder = batch.parent
    (folder / "fake.zip").write_text("not a zip\n")
    (folder / "notes.txt").write_text("notes\n")
    given, words = BAD[case]
    with pytest.raises(ReplayError) as caught:
        cardlab.load(f"{folder}/{given}")
    assert str(caught.value) == f"{folder}/{words.format(folder=folder)}"
    with pytest.raises(SystemExit) as code:  # the command line: one line, exit 2
        main(["validate", f"{folder}/{given}"])
    assert code.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def write_batch(path, members: dict[str, bytes], method=zipfile.ZIP_DEFLATED) -> None:
    with zipfile.ZipFile(path, "w", compression=method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def test_an_error_inside_a_member_names_the_member_the_line_and_the_path(tmp_path):
    text = cardlab.example("whot-example").to_json()
    broken = text.replace('"play ', '"jump ', 1)
    write_batch(tmp_path / "b.zip", {"sub/ok.json": text.encode(), "bad.json": broken.encode(),
                                     "cut.json": text[:-40].encode()})
    assert cardlab.load(tmp_path / "b.zip" / "sub" / "ok.json") == cardlab.loads(text)
    with pytest.raises(ReplayError) as caught:
        cardlab.load(tmp_path / "b.zip" / "bad.json")
    assert str(caught.value).startswith(f"{tmp_path}/b.zip/bad.json:$.hands[0].actions[0].act: "
                                        "hand 1, step 1, seat ")
    with pytest.raises(ReplayError) as caught:
        cardlab.load(tmp_path / "b.zip" / "cut.json")
    assert str(caught.value).startswith(f"{tmp_path}/b.zip/cut.json: not valid JSON: ")
    assert " line " in str(caught.value)


def test_the_limits_hold_inside_a_batch(tmp_path):
    text = cardlab.example("whot-example").to_json().encode()
    write_batch(tmp_path / "b.zip", {"game.json": text})
    small = Limits(max_file_bytes=len(text) - 1)
    with pytest.raises(LimitError, match="max_file_bytes"):
        cardlab.load(tmp_path / "b.zip" / "game.json", limits=small)
    # a member whose header says less than it holds is cut at the limit, not read whole
    buffer = io.BytesIO()
    write_batch(buffer, {"game.json": b" " * 10_000 + text})
    data = bytearray(buffer.getvalue())
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo("game.json")
    size = info.file_size.to_bytes(4, "little")
    lie = (100).to_bytes(4, "little")
    data = data.replace(size, lie)  # the local header's and the directory's size
    (tmp_path / "lie.zip").write_bytes(bytes(data))
    with pytest.raises(ReplayError) as caught:
        cardlab.load(tmp_path / "lie.zip" / "game.json", limits=Limits(max_file_bytes=5000))
    assert str(caught.value).startswith(f"{tmp_path}/lie.zip/game.json: ")
    # an archive over the limit is not opened at all
    with pytest.raises(LimitError, match="the batch has"):
        cardlab.load(tmp_path / "b.zip" / "game.json", limits=Limits(max_file_bytes=100))


def test_a_damaged_member_is_named(tmp_path):
    text = cardlab.example("whot-example").to_json().encode()
    write_batch(tmp_path / "b.zip", {"game.json": text}, method=zipfile.ZIP_STORED)
    data = (tmp_path / "b.zip").read_bytes()
    at = data.index(b'"hands"')
    (tmp_path / "b.zip").write_bytes(data[:at] + b'"HANDS"' + data[at + 7:])  # a CRC error
    with pytest.raises(ReplayError) as caught:
        cardlab.load(tmp_path / "b.zip" / "game.json")
    assert str(caught.value).startswith(f"{tmp_path}/b.zip/game.json: cannot unpack it from "
                                        f"the batch {tmp_path}/b.zip: ")
    assert "CRC" in str(caught.value)


def test_a_folder_named_like_a_batch_is_a_folder(tmp_path):
    folder = tmp_path / "x.zip"
    folder.mkdir()
    cardlab.example("whot-example").save(folder / "game.json")
    assert cardlab.load(folder / "game.json").game == "whot"
    assert batches.split(folder / "game.json") is None
    assert batches.split(tmp_path / "nothing" / "x.json") is None
