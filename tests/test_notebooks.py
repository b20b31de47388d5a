"""The notebooks: committed clean, and the demonstrations 01–04 checked from outside.

What students read carries no test code. Each of notebooks 01–04 is executed here once, with
nbclient in the ``python3`` kernel of the running Python and from ``notebooks/`` (as ``make
lab`` runs it), and probed: a probe is an expression run in the notebook's kernel right after
a given cell, in a cell inserted at test time and never saved (tests/notebooks.py). The
checks below are the ``assert`` lines the notebooks used to carry, each kept as strong as it
was, and read the notebook's own objects at the same point of the notebook.

Why nbval does not also run 01–04: executing them takes about a minute on a busy machine, and
nbval (``--nbval-lax``: "every cell runs") checks nothing this module does not. Each of them
says ``"cardlab": {"executed_by": "tests/test_notebooks.py"}`` in its metadata, and ``make
test`` gives nbval only the notebooks without that entry (05-simulations today). The last test
here keeps the entries and this module's notebooks in step, so a notebook is never left to
neither runner. ``pytest --nbval-lax notebooks/`` by hand still runs them all.

The other tests need no kernel: no committed notebook carries outputs, execution counts, widget
state or the other run-time state a save in JupyterLab writes (``problems`` says which), so a
lesson run in ``make lab`` cannot leave a diff behind unnoticed; ``tests/notebooks.py --strip``
cleans them.
"""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

import notebooks

ROOT = notebooks.ROOT
HERE = "tests/test_notebooks.py"

WALKTHROUGH = "01-norwegian-walkthrough.ipynb"
BOBS_HAT = "02-bobs-hat.ipynb"
TEDS_GAME = "03-teds-game.ipynb"
WHOT = "04-whot.ipynb"
EXECUTED_HERE = (WALKTHROUGH, BOBS_HAT, TEDS_GAME, WHOT)


# --- committed clean -------------------------------------------------------------------------

@pytest.mark.parametrize("path", notebooks.committed(), ids=lambda p: p.name)
def test_committed_notebooks_carry_no_outputs(path: Path) -> None:
    nb = notebooks.read(path)
    assert notebooks.problems(nb) == [], (
        f"{path.relative_to(ROOT)} holds run-time state; clean it with "
        f"`.venv/bin/python tests/notebooks.py --strip {path.relative_to(ROOT)}`")
    # and it is byte for byte what the cleaner writes, so a clean save is no diff either
    assert path.read_text(encoding="utf-8") == notebooks.dumps(nb), (
        f"{path.relative_to(ROOT)} is not laid out as nbformat writes it; "
        f"`.venv/bin/python tests/notebooks.py --strip {path.relative_to(ROOT)}` rewrites it")


def test_the_folder_holds_every_notebook():
    names = [p.name for p in notebooks.committed()]
    assert set(EXECUTED_HERE) | {"05-simulations.ipynb"} <= set(names)


def test_problems_name_each_kind_of_state_and_strip_removes_it(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# A lesson", id="text"),
        nbformat.v4.new_code_cell("viewer", id="show"),
    ])
    nb.metadata["language_info"] = {"name": "python", "version": "3.11.2"}
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    nb.metadata["cardlab"] = {notebooks.EXECUTED_BY: HERE}
    show = nb.cells[1]
    show.execution_count = 3
    show.outputs = [nbformat.v4.new_output("display_data", {"text/plain": "x"})]
    show.metadata.update({"execution": {"iopub.status.busy": "2026"}, "scrolled": True})
    nb.cells[0].metadata["heading_collapsed"] = True
    assert notebooks.problems(nb) == [
        "notebook metadata: 'widgets'",
        "notebook metadata: language_info version",
        "cell 1 (text): metadata 'heading_collapsed'",
        "cell 2 (show): 1 output(s)",
        "cell 2 (show): execution count 3",
        "cell 2 (show): metadata 'scrolled'",
        "cell 2 (show): metadata 'execution'",
    ]
    path = tmp_path / "lesson.ipynb"
    path.write_text(notebooks.dumps(nb), encoding="utf-8")
    assert notebooks.main([str(path)]) == 1
    assert notebooks.main(["--strip", str(path)]) == 0
    clean = notebooks.read(path)
    assert notebooks.problems(clean) == [] and notebooks.main([str(path)]) == 0
    # the lesson itself is untouched: its cells, their sources, the project's own metadata
    assert [(c.id, c.source) for c in clean.cells] == [("text", "# A lesson"), ("show", "viewer")]
    assert clean.metadata["cardlab"] == {notebooks.EXECUTED_BY: HERE}
    assert clean.metadata["language_info"] == {"name": "python"}
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left beside it


