"""store: atomic Parquet and JSON files.

A file is written beside its destination under a temporary name, flushed, then renamed over it:
a crash or a kill at any point leaves either the old complete file or the new complete one. The
temporary file is created with mode 0666 less the umask (as ``open`` creates any file), not the 0600 of
:func:`tempfile.mkstemp`, so that the group and others can read what the run wrote when the umask lets
them. Knows nothing of what the tables mean.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

_META_KEY = b"sgf_ratings"
_NEW_FILE_MODE = 0o666  # less the umask, which the kernel applies


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a new empty temporary file beside ``path`` (mode 0666 less the umask); when the block
    succeeds, rename it over ``path``; when it raises, remove it (``path`` is left as it was).

    Raises OSError if the folder of ``path`` cannot be created or written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _new_file(path)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _new_file(path: Path) -> Path:
    """Create a new empty file ``.<name>.<random>.tmp`` beside ``path``; return its path."""
    while True:
        candidate = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            os.close(os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _NEW_FILE_MODE))
        except FileExistsError:
            continue
        return candidate


def write_parquet(
    table: pa.Table, path: Path, metadata: dict[str, Any] | None = None, *, atomic: bool = True
) -> None:
    """Write ``table`` to ``path``, ``metadata`` (JSON-able) in the file's key-value metadata.

    ``atomic``: through a temporary file renamed over ``path``; False writes in place (for files
    inside a folder that is itself switched in atomically, where the rename would only cost time).
    """
    if metadata is not None:
        existing = table.schema.metadata or {}
        table = table.replace_schema_metadata({**existing, _META_KEY: json.dumps(metadata).encode()})
    if not atomic:
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, path, compression="zstd")
        return
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


class ParquetStream:
    """A Parquet file written piece by piece (a row group or more per :meth:`write`), for a table too
    large to hold at once; used as a context manager, it is closed (and the file complete) at the end
    of the block. A stream given no rows writes a file with ``empty``'s schema and no rows. Every piece
    must have the schema of the first (metadata aside). Raises OSError if the file cannot be written,
    ValueError for a piece of another schema."""

    def __init__(self, path: Path, empty: pa.Table) -> None:
        self.path, self.empty = path, empty
        self.writer: pq.ParquetWriter | None = None

    def write(self, table: pa.Table) -> None:
        """Append ``table``'s rows (a table without rows is skipped)."""
        if not table.num_rows:
            return
        if self.writer is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.writer = pq.ParquetWriter(self.path, table.schema, compression="zstd")
        self.writer.write_table(table)

    def __enter__(self) -> ParquetStream:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.writer is not None:
            self.writer.close()
        elif exc[0] is None:
            write_parquet(self.empty, self.path, atomic=False)


def read_parquet(path: Path, schema: pa.Schema, columns: Sequence[str] | None = None) -> pa.Table:
    """Read the Parquet file at ``path`` (only ``columns``: None for all) as ``schema``. Raises
    OSError/ArrowInvalid if it is unreadable."""
    found = pq.ParquetFile(path).read(columns=list(columns) if columns is not None else None)
    return found.cast(schema)  # ParquetFile: no pyarrow.dataset import


def read_metadata(path: Path) -> dict[str, Any] | None:
    """The metadata written by :func:`write_parquet`, or None if the file is missing or unreadable."""
    try:
        raw = (pq.read_schema(path).metadata or {}).get(_META_KEY)
    except (OSError, pa.ArrowInvalid):
        return None
    return json.loads(raw) if raw else None


def write_json(data: dict[str, Any], path: Path) -> None:
    """Write ``data`` as indented UTF-8 JSON to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n", encoding="utf-8")
