"""sorted_merge: the rows of several Parquet files, each sorted by the same columns, in one sorted stream,
read a row group at a time.

:func:`merged` gives what a stable sort of the files' rows concatenated (in the order the files are
named) would give, in batches: rows of equal sort columns keep the files' order, and with ``distinct``
equal rows come once. It holds about a row group of each file (more while one key runs on over several
row groups), never a whole file: the player index merges its chunks with it
(:mod:`pipeline.output.index_writer`).

Knows nothing of what the rows mean, nor of how the result is written.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.core import buffers, strings


class _Run:
    """One file's rows not yet given out (as ``schema``), and its row groups not yet read."""

    def __init__(self, file: pq.ParquetFile, schema: pa.Schema) -> None:
        self.file, self.schema, self.next = file, schema, 0
        self.held = buffers.empty(schema)

    @property
    def done(self) -> bool:
        groups: int = self.file.metadata.num_row_groups
        return self.next >= groups

    def read_more(self) -> None:
        """Hold the next row group too (:attr:`done` must be false)."""
        group = _as(self.file.read_row_group(self.next, use_threads=False), self.schema)
        self.next += 1
        self.held = pa.concat_tables([self.held, group]) if self.held.num_rows else group

    def last_key(self, key: str) -> str | None:
        """The key of the last row held (None: none held, or a null key: they sort last)."""
        if not self.held.num_rows:
            return None
        found = self.held.column(key)[-1].as_py()
        return None if found is None else str(found)

    def take_below(self, key: str, bound: str | None) -> pa.Table:
        """The rows held whose key is less than ``bound`` (None: every row held), no longer held."""
        if bound is None:
            taken, self.held = self.held, self.held.slice(0, 0)
            return taken
        below = pc.sum(pc.fill_null(pc.less(self.held.column(key), strings.text(bound)), False)).as_py()
        taken, self.held = self.held.slice(0, below or 0), self.held.slice(below or 0)  # (sorted: a prefix)
        return taken


def schema_of(files: Sequence[pq.ParquetFile]) -> pa.Schema:
    """The schema the rows of ``files`` are merged as: theirs, or when they differ (a column one lacks, a
    type another widens) the one that holds each (a column a file lacks is null in its rows).

    Raises ValueError naming the columns if no schema holds them all (a text and a number)."""
    schemas = [f.schema_arrow for f in files]
    if all(s.equals(schemas[0]) for s in schemas[1:]):
        return schemas[0]
    try:
        return pa.unify_schemas(schemas, promote_options="permissive")
    except (pa.ArrowInvalid, pa.ArrowTypeError) as e:
        named = "; ".join(", ".join(f"{f.name} {f.type}" for f in s) for s in schemas)
        raise ValueError(f"the files to merge have columns no one table holds ({named}): {e}") from e


def _as(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """``table``'s rows as ``schema`` (:func:`schema_of`): its columns cast, the ones it lacks null."""
    if table.schema.equals(schema):
        return table
    columns = [
        table.column(f.name).cast(f.type)
        if f.name in table.column_names
        else pa.nulls(table.num_rows, f.type)
        for f in schema
    ]
    return pa.Table.from_arrays(columns, schema=schema)


def merged(
    files: Sequence[pq.ParquetFile], order: Sequence[str], distinct: bool = False
) -> Iterator[pa.Table]:
    """The rows of ``files`` (each sorted by the columns ``order``, ascending, nulls last), as
    :func:`schema_of` ``files``, sorted by ``order`` as a stable sort of them concatenated in the order
    given, in batches (none empty); with ``distinct``, a row equal in every column to the one before is
    left out (``order`` must then name every column). The first of ``order`` is the *key*: a batch holds
    every row of the keys it holds.

    Raises ValueError as :func:`schema_of` does; OSError or ArrowException if a file cannot be read."""
    if not files:
        return
    schema = schema_of(files)
    key, runs = order[0], [_Run(f, schema) for f in files]
    while True:
        for run in runs:
            while not run.done and run.last_key(key) is None:  # (nothing held, or the nulls at its end)
                run.read_more()
        bounds = [found for run in runs if not run.done if (found := run.last_key(key)) is not None]
        bound = min(bounds) if bounds else None  # (None: every file read: give out all that is held)
        batch = [taken for run in runs if (taken := run.take_below(key, bound)).num_rows]
        if batch:
            yield _sorted(pa.concat_tables(batch), order, distinct)
        if bound is None:
            return
        for run in runs:  # (a file whose last row held has the bound may hold more rows of that key)
            if not run.done and run.last_key(key) == bound:
                run.read_more()


def _sorted(table: pa.Table, order: Sequence[str], distinct: bool) -> pa.Table:
    """``table`` stably sorted by ``order``; with ``distinct``, a row equal to the one before left out."""
    table = table.combine_chunks()  # (a take from many chunks costs several times one from one)
    table = table.take(pc.sort_indices(table, sort_keys=[(column, "ascending") for column in order]))
    if not distinct or table.num_rows < 2:
        return table
    head, rest = table.slice(0, 1), table.slice(1)
    same = None
    for column in order:
        this, before = rest.column(column), table.column(column).slice(0, rest.num_rows)
        equal = pc.or_(
            pc.fill_null(pc.equal(this, before), False), pc.and_(pc.is_null(this), pc.is_null(before))
        )
        same = equal if same is None else pc.and_(same, equal)
    assert same is not None
    return pa.concat_tables([head, rest.filter(pc.invert(same))])
