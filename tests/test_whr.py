"""The whr rule set (pipeline/rules/whr.py, docs/rules.md ("whr")): its scale, its parameter, its periods (a
snapshot uses no later game; a period starts from the previous estimate and reaches the maximum of all the
games so far; standings passed through pickle give the same next period, to the bit), its change rows
(``se`` from the ratings before the period, deltas that sum to the move) and its deviation."""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import pickle
from pathlib import Path

import numpy as np
import pytest

from bench import rules_bench
from pipeline import rules
from pipeline.config.events import Event
from pipeline.config.roster import Player, Roster
from pipeline.config.toml import ConfigError, Table
from pipeline.core.ranks import parse_rank
from pipeline.rules.base import Game, PeriodOutcome
from pipeline.rules.whr import (
    DEFAULT_W2,
    WhrRules,
    handicap_advantage,
    rank_labels,
    rating_of_gor,
    start_rating,
)

ELO = 400 / math.log(10)


def build(params: dict[str, object] | None = None, roster: Roster | None = None, **validity: str) -> WhrRules:
    table = Table(Path("ratings.toml"), "[rules]", dict(params or {}))
    found = rules.create("whr", roster or Roster(), rules.validity("whr", validity), table)
    assert isinstance(found, WhrRules)
    return found


def game(i: int, day: dt.date, black: str, white: str, winner: str, **extra: object) -> Game:
    return Game(f"g{i:03d}", i, day, black, white, winner, "slow", **extra)  # type: ignore[arg-type]


def season() -> dict[str, list[Game]]:
    """Three months among A (1d), B (2d), C (1k) and D (no rank)."""
    d1, d2 = parse_rank("1d"), parse_rank("2d")
    k1 = parse_rank("1k")
    may, june, july = dt.date(2024, 5, 3), dt.date(2024, 6, 10), dt.date(2024, 7, 1)
    return {
        "2024-05": [game(0, may, "A", "B", "B", black_rank=d1, white_rank=d2),
                    game(1, may, "C", "A", "W", black_rank=k1, white_rank=d1),
                    game(2, may + dt.timedelta(days=9), "B", "C", "W", black_rank=d2, white_rank=k1)],
        "2024-06": [game(3, june, "A", "D", "B", black_rank=d1),
                    game(4, june, "D", "B", "B", white_rank=d2),
                    game(5, june + dt.timedelta(days=1), "A", "B", "B")],
        "2024-07": [game(6, july, "C", "D", "B"), game(7, july, "B", "A", "W")],
    }  # fmt: skip


def replay(rule_set: WhrRules, periods: dict[str, list[Game]]) -> list[PeriodOutcome]:
    found, state = [], {}
    for label, played in periods.items():
        found.append(rule_set.rate_period(label, played, [], state))
        state = found[-1].end
    return found


# ------------------------------------------------------------------------------------------------ scale


def test_1d_starts_at_2100_as_in_gor() -> None:
    assert start_rating(parse_rank("1d")) == pytest.approx(2100.0)


def test_a_grade_is_the_egd_2021_natural_rating_gap() -> None:
    # β(g) = -7 ln(3300 - g): 2d (GoR 2200) is 7 ln(1200/1100) natural units above 1d
    assert start_rating(parse_rank("2d")) - 2100 == pytest.approx(ELO * 7 * math.log(1200 / 1100))
    # 20k (GoR 100), also a player with no rank: 7 ln(1200/3200) below 1d
    assert start_rating(None) == pytest.approx(2100 + ELO * 7 * math.log(1200 / 3200))


@pytest.mark.parametrize("rank", ["20k", "10k", "1k", "1d", "4d", "7d"])
def test_a_starting_ratings_rank_is_the_rank(rank: str) -> None:
    assert rank_labels(np.array([start_rating(parse_rank(rank))]))[0] == rank


def test_the_scale_rises_with_the_rank() -> None:
    ranks = [f"{k}k" for k in range(30, 0, -1)] + [f"{d}d" for d in range(1, 8)] + ["3p", "9p"]
    starts = [start_rating(parse_rank(r)) for r in ranks]
    assert starts[19:] == sorted(starts[19:]) and len(set(starts[19:])) == len(starts[19:])  # 20k up


def test_no_handicap_stone_is_no_advantage() -> None:
    assert handicap_advantage(2100.0, 0) == 0.0


def test_a_handicap_is_its_stones_less_half_in_grades_at_the_receivers_level() -> None:
    # 1d receives 1 stone (no komi): half a grade, GoR 2100 -> 2150
    assert handicap_advantage(2100.0, 1) == pytest.approx(rating_of_gor(2150.0) - 2100.0)
    # 3 stones: 2.5 grades, GoR 2100 -> 2350
    assert handicap_advantage(2100.0, 3) == pytest.approx(rating_of_gor(2350.0) - 2100.0)


