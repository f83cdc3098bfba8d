"""The ``tga`` rule set's Article 8 (promotion by points, docs/rules.md ("tga")) through
`ratings run --rules tga` on hand-made Gomoku (GM[4]) records, read back from Parquet.

Criterion: S + 0.2 × Σ_wins Δ + 0.1 × Σ_draws Δ >= 0.7 × N, Δ = opponent's dan − own dan (kyu = 0),
lower cap −5; at least 5 valid games (4 with a bye or forfeit win); not beyond 7d.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

pytestmark = pytest.mark.slow

OPEN = '[[event]]\nname = "Open"\nkind = "recognised"\n'


def g(
    black: str, white: str, result: str, br: str | None = None, wr: str | None = None, **kw: Any
) -> dict[str, Any]:
    """One game's sgf() arguments: event "Open" on 2024-05-01 unless given."""
    return {"black": black, "white": white, "result": result, "black_rank": br, "white_rank": wr} | {
        "event": "Open",
        "date": "2024-05-01",
        **kw,
    }


def run(
    tmp_path: Path,
    games: list[dict[str, Any]],
    events: str | None = OPEN,
    roster: str = "",
    validity: str = "",
) -> Path:
    """Write ``games`` (GM[4], one file each, distinct moves), the roster and events files (events None:
    no events file) and ratings.toml; run `ratings run --rules tga`; return the output folder."""
    raw, out = tmp_path / "raw", tmp_path / "out"
    raw.mkdir()
    for i, game in enumerate(games):
        (raw / f"g{i:03d}.sgf").write_text(sgf(**game, game_type=4, seed=i), encoding="utf-8")
    (tmp_path / "roster.toml").write_text(roster, encoding="utf-8")
    lines = ['[run]\nroster = "roster.toml"']
    if events is None:
        lines.append('events = ""')
    else:
        (tmp_path / "events.toml").write_text(events, encoding="utf-8")
        lines.append('events = "events.toml"')
    config = tmp_path / "ratings.toml"
    config.write_text("\n".join(lines) + f"\n{validity}", encoding="utf-8")
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--workers", "1"]
    result = CliRunner().invoke(app, [*args, "--rules", "tga"])
    assert result.exit_code == 0, result.output
    return out


def rank(out: Path, player: str, period: str = "2024") -> str:
    df = pd.read_parquet(out / "ratings")
    row = df[(df["period"].astype(str) == period) & (df["player"] == player)]
    return str(row["rank"].iloc[0])


def promotions(out: Path, player: str) -> pd.DataFrame:
    df = pd.read_parquet(out / "promotions.parquet")
    return df[df["player"] == player].reset_index(drop=True)


def changes(out: Path, player: str) -> pd.DataFrame:
    df = pd.read_parquet(out / "changes")
    return df[df["player"] == player].sort_values("seq").reset_index(drop=True)


def golden_2d() -> list[dict[str, Any]]:
    """docs/rules.md ("tga"), "Examples": a 2d wins vs 3d, 2d, 4d, loses vs 5d, draws vs 2d."""
    opponents = [("o3", "3d", "B+R"), ("o2a", "2d", "B+R"), ("o4", "4d", "B+R"), ("o5", "5d", "W+R")]
    return [g("P", o, r, "2d", wr) for o, wr, r in opponents] + [g("P", "o2b", "Draw", "2d", "2d")]


def test_golden_2d_with_41_against_35_is_promoted_to_3d(tmp_path: Path) -> None:
    # S = 3.5, Σ_wins Δ = 1 + 0 + 2 = 3, Σ_draws Δ = 0: 3.5 + 0.6 = 4.1 >= 0.7 × 5 = 3.5
    out = run(tmp_path, golden_2d())
    assert rank(out, "P") == "3d"
    row = promotions(out, "P").iloc[0]
    assert (row["rule"], row["from_rank"], row["to_rank"], row["event"]) == (
        "tga article 8 points",
        "2d",
        "3d",
        "Open",
    )
    assert (row["value"], row["threshold"], row["games"]) == (pytest.approx(4.1), pytest.approx(3.5), 5)


