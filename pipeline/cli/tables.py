"""cli.tables: listings as the terminal or a script wants them.

:func:`fitted` builds a rich table that fits the terminal's width: columns leave in a set order rather
than a name or a number being cut to an ellipsis (CJK characters count two cells), free text wraps;
:func:`print_fitted` prints one; :func:`print_frame` writes a frame as CSV or JSON for scripts, every
value in full. Knows nothing of what the rows mean. Imports pandas only when it is given a frame to
print (the command modules import this one to declare their columns).
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer
from rich.cells import cell_len
from rich.console import JustifyMethod
from rich.table import Table

from pipeline.cli.common import Format, console

if TYPE_CHECKING:
    import pandas as pd

_FOLD_FROM = 24  # a word of free text wider than this may be folded rather than widen its column
_NARROW = 8  # the narrowest a free-text column gets, folding its longer words, when nothing else fits


def print_frame(frame: pd.DataFrame, fmt: Format) -> None:
    """``frame`` on standard output as CSV (lists joined by ``;``) or as a JSON array of objects (lists
    and dicts as they are); every value in full, missing values empty (CSV) or null (JSON)."""
    import pandas as pd

    records = [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict("records")]
    if fmt is Format.json:
        typer.echo(json.dumps(records, ensure_ascii=False, indent=1))
        return
    flat = pd.DataFrame([{k: _csv_cell(v) for k, v in r.items()} for r in records], columns=frame.columns)
    typer.echo(flat.to_csv(index=False), nl=False)


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
    """A column of a :func:`fitted` table: ``name`` its header; ``wrap`` True for free text that may
    wrap at spaces (False: names, numbers, dates, never broken); ``right`` aligned right; ``drop`` the
    order in which columns leave a table too wide for the terminal (0: never; the highest first);
    ``wide`` shown only with ``--wide``; ``least`` the narrowest a free-text column may be when it is
    not its longest word (the widest name-and-number pair it holds, say)."""

    name: str
    wrap: bool = False
    right: bool = False
    drop: int = 0
    wide: bool = False
    least: int | None = None


def fitted(
    title: str, columns: Sequence[Column], rows: Sequence[Sequence[str]], width: int, wide: bool
) -> Table:
    """A table of ``rows`` (one text per column; lines of a cell split at ``\\n``) that fits ``width``
    terminal cells (CJK characters count two) without cutting a name or a number.

    Empty columns leave first, then the droppable ones (highest ``drop`` first), until the names and
    numbers fit whole and each free-text column is as wide as its longest word; failing that, free
    text may fold long words (down to :data:`_NARROW` cells), and the last columns leave. Spare cells
    widen the free text. The caption names the columns left out. With ``wide`` every column stays at
    the width it needs, and the table may be wider than ``width``.
    """
    keep = [i for i, c in enumerate(columns) if wide or not c.wide]
    natural = {i: _widest(columns[i].name, (r[i] for r in rows), words=False) for i in keep}
    least = natural if wide else {i: _least(columns[i], natural[i], rows, i) for i in keep}
    if not wide:
        empty = {i for i in keep if not any(r[i] for r in rows)}
        leaving = sorted(
            (i for i in keep if columns[i].drop or i in empty),
            key=lambda i: (i not in empty, -columns[i].drop),
        )
        _drop_until_fit(keep, leaving, least, width)
        least = _narrowed(columns, keep, least, width)
        _drop_until_fit(keep, keep[:0:-1], least, width)
    widths = _widen({i: least[i] for i in keep}, natural, width - _needed(least, keep))
    table = Table(title=title)
    for i in keep:
        c = columns[i]
        justify: JustifyMethod = "right" if c.right else "left"
        table.add_column(c.name, justify=justify, width=widths[i], no_wrap=not c.wrap, overflow="fold")
    for row in rows:
        table.add_row(*(row[i] for i in keep))
    hidden = [
        c.name for i, c in enumerate(columns) if i not in keep and not c.wide and any(r[i] for r in rows)
    ]
    if hidden:
        table.caption = f"not shown: {', '.join(hidden)} (--wide shows every column)"
    return table


def print_fitted(title: str, columns: Sequence[Column], rows: Sequence[Sequence[str]], wide: bool) -> None:
    """Print a :func:`fitted` table (with ``wide``, as wide as it needs)."""
    width = console().width
    table = fitted(title, columns, rows, width, wide)
    console(max(width, table_width(table)) if wide else None).print(table)


def _narrowed(
    columns: Sequence[Column], keep: list[int], least: dict[int, int], width: int
) -> dict[int, int]:
    """``least`` with free-text columns narrowed to :data:`_NARROW` cells (folding their long words),
    one at a time, the widest plain text first and the columns with their own ``least`` last, until the
    ``keep`` columns fit ``width``."""
    narrowed = dict(least)
    order = sorted(
        (i for i in keep if columns[i].wrap), key=lambda i: (columns[i].least is not None, -least[i])
    )
    for i in order:
        if _needed(narrowed, keep) <= width:
            break
        narrowed[i] = min(narrowed[i], max(_NARROW, narrowed[i] - (_needed(narrowed, keep) - width)))
    return narrowed


def _drop_until_fit(keep: list[int], leaving: Sequence[int], least: dict[int, int], width: int) -> None:
    """Remove the columns of ``leaving`` from ``keep``, in order, until ``least`` widths fit ``width``."""
    for i in list(leaving):
        if _needed(least, keep) <= width or len(keep) == 1:
            return
        keep.remove(i)


def table_width(table: Table) -> int:
    """The cells a :func:`fitted` table takes: its columns' widths, their padding and the borders."""
    return sum(c.width or 0 for c in table.columns) + 3 * len(table.columns) + 1


