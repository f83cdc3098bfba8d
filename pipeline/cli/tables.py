"""cli.tables: listings as the terminal or a script wants them.

:func:`fitted` builds a rich table that fits the terminal's width: columns leave in a set order rather
than a code, a name or a number being cut (CJK characters count two cells); names and free text wrap
at their spaces only (:mod:`pipeline.cli.wrapping`); :func:`print_fitted` and :func:`print_table`
print one, :func:`split_fitted` splits a table of like columns into several. :func:`print_frame`
writes a frame as CSV or JSON for scripts, every value in full (:func:`print_frames`, one given in
parts). Knows nothing of what the rows mean. Imports pandas only when it is given a frame to print (the
command modules import this one to declare their columns).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import typer
from rich.console import JustifyMethod

from pipeline.cli.common import Format, console
from pipeline.cli.plain_table import cells as measured
from pipeline.cli.wrapping import pieces, unglued, widest_piece, words, wrap
from pipeline.core import i18n
from pipeline.core.i18n import _

_SAMPLE = 200  # rows whose lines decide where spare cells go (evenly spread over a longer table)
if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa
    from rich.table import Table


def print_frame(frame: pd.DataFrame, fmt: Format) -> None:
    """``frame`` on standard output as CSV (lists joined by ``;``) or as a JSON array of objects (lists
    and dicts as they are); every value in full, missing values empty (CSV) or null (JSON)."""
    print_frames([frame], fmt)


def print_frames(frames: Iterable[pd.DataFrame], fmt: Format) -> None:
    """The rows of ``frames`` (one table given in parts, each with the same columns) as
    :func:`print_frame` prints their concatenation, a part at a time: a table of millions of rows is
    never held whole, as frames or as text. Each part is written a column at a time
    (:mod:`pipeline.cli.frame_text`), as its rows' dicts would be."""
    from pipeline.cli import frame_text

    first = True
    for frame in frames:
        if not _labelled(frame):
            text = _rows_text(frame, fmt, first)
        elif fmt is Format.json:
            text = frame_text.json_text(frame, frame_text.plain_columns(frame, _plain))
        else:
            text = frame_text.csv_text(frame, frame_text.plain_columns(frame, _plain), _csv_cell, first)
        if text or fmt is not Format.json:
            typer.echo(("[\n" if first else ",\n") + text if fmt is Format.json else text, nl=False)
            first = False
    if fmt is Format.json:
        typer.echo("[]" if first else "\n]")


def print_columns(names: Sequence[str], columns: Sequence[Sequence[Any]], fmt: Format) -> None:
    """Rows given a column at a time, each value as a row's dict holds it (texts, whole numbers,
    booleans, None, lists of texts: :func:`pipeline.cli.frame_text.plain_columns`), printed as
    :func:`print_frame` prints the frame of them, without pandas (:mod:`pipeline.cli.row_text`)."""
    from pipeline.cli import row_text

    rows = len(columns[0]) if columns else 0
    if fmt is Format.json:
        texts = [[row_text.json_value(v, 1) for v in column] for column in columns]
        text = row_text.json_rows(names, texts, rows)
        typer.echo("[\n" + text + "\n]" if text else "[]")
        return
    cells = [[v if v is None or type(v) is str else _csv_cell(v) for v in column] for column in columns]
    typer.echo(row_text.csv_rows(names, cells, header=True), nl=False)


def _labelled(frame: pd.DataFrame) -> bool:
    """Whether ``frame``'s column labels are distinct texts (its rows' dicts have every column)."""
    return frame.columns.is_unique and all(isinstance(c, str) for c in frame.columns)


def _rows_text(frame: pd.DataFrame, fmt: Format, header: bool) -> str:
    """``frame``'s rows as CSV or JSON text written a row at a time (a frame whose labels are not
    distinct texts)."""
    import pandas as pd

    records = [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict("records")]
    if fmt is Format.json:
        return ",\n".join(textwrap.indent(json.dumps(r, ensure_ascii=False, indent=1), " ") for r in records)
    flat = pd.DataFrame([{k: _csv_cell(v) for k, v in r.items()} for r in records], columns=frame.columns)
    return str(flat.to_csv(index=False, header=header))


def _plain(value: Any) -> Any:
    """``value`` as JSON holds it: dates as ISO text, numpy scalars as Python ones, missing as None."""
    import pandas as pd

    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "item") and not isinstance(value, str):  # numpy scalar
        value = value.item()
    if value is None or value is pd.NaT or (isinstance(value, float) and math.isnan(value)):
        return None
    return value.isoformat() if isinstance(value, dt.date | dt.datetime | pd.Timestamp) else value


