"""Each extra, installed alone into a fresh virtual environment, is enough for what it is for,
and what it leaves out says which extra to install (docs/install.md).

One pure wheel of cardlab is built from this checkout (``CARDLAB_PURE=1``: no compiler
needed, the same results) and installed with one extra at a time from the package index; a
script then does what the extra is for, from an empty folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

NO_EXTRA = """
import subprocess, cardlab
from cardlab.dataframes import MissingExtraError
for args in (["play", "whot", "--seed", "1", "--out", "w.json"], ["show", "w.json"],
             ["validate", "example:norwegian-review"], ["html", "example:whot-example"]):
    subprocess.run(["cardlab", *args], check=True, capture_output=True)
try:
    from cardlab.view import ReplayViewer
    ReplayViewer(cardlab.example("norwegian-review"))
except MissingExtraError as err:
    assert "pip install 'cardlab[widgets]'" in str(err), err
else:
    raise AssertionError("the viewer ran without anywidget")
done = subprocess.run(["cardlab", "simulate", "whot", "--games", "2", "-o", "s.parquet"],
                      capture_output=True, text=True)
assert done.returncode == 2 and "pip install 'cardlab[sim]'" in done.stderr, done.stderr
print("ok")
"""

WIDGETS_USE = """
import cardlab
from cardlab import dataframes
from cardlab.view import ReplayViewer, charts
review = cardlab.example("norwegian-review")
viewer = ReplayViewer(review, seat="Brad")
assert viewer.step == 0 and viewer.seat == "Brad"
assert len(charts.score_evolution(review).data) == 4
assert len(dataframes.hand_results(review)) == 8
from cardlab.lessons.exercises import exercise
exercise("trick-winner", review, hand=1, index=9)
"""

WIDGETS = WIDGETS_USE + """
try:
    cardlab.simulate("whot", games=2, workers=0, progress=False)
except dataframes.MissingExtraError as err:
    assert "pip install 'cardlab[sim]'" in str(err), err
else:
    raise AssertionError("a simulation ran without pyarrow")
print("ok")
"""

SIM = """
import subprocess, pandas as pd, cardlab
from cardlab import simulation
subprocess.run(["cardlab", "simulate", "whot", "--games", "4", "--workers", "0",
                "--no-progress", "-o", "s.parquet"], check=True, capture_output=True)
result = simulation.load("s.parquet")
assert len(result.games) == 4 * 4 and len(pd.read_parquet("s.parquet")) == len(result.hands)
print("ok")
"""

SCALE = """
if __name__ == "__main__":
    import cardlab
    from dask.distributed import Client, LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False) as cluster, \\
            Client(cluster) as client:
        result = cardlab.simulate("whot", games=4, scheduler=client, progress=False)
    assert len(result.games) == 16
    print("ok")
"""

LAB = """
import subprocess, cardlab
out = subprocess.run(["jupyter", "lab", "--version"], check=True, capture_output=True,
                     text=True).stdout
assert out.strip()[0].isdigit()
subprocess.run(["cardlab", "handouts", "--out", "h", "--quiz", "norwegian-review:Brad"],
               check=True, capture_output=True)
exec(compile(open("widgets.py").read(), "widgets.py", "exec"))
result = cardlab.simulate("whot", games=2, workers=0, progress=False)
assert len(result.games) == 2 * 4
print("ok")
"""

CASES = {"": NO_EXTRA, "widgets": WIDGETS, "sim": SIM, "scale": SCALE, "lab": LAB}

# What the browser classroom (JupyterLite, docs/classroom.md) has: the widgets and charts
# without pandas and numpy, which no registry has as pure wheels. Everything a student uses
# works; what truly needs pandas says so in one line. Then each lesson's code cells run here,
# in order, as Run All runs them (display() shows nothing: a cell's widgets are built).
NO_PANDAS = """
import json, pathlib, sys, tempfile
import cardlab
from cardlab import dataframes, tables
from cardlab.view import ReplayViewer, charts, write_page
for name in ("pandas", "numpy"):
    try:
        __import__(name)
    except ImportError:
        pass
    else:
        raise AssertionError(name + " is installed")
