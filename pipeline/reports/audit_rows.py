"""reports.audit_rows: the audit's rows (:func:`pipeline.reports.audit_games`) with the changes of their
games held by column, as one Arrow table, not as a list of dicts per game.

:func:`game_changes` picks the changes rows of the counted games among the audit's rows and orders them
by row, Black's first (a sort and a join, whatever the number of games); :class:`AuditRows` holds the
rows and those changes; :meth:`AuditRows.frame` is the frame :func:`~pipeline.reports.audit_games`
returns, whose ``changes`` column is the lists of dicts made from that table in one pass. The command
line writes the audit's points from the table itself (:mod:`pipeline.cli.audit_cells`).

Knows nothing of where the rows come from (:mod:`pipeline.reports.queries` reads them) or of rendering.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

#: What the audit shows of each change of a game, in order.
CHANGE_KEYS = ("player", "color", "delta", "points", "bonus", "bonus_rule")
#: The audit's column of each game's changes, and the column before which it stands.
CHANGES, _AFTER_CHANGES = "changes", "source_path"


@dataclass(frozen=True, slots=True)
class GameChanges:
    """The changes of a sequence of games, by column: ``table`` one row per change (columns
    :data:`CHANGE_KEYS`, missing values null), the changes of the ``i``-th game its rows ``offsets[i]``
    up to ``offsets[i + 1]`` (Black's first); a game not counted has none."""

    table: pa.Table
    offsets: np.ndarray[Any, np.dtype[np.int64]]

    def records(self) -> list[list[dict[str, Any]]]:
        """Each game's changes as :data:`CHANGE_KEYS` dicts (missing values None), a list per game."""
        rows = self.table.to_pylist()
        bounds = self.offsets.tolist()
        return [rows[a:b] for a, b in itertools.pairwise(bounds)]

    def grouped(self, texts: pa.Array) -> pa.ListArray:
        """``texts`` (one value per change, in the order of :attr:`table`) as a list per game."""
        return pa.ListArray.from_arrays(pa.array(self.offsets, pa.int64()), texts)


@dataclass(frozen=True, slots=True)
class AuditRows:
    """The rows of an audit: ``games`` the columns of :data:`pipeline.reports.queries.AUDIT_COLUMNS`
    but ``changes``, one row per record (index 0 to n-1); ``changes`` their changes by column."""

    games: pd.DataFrame
    changes: GameChanges

    def frame(self) -> pd.DataFrame:
        """The rows as :func:`pipeline.reports.audit_games` returns them: with the ``changes`` column (a
        list of :data:`CHANGE_KEYS` dicts per row), before ``source_path``."""
        frame = self.games.copy()
        at = list(frame.columns).index(_AFTER_CHANGES)
        frame.insert(at, CHANGES, pd.Series(self.changes.records(), index=frame.index, dtype=object))
        return frame


def game_changes(changes: pd.DataFrame, games: pd.DataFrame) -> GameChanges:
    """The rows of ``changes`` (columns ``game_id``, ``color`` and the rest of :data:`CHANGE_KEYS`) of
    the counted ``games`` (rows with ``game_id`` and ``counted``), by game in the order of ``games``,
    each game's by ``color`` (Black's first, then as ``changes`` has them). Every row of ``games`` with
    the game id of a counted one gets its changes."""
    ids = games["game_id"]
    keep = games["counted"].to_numpy(dtype=bool)
    if not ids.is_unique:  # (the rows of a counted game's id: a game id is one record's, in practice)
        keep = ids.isin(set(ids[keep].tolist())).to_numpy(dtype=bool)
    rows = np.flatnonzero(keep)
    places = pd.DataFrame({"game_id": ids.to_numpy(dtype=object)[rows], "_row": rows.astype(np.int64)})
    keys = pd.DataFrame(
        {
            "game_id": changes["game_id"].to_numpy(dtype=object),
            "color": changes["color"].to_numpy(dtype=object),
            "_change": np.arange(len(changes), dtype=np.int64),
        }
    )
    found = keys.merge(places, on="game_id", how="inner", sort=False).sort_values(
        ["_row", "color"], kind="stable"
    )
    offsets = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(np.bincount(found["_row"].to_numpy(dtype=np.int64), minlength=len(ids)), out=offsets[1:])
    chosen = changes.iloc[found["_change"].to_numpy(dtype=np.int64)][list(CHANGE_KEYS)]
    table = pa.Table.from_pandas(chosen, preserve_index=False)
    return GameChanges(table.replace_schema_metadata(None), offsets)
