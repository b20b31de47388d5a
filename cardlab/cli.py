"""The ``cardlab`` command line: play a game with bots, show a replay, validate a replay.

Bad input prints one line naming where and why, and exits 2.

    cardlab play bobs-hat --players 4 --seed 7 --option hands=3 --out game.json
    cardlab show game.json --seat Brad
    cardlab validate replays/norwegian-review.json
    cardlab games
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from .bots import KINDS, make_bot
from .errors import CardlabError
from .game import get_game, list_games, parse_option_pairs
from .replay import load, new_game
from .text import render


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, like every other error
        self.exit(2, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cardlab", description=__doc__.splitlines()[0] if __doc__ else "")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    play = sub.add_parser("play", help="bots play a whole game and write the replay")
    play.add_argument("game")
    play.add_argument("--players", type=int)
    play.add_argument("--seed", default="0", help="any integer or text (default 0)")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    play.add_argument("--bots", default="heuristic",
                      help=f"one of {', '.join(KINDS)} for all seats, or one per seat, "
                           "comma-separated")
    play.add_argument("--seats", help="comma-separated seat names")
    play.add_argument("--out", required=True, help="where to write the replay (JSON)")
    show = sub.add_parser("show", help="the replay as text, trick by trick, with scores")
    show.add_argument("file")
    show.add_argument("--seat", help="show only what this seat could see")
    show.add_argument("--lang", default="en", help="language of the notes (default en)")
    validate = sub.add_parser("validate", help="check a replay against the schema and rules")
    validate.add_argument("file")
    sub.add_parser("games", help="list the games and their options")
    return parser


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def run(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "play":
        options: dict[str, Any] = dict(parse_option_pairs(args.option))
        seats = args.seats.split(",") if args.seats else None
        seed = _seed(args.seed)
        table = new_game(args.game, players=args.players, seed=seed, seats=seats, **options)
        kinds = args.bots.split(",")
        if len(kinds) not in (1, len(table.seats)):
            raise CardlabError(f"--bots names {len(kinds)} bots for {len(table.seats)} seats")
        kinds = kinds * len(table.seats) if len(kinds) == 1 else kinds
        table.play([make_bot(kind.strip(), args.game, seed=f"{seed}/{seat}")
                    for seat, kind in enumerate(kinds)])
        table.save(args.out)
        totals = ", ".join(f"{s} {v}" for s, v in zip(table.seats, table.state.totals(),
                                                       strict=True))
        print(f"wrote {args.out}: {len(table.replay.hands)} hands; {totals}")
    elif args.command == "show":
        replay = load(args.file)
        seat = None
        if args.seat is not None:
            if args.seat not in replay.seats:
                raise CardlabError(f"{args.file}: no seat {args.seat!r}; the seats are "
                                   f"{', '.join(replay.seats)}")
            seat = replay.seats.index(args.seat)
        print(render(replay, seat=seat, lang=args.lang))
    elif args.command == "validate":
        replay = load(args.file)
        actions = sum(len(h.actions) for h in replay.hands)
        print(f"{args.file}: valid {get_game(replay.game).title} replay, "
              f"{len(replay.hands)} hands, {actions} actions")
    elif args.command == "games":
        for name, info in sorted(list_games().items()):
            print(f"{name}: {info.title}")
            for option in info.options:
                choices = f" [{'|'.join(map(str, option.choices))}]" if option.choices else ""
                print(f"  {option.name}={option.default}{choices}  {option.doc}")
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    try:
        code = run(argv)
    except CardlabError as err:
        print(f"cardlab: error: {err}", file=sys.stderr)
        code = 2
    except KeyboardInterrupt:
        code = 130
    sys.exit(code)


if __name__ == "__main__":
    main()
