"""`cardlab show` and `cardlab html` of files built to hurt them, inside the load limits (issue 18).

Targets on the project's 2-core machine, each command in a fresh child process (wall time and
peak RSS, the child's own ``ru_maxrss``), median of ``--repeats`` runs:

- ``html`` of a 100,000-action Whot hand: ≤ 10 s and ≤ 400 MB;
- ``html`` of 100,000 one-action variations (exactly ``max_variations``): ≤ 15 s and ≤ 400 MB,
  or a clean refusal naming the page budget (``cardlab.limits.MAX_PAGE_FRAMES``);
- ``show`` of a 4,000-action analysed Whot hand with its actions spelt in capitals
  (``PLAY CIRCLE5``, which no eval record's key spells): ≤ 1.5 × the time of the same file in
  the engine's own spelling;
- a file at every load limit at once (``DEFAULT_LIMITS``: a 1,000,000-action hand, 100,000
  variations of which a chain 1,000 deep, a note of 100,000 characters): ``validate``,
  ``show`` and ``html`` (which the page budget refuses, naming it) all end cleanly.

Before issue 18 a note-language walk recursed (the 1,000-deep chain raised RecursionError in
``html``), every analysed decision spelt otherwise replayed its hand from the deal (show of
4,000 capitalised actions: 28–51 s against 0.8 s), and ``html`` cost about 11 kB of memory
per step of every view (the 100,000-action hand: 63 s, 1.1 GB; the variations: 258 s, 2.4 GB).

The files are built in a temporary folder each run (a minute or so: the every-limit file
is 40 MB).

    python benchmarks/hostile_pages.py [--repeats 3] [--only NAME]

Benchmarks print figures; they are never tests.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import host_speed, run_cardlab  # noqa: E402
from validate_large import Stubborn  # noqa: E402  (bots that never go out)

import cardlab  # noqa: E402
from cardlab.limits import DEFAULT_LIMITS  # noqa: E402
from cardlab.replay import Action, Replay  # noqa: E402


def whot_hand(actions: int, players: int = 2, seed: int = 18) -> Replay:
    """One game of Whot of exactly ``actions`` actions (the safety cap ends it there)."""
    table = cardlab.new_game("whot", players=players, seed=seed, rubber="single",
                             max_turns=actions)
    table.play([Stubborn(s) for s in range(players)],  # type: ignore[list-item]
               max_actions=actions + 10)
    assert len(table.replay.hands[0].actions) == actions, "the game ended early"
    return table.replay


def analysed(replay: Replay) -> Replay:
    """Every decision of the main line with an eval record (made-up numbers of the right
    shape: the views draw them, nothing here estimates anything)."""
    state = replay.new_state()
    for hand in replay.hands:
        state.apply_chance(hand.deal)
        for action in hand.actions:
            legal = state.legal_texts()
            if len(legal) > 1 and replay.seats[state.to_act()] == action.seat:
                action.eval = {"seat": action.seat, "rollouts": 10, "seed": 1,
                               "bot": "random",
                               "values": {t: [float(i % 7), 0.5] for i, t in enumerate(legal)}}
            state.act(action.act)
    return replay


def many_variations(count: int) -> Replay:
    """A hand of Where's Bob's Hat? whose first action has ``count`` one-action variations."""
    from cardlab.bots import make_bot

    table = cardlab.new_game("bobs-hat", players=3, seed=2, hands=1)
    table.play([make_bot("heuristic", "bobs-hat", seed=s) for s in range(3)])
    first = table.replay.hands[0].actions[0]
    other = "hat -10" if first.act == "hat +10" else "hat +10"
    first.variations = [[Action(first.seat, other)] for _ in range(count)]
    return table.replay


def every_limit(path: Path) -> None:
    """A file at the default limits of actions, variations, depth and note length at once."""
    limits = DEFAULT_LIMITS
    replay = whot_hand(limits.max_actions_per_hand, players=2)
    actions = replay.hands[0].actions
    actions[0].note = "n" * limits.max_note_chars
    node = actions[1]
    for _ in range(limits.max_variation_depth):  # a chain: each inside the one before
        twin = Action(node.seat, node.act)  # the text the line plays there: legal
        node.variations.append([twin])
        node = twin
    actions[2].variations.extend(
        [Action(actions[2].seat, actions[2].act)]
        for _ in range(limits.max_variations - limits.max_variation_depth))
    replay.save(path)


def run(command: list[str]) -> tuple[float, float, int, str]:
    """Wall seconds, peak RSS (MB), exit status and the last line of standard error of
    ``cardlab COMMAND`` in a fresh child process."""
    seconds, peak, done = run_cardlab(command)
    message = done.stderr.splitlines()[-1] if done.stderr else ""
    return seconds, peak, done.returncode, message


def measure(label: str, command: list[str], repeats: int, limit_s: float | None,
            limit_mb: float | None) -> float:
    runs = [run(command) for _ in range(repeats)]
    seconds = statistics.median(r[0] for r in runs)
    peak = statistics.median(r[1] for r in runs)
    status, message = runs[-1][2], runs[-1][3]
    meets = (limit_s is None or seconds <= limit_s) and (limit_mb is None or peak <= limit_mb)
    target = ", ".join(t for t in (f"≤ {limit_s:g} s" if limit_s else "",
                                   f"≤ {limit_mb:g} MB" if limit_mb else "") if t)
    verdict = f" (target {target}: {'meets' if meets else 'misses'})" if target else ""
    said = f"; exit {status}: {message}" if status else ""
    print(f"{label}: {seconds:.2f} s, peak RSS {peak:.0f} MB{verdict}{said}", flush=True)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=("long", "variations", "spelling", "limits"))
    args = parser.parse_args()
    print(host_speed())
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        out = str(tmp / "page.html")
        jobs: dict[str, Callable[[], None]] = {}

        def long_hand() -> None:
            path = tmp / "whot-100k.json"
            whot_hand(100_000).save(path)
            measure("html of a 100,000-action Whot hand", ["html", str(path), "-o", out],
                    args.repeats, 10, 400)

        def variations() -> None:
            path = tmp / "variations.json"
            many_variations(DEFAULT_LIMITS.max_variations).save(path)
            print(f"  ({path.stat().st_size / 1e6:.1f} MB)")
            measure("html of 100,000 one-action variations", ["html", str(path), "-o", out],
                    args.repeats, 15, 400)

        def spelling() -> None:
            replay = analysed(whot_hand(4_000))
            lower = tmp / "analysed.json"
            replay.save(lower)
            data = json.loads(lower.read_text(encoding="utf-8"))
            for action in data["hands"][0]["actions"]:
                action["act"] = action["act"].upper()
            upper = tmp / "analysed-upper.json"
            upper.write_text(json.dumps(data), encoding="utf-8")
            base = measure("show of a 4,000-action analysed hand (engine spelling)",
                           ["show", str(lower)], args.repeats, None, None)
            other = measure("show of the same hand spelt in capitals",
                            ["show", str(upper)], args.repeats, base * 1.5, None)
            print(f"  ratio {other / base:.2f} (target ≤ 1.5)")

        def limits() -> None:
            path = tmp / "every-limit.json"
            start = time.perf_counter()
            every_limit(path)
            print(f"  every-limit file: {path.stat().st_size / 1e6:.1f} MB, made in "
                  f"{time.perf_counter() - start:.0f} s")
            for command in (["validate", str(path)], ["show", str(path)],
                            ["html", str(path), "-o", out]):
                measure(f"{command[0]} of the every-limit file", command, 1, None, None)

        jobs = {"long": long_hand, "variations": variations, "spelling": spelling,
                "limits": limits}
        for name, job in jobs.items():
            if args.only in (None, name):
                job()


if __name__ == "__main__":
    main()
