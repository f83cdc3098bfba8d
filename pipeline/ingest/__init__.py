"""ingest: discover -> (decode -> parse -> normalise, per file, in worker processes) -> one Arrow table.

The stage's modules, in order: :mod:`~pipeline.ingest.discover` (the files and their keys),
:mod:`~pipeline.ingest.cache` (rows of unchanged files), :mod:`~pipeline.ingest.workers` (the files to
parse, in batches and processes) or :mod:`~pipeline.ingest.cluster` (the same on a Dask cluster),
:mod:`~pipeline.ingest.decode` and :mod:`~pipeline.core.charset` (bytes -> text),
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

import functools
import hashlib
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core.i18n import _
from pipeline.core.interrupts import deferring, held
from pipeline.core.progress import SILENT, Advance, Steps
from pipeline.core.schema import CACHE, GAMES_INGEST
from pipeline.ingest import cache
from pipeline.ingest import ledger as ledger_mod
from pipeline.ingest.cache import parser_version
from pipeline.ingest.discover import (
    DEFERRED,
    FileEntry,
    IngestError,
    discover,
    discover_listed,
    expand,
    files_behind,
)
from pipeline.ingest.shelf import Shelf
from pipeline.ingest.walk import NO_SKIP, Skip
from pipeline.ingest.workers import Batches, Progress, parse_all

__all__ = [
    "FileEntry",
    "Games",
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
    checkpoints of the cache while parsing (0: after every batch). ``on_start`` is given the number of
    files to parse before the first, and a larger number each time an archive read for the first time
    is listed (an archive's members are listed when its turn comes, never all at once). ``steps``: where
    the listing and the parse report how far they are (:mod:`pipeline.core.progress`).
    """

    workers: int | None = None
    speed_threshold_s: float = 1800.0
    file_timeout_s: float = 10.0
    progress: Progress | None = None
    on_start: Callable[[int], None] | None = None
    scheduler: str | None = None
    checkpoint_s: float = 30.0
    steps: Steps = SILENT


class Games:
    """The ingested games on the shelf, as the audit reads them (a :class:`~pipeline.audit.pieces.Source`):
    by month, schema :data:`~pipeline.core.schema.GAMES_INGEST`, ``speed`` from ``threshold_s``."""

    def __init__(self, shelf: Shelf, threshold_s: float) -> None:
        self.shelf, self.threshold_s = shelf, threshold_s

    def months(self) -> list[str]:
        """The months with rows (``YYYY-MM``, ``undated``)."""
        return self.shelf.months()

    def read(self, months: Sequence[str]) -> pa.Table:
        """The rows of ``months``, in no particular order."""
        return with_speed(self.shelf.read(months), self.threshold_s)

    def version(self, months: Sequence[str]) -> str | None:
        """The shelf's digest of ``months`` (:meth:`~pipeline.ingest.shelf.Shelf.months_digest`)."""
        return self.shelf.months_digest(months)


@dataclass(frozen=True, slots=True)
class IngestResult:
    """What a run ingested: the games (a :class:`Games` source, read a month at a time), the count of
    files found, parsed and reused, the seconds it took, and ``digest``, equal for two runs whose rows
    are equal (the keys of every file found, and the rows of the files read again every run).
    ``skipped``: what of the output folder the walk met inside the raw folder and left out (the raw
    folder's paths to it; its own entries, when the two are one folder)."""

    source: Games
    files: int
    parsed: int
    reused: int
    seconds: float
    digest: str
    skipped: tuple[str, ...] = ()

    @property
    def games(self) -> pa.Table:
        """Every row at once (schema GAMES_INGEST), sorted by ``source_path, game_index``: for callers
        that hold a whole table (a test, a backtest); a run reads :attr:`source` a period at a time."""
        table = self.source.read(self.source.months())
        return table.sort_by([("source_path", "ascending"), ("game_index", "ascending")])


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
    shelf = Shelf.open(out, cache.parser_version())
    ledger = functools.cache(shelf.ledger)  # read when needed: not when no file changed, none an archive
    folder = raw.absolute() if options.scheduler else raw  # a worker elsewhere has no working dir of ours
    with options.steps.step(_("listing files")):
        known = functools.partial(_known, shelf, ledger)
        files, listing, left_out = discover_listed(folder, known, True, own_output(raw, out))
    skipped = tuple(left_out)
    listed = cache.listing_digest(listing)
    if shelf.listing == listed and shelf.files is not None:  # the very files of the last save
        digest = _digest(listed, CACHE.empty_table())
        seconds = time.perf_counter() - started
        return IngestResult(
            Games(shelf, options.speed_threshold_s), shelf.files, 0, shelf.files, seconds, digest, skipped
        )
    with options.steps.step(_("comparing with the cache")):
        todo = _reused(shelf, ledger(), files, listing)
    shelf.forget_listing()  # until this run has parsed every file it must
    with options.steps.step(_("parsing"), todo.total) as advance:
        todo.on_start = functools.partial(_started, options.on_start, advance)
        again = _parse(todo, shelf, options, advance)
    found = sum(map(files_behind, files)) + todo.members
    with options.steps.step(_("saving the cache")):
        if not again.num_rows:  # no file to read again next time: the next run may skip the comparison
            shelf.keep_listing(listed, found, ledger_mod.entries(listing, files, todo.counts))
        shelf.save()
    digest = _digest(listed, again)
    games = Games(shelf, options.speed_threshold_s)
    parsed = todo.total
    seconds = time.perf_counter() - started
    return IngestResult(games, found, parsed, found - parsed, seconds, digest, skipped)