# ------------------------------------------------------------------------------------------- parameters


def test_w2_defaults_to_the_papers_14() -> None:
    assert build().w2 == DEFAULT_W2 == 14.0


def test_w2_is_read_from_the_rules_table() -> None:
    assert build({"w2": 60}).w2 == 60.0


@pytest.mark.parametrize("value", [0, -1, "14", True])
def test_a_bad_w2_is_refused_naming_the_key(value: object) -> None:
    with pytest.raises(ConfigError, match="w2"):
        build({"w2": value})


def test_an_unknown_key_is_refused() -> None:
    with pytest.raises(ConfigError, match="epsilon"):
        build({"epsilon": 0.1})


def test_draws_no_shows_and_handicap_games_are_not_counted_by_default() -> None:
    valid = rules.validity("whr")
    assert [valid.excludes(c) for c in ("draw", "no_show", "handicap", "non_member")] == [True] * 3 + [False]


# ---------------------------------------------------------------------------------------------- periods


def test_a_snapshot_uses_no_game_of_a_later_period() -> None:
    periods = season()
    alone = replay(build(), {"2024-05": periods["2024-05"]})[0]
    assert replay(build(), periods)[0].end == alone.end


def test_a_period_reaches_the_maximum_of_every_game_so_far() -> None:
    # warm-started period by period, or all the games at once from the starting ratings: the same maximum
    periods = season()
    last = replay(build(), periods)[-1].end
    cold = build().rate_period("all", [g for p in periods.values() for g in p], [], {}).end
    for name, state in last.items():
        assert state.rating == pytest.approx(cold[name].rating, abs=1e-2)


def test_standings_passed_through_pickle_give_the_same_next_period() -> None:
    periods = season()
    through = replay(build(), periods)
    first, second = list(periods)[:2]
    state = build().rate_period(first, periods[first], [], {}).end
    state = pickle.loads(pickle.dumps(dict(state)))  # as a generation keeps them: plain standings
    resumed = build().rate_period(second, periods[second], [], state)
    assert resumed.end == through[1].end
    assert resumed.changes == through[1].changes


def test_a_period_without_games_keeps_the_standings() -> None:
    rule_set = build()
    state = rule_set.rate_period("2024-05", season()["2024-05"], [], {}).end
    outcome = rule_set.rate_period("2024-06", [], [], state)
    assert outcome.end == state and not outcome.changes


# ----------------------------------------------------------------------------------------------- changes


def test_se_is_the_win_probability_from_the_ratings_before_the_period() -> None:
    first = replay(build(), season())[0].changes[0]  # A (1d, new: 2100) against B (2d, new)
    assert first.rating_before == pytest.approx(2100.0)
    expected = 1 / (1 + math.exp(-(2100 - start_rating(parse_rank("2d"))) / ELO))
    assert first.detail["se"] == pytest.approx(expected)


def test_a_later_periods_se_uses_the_previous_snapshot() -> None:
    outcomes = replay(build(), season())
    june = {c.game_id: c for c in outcomes[1].changes if c.player == "A"}
    assert june["g003"].rating_before == outcomes[0].end["A"].rating


def test_a_players_deltas_sum_to_the_move_of_their_rating() -> None:
    for outcome in replay(build(), season()):
        for name, end in outcome.end.items():
            mine = [c for c in outcome.changes if c.player == name]
            if mine:
                start = outcome.start[name].rating
                assert sum(c.delta for c in mine) == pytest.approx(end.rating - start, abs=1e-9)


def test_each_rated_side_of_a_game_has_one_change_row() -> None:
    outcome = replay(build(), season())[1]
    assert [(c.game_id, c.color) for c in outcome.changes] == [
        ("g003", "B"), ("g003", "W"), ("g004", "B"), ("g004", "W"), ("g005", "B"), ("g005", "W")
    ]  # fmt: skip


def test_a_counted_handicap_game_gives_the_receiver_the_advantage() -> None:
    rule_set = build(handicap="count")
    g = game(0, dt.date(2024, 5, 1), "K", "D", "B", black_rank=parse_rank("1k"), white_rank=parse_rank("3d"),
             handicap=3)  # fmt: skip
    black, white = rule_set.rate_period("2024-05", [g], [], {}).changes
    given = handicap_advantage(start_rating(parse_rank("1k")), 3)
    assert (black.detail["advantage"], white.detail["advantage"]) == pytest.approx((given, -given))


# --------------------------------------------------------------------------------------- roster, deviation


