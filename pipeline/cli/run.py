"""cli.run: the ``ratings run`` and ``ratings ingest`` commands: configuration in, the library's
stages run (holding the output folder's lock, with a progress bar for each long step), the
end-of-run tables out.

Ctrl-C (or SIGTERM), at any time, stops the bars and exits 130 with one line saying how many files
parsed so far are kept in the cache for the next run and that nothing was published. Knows nothing of
how the stages work; the end-of-run counts come from :mod:`pipeline.audit.counts`.
The stages are imported when a command runs them (:func:`run_all`), not when the command line starts.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from pipeline import config as config_mod
from pipeline.cli import progress
from pipeline.cli.common import (
    ERROR_KINDS,
    UNKNOWN_FIELDS,
    ConfigOpt,
    fail,
    reason_word,
    rules_spelling,
    settings_of,
    speed_word,
    worded,
)
from pipeline.cli.listing import Listing
from pipeline.cli.lock import NoWaitOpt, holding
from pipeline.core.i18n import N_, _, ngettext, said
from pipeline.core.progress import SILENT, Steps

if TYPE_CHECKING:
    from rich.table import Table

    from pipeline.audit.counts import IngestCounts
    from pipeline.ingest import IngestOptions, IngestResult
    from pipeline.run import Plan, RunReport

RawOpt = Annotated[
    Path | None, typer.Option("--raw", metavar="DIR", help=N_("Folder of SGF records, read recursively"))
]
OutOpt = Annotated[Path | None, typer.Option("--out", metavar="DIR", help=N_("Folder for the outputs"))]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers", metavar="N", min=0, help=N_("Worker processes; 0 (the default) means one per core")
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help=N_(
            "Parse on the Dask cluster of this scheduler (tcp://HOST:8786); its workers must read the raw "
            "folder at the same path"
        ),
    ),
]
RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        metavar="NAME",
        help=N_("Rule set name, e.g. club, hkga, tga, glicko2"),
        callback=rules_spelling,
    ),
]


def run_command(
    config: ConfigOpt = None,
    raw: RawOpt = None,
    out: OutOpt = None,
    rules: RulesOpt = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    no_wait: NoWaitOpt = False,
) -> None:
    """Run every stage: ingest, audit, rate, and write the snapshots; end with a summary.

    The output folder switches to the new output only when every stage is done: a failure or Ctrl-C
    leaves the previous output as it was. One run at a time writes an output folder: another one
    started meanwhile waits for it (or, with --no-wait, exits 75).

    Example: ratings run --config config/ratings.toml --raw data/raw --out out
    Example: ratings run --rules hkga --no-wait
    """
    settings = _settings(config, raw, out, workers, scheduler)
    try:
        with terminate_as_interrupt():
            report = _run(settings, rules, no_wait)
    except KeyboardInterrupt as e:
        interrupted(settings.out, e)
    Console().print(run_table(report))


def _run(settings: config_mod.RunConfig, rules: str | None, no_wait: bool) -> RunReport:
    """Plan ``settings`` (exit 2 if bad), then run every stage :func:`writing`."""
    from pipeline.run import plan

    try:
        checked = plan(settings, rules)
    except config_mod.ConfigError as e:
        fail(str(e), 2)
    with writing(settings, no_wait) as (options, steps):
        return run_all(checked, options, steps)


def ingest_command(
    raw: RawOpt = None,
    out: OutOpt = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    no_wait: NoWaitOpt = False,
) -> None:
    """Parse new and changed files under the raw folder into the cache (out/.cache) and count them.

    Example: ratings ingest --raw data/raw --out data/processed --workers 2
    """
    from pipeline.audit.counts import source_counts
    from pipeline.ingest import ingest as ingest_stage
    from pipeline.run import check_folders

    settings = _settings(None, raw, out, workers, scheduler)
    try:
        check_folders(settings)
    except config_mod.ConfigError as e:
        fail(str(e), 2)
    with writing(settings, no_wait) as (options, _steps):
        result = ingest_stage(settings.raw, settings.out, options)
        counts = source_counts(result.source)  # (it reads the cache: before another run may change it)
    table = ingest_table(result, counts, settings.out)
    table.add_row(_("warnings"), _("{n} in records").format(n=counts.warnings))
    Console().print(table)


@contextmanager
def writing(settings: config_mod.RunConfig, no_wait: bool) -> Iterator[tuple[IngestOptions, Steps]]:
    """The frame of a command that ingests into ``settings.out`` and may write there: the output
    folder's lock (:func:`~pipeline.cli.lock.holding`), SIGTERM taken as Ctrl-C, progress bars; yields
    the ingest options (the configuration's, told to the bars) and the bars. Ctrl-C or SIGTERM, even
    while waiting for the lock, exits 130 saying what was kept; a raw folder that cannot be read, 2."""
    from pipeline.ingest import IngestError
    from pipeline.output.snapshots import current

    published = False
    try:
        with terminate_as_interrupt(), holding(settings.out, no_wait), progress.shown() as steps:
            before = current(settings.out)
            try:
                yield _configured(steps, settings), steps
            finally:  # (read while the lock is held: no other run has published since)
                published = current(settings.out) != before
    except IngestError as e:
        fail(str(e), 2)
    except KeyboardInterrupt as e:
        interrupted(settings.out, e, published)


def run_all(checked: Plan, options: IngestOptions, steps: Steps = SILENT) -> RunReport:
    """:func:`pipeline.run.run_all`: every stage for ``checked``, with the ingest ``options``."""
    from pipeline import run as stages

    return stages.run_all(checked, options, steps)


def interrupted(out: Path, stop: KeyboardInterrupt | None = None, published: bool = False) -> NoReturn:
    """Say on standard error that the run was interrupted (by ``stop``: an
    :class:`~pipeline.ingest.Interrupted` tells how many files parsed so far the cache keeps) and what
    became of ``out`` (``published``: the run had switched it to its new output); exit 130."""
    from pipeline.ingest import Interrupted
    from pipeline.output.folder import GAMES_FILE

    if published:
        said = _("interrupted once the run was done: {out} holds its new output").format(out=out)
        Console(stderr=True).print(said, soft_wrap=True, markup=False)
        raise typer.Exit(130)
    if (out / GAMES_FILE).exists():
        kept = _("the previous output in {out} is intact").format(out=out)
    else:
        kept = _("{out} is as it was").format(out=out)
    parsed = ""
    if isinstance(stop, Interrupted):
        parsed = (
            ngettext(
                "{n} file parsed so far is kept in the cache; ",
                "{n} files parsed so far are kept in the cache; ",
                stop.kept,
            ).format(n=f"{stop.kept:,}")
            if stop.kept
            else _("no file was parsed yet; ")
        )
    Console(stderr=True).print(
        _("interrupted: {parsed}nothing was published; {kept}").format(parsed=parsed, kept=kept),
        soft_wrap=True,
        markup=False,
    )
    raise typer.Exit(130)


def _settings(
    path: Path | None, raw: Path | None, out: Path | None, workers: int | None, scheduler: str | None
) -> config_mod.RunConfig:
    """The configuration with the flags given over it (``--workers 0``: one per core). Exits 2 with the
    message for a bad ``--scheduler``."""
    try:
        return config_mod.with_overrides(
            settings_of(path), raw=raw, out=out, workers=workers, scheduler=scheduler
        )
    except config_mod.ConfigError as e:
        fail(str(e), 2)


def _configured(steps: Steps, settings: config_mod.RunConfig) -> IngestOptions:
    """The configuration's ingest settings, the parse's progress told to ``steps``."""
    from pipeline.ingest import IngestOptions

    return IngestOptions(
        steps=steps,
        workers=settings.workers,
        speed_threshold_s=settings.speed_threshold_s,
        file_timeout_s=settings.file_timeout_s,
        scheduler=settings.scheduler,
    )


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While the ``with`` lasts, SIGTERM (a plain ``kill``, a service manager stopping the job) is
    Ctrl-C: the parse so far is checkpointed and nothing is published. The previous handler after."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def ingest_table(result: IngestResult, c: IngestCounts, out: Path) -> Table:
    """The ingest table: files, game records (read, and with a parse error by kind), the files'
    encodings, speeds, unknown fields, and the records' parse warnings."""
    from rich.table import Table

    table = Table(title=escape(_("ingest: {out}").format(out=out)), show_header=False)
    table.add_row(
        _("files"),
        _("{files} ({parsed} parsed, {reused} unchanged) in {seconds} s").format(
            files=c.files, parsed=result.parsed, reused=result.reused, seconds=f"{result.seconds:.2f}"
        ),
    )
    unreadable = c.records - c.games
    table.add_row(
        _("records"),
        _("{records} ({games} games, {unreadable} with a parse error)").format(
            records=c.records, games=c.games, unreadable=unreadable
        ),
    )
    table.add_row(_("parse errors"), _pairs(c.parse_errors, lambda k: worded(k, ERROR_KINDS)) or _("none"))
    encodings = _pairs({_("none") if k == "none" else k: v for k, v in c.encodings.items()})
    table.add_row(_("encodings"), _("{encodings} (files)").format(encodings=encodings or _("none")))
    table.add_row(_("speed"), _pairs(c.speed, speed_word) or _("none"))
    table.add_row(_("unknown"), _pairs(asdict(c.unknown), lambda k: worded(k, UNKNOWN_FIELDS)))
    if result.skipped:
        table.add_row(_("skipped"), escape(_skipped(result.skipped)))
    return table


def _skipped(rels: Sequence[str]) -> str:
    """``out/: the output folder's, not records``; the first few of many, with how many in all."""
    shown = ", ".join(rels[:4]) + (_(", … ({n} in all)").format(n=len(rels)) if len(rels) > 4 else "")
    return _("{files}: the output folder's, not records").format(files=shown)


def run_table(report: RunReport, extra_warnings: Sequence[str] = ()) -> Table:
    """The end-of-run table: the ingest rows, then the records counted and excluded by reason, players,
    periods, the warnings (the records' parse warnings and the run's, each of the run's on a row) and
    what was written. ``extra_warnings`` are added to the run's unless already among them."""
    c = report.counts
    table = ingest_table(report.ingest, c, report.out)
    table.title = escape(_("ratings: {out}").format(out=report.out))
    table.add_row(
        _("counted"),
        _("{counted} of {records} records").format(counted=c.counted, records=c.counted + c.excluded),
    )
    table.add_row(_("excluded"), _listed(c.excluded, c.reasons, reason_word))
    table.add_row(_("players rated"), str(report.players))
    table.add_row(_("periods"), _periods(report.periods))
    warnings = [*report.warnings, *(w for w in extra_warnings if w not in report.warnings)]
    table.add_row(
        _("warnings"),
        _("{all} ({records} in records, {run} from the run)").format(
            all=c.warnings + len(warnings), records=c.warnings, run=len(warnings)
        ),
    )
    for warning in warnings:
        table.add_row(_("warning"), escape(said(warning)))
    written = _written()
    extra = "".join(f", {name}" for name in report.reports)
    table.add_row(_("output"), escape(f"{report.out}/ ({written}{extra})"))
    return table


def _written() -> str:
    """What every run writes: ``games.parquet``, the datasets by period, the boards, the whole-run
    datasets, the recorded setup (:mod:`pipeline.core.tables`, :mod:`pipeline.core.setup_tables`)."""
    from pipeline.core import setup_tables
    from pipeline.core.tables import RATED

    folders = [f"{d.name}/" for d in RATED if d.partitioned]
    files = [d.file for d in RATED if not d.partitioned]
    found = [
        "games.parquet",
        *folders,
        "leaderboards/",
        *files,
        setup_tables.ROSTER_FILE,
        setup_tables.EVENTS_FILE,
    ]
    return ", ".join(found)


def _periods(periods: list[str]) -> str:
    """``none``, ``1 (2024)``, ``4 (2024-05 .. 2024-08)``."""
    if not periods:
        return _("none")
    span = periods[0] if len(periods) == 1 else f"{periods[0]} .. {periods[-1]}"
    return f"{len(periods)} ({span})"


def _pairs(counts: Mapping[str, int], word: Callable[[str], str] = str) -> str:
    """``slow 54, fast 46``: each key (as ``word`` shows it) with its count."""
    return _(", ").join(f"{word(k)} {v}" for k, v in counts.items())


def _listed(n: int, counts: Mapping[str, int], word: Callable[[str], str]) -> Listing | str:
    """``19 (no result 3, draw 2, ...)``: ``n`` and each key (as ``word`` shows it) with its count, as a
    cell that breaks lines between the pairs only; ``n`` alone when ``counts`` is empty."""
    if not counts:
        return str(n)
    head, tail = _("{n} ({reasons})").format(n=n, reasons="\0").split("\0")
    return Listing([f"{word(k)} {v}" for k, v in counts.items()], _(", "), head, tail)
