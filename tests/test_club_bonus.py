"""The club rule set's bonus points (奖励分, docs/rules.md ("club")), through `ratings run` on SGF records.

Events come from an events.toml in tmp_path; every number is read back from the Parquet output and
worked by hand in a comment. Ranks: 羽焰 1d (coefficient 1), 二黑 2d (2), fish 3d (3), 凝兰 5k (0.1).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest
from rosters import roster
from sgfmake import sgf
from test_club_goldens import changes, rating, run_club

ROSTER = roster("羽焰", "二黑", "fish", "凝兰", aliases={"羽焰": ()})


def awards(out: Path) -> pd.DataFrame:
    """Every awards row, with ``period`` as text and ``date`` as ``datetime.date`` (stored: a timestamp)."""
    df = pd.read_parquet(out / "awards")
    return df.assign(period=df["period"].astype(str), date=df["date"].dt.date)


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A team match against another club, whose players (弈林甲 3d, 弈林乙 5k) are not on the roster."""
    events = '[[event]]\nname = "飞扬-弈林对抗赛"\nmatch = ["飞扬对弈林*"]\nkind = "team_match"\n'
    games = [
        sgf(
            "羽焰",
            "弈林甲",
            "B+R",
            "2024-05-01",
            black_rank="1d",
            white_rank="3d",
            event="飞扬对弈林 1",
            seed=1,
        ),
        sgf(
            "二黑",
            "弈林乙",
            "W+R",
            "2024-05-02",
            black_rank="2d",
            white_rank="5k",
            event="飞扬对弈林 2",
            seed=2,
        ),
    ]
    return run_club(tmp_path_factory.mktemp("team"), games, roster=ROSTER, events=events)


@pytest.mark.slow
def test_team_match_win_earns_10(team: Path) -> None:
    # 羽焰 beats a 3d slow: points 3 x 10 = 30, bonus 10, delta 40
    row = changes(team, "2024-05", "羽焰").iloc[0]
    assert (row["points"], row["bonus"], row["delta"]) == (30, 10, 40)


def test_team_match_loss_earns_nothing(team: Path) -> None:
    # 二黑 (2d) loses slow: points -2 x 10 = -20, no bonus
    row = changes(team, "2024-05", "二黑").iloc[0]
    assert (row["points"], row["bonus"], row["delta"]) == (-20, 0, -20)


def test_team_match_outsider_is_rated_by_the_record_rank(team: Path) -> None:
    # WR 3d -> coefficient 3 (羽焰's win); WR 5k -> 0.1 (what 二黑 would have won)
    yuyan, erhei = changes(team, "2024-05", "羽焰").iloc[0], changes(team, "2024-05", "二黑").iloc[0]
    assert (yuyan["opponent_rank"], yuyan["opponent_coefficient"]) == ("3d", 3)
    assert (erhei["opponent_rank"], erhei["opponent_coefficient"]) == ("5k", 0.1)


def test_team_match_outsiders_are_not_rated(team: Path) -> None:
    assert pd.read_parquet(team / "games.parquet")["counted"].all()
    assert sorted(pd.read_parquet(team / "ratings")["player"]) == ["二黑", "羽焰"]
    assert sorted(pd.read_parquet(team / "changes")["player"]) == ["二黑", "羽焰"]


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """羽焰 in an arena against five 1d outsiders, one a day: win, win, win, loss, win."""
    events = '[[event]]\nname = "飞扬-弈林擂台赛"\nmatch = ["*擂台*"]\nkind = "arena"\n'
    results = ["B+R", "B+R", "B+R", "W+R", "B+R"]
    games = [
        sgf(
            "羽焰", f"弈林{i}", res, f"2024-05-0{i}", black_rank="1d", white_rank="1d", event="擂台赛", seed=i
        )
        for i, res in enumerate(results, 1)
    ]
    return run_club(tmp_path_factory.mktemp("arena"), games, roster=ROSTER, events=events)


@pytest.mark.slow
def test_arena_streak_bonuses_grow_by_5_and_restart_after_a_loss(arena: Path) -> None:
    # wins 1, 2, 3 in a row: 10, 10 + 5, 15 + 5; the loss: 0; the next win starts over: 10
    assert changes(arena, "2024-05", "羽焰")["bonus"].tolist() == [10, 15, 20, 0, 10]


