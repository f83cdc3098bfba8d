"""player_index: the index of a generation by player, so that a question about one player (``ratings
explain``, ``audit --player``, ``plot --player``) reads a few small files instead of every game record and
every partition.

Layout, inside the generation (it is no entry of the output folder: not part of the output contract, not
in a plain copy; readers find it through ``.gen/current``)::

    index/index.json                  the layout's version and each chunk: its name, periods, fingerprint
    index/<kind>/<chunk>.parquet      a chunk's rows of each kind (:data:`KINDS`)

A *chunk* is a run of consecutive periods (the undated records, :data:`pipeline.core.periods.UNDATED`,
last) holding together at most :data:`CHUNK_RECORDS` game records, found greedily in time order
(:func:`plan`): a period with more is a chunk of its own, and the chunks before a period stay the same
when only that period or a later one changes. A chunk is named after its first period. Each of its files
is sorted by the kind's columns (:data:`ORDER`, the first the *key*) and written in row groups of
:data:`ROW_GROUP` rows, with statistics and a page index, so that the rows of one key are in one or two
row groups whose statistics hold it: a reader opens a file, keeps the row groups whose ``min .. max`` of
the key holds the value, reads their key column, and reads the other columns only when it matched
(:meth:`PlayerIndex.rows`). One file per kind and chunk, not one per period: a file costs a reader a few
milliseconds whatever its size (the footer, each column's pages), and runs have thousands of periods
(docs/design.md#player-index).

A chunk whose fingerprint (the run's digest of everything its rows came from; None: unknown, never reused)
is one of the previous generation's is hard-linked from it (:meth:`IndexWriter.link`), not written again:
a run that adds the night's records writes the last chunk only.

Knows nothing of what the rows mean (the run builds them: :mod:`pipeline.run.indexing`), beyond the columns
that name the rows' key and order, and the games and changes columns a chunk's files hold
(:data:`SIDE_COLUMNS`, :data:`CHANGE_COLUMNS`), which the reports read.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.core import buffers, store, strings
from pipeline.output import folder, memory, snapshots, sorted_merge

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
#: The columns whose values repeat (names, periods, classes): dictionary-encoded in the files; the others
#: (ids, paths, numbers) are not: smaller files than a dictionary for every column, in the same time
#: (docs/design.md#player-index).
REPEATED = frozenset(
    {"key", "player", "period", "black", "white", "black_player", "white_player", "winner", "speed"}
    | {"speed_used", "event", "event_name", "stage", "color", "bonus_rule", "rank", "rank_before"}
)
#: Game records a chunk holds at most (unless one period has more): docs/design.md#player-index.
CHUNK_RECORDS = 100_000
#: Rows of a row group of the index's files: docs/design.md#player-index.
ROW_GROUP = 4096
#: Chunks of :func:`plan` one file of the index holds at most (:func:`runs`): docs/design.md#player-index.
RUN_MOST = 16
#: The folder, under the generation's index, of the chunks written to be merged (removed once merged).
PARTS = "parts"


class Unreadable(OSError):
    """A file of the index that cannot be read: the caller reads the tables whole instead."""


@dataclass(frozen=True, slots=True)
class Part:
    """The files of a chunk to merge into a longer one: ``root``/<kind>/``name``.parquet; ``written``: by
    this run (removed once merged), or the previous generation's."""

    root: Path
    name: str
    written: bool


@dataclass(frozen=True, slots=True)
class Chunk:
    """A chunk: ``name`` (its file stem: its first period), its ``labels`` in time order, and its
    ``fingerprint`` (None: unknown; the chunk is then never reused)."""

    name: str
    labels: tuple[str, ...]
    fingerprint: str | None


def plan(weights: Sequence[tuple[str, int]], limit: int = CHUNK_RECORDS) -> list[list[str]]:
    """The chunks of the periods ``weights`` (each label with its game records, in time order): runs of
    consecutive labels, greedily, each holding at most ``limit`` records unless its first label alone
    holds more."""
    found: list[list[str]] = []
    held = 0
    for label, rows in weights:
        if found and held + rows <= limit:
            found[-1].append(label)
            held += rows
        else:
            found.append([label])
            held = rows
    return found


def runs(count: int, most: int = RUN_MOST) -> list[range]:
    """The chunks of the index, as runs of the ``count`` chunks of :func:`plan` (in time order), each run
    one file a kind: the last chunk alone (the one a night's records grow), the others in runs of a power
    of two, largest first, of at most ``most`` each, as the digits of a binary counter. A run, once made,
    stays as chunks come after it, until it joins the runs of its size before it into one twice as long;
    a reader opens at most about ``log2(most) + count / most`` files of a kind, not ``count``."""
    found, start, closed = [], 0, count - 1
    while start < closed:
        size = min(most, 1 << ((closed - start).bit_length() - 1))
        found.append(range(start, start + size))
        start += size
    return [*found, range(count - 1, count)] if count else []


def path(generation: Path, kind: str, chunk: str) -> Path:
    """The file of ``chunk``'s rows of ``kind`` in ``generation``."""
    return generation / FOLDER / kind / f"{chunk}.parquet"


