"""``cardlab simulate``: the subcommand's options and what it prints.

    cardlab simulate teds-game --players 5 --games 1000 --bots heuristic,random --seed 1 \\
        -o results.parquet

It shows a progress bar on standard error, writes the tables (``-o``), and prints the
summary: per bot and per seat, the mean total with a 95% confidence interval, the win rate.
Ctrl-C or SIGTERM writes the games that finished and says so in one line (exit 130 or 143).
"""

from __future__ import annotations

import argparse
import signal
import sys
from typing import Any

from ..bots import KINDS
from ..console import add_game_arguments, parse_seed, say
from ..game import get_game
from ..options import parse_option_pairs
from ..words import plural
from .spec import SEATINGS, make_spec


def add_parser(sub: Any) -> None:
    """Register ``simulate`` with the CLI's subparsers."""
    sim = sub.add_parser("simulate", help="bots play many games; tidy Parquet tables and a "
                                          "summary")
    add_game_arguments(sim)
    sim.add_argument("--games", type=int, default=100, metavar="K",
                     help="games to play (default 100)")
    sim.add_argument("--bots", default="heuristic",
                     help=f"bots for the seats, comma-separated, from {', '.join(KINDS)}; the "
                          "list cycles over the seats (default heuristic)")
    sim.add_argument("--seating", choices=SEATINGS, default="rotate",
                     help="rotate (default): the bots move one seat each game; fixed: not")
    sim.add_argument("--seed", default="0", help="an integer or a short text (default 0)")
    who = sim.add_mutually_exclusive_group()
    who.add_argument("--workers", type=int, metavar="W",
                     help="processes to play on (default: all cores; 0: this process)")
    who.add_argument("--scheduler", metavar="ADDRESS",
                     help="a dask.distributed scheduler, e.g. tcp://10.0.0.5:8786")
    sim.add_argument("--connect-timeout", type=float, default=10.0, metavar="SECONDS",
                     help="how long to try to reach the scheduler (default 10)")
    sim.add_argument("--replays", metavar="DIR",
                     help="also save each game as a replay here: a zip per chunk of games, "
                          "DIR/games-FIRST-LAST.zip, holding game-N.json")
    sim.add_argument("--compress-replays", action="store_true",
                     help="deflate each replay in its zip: about 7 times smaller, at more "
                          "than the cost of saving the replays")
    sim.add_argument("-o", "--out", help="the hands table, a folder of Parquet files (one "
                                         "per chunk); the games table goes beside it, as "
                                         "NAME.games.parquet")
    sim.add_argument("--chunk", type=int, metavar="GAMES",
                     help="games per chunk (default: about 64 chunks, at most 1000 games)")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Run ``cardlab simulate``; bad input raises a ``CardlabError`` (one line, exit 2)."""
    from . import summary
    from .api import Terminated
    from .api import run as run_spec

    spec = make_spec(args.game, players=args.players, games=args.games, bots=args.bots,
                     seed=parse_seed(args.seed), options=parse_option_pairs(args.option),
                     seating=args.seating, chunk=args.chunk)
    try:
        _, tally, info = run_spec(spec, workers=args.workers, scheduler=args.scheduler,
                                  replays=args.replays,
                                  compress_replays=args.compress_replays, out=args.out,
                                  collect=False,
                                  progress=not args.no_progress, notebook=False,
                                  connect_timeout=args.connect_timeout, handle_sigterm=True)
    except KeyboardInterrupt as err:
        # before the run began (while connecting), or while giving up: nothing was written
        print("cardlab: interrupted before any game finished: nothing written",
              file=sys.stderr)
        return 143 if isinstance(err, Terminated) else 130
    code = 0
    written = " and ".join(info["written"])
    if info["interrupted"]:
        code = 143 if info["signal"] == signal.SIGTERM else 130
        if info["games"] and written:
            print(f"cardlab: interrupted: wrote {written} with the "
                  f"{plural(info['games'], 'game')} that finished, of {spec.games:,}",
                  file=sys.stderr)
        elif info["games"]:
            print(f"cardlab: interrupted after {plural(info['games'], 'game')} of "
                  f"{spec.games:,} (no -o: nothing written)", file=sys.stderr)
        else:
            print("cardlab: interrupted before any game finished: nothing written",
                  file=sys.stderr)
    rules = get_game(spec.game).rules_class
    for line in summary.text(tally.rows({"bot": sorted(set(spec.bots)),
                                         "seat": list(spec.seats)}), rules.low_score_wins):
        say(line)
    if info["reruns"]:
        say(f"{plural(info['reruns'], 'chunk')} played again after their worker died")
    if written and not info["interrupted"]:
        say(f"wrote {written}: {plural(info['games'], 'game')}")
    return code
