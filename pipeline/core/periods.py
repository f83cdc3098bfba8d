"""periods: dates -> rating-period labels (``2024-05``, ``2024-Q2``, ``2024-H1``, ``2024``) and back.

One date (:func:`period_of`) or a whole date column (:func:`periods_of`, each distinct day computed once).
Knows nothing of games or rule sets: only the calendar arithmetic of the four period kinds.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core.arrays import mapped
from pipeline.core.i18n import N_, _

KINDS = ("month", "quarter", "half", "year")
_LABEL = re.compile(r"(\d{4})(?:-(\d{2})|-Q([1-4])|-H([12]))?\Z")
#: The spellings :func:`label_of` reads: a year, then a month (1 or 2 digits), a quarter or a half, after
#: a hyphen, slash, dot, space or nothing (casefolded, full-width forms NFKC-folded first).
_SPELLING = re.compile(r"(\d{4})(?:[-/. ]?(?:(\d{1,2})|q([1-4])|h([12])))?\Z")


#: The month key of a row without a date (:func:`month_keys`).
UNDATED = "undated"


BAD_LABEL = N_("bad period label: {label} (expected 2024-05, 2024-Q2, 2024-H1 or 2024)")


class PeriodError(ValueError):
    """Raised for a period kind or label that is not one of the four forms."""


def period_of(day: dt.date, kind: str) -> str:
    """The label of the ``kind`` period holding ``day``: ``2024-05``, ``2024-Q2``, ``2024-H1``, ``2024``.

    Raises :class:`PeriodError` if ``kind`` is not one of :data:`KINDS`.
    """
    if kind == "month":
        return f"{day.year:04d}-{day.month:02d}"
    if kind == "quarter":
        return f"{day.year:04d}-Q{(day.month - 1) // 3 + 1}"
    if kind == "half":
        return f"{day.year:04d}-H{1 if day.month <= 6 else 2}"
    if kind == "year":
        return f"{day.year:04d}"
    raise _bad_kind(kind)


def periods_of(days: pa.Array | pa.ChunkedArray, kind: str) -> pa.Array:
    """The :func:`period_of` label of each day of ``days`` (a ``date32`` column), null for a null day.

    Raises :class:`PeriodError` if ``kind`` is not one of :data:`KINDS` (whether or not a day is given).
    """
    if kind not in KINDS:
        raise _bad_kind(kind)
    return mapped(days, lambda day: period_of(day, kind), pa.string())


def _bad_kind(kind: str) -> PeriodError:
    return PeriodError(
        _("bad period kind: {kind} (expected one of {kinds})").format(kind=repr(kind), kinds=", ".join(KINDS))
    )


def bounds(label: str) -> tuple[dt.date, dt.date]:
    """The first and last day of the period ``label``.

    Raises :class:`PeriodError` if ``label`` is not a period label.
    """
    first_month, months = _months(label)
    year = int(label[:4])
    first = dt.date(year, first_month, 1)
    end_month = first_month + months
    after = dt.date(year + (end_month > 12), (end_month - 1) % 12 + 1, 1)
    return first, after - dt.timedelta(days=1)


def year_of(label: str) -> str:
    """The calendar year (``2024``) of the period ``label`` (every period lies in one calendar year):
    the year whose board holds it. Raises :class:`PeriodError` if ``label`` is not a period label."""
    return _parse(label).group(1)


def following(label: str) -> str:
    """The label of the period right after ``label`` (same kind). Raises :class:`PeriodError` if bad."""
    return period_of(bounds(label)[1] + dt.timedelta(days=1), kind_of(label))


def ordinal(label: str) -> int:
    """The position of the period ``label`` among the periods of its kind: consecutive periods of one kind
    have consecutive ordinals (``2024-12`` and ``2025-01``, ``2024-H2`` and ``2025-H1``), so that the
    difference of two is the number of periods between them. Raises :class:`PeriodError` if bad."""
    first_month, months = _months(label)
    return (int(label[:4]) * 12 + first_month - 1) // months


def span(first: str, last: str) -> list[str]:
    """Every period label from ``first`` to ``last`` inclusive (same kind); empty if ``last`` < ``first``."""
    labels: list[str] = []
    label = first
    while bounds(label)[0] <= bounds(last)[0]:
        labels.append(label)
        label = following(label)
    return labels


def label_of(text: str) -> str:
    """The period label ``text`` spells: ``2024-5``, ``2024/05``, ``2024.5`` and ``202405`` are ``2024-05``;
    ``2024q2`` and ``2024 Q2`` are ``2024-Q2``; ``2024-h1`` is ``2024-H1``; a label is itself.

    Raises :class:`PeriodError` if ``text`` spells no period (a month outside 1-12 too).
    """
    match = _SPELLING.match(unicodedata.normalize("NFKC", text).strip().casefold())
    if match is None or (match[2] and not 1 <= int(match[2]) <= 12):
        raise PeriodError(_(BAD_LABEL).format(label=repr(text)))
    year, month, quarter, half = match.groups()
    if month:
        return f"{year}-{int(month):02d}"
    return f"{year}-Q{quarter}" if quarter else f"{year}-H{half}" if half else year


def kind_of(label: str) -> str:
    """The kind of period ``label`` names. Raises :class:`PeriodError` if it is not a period label."""
    match = _parse(label)
    return "month" if match[2] else "quarter" if match[3] else "half" if match[4] else "year"


def _months(label: str) -> tuple[int, int]:
    match = _parse(label)
    if match[2]:
        return int(match[2]), 1
    if match[3]:
        return 3 * int(match[3]) - 2, 3
    if match[4]:
        return 6 * int(match[4]) - 5, 6
    return 1, 12


def _parse(label: str) -> re.Match[str]:
    match = _LABEL.match(label)
    if not match or (match[2] and not 1 <= int(match[2]) <= 12):
        raise PeriodError(_(BAD_LABEL).format(label=repr(label)))
    return match


def month_keys(dates: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The month key (``YYYY-MM``, :data:`UNDATED` for null) of each date of a ``date32`` column: the
    unit the ingest cache keeps rows by and the audit reads them by (every period is whole months)."""
    return pc.fill_null(pc.strftime(dates, format="%Y-%m"), UNDATED)