def _csv_cell(value: Any) -> Any:
    if isinstance(value, list):
        return ";".join(_csv_cell(v) for v in value)
    if isinstance(value, dict):
        return " ".join(str(v) for v in value.values() if v is not None)
    return value


@dataclass(frozen=True, slots=True)
class Column:
    """A column of a :func:`fitted` table: ``name`` its header (it may wrap at its spaces); ``wrap``
    True for free text, which wraps at spaces (:mod:`pipeline.cli.wrapping`); ``names`` True for
    names, kept on one line when the table fits so and else broken only between their words (False
    for both: codes, numbers, dates, never broken); ``paths`` True when its text holds file paths,
    which may also break after a ``/``; ``right`` aligned right; ``drop`` the order in which columns
    leave a table too wide for the terminal (0: never, the column carries the answer; the highest
    first); ``wide`` shown only with ``--wide``; ``least`` the narrowest a wrapping column should be
    (the widest name-and-number pair it holds, say), unless the columns that carry the answer do not
    fit otherwise (then its widest word)."""

    name: str
    wrap: bool = False
    right: bool = False
    drop: int = 0
    wide: bool = False
    least: int | None = None
    names: bool = False
    paths: bool = False

    @property
    def breaks(self) -> bool:
        """Whether the column's cells may take several lines (free text or names)."""
        return self.wrap or self.names


def fitted(
    title: str,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    width: int,
    wide: bool,
    styles: Sequence[str] | None = None,
) -> Table:
    """A table of ``rows`` (one text per column; lines of a cell split at ``\\n``; ``styles`` one rich
    style per row) that fits ``width`` terminal cells (CJK characters count two) without cutting a
    code, a name or a number anywhere.

    Each column is at least as wide as its codes, numbers and dates, and as its widest word (names,
    free text and the header's words): lines break only at spaces. Empty columns leave first, then
    the droppable ones (highest ``drop`` first) until the rest fit; the caption names the columns
    left out and ``--wide``. Spare cells go where they save the most lines (names and free text),
    then to headers. Columns that carry the answer (``drop`` 0) never leave: when they alone are wider than
    ``width``, so is the table (:func:`print_table` prints it whole). With ``wide`` every column is
    shown at the width it needs.
    """
    columns = headed(columns)
    keep = [i for i, c in enumerate(columns) if wide or not c.wide]
    natural = {i: _widest(columns[i].name, (r[i] for r in rows)) for i in keep}
    if wide:
        widths = dict(natural)
    else:
        least = {i: _least(columns[i], natural[i], rows, i) for i in keep}
        empty = {i for i in keep if not any(r[i] for r in rows)}
        leaving = sorted(
            (i for i in keep if columns[i].drop or i in empty),
            key=lambda i: (i not in empty, -columns[i].drop),
        )
        _drop_until_fit(keep, leaving, least, width)
        if _needed(least, keep) > width:  # a wrapping column's own least is a wish: its words suffice
            least |= {i: _least(replace(columns[i], least=None), natural[i], rows, i) for i in keep}
        spare = width - _needed(least, keep)
        widths = _widen(columns, {i: least[i] for i in keep}, natural, rows, spare)
    from rich.table import Table  # (rich's tables bring fractions and decimal: not for every command)

    table = Table(title=title)
    for i in keep:
        c = columns[i]
        justify: JustifyMethod = "right" if c.right else "left"
        header = "\n".join(wrap(c.name, widths[i]))
        table.add_column(header, justify=justify, width=widths[i], no_wrap=True)
    shown = [_column_cells([r[i] for r in rows], columns[i], widths[i]) for i in keep]
    for k, cells in enumerate(zip(*shown, strict=True) if shown else [()] * len(rows)):
        table.add_row(*cells, style=styles[k] if styles else None)
    hidden = [
        c.name for i, c in enumerate(columns) if i not in keep and not c.wide and any(r[i] for r in rows)
    ]
    if hidden:
        table.caption = _("not shown: {columns} (--wide shows every column)").format(
            columns=_(", ").join(hidden)
        )
    return table


def print_fitted(
    title: str,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    wide: bool,
    styles: Sequence[str] | None = None,
) -> None:
    """Print a :func:`fitted` table as wide as the terminal (with ``wide``, as wide as it needs)."""
    print_table(fitted(title, columns, rows, console().width, wide, styles))


