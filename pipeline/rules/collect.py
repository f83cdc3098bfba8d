"""collect: one rated period's outcome as the rows of the output datasets, built column by column.

:func:`period_tables` turns a :class:`~pipeline.rules.base.PeriodOutcome` into the period's ``ratings``
(one row per player of the standings, placed by rating), ``changes``, ``awards`` and ``promotions``
tables. The standings hold every player seen so far, so ``ratings`` has far more rows than the period
has games: its columns are read from the standings with one list comprehension per column, the players
without a game in the period get their zero tallies from numpy, and the place comes from Arrow's sort and
rank; no dict per row (docs/design.md#period-tables). The activity columns (``last_counted``, ``active``,
``inactive_since``: :mod:`pipeline.core.activity`) come from the last counted days carried from period to
period (:class:`Activity`), and the place is among the active players.

Knows nothing of how the outcome was reached, nor of files.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core import periods
from pipeline.core.activity import Span
from pipeline.core.activity_columns import LastCounted, days_of, marks
from pipeline.rules.base import Change, Game, PeriodOutcome

#: The base columns of a change row; the rule set's own (``detail``) follow.
_CHANGE_BASE = ("period", "game_id", "date", "seq", "player", "opponent", "color", "score",
                "rating_before", "delta", "points", "bonus", "bonus_rule", "event", "speed",
                "deviation")  # fmt: skip


@dataclass(slots=True)
class Activity:
    """What the ratings' activity columns need from one period to the next: the span
    (``[output] active_within``; None: everyone active) and each player's last counted day so far
    (:class:`~pipeline.core.activity_columns.LastCounted`, updated by every period's tables)."""

    span: Span | None = None
    last: LastCounted = field(default_factory=LastCounted)


def period_tables(
    label: str,
    outcome: PeriodOutcome,
    games: Mapping[str, Game],
    member: Callable[[str], bool],
    schemas: Mapping[str, pa.Schema],
    activity: Activity | None = None,
) -> dict[str, pa.Table]:
    """The tables of ``outcome`` (period ``label``; ``games`` by id; ``member`` tells a roster member;
    ``schemas`` each dataset's schema with ``period``): ``ratings``, ``changes``, ``awards``,
    ``promotions``. ``activity`` carries the last counted days from the period before and is moved on to
    this one's (None: from none, everyone active). Raises KeyError if a change names a game not in
    ``games``."""
    awards = [
        {"period": label, "player": a.award.player, "date": a.award.date, "event": a.award.event,
         "kind": a.kind, "points": a.points, "note": a.award.note}
        for a in outcome.awards
    ]  # fmt: skip
    promotions = [{**dataclasses.asdict(p), "period": label} for p in outcome.promotions]
    ratings = schemas["ratings"]
    changes = _changes(label, outcome.changes, games, schemas["changes"])
    found = Activity() if activity is None else activity
    return {
        "ratings": _ratings(_unsorted(label, outcome, (changes, awards), member, ratings, found), ratings)
        if outcome.end
        else ratings.empty_table(),
        "changes": changes,
        "awards": _rows(awards, schemas["awards"]),
        "promotions": _rows(promotions, schemas["promotions"]),
    }


def _changes(label: str, changes: Sequence[Change], games: Mapping[str, Game], schema: pa.Schema) -> pa.Table:
    """One row per change, in the order the rule set gave them."""
    if not changes:
        return schema.empty_table()
    played = [games[c.game_id] for c in changes]
    columns: dict[str, list[Any]] = {
        "period": [label] * len(changes),
        "game_id": [c.game_id for c in changes],
        "date": [g.date for g in played],
        "seq": [g.seq for g in played],
        "player": [c.player for c in changes],
        "opponent": [c.opponent for c in changes],
        "color": [c.color for c in changes],
        "score": [c.score for c in changes],
        "rating_before": [c.rating_before for c in changes],
        "delta": [round(c.points + c.bonus, 6) for c in changes],
        "points": [c.points for c in changes],
        "bonus": [c.bonus for c in changes],
        "bonus_rule": [c.bonus_rule for c in changes],
        "event": [g.event.name if g.event else None for g in played],
        "speed": [g.speed for g in played],
        "deviation": [c.deviation for c in changes],
    }
    for name in schema.names[len(_CHANGE_BASE) :]:
        columns[name] = [c.detail.get(name) for c in changes]
    return pa.table([pa.array(columns[f.name], f.type) for f in schema], schema=schema)


def _ratings(arrays: dict[str, pa.Array], schema: pa.Schema) -> pa.Table:
    """The ratings table (``schema``) of the columns ``arrays`` (every column but ``rating_place``, in
    standings order): by rating (highest first, then name), placed (equal ratings share the first
    place of their run)."""
    keys = pa.table({"rating": arrays["rating"], "player": arrays["player"]})
    order = pc.sort_indices(keys, [("rating", "descending"), ("player", "ascending")])
    del keys
    for name in arrays:  # one column at a time: the unsorted rows are let go as the sorted ones come
        arrays[name] = arrays[name].take(order)
    table = pa.table(arrays, schema=pa.schema([f for f in schema if f.name != "rating_place"]))
    return table.append_column(schema.field("rating_place"), _places(table)).select(schema.names)


def _places(table: pa.Table) -> pa.Array:
    """The place by rating of each row of ``table`` (by rating, highest first) among its active rows;
    null for an inactive one."""
    active = table["active"].to_numpy()
    if active.all():
        return pc.rank(table["rating"], sort_keys="descending", tiebreaker="min").cast(pa.int32())
    listed = pc.rank(table["rating"].filter(active), sort_keys="descending", tiebreaker="min")
    places = np.zeros(len(active), np.int32)
    places[active] = listed.to_numpy()
    return pa.array(places, pa.int32(), mask=~active)


def _unsorted(
    label: str,
    outcome: PeriodOutcome,
    rows: tuple[pa.Table, Sequence[Mapping[str, Any]]],
    member: Callable[[str], bool],
    schema: pa.Schema,
    activity: Activity,
) -> dict[str, pa.Array]:
    """The ratings columns of ``schema`` (``rating_place`` aside) by name, in standings order, from the
    period's ``rows`` (its changes table and its awards). Each column is an Arrow array before the next
    list is built: a list of Python values is a pointer a player, and often a new object a player too
    (docs/design.md#period-tables). The activity columns are the last counted days ``activity`` carries,
    moved on by the changes' days."""
    changes, awards = rows
    names = list(outcome.end)
    end = list(outcome.end.values())
    before = outcome.start.get
    start = [before(n, e) for n, e in zip(names, end, strict=True)]  # (absent: unchanged)
    players = pa.array(names, pa.string())
    at = _positions(changes["player"].combine_chunks(), players)
    if (at < 0).any():
        raise KeyError(changes["player"][int(np.flatnonzero(at < 0)[0])].as_py())
    tally = _tallies(players, at, outcome.changes, awards)
    last = activity.last.advance(names, players, at, days_of(changes["date"]))
    marked = marks(last, periods.bounds(label)[1], activity.span)
    columns: dict[str, Callable[[], Any]] = {
        "period": lambda: pa.repeat(pa.scalar(label, pa.string()), len(names)),
        "player": lambda: players,
        "rank": lambda: [s.rank for s in end],
        "rating": lambda: [s.rating for s in end],
        "rating_before": lambda: [s.rating for s in start],
        "delta": lambda: [  # 0.0 at once for the players unchanged, most of them: no round() call each
            0.0 if e is s and e.rating == e.rating else round(e.rating - s.rating, 6)
            for e, s in zip(end, start, strict=True)
        ],
        **{k: functools.partial(tally.__getitem__, k) for k in ("games", "wins", "losses", "draws")},
        "rank_before": lambda: [s.rank for s in start],
        "bonus": lambda: _rounded(tally["bonus"]),
        "games_total": lambda: [s.games_total for s in end],
        "member": lambda: [member(n) for n in names],
        "deviation": lambda: _deviation(outcome.deviation, len(names)),
        **{k: functools.partial(marked.__getitem__, k) for k in marked},
    }
    return {f.name: _array(columns[f.name](), f.type) for f in schema if f.name != "rating_place"}


def _deviation(values: Sequence[float] | np.ndarray[Any, Any] | None, count: int) -> pa.Array:
    """The ``deviation`` column of the ratings: the rule set's (:attr:`PeriodOutcome.deviation`, in the
    order of the standings; NaN, a player without one, is null), else ``count`` nulls. Raises ValueError if
    the rule set gave another count."""
    if values is None:
        return pa.nulls(count, pa.float64())
    if len(values) != count:
        raise ValueError(f"the rule set gave {len(values)} deviations for {count} players")
    return pa.array(values, pa.float64(), from_pandas=True)


def _rounded(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``values`` with each non-zero value rounded to 6 places by Python's ``round`` (most are 0)."""
    found = values.copy()
    where = np.flatnonzero(found)
    found[where] = [round(value, 6) for value in found[where].tolist()]
    return found


def _array(values: Any, arrow_type: pa.DataType) -> pa.Array:
    """``values`` (a list, a numpy array or an Arrow array) as an Arrow array of ``arrow_type``."""
    return values if isinstance(values, pa.Array) else pa.array(values, arrow_type)


def _tallies(
    players: pa.Array,
    at: np.ndarray[Any, Any],
    changes: Sequence[Change],
    awards: Sequence[Mapping[str, Any]],
) -> dict[str, np.ndarray[Any, Any]]:
    """Per player of ``players`` (in that order): games, wins, losses, draws of ``changes`` (each the
    player at position ``at`` of ``players``) and the bonus of the changes and then the awards (summed in
    that order, as a running total would: numpy's ``add.at`` adds in order). An award to a player not in
    ``players`` is left out."""
    score = np.array([c.score for c in changes], np.float64)
    found = {
        name: np.bincount(at[where], minlength=len(players)).astype(np.int32)
        for name, where in (("games", slice(None)), ("wins", score == 1.0), ("losses", score == 0.0),
                            ("draws", score == 0.5))
    }  # fmt: skip
    bonus = np.zeros(len(players), np.float64)
    np.add.at(bonus, at, np.array([c.bonus for c in changes], np.float64))
    given = _positions([a["player"] for a in awards], players)
    points = np.array([a["points"] for a in awards], np.float64)
    np.add.at(bonus, given[given >= 0], points[given >= 0])
    return {**found, "bonus": bonus}


def _positions(names: list[str] | pa.Array, players: pa.Array) -> np.ndarray[Any, Any]:
    """The position in ``players`` of each of ``names`` (-1: not there)."""
    found = pc.index_in(
        names if isinstance(names, pa.Array) else pa.array(names, pa.string()), value_set=players
    )
    positions: np.ndarray[Any, Any] = pc.fill_null(found, -1).to_numpy(zero_copy_only=False).astype(np.int64)
    return positions


def _rows(rows: list[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=schema) if rows else schema.empty_table()
