"""The club rule set and the roster: fixed (reference) players and titles won by non-members."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from sgfmake import sgf
from test_club_goldens import changes, rating, run_club

pytestmark = pytest.mark.slow

FIXED = """
[[player]]
name = "ref"
rank = "1d"
fixed = true
[[player]]
name = "b"
rank = "1d"
"""


def test_fixed_player_keeps_the_rating_and_moves_the_opponent(tmp_path: Path) -> None:
    # ref (1d, 100, fixed) beats b (1d, 100) slow: b loses 1 x 10 -> 90; ref stays at 100.
    out = run_club(tmp_path, [sgf("ref", "b", "B+R")], roster=FIXED)
    assert (rating(out, "2024-05", "ref")["rating"], rating(out, "2024-05", "b")["rating"]) == (100, 90)


def test_fixed_player_change_row_moves_nothing(tmp_path: Path) -> None:
    out = run_club(tmp_path, [sgf("ref", "b", "B+R")], roster=FIXED)
    row = changes(out, "2024-05", "ref").iloc[0]
    assert (row["points"], row["bonus"], row["delta"], row["bonus_rule"]) == (0, 0, 0, "fixed rating")


def test_title_of_a_non_member_is_listed_with_no_points(tmp_path: Path) -> None:
    roster = '[[player]]\nname = "a"\nrank = "1d"\n[[player]]\nname = "b"\nrank = "1d"\n'
    events = '[[event]]\nname = "Cup"\nkind = "server_open"\nchampion = "stranger"\nrunner_up = "a"\n'
    out = run_club(tmp_path, [sgf("a", "b", "B+R", event="Cup")], roster=roster, events=events)
    awards = pd.read_parquet(out / "awards").set_index("player")
    # a: 100 + 1 x 10 (win over a 1d) + 20 (open-event win) + 100 (runner-up) = 230
    assert awards.loc["stranger", "points"] == 0 and "not a member" in awards.loc["stranger", "note"]
    assert rating(out, "2024-05", "a")["rating"] == 230
