"""cli.diff: the ``ratings diff`` command, rendering :func:`pipeline.reports.diff.diff` and
:func:`~pipeline.reports.diff.generations`.

Turns the options into a comparison of two kept generations and prints it: the two generations, the
run-wide causes and the changed files, then a table of the changed ratings, ranks and places fitted to
the terminal (:func:`pipeline.cli.tables.fitted`), or every column as CSV or JSON (``--format``);
``--files`` lists the changed files instead, ``--list`` the kept generations. Maps
:class:`~pipeline.reports.ReportError` (an unknown generation, none to compare with) to exit status 2.
Knows nothing of how the causes are found (:mod:`pipeline.reports.diff`, imported when the command runs).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.cells import cell_len

from pipeline.cli.common import ConfigOpt, Format, FormatOpt, OutOpt, WideOpt, console, fail, output_folder
from pipeline.cli.tables import Column, cell_text, missing, print_fitted, print_frame
from pipeline.cli.wrapping import hanging
from pipeline.reports.numbers import NumberFormat, number_format

if TYPE_CHECKING:
    import pandas as pd

    from pipeline.output.snapshots import Kept
    from pipeline.reports import diff as diff_mod

Row = Mapping[Hashable, Any]  # a DataFrame row as a dict

#: The changes table's columns (the values of :func:`_change_cells`, in order).
CHANGES_TABLE = (
    Column("period"),
    Column("player", names=True),
    Column("change", drop=4),
    Column("rating"),
    Column("rank", drop=3),
    Column("place", drop=2),
    Column("cause", wrap=True, least=20),  # "cascade from 2024-05" on one line
    Column("files", wrap=True, paths=True, drop=5),
)
FILES_TABLE = (
    Column("file", wrap=True, paths=True),
    Column("change"),
    Column("games", right=True),
    Column("counted", right=True, drop=1),
    Column("periods", wrap=True),
)
GENERATIONS_TABLE = (
    Column("generation"),
    Column("written (UTC)"),
    Column("current"),
    Column("rules", drop=2),
    Column("games", right=True, drop=3),
    Column("periods", drop=1),
    Column("replayed", right=True, drop=4),
)
_SHOWN_FILES = 10  # changed files named above the table (--files lists them all)


def diff_command(
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="GENERATION",
            help="A kept generation (its id, or a date or time: the latest written at or before it; "
            "default: the one before the current)",
        ),
    ] = None,
    listed: Annotated[bool, typer.Option("--list", help="List the kept generations and exit")] = False,
    files: Annotated[bool, typer.Option("--files", help="List the changed files, not the players")] = False,
    fmt: FormatOpt = Format.table,
    wide: WideOpt = False,
    out: OutOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Show what the last run changed, and why: every player whose rating, rank or place changed in any
    period (or who was added or removed), before and after, with the cause.

    Causes: new games in the period; a late record for an earlier period, and "cascade from P" in the
    periods after it; a removed or corrected file; a roster, events or configuration change; a parser
    change. Compares the current generation with the one before it, or with --since GENERATION: an id
    from --list (or its first digits), or a date (2026-11-30, its midnight) or time (2026-11-30T22:00,
    UTC unless an offset is given) naming the latest generation written at or before it. A run keeps the
    current generation and the two before it ([output] keep_generations).

    Example: ratings diff
    Example: ratings diff --since 2026-11-30 --format csv
    Example: ratings diff --list
    """
    from pipeline.reports import ReportError
    from pipeline.reports import diff as diff_mod

    folder = output_folder(out, config)
    try:
        if listed:
            _show_generations(diff_mod.generations(folder), fmt, wide)
            return
        found = diff_mod.diff(folder, since)
    except ReportError as e:
        fail(str(e), 2)
    if fmt is not Format.table:
        print_frame(found.files if files else found.changes, fmt)
        return
    render(found, files, wide)


