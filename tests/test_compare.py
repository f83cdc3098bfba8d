"""ratings compare: two configurations over the same games, their standings and predictions side by side."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from rich.cells import cell_len
from sgfmake import sgf
from typer.testing import CliRunner, Result

from pipeline.cli import app
from pipeline.config import RunConfig
from pipeline.ingest import IngestOptions
from pipeline.reports import backtest, compare
from pipeline.reports.compare.standings import kendall_tau
from pipeline.synth.league import synthetic_league
from pipeline.synth.records import write_records

pytestmark = pytest.mark.slow

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent

#: cga, no roster: A 2p (2280) against C 1p (2240), C wins: We(C) = 1 / (1 + 10^(40/400)) = 0.442688, so
#: C gains K × 0.557312 and A loses it; B and D (1p, 2240) are level, B wins: ±K/2.
#: k = 10: A 2274.43, C 2245.57, B 2245.00, D 2235.00 -> places A 1, C 2, B 3, D 4.
#: k = 40: C 2262.29, B 2260.00, A 2257.71, D 2220.00 -> places C 1, B 2, A 3, D 4.
ELO_GAMES = {
    "1.sgf": sgf("C", "A", "B+R", "2024-03-01", black_rank="1p", white_rank="2p", seed=1),
    "2.sgf": sgf("B", "D", "B+R", "2024-03-02", black_rank="1p", white_rank="1p", seed=2),
}


def compared(
    tmp_path: Path, a: tuple[str | None, dict[str, Any]], b: tuple[str | None, dict[str, Any]]
) -> compare.Comparison:
    config = RunConfig(raw=tmp_path / "raw", out=tmp_path / "out")
    left = compare.side(config, a[0], a[1], ("--rules", "--set"))
    right = compare.side(config, b[0], b[1], ("--against", "--against-set"))
    return compare.compare(left, right, IngestOptions(workers=1))


def player_rows(result: compare.Comparison, period: str) -> pd.DataFrame:
    rows = result.players
    return rows[rows["period"] == period].set_index("player")


def write_all(write: Any, games: dict[str, str]) -> None:
    for name, text in games.items():
        write(name, text.encode())


def test_a_configuration_compared_with_itself_has_tau_one_and_no_movers(write, tmp_path: Path) -> None:
    write_all(write, ELO_GAMES)
    result = compared(tmp_path, ("cga", {}), ("cga", {}))
    assert list(result.periods["tau"]) == [1.0, 1.0]  # the half-year 2024-H1 and overall
    assert result.movers.empty
    assert not result.players["changed"].any()


def test_another_k_moves_the_players_computed_by_hand(write, tmp_path: Path) -> None:
    write_all(write, ELO_GAMES)
    result = compared(tmp_path, ("cga", {"k": 10}), ("cga", {"k": 40}))
    rows = player_rows(result, "2024-H1")
    assert rows["place_a"].to_dict() == {"A": 1, "C": 2, "B": 3, "D": 4}
    assert rows["moved"].to_dict() == {"A": -2, "C": 1, "B": 1, "D": 0}
    assert rows["rating_diff"].round(2).to_dict() == {"A": -16.72, "C": 16.72, "B": 15.0, "D": -15.0}
    assert list(result.movers["player"]) == ["A", "C", "B", "D"]  # two places; one, by rating 16.72, 15; D


def test_tau_of_the_two_standings_is_the_hand_checked_one(write, tmp_path: Path) -> None:
    write_all(write, ELO_GAMES)
    result = compared(tmp_path, ("cga", {"k": 10}), ("cga", {"k": 40}))
    # A C B D against C B A D: of the 6 pairs, (A,C) and (A,B) are discordant: (4 - 2) / 6.
    assert result.periods.set_index("period").loc["2024-H1", "tau"] == pytest.approx(1 / 3)


def test_tau_counts_a_shared_place_as_a_tie() -> None:
    # tau-b of 1 2 3 against 1 1 3: 2 concordant pairs, none discordant, one tie in the second ranking:
    # 2 / sqrt(3 × 2) = 0.816497.
    assert kendall_tau(pd.Series([1, 2, 3]), pd.Series([1, 1, 3])) == pytest.approx(2 / math.sqrt(6))


def test_a_lower_opponent_cap_counts_fewer_games(write, tmp_path: Path) -> None:
    # club: A (1d) beats B (1d) three times, slow: +10 / −10 each; capped at one game a pair, once only.
    for day in (1, 2, 3):
        write(
            f"{day}.sgf",
            sgf("A", "B", "B+R", f"2024-05-0{day}", black_rank="1d", white_rank="1d", seed=day).encode(),
        )
    result = compared(tmp_path, ("club", {}), ("club", {"opponent_cap": 1}))
    row = result.periods.set_index("period").loc["2024-05"]
    assert (row["games_a"], row["games_b"]) == (3, 1)
    rows = player_rows(result, "2024-05")
    assert rows[["rating_a", "rating_b"]].to_dict("index") == {
        "A": {"rating_a": 130.0, "rating_b": 110.0},
        "B": {"rating_a": 70.0, "rating_b": 90.0},
    }


def test_ratings_on_two_scales_are_not_subtracted(write, tmp_path: Path) -> None:
    write_all(write, ELO_GAMES)
    result = compared(tmp_path, ("cga", {}), ("club", {}))
    assert not result.same_scale
    assert result.players["rating_diff"].isna().all()
    assert result.players["rating_a"].notna().all()


def test_too_few_games_give_no_verdict(write, tmp_path: Path) -> None:
    write_all(write, ELO_GAMES)
    result = compared(tmp_path, ("cga", {"k": 10}), ("cga", {"k": 40}))
    assert result.verdict.n == 2
    assert result.verdict.better is None
    assert "too few" in result.verdict.text


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """24 players 600 Elo apart, 400 games over three months, seeded."""
    folder = tmp_path_factory.mktemp("league")
    write_records(synthetic_league(games=400, months=3, spread=600, seed=7).records, folder / "raw")
    return folder


def test_the_verdict_names_the_side_the_backtest_scores_better(league: Path) -> None:
    result = compared(league, ("club", {}), ("hkga", {}))
    config = RunConfig(raw=league / "raw", out=league / "out")
    scored = backtest.backtest(backtest.plans(config, ["club", "hkga"]), IngestOptions(workers=1))
    expected = scored.summary.to_pandas().set_index("rules")["log_loss"]
    mine = result.verdict.scores.set_index("side")["log_loss"]
    assert result.verdict.n == scored.n >= backtest.MIN_SCORED
    assert (mine["a"], mine["b"]) == pytest.approx((expected["club"], expected["hkga"]))
    assert result.verdict.better == ("a" if expected["club"] < expected["hkga"] else "b")


def invoke(*args: str, columns: int = 80) -> Result:
    return runner.invoke(app, ["compare", *args], env={"COLUMNS": str(columns)})


def test_help_has_an_example() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    assert "Example: ratings compare" in result.output


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--against", "nope"], "--against: unknown rule set: 'nope'"),
        (["--rules", "nope"], "--rules: unknown rule set: 'nope'"),
        (["--set", "nope=1"], "--set: [rules] 'nope' is not a known key"),
        (["--against-set", "opponent_cap=x"], "--against-set: [validity] opponent_cap must be"),
        (["--set", "opponent_cap"], "--set must be KEY=VALUE"),
    ],
)
def test_an_unknown_rule_set_or_parameter_is_exit_2(
    write, tmp_path: Path, args: list[str], named: str
) -> None:
    write_all(write, ELO_GAMES)
    result = invoke(*args, "--raw", str(tmp_path / "raw"), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert named in " ".join(result.output.split())


@pytest.fixture
def sample(tmp_path: Path) -> dict[str, Path]:
    """A copy of the shipped sample (data/raw, config/), rated once by ``ratings run``."""
    shutil.copytree(ROOT / "data" / "raw", tmp_path / "raw")
    shutil.copytree(ROOT / "config", tmp_path / "cfg")
    found = {"raw": tmp_path / "raw", "config": tmp_path / "cfg" / "ratings.toml", "out": tmp_path / "out"}
    ran = runner.invoke(app, ["run", *paths(found), "--workers", "1"])
    assert ran.exit_code == 0, ran.output
    return found


def paths(sample: dict[str, Path]) -> list[str]:
    return ["--config", str(sample["config"]), "--raw", str(sample["raw"]), "--out", str(sample["out"])]


def generation_files(out: Path) -> dict[str, float]:
    current = (out / ".gen" / "current").resolve()
    return {p.relative_to(out).as_posix(): p.stat().st_mtime for p in current.rglob("*")}


def periods_json(sample: dict[str, Path], *args: str) -> pd.DataFrame:
    result = invoke(*paths(sample), *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return pd.DataFrame(json.loads(result.output)).set_index("period")


def test_the_sample_table_fits_80_columns_and_leaves_the_output_alone(sample: dict[str, Path]) -> None:
    before = generation_files(sample["out"])
    result = invoke(*paths(sample), "--against-set", "opponent_cap=2")
    assert result.exit_code == 0, result.output
    assert "overall" in result.output and "too few decisive games" in result.output
    assert max(cell_len(line) for line in result.output.splitlines()) <= 80
    assert generation_files(sample["out"]) == before


def test_on_the_sample_side_a_is_the_runs_standings(sample: dict[str, Path]) -> None:
    result = invoke(*paths(sample), "--against", "hkga", "--format", "json", "--table", "players")
    assert result.exit_code == 0, result.output
    mine = pd.DataFrame(json.loads(result.output)).query("side != 'b' and period != 'overall'")
    published = pd.read_parquet(sample["out"] / "ratings")
    joined = mine.merge(published, on=["period", "player"], how="outer", indicator=True)
    assert (joined["_merge"] == "both").all()
    assert (joined["place_a"] == joined["rating_place"]).all()


def test_a_late_record_for_an_early_period_is_compared_without_a_new_run(sample: dict[str, Path]) -> None:
    before = periods_json(sample, "--against-set", "opponent_cap=2")
    late = sgf("羽焰", "二黑", "B+R", "2024-05-30", black_rank="1d", white_rank="2d", seed=97)
    (sample["raw"] / "2024-05" / "late.sgf").write_bytes(late.encode())
    after = periods_json(sample, "--against-set", "opponent_cap=2")
    assert after.loc["2024-05", "games_a"] == before.loc["2024-05", "games_a"] + 1
    assert after.loc["overall", "games_a"] == before.loc["overall", "games_a"] + 1
    assert list(after.index) == list(before.index)
