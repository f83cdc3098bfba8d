"""Boards given one period at a time equal the boards of one table (tallies of periods join exactly)."""

from __future__ import annotations

from datetime import date

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.boards.leaderboards import Boards, leaderboards
from pipeline.boards.tally import joined, tally

_PERIODS = ["2023-11", "2023-12", "2024-01", "2024-02"]


def _changes(seed: int, games: int, players: int) -> pd.DataFrame:
    """``games`` rows in seq order over ``_PERIODS`` (non-decreasing), few players so runs cross periods."""
    rng = np.random.default_rng(seed)
    periods = np.sort(rng.integers(0, len(_PERIODS), games))
    labels = [_PERIODS[i] for i in periods]
    return pd.DataFrame(
        {
            "period": labels,
            "seq": np.arange(games) + 1,
            "player": [f"p{i}" for i in rng.integers(0, players, games)],
            "score": rng.choice([0.0, 0.5, 1.0, 1.0, 1.0], games),
            "date": [date(int(label[:4]), int(label[5:]), 1) for label in labels],
        }
    )


def _chunked(changes: pd.DataFrame, **options: int) -> pa.Table:
    boards = Boards(**options)
    parts = [boards.add(rows) for _, rows in changes.groupby("period", sort=True)]
    whole = pa.concat_tables([*parts, boards.finish()])
    return whole.sort_by([("period", "ascending"), ("scope", "ascending")])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 80), st.integers(1, 6))
@pytest.mark.slow
def test_boards_a_period_at_a_time_equal_the_boards_of_one_table(seed: int, games: int, players: int) -> None:
    changes = _changes(seed, games, players)
    assert _chunked(changes, min_games=2).equals(leaderboards(changes, min_games=2))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 60), st.integers(0, 60))
@pytest.mark.slow
def test_joined_tallies_equal_the_tally_of_the_games_end_to_end(seed: int, first: int, then: int) -> None:
    changes = _changes(seed, first + then, 3)
    player, score = changes["player"], changes["score"].to_numpy()
    whole = tally(player, score).sort_index()
    parts = joined(tally(player[:first], score[:first]), tally(player[first:], score[first:]))
    pd.testing.assert_frame_equal(parts.sort_index(), whole, check_names=False)


def test_a_win_run_across_three_periods_counts_whole_on_the_year_board() -> None:
    # a: L W | W W (all won) | W L: the year's run is 4, no period's is more than 2.
    rows = [
        ("2024-01", 0.0),
        ("2024-01", 1.0),
        ("2024-02", 1.0),
        ("2024-02", 1.0),
        ("2024-03", 1.0),
        ("2024-03", 0.0),
    ]
    changes = pd.DataFrame(
        {
            "period": [p for p, _ in rows],
            "seq": range(1, 7),
            "player": "a",
            "score": [s for _, s in rows],
            "date": [date(2024, int(p[5:]), 1) for p, _ in rows],
        }
    )
    year = [r for r in _chunked(changes).to_pylist() if r["scope"] == "year"]
    assert [r["longest_streak"] for r in year] == [4]


def test_a_period_given_twice_is_rejected() -> None:
    changes = _changes(1, 10, 2)
    boards = Boards()
    boards.add(changes[changes["period"] == changes["period"].iloc[0]])
    with pytest.raises(ValueError, match="given before"):
        boards.add(
            changes[changes["period"] == changes["period"].iloc[0]].assign(seq=lambda t: t["seq"] + 100)
        )


def test_changes_before_those_already_given_are_rejected() -> None:
    changes = _changes(2, 40, 2)
    late, early = changes[changes["period"] == "2024-02"], changes[changes["period"] == "2023-11"]
    boards = Boards()
    boards.add(late)
    with pytest.raises(ValueError, match="out of order: seq"):
        boards.add(early)
