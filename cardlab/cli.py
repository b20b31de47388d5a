"""The ``cardlab`` command line: play, show, check, page, analyse and simulate card games.

Bad input prints one line naming where and why, and exits 2: a bad file, a bad option, a file
that cannot be read or written. Ctrl-C exits 130; a closed pipe (``cardlab show x | head``)
ends quietly with 141, as for any program killed by SIGPIPE.

    cardlab play bobs-hat --players 4 --seed 7 --option hands=3 --out game.json
    cardlab show game.json --seat Brad
    cardlab show example:norwegian-review --seat Brad
    cardlab validate huge.json --limit max_actions_per_hand=5000000
    cardlab games
    cardlab examples
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import Any, NoReturn

from .bots import KINDS, make_bot
from .console import MAX_SEED_CHARS, STDOUT, add_game_arguments, parse_seed, say, say_lines
from .errors import CardlabError, OptionError
from .files import check_target, reason
from .game import get_game, list_games
from .limits import MAX_PAGE_FRAMES, Limits, whole_number
from .loader import EXAMPLE, example_names, load, stem
from .options import parse_option_pairs
from .replay import Replay, note_languages
from .table import new_game
from .text import render_steps
from .words import plural

REPLAY_HELP = "the replay: a file, or example:NAME (see `cardlab examples`)"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, like every other error
        self.exit(2, f"{self.prog}: error: {message}\n")


DESCRIPTION = ("Play, show, check and analyse card games ({games}) as self-contained JSON "
               "replays. A replay is a file's path, or example:NAME for one shipped with "
               "cardlab (see `cardlab examples`).")

EPILOG = """\
examples:
  cardlab play teds-game --players 4 --seed 7 --out game.json
  cardlab show example:norwegian-review --seat Brad
  cardlab html example:whot-example
  cardlab analyse game.json --rollouts 100
  cardlab simulate bobs-hat --games 1000 -o sims.parquet
  cardlab handouts --quiz norwegian-review:Brad

