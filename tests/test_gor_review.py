"""The GoR family, cga and tga on the cases a review of unseen data turned up; numbers worked by hand
from docs/rules.md ("hkga" to "tga") in each test, read back from the Parquet output of `ratings run`."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from sgfmake import sgf
from test_gor_goldens import change, rating, roster_of, run_gor

pytestmark = pytest.mark.slow

OPEN = '[[event]]\nname = "Open"\nkind = "other"\nclass = "A"\n'


def test_a_visitor_of_a_team_match_is_rated_at_the_roster_rating(tmp_path: Path) -> None:
    roster = (
        roster_of({"A": 2100}) + '[[player]]\nname = "Pro"\nrating = 2600.0\nfixed = true\nmember = false\n'
    )
    events = '[[event]]\nname = "Match"\nkind = "team_match"\n'
    # A (2100) loses to Pro (2600): D = 500, a = 205 − 2100/20 = 100, Se(A) = 1/(e^5 + 1) = 0.00669;
    # con(2100) = 24: ΔA = 24 × (0 − 0.00669) = −0.16
    out = run_gor(tmp_path, "hkga", [sgf("A", "Pro", "W+R", event="Match")], roster=roster, events=events)
    assert change(out, "A")["delta"] == pytest.approx(-0.16, abs=0.01)


def test_games_of_an_event_across_two_months_start_from_its_start(tmp_path: Path) -> None:
    games = [
        sgf("A", "B", "B+R", "2024-05-31", black_rank="13k", white_rank="13k", event="Open", seed=1),
        sgf("A", "C", "B+R", "2024-06-01", black_rank="13k", white_rank="13k", event="Open", seed=2),
    ]
    out = run_gor(tmp_path, "hkga", games, events=OPEN)
    # both games from 800/800: A +40 each; C −38.88; the event closes in June: A 800 + 80 = 880
    assert (change(out, "A", 1)["rating_before"], change(out, "A", 1)["delta"]) == (800, pytest.approx(40))
    assert rating(out, "A", "2024-05")["rating"] == 800  # the event was still open at the end of May
    assert rating(out, "A", "2024-06")["rating"] == pytest.approx(880)


def test_a_game_during_an_event_does_not_see_its_later_rounds(tmp_path: Path) -> None:
    games = [
        sgf("A", "B", "B+R", "2024-05-01", black_rank="13k", white_rank="13k", event="Open", seed=1),
        sgf("D", "A", "B+R", "2024-05-02", black_rank="13k", white_rank="13k", seed=2),
        sgf("A", "C", "B+R", "2024-05-03", black_rank="13k", white_rank="13k", event="Open", seed=3),
    ]
    out = run_gor(tmp_path, "hkga", games, events=OPEN)
    # on 05-02 the Open has not ended: A is still 800, so D (800) +40 and A −38.88
    assert (change(out, "D")["rating_before"], change(out, "A", 1)["rating_before"]) == (800, 800)
    assert change(out, "D")["delta"] == pytest.approx(40)


def test_a_starting_rating_below_the_floor_starts_at_the_floor(tmp_path: Path) -> None:
    out = run_gor(tmp_path, "hkga", [sgf("G", "H", "W+R")], roster=roster_of({"G": 50, "H": 100}))
    assert change(out, "G")["rating_before"] == 100 and rating(out, "G")["rating"] == 100


def tga_game(black: str, white: str, result: str, day: int, **kw: object) -> str:
    return sgf(
        black, white, result, f"2024-02-{day:02d}", game_type=4, black_rank="2d", white_rank="2d", **kw
    )


def test_tga_a_forfeit_loss_is_not_a_bye(tmp_path: Path) -> None:
    events = '[[event]]\nname = "E"\nkind = "recognised"\nrounds = 5\n'
    games = [tga_game("P", f"o{j}", r, j + 1, event="E", seed=j) for j, r in enumerate(["B+R"] * 3 + ["W+R"])]
    games.append(tga_game("P", "o4", "W+F", 5, event="E", moves=0, seed=9))
    # P did not complete the event (a forfeit loss): Article 8 does not evaluate them
    out = run_gor(tmp_path, "tga", games, events=events)
    assert len(pd.read_parquet(out / "promotions.parquet")) == 0


def test_tga_a_low_dan_champion_written_in_another_case_is_promoted(tmp_path: Path) -> None:
    events = '[[event]]\nname = "L"\nkind = "low_dan"\nchampion = "y1"\n'
    names = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]
    games = [
        tga_game(names[i], names[(i + 1) % 6], "B+R", i + 1, event="L", seed=i) for i in range(6)
    ]  # six players
    out = run_gor(tmp_path, "tga", games, events=events)
    promoted = pd.read_parquet(out / "promotions.parquet")
    assert list(promoted["player"]) == ["Y1"] and list(promoted["to_rank"]) == ["3d"]


def test_tga_explain_says_why_a_met_criterion_did_not_promote(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pipeline.cli import app

    events = '[[event]]\nname = "E"\nkind = "recognised"\n'
    games = [tga_game("P", f"o{j}", "B+R", j + 1, event="E", seed=j) for j in range(4)]
    out = run_gor(tmp_path, "tga", games, events=events)
    # 4 wins at Δ 0: S = 4 ≥ 0.7 × 4 = 2.8, but only 4 valid games and no bye: not promoted
    shown = CliRunner().invoke(app, ["explain", "P", "--out", str(out)])
    assert shown.exit_code == 0, shown.output
    assert "not promoted: fewer than 5 valid games" in " ".join(shown.output.split())
