"""`ratings export --xlsx FILE`: the output folder as one workbook, opened back with openpyxl.

The club corpus (rule set club, no roster, no events: ranks from the records):

    a  2024-05-01 slow  "=SUM(A1)" 1d (B) beats "@evil" 1d, EV "+cup" (an event the run does not list)
                        =SUM(A1): 100 + 1 (opponent's coefficient) x 10 (slow) = 110, still 1d
                        @evil:    100 - 1 (own coefficient) x 10 = 90, 1k (base 90 <= 90 < 100)
    b  2024-05-02 slow  the same two draw: excluded, reason draw

The hkga corpus (roster: 甲 only): 2024-01-01 乙 (B, 1d, not a member) loses to 甲 (W, 1d).
乙's 2024 fee: 1 rated game, within the first 20 that the $30 covers -> 30.
"""

from __future__ import annotations

import datetime as dt
import os
import stat
import zipfile
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.reports import export

runner = CliRunner()
CLUB_GAMES = {
    "a.sgf": sgf("=SUM(A1)", "@evil", "B+R", "2024-05-01", black_rank="1d", white_rank="1d", event="+cup"),
    "b.sgf": sgf("=SUM(A1)", "@evil", "0", "2024-05-02", black_rank="1d", white_rank="1d", seed=3),
}


def _run(folder: Path, games: dict[str, str], rules: str, roster: str = "") -> Path:
    """Write ``games`` (and ``roster`` when given) under ``folder``, run ``--rules rules``; the output."""
    raw = folder / "raw"
    raw.mkdir()
    for name, text in games.items():
        (raw / name).write_text(text, encoding="utf-8")
    (folder / "roster.toml").write_text(roster, encoding="utf-8")
    config = folder / "ratings.toml"
    roster_key = "roster.toml" if roster else ""
    config.write_text(f'[run]\nroster = "{roster_key}"\nevents = ""\n', encoding="utf-8")
    out = folder / "out"
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--rules", rules]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def _export(out: Path, target: Path) -> tuple[int, str]:
    result = runner.invoke(app, ["export", "--out", str(out), "--xlsx", str(target)])
    return result.exit_code, " ".join(result.output.split())


