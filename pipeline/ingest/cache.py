"""cache: which rows of the ingest cache (:mod:`~pipeline.ingest.shelf`) a run reuses, and which files it
parses.

The cache keeps every file's rows under its key (:meth:`pipeline.ingest.discover.FileEntry.key`) and
the parser version (a digest of the parsing code itself, so any change to a normaliser re-parses everything).
Rows of a file that timed out or killed its worker (``error_kind`` in :data:`RETRIED`) are never reused:
the next run tries the file again. The rows of an archive's members carry the archive's ``stat``, so
:func:`known` finds them by the archive's key alone, without opening it, and an unchanged archive is one
entry (:func:`~pipeline.ingest.discover.standing_for`) however many members it holds. The decisions
are columnar over the cache's key columns (:data:`~pipeline.ingest.shelf.KEYS`): Python runs once per
discovered file and once per archive, never once per cached row. Knows nothing of how rows are made
or kept.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.ingest import shelf
from pipeline.ingest.discover import KEY_COLUMNS, FileEntry, Known, files_behind, is_unlisted, standing_for
from pipeline.ingest.listing import LISTED, listing_of

_PARSER_MODULES = ("decode", "mixed", "sgftext", "sgfprops", "record", "workers", "normalise", "archives")
#: The modules of :mod:`pipeline.core` that the parser modules read (decoding, text folding, ranks, the
#: rows' schema): a change to one changes the rows too (tests/test_parser_version.py checks the list).
CORE_MODULES = ("charset", "text", "ranks", "schema")
#: The ingest modules that do not change the rows of a file (tests/test_parser_version.py checks that
#: every module is in one list or the other).
OTHER_MODULES = (
    "cache",
    "cluster",
    "discover",
    "entry",
    "ledger",
    "pool",
    "shelf",
    "walk",
    "listing",
    "budget",
    "sources",
)
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
    for name in CORE_MODULES:
        digest.update((root.parent / "core" / f"{name}.py").read_bytes())
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
    behind the unchanged archives' single entries."""

    keep: pa.Array
    todo: list[FileEntry]
    members: int


def reusable(keys: pa.Table, files: list[FileEntry], listed: pa.Table | None = None) -> Reuse:
    """Which cached rows (``keys``: :data:`~pipeline.ingest.shelf.KEYS` columns) and files to reuse.

    A row is kept when its file's key is a discovered file's (or it belongs to an unchanged archive's
    entry) and no row of its file is of a :data:`RETRIED` kind; a cache written before a key column was
    filled (null ``file_inode``, ``file_ctime_ns``) matches nothing. A discovered file is parsed when
    no row is kept for it. Rows find their file by path (one hash of the paths), then the stat columns
    are compared as numbers, not joined with the path into one string a key (less memory:
    docs/design.md#cache-keys).
    """
    listing = listing_of(files) if listed is None else listed  # (the caller's, when it has one)
    whole = [f for f in files if is_unlisted(f.member)]
    plain = [f for f in files if not is_unlisted(f.member)]
    if whole:
        listing = listing.filter(pa.array([not is_unlisted(f.member) for f in files]))
    again = pc.unique(keys.filter(retried(keys)).column("source_path"))
    archived = _of_archives(keys, whole)
    rest = np.flatnonzero(~archived)  # the rows of unchanged archives need no key of their own
    rows = keys.take(pa.array(rest, pa.int64())) if len(rest) < keys.num_rows else keys  # (no copy)
    where = pc.index_in(rows["source_path"], value_set=listing["rel"])
    matched = archived.copy()
    matched[rest] = same_keys(rows, listing, where)
    keep = matched & ~_among(keys, again).to_numpy(zero_copy_only=False)
    found = np.zeros(len(plain), dtype=bool)
    found[pc.fill_null(where, 0).to_numpy(zero_copy_only=False)[keep[rest]]] = True
    todo = [f for f, have in zip(plain, found, strict=True) if not have]
    return Reuse(pa.array(keep), todo, sum(map(files_behind, whole)))


def same_keys(rows: pa.Table, listing: pa.Table, where: pa.Array) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """For each of ``rows``, whether the entry of ``listing`` at ``where`` (null: none) has its key."""
    found = pc.is_valid(where)
    at = pc.fill_null(where, 0)
    for name in LISTED[1:5]:
        found = pc.and_(found, pc.fill_null(pc.equal(rows[name], listing[name].take(at)), False))
    flagged = pc.less(rows["file_size"], 0)
    for name in LISTED[5:]:
        theirs, mine = listing[name].take(at), rows[name]
        equal = pc.or_kleene(pc.equal(theirs, mine), pc.and_(pc.is_null(theirs), pc.is_null(mine)))
        found = pc.and_(found, pc.or_(pc.invert(flagged), pc.fill_null(equal, False)))
    same: np.ndarray[Any, np.dtype[np.bool_]] = found.to_numpy(zero_copy_only=False)
    return same


def listing_digest(listing: pa.Table) -> str:
    """A digest of a :func:`listing_of`'s values, in order (each column's buffers): equal for the same
    files with the same keys, so a run sees at once that nothing changed."""
    digest = hashlib.blake2b(digest_size=16)
    for column in listing.columns:
        for chunk in column.chunks:
            for buffer in chunk.buffers():
                digest.update(memoryview(buffer) if buffer is not None else b"\0")
    return digest.hexdigest()


def known(keys: pa.Table | Callable[[], pa.Table] | None) -> Known:
    """The :data:`~pipeline.ingest.discover.Known` of the cache's ``keys``: for each archive file whose
    cached rows carry its current ``stat``, none of a :data:`RETRIED` kind, one entry standing for all
    its members (:func:`~pipeline.ingest.discover.standing_for`); no worker reads it. An archive whose
    rows carry its ``stat`` but some of a RETRIED kind maps to None: it is listed, and its members are
    compared one by one."""
    return functools.partial(_known, keys)


def _known(
    keys: pa.Table | Callable[[], pa.Table] | None, found: list[FileEntry]
) -> dict[str, list[FileEntry] | None]:
    if callable(keys):
        keys = keys() if found else None  # read only when there is an archive to look for
    if keys is None or not keys.num_rows:
        return {}
    again = retried(keys).to_numpy(zero_copy_only=False)
    first_rows = pc.equal(keys["game_index"], 0).to_numpy(zero_copy_only=False)  # one row per file
    entries: dict[str, list[FileEntry] | None] = {}
    for archive in found:
        mine = _of_archives(keys, [archive])
        if mine.any():
            whole = standing_for(archive, int((mine & first_rows).sum()))
            entries[archive.rel] = None if (mine & again).any() else [whole]
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
