"""The ``cga`` rating (docs/rules.md ("cga")) through `ratings run --rules cga`, read back from Parquet.

ΔR = K (W − We), K = 10, We = 1/(1 + 10^((R_opp − R)/400)); starting ratings 2200 + 40 × dan.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

pytestmark = pytest.mark.slow


def run(tmp_path: Path, games: dict[str, str], extra: str = "", roster: str = "", events: str = "") -> Path:
    raw, out = tmp_path / "raw", tmp_path / "out"
    raw.mkdir()
    for name, text in games.items():
        (raw / name).write_text(text, encoding="utf-8")
    (tmp_path / "roster.toml").write_text(roster, encoding="utf-8")
    (tmp_path / "events.toml").write_text(events, encoding="utf-8")
    config = tmp_path / "ratings.toml"
    config.write_text(f'[run]\nrule_set = "cga"\n{extra}', encoding="utf-8")
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--workers", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def ratings(out: Path) -> pd.DataFrame:
    df = pd.read_parquet(out / "ratings")
    df["period"] = df["period"].astype(str)
    return df.set_index(["period", "player"])


@pytest.mark.parametrize(("rank", "rating"), [("1d", 2240), ("5段", 2400), ("P9", 2560), ("九段", 2560)])
def test_starting_rating_by_dan(tmp_path: Path, rank: str, rating: float) -> None:
    out = run(tmp_path, {"a.sgf": sgf("x", "y", "B+R", black_rank=rank, white_rank=rank)})
    assert ratings(out).loc[("2024-H1", "x"), "rating_before"] == rating


def test_a_1d_beating_a_9d_gains_k_times_one_minus_we(tmp_path: Path) -> None:
    # We(1d 2240 vs 9d 2560) = 1 / (1 + 10^(320/400)) = 1 / 7.3096 = 0.13681; +10 × 0.86319 = +8.6319
    out = run(tmp_path, {"a.sgf": sgf("low", "high", "B+R", black_rank="1d", white_rank="9d")})
    df = ratings(out)
    assert df.loc[("2024-H1", "low"), "delta"] == pytest.approx(8.6319, abs=1e-3)
    assert df.loc[("2024-H1", "high"), "delta"] == pytest.approx(-8.6319, abs=1e-3)


def test_periods_are_half_years_by_default(tmp_path: Path) -> None:
    games = {"a.sgf": sgf("x", "y", "B+R", "2024-03-01"), "b.sgf": sgf("x", "y", "B+R", "2024-08-01", seed=2)}
    out = run(tmp_path, games)
    assert sorted(ratings(out).index.get_level_values("period").unique()) == ["2024-H1", "2024-H2"]


def test_a_game_not_played_is_not_rated(tmp_path: Path) -> None:
    out = run(tmp_path, {"a.sgf": sgf("x", "y", "B+F", black_rank="1d", white_rank="1d")})
    games = pd.read_parquet(out / "games.parquet")
    assert list(games["reasons"].iloc[0]) == ["no_show"]


def test_a_fixed_reference_player_is_never_updated(tmp_path: Path) -> None:
    roster = (
        '[[player]]\nname = "foreign"\nrating = 2600.0\nfixed = true\n'
        '[[player]]\nname = "home"\nrank = "5d"\n'
    )
    # home 2400 beats foreign 2600: We = 1/(1 + 10^(200/400)) = 0.24025; home +10 × 0.75975 = +7.5975
    out = run(tmp_path, {"a.sgf": sgf("home", "foreign", "B+R")}, roster=roster)
    df = ratings(out)
    assert df.loc[("2024-H1", "foreign"), "rating"] == 2600
    assert df.loc[("2024-H1", "home"), "rating"] == pytest.approx(2407.5975, abs=1e-3)


def test_k_and_scale_are_configurable(tmp_path: Path) -> None:
    # K = 20, equal ratings: +20 × 0.5 = +10
    games = {"a.sgf": sgf("x", "y", "B+R", black_rank="3d", white_rank="3d")}
    out = run(tmp_path, games, extra="[rules]\nk = 20\nscale = 200\n")
    assert ratings(out).loc[("2024-H1", "x"), "delta"] == pytest.approx(10.0)


def test_games_of_one_event_are_rated_from_its_start(tmp_path: Path) -> None:
    events = '[[event]]\nname = "Cup"\nkind = "other"\n'
    games = {
        "a.sgf": sgf("x", "y", "B+R", "2024-03-01", black_rank="3d", white_rank="3d", event="Cup"),
        "b.sgf": sgf("x", "z", "B+R", "2024-03-02", black_rank="3d", white_rank="3d", event="Cup", seed=2),
    }
    out = run(tmp_path, games, events=events)
    changes = pd.read_parquet(out / "changes")
    # both of x's games start from 2320 (3d): 2 × 10 × 0.5 = +10 in all
    assert list(changes[changes["player"] == "x"]["rating_before"]) == [2320, 2320]


def test_batching_can_be_turned_off(tmp_path: Path) -> None:
    events = '[[event]]\nname = "Cup"\nkind = "other"\n'
    games = {
        "a.sgf": sgf("x", "y", "B+R", "2024-03-01", black_rank="3d", white_rank="3d", event="Cup"),
        "b.sgf": sgf("x", "z", "B+R", "2024-03-02", black_rank="3d", white_rank="3d", event="Cup", seed=2),
    }
    out = run(tmp_path, games, extra="[rules]\nbatch_events = false\n", events=events)
    changes = pd.read_parquet(out / "changes")
    assert list(changes[changes["player"] == "x"]["rating_before"]) == [2320, 2325]
