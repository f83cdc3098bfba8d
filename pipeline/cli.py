"""cli: the ``ratings`` command, a thin layer over the library.

Turns options into a configuration, runs the library, renders its report with rich, and maps the
library's exceptions to exit codes: 0 done (bad records are data, not failures), 2 bad
configuration or arguments, 1 anything else.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from pipeline import config as config_mod
from pipeline.ingest import IngestError, IngestOptions
from pipeline.run import RunReport, run_ingest

app = typer.Typer(
    help="sgf-ratings: SGF game records in, ratings out.\n\nExample: ratings run --raw data/raw",
    no_args_is_help=True,
    add_completion=False,
)
_PROGRESS_FROM = 300  # files to parse before a progress bar is worth showing

ConfigOpt = Annotated[
    Path | None, typer.Option("--config", help="TOML configuration (default: config/ratings.toml)")
]
RawOpt = Annotated[Path | None, typer.Option("--raw", help="Folder of SGF records, read recursively")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Folder for the outputs")]
WorkersOpt = Annotated[
    int | None, typer.Option("--workers", min=1, help="Worker processes (default: every core)")
]


@app.command()
def run(
    config: ConfigOpt = None,
    raw: RawOpt = None,
    out: OutOpt = None,
    rules: Annotated[
        str | None, typer.Option("--rules", help="Rule set name (audit and rating stages)")
    ] = None,
    workers: WorkersOpt = None,
) -> None:
    """Run every stage: ingest the records and write the outputs.

    Example: ratings run --config config/ratings.toml --raw data/raw --out data/processed
    """
    _ingest(_settings(config, raw, out, workers))


@app.command()
def ingest(raw: RawOpt = None, out: OutOpt = None, workers: WorkersOpt = None) -> None:
    """Read every file under the raw folder into games.parquet (incremental: unchanged files are reused).

    Example: ratings ingest --raw data/raw --out data/processed --workers 2
    """
    _ingest(_settings(None, raw, out, workers))


def _settings(
    path: Path | None, raw: Path | None, out: Path | None, workers: int | None
) -> config_mod.RunConfig:
    try:
        settings = config_mod.load(path)
    except config_mod.ConfigError as e:
        _fail(str(e), 2)
    overrides: dict[str, Any] = {"raw": raw, "out": out, "workers": workers}
    return dataclasses.replace(settings, **{k: v for k, v in overrides.items() if v is not None})


def _ingest(settings: config_mod.RunConfig) -> None:
    console = Console(stderr=True)
    with Progress(
        TextColumn("parsing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("parse", total=0, visible=False)

        def start(total: int) -> None:
            bar.update(task, total=total, visible=total >= _PROGRESS_FROM)

        options = IngestOptions(
            settings.workers,
            settings.speed_threshold_s,
            progress=lambda n: bar.advance(task, n),
            on_start=start,
        )
        try:
            report = run_ingest(settings.raw, settings.out, options)
        except IngestError as e:
            _fail(str(e), 2)
    Console().print(summary_table(report))


def summary_table(report: RunReport) -> Table:
    """The end-of-run table: files, games, parse errors by kind, encodings, unknown fields."""
    c, r = report.counts, report.ingest
    table = Table(title=f"ingest: {report.out}", show_header=False)
    table.add_row("files", f"{c['files']} ({r.parsed} parsed, {r.reused} unchanged) in {r.seconds:.2f} s")
    table.add_row("games", str(c["games"]))
    table.add_row("parse errors", _pairs(c["parse_errors"]) or "none")
    table.add_row("encodings", _pairs(c["encodings"]))
    table.add_row("speed", _pairs(c["speed"]))
    table.add_row("unknown", _pairs(c["unknown"]))
    table.add_row("warnings", str(c["warnings"]))
    return table


def _pairs(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items())


def _fail(message: str, code: int) -> Any:
    Console(stderr=True).print(Text("error: ", style="red") + Text(message), soft_wrap=True)
    raise typer.Exit(code)
