"""cli.reports: the ``ratings audit`` and ``ratings show`` commands, over :mod:`pipeline.reports`.

Two typer command functions, registered by :mod:`pipeline.cli`. They turn options into a query and
print the DataFrame it returns: a table fitted to the terminal (:func:`pipeline.cli.tables.fitted`;
ratings and changes as the run's rule set writes them, :mod:`pipeline.reports.numbers`; the standings'
table is :mod:`pipeline.cli.standings`), or every column in
full as CSV or JSON (``--format``); they map :class:`~pipeline.reports.ReportError` to exit status 2.
The audit's cells, points and changes are made a column at a time (:mod:`pipeline.cli.audit_cells`,
from the query's rows with their changes by column: :func:`pipeline.reports.audit_query.audit_rows`).
Knows nothing of how the output folder is laid out or read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.cells import cell_len

from pipeline import reports
from pipeline.cli import boards, progress
from pipeline.cli.common import (
    ConfigOpt,
    Format,
    FormatOpt,
    OutOpt,
    PeriodOpt,
    PlayerOpt,
    TopOpt,
    WideOpt,
    console,
    fail,
    output_folder,
    roster_of,
    worded,
)
from pipeline.cli.standings import AllOpt, DateOpt, parse_day, print_standings, show_day
from pipeline.cli.tables import (
    Column,
    cell_text,
    column_texts,
    is_numeric,
    print_columns,
    print_fitted,
    print_frame,
)
from pipeline.core import i18n
from pipeline.core.i18n import N_, _, ngettext
from pipeline.reports.numbers import number_format
from pipeline.reports.rule_words import column_words

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa


#: The audit table's columns (the values of :func:`pipeline.cli.audit_cells.audit_cells`, in order).
AUDIT_TABLE = (
    Column(N_("date")),
    Column(N_("game"), drop=5),
    Column(N_("period"), wide=True),
    Column(N_("black"), names=True),
    Column(N_("white"), names=True),
    Column(N_("result"), wrap=True, drop=2),
    Column(N_("speed"), wrap=True, drop=4),
    Column(N_("event/stage"), wrap=True, drop=6),
    Column(N_("counted"), drop=3),  # the reasons (an excluded game has one at least) and the points say it
    Column(N_("reasons"), wrap=True, paths=True),
    Column(N_("points"), wrap=True, drop=1),  # last to leave: long paths of unreadable records
    Column(N_("source"), wrap=True, paths=True, wide=True),
)
#: ``--reason``'s help: the reason codes (:data:`pipeline.core.reasons.REASONS`, a test checks it).
REASON_HELP = N_(
    "Reason code, repeatable or comma-separated (any of them applies): parse_error, wrong_game_type, "
    "missing_date, no_result, draw, no_show, handicap, unknown_player, non_member, self_play, duplicate, "
    "opponent_cap"
)
#: ``--report``'s help: the reports and their rule sets (:data:`pipeline.reports.REPORT_RULE_SETS`, a
#: test checks it).
REPORT_HELP = N_(
    "Show a report table of the run instead: certification (hkga); fees (hkga, tga); promotions (cga-dan, "
    "tga); leaderboards (every rule set, of --period and its year)"
)
#: Each report's name as its table's title shows it.
REPORT_NAMES = {
    "certification": N_("certification"),
    "fees": N_("fees"),
    "promotions": N_("promotions"),
}
#: The report tables' headers, by the report column each shows (the column's own name otherwise).
REPORT_HEADERS = {
    "player": N_("player"),
    "year": N_("year"),
    "rated_games": N_("rated games"),
    "fee": N_("fee"),
    "basis": N_("basis"),
    "valid_wins": N_("valid wins"),
    "eligible": N_("eligible"),
    "first_eligible_date": N_("eligible since"),
    "date": N_("date"),
    "game_id": N_("game"),
    "rule": N_("rule"),
    "from_rank": N_("from"),
    "to_rank": N_("to"),
    "evidence": N_("evidence"),
    "event": N_("event"),
    "value": N_("value"),
    "threshold": N_("threshold"),
    "games": N_("games"),
    "period": N_("period"),
}
#: Report columns a narrow terminal does without first (the evidence and the date say them), by order.
_REPORT_DROPS = {"period": 5, "event": 4, "threshold": 3, "value": 3, "games": 2}


def audit_command(
    player: PlayerOpt = None,
    period: PeriodOpt = None,
    reason: Annotated[
        list[str] | None,
        typer.Option(
            "--reason",
            metavar="CODE",
            help=REASON_HELP,
        ),
    ] = None,
    counted: Annotated[bool, typer.Option("--counted", help=N_("Only the games that counted"))] = False,
    excluded: Annotated[bool, typer.Option("--excluded", help=N_("Only the games not counted"))] = False,
    fmt: FormatOpt = Format.table,
    wide: WideOpt = False,
    out: OutOpt = None,
    config: ConfigOpt = None,
) -> None:
    """List game records, counted or not, with the reasons and the points each player got.

    Filters combine; with none, every record is listed. --reason CODE also finds games counted although
    the rule applies (when the configuration counts them). Points: the change each player's rating took
    from the game, bonus included (shown in brackets). The table shows the columns that fit the terminal
    (--wide: every column, with the game's file); --format csv or json gives every column in full.

    Example: ratings audit --player 羽焰 --period 2024-05
    Example: ratings audit --reason draw,handicap --excluded --format csv
    """
    if counted and excluded:
        fail(_("--counted and --excluded exclude each other: give one"), 2)
    folder = output_folder(out, config)
    codes = [code.strip() for given in reason or () for code in given.split(",") if code.strip()]
    from pipeline.cli import audit_cells
    from pipeline.reports.audit_query import audit_rows

    try:
        with progress.shown() as steps, steps.step(_("reading the games")):
            rows = audit_rows(
                folder,
                player=player,
                period=period,
                reasons=codes or None,
                counted=True if counted else False if excluded else None,
                roster=roster_of(out, config) if player is not None else None,
            )
    except reports.ReportError as e:
        fail(str(e), 2)
    if fmt is not Format.table:
        written = number_format(reports.run_rule_set(folder))
        print_columns(*audit_cells.audit_columns(rows, written, fmt is Format.json), fmt)
        return
    filters = {"player": player, "period": period, "reason": ",".join(codes) or None}
    title = _title(
        _("audit: {out}"),
        folder,
        counted="" if counted else None,
        excluded="" if excluded else None,
        **filters,
    )
    written = number_format(reports.run_rule_set(folder))
    pairs = set(audit_cells.change_texts(rows.changes.table, written, bonus=False).to_pylist())
    least = max((cell_len(p) for p in pairs), default=1)
    columns = [replace(c, least=least) if c.name == "points" else c for c in AUDIT_TABLE]
    cells = audit_cells.audit_cells(rows, written, _error_kinds(folder, rows.games))
    if counted or excluded:  # every row says the same, and the title says it
        shown = [i for i, c in enumerate(columns) if c.name != "counted"]
        columns, cells = [columns[i] for i in shown], [[r[i] for i in shown] for r in cells]
    print_fitted(title, columns, cells, wide)
    n, counted_games = rows.games.num_rows, rows.counted()
    summary = ngettext("{n} game, {counted} counted", "{n} games, {counted} counted", n)
    console().print(summary.format(n=n, counted=counted_games), markup=False)


def show_command(
    period: PeriodOpt = None,
    date: DateOpt = None,
    top: TopOpt = None,
    report: Annotated[
        str | None,
        typer.Option(
            "--report",
            metavar="NAME",
            help=REPORT_HELP,
        ),
    ] = None,
    fmt: FormatOpt = Format.table,
    wide: WideOpt = False,
    everyone: AllOpt = False,
    out: OutOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Show the standings at the end of a period (default: the latest), best rating first.

    With --date YYYY-MM-DD, the standings on that day. Inside a period they are the period's games up to
    and including that day: each player's rating at the period's start plus the changes and awards
    dated up to it, ranks as at the period's start (ranks move at a period's end). That needs the
    period's ratings to be exactly such a sum, which the run's own tables are checked for (club points;
    GoR and Elo unless an event's changes land in a later period). When they are not (tga and cga-dan
    ratings come from ranks and averages), part of a period cannot be replayed from the stored tables:
    the standings are those at the end of the last period over by that day, with a note saying so. A
    day after the last period gives its standings.

    Players with fewer counted games (all periods) than the run's [output] provisional_games are marked
    * as provisional; they are not on the leaderboards. With [output] active_within set, only the
    players with a counted game within that span before the period's end are listed (and placed); --all
    lists the others too, marked ~, with the day they became inactive. With --report NAME, show instead
    a table the run's rule set wrote, every year at once: promotions (cga-dan, tga), fees (hkga, tga) or
    certification (hkga); or, under every rule set, the leaderboards (games, wins, win rate, longest
    winning streak) of --period (default: the latest) and of its year. The table shows the columns that
    fit the terminal, ratings as the rule set writes them (docs/rules.md, "Numbers"; --wide: every
    column); --format csv or json gives every column with its full value.

    Example: ratings show --period 2024-05 --top 10
    Example: ratings show --date 2024-06-15
    Example: ratings show --all
    Example: ratings show --report fees --format csv
    Example: ratings show --report leaderboards --period 2024-05
    """
    folder = output_folder(out, config)
    if report is not None and everyone:
        fail(_("--all does not apply to --report {report}").format(report=report), 2)
    if report == boards.NAME:
        if date is not None:
            fail(_("--date does not apply to --report {report} (use --period)").format(report=report), 2)
        boards.show_boards(folder, period, top, fmt, wide)
        return
    if report is not None:
        if date is not None:
            fail(
                _("--date does not apply to --report {report} (the table covers the whole run)").format(
                    report=report
                ),
                2,
            )
        _show_report(folder, report, period, top, fmt, wide)
        return
    if date is not None:
        if period is not None:
            fail(_("--period and --date exclude each other: give one"), 2)
        show_day(folder, parse_day(date), top, fmt, wide, everyone)
        return
    from pipeline.reports.asof import frame
    from pipeline.reports.queries import standings_rows

    try:
        rows, inactive = standings_rows(folder, period=period, top=top, everyone=everyone)
        rated = reports.rated_periods(folder)
    except reports.ReportError as e:
        fail(str(e), 2)
    if fmt is not Format.table:
        print_frame(frame(rows, inactive), fmt)
        return
    shown = period or (rated[-1] if rated else None)
    if shown is None:
        console().print(_("no rated period in {out}: no game was counted").format(out=folder), markup=False)
        return
    title = _("standings {period}: {out}").format(period=shown, out=folder)
    print_standings(title, rows, folder, wide, inactive or 0)


def _show_report(out: Path, name: str, period: str | None, top: int | None, fmt: Format, wide: bool) -> None:
    """Print the report table ``name`` of ``out`` (no rows when the run's rule set computes none: the
    same table under every rule set, saying so); exit 2 if --period was given."""
    if period is not None:
        fail(
            _("--period does not apply to --report {report} (the table covers the whole run)").format(
                report=name
            ),
            2,
        )
    try:
        frame = reports.rule_set_report(out, name, top=top)
    except reports.ReportError as e:
        fail(str(e), 2)
    if fmt is not Format.table:
        print_frame(frame, fmt)
        return
    texts = {c: _report_texts(str(c), frame) for c in frame.columns}
    columns = [_report_column(str(c), texts[c], is_numeric(frame[c])) for c in frame.columns]
    rows = list(zip(*texts.values(), strict=True)) if len(frame) else []
    print_fitted(_("{report}: {out}").format(report=_report_name(name), out=out), columns, rows, wide)
    rows_shown = ngettext("{n} row", "{n} rows", len(frame)).format(n=len(frame))
    console().print(rows_shown + _why_empty(out, name, frame), markup=False)


def _why_empty(out: Path, name: str, frame: pd.DataFrame) -> str:
    """Why a report has no rows, when the run's rule set computes no such report; else nothing."""
    rule_set, writers = reports.run_rule_set(out), reports.REPORT_RULE_SETS[name]
    if len(frame) or rule_set in writers:
        return ""
    return _(": the run's rule set ({rule_set}) computes no {report} report ({writers} do)").format(
        rule_set=rule_set, report=_report_name(name), writers=", ".join(writers)
    )


def _report_column(name: str, texts: Sequence[str], numeric: bool) -> Column:
    """A report table's column: numbers right-aligned; text with spaces may wrap (names, dates and
    ranks do not); the game id only with --wide; the columns of :data:`_REPORT_DROPS` leave a narrow
    terminal first."""
    wrap = not numeric and name != "player" and any(" " in t for t in texts)
    drop = _REPORT_DROPS.get(name, 0)
    header = worded(name, REPORT_HEADERS)
    return Column(header, wrap=wrap, right=numeric, drop=drop, wide=name == "game_id", names=name == "player")


def _error_kinds(out: Path, games: pa.Table) -> dict[str, str]:
    """The ``error_kind`` of each unreadable record of ``games`` (audit rows), by game id (for the table
    in a language other than English, where the parser's English message is not shown)."""
    from pipeline.reports.audit_query import error_kinds

    return {} if i18n.current() == i18n.ENGLISH else error_kinds(out, games)


def _report_name(name: str) -> str:
    """A report's name as a title shows it (the name ``--report`` takes, in English)."""
    return i18n.gettext(REPORT_NAMES[name]) if name in REPORT_NAMES else name


def _report_texts(column: str, frame: pd.DataFrame) -> list[str]:
    """A report column's cells: what the rule sets write in words (a promotion's rule and evidence, a
    fee's basis) in the language spoken (:func:`pipeline.reports.rule_words.column_words`), the rest
    as :func:`pipeline.cli.tables.column_texts` writes them."""
    words = column_words(frame, column)
    return column_texts(frame[column]) if words is None else [cell_text(v) for v in words]


def _title(title: str, out: Path, **filters: str | None) -> str:
    given = " ".join(f"--{k} {v}".rstrip() for k, v in filters.items() if v is not None)
    return title.format(out=out) + (f" ({given})" if given else "")
