"""Build the classroom site: the lessons as a JupyterLite site that runs offline in a browser.

Run by ``make lite`` with lite/.venv's Python (CPython >= 3.11, lite/requirements.txt). From
the package registries alone, it assembles a staging folder, lite/.build/, and runs
``jupyter lite build`` on it into lite/_output/:

- ``static/pyodide/``: Pyodide's core (the npm package ``pyodide``, PYODIDE_VERSION), and the
  pure wheels of the packages its lockfile names that the kernel needs (PYODIDE_LOCKED), at
  the lockfile's versions from the package index, the lockfile's sha256 rewritten to theirs;
  and beside them cardlab's pure wheel (``CARDLAB_PURE=1``) and lite/wheels.txt, each added
  to the lockfile, so that the kernel loads cardlab, the widgets and plotly as it starts
  (``loadPyodideOptions.packages``: PRELOAD) with nothing fetched from outside the site;
- ``files/``: the walkthrough and the lessons (``notebooks/``) and the example replays.

lite/jupyter-lite.json is the site's settings: no PyPI fallback (``disablePyPIFallback``: a
package the site lacks fails at once, offline or not), and ``exposeAppInBrowser`` (the page's
``window.jupyterapp``, which tests/browser/test_lite.py and benchmarks/lite_start.py drive).

Everything is pinned (the versions here and in the .txt files) and every file in the site
carries the time of the checkout's last commit, so the same checkout builds the same site.
Downloads are kept in lite/.downloads/ for the next build.

    lite/.venv/bin/python lite/build.py     # build lite/_output (make lite)
    python3 lite/serve.py                   # serve it on http://127.0.0.1:8123/ (make lite-serve)
"""

from __future__ import annotations

import argparse
import email.parser
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

LITE = Path(__file__).resolve().parent
ROOT = LITE.parent
STAGE = LITE / ".build"
OUTPUT = LITE / "_output"
DOWNLOADS = LITE / ".downloads"

PYODIDE_VERSION = "314.0.6"  # what jupyterlite-pyodide-kernel 0.8.6 runs (Python 3.14)
# The packages the kernel loads from Pyodide's lockfile (micropip; IPython, jedi and their
# dependencies; what cardlab and plotly import); each comes at the lockfile's version.
PYODIDE_LOCKED = ("micropip", "packaging", "ipython", "asttokens", "decorator", "executing",
                  "matplotlib-inline", "prompt-toolkit", "pure-eval", "pygments", "six",
                  "stack-data", "traitlets", "wcwidth", "jedi", "parso", "typing-extensions",
                  "narwhals", "tqdm")
PRELOAD = ("cardlab", "anywidget", "plotly")  # loaded with the kernel: what the lessons use
NOTEBOOKS = ("01-*.ipynb", "1[0-9]-*.ipynb")  # the walkthrough and the lessons


def log(text: str) -> None:
    print(f"[lite] {text}", flush=True)


def run(*args: str | Path, env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
    subprocess.run([str(a) for a in args], check=True, env=env, cwd=cwd)


def epoch() -> int:
    """The time of the checkout's last commit (what every file in the site is dated)."""
    if "SOURCE_DATE_EPOCH" in os.environ:
        return int(os.environ["SOURCE_DATE_EPOCH"])
    done = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%ct"],
                          capture_output=True, text=True)
    return int(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else 0


def pins(name: str) -> list[str]:
    """The requirement lines of lite/``name`` (comments and blank lines left out)."""
    lines = (line.split("#")[0].strip() for line in (LITE / name).read_text().splitlines())
    return [line for line in lines if line]


def pyodide_core() -> Path:
    """The npm package of Pyodide's core, packed from the npm registry once."""
    tgz = DOWNLOADS / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tgz.exists():
        DOWNLOADS.mkdir(parents=True, exist_ok=True)
        log(f"npm pack pyodide@{PYODIDE_VERSION}")
        run("npm", "pack", "--silent", f"pyodide@{PYODIDE_VERSION}", cwd=DOWNLOADS)
    return tgz


def download(requirements: list[str], into: Path) -> list[Path]:
    """Pure wheels of the pinned ``requirements``, from the package index (kept in into/)."""
    into.mkdir(parents=True, exist_ok=True)
    run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
        "--implementation", "py", "--abi", "none", "--platform", "any", "--python-version",
        "3.14", "--dest", into, *requirements)
    wheels = []
    for req in requirements:
        name, _, version = req.partition("==")
        stem = name.lower().replace("-", "_").replace(".", "_")
        found = [p for p in into.glob("*.whl")
                 if p.name.lower().startswith(f"{stem}-{version}-")]
        if len(found) != 1:
            raise SystemExit(f"lite/build.py: no single wheel of {req} in {into}: {found}")
        wheels.append(found[0])
    return wheels


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stage_pyodide(static: Path, added: list[Path]) -> None:
    """Pyodide's core into static/pyodide, with the locked packages' wheels beside it, and the
    ``added`` wheels too, each made an entry of the lockfile."""
    with tarfile.open(pyodide_core()) as tar:  # the "data" filter where tarfile has it
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(STAGE / "npm", **safe)
    shutil.copytree(STAGE / "npm" / "package", static)
    lock_path = static / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    packages = lock["packages"]
    missing = [name for name in PYODIDE_LOCKED if name not in packages]
    if missing:
        raise SystemExit(f"lite/build.py: Pyodide's lockfile has no {', '.join(missing)}")
    wanted = [f"{name}=={packages[name]['version']}" for name in PYODIDE_LOCKED]
    for name, wheel in zip(PYODIDE_LOCKED, download(wanted, DOWNLOADS / "locked"), strict=True):
        entry = packages[name]
        entry["file_name"] = wheel.name
        entry["sha256"] = sha256(wheel)
        shutil.copy2(wheel, static / wheel.name)
    entries = [lock_entry(wheel) for wheel in added]
    known = set(packages) | {entry["name"] for entry in entries}
    for entry, wheel in zip(entries, added, strict=True):
        entry["depends"] = sorted(d for d in entry["depends"] if d in known)
        packages[entry["name"]] = entry
        shutil.copy2(wheel, static / wheel.name)
    # IPython 9 imports ipython_pygments_lexers, which the lockfile's IPython does not list
    packages["ipython"]["depends"] = sorted({*packages["ipython"]["depends"],
                                             "ipython-pygments-lexers"})
    lock_path.write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_entry(wheel: Path) -> dict[str, object]:
    """A lockfile entry for a pure wheel: its name, version, dependencies (those that apply
    in Pyodide, without extras) and the modules it installs."""
    from packaging.requirements import Requirement  # noqa: PLC0415 (in lite/.venv)

    environment = {"python_version": "3.14", "python_full_version": "3.14.2",
                   "sys_platform": "emscripten", "platform_system": "Emscripten",
                   "implementation_name": "cpython", "platform_machine": "wasm32",
                   "os_name": "posix", "extra": ""}
    with zipfile.ZipFile(wheel) as whl:
        (meta,) = [n for n in whl.namelist() if n.endswith(".dist-info/METADATA")]
        message = email.parser.Parser().parsestr(whl.read(meta).decode("utf-8"))
        tops = sorted({n.split("/")[0].removesuffix(".py") for n in whl.namelist()
                       if not n.split("/")[0].endswith((".dist-info", ".data"))
                       and (n.count("/") or n.endswith(".py"))})
    depends = []
    for line in message.get_all("Requires-Dist") or []:
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate(environment):
            depends.append(normal(req.name))
    return {"name": normal(message["Name"]), "version": message["Version"],
            "file_name": wheel.name, "sha256": sha256(wheel), "depends": depends,
            "imports": tops, "install_dir": "site", "package_type": "package",
            "unvendored_tests": False}


