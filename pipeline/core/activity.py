"""activity: who has played lately. A span of time (``[output] active_within``, such as ``"24 months"``),
each player's last counted game, and whether they are active at a day: with a counted game in the span
that ends on that day.

A span is a number of days, weeks, months or years (:func:`span_of`). The span that ends on day ``E``
(the last day of a period) starts on ``E + 1 day - span``: 24 months before the period's end, a month
period with ``"1 month"``, a year period with ``"1 year"``, are exactly the period. A player whose last
counted game was on day ``L`` is active on every day before ``L + span`` and inactive from that day
(``inactive_since``); ``L + span`` moves the calendar month on, keeping the day of the month or the last
day of a shorter month (2024-01-31 + 1 month = 2024-02-29). A player with no counted game at all is
inactive when a span is set, since no day. Without a span (the default) everyone is active.

Computed a column at a time: the days are numpy ``int32`` days since 1970-01-01 (Arrow's ``date32``),
:data:`NO_DAY` for none. :class:`LastCounted` carries each player's last counted day from one period
to the next, aligned with the standings' order of names. Knows nothing of games, rule sets or files.
numpy and pyarrow are imported by the functions that compute: the configuration imports this module
(a span), and every command reads the configuration.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pipeline.core.i18n import N_, _, ngettext

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

#: The day of a player with no counted game (Arrow's ``date32`` of a null): the least ``int32``.
NO_DAY = -(2**31)
EPOCH = dt.date(1970, 1, 1)
#: The units a span may be written in (after NFKC folding and casefolding), each as days or months.
_UNITS = {
    "day": ("day", 1), "days": ("day", 1), "d": ("day", 1), "天": ("day", 1), "日": ("day", 1),
    "week": ("week", 7), "weeks": ("week", 7), "w": ("week", 7), "周": ("week", 7), "週": ("week", 7),
    "星期": ("week", 7),
    "month": ("month", 1), "months": ("month", 1), "个月": ("month", 1), "個月": ("month", 1),
    "月": ("month", 1),
    "year": ("year", 12), "years": ("year", 12), "y": ("year", 12), "年": ("year", 12),
}  # fmt: skip
_SPAN = re.compile(r"(\d+)\s*([^\d\s]+)\Z")
#: What a span may be written as (a message's "must be ...").
EXPECTED = N_('a span of time such as "24 months", "2 years", "6 weeks" or "90 days"')


class SpanError(ValueError):
    """Raised for text that is not a span of time (the message names it)."""


@dataclass(frozen=True, slots=True)
class Span:
    """``count`` units of ``unit`` (``day``, ``week``, ``month``, ``year``)."""

    count: int
    unit: str

    @property
    def text(self) -> str:
        """The span as the manifest records it: ``24 months``, ``1 year``, ``90 days``."""
        return f"{self.count} {self.unit}{'' if self.count == 1 else 's'}"

    @property
    def _days(self) -> int:
        """The span in days (0 for a span of months or years)."""
        return self.count * dict(day=1, week=7).get(self.unit, 0)

    @property
    def _months(self) -> int:
        """The span in months (0 for a span of days or weeks)."""
        return self.count * dict(month=1, year=12).get(self.unit, 0)

    def after(self, days: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """Each of ``days`` (``int32`` days since 1970-01-01) moved on by the span, as ``int32`` days:
        calendar months keep the day of the month, or the last day of a shorter month. Many days over a
        short range (a server's standings) are looked up in a table of the range's days, moved once."""
        import numpy as np

        if self._days:
            return (days.astype(np.int64) + self._days).astype(np.int32)
        if len(days) > 64:
            low, high = int(days.min()), int(days.max())
            if high - low < len(days):
                table = self._moved(np.arange(low, high + 1, dtype=np.int64))
                looked_up: np.ndarray[Any, Any] = table[days.astype(np.int64) - low]
                return looked_up
        return self._moved(days)

    def _moved(self, days: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """:meth:`after` for a span of months, each day computed."""
        import numpy as np

        moments = days.astype("datetime64[D]")
        month = moments.astype("datetime64[M]")
        day_of_month = (moments - month.astype("datetime64[D]")).astype(np.int64)
        target = month + np.timedelta64(self._months, "M")
        last = (target + np.timedelta64(1, "M")).astype("datetime64[D]") - np.timedelta64(1, "D")
        moved = np.minimum(target.astype("datetime64[D]") + day_of_month, last)
        found: np.ndarray[Any, Any] = moved.astype(np.int64).astype(np.int32)
        return found

    def start(self, end: dt.date) -> dt.date:
        """The first day of the span that ends on ``end`` (included): a counted game on that day or later
        keeps a player active on ``end``, one the day before does not (the first day whose
        :meth:`after` is later than ``end``)."""
        import numpy as np

        last = day_number(end)
        days = np.arange(last - self._days - 31 * (self._months + 1), last + 2, dtype=np.int32)
        return EPOCH + dt.timedelta(days=int(days[np.argmax(self.after(days) > last)]))


def span_words(span: Span) -> str:
    """``span`` in the language spoken: ``24 months``, ``24个月``."""
    n = span.count
    if span.unit == "day":
        return ngettext("{n} day", "{n} days", n).format(n=n)
    if span.unit == "week":
        return ngettext("{n} week", "{n} weeks", n).format(n=n)
    if span.unit == "month":
        return ngettext("{n} month", "{n} months", n).format(n=n)
    return ngettext("{n} year", "{n} years", n).format(n=n)


def span_of(text: str) -> Span:
    """The span ``text`` spells: a whole number above 0 and a unit, ``24 months``, ``2 years``, ``6 weeks``,
    ``90 days`` (singular or plural, ``d``/``w``/``y``, or 天, 周, 个月, 年; case, width and the space
    between aside). Raises :class:`SpanError` naming ``text`` if it spells none."""
    match = _SPAN.match(unicodedata.normalize("NFKC", str(text)).strip().casefold())
    found = _UNITS.get(match[2]) if match else None
    if match is None or found is None or int(match[1]) < 1:
        raise SpanError(_("bad span of time: {text} (expected {expected})").format(
            text=repr(text), expected=_(EXPECTED)))  # fmt: skip
    return Span(int(match[1]), found[0])


def day_number(day: dt.date) -> int:
    """``day`` as days since 1970-01-01."""
    return (day - EPOCH).days


def marks(last: np.ndarray[Any, Any], end: dt.date, span: Span | None) -> dict[str, pa.Array]:
    """The activity columns on day ``end`` of players whose last counted days are ``last`` (``int32``,
    :data:`NO_DAY` for none): ``last_counted`` (``date32``, null for none), ``active`` (bool: everyone
    when ``span`` is None) and ``inactive_since`` (``date32``: the day the span ran out, null for an
    active player or one with no counted game)."""
    import numpy as np
    import pyarrow as pa

    known = last != NO_DAY
    counted = pa.array(last, pa.int32(), mask=~known).cast(pa.date32())
    if span is None:
        return {
            "last_counted": counted,
            "active": pa.array(np.ones(len(last), np.bool_)),
            "inactive_since": pa.nulls(len(last), pa.date32()),
        }
    since = np.full(len(last), NO_DAY, np.int32)
    since[known] = span.after(last[known])
    active = known & (since > day_number(end))
    return {
        "last_counted": counted,
        "active": pa.array(active),
        "inactive_since": pa.array(since, pa.int32(), mask=active | ~known).cast(pa.date32()),
    }


def days_of(dates: pa.Array | pa.ChunkedArray) -> np.ndarray[Any, Any]:
    """A ``date32`` column as ``int32`` days, :data:`NO_DAY` for a null."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    return np.asarray(pc.fill_null(dates.cast(pa.date32()).cast(pa.int32()), NO_DAY).to_numpy(), np.int32)


def _no_days() -> np.ndarray[Any, Any]:
    """No days (an empty ``int32`` array)."""
    import numpy as np

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
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc

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
