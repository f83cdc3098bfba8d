"""reports.audit_rows: the audit's rows (:func:`pipeline.reports.audit_games`) as Arrow tables, with the
changes of their games held by column, not as a list of dicts per game.

:func:`game_changes` picks the changes rows of the counted games among the audit's rows and orders them
by row, Black's first (a look-up and a sort, whatever the number of games); :class:`AuditRows` holds the
rows and those changes; :meth:`AuditRows.frame` is the frame :func:`~pipeline.reports.audit_games`
returns, whose ``changes`` column is the lists of dicts made from that table in one pass. The command
line writes the audit's cells and points from the tables themselves (:mod:`pipeline.cli.audit_cells`).
Nothing here imports pandas but :meth:`AuditRows.frame` and :meth:`AuditRows.games_frame` (an audit of
one player needs none: :mod:`pipeline.core.buffers`).

Knows nothing of where the rows come from (:mod:`pipeline.reports.audit_query` reads them) or of
rendering.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core import arrays, buffers

if TYPE_CHECKING:
    import pandas as pd

#: What the audit shows of each change of a game, in order.
CHANGE_KEYS = ("player", "color", "delta", "points", "bonus", "bonus_rule")
#: The audit's column of each game's changes, and the column before which it stands.
CHANGES, AFTER_CHANGES = "changes", "source_path"
#: The columns given as lists of codes (Python lists in the frames).
_LISTS = ("reasons", "notes")


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
        return pa.ListArray.from_arrays(buffers.numbers(self.offsets.astype(np.int32)), texts)


@dataclass(frozen=True, slots=True)
class AuditRows:
    """The rows of an audit: ``games`` the columns of :data:`pipeline.reports.audit_query.AUDIT_COLUMNS`
    but ``changes``, one row per record (an Arrow table, days as dates); ``changes`` their changes by
    column."""

    games: pa.Table

    changes: GameChanges

    def counted(self) -> int:
        """How many of the rows are counted games."""
        return int(pc.sum(self.games.column("counted")).as_py() or 0)

    def games_frame(self) -> pd.DataFrame:
        """:attr:`games` in pandas: ``reasons`` and ``notes`` as lists, days as ``datetime.date``."""
        frame: pd.DataFrame = self.games.to_pandas()
        for name in _LISTS:
            if name in frame:
                frame[name] = frame[name].map(list)
        return frame

    def frame(self) -> pd.DataFrame:
        """The rows as :func:`pipeline.reports.audit_games` returns them: with the ``changes`` column (a
        list of :data:`CHANGE_KEYS` dicts per row), before ``source_path``."""
        import pandas as pd

        frame = self.games_frame()
        at = list(frame.columns).index(AFTER_CHANGES)
        frame.insert(at, CHANGES, pd.Series(self.changes.records(), index=frame.index, dtype=object))
        return frame


def game_changes(changes: pa.Table, games: pa.Table) -> GameChanges:
    """The rows of ``changes`` (columns ``game_id``, ``color`` and the rest of :data:`CHANGE_KEYS`) of
    the counted ``games`` (rows with ``game_id`` and ``counted``), by game in the order of ``games``,
    each game's by ``color`` (Black's first, then as ``changes`` has them). Every row of ``games`` with
    the game id of a counted one gets its changes."""
    ids = arrays.text(games.column("game_id"))
    counted = ids.filter(arrays.true(games.column("counted")))
    keep = pc.is_in(ids, value_set=counted)  # (the rows of a counted game's id: one record's, in practice)
    rows = np.flatnonzero(buffers.numpy_of(keep))
    change_ids = arrays.text(changes.column("game_id"))
    pairs = _pairs(ids.take(buffers.numbers(rows)), change_ids)
    places = rows[pairs[0]]  # each kept change's row of games
    order = pa.table(
        {
            "row": buffers.numbers(places),
            "color": arrays.text(changes.column("color")).take(buffers.numbers(pairs[1])),
            "change": buffers.numbers(pairs[1]),
        }
    ).sort_by([("row", "ascending"), ("color", "ascending"), ("change", "ascending")])
    offsets = np.zeros(games.num_rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(places, minlength=games.num_rows), out=offsets[1:])
    chosen = _decoded(changes.select(list(CHANGE_KEYS)).take(order.column("change")))
    return GameChanges(chosen.combine_chunks().replace_schema_metadata(None), offsets)


def _decoded(table: pa.Table) -> pa.Table:
    """``table`` with its dictionary-encoded columns as plain ones (the player index encodes names)."""
    for k, field in enumerate(table.schema):
        if pa.types.is_dictionary(field.type):
            table = table.set_column(k, field.name, table.column(k).cast(field.type.value_type))
    return table


def _pairs(ids: pa.Array, change_ids: pa.Array) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Each (place in ``ids``, place in ``change_ids``) of equal ids, as two arrays: one look-up when
    ``ids`` are distinct, else each change paired with every place holding its id."""
    where = arrays.positions(change_ids, ids)
    if pc.count_distinct(ids).as_py() == len(ids):
        found = np.flatnonzero(where >= 0)
        return where[found].astype(np.int64), found.astype(np.int64)
    places: dict[str, list[int]] = {}
    for k, value in enumerate(ids.to_pylist()):
        places.setdefault(value, []).append(k)
    pairs = [(p, c) for c, value in enumerate(change_ids.to_pylist()) for p in places.get(value, ())]
    found_pairs = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    return found_pairs[:, 0], found_pairs[:, 1]