def cardlab_wheel(stamp: int) -> Path:
    """cardlab's pure wheel (CARDLAB_PURE=1: no compiled kernel), built from this checkout."""
    out = STAGE / "cardlab-wheel"
    env = {**os.environ, "CARDLAB_PURE": "1", "SOURCE_DATE_EPOCH": str(stamp)}
    log("building cardlab's pure wheel")
    # with lite/.venv's own pinned setuptools and wheel (no isolated build fetching the
    # newest): the wheel's bytes do not change with the index (CARDLAB_PURE: no mypyc needed)
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
        "-w", out, ROOT, env=env)
    (wheel,) = out.glob("cardlab-*.whl")
    return wheel


def settings(path: Path) -> None:
    """jupyter-lite.json with the packages the kernel loads as it starts (PRELOAD)."""
    config = json.loads(path.read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    kernel["loadPyodideOptions"] = {"packages": list(PRELOAD)}
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


def stage_files(files: Path) -> None:
    """The notebooks and the example replays, as the repository lays them out."""
    (files / "notebooks").mkdir(parents=True)
    for pattern in NOTEBOOKS:
        for notebook in sorted((ROOT / "notebooks").glob(pattern)):
            shutil.copy2(notebook, files / "notebooks" / notebook.name)
    shutil.copytree(ROOT / "cardlab" / "examples", files / "replays")


def stamp_tree(folder: Path, stamp: int) -> None:
    """Date every file in ``folder`` at ``stamp`` (the contents index lists the dates)."""
    for path in folder.rglob("*"):
        os.utime(path, (stamp, stamp), follow_symlinks=False)


def labextensions() -> None:
    """The front-ends of the widgets and of plotly, for `jupyter lite build` to copy."""
    run(sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", *pins("labextensions.txt"))


def build() -> None:
    start = time.monotonic()
    if sys.version_info < (3, 11):
        raise SystemExit("lite/build.py needs CPython 3.11 or newer (see lite/requirements.txt)")
    stamp = epoch()
    shutil.rmtree(STAGE, ignore_errors=True)
    shutil.rmtree(OUTPUT, ignore_errors=True)
    STAGE.mkdir()
    for name in ("jupyter_lite_config.json", "jupyter-lite.json"):
        shutil.copy2(LITE / name, STAGE / name)
    settings(STAGE / "jupyter-lite.json")
    labextensions()
    added = [*download(pins("wheels.txt"), DOWNLOADS / "wheels"), cardlab_wheel(stamp)]
    log(f"Pyodide {PYODIDE_VERSION}")
    stage_pyodide(STAGE / "static" / "pyodide", added)
    stage_files(STAGE / "files")
    stamp_tree(STAGE, stamp)
    log("jupyter lite build")
    run(Path(sys.executable).parent / "jupyter", "lite", "build", "--lite-dir", STAGE,
        "--output-dir", OUTPUT, "--source-date-epoch", str(stamp), cwd=STAGE)
    size = sum(p.stat().st_size for p in OUTPUT.rglob("*") if p.is_file())
    log(f"built {OUTPUT.relative_to(ROOT)}: {size / 1e6:.1f} MB in "
        f"{time.monotonic() - start:.0f} s")


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    build()


if __name__ == "__main__":
    main()
