"""Test the built wheels over the supported Pythons (``make test-matrix``), after ``make dist``.

For each CPython version, in a fresh virtual environment under build/matrix/:

1. install that version's compiled wheel from dist/ with the ``[test]`` extra;
2. a smoke run from an empty folder outside the repository: ``cardlab --version`` (which must
   say the kernel is compiled), then ``play``, ``show``, ``html``, ``analyse``, ``simulate``;
3. the same plays and simulation with the pure wheel (installed beside it into a folder of
   its own, put first on the path): the replays and the Parquet must be byte-identical;
4. the suite without the browser tests, against the installed package, from a copy of the
   checkout without its ``cardlab/`` (``CARDLAB_TEST_INSTALLED=1`` makes tests/conftest.py
   refuse to run on any checkout's copy).

    python scripts/matrix.py                       # every version that has a wheel in dist/
    python scripts/matrix.py --python 3.10 3.13    # what CI runs

Prints one line per version (its install, smoke and suite times and the suite's summary) and
exits 1 when any of them failed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pythons import SUPPORTED, find_python, tag

ROOT = Path(__file__).resolve().parents[1]
# Not for the matrix: the browser tests, those that build and install wheels themselves (the
# extras, one fresh venv each), which `make test` runs once on the main interpreter, and those
# of the repository's own Makefile installs (marker checkout), which need its cardlab/.
SUITE = ["tests", "-m", "not browser and not checkout", "-p", "no:cacheprovider",
         "--ignore", "tests/test_extras.py", "--ignore", "tests/browser"]
PLAYS = [("whot", "1"), ("bobs-hat", "2"), ("teds-game", "3")]


class Failed(Exception):
    pass


def run(command: list[str], cwd: Path, env: dict[str, str], timeout: float = 1800) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        raise Failed(f"{' '.join(command)} (exit {done.returncode}):\n"
                     f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return done.stdout


def tree_without_package(into: Path) -> Path:
    """A copy of the checkout's files (git's, with those not yet added) but its ``cardlab/``:
    the suite runs there, so ``python -m cardlab`` in a test finds only the installed wheel."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True, timeout=60).stdout
    shutil.rmtree(into, ignore_errors=True)
    for name in sorted(set(listed.decode().split("\0")) - {""}):
        source, target = ROOT / name, into / name
        if name.startswith("cardlab/"):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():  # a link to a folder (replays/ is cardlab/examples/): its files
            shutil.copytree(source, target)
        elif source.is_file():
            shutil.copy2(source, target)
    return into


def one_wheel(dist: Path, pattern: str) -> Path:
    found = sorted(dist.glob(pattern))
    if len(found) != 1:
        raise Failed(f"expected one {pattern} in {dist}, found {len(found)}: run `make dist`")
    return found[0]


def outputs(cardlab: list[str], work: Path, env: dict[str, str]) -> dict[str, bytes]:
    """The files the smoke commands write, by name."""
    made = {}
    for game, seed in PLAYS:
        name = f"{game}.json"
        run([*cardlab, "play", game, "--seed", seed, "--out", name], work, env)
        made[name] = (work / name).read_bytes()
    run([*cardlab, "simulate", "whot", "--games", "6", "--workers", "0", "--no-progress",
         "-o", "sim.parquet"], work, env)
    # a Parquet dataset: a folder of parts (each chunk's, written by its worker) and metadata
    for part in sorted((work / "sim.parquet").rglob("*")):
        if part.is_file():
            made[part.relative_to(work).as_posix()] = part.read_bytes()
    if not any(name.startswith("sim.parquet/") for name in made):
        raise Failed("simulate wrote no Parquet part under sim.parquet/")
    return made


def check(version: str, dist: Path, scratch: Path) -> str:
    python = find_python(version)
    cp = tag(version)
    compiled = one_wheel(dist, f"cardlab-*-{cp}-{cp}-*manylinux*.whl")
    pure = one_wheel(dist, "cardlab-*-py3-none-any.whl")
    venv = scratch / cp
    shutil.rmtree(venv, ignore_errors=True)
    start = time.monotonic()
    subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_ = venv / "bin"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PATH=f"{bin_}{os.pathsep}{env['PATH']}", PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD="1")
    run([str(bin_ / "python"), "-m", "pip", "install", "-q", "--progress-bar", "off",
         f"{compiled}[test]"], ROOT, env)
    installed = time.monotonic() - start

    start = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        version_line = run(["cardlab", "--version"], work, env)
        if "kernel compiled" not in version_line or f"Python {version}" not in version_line:
            raise Failed(f"cardlab --version said: {version_line.strip()}")
        made = outputs(["cardlab"], work, env)
        run(["cardlab", "show", "whot.json"], work, env)
        run(["cardlab", "show", "example:norwegian-review", "--seat", "Brad"], work, env)
        run(["cardlab", "html", "example:whot-example", "--out", "page.html"], work, env)
        run(["cardlab", "analyse", "example:norwegian-review", "--seat", "Brad", "--rollouts",
             "20", "--workers", "1", "-o", "analysed.json"], work, env, timeout=900)
        pure_site = scratch / f"{cp}-pure"
        shutil.rmtree(pure_site, ignore_errors=True)
        run([str(bin_ / "python"), "-m", "pip", "install", "-q", "--no-deps", "--target",
             str(pure_site), str(pure)], ROOT, env)
        pure_env = {**env, "PYTHONPATH": str(pure_site), "CARDLAB_PURE": "1"}
        pure_cli = [str(bin_ / "python"), "-m", "cardlab"]
        if "kernel pure Python" not in run([*pure_cli, "--version"], work, pure_env):
            raise Failed("the pure wheel's cardlab did not load its pure kernel")
        pure_work = work / "pure"
        pure_work.mkdir()
        pure_made = outputs(pure_cli, pure_work, pure_env)
        if sorted(pure_made) != sorted(made):
            raise Failed(f"the pure wheel wrote other files: {sorted(pure_made)}")
        for name, data in pure_made.items():
            if data != made[name]:
                raise Failed(f"the pure wheel wrote a different {name}")
    smoke = time.monotonic() - start

    start = time.monotonic()
    tree = tree_without_package(scratch / f"{cp}-tree")
    suite_env = {**env, "CARDLAB_TEST_INSTALLED": "1"}
    suite = subprocess.run([str(bin_ / "pytest"), *SUITE], cwd=tree, env=suite_env,
                           capture_output=True, text=True, timeout=3600)
    summary = (suite.stdout.strip().splitlines() or ["(no output)"])[-1]
    timings = (f"install {installed:5.0f} s, smoke + pure identical {smoke:4.0f} s, "
               f"suite {time.monotonic() - start:5.0f} s: {summary}")
    if suite.returncode != 0:
        raise Failed(f"the suite failed on {version} ({timings}):\n"
                     f"{suite.stdout[-6000:]}{suite.stderr[-2000:]}")
    return timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", nargs="+", default=list(SUPPORTED), metavar="X.Y")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    scratch = ROOT / "build" / "matrix"
    scratch.mkdir(parents=True, exist_ok=True)
    failed = 0
    for version in args.python:
        try:
            line = check(version, args.dist.resolve(), scratch)
        except (Failed, subprocess.TimeoutExpired) as error:
            failed += 1
            line = f"FAILED: {error}"
        print(f"Python {version}: {line}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