class IndexWriter:
    """Writes the index of ``generation`` (a folder being written), hard-linking the chunks whose
    fingerprint the ``previous`` generation's index has (None: none)."""

    def __init__(self, generation: snapshots.Generation, previous: Path | None) -> None:
        self.generation, self.previous = generation, previous
        before = _manifest(previous) if previous is not None else None
        self.before = {c.fingerprint: c for c in before or () if c.fingerprint is not None}
        self.chunks: list[Chunk] = []

    def reusable(self, chunk: Chunk) -> bool:
        """Whether the previous generation holds ``chunk`` (the same fingerprint and periods)."""
        found = self.before.get(chunk.fingerprint) if chunk.fingerprint is not None else None
        return found is not None and found.labels == chunk.labels

    def link(self, chunk: Chunk) -> None:
        """Hard-link the files of ``chunk`` from the previous generation (:meth:`reusable` must hold).
        Raises OSError if it cannot."""
        assert self.previous is not None
        for kind in KINDS:
            relative = path(self.previous, kind, chunk.name).relative_to(self.previous)
            self.generation.link(self.previous, relative, None)
        self.chunks.append(chunk)

    def write(self, chunk: Chunk, tables: Iterable[tuple[str, pa.Table]]) -> None:
        """Write ``chunk``'s ``tables`` (kind and rows, one of each kind of :data:`KINDS`), each sorted by
        :data:`ORDER`, each written before the next is taken (a generator of them holds one at a time).
        Raises OSError if a file cannot be written, ValueError if a kind is missing."""
        self._write(self.generation.path / FOLDER, chunk.name, tables)
        self.chunks.append(chunk)

    def part(self, chunk: Chunk, tables: Iterable[tuple[str, pa.Table]]) -> Part:
        """Write ``chunk``'s ``tables`` as :meth:`write` does, as a part of a chunk to :meth:`merge` (under
        :data:`PARTS`, removed by the merge)."""
        self._write(self.generation.path / FOLDER / PARTS, chunk.name, tables)
        return Part(self.generation.path / FOLDER / PARTS, chunk.name, written=True)

    def held(self, chunk: Chunk) -> Part:
        """The previous generation's files of ``chunk`` (:meth:`reusable` must hold), as a part of a chunk
        to :meth:`merge`."""
        assert self.previous is not None
        return Part(self.previous / FOLDER, chunk.name, written=False)

    def merge(self, chunk: Chunk, parts: Sequence[Part]) -> None:
        """Write ``chunk`` as the rows of ``parts`` (its periods' chunks, in time order) merged, each kind
        sorted by :data:`ORDER` (the names distinct), a row group of each part held at a time; remove the
        parts written for it. Raises OSError if a file cannot be read or written."""
        for kind in KINDS:
            target = path(self.generation.path, kind, chunk.name)
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                files = [pq.ParquetFile(p.root / kind / f"{p.name}.parquet") for p in parts]
                rows = sorted_merge.merged(files, ORDER[kind], distinct=kind == "names")
                _write_rows(rows, files[0].schema_arrow, target)
            except (pa.ArrowException, ValueError) as e:
                raise OSError(f"{target}: {e}") from e
            memory.release_unused_memory()
        for part in parts:
            if part.written:
                for kind in KINDS:
                    (part.root / kind / f"{part.name}.parquet").unlink()
        self.chunks.append(chunk)

    def _write(self, root: Path, name: str, tables: Iterable[tuple[str, pa.Table]]) -> None:
        written = set()
        for kind, table in tables:
            target = root / kind / f"{name}.parquet"
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_sorted(table, ORDER[kind], target)
            written.add(kind)
            del table
            memory.release_unused_memory()
        if written != set(KINDS):
            raise ValueError(f"chunk {name}: no rows of {sorted(set(KINDS) - written)}")

    def finish(self) -> None:
        """Write ``index.json``: the version and the chunks, in order."""
        chunks = [
            {"name": c.name, "labels": list(c.labels), "fingerprint": c.fingerprint} for c in self.chunks
        ]
        shutil.rmtree(self.generation.path / FOLDER / PARTS, ignore_errors=True)  # (each merged: empty)
        target = self.generation.path / FOLDER / MANIFEST
        target.parent.mkdir(parents=True, exist_ok=True)
        store.write_json({"version": VERSION, "chunks": chunks}, target)


def _write_sorted(table: pa.Table, order: Sequence[str], target: Path) -> None:
    """Write ``table`` sorted by the columns ``order`` into ``target`` in row groups of :data:`ROW_GROUP`
    rows, with statistics and a page index, one row group taken at a time (no sorted copy of the whole
    table). Raises OSError if it cannot."""
    table = table.combine_chunks()  # (a take from many chunks costs several times one from one)
    ordered = pc.sort_indices(table, sort_keys=[(column, "ascending") for column in order])
    repeated = [f.name for f in table.schema if f.name in REPEATED]
    with pq.ParquetWriter(
        target, table.schema, compression="zstd", write_page_index=True, use_dictionary=repeated
    ) as writer:
        for start in range(0, table.num_rows, ROW_GROUP):
            writer.write_table(table.take(ordered.slice(start, ROW_GROUP)), row_group_size=ROW_GROUP)


def _write_rows(batches: Iterable[pa.Table], schema: pa.Schema, target: Path) -> None:
    """Write ``batches`` (sorted rows of ``schema``, in order) into ``target`` as :func:`_write_sorted`
    writes them: row groups of :data:`ROW_GROUP` rows, the same encodings. Raises OSError if it cannot."""
    repeated = [f.name for f in schema if f.name in REPEATED]
    with pq.ParquetWriter(
        target, schema, compression="zstd", write_page_index=True, use_dictionary=repeated
    ) as writer:
        held = buffers.empty(schema)
        for batch in batches:
            held = pa.concat_tables([held, batch])
            while held.num_rows >= ROW_GROUP:
                writer.write_table(held.slice(0, ROW_GROUP).combine_chunks(), row_group_size=ROW_GROUP)
                held = held.slice(ROW_GROUP)
        if held.num_rows:
            writer.write_table(held.combine_chunks(), row_group_size=ROW_GROUP)


def _manifest(generation: Path) -> list[Chunk] | None:
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
        chunks = _manifest(generation) if generation is not None else None
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
