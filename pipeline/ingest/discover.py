"""discover: every file under the raw folder, each with the key of its cache entry.

Knows nothing of what a file holds: it lists paths and their ``stat`` results, one call a file, since
this runs every night over the whole archive.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class IngestError(Exception):
    """Raised when the raw folder cannot be read at all (missing, not a folder)."""


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file found under the raw folder: where it is and the key of its cache entry.

    ``path`` opens it (``str``, with surrogate escapes for bytes that are not UTF-8); ``rel`` is its
    path relative to the raw folder as stored in ``source_path``; ``name_bytes`` the relative path's
    bytes when they are not valid UTF-8 (else None). ``error_kind``/``error``: set when discovery
    already knows the file cannot be read (then no worker opens it: a FIFO would block).
    """

    path: str
    rel: str
    size: int
    mtime_ns: int
    name_bytes: bytes | None = None
    error_kind: str | None = None
    error: str | None = None

    def row_columns(self) -> dict[str, Any]:
        """Columns every row of this file carries: its cache key and raw name (schema ``CACHE``)."""
        return {"file_size": self.size, "file_mtime_ns": self.mtime_ns, "source_path_bytes": self.name_bytes}

    def key(self) -> str:
        """The cache key as one string: equal for a file that did not change since it was cached."""
        return f"{self.rel}\x00{self.size}\x00{self.mtime_ns}"


#: The cache columns that make up :meth:`FileEntry.key`, in its order.
KEY_COLUMNS = ("source_path", "file_size", "file_mtime_ns")


def discover(raw: Path) -> list[FileEntry]:
    """Every regular file under ``raw`` (recursively, following no links), sorted by relative path.

    Raises :class:`IngestError` if ``raw`` does not exist or is not a folder.
    """
    if not raw.is_dir():
        raise IngestError(f"raw folder not found or not a folder: {raw}")
    found: list[FileEntry] = []
    _scan(raw, "", found)
    return sorted(found, key=lambda e: e.rel)


def _scan(folder: Path, prefix: str, found: list[FileEntry]) -> None:
    """Append the files under ``folder`` to ``found``."""
    with os.scandir(folder) as entries:
        for entry in entries:
            rel = prefix + entry.name
            if entry.is_dir(follow_symlinks=False):
                _scan(Path(entry.path), rel + "/", found)
            elif entry.is_file(follow_symlinks=False):
                found.append(_entry(entry, rel))


def _entry(entry: os.DirEntry[str], rel: str) -> FileEntry:
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return FileEntry(entry.path, rel, -1, -1)
    return FileEntry(entry.path, rel, st.st_size, st.st_mtime_ns)
