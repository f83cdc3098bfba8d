"""glicko2 through `ratings run --rules glicko2` (docs/rules.md ("glicko2")): the worked examples of the
rules page read back from the Parquet output, the decisions (idle periods, handicap, no-shows, fixed
players, roster ratings), and ``ratings backtest`` scoring glicko2 with its own ``se``. Numbers worked by
hand in comments from docs/rules.md; tolerance 0.01 on ratings."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from sgfmake import sgf
from test_gor_goldens import change, rating, run_gor

from pipeline.config import RunConfig
from pipeline.ingest import IngestOptions
from pipeline.reports import backtest
from pipeline.synth.league import synthetic_league
from pipeline.synth.records import write_records

pytestmark = pytest.mark.slow
TOL = 0.01


def test_two_1d_newcomers_black_wins_162_31(tmp_path: Path) -> None:
    # docs/rules.md ("glicko2"), worked example 2: 1d = 525 e^(30/23.15) = 1918.49, RD 350; φ = 2.01476,
    # g = 0.66907, v = 8.9356, φ' = 1.67120: ±173.7178 × 1.67120² × 0.66907 × 0.5 = ±162.31, RD 290.32
    out = run_gor(tmp_path, "glicko2", [sgf("A", "B", "B+R", black_rank="1d", white_rank="1d")])
    assert change(out, "A")["rating_before"] == pytest.approx(1918.49, abs=TOL)
    assert change(out, "A")["delta"] == pytest.approx(162.31, abs=TOL)
    assert change(out, "B")["delta"] == pytest.approx(-162.31, abs=TOL)
    assert rating(out, "A")["deviation"] == pytest.approx(290.32, abs=TOL)
    assert (rating(out, "A")["rank"], rating(out, "B")["rank"]) == ("3d", "2k")


def test_a_period_later_the_deviation_has_grown_and_the_rating_has_not(tmp_path: Path) -> None:
    # A plays in May only; in June (B and C play) A's RD grows: √(290.32² + (173.7178 × 0.06)²) = 290.51
    games = [
        sgf("A", "B", "B+R", "2024-05-03", black_rank="1d", white_rank="1d", seed=1),
        sgf("B", "C", "B+R", "2024-06-03", black_rank="1d", white_rank="1d", seed=2),
    ]
    out = run_gor(tmp_path, "glicko2", games)
    may, june = rating(out, "A", "2024-05"), rating(out, "A", "2024-06")
    assert june["rating"] == may["rating"] and june["delta"] == 0
    assert june["deviation"] == pytest.approx(
        math.sqrt(may["deviation"] ** 2 + (173.7178 * 0.06) ** 2), abs=1e-3
    )


def test_three_stones_raise_blacks_rating_by_176_28(tmp_path: Path) -> None:
    # docs/rules.md ("glicko2"): 5k 1545.82 receives 3 stones: 1545.82 × (e^(2.5/23.15) − 1) = 176.28
    game = sgf("A", "B", "W+R", black_rank="5k", white_rank="1d", handicap=3)
    out = run_gor(tmp_path, "glicko2", [game])
    assert change(out, "A")["handicap_adjustment"] == pytest.approx(176.28, abs=TOL)
    assert change(out, "A")["se"] + change(out, "B")["se"] == pytest.approx(1.0)


def test_a_no_show_is_not_rated_by_default(tmp_path: Path) -> None:
    games = [sgf("A", "B", "B+F", seed=1), sgf("A", "C", "B+R", seed=2)]
    out = run_gor(tmp_path, "glicko2", games)
    games_table = pd.read_parquet(out / "games.parquet")
    assert [list(r) for r in games_table.sort_values("seq")["reasons"]] == [["no_show"], []]


def test_a_roster_rating_on_the_glicko2_scale_is_the_start(tmp_path: Path) -> None:
    roster = '[[player]]\nname = "A"\nrank = "1d"\nrating = { glicko2 = 2000, gor = 2100 }\n'
    out = run_gor(
        tmp_path, "glicko2", [sgf("A", "B", "B+R", black_rank="1d", white_rank="1d")], roster=roster
    )
    assert change(out, "A")["rating_before"] == 2000


def test_a_fixed_player_keeps_rating_and_deviation_and_rates_the_opponent(tmp_path: Path) -> None:
    roster = '[[player]]\nname = "Ref"\nrating = { glicko2 = 2400 }\nfixed = true\n[[player]]\nname = "A"\n'
    out = run_gor(tmp_path, "glicko2", [sgf("Ref", "A", "W+R", white_rank="1d")], roster=roster)
    assert (rating(out, "Ref")["rating"], rating(out, "Ref")["deviation"]) == (2400, 350)
    assert change(out, "Ref")["note"] == "fixed rating" and change(out, "A")["delta"] > 0


def test_a_bad_parameter_stops_the_run_naming_it(tmp_path: Path) -> None:
    from test_gor_goldens import invoke

    result = invoke(tmp_path, "glicko2", [sgf("A", "B", "B+R")], params="tau = -1")
    assert result.exit_code == 2 and "[rules] tau must be a number > 0, got -1" in result.output


def test_backtest_scores_glicko2_with_its_own_prediction(tmp_path: Path) -> None:
    league = synthetic_league(players=24, games=1500, months=6, spread=600, seed=7)
    write_records(league.records, tmp_path / "raw")
    config = RunConfig(raw=tmp_path / "raw", out=tmp_path / "out")
    found = backtest.backtest(backtest.plans(config, ["glicko2"]), IngestOptions(workers=1))
    row = found.summary.to_pandas().set_index("rules").loc["glicko2"]
    assert row["predictor"] == "se" and row["n"] > 1000
    assert row["log_loss"] < math.log(2) and row["higher_rated_wins"] > 0.5
