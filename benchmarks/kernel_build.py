"""How long the repository's build of the compiled kernel takes, cold and warm (docs/packaging.md).

`make lab` and `make test` share one build of the kernel (the Makefile's .stamp-kernel: an
editable install that runs mypyc and the C compiler in place); every later install of
cardlab runs with CARDLAB_PURE=1 and compiles nothing. This measures, in a copy of the
checkout (git's files, no compiled library) with a venv of its own:

1. cold: `make .venv/.stamp-kernel` from nothing (the venv, the build requirements, mypyc and
   the C compiler);
2. the same target again, nothing changed: make has nothing to do;
3. the install of cardlab that `make lab` and `make test` then run (`CARDLAB_PURE=1 pip
   install -e .`, here with --no-deps: the extras' own installs are benchmarks/
   install_extras.py's), which must leave the library as it was, and compiled;
4. a change outside the kernel (cardlab/text.py touched): nothing is rebuilt;
5. a kernel source touched: mypyc and the compiler run again (its C from before is kept under
   build/, so the compiler may find it unchanged).

    python benchmarks/kernel_build.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def copy_checkout(into: Path) -> None:
    """git's files of the checkout (with those not yet added), links as links."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout
    for name in sorted(set(listed.decode().split("\0")) - {""}):
        source, target = ROOT / name, into / name
        if source.is_symlink() or source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target, follow_symlinks=False)


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    start = time.monotonic()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return time.monotonic() - start, done.stdout


def libraries(tree: Path) -> dict[str, int]:
    """The compiled kernel's libraries in ``tree``, with their modification times."""
    return {str(p.relative_to(tree)): p.stat().st_mtime_ns
            for p in (tree / "cardlab").rglob("*.so")}


def main() -> int:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV",
                                                            "CARDLAB_PURE", "MAKEFLAGS")}
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "cardlab"
        copy_checkout(tree)
        make = ["make", "--no-print-directory", ".venv/.stamp-kernel"]
        python = str(tree / ".venv" / "bin" / "python")
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")

        cold, _ = timed(make, tree, env)
        built = libraries(tree)
        if not built:
            raise SystemExit("the cold build compiled nothing: is there a C compiler?")
        print(f"1. cold make .venv/.stamp-kernel:           {cold:6.1f} s "
              f"({len(built)} libraries)")

        again, said = timed(make, tree, env)
        print(f"2. the same again, nothing changed:          {again:6.1f} s ({said.strip()})")

        install, _ = timed([python, "-m", "pip", "install", "-q", "--no-deps", "-e", "."],
                           tree, {**env, "CARDLAB_PURE": "1"})
        _, compiled = timed([python, "-c", "import cardlab.kernel as k; print(k.COMPILED)"],
                            Path(folder), {**env, "CARDLAB_PURE": "1"})
        same = libraries(tree) == built and compiled.strip() == "True"
        print(f"3. CARDLAB_PURE=1 pip install -e . after it: {install:6.1f} s "
              f"({'compiled nothing, the kernel still compiled' if same else 'REBUILT'})")

        (tree / "cardlab" / "text.py").touch()
        other, _ = timed(make, tree, env)
        print(f"4. cardlab/text.py touched, make again:      {other:6.1f} s "
              f"({'nothing rebuilt' if libraries(tree) == built else 'REBUILT'})")

        (tree / "cardlab" / "kernel.py").touch()
        kernel, _ = timed(make, tree, env)
        print(f"5. cardlab/kernel.py touched, make again:    {kernel:6.1f} s "
              f"({'the build hook ran again' if libraries(tree) != built else 'NOT rebuilt'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