def test_arena_month_rating_adds_points_and_bonuses(arena: Path) -> None:
    # points 4 x (1 x 10) - 1 x 10 = 30; bonus 10 + 15 + 20 + 0 + 10 = 55; 100 + 30 + 55 = 185
    row = rating(arena, "2024-05", "羽焰")
    assert (row["bonus"], row["rating"]) == (55, 185)


@pytest.fixture(scope="module")
def qualifiers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """TOM杯 (server event with qualifiers): qualifier rounds in May, the main stage in June, last game
    2024-06-20; champion 羽焰, runner-up 二黑."""
    events = """
[[event]]
name = "TOM杯"
match = ["TOM杯*"]
kind = "server_qualifiers"
champion = "羽焰"
runner_up = "二黑"
"""
    ev = "TOM杯 2024"
    games = [
        sgf("羽焰", "凝兰", "B+R", "2024-05-10", event=ev, round_="外围赛第1轮", seed=1),  # 0.1 x 10 = 1, +10
        sgf("二黑", "fish", "B+R", "2024-05-11", event=ev, round_="外围赛决赛", seed=2),  # 3 x 10 = 30, +10
        sgf(
            "fish", "羽焰", "W+R", "2024-06-05", event=ev, round_="半决赛", seed=3
        ),  # fish 2d now: 2 x 10, +50
        sgf("二黑", "羽焰", "W+R", "2024-06-20", slow=False, event=ev, round_="决赛", seed=4),  # 2 x 5, +50
    ]
    return run_club(tmp_path_factory.mktemp("qualifiers"), games, roster=ROSTER, events=events)


@pytest.mark.slow
def test_qualifier_win_earns_10(qualifiers: Path) -> None:
    assert changes(qualifiers, "2024-05", "羽焰")[["points", "bonus"]].values.tolist() == [[1, 10]]


def test_main_stage_win_earns_50(qualifiers: Path) -> None:
    # fish fell to 2d after May (300 - 3 x 10 = 270): the semi-final win is 2 x 10 = 20; the final 2 x 5 = 10
    assert changes(qualifiers, "2024-06", "羽焰")[["points", "bonus"]].values.tolist() == [[20, 50], [10, 50]]


def test_server_event_loss_earns_nothing(qualifiers: Path) -> None:
    # 二黑 loses the final fast: -2 x 5 = -10, no bonus
    assert changes(qualifiers, "2024-06", "二黑")[["points", "bonus"]].values.tolist() == [[-10, 0]]


def test_titles_are_awarded_in_the_month_of_the_last_game(qualifiers: Path) -> None:
    rows = awards(qualifiers).sort_values("points")[["period", "player", "kind", "points", "date", "event"]]
    final = dt.date(2024, 6, 20)
    assert rows.values.tolist() == [
        ["2024-06", "二黑", "runner_up", 100, final, "TOM杯"],
        ["2024-06", "羽焰", "champion", 500, final, "TOM杯"],
    ]


def test_titles_count_in_the_ratings_bonus(qualifiers: Path) -> None:
    # 羽焰, June: 50 + 50 (main-stage wins) + 500 (champion) = 600; 二黑: 0 (loss) + 100 (runner-up)
    assert rating(qualifiers, "2024-06", "羽焰")["bonus"] == 600
    assert rating(qualifiers, "2024-06", "二黑")["bonus"] == 100


@pytest.fixture(scope="module")
def open_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """飞扬月赛 (server event, no qualifiers) in June, `ends` 2024-07-15: champion 二黑, runner-up 羽焰;
    and a manual award of 50 points to 凝兰 (no games) on 2024-06-30."""
    events = """
[[event]]
name = "飞扬月赛"
kind = "server_open"
champion = "二黑"
runner_up = "羽焰"
ends = 2024-07-15

[[event]]
name = "年度评选"
kind = "other"
[[event.award]]
player = "凝兰"
date = 2024-06-30
points = 50
note = "best newcomer"
"""
    games = [
        sgf("二黑", "羽焰", "B+R", "2024-06-01", event="飞扬月赛", seed=1),  # 二黑 +1 x 10 = 10, +20
        sgf("羽焰", "二黑", "B+R", "2024-06-02", event="飞扬月赛", seed=2),  # 羽焰 +2 x 10 = 20, +20
        sgf("二黑", "羽焰", "B+R", "2024-06-03", slow=False, event="飞扬月赛", seed=3),  # 二黑 +1 x 5, +20
    ]
    return run_club(tmp_path_factory.mktemp("open"), games, roster=ROSTER, events=events)


