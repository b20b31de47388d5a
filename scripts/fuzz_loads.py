"""Feed mutated replay files to ``cardlab.loads``: a million by default, as fast as it can.

The mutations are those of the fuzz test (tests/fuzzing.py) chosen by a plain seeded random
loop instead of hypothesis. Each input must either be refused with a ``CardlabError`` or be
accepted, and then save, load back equal and show. The script prints the inputs per second
and the count of each outcome; each other exception is counted by its type and where it was
raised, and the first input of each kind is saved to ``artifacts/fuzz/`` as a reproducer.

    python scripts/fuzz_loads.py                  # 1,000,000 inputs on 2 processes
    python scripts/fuzz_loads.py -n 20000 -j 1 --seed 7

Exit status 1 when any input ended in something other than a CardlabError, "accepted" or
"repaired" (accepted by lenient=True, whose repaired replay loads strictly).
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import fuzzchecks  # noqa: E402
import fuzzing  # noqa: E402


def _where(err: BaseException) -> str:
    frames = traceback.extract_tb(err.__traceback__)
    inside = [f for f in frames if "cardlab" in f.filename and "tests" not in f.filename]
    last = (inside or frames)[-1]
    return f"{Path(last.filename).name}:{last.lineno} ({last.name})"


def run(args: tuple[int, int, str, int]) -> tuple[collections.Counter[str], dict[str, str]]:
    """Inputs ``start .. start + count - 1`` of the seed: the outcome counts and one
    reproducer per unexpected outcome."""
    start, count, seed, report_every = args
    sys.setrecursionlimit(1000)  # as Python ships: what a user's process has
    counts: collections.Counter[str] = collections.Counter()
    samples: dict[str, str] = {}
    fuzzing.corpus()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cardlab-fuzz-", dir=_fast_tmp()) as tmp:
        folder = Path(tmp)
        for i in range(start, start + count):
            inp = fuzzing.make_input(fuzzing.RandomChooser(f"{seed}/{i}"))
            try:
                counts[fuzzchecks.outcome(inp, folder)] += 1
            except fuzzchecks.AcceptedButBroken as err:
                key = f"accepted, then: {err}"
                counts[key] += 1
                samples.setdefault(key, inp.reproducer())
            except Exception as err:  # noqa: BLE001 - counting them is the point
                key = f"{type(err).__name__} at {_where(err)}"
                counts[key] += 1
                samples.setdefault(key, f"# {type(err).__name__}: {str(err)[:300]}\n"
                                        + inp.reproducer())
            done = i - start + 1
            if report_every and done % report_every == 0:
                rate = done / (time.perf_counter() - began)
                print(f"  [{start}] {done:,} inputs, {rate:,.0f}/s", flush=True)
    return counts, samples


def _fast_tmp() -> str | None:
    """Saves fsync: a folder in memory keeps that from timing the disk."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--inputs", type=int, default=1_000_000)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--seed", default="cardlab-fuzz")
    parser.add_argument("--artifacts", type=Path, default=ROOT / "artifacts" / "fuzz")
    parser.add_argument("--progress", type=int, default=50_000,
                        help="print progress every this many inputs per process (0: never)")
    opts = parser.parse_args(argv)
    print(f"corpus: {len(fuzzing.corpus())} replays; {opts.inputs:,} inputs on "
          f"{opts.jobs} process(es), seed {opts.seed!r}", flush=True)
    share = -(-opts.inputs // opts.jobs)
    chunks = [(j * share, min(share, opts.inputs - j * share), opts.seed, opts.progress)
              for j in range(opts.jobs) if opts.inputs > j * share]
    began = time.perf_counter()
    if len(chunks) == 1:
        results = [run(chunks[0])]
    else:
        with multiprocessing.get_context("fork").Pool(len(chunks)) as pool:
            results = pool.map(run, chunks)
    elapsed = time.perf_counter() - began
    counts: collections.Counter[str] = collections.Counter()
    samples: dict[str, str] = {}
    for c, s in results:
        counts.update(c)
        for key, text in s.items():
            samples.setdefault(key, text)
    total = sum(counts.values())
    print(f"{total:,} inputs in {elapsed:,.1f} s: {total / elapsed:,.0f} inputs/s")
    refused = {k for k in counts if k.endswith("Error") and " " not in k}  # a CardlabError
    expected = {"accepted", "repaired"} | refused
    for key, n in counts.most_common():
        flag = "" if key in expected else "   <-- not a CardlabError"
        print(f"{n:>10,}  {key}{flag}")
    bad = {k: v for k, v in samples.items() if k not in expected}
    if bad:
        opts.artifacts.mkdir(parents=True, exist_ok=True)
        for n, (key, text) in enumerate(sorted(bad.items()), 1):
            path = opts.artifacts / f"reproducer-{n}.py"
            path.write_text(f"# {key}\n{text}", encoding="utf-8", errors="backslashreplace")
            print(f"reproducer: {path}  ({key})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
