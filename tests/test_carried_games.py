"""Carried audits (pipeline/output/carried_games.py): a re-run takes the audited games of the pieces
whose inputs did not change from the previous generation (its seq moved when pieces before it grew or
shrank), audits the others, and its output equals a run from scratch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.core.tables import GAMES
from pipeline.output.carried_games import CarriedGames, audit_digest

pytestmark = pytest.mark.slow

runner = CliRunner()
MONTHS = ("03", "04", "05", "06")


def _game(black: str, white: str, date: str, seed: int) -> bytes:
    return sgf(black, white, "B+R", date, black_rank="1d", white_rank="2d", seed=seed).encode()


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    folder = tmp_path / "raw"
    for i, month in enumerate(MONTHS):
        (folder / month).mkdir(parents=True)
        (folder / month / "a.sgf").write_bytes(_game("A", "B", f"2024-{month}-03", i))
        (folder / month / "b.sgf").write_bytes(_game("C", "D", f"2024-{month}-09", 10 + i))
    return folder


def _run(raw: Path, out: Path, *extra: str) -> dict[str, Any]:
    result = runner.invoke(app, ["run", "--raw", str(raw), "--out", str(out), "--workers", "1", *extra])
    assert result.exit_code == 0, result.output
    manifest: dict[str, Any] = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return manifest


def _pieces(manifest: dict[str, Any]) -> tuple[int, int]:
    return manifest["incremental"]["pieces_carried"], manifest["incremental"]["pieces_audited"]


def _equals_scratch(raw: Path, tmp_path: Path) -> bool:
    """Whether the games of ``tmp_path/out`` equal those of a run from scratch of ``raw``."""
    _run(raw, tmp_path / "scratch")
    games = [pq.read_table(tmp_path / name / "games.parquet") for name in ("out", "scratch")]
    return games[0].equals(games[1], check_metadata=True)


def test_new_record_in_the_latest_period_audits_only_its_piece(raw: Path, tmp_path: Path) -> None:
    _run(raw, tmp_path / "out")
    (raw / "06" / "c.sgf").write_bytes(_game("A", "D", "2024-06-20", 99))
    assert _pieces(_run(raw, tmp_path / "out")) == (3, 1)
    assert _equals_scratch(raw, tmp_path)


def test_late_record_audits_only_its_period(raw: Path, tmp_path: Path) -> None:
    _run(raw, tmp_path / "out")
    (raw / "04" / "late.sgf").write_bytes(_game("B", "C", "2024-04-28", 98))
    assert _pieces(_run(raw, tmp_path / "out")) == (3, 1)
    assert _equals_scratch(raw, tmp_path)


def test_removed_record_of_an_early_period_audits_only_its_period(raw: Path, tmp_path: Path) -> None:
    _run(raw, tmp_path / "out")
    (raw / "03" / "b.sgf").unlink()
    assert _pieces(_run(raw, tmp_path / "out")) == (3, 1)
    assert _equals_scratch(raw, tmp_path)


def test_other_rule_set_audits_every_piece(raw: Path, tmp_path: Path) -> None:
    _run(raw, tmp_path / "out")
    (raw / "06" / "c.sgf").write_bytes(_game("A", "D", "2024-06-20", 99))
    assert _pieces(_run(raw, tmp_path / "out", "--rules", "hkga")) == (0, 4)


def test_unreadable_previous_games_file_is_audited_again(raw: Path, tmp_path: Path) -> None:
    _run(raw, tmp_path / "out")
    (tmp_path / "out" / "games.parquet").resolve().write_bytes(b"not parquet")
    (raw / "06" / "c.sgf").write_bytes(_game("A", "D", "2024-06-20", 99))
    assert _pieces(_run(raw, tmp_path / "out")) == (0, 4)
    assert _equals_scratch(raw, tmp_path)


def _stored(raw: Path, tmp_path: Path, rows: int, group: int) -> Path:
    """The first ``rows`` games of a run over ``raw``, stored in row groups of ``group`` rows."""
    _run(raw, tmp_path / "out")
    table = pq.read_table(tmp_path / "out" / "games.parquet").slice(0, rows)
    path = tmp_path / "games.parquet"
    pq.write_table(table, path, row_group_size=group)
    return path


def test_piece_across_row_groups_is_read_whole(raw: Path, tmp_path: Path) -> None:
    carried = CarriedGames(_stored(raw, tmp_path, 8, 3), [("2024-01", "d1", 2), ("2024-02", "d2", 5)])
    assert carried.take("2024-01", "d1", 0) is not None
    second = carried.take("2024-02", "d2", 2)
    assert second is not None and (second["seq"].to_pylist(), second.schema) == ([2, 3, 4, 5, 6], GAMES)


def test_a_changed_piece_is_not_carried(raw: Path, tmp_path: Path) -> None:
    carried = CarriedGames(_stored(raw, tmp_path, 8, 3), [("a", "d1", 4), ("b", "d2", 4)])
    assert (carried.take("a", "other", 0), carried.taken) == (None, 0)


def test_a_piece_after_a_changed_one_is_carried_with_its_seq_moved(raw: Path, tmp_path: Path) -> None:
    carried = CarriedGames(_stored(raw, tmp_path, 8, 3), [("a", "d1", 4), ("b", "d2", 4)])
    moved = carried.take("b", "d2", 5)  # one row more before it than last time
    assert moved is not None and (moved["seq"].to_pylist(), moved.schema) == ([5, 6, 7, 8], GAMES)


def test_a_piece_never_seen_is_audited(raw: Path, tmp_path: Path) -> None:
    carried = CarriedGames(_stored(raw, tmp_path, 8, 3), [("a", "d1", 4)])
    assert carried.take("b", "d1", 4) is None


def test_index_that_names_more_rows_than_the_file_holds_is_audited(raw: Path, tmp_path: Path) -> None:
    carried = CarriedGames(_stored(raw, tmp_path, 3, 3), [("a", "d1", 4)])
    assert carried.take("a", "d1", 0) is None


def test_unknown_version_has_no_digest() -> None:
    assert audit_digest("config", "2024-01", None) is None
