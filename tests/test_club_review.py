"""The club rule set on the cases a review of unseen seasons turned up; numbers worked by hand from
docs/rules.md ("Validity", "club") in each test, read back from the Parquet output of `ratings run`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import ROOT
from sgfmake import sgf
from test_club_goldens import changes, rating, run_club

pytestmark = pytest.mark.slow

AB = '[[player]]\nname = "A"\nrank = "1d"\n[[player]]\nname = "B"\nrank = "1d"\n'


def games_of(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "games.parquet")


def test_titles_fall_in_the_month_of_the_last_game_even_when_it_is_not_counted(tmp_path: Path) -> None:
    events = '[[event]]\nname = "Cup"\nkind = "server_qualifiers"\nchampion = "A"\nrunner_up = "B"\n'
    games = [
        sgf("A", "B", "B+R", "2024-07-10", event="Cup", round_="外围赛", seed=1),
        sgf("B", "A", "B+R", "2024-08-05", seed=3),
        sgf("A", "B", "B+F", "2024-08-20", event="Cup", round_="决赛", seed=2),  # the final: a forfeit
    ]
    out = run_club(tmp_path, games, roster=AB, events=events)
    # July: A 100 + 1×10 + 10 (qualifier) = 120; B 100 − 10 = 90 (1k).
    # August: B beats A (1d) +1×10, A −1×10; titles at the final (08-20):
    # A 120 − 10 + 500 = 610, B 90 + 10 + 100 = 200
    assert (rating(out, "2024-08", "A")["rating"], rating(out, "2024-08", "B")["rating"]) == (610, 200)


def test_an_uncounted_draw_in_an_arena_ends_the_streak(tmp_path: Path) -> None:
    events = '[[event]]\nname = "Arena"\nkind = "arena"\n'
    games = [
        sgf("A", "x", "B+R", "2024-05-01", event="Arena", black_rank="1d", white_rank="1d", seed=1),
        sgf("A", "y", "0", "2024-05-02", event="Arena", black_rank="1d", white_rank="1d", seed=2),
        sgf("A", "z", "B+R", "2024-05-03", event="Arena", black_rank="1d", white_rank="1d", seed=3),
    ]
    out = run_club(tmp_path, games, roster='[[player]]\nname = "A"\nrank = "1d"\n', events=events)
    # W, (draw, excluded), W: the second win starts a new run: +10, not +15
    assert list(changes(out, "2024-05", "A")["bonus"]) == [10, 10]


def test_a_year_only_date_is_missing_date_for_monthly_periods(tmp_path: Path) -> None:
    out = run_club(tmp_path, [sgf("A", "B", "B+R", "2024")], roster=AB)
    row = games_of(out).iloc[0]
    assert list(row["reasons"]) == ["missing_date"] and pd.isna(row["period"])


def test_the_same_game_with_the_colours_swapped_is_a_duplicate(tmp_path: Path) -> None:
    games = [sgf("A", "B", "B+R", "2024-05-10", seed=4), sgf("B", "A", "W+R", "2024-05-10", seed=4)]
    out = run_club(tmp_path, games, roster=AB)
    # one game: A 100 + 1×10 = 110
    assert list(games_of(out)["reasons"].map(list)) == [[], ["duplicate"]]
    assert rating(out, "2024-05", "A")["rating"] == 110


def test_a_roster_rating_without_a_rank_sets_the_rank(tmp_path: Path) -> None:
    roster = '[[player]]\nname = "A"\nrank = "1d"\n[[player]]\nname = "B"\nrating = 150.0\n'
    # B starts at 150, which is 1d (100 <= 150 < 200): A's win is worth 1×10, B's loss costs 1×10
    out = run_club(tmp_path, [sgf("A", "B", "B+R")], roster=roster)
    assert (rating(out, "2024-05", "A")["rating"], rating(out, "2024-05", "B")["rating"]) == (110, 140)


def test_a_last_month_of_excluded_games_still_gets_its_snapshot(tmp_path: Path) -> None:
    games = [sgf("A", "B", "B+R", "2024-05-01", seed=1), sgf("A", "B", "0", "2024-06-01", seed=2)]
    out = run_club(tmp_path, games, roster=AB)
    assert rating(out, "2024-06", "A")["rating"] == 110
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["periods"] == [
        "2024-05",
        "2024-06",
    ]


def test_a_season_with_nothing_counted_keeps_the_output_contract(tmp_path: Path) -> None:
    out = run_club(tmp_path, [sgf("A", "B", "0")], roster=AB)
    checker = ROOT.parent / "shared" / "tools" / "check_output.py"
    if checker.exists():
        done = subprocess.run([sys.executable, str(checker), str(out)], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout
    assert len(pd.read_parquet(out / "ratings")) == 0


def test_a_fixed_champion_gets_no_points(tmp_path: Path) -> None:
    roster = AB + '[[player]]\nname = "F"\nrank = "3d"\nfixed = true\n'
    events = '[[event]]\nname = "Open"\nkind = "server_open"\nchampion = "F"\n'
    out = run_club(tmp_path, [sgf("F", "A", "B+R", event="Open")], roster=roster, events=events)
    award = pd.read_parquet(out / "awards").iloc[0]
    assert (award["points"], award["note"]) == (0, "champion: fixed rating")
    assert rating(out, "2024-05", "F")["rating"] == 300


def test_a_champion_written_in_another_case_is_the_player_of_the_records(tmp_path: Path) -> None:
    events = '[[event]]\nname = "Open"\nkind = "server_open"\nchampion = "fish"\n'
    games = [sgf("Fish", "B", "B+R", event="Open", black_rank="1d", white_rank="1d")]
    out = run_club(tmp_path, games, events=events)
    # Fish 100 + 1×10 + 20 (open win) + 500 (champion) = 630; no player "fish" is made up
    assert rating(out, "2024-05", "Fish")["rating"] == 630
    assert "fish" not in set(pd.read_parquet(out / "ratings")["player"])


def test_an_award_to_an_unknown_name_is_a_warning(tmp_path: Path) -> None:
    events = '[[event]]\nname = "Open"\nkind = "server_open"\nchampion = "nobody"\n'
    out = run_club(tmp_path, [sgf("A", "B", "B+R", event="Open")], roster=AB, events=events)
    warnings = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["warnings"]
    assert any("nobody" in w for w in warnings)


def test_an_inter_club_game_without_a_member_is_non_member(tmp_path: Path) -> None:
    events = '[[event]]\nname = "Match"\nkind = "team_match"\n'
    games = [sgf("O1", "O2", "B+R", event="Match", seed=1), sgf("A", "O3", "B+R", event="Match", seed=2)]
    out = run_club(tmp_path, games, roster=AB, events=events)
    assert list(games_of(out).sort_values("source_path")["reasons"].map(list)) == [["non_member"], []]
