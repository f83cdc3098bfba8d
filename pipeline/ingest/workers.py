"""workers: files -> rows, in batches, in worker processes; every file gives at least one row.

Whatever one file holds, it gets its own row and the run goes on (guards: :mod:`~pipeline.ingest.budget`,
:mod:`~pipeline.ingest.pool`):

- a failure anywhere in reading, decoding, parsing or normalising it gives an ``internal`` row whose
  message names the file and the error;
- a file still being read after the per-file time budget gives a ``timeout`` row (SIGALRM in the main
  thread of the process that reads it, a watchdog thread elsewhere: see the budget);
- rows that Arrow cannot hold (an integer too large for its column) make the batch convert file by
  file, and the file whose rows do not convert gives one ``bad_value`` row naming the column and value;
- a worker process that dies (a segfault, the OOM killer, ``os._exit``) costs only its batch, which is
  read again in a fresh process (:func:`recover`); a batch that kills that one too is split in halves,
  each read in a fresh process, down to the file that kills its worker: it gets one ``crash`` row naming
  it and how its worker ended, every other file keeps its rows;
- worker processes end with their parent, so a killed run leaves no worker blocked.

Knows nothing of the cache or of where the files were found: it reads the files of the entries it is
given and turns each into rows (:mod:`pipeline.ingest.record`), a date after the entry's modification
time not believed (:func:`~pipeline.ingest.record.dated_before`). Does not know how to stop code that
never returns to the interpreter (a C extension that does not check for signals). With ``workers`` 1
the files are read in the caller's process (to debug, to profile): nothing protects the run from a file
that kills it.
"""

from __future__ import annotations

import functools
import itertools
import operator
import os
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing
from typing import Any

import pyarrow as pa

from pipeline.core.schema import CACHE
from pipeline.ingest import sources
from pipeline.ingest.budget import FileBudget, FileTimeout
from pipeline.ingest.discover import FileEntry
from pipeline.ingest.pool import WorkerDied, in_fresh_process, ordered_map
from pipeline.ingest.record import Row, dated_before, error_row, rows_for_bytes

#: Files per batch (a worker's task). A batch has a cost of its own whatever its size (an Arrow table
#: of the CACHE schema's columns, made, pickled and sent): docs/design.md#batch-size.
BATCH = 512
Progress = Callable[[int], None]
Batches = Generator[tuple[list[FileEntry], pa.Table], None, None]


def parse_all(todo: Iterable[FileEntry], workers: int | None, file_timeout_s: float = 10.0) -> Batches:
    """Each batch of ``todo`` (:data:`BATCH` files, in order) with its table (schema CACHE), in order,
    parsed in ``workers`` worker processes (None: one per core, at most one per batch; even a single
    batch is read in a worker, so that a file that kills its process cannot stop the run), or in the
    caller's process for ``workers`` 1.

    ``todo`` is read as the batches are handed out (a generator is never held whole).
    ``file_timeout_s`` is each file's time budget (0: none). Never raises for anything a file holds;
    closing the iterator stops the workers.
    """
    parse = functools.partial(parse_batch, file_timeout_s=file_timeout_s)
    batches = chunks(todo, BATCH)
    if workers == 1:
        yield from ((batch, parse(batch)) for batch in batches)
        return
    first = list(itertools.islice(batches, workers or os.cpu_count() or 1))  # no more workers than batches
    if not first:
        return
    given: deque[list[FileEntry]] = deque()
    with closing(ordered_map(parse, _noted(itertools.chain(first, batches), given), len(first))) as results:
        for table in results:
            batch = given.popleft()
            yield batch, recover(batch, file_timeout_s) if isinstance(table, WorkerDied) else table


def chunks(entries: Iterable[FileEntry], size: int) -> Iterator[list[FileEntry]]:
    """``entries`` in lists of ``size`` (the last one shorter), read as they are asked for."""
    source = iter(entries)
    while batch := list(itertools.islice(source, size)):
        yield batch


def _noted(batches: Iterable[list[FileEntry]], given: deque[list[FileEntry]]) -> Iterator[list[FileEntry]]:
    """``batches``, each appended to ``given`` as it is handed out (the results come back in order)."""
    for batch in batches:
        given.append(batch)
        yield batch


def recover(batch: list[FileEntry], file_timeout_s: float = 10.0) -> pa.Table:
    """The table of ``batch``, whose worker died: read in a fresh process; if that one dies too, each
    half the same way, down to the single files that kill their worker, which get a ``crash`` row."""
    table = in_fresh_process(functools.partial(parse_batch, file_timeout_s=file_timeout_s), batch)
    if not isinstance(table, WorkerDied):
        return table
    if len(batch) == 1:
        return crash_table(batch[0], table)
    half = len(batch) // 2
    return pa.concat_tables([recover(batch[:half], file_timeout_s), recover(batch[half:], file_timeout_s)])


