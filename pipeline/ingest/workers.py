"""workers: files -> rows, in batches, in worker processes; every file gives at least one row.

Knows nothing of the cache or of where the files were found: it reads the files of the entries it is
given and turns each into rows (:mod:`pipeline.ingest.record`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pyarrow as pa

from pipeline.ingest.discover import FileEntry
from pipeline.ingest.record import Row, error_row, rows_for_bytes
from pipeline.ingest.schema import CACHE

BATCH = 128
Progress = Callable[[int], None]


def parse_all(todo: list[FileEntry], workers: int | None, progress: Progress | None) -> list[pa.Table]:
    """The tables of every batch of ``todo``, in order, parsed in ``workers`` processes (None: every core)."""
    batches = [todo[i : i + BATCH] for i in range(0, len(todo), BATCH)]
    count = min(workers or os.cpu_count() or 1, max(len(batches), 1))
    if count <= 1:
        return _collect(batches, map(parse_batch, batches), progress)
    with ProcessPoolExecutor(count, mp_context=get_context("fork")) as pool:
        return _collect(batches, pool.map(parse_batch, batches), progress)


def _collect(
    batches: list[list[FileEntry]], results: Iterator[pa.Table], progress: Progress | None
) -> list[pa.Table]:
    tables = []
    for batch, table in zip(batches, results, strict=True):
        tables.append(table)
        if progress:
            progress(len(batch))
    return tables


def parse_batch(batch: list[FileEntry]) -> pa.Table:
    """The rows of every file in ``batch``, each with its cache key, as a table of schema CACHE.

    Never raises. Runs in the worker processes, which also build the Arrow table: the parent only
    concatenates.
    """
    rows = []
    for entry in batch:
        for row in _rows_for_file(entry):
            row.update(entry.row_columns())
            rows.append(row)
    return pa.Table.from_pylist(rows, schema=CACHE)


def _rows_for_file(entry: FileEntry) -> list[Row]:
    if entry.error_kind is not None:
        return [error_row(entry.rel, entry.error_kind, entry.error or entry.error_kind)]
    try:
        with open(entry.path, "rb") as f:
            data = f.read()
    except OSError as e:
        return [error_row(entry.rel, "unreadable", f"unreadable: {e.strerror or e}")]
    try:
        return rows_for_bytes(data, entry.rel)
    except Exception as e:  # a bug of ours must not lose the file: it becomes a row that says so
        return [error_row(entry.rel, "internal", f"internal error while reading: {e!r}")]
