"""ingest: discover -> (decode -> parse -> normalise, per file, in worker processes) -> one Arrow table.

Incremental: a cache beside the outputs keeps every file's rows under its key (relative path, size,
modification time) and the parser version (a digest of the parsing code itself, so any change to a
normaliser re-parses everything). Unchanged files are not read again; the table is always sorted by
``source_path, game_index``, so a re-run, a run with any number of workers and a run from scratch
give equal tables.

Knows nothing of ratings, audits or the command line: progress is reported through a callback.
"""

from __future__ import annotations

import functools
import hashlib
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.ingest.record import Row, error_row, rows_for_bytes
from pipeline.ingest.schema import CACHE, GAMES_INGEST
from pipeline.output import store

CACHE_PATH = Path(".cache") / "ingest.parquet"
_BATCH = 128
_PARSER_MODULES = ("decode", "charset", "sgftext", "record", "schema", "normalise")
Progress = Callable[[int], None]


class IngestError(Exception):
    """Raised when the raw folder cannot be read at all (missing, not a folder)."""


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file found under the raw folder: where it is and the key of its cache entry."""

    path: str
    rel: str
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class IngestOptions:
    """How to ingest: worker processes (None: every core), the slow/fast threshold, a progress callback."""

    workers: int | None = None
    speed_threshold_s: float = 1800.0
    progress: Progress | None = None
    on_start: Callable[[int], None] | None = None


@dataclass(frozen=True, slots=True)
class IngestResult:
    """The games table (schema :data:`~pipeline.ingest.schema.GAMES_INGEST`) and what the run did."""

    games: pa.Table
    files: int
    parsed: int
    reused: int
    seconds: float


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
    """Append the files under ``folder`` to ``found`` (one stat call a file: this runs every night)."""
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


@functools.cache
def parser_version() -> str:
    """A digest of the source of every module that turns bytes into rows (16 hex digits)."""
    root = Path(__file__).parent
    digest = hashlib.blake2b(digest_size=8)
    for name in _PARSER_MODULES:
        for path in sorted((root / name).glob("*.py")) or [root / f"{name}.py"]:
            digest.update(path.read_bytes())
    return digest.hexdigest()


def ingest(raw: Path, out: Path, options: IngestOptions | None = None) -> IngestResult:
    """Ingest every file under ``raw``, reusing the cache in ``out``; writes the refreshed cache.

    Returns an :class:`IngestResult`. Raises :class:`IngestError` if ``raw`` is not a folder.
    """
    options = options or IngestOptions()
    started = time.perf_counter()
    files = discover(raw)
    cache = _load_cache(out)
    cached, fresh = _reusable(cache, files)
    todo = [f for f in files if f.rel not in fresh]
    if options.on_start:
        options.on_start(len(todo))
    table = pa.concat_tables([cached, *_parse_all(todo, options)]).sort_by(
        [("source_path", "ascending"), ("game_index", "ascending")]
    )
    if todo or cache is None or len(cached) != len(cache):
        store.write_parquet(table, out / CACHE_PATH, metadata={"parser_version": parser_version()})
    games = with_speed(table, options.speed_threshold_s)
    return IngestResult(games, len(files), len(todo), len(files) - len(todo), time.perf_counter() - started)


def with_speed(table: pa.Table, threshold_s: float) -> pa.Table:
    """The cache table as the games table: ``speed`` from ``main_time_s`` (slow at >= ``threshold_s``)."""
    main = table.column("main_time_s")
    speed = pc.if_else(
        pc.is_null(main), "unknown", pc.if_else(pc.greater_equal(main, threshold_s), "slow", "fast")
    )
    table = table.append_column("speed", speed)
    return table.select(GAMES_INGEST.names).cast(GAMES_INGEST)


def _load_cache(out: Path) -> pa.Table | None:
    meta = store.read_metadata(out / CACHE_PATH)
    if meta is None or meta.get("parser_version") != parser_version():
        return None
    try:
        return store.read_parquet(out / CACHE_PATH, CACHE)
    except (OSError, pa.ArrowInvalid):  # a damaged cache costs a full parse, never the run
        return None


def _reusable(cache: pa.Table | None, files: list[FileEntry]) -> tuple[pa.Table, set[str]]:
    """The cached rows of files whose key is unchanged, and the set of those files' paths."""
    if cache is None:
        return pa.Table.from_batches([], schema=CACHE), set()  # (empty_table() imports pandas: 0.3 s)
    current = pa.array([f"{f.rel}\x00{f.size}\x00{f.mtime_ns}" for f in files], pa.string())
    parts = [cache.column(c).cast(pa.string()) for c in ("source_path", "file_size", "file_mtime_ns")]
    keys = pc.binary_join_element_wise(*parts, "\x00")
    kept = cache.filter(pc.is_in(keys, value_set=current))
    return kept, set(kept.column("source_path").unique().to_pylist())


def _parse_all(todo: list[FileEntry], options: IngestOptions) -> list[pa.Table]:
    """The tables of every batch of ``todo``, in order, parsed in ``options.workers`` processes."""
    batches = [todo[i : i + _BATCH] for i in range(0, len(todo), _BATCH)]
    workers = min(options.workers or os.cpu_count() or 1, max(len(batches), 1))
    if workers <= 1:
        return _collect(batches, map(parse_batch, batches), options.progress)
    with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
        return _collect(batches, pool.map(parse_batch, batches), options.progress)


def _collect(
    batches: list[list[FileEntry]], results: Iterator[pa.Table], progress: Progress | None
) -> list[pa.Table]:
    tables = []
    for batch, table in zip(batches, results, strict=True):
        tables.append(table)
        if progress:
            progress(len(batch))
    return tables


def parse_batch(batch: list[FileEntry]) -> pa.Table:
    """The rows of every file in ``batch``, each with its cache key, as a table of schema CACHE.

    Never raises. Runs in the worker processes, which also build the Arrow table: the parent only
    concatenates.
    """
    rows = []
    for entry in batch:
        for row in _rows_for_file(entry):
            row["file_size"], row["file_mtime_ns"] = entry.size, entry.mtime_ns
            rows.append(row)
    return pa.Table.from_pylist(rows, schema=CACHE)


def _rows_for_file(entry: FileEntry) -> list[Row]:
    try:
        with open(entry.path, "rb") as f:
            data = f.read()
    except OSError as e:
        return [error_row(entry.rel, "unreadable", f"unreadable: {e.strerror or e}")]
    try:
        return rows_for_bytes(data, entry.rel)
    except Exception as e:  # a bug of ours must not lose the file: it becomes a row that says so
        return [error_row(entry.rel, "internal", f"internal error while reading: {e!r}")]
