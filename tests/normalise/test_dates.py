"""Tests for pipeline.ingest.normalise.dates: every DT/RD form seen in the corpora and on CJK servers."""

from __future__ import annotations

import datetime
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.ingest.normalise.dates import UNKNOWN_DATE, GameDate, parse_date

D = datetime.date
T = datetime.time


@pytest.mark.parametrize(
    ("raw", "day"),
    [
        # FF4, as nearly every server writes it
        ("2016-03-13", D(2016, 3, 13)),
        ("1835-07-27", D(1835, 7, 27)),
        # FF4 lists and ranges: the first day
        ("2016-03-13,14", D(2016, 3, 13)),
        ("1977-05-23,24", D(1977, 5, 23)),
        ("2002-10-16,17", D(2002, 10, 16)),
        ("2004-05-01,2004-05-02", D(2004, 5, 1)),
        ("2019-02-28,2020-02-29,2021-01-10,11,12,02-03", D(2019, 2, 28)),
        ("1934.03.28-29", D(1934, 3, 28)),
        # other separators, unpadded (RD of the TOM layout)
        ("2009-8-12", D(2009, 8, 12)),
        ("2009/08/29", D(2009, 8, 29)),
        ("2009.8.12.", D(2009, 8, 12)),
        ("20090829", D(2009, 8, 29)),
        ("20090829193000", D(2009, 8, 29)),
        # Chinese, Japanese, Korean
        ("2009年8月12日", D(2009, 8, 12)),
        ("2009年08月12日", D(2009, 8, 12)),
        ("\uff12\uff10\uff10\uff19年\uff18月\uff11\uff12日", D(2009, 8, 12)),  # full-width digits
        ("二〇〇九年八月十二日", D(2009, 8, 12)),
        ("2009年8月12号", D(2009, 8, 12)),
        ("昭和10年5月3日", D(1935, 5, 3)),
        ("平成元年1月8日", D(1989, 1, 8)),
        ("2009년 8월 12일", D(2009, 8, 12)),
        # year last: day first (European), month first only when day first is impossible
        ("01.08.2001", D(2001, 8, 1)),
        ("19.11.2002", D(2002, 11, 19)),
        ("29.08.2009", D(2009, 8, 29)),
        ("9-09-2000", D(2000, 9, 9)),
        ("08/29/2009", D(2009, 8, 29)),
        # English, as old servers and people wrote it
        ("August 1, 2001", D(2001, 8, 1)),
        ("Sun Jan 16 2000", D(2000, 1, 16)),
        ("Sun Jan 16 10:20:30 2000", D(2000, 1, 16)),
        ("16 Jan 2000", D(2000, 1, 16)),
        ("1st Sept. 1999", D(1999, 9, 1)),
        ("12th and 13th march 94", D(1994, 3, 12)),
        ("March 3rd, 05", D(2005, 3, 3)),
        # garbage around
        ("played 2003-03-04 in Tokyo", D(2003, 3, 4)),
        ("第14届 2009年8月12日 北京", D(2009, 8, 12)),
        (" 2003-03-04 ", D(2003, 3, 4)),
        ("2001/02/01 19:53:20 UT", D(2001, 2, 1)),
    ],
)
def test_day_is_read(raw: str, day: datetime.date) -> None:
    found = parse_date(raw)
    assert found.date == day
    assert found.precision == "day"


@pytest.mark.parametrize(
    ("raw", "time"),
    [
        ("2017.06.21 19:43", T(19, 43)),
        ("2017-06-21 19:43:05", T(19, 43, 5)),
        ("2017-06-21T19:43:05Z", T(19, 43, 5)),
        ("2001/10/11 21:22:51 UT", T(21, 22, 51)),
        ("2004-10-27 16\\:01\\:54", T(16, 1, 54)),
        ("2004-10-27 16:01:54", T(16, 1, 54)),
        ("Sun Jan 16 10:20:30 2000", T(10, 20, 30)),
        ("2003-01-01 7:05 pm", T(19, 5)),
        ("2003-01-01 12:30 PM", T(12, 30)),
        ("2003-01-01 12:30 a.m.", T(0, 30)),
        ("2009年8月12日 19時43分", T(19, 43)),
        ("2009-08-12 \uff12\uff11\uff1a\uff10\uff15", T(21, 5)),  # full-width 21:05
    ],
)
def test_time_of_day_is_read_with_the_day(raw: str, time: datetime.time) -> None:
    assert parse_date(raw).time == time


