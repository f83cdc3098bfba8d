"""collect: a period's outcome as the output tables (places, tallies, the rule set's own columns)."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest

from pipeline import rules
from pipeline.config.events import Award
from pipeline.config.roster import Roster
from pipeline.core.standings import PlayerState
from pipeline.rules.base import AwardGiven, Change, Game, PeriodOutcome
from pipeline.rules.collect import period_tables
from pipeline.rules.replay import schemas_of

DAY = dt.date(2024, 5, 3)


def _schemas() -> dict[str, pa.Schema]:
    name = "club"
    return schemas_of(rules.create(name, Roster(), rules.validity(name)))


def _outcome() -> tuple[PeriodOutcome, dict[str, Game]]:
    start = {n: PlayerState(100.0, "1k") for n in ("甲", "乙", "丙", "丁")}
    end = {"甲": PlayerState(110.0, "1k", 1), "乙": PlayerState(90.0, "1k", 1),
           "丙": PlayerState(110.0, "1d"), "丁": PlayerState(100.0, "1k")}  # fmt: skip
    game = Game("g1", 7, DAY, "甲", "乙", "B", "slow")
    changes = [
        Change("g1", "甲", "乙", "B", 1.0, 100.0, 8.0, 2.0),
        Change("g1", "乙", "甲", "W", 0.0, 100.0, -10.0),
    ]
    award = AwardGiven(Award("丙", DAY, 10.0, None, "cup", "Cup"), "champion", 10.0)
    return PeriodOutcome(start, end, changes, [award]), {"g1": game}


def test_equal_ratings_share_the_first_place_of_their_run() -> None:
    outcome, games = _outcome()
    ratings = period_tables("2024-05", outcome, games, lambda n: True, _schemas())["ratings"]
    assert ratings.select(["player", "rating_place"]).to_pylist() == [
        {"player": "丙", "rating_place": 1}, {"player": "甲", "rating_place": 1},
        {"player": "丁", "rating_place": 3}, {"player": "乙", "rating_place": 4},
    ]  # fmt: skip


def test_tallies_count_each_players_games_and_add_award_points_to_the_bonus() -> None:
    outcome, games = _outcome()
    ratings = period_tables("2024-05", outcome, games, lambda n: n != "丁", _schemas())["ratings"]
    rows = {r["player"]: r for r in ratings.to_pylist()}
    assert (rows["甲"]["games"], rows["甲"]["wins"], rows["甲"]["bonus"]) == (1, 1, 2.0)
    assert (rows["乙"]["losses"], rows["丙"]["bonus"], rows["丁"]["games"]) == (1, 10.0, 0)
    assert (rows["丁"]["member"], rows["甲"]["delta"], rows["丙"]["rank_before"]) == (False, 10.0, "1k")


def test_change_rows_carry_the_games_date_seq_and_the_delta_with_the_bonus() -> None:
    outcome, games = _outcome()
    changes = period_tables("2024-05", outcome, games, lambda n: True, _schemas())["changes"].to_pylist()
    assert [(c["player"], c["date"], c["seq"], c["delta"]) for c in changes] == [
        ("甲", DAY, 7, 10.0), ("乙", DAY, 7, -10.0),
    ]  # fmt: skip


def test_an_award_to_a_player_not_in_the_standings_adds_no_row() -> None:
    outcome, games = _outcome()
    stranger = AwardGiven(Award("戊", DAY, 5.0, None, "cup", "Cup"), "manual", 5.0)
    outcome = PeriodOutcome(outcome.start, outcome.end, outcome.changes, [*outcome.awards, stranger])
    ratings = period_tables("2024-05", outcome, games, lambda n: True, _schemas())["ratings"]
    assert sorted(ratings["player"].to_pylist()) == sorted(["甲", "乙", "丙", "丁"])


def test_a_change_of_a_player_not_in_the_standings_raises_keyerror() -> None:
    outcome, games = _outcome()
    lost = Change("g1", "戊", "甲", "W", 0.0, 100.0, -1.0)
    outcome = PeriodOutcome(outcome.start, outcome.end, [*outcome.changes, lost], outcome.awards)
    with pytest.raises(KeyError, match="戊"):
        period_tables("2024-05", outcome, games, lambda n: True, _schemas())
