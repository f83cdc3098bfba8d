"""Tests for corrupt years (pipeline.ingest.normalise.years, read by dates) and for dates after the file's
modification time (dates.not_after)."""

from __future__ import annotations

import datetime

import pytest

from pipeline.ingest.normalise.dates import UNKNOWN_DATE, GameDate, not_after, parse_date
from pipeline.ingest.normalise.years import named_years, readings

D = datetime.date

# --- the years a corrupt year may be -------------------------------------------------------------


@pytest.mark.parametrize(
    ("digits", "years"),
    [("201919", (2019,)), ("202020", (2020,)), ("20199", (2019,)), ("22019", (2019,)), ("20119", (2019,))],
)
def test_a_year_with_digits_written_twice_has_one_reading(digits: str, years: tuple[int, ...]) -> None:
    assert readings(digits) == ("repeated", years)


def test_a_year_with_two_digits_each_written_twice_has_two_readings() -> None:
    assert readings("20099") == ("repeated", (2009, 2099))


def test_a_year_with_a_digit_missing_has_every_reading_of_1600_to_2100() -> None:
    assert readings("201") == ("dropped", (2001, *range(2010, 2020), *range(2021, 2092, 10)))


@pytest.mark.parametrize("digits", ["124", "1999", "20240", "123456", "019", "2"])
def test_other_digits_are_no_corrupt_year(digits: str) -> None:
    assert readings(digits) is None


def test_named_years_are_four_digits_of_1600_to_2100() -> None:
    assert named_years("2011 Cup, round 12, 20110, 1599 and 2101, 第2012届") == {2011, 2012}


# --- corrupt years in dates ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "day"),
    [
        ("201919-05-03", D(2019, 5, 3)),
        ("201919.5.3", D(2019, 5, 3)),
        ("20199-05-03", D(2019, 5, 3)),
        ("22019/05/03", D(2019, 5, 3)),
        ("200808-08-08", D(2008, 8, 8)),
    ],
)
def test_a_year_with_digits_written_twice_is_read(raw: str, day: datetime.date) -> None:
    found = parse_date(raw)
    assert (found.date, found.precision) == (day, "day")


def test_a_repaired_year_keeps_the_time_of_day() -> None:
    assert parse_date("201919-05-03 19:43").time == datetime.time(19, 43)


def test_a_repaired_year_says_so_in_the_note() -> None:
    assert (
        parse_date("201919-05-03").note
        == "DT: year 201919 has digits written twice: read as 2019, the only year it can be"
    )


def test_a_year_with_a_digit_missing_is_read_as_the_year_the_event_names() -> None:
    found = parse_date("201-5-3", None, "2011 Kisei Cup")
    assert (found.date, found.precision) == (D(2011, 5, 3), "day")
    assert found.note is not None and "read as 2011, the one the record names" in found.note


@pytest.mark.parametrize(
    ("dt", "rd"), [("201-5-3", "2011"), ("201-5-3 (2011)", None), ("201-5-3", "2011-05")]
)
def test_a_year_with_a_digit_missing_is_read_as_the_year_the_other_dates_name(
    dt: str, rd: str | None
) -> None:
    assert parse_date(dt, rd) == GameDate(D(2011, 5, 3), "day", None, parse_date(dt, rd).note)
    assert parse_date(dt, rd).note is not None


def test_a_repaired_date_outside_the_month_read_is_not_taken() -> None:
    assert parse_date("201-5-3", "2011-06") == GameDate(D(2011, 6, 1), "month", None)


def test_a_year_with_a_digit_missing_is_read_when_only_one_year_can_be() -> None:
    assert parse_date("215-5-3").date == D(2015, 5, 3)  # 2015: 2105 and later are past 2100


def test_a_year_with_a_digit_missing_and_nothing_named_is_no_date_with_a_note() -> None:
    found = parse_date("201-5-3")
    assert (found.date, found.precision, found.time) == (None, None, None)
    assert found.note == "DT: year 201 has a digit missing: one of 19 years from 2001 to 2091; no date read"


def test_a_year_whose_record_names_two_of_its_readings_is_no_date() -> None:
    found = parse_date("201-5-3", None, "2011 vs 2012 rematch")
    assert found.date is None and found.note is not None


def test_a_year_with_two_readings_is_no_date_unless_the_record_names_one() -> None:
    assert parse_date("20099-05-03").date is None
    assert parse_date("20099-05-03", None, "2009 Oza").date == D(2009, 5, 3)


def test_a_reading_whose_day_is_impossible_is_no_reading() -> None:
    assert parse_date("202-2-29", None, "2021 2020").date == D(2020, 2, 29)  # 2021 has no 29 February


def test_rd_with_a_corrupt_year_is_read_when_dt_is_missing() -> None:
    found = parse_date(None, "201919-8-12")
    assert found.date == D(2019, 8, 12)
    assert found.note is not None and found.note.startswith("RD: year 201919")


def test_a_readable_rd_wins_over_a_corrupt_dt() -> None:
    assert parse_date("201919-05-03", "2019-05-04") == GameDate(D(2019, 5, 4), "day", None)


def test_a_readable_date_later_in_dt_wins_over_a_corrupt_first_one() -> None:
    assert parse_date("201-5-3,2011-5-4").date == D(2011, 5, 4)


@pytest.mark.parametrize("raw", ["2019-05-03", "2009-8-12", "124-05-12", "20240-05-12", "0000-00-00"])
def test_dates_without_a_corrupt_year_have_no_note(raw: str) -> None:
    assert parse_date(raw).note is None


# --- dates after the file's modification time -----------------------------------------------------

LAST = D(2024, 6, 2)  # a file modified on 1 June 2024, one day's grace


def test_a_date_on_or_before_the_last_day_is_believed() -> None:
    found = GameDate(D(2024, 6, 2), "day", datetime.time(10, 0))
    assert not_after(found, LAST) is found


def test_a_later_day_of_the_same_year_keeps_only_its_year() -> None:
    found = not_after(GameDate(D(2024, 12, 5), "day", datetime.time(10, 0)), LAST)
    assert (found.date, found.precision, found.time) == (D(2024, 1, 1), "year", None)
    assert found.note == (
        "date 2024-12-05 is after the file was last modified (2024-06-02): only its year is kept"
    )


def test_a_later_month_of_the_same_year_keeps_only_its_year() -> None:
    assert not_after(GameDate(D(2024, 7, 1), "month", None), LAST).precision == "year"


def test_a_date_of_a_later_year_is_no_date() -> None:
    found = not_after(GameDate(D(2031, 5, 3), "day", None), LAST)
    assert (found.date, found.precision) == (None, None)
    assert found.note == "date 2031-05-03 is after the file was last modified (2024-06-02): not read"


def test_no_date_stays_no_date() -> None:
    assert not_after(UNKNOWN_DATE, LAST) is UNKNOWN_DATE
