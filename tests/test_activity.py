"""Activity (`[output] active_within`): the standings, leaderboards, site and workbook list only the players
with a counted game within the span before the period's end; the others stay in ratings/, marked.

The season (club rule set, no roster: everyone a member), rated with active_within = "2 months":

    2024-01-15  丙 beats 丁          -> active to the end of February, inactive since 2024-03-15
    2024-01-31  庚 beats 辛          -> the day before March's span starts (2024-02-01): inactive in March
    2024-02-01  戊 beats 己          -> the first day of March's span: active in March, not in April
    甲 and 乙 play every month, January to April.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from seasons import rate, write_season
from sgfmake import sgf
from site_fixtures import tables
from typer.testing import CliRunner

from pipeline import reports
from pipeline.cli import app
from pipeline.core.activity import span_of
from pipeline.core.activity_columns import start
from pipeline.reports.export import standings_table
from pipeline.site import build_site
from pipeline.site.slugs import slugs

runner = CliRunner()
SPAN = "2 months"
SEASON = {
    "01/a.sgf": ("甲", "乙", "B+R", "2024-01-10"),
    "01/b.sgf": ("丙", "丁", "B+R", "2024-01-15"),
    "01/c.sgf": ("庚", "辛", "B+R", "2024-01-31"),
    "02/a.sgf": ("戊", "己", "B+R", "2024-02-01"),
    "02/b.sgf": ("乙", "甲", "B+R", "2024-02-10"),
    "03/a.sgf": ("甲", "乙", "W+R", "2024-03-10"),
    "04/a.sgf": ("乙", "甲", "W+R", "2024-04-10"),
}


def _season(folder: Path, span: str | None) -> tuple[Path, Path]:
    """The season and its configuration under ``folder`` (the [output] setting unless None)."""
    return write_season(folder, SEASON, "" if span is None else f'active_within = "{span}"')


@pytest.fixture(scope="module")
def active(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The season rated with active_within = "2 months"."""
    folder = tmp_path_factory.mktemp("active")
    return rate(*_season(folder, SPAN), folder / "out")


