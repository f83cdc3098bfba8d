"""activity: who has played lately, as the configuration says it: a span of time (``[output]
active_within``, such as ``"24 months"``), read and said (:func:`span_of`, :func:`span_words`).

A span is a number of days, weeks, months or years. The span that ends on day ``E`` (the last day of a
period) starts on ``E + 1 day - span``: 24 months before the period's end, a month period with
``"1 month"``, a year period with ``"1 year"``, are exactly the period. A player whose last counted game
was on day ``L`` is active on every day before ``L + span`` and inactive from that day
(``inactive_since``); ``L + span`` moves the calendar month on, keeping the day of the month or the last
day of a shorter month (2024-01-31 + 1 month = 2024-02-29). A player with no counted game at all is
inactive when a span is set, since no day. Without a span (the default) everyone is active.

The arithmetic over many players at once (the days a span moves, the activity columns, each player's last
counted day carried from period to period) is :mod:`pipeline.core.activity_columns`'s: this module imports
neither numpy nor pyarrow, since the configuration reads a span and every command reads the configuration.
Knows nothing of games, rule sets or files.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass

from pipeline.core.i18n import N_, _, ngettext

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
    def days(self) -> int:
        """The span in days (0 for a span of months or years)."""
        return self.count * dict(day=1, week=7).get(self.unit, 0)

    @property
    def months(self) -> int:
        """The span in months (0 for a span of days or weeks)."""
        return self.count * dict(month=1, year=12).get(self.unit, 0)


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