def split_fitted(
    title: str, columns: Sequence[Column], rows: Sequence[Sequence[str]], width: int, keys: int = 1
) -> list[Table]:
    """``rows`` as one :func:`fitted` table, or when it does not fit ``width`` with every column, as
    several side by side in turn: each with the first ``keys`` columns (what the rows are) and as many
    of the others, in order, as fit (one at least); the titles say ``(1 of 2)``. For a table whose
    columns are all alike (one per rule set, say), none of which may be left out."""
    columns = headed(columns)
    needed = {i: _least(columns[i], 0, rows, i) + 3 for i in range(len(columns))}
    groups: list[list[int]] = []
    for i in range(keys, len(columns)):
        head = 1 + sum(needed[k] for k in range(keys))
        if groups and head + sum(needed[j] for j in groups[-1]) + needed[i] <= width:
            groups[-1].append(i)
        else:
            groups.append([i])
    tables = []
    for n, group in enumerate(groups or [[]], start=1):
        shown = [*range(keys), *group]
        named = (
            title
            if len(groups) < 2
            else _("{title} ({n} of {total})").format(title=title, n=n, total=len(groups))
        )
        cells = [[r[i] for i in shown] for r in rows]
        tables.append(fitted(named, [columns[i] for i in shown], cells, width, False))
    return tables


def headed(columns: Sequence[Column]) -> list[Column]:
    """``columns`` with their headers in the language spoken (each name an English message, marked
    where the columns are declared)."""
    return [replace(c, name=i18n.gettext(c.name)) for c in columns]


def yes_no(value: bool) -> str:
    """``yes`` or ``no`` in the language spoken."""
    return _("yes") if value else _("no")


def print_table(table: Table) -> None:
    """Print a :func:`fitted` table on a console at least as wide as the table, so that rich never
    narrows a column (cutting its values) when the columns that carry the answer outgrow the
    terminal; drawn line by line when the console writes no styles (:mod:`pipeline.cli.plain_table`:
    the same characters, without rich's measuring of every cell)."""
    from pipeline.cli.plain_table import plain

    width = console().width
    shown = console(max(width, table_width(table)))
    lines = plain(table, shown)
    if lines is None:
        shown.print(table)
    else:
        lines.print(shown)


def _column_cells(texts: list[str], column: Column, width: int) -> list[str]:
    """:func:`_cell` of each of a column's ``texts``, made once per distinct text (and for names and
    free text, each line wrapped once per distinct line: :func:`pipeline.cli.wrapping.wrap` wraps
    a text's lines one by one)."""
    if not column.breaks:
        made = {t: unglued(t) for t in set(texts)}
        return [made[t] for t in texts]
    distinct = set(texts)
    lines = {own for t in distinct for own in t.split("\n")}
    wrapped = {own: "\n".join(wrap(own, width, column.paths)) for own in lines}
    made = {t: "\n".join(wrapped[own] for own in t.split("\n")) if t else t for t in distinct}
    return [made[t] for t in texts]


def _cell(text: str, column: Column, width: int) -> str:
    """``text`` as the cell of ``column`` at ``width`` cells: names and free text wrapped at their
    spaces (:func:`pipeline.cli.wrapping.wrap`), other values as they are."""
    return "\n".join(wrap(text, width, column.paths)) if column.breaks and text else unglued(text)


def _drop_until_fit(keep: list[int], leaving: Sequence[int], least: dict[int, int], width: int) -> None:
    """Remove the columns of ``leaving`` from ``keep``, in order, until ``least`` widths fit ``width``."""
    for i in list(leaving):
        if _needed(least, keep) <= width or len(keep) == 1:
            return
        keep.remove(i)


def table_width(table: Table) -> int:
    """The cells a :func:`fitted` table takes: its columns' widths, their padding and the borders."""
    return sum(c.width or 0 for c in table.columns) + 3 * len(table.columns) + 1


def _widest(header: str, cells: Any) -> int:
    """The widest line of ``header`` and ``cells``."""
    lines = {line for t in {header, *cells} for line in t.split("\n")}
    return max((measured(line) for line in lines), default=1) or 1


def _least(column: Column, natural: int, rows: Sequence[Sequence[str]], i: int) -> int:
    """The narrowest a column may be: its header's widest word; for codes, numbers and dates, its
    widest line; for names and free text, its widest word (or path part), at least its ``least``
    when it has one."""
    header = widest_piece(column.name)
    texts = {r[i] for r in rows}
    if not column.breaks:
        return max(header, _widest("", texts))
    # (widest_piece of each text: the widest part of every distinct word, each measured once)
    parts = {p for w in {w for t in texts for w in words(t)} for p in pieces(w, column.paths)}
    word = max(map(measured, parts), default=1)
    return max(header, word, min(natural, column.least or 0), 1)


def _needed(widths: dict[int, int], keep: Sequence[int]) -> int:
    return sum(widths[i] for i in keep) + 3 * len(keep) + 1


