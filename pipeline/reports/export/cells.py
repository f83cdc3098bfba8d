"""export.cells: rows of a table as the cells of a write-only openpyxl worksheet.

A header row (bold, frozen, with an autofilter over the data), then one row per row of the table.
Numbers are numeric cells, dates date cells, a ``win_rate`` column a percentage, a column of numbers
with fractions (GoR ratings, ``se``) shown with two decimals (the cell keeps the full value), dates in the
language spoken's way (``2024-05-01``; in Chinese ``2024年5月1日``: :data:`DATE_FORMATS`); a text that a
spreadsheet would run as a formula (starting with ``= + - @``, a tab or a carriage return: OWASP's list)
is a text cell with a quote prefix, so Excel and LibreOffice show it as written and never evaluate it;
characters XML cannot hold are replaced. Column widths follow the content, wide (CJK) characters
counting two.

Knows nothing of the output folder, of which sheets a workbook has, or of the file it is saved to
(:mod:`pipeline.reports.export`).
"""

from __future__ import annotations

import datetime as dt
import math
import unicodedata
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from pipeline.core import i18n
from pipeline.core.progress import Advance

_DateFormats = tuple[tuple[str, str], tuple[str, str]]
#: What a cell holds.
CellValue = str | int | float | bool | dt.date | dt.datetime | None
#: Text starting with one of these is written as a quoted text cell (OWASP, CSV injection).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
#: Column widths, in characters (a full-width character counts two).
MIN_WIDTH, MAX_WIDTH = 6, 50
MAX_TEXT = 32_767  # the most characters a spreadsheet cell holds
_NUMBER_FORMATS = {"win_rate": "0.0%"}
#: The format of a column whose numbers are not all whole: two decimals shown, the value kept.
FRACTION_FORMAT = "0.00"
#: How many rows :func:`write_sheet` writes between two calls of its ``advance``.
PROGRESS_ROWS = 1000
_CHINESE_DATE = 'yyyy"年"m"月"d"日"'
#: Each language's formats of a date and of a date with its time, with the text of the widest value each
#: shows (for the column's width).
DATE_FORMATS = {
    i18n.ENGLISH: (("yyyy-mm-dd", "0000-00-00"), ("yyyy-mm-dd hh:mm:ss", "0000-00-00 00:00:00")),
    i18n.SIMPLIFIED: (
        (_CHINESE_DATE, "0000年00月00日"),
        (f"{_CHINESE_DATE} hh:mm:ss", "0000年00月00日 00:00:00"),
    ),
    i18n.TRADITIONAL: (
        (_CHINESE_DATE, "0000年00月00日"),
        (f"{_CHINESE_DATE} hh:mm:ss", "0000年00月00日 00:00:00"),
    ),
}


def write_sheet(
    sheet: WriteOnlyWorksheet,
    frame: pd.DataFrame,
    advance: Advance | None = None,
    header: Sequence[str] | None = None,
) -> None:
    """Write ``frame`` (header row, then one row per row) into the new write-only ``sheet``: bold frozen
    header, autofilter over the data, widths from the content, formula-looking text as quoted text cells,
    dates in the language spoken's format (:data:`DATE_FORMATS`). The header row is ``header`` (one per
    column; default: the column names), the number formats follow the column names (``win_rate``).
    ``advance`` is called with the rows written, every :data:`PROGRESS_ROWS` rows and at the end."""
    columns = [str(c) for c in frame.columns]
    shown_header = list(header) if header is not None else columns
    if len(shown_header) != len(columns):
        raise ValueError(f"{len(shown_header)} headers for {len(columns)} columns")
    rows = [[cell_value(v) for v in row] for row in frame.itertuples(index=False, name=None)]
    formats = [
        _NUMBER_FORMATS.get(name) or _fraction_format(frame.iloc[:, i]) for i, name in enumerate(columns)
    ]
    dates = DATE_FORMATS.get(i18n.current(), DATE_FORMATS[i18n.ENGLISH])
    widths = [display_width(name) for name in shown_header]
    for row in rows:
        for index, value in enumerate(row):
            if value is not None:
                widths[index] = max(widths[index], display_width(_shown(value, formats[index], dates)))
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = min(MAX_WIDTH, max(MIN_WIDTH, width + 2))
    sheet.freeze_panes = "A2"
    if columns:
        sheet.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{len(rows) + 1}"
    bold = Font(bold=True)
    cells = [WriteOnlyCell(sheet, value=_text(name)) for name in shown_header]
    for cell in cells:
        cell.font = bold
    sheet.append(cells)
    for number, row in enumerate(rows, start=1):
        sheet.append([_cell(sheet, value, shown, dates) for value, shown in zip(row, formats, strict=True)])
        if advance is not None and (number % PROGRESS_ROWS == 0 or number == len(rows)):
            advance(number % PROGRESS_ROWS or PROGRESS_ROWS)


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
    if text.isascii():  # most cells: numbers, dates, codes
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def _fraction_format(column: pd.Series[Any]) -> str | None:
    """:data:`FRACTION_FORMAT` for a column of floats of which some finite value has a fraction, else None."""
    if not pd.api.types.is_float_dtype(column.dtype):
        return None
    values = column.to_numpy(dtype=float, na_value=np.nan)
    finite = values[np.isfinite(values)]
    return FRACTION_FORMAT if bool((finite != np.round(finite)).any()) else None


def _cell(
    sheet: WriteOnlyWorksheet, value: CellValue, number_format: str | None, dates: _DateFormats
) -> CellValue | Cell:
    """``value`` for the row of ``sheet``: as it is when a plain cell shows it right, else a cell that
    keeps formula-looking text as quoted text, gives a date or a date with its time its format of
    ``dates``, or a number its column's ``number_format``."""
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
        number_format = dates[1][0]
    elif isinstance(value, dt.date):
        number_format = dates[0][0]
    elif number_format is None:
        return value
    cell = WriteOnlyCell(sheet, value=value)
    cell.number_format = number_format
    return cell


def _shown(value: CellValue, number_format: str | None = None, dates: _DateFormats | None = None) -> str:
    """Roughly the text a spreadsheet shows for ``value`` in ``number_format`` or its format of
    ``dates`` (English's by default), for the column width."""
    dates = dates or DATE_FORMATS[i18n.ENGLISH]
    if isinstance(value, bool):
        return "FALSE" if not value else "TRUE"
    if isinstance(value, dt.datetime):
        return dates[1][1]
    if isinstance(value, dt.date):
        return dates[0][1]
    if isinstance(value, float):
        return f"{value:.2f}" if number_format == FRACTION_FORMAT else f"{value:.10g}"
    return str(value)


def _text(text: str) -> str:
    cleaned: str = ILLEGAL_CHARACTERS_RE.sub("\ufffd", text)
    return cleaned[:MAX_TEXT]
