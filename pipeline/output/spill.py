"""spill: a mapping of period label -> table kept on disk, one Arrow IPC file each, in a folder of its own.

What a run holds of the periods it has prepared but not yet replayed (:class:`~pipeline.rules.prepare.
Preparer`'s store): written once, read back when the replay reaches the period, so that memory holds one
period's rows at a time. Arrow's IPC format, uncompressed: the files live for one run, and writing them
is a copy of the buffers, faster than Parquet, even uncompressed, which encodes every column
(docs/design.md#period-spill). Knows nothing of what the tables hold.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from pathlib import Path

import pyarrow as pa


class PeriodFiles(MutableMapping[str, pa.Table]):
    """Tables by label in ``folder`` (which must exist; the caller removes it). Raises OSError if a
    file cannot be written or read, KeyError for a label never stored."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.paths: dict[str, Path] = {}

    def __setitem__(self, label: str, table: pa.Table) -> None:
        path = self.folder / f"{len(self.paths):06d}.arrow"  # labels need not be file names
        with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
            writer.write_table(table)
        self.paths[label] = path

    def __getitem__(self, label: str) -> pa.Table:
        with pa.OSFile(str(self.paths[label])) as source:
            return pa.ipc.open_file(source).read_all()

    def __delitem__(self, label: str) -> None:
        self.paths.pop(label).unlink()

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)

    def __contains__(self, label: object) -> bool:
        return label in self.paths
