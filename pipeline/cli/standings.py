"""cli.standings: the standings as ``ratings show`` prints them, at a period's end or on a day.

The table's columns (:data:`STANDINGS_TABLE`), their texts (a provisional player's name marked
:data:`PROVISIONAL_MARK`, an inactive one's :data:`INACTIVE_MARK`, each with a legend under the table;
under a rule set with a deviation the rating written ``rating ± 2·deviation``, with a legend too), the
``--all`` and ``--date`` options and how a day is read, and what is printed when there are no standings
on a day. Knows nothing of how the standings are
computed (:mod:`pipeline.reports`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from pipeline import reports
from pipeline.cli.common import Format, console, fail
from pipeline.cli.tables import Column, column_texts, print_fitted, print_frame
from pipeline.core.activity import span_words
from pipeline.core.i18n import N_, _, ngettext
from pipeline.core.provisional import Provisional
from pipeline.reports.numbers import NumberFormat, number_format

if TYPE_CHECKING:
    import pyarrow as pa

#: The standings table's columns, by the standings column each shows.
STANDINGS_TABLE = {
    "rating_place": Column(N_("place"), right=True),
    "player": Column(N_("player"), names=True),
    "rank": Column(N_("rank"), drop=3),
    "rating": Column(N_("rating"), right=True),
    "delta": Column(N_("delta"), right=True),
    "games": Column(N_("games"), right=True, drop=1),
    "wins": Column(N_("wins"), right=True, drop=2),
    "losses": Column(N_("losses"), right=True, drop=2),
    "draws": Column(N_("draws"), right=True, drop=2),
    "bonus": Column(N_("bonus"), right=True, drop=4),
    "rating_before": Column(N_("before"), right=True, wide=True),
    "member": Column(N_("member"), wide=True),
    "games_total": Column(N_("all games"), right=True, wide=True),
    "inactive_since": Column(N_("inactive since"), drop=3),
}
_RATINGS = {"rating", "rating_before"}  # the columns written as ratings, and as changes (signed)
_CHANGES = {"delta", "bonus"}
#: What follows a provisional player's name in the standings table (the legend under it says why).
PROVISIONAL_MARK = "*"
#: What follows an inactive player's name in the standings table with ``--all`` (the legend says why).
INACTIVE_MARK = "~"
AllOpt = Annotated[
    bool,
    typer.Option(
        "--all",
        help=N_(
            "List the inactive players too (no counted game within the run's [output] active_within), "
            "marked ~, with the day they became inactive"
        ),
    ),
]
DateOpt = Annotated[
    str | None,
    typer.Option(
        "--date",
        metavar="YYYY-MM-DD",
        help=N_(
            "The standings on that day: its period up to that day when the period's ratings are the sum of "
            "its changes and awards, else the end of the last period over by then"
        ),
    ),
]


def show_day(
    folder: Path, day: dt.date, top: int | None, fmt: Format, wide: bool, everyone: bool = False
) -> None:
    """Print the standings on ``day`` (:func:`pipeline.reports.standings_on`; the inactive players too
    when ``everyone``), with what they are."""
    try:
        found = reports.standings_on(folder, day, top=top, everyone=everyone)
    except reports.ReportError as e:
        fail(str(e), 2)
    if found.note and (found.period is not None or fmt is not Format.table):
        Console(stderr=True).print(_("note: ") + found.note, markup=False)
    if fmt is not Format.table:
        print_frame(found.table, fmt)
        return
    if found.period is None:
        console().print(_nothing_on(day, folder, found))
        return
    if found.complete:
        title = _("standings on {day} (the end of {period}): {folder}")
    else:
        title = _("standings on {day} ({period} up to that day): {folder}")
    title = title.format(day=day, period=found.period, folder=folder)
    print_standings(title, found.rows, folder, wide, found.inactive or 0)


def _nothing_on(day: dt.date, folder: Path, found: reports.DayStandings) -> str:
    """Why there are no standings on ``day``: no game rated by then, or the period not over."""
    if found.note:
        return _("no standings on {day} in {folder}: {note}").format(day=day, folder=folder, note=found.note)
    if found.first_day:
        return _(
            "no game was rated on or before {day} in {folder}: the first rated game is on {first}"
        ).format(day=day, folder=folder, first=found.first_day)
    return _("no game was rated on or before {day} in {folder}").format(day=day, folder=folder)


def parse_day(text: str) -> dt.date:
    """The day ``text`` names (``2024-06-15``); exits 2 naming it if it is not a day written YYYY-MM-DD."""
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
            return dt.date.fromisoformat(text.strip())
    except ValueError:
        pass
    fail(_("--date must be a day written YYYY-MM-DD (such as 2024-06-15), got {text!r}").format(text=text), 2)


def print_standings(title: str, rows: pa.Table, folder: Path, wide: bool, hidden: int = 0) -> None:
    """Print standings ``rows`` (:data:`pipeline.reports.STANDINGS_COLUMNS`) as a fitted table,
    provisional and inactive players marked, with the legend of a mark when someone has it, and how
    many inactive players were left out (``hidden``: :func:`pipeline.reports.asof.listed`)."""
    values = {name: rows.column(name).to_pylist() for name in ("active", "draws", "bonus", "deviation")}
    inactive = sum(1 for a in values["active"] if not a)
    names = [
        c
        for c in STANDINGS_TABLE
        if (c not in ("draws", "bonus") or any(v != 0 for v in values[c]))
        and (c != "inactive_since" or inactive)
    ]
    fmt = number_format(reports.run_rule_set(folder))
    print_fitted(title, [STANDINGS_TABLE[n] for n in names], standings_cells(rows, names, fmt), wide)
    if any(d is not None and d == d for d in values["deviation"]):
        legend = _("± twice the rating deviation: a range that holds the strength 19 times out of 20")
        console().print(legend, markup=False)
    if any(rows.column("provisional").to_pylist()):
        console().print(provisional_legend(reports.provisional_rule(folder), fmt), markup=False)
    _activity_legend(folder, inactive, hidden)


def provisional_legend(rule: Provisional, fmt: NumberFormat) -> str:
    """The legend of :data:`PROVISIONAL_MARK` under ``rule``'s thresholds (games, deviation or both)."""
    games = _(
        "{mark} provisional: fewer than {n} counted games so far (all periods); kept off the leaderboards"
    )
    deviation = _("{mark} provisional: a rating deviation above {d}; kept off the leaderboards")
    both = _(
        "{mark} provisional: fewer than {n} counted games so far (all periods) or a rating deviation "
        "above {d}; kept off the leaderboards"
    )
    chosen = both if rule.games and rule.deviation else deviation if rule.deviation else games
    return chosen.format(mark=PROVISIONAL_MARK, n=rule.games, d=fmt.rating(rule.deviation))


