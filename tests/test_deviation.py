"""The deviation where it means something (issue 23, item 3): under glicko2 the ``ratings`` and ``changes``
tables carry it, ``ratings show`` writes ``rating ± 2·deviation``, the site and the workbook show it, and
``[output] provisional_deviation`` marks the players whose rating is still uncertain; under a rule set
without one the column is null and nothing of it shows.

The shipped sample (data/raw, config/) rated under glicko2 with ``provisional_deviation = 150``, once.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pandas as pd
import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from pipeline.boards.leaderboards import leaderboards
from pipeline.cli import app
from pipeline.core.provisional import Provisional
from pipeline.output import folder as outputs

pytestmark = pytest.mark.slow
runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
THRESHOLD = 150.0


def invoke(*args: str, columns: int = 80) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample under glicko2, ``[output] provisional_deviation = 150``: the output folder."""
    root = tmp_path_factory.mktemp("glicko2")
    config = root / "ratings.toml"
    text = (ROOT / "config" / "ratings.toml").read_text(encoding="utf-8")
    text = text.replace('raw = "../data/raw"', f'raw = "{ROOT / "data" / "raw"}"')
    config.write_text(text.replace("[output]\n", f"[output]\nprovisional_deviation = {THRESHOLD}\n"), "utf-8")
    (root / "roster.toml").write_text((ROOT / "config" / "roster.toml").read_text("utf-8"), "utf-8")
    (root / "events.toml").write_text((ROOT / "config" / "events.toml").read_text("utf-8"), "utf-8")
    out = root / "out"
    invoke("run", "--config", str(config), "--out", str(out), "--rules", "glicko2", "--workers", "1")
    return out


def latest(out: Path) -> pd.DataFrame:
    return outputs.read_partition(out, "ratings", outputs.rated_periods(out)[-1])


def test_every_rating_and_change_has_a_deviation(rated: Path) -> None:
    ratings, changes = pd.read_parquet(rated / "ratings"), pd.read_parquet(rated / "changes")
    assert ratings["deviation"].notna().all() and changes["deviation"].notna().all()
    assert (ratings["deviation"] > 0).all() and (ratings["deviation"] <= 350).all()


def test_a_players_deviation_shrinks_as_they_play(rated: Path) -> None:
    changes = pd.read_parquet(rated / "changes").sort_values("seq")
    first = changes.groupby("player")["deviation"].first()
    table = latest(rated).set_index("player")
    busy = table[table["games_total"] >= 5].index
    assert len(busy) and (table.loc[busy, "deviation"] < first[busy]).all()


def test_show_writes_rating_plus_minus_twice_the_deviation(rated: Path) -> None:
    output = invoke("show", "--out", str(rated), "--top", "5")
    table = latest(rated).sort_values(["rating", "player"], ascending=[False, True]).head(5)
    for rating, deviation in zip(table["rating"], table["deviation"], strict=True):
        assert f"{rating:.2f} ± {2 * deviation:.2f}" in output
    assert "± twice the rating deviation" in output


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_show_with_the_deviation_fits_80_columns_in_every_language(rated: Path, lang: str) -> None:
    from rich.cells import cell_len

    output = invoke("show", "--out", str(rated), "--lang", lang)
    assert all(cell_len(line) <= 80 for line in output.splitlines()), output
    assert "…" not in output and "±" in output


def test_show_csv_keeps_the_deviation_a_column_of_its_own(rated: Path) -> None:
    frame = pd.read_csv(io.StringIO(invoke("show", "--out", str(rated), "--format", "csv")))
    assert frame["deviation"].notna().all() and frame["rating"].dtype == float


def test_a_deviation_above_the_threshold_is_provisional(rated: Path) -> None:
    frame = pd.read_csv(io.StringIO(invoke("show", "--out", str(rated), "--format", "csv")))
    assert list(frame["provisional"]) == list(frame["deviation"] > THRESHOLD)
    assert frame["provisional"].any() and not frame["provisional"].all()
    assert "a rating deviation above 150.00" in invoke("show", "--out", str(rated))