@pytest.mark.parametrize("raw", ["2016-03-13", "2016-03-13,14", "1989-04", "1968", "2003-01-01 25:61"])
def test_no_time_of_day_when_none_is_written(raw: str) -> None:
    assert parse_date(raw).time is None


@pytest.mark.parametrize(
    ("raw", "first_day"),
    [
        ("1989-04", D(1989, 4, 1)),
        ("2009/08", D(2009, 8, 1)),
        ("2009年8月", D(2009, 8, 1)),
        ("2009년 8월", D(2009, 8, 1)),
        ("January 2001", D(2001, 1, 1)),
        ("2009-08-00", D(2009, 8, 1)),
        ("1996-05,06", D(1996, 5, 1)),
    ],
)
def test_month_precision_gives_first_day_of_month(raw: str, first_day: datetime.date) -> None:
    assert parse_date(raw) == GameDate(first_day, "month", None)


@pytest.mark.parametrize(
    ("raw", "year"),
    [
        ("1968", 1968),
        ("1935年(...)", 1935),
        ("1935年", 1935),
        ("昭和10年", 1935),
        ("1999-00-00", 1999),
        ("about 1850", 1850),
    ],
)
def test_year_precision_gives_first_of_january(raw: str, year: int) -> None:
    assert parse_date(raw) == GameDate(D(year, 1, 1), "year", None)


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "a sunny afternoon last summer",
        "0000-00-00",
        "2016-13-13",
        "2015-02-30",
        "2009年13月1日",
        "31.02.2009",
        "1599-12-31",
        "2101-01-01",
        "1500",
        "?",
        "March 5",
        "unknown",
    ],
)
def test_unreadable_or_impossible_date_is_unknown(raw: str) -> None:
    assert parse_date(raw) == UNKNOWN_DATE


@pytest.mark.parametrize(
    ("raw", "day"),
    [
        ("2024 05 12", D(2024, 5, 12)),
        ("2024 5 12", D(2024, 5, 12)),
        ("2024. 5. 12.", D(2024, 5, 12)),  # Korean
        ("2024\u30005\u300012", D(2024, 5, 12)),  # ideographic spaces
        ("12 05 2024", D(2024, 5, 12)),
    ],
)
def test_spaces_separate_a_numeric_date(raw: str, day: datetime.date) -> None:
    assert parse_date(raw) == GameDate(day, "day", None)


@pytest.mark.parametrize(
    ("raw", "day"),
    [
        ("24-05-12", D(2024, 5, 12)),  # '-': year first, ISO order
        ("24-5-3", D(2024, 5, 3)),
        ("99.12.31", D(1999, 12, 31)),  # 99 is no day: year first
        ("12.05.24", D(2024, 5, 12)),  # '.': year last, day first
        ("05/13/24", D(2024, 5, 13)),  # month first when day first is impossible
        ("31/12/99", D(1999, 12, 31)),
        ("49-01-02", D(2049, 1, 2)),  # the pivot: below 50 is 20xx
        ("50-01-02", D(1950, 1, 2)),
        ("24-05-12 19:43", D(2024, 5, 12)),
    ],
)
def test_two_digit_year_takes_its_century_from_the_pivot(raw: str, day: datetime.date) -> None:
    found = parse_date(raw)
    assert (found.date, found.precision) == (day, "day")


def test_two_digit_year_needs_two_digits_and_a_possible_date() -> None:
    assert parse_date("24-05-12").date == D(2024, 5, 12)
    assert parse_date("1.2.3") == UNKNOWN_DATE
    assert parse_date("99-13-40") == UNKNOWN_DATE


@pytest.mark.parametrize(
    ("raw", "day"),
    [("2024-13-05", D(2024, 5, 13)), ("2016-13-01", D(2016, 1, 13)), ("2024/31/12", D(2024, 12, 31))],
)
def test_month_above_twelve_is_swapped_with_the_day(raw: str, day: datetime.date) -> None:
    assert parse_date(raw) == GameDate(day, "day", None)


def test_month_and_day_both_above_twelve_stay_unknown() -> None:
    assert parse_date("2024-13-05").date == D(2024, 5, 13)
    assert parse_date("2024-13-13") == UNKNOWN_DATE


