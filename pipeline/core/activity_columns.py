"""activity_columns: who has played lately, a column at a time: the days a span of activity
(:class:`pipeline.core.activity.Span`) moves, the activity columns of standings (:func:`marks`), and each
player's last counted day carried from one period to the next (:class:`LastCounted`).

The days are numpy ``int32`` days since 1970-01-01 (Arrow's ``date32``), :data:`NO_DAY` for none;
:class:`LastCounted` keeps them aligned with the standings' order of names. The rule of activity is
:mod:`pipeline.core.activity`'s docstring. Knows nothing of games, rule sets or files.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core import buffers
from pipeline.core.activity import EPOCH, Span, day_number

#: The day of a player with no counted game (Arrow's ``date32`` of a null): the least ``int32``.
NO_DAY = -(2**31)


def after(span: Span, days: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Each of ``days`` (``int32`` days since 1970-01-01) moved on by ``span``, as ``int32`` days:
    calendar months keep the day of the month, or the last day of a shorter month. Many days over a
    short range (a server's standings) are looked up in a table of the range's days, moved once."""
    if span.days:
        return (days.astype(np.int64) + span.days).astype(np.int32)
    if len(days) > 64:
        low, high = int(days.min()), int(days.max())
        if high - low < len(days):
            table = _moved(span, np.arange(low, high + 1, dtype=np.int64))
            looked_up: np.ndarray[Any, Any] = table[days.astype(np.int64) - low]
            return looked_up
    return _moved(span, days)


def _moved(span: Span, days: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """:func:`after` for a span of months, each day computed."""
    moments = days.astype("datetime64[D]")
    month = moments.astype("datetime64[M]")
    day_of_month = (moments - month.astype("datetime64[D]")).astype(np.int64)
    target = month + np.timedelta64(span.months, "M")
    last = (target + np.timedelta64(1, "M")).astype("datetime64[D]") - np.timedelta64(1, "D")
    moved = np.minimum(target.astype("datetime64[D]") + day_of_month, last)
    found: np.ndarray[Any, Any] = moved.astype(np.int64).astype(np.int32)
    return found


def start(span: Span, end: dt.date) -> dt.date:
    """The first day of ``span`` ending on ``end`` (included): a counted game on that day or later keeps
    a player active on ``end``, one the day before does not (the first day whose :func:`after` is later
    than ``end``)."""
    last = day_number(end)
    days = np.arange(last - span.days - 31 * (span.months + 1), last + 2, dtype=np.int32)
    return EPOCH + dt.timedelta(days=int(days[np.argmax(after(span, days) > last)]))


def marks(last: np.ndarray[Any, Any], end: dt.date, span: Span | None) -> dict[str, pa.Array]:
    """The activity columns on day ``end`` of players whose last counted days are ``last`` (``int32``,
    :data:`NO_DAY` for none): ``last_counted`` (``date32``, null for none), ``active`` (bool: everyone
    when ``span`` is None) and ``inactive_since`` (``date32``: the day the span ran out, null for an
    active player or one with no counted game)."""
    last = np.asarray(last, np.int32)
    known = last != NO_DAY
    counted = buffers.numbers(last, valid=known).cast(pa.date32())
    if span is None:
        return {
            "last_counted": counted,
            "active": buffers.flags(np.ones(len(last), np.bool_)),
            "inactive_since": pa.nulls(len(last), pa.date32()),
        }
    since = np.full(len(last), NO_DAY, np.int32)
    since[known] = after(span, last[known])
    active = known & (since > day_number(end))
    return {
        "last_counted": counted,
        "active": buffers.flags(active),
        "inactive_since": buffers.numbers(since, valid=~(active | ~known)).cast(pa.date32()),
    }


def days_of(dates: pa.Array | pa.ChunkedArray) -> np.ndarray[Any, Any]:
    """A ``date32`` column (or a timestamp one) as ``int32`` days, :data:`NO_DAY` for a null."""
    days = buffers.numpy_of(dates.cast(pa.date32()).cast(pa.int32()))
    return np.where(np.isnan(days), NO_DAY, days).astype(np.int32) if days.dtype.kind == "f" else days


def _no_days() -> np.ndarray[Any, Any]:
    """No days (an empty ``int32`` array)."""
    return np.empty(0, np.int32)


@dataclass(slots=True)
class LastCounted:
    """Each player's last counted day at the end of the period before (``days``, in the order of
    ``names``), carried to the next period by :meth:`advance`."""

    names: list[str] = field(default_factory=list)
    days: np.ndarray[Any, Any] = field(default_factory=_no_days)

    @classmethod
    def of(cls, table: pa.Table) -> LastCounted:
        """The last counted days of a ratings table (``player``, ``last_counted``)."""
        return cls(table.column("player").to_pylist(), days_of(table.column("last_counted")))

    def advance(
        self, names: list[str], players: pa.Array, at: np.ndarray[Any, Any], played: np.ndarray[Any, Any]
    ) -> np.ndarray[Any, Any]:
        """The last counted day of each of ``names`` (the period's standings, ``players`` the same as an
        Arrow array) after the period's changes, each the player at position ``at`` in ``names`` who
        played on day ``played``; becomes the carried state. Standings that keep the names of the
        period before first, in the same order (as the rule sets hand them on), are aligned without a
        look-up."""
        found = np.full(len(names), NO_DAY, np.int32)
        size = len(self.names)
        if size <= len(names) and names[:size] == self.names:
            found[:size] = self.days
        elif size:
            where = pc.fill_null(pc.index_in(pa.array(self.names, pa.string()), value_set=players), -1)
            moved = np.asarray(where.to_numpy(zero_copy_only=False), np.int64)
            found[moved[moved >= 0]] = self.days[moved >= 0]
        if len(at):
            np.maximum.at(found, at, played.astype(np.int32))
        self.names, self.days = names, found
        return found
