"""Provisional players (`[output] provisional_games`): marked in the standings, left off the leaderboards.

The season (club rule set, no roster: everyone a member), with provisional_games = 3:

    May   甲 and 乙 play four games; 丙 plays one (against 甲)   -> 丙 has 1 game: provisional
    June  丙 plays 乙 twice                                       -> 丙 has 3 games: established

The end-to-end tests need the run to record the threshold in its manifest and pass it to the
leaderboards (pipeline/run.py and pipeline/output/carry.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from seasons import rate, write_season
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline import reports
from pipeline.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
SEASON = {
    "may/1.sgf": ("甲", "乙", "B+R", "2024-05-02"),
    "may/2.sgf": ("乙", "甲", "B+R", "2024-05-03"),
    "may/3.sgf": ("甲", "乙", "W+R", "2024-05-04"),
    "may/4.sgf": ("乙", "甲", "W+R", "2024-05-05"),
    "may/5.sgf": ("丙", "甲", "B+R", "2024-05-20"),
    "june/1.sgf": ("丙", "乙", "B+R", "2024-06-03"),
    "june/2.sgf": ("乙", "丙", "B+R", "2024-06-04"),
}


def _season(folder: Path, threshold: int | None) -> tuple[Path, Path]:
    """The season and its configuration under ``folder`` (the [output] setting unless None)."""
    return write_season(folder, SEASON, "" if threshold is None else f"provisional_games = {threshold}")


@pytest.fixture(scope="module")
def marked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The season rated with provisional_games = 3."""
    folder = tmp_path_factory.mktemp("provisional")
    return rate(*_season(folder, 3), folder / "out")


@pytest.fixture(scope="module")
def unmarked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The season rated without [output] provisional_games (the default, 0: off)."""
    folder = tmp_path_factory.mktemp("unmarked")
    return rate(*_season(folder, None), folder / "out")


def _board(out: Path, period: str, scope: str = "period") -> list[str]:
    """The players of a leaderboard as the run wrote it."""
    table = pq.read_table(out / "leaderboards" / f"period={period}").to_pandas()
    return sorted(table.loc[table["scope"] == scope, "player"])


def _provisional(table: pd.DataFrame) -> list[str]:
    return sorted(table.loc[table["provisional"], "player"])


def _show(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["show", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output


# --- the threshold off ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_by_default_no_player_is_provisional(unmarked: Path) -> None:
    assert _provisional(reports.standings(unmarked, "2024-05")) == []


def test_a_threshold_given_to_the_query_marks_players_of_a_run_without_one(unmarked: Path) -> None:
    assert _provisional(reports.standings(unmarked, "2024-05", provisional_games=3)) == ["丙"]


# --- the threshold on -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_player_under_the_threshold_is_provisional_in_the_standings(marked: Path) -> None:
    assert _provisional(reports.standings(marked, "2024-05")) == ["丙"]


def test_a_player_is_established_in_the_period_that_brings_them_to_the_threshold(marked: Path) -> None:
    assert _provisional(reports.standings(marked, "2024-06")) == []


def test_a_provisional_player_is_left_off_the_period_leaderboard(marked: Path) -> None:
    assert _board(marked, "2024-05") == ["乙", "甲"]


def test_an_established_player_is_on_the_next_period_leaderboard(marked: Path) -> None:
    assert _board(marked, "2024-06") == ["丙", "乙"]


def test_the_year_leaderboard_has_a_player_established_by_the_end_of_the_year(marked: Path) -> None:
    assert _board(marked, "2024", scope="year") == ["丙", "乙", "甲"]


def test_show_marks_a_provisional_player_and_says_what_the_mark_means(marked: Path) -> None:
    code, output = _show("--out", str(marked), "--period", "2024-05")
    assert code == 0, output
    assert "丙*" in output and "甲*" not in output
    assert "* provisional: fewer than 3 counted games" in output


def test_show_has_no_legend_when_no_one_is_provisional(marked: Path) -> None:
    code, output = _show("--out", str(marked), "--period", "2024-06")
    assert code == 0, output
    assert "* provisional" not in output


def test_show_csv_has_the_provisional_column(marked: Path) -> None:
    code, output = _show("--out", str(marked), "--period", "2024-05", "--format", "csv")
    assert code == 0, output
    rows = [line.split(",") for line in output.splitlines()]
    column = rows[0].index("provisional")
    assert sorted(r[1] for r in rows[1:] if r[column] == "True") == ["丙"]


# --- a late record, and the shipped sample ----------------------------------------------------------------


@pytest.mark.slow
def test_a_late_record_that_brings_a_player_to_the_threshold_puts_them_on_the_board(tmp_path: Path) -> None:
    raw, config = _season(tmp_path, 2)
    out = rate(raw, config, tmp_path / "out")
    assert "丙" not in _board(out, "2024-05")
    (raw / "may" / "late.sgf").write_text(sgf("乙", "丙", "W+R", "2024-05-25", seed=99), encoding="utf-8")
    rate(raw, config, out)
    scratch = rate(raw, config, tmp_path / "scratch")
    assert _board(out, "2024-05") == _board(scratch, "2024-05") == ["丙", "乙", "甲"]


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped sample (data/raw, config/) rated with provisional_games = 5."""
    folder = tmp_path_factory.mktemp("sample")
    shutil.copytree(ROOT / "config", folder / "cfg")
    config = folder / "cfg" / "ratings.toml"
    text = config.read_text(encoding="utf-8")
    assert "\n[output]\n" in text, "the shipped configuration has an [output] section"
    config.write_text(
        text.replace("\n[output]\n", "\n[output]\nprovisional_games = 5\n", 1), encoding="utf-8"
    )
    return rate(ROOT / "data" / "raw", folder / "cfg" / "ratings.toml", folder / "out")


@pytest.mark.slow
def test_on_the_sample_the_leaderboards_hold_only_established_players(sample: Path) -> None:
    left_off = 0
    for period in reports.rated_periods(sample):
        table = reports.standings(sample, period)
        established = set(table.loc[~table["provisional"], "player"])
        assert set(_board(sample, period)) <= established
        left_off += len(set(table.loc[table["provisional"] & (table["games"] > 0), "player"]))
    assert left_off  # the sample has newcomers with few games: the test is not empty
