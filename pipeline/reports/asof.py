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

Knows nothing of the rule sets (only of the sums of the tables they wrote), of the configuration (the
threshold is read from the run's manifest) and of rendering.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core import activity, periods
from pipeline.core.activity import Span, SpanError, span_of
from pipeline.core.i18n import _
from pipeline.core.provisional import Provisional
from pipeline.output import folder as outputs

#: The columns of the standings (:func:`stored_standings`, :func:`standings_on`), in order.
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
#: The activity columns of an output written before they existed: everyone active, no day known.
_UNKNOWN_ACTIVITY = {"active": True, "last_counted": None, "inactive_since": None}
#: How far a period's rating may be from its start plus its changes and awards and still count as their
#: sum: half the unit of the ratings shown (two decimals); the tables round each change to 6 places.
TOLERANCE = 0.005
_SCORES = {"wins": 1.0, "losses": 0.0, "draws": 0.5}


@dataclass(frozen=True, slots=True)
class DayStandings:
    """The standings on ``day``.

    ``table``: columns :data:`STANDINGS_COLUMNS`, best first (empty when nothing was rated by then);
    ``period``: the rating period they belong to (None: nothing rated by ``day``); ``complete``: True
    when ``period`` had ended by ``day`` (its standings as written), False for its games up to ``day``;
    ``note``: why a period not over on ``day`` is not shown up to it ("" when it is); ``first_day``: the
    day of the run's first rated game (None: none).
    """

    day: dt.date
    period: str | None
    complete: bool
    table: pd.DataFrame
    note: str = ""
    first_day: dt.date | None = None


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


def marked(table: pd.DataFrame, threshold: Provisional) -> pd.DataFrame:
    """``table`` (with ``games_total``, and ``deviation`` when its output has one) with its ``provisional``
    column (``threshold``'s marks) and the columns of :data:`STANDINGS_COLUMNS` (``deviation`` null when
    the output has none; the activity columns of an output written before they existed: everyone active,
    no day known)."""
    deviation = table["deviation"] if "deviation" in table.columns else None
    provisional = threshold.marks(table["games_total"], deviation)
    missing: dict[str, Any] = {
        name: value for name, value in _UNKNOWN_ACTIVITY.items() if name not in table.columns
    }
    if deviation is None:
        missing["deviation"] = float("nan")
    found = table.assign(provisional=provisional, **missing)
    return found.astype({"provisional": bool, "active": bool})[list(STANDINGS_COLUMNS)]


def listed(table: pd.DataFrame, everyone: bool = False) -> pd.DataFrame:
    """The rows of standings ``table`` a list shows: the active players (every player when ``everyone``),
    in the same order, with a fresh index; ``attrs["inactive"]`` says how many were left out."""
    if everyone:
        return table
    active = table["active"].to_numpy(dtype=bool)
    found = table[active].reset_index(drop=True)
    found.attrs["inactive"] = int((~active).sum())
    return found


def stored_standings(out: Path, period: str, threshold: Provisional, everyone: bool = False) -> pd.DataFrame:
    """``period``'s standings as the run wrote them, marked (:func:`marked`), by rating (highest
    first, then name): the active players, or ``everyone``; a partition that is missing reads as no
    rows."""
    table = outputs.read_partition(out, "ratings", period)
    if table.empty:
        return pd.DataFrame(columns=list(STANDINGS_COLUMNS))
    return listed(marked(_ordered(table), threshold), everyone)


def _ordered(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` by rating (highest first, then name), with a fresh index."""
    table = table.sort_values(["rating", "player"], ascending=[False, True], kind="stable")
    return table.reset_index(drop=True)


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
        return DayStandings(day, None, False, pd.DataFrame(columns=list(STANDINGS_COLUMNS)))
    first_day = _first_day(out, rated[0])
    label = periods.period_of(day, periods.kind_of(rated[0]))
    ended = [p for p in rated if periods.bounds(p)[1] <= day]
    note = ""
    if label in rated and label not in ended:
        partial = _partial(out, label, day, ended[-1] if ended else None)
        if partial is not None and not partial.empty:
            table = listed(marked(_ordered(partial), threshold), everyone)
            return DayStandings(day, label, False, table, first_day=first_day)
        if partial is None:
            note = _(
                "{period} is not over on {day}, and its ratings are not the sum of its games' changes "
                "(the rule set decides them at the period's end, {end})"
            ).format(period=label, day=day, end=periods.bounds(label)[1])
    if not ended:
        return DayStandings(day, None, False, pd.DataFrame(columns=list(STANDINGS_COLUMNS)), note, first_day)
    table = stored_standings(out, ended[-1], threshold, everyone)
    return DayStandings(day, ended[-1], True, table, note, first_day)


def _first_day(out: Path, label: str) -> dt.date | None:
    """The first day of a change or an award in the period ``label`` (None: neither)."""
    days = [
        *outputs.read_partition(out, "changes", label, columns=["date"])["date"],
        *outputs.read_partition(out, "awards", label, columns=["date"])["date"],
    ]
    return min(days, default=None)


def _partial(out: Path, label: str, day: dt.date, before: str | None) -> pd.DataFrame | None:
    """The standings of ``label`` up to ``day`` (unsorted, ``rating_place`` by rating), of the players rated
    by then: in the period ``before`` (the rated period before it), or with a change or award in
    ``label`` on or before ``day``, or with none in ``label`` at all. None when the period's ratings are
    not its start plus its changes and awards."""
    table = outputs.read_partition(out, "ratings", label)
    columns = ["date", "player", "score", "delta", "bonus"] + (
        ["deviation"] if "deviation" in table.columns else []
    )
    changes = outputs.read_partition(out, "changes", label, columns)
    awards = outputs.read_partition(out, "awards", label, columns=["date", "player", "points"])
    if not _adds_up(table, changes, awards):
        return None
    active = [changes["player"], awards["player"]]
    seen = [changes.loc[changes["date"] <= day, "player"], awards.loc[awards["date"] <= day, "player"]]
    if before is not None:
        seen.append(outputs.read_partition(out, "ratings", before, ["player"])["player"])
    keep = _among(table["player"], seen) | ~_among(table["player"], active)
    later = (changes[changes["date"] > day], awards[awards["date"] > day])
    found = _without(table[keep].set_index("player"), *later).reset_index()
    if "last_counted" not in found.columns:  # (an output written before the activity columns)
        return found
    carried = outputs.read_partition(out, "ratings", before, ["player", "last_counted"]) if before else None
    return _active_on(found, changes[changes["date"] <= day], carried, day, run_span(out))


def _among(names: pd.Series, found: list[pd.Series]) -> np.ndarray[Any, Any]:
    """Whether each of ``names`` is one of ``found`` (columnar: pandas' ``isin`` of Arrow strings makes a
    Python object of each value looked for)."""
    values = pa.concat_arrays([_strings(f) for f in found])
    among: np.ndarray[Any, Any] = pc.is_in(_strings(names), value_set=values).to_numpy(zero_copy_only=False)
    return among


def _strings(names: pd.Series) -> pa.Array:
    """``names`` as an Arrow string array."""
    found = pa.array(names, from_pandas=True)
    return (found.combine_chunks() if isinstance(found, pa.ChunkedArray) else found).cast(pa.string())


def _active_on(
    table: pd.DataFrame, changes: pd.DataFrame, before: pd.DataFrame | None, day: dt.date, span: Span | None
) -> pd.DataFrame:
    """``table`` (standings up to ``day``) with its activity on ``day``: each player's last counted day
    the later of the one at the end of the period ``before`` (its ratings, None: none) and the latest of
    their ``changes`` (those up to ``day``), and the place among the active players."""
    index = pd.Index(table["player"])
    days = _latest(changes, index)
    if before is not None and len(before):
        days = np.maximum(days, _days(before.set_index("player")["last_counted"].reindex(index)))
    columns = activity.marks(days, day, span)
    found = table.assign(**{name: found.to_pandas().set_axis(table.index) for name, found in columns.items()})
    rating = found["rating"].where(found["active"])
    return found.assign(rating_place=rating.rank(method="min", ascending=False).astype("Int32"))


def _latest(changes: pd.DataFrame, names: pd.Index) -> np.ndarray[Any, Any]:
    """The latest ``date`` of each of ``names`` in ``changes`` (with ``player``) as
    :func:`pipeline.core.activity.days_of` gives them (grouped in Arrow: pandas aggregates dates, which
    it holds as Python objects, one group at a time)."""
    rows = pa.table(
        {
            "player": _strings(changes["player"]),
            "date": pa.array(changes["date"], pa.date32(), from_pandas=True),
        }
    )
    latest = rows.group_by("player", use_threads=False).aggregate([("date", "max")])
    where = pc.index_in(_strings(names.to_series()), value_set=latest.column("player"))
    return activity.days_of(latest.column("date_max").take(where))


def _days(dates: pd.Series) -> np.ndarray[Any, Any]:
    """Days (``datetime.date``, missing ones null or NaN) as :func:`pipeline.core.activity.days_of`
    gives them."""
    return activity.days_of(pa.array(dates, pa.date32(), from_pandas=True))


def _adds_up(table: pd.DataFrame, changes: pd.DataFrame, awards: pd.DataFrame) -> bool:
    """Whether every rating of ``table`` is its ``rating_before`` plus its changes and awards."""
    added = _by_player(changes, "delta").add(_by_player(awards, "points"), fill_value=0.0)
    ratings = table.set_index("player")
    found = ratings["rating_before"] + added.reindex(ratings.index, fill_value=0.0)
    return bool(((found - ratings["rating"]).abs() <= TOLERANCE).all())


def _by_player(rows: pd.DataFrame, column: str) -> pd.Series:
    """The sum of ``column`` per player (float; no rows: an empty series)."""
    return rows.groupby("player")[column].sum().astype(float)


def _without(table: pd.DataFrame, changes: pd.DataFrame, awards: pd.DataFrame) -> pd.DataFrame:
    """``table`` (the period's ratings by player) without the ``changes`` and ``awards`` given (those
    after the day): rating, delta, games, wins, losses, draws, bonus and games_total less theirs, the
    rank at the start of the period, the deviation their games were rated from (when the changes carry
    one), and the place by rating. A player with nothing after the day keeps the rating as written."""
    index = table.index
    played = changes.groupby("player").size().reindex(index, fill_value=0)
    awarded = _by_player(awards, "points").reindex(index, fill_value=0.0)
    rating = table["rating"] - _by_player(changes, "delta").reindex(index, fill_value=0.0) - awarded
    counts = {
        name: table[name]
        - (changes["score"] == score).groupby(changes["player"]).sum().reindex(index, fill_value=0)
        for name, score in _SCORES.items()
    }
    if "deviation" in changes.columns and "deviation" in table.columns:
        rated_from = changes.groupby("player")["deviation"].first().reindex(index)
        later = changes["player"].drop_duplicates()
        table = table.assign(deviation=table["deviation"].where(~index.isin(later), rated_from))
    return table.assign(
        rating=rating,
        delta=rating - table["rating_before"],
        games=table["games"] - played,
        bonus=table["bonus"] - _by_player(changes, "bonus").reindex(index, fill_value=0.0) - awarded,
        games_total=table["games_total"] - played,
        rank=table["rank_before"].where(table["rank_before"].notna(), table["rank"]),
        rating_place=rating.rank(method="min", ascending=False).astype(int),
        **counts,
    )
