"""pipeline.synth.server: the scale benchmark's archive has the shape of a real server's."""

from __future__ import annotations

import re
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from pipeline.synth.records import Record
from pipeline.synth.server import server_archive, write_month_zips

pytestmark = pytest.mark.slow

_BLACK, _WHITE = re.compile(rb"PB\[([^\]]*)\]"), re.compile(rb"PW\[([^\]]*)\]")


def _players(record: Record) -> tuple[bytes, bytes]:
    black, white = _BLACK.search(record.data), _WHITE.search(record.data)
    assert black and white, record.relpath
    return black.group(1), white.group(1)


def _pairs(records: list[Record]) -> Counter[tuple[str, bytes, bytes]]:
    return Counter((r.relpath[:7], *sorted(_players(r))) for r in records)


def test_same_seed_gives_the_same_bytes() -> None:
    assert list(server_archive(300, seed=7, months=6)) == list(server_archive(300, seed=7, months=6))


def test_record_count_and_months_are_as_asked() -> None:
    records = list(server_archive(1000, months=12, start="2020-03"))
    months = {r.relpath[:7] for r in records}
    assert len(records) == 1000
    assert min(months) == "2020-03" and max(months) == "2021-02"


def test_some_pairs_meet_more_than_ten_times_a_month() -> None:
    assert max(_pairs(list(server_archive(3000, months=6))).values()) > 10


def test_activity_is_long_tailed() -> None:
    games = Counter(name for r in server_archive(4000, months=12) for name in _players(r))
    counts = sorted(games.values(), reverse=True)
    assert counts[0] > 10 * counts[len(counts) // 2]


def test_no_two_games_share_a_main_line() -> None:
    lines = [r.data[r.data.find(b";B[") :] for r in server_archive(2000, months=4)]
    assert len(set(lines)) == len(lines)


def test_month_zips_hold_every_record_in_its_months_archive(tmp_path: Path) -> None:
    records = list(server_archive(200, months=3))
    assert write_month_zips(iter(records), tmp_path) == 200
    members = {z.stem: zipfile.ZipFile(z).namelist() for z in tmp_path.glob("*.zip")}
    assert len(members) == 3 and sorted(n for names in members.values() for n in names) == sorted(
        r.relpath for r in records
    )
    assert all(name.startswith(f"{month}/") for month, names in members.items() for name in names)
