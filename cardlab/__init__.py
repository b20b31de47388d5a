"""cardlab: step through, record, teach and analyse card games in JupyterLab."""

from . import text
from .cursor import Cursor
from .errors import (
    CardCodeError,
    CardlabError,
    IllegalActionError,
    OptionError,
    ReplayError,
    SaveError,
    UnknownGameError,
)
from .game import get_game, list_games
from .replay import Replay, Table, load, loads, new_game

__all__ = [
    "CardCodeError", "CardlabError", "Cursor", "IllegalActionError", "OptionError", "ReplayError",
    "SaveError", "UnknownGameError", "get_game", "list_games", "Replay", "Table", "load", "loads",
    "new_game", "text",
]
__version__ = "0.1.0"