def test_the_git_filter_strips_what_it_reads(tmp_path):
    executed = notebooks.read(ROOT / "notebooks" / WHOT)
    executed.cells[1].execution_count = 1
    executed.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="hi\n")]
    executed.metadata["widgets"] = {"state": {}}
    git = ["git", "-c", f"filter.strip.clean={sys.executable} {ROOT / 'tests' / 'notebooks.py'}"
           " --filter", "-C", str(tmp_path)]
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitattributes").write_text("*.ipynb filter=strip\n", encoding="utf-8")
    (tmp_path / WHOT).write_text(notebooks.dumps(executed), encoding="utf-8")
    subprocess.run([*git, "add", WHOT], check=True)
    staged = subprocess.run([*git, "show", f":{WHOT}"], check=True, capture_output=True,
                            text=True).stdout
    assert staged == (ROOT / "notebooks" / WHOT).read_text(encoding="utf-8")
    # what is not a notebook fails the filter with the reason (git then stores the file as is)
    bad = subprocess.run([sys.executable, str(ROOT / "tests" / "notebooks.py"), "--filter"],
                         input="{not json", capture_output=True, text=True)
    assert bad.returncode == 1 and bad.stdout == "" and "not a notebook" in bad.stderr


def test_a_probe_reads_the_kernel_right_after_its_cell_and_nothing_is_saved(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("x = 1", id="one"),
        nbformat.v4.new_code_cell("x = x + 1\nprint('two')\nx", id="two"),
        nbformat.v4.new_code_cell("x = 'three'", id="three"),
    ])
    path = tmp_path / "probed.ipynb"
    path.write_text(notebooks.dumps(nb), encoding="utf-8")
    before = path.read_text(encoding="utf-8")
    with pytest.raises(KeyError, match="no cell 'four'"):
        notebooks.execute(path.name, {"four": "x"}, folder=tmp_path)
    run = notebooks.execute(path.name, {"one": "x", "two": "{'x': x, 'cwd': __import__('os')"
                                        ".getcwd()}"}, folder=tmp_path)
    assert run.probes == {"one": 1, "two": {"x": 2, "cwd": str(tmp_path)}}
    assert [c.id for c in run.notebook.cells] == ["one", "two", "three"]  # no probe cell left
    assert run.text("two") == "two\n2\n"  # the printed line, then the value's repr
    assert path.read_text(encoding="utf-8") == before


def test_the_helpers_examples():
    result = doctest.testmod(notebooks)
    assert result.attempted >= 4 and result.failed == 0


# --- 01: the Norwegian review ----------------------------------------------------------------

@pytest.fixture(scope="module")
def walkthrough() -> notebooks.Run:
    return notebooks.execute(WALKTHROUGH, {
        "cell-05b": "{'note': viewer.note_text()}",
        "cell-05d": "{'note': norsk.note_text(), 'status': norsk.frame()['st'], "
                    "'english': viewer.lang}",
        "cell-07": "{'cards': trick4.trick_cards(), 'cap': trick4.frame()['tk']['cap']}",
        "cell-07a": "{'cards': trick4.trick_cards()}",
        "cell-07b": "{'cards': trick4.trick_cards()}",
        "cell-07d": """{'cards': trick4.trick_cards(), 'why': shown['tk']['why'],
                        'leader': shown['tk']['l'], 'winner': shown['tk']['w'],
                        'hat': trick4.position['hat']}""",
        "cell-09b": """{'to_act': pos['to_act'], 'hands': pos['hands'], 'legal': pos['legal'],
                        'shown': [seats[s]['h'] for s in '0123'],
                        'views': list(brad.widget.movie['views']), 'step': brad.step}""",
        "cell-11": """{'first': branch.actions[0].act, 'hand': branch.hand,
                       'paths': replay.variation_paths(1) == [branch.path],
                       'action': what_if.position['action'], 'status': what_if.frame()['st']}""",
        "cell-14": """{'paths': again.variation_paths(1) == [branch.path],
                       'line': [a.act for a in again.line(1, branch.path)],
                       'main': [a.act for a in replay.line(1, branch.path)]}""",
        "cell-16": """{'score 1': _.where(hand=1, line='score').tolist()[0][2:],
                       'score 2': _.where(hand=2, line='score').tolist()[0][2:],
                       'sub-total 2': _.where(hand=2, line='sub-total').tolist()[0][2:],
                       'columns': _.columns}""",
        "cell-19": "{'travels': travels}",
        "cell-23": "{'cards': at_trick4.trick_cards(), 'first': viewer.step}",
    })


