"""cli: the ``ratings`` command, a thin layer over the library.

Each module of this package holds the command functions of one feature; this one builds the typer
app and registers them. Commands turn options into a configuration, run the library, render its
results with rich, and map the library's exceptions to exit codes: 0 done (bad records are data,
not failures), 2 bad configuration or arguments, 1 anything else.
"""

from __future__ import annotations

import typer

from pipeline.cli import backtest, explain, export, plot, reports, run

app = typer.Typer(
    help="sgf-ratings: SGF game records in, ratings out.\n\nExample: ratings run --raw data/raw",
    no_args_is_help=True,
    add_completion=False,
)
app.command("run")(run.run_command)
app.command("ingest")(run.ingest_command)
app.command("audit")(reports.audit_command)
app.command("show")(reports.show_command)
app.command("export")(export.export_command)
app.command("plot")(plot.plot_command)
app.command("explain")(explain.explain_command)
app.command("backtest")(backtest.backtest_command)
