"""export: a finished output folder as one Excel workbook (``ratings export --xlsx FILE``).

Sheets, in this order: ``Standings`` (every rated period, one row per active player and period),
``Leaderboards``, ``Games`` (the audit of every game record, counted or not, with the reasons and each
side's points), ``Changes`` (one row per counted game x rated player), ``Awards``, then ``Promotions`` and
the rule set's
own report tables (``Fees``, ``Certification``) only when they have rows, under every rule set; in
Chinese the sheets, their header rows and the values that are words are in the language spoken, and a
last sheet maps each header shown to the contract's column (:mod:`pipeline.reports.export.shown`). The file
gets the mode the umask gives (:func:`pipeline.core.store.atomic_path`). This module chooses the sheets and
their tables and saves the file; how a table becomes cells (header, widths, number and date cells, text a
spreadsheet must never evaluate as a formula) is :mod:`pipeline.reports.export.cells`, whose names it
re-exports.

Reads the output folder through :mod:`pipeline.reports`, :mod:`pipeline.output.folder` and pandas: each
dataset (the standings' ratings too) in one scan of its partitions, not a read or a query per period (a
run may have thousands of periods: docs/design.md#export-scan). Reports its progress to the
``steps`` it is given (:mod:`pipeline.core.progress`): the reading, each sheet's rows, the saving. Knows
nothing of how the tables were computed, of the configuration, or of the command line.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
from openpyxl import Workbook

from pipeline import reports
from pipeline.core import periods as periods_mod
from pipeline.core.i18n import _
from pipeline.core.progress import SILENT, Steps
from pipeline.core.store import atomic_path
from pipeline.output import folder as outputs
from pipeline.reports import REPORT_FILES, ReportError, asof
from pipeline.reports.export.cells import (
    FORMULA_PREFIXES,
    MAX_TEXT,
    MAX_WIDTH,
    MIN_WIDTH,
    CellValue,
    cell_value,
    display_width,
    formula_like,
    write_sheet,
)
from pipeline.reports.export.shown import MAP_TITLE, shown_sheets

__all__ = [
    "ALWAYS",
    "FORMULA_PREFIXES",
    "GAMES_COLUMNS",
    "LEADING_COLUMNS",
    "MAP_TITLE",
    "MAX_TEXT",
    "MAX_WIDTH",
    "MIN_WIDTH",
    "REPORT_ORDER",
    "STANDINGS_COLUMNS",
    "CellValue",
    "cell_value",
    "display_width",
    "export_xlsx",
    "formula_like",
    "games_table",
    "shown_sheets",
    "standings_table",
    "workbook_tables",
    "write_sheet",
]

#: Columns of the ``Standings`` sheet, in order: the period, then those of
#: :data:`pipeline.reports.STANDINGS_COLUMNS` but the values before the period, the membership and the
#: activity marks (the sheet lists the active players only; their last counted game is kept), the
#: deviation after the rating (left out under a rule set without one: :func:`standings_table`).
STANDINGS_COLUMNS = (
    "period",
    *(
        c
        for name in reports.STANDINGS_COLUMNS
        if name not in ("rank_before", "rating_before", "member", "deviation", "active", "inactive_since")
        for c in ((name, "deviation") if name == "rating" else (name,))
    ),
)
#: Columns of the ``Games`` sheet, in order: those of :data:`pipeline.reports.AUDIT_COLUMNS` a reader of
#: the sheet wants (no ``seq``, ``source``, ``speed_known``, ``event_listed``, ``changes``), each side's
#: ``points`` from the game (the ``Changes`` column of that name) after the result, then where each
#: record came from, why it could not be read, and its id.
_AUDIT_LAST = ("source_path", "game_index", "parse_error", "game_id")
_AUDIT_SHOWN = tuple(
    c
    for c in reports.AUDIT_COLUMNS
    if c not in ("seq", "source", "speed_known", "event_listed", "changes", *_AUDIT_LAST)
)
_RESULT_AT = _AUDIT_SHOWN.index("result") + 1
GAMES_COLUMNS = (
    *_AUDIT_SHOWN[:_RESULT_AT],
    "black_points",
    "white_points",
    *_AUDIT_SHOWN[_RESULT_AT:],
    *_AUDIT_LAST,
)
#: The columns the other sheets start with, in order; any further column of the table follows as written
#: (a rule set's own ``changes`` columns, for instance).
LEADING_COLUMNS: dict[str, tuple[str, ...]] = {
    "Leaderboards": (
        "period",
        "scope",
        "player",
        "games",
        "wins",
        "losses",
        "draws",
        "win_rate",
        "longest_streak",
        "games_place",
        "wins_place",
        "win_rate_place",
        "streak_place",
    ),
    "Changes": (
        "period",
        "date",
        "seq",
        "game_id",
        "player",
        "opponent",
        "color",
        "score",
        "rating_before",
        "points",
        "bonus",
        "bonus_rule",
        "delta",
        "event",
        "speed",
    ),
    "Awards": ("period", "date", "player", "event", "kind", "points", "note"),
    "Promotions": (
        "period",
        "date",
        "player",
        "rule",
        "from_rank",
        "to_rank",
        "event",
        "value",
        "threshold",
        "games",
        "game_id",
        "evidence",
    ),
    "Fees": ("player", "year"),
    "Certification": ("player",),
}
#: The rule set's report tables (keys of :data:`pipeline.reports.REPORT_FILES`) in sheet order; a report
#: not named here follows them.
REPORT_ORDER = ("promotions", "fees", "certification")
_DATASET_FOLDERS = {"Leaderboards": "leaderboards", "Changes": "changes", "Awards": "awards"}
#: The sheets every workbook has, even without rows (the header alone).
ALWAYS = ("Standings", "Leaderboards", "Games", "Changes", "Awards")


def export_xlsx(out: Path, target: Path, steps: Steps = SILENT) -> list[str]:
    """Write the workbook of the output folder ``out`` to ``target`` atomically; return its sheet names.

    Args:
        out: an output folder written by ``ratings run``.
        target: the ``.xlsx`` file to write (replaced if it exists; its folder is created if missing).
            The workbook is written beside it under a temporary name and renamed over it, so a failure
            leaves any earlier file in place.
        steps: where the reading (one unit a sheet), each sheet's rows and the saving report progress.

    Returns:
        The sheet names in workbook order: ``Standings``, ``Leaderboards``, ``Games``, ``Changes``,
        ``Awards``, then ``Promotions``, ``Fees``, ``Certification`` (and any other report of
        :data:`~pipeline.reports.REPORT_FILES`, capitalised) for those with rows: a report without rows
        has no sheet, whether its rule set found nothing to report or computes no such report
        (:func:`pipeline.output.folder.read_report` answers both alike). In a language other than
        English (:mod:`pipeline.core.i18n`) the names, the header rows and the values that are words
        are in that language, and the header map (``Columns``, in that language) follows
        (:mod:`pipeline.reports.export.shown`).

    Raises:
        ReportError: if ``out`` holds no output of ``ratings run``, ``target`` does not end in ``.xlsx``,
            or ``target`` is a folder.
        OSError: if ``target`` or its folder cannot be written.
    """
    if target.suffix.lower() != ".xlsx":
        raise ReportError(_("the workbook must be an .xlsx file, got {file}").format(file=repr(str(target))))
    if target.is_dir():
        raise ReportError(
            _("the workbook {file} is a folder: give a file name ending in .xlsx").format(
                file=repr(str(target))
            )
        )
    sheets = shown_sheets(workbook_tables(out, steps))
    book = Workbook(write_only=True)  # rows streamed to the file: a large run's workbook fits in memory
    for sheet in sheets:
        with steps.step(
            _("writing sheet {title}").format(title=sheet.title), total=len(sheet.frame)
        ) as advance:
            write_sheet(book.create_sheet(sheet.title), sheet.frame, advance, sheet.header)
    with steps.step(_("saving the workbook")), atomic_path(target) as temporary:
        book.save(temporary)
    return [sheet.title for sheet in sheets]


def workbook_tables(out: Path, steps: Steps = SILENT) -> dict[str, pd.DataFrame]:
    """The tables of the workbook by sheet name, in sheet order, columns in sheet order; ``steps`` gets
    one unit a table read.

    Raises ReportError if ``out`` holds no output of ``ratings run``.
    """
    reports.read_games(out, columns=["seq"])  # the missing-output message, before anything else
    reads: dict[str, Callable[[], pd.DataFrame]] = {
        "Standings": lambda: standings_table(out),
        "Leaderboards": lambda: _dataset_sheet(out, "Leaderboards"),
        "Games": lambda: games_table(out),
        "Changes": lambda: _dataset_sheet(out, "Changes"),
        "Awards": lambda: _dataset_sheet(out, "Awards"),
    }
    for name in [*REPORT_ORDER, *sorted(set(REPORT_FILES) - set(REPORT_ORDER))]:
        title = name.capitalize()
        reads[title] = functools.partial(_report_sheet, out, name, LEADING_COLUMNS.get(title, ()))
    tables = {}
    with steps.step(_("reading the output"), total=len(reads)) as advance:
        for title, read in reads.items():
            tables[title] = read()
            advance(1)
    return {title: frame for title, frame in tables.items() if title in ALWAYS or len(frame)}


def standings_table(out: Path) -> pd.DataFrame:
    """The standings (:func:`pipeline.reports.standings`: by rating, highest first, then name, with
    ``provisional`` under the run's thresholds, the active players only) of every rated period, in time
    order, columns :data:`STANDINGS_COLUMNS` (without ``deviation`` when no rating has one). The ratings
    are read in one scan (:func:`pipeline.output.folder.read_dataset`), not a query per period. Raises
    ReportError if ``out`` holds no output."""
    reports.read_games(out, columns=["seq"])  # the missing-output message
    ratings = outputs.read_dataset(out, "ratings", key=_period_key)
    columns = [c for c in STANDINGS_COLUMNS if c != "deviation" or _has(ratings, c)]
    if ratings.empty:
        return pd.DataFrame(columns=columns)
    ratings["_order"] = ratings["period"].map({p: i for i, p in enumerate(ratings["period"].unique())})
    ratings = ratings.sort_values(
        ["_order", "rating", "player"], ascending=[True, False, True], kind="stable"
    ).reset_index(drop=True)
    table = pa.Table.from_pandas(ratings.drop(columns=["_order", "period"]), preserve_index=False)
    standings = asof.marked(table, asof.run_provisional(out))
    listed = asof.listed(standings)[0]
    active = standings.column("active").to_numpy()
    period = ratings["period"][active].reset_index(drop=True)  # (its dtype as read)
    return asof.frame(listed).assign(period=period)[columns]


def _has(frame: pd.DataFrame, column: str) -> bool:
    """Whether ``frame`` has ``column`` with a value in it (a rule set's deviation: not all null)."""
    return column in frame.columns and bool(frame[column].notna().any())


def games_table(out: Path) -> pd.DataFrame:
    """:func:`pipeline.reports.audit_games` of every record (``seq`` order) with the file each came from,
    columns :data:`GAMES_COLUMNS`; ``reasons`` and ``notes`` joined by ", "; ``black_points`` and
    ``white_points`` the ``points`` of each side's change (None for a side the game did not rate).

    Raises ReportError if ``out`` holds no output.
    """
    games = reports.audit_games(out)
    for name in ("reasons", "notes"):
        games[name] = [", ".join(codes) for codes in games[name]]
    for side, color in (("black", "B"), ("white", "W")):
        games[f"{side}_points"] = [_points(changes, color) for changes in games["changes"]]
    return games[list(GAMES_COLUMNS)]


def _points(changes: Iterable[Mapping[str, Any]], color: str) -> float | None:
    """The ``points`` of the change of the side ``color`` among a game's ``changes`` (None if none)."""
    return next((float(c["points"]) for c in changes if c["color"] == color), None)


def _dataset_sheet(out: Path, title: str) -> pd.DataFrame:
    """The dataset behind sheet ``title`` (:data:`_DATASET_FOLDERS`), its columns in sheet order: every
    partition with its ``period`` column, periods in time order (:func:`_period_key`), rows as written.
    No partition: the columns of the partition without rows when there is one, else the sheet's."""
    columns = LEADING_COLUMNS[title]
    frame = outputs.read_dataset(out, _DATASET_FOLDERS[title], key=_period_key)
    if len(frame.columns) == 1:  # no dataset: ``period`` alone
        frame = pd.DataFrame(columns=list(columns))
    if "deviation" in frame.columns and not _has(frame, "deviation"):  # a rule set without one
        frame = frame.drop(columns="deviation")
    return _ordered(frame, columns)


def _report_sheet(out: Path, name: str, first: Iterable[str]) -> pd.DataFrame:
    """The rule set's report ``name`` (:func:`pipeline.output.folder.read_report`), ``first`` leading."""
    return _ordered(outputs.read_report(out, name, REPORT_FILES), first)


def _ordered(frame: pd.DataFrame, first: Iterable[str]) -> pd.DataFrame:
    """``frame`` with the columns ``first`` that it has leading, the rest after them as they were."""
    leading = [c for c in first if c in frame.columns]
    return frame[leading + [c for c in frame.columns if c not in leading]]


def _period_key(label: str) -> tuple[int, dt.date, dt.date, str]:
    """Periods by last day, then first day (so a year's board follows its months); non-periods last."""
    try:
        first, last = periods_mod.bounds(label)
    except periods_mod.PeriodError:
        return 1, dt.date.max, dt.date.max, label
    return 0, last, first, label
