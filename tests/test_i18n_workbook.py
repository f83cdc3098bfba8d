"""`ratings export --xlsx FILE --lang zh-Hans|zh-Hant`: the workbook in Chinese, opened back with openpyxl.

The corpus (club rule set, no roster, no events):

    a  2024-05-01 slow  甲 1d (B) beats 乙 1d          counted
    b  2024-05-02 fast  乙 (B) beats 甲                counted
    c  2024-05-03 slow  the same two draw              not counted, reason draw

The English workbook of the same output is the reference: the Chinese one has the same sheets in the same
order, each with the same columns, plus the header map last, which must name, for every header shown,
the English workbook's column at that place (the contract's column name, docs/columns.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet
from rich.cells import cell_len
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.core import i18n
from pipeline.core.reasons import phrase
from pipeline.reports import export
from pipeline.reports.export import shown
from tests.i18n_words import english_left, own_help

runner = CliRunner()
GAMES = {
    "a.sgf": sgf("甲", "乙", "B+R", "2024-05-01", black_rank="1d", white_rank="1d"),
    "b.sgf": sgf("乙", "甲", "B+R", "2024-05-02", black_rank="1d", white_rank="1d", slow=False, seed=1),
    "c.sgf": sgf("甲", "乙", "0", "2024-05-03", black_rank="1d", white_rank="1d", seed=2),
}
CHINESE = ("zh-Hans", "zh-Hant")
SHEETS = {
    "zh-Hans": ["排名", "排行榜", "对局", "等级分变化", "奖励", "列名对照"],
    "zh-Hant": ["排名", "排行榜", "對局", "等級分變化", "獎勵", "欄位對照"],
}
_HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("club")
    raw = folder / "raw"
    raw.mkdir()
    for name, text in GAMES.items():
        (raw / name).write_text(text, encoding="utf-8")
    config = folder / "ratings.toml"
    config.write_text('[run]\nroster = ""\nevents = ""\n', encoding="utf-8")
    args = [
        "run",
        "--config",
        str(config),
        "--raw",
        str(raw),
        "--out",
        str(folder / "out"),
        "--rules",
        "club",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return folder / "out"


def _export(out: Path, target: Path, lang: str) -> str:
    args = ["export", "--out", str(out), "--xlsx", str(target), "--lang", lang]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def books(out: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Workbook]:
    """The workbook of ``out`` in each language."""
    folder = tmp_path_factory.mktemp("books")
    found = {}
    for lang in (*CHINESE, "en"):
        _export(out, folder / f"{lang}.xlsx", lang)
        found[lang] = openpyxl.load_workbook(folder / f"{lang}.xlsx")
    return found


def _header(sheet: Worksheet) -> list[str]:
    return [str(c.value) for c in sheet[1]]


def _column(sheet: Worksheet, name: str) -> list[object]:
    """The values under the header ``name`` of ``sheet``."""
    index = _header(sheet).index(name)
    return [row[index].value for row in sheet.iter_rows(min_row=2)]


@pytest.mark.parametrize("lang", CHINESE)
def test_the_sheets_have_chinese_names_and_the_header_map_last(books: dict[str, Workbook], lang: str) -> None:
    assert books[lang].sheetnames == SHEETS[lang]


@pytest.mark.parametrize("lang", CHINESE)
def test_every_header_is_chinese_and_once_in_its_sheet(books: dict[str, Workbook], lang: str) -> None:
    for sheet in books[lang]:
        header = _header(sheet)
        assert [h for h in header if not _HAN.search(h)] == [], sheet.title
        assert len(set(header)) == len(header), sheet.title
        assert english_left(" ".join(header)) == [], sheet.title


@pytest.mark.parametrize("lang", CHINESE)
def test_the_header_map_names_the_contract_column_of_every_header(
    books: dict[str, Workbook], lang: str
) -> None:
    book, english = books[lang], books["en"]
    mapped = list(book.worksheets[-1].iter_rows(min_row=2, values_only=True))
    expected = [
        (sheet.title, shown_header, column, english_sheet.title)
        for sheet, english_sheet in zip(book.worksheets[:-1], english.worksheets, strict=True)
        for shown_header, column in zip(_header(sheet), _header(english_sheet), strict=True)
    ]
    map_sheet = book.worksheets[-1]
    expected += [
        (map_sheet.title, h, c, "Columns") for h, c in zip(_header(map_sheet), shown.MAP_COLUMNS, strict=True)
    ]
    assert mapped == expected
    standings = [column for sheet, _h, column, _t in mapped if sheet == book.sheetnames[0]]
    # the contract's names, not the English sheet's (club: no deviation column)
    assert standings == [c for c in export.STANDINGS_COLUMNS if c != "deviation"]


@pytest.mark.parametrize("lang", CHINESE)
def test_a_script_finds_a_column_through_the_map(books: dict[str, Workbook], lang: str) -> None:
    book, english = books[lang], books["en"]["Standings"]
    where = {(t, c): (s, h) for s, h, c, t in book.worksheets[-1].iter_rows(min_row=2, values_only=True)}
    (sheet, rating), (_, player) = where["Standings", "rating"], where["Standings", "player"]
    found = dict(zip(_column(book[sheet], player), _column(book[sheet], rating), strict=True))
    assert found == dict(zip(_column(english, "player"), _column(english, "rating"), strict=True))
    assert sorted(found) == ["乙", "甲"]


@pytest.mark.parametrize("lang", CHINESE)
def test_the_words_among_the_values_are_chinese(books: dict[str, Workbook], lang: str) -> None:
    book, english = books[lang], books["en"]
    games = book.worksheets[2]
    with i18n.speaking(lang):
        words = shown.value_words()
        draw = phrase("draw")
        header = shown.header_row("Games", export.GAMES_COLUMNS)
    named = dict(zip(export.GAMES_COLUMNS, header, strict=True))
    assert _column(games, named["counted"]) == [words["counted"][True]] * 2 + [words["counted"][False]]
    assert _column(games, named["speed"]) == [words["speed"][s] for s in ("slow", "fast", "slow")]
    assert _column(games, named["reasons"]) == [None, None, draw]
    assert _column(english["Games"], "reasons") == [None, None, "draw"]
    assert {words["counted"][True], words["speed"]["fast"]} <= {"计入", "計入", "快棋"}


@pytest.mark.parametrize("lang", CHINESE)
def test_dates_are_date_cells_in_the_chinese_format(books: dict[str, Workbook], lang: str) -> None:
    games = books[lang].worksheets[2]
    cell = games.cell(row=2, column=1)
    assert cell.is_date and cell.value.date().isoformat() == "2024-05-01"
    assert cell.number_format == 'yyyy"年"m"月"d"日"'
    assert books["en"]["Games"].cell(row=2, column=1).number_format == "yyyy-mm-dd"


def test_the_english_workbook_has_no_header_map(books: dict[str, Workbook]) -> None:
    assert books["en"].sheetnames == ["Standings", "Leaderboards", "Games", "Changes", "Awards"]


@pytest.mark.parametrize("lang", CHINESE)
def test_export_says_what_it_wrote_in_the_language(out: Path, tmp_path: Path, lang: str) -> None:
    output = " ".join(_export(out, tmp_path / "r.xlsx", lang).split())
    assert "、".join(SHEETS[lang]) in output
    assert english_left(output) == []


@pytest.mark.parametrize("lang", CHINESE)
def test_a_target_that_is_no_workbook_is_said_in_the_language(out: Path, tmp_path: Path, lang: str) -> None:
    result = runner.invoke(
        app, ["export", "--out", str(out), "--xlsx", str(tmp_path / "r.csv"), "--lang", lang]
    )
    assert result.exit_code == 2
    assert "r.csv" in result.output and english_left(result.output, allowed=["error"]) == []


@pytest.mark.parametrize("lang", [*CHINESE, "en"])
def test_export_help_in_each_language_fits_80_columns(lang: str) -> None:
    result = runner.invoke(app, ["export", "--help", "--lang", lang], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert max(cell_len(line) for line in result.output.splitlines()) <= 80
    text = own_help(result.output)
    if lang == "en":
        assert "Write the run's results to one Excel workbook" in " ".join(text.split())
        assert "--out" not in text and "--xlsx" in text
    else:
        assert _HAN.search(text) and english_left(text, allowed=["Excel"]) == []


# --- sheet names ------------------------------------------------------------------------------------


def test_a_sheet_name_loses_the_characters_excel_forbids() -> None:
    assert shown.sheet_name("a[b]:c*d?e/f\\g") == "a_b__c_d_e_f_g"


def test_a_sheet_name_is_cut_at_31_characters_and_has_no_apostrophe_at_either_end() -> None:
    assert shown.sheet_name("'" + "段" * 40 + "'") == "段" * 31
    assert shown.sheet_name("''") == "Sheet"


def test_a_sheet_name_taken_in_any_case_gets_a_number_within_31_characters() -> None:
    assert shown.sheet_name("games", ["Games"]) == "games (2)"
    assert shown.sheet_name("x" * 31, ["x" * 31, "x" * 27 + " (2)"]) == "x" * 27 + " (3)"


def test_a_header_shown_for_two_columns_gets_the_column_name() -> None:
    with i18n.speaking("zh-Hans"):
        assert shown.header_row("Games", ["player", "player"]) == ("棋手 (player)", "棋手 (player)")
