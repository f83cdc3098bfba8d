"""cache: the incremental ingest cache, ``out/.cache/ingest.parquet``.

Keeps every file's rows under its key (:meth:`pipeline.ingest.discover.FileEntry.key`) and the parser
version (a digest of the parsing code itself, so any change to a normaliser re-parses everything).
Knows nothing of how rows are made.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.ingest.discover import KEY_COLUMNS, FileEntry
from pipeline.ingest.schema import CACHE
from pipeline.output import store

CACHE_PATH = Path(".cache") / "ingest.parquet"
_PARSER_MODULES = ("decode", "charset", "sgftext", "record", "schema", "workers", "normalise")


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
    """The cached rows of files whose key is unchanged, and the set of those files' paths."""
    if cache is None:
        return pa.Table.from_batches([], schema=CACHE), set()  # (empty_table() imports pandas: 0.3 s)
    current = pa.array([f.key() for f in files], pa.string())
    parts = [cache.column(c).cast(pa.string()) for c in KEY_COLUMNS]
    keys = pc.binary_join_element_wise(*parts, "\x00")
    kept = cache.filter(pc.is_in(keys, value_set=current))
    return kept, set(kept.column("source_path").unique().to_pylist())
