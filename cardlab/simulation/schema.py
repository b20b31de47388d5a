"""The fixed pyarrow schemas of a simulation's two tables (see docs/simulations.md).

- the **hands** table: one row per (game, hand, seat); the columns every game has, then the
  game's own (:data:`GAME_COLUMNS`);
- the **games** table: one row per (game, seat): the seed, the length, the total, the winner.

>>> [f.name for f in hands_schema("teds-game")][-5:]
['bid', 'tricks', 'made', 'forbidden', 'hooked']
>>> [f.name for f in games_schema()]
['game', 'seed', 'seat', 'seat_index', 'bot', 'hands', 'actions', 'total', 'winner', 'share']
"""

from __future__ import annotations

from typing import Any

SCHEMA_VERSION = 1

# (name, type, nullable, meaning): the type is a pyarrow type's name, built lazily
COMMON_COLUMNS: tuple[tuple[str, str, bool, str], ...] = (
    ("game", "int32", False, "the game, counted from 1 (Whot: a rubber)"),
    ("hand", "int16", False, "the game's hand number, from 1 (Whot: the game in the rubber)"),
    ("seat", "seat", False, "the seat's name (as in cardlab.frames), a category"),
    ("seat_index", "int8", False, "the seat's number, from 0, in the replay's seat order"),
    ("bot", "bot", False, "the bot in that seat in that game, a category"),
    ("dealer", "bool", False, "the seat dealt this hand"),
    ("from_dealer", "int8", False, "seats after the dealer, clockwise: 0 the dealer, 1 the "
                                   "dealer's left, ..."),
    ("hand_size", "int16", False, "cards dealt to each seat"),
    ("actions", "int32", False, "actions in this hand, all seats (the same on each row)"),
    ("score", "int32", False, "what the hand added to the seat's total (Whot: penalty "
                              "points, lower is better)"),
    ("total", "int32", False, "the seat's total after the hand"),
)

GAME_COLUMNS: dict[str, tuple[tuple[str, str, bool, str], ...]] = {
    "teds-game": (
        ("bid", "int16", False, "the seat's bid, after any change"),
        ("tricks", "int16", False, "tricks the seat won"),
        ("made", "bool", False, "tricks == bid: the bid was made"),
        ("forbidden", "int16", True, "on the dealer's row: the bid the hook forbade "
                                     "(null when the others' bids left no bid forbidden)"),
        ("hooked", "bool", False, "the seat dealt and the hook forbade it a bid"),
    ),
    "bobs-hat": (
        ("bid", "string", False, "the bid, as a replay writes it: most-blue,fewest; none"),
        ("taken", "int16", False, "cards the seat took"),
        ("taken_blue", "int16", False, "blue cards taken"),
        ("taken_red", "int16", False, "red cards taken"),
        ("taken_black", "int16", False, "black cards taken"),
        ("hat", "bool", False, "the seat held Bob's Hat at the end of the hand"),
        ("hat_value", "int8", False, "the hat's value the dealer chose, +10 or -10"),
        ("points_most_blue", "int16", True, "points of the most-blue bid (null: not bid)"),
        ("points_most_red", "int16", True, "points of the most-red bid"),
        ("points_most_black", "int16", True, "points of the most-black bid"),
        ("points_fewest", "int16", True, "points of the fewest bid"),
        ("points_double_fewest", "int16", True, "points of the double-fewest bid"),
        ("points_hat", "int16", True, "the hat's points, on the holder's row (null: none)"),
        ("points_renege", "int16", True, "a renege's penalty (null: none)"),
    ),
    "whot": (
        ("cards_left", "int16", False, "cards the seat held when the game ended"),
        ("won", "bool", False, "the seat played its last card (nobody on a block or cap)"),
        ("ended", "ended", False, "how the game ended: won, blocked or cap, a category"),
    ),
}

GAMES_COLUMNS: tuple[tuple[str, str, bool, str], ...] = (
    ("game", "int32", False, "the game, counted from 1"),
    ("seed", "int64", False, "the game's seed (cardlab play --seed reproduces it)"),
    ("seat", "seat", False, "the seat's name"),
    ("seat_index", "int8", False, "the seat's number, from 0"),
    ("bot", "bot", False, "the bot in that seat"),
    ("hands", "int16", False, "hands played in the game"),
    ("actions", "int32", False, "actions in the whole game, all seats"),
    ("total", "int32", False, "the seat's final total"),
    ("winner", "bool", False, "the seat has the best total (ties: every tied seat)"),
    ("share", "float64", False, "the seat's share of the win: 1/k for k tied winners, else 0"),
)


