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

from pipeline.core import activity_columns, periods
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
    kept = table[keep].reset_index(drop=True)
    found = _without(kept[["player", *(c for c in kept.columns if c != "player")]], *later)
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
    days = _latest(changes, table["player"])
    if before is not None and len(before):
        where = pc.index_in(_strings(table["player"]), value_set=_strings(before["player"]))
        carried = pa.array(before["last_counted"], pa.date32(), from_pandas=True).take(where)
        days = np.maximum(days, activity_columns.days_of(carried))
    columns = activity_columns.marks(days, day, span)
    found = table.assign(**{name: found.to_pandas().set_axis(table.index) for name, found in columns.items()})
    rating = found["rating"].where(found["active"])
    return found.assign(rating_place=rating.rank(method="min", ascending=False).astype("Int32"))


def _latest(changes: pd.DataFrame, names: pd.Series) -> np.ndarray[Any, Any]:
    """The latest ``date`` of each of ``names`` in ``changes`` (with ``player``) as
    :func:`pipeline.core.activity_columns.days_of` gives them (grouped in Arrow: pandas aggregates
    dates, which it holds as Python objects, one group at a time)."""
    rows = pa.table(
        {
            "player": _strings(changes["player"]),
            "date": pa.array(changes["date"], pa.date32(), from_pandas=True),
        }
    )
    latest = rows.group_by("player", use_threads=False).aggregate([("date", "max")])
    where = pc.index_in(_strings(names), value_set=latest.column("player"))
    return activity_columns.days_of(latest.column("date_max").take(where))


def _adds_up(table: pd.DataFrame, changes: pd.DataFrame, awards: pd.DataFrame) -> bool:
    """Whether every rating of ``table`` is its ``rating_before`` plus its changes and awards."""
    names = pd.Index(table["player"])
    added = _sums(_positions(names, changes), changes["delta"], len(names))
    added += _sums(_positions(names, awards), awards["points"], len(names))
    found = table["rating_before"].to_numpy(float) + added
    return bool((np.abs(found - table["rating"].to_numpy(float)) <= TOLERANCE).all())


def _positions(names: pd.Index, rows: pd.DataFrame) -> np.ndarray[Any, Any]:
    """The position in ``names`` of each of ``rows``' ``player`` (-1: not among them): one look-up, where
    a reindex per column would convert the players' Arrow strings to Python objects each time."""
    if not len(rows):
        return np.empty(0, np.intp)
    found: np.ndarray[Any, Any] = names.get_indexer(pd.Index(rows["player"]))
    return found


def _sums(where: np.ndarray[Any, Any], values: pd.Series, size: int) -> np.ndarray[Any, Any]:
    """The sum of ``values`` at each of ``size`` positions (``where``: each value's, -1 for none; 0.0 at a
    position with none): pandas' sum of each player's values, in their order (missing ones skipped),
    grouped by position rather than by name."""
    found = np.zeros(size)
    kept = where >= 0
    if kept.any():
        sums = values[kept].groupby(where[kept]).sum().astype(float)
        found[sums.index.to_numpy()] = sums.to_numpy()
    return found


def _without(table: pd.DataFrame, changes: pd.DataFrame, awards: pd.DataFrame) -> pd.DataFrame:
    """``table`` (the period's ratings, a row a player) without the ``changes`` and ``awards`` given
    (those after the day), each found by its player's position (:func:`_positions`): rating, delta,
    games, wins, losses, draws, bonus and games_total less theirs, the rank at the start of the period,
    the deviation their games were rated from (when the changes carry one), and the place by rating. A
    player with nothing after the day keeps the rating as written."""
    index = pd.Index(table["player"])
    where = _positions(index, changes)
    mine = where >= 0
    played = np.bincount(where[mine], minlength=len(index))
    awarded = _sums(_positions(index, awards), awards["points"], len(index))
    rating = table["rating"] - _sums(where, changes["delta"], len(index)) - awarded
    scores = changes["score"].to_numpy()
    counts = {
        name: table[name] - np.bincount(where[mine & (scores == score)], minlength=len(index))
        for name, score in _SCORES.items()
    }
    if "deviation" in changes.columns and "deviation" in table.columns:
        first = changes["deviation"][mine].groupby(where[mine]).first()
        rated_from = np.full(len(index), np.nan)
        rated_from[first.index.to_numpy()] = first.to_numpy(float)
        table = table.assign(deviation=table["deviation"].where(played == 0, rated_from))
    return table.assign(
        rating=rating,
        delta=rating - table["rating_before"],
        games=table["games"] - played,
        bonus=table["bonus"] - _sums(where, changes["bonus"], len(index)) - awarded,
        games_total=table["games_total"] - played,
        rank=table["rank_before"].where(table["rank_before"].notna(), table["rank"]),
        rating_place=rating.rank(method="min", ascending=False).astype(int),
        **counts,
    )
