"""Build the classroom site: the lessons as a JupyterLite site that runs offline in a browser.

Run by ``make lite`` with lite/.venv's Python (CPython >= 3.11, lite/requirements.txt), and
Node (npm's): from the package registries alone, it assembles a staging folder, lite/.build/,
and runs ``jupyter lite build`` on it into lite/_output/:

- ``static/pyodide/``: Pyodide's core (the npm package ``pyodide``, PYODIDE_VERSION), and the
  pure wheels of the packages its lockfile names that the kernel needs (PYODIDE_LOCKED), at
  the lockfile's versions from the package index; beside them cardlab's pure wheel
  (``CARDLAB_PURE=1``), lite/wheels.txt and jupyterlite's kernel wheels, each added to the
  lockfile. Every module of them and of Pyodide's stdlib is compiled to bytecode by Pyodide
  itself (lite/pycompile.mjs), and the lockfile's sha256 are those of the wheels as shipped.
  The kernel loads what the lessons' first cells need as it starts, all at once
  (``loadPyodideOptions.packages``: PRELOAD), the rest when a cell needs it; nothing is
  fetched from outside the site;
- ``files/``: the walkthrough and the lessons (``notebooks/``) and the example replays.

lite/jupyter-lite.json is the site's settings: no PyPI fallback (``disablePyPIFallback``: a
package the site lacks fails at once, offline or not), and ``exposeAppInBrowser`` (the page's
``window.jupyterapp``, which tests/browser/test_lite.py and benchmarks/lite_start.py drive).

Everything is pinned (the versions here and in the .txt files) and every file in the site
carries the time of the checkout's last commit, so the same checkout builds the same site,
file for file (tests/browser/test_lite.py builds it a second time and compares). Downloads
are kept in lite/.downloads/: a rebuild asks no registry anything.

    lite/.venv/bin/python lite/build.py     # build lite/_output (make lite)
    lite/.venv/bin/python lite/build.py --output /tmp/site   # the same, elsewhere
    python3 lite/serve.py                   # serve it on http://127.0.0.1:8123/ (make lite-serve)
"""

from __future__ import annotations

import argparse
import base64
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
# What the kernel loads as it starts, all at once: cardlab and the viewer's anywidget (what
# every lesson's first cell imports), and what jupyterlite's kernel would otherwise install
# one by one after Pyodide started (micropip, piplite, its kernel and the ipykernel shim,
# IPython, jedi): jupyterlite skips each of those named here. plotly is left to load when a
# chart first needs it (cardlab.dataframes.load_in_browser): a second less at every start.
PRELOAD = ("cardlab", "anywidget", "micropip", "piplite", "pyodide-kernel", "ipykernel",
           "comm", "ipython", "jedi")
# jupyterlite's own wheels (its kernel, the ipykernel shim, piplite), which the build of
# lite/.venv's jupyterlite-pyodide-kernel ships, added to the lockfile to be preloaded
KERNEL_WHEELS = ("piplite", "pyodide_kernel", "ipykernel")
KERNEL_PYPI = Path(sys.prefix, "share", "jupyter", "labextensions", "@jupyterlite",
                   "pyodide-kernel-extension", "static", "pypi")
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
    """Pure wheels of the pinned ``requirements``, from the package index once (kept in
    into/: a rebuild asks the index nothing)."""
    into.mkdir(parents=True, exist_ok=True)
    missing = [req for req in requirements if not downloaded(req, into)]
    if missing:
        run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
            "--only-binary=:all:", "--implementation", "py", "--abi", "none", "--platform",
            "any", "--python-version", "3.14", "--dest", into, *missing)
    wheels = []
    for req in requirements:
        found = downloaded(req, into)
        if len(found) != 1:
            raise SystemExit(f"lite/build.py: no single wheel of {req} in {into}: {found}")
        wheels.append(found[0])
    return wheels


