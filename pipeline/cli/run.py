"""cli.run: the ``ratings run`` and ``ratings ingest`` commands: configuration in, the library's
stages run, the end-of-run tables out (with a progress bar for large folders)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from pipeline import config as config_mod
from pipeline.cli.common import ConfigOpt, fail
from pipeline.ingest import IngestError, IngestOptions, IngestResult
from pipeline.ingest import ingest as ingest_stage
from pipeline.reports.summary import ingest_counts
from pipeline.run import RunReport, plan, run_all

_PROGRESS_FROM = 300  # files to parse before a progress bar is worth showing

RawOpt = Annotated[Path | None, typer.Option("--raw", help="Folder of SGF records, read recursively")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Folder for the outputs")]
WorkersOpt = Annotated[
    int | None, typer.Option("--workers", min=1, help="Worker processes (default: every core)")
]


def run_command(
    config: ConfigOpt = None,
    raw: RawOpt = None,
    out: OutOpt = None,
    rules: Annotated[str | None, typer.Option("--rules", help="Rule set name, e.g. club")] = None,
    workers: WorkersOpt = None,
) -> None:
    """Run every stage: ingest, audit, rate, and write the snapshots; end with a summary.

    Example: ratings run --config config/ratings.toml --raw data/raw --out data/processed --rules club
    """
    settings = _settings(config, raw, out, workers)
    try:
        checked = plan(settings, rules)
    except config_mod.ConfigError as e:
        fail(str(e), 2)
    with _progress() as options:
        try:
            report = run_all(
                checked,
                dataclasses.replace(
                    options, workers=settings.workers, speed_threshold_s=settings.speed_threshold_s
                ),
            )
        except IngestError as e:
            fail(str(e), 2)
    Console().print(run_table(report))


def ingest_command(raw: RawOpt = None, out: OutOpt = None, workers: WorkersOpt = None) -> None:
    """Parse new and changed files under the raw folder into the cache (out/.cache) and count them.

    Example: ratings ingest --raw data/raw --out data/processed --workers 2
    """
    settings = _settings(None, raw, out, workers)
    with _progress() as options:
        try:
            result = ingest_stage(
                settings.raw, settings.out, dataclasses.replace(options, workers=settings.workers)
            )
        except IngestError as e:
            fail(str(e), 2)
    Console().print(ingest_table(result, ingest_counts(result.games), settings.out))


def _settings(
    path: Path | None, raw: Path | None, out: Path | None, workers: int | None
) -> config_mod.RunConfig:
    try:
        settings = config_mod.load(path)
    except config_mod.ConfigError as e:
        fail(str(e), 2)
    overrides: dict[str, Any] = {"raw": raw, "out": out, "workers": workers}
    return dataclasses.replace(settings, **{k: v for k, v in overrides.items() if v is not None})


@contextmanager
def _progress() -> Iterator[IngestOptions]:
    """Ingest options whose callbacks drive a progress bar (shown from 300 files to parse)."""
    console = Console(stderr=True)
    columns = (TextColumn("parsing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("parse", total=0, visible=False)

        def start(total: int) -> None:
            bar.update(task, total=total, visible=total >= _PROGRESS_FROM)

        yield IngestOptions(progress=lambda n: bar.advance(task, n), on_start=start)


def ingest_table(result: IngestResult, c: dict[str, Any], out: Path) -> Table:
    """The ingest table: files, games, parse errors by kind, encodings, unknown fields."""
    table = Table(title=f"ingest: {out}", show_header=False)
    table.add_row(
        "files", f"{c['files']} ({result.parsed} parsed, {result.reused} unchanged) in {result.seconds:.2f} s"
    )
    table.add_row("games", str(c["games"]))
    table.add_row("parse errors", _pairs(c["parse_errors"]) or "none")
    table.add_row("encodings", _pairs(c["encodings"]))
    table.add_row("speed", _pairs(c["speed"]))
    table.add_row("unknown", _pairs(c["unknown"]))
    table.add_row("warnings", str(c["warnings"]))
    return table


def run_table(report: RunReport) -> Table:
    """The end-of-run table: the ingest rows, then games counted and excluded by reason, players, periods."""
    c = report.counts
    table = ingest_table(report.ingest, c, report.out)
    table.title = f"ratings: {report.out}"
    table.add_row("counted", f"{c['counted']} of {c['counted'] + c['excluded']} game records")
    table.add_row("excluded", _pairs(c["reasons"]) or "none")
    table.add_row("players rated", str(report.players))
    span = f"{report.periods[0]} .. {report.periods[-1]}" if report.periods else "none"
    table.add_row("periods", f"{len(report.periods)} ({span})")
    for warning in report.warnings:
        table.add_row("warning", warning)
    written = "games.parquet, ratings/, changes/, awards/, leaderboards/, promotions.parquet"
    extra = "".join(f", {name}" for name in report.reports)
    table.add_row("output", f"{report.out}/ ({written}{extra})")
    return table


def _pairs(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items())
