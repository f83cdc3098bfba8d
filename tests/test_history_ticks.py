"""The history chart's time axis (:func:`pipeline.reports.plots.history_ticks`): the first day, then
period ends evenly spaced, none crowding the first (a server's ten years of months labelled
``2016-01-01`` and ``2016-01-31`` on top of each other)."""

from __future__ import annotations

import datetime as dt
import itertools

from pipeline.reports.plots import _MAX_TICKS, history_ticks


def _months(first_year: int, count: int) -> list[str]:
    return [f"{first_year + k // 12}-{k % 12 + 1:02d}" for k in range(count)]


def test_a_long_run_labels_the_first_day_then_ends_evenly_spaced() -> None:
    ticks = history_ticks(_months(2016, 120))
    assert ticks[0] == dt.date(2016, 1, 1)
    assert len(ticks) <= _MAX_TICKS + 1
    gaps = [(b - a).days for a, b in itertools.pairwise(ticks)]
    assert min(gaps) >= 0.8 * max(gaps)  # (months differ by a few days, no more)


def test_a_short_run_labels_every_period_end() -> None:
    ticks = history_ticks(_months(2024, 3))
    assert ticks == [dt.date(2024, 1, 1), dt.date(2024, 1, 31), dt.date(2024, 2, 29), dt.date(2024, 3, 31)]


def test_one_period_is_its_first_and_last_day() -> None:
    assert history_ticks(["2024-05"]) == [dt.date(2024, 5, 1), dt.date(2024, 5, 31)]