def _widest(header: str, cells: Any, words: bool) -> int:
    """The widest line (or, with ``words``, the widest space-separated word) of ``header`` and ``cells``."""
    texts = [header, *cells]
    parts = (p for t in texts for line in t.split("\n") for p in (line.split(" ") if words else [line]))
    return max((cell_len(p) for p in parts), default=1) or 1


def _least(column: Column, natural: int, rows: Sequence[Sequence[str]], i: int) -> int:
    """The narrowest a column may be: as wide as it needs for names and numbers; for free text, its
    ``least``, else its longest word (at most :data:`_FOLD_FROM` cells, so that a long path folds
    rather than pushes other columns out)."""
    if not column.wrap:
        return natural
    if column.least is not None:
        return min(natural, column.least)
    return min(natural, _widest(column.name, (r[i] for r in rows), words=True), _FOLD_FROM)


def _needed(widths: dict[int, int], keep: Sequence[int]) -> int:
    return sum(widths[i] for i in keep) + 3 * len(keep) + 1


def _widen(widths: dict[int, int], natural: dict[int, int], spare: int) -> dict[int, int]:
    """``widths`` with ``spare`` cells shared out among the columns narrower than their natural width,
    evenly, none beyond its natural width."""
    wanting = [i for i in widths if widths[i] < natural[i]]
    while spare > 0 and wanting:
        share = max(1, spare // len(wanting))
        for i in list(wanting):
            add = min(share, natural[i] - widths[i], spare)
            widths[i] += add
            spare -= add
            if widths[i] >= natural[i]:
                wanting.remove(i)
    return widths


def column_texts(values: pd.Series[Any], signed: bool = False) -> list[str]:
    """A column's cells as text: numbers with two decimals when any of them has a fraction (else
    whole), signed when ``signed``; booleans yes/no; missing values blank."""
    import pandas as pd

    if pd.api.types.is_bool_dtype(values):
        return ["yes" if v else "no" for v in values]
    if not is_numeric(values):
        return [cell_text(v) for v in values]
    numbers = [float(v) for v in values]
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
        return "yes" if value else "no"
    return (
        ""
        if value is None or value is pd.NaT or (isinstance(value, float) and value != value)
        else str(value)
    )


def missing(value: Any) -> bool:
    """Whether the one value ``value`` is missing: None, NaN, NaT or pandas' NA (:func:`pandas.isna`)."""
    import pandas as pd

    return bool(pd.isna(value))
