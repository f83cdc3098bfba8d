"""record and ingest: corrupt years in a record's date, and dates after the file's modification time."""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from typing import Any

import pytest
from sgfmake import sgf

from pipeline.ingest import IngestOptions, ingest
from pipeline.ingest.record import SGF_EPOCH_NS, dated_before, rows_for_bytes

D = datetime.date


def row(text: str) -> dict[str, Any]:
    [found] = rows_for_bytes(text.encode(), "d.sgf")
    return found


# --- corrupt years --------------------------------------------------------------------------------


def test_a_year_with_digits_written_twice_gives_the_day_and_a_warning() -> None:
    found = row(sgf("A", "B", "B+R", date="201919-05-03"))
    assert (found["date"], found["date_precision"], found["date_raw"]) == (
        D(2019, 5, 3),
        "day",
        "201919-05-03",
    )
    assert "year 201919 has digits written twice: read as 2019" in found["warning"]


def test_a_year_with_a_digit_missing_is_read_by_the_event() -> None:
    found = row(sgf("A", "B", "B+R", date="201-5-3", event="2011 Kisei Cup"))
    assert (found["date"], found["date_precision"]) == (D(2011, 5, 3), "day")


def test_a_year_with_a_digit_missing_is_read_by_the_game_name() -> None:
    found = row(sgf("A", "B", "B+R", date="201-5-3", setup="GN[2011 club league, A vs B]"))
    assert found["date"] == D(2011, 5, 3)


def test_a_year_with_a_digit_missing_and_nothing_to_choose_is_no_date_and_says_why() -> None:
    found = row(sgf("A", "B", "B+R", date="201-5-3"))
    assert (found["date"], found["date_precision"], found["date_raw"]) == (None, None, "201-5-3")
    assert (
        found["warning"]
        == "DT: year 201 has a digit missing: one of 19 years from 2001 to 2091; no date read"
    )


def test_a_plain_date_has_no_warning() -> None:
    assert row(sgf("A", "B", "B+R", date="2019-05-03"))["warning"] is None


# --- the file's modification time ---------------------------------------------------------------

MODIFIED = datetime.datetime(2024, 6, 1, 12, 0, tzinfo=datetime.UTC)
MODIFIED_NS = int(MODIFIED.timestamp()) * 10**9


def dated(date: str, mtime_ns: int = MODIFIED_NS) -> dict[str, Any]:
    return dated_before([row(sgf("A", "B", "B+R", date=date))], mtime_ns)[0]


def test_a_date_before_the_modification_time_is_kept() -> None:
    found = dated("2024-05-31 19:43")
    assert (found["date"], found["date_precision"], found["time_of_day"], found["warning"]) == (
        D(2024, 5, 31),
        "day",
        "19:43:00",
        None,
    )


def test_the_day_after_the_modification_time_is_kept_for_time_zones() -> None:
    assert dated("2024-06-02")["date"] == D(2024, 6, 2)


def test_a_later_day_of_the_same_year_keeps_only_its_year() -> None:
    found = dated("2024-12-05 10:00")
    assert (found["date"], found["date_precision"], found["time_of_day"]) == (D(2024, 1, 1), "year", None)
    assert found["date_raw"] == "2024-12-05 10:00"
    assert (
        found["warning"]
        == "date 2024-12-05 is after the file was last modified (2024-06-02): only its year is kept"
    )


def test_a_date_of_a_later_year_is_no_date() -> None:
    found = dated("2031-05-03")
    assert (found["date"], found["date_precision"]) == (None, None)
    assert found["warning"].endswith("not read")


def test_the_warning_is_added_to_the_rows_own() -> None:
    found = dated("201919-05-03", int(datetime.datetime(2018, 1, 1, tzinfo=datetime.UTC).timestamp()) * 10**9)
    assert found["date"] is None
    assert found["warning"].startswith("DT: year 201919 has digits written twice")
    assert "; date 2019-05-03 is after the file was last modified (2018-01-02): not read" in found["warning"]


@pytest.mark.parametrize("mtime_ns", [-1, 0, SGF_EPOCH_NS - 1])
def test_a_modification_time_before_sgf_judges_no_date(mtime_ns: int) -> None:
    assert dated("2031-05-03", mtime_ns)["date"] == D(2031, 5, 3)


def test_ingest_judges_each_file_by_its_own_modification_time(write: Any, tmp_path: Path) -> None:
    for name, date in (("old.sgf", "2024-12-05"), ("new.sgf", "2024-12-05")):
        write(name, sgf("A", "B", "B+R", date=date).encode())
    os.utime(tmp_path / "raw" / "old.sgf", ns=(MODIFIED_NS, MODIFIED_NS))
    games = ingest(tmp_path / "raw", tmp_path / "out", IngestOptions(workers=1)).games.to_pylist()
    by_path = {g["source_path"]: (g["date"], g["date_precision"]) for g in games}
    assert by_path == {"new.sgf": (D(2024, 12, 5), "day"), "old.sgf": (D(2024, 1, 1), "year")}
