"""reports.partial: a period's standings up to a day inside it, from the tables the run wrote.

Each player's rating at the end of the period less the changes of their games and the awards dated
after the day (:mod:`pipeline.reports.asof` says when that holds, and :func:`up_to` checks it on the
period itself: its ratings must be its start plus its changes and awards). The sums are grouped by each
row's position among the period's players (one look-up of the names), with numpy: no pandas, no Python
object per row.

Knows nothing of the rule sets, of provisional marks or of the order of a list (:mod:`pipeline.reports.asof`).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core import activity_columns, arrays, buffers
from pipeline.core.activity import Span, day_number
from pipeline.output import folder as outputs

#: How far a period's rating may be from its start plus its changes and awards and still count as their
#: sum: half the unit of the ratings shown (two decimals); the tables round each change to 6 places.
TOLERANCE = 0.005
#: The counts of a player's results, by the score of a game.
_SCORES = {"wins": 1.0, "losses": 0.0, "draws": 0.5}
#: The counts a player's games change: as 64-bit integers once less the games after the day.
_COUNTS = ("games", "wins", "losses", "draws", "games_total")

Numbers = np.ndarray[Any, Any]


def up_to(out: Path, label: str, day: dt.date, before: str | None, span: Span | None) -> pa.Table | None:
    """The standings of ``label`` up to ``day`` (unsorted, the ratings table's columns, ``player``
    first, ``rating_place`` by rating), of the players rated by then: in the period ``before`` (the
    rated period before it), or with a change or award in ``label`` on or before ``day``, or with none
    in ``label`` at all; with their activity on ``day`` under ``span`` when the output has activity
    columns. None when the period's ratings are not its start plus its changes and awards."""
    table = outputs.read_partition_table(out, "ratings", label)
    columns = ["date", "player", "score", "delta", "bonus"]
    changes = outputs.read_partition_table(out, "changes", label, columns + _deviation(table))
    awards = outputs.read_partition_table(out, "awards", label, columns=["date", "player", "points"])
    names = arrays.text(table.column("player"))
    at_change, at_award = positions(names, changes), positions(names, awards)
    if not _adds_up(table, at_change, changes, at_award, awards):
        return None
    last = day_number(day)
    change_days = activity_columns.days_of(changes.column("date"))
    award_days = activity_columns.days_of(awards.column("date"))
    seen = _marked(len(names), at_change[change_days <= last], at_award[award_days <= last])
    if before is not None:
        earlier = outputs.read_partition_table(out, "ratings", before, ["player"])
        seen |= buffers.numpy_of(pc.is_in(names, value_set=arrays.text(earlier.column("player"))))
    keep = seen | ~_marked(len(names), at_change, at_award)
    kept = table.filter(buffers.flags(keep))
    kept = kept.select(["player", *(c for c in kept.column_names if c != "player")])
    found = _without(
        kept,
        changes.filter(buffers.flags(change_days > last)),
        awards.filter(buffers.flags(award_days > last)),
    )
    if "last_counted" not in found.column_names:  # (an output written before the activity columns)
        return found
    carried = (
        outputs.read_partition_table(out, "ratings", before, ["player", "last_counted"]) if before else None
    )
    return _active_on(found, changes.filter(buffers.flags(change_days <= last)), carried, day, span)


def positions(names: pa.Array, rows: pa.Table) -> Numbers:
    """The position in ``names`` of each of ``rows``' ``player`` (-1: not among them), as ``int64``."""
    if not rows.num_rows:
        return np.empty(0, np.int64)
    return arrays.positions(arrays.text(rows.column("player")), names)


def sums(where: Numbers, values: pa.ChunkedArray | pa.Array, size: int) -> Numbers:
    """The sum of ``values`` at each of ``size`` positions (``where``: each value's, -1 for none; 0.0 at
    a position with none; missing values skipped), each position's values added in their order with
    Kahan's compensation, as pandas' grouped sum adds them (the standings on a day were pandas' sums,
    and a sum that differs in its last bit shows in CSV and JSON): one numpy step per value of the
    position with the most, all positions at once."""
    numbers = buffers.numpy_of(values).astype(np.float64)
    kept = (where >= 0) & ~np.isnan(numbers)
    at, numbers = where[kept], numbers[kept]
    total, compensation = np.zeros(size), np.zeros(size)
    if not len(at):
        return total
    nth = arrays.nth_in_group(at)
    for k in range(int(nth.max()) + 1):
        rows = nth == k
        group, value = at[rows], numbers[rows]
        y = value - compensation[group]
        t = total[group] + y
        compensation[group] = (t - total[group]) - y
        total[group] = t
    return total


def places(rating: Numbers, counted: Numbers | None = None) -> Numbers:
    """Each rating's place, highest first, equal ratings sharing the best place (a competition rank:
    one more than the number of higher ratings); with ``counted``, among those rows only (the others'
    places are meaningless)."""
    among = np.sort(rating if counted is None else rating[counted])
    return (len(among) - np.searchsorted(among, rating, side="right") + 1).astype(np.int64)


def _deviation(table: pa.Table) -> list[str]:
    """``["deviation"]`` when the ratings have a deviation (the changes carry one then), else none."""
    return ["deviation"] if "deviation" in table.column_names else []