@pytest.mark.slow
def test_open_event_win_earns_20(open_event: Path) -> None:
    assert changes(open_event, "2024-06", "二黑")["bonus"].tolist() == [20, 0, 20]


def test_open_event_titles_fall_in_the_month_of_ends(open_event: Path) -> None:
    rows = awards(open_event).sort_values("points")[["period", "player", "kind", "points", "date"]]
    ends = dt.date(2024, 7, 15)
    assert rows.values.tolist() == [
        ["2024-06", "凝兰", "manual", 50, dt.date(2024, 6, 30)],
        ["2024-07", "羽焰", "runner_up", 100, ends],
        ["2024-07", "二黑", "champion", 500, ends],
    ]


def test_open_event_champion_gains_500_in_a_month_without_games(open_event: Path) -> None:
    # 二黑, June: 200 + 10 + 20 - 20 + 5 + 20 = 235; July: 235 + 500 = 735 -> 5d (500 <= 735 < 1000)
    row = rating(open_event, "2024-07", "二黑")
    assert (row["games"], row["rating_before"], row["bonus"], row["rating"], row["rank"]) == (
        0,
        235,
        500,
        735,
        "5d",
    )


def test_manual_award_points_go_to_a_player_without_games(open_event: Path) -> None:
    # 凝兰 enters at her declared 5k base 10; the award gives 50: 10 + 50 = 60 -> 3k (50 <= 60 < 70)
    row = rating(open_event, "2024-06", "凝兰")
    assert (row["games"], row["rating_before"], row["bonus"], row["rating"], row["rank"]) == (
        0,
        10,
        50,
        60,
        "3k",
    )


@pytest.fixture(scope="module")
def gap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Games in May and July, none in June (no roster: ranks from the records)."""
    games = [
        sgf(
            "羽焰", "二黑", "B+R", "2024-05-01", black_rank="1d", white_rank="2d", seed=1
        ),  # 羽焰 +20, 二黑 -20
        sgf("羽焰", "二黑", "W+R", "2024-07-01", black_rank="1d", white_rank="2d", seed=2),
    ]
    return run_club(tmp_path_factory.mktemp("gap"), games)


@pytest.mark.parametrize(("player", "rating_", "rank"), [("羽焰", 120, "1d"), ("二黑", 180, "1d")])
@pytest.mark.slow
def test_month_without_games_keeps_the_standings(gap: Path, player: str, rating_: float, rank: str) -> None:
    # May: 羽焰 100 + 2 x 10 = 120 (1d); 二黑 200 - 2 x 10 = 180 (1d); June: no games, nothing moves
    row = rating(gap, "2024-06", player)
    assert (row["games"], row["rating_before"], row["delta"], row["rating"], row["rank"]) == (
        0,
        rating_,
        0,
        rating_,
        rank,
    )


SCENARIOS = ["team", "arena", "qualifiers", "open_event", "gap"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_change_delta_is_points_plus_bonus(scenario: str, request: pytest.FixtureRequest) -> None:
    df = pd.read_parquet(request.getfixturevalue(scenario) / "changes")
    assert (df["delta"] - (df["points"] + df["bonus"])).abs().max() < 1e-9


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_rating_delta_is_changes_plus_awards(scenario: str, request: pytest.FixtureRequest) -> None:
    out = request.getfixturevalue(scenario)
    ratings = pd.read_parquet(out / "ratings").assign(period=lambda d: d["period"].astype(str))
    moved = pd.read_parquet(out / "changes").assign(period=lambda d: d["period"].astype(str))
    by_games = moved.groupby(["period", "player"])["delta"].sum()
    by_awards = awards(out).groupby(["period", "player"])["points"].sum()
    expected = by_games.add(by_awards, fill_value=0)
    got = ratings.set_index(["period", "player"])["delta"]
    assert (got - expected.reindex(got.index, fill_value=0)).abs().max() < 1e-9


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_rating_is_rating_before_plus_delta(scenario: str, request: pytest.FixtureRequest) -> None:
    df = pd.read_parquet(request.getfixturevalue(scenario) / "ratings")
    assert (df["rating"] - (df["rating_before"] + df["delta"])).abs().max() < 1e-9
