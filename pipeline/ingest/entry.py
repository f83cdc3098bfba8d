"""entry: what discovery gives for each entry under the raw folder (:class:`FileEntry`), and how a
path becomes the readable text stored in ``source_path`` (:func:`readable`).

``rel`` is valid UTF-8, one-to-one with the path's bytes: a byte that is not part of valid UTF-8 is
written ``\\xNN`` (lower-case hex) and a literal backslash ``\\\\``, every other character is itself
(``caf\\xe9.sgf`` holds byte 0xE9, ``caf\\\\xe9.sgf`` a backslash). ``name_bytes`` keeps the bytes.

Knows nothing of folders, archives or the cache beyond the key.
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

from pipeline.ingest.archives import Member


class IngestError(Exception):
    """Raised when the raw folder cannot be read at all, or holds no file: nothing is written."""


class FileEntry(NamedTuple):
    """One entry found under the raw folder: where it is and the key of its cache entry.

    ``path`` opens it (``str``, with surrogate escapes for bytes that are not UTF-8); ``rel`` is its
    path relative to the raw folder as stored in ``source_path`` (valid UTF-8, see the module);
    ``name_bytes`` the relative path's bytes when they are not valid UTF-8 (else None). ``size``,
    ``mtime_ns``, ``inode`` (as a signed 64-bit number) and ``ctime_ns`` are its ``stat``; all -1 when
    ``error_kind``/``error`` are set: discovery already knows it cannot be read (no worker opens it).
    An entry of an archive has the archive's ``path`` and ``stat`` (even when flagged), and ``member``
    says where it is in the archive (None for the archive's own entry and for files).

    A named tuple (immutable): a million are made and pickled per run, and a frozen dataclass costs
    four times as much to make.
    """

    path: str
    rel: str
    size: int
    mtime_ns: int
    name_bytes: bytes | None = None
    error_kind: str | None = None
    error: str | None = None
    inode: int = -1
    ctime_ns: int = -1
    member: Member | None = None

    def row_columns(self) -> dict[str, Any]:
        """Columns every row of this file carries: its cache key and raw name (schema ``CACHE``)."""
        return {
            "file_size": self.size,
            "file_mtime_ns": self.mtime_ns,
            "file_inode": self.inode,
            "file_ctime_ns": self.ctime_ns,
            "source_path_bytes": self.name_bytes,
        }

    def key(self) -> str:
        """The cache key as one string: equal for a file that did not change since it was cached.

        The :data:`KEY_COLUMNS` joined by NUL, then the error of an entry discovery flagged (its one
        row is nothing but that error: a dangling link that points elsewhere tomorrow must say so).
        """
        known = f"{self.error_kind}\x00{self.error}" if self.size < 0 else ""
        return f"{self.rel}\x00{self.size}\x00{self.mtime_ns}\x00{self.inode}\x00{self.ctime_ns}\x00{known}"


#: The cache columns that make up :meth:`FileEntry.key`, in its order (then error_kind, parse_error).
KEY_COLUMNS = ("source_path", "file_size", "file_mtime_ns", "file_inode", "file_ctime_ns")


def readable(name: str) -> tuple[str, bool]:
    """``name`` (from the OS: surrogate escapes for bytes that are not UTF-8) as text with no loss, and
    whether it is valid UTF-8: see the module for the escapes."""
    if name.isascii():
        return (name.replace("\\", "\\\\") if "\\" in name else name), True
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(name).replace(b"\\", b"\\\\").decode("utf-8", "backslashreplace"), False
    return name.replace("\\", "\\\\"), True