def test_golden_change_points_are_each_games_part_of_the_criterion(tmp_path: Path) -> None:
    # win vs 3d 1 + 0.2; win vs 2d 1; win vs 4d 1 + 0.4; loss 0; draw vs 2d 0.5 + 0.1 × 0
    out = run(tmp_path, golden_2d())
    assert changes(out, "P")["points"].tolist() == pytest.approx([1.2, 1.0, 1.4, 0.0, 0.5])


def test_golden_3d_winning_3_of_5_against_1d_is_not_promoted(tmp_path: Path) -> None:
    # S = 3, Σ_wins Δ = 3 × (1 − 3) = −6: 3 − 1.2 = 1.8 < 3.5
    games = [g("T", f"o{i}", "B+R" if i < 3 else "W+R", "3d", "1d") for i in range(5)]
    out = run(tmp_path, games)
    assert rank(out, "T") == "3d" and promotions(out, "T").empty
    assert changes(out, "T")["points"].sum() == pytest.approx(1.8)


@pytest.mark.parametrize(("wins", "expected"), [(4, "1d"), (5, "2d")])
def test_five_valid_games_are_needed(tmp_path: Path, wins: int, expected: str) -> None:
    # 4 wins vs 1d: 4 >= 2.8 but only 4 games; 5 wins: 5 >= 3.5
    out = run(tmp_path, [g("P", f"o{i}", "B+R", "1d", "1d") for i in range(wins)])
    assert rank(out, "P") == expected


def test_dan_difference_is_capped_below_at_minus_five(tmp_path: Path) -> None:
    # 6d wins vs 9d, 7d, 6d, 1k, 1k: 1.6 + 1.2 + 1.0 + (1 − 0.2 × 5) × 2 = 3.8 >= 3.5 (uncapped: 3.4)
    ranks = ["9d", "7d", "6d", "1k", "1k"]
    out = run(tmp_path, [g("P", f"o{i}", "B+R", "6d", r) for i, r in enumerate(ranks)])
    assert rank(out, "P") == "7d"
    assert changes(out, "P")["delta_dan"].tolist() == [3.0, 1.0, 0.0, -5.0, -5.0]


@pytest.mark.parametrize(("start", "expected"), [("6d", "7d"), ("7d", "7d")])
def test_promotion_by_points_stops_at_7d(tmp_path: Path, start: str, expected: str) -> None:
    # 5 wins vs 9d: 5 + 0.2 × 5 × Δ >= 3.5 whatever Δ >= 0; a 7d stays 7d
    out = run(tmp_path, [g("P", f"o{i}", "B+R", start, "9d") for i in range(5)])
    assert rank(out, "P") == expected


def test_a_promotion_applies_to_the_next_event_and_the_next_year(tmp_path: Path) -> None:
    # May, Open: 1d wins 5 vs 1d -> 2d. June, Cup: as 2d, 5 wins vs 2d (Δ 0): 5 >= 3.5 -> 3d.
    # 2025 starts at 3d.
    events = OPEN + '[[event]]\nname = "Cup"\nkind = "recognised"\n'
    games = [g("P", f"o{i}", "B+R", "1d", "1d") for i in range(5)]
    games += [g("P", f"c{i}", "B+R", "1d", "2d", event="Cup", date="2024-06-01") for i in range(5)]
    games += [g("P", "z", "B+R", "1d", "1d", event=None, date="2025-01-05")]
    out = run(tmp_path, games, events=events)
    assert [p["to_rank"] for _, p in promotions(out, "P").iterrows()] == ["2d", "3d"]
    assert rank(out, "P", "2025") == "3d"


def test_a_kyu_counts_as_dan_0_and_is_promoted_to_1d(tmp_path: Path) -> None:
    # 3k: own dan 0; 5 wins vs 1k (Δ 0): 5 >= 3.5 -> 1d
    out = run(tmp_path, [g("P", f"o{i}", "B+R", "3k", "1k") for i in range(5)])
    assert rank(out, "P") == "1d"


def test_games_in_no_event_are_not_evaluated(tmp_path: Path) -> None:
    out = run(tmp_path, [g("P", f"o{i}", "B+R", "1d", "1d", event=None) for i in range(5)])
    assert rank(out, "P") == "1d" and promotions(out, "P").empty


