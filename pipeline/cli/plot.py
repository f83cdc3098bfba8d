"""cli.plot: the ``ratings plot`` command: charts over :mod:`pipeline.reports.plots`.

One typer command function, registered by :mod:`pipeline.cli`. It checks that the options fit the kind
of chart, calls the library, and maps :class:`~pipeline.reports.ReportError` (an unknown player or
period, a file suffix that is no chart format) to exit status 2 and
:class:`~pipeline.reports.fonts.PlotError` (no CJK font) to 1. The chart file is ``--image FILE``
(``--png`` is its former name, still accepted; the suffix picks the format: ``--out`` names the output
folder, as in every command). It asks :mod:`pipeline.reports.artist_docs` to import matplotlib without
the property tables of its docstrings (0.2 s, read by no one here), and pauses the cyclic garbage
collector while the chart is read and drawn (0.05 s). Knows nothing of how the charts are drawn.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import ConfigOpt, OutOpt, PeriodOpt, console, fail, output_folder, roster_of
from pipeline.core.i18n import N_, _, ngettext
from pipeline.reports import plots
from pipeline.reports.fonts import PlotError


class Kind(StrEnum):
    """The charts ``ratings plot`` draws."""

    history = "history"
    distribution = "distribution"


def plot_command(
    image: Annotated[
        Path,
        typer.Option(
            "--image",
            "--png",
            metavar="FILE",
            help=N_(
                "Chart file to write, its format from the suffix (.jpeg, .jpg, .pdf, .png, .svg); "
                "its folder is created. --png is the same option"
            ),
        ),
    ],
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player", metavar="NAME", help=N_("Player name or alias, repeat for several (--kind history)")
        ),
    ] = None,
    top: Annotated[
        int | None,
        typer.Option(
            "--top",
            metavar="N",
            help=N_("Without --player: the N best of the latest period (default 10)"),
        ),
    ] = None,
    period: PeriodOpt = None,
    kind: Annotated[
        Kind,
        typer.Option("--kind", help=N_("history: players' ratings over time; distribution: one period")),
    ] = Kind.history,
    out: OutOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Draw a chart (PNG, JPEG, SVG or PDF, from the file's suffix): the rating history of players (a
    line each, a point at the end of every rated period; without --player the top 10 of the latest
    period), or the distribution of the ratings at the end of a period (default: the latest). Titles
    name the rule set and the period; ranks (tga) are labelled as ranks. Names in Chinese, Japanese or
    Korean are set in a CJK font.

    Example: ratings plot --player 羽焰 --player 凝兰 --image history.png
    Example: ratings plot --top 5 --image top5.svg
    Example: ratings plot --kind distribution --period 2024-05 --image spread.pdf
    """
    from pipeline.reports import ReportError, artist_docs

    artist_docs.skip()  # (no one reads matplotlib's docstrings in this process; the charts are the same)
    out = output_folder(out, config)
    players = player or []
    _check_options(kind, players, period, top)
    try:
        with _collector_paused():
            if kind is Kind.history:
                roster = roster_of(out, config) if players else None
                written = plots.history_chart(out, players, image, top or plots.DEFAULT_TOP, roster)
            else:
                written = plots.distribution_chart(out, period, image)
    except ReportError as e:
        fail(str(e), 2)
    except PlotError as e:
        fail(str(e), 1)
    size = written.stat().st_size
    console().print(
        ngettext("wrote {file} ({n} byte)", "wrote {file} ({n} bytes)", size).format(file=written, n=size)
    )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for a ``with``, then as it was: importing matplotlib and
    drawing make hundreds of thousands of objects, and the collector's passes over them cost 0.05 s of
    a one-shot command (the cycles left meanwhile, under 1 MB, are freed when it runs again)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _check_options(kind: Kind, players: list[str], period: str | None, top: int | None) -> None:
    """Exit 2 naming an option that does not apply to ``kind`` with the others given."""
    if kind is Kind.history and period is not None:
        fail(_("--period does not apply to --kind history (the chart covers every rated period)"), 2)
    if kind is Kind.distribution and players:
        fail(_("--player does not apply to --kind distribution (the chart covers every rated player)"), 2)
    if top is not None and (kind is Kind.distribution or players):
        fail(_("--top does not apply with --player or --kind distribution (it picks the players to draw)"), 2)
