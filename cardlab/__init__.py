"""cardlab: step through, record, teach and analyse card games in JupyterLab."""

import os
import sys
import warnings
from typing import Any

# Importing cardlab.games registers every game (cardlab.game.register) before anything can
# ask for one; cardlab.game itself imports no game, so the contract stays below the games.
from . import games, kernel, text  # noqa: F401  (games: imported to register them)
from .cursor import Cursor
from .errors import (
    ActionTextError,
    CardCodeError,
    CardlabError,
    IllegalActionError,
    LimitError,
    OptionError,
    PureKernelWarning,
    ReplayError,
    SaveError,
    UnknownGameError,
)
from .game import get_game, list_games
from .limits import DEFAULT_LIMITS, Limits
from .loader import EXAMPLE, example_names, load, loads
from .replay import Replay
from .table import Table, new_game

# In a browser's Python (Pyodide: the classroom site, docs/classroom.md) no compiled kernel
# can exist: the pure one is what is meant there, as CARDLAB_PURE=1 says elsewhere.
if not kernel.COMPILED and os.environ.get("CARDLAB_PURE") != "1" and \
        sys.platform != "emscripten":
    warnings.warn("cardlab's kernel is not compiled here, so the engine runs as plain Python: "
                  "the same results, about 1.6x slower (a compiled wheel for this Python and "
                  "platform fixes it; CARDLAB_PURE=1 says the pure kernel is meant)",
                  PureKernelWarning, stacklevel=2)


def example(name: str) -> Replay:
    """One of the example replays shipped with cardlab, loaded (from any folder); the same
    as ``load("example:" + name)``.

    >>> review = example("norwegian-review")
    >>> review.seats, len(review.hands)
    (['Tone', 'Remo', 'Kathrine', 'Brad'], 2)
    >>> example_names()
    ['norwegian-review', 'teds-game-example', 'whot-example']
    """
    return load(EXAMPLE + name)


def __getattr__(name: str) -> Any:
    # cardlab.simulate is cardlab.simulation.simulate, imported when first asked for, so that
    # `import cardlab` imports neither it nor pandas, pyarrow or dask.
    if name == "simulate":
        from .simulation import simulate

        return simulate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CardCodeError", "CardlabError", "Cursor", "example", "example_names", "IllegalActionError",
    "OptionError", "PureKernelWarning", "ReplayError", "ActionTextError", "LimitError", "Limits",
    "DEFAULT_LIMITS", "SaveError", "UnknownGameError", "get_game", "list_games", "Replay",
    "Table", "load", "loads", "new_game", "simulate", "text",
]
__version__ = "0.1.0"
