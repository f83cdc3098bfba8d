"""spill: a mapping of period label -> table kept on disk, one Parquet file each, in a folder of its own.

What a run holds of the periods it has prepared but not yet replayed (:class:`~pipeline.rules.prepare.
Preparer`'s store): written once, read back when the replay reaches the period, so that memory holds one
period's rows at a time. Uncompressed: the files live for one run. Knows nothing of what the tables hold.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


class PeriodFiles(MutableMapping[str, pa.Table]):
    """Tables by label in ``folder`` (which must exist; the caller removes it). Raises OSError if a
    file cannot be written or read, KeyError for a label never stored."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.paths: dict[str, Path] = {}

    def __setitem__(self, label: str, table: pa.Table) -> None:
        path = self.folder / f"{len(self.paths):06d}.parquet"  # labels need not be file names
        pq.write_table(table, path, compression="none")
        self.paths[label] = path

    def __getitem__(self, label: str) -> pa.Table:
        return pq.ParquetFile(self.paths[label]).read()

    def __delitem__(self, label: str) -> None:
        self.paths.pop(label).unlink()

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)

    def __contains__(self, label: object) -> bool:
        return label in self.paths
