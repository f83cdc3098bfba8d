"""identity.records: the players of an output folder, as the game records show them.

:func:`appearances` turns ``games.parquet`` into one row per record and side (the player, the spelling
the record used, the opponent, the date and week, the declared rank); :func:`players` sums it up per
player, :func:`list_players` those of an output folder. Columnar throughout (pandas groupby), never a
loop per game. Knows nothing of which players are the same person
(:mod:`pipeline.reports.identity.evidence`), nor of rule sets.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pipeline.config.roster import Roster
from pipeline.output.folder import read_games

#: The games columns read.
READ_COLUMNS = (
    "game_id",
    "date",
    "counted",
    "black",
    "white",
    "black_player",
    "white_player",
    "black_rank",
    "white_rank",
)
#: The columns of :func:`appearances`.
APPEARANCE_COLUMNS = ("game_id", "player", "spelling", "opponent", "date", "week", "rank", "counted")
#: The columns of :func:`players`, in order.
PLAYER_COLUMNS = ("player", "games", "counted", "first", "last", "ranks", "roster_rank", "spellings")


def read_appearances(out: Path) -> pd.DataFrame:
    """:func:`appearances` of ``out``'s games. Raises ReportError if ``out`` holds no output."""
    return appearances(read_games(out, columns=READ_COLUMNS))


def list_players(out: Path, roster: Roster | None = None) -> pd.DataFrame:
    """The players of the output folder ``out`` by name, columns :data:`PLAYER_COLUMNS` (:func:`players`;
    ``roster`` gives ``roster_rank``).

    Raises:
        ReportError: if ``out`` holds no output.
    """
    return players(read_appearances(out), roster)


def appearances(games: pd.DataFrame) -> pd.DataFrame:
    """One row per game record and side with a player, columns :data:`APPEARANCE_COLUMNS`.

    ``games`` has the :data:`READ_COLUMNS` (rows of :func:`~pipeline.output.folder.read_games`).
    ``player`` is the canonical name, ``spelling`` the name as the record wrote it (rank split off),
    ``opponent`` the other side's canonical name (None when it has none), ``date`` a Timestamp (NaT
    without one), ``week`` the Monday of its week (a Timestamp, NaT without a date), ``rank`` the
    declared rank (``3d``) or None. A record whose side has no player (a parse error) gives no row
    for that side.
    """
    sides = [_side(games, side, other) for side, other in (("black", "white"), ("white", "black"))]
    found = pd.concat(sides, ignore_index=True)
    found = found[found["player"].notna()].reset_index(drop=True)
    found["date"] = dates = pd.to_datetime(found["date"])
    found["week"] = (dates - pd.to_timedelta(dates.dt.day_of_week, unit="D")).dt.normalize()
    return found[list(APPEARANCE_COLUMNS)]


def _side(games: pd.DataFrame, side: str, other: str) -> pd.DataFrame:
    """The ``side``'s rows of :func:`appearances` (without ``week``)."""
    return pd.DataFrame(
        {
            "game_id": games["game_id"],
            "player": games[f"{side}_player"],
            "spelling": games[side].fillna(games[f"{side}_player"]),
            "opponent": games[f"{other}_player"],
            "date": games["date"],
            "rank": games[f"{side}_rank"],
            "counted": games["counted"].astype(bool),
        }
    )


def players(seen: pd.DataFrame, roster: Roster | None = None) -> pd.DataFrame:
    """Each player of the :func:`appearances` ``seen``, by name.

    Returns:
        Columns :data:`PLAYER_COLUMNS`: ``games`` the records they appear in, ``counted`` those that
        counted, ``first``/``last`` the dates of their first and last dated record (None without one),
        ``ranks`` the ranks their records declare (sorted list), ``roster_rank`` the rank the
        ``roster`` declares (None: none, or no roster), ``spellings`` every spelling the records used
        (sorted list).
    """
    grouped = seen.groupby("player", sort=True)
    table = pd.DataFrame(
        {
            "games": grouped["game_id"].nunique(),
            "counted": seen[seen["counted"]].groupby("player")["game_id"].nunique(),
            "first": grouped["date"].min(),
            "last": grouped["date"].max(),
        }
    )
    table["ranks"] = _sorted_lists(seen, "rank", table.index)
    table["spellings"] = _sorted_lists(seen, "spelling", table.index)
    table["counted"] = table["counted"].fillna(0).astype(int)
    table = table.rename_axis("player").reset_index()
    table["roster_rank"] = table["player"].map(lambda name: _roster_rank(roster, name))
    for column in ("first", "last"):
        days = table[column].dt.date.astype(object)
        table[column] = days.where(table[column].notna(), None)
    return table[list(PLAYER_COLUMNS)]


def _sorted_lists(seen: pd.DataFrame, column: str, players: pd.Index[str]) -> pd.Series[Any]:
    """The sorted distinct values of ``column`` per player of ``players`` (an empty list for none)."""
    values = seen[["player", column]].dropna().drop_duplicates().sort_values(["player", column])
    codes, names = pd.factorize(values["player"])  # sorted: each player's values are contiguous
    chunks = np.split(values[column].to_numpy(dtype=object), np.flatnonzero(np.diff(codes)) + 1)
    lists = pd.Series([chunk.tolist() for chunk in chunks] if len(values) else [], index=names, dtype=object)
    return pd.Series([lists.get(name, []) for name in players], index=players, dtype=object)


def _roster_rank(roster: Roster | None, name: str) -> str | None:
    entry = roster.get(name) if roster is not None else None
    return entry.rank if entry is not None else None
