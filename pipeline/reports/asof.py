"""asof: the standings of an output folder as a period ended or on any day, and who is provisional.

A period's standings are read as the run wrote them (``ratings/period=<P>``). The standings on a day
inside a period are rebuilt from that period's ``changes`` and ``awards``: each player's rating at the
end of the period less the changes of their games and the awards dated after the day, which is their
rating at the start of the period plus those dated on or before it (the rank stays the one at the start
of the period: ranks move at the period's end). That holds only
when the period's ratings are the sum of its changes and awards (the points systems and the GoR and Elo
rule sets, but not a rating recomputed from a rank or an average, as under ``tga`` and ``cga-dan``, nor
a rating floor); :func:`standings_on` checks this on the period itself, and otherwise shows the
standings at the end of the period before, saying why. A player is provisional, under the run's
``[output] provisional_games`` and ``provisional_deviation``, while they have fewer counted games (all
periods) than the first or a deviation above the second (:class:`pipeline.core.provisional.Provisional`).
On a day inside a period, a player with a game after the day shows the deviation their games were rated
from (a rule set with a deviation settles it at the period's end), the others the one of the period's end.
Only the active players are listed (the ratings' ``active``: a counted game within the run's ``[output]
active_within`` before the period's end; on a day inside a period, before that day), unless every
player is asked for.

The standings are Arrow tables (:class:`DayStandings` ``rows``, :func:`stored_rows`), made with compute
functions and numpy without importing pandas (``ratings show --date`` needs none); :func:`frame` gives
them as the pandas frames :mod:`pipeline.reports.queries` returns. The arithmetic of a period up to a
day is :mod:`pipeline.reports.partial`'s.

Knows nothing of the rule sets (only of the sums of the tables they wrote), of the configuration (the
threshold is read from the run's manifest) and of rendering.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core import activity_columns, buffers, periods
from pipeline.core.activity import EPOCH, Span, SpanError, span_of
from pipeline.core.i18n import _
from pipeline.core.provisional import Provisional
from pipeline.output import folder as outputs
from pipeline.reports import partial

if TYPE_CHECKING:
    import pandas as pd

#: The columns of the standings (:func:`stored_rows`, :func:`standings_on`), in order.
STANDINGS_COLUMNS = (
    "rating_place",
    "player",
    "rank",
    "rank_before",
    "rating",
    "rating_before",
    "delta",
    "games",
    "wins",
    "losses",
    "draws",
    "bonus",
    "member",
    "games_total",
    "provisional",
    "deviation",
    "active",
    "last_counted",
    "inactive_since",
)


@dataclass(frozen=True, slots=True)
class DayStandings:
    """The standings on ``day``.

    ``rows``: columns :data:`STANDINGS_COLUMNS`, best first (no rows when nothing was rated by then);
    ``period``: the rating period they belong to (None: nothing rated by ``day``); ``complete``: True
    when ``period`` had ended by ``day`` (its standings as written), False for its games up to ``day``;
    ``note``: why a period not over on ``day`` is not shown up to it ("" when it is); ``first_day``: the
    day of the run's first rated game (None: none); ``inactive``: how many inactive players were left
    out (None: every player is listed, or there are no standings). :attr:`table` is ``rows`` in pandas.
    """

    day: dt.date
    period: str | None
    complete: bool
    rows: pa.Table
    note: str = ""
    first_day: dt.date | None = None
    inactive: int | None = None

    @property
    def table(self) -> pd.DataFrame:
        """:attr:`rows` as a pandas frame (:func:`frame`)."""
        return frame(self.rows, self.inactive)


def frame(rows: pa.Table, inactive: int | None = None) -> pd.DataFrame:
    """Standings ``rows`` as pandas gives them to a caller of :mod:`pipeline.reports`: days as
    ``datetime.date``, a column of nulls as objects, places (``int32``) as pandas' nullable ``Int32``
    (as the ratings files' pandas metadata has them); ``attrs["inactive"]`` the players left out when
    ``inactive`` is not None."""
    found: pd.DataFrame = rows.to_pandas()
    if "rating_place" in rows.column_names and rows.schema.field("rating_place").type == pa.int32():
        found["rating_place"] = found["rating_place"].astype("Int32")
    if inactive is not None:
        found.attrs["inactive"] = inactive
    return found


def no_standings() -> pa.Table:
    """Standings without rows (and of no types: what a run that rated nothing has)."""
    return pa.Table.from_arrays([pa.nulls(0) for _ in STANDINGS_COLUMNS], names=list(STANDINGS_COLUMNS))


def run_provisional(out: Path) -> Provisional:
    """The ``provisional_games`` and ``provisional_deviation`` the run in ``out`` used (its manifest's
    settings); 0 (off) for one the manifest does not say (a run before the setting existed) or says as
    something no configuration gives."""
    return Provisional.of(outputs.read_manifest(out).get("settings"))


def run_threshold(out: Path) -> int:
    """The ``provisional_games`` the run in ``out`` used (:func:`run_provisional`)."""
    return run_provisional(out).games


def run_span(out: Path) -> Span | None:
    """The ``active_within`` the run in ``out`` used (its manifest's settings); None (everyone active)
    when the manifest does not say, or says something that is not a span."""
    settings = outputs.read_manifest(out).get("settings")
    found = settings.get("active_within") if isinstance(settings, dict) else None
    try:
        return None if found is None else span_of(str(found))
    except SpanError:
        return None


def marked(table: pa.Table, threshold: Provisional) -> pa.Table:
    """``table`` (with ``games_total``, and ``deviation`` when its output has one) with its ``provisional``
    column (``threshold``'s marks), as the columns of :data:`STANDINGS_COLUMNS` (``deviation`` NaN when
    the output has none; the activity columns of an output written before they existed: everyone
    active, no day known)."""
    n = table.num_rows
    deviation = buffers.numpy_of(table.column("deviation")) if "deviation" in table.column_names else None
    columns = {name: table.column(name) for name in table.column_names}
    columns["provisional"] = buffers.flags(
        threshold.marks(buffers.numpy_of(columns["games_total"]), deviation)
    )
    columns.setdefault("active", buffers.flags(np.ones(n, np.bool_)))
    columns.setdefault("last_counted", pa.nulls(n))
    columns.setdefault("inactive_since", pa.nulls(n))
    columns.setdefault("deviation", buffers.numbers(np.full(n, np.nan)))
    return pa.Table.from_arrays([columns[name] for name in STANDINGS_COLUMNS], names=list(STANDINGS_COLUMNS))


def listed(table: pa.Table, everyone: bool = False) -> tuple[pa.Table, int | None]:
    """The rows of standings ``table`` a list shows: the active players (every player when ``everyone``),
    in the same order; and how many were left out (None with ``everyone``)."""
    if everyone:
        return table, None
    active = buffers.numpy_of(table.column("active"))
    return table.filter(buffers.flags(active)), int((~active).sum())


def stored_rows(
    out: Path, period: str, threshold: Provisional, everyone: bool = False
) -> tuple[pa.Table, int | None]:
    """``period``'s standings as the run wrote them, marked (:func:`marked`), by rating (highest first,
    then name): the active players, or ``everyone``, with how many were left out (:func:`listed`); a
    partition that is missing reads as no standings (None left out)."""
    table = outputs.read_partition_table(out, "ratings", period)
    if not table.num_rows:
        return no_standings(), None
    return listed(marked(_ordered(table), threshold), everyone)


def _ordered(table: pa.Table) -> pa.Table:
    """``table`` by rating (highest first, then name; a stable sort)."""
    return table.take(pc.sort_indices(table, sort_keys=[("rating", "descending"), ("player", "ascending")]))


def standings_on(out: Path, day: dt.date, threshold: Provisional, everyone: bool = False) -> DayStandings:
    """The standings on ``day`` of the run in ``out`` (read by :func:`pipeline.reports.standings_on`).

    The period holding ``day``, up to and including it, when the run rated that period and its ratings
    are the sum of its changes and awards (the module docstring); else the latest period that ended on
    or before ``day``, complete, with a ``note`` when the period of ``day`` was rated but is not such a
    sum. A day after the run's last period gives that period's standings; a day before the first rated
    game gives no period and no rows. Players are marked provisional under ``threshold``; the active
    ones are listed (on ``day``, under the run's ``active_within``), or ``everyone``.
    """
    rated = outputs.rated_periods(out)
    if not rated:
        return DayStandings(day, None, False, no_standings())
    first_day = _first_day(out, rated[0])
    label = periods.period_of(day, periods.kind_of(rated[0]))
    ended = [p for p in rated if periods.bounds(p)[1] <= day]
    note = ""
    if label in rated and label not in ended:
        found = partial.up_to(out, label, day, ended[-1] if ended else None, run_span(out))
        if found is not None and found.num_rows:
            rows, inactive = listed(marked(_ordered(found), threshold), everyone)
            return DayStandings(day, label, False, rows, first_day=first_day, inactive=inactive)
        if found is None:
            note = _(
                "{period} is not over on {day}, and its ratings are not the sum of its games' changes "
                "(the rule set decides them at the period's end, {end})"
            ).format(period=label, day=day, end=periods.bounds(label)[1])
    if not ended:
        return DayStandings(day, None, False, no_standings(), note, first_day)
    rows, inactive = stored_rows(out, ended[-1], threshold, everyone)
    return DayStandings(day, ended[-1], True, rows, note, first_day, inactive)


def _first_day(out: Path, label: str) -> dt.date | None:
    """The first day of a change or an award in the period ``label`` (None: neither)."""
    days = [
        activity_columns.days_of(
            outputs.read_partition_table(out, name, label, columns=["date"]).column("date")
        )
        for name in ("changes", "awards")
    ]
    found = np.concatenate(days)
    found = found[found != activity_columns.NO_DAY]
    return EPOCH + dt.timedelta(days=int(found.min())) if len(found) else None