def downloaded(requirement: str, into: Path) -> list[Path]:
    """The wheels of ``requirement`` (``name==version``) in into/."""
    name, _, version = requirement.partition("==")
    stem = name.lower().replace("-", "_").replace(".", "_")
    return [p for p in into.glob("*.whl") if p.name.lower().startswith(f"{stem}-{version}-")]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stage_pyodide(stage: Path, added: list[Path], stamp: int) -> None:
    """Pyodide's core into static/pyodide, with the locked packages' wheels beside it, and the
    ``added`` wheels too, each made an entry of the lockfile; every module compiled
    (:func:`bytecode`), the stdlib's too."""
    static = stage / "static" / "pyodide"
    with tarfile.open(pyodide_core()) as tar:  # the "data" filter where tarfile has it
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(stage / "npm", **safe)
    runtime = stage / "npm" / "package"
    shutil.copytree(runtime, static)
    lock_path = static / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    packages = lock["packages"]
    missing = [name for name in PYODIDE_LOCKED if name not in packages]
    if missing:
        raise SystemExit(f"lite/build.py: Pyodide's lockfile has no {', '.join(missing)}")
    wanted = [f"{name}=={packages[name]['version']}" for name in PYODIDE_LOCKED]
    locked = dict(zip(PYODIDE_LOCKED, download(wanted, DOWNLOADS / "locked"), strict=True))
    for name, wheel in locked.items():
        packages[name]["file_name"] = wheel.name
    entries = [lock_entry(wheel) for wheel in added]
    known = set(packages) | {entry["name"] for entry in entries}
    for entry in entries:
        entry["depends"] = sorted(d for d in entry["depends"] if d in known)
        packages[entry["name"]] = entry
    # IPython 9 imports ipython_pygments_lexers, which the lockfile's IPython does not list
    packages["ipython"]["depends"] = sorted({*packages["ipython"]["depends"],
                                             "ipython-pygments-lexers"})
    wheels = [*locked.values(), *added]
    for wheel in wheels:
        shutil.copy2(wheel, static / wheel.name)
    archives = [static / "python_stdlib.zip", *(static / wheel.name for wheel in wheels)]
    bytecode(runtime, archives, stage / "bytecode", stamp)
    for entry in [packages[name] for name in PYODIDE_LOCKED] + entries:
        entry["sha256"] = sha256(static / str(entry["file_name"]))
    lock_path.write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def bytecode(runtime: Path, archives: list[Path], work: Path, stamp: int) -> None:
    """Add to each archive (the stdlib's zip, wheels) the bytecode of its modules, compiled by
    Pyodide's own CPython in Node (lite/pycompile.mjs: why, and where the bytecode goes), so
    that the kernel compiles nothing it imports. Each archive is written anew, its entries in
    their order and the bytecode after them (a wheel's RECORD lists it, and comes last)."""
    jobs: list[tuple[str, str, str]] = []
    owner: list[int] = []
    for number, archive in enumerate(archives):
        where = "stdlib" if archive.suffix == ".zip" else "site"
        with zipfile.ZipFile(archive) as zipped:
            for name in zipped.namelist():
                if name.endswith(".py"):
                    source = work / "src" / str(number) / name
                    source.parent.mkdir(parents=True, exist_ok=True)
                    source.write_bytes(zipped.read(name))
                    jobs.append((str(source.relative_to(work)), where, name))
                    owner.append(number)
    (work / "jobs.json").write_text(json.dumps(jobs), encoding="utf-8")
    log(f"compiling {len(jobs)} modules with Pyodide in Node")
    run("node", LITE / "pycompile.mjs", runtime, work)
    compiled: dict[int, list[tuple[str, bytes]]] = {}
    for index, name in json.loads((work / "compiled.json").read_text(encoding="utf-8")):
        data = (work / "out" / str(index) / name).read_bytes()
        compiled.setdefault(owner[index], []).append((name, data))
    for number, archive in enumerate(archives):
        rezip(archive, sorted(compiled.get(number, [])), stamp)
    shutil.rmtree(work)


def rezip(archive: Path, extra: list[tuple[str, bytes]], stamp: int) -> None:
    """``archive`` with the files ``extra`` added (dated ``stamp``), listed in its RECORD."""
    with zipfile.ZipFile(archive) as old:
        entries = [(info, old.read(info)) for info in old.infolist()]
    record = [e for e in entries if e[0].filename.endswith(".dist-info/RECORD")]
    entries = [e for e in entries if e not in record]
    if record:
        (info, text), = record
        lines = "".join(f"{name},sha256={digest(data)},{len(data)}\n" for name, data in extra)
        record = [(info, text + lines.encode())]
    date = time.gmtime(max(stamp, 315532800))[:6]  # a zip's dates start in 1980
    added = []
    for name, data in extra:
        info = zipfile.ZipInfo(name, date_time=date)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        added.append((info, data))
    with zipfile.ZipFile(archive.with_suffix(".new"), "w") as new:
        for info, data in [*entries, *added, *record]:
            new.writestr(info, data)
    archive.with_suffix(".new").replace(archive)


