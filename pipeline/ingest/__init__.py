"""ingest: discover -> (decode -> parse -> normalise, per file, in worker processes) -> one Arrow table.

The stage's modules, in order: :mod:`~pipeline.ingest.discover` (the files and their keys),
:mod:`~pipeline.ingest.cache` (rows of unchanged files), :mod:`~pipeline.ingest.workers` (the files to
parse, in batches and processes), :mod:`~pipeline.ingest.decode` and :mod:`~pipeline.ingest.charset`
(bytes -> text), :mod:`~pipeline.ingest.sgftext` (the grammar), :mod:`~pipeline.ingest.normalise`
(values), :mod:`~pipeline.ingest.record` (one file -> rows). The table is always sorted by
``source_path, game_index``, so a re-run, a run with any number of workers and a run from scratch give
equal tables.

Knows nothing of ratings, audits or the command line: progress is reported through a callback.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.ingest import cache
from pipeline.ingest.cache import parser_version
from pipeline.ingest.discover import FileEntry, IngestError, discover
from pipeline.ingest.schema import GAMES_INGEST
from pipeline.ingest.workers import Progress, parse_all

__all__ = [
    "FileEntry",
    "IngestError",
    "IngestOptions",
    "IngestResult",
    "discover",
    "ingest",
    "parser_version",
]


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


def ingest(raw: Path, out: Path, options: IngestOptions | None = None) -> IngestResult:
    """Ingest every file under ``raw``, reusing the cache in ``out``; writes the refreshed cache.

    Returns an :class:`IngestResult`. Raises :class:`IngestError` if ``raw`` is not a folder.
    """
    options = options or IngestOptions()
    started = time.perf_counter()
    files = discover(raw)
    previous = cache.load(out)
    cached, fresh = cache.reusable(previous, files)
    todo = [f for f in files if f.rel not in fresh]
    if options.on_start:
        options.on_start(len(todo))
    table = pa.concat_tables([cached, *parse_all(todo, options.workers, options.progress)]).sort_by(
        [("source_path", "ascending"), ("game_index", "ascending")]
    )
    if todo or previous is None or len(cached) != len(previous):
        cache.save(table, out)
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