def _marked(size: int, *where: Numbers) -> Numbers:
    """Flags of ``size`` positions, True at each position of ``where`` (-1: none)."""
    found = np.zeros(size, np.bool_)
    for at in where:
        found[at[at >= 0]] = True
    return found


def _adds_up(
    table: pa.Table, at_change: Numbers, changes: pa.Table, at_award: Numbers, awards: pa.Table
) -> bool:
    """Whether every rating of ``table`` is its ``rating_before`` plus its changes and awards."""
    n = table.num_rows
    added = sums(at_change, changes.column("delta"), n) + sums(at_award, awards.column("points"), n)
    found = buffers.numpy_of(table.column("rating_before")).astype(np.float64) + added
    return bool((np.abs(found - buffers.numpy_of(table.column("rating"))) <= TOLERANCE).all())


def _without(table: pa.Table, changes: pa.Table, awards: pa.Table) -> pa.Table:
    """``table`` (the period's ratings, a row a player) without the ``changes`` and ``awards`` given
    (those after the day): rating, delta, games, wins, losses, draws, bonus and games_total less theirs,
    the rank at the start of the period, the deviation their games were rated from (when the changes
    carry one), and the place by rating. A player with nothing after the day keeps the rating as
    written."""
    n = table.num_rows
    names = arrays.text(table.column("player"))
    where = positions(names, changes)
    mine = where >= 0
    played = np.bincount(where[mine], minlength=n)
    awarded = sums(positions(names, awards), awards.column("points"), n)
    rating = buffers.numpy_of(table.column("rating")) - sums(where, changes.column("delta"), n) - awarded
    scores = buffers.numpy_of(changes.column("score")) if changes.num_rows else np.empty(0)
    less = {
        name: np.bincount(where[mine & (scores == score)], minlength=n) for name, score in _SCORES.items()
    }
    less |= {"games": played, "games_total": played}
    found: dict[str, Any] = {
        "rating": buffers.numbers(rating),
        "delta": buffers.numbers(rating - buffers.numpy_of(table.column("rating_before"))),
        "bonus": buffers.numbers(
            buffers.numpy_of(table.column("bonus")) - sums(where, changes.column("bonus"), n) - awarded
        ),
        "rank": pc.coalesce(arrays.array(table.column("rank_before")), arrays.array(table.column("rank"))),
        "rating_place": buffers.numbers(places(rating)),
    }
    for name in _COUNTS:
        found[name] = buffers.numbers(
            buffers.numpy_of(table.column(name)).astype(np.int64) - less.get(name, 0)
        )
    if "deviation" in changes.column_names and "deviation" in table.column_names:
        found["deviation"] = buffers.numbers(_rated_from(table, changes, where, played))
    names = [*table.column_names, *(k for k in found if k not in table.column_names)]
    return pa.Table.from_arrays([found[k] if k in found else table.column(k) for k in names], names=names)


def _rated_from(table: pa.Table, changes: pa.Table, where: Numbers, played: Numbers) -> Numbers:
    """The deviation each player's ratings were computed from: that of their first change after the day
    (its first one with a deviation), else the deviation as written."""
    deviation = buffers.numpy_of(changes.column("deviation")).astype(np.float64)
    chosen = (where >= 0) & ~np.isnan(deviation)
    first, at = np.unique(where[chosen], return_index=True)
    rated_from = np.full(table.num_rows, np.nan)
    rated_from[first] = deviation[chosen][at]
    written = buffers.numpy_of(table.column("deviation")).astype(np.float64)
    return np.where(played == 0, written, rated_from)


def _active_on(
    table: pa.Table, changes: pa.Table, before: pa.Table | None, day: dt.date, span: Span | None
) -> pa.Table:
    """``table`` (standings up to ``day``) with its activity on ``day``: each player's last counted day
    the later of the one at the end of the period ``before`` (its ratings, None: none) and the latest of
    their ``changes`` (those up to ``day``), and the place among the active players (null for the
    others)."""
    names = arrays.text(table.column("player"))
    days = np.full(table.num_rows, activity_columns.NO_DAY, np.int32)
    where = positions(names, changes)
    np.maximum.at(days, where[where >= 0], activity_columns.days_of(changes.column("date"))[where >= 0])
    if before is not None and before.num_rows:
        at = pc.index_in(names, value_set=arrays.text(before.column("player")))
        carried = arrays.array(before.column("last_counted")).cast(pa.date32()).take(at)
        days = np.maximum(days, activity_columns.days_of(carried))
    columns = activity_columns.marks(days, day, span)
    active = buffers.numpy_of(columns["active"])
    rating = buffers.numpy_of(table.column("rating"))
    found = table
    for name, values in columns.items():
        found = _set(found, name, values)
    place = buffers.numbers(places(rating, active).astype(np.int32), valid=active)
    return _set(found, "rating_place", place)


def _set(table: pa.Table, name: str, values: pa.Array) -> pa.Table:
    """``table`` with its column ``name`` replaced by ``values`` (added last when it has none)."""
    if name in table.column_names:
        return table.set_column(table.column_names.index(name), name, values)
    return table.append_column(name, values)