def test_a_provisional_player_is_off_the_period_board(rated: Path) -> None:
    period = outputs.rated_periods(rated)[-1]
    table = latest(rated)
    uncertain = set(table.loc[table["deviation"] > THRESHOLD, "player"])
    boards = pd.read_parquet(rated / "leaderboards")
    board = boards[(boards["period"] == period) & (boards["scope"] == "period")]
    assert len(board) and not uncertain & set(board["player"])


def test_the_boards_leave_off_a_deviation_above_the_threshold() -> None:
    changes = pd.DataFrame(
        {
            "period": "2024-05",
            "seq": [1, 2],
            "player": ["a", "b"],
            "score": [1.0, 0.0],
            "date": pd.Timestamp(2024, 5, 1),
        }
    )
    totals = pd.DataFrame(
        {"period": "2024-05", "player": ["a", "b"], "games_total": [9, 9], "deviation": [80.0, 200.0]}
    )
    board = leaderboards(changes, totals=totals, provisional_deviation=150.0).to_pandas()
    assert set(board["player"]) == {"a"}


def test_the_rule_marks_games_or_deviation_and_ignores_a_missing_deviation() -> None:
    rule = Provisional(games=3, deviation=100.0)
    marks = rule.marks([5, 1, 5, 5], [50.0, 50.0, 150.0, float("nan")])
    assert list(marks) == [False, True, True, False]
    assert list(Provisional(deviation=100.0).marks([0, 0])) == [False, False]  # (no deviation column)


def test_the_workbook_shows_the_deviation_after_the_rating(rated: Path, tmp_path: Path) -> None:
    target = tmp_path / "book.xlsx"
    invoke("export", "--xlsx", str(target), "--out", str(rated))
    book = load_workbook(target, read_only=True)
    header = [c.value for c in next(book["Standings"].iter_rows(max_row=1))]
    assert header[header.index("rating") + 1] == "deviation"
    changes = [c.value for c in next(book["Changes"].iter_rows(max_row=1))]
    assert "deviation" in changes and "volatility" in changes


def test_the_site_writes_rating_plus_minus_twice_the_deviation(rated: Path, tmp_path: Path) -> None:
    invoke("site", str(tmp_path / "site"), "--out", str(rated))
    period = outputs.rated_periods(rated)[-1]
    page = (tmp_path / "site" / f"period-{period}.html").read_text(encoding="utf-8")
    cells = re.findall(r'<td class="num">(\d+\.\d\d) ± (\d+\.\d\d)</td>', page)
    assert len(cells) == len(latest(rated))
    assert "twice its deviation" in page
    rules = (tmp_path / "site" / "rules.html").read_text(encoding="utf-8")
    assert "deviation is above 150" in rules


def test_a_day_inside_a_period_shows_the_deviation_the_games_were_rated_from(rated: Path) -> None:
    frame = pd.read_csv(
        io.StringIO(invoke("show", "--out", str(rated), "--date", "2024-06-15", "--format", "csv"))
    )
    changes = outputs.read_partition(rated, "changes", "2024-06")
    later = changes[pd.to_datetime(changes["date"]) > pd.Timestamp(2024, 6, 15)]
    rated_from = later.groupby("player")["deviation"].first()
    shown = frame.set_index("player")["deviation"]
    assert len(rated_from) and shown[rated_from.index].tolist() == pytest.approx(rated_from.tolist())


def test_a_rule_set_without_a_deviation_shows_none(tmp_path: Path) -> None:
    out = tmp_path / "out"
    config = str(ROOT / "config" / "ratings.toml")
    invoke(
        "run", "--config", config, "--raw", str(ROOT / "data" / "raw"), "--out", str(out), "--workers", "1"
    )
    assert latest(out)["deviation"].isna().all()
    assert "±" not in invoke("show", "--out", str(out))