def crash_table(entry: FileEntry, died: WorkerDied) -> pa.Table:
    """The one ``crash`` row of the file ``entry``, whose reading ended its worker as ``died`` says."""
    message = f"crash: reading {entry.rel} ended its worker process ({died.how()}), also when read alone"
    return _file_table(entry, [error_row(entry.rel, "crash", message)])


def parse_batch(batch: list[FileEntry], file_timeout_s: float = 10.0) -> pa.Table:
    """The rows of every file in ``batch``, each with its cache key, as a table of schema CACHE.

    Never raises. Runs in the worker processes, which also build the Arrow table: the parent only
    concatenates. One conversion for the batch; file by file only when that one fails.
    """
    with FileBudget(file_timeout_s) as budget:
        files = [_rows_for_file(entry, data, budget) for entry, data in sources.contents(batch)]
    try:
        return pa.Table.from_pydict(batch_columns(batch, files), schema=CACHE)
    except Exception:  # some file's value does not fit its column: find that file, keep the others
        return pa.concat_tables([_file_table(entry, rows) for entry, rows in zip(batch, files, strict=True)])


def batch_columns(batch: list[FileEntry], files: list[list[Row]]) -> dict[str, list[Any]]:
    """The columns (schema CACHE, in its order) of the rows ``files`` of the files ``batch``: each
    row's values, and its file's :meth:`~FileEntry.row_columns`, which override the row's own.

    By columns, half the time of ``from_pylist``; a file's columns are read once and repeated for
    each of its rows, and a row's values are taken at once, not column by column (a row that lacks
    some, such as an error row, has them filled with None first).
    """
    keys = [entry.row_columns() for entry in batch]
    file_names = list(keys[0]) if keys else []
    names = [name for name in CACHE.names if name not in file_names]
    blank, values, width = dict.fromkeys(names), operator.itemgetter(*names), len(names)
    try:
        rows = [values(row if len(row) == width else blank | row) for found in files for row in found]
    except KeyError:  # a row of as many columns as the table's, but not the same ones
        rows = [values(blank | row) for found in files for row in found]
    columns = dict(zip(names, _transposed(rows), strict=False))  # no columns when no rows
    repeated = [tuple(key.values()) for key, found in zip(keys, files, strict=True) for _ in found]
    columns.update(zip(file_names, _transposed(repeated), strict=False))
    return {name: columns.get(name, []) for name in CACHE.names}


def _transposed(rows: list[tuple[Any, ...]]) -> Iterator[list[Any]]:
    """The columns of ``rows`` (tuples of one length), each a list; none when ``rows`` is empty."""
    return map(list, zip(*rows, strict=True))


def _rows_for_file(entry: FileEntry, data: bytes | OSError, budget: FileBudget) -> list[Row]:
    if entry.error_kind is not None:
        return [error_row(entry.rel, entry.error_kind, entry.error or entry.error_kind)]
    if isinstance(data, OSError):
        return [error_row(entry.rel, "unreadable", f"unreadable: {data.strerror or data}")]
    try:
        rows = budget.run_within(budget.for_size(len(data)), rows_for_bytes, data, entry.rel)
        return dated_before(rows, entry.mtime_ns)
    except FileTimeout:
        seconds = budget.for_size(len(data))
        message = f"timeout: reading {entry.rel} took longer than its budget of {seconds:g} s"
        return [error_row(entry.rel, "timeout", message)]
    except Exception as e:  # a bug of ours must not lose the file: it becomes a row that says so
        return [error_row(entry.rel, "internal", f"internal error while reading {entry.rel}: {e!r}")]


def _file_table(entry: FileEntry, rows: list[Row]) -> pa.Table:
    """The table of one file's rows, with its :meth:`~FileEntry.row_columns`; one ``bad_value`` row
    instead when they do not convert."""
    full = [row | entry.row_columns() for row in rows]
    try:
        return pa.Table.from_pylist(full, schema=CACHE)
    except Exception:
        row = error_row(entry.rel, "bad_value", bad_value_message(entry.rel, full))
        return pa.Table.from_pylist([row | entry.row_columns()], schema=CACHE)


def bad_value_message(source_path: str, rows: list[Row]) -> str:
    """What in ``rows`` (of the file ``source_path``) the CACHE schema cannot hold: column and value."""
    for field in CACHE:
        for row in rows:
            try:
                pa.array([row.get(field.name)], type=field.type)
            except Exception as e:
                value = repr(row.get(field.name))[:100]
                return f"bad value in {source_path}: column {field.name} cannot hold {value} ({e})"
    return f"bad value in {source_path}: its rows do not convert to the table"
