"""index_writer: the player index of a generation written (:mod:`pipeline.output.player_index` reads it).

The run plans the index in two steps. First *blocks*: runs of consecutive periods (the undated records,
:data:`pipeline.core.periods.UNDATED`, last) holding together at most :data:`CHUNK_RECORDS` game records,
found greedily in time order (:func:`plan`): a period with more is a block of its own, and the blocks
before a period stay the same when only that period or a later one changes. Then the *chunks*, one file
of each kind each: runs of blocks (:func:`runs`), the last block alone (the one a night's records grow),
the others in runs of a power of two, largest first, of at most :data:`BLOCKS_MOST` blocks, as the digits
of a binary counter. So a reader opens about ``log2(BLOCKS_MOST) + blocks / BLOCKS_MOST`` files of a kind
whatever the archive's length (a file costs a few milliseconds whatever its size: the footer, each
column's pages), and a chunk, once written, stays as blocks come after it until it joins the chunks of
its size before it into one twice as long.

Each file is sorted by the kind's columns (:data:`~pipeline.output.player_index.ORDER`) and written in
row groups of :data:`ROW_GROUP` rows with statistics and a page index (:func:`write_sorted`); the columns
whose values repeat are dictionary-encoded (:data:`REPEATED`). A chunk whose fingerprint (the run's
digest of everything its rows came from; None: unknown, never reused) is one of the previous
generation's is hard-linked from it (:meth:`IndexWriter.link`); a chunk that joins others is merged from
their files a row group at a time (:meth:`IndexWriter.merge`, :mod:`pipeline.output.sorted_merge`), the
blocks the previous generation does not hold written first as *parts* (:meth:`IndexWriter.part`:
neither compressed nor encoded, as they are read once) and removed once merged. A night that adds
records writes the last block only, and now and then merges.

Knows nothing of what the rows mean (the run builds them: :mod:`pipeline.run.indexing`), nor of how
they are read.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.core import buffers, store
from pipeline.output import memory, snapshots, sorted_merge
from pipeline.output.player_index import FOLDER, KINDS, MANIFEST, ORDER, VERSION, Chunk, manifest, path

#: The columns whose values repeat (names, periods, classes): dictionary-encoded in the files; the others
#: (ids, paths, numbers) are not: smaller files than a dictionary for every column, in the same time
#: (docs/design.md#player-index).
REPEATED = frozenset(
    {"key", "player", "period", "black", "white", "black_player", "white_player", "winner", "speed"}
    | {"speed_used", "event", "event_name", "stage", "color", "bonus_rule", "rank", "rank_before"}
)
#: Game records a block holds at most (unless one period has more): docs/design.md#player-index.
CHUNK_RECORDS = 100_000
#: Rows of a row group of the index's files: docs/design.md#player-index.
ROW_GROUP = 4096
#: Blocks a chunk holds at most (:func:`runs`): docs/design.md#player-index.
BLOCKS_MOST = 16
#: The folder, under the generation's index, of the blocks written to be merged (removed once merged).
PARTS = "parts"


@dataclass(frozen=True, slots=True)
class Part:
    """The files of a chunk or block to merge into a longer chunk: ``root``/<kind>/``name``.parquet;
    ``written``: by this run (removed once merged), or the previous generation's."""

    root: Path
    name: str
    written: bool


