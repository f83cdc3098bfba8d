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

import dataclasses
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.cells import cell_len

from pipeline.cli.common import ConfigOpt, Format, FormatOpt, OutOpt, WideOpt, console, fail, output_folder
from pipeline.cli.tables import Column, cell_text, missing, print_fitted, print_frame
from pipeline.cli.wrapping import hanging
from pipeline.core.i18n import N_, _, ngettext
from pipeline.reports.numbers import NumberFormat, number_format

if TYPE_CHECKING:
    import pandas as pd

    from pipeline.output.snapshots import Kept
    from pipeline.reports import diff as diff_mod

Row = Mapping[Hashable, Any]  # a DataFrame row as a dict

#: The changes table's columns (the values of :func:`_change_cells`, in order).
CHANGES_TABLE = (
    Column(N_("period")),
    Column(N_("player"), names=True),
    Column(N_("change"), drop=4),
    Column(N_("rating")),
    Column(N_("rank"), drop=3),
    Column(N_("place"), drop=2),
    Column(N_("cause"), wrap=True, least=20),  # "cascade from 2024-05" on one line
    Column(N_("files"), wrap=True, paths=True, drop=5),
)
FILES_TABLE = (
    Column(N_("file"), wrap=True, paths=True),
    Column(N_("change")),
    Column(N_("games"), right=True),
    Column(N_("counted"), right=True, drop=1),
    Column(N_("periods"), wrap=True),
)
GENERATIONS_TABLE = (
    Column(N_("generation")),
    Column(N_("written (UTC)")),
    Column(N_("current")),
    Column(N_("rules"), drop=2),
    Column(N_("games"), right=True, drop=3),
    Column(N_("periods"), drop=1),
    Column(N_("replayed"), right=True, drop=4),
)
#: A changed row's or file's ``change`` in words (the data keep the English).
_CHANGE_WORDS = {
    "added": N_("added"),
    "removed": N_("removed"),
    "corrected": N_("corrected"),
    "re-parsed": N_("re-parsed"),
    "changed": N_("changed"),
}


def translated(columns: Sequence[Column]) -> list[Column]:
    """``columns`` with their headers in the language spoken."""
    return [dataclasses.replace(c, name=_(c.name)) for c in columns]


def change_word(change: str) -> str:
    """A ``change`` value (added, removed, corrected, re-parsed) in the language spoken."""
    return _(_CHANGE_WORDS[change]) if change in _CHANGE_WORDS else change


_SHOWN_FILES = 10  # changed files named above the table (--files lists them all)


def diff_command(
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="GENERATION",
            help=N_(
                "A kept generation (its id, or a date or time: the latest written at or before it; "
                "default: the one before the current)"
            ),
        ),
    ] = None,
    listed: Annotated[bool, typer.Option("--list", help=N_("List the kept generations and exit"))] = False,
    files: Annotated[
        bool, typer.Option("--files", help=N_("List the changed files, not the players"))
    ] = False,
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

    say(_("before: {generation}").format(generation=_named(found.before)))
    say(_("after:  {generation}").format(generation=_named(found.after)))
    if found.causes:
        from pipeline.reports.diff.causes import in_words

        say(
            _("run-wide (a cause of every change): {causes}").format(causes=in_words("; ".join(found.causes)))
        )
    if files:
        rows = [_file_cells(r) for r in found.files.to_dict("records")]
        title = ngettext("{n} changed file", "{n} changed files", len(rows)).format(n=len(rows))
        print_fitted(title, translated(FILES_TABLE), rows, wide)
        return
    for row in found.files.head(_SHOWN_FILES).to_dict("records"):
        said = _("file {change}: {path} ({games})")
        say(said.format(change=change_word(row["change"]), path=row["source_path"], games=_games(row)))
    if len(found.files) > _SHOWN_FILES:
        more = len(found.files) - _SHOWN_FILES
        said = ngettext(
            "... and {n} more file (--files lists them)", "... and {n} more files (--files lists them)", more
        )
        shown.print(said.format(n=more), markup=False)
    if found.changes.empty:
        shown.print(_("nothing changed: every rating, rank and place is as it was"))
        return
    from pipeline.reports import run_rule_set

    written = number_format(run_rule_set(found.after.path))
    rows = [_change_cells(r, found.causes, written) for r in found.changes.to_dict("records")]
    columns = [i for i in range(len(CHANGES_TABLE)) if any(r[i] for r in rows)]
    title = ngettext(
        "{n} change to ratings, ranks or places", "{n} changes to ratings, ranks or places", len(rows)
    ).format(n=len(rows))
    cells = [[r[i] for i in columns] for r in rows]  # no empty column (change, files), however wide
    print_fitted(title, translated([CHANGES_TABLE[i] for i in columns]), cells, wide)


def _named(kept: Kept) -> str:
    written = kept.written.isoformat() if kept.written else _("no time")
    if kept.current:
        return _("{id} ({written}, current)").format(id=kept.id, written=written)
    return _("{id} ({written})").format(id=kept.id, written=written)


def _games(row: Row) -> str:
    games = ngettext("{n} game, {counted} counted", "{n} games, {counted} counted", int(row["games"]))
    games = games.format(n=row["games"], counted=row["counted"])
    return _("{games}; {periods}").format(games=games, periods=row["periods"]) if row["periods"] else games


def _change_cells(row: Row, run_wide: list[str], written: NumberFormat) -> list[str]:
    """period, player, change (blank for changed), rating, rank, place, cause (the period's own when it
    has one: the run-wide causes are said above the table), files."""
    from pipeline.reports.diff.causes import in_words

    change = "" if row["change"] == "changed" else change_word(row["change"])
    own = [c for c in row["cause"].split("; ") if c not in run_wide]
    cause = in_words("; ".join(own) if own else row["cause"])
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
    return [
        row["source_path"],
        change_word(row["change"]),
        str(row["games"]),
        str(row["counted"]),
        row["periods"],
    ]


def _show_generations(frame: pd.DataFrame, fmt: Format, wide: bool) -> None:
    if fmt is not Format.table:
        print_frame(frame, fmt)
        return
    rows = [_generation_cells(r) for r in frame.to_dict("records")]
    title = ngettext("{n} kept generation, oldest first", "{n} kept generations, oldest first", len(rows))
    print_fitted(title.format(n=len(rows)), translated(GENERATIONS_TABLE), rows, wide)


def _generation_cells(row: Row) -> list[str]:
    """id, written (UTC, without the offset), current, rule set, games, periods, replayed."""
    written = cell_text(row["written"]).replace("T", " ").removesuffix("+00:00")
    cells = [cell_text(row[k]) for k in ("rule_set", "games", "periods", "replayed")]
    return [row["id"], written, _("yes") if row["current"] else "", *cells]
