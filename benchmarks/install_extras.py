"""How long each extra takes to install, and how much it installs (docs/packaging.md).

For cardlab alone and for each extra (``[widgets]``, ``[sim]``, ``[scale]``, ``[lab]``): a fresh
virtual environment of the Python running this script, then ``pip install WHEEL[EXTRA]`` from
a local wheel of this checkout, timed. Reported: the install's wall time, how many
distributions it added, and how much it added to the environment's site-packages on disk.

pip's cache is warm on purpose: before any timed install, one untimed ``pip download`` of
everything the extras need fills it, so the figures measure resolving, unpacking and
installing, not the network (a first install on a new machine also downloads). The wheel is
the pure one (``CARDLAB_PURE=1``, built here unless ``--wheel`` names one); a compiled wheel
differs by its 0.5 MB library only.

    python benchmarks/install_extras.py
    python benchmarks/install_extras.py --wheel dist/cardlab-0.1.0-py3-none-any.whl --extras sim

Timing belongs here, never in tests/test_extras.py, which checks that each extra is enough.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXTRAS = ("", "widgets", "sim", "scale", "lab")
PIP = ["-m", "pip", "install", "-q", "--progress-bar", "off", "--disable-pip-version-check"]
# the venv's own count of what is installed, and where
PROBE = ("import importlib.metadata as m, sysconfig\n"
         "print(len({d.metadata['Name'].lower() for d in m.distributions()}))\n"
         "print(sysconfig.get_paths()['purelib']); print(sysconfig.get_paths()['platlib'])\n")


def environment() -> dict[str, str]:
    # nothing of this checkout or of the venv running the script leaks into the new ones
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def build_wheel(out: Path) -> Path:
    # (with build isolation: the running venv need not have pyproject's build requirements)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                    str(ROOT)], check=True, capture_output=True,
                   env={**environment(), "CARDLAB_PURE": "1"})
    (wheel,) = out.glob("cardlab-*.whl")
    return wheel


def target(wheel: Path, extra: str) -> str:
    return f"{wheel}[{extra}]" if extra else str(wheel)


def warm_cache(wheel: Path, extras: list[str], into: Path) -> float:
    """Download everything the extras need once (pip keeps it in its cache); its seconds."""
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--progress-bar", "off",
                    "-d", str(into), *[target(wheel, e) for e in extras]],
                   check=True, capture_output=True, env=environment())
    return time.monotonic() - start


def du(folders: set[str]) -> int:
    """Bytes of the files under ``folders`` (each file once, links not followed)."""
    total = 0
    seen: set[tuple[int, int]] = set()
    for folder in folders:
        for base, _, files in os.walk(folder):
            for name in files:
                info = os.lstat(os.path.join(base, name))
                if (info.st_dev, info.st_ino) not in seen:
                    seen.add((info.st_dev, info.st_ino))
                    total += info.st_size
    return total


def state(python: Path) -> tuple[int, int]:
    """How many distributions the venv has, and the bytes of its site-packages."""
    # (from the venv's folder: in the checkout, its cardlab.egg-info would count)
    out = subprocess.run([str(python), "-c", PROBE], check=True, capture_output=True,
                         text=True, env=environment(), cwd=python.parents[1]).stdout.split("\n")
    return int(out[0]), du({out[1], out[2]})


def measure(wheel: Path, extra: str, scratch: Path) -> tuple[float, int, int]:
    """(seconds to install, distributions added, bytes added) for one extra."""
    venv = scratch / (extra or "none")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    count, size = state(python)
    start = time.monotonic()
    subprocess.run([str(python), *PIP, target(wheel, extra)], check=True, capture_output=True,
                   env=environment(), cwd=venv)
    seconds = time.monotonic() - start
    after_count, after_size = state(python)
    return seconds, after_count - count, after_size - size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="a built cardlab wheel (default: build one)")
    parser.add_argument("--extras", nargs="+", default=list(EXTRAS), metavar="EXTRA",
                        help="'' for cardlab alone; default: none widgets sim scale lab")
    args = parser.parse_args(argv)
    extras = ["" if e in ("", "none") else e for e in args.extras]
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        wheel = args.wheel.resolve() if args.wheel else build_wheel(scratch / "wheel")
        print(f"{wheel.name}, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
        warmed = warm_cache(wheel, extras, scratch / "download")
        print(f"pip's cache warmed (untimed download of everything): {warmed:.0f} s")
        print(f"{'extra':10} {'install':>9} {'added':>13} {'size added':>11}")
        for extra in extras:
            seconds, count, size = measure(wheel, extra, scratch)
            print(f"{'[' + extra + ']' if extra else '(none)':10} {seconds:7.1f} s "
                  f"{count:4d} packages {size / 1e6:8.1f} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