def own_output(raw: Path, out: Path) -> Skip:
    """What a walk of ``raw`` leaves out of the output folder ``out``, wherever the walk meets it (its
    cache, its generations and its links are not records): the folder itself, or its own entries
    when it is the raw folder."""
    try:
        found, top = os.stat(out), os.stat(raw)
    except OSError:
        return NO_SKIP
    ident = (found.st_dev, found.st_ino)
    if ident == (top.st_dev, top.st_ino):
        return Skip(own_root=True)
    return Skip(folders=frozenset({ident}))


def _known(
    shelf: Shelf, ledger: Callable[[], pa.Table | None], archives: list[FileEntry]
) -> dict[str, list[FileEntry] | None]:
    """The cached entries of the unchanged ``archives`` (:data:`~pipeline.ingest.discover.Known`): by the
    ``ledger`` when there is one, else by the rows' keys (each read only when an archive asks)."""
    found = ledger()
    return (ledger_mod.known(found) if found is not None else cache.known(shelf.keys))(archives)


def _reused(shelf: Shelf, ledger: pa.Table | None, files: list[FileEntry], listing: pa.Table) -> _Todo:
    """The files to parse, the rows of every changed or removed file dropped from ``shelf``: decided
    by the ``ledger`` when there is one, else by the rows' keys."""
    if ledger is not None:
        compared = ledger_mod.compare(ledger, listing, files)
        shelf.drop_entries(compared.gone)
        return _Todo(compared.todo)
    reuse = cache.reusable(shelf.keys(), files, listing)
    _drop(shelf, reuse.keep)
    return _Todo(reuse.todo)


def _drop(shelf: Shelf, keep: pa.Array) -> None:
    """Remove from ``shelf`` the rows ``keep`` (a mask over its keys) does not keep."""
    dropped = shelf.keys().filter(pc.invert(keep))
    if dropped.num_rows:
        months = pc.unique(dropped["month"]).cast(pa.string()).to_pylist()
        shelf.drop(pc.unique(dropped["source_path"]), months)


class _Todo:
    """The entries to parse, in order, a deferred archive's (:data:`~pipeline.ingest.discover.DEFERRED`)
    listed when its turn comes: ``total`` entries so far, ``members`` more than ``todo`` held,
    ``counts`` the entries of each archive listed (by its rel). ``on_start``, once set, is told the
    total at the start and again whenever an archive's listing adds to it."""

    def __init__(self, todo: list[FileEntry]) -> None:
        self.todo, self.total, self.members = todo, len(todo), 0
        self.counts: dict[str, int] = {}
        self.on_start: Callable[[int], None] | None = None

    def __iter__(self) -> Iterator[FileEntry]:
        if self.on_start:
            self.on_start(self.total)
        for entry in self.todo:
            if entry.member is not DEFERRED:
                yield entry
                continue
            members = expand(entry)
            self.counts[entry.rel] = len(members)
            self.members += len(members) - 1
            self.total += len(members) - 1
            if self.on_start:
                self.on_start(self.total)
            yield from members


def _started(told: Callable[[int], None] | None, advance: Advance, total: int) -> None:
    """Tell ``told`` (the options' ``on_start``) and the parse's step the files to parse so far."""
    if told is not None:
        told(total)
    advance(0, total)


def _parse(todo: Iterable[FileEntry], shelf: Shelf, options: IngestOptions, advance: Advance) -> pa.Table:
    """Parse ``todo`` in batches onto ``shelf``, saved every ``options.checkpoint_s`` and on Ctrl-C;
    ``advance`` is told of each batch; returns the rows of :data:`~pipeline.ingest.cache.RETRIED`
    kinds (read again every run). Raises :class:`Interrupted` for a KeyboardInterrupt."""
    again: list[pa.Table] = [CACHE.empty_table()]
    files, saved = 0, time.monotonic()
    try:
        with deferring() as hold, closing(_batches(todo, options)) as batches:
            for batch, table in batches:
                with hold:  # a stop signal lands before a batch is kept and counted, or after
                    shelf.add(table)
                    files += len(batch)
                retried = table.filter(cache.retried(table))
                if retried.num_rows:  # (no empty table kept per batch: docs/design.md#retried-rows)
                    again.append(retried)
                advance(len(batch))
                if options.progress:
                    options.progress(len(batch))
                if time.monotonic() - saved >= options.checkpoint_s:
                    with hold:  # (a save cut short would leave the buffer to be written twice)
                        shelf.save()
                    saved = time.monotonic()
    except KeyboardInterrupt:
        if files:
            with held():  # (a second stop signal waits for the save)
                shelf.save()
        raise Interrupted(files) from None
    return pa.concat_tables(again)


def _digest(keys: str, again: pa.Table) -> str:
    """The ingest digest: the digest of the found files' keys, then the rows read again this run."""
    rows = again.sort_by([("source_path", "ascending"), ("game_index", "ascending")]).to_pylist()
    return hashlib.blake2b(f"{keys}\0{rows!r}".encode(errors="surrogateescape"), digest_size=16).hexdigest()


def _batches(todo: Iterable[FileEntry], options: IngestOptions) -> Batches:
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
