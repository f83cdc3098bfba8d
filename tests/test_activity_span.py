"""The span of activity (pipeline/core/activity.py): how `[output] active_within` is read; and its
arithmetic (pipeline/core/activity_columns.py): the calendar arithmetic of a span, and the activity
columns of a period's last counted days."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pyarrow as pa
import pytest

from pipeline.core.activity import Span, SpanError, day_number, span_of
from pipeline.core.activity_columns import NO_DAY, LastCounted, after, marks, start


def _days(*days: str) -> np.ndarray:
    return np.array([day_number(dt.date.fromisoformat(d)) for d in days], np.int32)


def _dates(days: np.ndarray) -> list[str]:
    return [str(dt.date(1970, 1, 1) + dt.timedelta(days=int(d))) for d in days]


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("24 months", Span(24, "month")),
        ("1 month", Span(1, "month")),
        ("2 Years", Span(2, "year")),
        ("6w", Span(6, "week")),
        ("９０ days", Span(90, "day")),
        ("2年", Span(2, "year")),
        ("24个月", Span(24, "month")),
        ("18 個月", Span(18, "month")),
    ],
)
def test_a_span_is_a_number_and_a_unit(text: str, span: Span) -> None:
    assert span_of(text) == span


@pytest.mark.parametrize("text", ["two years", "0 days", "24", "months", "24 monthss", "-3 days", ""])
def test_text_that_spells_no_span_is_refused_naming_it(text: str) -> None:
    with pytest.raises(SpanError, match=f"bad span of time: {text!r}"):
        span_of(text)


def test_the_span_is_recorded_in_english_words() -> None:
    assert [span_of(t).text for t in ("24 months", "1 year", "90 d")] == ["24 months", "1 year", "90 days"]


def test_a_span_of_months_keeps_the_day_of_the_month() -> None:
    assert _dates(after(span_of("24 months"), _days("2022-05-15"))) == ["2024-05-15"]


def test_a_span_of_months_ends_on_the_last_day_of_a_shorter_month() -> None:
    moved = after(span_of("1 month"), _days("2024-01-31", "2023-01-31", "2024-03-31"))
    assert _dates(moved) == ["2024-02-29", "2023-02-28", "2024-04-30"]


def test_a_span_of_years_from_the_29th_of_february_ends_on_the_28th() -> None:
    assert _dates(after(span_of("1 year"), _days("2024-02-29"))) == ["2025-02-28"]


def test_a_span_of_weeks_is_seven_days_each() -> None:
    assert _dates(after(span_of("2 weeks"), _days("2024-12-25"))) == ["2025-01-08"]


def test_a_span_of_a_year_ending_with_a_year_period_is_the_year() -> None:
    assert start(span_of("1 year"), dt.date(2024, 12, 31)) == dt.date(2024, 1, 1)


def test_the_start_of_a_span_is_the_first_day_a_game_keeps_a_player_active() -> None:
    span, end = span_of("1 month"), dt.date(2024, 3, 30)
    first = start(span, end)
    found = marks(_days(str(first), str(first - dt.timedelta(days=1))), end, span)["active"]
    assert found.to_pylist() == [True, False]


def test_without_a_span_everyone_is_active() -> None:
    found = marks(np.array([NO_DAY, *_days("1990-01-01")], np.int32), dt.date(2024, 5, 31), None)
    assert found["active"].to_pylist() == [True, True] and found["inactive_since"].null_count == 2


def test_a_player_with_no_counted_game_is_inactive_since_no_day() -> None:
    found = marks(np.array([NO_DAY], np.int32), dt.date(2024, 5, 31), span_of("2 years"))
    assert found["active"].to_pylist() == [False] and found["inactive_since"].to_pylist() == [None]


def test_the_last_counted_days_follow_the_players_when_the_standings_change_order() -> None:
    last = LastCounted(["a", "b"], _days("2024-01-01", "2024-02-01"))
    names = ["b", "c", "a"]
    found = last.advance(names, pa.array(names), np.array([1]), _days("2024-03-01"))
    assert _dates(found[[0, 2]]) == ["2024-02-01", "2024-01-01"] and _dates(found[[1]]) == ["2024-03-01"]


def test_an_earlier_change_does_not_move_a_later_last_counted_day_back() -> None:
    last = LastCounted(["a"], _days("2024-03-01"))
    found = last.advance(["a"], pa.array(["a"]), np.array([0]), _days("2024-02-10"))
    assert _dates(found) == ["2024-03-01"]


def test_many_days_move_as_each_day_moves_alone() -> None:
    days = np.random.default_rng(3).integers(
        day_number(dt.date(2005, 1, 1)), day_number(dt.date(2016, 1, 1)), 5000
    )
    span = span_of("1 month")
    alone = np.concatenate([after(span, days[i : i + 1]) for i in range(len(days))])
    assert (after(span, days.astype(np.int32)) == alone).all()
