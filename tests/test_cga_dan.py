"""The `cga-dan` rule set (docs/rules.md ("cga-dan")): dan-tournament points and promotion.

End-to-end tests run `ratings run --rules cga-dan` on hand-made SGF records and read the Parquet back;
the 24 boundaries of the promotion-standard table are unit tests of :func:`met_standard`. The player
under test is always Black, against a fresh opponent each game (no opponent cap), one game a day.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline import rules
from pipeline.cli import app
from pipeline.rules.cga_dan import Met, met_standard

RESULT = {"w": "B+R", "d": "Draw", "l": "W+R"}
#: docs/rules.md ("cga-dan") promotion standards, copied from the table: dan -> games needed at 75, 70, 67.5.
TABLE = {1: (8, 12, 16), 2: (10, 14, 18), 3: (12, 16, 20), 4: (14, 18, 22)}
TABLE |= {5: (16, 20, 24), 6: (18, 22, 26), 7: (20, 24, 28), 8: (22, 26, 30)}


def series(player: str, rank: str, opponent_rank: str, results: str, start: dt.date) -> list[str]:
    """``player`` (Black, recorded ``rank``) against a new opponent of ``opponent_rank`` each day from
    ``start``; ``results`` one letter a game: w win, d draw, l loss (Black's view)."""
    return [
        game(player, rank, f"{player}-{start:%Y%m%d}-{i}", opponent_rank, r, start + dt.timedelta(i))
        for i, r in enumerate(results)
    ]


def game(black: str, black_rank: str, white: str, white_rank: str, result: str, day: dt.date) -> str:
    """One record; ``result`` w, d or l from Black's view. Moves depend on the day (no duplicates)."""
    seed = day.toordinal() % 9
    return sgf(
        black, white, RESULT[result], str(day), seed=seed, black_rank=black_rank, white_rank=white_rank
    )


def run_dan(root: Path, games: list[str], roster: str | None = None, events: str | None = None) -> Path:
    """Write ``games`` (one file each), the roster and events (None: none) and a ratings.toml with no
    period (the rule set's default); run `ratings run --rules cga-dan`; the output folder."""
    raw, out = root / "raw", root / "out"
    raw.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(games):
        (raw / f"g{i:03d}.sgf").write_text(text, encoding="utf-8")
    lines = ["[run]"]
    for key, content in {"roster": roster, "events": events}.items():
        if content is not None:
            (root / f"{key}.toml").write_text(content, encoding="utf-8")
        lines.append(f'{key} = "{key}.toml"' if content is not None else f'{key} = ""')
    (root / "ratings.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["run", "--config", str(root / "ratings.toml"), "--raw", str(raw), "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--rules", "cga-dan", "--workers", "1"])
    assert result.exit_code == 0, result.output
    return out


def changes(out: Path, player: str) -> pd.DataFrame:
    """``player``'s changes rows in game order, every period."""
    df = pd.read_parquet(out / "changes")
    return df[df["player"] == player].sort_values("seq").reset_index(drop=True)


def promotions(out: Path, player: str) -> pd.DataFrame:
    df = pd.read_parquet(out / "promotions.parquet")
    return df[df["player"] == player].reset_index(drop=True)


def rating(out: Path, player: str, period: str) -> pd.Series:
    df = pd.read_parquet(out / "ratings")
    rows = df[(df["period"].astype(str) == period) & (df["player"] == player)]
    assert len(rows) == 1, f"{player} in {period}: {len(rows)} rows"
    return rows.iloc[0]


MAY = dt.date(2024, 5, 1)


# ------------------------------------------------------------------------------------------ goldens


@pytest.mark.slow
def test_eight_straight_wins_against_1d_promote_a_1d_at_the_eighth_game(tmp_path: Path) -> None:
    out = run_dan(tmp_path, series("甲", "1d", "1d", "w" * 8, MAY))
    rows, promoted = changes(out, "甲"), promotions(out, "甲")
    assert list(rows["points"]) == [90.0] * 8  # same dan: a win is 90
    assert len(promoted) == 1 and promoted.loc[0, "game_id"] == rows.loc[7, "game_id"]
    assert (promoted.loc[0, "from_rank"], promoted.loc[0, "to_rank"]) == ("1d", "2d")
    assert promoted.loc[0, "rule"] == "cga-dan: 75 over 8"  # 8 games averaging 90 >= 75
    assert rating(out, "甲", "2024")["rank"] == "2d"


@pytest.mark.slow
def test_win_draw_draw_is_promoted_at_the_twelfth_game_with_average_70(tmp_path: Path) -> None:
    # 90 60 60 repeated: after 12 games 4*90 + 8*60 = 840, 840/12 = 70 (the 70 column, 12 games for 1d);
    # earlier, e.g. after 10: 720/10 = 72 < 75 and 10 < 12, so no promotion before.
    out = run_dan(tmp_path, series("甲", "1d", "1d", "wdd" * 4 + "w", MAY))
    rows, promoted = changes(out, "甲"), promotions(out, "甲")
    assert list(rows["points"][:3]) == [90.0, 60.0, 60.0]
    assert len(promoted) == 1 and promoted.loc[0, "game_id"] == rows.loc[11, "game_id"]
    assert promoted.loc[0, "rule"] == "cga-dan: 70 over 12"
    assert promoted.loc[0, "evidence"] == (
        "12 games since the last promotion averaging 70.0 >= 70 (needs 12 at 70 for 1d)"
    )
    assert (promoted.loc[0, "value"], promoted.loc[0, "threshold"], promoted.loc[0, "games"]) == (70, 70, 12)
    assert rows.loc[12, "dan"] == 2  # the 13th game is played as 2d


# ------------------------------------------------------------------------------- promotion table


@pytest.mark.parametrize("column, threshold", [(0, 75.0), (1, 70.0), (2, 67.5)])
@pytest.mark.parametrize("dan", range(1, 9))
def test_a_standard_is_met_at_its_game_count_and_not_one_game_before(
    dan: int, column: int, threshold: float
) -> None:
    n = TABLE[dan][column]
    assert met_standard(dan, [threshold] * (n - 1)) is None
    assert met_standard(dan, [threshold] * n) == Met(n, threshold, n, threshold)


def test_only_a_run_ending_at_the_latest_game_counts() -> None:
    # a 1d: eight 90s then a 30 -> the last 8 average (7*90 + 30)/8 = 82.5 >= 75: met over 8;
    # but 30 then eight 30s: no run ending at the last game reaches 75, 70 or 67.5.
    assert met_standard(1, [90.0] * 8 + [30.0]) == Met(8, 75.0, 8, 82.5)
    assert met_standard(1, [90.0] * 7 + [30.0] * 9) is None  # 16 games: 900/16 = 56.25 < 67.5


@pytest.mark.slow
def test_the_evidence_names_a_run_shorter_than_the_history(tmp_path: Path) -> None:
    # 30 30 30 then 90s: after 8 games (3*30 + 5*90)/8 = 67.5, not 75; after 9 the last 8 are
    # 30 30 + 6*90 = 600, 600/8 = 75 >= 75: promoted on the last 8 of 9 games.
    out = run_dan(tmp_path, series("甲", "1d", "1d", "lll" + "w" * 6, MAY))
    promoted = promotions(out, "甲")
    assert promoted.loc[0, "evidence"] == (
        "the last 8 of 9 games since the last promotion averaging 75.0 >= 75 (needs 8 at 75 for 1d)"
    )
    assert promoted.loc[0, "game_id"] == changes(out, "甲").loc[8, "game_id"]


@pytest.mark.slow
def test_the_deciding_game_scores_the_opponent_against_the_old_dan(tmp_path: Path) -> None:
    out = run_dan(tmp_path, series("甲", "1d", "1d", "w" * 8, MAY))
    eighth = changes(out, "甲").loc[7]
    loser = changes(out, eighth["opponent"]).loc[0]
    assert (loser["opponent_dan"], loser["role"], loser["points"]) == (1, "equal", 30.0)  # equal loss: 30


@pytest.mark.slow
def test_a_3p_winning_every_game_is_promoted_at_the_twelfth_not_the_eleventh(tmp_path: Path) -> None:
    out = run_dan(tmp_path, series("丙", "3p", "P3", "w" * 12, MAY))
    rows, promoted = changes(out, "丙"), promotions(out, "丙")
    assert list(rows["dan"]) == [3] * 12  # 3p and P3 are dan 3
    assert len(promoted) == 1 and promoted.loc[0, "game_id"] == rows.loc[11, "game_id"]
    assert (promoted.loc[0, "rule"], promoted.loc[0, "to_rank"]) == ("cga-dan: 75 over 12", "4d")


@pytest.mark.slow
def test_9d_is_never_promoted(tmp_path: Path) -> None:
    out = run_dan(tmp_path, series("丁", "九段", "9p", "w" * 30, MAY))
    assert promotions(out, "丁").empty
    assert set(changes(out, "丁")["dan"]) == {9}
    assert rating(out, "丁", "2024")["rank"] == "9d"


# --------------------------------------------------------------------------------- points table

#: docs/rules.md ("cga-dan"), copied: difference -> (stronger win/draw/loss, weaker win/draw/loss);
#: 4 uses the 3 row.
POINTS = {0: ((90, 60, 30), (90, 60, 30)), 1: ((85, 55, 25), (95, 65, 35))}
POINTS |= {
    2: ((80, 50, 20), (100, 70, 40)),
    3: ((75, 45, 15), (105, 75, 45)),
    4: ((75, 45, 15), (105, 75, 45)),
}


@pytest.fixture(scope="module")
def table_run(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    """Every changes row of 15 games: a (1 + diff)p Black against a 1p White, Black winning, drawing
    and losing at each difference 0..4 (fresh players each game)."""
    games = [
        game(f"S{diff}{r}", f"{1 + diff}p", f"W{diff}{r}", "1p", r, MAY + dt.timedelta(i))
        for i, (diff, r) in enumerate((d, r) for d in range(5) for r in "wdl")
    ]
    return pd.read_parquet(run_dan(tmp_path_factory.mktemp("table"), games) / "changes")


@pytest.mark.parametrize("diff", range(5))
@pytest.mark.parametrize("result", range(3))
@pytest.mark.slow
def test_points_follow_the_dan_difference_table(table_run: pd.DataFrame, diff: int, result: int) -> None:
    r = "wdl"[result]
    stronger = table_run[table_run["player"] == f"S{diff}{r}"].iloc[0]
    weaker = table_run[table_run["player"] == f"W{diff}{r}"].iloc[0]
    assert stronger["points"] == POINTS[diff][0][result]  # Black's result
    assert weaker["points"] == POINTS[diff][1][2 - result]  # White's result is the opposite
    assert (stronger["dan_difference"], weaker["dan_difference"]) == (diff, diff)
    roles = ("equal", "equal") if diff == 0 else ("stronger", "weaker")
    assert (stronger["role"], weaker["role"]) == roles


# ------------------------------------------------------------------------------ after promotion


@pytest.mark.slow
def test_scoring_restarts_at_the_new_dan_after_a_promotion(tmp_path: Path) -> None:
    out = run_dan(tmp_path, series("甲", "1d", "1d", "w" * 9, MAY))
    ninth = changes(out, "甲").loc[8]
    # promoted at the 8th; the 9th is a 2d beating a 1d: stronger win, 85; history restarts with it
    assert (ninth["dan"], ninth["role"], ninth["points"]) == (2, "stronger", 85.0)
    assert (ninth["rating_before"], ninth["games_since_promotion"], ninth["average_since_promotion"]) == (
        0.0,
        1,
        85.0,
    )


@pytest.mark.slow
def test_a_2d_needs_ten_games_counted_from_the_promotion(tmp_path: Path) -> None:
    # 8 wins (1d -> 2d at game 8), then 10 wins against 2d (90 each): 2d needs 10 at 75 -> game 18.
    games = series("甲", "1d", "1d", "w" * 8, MAY) + series("甲", "2d", "2d", "w" * 10, dt.date(2024, 6, 1))
    out = run_dan(tmp_path, games)
    rows, promoted = changes(out, "甲"), promotions(out, "甲")
    assert list(promoted["game_id"]) == [rows.loc[7, "game_id"], rows.loc[17, "game_id"]]
    assert list(promoted["to_rank"]) == ["2d", "3d"]


@pytest.mark.slow
def test_history_carries_across_yearly_periods(tmp_path: Path) -> None:
    games = series("甲", "1d", "1d", "w" * 4, dt.date(2023, 12, 1)) + series("甲", "1d", "1d", "w" * 4, MAY)
    out = run_dan(tmp_path, games)
    rows, promoted = changes(out, "甲"), promotions(out, "甲")
    assert list(rows["period"].astype(str)) == ["2023"] * 4 + ["2024"] * 4
    assert promoted.loc[0, "game_id"] == rows.loc[7, "game_id"]  # 4 + 4 = 8 wins at 90
    assert promoted.loc[0, "period"] == "2024"
    assert (rating(out, "甲", "2023")["rank"], rating(out, "甲", "2023")["rating"]) == ("1d", 90.0)


@pytest.mark.slow
def test_rating_is_the_average_since_the_last_promotion(tmp_path: Path) -> None:
    out = run_dan(tmp_path, series("甲", "1d", "1d", "wl", MAY))
    assert rating(out, "甲", "2024")["rating"] == 60.0  # (90 + 30) / 2


@pytest.mark.slow
def test_the_roster_rank_beats_the_record_and_a_kyu_starts_at_1d(tmp_path: Path) -> None:
    roster = '[[player]]\nname = "甲"\nrank = "5p"\n'
    out = run_dan(tmp_path, series("甲", "2d", "3k", "w", MAY), roster=roster)
    row = changes(out, "甲").loc[0]
    assert (row["dan"], row["opponent_dan"], row["points"]) == (5, 1, 75.0)  # 4 apart: 3 row, 75


# -------------------------------------------------------------------------------- output, awards


@pytest.mark.slow
def test_promotions_parquet_has_the_evidence_columns(tmp_path: Path) -> None:
    out = run_dan(tmp_path, series("甲", "1d", "1d", "w" * 8, MAY))
    df = pd.read_parquet(out / "promotions.parquet")
    assert {"player", "date", "game_id", "rule", "from_rank", "to_rank", "evidence"} <= set(df.columns)
    assert (
        df.loc[0, "evidence"]
        == "8 games since the last promotion averaging 90.0 >= 75 (needs 8 at 75 for 1d)"
    )
    assert df.loc[0, "date"].date() == dt.date(2024, 5, 8)  # a day: a timestamp at midnight


@pytest.mark.slow
def test_a_manual_rank_award_promotes_and_a_points_award_is_ignored(tmp_path: Path) -> None:
    events = (
        '[[event]]\nname = "Board"\nkind = "other"\n'
        '[[event.award]]\nplayer = "甲"\ndate = 2024-05-01\nrank = "3段"\nnote = "title"\n'
        '[[event.award]]\nplayer = "甲"\ndate = 2024-05-01\npoints = 50\n'
    )
    out = run_dan(tmp_path, series("甲", "1d", "1d", "ww", MAY), events=events)
    promoted = promotions(out, "甲")
    assert list(promoted[["rule", "from_rank", "to_rank"]].itertuples(index=False)) == [
        ("manual award", "1d", "3d")
    ]
    assert list(changes(out, "甲")["dan"]) == [1, 3]  # applies after the games of its date


def test_default_validity_is_yearly_counting_draws_excluding_no_shows_and_handicap() -> None:
    valid = rules.validity("cga-dan")
    assert (valid.period, valid.excluded) == ("year", frozenset({"no_show", "handicap"}))