def test_walkthrough_notes_in_both_languages(walkthrough):
    note = walkthrough.probes["cell-05b"]["note"]
    assert note == "Brad deals five cards each. The trump card he turns up is black."
    norwegian = walkthrough.probes["cell-05d"]
    assert norwegian["note"].startswith("Brad gir fem kort til hver")
    assert norwegian["status"] == "Hand 1: Brad deals 5 cards each — next: Brad"
    assert norwegian["english"] == "en"  # in a viewer of its own: the first keeps its English


def test_walkthrough_clicks_through_trick_4(walkthrough):
    probes = walkthrough.probes
    assert probes["cell-07"]["cards"] == ["red12"]
    assert probes["cell-07"]["cap"] == "trick 4, led by Remo"
    assert probes["cell-07a"]["cards"] == ["red12", "red20"]
    assert probes["cell-07b"]["cards"] == ["red12", "red20", "black3"]
    done = probes["cell-07d"]
    # the trick is complete: Brad's black 3 is marked, with the reason it won
    assert done["cards"] == ["red12", "red20", "black3", "red14"]
    assert done["why"] == "Brad takes the trick with black 3: the only trump"
    assert done["leader"] == 1 and done["winner"] == "black3"  # Remo led, Brad won
    assert done["hat"] == {"value": -10, "chosen": True, "holder": 3}
    # and the cell shows the reason and the review's note
    assert walkthrough.text("cell-07d").startswith(done["why"] + "\n")


def test_walkthrough_brads_view(walkthrough):
    brad = walkthrough.probes["cell-09b"]
    assert brad["to_act"] == 3 and brad["hands"][3] == ["black3", "black12"]
    assert all(brad["hands"][s] is None for s in (0, 1, 2))
    # the table Brad sees: his own two cards, the others face down (only their counts)
    assert brad["shown"][3] == ["black3", "black12"] and brad["shown"][:3] == [2, 1, 1]
    # and the widget holds Brad's view alone: no other hand reaches the browser
    assert brad["views"] == ["Brad"]
    # the legal plays are his two trumps (he has no red to follow with)
    assert brad["legal"] == ["play black3", "play black12"]
    assert brad["step"] == 19  # ReplayViewer(..., at=(1, 19)): hand 1, after 19 actions


def test_walkthrough_what_if_and_save(walkthrough):
    branch = walkthrough.probes["cell-11"]
    assert branch["first"] == "play black12" and branch["hand"] == 1  # hands count from 1
    assert branch["paths"] is True
    assert branch["action"] == {"seat": "Brad", "act": "play black12"}
    # the new line was sent to the browser, and the viewer shows it
    assert branch["status"].startswith("Brad: play black 12")
    saved = walkthrough.probes["cell-14"]
    assert saved["paths"] is True
    assert saved["line"] == saved["main"]


def test_walkthrough_scores_and_the_hats_travels(walkthrough):
    sheet = walkthrough.probes["cell-16"]
    assert sheet["score 1"] == [-5, -5, -5, -15]
    assert sheet["score 2"] == [-10, -5, 21, -10]
    assert sheet["sub-total 2"] == [-15, -10, 16, -25]
    assert sheet["columns"] == ["hand", "line", "Tone", "Remo", "Kathrine", "Brad"]
    assert walkthrough.probes["cell-19"]["travels"] == ["Tone", "Brad", "Remo", "Brad", "Brad"]
    # the notebook ends at the start of trick 4 on the main line, for whoever clicks next,
    # in a viewer of its own: the first still stands where its cell put it
    assert walkthrough.probes["cell-23"] == {"cards": ["red12"], "first": 0}


# --- 02: a seeded game of Bob's Hat ----------------------------------------------------------

