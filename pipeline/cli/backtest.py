"""cli.backtest: the ``ratings backtest`` command: rule sets in, the library's scores rendered as rich
tables fitted to the terminal (:mod:`pipeline.cli.tables`), the Parquet files written. Knows nothing of
how the predictions are made (:mod:`pipeline.reports.backtest`, imported when the command runs: it
brings pandas and the stages).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from pipeline import config as config_mod
from pipeline.cli.common import ConfigOpt, console, fail
from pipeline.cli.diff import translated
from pipeline.cli.lock import NoWaitOpt
from pipeline.cli.run import writing
from pipeline.cli.tables import Column, fitted, print_table, split_fitted
from pipeline.cli.wrapping import GLUE
from pipeline.core.i18n import N_, _, ngettext

if TYPE_CHECKING:
    import pandas as pd
    from rich.table import Table

RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        metavar="NAME,...",
        help=N_("Rule sets to compare, comma-separated (default: every registered one)"),
    ),
]
RawOpt = Annotated[
    Path | None, typer.Option("--raw", metavar="DIR", help=N_("Folder of SGF records, read recursively"))
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="DIR",
        help=N_("Output folder: its cache is used, backtest/ is written; alone, the run's setup is reused"),
    ),
]


def backtest_command(
    rules: RulesOpt = None,
    config: ConfigOpt = None,
    raw: RawOpt = None,
    out: OutOpt = None,
    no_wait: NoWaitOpt = False,
) -> None:
    """Replay the same games under each rule set and score how well the ratings before each game predict it.

    Scored on the decisive games every rule set rated for both players: the share won by the higher-rated
    player, the mean log-loss (coin toss: 0.6931) and the Brier score (coin toss: 0.25), and a calibration
    table; "scored" is how many games each rule set's figures rest on (fewer than 200: a warning).
    Writes <out>/backtest/summary.parquet and calibration.parquet (outside the run's snapshots).

    Example: ratings backtest --rules club,hkga,egf --raw data/raw --out data/processed
    """
    import pyarrow.compute as pc

    from pipeline.reports import backtest

    settings = _settings(config, raw, out)
    try:
        checked = backtest.plans(settings, backtest.parse_names(rules, settings))
    except (config_mod.ConfigError, ValueError) as e:
        fail(str(e), 2)
    with writing(settings, no_wait) as (options, steps):
        result = backtest.backtest(checked, options, steps)
        written = backtest.write(result, settings.out)
    shown = console()
    print_table(summary_table(result.summary.to_pandas(), result.n, shown.width))
    for table in calibration_tables(result.calibration.to_pandas(), shown.width):
        print_table(table)
    for name in result.summary.filter(pc.equal(result.summary.column("games_rated"), 0)).column("rules"):
        said = _("{rule_set}: rated none of the decisive games, left out of the comparison")
        shown.print(said.format(rule_set=name))
    for warning in result.warnings:
        shown.print(Text(_("warning: "), style="yellow") + Text(warning))
    shown.print(_("written: {summary}, {calibration}").format(summary=written[0], calibration=written[1]))


def _settings(path: Path | None, raw: Path | None, out: Path | None) -> config_mod.RunConfig:
    """The configuration, or with ``--out`` alone the setup the run recorded there (:func:`run_setup`)."""
    from pipeline.cli.common import run_setup

    return run_setup(path, raw, out)


SUMMARY_TABLE = (
    Column(N_("rule set")),
    Column(N_("predictor"), drop=1),
    Column(N_("rated"), right=True, drop=2),
    Column(N_("scored"), right=True),
    Column(N_("higher-rated wins"), right=True),
    Column(N_("log-loss"), right=True),
    Column(N_("Brier"), right=True),
)

#: How a rule set's predictions were made (the summary's ``predictor``), in words.
_PREDICTORS = {"se": N_("its own Se"), "logistic": N_("logistic fit")}


def summary_table(summary: pd.DataFrame, n: int, width: int) -> Table:
    """One row per rule set (metrics on the ``n`` common games it was scored on, marked ``too few`` below
    :data:`~pipeline.reports.backtest.MIN_SCORED`), then the coin toss for reference (dim), fitted to
    ``width`` cells."""
    from pipeline.reports import forecast

    rows = []
    for row in summary.to_dict("records"):
        metrics = [_number(row[k]) for k in ("higher_rated_wins", "log_loss", "brier")]
        scored = _("{n} (too few)").format(n=row["n"]).replace(" ", GLUE) if row["too_few"] else str(row["n"])
        predictor = (
            _(_PREDICTORS[row["predictor"]]) if row["predictor"] in _PREDICTORS else str(row["predictor"])
        )
        rows.append([str(row["rules"]), predictor, str(row["games_rated"]), scored, *metrics])
    coin = (0.5, forecast.COIN_LOG_LOSS, forecast.COIN_BRIER)
    rows.append([_("coin toss"), f"p{GLUE}={GLUE}0.5", "", str(n), *map(_number, coin)])
    title = ngettext(
        "backtest: {n} decisive game rated by every rule set",
        "backtest: {n} decisive games rated by every rule set",
        n,
    ).format(n=n)
    return fitted(
        title, translated(SUMMARY_TABLE), rows, width, False, styles=[""] * (len(rows) - 1) + ["dim"]
    )


def calibration_tables(calibration: pd.DataFrame, width: int) -> list[Table]:
    """One row per bin of P(Black wins), one column per rule set (mean predicted / observed (games)),
    in as many tables side by side as ``width`` cells need, the bins in each."""
    from pipeline.reports import forecast

    names = list(dict.fromkeys(calibration["rules"]))
    columns = [Column(_("P(Black wins)")), *(Column(name, right=True) for name in names)]
    rows = []
    for k in range(forecast.BINS):
        cells = []
        for name in names:
            found = calibration[(calibration["rules"] == name) & (calibration["bin"] == k)]
            row = found.iloc[0] if len(found) else None
            cells.append(
                f"{row.mean_predicted:.2f} / {row.observed:.2f} ({row.n})" if row is not None else ""
            )
        rows.append([f"{k / forecast.BINS:.1f}-{(k + 1) / forecast.BINS:.1f}", *cells])
    title = _("calibration: mean predicted / observed Black win rate (games)")
    return split_fitted(title, columns, rows, width)


def _number(value: Any) -> str:
    """``value`` to 4 places; empty for a missing value (a rule set with no games)."""
    return "" if value is None or math.isnan(float(value)) else f"{float(value):.4f}"