def test_the_rosters_rating_on_the_whr_scale_is_the_prior() -> None:
    roster = Roster((Player("A", rank="1d", rating=2500.0),))
    first = build(roster=roster).rate_period("2024-05", season()["2024-05"], [], {})
    assert first.start["A"].rating == 2500.0


def test_a_fixed_player_keeps_their_rating() -> None:
    roster = Roster(
        (Player("B", rank="2d", rating=2300.0, fixed=True), Player("A"), Player("C"), Player("D"))
    )
    for outcome in replay(build(roster=roster), season()):
        assert outcome.end["B"].rating == 2300.0
        assert build().deviation(outcome.end["B"]) is None


def test_a_visitors_games_move_the_member_and_give_the_visitor_no_row() -> None:
    roster = Roster((Player("A", rank="1d"),))
    cup = Event("Cup", (), "team_match")
    played = [game(0, dt.date(2024, 5, 1), "A", "V", "B", white_rank=parse_rank("3d"), event=cup,
                   white_rated=False)]  # fmt: skip
    outcome = build(roster=roster, non_member="exclude").rate_period("2024-05", played, [], {})
    assert [c.player for c in outcome.changes] == ["A"] and list(outcome.end) == ["A"]
    assert outcome.end["A"].rating > 2100
    assert outcome.changes[0].detail["opponent_rating"] == pytest.approx(start_rating(parse_rank("3d")))


def test_the_deviation_shrinks_as_a_player_plays() -> None:
    rule_set = build()
    day = dt.date(2024, 5, 1)
    one = rule_set.rate_period("2024-05", [game(0, day, "A", "B", "B")], [], {}).end
    many = rule_set.rate_period(
        "2024-05", [game(i, day, "A", "B", "BW"[i % 2]) for i in range(10)], [], {}
    ).end
    assert 0 < rule_set.deviation(many["A"]) < rule_set.deviation(one["A"])  # type: ignore[operator]


def test_the_outcomes_deviation_is_each_end_players_in_order_nan_for_a_fixed_one() -> None:
    roster = Roster((Player("B", rank="2d", rating=2300.0, fixed=True), Player("A"), Player("C")))
    outcomes = replay(build(roster=roster), {**season(), "2024-08": []})
    for outcome in outcomes:
        assert outcome.deviation is not None and len(outcome.deviation) == len(outcome.end)
        found = {n: None if math.isnan(d) else d for n, d in zip(outcome.end, outcome.deviation, strict=True)}
        on_last_day = {n: build().deviation(s) for n, s in outcome.end.items()}
        assert found["B"] is None and on_last_day["B"] is None and found["A"] is not None
        for name in ("A", "C"):  # grown from their last day's by w² a day: a whole number of days
            days = (found[name] ** 2 - on_last_day[name] ** 2) / DEFAULT_W2  # type: ignore[operator]
            assert days >= 0 and days == pytest.approx(round(days), abs=1e-6)


def test_an_idle_period_grows_the_deviation_by_w2_a_day() -> None:
    outcomes = replay(build(), {**season(), "2024-08": []})
    july, august = (dict(zip(o.end, o.deviation, strict=True)) for o in outcomes[-2:])  # type: ignore[arg-type]
    for name in july:
        assert august[name] ** 2 == pytest.approx(july[name] ** 2 + DEFAULT_W2 * 31)


def test_the_deviation_rides_in_the_standings_extra() -> None:
    end = replay(build(), season())[-1].end
    plain = pickle.loads(pickle.dumps(dict(end)))
    assert {n: build().deviation(s) for n, s in plain.items()} == {
        n: build().deviation(s) for n, s in end.items()
    }
    assert all(isinstance(s.extra["deviation"], float) for s in plain.values())


def test_a_newcomers_start_is_the_rank_the_record_gives() -> None:
    outcome = replay(build(), season())[0]
    assert outcome.start["C"] == dataclasses.replace(
        outcome.start["C"], rating=start_rating(parse_rank("1k"))
    )
    assert outcome.start["C"].rank == "1k"


def test_a_run_resumed_from_pickled_standings_gives_the_same_outcomes_on_server_games() -> None:
    # bench/rules_bench.py's games (3000 over 24 months): the standings after month 12 through pickle
    periods = rules_bench.for_rule_set("whr", rules_bench.games(3000, 1, 24))
    whole = list(rules_bench.rate_all(rules_bench.build("whr"), periods))
    resumed = rules_bench.resumed("whr", 3000, at=11)
    assert repr(resumed) == repr(whole)
    for again, once in zip(resumed, whole, strict=True):  # (out of repr: the deviations)
        np.testing.assert_array_equal(np.asarray(again.deviation), np.asarray(once.deviation))
        assert [c.deviation for c in again.changes] == [c.deviation for c in once.changes]