def _activity_legend(folder: Path, shown: int, hidden: int) -> None:
    """The legend of :data:`INACTIVE_MARK` when ``shown`` inactive players are in the table, and how many
    were ``hidden`` (not listed) otherwise, with the run's span of activity."""
    span = reports.activity_span(folder)
    if span is None or not (shown or hidden):
        return
    if shown:
        legend = _("{mark} inactive: no counted game in the last {span}; kept off the leaderboards")
        console().print(legend.format(mark=INACTIVE_MARK, span=span_words(span)), markup=False)
    else:
        note = ngettext(
            "{n} inactive player not listed (no counted game in the last {span}): --all lists them",
            "{n} inactive players not listed (no counted game in the last {span}): --all lists them",
            hidden,
        )
        console().print(note.format(n=hidden, span=span_words(span)), markup=False)


def standings_cells(standings: pa.Table, names: Sequence[str], fmt: NumberFormat) -> list[list[str]]:
    """The texts of the standings columns ``names``, row by row: ratings and changes as the rule set
    writes them (``fmt``, :mod:`pipeline.reports.numbers`), changes signed, a rank that moved with the
    one before it (``3d→4d``), a provisional player's name followed by :data:`PROVISIONAL_MARK`, an
    inactive one's by :data:`INACTIVE_MARK` (and no place)."""

    def values(name: str) -> list[Any]:
        found: list[Any] = standings.column(name).to_pylist()
        return found

    texts = {n: column_texts(standings.column(n)) for n in names}
    for n in set(names) & _RATINGS:
        texts[n] = [fmt.rating(float(v)) for v in values(n)]
    if "rating" in texts and "deviation" in standings.column_names:
        texts["rating"] = [
            t if d is None or d != d else f"{t} ± {fmt.rating(2 * float(d))}"
            for t, d in zip(texts["rating"], values("deviation"), strict=True)
        ]
    for n in set(names) & _CHANGES:
        texts[n] = [fmt.delta(float(v)) for v in values(n)]
    if "bonus" in texts:
        texts["bonus"] = ["" if v == 0 else t for v, t in zip(values("bonus"), texts["bonus"], strict=True)]
    if "player" in texts:
        texts["player"] = [
            f"{t}{PROVISIONAL_MARK if p else ''}{'' if a else INACTIVE_MARK}"
            for t, p, a in zip(texts["player"], values("provisional"), values("active"), strict=True)
        ]
    if "rank" in texts:
        texts["rank"] = [
            f"{b}→{r}" if isinstance(b, str) and b != r else t
            for r, b, t in zip(values("rank"), values("rank_before"), texts["rank"], strict=True)
        ]
    return [[texts[n][i] for n in names] for i in range(standings.num_rows)]
