"""Shared timing helper for the benchmark scripts (not a benchmark itself)."""

from __future__ import annotations

import gc
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable


def rate(work: Callable[[int], int], seconds: float = 3.0, repeats: int = 3) -> float:
    """Best units per second over ``repeats`` runs of about ``seconds`` each.

    ``work(i)`` does one unit of work for seed ``i`` and returns how many units it did.
    The best run is reported: on a shared machine the slower runs measure the neighbours.
    The cyclic garbage collector is off while timing, as ``timeit`` does by default.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _rate(work, seconds, repeats)
    finally:
        if enabled:
            gc.enable()


def _rate(work: Callable[[int], int], seconds: float, repeats: int) -> float:
    best = 0.0
    seed = 0
    for _ in range(repeats):
        done = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for _ in range(50):
                done += work(seed)
                seed += 1
        best = max(best, done / (time.perf_counter() - start))
    return best


def host_speed() -> str:
    """How fast this machine runs plain Python right now, to read the figures against.

    A fixed loop of 3 million multiply-and-modulo steps, best of 3. On the 2-core machines
    this project runs on it has taken from about 210 to 290 ms within minutes: absolute
    figures move with it, ratios measured in one run do not.
    """
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(3_000_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - start)
    return f"host speed: reference loop {best * 1000:.0f} ms (lower is a faster host)"


def kernel_kind() -> str:
    """Which kernel the figures are for: compiled by mypyc at install, or plain Python."""
    from cardlab import kernel

    kind = "compiled by mypyc" if kernel.COMPILED else "plain Python (not compiled)"
    return f"cardlab kernel: {kind}"


def run_cardlab(argv: list[str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """``cardlab ARGV`` in a fresh child process: its wall seconds, its peak RSS in MB (the
    child's own ``ru_maxrss``) and the finished process (standard error as text, without
    the peak line)."""
    code = ("import resource, sys\nfrom cardlab.cli import main\n"
            f"sys.argv = ['cardlab', *{argv!r}]\n"
            "try:\n    main()\nfinally:\n"
            "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "    sys.stderr.write(f'\\nmaxrss {peak}\\n')\n")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    err, _, peak = done.stderr.rpartition("maxrss ")
    done.stderr = err.strip()
    return seconds, int(peak) / 1024, done  # Linux: ru_maxrss is in kilobytes


def rounds_line(rounds: int, seconds: float) -> str:
    """What interleaved rounds were run, and the load average (1, 5, 15 minutes) after."""
    load = os.getloadavg()
    return (f"{rounds} interleaved rounds of about {seconds} s a side; load average "
            f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1, 5, 15 min) on {os.cpu_count()} cores")


def ratio_line(label: str, ratios: list[float], target: str, met: bool) -> str:
    """The median of the rounds' ratios, their range, and whether the target is met."""
    return (f"  {label}: median of the rounds' ratios {statistics.median(ratios):.2f} (rounds "
            f"from {min(ratios):.2f} to {max(ratios):.2f}); target {target}: "
            f"{'met' if met else 'NOT met'}")