@pytest.fixture(scope="module")
def bobs_hat() -> notebooks.Run:
    return notebooks.execute(BOBS_HAT, {
        "cell-05": "{'cards': viewer.trick_cards()}",
        "cell-05a": "{'cards': viewer.trick_cards()}",
        "cell-05c": """{'phase': viewer.position['phase'], 'last': shown['sheet'][-1],
                        'totals': replay.totals, 'result': shown['res']}""",
        "cell-07": """{'total': dataframes.score_sheet(replay).loc[(10, 'total')].tolist(),
                       'scores': dataframes.score_sheet(replay).xs('score', level='line')
                                 .sum().tolist(),
                       'totals': replay.totals}""",
        "cell-09": "{'plays': len(plays)}",
        "cell-11": """{'choices': choices, 'others': others, 'made': made,
                       'legal': lead.position['legal'],
                       'played': replay.line(3)[lead.step - lead.widget.movie['views']['']
                                                [0]['hands'][2]['s']].act}""",
        "cell-11a": """{'hand': branch.hand, 'first': branch.actions[0].act,
                        'line': lead.lines()[lead.widget.line][0]}""",
        "cell-16": "sorted(set(dataframes.bid_results(replay)['bid']))",
    })


def test_bobs_hat_viewer_from_the_kernel(bobs_hat):
    first = bobs_hat.probes["cell-05"]["cards"]
    assert len(first) == 1
    after = bobs_hat.probes["cell-05a"]["cards"]
    assert after[:1] == first and len(after) == 2
    end = bobs_hat.probes["cell-05c"]
    assert end["phase"] == "over"
    assert end["last"][1:3] == ["total", "total"] and end["last"][3] == end["totals"]
    assert "The game is over" in end["result"]


def test_bobs_hat_sheet_and_plays(bobs_hat):
    sheet = bobs_hat.probes["cell-07"]
    assert sheet["total"] == sheet["totals"]
    assert sheet["scores"] == sheet["totals"]
    assert bobs_hat.probes["cell-09"]["plays"] == sum(4 * (4 + h) for h in range(1, 11))
    assert bobs_hat.text("cell-09").startswith("380 cards played\n")  # as the text says
    assert set(bobs_hat.probes["cell-16"]) <= {"most-blue", "most-red", "most-black", "fewest"}


def test_bobs_hat_what_if(bobs_hat):
    menu = bobs_hat.probes["cell-11"]
    # the menu: every legal lead, the one made among them (it does not tell which)
    assert menu["choices"] == menu["legal"] and menu["played"] in menu["choices"]
    assert menu["made"] == menu["played"] and menu["others"] == [
        c for c in menu["legal"] if c != menu["played"]] != []
    branch = bobs_hat.probes["cell-11a"]
    assert branch["hand"] == 3 and branch["line"].startswith("hand 3")
    assert branch["first"] == menu["others"][0]


# --- 03: Ted's Game and the hook -------------------------------------------------------------

@pytest.fixture(scope="module")
def teds_game() -> notebooks.Run:
    return notebooks.execute(TEDS_GAME, {
        "cell-01": "{'sizes': sizes}",
        "cell-04": """{'pos': {k: pos[k] for k in ('phase', 'to_act', 'dealer', 'bids',
                                                  'hand_size', 'legal')},
                       'forbidden': forbidden, 'dealer': replay.seats[pos['dealer']],
                       'explains': hook.frame()['ex'],
                       'later': ['The hook' in f.get('ex', '')
                                 for f in shown[hook.step + 1:hook.step + 10]]}""",
        "cell-06": "{'refusal': refusal}",
        "cell-10": "{'info': one_card.frame()['info'], 'hand': one_card.position['hand']}",
        "cell-10a": """{'result': end.frame()['res'], 'totals': replay.totals,
                        'last': dataframes.score_sheet(replay).iloc[-1].tolist()}""",
    })


def test_teds_game_schedule(teds_game):
    sizes = teds_game.probes["cell-01"]["sizes"]
    assert sizes == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


def test_teds_game_the_hook(teds_game):
    hook = teds_game.probes["cell-04"]
    pos, forbidden = hook["pos"], hook["forbidden"]
    assert pos["phase"] == "bid" and pos["to_act"] == pos["dealer"]  # said while the dealer bids
    # the forbidden bid is the one that would make the bids add up to the tricks of the hand
    assert sum(b for b in pos["bids"] if b is not None) + forbidden == pos["hand_size"]
    assert f"bid {forbidden}" not in pos["legal"]
    assert hook["explains"].startswith(f"The hook: {hook['dealer']} may not bid {forbidden}")
    # and never while the cards are played
    assert len(hook["later"]) == 9 and not any(hook["later"])
    refusal = teds_game.probes["cell-06"]["refusal"]
    assert "the hook" in refusal and f"may not bid {forbidden}" in refusal
    assert teds_game.text("cell-06") == refusal + "\n"


