"""leaderboards: counts, win rate, longest streak and places of the period and yearly boards."""

from __future__ import annotations

from datetime import date
from typing import Any

import pandas as pd
import pytest

from pipeline.boards.leaderboards import leaderboards
from pipeline.core.tables import LEADERBOARD

W, L, D = 1.0, 0.0, 0.5


def changes(*games: tuple[str, str, float], start: int = 1) -> pd.DataFrame:
    """Rows (period, player, score) in seq order from ``start``.

    The date is the 1st of the period's month (of January when the period is not a month).
    """
    return pd.DataFrame(
        [
            {"period": p, "seq": start + i, "player": who, "score": s, "date": _first_day(p)}
            for i, (p, who, s) in enumerate(games)
        ]
    )


def _first_day(period: str) -> date:
    year, _, month = period.partition("-")
    return date(int(year), int(month) if month.isdigit() else 1, 1)


def row(table: Any, period: str, player: str, scope: str = "period") -> dict[str, Any]:
    [found] = [
        r for r in table.to_pylist() if (r["period"], r["scope"], r["player"]) == (period, scope, player)
    ]
    return dict(found)


def streaks(table: Any, scope: str) -> dict[str, int]:
    """{period: longest_streak} of the boards of ``scope`` (one player in the table)."""
    return {r["period"]: r["longest_streak"] for r in table.to_pylist() if r["scope"] == scope}


def seq(player: str, scores: list[float], period: str = "2024-05") -> list[tuple[str, str, float]]:
    return [(period, player, s) for s in scores]


def test_counts_games_wins_losses_and_draws() -> None:
    board = leaderboards(changes(*seq("a", [W, L, D, W, W])))
    got = row(board, "2024-05", "a")
    assert (got["games"], got["wins"], got["losses"], got["draws"]) == (5, 3, 1, 1)


def test_win_rate_is_wins_over_games_with_draws_counted_as_games() -> None:
    # 1 win in 4 games (a draw and two losses): 1 / 4.
    board = leaderboards(changes(*seq("a", [W, D, L, L])))
    assert row(board, "2024-05", "a")["win_rate"] == 0.25


def test_a_loss_ends_a_winning_streak() -> None:
    # W W | L | W W W: runs of 2 and 3.
    board = leaderboards(changes(*seq("a", [W, W, L, W, W, W])))
    assert row(board, "2024-05", "a")["longest_streak"] == 3


def test_a_draw_ends_a_winning_streak() -> None:
    # W W | D | W: runs of 2 and 1, not 3.
    board = leaderboards(changes(*seq("a", [W, W, D, W])))
    assert row(board, "2024-05", "a")["longest_streak"] == 2


def test_a_player_without_a_win_has_streak_zero() -> None:
    board = leaderboards(changes(*seq("a", [L, D, L])))
    assert row(board, "2024-05", "a")["longest_streak"] == 0


def test_streak_follows_seq_not_input_order() -> None:
    # In seq order W W W L (streak 3); the input order W L W W would give 2.
    rows = changes(*seq("a", [W, W, W, L]))
    shuffled = rows.iloc[[0, 3, 1, 2]]
    assert row(leaderboards(shuffled), "2024-05", "a")["longest_streak"] == 3


def test_period_streak_does_not_cross_into_the_next_period() -> None:
    # May: L W W (streak 2); June: W W L (streak 2). Across the boundary the wins run 4 long.
    board = leaderboards(changes(*seq("a", [L, W, W], "2024-05"), *seq("a", [W, W, L], "2024-06")))
    assert streaks(board, "period") == {"2024-05": 2, "2024-06": 2}


def test_year_streak_runs_across_the_months_of_the_year() -> None:
    # Same games as above: W W (May) + W W (June) = 4 in the yearly board.
    board = leaderboards(changes(*seq("a", [L, W, W], "2024-05"), *seq("a", [W, W, L], "2024-06")))
    assert row(board, "2024", "a", scope="year")["longest_streak"] == 4


def test_streak_does_not_cross_calendar_years() -> None:
    # December 2023: W W; January 2024: W. Each year's board sees only its own games.
    board = leaderboards(changes(*seq("a", [W, W], "2023-12"), *seq("a", [W], "2024-01")))
    assert streaks(board, "year") == {"2023": 2, "2024": 1}


def test_players_interleaved_keep_separate_streaks() -> None:
    # a: W W W in seq 1, 3, 5; b loses in between (seq 2, 4). a's run is 3, b's 0.
    games = changes(
        ("2024-05", "a", W),
        ("2024-05", "b", L),
        ("2024-05", "a", W),
        ("2024-05", "b", L),
        ("2024-05", "a", W),
    )
    board = leaderboards(games)
    assert (row(board, "2024-05", "a")["longest_streak"], row(board, "2024-05", "b")["longest_streak"]) == (
        3,
        0,
    )