def plan(weights: Sequence[tuple[str, int]], limit: int = CHUNK_RECORDS) -> list[list[str]]:
    """The blocks of the periods ``weights`` (each label with its game records, in time order): runs of
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


def runs(count: int, most: int = BLOCKS_MOST) -> list[range]:
    """The chunks of the index as runs of the ``count`` blocks of :func:`plan` (in time order): the last
    block alone, the others in runs of a power of two, largest first, of at most ``most`` each (the
    digits of a binary counter of the blocks before the last)."""
    found, start, closed = [], 0, count - 1
    while start < closed:
        size = min(most, 1 << ((closed - start).bit_length() - 1))
        found.append(range(start, start + size))
        start += size
    return [*found, range(count - 1, count)] if count else []


class IndexWriter:
    """Writes the index of ``generation`` (a folder being written), hard-linking the chunks whose
    fingerprint the ``previous`` generation's index has (None: none)."""

    def __init__(self, generation: snapshots.Generation, previous: Path | None) -> None:
        self.generation, self.previous = generation, previous
        before = manifest(previous) if previous is not None else None
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

    def part(self, block: Chunk, tables: Iterable[tuple[str, pa.Table]]) -> Part:
        """Write ``block``'s ``tables`` sorted as :meth:`write` does, as a part of a chunk to :meth:`merge`
        (under :data:`PARTS`, read once and removed by the merge: written ``plain``, :func:`write_sorted`)."""
        self._write(self.generation.path / FOLDER / PARTS, block.name, tables, plain=True)
        return Part(self.generation.path / FOLDER / PARTS, block.name, written=True)

    def held(self, chunk: Chunk) -> Part:
        """The previous generation's files of its chunk ``chunk`` (:meth:`reusable` must hold), as a part
        of a chunk to :meth:`merge`."""
        assert self.previous is not None
        return Part(self.previous / FOLDER, chunk.name, written=False)

    def merge(self, chunk: Chunk, parts: Sequence[Part]) -> None:
        """Write ``chunk`` as the rows of ``parts`` (its periods' chunks and blocks, in time order)
        merged, each kind sorted by :data:`~pipeline.output.player_index.ORDER` (the names distinct), a
        row group of each part held at a time; remove the parts written for it. Raises OSError if a file
        cannot be read or written."""
        for kind in KINDS:
            target = path(self.generation.path, kind, chunk.name)
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                files = [pq.ParquetFile(p.root / kind / f"{p.name}.parquet") for p in parts]
                rows = sorted_merge.merged(files, ORDER[kind], distinct=kind == "names")
                write_rows(rows, sorted_merge.schema_of(files), target)
            except (pa.ArrowException, ValueError) as e:
                raise OSError(f"{target}: {e}") from e
            memory.release_unused_memory()
        for part in parts:
            if part.written:
                for kind in KINDS:
                    (part.root / kind / f"{part.name}.parquet").unlink()
        self.chunks.append(chunk)

    def _write(
        self, root: Path, name: str, tables: Iterable[tuple[str, pa.Table]], plain: bool = False
    ) -> None:
        written = set()
        for kind, table in tables:
            target = root / kind / f"{name}.parquet"
            target.parent.mkdir(parents=True, exist_ok=True)
            write_sorted(table, ORDER[kind], target, plain)
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


def write_sorted(table: pa.Table, order: Sequence[str], target: Path, plain: bool = False) -> None:
    """Write ``table`` sorted by the columns ``order`` into ``target`` in row groups of :data:`ROW_GROUP`
    rows, with statistics and a page index, one row group taken at a time (no sorted copy of the whole
    table); ``plain``: with none of them, neither compressed nor dictionary-encoded (a part, read once
    in order and removed: docs/design.md#player-index-chunks-as-runs-of-blocks). Raises OSError if it
    cannot."""
    table = table.combine_chunks()  # (a take from many chunks costs several times one from one)
    ordered = pc.sort_indices(table, sort_keys=[(column, "ascending") for column in order])
    with _writer(table.schema, target, plain) as writer:
        for start in range(0, table.num_rows, ROW_GROUP):
            writer.write_table(table.take(ordered.slice(start, ROW_GROUP)), row_group_size=ROW_GROUP)


def write_rows(batches: Iterable[pa.Table], schema: pa.Schema, target: Path) -> None:
    """Write ``batches`` (sorted rows of ``schema``, in order) into ``target`` as :func:`write_sorted`
    writes them: row groups of :data:`ROW_GROUP` rows, the same encodings. Raises OSError if it cannot."""
    with _writer(schema, target) as writer:
        held = buffers.empty(schema)
        for batch in batches:
            held = pa.concat_tables([held, batch])
            while held.num_rows >= ROW_GROUP:
                writer.write_table(held.slice(0, ROW_GROUP).combine_chunks(), row_group_size=ROW_GROUP)
                held = held.slice(ROW_GROUP)
        if held.num_rows:
            writer.write_table(held.combine_chunks(), row_group_size=ROW_GROUP)


def _writer(schema: pa.Schema, target: Path, plain: bool = False) -> pq.ParquetWriter:
    """The writer of an index file (:data:`REPEATED` columns dictionary-encoded, zstd, a page index), or
    of a ``plain`` one (none of them, nor statistics)."""
    if plain:
        return pq.ParquetWriter(
            target, schema, compression="none", use_dictionary=False, write_statistics=False
        )
    repeated = [f.name for f in schema if f.name in REPEATED]
    return pq.ParquetWriter(
        target, schema, compression="zstd", write_page_index=True, use_dictionary=repeated
    )
