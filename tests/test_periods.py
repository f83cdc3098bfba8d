"""pipeline.core.periods: dates to period labels and back, for the four period kinds."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest

from pipeline.core.periods import (
    KINDS,
    PeriodError,
    bounds,
    following,
    kind_of,
    label_of,
    period_of,
    periods_of,
    span,
)

D = dt.date


@pytest.mark.parametrize(
    ("day", "kind", "label"),
    [
        (D(2024, 5, 17), "month", "2024-05"),
        (D(2024, 12, 31), "month", "2024-12"),
        (D(2024, 1, 1), "quarter", "2024-Q1"),
        (D(2024, 3, 31), "quarter", "2024-Q1"),
        (D(2024, 4, 1), "quarter", "2024-Q2"),
        (D(2024, 9, 30), "quarter", "2024-Q3"),
        (D(2024, 10, 1), "quarter", "2024-Q4"),
        (D(2024, 6, 30), "half", "2024-H1"),
        (D(2024, 7, 1), "half", "2024-H2"),
        (D(2024, 12, 31), "year", "2024"),
        (D(987, 2, 3), "month", "0987-02"),
    ],
)
def test_period_of_labels_the_period_holding_the_day(day: dt.date, kind: str, label: str) -> None:
    assert period_of(day, kind) == label


def test_period_of_rejects_an_unknown_kind_naming_it() -> None:
    with pytest.raises(PeriodError, match="'week'"):
        period_of(D(2024, 5, 1), "week")


@pytest.mark.parametrize("kind", KINDS)
def test_periods_of_labels_each_day_of_a_column_and_keeps_nulls(kind: str) -> None:
    days = [D(2024, 5, 17), None, D(2023, 12, 31), D(2024, 5, 17), D(987, 2, 3)]
    got = periods_of(pa.chunked_array([days[:2], days[2:]], pa.date32()), kind)
    assert got.to_pylist() == [None if day is None else period_of(day, kind) for day in days]


def test_periods_of_rejects_an_unknown_kind_even_without_days() -> None:
    with pytest.raises(PeriodError, match="'week'"):
        periods_of(pa.array([], pa.date32()), "week")


@pytest.mark.parametrize(
    ("label", "first", "last"),
    [
        ("2024-05", D(2024, 5, 1), D(2024, 5, 31)),
        ("2024-02", D(2024, 2, 1), D(2024, 2, 29)),  # 2024 is a leap year
        ("2023-02", D(2023, 2, 1), D(2023, 2, 28)),
        ("2024-12", D(2024, 12, 1), D(2024, 12, 31)),
        ("2024-Q2", D(2024, 4, 1), D(2024, 6, 30)),
        ("2024-Q4", D(2024, 10, 1), D(2024, 12, 31)),
        ("2024-H1", D(2024, 1, 1), D(2024, 6, 30)),
        ("2024-H2", D(2024, 7, 1), D(2024, 12, 31)),
        ("2024", D(2024, 1, 1), D(2024, 12, 31)),
    ],
)
def test_bounds_are_the_first_and_last_day(label: str, first: dt.date, last: dt.date) -> None:
    assert bounds(label) == (first, last)


@pytest.mark.parametrize("kind", KINDS)
def test_bounds_hold_exactly_the_days_of_their_period(kind: str) -> None:
    day = D(2024, 1, 1)
    while day.year == 2024:
        first, last = bounds(period_of(day, kind))
        assert first <= day <= last
        day += dt.timedelta(days=1)


@pytest.mark.parametrize(
    ("label", "after"),
    [
        ("2024-05", "2024-06"),
        ("2024-12", "2025-01"),
        ("2024-Q3", "2024-Q4"),
        ("2024-Q4", "2025-Q1"),
        ("2024-H1", "2024-H2"),
        ("2024-H2", "2025-H1"),
        ("2024", "2025"),
    ],
)
def test_following_is_the_next_period_of_the_same_kind(label: str, after: str) -> None:
    assert following(label) == after


def test_span_lists_every_period_across_a_year_end() -> None:
    assert span("2024-11", "2025-02") == ["2024-11", "2024-12", "2025-01", "2025-02"]


def test_span_of_quarters() -> None:
    assert span("2024-Q3", "2025-Q1") == ["2024-Q3", "2024-Q4", "2025-Q1"]


def test_span_of_one_period_is_that_period() -> None:
    assert span("2024-H2", "2024-H2") == ["2024-H2"]


def test_span_is_empty_when_last_is_before_first() -> None:
    assert span("2024-05", "2024-04") == []


@pytest.mark.parametrize(
    ("label", "kind"),
    [("2024-05", "month"), ("2024-Q2", "quarter"), ("2024-H1", "half"), ("2024", "year")],
)
def test_kind_of_names_the_kind(label: str, kind: str) -> None:
    assert kind_of(label) == kind


@pytest.mark.parametrize("label", ["2024-13", "2024-00", "2024-Q5", "2024-H3", "24-05", "2024-5", "may", ""])
def test_bad_labels_raise_period_error_naming_the_label(label: str) -> None:
    for function in (kind_of, bounds, following):
        with pytest.raises(PeriodError, match=f"bad period label: '{label}'"):
            function(label)


def test_span_rejects_a_bad_label_naming_it() -> None:
    with pytest.raises(PeriodError, match="'2024-13'"):
        span("2024-01", "2024-13")


def test_period_error_is_a_value_error() -> None:
    assert issubclass(PeriodError, ValueError)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("2024-5", "2024-05"),
        ("2024/05", "2024-05"),
        ("202405", "2024-05"),
        ("２０２４－５", "2024-05"),
        ("2024q2", "2024-Q2"),
        ("2024 Q2", "2024-Q2"),
        ("2024-h1", "2024-H1"),
        ("2024", "2024"),
        ("2024-Q2", "2024-Q2"),
    ],
)
def test_label_of_reads_the_obvious_spellings_of_a_period(text: str, label: str) -> None:
    assert label_of(text) == label


@pytest.mark.parametrize("text", ["2024-13", "2024-Q5", "May 2024", ""])
def test_label_of_a_text_that_spells_no_period_raises_naming_it(text: str) -> None:
    with pytest.raises(PeriodError, match=repr(text)):
        label_of(text)