def test_tied_players_share_the_best_place_and_the_next_skips() -> None:
    # Games: a 2, b 2, c 1 -> games_place 1, 1, 3 ("min" ranking).
    board = leaderboards(changes(*seq("a", [W, L]), *seq("b", [L, L]), *seq("c", [W])))
    places = [row(board, "2024-05", p)["games_place"] for p in "abc"]
    assert places == [1, 1, 3]


def test_each_board_ranks_its_own_column() -> None:
    # a: W L L (1 win, streak 1); b: W W (2 wins, streak 2), c: L.
    # games: a 3 > b 2 > c 1; wins and streak: b 2 > a 1 > c 0.
    board = leaderboards(changes(*seq("a", [W, L, L]), *seq("b", [W, W]), *seq("c", [L])), min_games=1)
    got = {p: row(board, "2024-05", p) for p in "abc"}
    assert [got[p]["games_place"] for p in "abc"] == [1, 2, 3]
    assert [got[p]["wins_place"] for p in "abc"] == [2, 1, 3]
    assert [got[p]["streak_place"] for p in "abc"] == [2, 1, 3]
    # win rate: b 1.0 > a 1/3 > c 0.
    assert [got[p]["win_rate_place"] for p in "abc"] == [2, 1, 3]


def test_win_rate_place_is_null_under_min_games_and_ranks_only_the_others() -> None:
    # a: 3 games, 2 wins (0.667); b: 1 game, 1 win (1.0) but under min_games 2 -> null; a is first.
    board = leaderboards(changes(*seq("a", [W, W, L]), *seq("b", [W])), min_games=2)
    assert (row(board, "2024-05", "a")["win_rate_place"], row(board, "2024-05", "b")["win_rate_place"]) == (
        1,
        None,
    )


def test_yearly_board_sums_the_months() -> None:
    # May: W L; June: D W W -> year: 5 games, 3 wins, 1 loss, 1 draw, win rate 3/5.
    board = leaderboards(changes(*seq("a", [W, L], "2024-05"), *seq("a", [D, W, W], "2024-06")))
    got = row(board, "2024", "a", scope="year")
    assert (got["games"], got["wins"], got["losses"], got["draws"], got["win_rate"]) == (5, 3, 1, 1, 0.6)


def test_year_periods_get_no_second_yearly_board() -> None:
    board = leaderboards(changes(*seq("a", [W, L], "2024")))
    assert [(r["period"], r["scope"]) for r in board.to_pylist()] == [("2024", "period")]


def test_quarter_periods_get_a_yearly_board() -> None:
    rows = changes(*seq("a", [W], "2024-Q2")).assign(date=date(2024, 5, 1))
    board = leaderboards(rows)
    assert [(r["period"], r["scope"]) for r in board.to_pylist()] == [("2024", "year"), ("2024-Q2", "period")]


def test_rows_are_sorted_by_period_scope_games_place_player() -> None:
    # June: b 2 games, a 1; May: c 1, a 1. Year 2024: a 2, b 2, c 1.
    games = changes(*seq("b", [W, L], "2024-06"), *seq("a", [W], "2024-06"), *seq("c", [L]), *seq("a", [L]))
    order = [(r["period"], r["scope"], r["player"]) for r in leaderboards(games).to_pylist()]
    assert order == [
        ("2024", "year", "a"),
        ("2024", "year", "b"),
        ("2024", "year", "c"),
        ("2024-05", "period", "a"),
        ("2024-05", "period", "c"),
        ("2024-06", "period", "b"),
        ("2024-06", "period", "a"),
    ]


def test_output_has_the_leaderboard_schema() -> None:
    assert leaderboards(changes(*seq("a", [W]))).schema == LEADERBOARD


def test_empty_input_gives_an_empty_table_with_the_schema() -> None:
    empty = leaderboards(changes(*seq("a", [W])).iloc[:0])
    assert (empty.num_rows, empty.schema) == (0, LEADERBOARD)


def test_input_without_columns_gives_an_empty_table() -> None:
    assert leaderboards(pd.DataFrame()).num_rows == 0


def test_categorical_period_as_read_from_partitions_is_accepted() -> None:
    rows = changes(*seq("a", [W], "2024-05"), *seq("a", [W], "2024-06"))
    board = leaderboards(rows.astype({"period": "category"}))
    assert row(board, "2024-05", "a")["games"] == 1


def test_a_score_that_is_not_win_loss_or_draw_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"got 0\.7"):
        leaderboards(changes(*seq("a", [0.7])))


def test_a_missing_column_is_named() -> None:
    with pytest.raises(ValueError, match="seq"):
        leaderboards(changes(*seq("a", [W])).drop(columns="seq"))


