"""The club rule set's goldens (docs/rules.md ("club")), through `ratings run` on hand-made SGF records.

Every number is read back from the Parquet output and worked by hand in a comment. Ranks fixed at the
previous computation apply for a whole month; slow games are worth 10 game points, fast ones 5.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from rosters import roster
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

ROSTER_1D_MAY = roster("羽焰", "凝兰", "牛蛙", "阿扬", "fish", "二黑", aliases={"羽焰": ()})


def run_club(root: Path, games: list[str], roster: str | None = None, events: str | None = None) -> Path:
    """Write ``games`` (SGF texts, one file each, named in list order), the roster and events files
    (None: none), a ratings.toml for the club rule set; run `ratings run`; return the output folder."""
    raw, out = root / "raw", root / "out"
    raw.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(games):
        (raw / f"g{i:03d}.sgf").write_text(text, encoding="utf-8")
    companions = {"roster": roster, "events": events}
    lines = ["[run]", 'rule_set = "club"', 'period = "month"']
    for key, content in companions.items():
        if content is None:
            lines.append(f'{key} = ""')
        else:
            (root / f"{key}.toml").write_text(content, encoding="utf-8")
            lines.append(f'{key} = "{key}.toml"')
    config = root / "ratings.toml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--workers", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def rating(out: Path, period: str, player: str) -> pd.Series:
    """The ratings row of ``player`` in ``period`` (exactly one must exist)."""
    df = pd.read_parquet(out / "ratings")
    rows = df[(df["period"].astype(str) == period) & (df["player"] == player)]
    assert len(rows) == 1, f"{player} in {period}: {len(rows)} rows"
    return rows.iloc[0]


def changes(out: Path, period: str, player: str) -> pd.DataFrame:
    """The changes rows of ``player`` in ``period``, in game order."""
    df = pd.read_parquet(out / "changes")
    return df[(df["period"].astype(str) == period) & (df["player"] == player)].sort_values("seq")


def seed_example(ranks: bool) -> list[str]:
    """Seed 001's worked example (May: 羽焰's eight games; June: 羽焰 beats 二黑 fast), plus three slow
    May wins of 二黑 over 阿扬 so that 二黑 is 3d in June. ``ranks``: write BR/WR in the records."""

    def r(rank: str) -> str | None:
        return rank if ranks else None

    def may(black: str, white: str, res: str, day: int, slow: bool, br: str, wr: str, seed: int) -> str:
        date = f"2024-05-{day:02d}"
        return sgf(black, white, res, date, slow=slow, black_rank=r(br), white_rank=r(wr), seed=seed)

    return [
        may("羽焰", "凝兰", "B+R", 1, True, "1d", "5k", 1),  # win: 5k coefficient 0.1 x 10 = +1
        may("凝兰", "羽焰", "W+R", 2, True, "5k", "1d", 2),  # +1
        may("羽焰", "凝兰", "B+5.5", 3, True, "1d", "5k", 3),  # +1
        may("羽焰", "牛蛙", "W+R", 4, False, "1d", "1d", 4),  # loss, fast: own 1 x 5 = -5
        may("阿扬", "羽焰", "B+R", 5, True, "4d", "1d", 5),  # loss, slow: own 1 x 10 = -10
        may("fish", "羽焰", "W+R", 6, True, "3d", "1d", 6),  # win over 3d: 3 x 10 = +30
        may("羽焰", "二黑", "B+R", 7, True, "1d", "2d", 7),  # win over 2d: 2 x 10 = +20
        may("二黑", "羽焰", "B+R", 8, False, "2d", "1d", 8),  # loss, fast: -5
        may("羽焰", "二黑", "W+R", 9, False, "1d", "2d", 9),  # loss, fast: -5
        may("二黑", "阿扬", "B+R", 10, True, "2d", "4d", 10),  # 二黑 beats 4d slow: 4 x 10 = +40
        may("阿扬", "二黑", "W+R", 11, True, "4d", "2d", 11),  # +40
        may("二黑", "阿扬", "B+R", 12, True, "2d", "4d", 12),  # +40
        # June: the record still says 2d (stale); the rule set must use the floated rank 3d.
        sgf("二黑", "羽焰", "W+R", "2024-06-03", slow=False, black_rank=r("2d"), white_rank=r("1d"), seed=13),
    ]


@pytest.fixture(scope="module")
def with_roster(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_club(tmp_path_factory.mktemp("roster"), seed_example(ranks=False), roster=ROSTER_1D_MAY)


@pytest.fixture(scope="module")
def without_roster(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_club(tmp_path_factory.mktemp("no_roster"), seed_example(ranks=True))


@pytest.mark.slow
def test_seed_example_may_is_128_with_ranks_from_the_roster(with_roster: Path) -> None:
    # 100 + 3 x (0.1 x 10) - 1 x 5 - 1 x 10 + 3 x 10 + 2 x 10 - 2 x (1 x 5) = 100 + 3 - 5 - 10 + 30 + 20 - 10
    row = rating(with_roster, "2024-05", "羽焰")
    assert (row["rating_before"], row["rating"], row["rank"]) == (100, 128, "1d")


@pytest.mark.slow
def test_seed_example_may_is_128_with_ranks_from_the_records(without_roster: Path) -> None:
    # no roster: 羽焰 starts at the base of BR/WR 1d = 100; the same eight games -> 128
    row = rating(without_roster, "2024-05", "羽焰")
    assert (row["rating_before"], row["rating"], row["rank"]) == (100, 128, "1d")


def test_seed_example_may_points_game_by_game(with_roster: Path) -> None:
    # in game order: +1 +1 +1 (5k, 0.1 x 10), -5 (fast loss), -10 (slow loss), +30 (3d), +20 (2d), -5, -5
    assert changes(with_roster, "2024-05", "羽焰")["points"].tolist() == [1, 1, 1, -5, -10, 30, 20, -5, -5]


@pytest.mark.parametrize("fixture", ["with_roster", "without_roster"])
def test_erhei_is_3d_after_may(fixture: str, request: pytest.FixtureRequest) -> None:
    # 二黑 (2d, 200): loses slow to 羽焰 -2 x 10 = -20, beats 羽焰 twice fast +1 x 5 + 1 x 5 = +10,
    # beats 阿扬 (4d) three times slow +3 x 4 x 10 = +120: 200 - 20 + 10 + 120 = 310 -> 3d (300 <= 310 < 400)
    row = rating(request.getfixturevalue(fixture), "2024-05", "二黑")
    assert (row["rating"], row["rank"]) == (310, "3d")


@pytest.mark.parametrize("fixture", ["with_roster", "without_roster"])
def test_seed_example_june_is_143(fixture: str, request: pytest.FixtureRequest) -> None:
    # 羽焰 beats 二黑, 3d by then, fast: 128 + 3 x 5 = 143
    row = rating(request.getfixturevalue(fixture), "2024-06", "羽焰")
    assert (row["rating_before"], row["rating"]) == (128, 143)


@pytest.mark.parametrize("fixture", ["with_roster", "without_roster"])
def test_june_win_uses_the_opponents_floated_coefficient(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    # the June record still says 二黑 is 2d; the coefficient is the 3d of the May computation: 3 x 5 = 15
    june = changes(request.getfixturevalue(fixture), "2024-06", "羽焰")
    assert june[["opponent_rank", "opponent_coefficient", "game_points", "points"]].values.tolist() == [
        ["3d", 3, 5, 15]
    ]


@pytest.fixture(scope="module")
def falling_2k(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """天狼星 (2k, 70) loses three slow games in May and one slow game in June to 雪茄 (1d)."""
    games = [
        sgf("天狼星", "雪茄", "W+R", f"2024-05-0{day}", black_rank="2k", white_rank="1d", seed=day)
        for day in (1, 2, 3)
    ]
    games.append(sgf("雪茄", "天狼星", "B+R", "2024-06-01", black_rank="1d", white_rank="2k", seed=4))
    return run_club(tmp_path_factory.mktemp("2k"), games)


@pytest.mark.slow
def test_2k_losing_three_slow_games_has_49(falling_2k: Path) -> None:
    # 70 - 3 x (0.7 x 10) = 70 - 21 = 49
    assert rating(falling_2k, "2024-05", "天狼星")["rating"] == 49


def test_2k_losing_three_slow_games_is_4k_next_month(falling_2k: Path) -> None:
    # 49: 4k's base 30 <= 49 < 50 (3k's base)
    assert rating(falling_2k, "2024-05", "天狼星")["rank"] == "4k"


def test_2k_fallen_to_4k_loses_with_coefficient_0_3(falling_2k: Path) -> None:
    # June, rank 4k: a slow loss costs 0.3 x 10 = 3; 49 - 3 = 46
    june = changes(falling_2k, "2024-06", "天狼星")
    assert june[["rank", "coefficient", "points"]].values.tolist() == [["4k", 0.3, -3]]
    assert rating(falling_2k, "2024-06", "天狼星")["rating"] == 46


@pytest.fixture(scope="module")
def rising_4k(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """雪茄, declared 4k on the roster (records say 1k), beats the 4d players 阿扬 and caoty slow in May."""
    roster = """
[[player]]
name = "雪茄"
rank = "4k"
[[player]]
name = "阿扬"
rank = "4d"
[[player]]
name = "caoty"
rank = "4d"
"""
    games = [
        sgf("雪茄", "阿扬", "B+R", "2024-05-01", black_rank="1k", white_rank="4d", seed=1),
        sgf("caoty", "雪茄", "W+2.5", "2024-05-02", black_rank="4d", white_rank="1k", seed=2),
    ]
    return run_club(tmp_path_factory.mktemp("4k"), games, roster=roster)


def test_declared_4k_beating_two_4d_slow_has_110(rising_4k: Path) -> None:
    # the roster's 4k wins over the records' 1k: base 30; 30 + 2 x (4 x 10) = 110
    row = rating(rising_4k, "2024-05", "雪茄")
    assert (row["rank_before"], row["rating_before"], row["rating"]) == ("4k", 30, 110)


def test_declared_4k_beating_two_4d_slow_is_1d_next_month(rising_4k: Path) -> None:
    # 110: 1d's base 100 <= 110 < 200
    assert rating(rising_4k, "2024-05", "雪茄")["rank"] == "1d"