@pytest.mark.parametrize(
    ("raw", "day"),
    [
        ("0024-05-12", D(2024, 5, 12)),  # a two-digit year zero-padded
        ("0099-12-31", D(1999, 12, 31)),
        ("124-05-12", D(2024, 5, 12)),  # years since 1900, printed raw
        ("100-01-01", D(2000, 1, 1)),
        ("19100-05-12", D(2000, 5, 12)),  # '19' glued before years since 1900
        ("19124-05-12", D(2024, 5, 12)),
        ("2O24-05-12", D(2024, 5, 12)),  # letter O for a zero
        ("2o24.05.12", D(2024, 5, 12)),
        ("201O-01-02", D(2010, 1, 2)),
    ],
)
def test_year_written_by_buggy_software_is_repaired(raw: str, day: datetime.date) -> None:
    assert parse_date(raw) == GameDate(day, "day", None)


def test_buggy_year_is_repaired_only_in_a_full_date() -> None:
    assert parse_date("0024-05-12").date == D(2024, 5, 12)
    for garbage in ("0024-05", "0000-05-12", "1024-05-12", "20240-05-12", "5-5-5", "2O2"):
        assert parse_date(garbage).date is None, garbage


def test_none_is_unknown() -> None:
    assert parse_date(None) == GameDate(None, None, None)


@pytest.mark.parametrize(("raw", "day"), [("1600-01-01", D(1600, 1, 1)), ("2100-12-31", D(2100, 12, 31))])
def test_year_range_bounds_are_accepted(raw: str, day: datetime.date) -> None:
    assert parse_date(raw).date == day


@pytest.mark.parametrize(
    ("dt", "rd", "day"),
    [
        (None, "2009-8-12", D(2009, 8, 12)),
        ("", "2009-08-29", D(2009, 8, 29)),
        ("unknown", "2025-06-12", D(2025, 6, 12)),
        ("0000-00-00", "2009-08-29", D(2009, 8, 29)),
    ],
)
def test_rd_is_used_when_dt_is_missing_or_unreadable(dt: str | None, rd: str, day: datetime.date) -> None:
    assert parse_date(dt, rd).date == day


def test_dt_wins_over_rd() -> None:
    assert parse_date("2016-03-13", "2009-08-29").date == D(2016, 3, 13)


def test_neither_dt_nor_rd_readable_is_unknown() -> None:
    assert parse_date("?", "soon") == UNKNOWN_DATE


@given(st.text(), st.one_of(st.none(), st.text()))
@pytest.mark.slow
def test_any_text_never_raises_and_fields_agree(dt: str, rd: str | None) -> None:
    found = parse_date(dt, rd)
    assert (found.date is None) == (found.precision is None)
    assert found.time is None or found.precision == "day"
    assert found.date is None or 1600 <= found.date.year <= 2100


_CORPORA = Path(os.environ.get("SGF_CORPORA", Path(__file__).parents[3] / "shared" / "corpora"))
_NOT_DATES = {"", "a sunny afternoon last summer"}


def _corpus_date_values() -> set[str]:
    """Return every distinct DT and RD value in the corpora (undecodable bytes replaced)."""
    found: set[str] = set()
    for path in _CORPORA.rglob("*.sgf"):
        found.update(
            re.findall(r"(?<![A-Z])(?:DT|RD)\[([^]]*)\]", path.read_bytes().decode("utf-8", "replace"))
        )
    return found


@pytest.mark.skipif(not _CORPORA.is_dir(), reason=f"real corpora not found at {_CORPORA} (set SGF_CORPORA)")
@pytest.mark.slow
def test_every_corpus_date_is_read_or_is_a_known_non_date() -> None:
    values = _corpus_date_values()
    unread = {v for v in values if parse_date(v).date is None and v.strip() not in _NOT_DATES}
    assert len(values) > 100
    assert unread == set()


@pytest.mark.skipif(not _CORPORA.is_dir(), reason=f"real corpora not found at {_CORPORA} (set SGF_CORPORA)")
@pytest.mark.slow
def test_every_corpus_ff4_date_gives_its_own_day() -> None:
    plain = {v for v in _corpus_date_values() if re.fullmatch(r"\d{4}-\d\d-\d\d", v)}
    wrong = {v for v in plain if parse_date(v) != GameDate(D.fromisoformat(v), "day", None)}
    assert len(plain) > 100
    assert wrong == set()
