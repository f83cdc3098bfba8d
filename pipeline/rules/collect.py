"""collect: one rated period's outcome as the rows of the output datasets, built column by column.

:func:`period_tables` turns a :class:`~pipeline.rules.base.PeriodOutcome` into the period's ``ratings``
(one row per player of the standings, placed by rating), ``changes``, ``awards`` and ``promotions``
tables. The standings hold every player seen so far, so ``ratings`` has far more rows than the period
has games: its columns are read from the standings with one list comprehension per column, the players
without a game in the period get their zero tallies from numpy, and the place comes from Arrow's sort and
rank; no dict per row (docs/design.md#period-tables).

Knows nothing of how the outcome was reached, nor of files.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.rules.base import Change, Game, PeriodOutcome

#: The base columns of a change row; the rule set's own (``detail``) follow.
_CHANGE_BASE = ("period", "game_id", "date", "seq", "player", "opponent", "color", "score",
                "rating_before", "delta", "points", "bonus", "bonus_rule", "event", "speed",
                "deviation")  # fmt: skip


def period_tables(
    label: str,
    outcome: PeriodOutcome,
    games: Mapping[str, Game],
    member: Callable[[str], bool],
    schemas: Mapping[str, pa.Schema],
) -> dict[str, pa.Table]:
    """The tables of ``outcome`` (period ``label``; ``games`` by id; ``member`` tells a roster member;
    ``schemas`` each dataset's schema with ``period``): ``ratings``, ``changes``, ``awards``,
    ``promotions``. Raises KeyError if a change names a game not in ``games``."""
    awards = [
        {"period": label, "player": a.award.player, "date": a.award.date, "event": a.award.event,
         "kind": a.kind, "points": a.points, "note": a.award.note}
        for a in outcome.awards
    ]  # fmt: skip
    promotions = [{**dataclasses.asdict(p), "period": label} for p in outcome.promotions]
    ratings = schemas["ratings"]
    return {
        "ratings": _ratings(_unsorted(label, outcome, awards, member, ratings), ratings)
        if outcome.end
        else ratings.empty_table(),
        "changes": _changes(label, outcome.changes, games, schemas["changes"]),
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
    place = pc.rank(table["rating"], sort_keys="descending", tiebreaker="min")
    return table.append_column(schema.field("rating_place"), place.cast(pa.int32())).select(schema.names)


def _unsorted(
    label: str,
    outcome: PeriodOutcome,
    awards: Sequence[Mapping[str, Any]],
    member: Callable[[str], bool],
    schema: pa.Schema,
) -> dict[str, pa.Array]:
    """The ratings columns of ``schema`` (``rating_place`` aside) by name, in standings order. Each column is
    an Arrow array before the next list is built: a list of Python values is a pointer a player, and
    often a new object a player too (docs/design.md#period-tables)."""
    names = list(outcome.end)
    end = list(outcome.end.values())
    before = outcome.start.get
    start = [before(n, e) for n, e in zip(names, end, strict=True)]  # (absent: unchanged)
    players = pa.array(names, pa.string())
    tally = _tallies(players, outcome.changes, awards)
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
    }
    return {f.name: _array(columns[f.name](), f.type) for f in schema if f.name != "rating_place"}


def _deviation(values: Sequence[float] | np.ndarray[Any, Any] | None, count: int) -> pa.Array:
    """The ``deviation`` column of the ratings: the rule set's (:attr:`PeriodOutcome.deviation`, in the
    order of the standings), else ``count`` nulls. Raises ValueError if the rule set gave another count."""
    if values is None:
        return pa.nulls(count, pa.float64())
    if len(values) != count:
        raise ValueError(f"the rule set gave {len(values)} deviations for {count} players")
    return pa.array(values, pa.float64())


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
    players: pa.Array, changes: Sequence[Change], awards: Sequence[Mapping[str, Any]]
) -> dict[str, np.ndarray[Any, Any]]:
    """Per player of ``players`` (in that order): games, wins, losses, draws of ``changes`` and the
    bonus of the changes and then the awards (summed in that order, as a running total would: numpy's
    ``add.at`` adds in order). An award to a player not in ``players`` is left out. Raises KeyError if a
    change names a player not in ``players``."""
    at = _positions([c.player for c in changes], players)
    if (at < 0).any():
        raise KeyError(changes[int(np.flatnonzero(at < 0)[0])].player)
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


def _positions(names: list[str], players: pa.Array) -> np.ndarray[Any, Any]:
    """The position in ``players`` of each of ``names`` (-1: not there)."""
    found = pc.index_in(pa.array(names, pa.string()), value_set=players)
    positions: np.ndarray[Any, Any] = pc.fill_null(found, -1).to_numpy(zero_copy_only=False).astype(np.int64)
    return positions


def _rows(rows: list[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=schema) if rows else schema.empty_table()
