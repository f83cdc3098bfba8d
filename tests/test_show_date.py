"""`ratings show --date YYYY-MM-DD` and :func:`pipeline.reports.standings_on`: the standings on a day.

On the shipped sample (club rule set: a period's ratings are the sum of its games' changes and awards)
a day inside a period gives that period's standings up to the day; under cga-dan (ratings are averages,
no such sum) the end of the last period over by then, with a note. And on a copy of the sample with a
late record added for its first period, run incrementally.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pandas as pd
import pytest
from seasons import rate
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline import reports
from pipeline.cli import app
from pipeline.core import periods
from pipeline.output.folder import read_partition

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
DAY = dt.timedelta(days=1)


def _show(out: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["show", "--out", str(out), *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped sample rated with the shipped configuration."""
    return rate(ROOT / "data" / "raw", ROOT / "config" / "ratings.toml", tmp_path_factory.mktemp("s") / "out")


def _entries(out: Path, period: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The period's changes and awards (date, player, delta or points)."""
    return (
        read_partition(out, "changes", period, ["date", "player", "delta"]),
        read_partition(out, "awards", period, ["date", "player", "points"]),
    )


def _inside(out: Path) -> list[tuple[str, dt.date]]:
    """Every (period, day) of the run on which a change or award is dated, but the period's last day."""
    found = []
    for period in reports.rated_periods(out):
        changes, awards = _entries(out, period)
        days = sorted({*changes["date"], *awards["date"]} - {periods.bounds(period)[1]})
        found += [(period, day) for day in days]
    return found


# --- inside a period ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_inside_a_period_the_standings_are_of_that_period_up_to_the_day(sample: Path) -> None:
    found = reports.standings_on(sample, dt.date(2024, 6, 15))
    assert (found.period, found.complete, found.note) == ("2024-06", False, "")


@pytest.mark.slow
def test_inside_a_period_a_rating_is_the_start_plus_the_changes_and_awards_up_to_the_day(
    sample: Path,
) -> None:
    for period, day in _inside(sample):
        changes, awards = _entries(sample, period)
        start = read_partition(sample, "ratings", period).set_index("player")["rating_before"]
        added = changes[changes["date"] <= day].groupby("player")["delta"].sum()
        added = added.add(awards[awards["date"] <= day].groupby("player")["points"].sum(), fill_value=0.0)
        table = reports.standings_on(sample, day).table.set_index("player")
        expected = start.reindex(table.index) + added.reindex(table.index, fill_value=0.0)
        assert (table["rating"] - expected).abs().max() < 1e-4, (period, day)


def test_inside_a_period_the_games_are_the_counted_records_up_to_the_day(sample: Path) -> None:
    day = dt.date(2024, 6, 15)
    games = reports.read_games(sample)
    counted = games[games["counted"] & (games["period"] == "2024-06") & (games["date"] <= day)]
    played = pd.concat([counted["black_player"], counted["white_player"]]).value_counts()
    table = reports.standings_on(sample, day).table.set_index("player")
    assert table["games"].to_dict() == played.reindex(table.index, fill_value=0).to_dict()


@pytest.mark.slow
def test_on_the_day_of_a_periods_last_entry_the_ratings_are_the_periods_end(sample: Path) -> None:
    for period in reports.rated_periods(sample):
        changes, awards = _entries(sample, period)
        day = max({*changes["date"], *awards["date"]})
        on_day = reports.standings_on(sample, day).table.set_index("player")
        written = reports.standings(sample, period).set_index("player")
        assert sorted(on_day.index) == sorted(written.index)
        assert (on_day["rating"] - written["rating"].reindex(on_day.index)).abs().max() < 1e-9, period


def test_a_player_is_not_in_the_standings_before_their_first_game(sample: Path) -> None:
    first = reports.rated_periods(sample)[0]
    starts = read_partition(sample, "changes", first).groupby("player")["date"].min()
    newcomer, day = starts.idxmax(), starts.max()
    assert newcomer not in set(reports.standings_on(sample, day - DAY).table["player"])
    assert newcomer in set(reports.standings_on(sample, day).table["player"])


def test_show_date_inside_a_period_says_up_to_that_day(sample: Path) -> None:
    code, output = _show(sample, "--date", "2024-06-15")
    assert code == 0, output
    assert "standings on 2024-06-15 (2024-06 up to that day)" in output.splitlines()[0]


# --- at and after a period's end, before the first game -----------------------------------------------


def test_at_a_periods_last_day_the_standings_are_the_periods(sample: Path) -> None:
    found = reports.standings_on(sample, dt.date(2024, 6, 30))
    assert (found.period, found.complete) == ("2024-06", True)
    pd.testing.assert_frame_equal(found.table, reports.standings(sample, "2024-06"))


@pytest.mark.slow
def test_show_date_at_a_periods_end_names_the_period(sample: Path) -> None:
    code, output = _show(sample, "--date", "2024-06-30", "--format", "csv")
    assert code == 0, output
    assert output == _show(sample, "--period", "2024-06", "--format", "csv")[1]
    assert "(the end of 2024-06)" in _show(sample, "--date", "2024-06-30")[1]


def test_a_day_after_the_last_period_gives_its_standings(sample: Path) -> None:
    last = reports.rated_periods(sample)[-1]
    found = reports.standings_on(sample, periods.bounds(last)[1] + 40 * DAY)
    assert (found.period, found.complete) == (last, True)


def test_show_date_before_the_first_game_says_when_the_first_game_was(sample: Path) -> None:
    code, output = _show(sample, "--date", "2024-04-30")
    assert code == 0, output
    first = min(read_partition(sample, "changes", "2024-05")["date"])
    assert (
        f"no game was rated on or before 2024-04-30 in {sample}: the first rated game is on {first}"
        in " ".join(output.split())
    )


def test_show_date_before_the_first_game_as_csv_is_the_header_alone(sample: Path) -> None:
    code, output = _show(sample, "--date", "2024-04-30", "--format", "csv")
    assert code == 0, output
    assert output.splitlines() == [",".join(reports.STANDINGS_COLUMNS)]


# --- bad arguments --------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["2024-13-01", "2024-02-30", "2024/06/15", "15.06.2024", "20240615", "June"])
def test_show_date_that_is_not_a_day_exits_2_naming_it(sample: Path, text: str) -> None:
    code, output = _show(sample, "--date", text)
    assert code == 2
    assert f"--date must be a day written YYYY-MM-DD (such as 2024-06-15), got '{text}'" in output


def test_show_date_with_period_exits_2(sample: Path) -> None:
    code, output = _show(sample, "--date", "2024-06-15", "--period", "2024-06")
    assert code == 2 and "--period and --date exclude each other" in output


def test_show_date_with_report_exits_2(sample: Path) -> None:
    code, output = _show(sample, "--date", "2024-06-15", "--report", "fees")
    assert code == 2 and "--date does not apply to --report fees" in output


# --- a rule set whose ratings are not sums ------------------------------------------------------------------


@pytest.fixture(scope="module")
def averages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample under cga-dan (a rating is an average of game points) with quarters."""
    folder = tmp_path_factory.mktemp("cga-dan")
    shutil.copytree(ROOT / "config", folder / "cfg")
    config = folder / "cfg" / "ratings.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('# period = "month"', 'period = "quarter"'))
    return rate(ROOT / "data" / "raw", config, folder / "out", "--rules", "cga-dan")


@pytest.mark.slow
def test_a_period_whose_ratings_are_not_sums_gives_the_end_of_the_one_before(averages: Path) -> None:
    found = reports.standings_on(averages, dt.date(2024, 8, 10))
    assert (found.period, found.complete) == ("2024-Q2", True)
    assert "2024-Q3 is not over on 2024-08-10" in found.note


def test_show_date_says_why_a_period_is_not_shown_up_to_the_day(averages: Path) -> None:
    code, output = _show(averages, "--date", "2024-05-20")
    assert code == 0, output
    assert "no standings on 2024-05-20" in output and "2024-Q2 is not over on 2024-05-20" in output


# --- a late record for an early period ------------------------------------------------------------------


@pytest.fixture(scope="module")
def late(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A copy of the sample rated, then a late record for its first period added and rated again into
    the same folder (incremental), and from scratch into another."""
    folder = tmp_path_factory.mktemp("late")
    raw, config = folder / "raw", ROOT / "config" / "ratings.toml"
    shutil.copytree(ROOT / "data" / "raw", raw)
    before = rate(raw, config, folder / "before")
    out = rate(raw, config, folder / "out")
    (raw / "2024-05" / "late.sgf").write_text(
        sgf("羽焰", "凝兰", "B+R", "2024-05-30", seed=77), encoding="utf-8"
    )
    rate(raw, config, out)
    return {"before": before, "out": out, "scratch": rate(raw, config, folder / "scratch")}


@pytest.mark.slow
def test_a_late_record_counts_from_its_day_in_the_standings_on_a_date(late: dict[str, Path]) -> None:
    def games(which: str, day: dt.date) -> int:
        table = reports.standings_on(late[which], day).table.set_index("player")
        return int(table.loc["羽焰", "games"])

    assert games("out", dt.date(2024, 5, 29)) == games("before", dt.date(2024, 5, 29))
    assert games("out", dt.date(2024, 5, 30)) == games("before", dt.date(2024, 5, 30)) + 1


@pytest.mark.parametrize("day", ["2024-05-30", "2024-06-15", "2024-07-31", "2024-08-20"])
@pytest.mark.slow
def test_after_a_late_record_the_standings_on_a_date_are_those_of_a_run_from_scratch(
    late: dict[str, Path], day: str
) -> None:
    again, scratch = (_show(late[which], "--date", day, "--format", "csv") for which in ("out", "scratch"))
    assert again[0] == 0, again[1]
    assert again == scratch
