"""whr's deviation through `ratings run --rules whr` (issue 23, item 3; docs/rules.md ("whr")): the
``ratings`` and ``changes`` tables carry it (a rating's: the paper's §3.3 on the player's last day; a
change's: the one the game was rated from, the previous snapshot's, a newcomer's the prior's alone), it
shrinks as a player plays, ``[output] provisional_deviation`` marks a player whose rating is still a guess,
and a fixed player has none. Numbers from docs/rules.md's worked example; tolerance 0.01."""

from __future__ import annotations

import io
import itertools
import math
from pathlib import Path

import pandas as pd
import pytest
from sgfmake import sgf
from test_gor_goldens import change, rating, run_gor
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import RunConfig
from pipeline.ingest import IngestOptions
from pipeline.reports import backtest
from pipeline.synth.league import synthetic_league
from pipeline.synth.records import write_records

pytestmark = pytest.mark.slow
TOL = 0.01
ELO = 400 / math.log(10)
ROOT = Path(__file__).resolve().parent.parent


def two_months() -> list[str]:
    """docs/rules.md ("whr")'s example: A and B, both 1d, new; A wins on 1 May, B on 1 June."""
    return [
        sgf("A", "B", "B+R", "2024-05-01", black_rank="1d", white_rank="1d", seed=1),
        sgf("B", "A", "B+R", "2024-06-01", black_rank="1d", white_rank="1d", seed=2),
    ]


def test_the_first_game_leaves_a_deviation_of_214_13_grown_to_the_months_end(
    tmp_path: Path,
) -> None:
    # docs/rules.md ("whr"): x = 0.5280 natural units; minus the Hessian of A's day is the game's
    # σ(2x)(1 − σ(2x)) plus the prior's 2σ(x)(1 − σ(x)): 0.6583, so the deviation is ELO / √0.6583 = 214.13
    # on 1 May, and √(214.13² + 14 × 30) = 215.11 on 31 May (w² = 14 Elo² a day)
    out = run_gor(tmp_path, "whr", two_months())
    assert rating(out, "A")["rating"] == pytest.approx(2191.73, abs=TOL)
    assert rating(out, "A")["deviation"] == pytest.approx(215.11, abs=TOL)
    assert rating(out, "B")["deviation"] == pytest.approx(215.11, abs=TOL)


def test_a_newcomers_first_change_has_the_priors_deviation(tmp_path: Path) -> None:
    # the prior alone: one virtual win and one loss at the starting rating, minus its second derivative ½
    out = run_gor(tmp_path, "whr", two_months())
    assert change(out, "A")["deviation"] == pytest.approx(math.sqrt(2) * ELO, abs=TOL)  # 245.65


def test_a_later_change_has_the_previous_snapshots_deviation(tmp_path: Path) -> None:
    out = run_gor(tmp_path, "whr", two_months())
    for player in ("A", "B"):
        assert change(out, player, 1)["deviation"] == pytest.approx(rating(out, player)["deviation"])
        assert change(out, player, 1)["rating_before"] == pytest.approx(rating(out, player)["rating"])


def test_every_rating_and_change_of_a_season_has_a_deviation(tmp_path: Path) -> None:
    games = [
        sgf(black, white, result, f"2024-{month:02d}-{day:02d}", black_rank="2d", white_rank="1k", seed=i)
        for i, (black, white, result, month, day) in enumerate(
            [("A", "B", "B+R", 5, 1), ("C", "A", "W+R", 5, 9), ("B", "C", "B+3.5", 6, 2),
             ("A", "D", "W+R", 6, 20), ("D", "B", "B+R", 7, 4)]
        )
    ]  # fmt: skip
    out = run_gor(tmp_path, "whr", games)
    ratings, changes = pd.read_parquet(out / "ratings"), pd.read_parquet(out / "changes")
    assert len(changes) == 10 and changes["deviation"].notna().all()
    assert ratings["deviation"].notna().all() and (ratings["deviation"] > 0).all()


