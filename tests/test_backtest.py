"""ratings backtest: every rule set's ratings before a game, scored as predictions of it."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from sgfmake import sgf
from typer.testing import CliRunner, Result

from pipeline.cli import app
from pipeline.config import RunConfig
from pipeline.ingest import IngestOptions, ingest
from pipeline.reports import backtest, forecast, predicted
from pipeline.synth.league import rank_of, synthetic_league
from pipeline.synth.records import write_records

runner = CliRunner()
COIN = math.log(2)  # the log-loss of p = 0.5 on every game: 0.6931


def run_backtest(tmp_path: Path, names: list[str]) -> backtest.Backtest:
    config = RunConfig(raw=tmp_path / "raw", out=tmp_path / "out")
    return backtest.backtest(backtest.plans(config, names), IngestOptions(workers=1))


def summary_of(result: backtest.Backtest) -> pd.DataFrame:
    return result.summary.to_pandas().set_index("rules")


def p_of(tmp_path: Path, rules: str) -> list[float]:
    """The predictions of rule set ``rules`` over ``tmp_path/raw``, in ``seq`` order, to 6 places."""
    config = RunConfig(raw=tmp_path / "raw", out=tmp_path / "out")
    found = ingest(config.raw, config.out, IngestOptions(workers=1))
    plan = backtest.plans(config, [rules])[0]
    return [round(float(p), 6) for p in predicted.predictions(plan, found.source).p]


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> backtest.Backtest:
    """24 players 600 Elo apart end to end, 1500 games over January-June 2024, seeded."""
    folder = tmp_path_factory.mktemp("league")
    write_records(
        synthetic_league(players=24, games=1500, months=6, spread=600, seed=7).records, folder / "raw"
    )
    return run_backtest(folder, ["club", "hkga", "egf", "egf2021", "cga", "cga-dan", "tga"])


@pytest.mark.parametrize("rules", ["club", "hkga", "egf", "egf2021", "cga", "cga-dan"])
@pytest.mark.slow
def test_rule_set_beats_a_coin_toss_on_the_synthetic_league(league: backtest.Backtest, rules: str) -> None:
    row = summary_of(league).loc[rules]
    assert row["n"] > 1000
    assert row["log_loss"] < COIN
    assert row["brier"] < 0.25
    assert row["higher_rated_wins"] > 0.5


@pytest.mark.slow
def test_a_rule_set_that_rates_no_game_is_left_out_of_the_comparison(league: backtest.Backtest) -> None:
    summary = summary_of(league)  # tga counts Gomoku (GM 4) only: none of the league's Go games
    assert (summary.loc["tga", "games_rated"], summary.loc["tga", "n"]) == (0, 0)
    assert summary.loc["club", "n"] == league.n > 0


@pytest.mark.slow
def test_glicko2_and_whr_predict_better_than_the_gor_family_when_ranks_are_declared(tmp_path: Path) -> None:
    # The literature's setting (docs/design.md, "Ranks that tell the truth"): strengths that change (100
    # Elo a year) and ranks declared once, two grades off; bench/league_bench.py gave 0.4043 (glicko2),
    # 0.4102 (whr), 0.4284 (egf2021), 0.4772 (hkga).
    league = synthetic_league(
        players=100, games=5000, months=12, spread=1200, rank_noise=200, drift=100, registered_ranks=True
    )
    write_records(league.records, tmp_path / "raw")
    loss = summary_of(run_backtest(tmp_path, ["egf2021", "hkga", "glicko2", "whr"]))["log_loss"]
    assert max(loss["glicko2"], loss["whr"]) < min(loss["egf2021"], loss["hkga"])


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        # 1d = 2100 (Black) against 1k = 2000: a = 205 - 2000/20 = 105, e^(100/105) = 2.591873,
        # Se(weaker) = 1/3.591873 = 0.278406. hkga: ε 0.014 from the stronger side only:
        # Se(1d) = 1 - 0.278406 - 0.014 = 0.707594; p = 0.707594 / (0.707594 + 0.278406) = 0.717641.
        ("hkga", 0.717641),
        # egf: ε split, 0.008 from each: 0.713594 / (0.713594 + 0.270406) = 0.725197.
        ("egf", 0.725197),
    ],
)
def test_gor_rule_sets_predict_with_their_own_expected_score(
    write, tmp_path: Path, rules: str, expected: float
) -> None:
    write("a.sgf", sgf("x", "y", "W+R", "2024-05-01", black_rank="1d", white_rank="1k").encode())
    assert p_of(tmp_path, rules) == pytest.approx([expected], abs=2e-6)


def test_points_system_predicts_one_half_in_the_first_month(write, tmp_path: Path) -> None:
    write("a.sgf", sgf("x", "y", "B+R", "2024-05-01", black_rank="1d", white_rank="3k").encode())
    write("b.sgf", sgf("y", "x", "B+R", "2024-05-09", black_rank="3k", white_rank="1d").encode())
    assert p_of(tmp_path, "club") == [0.5, 0.5]


def test_points_system_fit_uses_only_earlier_months(write, tmp_path: Path) -> None:
    # May: four games between 1d players (club ratings all 100 at May's start, difference 0), Black won 3.
    may = [("a", "b", "B+R"), ("c", "d", "B+R"), ("a", "c", "B+R"), ("b", "d", "W+R")]
    for k, (black, white, result) in enumerate(may):
        write(
            f"may{k}.sgf",
            sgf(black, white, result, f"2024-05-0{k + 1}", black_rank="1d", white_rank="1d").encode(),
        )
    # June: White wins both. The fit on May alone: 3 + 1 imaginary Black wins, 1 + 1 White wins, all at
    # difference 0 -> σ(α) = 4/6, α = ln 2, β = 0 (no spread to fit): p = 2/3 whatever June's results.
    write("jun0.sgf", sgf("a", "d", "W+R", "2024-06-01").encode())
    write("jun1.sgf", sgf("b", "c", "W+R", "2024-06-02").encode())
    assert p_of(tmp_path, "club") == [0.5] * 4 + [round(2 / 3, 6)] * 2


@pytest.mark.slow
def test_evaluation_set_is_the_decisive_games_every_rule_set_rated(write, tmp_path: Path) -> None:
    for k in range(3):  # counted and decisive under both
        write(f"g{k}.sgf", sgf("x", "y", "B+R", f"2024-05-0{k + 1}").encode())
    write("handicap.sgf", sgf("x", "y", "B+R", "2024-05-05", handicap=3).encode())  # hkga only
    write("no_show.sgf", sgf("x", "y", "B+R", "2024-05-06", moves=1).encode())  # counted by hkga, not scored
    write("draw.sgf", sgf("x", "y", "0", "2024-05-07").encode())  # counted by hkga, not decisive
    result = run_backtest(tmp_path, ["club", "hkga"])
    summary = summary_of(result)
    assert summary["games_rated"].to_dict() == {"club": 3, "hkga": 4}
    assert summary["n"].to_dict() == {"club": 3, "hkga": 3}


def test_calibration_bins_hold_their_games_and_p_of_one_in_the_last() -> None:
    # 0.05 -> bin 0; 0.95 and 1.0 (clipped to 1 - 1e-6) -> bin 9:
    # mean (0.95 + 0.999999) / 2 = 0.9749995, Black won 1 of 2.
    table = forecast.calibration([0.05, 0.95, 1.0], [0.0, 1.0, 0.0])
    assert table[["bin", "n", "observed"]].values.tolist() == [[0, 1, 0.0], [9, 2, 0.5]]
    assert table["mean_predicted"].tolist() == pytest.approx([0.05, 0.9749995])


def test_rank_of_a_strength_is_its_nearest_grade() -> None:
    # 100 Elo a grade, 1d = 2100 (2050-2149), 1k = 2000 (1950-2049), 3k = 1800 (1750-1849), 4k = 1700.
    strengths = (2049.9, 2050, 2149.9, 2150, 1750, 1749.9, 3500)
    assert [rank_of(s) for s in strengths] == ["1k", "1d", "1d", "2d", "3k", "4k", "9d"]


def cli(tmp_path: Path, *args: str) -> Result:
    config = tmp_path / "ratings.toml"
    if not config.exists():
        config.write_text("")
    base = [
        "backtest",
        "--config",
        str(config),
        "--raw",
        str(tmp_path / "raw"),
        "--out",
        str(tmp_path / "out"),
    ]
    return runner.invoke(app, [*base, *args])


def test_unknown_rule_set_exits_2_naming_it(write, tmp_path: Path) -> None:
    write("a.sgf", sgf("x", "y", "B+R").encode())
    result = cli(tmp_path, "--rules", "club,nope")
    assert result.exit_code == 2
    assert "'nope'" in result.output
    assert not (tmp_path / "out" / "backtest").exists()


@pytest.mark.slow
def test_parquet_files_are_written_with_their_schemas(write, tmp_path: Path) -> None:
    write("a.sgf", sgf("x", "y", "B+R").encode())
    result = cli(tmp_path, "--rules", "club,egf")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "backtest"
    assert pq.read_schema(folder / "summary.parquet").equals(backtest.SUMMARY, check_metadata=False)
    assert pq.read_schema(folder / "calibration.parquet").equals(backtest.CALIBRATION, check_metadata=False)
    assert pd.read_parquet(folder / "summary.parquet")["rules"].tolist() == ["club", "egf"]


@pytest.mark.slow
def test_backtest_writes_no_snapshot(write, tmp_path: Path) -> None:
    write("a.sgf", sgf("x", "y", "B+R").encode())
    assert cli(tmp_path, "--rules", "club").exit_code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".cache", ".lock", "backtest"]


@pytest.mark.slow
def test_rules_parameters_apply_to_the_configured_rule_set_only(write, tmp_path: Path) -> None:
    write("a.sgf", sgf("x", "y", "B+R").encode())  # club takes no [rules] key: it must not see hkga's
    (tmp_path / "ratings.toml").write_text('[run]\nrule_set = "hkga"\n[rules]\nepsilon = 0.0\n')
    result = cli(tmp_path, "--rules", "club,hkga")
    assert result.exit_code == 0, result.output


def test_help_shows_an_example() -> None:
    result = runner.invoke(app, ["backtest", "--help"])
    assert result.exit_code == 0
    assert "Example: ratings backtest --rules" in " ".join(result.output.split())


def test_default_rule_sets_rate_the_configured_game_type() -> None:
    from pipeline.config import RunConfig
    from pipeline.reports.backtest import parse_names

    assert "tga" not in parse_names(None, RunConfig()) and "hkga" in parse_names(None, RunConfig())
    assert parse_names(None, RunConfig(rule_set="tga")) == ["tga"]


def test_rule_sets_scored_on_too_few_games_are_flagged_and_named_in_one_warning(
    write, tmp_path: Path
) -> None:
    for k in range(3):
        write(f"g{k}.sgf", sgf("x", "y", "B+R", f"2024-05-0{k + 1}").encode())
    result = run_backtest(tmp_path, ["club", "hkga"])
    assert summary_of(result)["too_few"].to_dict() == {"club": True, "hkga": True}
    assert [w for w in result.warnings if "too few" in w] == [
        f"too few decisive games to rank these rule sets (club 3, hkga 3; at least {backtest.MIN_SCORED} "
        "wanted): their differences are mostly noise"
    ]


@pytest.mark.slow
def test_rule_sets_scored_on_enough_games_are_not_flagged(league: backtest.Backtest) -> None:
    assert not summary_of(league)["too_few"].any() and not league.warnings


def test_backtest_passes_on_the_warnings_about_starting_ratings(write, tmp_path: Path) -> None:
    write("a.sgf", sgf("x", "y", "B+R", black_rank="1d", white_rank="1d").encode())
    roster = tmp_path / "roster.toml"
    roster.write_text('[[player]]\nname = "x"\nrank = "1d"\nrating = 100\n', encoding="utf-8")
    config = RunConfig(raw=tmp_path / "raw", out=tmp_path / "out", roster_path=roster)
    result = backtest.backtest(backtest.plans(config, ["club", "hkga"]), IngestOptions(workers=1))
    assert [w for w in result.warnings if "x 100" in w] == [
        f"hkga: {roster}: 1 plain rating too far from the declared rank to be on hkga's scale, not used "
        "(the rank is): x 100 (1d starts at 2100); give one on this scale as rating = { gor = ... }"
    ]


@pytest.mark.slow
def test_the_printed_table_shows_the_games_scored_and_the_warning(write, tmp_path: Path) -> None:
    write("a.sgf", sgf("x", "y", "B+R").encode())
    result = cli(tmp_path, "--rules", "club,egf")
    assert result.exit_code == 0, result.output
    assert "scored" in result.output and "1 (too few)" in result.output
    assert "warning: too few decisive games" in " ".join(result.output.split())
