"""What every ``cardlab`` command prints and reads alike: a result on standard output, and
the ``--seed`` option.

:mod:`cardlab.cli` and the subcommands it registers (:mod:`cardlab.simulation.command`)
both use it, so a subcommand takes nothing private from the CLI.

>>> parse_seed("7"), parse_seed("class 3b")
(7, 'class 3b')
>>> say("done")
done
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from .errors import OptionError

STDOUT = "standard output"  # the file name an error on printing gives (``> /dev/full``)
MAX_SEED_CHARS = 100  # a seed is typed by a person; a longer one is a mistake (a pasted file)
SAY_CHUNK = 4096  # lines written at a time by say_lines


def add_game_arguments(command: Any) -> None:
    """The arguments that name a game and its rules, alike in ``play`` and ``simulate``:
    the game, ``--players`` and ``--option NAME=VALUE``."""
    from .game import list_games

    command.add_argument("game", help="the game (see `cardlab games`): "
                                      + ", ".join(sorted(list_games())))
    command.add_argument("--players", type=int, help="how many seats (default: the game's)")
    command.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                         help="a rules option, e.g. hands=3; repeat it for more (`cardlab "
                              "games` lists each game's options)")


def parse_seed(text: str) -> int | str:
    """``--seed``: an integer if it reads as one, else the text itself; an empty, overlong
    or unprintable seed is an :class:`~cardlab.errors.OptionError`.

    >>> parse_seed("")
    Traceback (most recent call last):
    ...
    cardlab.errors.OptionError: --seed is empty; give an integer or a short text
    """
    if not text.strip():
        raise OptionError("--seed is empty; give an integer or a short text")
    if len(text) > MAX_SEED_CHARS:
        raise OptionError(f"--seed is {len(text)} characters long; a seed has at most "
                          f"{MAX_SEED_CHARS}")
    if not text.isprintable():
        raise OptionError(f"--seed {text!r} holds a control character")
    try:
        return int(text)
    except ValueError:
        return text


def say(text: str) -> None:
    """Print a result; a failure to write it names standard output (``> /dev/full``)."""
    try:
        print(text)
        sys.stdout.flush()  # a closed pipe or a full disk shows here, not at exit
    except BrokenPipeError:
        raise
    except OSError as err:
        err.filename = STDOUT
        raise


def say_lines(lines: Iterable[str]) -> None:
    """Print lines as :func:`say` prints their join, written a few thousand at a time (a
    long replay's text is never held whole)."""
    chunk = SAY_CHUNK
    batch: list[str] = []
    said = False
    for line in lines:
        batch.append(line)
        if len(batch) >= chunk:
            say("\n".join(batch))
            batch.clear()
            said = True
    if batch or not said:
        say("\n".join(batch))