def test_the_deviation_shrinks_as_a_player_plays_more_games(tmp_path: Path) -> None:
    # A plays a game a month against a new 1d each time: every month A's rating is less of a guess
    games = [
        sgf("A", f"P{month}", "BW"[month % 2] + "+R", f"2024-{month:02d}-01", black_rank="1d",
            white_rank="1d", seed=month)
        for month in range(1, 7)
    ]  # fmt: skip
    out = run_gor(tmp_path, "whr", games)
    deviations = [rating(out, "A", f"2024-{month:02d}")["deviation"] for month in range(1, 7)]
    assert all(later < earlier for earlier, later in itertools.pairwise(deviations))


def test_a_player_with_one_game_is_provisional_under_provisional_deviation(tmp_path: Path) -> None:
    # A and B meet eight times (deviations well under 200); E plays once (above 200: provisional)
    games = [
        sgf("A", "B", "BW"[i % 2] + "+R", f"2024-05-{i + 1:02d}", black_rank="1d", white_rank="1d", seed=i)
        for i in range(8)
    ] + [sgf("E", "A", "W+R", "2024-05-20", black_rank="1d", white_rank="1d", seed=9)]
    out = run_gor(tmp_path, "whr", games, params="[output]\nprovisional_deviation = 200")
    result = CliRunner().invoke(app, ["show", "--out", str(out), "--format", "csv"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(io.StringIO(result.output)).set_index("player")
    assert frame.loc["E", "deviation"] > 200 and bool(frame.loc["E", "provisional"])
    assert frame.loc["A", "deviation"] < 200 and not bool(frame.loc["A", "provisional"])


def test_show_writes_a_whr_rating_plus_minus_twice_its_deviation(tmp_path: Path) -> None:
    out = run_gor(tmp_path, "whr", two_months()[:1])
    result = CliRunner().invoke(app, ["show", "--out", str(out)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "2191.73 ± 430.22" in result.output


def test_a_fixed_player_has_no_deviation(tmp_path: Path) -> None:
    roster = '[[player]]\nname = "A"\nrank = "1d"\nrating = { whr = 2100 }\nfixed = true\n'
    roster += '[[player]]\nname = "B"\nrank = "1d"\n'
    out = run_gor(tmp_path, "whr", two_months(), roster=roster)
    assert pd.isna(rating(out, "A")["deviation"]) and pd.isna(change(out, "A")["deviation"])
    assert rating(out, "B")["deviation"] > 0 and change(out, "B")["deviation"] > 0


def test_backtest_scores_whr_with_its_own_prediction(tmp_path: Path) -> None:
    league = synthetic_league(players=24, games=1500, months=6, spread=600, seed=7)
    write_records(league.records, tmp_path / "raw")
    config = RunConfig(raw=tmp_path / "raw", out=tmp_path / "out")
    found = backtest.backtest(backtest.plans(config, ["whr"]), IngestOptions(workers=1))
    row = found.summary.to_pandas().set_index("rules").loc["whr"]
    assert row["predictor"] == "se" and row["n"] > 1000
    assert row["log_loss"] < math.log(2) and row["higher_rated_wins"] > 0.5


def test_compare_egf2021_against_whr_scores_both_on_the_sample(tmp_path: Path) -> None:
    args = ["compare", "--config", str(ROOT / "config" / "ratings.toml"), "--raw", str(ROOT / "data" / "raw")]
    args += ["--out", str(tmp_path / "out"), "--rules", "egf2021", "--against", "whr"]
    result = CliRunner().invoke(app, [*args, "--table", "prediction", "--format", "csv"])
    assert result.exit_code == 0, result.output
    scored = pd.read_csv(io.StringIO(result.output)).set_index("label")
    assert scored.loc["whr", "n"] == scored.loc["egf2021", "n"] > 50
    assert 0 < scored.loc["whr", "log_loss"] < 2
