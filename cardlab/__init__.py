"""cardlab: step through, record, teach and analyse card games in JupyterLab."""

from typing import Any

# Importing cardlab.games registers every game (cardlab.game.register) before anything can
# ask for one; cardlab.game itself imports no game, so the contract stays below the games.
from . import games, text  # noqa: F401  (games: imported to register them)
from .cursor import Cursor
from .errors import (
    ActionTextError,
    CardCodeError,
    CardlabError,
    IllegalActionError,
    LimitError,
    OptionError,
    ReplayError,
    SaveError,
    UnknownGameError,
)
from .game import get_game, list_games
from .limits import DEFAULT_LIMITS, Limits
from .loader import load, loads
from .replay import Replay
from .table import Table, new_game

_EXAMPLES = "examples"  # the example replays, shipped in the package (cardlab/examples/)


def example_names() -> list[str]:
    """The names of the example replays shipped with cardlab.

    >>> example_names()
    ['norwegian-review', 'teds-game-example', 'whot-example']
    """
    from importlib import resources

    folder = resources.files(__name__).joinpath(_EXAMPLES)
    return sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".json"))


def example(name: str) -> Replay:
    """One of the example replays shipped with cardlab, loaded (from any folder).

    >>> review = example("norwegian-review")
    >>> review.seats, len(review.hands)
    (['Tone', 'Remo', 'Kathrine', 'Brad'], 2)
    >>> example("norwegian")
    Traceback (most recent call last):
      ...
    cardlab.errors.CardlabError: no example replay called 'norwegian'; the examples are \
norwegian-review, teds-game-example, whot-example
    """
    from importlib import resources

    names = example_names()
    if name not in names:
        raise CardlabError(f"no example replay called {name!r}; the examples are "
                           f"{', '.join(names)}")
    entry = resources.files(__name__).joinpath(_EXAMPLES).joinpath(f"{name}.json")
    with resources.as_file(entry) as path:
        return load(path)


def __getattr__(name: str) -> Any:
    # cardlab.simulate is cardlab.simulation.simulate, imported when first asked for, so that
    # `import cardlab` imports neither it nor pandas, pyarrow or dask.
    if name == "simulate":
        from .simulation import simulate

        return simulate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CardCodeError", "CardlabError", "Cursor", "example", "example_names", "IllegalActionError",
    "OptionError", "ReplayError", "ActionTextError", "LimitError", "Limits", "DEFAULT_LIMITS",
    "SaveError", "UnknownGameError", "get_game", "list_games", "Replay", "Table", "load", "loads",
    "new_game", "simulate", "text",
]
__version__ = "0.1.0"