review = cardlab.example("norwegian-review")
viewer = ReplayViewer(review, seat="Brad", at=(1, 19))
assert viewer.frame()["tk"] and viewer.widget.movie["views"]
branch = viewer.explore("play black12", bots="heuristic", seed=1)
assert [row["seat"] for row in branch.compare()] == list(review.seats)
write_page(review, "brad.html", seat="Brad")
assert "cardlab" in pathlib.Path("brad.html").read_text(encoding="utf-8")
whot = cardlab.example("whot-example")
figures = [charts.score_evolution(review), charts.score_components(review),
           charts.bid_success(review), charts.cards_taken(review),
           charts.hat_travels(review, 1), charts.cards_in_hand(whot)]
assert all(len(f.data) for f in figures)
assert charts.hat_travels(review, 1).data[0].y[1:] == tuple(
    tables.tricks(review, 1).column("hat_holder"))
from cardlab.lessons.exercises import exercise
ex = exercise("trick-winner", review, hand=1, index=21)
assert ex.error == "" and ex.exercise.check("black3").data()["right"]
from cardlab.lessons.quiz import Quiz, quiz
assert quiz(review, "Brad", rollouts=10).error == ""
assert Quiz(review, seat="Brad", rollouts=10, bot="random").answer("hat +10")["played"]
from cardlab.lessons.recorder import Recorder
rec = Recorder(pathlib.Path(tempfile.mkdtemp()) / "class.json", "teds-game", players=3,
               start_size=1)
assert rec.phase == "setup"
from cardlab.advisor import evaluate
advice = evaluate(review, hand=1, index=19, rollouts=20, seed=1)
assert set(advice.values) == {"play black3", "play black12"}
assert "Brad" in cardlab.text.render(review, seat=3)
for needs in (lambda: dataframes.plays(review), lambda: branch.frame()):
    try:
        needs()
    except dataframes.MissingExtraError as err:
        said = str(err)
        assert "pip install 'cardlab[widgets]'" in said and "JupyterLite" in said, said
        assert "\\n" not in said, said
    else:
        raise AssertionError("a frame without pandas")
lessons = sorted(pathlib.Path(sys.argv[1]).glob("1[0-9]-*.ipynb"))
assert len(lessons) >= 4, lessons
for path in lessons:
    space = {"display": lambda *objects, **options: None}
    for k, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path.name}, cell {k}", "exec"), space)
    print(path.name, "ran")
print("ok")
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", str(ROOT), "-w", str(out)], check=True, capture_output=True,
                   timeout=600, env={**os.environ, "CARDLAB_PURE": "1"})
    (built,) = out.glob("cardlab-*.whl")
    return built


@pytest.mark.timeout(900)
@pytest.mark.parametrize("extra", list(CASES), ids=lambda e: e or "none")
def test_an_extra_alone_is_enough_for_what_it_is_for(extra, wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    # (without PYTHONPATH: a checkout on it would count as cardlab installed already)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(CARDLAB_PURE="1", PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    # (how long each takes, and how much it installs: benchmarks/install_extras.py)
    target = f"{wheel}[{extra}]" if extra else str(wheel)
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--progress-bar", "off",
                           target], capture_output=True, text=True, timeout=900, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    work = tmp_path / "work"
    work.mkdir()
    (work / "widgets.py").write_text(WIDGETS_USE, encoding="utf-8")
    (work / "check.py").write_text(CASES[extra], encoding="utf-8")
    ran = subprocess.run([str(python), "check.py"], cwd=work, env=env, capture_output=True,
                         text=True, timeout=600)
    assert ran.returncode == 0 and ran.stdout.strip().endswith("ok"), ran.stderr[-3000:]


@pytest.mark.timeout(900)
def test_the_widgets_without_pandas_and_numpy_are_the_browser_classroom(wheel, tmp_path):
    """anywidget and plotly alone (no pandas, no numpy: what the JupyterLite site has)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    # (without PYTHONPATH: a checkout on it would count as cardlab installed already)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(CARDLAB_PURE="1", PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--progress-bar", "off",
                           str(wheel), "anywidget", "plotly"], capture_output=True, text=True,
                          timeout=900, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    work = tmp_path / "work"
    work.mkdir()
    (work / "check.py").write_text(NO_PANDAS, encoding="utf-8")
    ran = subprocess.run([str(python), "check.py", str(ROOT / "notebooks")], cwd=work, env=env,
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0 and ran.stdout.strip().endswith("ok"), \
        ran.stdout[-2000:] + ran.stderr[-3000:]
    assert ran.stdout.count(" ran\n") >= 4, ran.stdout
