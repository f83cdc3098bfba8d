"""ingest: discover -> (decode -> parse -> normalise, per file, in worker processes) -> one Arrow table.

The stage's modules, in order: :mod:`~pipeline.ingest.discover` (the files and their keys),
:mod:`~pipeline.ingest.cache` (rows of unchanged files), :mod:`~pipeline.ingest.workers` (the files to
parse, in batches and processes) or :mod:`~pipeline.ingest.cluster` (the same on a Dask cluster),
:mod:`~pipeline.ingest.decode` and :mod:`~pipeline.ingest.charset` (bytes -> text),
:mod:`~pipeline.ingest.sgftext` (the grammar), :mod:`~pipeline.ingest.normalise` (values),
:mod:`~pipeline.ingest.record` (one file -> rows). The table is always sorted by ``source_path,
game_index``, so a re-run, a run with any number of workers and a run from scratch give equal tables.

Interrupted runs keep their work: while parsing, the cache is written again (atomically) every
``checkpoint_s`` seconds with the rows parsed so far, and once more on Ctrl-C, which then raises
:class:`Interrupted`; the cache is keyed per file, so the next run parses only the files it lacks. A
kill (SIGKILL) loses the files parsed since the last checkpoint.

Knows nothing of ratings, audits or the command line: progress is reported through a callback.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.ingest import cache
from pipeline.ingest.cache import parser_version
from pipeline.ingest.discover import FileEntry, IngestError, discover
from pipeline.ingest.schema import GAMES_INGEST
from pipeline.ingest.workers import Batches, Progress, parse_all

__all__ = [
    "FileEntry",
    "IngestError",
    "IngestOptions",
    "IngestResult",
    "Interrupted",
    "discover",
    "ingest",
    "parser_version",
]


@dataclass(frozen=True, slots=True)
class IngestOptions:
    """How to ingest: worker processes (None: every core), the slow/fast threshold, a progress callback.

    ``file_timeout_s``: the time budget of one file (read, decode, parse, normalise); a file over it
    gives a row with ``error_kind`` ``timeout`` and the run goes on. 0 turns the budget off.
    ``scheduler``: the address of a Dask scheduler (``tcp://HOST:8786``) to parse on its cluster instead
    of local processes (:mod:`~pipeline.ingest.cluster`). ``checkpoint_s``: seconds between two
    checkpoints of the cache while parsing (0: after every batch).
    """

    workers: int | None = None
    speed_threshold_s: float = 1800.0
    file_timeout_s: float = 10.0
    progress: Progress | None = None
    on_start: Callable[[int], None] | None = None
    scheduler: str | None = None
    checkpoint_s: float = 30.0


@dataclass(frozen=True, slots=True)
class IngestResult:
    """The games table (schema :data:`~pipeline.ingest.schema.GAMES_INGEST`) and what the run did."""

    games: pa.Table
    files: int
    parsed: int
    reused: int
    seconds: float


class Interrupted(KeyboardInterrupt):
    """Raised by :func:`ingest` for a KeyboardInterrupt while parsing, once the ``kept`` files parsed so
    far are in the cache (the next run does not parse them again). A KeyboardInterrupt still."""

    def __init__(self, kept: int) -> None:
        super().__init__(kept)
        self.kept = kept


def ingest(raw: Path, out: Path, options: IngestOptions | None = None) -> IngestResult:
    """Ingest every file under ``raw``, reusing the cache in ``out``; writes the refreshed cache.

    Returns an :class:`IngestResult`. Raises :class:`IngestError` if ``raw`` is not a folder (or the
    Dask cluster of ``options.scheduler`` cannot be used), :class:`Interrupted` on Ctrl-C while parsing.
    """
    options = options or IngestOptions()
    started = time.perf_counter()
    previous = cache.load(out)  # first: unchanged archives are then not opened to list their members
    folder = raw.absolute() if options.scheduler else raw  # a worker elsewhere has no working dir of ours
    files = discover(folder, cache.known(previous))
    cached, fresh = cache.reusable(previous, files)
    todo = [f for f in files if f.rel not in fresh]
    if options.on_start:
        options.on_start(len(todo))
    parsed = _parse(todo, cached, out, options)
    table = pa.concat_tables([cached, *parsed]).sort_by(
        [("source_path", "ascending"), ("game_index", "ascending")]
    )
    if todo or previous is None or len(cached) != len(previous):
        cache.save(table, out)
    games = with_speed(table, options.speed_threshold_s)
    return IngestResult(games, len(files), len(todo), len(files) - len(todo), time.perf_counter() - started)


def _parse(todo: list[FileEntry], cached: pa.Table, out: Path, options: IngestOptions) -> list[pa.Table]:
    """The tables of ``todo``'s batches, in order; the cache (``cached`` and them) checkpointed every
    ``options.checkpoint_s`` and on Ctrl-C. Raises :class:`Interrupted` for a KeyboardInterrupt."""
    tables: list[pa.Table] = []
    files, saved = 0, time.monotonic()
    try:
        with closing(_batches(todo, options)) as batches:
            for batch, table in batches:
                tables.append(table)
                files += len(batch)
                if options.progress:
                    options.progress(len(batch))
                if time.monotonic() - saved >= options.checkpoint_s:
                    cache.save(pa.concat_tables([cached, *tables]), out)
                    saved = time.monotonic()
    except KeyboardInterrupt:
        if tables:
            cache.save(pa.concat_tables([cached, *tables]), out)
        raise Interrupted(files) from None
    return tables


def _batches(todo: list[FileEntry], options: IngestOptions) -> Batches:
    if options.scheduler:
        from pipeline.ingest import cluster  # imports dask only when asked to

        return cluster.parse_on_cluster(todo, options.scheduler, options.file_timeout_s)
    return parse_all(todo, options.workers, options.file_timeout_s)


def with_speed(table: pa.Table, threshold_s: float) -> pa.Table:
    """The cache table as the games table: ``speed`` from ``main_time_s`` (slow at >= ``threshold_s``)."""
    main = table.column("main_time_s")
    speed = pc.if_else(
        pc.is_null(main), "unknown", pc.if_else(pc.greater_equal(main, threshold_s), "slow", "fast")
    )
    table = table.append_column("speed", speed)
    return table.select(GAMES_INGEST.names).cast(GAMES_INGEST)