def render(found: diff_mod.Diff, files: bool, wide: bool) -> None:
    """Print the two generations, the run-wide causes, the changed files, then the changes table (or,
    with ``files``, the files table)."""
    shown = console()

    def say(text: str) -> None:  # a line of the terminal's width at most, broken at spaces and slashes
        for line in [text] if cell_len(text) <= shown.width else hanging(text, shown.width, 0, 2, paths=True):
            shown.print(line, soft_wrap=True, markup=False, highlight=False)

    say(f"before: {_named(found.before)}")
    say(f"after:  {_named(found.after)}")
    if found.causes:
        say(f"run-wide (a cause of every change): {'; '.join(found.causes)}")
    if files:
        rows = [_file_cells(r) for r in found.files.to_dict("records")]
        print_fitted(f"{len(rows)} changed files", FILES_TABLE, rows, wide)
        return
    for row in found.files.head(_SHOWN_FILES).to_dict("records"):
        say(f"file {row['change']}: {row['source_path']} ({_games(row)})")
    if len(found.files) > _SHOWN_FILES:
        shown.print(f"... and {len(found.files) - _SHOWN_FILES} more files (--files lists them)")
    if found.changes.empty:
        shown.print("nothing changed: every rating, rank and place is as it was")
        return
    from pipeline.reports import run_rule_set

    written = number_format(run_rule_set(found.after.path))
    rows = [_change_cells(r, found.causes, written) for r in found.changes.to_dict("records")]
    columns = [i for i in range(len(CHANGES_TABLE)) if any(r[i] for r in rows)]
    title = f"{len(rows)} change{'' if len(rows) == 1 else 's'} to ratings, ranks or places"
    cells = [[r[i] for i in columns] for r in rows]  # no empty column (change, files), however wide
    print_fitted(title, [CHANGES_TABLE[i] for i in columns], cells, wide)


def _named(kept: Kept) -> str:
    written = kept.written.isoformat() if kept.written else "no time"
    return f"{kept.id} ({written}{', current' if kept.current else ''})"


def _games(row: Row) -> str:
    games = f"{row['games']} game{'' if row['games'] == 1 else 's'}, {row['counted']} counted"
    return f"{games}; {row['periods']}" if row["periods"] else games


def _change_cells(row: Row, run_wide: list[str], written: NumberFormat) -> list[str]:
    """period, player, change (blank for changed), rating, rank, place, cause (the period's own when it
    has one: the run-wide causes are said above the table), files."""
    change = "" if row["change"] == "changed" else row["change"]
    own = [c for c in row["cause"].split("; ") if c not in run_wide]
    cause = "; ".join(own) if own else row["cause"]
    rating = _moved(*(written.rating(_float(row[k])) for k in ("old_rating", "new_rating")))
    rank = _moved(cell_text(row["old_rank"]), cell_text(row["new_rank"]))
    place = _moved(cell_text(row["old_place"]), cell_text(row["new_place"]))
    return [row["period"], row["player"], change, rating, rank, place, cause, row["files"]]


def _moved(old: str, new: str) -> str:
    """``old→new`` (no spaces: the table fits 80 columns); one of them when they are equal or the
    other is missing."""
    return old if old == new or not new else new if not old else f"{old}→{new}"


def _float(value: Any) -> float | None:
    return None if missing(value) else float(value)


def _file_cells(row: Row) -> list[str]:
    return [row["source_path"], row["change"], str(row["games"]), str(row["counted"]), row["periods"]]


def _show_generations(frame: pd.DataFrame, fmt: Format, wide: bool) -> None:
    if fmt is not Format.table:
        print_frame(frame, fmt)
        return
    rows = [_generation_cells(r) for r in frame.to_dict("records")]
    title = f"{len(rows)} kept generation{'' if len(rows) == 1 else 's'}, oldest first"
    print_fitted(title, GENERATIONS_TABLE, rows, wide)


def _generation_cells(row: Row) -> list[str]:
    """id, written (UTC, without the offset), current, rule set, games, periods, replayed."""
    written = cell_text(row["written"]).replace("T", " ").removesuffix("+00:00")
    cells = [cell_text(row[k]) for k in ("rule_set", "games", "periods", "replayed")]
    return [row["id"], written, "yes" if row["current"] else "", *cells]