def _type(name: str) -> Any:
    import pyarrow as pa

    if name in ("seat", "bot", "ended"):
        return pa.dictionary(pa.int8(), pa.string())
    return pa.bool_() if name == "bool" else getattr(pa, name)()


def _schema(columns: tuple[tuple[str, str, bool, str], ...]) -> Any:
    import pyarrow as pa

    return pa.schema([pa.field(name, _type(kind), nullable=nullable)
                      for name, kind, nullable, _ in columns])


def hands_schema(game: str) -> Any:
    """The pyarrow schema of the hands table of ``game``."""
    return _schema(COMMON_COLUMNS + GAME_COLUMNS[game])


def games_schema() -> Any:
    """The pyarrow schema of the games table (the same for every game)."""
    return _schema(GAMES_COLUMNS)


def columns_of(game: str, rec: Any, seat_index: Any, dealer: Any, n: int) -> dict[str, Any]:
    """The game's own columns of the hands table, from what its recorder collected."""
    import numpy as np
    import pyarrow as pa

    if game == "teds-game":
        bid = np.asarray(rec.seat["bid"], dtype=np.int16)
        tricks = np.asarray(rec.seat["tricks"], dtype=np.int16)
        hook = np.repeat(np.asarray(rec.hand["hook"], dtype=np.int16), n)
        hooked = dealer & (hook >= 0)
        return {"bid": bid, "tricks": tricks, "made": bid == tricks,
                "forbidden": pa.array(hook, pa.int16(), mask=~hooked), "hooked": hooked}
    if game == "bobs-hat":
        from ..games.bobs_hat.engine import BID_WORDS, SUITS, bid_text

        flags = rec.seat["bid_flags"]
        texts = {f: bid_text(f) for f in set(flags)}
        taken = np.asarray(rec.seat["taken_suits"], dtype=np.int16).reshape(-1, len(SUITS))
        holder = np.repeat(np.asarray(rec.hand["hat_holder"], dtype=np.int8), n)
        out: dict[str, Any] = {
            "bid": [texts[f] for f in flags],
            "taken": taken.sum(axis=1, dtype=np.int16),
            "hat": seat_index == holder,
            "hat_value": np.repeat(np.asarray(rec.hand["hat_value"], dtype=np.int8), n),
        }
        for i, suit in enumerate(SUITS):
            out[f"taken_{suit}"] = taken[:, i]
        parts = rec.seat["parts"]
        for word in (*BID_WORDS.values(), "hat", "renege"):
            out["points_" + word.replace("-", "_")] = pa.array(
                [p.get(word) for p in parts], pa.int16())
        return out
    if game == "whot":
        from ..games.whot import ENDED_BLOCKED, ENDED_CAP, ENDED_WON

        ends = [ENDED_WON, ENDED_BLOCKED, ENDED_CAP]
        winner = np.repeat(np.asarray(rec.hand["winner"], dtype=np.int8), n)
        ended = np.repeat(np.asarray([ends.index(e) for e in rec.hand["ended"]],
                                     dtype=np.int8), n)
        return {"cards_left": np.asarray(rec.seat["cards_left"], dtype=np.int16),
                "won": seat_index == winner,
                "ended": pa.DictionaryArray.from_arrays(pa.array(ended, pa.int8()),
                                                        pa.array(ends, pa.string()))}
    raise KeyError(game)


def categories(game: str, spec_seats: list[str], bots: list[str]) -> dict[str, list[str]]:
    """The categories of the dictionary columns, in a fixed order (so that frames read from
    a file equal the frames a run returns, whatever the row groups)."""
    out = {"seat": list(spec_seats), "bot": sorted(set(bots))}
    if game == "whot":
        from ..games.whot import ENDED_BLOCKED, ENDED_CAP, ENDED_WON

        out["ended"] = [ENDED_WON, ENDED_BLOCKED, ENDED_CAP]
    return out
