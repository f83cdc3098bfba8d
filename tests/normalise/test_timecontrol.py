"""Tests for pipeline.ingest.normalise.timecontrol: TM/OT/LT/LC/TC/TT forms from the corpora and CJK
servers."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.ingest.normalise.timecontrol import (
    UNKNOWN_TIME_CONTROL,
    TimeControl,
    parse_time_control,
    speed_class,
)


@pytest.mark.parametrize(
    ("tm", "main"),
    [
        # FF4: a bare number is seconds
        ("1800", 1800.0),
        ("0", 0.0),
        ("60", 60.0),
        ("600", 600.0),
        ("2400", 2400.0),
        ("14400", 14400.0),
        ("142.7", 142.7),
        (" 1800 ", 1800.0),
        ("\uff11\uff18\uff10\uff10", 1800.0),  # full-width digits
        # CGoban 1 clocks: m:ss and h:mm:ss
        ("30:00", 1800.0),
        ("50:00", 3000.0),
        ("60:00", 3600.0),
        ("1:00:00", 3600.0),
        ("1:30:00", 5400.0),
        # words
        ("1 hr/125 moves", 3600.0),
        ("1 hour", 3600.0),
        ("9 hours", 32400.0),
        ("2h", 7200.0),
        ("90 min", 5400.0),
        ("1h30m", 5400.0),
        ("1.5 hours", 5400.0),
        ("2 hours each", 7200.0),
        ("45 sec", 45.0),
        # Jago: main time first in a number list
        ("1800,0,30,5", 1800.0),
        # Chinese, Japanese, Korean
        ("1時間", 3600.0),
        ("5時間", 18000.0),
        ("3小时", 10800.0),
        ("3小時", 10800.0),
        ("三小时", 10800.0),
        ("两小时", 7200.0),
        ("5分钟", 300.0),
        ("各1小时", 3600.0),
        ("每方2小时30分", 9000.0),
        ("1時間30分", 5400.0),
        ("\uff12時間", 7200.0),
        ("1시간", 3600.0),
        ("30분", 1800.0),
    ],
)
def test_main_time_from_tm_alone(tm: str, main: float) -> None:
    assert parse_time_control({"TM": tm}).main_time_s == main


@pytest.mark.parametrize(
    ("props", "expected"),
    [
        # KGS / OGS: TM seconds, OT byo-yomi or Canadian (stones/seconds)
        ({"TM": "7200", "OT": "3x60 byo-yomi"}, TimeControl(7200.0, 60.0, 3, "TM+OT")),
        ({"TM": "0", "OT": "10x60 byo-yomi"}, TimeControl(0.0, 60.0, 10, "TM+OT")),
        ({"TM": "0", "OT": "5x15 byo-yomi"}, TimeControl(0.0, 15.0, 5, "TM+OT")),
        ({"OT": "5x30 byo-yomi"}, TimeControl(None, 30.0, 5, "OT")),
        ({"TM": "600", "OT": "25/600 Canadian"}, TimeControl(600.0, 600.0, 25, "TM+OT")),
        ({"OT": "25/600 Canadian"}, TimeControl(None, 600.0, 25, "OT")),
        ({"TM": "1740", "OT": "10/30 Canadian"}, TimeControl(1740.0, 30.0, 10, "TM+OT")),
        ({"TM": "600", "OT": "30 simple"}, TimeControl(600.0, 30.0, 1, "TM+OT")),
        # correspondence with a Fischer increment: no byo-yomi
        ({"TM": "259200", "OT": "86400 fischer"}, TimeControl(259200.0, None, None, "TM")),
        ({"TM": "86400", "OT": "14400 fischer"}, TimeControl(86400.0, None, None, "TM")),
        # GoGui
        ({"TM": "1800", "OT": "25 moves / 10 min"}, TimeControl(1800.0, 600.0, 25, "TM+OT")),
        ({"TM": "1800", "OT": "5 moves / 30 sec"}, TimeControl(1800.0, 30.0, 5, "TM+OT")),
        # CGoban 1: overtime inside TM
        ({"TM": "30:00(5x1:00)"}, TimeControl(1800.0, 60.0, 5, "TM")),
        ({"TM": "10:00(5x1:00)"}, TimeControl(600.0, 60.0, 5, "TM")),
        ({"TM": "5:00:00(5x1:00)"}, TimeControl(18000.0, 60.0, 5, "TM")),
        ({"TM": "30:00+30:00/25"}, TimeControl(1800.0, 1800.0, 25, "TM")),
        ({"TM": "1:00+4:00/25"}, TimeControl(60.0, 240.0, 25, "TM")),
        ({"TM": "10:00:00+1:00/5"}, TimeControl(36000.0, 60.0, 5, "TM")),
        # Nihon-Kiin: LT/LC with units
        ({"TM": "1時間", "LT": "30秒", "LC": "5回"}, TimeControl(3600.0, 30.0, 5, "TM+LT+LC")),
        ({"TM": "3時間", "LT": "1分", "LC": "10回"}, TimeControl(10800.0, 60.0, 10, "TM+LT+LC")),
        # TOM layout: LT seconds, LC count
        ({"TM": "10800", "LT": "60", "LC": "3"}, TimeControl(10800.0, 60.0, 3, "TM+LT+LC")),
        # Fox: TT period seconds, TC periods
        ({"TM": "300", "TC": "3", "TT": "30"}, TimeControl(300.0, 30.0, 3, "TM+TT+TC")),
        ({"TM": "1200", "TC": "3", "TT": "30"}, TimeControl(1200.0, 30.0, 3, "TM+TT+TC")),
        # Chinese / Korean byo-yomi written inside TM or OT
        ({"TM": "每方3小时,读秒1分钟5次"}, TimeControl(10800.0, 60.0, 5, "TM")),
        ({"TM": "各2小时 读秒3次30秒"}, TimeControl(7200.0, 30.0, 3, "TM")),
        ({"TM": "3時間 秒読み60秒5回"}, TimeControl(10800.0, 60.0, 5, "TM")),
        ({"TM": "10분 30초 3회"}, TimeControl(600.0, 30.0, 3, "TM")),
        ({"TM": "10800", "OT": "3次60秒"}, TimeControl(10800.0, 60.0, 3, "TM+OT")),
        ({"TM": "3600", "OT": "5\u00d730秒"}, TimeControl(3600.0, 30.0, 5, "TM+OT")),
        # byo-yomi inside TM wins over the separate properties
        ({"TM": "30:00(5x1:00)", "LT": "60", "LC": "3"}, TimeControl(1800.0, 60.0, 5, "TM")),
        # only one half of a pair
        ({"TM": "3600", "LT": "30"}, TimeControl(3600.0, 30.0, None, "TM+LT")),
        ({"LC": "5回"}, TimeControl(None, None, 5, "LC")),
    ],
)
def test_full_time_control(props: dict[str, str], expected: TimeControl) -> None:
    assert parse_time_control(props) == expected


@pytest.mark.parametrize(
    "props",
    [
        {},
        {"TM": ""},
        {"TM": "-"},
        {"TM": "?"},
        {"TM": "none"},
        {"TM": "-5"},
        {"TM": "99999999999999"},
        {"TM": "", "OT": "A very long overtime information text (OT property)"},
        {"LT": "", "LC": ""},
        {"TC": "-153"},
        {"KM": "6.5", "RE": "B+R"},
    ],
)
def test_nothing_readable_is_unknown(props: dict[str, str]) -> None:
    assert parse_time_control(props) == UNKNOWN_TIME_CONTROL


@pytest.mark.parametrize(
    "tm",
    [
        "黑: 08:58  白: 06:21",
        "黑\uff1a08:58\u3000白\uff1a06:21",  # full-width colons and space
        "黒: 1:02:03 白: 0:59:00",
        "B: 10:00 W: 9:30",
        "用时 黑 1:20",
    ],
)
def test_time_used_is_not_a_main_time(tm: str) -> None:
    assert parse_time_control({"TM": tm}).main_time_s is None


def test_time_used_keeps_byoyomi_from_other_properties() -> None:
    found = parse_time_control({"TM": "黑: 08:58  白: 06:21", "TC": "3", "TT": "30"})
    assert found == TimeControl(None, 30.0, 3, "TT+TC")


def test_igs_bare_sixty_with_empty_lt_is_seconds() -> None:
    # IGS panda1.sgf: TM[60]LT[]; its BL[56] after Black's first move shows 60 s of main time
    assert parse_time_control({"TM": "60", "LT": ""}) == TimeControl(60.0, None, None, "TM")


@pytest.mark.parametrize(("tm", "main"), [("40", 2400.0), ("50", 3000.0), ("1", 60.0), ("59", 3540.0)])
def test_bare_number_below_a_minute_without_overtime_is_minutes(tm: str, main: float) -> None:
    # CGF tournaments: TM[50] beside clocks reading 0:20:20
    assert parse_time_control({"TM": tm}) == TimeControl(main, None, None, "TM(min)")


@pytest.mark.parametrize(
    "props",
    [
        {"TM": "30", "OT": "5x10 byo-yomi"},
        {"TM": "30", "OT": "10 fischer"},
        {"TM": "30", "TC": "3", "TT": "10"},
        {"TM": "30", "LT": "10"},
        {"TM": "30.0"},
    ],
)
def test_bare_number_below_a_minute_with_overtime_stays_seconds(props: dict[str, str]) -> None:
    assert parse_time_control(props).main_time_s == 30.0


@pytest.mark.parametrize(
    ("main", "speed"),
    [
        (1800.0, "slow"),
        (10800.0, "slow"),
        (259200.0, "slow"),
        (1799.0, "fast"),
        (0.0, "fast"),
        (60.0, "fast"),
        (None, "unknown"),
        (-1.0, "unknown"),
        (math.nan, "unknown"),
        (math.inf, "unknown"),
    ],
)
def test_speed_class_default_threshold_is_thirty_minutes(main: float | None, speed: str) -> None:
    assert speed_class(main) == speed


@pytest.mark.parametrize(("main", "speed"), [(3600.0, "slow"), (3599.0, "fast")])
def test_speed_class_threshold_is_configurable(main: float, speed: str) -> None:
    assert speed_class(main, threshold_s=3600.0) == speed


@pytest.mark.parametrize(
    ("props", "speed"),
    [
        ({"TM": "30:00(5x1:00)"}, "slow"),
        ({"TM": "1時間", "LT": "30秒", "LC": "5回"}, "slow"),
        ({"TM": "300", "TC": "3", "TT": "30"}, "fast"),
        ({"TM": "0", "OT": "5x30 byo-yomi"}, "fast"),
        ({"TM": "黑: 08:58  白: 06:21"}, "unknown"),
        ({"TM": "-"}, "unknown"),
    ],
)
def test_speed_class_of_parsed_time_control(props: dict[str, str], speed: str) -> None:
    assert speed_class(parse_time_control(props).main_time_s) == speed


_PROP_IDS = st.sampled_from(["TM", "OT", "LT", "LC", "TC", "TT", "KM"])


@given(st.dictionaries(_PROP_IDS, st.text()))
@pytest.mark.slow
def test_any_text_never_raises_and_gives_sane_values(props: dict[str, str]) -> None:
    found = parse_time_control(props)
    for seconds in (found.main_time_s, found.byoyomi_s):
        assert seconds is None or (math.isfinite(seconds) and seconds >= 0)
    assert found.byoyomi_periods is None or found.byoyomi_periods >= 0
    assert (found.source is None) == (found == UNKNOWN_TIME_CONTROL)
    assert speed_class(found.main_time_s) in {"slow", "fast", "unknown"}


_CORPORA = Path(os.environ.get("SGF_CORPORA", Path(__file__).parents[3] / "shared" / "corpora"))
_TIME_PROP = re.compile(r"(?<![A-Za-z])(TM|OT|LT|LC|TC|TT)\[([^]]*)\]")
_NOT_SETTINGS = {"", "-"}


def _corpus_time_props() -> list[dict[str, str]]:
    """Return the time properties of every corpus file that has a TM (undecodable bytes replaced)."""
    found = []
    for path in _CORPORA.rglob("*.sgf"):
        props = dict(_TIME_PROP.findall(path.read_bytes().decode("utf-8", "replace")))
        if "TM" in props:
            found.append(props)
    return found


@pytest.mark.skipif(not _CORPORA.is_dir(), reason=f"real corpora not found at {_CORPORA} (set SGF_CORPORA)")
@pytest.mark.slow
def test_every_corpus_tm_setting_gives_a_main_time() -> None:
    records = _corpus_time_props()
    unread = {
        p["TM"] for p in records if parse_time_control(p).main_time_s is None and p["TM"] not in _NOT_SETTINGS
    }
    assert len(records) > 500
    # only time used (黑: ...) or the Shift_JIS Nihon-Kiin record, read here as UTF-8, may stay unread
    assert all("黑" in tm or "\ufffd" in tm for tm in unread)


# --- bounds: every number is a plausible setting or None (issue 10 part A) ----------------------

_YEAR_S = 366 * 86400


@pytest.mark.parametrize(
    "props",
    [
        {"LC": "2147483648"},
        {"TC": "2147483648"},
        {"OT": "9999999999"},
        {"OT": "2147483648 periods"},
        {"OT": "123456789012 periods"},
        {"LC": "1001"},
        {"LC": "五千次"},
        {"LC": "9" * 5000},
    ],
)
def test_period_count_out_of_range_is_no_setting(props: dict[str, str]) -> None:
    assert parse_time_control(props) == UNKNOWN_TIME_CONTROL


@pytest.mark.parametrize(
    "props",
    [
        {"TM": "999999999"},
        {"TM": "999999999h"},
        {"TM": "99999999,0,30,5"},
    ],
)
def test_main_time_above_a_year_is_no_setting(props: dict[str, str]) -> None:
    assert parse_time_control(props).main_time_s is None


@pytest.mark.parametrize(
    ("props", "seconds", "periods"),
    [
        ({"OT": "5x999999999h"}, None, 5),
        ({"OT": "25/2147483648 canadian"}, None, 25),
        ({"OT": "2147483648/600 canadian"}, 600.0, None),
        ({"TT": "999999999", "TC": "3"}, None, 3),
        ({"LT": "30秒", "LC": "2147483648"}, 30.0, None),
        ({"OT": "-5x30 byo-yomi"}, None, None),
    ],
)
def test_overtime_numbers_out_of_range_are_dropped_alone(
    props: dict[str, str], seconds: float | None, periods: int | None
) -> None:
    found = parse_time_control(props)
    assert (found.byoyomi_s, found.byoyomi_periods) == (seconds, periods)


def test_a_year_is_the_longest_main_time() -> None:
    assert parse_time_control({"TM": str(_YEAR_S)}).main_time_s == _YEAR_S
    assert parse_time_control({"TM": str(_YEAR_S + 1)}).main_time_s is None


def test_a_thousand_is_the_largest_period_count() -> None:
    assert parse_time_control({"LT": "30", "LC": "1000"}).byoyomi_periods == 1000
    assert parse_time_control({"LT": "30", "LC": "1001"}).byoyomi_periods is None


@given(st.dictionaries(_PROP_IDS, st.text(alphabet="0123456789 .:x/-hms秒回次periods", max_size=40)))
@pytest.mark.slow
def test_numbers_in_any_time_text_stay_in_range(props: dict[str, str]) -> None:
    found = parse_time_control(props)
    for seconds in (found.main_time_s, found.byoyomi_s):
        assert seconds is None or 0 <= seconds <= _YEAR_S
    assert found.byoyomi_periods is None or 0 <= found.byoyomi_periods <= 1000