def test_teds_game_end(teds_game):
    assert "1 card each" in teds_game.probes["cell-10"]["info"]
    assert teds_game.probes["cell-10"]["hand"] == 10
    end = teds_game.probes["cell-10a"]
    assert "The game is over" in end["result"]
    assert end["last"] == end["totals"]


# --- 04: a rubber of Whot ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def whot() -> notebooks.Run:
    return notebooks.execute(WHOT, {
        "cell-04": """{'call_card': call.position['call_card'], 'card': first['card'],
                       'symbol': call.position['called_symbol'],
                       'called': first['action'].split(' call ')[1].split()[0],
                       'stock': call.position['stock_size'],
                       'centre': {k: call.frame()['call'][k] for k in ('c', 't')}}""",
        "cell-11": """{'last': dataframes.score_sheet(replay).iloc[-1].tolist(),
                       'totals': replay.totals, 'seats': replay.seats,
                       'winners': end.position['rubber_winners'],
                       'result': end.frame()['res']}""",
    })


def test_whot_call_card_and_the_centre(whot):
    call = whot.probes["cell-04"]
    assert call["call_card"] == call["card"] and call["symbol"] == call["called"]
    centre = call["centre"]  # the call card and what it says, as the browser draws it
    assert centre["c"] == call["call_card"] and centre["t"].startswith("WHOT called: ")
    assert call["called"] in centre["t"] and f"stock {call['stock']}" in centre["t"]


def test_whot_the_rubber(whot):
    end = whot.probes["cell-11"]
    assert end["last"] == end["totals"]
    totals, first_winner = end["totals"], end["winners"][0]
    assert min(totals) == totals[first_winner]
    assert f"The rubber is over: {end['seats'][first_winner]} wins" in end["result"]


# --- every viewer stays where its cell put it -------------------------------------------------

@pytest.mark.parametrize("run", ["walkthrough", "bobs_hat", "teds_game", "whot"])
def test_run_all_leaves_every_viewer_where_its_cell_put_it(run, request):
    executed: notebooks.Run = request.getfixturevalue(run)
    shown = [m for cell in executed.places for m in executed.shown_viewers(cell)]
    named = {m for places in executed.places.values() for m in places}
    assert len(set(shown) & named) >= 2  # the notebook shows viewers it holds by name
    assert executed.moved_viewers() == []


# --- who runs which notebook -----------------------------------------------------------------

def test_each_notebook_is_run_by_nbval_or_by_the_test_its_metadata_names():
    flagged = {}
    for path in notebooks.committed():
        by = notebooks.read(path).metadata.get("cardlab", {}).get(notebooks.EXECUTED_BY)
        if by is not None:
            flagged[path.name] = by
    assert {name for name, by in flagged.items() if by == HERE} == set(EXECUTED_HERE)
    for name, by in flagged.items():  # a later test module executing its own notebooks
        test = ROOT / by
        assert test.is_file() and name in test.read_text(encoding="utf-8"), (name, by)
    assert "05-simulations.ipynb" not in flagged  # nbval's: its checks live in its cells
    # and make test gives nbval exactly the others
    listed = subprocess.run(["make", "-s", "--no-print-directory", "nbval-notebooks"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.split()
    assert listed == [str(p.relative_to(ROOT)) for p in notebooks.committed()
                      if p.name not in flagged]


def test_make_lab_configures_the_filter_gitattributes_names():
    # .gitattributes sends the notebooks through the notebook-strip clean filter, and
    # `make lab` sets that filter to this module's --filter: a lesson run leaves no diff.
    attributes = (ROOT / ".gitattributes").read_text(encoding="utf-8")
    assert "notebooks/*.ipynb filter=notebook-strip" in attributes.splitlines()
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "STRIP_FILTER := $(VENV)/bin/python tests/notebooks.py --filter" in makefile
    assert "git config filter.notebook-strip.clean '$(STRIP_FILTER)'" in makefile
