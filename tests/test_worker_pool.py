"""cardlab's worker processes (cardlab/workers.py): a script needs no ``__main__`` guard, a
job's error or a worker's death is known exactly, a worker that cannot start says so in one
line, and cardlab reaches into no private attribute of anything it does not define."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from importpath import CARDLAB_PATH, PACKAGE

import cardlab
from cardlab.errors import CardlabError
from cardlab.files import write_text
from cardlab.workers import WorkerPool, WorkerTraceback

# Scripts as a person writes them, with no `if __name__ == "__main__":`: multiprocessing's
# spawn and forkserver workers would run each again (and so start the run again).
SIMULATE = """\
import cardlab
print("the script's top level ran")
result = cardlab.simulate("teds-game", players=3, games=8, chunk=2, bots="heuristic,random",
                          seed=4, options={"start_size": 2}, workers=2, progress=False)
result.games.to_pickle("pooled.pkl")
"""
ANALYSE = """\
import cardlab
from cardlab.analyse import analyse
print("the script's top level ran")
replay = cardlab.example("teds-game-example")
analyse(replay, rollouts=3, seed=1, progress=False, workers=2).save("analysed.json")
"""


def run_script(tmp_path: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "script.py").write_text(code)
    return subprocess.run([sys.executable, "script.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=240,
                          env={**os.environ, "PYTHONPATH": CARDLAB_PATH, **env})


def test_an_unguarded_script_simulates_on_a_pool(tmp_path):
    done = run_script(tmp_path, SIMULATE)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no traceback, no warning
    assert done.stdout == "the script's top level ran\n"  # once: no worker ran it again
    serial = cardlab.simulate("teds-game", players=3, games=8, chunk=2,
                              bots="heuristic,random", seed=4, options={"start_size": 2},
                              workers=0, progress=False)
    pd.testing.assert_frame_equal(pd.read_pickle(tmp_path / "pooled.pkl"), serial.games,
                                  check_exact=True)


def test_an_unguarded_script_analyses_on_a_pool(tmp_path):
    from cardlab.analyse import analyse

    done = run_script(tmp_path, ANALYSE)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == "the script's top level ran\n"
    serial = analyse(cardlab.example("teds-game-example"), rollouts=3, seed=1,
                     progress=False, workers=1)
    assert cardlab.load(tmp_path / "analysed.json") == serial


def test_a_worker_that_cannot_start_is_one_line(tmp_path):
    # Once the script has imported cardlab, a folder whose cardlab cannot be imported goes
    # first on the import path, which the workers are given: none of them can start.
    broken = tmp_path / "broken" / "cardlab"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('this cardlab cannot load')\n")
    code = ("import sys\n"
            "import cardlab\n"
            f"sys.path.insert(0, {str(broken.parent)!r})\n"
            "from cardlab.cli import main\n"
            "main(['simulate', 'whot', '--games', '4', '--chunk', '1', '--workers', '2',"
            " '--no-progress', '-o', 'r.parquet'])\n")
    done = run_script(tmp_path, code)
    assert done.returncode == 2
    last = done.stderr.splitlines()[-1]
    assert last.startswith("cardlab: error: a worker process could not start ("), done.stderr
    assert last.endswith("ended with status 1); see its error above, or use workers=0")
    # the worker's own error, above (this venv may hold another cardlab, without serve)
    assert re.search(r"^(ModuleNotFound|Import)Error: ", done.stderr, re.M), done.stderr
    assert sorted(os.listdir(tmp_path)) == ["broken", "script.py"]


def test_a_job_that_raises_raises_in_the_command_with_the_workers_traceback():
    pool = WorkerPool(1)
    try:
        pool.submit("x", int, "twelve")
        with pytest.raises(ValueError, match="invalid literal for int") as caught:
            pool.wait()
        assert isinstance(caught.value.__cause__, WorkerTraceback)
        assert "in serve" in str(caught.value.__cause__)  # where it was raised: the worker
    finally:
        pool.close()


def test_a_worker_that_dies_loses_its_own_job_alone():
    pool = WorkerPool(2)
    try:
        pool.submit("dies", os._exit, 9)
        pool.submit("lives", pow, 2, 10)
        outcomes = []
        while pool.busy():
            outcomes += pool.wait()
        assert sorted((o.tag, o.died, o.value) for o in outcomes) == [
            ("dies", True, None), ("lives", False, 1024)]
        pool.submit("then", pow, 3, 3)
        pool.submit("and", pow, 4, 2)  # a new worker takes the dead one's place
        assert len(pool.workers) == 2
        outcomes = []
        while pool.busy():
            outcomes += pool.wait()
        assert sorted((o.tag, o.value) for o in outcomes) == [("and", 16), ("then", 27)]
    finally:
        pool.close(now=False)
    assert pool.workers == []


def test_a_stopped_pool_leaves_no_process():
    pool = WorkerPool(2)
    pool.submit(1, abs, -1)
    pool.submit(2, abs, -2)
    while pool.busy():
        pool.wait()
    processes = [w.process for w in pool.workers]
    pool.close(now=False)
    assert [p.returncode for p in processes] == [0, 0]  # told to stop, they stopped


# -- no private attributes -------------------------------------------------------------------

# Names with a leading underscore that cardlab uses although it does not define them, each
# public by its own documentation.
DOCUMENTED = {
    "_exit": "os._exit, documented: exit at once, without cleanup (a worker or a fault)",
}
# dask's Client closes itself only after an OSError or an ImportError in its start; after any
# other failure cardlab closes it (cardlab/simulation/backends.py, connect). Not the standard
# library: dask, pinned by tests/test_simulate_faults.py's bad-address cases.
DASK = {("cardlab/simulation/backends.py", "_close")}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _trees() -> dict[str, ast.Module]:
    return {str(path.relative_to(PACKAGE.parent)): ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(PACKAGE.rglob("*.py"))}


def _defined(trees: dict[str, ast.Module]) -> set[str]:
    """Every name cardlab defines: its functions, classes, module and class variables,
    arguments, and the attributes it sets on ``self`` or ``cls``."""
    names: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                    isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                names.add(node.attr)
    return names


def private_uses() -> list[str]:
    """Each use of a private name cardlab does not define: ``x._name`` (read or set),
    ``getattr(x, "_name")`` and its kin, ``from module import _name`` from outside cardlab."""
    trees = _trees()
    defined = _defined(trees)
    found = []
    for file, tree in trees.items():
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Attribute):
                names = [node.attr]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("getattr", "setattr", "hasattr", "delattr") and \
                    len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and \
                    isinstance(node.args[1].value, str):
                names = [node.args[1].value]
            elif isinstance(node, ast.ImportFrom) and not node.level and \
                    not (node.module or "").startswith("cardlab"):
                names = [alias.name for alias in node.names] + (node.module or "").split(".")
            elif isinstance(node, ast.Import):
                names = [part for alias in node.names for part in alias.name.split(".")]
            for name in names:
                stored_abroad = isinstance(node, ast.Attribute) and \
                    isinstance(node.ctx, ast.Store) and not (
                        isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                if _private(name) and (name not in defined or stored_abroad or
                                       isinstance(node, (ast.Import, ast.ImportFrom))) and \
                        name not in DOCUMENTED and (file, name) not in DASK:
                    found.append(f"{file}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_cardlab_uses_no_private_attribute_of_what_it_does_not_define():
    assert private_uses() == []


def test_the_scan_finds_what_the_old_pool_did(tmp_path, monkeypatch):
    # The scan itself, on the uses cardlab/workers.py once had (ProcessPoolExecutor's
    # internals): each is found.
    code = ("def start(pool):\n"
            "    pool._safe_to_dynamically_spawn_children = False\n"
            "    processes = getattr(pool, '_processes', None)\n"
            "    pool._result_queue._writer.close()\n"
            "    from multiprocessing.util import _exit_function\n"
            "    return bool(getattr(pool, '_broken', False)), processes\n")
    package = tmp_path / "cardlab"
    package.mkdir()
    (package / "old.py").write_text(code)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", package)
    found = private_uses()
    assert sorted(line.split(": ", 1)[1] for line in found) == sorted([
        "pool._safe_to_dynamically_spawn_children",
        "getattr(pool, '_processes', None)",
        "pool._result_queue._writer",
        "pool._result_queue",
        "from multiprocessing.util import _exit_function",
        "getattr(pool, '_broken', False)",
    ]), found


@pytest.mark.parametrize("job", [(cardlab.loads, "not json"),  # a ReplayError
                                 (write_text, "/no-such-folder/x.json", "{}")])  # SaveError
def test_a_cardlab_error_from_a_worker_stays_a_cardlab_error(job):
    # The command line prints a CardlabError as its one line, wherever it was raised (a
    # SaveError, made with a keyword argument, does not unpickle: its words travel).
    function, *args = job
    with pytest.raises(CardlabError) as here:
        function(*args)
    pool = WorkerPool(1)
    try:
        pool.submit("bad", function, *args)
        with pytest.raises(CardlabError) as caught:
            pool.wait()
        assert str(caught.value) == str(here.value)
    finally:
        pool.close()
