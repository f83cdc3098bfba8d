"""site.spill: rows kept on disk by player, so that a page per player is written from one pass.

The period pass (:mod:`pipeline.site.periods`) sees each player's rows a period at a time; their page
needs them all at once. :class:`Buckets` writes each kind of rows (``games``, ``ratings``, ``changes``,
``awards``) into ``count`` Arrow IPC streams by a hash of the ``player`` column, then hands back one
bucket at a time, every row of a player in the same bucket: memory holds one period's rows while
writing and one bucket's while reading. The folder is the caller's (removed with the site's staging
folder). Knows nothing of what the rows mean.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

#: Rows of a bucket aimed at: one bucket's rows are held at once, as columns (a block of players' as
#: the records a page is written from: docs/design.md#site-buckets, #site-memory).
BUCKET_ROWS = 20_000


def bucket_count(rows: int) -> int:
    """Buckets for about ``rows`` rows of the largest kind: one per :data:`BUCKET_ROWS`, at least one."""
    return max(1, -(-rows // BUCKET_ROWS))


class Buckets:
    """Rows by kind and player bucket in ``folder`` (which must exist). Raises OSError when a file
    cannot be written or read."""

    def __init__(self, folder: Path, count: int) -> None:
        self.folder, self.count = folder, count
        self._writers: dict[tuple[str, int], pa.ipc.RecordBatchStreamWriter] = {}
        self._schemas: dict[str, pa.Schema] = {}

    def add(self, kind: str, table: pa.Table) -> None:
        """Keep the rows of ``table`` (with a ``player`` column) under ``kind``; every table of a kind
        is cast to the schema of its first."""
        if table.num_rows == 0:
            return
        schema = self._schemas.setdefault(kind, table.schema)
        table = table.select(schema.names).cast(schema)
        if self.count == 1:
            self._writer(kind, 0, schema).write_table(table)
            return
        which = self._bucket(table.column("player"))
        order = np.argsort(which, kind="stable")  # each bucket's rows together, in the table's order
        bounds = np.searchsorted(which[order], np.arange(self.count + 1))
        table = table.take(pa.array(order))
        for bucket in np.flatnonzero(np.diff(bounds)):
            start, stop = int(bounds[bucket]), int(bounds[bucket + 1])
            self._writer(kind, int(bucket), schema).write_table(table.slice(start, stop - start))

    def close(self) -> None:
        """Finish every file (before reading)."""
        for writer in self._writers.values():
            writer.close()
        self._writers.clear()

    def each(self, kinds: tuple[str, ...]) -> Iterator[dict[str, pa.Table]]:
        """Each bucket's rows: kind -> table (a table without rows, of the kind's schema, when the bucket
        has none; no entry for a kind never added)."""
        self.close()
        for bucket in range(self.count):
            yield {kind: self._read(kind, bucket) for kind in kinds if kind in self._schemas}

    def _bucket(self, players: pa.ChunkedArray) -> np.ndarray:
        hashed = pd.util.hash_array(players.to_numpy(zero_copy_only=False).astype(object))
        found: np.ndarray = hashed % self.count
        return found

    def _path(self, kind: str, bucket: int) -> Path:
        return self.folder / f"{kind}-{bucket:04d}.arrows"

    def _writer(self, kind: str, bucket: int, schema: pa.Schema) -> pa.ipc.RecordBatchStreamWriter:
        key = (kind, bucket)
        if key not in self._writers:
            self._writers[key] = pa.ipc.new_stream(str(self._path(kind, bucket)), schema)
        return self._writers[key]

    def _read(self, kind: str, bucket: int) -> pa.Table:
        path = self._path(kind, bucket)
        if not path.exists():
            return self._schemas[kind].empty_table()
        with pa.OSFile(str(path)) as source:
            table = pa.ipc.open_stream(source).read_all()
        path.unlink()
        return table
