"""cli.reports: the ``ratings audit`` and ``ratings show`` commands, rich tables over :mod:`pipeline.reports`.

Two typer command functions, registered by :mod:`pipeline.cli`. They turn options into a query,
render the DataFrame it returns, and map :class:`~pipeline.reports.ReportError` to exit status 2.
Knows nothing of how the output folder is laid out or read.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Annotated, Any

import pandas as pd
import typer
from rich.table import Table

from pipeline import reports
from pipeline.cli.common import ConfigOpt, OutOpt, PeriodOpt, console, fail, output_folder
from pipeline.rules.base import REASONS

Row = Mapping[Hashable, Any]  # a DataFrame row as a dict


def audit_command(
    player: Annotated[
        str | None, typer.Option("--player", help="Player name or alias (any case or width)")
    ] = None,
    period: PeriodOpt = None,
    reason: Annotated[str | None, typer.Option("--reason", help=f"Reason code: {', '.join(REASONS)}")] = None,
    out: OutOpt = None,
    config: ConfigOpt = None,
) -> None:
    """List game records, counted or not, with the reasons and the points each player got.

    Filters combine; with none, every record is listed. --reason CODE also finds games counted although
    the rule applies (when the configuration counts them). Points: the change each player's rating took
    from the game, bonus included (shown in brackets).

    Example: ratings audit --player 羽焰 --period 2024-05
    """
    out = output_folder(out, config)
    try:
        games = reports.audit_games(out, player=player, period=period, reason=reason)
    except reports.ReportError as e:
        fail(str(e), 2)
    shown = console()
    shown.print(audit_table(games, _title("audit", out, player=player, period=period, reason=reason)))
    shown.print(f"{len(games)} game{'' if len(games) == 1 else 's'}, {int(games['counted'].sum())} counted")


def show_command(
    period: PeriodOpt = None,
    top: Annotated[
        int | None, typer.Option("--top", min=1, help="Show only the first N players (rows with --report)")
    ] = None,
    report: Annotated[
        str | None,
        typer.Option(
            "--report",
            help=f"Show a rule set's report table instead: {', '.join(sorted(reports.REPORT_FILES))} (hkga)",
        ),
    ] = None,
    out: OutOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Show the standings at the end of a period (default: the latest), best rating first; or, with
    --report NAME, a table the run's rule set wrote (hkga: fees, certification; every year at once).

    Example: ratings show --period 2024-05 --top 10
    Example: ratings show --report fees
    """
    out = output_folder(out, config)
    if report is not None:
        _show_report(out, report, period, top)
        return
    try:
        table = reports.standings(out, period=period, top=top)
        rated = reports.rated_periods(out)
    except reports.ReportError as e:
        fail(str(e), 2)
    shown = period or (rated[-1] if rated else None)
    if shown is None:
        console().print(f"no rated period in {out}: no game was counted")
        return
    console().print(standings_table(table, f"standings {shown}: {out}"))


def _show_report(out: Path, name: str, period: str | None, top: int | None) -> None:
    """Print the report table ``name`` of ``out`` (exit 2 if it has none, or --period was given)."""
    if period is not None:
        fail(f"--period does not apply to --report {name} (the table covers the whole run)", 2)
    try:
        frame = reports.rule_set_report(out, name, top=top)
    except reports.ReportError as e:
        fail(str(e), 2)
    console().print(report_table(frame, f"{name}: {out}"))
    console().print(f"{len(frame)} row{'' if len(frame) == 1 else 's'}")


def report_table(frame: pd.DataFrame, title: str) -> Table:
    """One row per row of ``frame``, every column; numbers right-aligned, booleans yes/no, nulls blank."""
    table = Table(title=title)
    for name in frame.columns:
        numeric = pd.api.types.is_numeric_dtype(frame[name]) and not pd.api.types.is_bool_dtype(frame[name])
        table.add_column(str(name), justify="right" if numeric else "left")
    for row in frame.to_dict("records"):
        table.add_row(*(_report_cell(v) for v in row.values()))
    return table


def _report_cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None or value is pd.NaT else _text(value)


def audit_table(games: pd.DataFrame, title: str) -> Table:
    """One row per game of :func:`pipeline.reports.audit_games`."""
    table = Table(title=title)
    for name in ("date", "period", "black", "white", "result", "speed", "event/stage"):
        table.add_column(name)
    table.add_column("counted")
    table.add_column("reasons")
    table.add_column("points")
    for game in games.to_dict("records"):
        table.add_row(
            _text(game["date"]),
            _text(game["period"]),
            _text(game["black"]),
            _text(game["white"]),
            _text(game["result"]),
            _speed(game),
            _event(game),
            "yes" if game["counted"] else "no",
            _reasons(game),
            "\n".join(_points(c) for c in game["changes"]),
        )
    return table


def standings_table(standings: pd.DataFrame, title: str) -> Table:
    """One row per player of :func:`pipeline.reports.standings`; draws and bonus columns only when some
    row has them."""
    columns = ["place", "player", "rank", "rating", "delta", "games", "wins", "losses"]
    columns += [c for c in ("draws", "bonus") if (standings[c] != 0).any()]
    table = Table(title=title)
    for name in columns:
        table.add_column(name, justify="left" if name in ("player", "rank") else "right")
    for row in standings.to_dict("records"):
        table.add_row(*(_cell(name, row) for name in columns))
    return table


def _cell(name: str, row: Row) -> str:
    value = row[name]
    if name == "bonus":
        return _signed(value) if value else ""
    if name == "delta":
        return _signed(value)
    if name == "rating":
        return _number(value)
    if name == "rank" and row["rank_before"] not in (None, value):
        return f"{value} (was {row['rank_before']})"
    return _text(value)


def _speed(game: Row) -> str:
    if not isinstance(game["speed"], str):
        return ""
    return game["speed"] if game["speed_known"] else f"{game['speed']} (assumed)"


def _event(game: Row) -> str:
    if not isinstance(game["event"], str):
        return ""
    stage = f" / {game['stage']}" if isinstance(game["stage"], str) else ""
    return f"{game['event']}{stage}" if game["event_listed"] else f"{game['event']} (not an event of the run)"


def _reasons(game: Row) -> str:
    lines = list(game["reasons"])
    if isinstance(game["parse_error"], str):
        lines = [f"parse_error: {game['parse_error']} ({game['source']})"]
    lines += [f"note: {n}" for n in game["notes"]]
    return "\n".join(lines)


def _points(change: dict[str, Any]) -> str:
    """``羽焰 +30`` or, with a bonus, ``羽焰 +30 (+10 team match win)``."""
    text = f"{change['player']} {_signed(change['delta'])}"
    if change["bonus"]:
        text += f" ({_signed(change['bonus'])} {change['bonus_rule'] or 'bonus'})"
    return text


def _signed(value: float) -> str:
    """``+30``, ``-5``, ``0``."""
    text = _number(value)
    return text if text == "0" or text.startswith("-") else f"+{text}"


def _number(value: float) -> str:
    """At most two decimals, trailing zeros dropped: 30, -0.5, 128.25."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _text(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)


def _title(command: str, out: Path, **filters: str | None) -> str:
    given = " ".join(f"--{k} {v}" for k, v in filters.items() if v is not None)
    return f"{command}: {out}" + (f" ({given})" if given else "")