@pytest.fixture(scope="module")
def everyone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The season rated without [output] active_within (the default: everyone listed)."""
    folder = tmp_path_factory.mktemp("everyone")
    return rate(*_season(folder, None), folder / "out")


def _listed(out: Path, period: str) -> list[str]:
    return sorted(reports.standings(out, period)["player"])


def _ratings(out: Path, period: str) -> pd.DataFrame:
    """The ratings partition as written, by player."""
    return pq.read_table(out / "ratings" / f"period={period}").to_pandas().set_index("player")


def _board(out: Path, period: str, scope: str = "period") -> list[str]:
    table = pq.read_table(out / "leaderboards" / f"period={period}").to_pandas()
    return sorted(table.loc[table["scope"] == scope, "player"])


def _show(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["show", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output


# --- the span ---------------------------------------------------------------------------------------------


def test_the_span_of_a_month_period_starts_the_day_after_the_same_day_months_before() -> None:
    assert start(span_of(SPAN), dt.date(2024, 3, 31)) == dt.date(2024, 2, 1)


# --- the standings ------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_by_default_every_rated_player_is_listed(everyone: Path) -> None:
    assert _listed(everyone, "2024-04") == sorted("甲乙丙丁戊己庚辛")


@pytest.mark.slow
def test_a_player_is_listed_while_their_last_game_is_within_the_span(active: Path) -> None:
    assert "丙" in _listed(active, "2024-02")


def test_a_player_who_stops_playing_drops_from_the_standings_after_the_span(active: Path) -> None:
    assert "丙" not in _listed(active, "2024-03")


def test_a_game_on_the_first_day_of_the_span_keeps_a_player_listed(active: Path) -> None:
    assert "戊" in _listed(active, "2024-03")


def test_a_game_the_day_before_the_span_leaves_a_player_off_the_standings(active: Path) -> None:
    assert "庚" not in _listed(active, "2024-03")


def test_the_places_count_the_listed_players_only(active: Path) -> None:
    places = reports.standings(active, "2024-03").set_index("player")["rating_place"]
    assert places["甲"] == 3  # behind 乙 and 戊 (0.5), level with 己; 丙 and 庚 (0.5), 丁 and 辛 not placed


def test_the_standings_on_a_day_list_the_players_active_on_that_day(active: Path) -> None:
    day = reports.standings_on(active, dt.date(2024, 3, 10))  # the span from 2024-01-11: 丙 still in it
    assert "丙" in set(day.table["player"]) and "戊" in set(day.table["player"])


def test_the_standings_asked_for_everyone_list_the_inactive_players(active: Path) -> None:
    table = reports.standings(active, "2024-03", everyone=True)
    assert sorted(table.loc[~table["active"], "player"]) == sorted("丙丁庚辛")


# --- ratings/ -----------------------------------------------------------------------------------------------


def test_an_inactive_player_stays_in_ratings_marked_inactive(active: Path) -> None:
    assert not _ratings(active, "2024-03").loc["丙", "active"]


def test_an_inactive_player_is_marked_since_the_day_the_span_ran_out(active: Path) -> None:
    row = _ratings(active, "2024-03").loc["丙"]
    assert (row["last_counted"].date(), row["inactive_since"].date()) == (
        dt.date(2024, 1, 15),
        dt.date(2024, 3, 15),
    )


def test_an_active_player_has_no_inactive_since_day(active: Path) -> None:
    assert pd.isna(_ratings(active, "2024-03").loc["戊", "inactive_since"])


def test_an_inactive_player_has_no_place(active: Path) -> None:
    assert pd.isna(_ratings(active, "2024-03").loc["丙", "rating_place"])


@pytest.mark.slow
def test_the_ratings_are_the_same_with_and_without_the_span(active: Path, everyone: Path) -> None:
    for period in reports.rated_periods(everyone):
        with_span, without = _ratings(active, period), _ratings(everyone, period)
        assert with_span["rating"].sort_index().equals(without["rating"].sort_index()), period


@pytest.mark.slow
def test_without_a_span_everyone_is_active_with_their_last_counted_day(everyone: Path) -> None:
    table = _ratings(everyone, "2024-04")
    assert table["active"].all() and table.loc["丙", "last_counted"].date() == dt.date(2024, 1, 15)


# --- the leaderboards ---------------------------------------------------------------------------------------


def test_a_player_inactive_at_the_years_last_period_is_off_the_year_leaderboard(active: Path) -> None:
    assert _board(active, "2024", scope="year") == ["乙", "甲"]


@pytest.mark.slow
def test_without_a_span_the_year_leaderboard_has_everyone_who_played(everyone: Path) -> None:
    assert _board(everyone, "2024", scope="year") == sorted("甲乙丙丁戊己庚辛")


# --- ratings show -------------------------------------------------------------------------------------------


def test_show_says_how_many_inactive_players_are_not_listed(active: Path) -> None:
    code, output = _show("--out", str(active), "--period", "2024-03")
    assert code == 0, output
    assert "4 inactive players not listed (no counted game in the last 2 months)" in output


def test_show_all_lists_the_inactive_players_marked(active: Path) -> None:
    code, output = _show("--out", str(active), "--period", "2024-03", "--all")
    assert code == 0, output
    assert "丙~" in output and "戊~" not in output and "2024-03-15" in output
    assert "~ inactive: no counted game in the last 2 months" in output


def test_show_all_does_not_apply_to_a_report(active: Path) -> None:
    code, output = _show("--out", str(active), "--report", "fees", "--all")
    assert code == 2 and "--all does not apply" in output


def test_show_csv_has_the_activity_columns(active: Path) -> None:
    code, output = _show("--out", str(active), "--period", "2024-03", "--format", "csv", "--all")
    assert code == 0, output
    header = output.splitlines()[0].split(",")
    assert {"active", "last_counted", "inactive_since"} <= set(header)


# --- the workbook and the site ------------------------------------------------------------------------------


def test_the_workbook_lists_only_the_active_players(active: Path) -> None:
    table = standings_table(active)
    assert sorted(table.loc[table["period"] == "2024-03", "player"]) == sorted("甲乙戊己")


@pytest.fixture(scope="module")
def site(active: Path) -> Path:
    target = active.parent / "site"
    build_site(active, target)
    return target


@pytest.mark.slow
def test_the_site_lists_only_the_active_players(site: Path) -> None:
    rows = tables(site / "period-2024-03.html")[0][1:]
    assert sorted(row[1] for row in rows) == sorted("甲乙戊己")


@pytest.mark.slow
def test_the_site_says_how_many_inactive_players_are_not_listed(site: Path) -> None:
    page = (site / "period-2024-03.html").read_text(encoding="utf-8")
    assert "Not listed: 4 inactive players, with no counted game in the last 2 months" in page


@pytest.mark.slow
def test_the_site_keeps_an_inactive_players_page_saying_since_when(site: Path) -> None:
    page = site / "players" / f"{slugs(['丙'])['丙']}.html"
    assert "inactive since 2024-03-15" in page.read_text(encoding="utf-8")


# --- an incremental run -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_late_record_brings_a_player_back_as_a_run_from_scratch_does(tmp_path: Path) -> None:
    raw, config = _season(tmp_path, SPAN)
    out = rate(raw, config, tmp_path / "out")
    (raw / "04" / "late.sgf").write_text(sgf("丙", "甲", "B+R", "2024-04-20", seed=50), encoding="utf-8")
    rate(raw, config, out)
    scratch = rate(raw, config, tmp_path / "scratch")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["incremental"]["periods_replayed"] == 1  # April, from March's standings and days
    assert "丙" in _listed(out, "2024-04")
    for period in reports.rated_periods(scratch):
        assert pq.read_table(out / "ratings" / f"period={period}").equals(
            pq.read_table(scratch / "ratings" / f"period={period}")
        ), period