@pytest.fixture(scope="module")
def club_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The club corpus above, run once for the module (the tests only read it)."""
    return _run(tmp_path_factory.mktemp("club"), CLUB_GAMES, "club")


@pytest.fixture(scope="module")
def club_xlsx(club_out: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("xlsx") / "club.xlsx"
    code, output = _export(club_out, target)
    assert code == 0, output
    return target


@pytest.fixture(scope="module")
def book(club_xlsx: Path) -> Workbook:
    return openpyxl.load_workbook(club_xlsx)


def _header(sheet: Worksheet) -> list[str]:
    return [c.value for c in sheet[1]]


def _rows(sheet: Worksheet) -> list[dict[str, object]]:
    """The data rows of ``sheet`` as dicts of cells by header name."""
    names = _header(sheet)
    return [dict(zip(names, row, strict=True)) for row in sheet.iter_rows(min_row=2)]


# --- sheets and headers ----------------------------------------------------------------------------


@pytest.mark.slow
def test_club_workbook_has_the_five_sheets_and_no_promotions_or_fees(book: Workbook) -> None:
    assert book.sheetnames == ["Standings", "Leaderboards", "Games", "Changes", "Awards"]


def test_standings_and_games_headers_are_the_documented_columns(book: Workbook) -> None:
    # (club has no deviation: its Standings sheet leaves the column out)
    assert _header(book["Standings"]) == [c for c in export.STANDINGS_COLUMNS if c != "deviation"]
    assert _header(book["Games"])[:14] == [
        *("date", "period", "black", "white", "result", "black_points", "white_points", "speed", "event"),
        *("stage", "counted", "reasons", "notes", "source_path"),
    ]


def test_changes_sheet_keeps_the_rule_sets_own_columns_after_the_common_ones(book: Workbook) -> None:
    header = _header(book["Changes"])
    assert header[:4] == ["period", "date", "seq", "game_id"]
    assert header[-5:] == ["rank", "coefficient", "opponent_rank", "opponent_coefficient", "game_points"]


def test_every_sheet_has_a_frozen_header_row_and_a_filter_over_its_data(book: Workbook) -> None:
    for sheet in book:
        last = get_column_letter(len(_header(sheet)))
        assert (sheet.title, sheet.freeze_panes) == (sheet.title, "A2")
        assert (sheet.title, sheet.auto_filter.ref) == (sheet.title, f"A1:{last}{sheet.max_row}")


def test_an_empty_table_still_gets_its_header_row(book: Workbook) -> None:
    awards = book["Awards"]  # no event: no award
    assert (_header(awards), awards.max_row) == (list(export.LEADING_COLUMNS["Awards"]), 1)


# --- cells -----------------------------------------------------------------------------------------


def test_formula_looking_names_and_events_are_text_cells_with_the_exact_text(book: Workbook) -> None:
    first = _rows(book["Games"])[0]
    cells = [first["black"], first["white"], first["event"]]
    assert [(c.value, c.data_type, c.quotePrefix) for c in cells] == [
        ("=SUM(A1)", "s", True),
        ("@evil", "s", True),
        ("+cup", "s", True),
    ]


def test_no_cell_of_the_file_is_a_formula(club_xlsx: Path) -> None:
    with zipfile.ZipFile(club_xlsx) as archive:
        sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/")]
        xml = "".join(archive.read(n).decode() for n in sheets)
    assert "=SUM(A1)" in xml
    assert "<f>" not in xml and "<f " not in xml


def test_standings_numbers_are_numeric_cells(book: Workbook) -> None:
    rows = {r["player"].value: r for r in _rows(book["Standings"])}
    winner = rows["=SUM(A1)"]  # 100 + 1 x 10 = 110, one game, won
    fields = ("rating_place", "rating", "delta", "games", "wins", "losses")
    assert [winner[f].value for f in fields] == [1, 110, 10, 1, 1, 0]
    assert {winner[f].data_type for f in fields} == {"n"}
    assert (rows["@evil"]["rating"].value, rows["@evil"]["rank"].value) == (90, "1k")  # 100 - 1 x 10


def test_games_sheet_has_dates_as_dates_booleans_and_joined_reasons(book: Workbook) -> None:
    a, b = _rows(book["Games"])
    assert a["date"].is_date and a["date"].value.date() == dt.date(2024, 5, 1)
    assert (a["counted"].value, a["reasons"].value) == (True, None)
    assert (b["counted"].value, b["reasons"].value, b["source_path"].value) == (False, "draw", "b.sgf")


def test_games_sheet_has_each_sides_points_from_the_changes(book: Workbook) -> None:
    a, b = _rows(book["Games"])  # a: =SUM(A1) +1 x 10, @evil -1 x 10; b: a draw, not counted
    assert (a["black_points"].value, a["white_points"].value) == (10, -10)
    assert (b["black_points"].value, b["white_points"].value) == (None, None)


def test_win_rate_is_a_number_shown_as_a_percentage(book: Workbook) -> None:
    rows = {(r["scope"].value, r["player"].value): r for r in _rows(book["Leaderboards"])}
    win_rate = rows["period", "=SUM(A1)"]["win_rate"]  # 1 win in 1 game
    assert (win_rate.value, win_rate.number_format) == (1, "0.0%")


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@x", "\tx"])
def test_every_formula_prefix_is_written_as_quoted_text(tmp_path: Path, text: str) -> None:
    book = openpyxl.Workbook(write_only=True)
    export.write_sheet(book.create_sheet("t"), pd.DataFrame({"name": [text]}))
    book.save(tmp_path / "t.xlsx")
    cell = openpyxl.load_workbook(tmp_path / "t.xlsx")["t"]["A2"]
    assert (cell.value, cell.data_type, cell.quotePrefix) == (text, "s", True)


def test_plain_text_gets_no_quote_prefix(book: Workbook) -> None:
    result = _rows(book["Games"])[0]["result"]
    assert (result.value, result.quotePrefix) == ("B+R", False)


def test_characters_a_workbook_cannot_hold_are_replaced() -> None:
    assert export.cell_value("a\x01b") == "a\ufffdb"


def test_column_width_counts_wide_characters_double_and_is_capped(tmp_path: Path) -> None:
    frame = pd.DataFrame({"name": ["羽焰羽焰羽焰羽焰"], "long": ["x" * 200]})
    book = openpyxl.Workbook(write_only=True)
    export.write_sheet(book.create_sheet("w"), frame)
    book.save(tmp_path / "w.xlsx")
    sheet = openpyxl.load_workbook(tmp_path / "w.xlsx")["w"]
    # 8 wide characters = 16 columns, + 2 of margin; 200 characters capped at 50
    assert (sheet.column_dimensions["A"].width, sheet.column_dimensions["B"].width) == (18, 50)


# --- rule sets with reports ------------------------------------------------------------------------


@pytest.mark.slow
def test_hkga_workbook_has_fees_and_certification_sheets(tmp_path: Path) -> None:
    games = {"g.sgf": sgf("乙", "甲", "W+R", "2024-01-01", black_rank="1d", white_rank="1d")}
    out = _run(tmp_path, games, "hkga", roster='[[player]]\nname = "甲"\nrank = "1d"\n')
    assert _export(out, tmp_path / "hkga.xlsx")[0] == 0
    book = openpyxl.load_workbook(tmp_path / "hkga.xlsx")
    assert book.sheetnames[-2:] == ["Fees", "Certification"]
    fees = [(r["player"].value, r["year"].value, r["fee"].value) for r in _rows(book["Fees"])]
    assert fees == [("乙", 2024, 30)]  # 1 rated game: the $30 covers the first 20


@pytest.mark.slow
def test_gor_ratings_show_two_decimals_and_keep_their_full_value(tmp_path: Path) -> None:
    games = {"g.sgf": sgf("乙", "甲", "W+R", "2024-01-01", black_rank="1d", white_rank="1d")}
    out = _run(tmp_path, games, "hkga", roster='[[player]]\nname = "甲"\nrank = "1d"\n')
    assert _export(out, tmp_path / "hkga.xlsx")[0] == 0
    rows = {r["player"].value: r for r in _rows(openpyxl.load_workbook(tmp_path / "hkga.xlsx")["Standings"])}
    written = pd.read_parquet(out / "ratings").set_index("player")["rating"]
    rating = rows["甲"]["rating"]
    assert written["甲"] != round(written["甲"], 2)  # the GoR formula gives a fraction
    assert (rating.value, rating.number_format) == (written["甲"], "0.00")


@pytest.mark.slow
def test_the_workbook_gets_the_mode_of_the_umask(club_out: Path, tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        assert _export(club_out, tmp_path / "r.xlsx")[0] == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "r.xlsx").stat().st_mode) == 0o644


# --- the command -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_export_prints_the_file_and_its_sheets(club_out: Path, tmp_path: Path) -> None:
    code, output = _export(club_out, tmp_path / "x.xlsx")
    assert code == 0
    assert "x.xlsx" in output and "Standings, Leaderboards, Games, Changes, Awards" in output


@pytest.mark.slow
def test_export_into_a_missing_folder_creates_it(club_out: Path, tmp_path: Path) -> None:
    target = tmp_path / "new" / "deeper" / "r.xlsx"
    assert _export(club_out, target)[0] == 0
    assert openpyxl.load_workbook(target).sheetnames[0] == "Standings"


@pytest.mark.slow
def test_export_replaces_a_workbook_and_leaves_no_temporary_file(club_out: Path, tmp_path: Path) -> None:
    target = tmp_path / "r.xlsx"
    target.write_bytes(b"old")
    assert _export(club_out, target)[0] == 0
    assert [p.name for p in tmp_path.iterdir()] == ["r.xlsx"]
    assert openpyxl.load_workbook(target).sheetnames[0] == "Standings"


def test_export_without_output_exits_2_and_says_to_run_first(tmp_path: Path) -> None:
    code, output = _export(tmp_path / "nothing", tmp_path / "r.xlsx")
    assert code == 2
    assert "ratings run" in output and "first" in output
    assert not (tmp_path / "r.xlsx").exists()


def test_export_to_a_file_that_is_not_xlsx_exits_2(club_out: Path, tmp_path: Path) -> None:
    code, output = _export(club_out, tmp_path / "r.csv")
    assert (code, "r.csv" in output) == (2, True)


def test_export_help_has_an_example() -> None:
    result = runner.invoke(app, ["export", "--help"])
    assert "Example: ratings export --xlsx" in " ".join(result.output.split())
