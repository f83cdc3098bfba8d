"""listing: the key of each discovered entry (:meth:`~pipeline.ingest.entry.FileEntry.key`) as Arrow
columns, the table a run compares with the cache's keys or the ledger.

Knows nothing of the cache, nor of how the entries were found.
"""

from __future__ import annotations

import operator

import numpy as np
import pyarrow as pa

from pipeline.ingest.entry import FileEntry

#: The columns of :func:`listing_of`: a discovered entry's key (:meth:`FileEntry.key`), as columns.
LISTED = ("rel", "file_size", "file_mtime_ns", "file_inode", "file_ctime_ns", "error_kind", "parse_error")


def listing_of(files: list[FileEntry]) -> pa.Table:
    """The key of each of ``files`` as columns :data:`LISTED` (``error_kind``/``parse_error`` only
    for an entry discovery flagged, whose key they are part of). Each column is read by one
    ``itemgetter`` mapped over the entries (C speed, fastest in the order they were made: in another
    order every entry is a cache miss; see :func:`~pipeline.ingest.discover.discover_listed` and
    docs/design.md#listing-order)."""
    flagged = min(map(_FIELD["size"], files), default=0) < 0
    columns = {
        "rel": pa.array(list(map(_FIELD["rel"], files)), pa.string()),
        **{column: _numbers(files, field) for column, field in _NUMBERS.items()},
        "error_kind": _flagged(files, "error_kind") if flagged else pa.nulls(len(files), pa.string()),
        "parse_error": _flagged(files, "error") if flagged else pa.nulls(len(files), pa.string()),
    }
    return pa.table(columns)


#: Each field of a FileEntry by name, read by position (an entry is a named tuple).
_FIELD = {name: operator.itemgetter(i) for i, name in enumerate(FileEntry._fields)}
#: The integer columns of :func:`listing_of` and the entry's field each holds.
_NUMBERS = {
    "file_size": "size",
    "file_mtime_ns": "mtime_ns",
    "file_inode": "inode",
    "file_ctime_ns": "ctime_ns",
}


def _numbers(files: list[FileEntry], field: str) -> pa.Array:
    return pa.array(np.fromiter(map(_FIELD[field], files), np.int64, len(files)))


def _flagged(files: list[FileEntry], name: str) -> pa.Array:
    """The attribute ``name`` of each of ``files`` discovery flagged (size -1), null for the others."""
    return pa.array([getattr(f, name) if f.size < 0 else None for f in files], pa.string())
