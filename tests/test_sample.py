"""The sample in data/raw: written by the project's own generator, and read fully by the pipeline."""

from __future__ import annotations

from pathlib import Path

from pipeline.ingest import IngestOptions, ingest
from pipeline.synth import club_sample

RAW = Path(__file__).resolve().parent.parent / "data" / "raw"


def test_sample_is_exactly_what_the_generator_writes() -> None:
    expected = {r.relpath: r.data for r in club_sample()}
    found = {p.relative_to(RAW).as_posix(): p.read_bytes() for p in RAW.rglob("*") if p.is_file()}
    assert found == expected


def test_sample_ingests_with_every_file_accounted_for(tmp_path: Path) -> None:
    games = ingest(RAW, tmp_path, IngestOptions(workers=1)).games.to_pylist()
    kinds = sorted(g["error_kind"] for g in games if g["error_kind"])
    assert kinds == ["empty", "not_sgf", "truncated"]
    assert len({g["source_path"] for g in games}) == 36
    assert {g["encoding"] for g in games if g["source_path"].endswith(".sgf") and g["encoding"]} == {
        "gb18030",
        "utf-8",
    }


def test_sample_has_slow_and_fast_games_and_chinese_results(tmp_path: Path) -> None:
    games = ingest(RAW, tmp_path, IngestOptions(workers=1)).games.to_pylist()
    assert {g["speed"] for g in games if not g["parse_error"]} >= {"slow", "fast"}
    assert any(g["result"] and "黑中盘胜" in g["result"] and g["winner"] == "B" for g in games)
