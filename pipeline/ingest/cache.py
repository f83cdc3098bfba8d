"""cache: which rows of the ingest cache (:mod:`~pipeline.ingest.shelf`) a run reuses, and which files it
parses.

The cache keeps every file's rows under its key (:meth:`pipeline.ingest.discover.FileEntry.key`) and
the parser version (a digest of the parsing code itself, so any change to a normaliser re-parses everything).
Rows of a file that timed out or killed its worker (``error_kind`` in :data:`RETRIED`) are never reused:
the next run tries the file again. The rows of an archive's members carry the archive's ``stat``, so
:func:`known` finds them by the archive's key alone, without opening it, and an unchanged archive is one
entry (member :data:`~pipeline.ingest.archives.UNLISTED`) however many members it holds. The decisions
are columnar over the cache's key columns (:data:`~pipeline.ingest.shelf.KEYS`): Python runs once per
discovered file and once per archive, never once per cached row. Knows nothing of how rows are made
or kept.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.ingest import shelf
from pipeline.ingest.archives import UNLISTED
from pipeline.ingest.discover import KEY_COLUMNS, FileEntry, Known

_PARSER_MODULES = ("decode", "charset", "sgftext", "record", "schema", "workers", "normalise", "archives")
#: The error kinds of a file whose rows are not kept: it is read again on the next run.
RETRIED = ("timeout", "crash")
_STAT = KEY_COLUMNS[1:]


@functools.cache
def parser_version() -> str:
    """A digest of the source of every module that turns bytes into rows (16 hex digits)."""
    root = Path(__file__).parent
    digest = hashlib.blake2b(digest_size=8)
    for name in _PARSER_MODULES:
        for path in sorted((root / name).glob("*.py")) or [root / f"{name}.py"]:
            digest.update(path.read_bytes())
    return digest.hexdigest()


def load(out: Path) -> pa.Table | None:
    """Every cached row in ``out`` (schema CACHE), None for none: a small cache looked at whole."""
    return shelf.load(out, parser_version())


def save(table: pa.Table, out: Path) -> None:
    """Make ``table`` (schema CACHE) the whole cache in ``out``."""
    shelf.replace(table, out, parser_version())


@dataclass(frozen=True, slots=True)
class Reuse:
    """What a run reuses of the cache: ``keep``, a mask over the cache's key rows (the rows kept);
    ``todo``, the discovered entries to parse (in order); ``members``, the files (archive members)
    behind the unchanged archives' single entries; ``digest``, of every discovered entry's key."""

    keep: pa.Array
    todo: list[FileEntry]
    members: int
    digest: str


def reusable(keys: pa.Table, files: list[FileEntry]) -> Reuse:
    """Which cached rows (``keys``: :data:`~pipeline.ingest.shelf.KEYS` columns) and files to reuse.

    A row is kept when its file's key is a discovered file's (or it belongs to an unchanged archive's
    entry) and no row of its file is of a :data:`RETRIED` kind; a cache written before a key column was
    filled (null ``file_inode``, ``file_ctime_ns``) matches nothing. A discovered file is parsed when
    no row is kept for it.
    """
    every = _key_array(files)
    digest = _digest(every)
    plain = [f for f in files if f.member is not UNLISTED]
    whole = [f for f in files if f.member is UNLISTED]
    current = every.filter(pa.array([f.member is not UNLISTED for f in files])) if whole else every
    del every
    again = pc.unique(keys.filter(retried(keys)).column("source_path"))
    archived = _of_archives(keys, whole)
    rest = np.flatnonzero(~archived)  # the rows of unchanged archives need no key of their own
    row_keys = _keys(keys.take(pa.array(rest, pa.int64())))
    matched = archived.copy()
    matched[rest] = pc.fill_null(pc.is_in(row_keys, value_set=current), False).to_numpy(zero_copy_only=False)
    keep = matched & ~_among(keys, again).to_numpy(zero_copy_only=False)
    kept = pc.unique(row_keys.filter(pa.array(keep[rest]))).drop_null()
    del row_keys
    parse = pc.invert(pc.is_in(current, value_set=kept)).to_numpy(zero_copy_only=False)
    todo = [f for f, p in zip(plain, parse, strict=True) if p]
    first_rows = pc.equal(keys["game_index"], 0).to_numpy(zero_copy_only=False)  # one row per file
    members = int((archived & first_rows).sum())
    return Reuse(pa.array(keep), todo, members, digest)


def _key_array(files: list[FileEntry], chunk: int = 65_536) -> pa.Array:
    """The :meth:`FileEntry.key` of each of ``files``, built a chunk at a time (measured at 10^6 files:
    the peak is 240 MB over the entries, against 400 MB from one list of every key)."""
    parts = [
        pa.array([f.key() for f in files[i : i + chunk]], pa.string()) for i in range(0, len(files), chunk)
    ]
    return pa.concat_arrays(parts) if parts else pa.array([], pa.string())


def _digest(keys: pa.Array) -> str:
    """A digest of the strings ``keys``, in order (their offsets and bytes)."""
    digest = hashlib.blake2b(digest_size=16)
    for buffer in keys.buffers()[1:]:
        digest.update(memoryview(buffer) if buffer is not None else b"")
    return digest.hexdigest()


def known(keys: pa.Table | None) -> Known:
    """The :data:`~pipeline.ingest.discover.Known` of the cache's ``keys``: for each archive file whose
    cached rows carry its current ``stat``, none of a :data:`RETRIED` kind, one entry standing for all
    its members (``member`` :data:`~pipeline.ingest.archives.UNLISTED`); no worker reads it."""
    return functools.partial(_known, keys)


def _known(keys: pa.Table | None, found: list[FileEntry]) -> dict[str, list[FileEntry]]:
    if keys is None or not keys.num_rows:
        return {}
    again = retried(keys).to_numpy(zero_copy_only=False)
    entries = {}
    for archive in found:
        mine = _of_archives(keys, [archive])
        if mine.any() and not (mine & again).any():
            a = archive
            entries[a.rel] = [
                FileEntry(
                    a.path, a.rel, a.size, a.mtime_ns, a.name_bytes, None, None, a.inode, a.ctime_ns, UNLISTED
                )
            ]
    return entries


def _of_archives(keys: pa.Table, archives: list[FileEntry]) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """True for the rows of ``keys`` that belong to one of ``archives`` as it is now: its ``stat`` and
    its rel or a member of it (``rel!...``) as ``source_path``."""
    found = np.zeros(keys.num_rows, dtype=bool)
    if not archives or not keys.num_rows:
        return found
    inode = keys.column("file_inode").to_numpy(zero_copy_only=False)
    for a in archives:
        where = np.flatnonzero(inode == a.inode)
        rows = keys.take(pa.array(where, pa.int64()))
        same = [
            pc.equal(rows[c], v)
            for c, v in zip(_STAT, (a.size, a.mtime_ns, a.inode, a.ctime_ns), strict=True)
        ]
        path = rows["source_path"]
        inside = pc.or_(pc.equal(path, a.rel), pc.starts_with(path, f"{a.rel}!"))
        mask = functools.reduce(pc.and_, [*same, inside])
        found[where] |= pc.fill_null(mask, False).to_numpy(zero_copy_only=False)
    return found


def retried(cache: pa.Table) -> pa.ChunkedArray:
    """True for the rows of ``cache`` (any table with ``error_kind``) of a :data:`RETRIED` kind."""
    return pc.fill_null(pc.is_in(cache.column("error_kind"), value_set=pa.array(RETRIED)), False)


def _among(cache: pa.Table, paths: pa.Array) -> pa.ChunkedArray:
    return pc.is_in(cache.column("source_path"), value_set=paths)


def _keys(cache: pa.Table) -> pa.ChunkedArray:
    """Each cached row's :meth:`FileEntry.key`, columnar (null where a key column is null)."""
    parts = [cache.column(c).cast(pa.string()) for c in KEY_COLUMNS]
    error = pc.binary_join_element_wise(cache.column("error_kind"), cache.column("parse_error"), "\x00")
    known = pc.if_else(pc.less(cache.column("file_size"), 0), error, "")  # an entry discovery flagged
    return pc.binary_join_element_wise(*parts, known, "\x00")
