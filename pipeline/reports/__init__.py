"""reports: questions put to a finished output folder: which games counted and why not, and the standings.

Reads ``games.parquet``, ``ratings/`` and ``changes/`` as ``ratings run`` wrote them (README.md, "Outputs"),
through the readers of :mod:`pipeline.output.folder` (whose names and constants it re-exports; the rule
sets' report tables as their records name them: :mod:`pipeline.reports.rule_sets`), and answers with pandas
DataFrames (the standings on a day and the provisional mark: :mod:`pipeline.reports.asof`). The queries
know nothing of the configuration (the roster is seen only through the names the run wrote into
``games.parquet``; the commands that rate again, ``backtest`` and ``compare``, read a configuration or the
setup the run recorded), of how the audit decided or a rule set rated, of the folder's file layout beyond
:mod:`pipeline.output.folder`, and of rendering (the command line's tables live in
:mod:`pipeline.cli.reports`). The reports stand above the run and the stages and below the site and the
command line (docs/design.md, "Layers"; checked by import-linter).

The queries are :mod:`pipeline.reports.queries`'s. The names this package re-exports are imported when
first used (:mod:`pipeline.reports.lazy`): importing the package, or a light module of it such as
:mod:`pipeline.reports.fonts`, imports no pandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.reports import lazy

if TYPE_CHECKING:
    from pipeline.output.folder import (
        GAMES_FILE,
        PART,
        ReportError,
        game_periods,
        rated_periods,
        read_games,
        run_rule_set,
    )
    from pipeline.reports.asof import STANDINGS_COLUMNS, DayStandings
    from pipeline.reports.audit_query import AUDIT_COLUMNS
    from pipeline.reports.explain.names import UnknownPlayer, resolve_player
    from pipeline.reports.queries import (
        activity_span,
        audit_games,
        provisional_rule,
        provisional_threshold,
        rule_set_report,
        standings,
        standings_on,
    )
    from pipeline.reports.rule_sets import REPORT_FILES, REPORT_RULE_SETS

__all__ = [
    "AUDIT_COLUMNS",
    "GAMES_FILE",
    "PART",
    "REPORT_FILES",
    "REPORT_RULE_SETS",
    "STANDINGS_COLUMNS",
    "DayStandings",
    "ReportError",
    "UnknownPlayer",
    "activity_span",
    "audit_games",
    "game_periods",
    "provisional_rule",
    "provisional_threshold",
    "rated_periods",
    "read_games",
    "resolve_player",
    "rule_set_report",
    "run_rule_set",
    "standings",
    "standings_on",
]

__getattr__ = lazy.exports(
    __name__,
    {
        "pipeline.output.folder": (
            "GAMES_FILE",
            "PART",
            "ReportError",
            "game_periods",
            "rated_periods",
            "read_games",
            "run_rule_set",
        ),
        "pipeline.reports.asof": ("STANDINGS_COLUMNS", "DayStandings"),
        "pipeline.reports.rule_sets": ("REPORT_FILES", "REPORT_RULE_SETS"),
        "pipeline.reports.explain.names": ("UnknownPlayer", "resolve_player"),
        "pipeline.reports.audit_query": ("AUDIT_COLUMNS",),
        "pipeline.reports.queries": (
            "activity_span",
            "audit_games",
            "provisional_rule",
            "provisional_threshold",
            "rule_set_report",
            "standings",
            "standings_on",
        ),
    },
)
