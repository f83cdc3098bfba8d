"""C11: plain ``pd.read_parquet`` of the outputs gives analysts the pandas types they expect: dates as
datetime64, integer counts with nulls as nullable integers (not float64).

The corpus: a handicap game (HA[2]) with a date, a record without a date, and a file that is no SGF at
all (no handicap, no moves, no game type: nulls in every count).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("dtypes")
    raw = root / "raw"
    raw.mkdir()
    (raw / "a.sgf").write_text(sgf("A", "B", "B+R", "2024-05-03", handicap=2), encoding="utf-8")
    (raw / "b.sgf").write_text(sgf("A", "B", "W+R", None), encoding="utf-8")
    (raw / "c.sgf").write_bytes(b"not a game record")
    config = root / "ratings.toml"
    config.write_text('[run]\nrule_set = "club"\nroster = ""\nevents = ""\n', encoding="utf-8")
    result = runner.invoke(
        app, ["run", "--config", str(config), "--raw", str(raw), "--out", str(root / "out")]
    )
    assert result.exit_code == 0, result.output
    return root / "out"


@pytest.fixture(scope="module")
def games(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "games.parquet")


@pytest.mark.slow
def test_games_date_reads_as_datetime64(games: pd.DataFrame) -> None:
    assert sorted(games["date"].dt.year.dropna().tolist()) == [2024]


@pytest.mark.parametrize("column", ["handicap", "moves", "game_type", "board_size", "byoyomi_periods"])
def test_integer_counts_with_nulls_read_as_nullable_integers(games: pd.DataFrame, column: str) -> None:
    assert games[column].dtype == pd.Int32Dtype()


def test_a_handicap_reads_as_its_integer_beside_nulls(games: pd.DataFrame) -> None:
    handicaps = dict(zip(games["source_path"], games["handicap"], strict=True))
    assert (handicaps["a.sgf"], handicaps["c.sgf"] is pd.NA) == (2, True)


def test_a_boolean_with_nulls_reads_as_nullable_boolean(games: pd.DataFrame) -> None:
    assert games["implicit_root"].dtype == pd.BooleanDtype()
