"""player_index: the index of a generation by player, so that a question about one player (``ratings
explain``, ``audit --player``, ``plot --player``) reads a few small files instead of every game record and
every partition.

Layout, inside the generation (it is no entry of the output folder: not part of the output contract, not
in a plain copy; readers find it through ``.gen/current``)::

    index/index.json                  the layout's version and each chunk: its name, periods, fingerprint
    index/<kind>/<chunk>.parquet      a chunk's rows of each kind (:data:`KINDS`)

A *chunk* is a run of consecutive periods (the undated records, :data:`pipeline.core.periods.UNDATED`,
last), named after its first period; the writer (:mod:`pipeline.output.index_writer`) plans them so that
an archive of any length has a few (docs/design.md#player-index). Each of a chunk's files is sorted by
the kind's columns (:data:`ORDER`, the first the *key*), in row groups with statistics and a page index,
so that the rows of one key are in one or two row groups whose statistics hold it: a reader opens a
file, keeps the row groups whose ``min .. max`` of the key holds the value, reads their key column, and
reads the other columns only when it matched (:meth:`PlayerIndex.rows`).

Knows nothing of what the rows mean (the run builds them: :mod:`pipeline.run.indexing`), beyond the columns
that name the rows' key and order, and the games and changes columns a chunk's files hold
(:data:`SIDE_COLUMNS`, :data:`CHANGE_COLUMNS`), which the reports read; nor of how the chunks are
planned and written.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.core import buffers, strings
from pipeline.output import folder, snapshots

FOLDER = "index"
MANIFEST = "index.json"
#: The layout's version: a reader passes over an index of another version (and reads the tables whole).
VERSION = 1
#: The kinds of a chunk's files: ``names`` (``key``: a spelling's name key; ``player``: the canonical
#: name it stands for), ``games`` (a player's side of each game record: ``player`` and
#: :data:`SIDE_COLUMNS`), ``changes`` (the changes rows of a player's counted games, both players' rows,
#: under ``key``: :data:`CHANGE_COLUMNS`), ``ratings`` (a player's ratings rows where they first appear or
#: moved, with ``period`` and ``moved``).
KINDS = ("names", "games", "changes", "ratings")
#: The columns each kind's rows are sorted by; the first is the key a reader looks rows up by.
ORDER = {
    "names": ("key", "player"),
    "games": ("player", "seq"),
    "changes": ("key", "seq"),
    "ratings": ("player", "period"),
}
#: The ``games.parquet`` columns of a chunk's ``games`` rows (with ``player``, the side's canonical name):
#: those the queries read, and the winner.
SIDE_COLUMNS = (*folder.GAMES_COLUMNS, "winner")
#: The ``changes`` columns of a chunk's ``changes`` rows (with ``key`` and ``period``); a game's ``seq``
#: names it (its ``game_id`` is in the ``games`` rows).
CHANGE_COLUMNS = ("seq", "player", "color", "delta", "points", "bonus", "bonus_rule")


class Unreadable(OSError):
    """A file of the index that cannot be read: the caller reads the tables whole instead."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """A chunk: ``name`` (its file stem: its first period), its ``labels`` in time order, and its
    ``fingerprint`` (None: unknown; the chunk is then never reused)."""

    name: str
    labels: tuple[str, ...]
    fingerprint: str | None


def path(generation: Path, kind: str, chunk: str) -> Path:
    """The file of ``chunk``'s rows of ``kind`` in ``generation``."""
    return generation / FOLDER / kind / f"{chunk}.parquet"


def manifest(generation: Path) -> list[Chunk] | None:
    """The chunks of ``generation``'s index (None: none, unreadable, or of another version)."""
    try:
        found = json.loads((generation / FOLDER / MANIFEST).read_text(encoding="utf-8"))
        if found.get("version") != VERSION:
            return None
        return [
            Chunk(str(c["name"]), tuple(str(x) for x in c["labels"]), c.get("fingerprint"))
            for c in found["chunks"]
        ]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


