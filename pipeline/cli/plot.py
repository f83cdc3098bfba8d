"""cli.plot: the ``ratings plot`` command: PNG charts over :mod:`pipeline.reports.plots`.

One typer command function, registered by :mod:`pipeline.cli`. It checks that the options fit the kind
of chart, calls the library, and maps :class:`~pipeline.reports.ReportError` to exit status 2 and
:class:`~pipeline.reports.plots.PlotError` (no CJK font) to 1. Knows nothing of how the charts are drawn.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import ConfigOpt, OutOpt, PeriodOpt, console, fail, output_folder
from pipeline.reports import ReportError, plots


class Kind(StrEnum):
    """The charts ``ratings plot`` draws."""

    history = "history"
    distribution = "distribution"


def plot_command(
    png: Annotated[
        Path, typer.Option("--png", metavar="FILE", help="PNG file to write (its folder is created)")
    ],
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player", metavar="NAME", help="Player name or alias, repeat for several (--kind history)"
        ),
    ] = None,
    period: PeriodOpt = None,
    kind: Annotated[
        Kind, typer.Option("--kind", help="history: players' ratings over time; distribution: one period")
    ] = Kind.history,
    out: OutOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Draw a chart as a PNG: the rating history of one or more players (a line each, a point at the end
    of every rated period), or the distribution of the ratings at the end of a period (default: the
    latest). Names in Chinese, Japanese or Korean are set in a CJK font.

    Example: ratings plot --player 羽焰 --player 凝兰 --png history.png
    Example: ratings plot --kind distribution --period 2024-05 --png spread.png
    """
    out = output_folder(out, config)
    players = player or []
    if kind is Kind.history and period is not None:
        fail("--period does not apply to --kind history (the chart covers every rated period)", 2)
    if kind is Kind.distribution and players:
        fail("--player does not apply to --kind distribution (the chart covers every rated player)", 2)
    try:
        if kind is Kind.history:
            written = plots.history_chart(out, players, png)
        else:
            written = plots.distribution_chart(out, period, png)
    except ReportError as e:
        fail(str(e), 2)
    except plots.PlotError as e:
        fail(str(e), 1)
    console().print(f"wrote {written} ({written.stat().st_size} bytes)")
