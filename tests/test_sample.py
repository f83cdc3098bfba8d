"""The samples: written by the project's own generator, and read fully by the pipeline.

data/raw holds the club's Go season (`sample()`, 2024-MM/); data/gomoku/raw, a folder of its own, the
Gomoku records of the Taiwan Gomoku Association's events (`gomoku_sample()`, 2024-MM/); docs/sample.md
describes both.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pipeline.ingest import IngestOptions, ingest
from pipeline.synth import gomoku_moves, gomoku_sample, sample

RAW = Path(__file__).resolve().parent.parent / "data" / "raw"
GOMOKU = Path(__file__).resolve().parent.parent / "data" / "gomoku" / "raw"


def _ingested(raw: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("processed")
    rows: list[dict[str, Any]] = ingest(raw, out, IngestOptions(workers=1)).games.to_pylist()
    return rows


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    return _ingested(RAW, tmp_path_factory)


@pytest.fixture(scope="module")
def gomoku(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    return _ingested(GOMOKU, tmp_path_factory)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_sample_is_exactly_what_the_generator_writes() -> None:
    assert _files(RAW) == {r.relpath: r.data for r in sample()}


def test_gomoku_sample_is_exactly_what_the_generator_writes_in_a_folder_of_its_own() -> None:
    assert _files(GOMOKU) == {r.relpath: r.data for r in gomoku_sample()}


@pytest.mark.slow
def test_sample_ingests_with_every_file_accounted_for(games: list[dict[str, Any]]) -> None:
    assert sorted(g["error_kind"] for g in games if g["error_kind"]) == ["empty", "not_sgf", "truncated"]
    assert len({g["source_path"] for g in games}) == len(sample())


def test_sample_reads_one_collection_of_two_games(games: list[dict[str, Any]]) -> None:
    assert len(games) == len(sample()) + 1 and max(g["game_index"] for g in games) == 1


def test_sample_is_gb18030_and_utf8(games: list[dict[str, Any]]) -> None:
    encodings = {g["encoding"] for g in games if g["source_path"].endswith(".sgf") and g["encoding"]}
    assert encodings == {"gb18030", "utf-8"}


def test_club_season_dates_span_may_to_august(games: list[dict[str, Any]]) -> None:
    assert {g["date"].month for g in games if g["date"]} == {5, 6, 7, 8}


def test_gomoku_dates_are_the_five_events_of_2024(gomoku: list[dict[str, Any]]) -> None:
    # national open March, promotion tournament April, Taipei open May, youth July, low-dan August
    assert {(g["date"].year, g["date"].month) for g in gomoku} == {(2024, m) for m in (3, 4, 5, 7, 8)}


def test_sample_has_slow_and_fast_games_and_chinese_results(games: list[dict[str, Any]]) -> None:
    assert {g["speed"] for g in games if not g["parse_error"]} >= {"slow", "fast"}
    assert any(g["result"] and "黑中盘胜" in g["result"] and g["winner"] == "B" for g in games)


def test_sample_events_and_rounds_are_read(games: list[dict[str, Any]]) -> None:
    rounds = {(g["event"], g["round"]) for g in games if g["event"]}
    assert {("TOM夏季杯", "外围赛第1轮"), ("TOM夏季杯", "决赛"), ("飞扬对清溪擂台赛", "第5局")} <= rounds


def test_gomoku_events_and_rounds_are_read(gomoku: list[dict[str, Any]]) -> None:
    rounds = {(g["event"], g["round"]) for g in gomoku if g["event"]}
    assert {("2024年第一次晉段賽", "第5輪"), ("2024 Taipei International Gomoku Open", "Round 1")} <= rounds


def test_gomoku_records_are_one_game_each_gm4_on_15x15(gomoku: list[dict[str, Any]]) -> None:
    # 8 (national open) + 30 (promotion: 12 players x 5 rounds / 2) + 11 (Taipei)
    # + 15 + 15 (youth and low-dan: round robins of 6)
    assert len(gomoku) == len(gomoku_sample()) == 79
    assert {(g["game_type"], g["board_size"], g["game_index"], g["parse_error"]) for g in gomoku} == {
        (4, 15, 0, None)
    }


def test_gomoku_records_declare_their_charset(gomoku: list[dict[str, Any]]) -> None:
    # CA[Big5] is read with cp950, Big5's superset
    declared = {(g["encoding_declared"], g["encoding"]) for g in gomoku}
    assert declared == {("Big5", "cp950"), ("UTF-8", "utf-8")}


def test_gomoku_traditional_chinese_names_results_and_ranks_are_read(gomoku: list[dict[str, Any]]) -> None:
    first = next(g for g in gomoku if g["source_path"] == "2024-03/national_open_r1_b1.sgf")
    read = (first["black"], first["black_rank"], first["white"], first["white_rank"], first["winner"])
    assert read == ("陳志明", "2d", "黃建宏", "3d", "B")


def test_gomoku_results_are_all_readable_with_four_draws(gomoku: list[dict[str, Any]]) -> None:
    # draws: 陳志明-吳怡君 (March), 葉柏宇-徐俊豪 (July), 張雅婷-吳怡君 and 蔡承恩-吳怡君 (August)
    winners = [g["winner"] for g in gomoku]
    assert None not in winners and winners.count("draw") == 4


def test_the_guest_of_unknown_rank_has_no_rank(gomoku: list[dict[str, Any]]) -> None:
    ranks = {
        g["black_rank"] if g["black"] == "Martin Novak" else g["white_rank"]
        for g in gomoku
        if "Martin Novak" in (g["black"], g["white"])
    }
    assert ranks == {None}


def fives(points: list[str]) -> list[int]:
    """The move numbers (0-based) after which the player who just moved has five in a row."""
    stones: dict[int, set[tuple[int, int]]] = {0: set(), 1: set()}
    found = []
    for i, p in enumerate(points):
        mine = stones[i % 2]
        mine.add((ord(p[0]) - 97, ord(p[1]) - 97))
        lines = ((1, 0), (0, 1), (1, 1), (1, -1))
        if any(all((x + k * dx, y + k * dy) in mine for k in range(5)) for x, y in mine for dx, dy in lines):
            found.append(i)
    return found


@pytest.mark.parametrize(("seed", "count", "winner"), [(1, 21, "B"), (2, 40, "W"), (3, 61, "B")])
def test_gomoku_moves_end_with_the_winners_five(seed: int, count: int, winner: str) -> None:
    points = gomoku_moves(random.Random(seed), count, winner)
    assert (len(set(points)), points[0], fives(points)[0]) == (count, "hh", count - 1)


def test_gomoku_moves_of_a_draw_make_no_five() -> None:
    assert fives(gomoku_moves(random.Random(4), 120, None)) == []


def test_gomoku_moves_reject_a_win_on_the_losers_turn() -> None:
    with pytest.raises(ValueError, match="20 moves cannot end in a win by B"):
        gomoku_moves(random.Random(5), 20, "B")