def test_a_missing_date_is_rejected() -> None:
    with pytest.raises(ValueError, match="date missing in 1 row"):
        leaderboards(changes(*seq("a", [W])).assign(date=None))


def test_negative_min_games_is_rejected() -> None:
    with pytest.raises(ValueError, match="-1"):
        leaderboards(changes(*seq("a", [W])), min_games=-1)


# --- provisional players: fewer counted games (all periods) than provisional_games are left off ------------


def totals(*rows: tuple[str, str, int]) -> pd.DataFrame:
    """Ratings rows (period, player, games_total)."""
    return pd.DataFrame(rows, columns=["period", "player", "games_total"])


#: a: 3 games in May; b: 1 game in May, 2 in June (3 in all by the end of June).
SEASON = changes(*seq("a", [W, L, W]), *seq("b", [W]), *seq("b", [L, W], "2024-06"))
SEASON_TOTALS = totals(("2024-05", "a", 3), ("2024-05", "b", 1), ("2024-06", "a", 3), ("2024-06", "b", 3))


def players(table: Any, period: str, scope: str = "period") -> list[str]:
    return sorted(r["player"] for r in table.to_pylist() if (r["period"], r["scope"]) == (period, scope))


def test_provisional_games_zero_keeps_every_player_on_the_boards() -> None:
    board = leaderboards(SEASON, provisional_games=0, totals=SEASON_TOTALS)
    assert players(board, "2024-05") == ["a", "b"]


def test_a_provisional_player_is_left_off_the_period_board() -> None:
    board = leaderboards(SEASON, provisional_games=3, totals=SEASON_TOTALS)
    assert players(board, "2024-05") == ["a"]


def test_a_player_is_on_the_board_of_the_period_that_brings_them_to_the_threshold() -> None:
    board = leaderboards(SEASON, provisional_games=3, totals=SEASON_TOTALS)
    assert players(board, "2024-06") == ["b"]


def test_the_year_board_counts_the_games_by_the_years_last_period() -> None:
    board = leaderboards(SEASON, provisional_games=3, totals=SEASON_TOTALS)
    assert players(board, "2024", scope="year") == ["a", "b"]


def test_games_before_the_board_count_towards_the_threshold() -> None:
    # b plays once in June, but had 4 games in earlier periods not on these boards
    board = leaderboards(
        changes(*seq("b", [W], "2024-06")), provisional_games=3, totals=totals(("2024-06", "b", 5))
    )
    assert players(board, "2024-06") == ["b"]


def test_places_rank_only_the_established_players() -> None:
    # b (2 wins) would be first by wins, but is provisional: a (1 win) is first
    games = changes(*seq("a", [W, L]), *seq("b", [W, W]))
    board = leaderboards(games, provisional_games=2, totals=totals(("2024-05", "a", 2), ("2024-05", "b", 1)))
    assert row(board, "2024-05", "a")["wins_place"] == 1


def test_provisional_games_without_totals_is_rejected() -> None:
    with pytest.raises(ValueError, match="totals"):
        leaderboards(SEASON, provisional_games=3)


def test_totals_missing_a_player_of_a_board_is_named() -> None:
    with pytest.raises(ValueError, match=r"'b'.*'2024-05'"):
        leaderboards(SEASON, provisional_games=3, totals=SEASON_TOTALS.iloc[[0, 2, 3]])


def test_negative_provisional_games_is_rejected() -> None:
    with pytest.raises(ValueError, match="-2"):
        leaderboards(SEASON, provisional_games=-2, totals=SEASON_TOTALS)


# --- inactive players: no counted game within [output] active_within before the board's end are left off --


#: The ratings rows of SEASON with ``active``: a is inactive at the end of June, b at the end of May.
ACTIVE_TOTALS = SEASON_TOTALS.assign(active=[True, False, False, True])


def test_without_active_only_an_inactive_player_stays_on_the_boards() -> None:
    board = leaderboards(SEASON, totals=ACTIVE_TOTALS)
    assert players(board, "2024-05") == ["a", "b"]


def test_a_player_inactive_at_the_end_of_a_period_is_left_off_its_board() -> None:
    board = leaderboards(SEASON, totals=ACTIVE_TOTALS, active_only=True)
    assert players(board, "2024-05") == ["a"]


def test_the_year_board_lists_the_players_active_at_the_years_last_period() -> None:
    board = leaderboards(SEASON, totals=ACTIVE_TOTALS, active_only=True)
    assert players(board, "2024", scope="year") == ["b"]


def test_active_only_without_totals_is_rejected() -> None:
    with pytest.raises(ValueError, match="totals"):
        leaderboards(SEASON, active_only=True)
