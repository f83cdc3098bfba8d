"""export: a finished output folder as one Excel workbook (``ratings export --xlsx FILE``).

Sheets, in this order: ``Standings`` (every rated period, one row per player and period), ``Leaderboards``,
``Games`` (the audit of every game record, counted or not, with the reasons), ``Changes`` (one row per
counted game x rated player), ``Awards``, then ``Promotions`` and the rule set's own report tables
(``Fees``, ``Certification``) only when the run wrote them with rows. Every sheet has a bold, frozen header
row, an autofilter over its data and column widths from its content. Numbers are numeric cells, dates
date cells; a text that a spreadsheet would run as a formula (starting with ``= + - @``, a tab or a
carriage return: OWASP's list) is a text cell with a quote prefix, so Excel and LibreOffice show it as
written and never evaluate it.

Reads the output folder through :mod:`pipeline.reports` and pandas. Knows nothing of how the tables were
computed, of the configuration, or of the command line.
"""

from __future__ import annotations

import datetime as dt
import math
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from pipeline import periods as periods_mod
from pipeline import reports
from pipeline.reports import PART, REPORT_FILES, ReportError
from pipeline.store import atomic_path

#: What a cell holds.
CellValue = str | int | float | bool | dt.date | dt.datetime | None
#: Columns of the ``Standings`` sheet, in order.
STANDINGS_COLUMNS = (
    "period",
    "place",
    "player",
    "rank",
    "rating",
    "delta",
    "games",
    "wins",
    "losses",
    "draws",
    "bonus",
)
#: Columns of the ``Games`` sheet, in order.
GAMES_COLUMNS = (
    "date",
    "period",
    "black",
    "white",
    "result",
    "speed",
    "event",
    "stage",
    "counted",
    "reasons",
    "notes",
    "source_path",
    "game_index",
    "parse_error",
    "game_id",
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
REPORT_ORDER = ("fees", "certification")
#: Text starting with one of these is written as a quoted text cell (OWASP, CSV injection).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
#: Column widths, in characters (a full-width character counts two).
MIN_WIDTH, MAX_WIDTH = 6, 50
MAX_TEXT = 32_767  # the most characters a spreadsheet cell holds
_NUMBER_FORMATS = {"win_rate": "0.0%"}
_DATE_FORMAT = "yyyy-mm-dd"
_DATETIME_FORMAT = "yyyy-mm-dd hh:mm:ss"
_DATASET_FOLDERS = {"Leaderboards": "leaderboards", "Changes": "changes", "Awards": "awards"}
#: The sheets every workbook has, even without rows (the header alone).
ALWAYS = ("Standings", "Leaderboards", "Games", "Changes", "Awards")


def export_xlsx(out: Path, target: Path) -> list[str]:
    """Write the workbook of the output folder ``out`` to ``target`` atomically; return its sheet names.

    Args:
        out: an output folder written by ``ratings run``.
        target: the ``.xlsx`` file to write (replaced if it exists; its folder is created if missing).
            The workbook is written beside it under a temporary name and renamed over it, so a failure
            leaves any earlier file in place.

    Returns:
        The sheet names in workbook order: ``Standings``, ``Leaderboards``, ``Games``, ``Changes``,
        ``Awards``, then ``Promotions``, ``Fees``, ``Certification`` (and any other report of
        :data:`~pipeline.reports.REPORT_FILES`, capitalised) for those the run wrote with rows.

    Raises:
        ReportError: if ``out`` holds no output of ``ratings run``, ``target`` does not end in ``.xlsx``,
            or ``target`` is a folder.
        OSError: if ``target`` or its folder cannot be written.
    """
    if target.suffix.lower() != ".xlsx":
        raise ReportError(f"the workbook must be an .xlsx file, got {str(target)!r}")
    if target.is_dir():
        raise ReportError(f"the workbook {str(target)!r} is a folder: give a file name ending in .xlsx")
    sheets = workbook_tables(out)
    book = Workbook(write_only=True)  # rows streamed to the file: a large run's workbook fits in memory
    for title, frame in sheets.items():
        write_sheet(book.create_sheet(title), frame)
    with atomic_path(target) as temporary:
        book.save(temporary)
    return list(sheets)


def workbook_tables(out: Path) -> dict[str, pd.DataFrame]:
    """The tables of the workbook by sheet name, in sheet order, columns in sheet order.

    Raises ReportError if ``out`` holds no output of ``ratings run``.
    """
    reports.read_games(out, columns=["seq"])  # the missing-output message, before anything else
    tables = {
        "Standings": standings_table(out),
        "Leaderboards": _dataset_sheet(out, "Leaderboards"),
        "Games": games_table(out),
        "Changes": _dataset_sheet(out, "Changes"),
        "Awards": _dataset_sheet(out, "Awards"),
    }
    promotions = out / "promotions.parquet"
    if promotions.exists():
        tables["Promotions"] = _ordered(pd.read_parquet(promotions), LEADING_COLUMNS["Promotions"])
    for name in [*REPORT_ORDER, *sorted(set(REPORT_FILES) - set(REPORT_ORDER))]:
        if (out / REPORT_FILES[name]).exists():
            title = name.capitalize()
            tables[title] = _ordered(reports.rule_set_report(out, name), LEADING_COLUMNS.get(title, ()))
    return {title: frame for title, frame in tables.items() if title in ALWAYS or len(frame)}


def standings_table(out: Path) -> pd.DataFrame:
    """:func:`pipeline.reports.standings` of every rated period, in time order, columns
    :data:`STANDINGS_COLUMNS`. Raises ReportError if ``out`` holds no output."""
    frames = [
        reports.standings(out, period=label).assign(period=label) for label in reports.rated_periods(out)
    ]
    if not frames:
        reports.read_games(out, columns=["seq"])  # the missing-output message
        return pd.DataFrame(columns=list(STANDINGS_COLUMNS))
    return pd.concat(frames, ignore_index=True)[list(STANDINGS_COLUMNS)]


def games_table(out: Path) -> pd.DataFrame:
    """:func:`pipeline.reports.audit_games` of every record (``seq`` order) with the file each came from,
    columns :data:`GAMES_COLUMNS`; ``reasons`` and ``notes`` joined by ", ".

    Raises ReportError if ``out`` holds no output.
    """
    audit = reports.audit_games(out)
    where = reports.read_games(out, columns=["game_id", "source_path", "game_index"])
    games = audit.merge(where, on="game_id", how="left", validate="one_to_one")
    for name in ("reasons", "notes"):
        games[name] = [", ".join(codes) for codes in games[name]]
    return games[list(GAMES_COLUMNS)]


def write_sheet(sheet: WriteOnlyWorksheet, frame: pd.DataFrame) -> None:
    """Write ``frame`` (header row, then one row per row) into the new write-only ``sheet``: bold frozen
    header, autofilter over the data, widths from the content, formula-looking text as quoted text cells."""
    columns = [str(c) for c in frame.columns]
    rows = [[cell_value(v) for v in row] for row in frame.itertuples(index=False, name=None)]
    widths = [display_width(name) for name in columns]
    for row in rows:
        for index, value in enumerate(row):
            if value is not None:
                widths[index] = max(widths[index], display_width(_shown(value)))
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = min(MAX_WIDTH, max(MIN_WIDTH, width + 2))
    sheet.freeze_panes = "A2"
    if columns:
        sheet.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{len(rows) + 1}"
    bold = Font(bold=True)
    header = [WriteOnlyCell(sheet, value=name) for name in columns]
    for cell in header:
        cell.font = bold
    sheet.append(header)
    for row in rows:
        sheet.append([_cell(sheet, value, name) for value, name in zip(row, columns, strict=True)])


def cell_value(value: Any) -> CellValue:
    """``value`` as a spreadsheet cell holds it: None for a missing or non-finite value; Python numbers,
    booleans, dates and datetimes; a list as its items joined by ", "; anything else as text (characters
    XML cannot hold replaced by U+FFFD, cut at :data:`MAX_TEXT` characters), None for empty text."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, pd.Timestamp):
        return value.to_pydatetime()
    if isinstance(value, dt.date):  # datetime.datetime too
        return value
    if isinstance(value, list | tuple | np.ndarray):
        value = ", ".join(str(v) for v in value)
    return _text(str(value)) or None


def formula_like(text: str) -> bool:
    """True if a spreadsheet would take ``text`` for a formula (it starts with :data:`FORMULA_PREFIXES`)."""
    return text.startswith(FORMULA_PREFIXES)


def display_width(text: str) -> int:
    """Columns ``text`` takes on screen: two per wide or full-width character (CJK), none for a combining
    mark, one for any other."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def _cell(sheet: WriteOnlyWorksheet, value: CellValue, column: str) -> CellValue | Cell:
    """``value`` for the row of ``sheet``: as it is when a plain cell shows it right, else a cell that
    keeps formula-looking text as quoted text, or gives a date or ``column`` its number format."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        if not formula_like(value):
            return value
        cell = WriteOnlyCell(sheet, value=value)
        cell.data_type = "s"  # openpyxl made "=..." a formula: store it as the text it is
        cell.quotePrefix = True  # and keep it text when someone edits it in a spreadsheet
        return cell
    if isinstance(value, dt.datetime):
        number_format = _DATETIME_FORMAT
    elif isinstance(value, dt.date):
        number_format = _DATE_FORMAT
    elif column in _NUMBER_FORMATS:
        number_format = _NUMBER_FORMATS[column]
    else:
        return value
    cell = WriteOnlyCell(sheet, value=value)
    cell.number_format = number_format
    return cell


def _shown(value: CellValue) -> str:
    """Roughly the text a spreadsheet shows for ``value`` (for the column width)."""
    if isinstance(value, bool):
        return "FALSE" if not value else "TRUE"
    if isinstance(value, dt.datetime):
        return "0000-00-00 00:00:00"
    if isinstance(value, dt.date):
        return "0000-00-00"
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def _text(text: str) -> str:
    cleaned: str = ILLEGAL_CHARACTERS_RE.sub("\ufffd", text)
    return cleaned[:MAX_TEXT]


def _dataset_sheet(out: Path, title: str) -> pd.DataFrame:
    """The dataset behind sheet ``title`` (:data:`_DATASET_FOLDERS`), its columns in sheet order."""
    columns = LEADING_COLUMNS[title]
    return _ordered(_dataset(out / _DATASET_FOLDERS[title], columns), columns)


def _dataset(folder: Path, columns: Sequence[str]) -> pd.DataFrame:
    """Every partition of the dataset ``folder`` with its ``period`` column, periods in time order, rows
    as written. No partition: the columns of ``empty.parquet`` when there is one, else ``columns``."""
    labels = [p.name.removeprefix("period=") for p in _entries(folder) if p.name.startswith("period=")]
    frames = [
        pd.read_parquet(folder / f"period={label}" / PART).assign(period=label)
        for label in sorted(labels, key=_period_key)
    ]
    if frames:
        return pd.concat(frames, ignore_index=True)
    empty = folder / "empty.parquet"
    return pd.read_parquet(empty) if empty.exists() else pd.DataFrame(columns=list(columns))


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


def _entries(folder: Path) -> list[Path]:
    return list(folder.iterdir()) if folder.is_dir() else []
