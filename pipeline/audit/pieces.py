"""pieces: an ingested games source read one rating period at a time, in date order, the undated last.

The audit's rules never look across two periods: a duplicate has the same date, the opponent cap counts
games of one period, and the ``seq`` order sorts by date first. So the audit of each period's rows, in
period order with ``seq`` continuing from the piece before, equals the audit of the whole table, and a
run holds one period's games at a time. Every period kind is a run of whole months
(:mod:`~pipeline.core.periods`), so a source only has to read by month.

Knows nothing of where the rows are kept: a :class:`Source` says which months it has and reads some.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core.periods import UNDATED, month_keys, period_of

__all__ = ["UNDATED", "Source", "TableSource", "by_period", "groups", "month_keys"]


class Source(Protocol):
    """Ingested rows by month of their ``date``: ``YYYY-MM``, or :data:`UNDATED`."""

    def months(self) -> list[str]:
        """The months that have rows (any order)."""
        ...

    def read(self, months: Sequence[str]) -> pa.Table:
        """The rows of ``months`` (schema GAMES_INGEST), in any order."""
        ...

    def version(self, months: Sequence[str]) -> str | None:
        """A digest that changes whenever a row of ``months`` does (None: the source cannot tell)."""
        ...


def groups(source: Source, kind: str) -> list[tuple[str, list[str]]]:
    """The pieces of ``source`` for ``kind`` periods, each as its key (the period's label, or
    :data:`UNDATED`) and its months, periods in date order, then the undated.

    Raises :class:`~pipeline.core.periods.PeriodError` if ``kind`` is not a period kind."""
    months = source.months()
    found: dict[str, list[str]] = {}
    for month in sorted(m for m in months if m != UNDATED):
        found.setdefault(period_of(dt.date(int(month[:4]), int(month[5:7]), 1), kind), []).append(month)
    return [*found.items(), *([(UNDATED, [UNDATED])] if UNDATED in months else [])]


def by_period(source: Source, kind: str) -> Iterator[pa.Table]:
    """The rows of ``source`` one ``kind`` period at a time (:func:`groups`' order).

    Raises :class:`~pipeline.core.periods.PeriodError` if ``kind`` is not a period kind."""
    for _, months in groups(source, kind):
        yield source.read(months)


class TableSource:
    """A :class:`Source` over a whole table in memory (tests, and callers that hold the table)."""

    def __init__(self, table: pa.Table) -> None:
        keys = month_keys(table["date"]).combine_chunks() if table.num_rows else pa.array([], pa.string())
        encoded = pc.dictionary_encode(keys)
        order = np.argsort(encoded.indices.to_numpy(zero_copy_only=False), kind="stable")
        counts = np.bincount(
            encoded.indices.to_numpy(zero_copy_only=False), minlength=len(encoded.dictionary)
        )
        starts = np.concatenate([[0], np.cumsum(counts)])
        self._table, self._order = table, order
        self._where: dict[str, Any] = {
            key: (int(starts[i]), int(starts[i + 1])) for i, key in enumerate(encoded.dictionary.to_pylist())
        }

    def months(self) -> list[str]:
        return list(self._where)

    def version(self, months: Sequence[str]) -> str | None:
        return None  # a table in memory has no history: its pieces are always audited

    def read(self, months: Sequence[str]) -> pa.Table:
        picked = [self._order[a:b] for a, b in (self._where[m] for m in months if m in self._where)]
        return self._table.take(pa.array(np.concatenate(picked) if picked else [], pa.int64()))
