"""The sample season in data/raw: written by the project's own generator, and read fully by the pipeline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.ingest import IngestOptions, ingest
from pipeline.synth import club_sample

RAW = Path(__file__).resolve().parent.parent / "data" / "raw"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("processed")
    rows: list[dict[str, Any]] = ingest(RAW, out, IngestOptions(workers=1)).games.to_pylist()
    return rows


def test_sample_is_exactly_what_the_generator_writes() -> None:
    expected = {r.relpath: r.data for r in club_sample()}
    found = {p.relative_to(RAW).as_posix(): p.read_bytes() for p in RAW.rglob("*") if p.is_file()}
    assert found == expected


def test_sample_ingests_with_every_file_accounted_for(games: list[dict[str, Any]]) -> None:
    assert sorted(g["error_kind"] for g in games if g["error_kind"]) == ["empty", "not_sgf", "truncated"]
    assert len({g["source_path"] for g in games}) == len(club_sample())


def test_sample_reads_one_collection_of_two_games(games: list[dict[str, Any]]) -> None:
    assert len(games) == len(club_sample()) + 1 and max(g["game_index"] for g in games) == 1


def test_sample_is_gb18030_and_utf8(games: list[dict[str, Any]]) -> None:
    encodings = {g["encoding"] for g in games if g["source_path"].endswith(".sgf") and g["encoding"]}
    assert encodings == {"gb18030", "utf-8"}


def test_sample_dates_span_may_to_august(games: list[dict[str, Any]]) -> None:
    assert {g["date"].month for g in games if g["date"]} == {5, 6, 7, 8}


def test_sample_has_slow_and_fast_games_and_chinese_results(games: list[dict[str, Any]]) -> None:
    assert {g["speed"] for g in games if not g["parse_error"]} >= {"slow", "fast"}
    assert any(g["result"] and "黑中盘胜" in g["result"] and g["winner"] == "B" for g in games)


def test_sample_events_and_rounds_are_read(games: list[dict[str, Any]]) -> None:
    rounds = {(g["event"], g["round"]) for g in games if g["event"]}
    assert {("TOM夏季杯", "外围赛第1轮"), ("TOM夏季杯", "决赛"), ("飞扬对清溪擂台赛", "第5局")} <= rounds
