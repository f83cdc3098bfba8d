"""The audit stage through `ratings run`: which games count, and why the others do not (docs/rules.md
("Validity"))."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

ROOT = Path(__file__).resolve().parent.parent
CHECK_OUTPUT = ROOT.parent / "shared" / "tools" / "check_output.py"
ROSTER_AB = '[[player]]\nname = "a"\n\n[[player]]\nname = "b"\naliases = ["Bee"]\n'
EVENTS = (
    '[[event]]\nname = "Club match"\nmatch = ["club match*"]\nkind = "team_match"\n\n'
    '[[event]]\nname = "Open"\nmatch = ["open*"]\nkind = "server_open"\n'
)
runner = CliRunner()
Write = Callable[[str, bytes], Path]  # the `write` fixture


def run(
    tmp_path: Path, validity: str = "", roster: str | None = None, events: str | None = None, out: str = "out"
) -> pd.DataFrame:
    """`ratings run` on tmp_path/raw with a config written under tmp_path/config; games.parquet read back."""
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    for name, text in (("roster.toml", roster), ("events.toml", events)):
        if text is not None:
            (config / name).write_text(text, encoding="utf-8")
    (config / "ratings.toml").write_text(
        "[run]\n"
        f'roster = "{"roster.toml" if roster is not None else ""}"\n'
        f'events = "{"events.toml" if events is not None else ""}"\n'
        f"[validity]\n{validity}\n",
        encoding="utf-8",
    )
    args = ["run", "--config", str(config / "ratings.toml"), "--raw", str(tmp_path / "raw")]
    result = runner.invoke(app, [*args, "--out", str(tmp_path / out), "--workers", "1"])
    assert result.exit_code == 0, result.output
    return pd.read_parquet(tmp_path / out / "games.parquet")


def put(write: Write, path: str, *args: Any, **kwargs: Any) -> None:
    """Write sgf(*args, **kwargs) at raw/<path>."""
    write(path, sgf(*args, **kwargs).encode())


def row(games: pd.DataFrame, path: str) -> pd.Series:
    """The one game of file ``path``."""
    found = games[games["source_path"] == path]
    assert len(found) == 1, found
    return found.iloc[0]


def reasons(games: pd.DataFrame, path: str) -> list[str]:
    return list(row(games, path)["reasons"])


def notes(games: pd.DataFrame, path: str) -> list[str]:
    return list(row(games, path)["notes"])


# --- one test per reason code -------------------------------------------------------------------


@pytest.mark.parametrize(
    "data", [b"(;GM[1]PB[a]PW[b]RE[B+R]DT[2024-05-01];B[aa];W[bb]", b"hello, not a game record\n"]
)
@pytest.mark.slow
def test_unparsable_file_is_a_parse_error_only(data: bytes, write, tmp_path: Path) -> None:
    write("bad.sgf", data)
    games = run(tmp_path)
    assert reasons(games, "bad.sgf") == ["parse_error"]
    assert not row(games, "bad.sgf")["counted"]


def test_gomoku_is_the_wrong_game_type_by_default(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "b", "B+R", game_type=4)
    assert reasons(run(tmp_path), "g.sgf") == ["wrong_game_type"]


def test_unreadable_gm_is_the_wrong_game_type(write, tmp_path: Path) -> None:
    write("g.sgf", "(;GM[2147483648]PB[甲]PW[乙]RE[B+R]DT[2024-05-01];B[pd];W[dp];B[pp])".encode())
    assert reasons(run(tmp_path), "g.sgf") == ["wrong_game_type"]


@pytest.mark.slow
def test_record_without_gm_is_go(write, tmp_path: Path) -> None:
    write("g.sgf", "(;PB[甲]PW[乙]RE[B+R]DT[2024-05-01];B[pd];W[dp];B[pp])".encode())
    assert reasons(run(tmp_path), "g.sgf") == []


@pytest.mark.slow
def test_game_without_date_is_missing_date(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "b", "B+R", date=None)
    assert reasons(run(tmp_path), "g.sgf") == ["missing_date"]


@pytest.mark.parametrize("result", [None, "Void", "?"])
@pytest.mark.slow
def test_missing_void_or_unknown_result_is_no_result(result: str | None, write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "b", result)
    assert reasons(run(tmp_path), "g.sgf") == ["no_result"]


@pytest.mark.parametrize("result", ["0", "Draw"])
def test_draw_is_excluded_by_club(result: str, write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "b", result)
    assert reasons(run(tmp_path), "g.sgf") == ["draw"]


def test_forfeit_is_a_no_show(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "b", "W+F")
    assert reasons(run(tmp_path), "g.sgf") == ["no_show"]


def test_decisive_game_of_one_move_is_a_no_show(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "b", "B+R", moves=1)  # 1 < min_moves 2
    assert reasons(run(tmp_path), "g.sgf") == ["no_show"]


def test_three_stone_game_is_handicap(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "b", "W+R", handicap=3)
    assert reasons(run(tmp_path), "g.sgf") == ["handicap"]


@pytest.mark.slow
def test_player_off_the_roster_is_non_member(write, tmp_path: Path) -> None:
    put(write, "in.sgf", "a", "b", "B+R")
    put(write, "out.sgf", "a", "stranger", "B+R")
    games = run(tmp_path, roster=ROSTER_AB)
    assert reasons(games, "in.sgf") == []
    assert reasons(games, "out.sgf") == ["non_member"]


def test_same_player_on_both_sides_is_self_play(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "a", "B+R")
    assert reasons(run(tmp_path), "g.sgf") == ["self_play"]


def test_roster_alias_of_the_opponent_is_self_play(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "b", "bee", "B+R")  # "bee" is b's alias "Bee", case-folded
    games = run(tmp_path, roster=ROSTER_AB)
    assert reasons(games, "g.sgf") == ["self_play"]
    assert row(games, "g.sgf")[["black_player", "white_player"]].tolist() == ["b", "b"]


@pytest.mark.slow
def test_later_copy_in_path_order_is_the_duplicate(write, tmp_path: Path) -> None:
    put(write, "b.sgf", "a", "b", "B+R")
    put(write, "a.sgf", "a", "b", "B+R")
    games = run(tmp_path)
    assert reasons(games, "a.sgf") == [] and row(games, "a.sgf")["counted"]
    assert reasons(games, "b.sgf") == ["duplicate"]


@pytest.mark.slow
def test_games_11_and_12_of_a_pair_in_a_month_are_over_the_cap(write, tmp_path: Path) -> None:
    # Files named against time order (g11 holds May 1, g00 May 12): the cap follows dates, not paths.
    for day in range(1, 13):
        black, white = ("a", "b") if day % 2 else ("b", "a")
        put(write, f"g{12 - day:02d}.sgf", black, white, "B+R", f"2024-05-{day:02d}", seed=day)
    games = run(tmp_path)
    capped = games[games["reasons"].map(lambda r: list(r) == ["opponent_cap"])]
    assert sorted(capped["source_path"]) == ["g00.sgf", "g01.sgf"]  # May 12 and May 11
    assert games["counted"].sum() == 10


@pytest.mark.slow
def test_cap_is_per_period(write, tmp_path: Path) -> None:
    for day in range(1, 12):  # 11 games in May
        put(write, f"may{day:02d}.sgf", "a", "b", "B+R", f"2024-05-{day:02d}", seed=day)
    put(write, "june.sgf", "a", "b", "B+R", "2024-06-01")
    games = run(tmp_path)
    assert games.loc[~games["counted"], "source_path"].tolist() == ["may11.sgf"]
    assert reasons(games, "may11.sgf") == ["opponent_cap"]
    assert reasons(games, "june.sgf") == []


# --- several reasons, events, overrides ---------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"black": "a", "white": "b", "result": "Draw", "handicap": 3}, ["draw", "handicap"]),
        (
            {"black": "a", "white": "a", "result": "0", "handicap": 2, "date": None},
            ["missing_date", "draw", "handicap", "self_play"],
        ),
    ],
)
def test_every_reason_is_listed_in_rules_order(
    kwargs: dict[str, Any], expected: list[str], write, tmp_path: Path
) -> None:
    put(write, "g.sgf", **kwargs)
    assert reasons(run(tmp_path), "g.sgf") == expected


def test_outsider_counts_in_an_inter_club_team_match(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "stranger", "W+R", event="Club Match 2024")
    games = run(tmp_path, roster=ROSTER_AB, events=EVENTS)
    assert row(games, "g.sgf")["event_kind"] == "team_match"
    assert reasons(games, "g.sgf") == []


def test_outsider_is_non_member_in_a_server_open_event(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "stranger", "W+R", event="Open 2024")
    games = run(tmp_path, roster=ROSTER_AB, events=EVENTS)
    assert row(games, "g.sgf")["event_kind"] == "server_open"
    assert reasons(games, "g.sgf") == ["non_member"]


@pytest.mark.slow
def test_draw_count_setting_counts_the_draw_with_a_note(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "b", "Draw")
    games = run(tmp_path, validity='draw = "count"')
    assert row(games, "g.sgf")["counted"]
    assert reasons(games, "g.sgf") == []
    assert notes(games, "g.sgf") == ["draw"]


@pytest.mark.slow
def test_counted_draw_gives_club_players_no_points(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "b", "Draw")
    run(tmp_path, validity='draw = "count"')
    changes = pd.read_parquet(tmp_path / "out" / "changes")
    assert sorted(changes["player"]) == ["a", "b"]
    assert changes["score"].tolist() == [0.5, 0.5]
    assert changes["delta"].tolist() == [0.0, 0.0]  # club decision: a counted draw scores 0 points


def test_opponent_cap_zero_disables_the_cap(write, tmp_path: Path) -> None:
    for day in range(1, 13):
        put(write, f"g{day:02d}.sgf", "a", "b", "B+R", f"2024-05-{day:02d}", seed=day)
    games = run(tmp_path, validity="opponent_cap = 0")
    assert games["counted"].all()


@pytest.mark.slow
def test_missing_time_control_is_noted_and_assumed_fast(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "b", "B+R", tm=-1)
    games = run(tmp_path)
    assert row(games, "g.sgf")["counted"]
    assert notes(games, "g.sgf") == ["speed_unknown"]
    assert row(games, "g.sgf")["speed_used"] == "fast"


@pytest.mark.slow
def test_unknown_speed_slow_rates_an_untimed_game_as_slow(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "b", "B+R", tm=-1, black_rank="1d", white_rank="1d")
    games = run(tmp_path, validity='unknown_speed = "slow"')
    assert row(games, "g.sgf")["speed_used"] == "slow"
    assert notes(games, "g.sgf") == ["speed_unknown"]
    changes = pd.read_parquet(tmp_path / "out" / "changes").set_index("player")
    assert changes.loc["a", "delta"] == 10.0  # win: white's 1d coefficient 1 x slow game points 10


# --- order and invariants -----------------------------------------------------------------------


@pytest.mark.slow
def test_seq_follows_date_then_path_then_index(write, tmp_path: Path) -> None:
    put(write, "a.sgf", "a", "b", "B+R", "2024-05-02")
    put(write, "sub/a.sgf", "c", "d", "B+R", "2024-05-01")
    put(write, "b.sgf", "e", "f", "B+R", "2024-05-01")
    write("c.sgf", (sgf("g", "h", "B+R", "2024-05-01") + sgf("i", "j", "B+R", "2024-05-01")).encode())
    games = run(tmp_path).sort_values("seq")
    assert games["seq"].tolist() == [0, 1, 2, 3, 4]
    assert games["black"].tolist() == ["e", "g", "i", "c", "a"]  # May 1: b, c#0, c#1, sub/a; then May 2


def mixed(write: Write) -> None:
    """A folder with counted games and at least one game for most reason codes."""
    write("broken.sgf", b"(;PB[a]PW[b")
    put(write, "ok/1.sgf", "a", "b", "B+R", "2024-05-03")
    put(write, "ok/2.sgf", "b", "a", "W+R", "2024-06-03")
    put(write, "ok/3.sgf", "a", "b", "B+R", "2024-05-03")  # duplicate of ok/1
    put(write, "x/draw.sgf", "a", "b", "Draw", handicap=4)
    put(write, "x/gomoku.sgf", "a", "b", "B+R", game_type=4)
    put(write, "x/nodate.sgf", "a", "b", "B+R", date=None)
    put(write, "x/void.sgf", "a", "b", "Void")
    put(write, "x/forfeit.sgf", "a", "b", "B+F")
    put(write, "x/self.sgf", "b", "b", "B+R")
    for day in range(10, 22):  # 12 games in July: 2 over the cap
        put(write, f"cap/{day}.sgf", "a", "b", "W+R", f"2024-07-{day}", seed=day)


@pytest.mark.slow
def test_runs_give_identical_games_tables(write, tmp_path: Path) -> None:
    mixed(write)
    first = run(tmp_path)
    again = run(tmp_path)  # same output folder: parses come from the cache
    fresh = run(tmp_path, out="out2")  # from scratch
    assert first.equals(again)
    assert first.equals(fresh)


@pytest.mark.slow
def test_counted_games_have_no_reasons_and_the_others_at_least_one(write, tmp_path: Path) -> None:
    mixed(write)
    games = run(tmp_path)
    n_reasons = games["reasons"].map(len)
    assert (n_reasons[games["counted"]] == 0).all()
    assert (n_reasons[~games["counted"]] >= 1).all()
    # records: 1 broken + 3 ok/ + 6 x/ + 12 cap/ = 22; counted: ok/1, ok/2 and 10 July games = 12
    assert (games["counted"].sum(), len(games)) == (12, 22)


@pytest.mark.skipif(not CHECK_OUTPUT.is_file(), reason=f"{CHECK_OUTPUT} not found")
@pytest.mark.slow
def test_output_of_a_mixed_folder_passes_check_output(write, tmp_path: Path) -> None:
    mixed(write)
    run(tmp_path)
    # sys.executable is the project's .venv/bin/python when the suite runs with .venv/bin/pytest
    done = subprocess.run(
        [sys.executable, str(CHECK_OUTPUT), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_game_without_a_player_name_is_a_parse_error_noted_missing_player(write, tmp_path: Path) -> None:
    write("g.sgf", b"(;PW[b]DT[2024-05-01]RE[W+R];B[aa];W[bb];B[cc])")
    games = run(tmp_path)
    assert (reasons(games, "g.sgf"), notes(games, "g.sgf")) == (["parse_error"], ["missing_player"])


@pytest.mark.parametrize(
    ("record", "said"),
    [
        (b"(;PW[b]DT[2024-05-01]RE[W+R];B[aa];W[bb])", "no player name for Black: PB is missing or empty"),
        (
            b"(;PB[a]PW[ ]DT[2024-05-01]RE[W+R];B[aa];W[bb])",
            "no player name for White: PW is missing or empty",
        ),
        (b"(;DT[2024-05-01]RE[W+R];B[aa];W[bb])", "no player names: PB and PW are both missing or empty"),
    ],
    ids=["no-black", "blank-white", "neither"],
)
def test_a_record_without_players_has_an_error_kind_of_its_own_naming_what_is_missing(
    write, tmp_path: Path, record: bytes, said: str
) -> None:
    write("g.sgf", record)
    found = row(run(tmp_path), "g.sgf")
    assert (found["error_kind"], found["parse_error"]) == ("no_players", said)


def test_a_record_that_could_not_be_read_keeps_its_own_error_kind(write, tmp_path: Path) -> None:
    write("g.sgf", b"(;PB[a]PW[b]DT[2024-05-01]RE[W+R];B[aa];W[bb]")
    assert row(run(tmp_path), "g.sgf")["error_kind"] == "truncated"