def digest(data: bytes) -> str:
    """A RECORD's hash: urlsafe base64 of the sha256, without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


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


def cardlab_wheel(stage: Path, stamp: int) -> Path:
    """cardlab's pure wheel (CARDLAB_PURE=1: no compiled kernel), built from this checkout.

    It is built from a copy of what the sdist holds (MANIFEST.in: the package's sources and
    files, the build's own), not in the checkout: a build/ or *.egg-info/ left there by an
    earlier build would put files since deleted or renamed into the wheel, and a compiled
    kernel (cardlab/*.so) has no place in a pure one."""
    source = stage / "cardlab-source"
    source.mkdir(parents=True)
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "cardlab", source / "cardlab", ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", "*.py[cod]", "*.c", "*.egg-info"))
    out = stage / "cardlab-wheel"
    env = {**os.environ, "CARDLAB_PURE": "1", "SOURCE_DATE_EPOCH": str(stamp)}
    log("building cardlab's pure wheel")
    # with lite/.venv's own pinned setuptools and wheel (no isolated build fetching the
    # newest): the wheel's bytes do not change with the index (CARDLAB_PURE: no mypyc needed)
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
        "-w", out, source, env=env)
    (wheel,) = out.glob("cardlab-*.whl")
    return wheel


def kernel_wheels() -> list[Path]:
    """jupyterlite's kernel wheels (KERNEL_WHEELS), as lite/.venv's kernel extension ships them."""
    wheels = [sorted(KERNEL_PYPI.glob(f"{name}-*-py3-none-any.whl")) for name in KERNEL_WHEELS]
    if any(len(found) != 1 for found in wheels):
        raise SystemExit(f"lite/build.py: not one wheel each of {KERNEL_WHEELS} in {KERNEL_PYPI}")
    return [found[0] for found in wheels]


def settings(path: Path) -> None:
    """jupyter-lite.json with the packages the kernel loads as it starts (PRELOAD)."""
    config = json.loads(path.read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    kernel["loadPyodideOptions"] = {"packages": list(PRELOAD)}
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


def site_notebooks() -> list[Path]:
    """The notebooks the site ships (NOTEBOOKS, in notebooks/), in order: the browser test
    runs each of them."""
    return [path for pattern in NOTEBOOKS for path in sorted((ROOT / "notebooks").glob(pattern))]


def stage_files(files: Path) -> None:
    """The notebooks and the example replays, as the repository lays them out."""
    (files / "notebooks").mkdir(parents=True)
    for notebook in site_notebooks():
        shutil.copy2(notebook, files / "notebooks" / notebook.name)
    shutil.copytree(ROOT / "cardlab" / "examples", files / "replays")


def stamp_tree(folder: Path, stamp: int) -> None:
    """Date every file in ``folder`` at ``stamp`` (the contents index lists the dates)."""
    for path in folder.rglob("*"):
        os.utime(path, (stamp, stamp), follow_symlinks=False)


def labextensions() -> None:
    """The front-ends of the widgets and of plotly, for `jupyter lite build` to copy."""
    run(sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", *pins("labextensions.txt"))


def build(output: Path, stage: Path) -> None:
    """The site into ``output``, staged in ``stage`` (both made anew)."""
    start = time.monotonic()
    if sys.version_info < (3, 11):
        raise SystemExit("lite/build.py needs CPython 3.11 or newer (see lite/requirements.txt)")
    stamp = epoch()
    shutil.rmtree(stage, ignore_errors=True)
    shutil.rmtree(output, ignore_errors=True)
    stage.mkdir(parents=True)
    for name in ("jupyter_lite_config.json", "jupyter-lite.json"):
        shutil.copy2(LITE / name, stage / name)
    settings(stage / "jupyter-lite.json")
    labextensions()
    added = [*download(pins("wheels.txt"), DOWNLOADS / "wheels"), *kernel_wheels(),
             cardlab_wheel(stage, stamp)]
    log(f"Pyodide {PYODIDE_VERSION}")
    stage_pyodide(stage, added, stamp)
    stage_files(stage / "files")
    stamp_tree(stage, stamp)
    log("jupyter lite build")
    run(Path(sys.executable).parent / "jupyter", "lite", "build", "--lite-dir", stage,
        "--output-dir", output, "--source-date-epoch", str(stamp), cwd=stage)
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    log(f"built {output}: {size / 1e6:.1f} MB in {time.monotonic() - start:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=None,
                        help="build into this folder instead of lite/_output (staged beside "
                             "it, in OUTPUT.stage, removed after): a second build to compare")
    args = parser.parse_args()
    if args.output is None:
        build(OUTPUT, STAGE)
        return
    stage = args.output.with_name(args.output.name + ".stage")
    try:
        build(args.output.resolve(), stage.resolve())
    finally:
        shutil.rmtree(stage, ignore_errors=True)


if __name__ == "__main__":
    main()
