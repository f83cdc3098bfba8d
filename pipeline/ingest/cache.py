"""cache: the incremental ingest cache, ``out/.cache/ingest.parquet``.

Keeps every file's rows under its key (:meth:`pipeline.ingest.discover.FileEntry.key`) and the parser
version (a digest of the parsing code itself, so any change to a normaliser re-parses everything).
Rows of a file that timed out or killed its worker (``error_kind`` in :data:`RETRIED`) are never reused:
the next run tries the file again. The rows of an archive's members carry the archive's ``stat``, so
:func:`known` finds them by the archive's key alone, without opening it. Knows nothing of how rows are
made.
"""

from __future__ import annotations

import functools
import hashlib
from collections import defaultdict
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.ingest.archives import UNLISTED
from pipeline.ingest.discover import KEY_COLUMNS, FileEntry, Known
from pipeline.ingest.schema import CACHE
from pipeline.output import store

CACHE_PATH = Path(".cache") / "ingest.parquet"
_PARSER_MODULES = ("decode", "charset", "sgftext", "record", "schema", "workers", "normalise", "archives")
#: The error kinds of a file whose rows are not kept: it is read again on the next run.
RETRIED = ("timeout", "crash")
_STAT = KEY_COLUMNS[1:]
_Row = tuple[str, bytes | None, str | None]  # source_path, source_path_bytes, error_kind


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
    """The cache in ``out``, or None when there is none, it is damaged, or another parser wrote it."""
    meta = store.read_metadata(out / CACHE_PATH)
    if meta is None or meta.get("parser_version") != parser_version():
        return None
    try:
        return store.read_parquet(out / CACHE_PATH, CACHE)
    except (OSError, pa.ArrowInvalid):  # a damaged cache costs a full parse, never the run
        return None


def save(table: pa.Table, out: Path) -> None:
    """Write ``table`` (schema CACHE) as the cache in ``out``, atomically."""
    store.write_parquet(table, out / CACHE_PATH, metadata={"parser_version": parser_version()})


def reusable(cache: pa.Table | None, files: list[FileEntry]) -> tuple[pa.Table, set[str]]:
    """The cached rows of files whose key is unchanged, and the set of those files' paths.

    A cache written before a key column was filled (null ``file_inode``, ``file_ctime_ns``) matches
    nothing: every file is parsed again; so does a file with a row of a :data:`RETRIED` kind.
    """
    if cache is None:
        return pa.Table.from_batches([], schema=CACHE), set()  # (empty_table() imports pandas: 0.3 s)
    current = pa.array([f.key() for f in files], pa.string())
    again = pc.unique(cache.filter(_retried(cache)).column("source_path"))
    keep = pc.and_(pc.is_in(_keys(cache), value_set=current), pc.invert(_among(cache, again)))
    kept = cache.filter(keep)
    return kept, set(kept.column("source_path").unique().to_pylist())


def known(cache: pa.Table | None) -> Known:
    """The :data:`~pipeline.ingest.discover.Known` of ``cache``: for archive files, the entries each gave
    when it was cached, for those whose rows all carry its current ``stat`` and none is :data:`RETRIED`.

    The entries are rebuilt from the rows (``member`` :data:`~pipeline.ingest.archives.UNLISTED`): their
    keys are the rows' keys, so :func:`reusable` keeps them all and no worker reads them.
    """
    return functools.partial(_known, cache)


def _known(cache: pa.Table | None, found: list[FileEntry]) -> dict[str, list[FileEntry]]:
    if cache is None:
        return {}
    inodes = pa.array(sorted({a.inode for a in found}), pa.int64())
    rows = cache.filter(pc.is_in(cache.column("file_inode"), value_set=inodes))
    columns = [rows.column(c).to_pylist() for c in ("source_path", "source_path_bytes", "error_kind", *_STAT)]
    by_stat: dict[tuple[int, ...], list[_Row]] = defaultdict(list)
    for path, raw, kind, *key in zip(*columns, strict=True):
        by_stat[tuple(key)].append((path, raw, kind))
    entries = {a.rel: _cached(a, by_stat[(a.size, a.mtime_ns, a.inode, a.ctime_ns)]) for a in found}
    return {rel: e for rel, e in entries.items() if e}


def _cached(archive: FileEntry, rows: list[_Row]) -> list[FileEntry]:
    """The entries of ``archive`` rebuilt from the cached ``rows`` of its key; [] if one is retried."""
    mine = [r for r in rows if r[0] == archive.rel or r[0].startswith(f"{archive.rel}!")]
    if any(kind in RETRIED for _, _, kind in mine):
        return []
    raw = {path: name for path, name, _ in mine}  # a member with several games has several rows
    a = archive
    return [
        FileEntry(a.path, rel, a.size, a.mtime_ns, name, None, None, a.inode, a.ctime_ns, UNLISTED)
        for rel, name in raw.items()
    ]


def _retried(cache: pa.Table) -> pa.ChunkedArray:
    return pc.fill_null(pc.is_in(cache.column("error_kind"), value_set=pa.array(RETRIED)), False)


def _among(cache: pa.Table, paths: pa.Array) -> pa.ChunkedArray:
    return pc.is_in(cache.column("source_path"), value_set=paths)


def _keys(cache: pa.Table) -> pa.ChunkedArray:
    """Each cached row's :meth:`FileEntry.key`, columnar (null where a key column is null)."""
    parts = [cache.column(c).cast(pa.string()) for c in KEY_COLUMNS]
    error = pc.binary_join_element_wise(cache.column("error_kind"), cache.column("parse_error"), "\x00")
    known = pc.if_else(pc.less(cache.column("file_size"), 0), error, "")  # an entry discovery flagged
    return pc.binary_join_element_wise(*parts, known, "\x00")