def test_games_of_an_event_of_another_kind_are_not_evaluated(tmp_path: Path) -> None:
    events = '[[event]]\nname = "Open"\nkind = "other"\n'
    out = run(tmp_path, [g("P", f"o{i}", "B+R", "1d", "1d") for i in range(5)], events=events)
    assert rank(out, "P") == "1d"


def test_with_no_events_file_every_event_is_recognised(tmp_path: Path) -> None:
    out = run(tmp_path, [g("P", f"o{i}", "B+R", "1d", "1d") for i in range(5)], events=None)
    assert rank(out, "P") == "2d"


def unknown_x(results: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """X (no rank anywhere) meets known-rank opponents: (opponent's rank, X's result 'W' or 'L' or 'D')."""
    result = {"W": "B+R", "L": "W+R", "D": "Draw"}
    return [g("X", f"k{i}", result[r], None, rank_) for i, (rank_, r) in enumerate(results)]


def x_dan(out: Path) -> float:
    rows = pd.read_parquet(out / "changes").query("opponent == 'X'")
    assert rows["estimated_opponent"].all()
    return float(rows["opponent_dan"].iloc[0])


def test_unknown_rank_winning_every_game_is_one_dan_above_the_strongest_opponent(tmp_path: Path) -> None:
    # beats 2d and 3d: 3 + 1 = 4
    assert x_dan(run(tmp_path, unknown_x([("2d", "W"), ("3d", "W")]))) == 4.0


def test_unknown_rank_losing_every_game_is_one_dan_below_the_weakest_opponent(tmp_path: Path) -> None:
    # loses to 2d and 3d: 2 − 1 = 1
    assert x_dan(run(tmp_path, unknown_x([("2d", "L"), ("3d", "L")]))) == 1.0


def test_unknown_rank_estimate_is_bounded_at_dan_0(tmp_path: Path) -> None:
    # loses to 1d and a 2k (dan 0): 0 − 1 = −1, bounded to 0
    assert x_dan(run(tmp_path, unknown_x([("1d", "L"), ("2k", "L")]))) == 0.0


def test_unknown_rank_with_wins_and_losses_is_the_mean_of_the_interval(tmp_path: Path) -> None:
    # beats 1d and 2d, loses to 5d and 4d: strongest beaten 2, weakest lost to 4: (2 + 4) / 2 = 3
    results = [("1d", "W"), ("2d", "W"), ("5d", "L"), ("4d", "L")]
    assert x_dan(run(tmp_path, unknown_x(results))) == 3.0


def test_estimated_dan_counts_in_the_criterion(tmp_path: Path) -> None:
    # X beats 2d and 4d, loses to 6d: (4 + 6) / 2 = 5. P (3d) beats X and four 1d: 1 + 0.4 + 4 × 0.6 = 3.8
    # >= 3.5 -> 4d (with X as dan 0 it would be 0.6 + 2.4 = 3.0 < 3.5)
    games = unknown_x([("2d", "W"), ("4d", "W"), ("6d", "L")])
    games += [g("P", "X", "B+R", "3d", None)] + [g("P", f"o{i}", "B+R", "3d", "1d") for i in range(4)]
    assert rank(run(tmp_path, games), "P") == "4d"


@pytest.mark.parametrize(
    ("fifth", "events", "expected"),
    [
        (None, OPEN, "1d"),  # 4 valid games, nothing else seen
        ("B+F", OPEN, "2d"),  # a forfeit win: five rounds, four valid games (Article 8.6)
        ("W+F", OPEN, "1d"),  # a forfeit loss: the player did not complete their games
        (None, OPEN + "rounds = 5\n", "2d"),  # five rounds scheduled, one without a record: a bye
    ],
)
def test_four_valid_games_qualify_after_a_bye_or_forfeit_win(
    tmp_path: Path, fifth: str | None, events: str, expected: str
) -> None:
    # 4 wins vs 1d: 4 >= 0.7 × 4 = 2.8
    games = [g("P", f"o{i}", "B+R", "1d", "1d") for i in range(4)]
    games += [g("P", "absent", fifth, "1d", "1d", moves=0)] if fifth else []
    out = run(tmp_path, games, events=events, validity='[validity]\nno_show = "count"\n')
    assert rank(out, "P") == expected
