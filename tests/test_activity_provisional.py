"""The activity filter and the provisional rule together: a player can be inactive and provisional, and
either keeps them off the leaderboards; ``ratings show --all`` marks both."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pyarrow as pa

from pipeline.boards.leaderboards import leaderboards
from pipeline.cli.standings import INACTIVE_MARK, PROVISIONAL_MARK, standings_cells
from pipeline.core.provisional import Provisional
from pipeline.reports.asof import STANDINGS_COLUMNS, marked
from pipeline.reports.numbers import number_format

DAY = dt.date(2024, 5, 1)


def _changes(*players: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "period": "2024-05",
            "seq": range(1, len(players) + 1),
            "player": list(players),
            "score": 1.0,
            "date": DAY,
        }
    )


def test_the_boards_leave_off_provisional_and_inactive_players_alike() -> None:
    totals = pd.DataFrame(
        {
            "period": "2024-05",
            "player": ["a", "b", "c", "d"],
            "games_total": [9, 9, 9, 1],
            "deviation": [80.0, 200.0, 80.0, 80.0],
            "active": [True, True, False, True],
        }
    )
    board = leaderboards(
        _changes("a", "b", "c", "d"),
        min_games=1,
        provisional_games=3,
        totals=totals,
        provisional_deviation=150.0,
        active_only=True,
    )
    assert sorted(r["player"] for r in board.to_pylist() if r["scope"] == "period") == ["a"]


def test_an_inactive_provisional_player_is_marked_both_ways() -> None:
    ratings = pd.DataFrame(
        {
            "player": ["a"],
            "rank": ["2d"],
            "rating": [1500.0],
            "rating_before": [1500.0],
            "delta": [0.0],
            "games": [0],
            "wins": [0],
            "losses": [0],
            "draws": [0],
            "rank_before": ["2d"],
            "bonus": [0.0],
            "games_total": [9],
            "member": [True],
            "last_counted": [DAY],
            "active": [False],
            "inactive_since": [DAY],
            "rating_place": [None],
            "deviation": [200.0],
        }
    )
    table = marked(pa.Table.from_pandas(ratings, preserve_index=False), Provisional(games=3, deviation=150.0))
    assert table.column_names == list(STANDINGS_COLUMNS)
    assert table.column("provisional").to_pylist() == [True] and table.column("active").to_pylist() == [False]
    cells = standings_cells(table, ["player", "rating"], number_format("glicko2"))
    assert cells[0][0] == f"a{PROVISIONAL_MARK}{INACTIVE_MARK}"
    assert cells[0][1] == "1500.00 ± 400.00"