class PlayerIndex:
    """The index of the generation ``generation`` (:meth:`of`): its ``chunks`` in time order."""

    def __init__(self, generation: Path, chunks: list[Chunk]) -> None:
        self.generation, self.chunks = generation, chunks
        self._files: dict[tuple[str, str], pq.ParquetFile] = {}
        self._names: dict[tuple[str, tuple[str, ...] | None], dict[str, pa.Table]] = {}

    @classmethod
    def of(cls, out: Path) -> PlayerIndex | None:
        """The index of the output folder ``out``'s current generation; None when it has none (an output
        written before there was one, a plain copy) or one of another :data:`VERSION`."""
        generation = snapshots.current(out)
        chunks = manifest(generation) if generation is not None else None
        if generation is None or chunks is None:
            return None
        return cls(generation, chunks)

    @property
    def labels(self) -> list[str]:
        """Every period of the run that has game records or was rated, in time order (the undated
        records' :data:`~pipeline.core.periods.UNDATED` last, when there are some)."""
        return [label for chunk in self.chunks for label in chunk.labels]

    def rows(self, kind: str, value: str, chunks: Iterable[str] | None = None) -> pa.Table:
        """The rows of ``kind`` whose key (the first column of :data:`ORDER`) is ``value``, of the chunks
        named ``chunks`` (None: every chunk), in chunk order and each chunk's file order.

        Raises Unreadable if a file of the index cannot be read."""
        found = list(self.rows_by_chunk(kind, value, chunks).values())
        return pa.concat_tables(found) if found else buffers.empty(self._schema(kind))

    def rows_by_chunk(
        self, kind: str, value: str, chunks: Iterable[str] | None = None
    ) -> dict[str, pa.Table]:
        """:meth:`rows` by the name of the chunk that holds them (only the chunks that hold some); the
        names' rows of a key are read once."""
        key = ORDER[kind][0]
        wanted = None if chunks is None else tuple(chunks)
        if kind == "names" and (value, wanted) in self._names:
            return self._names[(value, wanted)]
        found = {
            chunk.name: rows
            for chunk in self.chunks
            if wanted is None or chunk.name in wanted
            if (rows := self._matching(kind, chunk.name, key, value)) is not None
        }
        if kind == "names":
            self._names[(value, wanted)] = found
        return found

    def table(self, kind: str, columns: Sequence[str] | None = None) -> pa.Table:
        """Every row of ``kind`` (only ``columns``: None for all), of every chunk.

        Raises Unreadable if a file of the index cannot be read."""
        try:
            found = [self._file(kind, c.name).read(columns=columns, use_threads=False) for c in self.chunks]
        except (OSError, pa.ArrowException) as e:
            raise Unreadable(str(e)) from e
        return pa.concat_tables(found) if found else buffers.empty(self._schema(kind))

    def _matching(self, kind: str, chunk: str, key: str, value: str) -> pa.Table | None:
        """The rows of ``chunk``'s file of ``kind`` whose ``key`` is ``value`` (None: none)."""
        file = self._file(kind, chunk)
        wanted = strings.text(value)  # (not the str: pyarrow's conversion of it imports pandas)
        try:
            groups = _row_groups(file, key, value)
            if not groups:
                return None
            keys = file.read_row_groups(groups, [key], use_threads=False).column(0)
            if not pc.any(pc.equal(keys, wanted)).as_py():
                return None
            table = file.read_row_groups(groups, use_threads=False)
        except (OSError, pa.ArrowException) as e:
            raise Unreadable(f"{path(self.generation, kind, chunk)}: {e}") from e
        return table.filter(pc.equal(table.column(key), wanted))

    def _file(self, kind: str, chunk: str) -> pq.ParquetFile:
        """The open file of ``chunk``'s rows of ``kind``. Raises Unreadable if it cannot be opened."""
        if (kind, chunk) not in self._files:
            try:
                self._files[(kind, chunk)] = pq.ParquetFile(path(self.generation, kind, chunk))
            except (OSError, pa.ArrowException) as e:
                raise Unreadable(str(e)) from e
        return self._files[(kind, chunk)]

    def _schema(self, kind: str) -> pa.Schema:
        """The schema of ``kind``'s files (of the first chunk; no chunk: only the sort columns, text)."""
        if self.chunks:
            return self._file(kind, self.chunks[0].name).schema_arrow
        return pa.schema([(name, pa.string()) for name in ORDER[kind]])


def _row_groups(file: pq.ParquetFile, key: str, value: str) -> list[int]:
    """The row groups of ``file`` whose statistics of the column ``key`` may hold ``value`` (all of
    them when a row group has no statistics)."""
    metadata = file.metadata
    column = file.schema_arrow.get_field_index(key)
    found = []
    for group in range(metadata.num_row_groups):
        stats: Any = metadata.row_group(group).column(column).statistics
        if stats is None or not stats.has_min_max or stats.min <= value <= stats.max:
            found.append(group)
    return found