def _widen(
    columns: Sequence[Column],
    widths: dict[int, int],
    natural: dict[int, int],
    rows: Sequence[Sequence[str]],
    spare: int,
) -> dict[int, int]:
    """``widths`` with ``spare`` cells shared out among the columns narrower than their natural width,
    none beyond it: to the names and free text first, a few cells at a time to the column that saves
    the most lines (over at most :data:`_SAMPLE` rows), evenly once none saves any; then to the
    headers of codes and numbers."""
    body = [i for i in widths if columns[i].breaks]
    sample = rows if len(rows) <= _SAMPLE else [rows[k * len(rows) // _SAMPLE] for k in range(_SAMPLE)]
    lines = {i: _lines(sample, i, columns[i], widths[i]) for i in widths}
    step = max(1, spare // 8)
    while spare > 0:
        wanting = [i for i in body if widths[i] < natural[i]]
        best, saved, trial = -1, 0, []
        for i in wanting:
            tried = _lines(sample, i, columns[i], min(natural[i], widths[i] + step, widths[i] + spare))
            gain = _height(lines) - _height(lines | {i: tried})
            if gain > saved:
                best, saved, trial = i, gain, tried
        if best < 0:
            break
        add = min(natural[best] - widths[best], step, spare)
        widths[best], spare, lines[best] = widths[best] + add, spare - add, trial
    for group in (body, [i for i in widths if i not in body]):
        spare = _share(group, widths, natural, spare)
    return widths


def _share(group: Sequence[int], widths: dict[int, int], natural: dict[int, int], spare: int) -> int:
    """Share ``spare`` cells evenly among the columns of ``group`` narrower than their natural width,
    none beyond it; the cells left."""
    wanting = [i for i in group if widths[i] < natural[i]]
    while spare > 0 and wanting:
        share = max(1, spare // len(wanting))
        for i in list(wanting):
            add = min(share, natural[i] - widths[i], spare)
            widths[i] += add
            spare -= add
            if widths[i] >= natural[i]:
                wanting.remove(i)
    return spare


def _lines(rows: Sequence[Sequence[str]], i: int, column: Column, width: int) -> list[int]:
    """The lines each cell of column ``i`` of ``rows`` takes at ``width`` cells."""
    if not column.breaks:
        return [r[i].count("\n") + 1 for r in rows]
    return [len(wrap(r[i], width, column.paths)) for r in rows]


def _height(lines: dict[int, list[int]]) -> int:
    """The lines all rows take: each row as many as its tallest cell."""
    return sum(max(cells) for cells in zip(*lines.values(), strict=True)) if lines else 0


def column_texts(values: pd.Series[Any] | pa.Array | pa.ChunkedArray, signed: bool = False) -> list[str]:
    """A column's cells as text: numbers with two decimals when any of them has a fraction (else
    whole), signed when ``signed``; booleans yes/no; missing values blank. The column is a pandas
    series or an Arrow array (read without pandas)."""
    if hasattr(values, "to_pylist"):  # (an Arrow column)
        import pyarrow as pa

        kind, items = values.type, values.to_pylist()
        if pa.types.is_boolean(kind):
            return [yes_no(bool(v)) for v in items]
        if pa.types.is_integer(kind) or pa.types.is_floating(kind):
            return _number_texts([float("nan") if v is None else float(v) for v in items], signed)
        return ["" if v is None else str(v) for v in items]
    import pandas as pd

    if pd.api.types.is_bool_dtype(values):
        return [yes_no(bool(v)) for v in values]
    if not is_numeric(values):
        return [cell_text(v) for v in values]
    return _number_texts([float("nan") if missing(v) else float(v) for v in values], signed)


def _number_texts(numbers: list[float], signed: bool) -> list[str]:
    """Numbers as :func:`column_texts` writes them (NaN: blank)."""
    places = 2 if any(round(v, 2) != round(v) for v in numbers if v == v) else 0
    spec = f"{'+' if signed else ''}.{places}f"
    return ["" if v != v else unsigned_zero(f"{v:{spec}}") for v in numbers]


def unsigned_zero(text: str) -> str:
    """``+0``, ``-0``, ``+0.00`` and ``-0.00`` as ``0``."""
    return "0" if text.lstrip("+-").strip("0.") == "" else text


def is_numeric(values: pd.Series[Any]) -> bool:
    import pandas as pd

    return bool(pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values))


def cell_text(value: Any) -> str:
    """``value`` as a cell: booleans yes/no, missing values blank."""
    import pandas as pd

    if isinstance(value, bool):
        return yes_no(value)
    return (
        ""
        if value is None or value is pd.NaT or (isinstance(value, float) and value != value)
        else str(value)
    )


def missing(value: Any) -> bool:
    """Whether the one value ``value`` is missing: None, NaN, NaT or pandas' NA (:func:`pandas.isna`)."""
    import pandas as pd

    return bool(pd.isna(value))