Each command explains its options: cardlab COMMAND --help."""


def version_text() -> str:
    """What ``cardlab --version`` prints: cardlab's version, the Python, and the kernel.

    >>> version_text().startswith("cardlab ")
    True
    """
    from . import __version__, kernel

    build = "compiled" if kernel.COMPILED else "pure Python (slower; no compiled wheel here)"
    return (f"cardlab {__version__} (Python {sys.version.split()[0]}, "
            f"{sys.implementation.name}; kernel {build})")


def _parser() -> argparse.ArgumentParser:
    games = ", ".join(game.title for _, game in sorted(list_games().items()))
    description = textwrap.fill(DESCRIPTION.format(games=games), 79)
    parser = _Parser(prog="cardlab", description=description, epilog=EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=version_text(),
                        help="print cardlab's version, the Python and whether the kernel is "
                             "compiled, and exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                metavar="COMMAND")
    play = sub.add_parser("play", help="bots play a whole game and write the replay")
    add_game_arguments(play)
    play.add_argument("--seed", default="0",
                      help=f"an integer or a text of at most {MAX_SEED_CHARS} characters "
                           "(default 0)")
    play.add_argument("--bots", default="heuristic",
                      help=f"one of {', '.join(KINDS)} for all seats, or one per seat, "
                           "comma-separated")
    play.add_argument("--seats", help="comma-separated seat names")
    play.add_argument("--out", required=True, help="where to write the replay (JSON)")
    show = sub.add_parser("show", help="the replay as text, trick by trick, with scores")
    show.add_argument("file", help=REPLAY_HELP)
    show.add_argument("--seat", help="show only what this seat could see")
    show.add_argument("--lang", help="language of the notes (default en, else the first)")
    validate = sub.add_parser("validate", help="check a replay against the schema and rules")
    validate.add_argument("file", help=REPLAY_HELP)
    sub.add_parser("games", help="list the games and their options")
    sub.add_parser("examples", help="list the example replays shipped with cardlab "
                                    "(use them as example:NAME)")
    page = sub.add_parser("html", help="the replay as one offline HTML page with the viewer")
    page.add_argument("file", help=REPLAY_HELP)
    page.add_argument("--seat", help="the page holds only what this seat could see")
    page.add_argument("--lang", help="language of the notes shown first")
    page.add_argument("-o", "--out", help="where to write the page (default: the replay's "
                                          "name with .html, in the current folder)")
    page.add_argument("--future", action="store_true",
                      help="open with the moves to come written out in the move list (a "
                           "review); by default it shows the moves up to the step on show, "
                           "and the reader can switch")
    page.add_argument("--page-budget", type=_budget, default=MAX_PAGE_FRAMES, metavar="N",
                      help="the most frames the page may hold (every view's steps of every "
                           f"line; default {MAX_PAGE_FRAMES:,}); a bigger page is refused")
    for reader in (show, validate, page):
        reader.add_argument("--limit", action="append", default=[], metavar="NAME=N",
                            help="raise (or lower) a limit of what the file may hold; the "
                                 f"limits are {', '.join(Limits.names())}")
    handouts = sub.add_parser("handouts", help="lessons and quizzes as offline HTML pages for "
                                               "students without a server")
    handouts.add_argument("notebooks", nargs="*", metavar="LESSON.ipynb",
                          help="lesson notebooks, each executed to make its page")
    handouts.add_argument("--out", default="handouts",
                          help="the folder to write the pages into (default: handouts)")
    handouts.add_argument("--quiz", action="append", default=[], metavar="EXAMPLE:SEAT",
                          help="a quiz over a shipped example replay, from one seat, e.g. "
                               "norwegian-review:Brad (repeat for more)")
    handouts.add_argument("--future", action="store_true", default=None,
                          help="open every viewer with the moves to come shown, for a review "
                               "(default: as each lesson's viewer was made)")
    from .simulation.command import add_parser as add_simulate  # light: no pandas/pyarrow

    add_simulate(sub)
    from .analyse import add_parser as add_analyse

    add_analyse(sub)
    return parser


def _budget(text: str) -> int:
    """``--page-budget N``: a whole number of at least 1 (commas and underscores allowed)."""
    number = whole_number(text)
    if not number:  # None, or 0
        raise argparse.ArgumentTypeError(f"a page budget is a whole number of at least 1, "
                                         f"not {text!r}")
    return number


def _seats(text: str | None) -> list[str] | None:
    """``--seats A,B,C``; the names themselves are checked by :func:`cardlab.new_game`."""
    return None if text is None else text.split(",")


def _load(args: argparse.Namespace) -> Replay:
    """``load`` with the limits of ``--limit NAME=N`` (each name at most once)."""
    pairs: dict[str, str] = {}
    for pair in args.limit:
        name, sep, value = pair.partition("=")
        key = name.strip().replace("-", "_")
        if not sep or not key:
            raise OptionError(f"--limit {pair!r} should look like NAME=N, e.g. "
                              f"max_hands=5000; the limits are {', '.join(Limits.names())}")
        if key in pairs:
            raise OptionError(f"--limit {key} is given twice")
        pairs[key] = value
    return load(args.file, limits=Limits.from_pairs(pairs))


def _lang(replay: Replay, file: str, lang: str | None) -> str:
    if lang is None:
        return "en"
    languages = note_languages(replay)
    if lang not in languages:
        have = (f"its notes are in {', '.join(languages)}" if languages
                else "its notes are not written per language")
        raise OptionError(f"{file}: no notes in language {lang!r}; {have}")
    return lang


def _seat(replay: Replay, file: str, seat: str | None) -> int | None:
    if seat is None:
        return None
    try:
        return replay.seat_index(seat)
    except OptionError as err:
        raise OptionError(f"{file}: {err}") from None


def run(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "simulate":
        from .simulation.command import run as simulate

        return simulate(args)
    if args.command == "analyse":
        from .analyse import run_command

        say(run_command(_load(args), args.file, args.out, args.seat, args.rollouts, args.seed,
                        args.bot, args.workers, args.nodes))
        return 0
    if args.command == "play":
        options: dict[str, Any] = dict(parse_option_pairs(args.option))
        for name in ("game", "seed", "seats", "meta"):  # new_game's own keywords
            if name in options:
                raise OptionError(f"{name} is not a rules option"
                                  + (f"; use --{name}" if name in ("seed", "seats") else ""))
        if "players" in options and args.players is not None:
            raise OptionError("the number of players is given twice: --players and "
                              "--option players")
        players = options.pop("players", args.players)
        seed = parse_seed(args.seed)
        # bots play: the simulations' options (Whot's safety cap) unless the user set them
        options = {**get_game(args.game).rules_class.SIMULATION_OPTIONS, **options}
        table = new_game(args.game, players=players, seed=seed, seats=_seats(args.seats),
                         **options)
        kinds = args.bots.split(",")
        if len(kinds) not in (1, len(table.seats)):
            raise OptionError(f"--bots names {plural(len(kinds), 'bot')} for "
                              f"{len(table.seats)} seats")
        kinds = kinds * len(table.seats) if len(kinds) == 1 else kinds
        bots = [make_bot(kind.strip(), args.game, seed=f"{seed}/{seat}")
                for seat, kind in enumerate(kinds)]
        check_target(args.out)  # before the game is played, not after
        table.play(bots)
        table.save(args.out)
        totals = ", ".join(f"{s} {v}" for s, v in zip(table.seats, table.state.totals(),
                                                       strict=True))
        hands = plural(len(table.replay.hands), table.replay.rules.game.game_type.hand_word)
        say(f"wrote {args.out}: {hands}; {totals}")
    elif args.command == "show":
        replay = _load(args)
        seat = _seat(replay, args.file, args.seat)
        # line by line as the steps come: a long replay's text is never held whole
        say_lines(line for _, lines in render_steps(
            replay, seat=seat, lang=_lang(replay, args.file, args.lang)) for line in lines)
    elif args.command == "validate":
        replay = _load(args)
        actions = sum(len(h.actions) for h in replay.hands)
        say(f"{args.file}: valid {get_game(replay.game).title} replay, "
            f"{plural(len(replay.hands), replay.rules.game.game_type.hand_word)}, "
            f"{plural(actions, 'action')}")
    elif args.command == "html":
        from .view.page import write_page  # the view layer, only for this command

        replay = _load(args)
        # Not beside the replay: that may be a folder of examples, or one the user can't write.
        default = stem(args.file) + ".html"
        out = default if args.out is None else args.out
        check_target(out)
        write_page(replay, out, seat=_seat(replay, args.file, args.seat),
                   lang=_lang(replay, args.file, args.lang) if args.lang else None,
                   budget=args.page_budget, file=args.file, future=args.future)
        say(f"wrote {out}")
    elif args.command == "examples":
        for name in example_names():
            replay = load(EXAMPLE + name)
            hands = plural(len(replay.hands), replay.rules.game.game_type.hand_word)
            title = replay.meta.get("title") or get_game(replay.game).title
            say(f"{EXAMPLE}{name}: {title}, "
                f"{', '.join(replay.seats)}; {hands}")
    elif args.command == "handouts":
        from .lessons.handouts import write_handouts  # needs the [lab] extra (nbclient)

        if not args.notebooks and not args.quiz:
            raise OptionError("give lesson notebooks, or --quiz EXAMPLE:SEAT, or both")
        for path in write_handouts(args.out, args.notebooks, args.quiz, args.future):
            say(f"wrote {path} ({path.stat().st_size // 1024} kB)")
    elif args.command == "games":
        for name, info in sorted(list_games().items()):
            say(f"{name}: {info.title}")
            for option in info.options:
                choices = f" [{'|'.join(map(str, option.choices))}]" if option.choices else ""
                say(f"  {option.name}={option.default}{choices}  {option.doc}")
    return 0


def _os_error(err: OSError) -> str:
    where = err.filename if err.filename not in (None, "") else None
    return f"{os.fsdecode(where)}: {reason(err)}" if where is not None else reason(err)


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the command line and exit: 0 done, 2 bad input, 130 interrupted, 141 closed pipe."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        # A terminal or pipe whose encoding lacks a character (PYTHONIOENCODING=ascii, an old
        # code page) gets an escape such as \u2014 rather than a crash halfway through.
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        code = run(argv)
    except CardlabError as err:  # before OSError: a SaveError is both
        code = _fail(str(err))
    except BrokenPipeError:
        _drop_stdout()  # the reader went away (``| head``): stop quietly
        code = 141
    except OSError as err:
        if err.filename == STDOUT:
            _drop_stdout()
        code = _fail(_os_error(err))
    except KeyboardInterrupt:
        code = 130
    sys.exit(code)


def _drop_stdout() -> None:
    # What is still buffered cannot be written either: send it nowhere, so Python's flush at
    # exit does not fail a second time with a traceback of its own.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _fail(message: str) -> int:
    # One line, whatever the message holds (a name from a file may carry a newline).
    line = " ".join(message.splitlines())
    print(f"cardlab: error: {line}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    main()
