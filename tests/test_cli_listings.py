"""`ratings audit` and `ratings show` as a person and a script see them: tables that fit an 80-column
terminal without cutting a name or a number, every column with --wide, csv and json for scripts, the
audit's filters, and players found by any alias with close names suggested.

The corpus (club rule set; roster 羽焰 1d alias YuYan, which no record uses, 凝兰 5k, 二黑 2d, 欧阳锦绣 3d):

    a  2024-05-01 slow  羽焰 (B) beats 凝兰          羽焰 +0.1 x 10 = +1; 凝兰 -1
    b  2024-05-02 slow  羽焰 vs 凝兰 draw            excluded: draw
    c  2024-05-03 slow  凝兰 vs 二黑, 3 stones        excluded: handicap
    d  2024-06-02 fast  二黑 beats 羽焰 (team match)  羽焰 -1 x 5 = -5; 二黑 +1 x 5 + 10 = +15
    e  2024-06-03 slow  欧阳锦绣 beats 二黑           欧阳锦绣 +2 x 10 = +20; 二黑 -2 x 10 = -20
    broken.sgf          empty: excluded, parse_error
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pandas as pd
import pytest
from rich.cells import cell_len
from rosters import TEAM_MATCH, roster
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

runner = CliRunner()
ROSTER = roster("羽焰", "凝兰", "二黑", "欧阳锦绣")
EVENTS = TEAM_MATCH
GAMES = {
    "a.sgf": sgf("羽焰", "凝兰", "B+R", "2024-05-01", seed=1),
    "b.sgf": sgf("羽焰", "凝兰", "0", "2024-05-02", seed=2),
    "c.sgf": sgf("凝兰", "二黑", "W+R", "2024-05-03", handicap=3, seed=3),
    "d.sgf": sgf("二黑", "羽焰", "B+R", "2024-06-02", slow=False, event="飞扬对弈林 第1轮", seed=4),
    "e.sgf": sgf("欧阳锦绣", "二黑", "B+R", "2024-06-03", seed=5),
}
NAMES = ("羽焰", "凝兰", "二黑", "欧阳锦绣")


@pytest.fixture(scope="module")
def where(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The corpus above, run once: (output folder, configuration)."""
    root = tmp_path_factory.mktemp("listings")
    (root / "raw").mkdir()
    for name, text in GAMES.items():
        (root / "raw" / name).write_text(text, encoding="utf-8")
    (root / "raw" / "broken.sgf").write_bytes(b"")
    (root / "roster.toml").write_text(ROSTER, encoding="utf-8")
    (root / "events.toml").write_text(EVENTS, encoding="utf-8")
    config = root / "ratings.toml"
    config.write_text('[run]\nrule_set = "club"\nroster = "roster.toml"\nevents = "events.toml"\n')
    out = root / "out"
    args = ["run", "--config", str(config), "--raw", str(root / "raw"), "--out", str(out), "--workers", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out, config


def invoke(where: tuple[Path, Path], *args: str, columns: int = 80) -> tuple[int, str]:
    """`ratings args --out OUT --config CONFIG` on a terminal ``columns`` wide: exit code and output."""
    out, config = where
    result = runner.invoke(
        app, [*args, "--out", str(out), "--config", str(config)], env={"COLUMNS": str(columns)}
    )
    return result.exit_code, result.output


def widest(output: str) -> int:
    return max(cell_len(line) for line in output.splitlines())


# --- 80 columns: nothing cut ---------------------------------------------------------------------


@pytest.mark.slow
def test_audit_fits_80_columns_with_every_name_date_and_points_whole(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "audit")
    assert code == 0, output
    assert widest(output) <= 80 and "…" not in output
    for word in (
        *NAMES,
        "2024-05-01",
        "2024-06-03",
        "羽焰 +1",
        "凝兰 -1",
        "二黑 +15",
        "欧阳锦绣 +20",
        "二黑 -20",
    ):
        assert word in output, word


def test_show_fits_80_columns_with_every_name_and_rating_whole(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "show", "--period", "2024-06")
    assert code == 0, output
    assert widest(output) <= 80 and "…" not in output
    # June: 欧阳锦绣 300 + 20 = 320; 二黑 200 + 15 - 20 = 195; 羽焰 101 - 5 = 96; 凝兰 10 - 1 = 9
    for name, rating in (("欧阳锦绣", "320"), ("二黑", "195"), ("羽焰", "96"), ("凝兰", "9")):
        line = next(line for line in output.splitlines() if name in line)
        assert f" {rating} " in line, line


@pytest.mark.slow
def test_show_report_fits_80_columns(tmp_path: Path) -> None:
    raw, out = tmp_path / "raw", tmp_path / "out"
    raw.mkdir()
    for i in range(8):  # docs/rules.md ("cga-dan"): 8 straight wins of a 1d over 1d players -> 2d at the 8th
        text = sgf(
            "欧阳锦绣", f"对手{i}", "B+R", f"2024-05-{i + 1:02d}", black_rank="1d", white_rank="1d", seed=i
        )
        (raw / f"g{i}.sgf").write_text(text, encoding="utf-8")
    config = tmp_path / "ratings.toml"
    config.write_text('[run]\nrule_set = "cga-dan"\nroster = ""\nevents = ""\n', encoding="utf-8")
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--workers", "1"]
    assert runner.invoke(app, args).exit_code == 0
    code, output = invoke((out, config), "show", "--report", "promotions")
    assert code == 0, output
    assert widest(output) <= 80 and "…" not in output
    for word in ("欧阳锦绣", "2024-05-08", "1d", "2d"):
        assert word in output, word


def test_wide_shows_the_columns_a_narrow_terminal_leaves_out(where: tuple[Path, Path]) -> None:
    narrow = invoke(where, "audit")[1]
    code, wide = invoke(where, "audit", "--wide")
    assert code == 0, wide
    assert "d.sgf" not in narrow and "d.sgf" in wide and "source" in wide


def test_audit_shows_a_short_game_id(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "audit", "--period", "2024-06", columns=200)
    assert code == 0, output
    ids = pd.read_parquet(where[0] / "games.parquet", columns=["game_id", "period"])
    for game_id in ids.loc[ids["period"] == "2024-06", "game_id"]:
        assert game_id[:8] in output


# --- csv and json --------------------------------------------------------------------------------


def test_audit_csv_has_every_record_with_its_id_and_source_path(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "audit", "--format", "csv")
    assert code == 0, output
    records = list(csv.DictReader(io.StringIO(output)))
    games = pd.read_parquet(where[0] / "games.parquet", columns=["game_id", "source_path"])
    assert sorted((r["game_id"], r["source_path"]) for r in records) == sorted(
        zip(games["game_id"], games["source_path"], strict=True)
    )
    by_path = {r["source_path"]: r for r in records}
    assert by_path["d.sgf"]["points"] == "二黑 +15 (+10 team match win);羽焰 -5"  # Black first


def test_show_json_keeps_the_ratings_as_written(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "show", "--format", "json", "--period", "2024-06")
    assert code == 0, output
    shown = {r["player"]: r["rating"] for r in json.loads(output)}
    written = pd.read_parquet(where[0] / "ratings" / "period=2024-06")
    assert shown == dict(zip(written["player"], written["rating"], strict=True))


def test_show_report_csv_has_the_tables_rows(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "show", "--report", "promotions", "--format", "csv")
    assert code == 0, output
    header = next(csv.reader(io.StringIO(output)))
    assert header == list(pd.read_parquet(where[0] / "promotions.parquet").columns)


def test_a_table_shows_fractional_values_with_two_decimals() -> None:
    from pipeline.cli.tables import column_texts

    assert column_texts(pd.Series([2493.7, 2506.321234567891, 2400.0])) == ["2493.70", "2506.32", "2400.00"]
    assert column_texts(pd.Series([128.0, 96.0])) == ["128", "96"]
    assert column_texts(pd.Series([5.0, -0.5, 0.0]), signed=True) == ["+5.00", "-0.50", "0"]


# --- audit filters -------------------------------------------------------------------------------


def dates(output: str) -> list[str]:
    return [r["date"] for r in csv.DictReader(io.StringIO(output))]


def test_reason_repeated_keeps_the_games_of_every_reason(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "audit", "--reason", "draw", "--reason", "handicap", "--format", "csv")
    assert code == 0, output
    assert dates(output) == ["2024-05-02", "2024-05-03"]


def test_reason_comma_separated_keeps_the_games_of_every_reason(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "audit", "--reason", "draw,handicap", "--format", "csv")
    assert code == 0, output
    assert dates(output) == ["2024-05-02", "2024-05-03"]


def test_an_unknown_reason_among_several_exits_2_listing_the_codes(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "audit", "--reason", "draw,drawn")
    assert code == 2
    assert "'drawn'" in output and "handicap" in output and "opponent_cap" in output


def test_counted_keeps_only_the_counted_games(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "audit", "--counted", "--format", "csv")
    assert code == 0, output
    assert dates(output) == ["2024-05-01", "2024-06-02", "2024-06-03"]


def test_excluded_keeps_only_the_games_not_counted(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "audit", "--excluded", "--format", "csv")
    assert code == 0, output
    records = list(csv.DictReader(io.StringIO(output)))
    assert sorted(r["source_path"] for r in records) == ["b.sgf", "broken.sgf", "c.sgf"]


# --- players -------------------------------------------------------------------------------------


def test_audit_finds_a_player_by_a_roster_alias_no_record_uses(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "audit", "--player", "yuyan", "--format", "csv")
    assert code == 0, output
    assert dates(output) == ["2024-05-01", "2024-05-02", "2024-06-02"]


def test_audit_of_an_unknown_player_suggests_close_names(where: tuple[Path, Path]) -> None:
    code, output = invoke(where, "audit", "--player", "yuyn")
    assert code == 2
    assert "'yuyn'" in output and "did you mean: 羽焰?" in output


def test_resolve_player_is_the_query_apis_one_resolver(where: tuple[Path, Path]) -> None:
    from pipeline.config.roster import load_roster
    from pipeline.reports import UnknownPlayer, resolve_player

    out, config = where
    roster = load_roster(config.parent / "roster.toml")
    assert resolve_player(out, "ＹＵＹＡＮ", roster) == "羽焰"
    with pytest.raises(UnknownPlayer, match="did you mean: 欧阳锦绣"):
        resolve_player(out, "欧阳锦", roster)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_table_printed_in_parts_is_the_table_printed_whole(
    fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from pipeline.cli.common import Format
    from pipeline.cli.tables import print_frames

    first = pd.DataFrame({"player": ["羽焰", "凝兰"], "place": [1, None], "notes": [["a", "b"], []]})
    second = pd.DataFrame({"player": ["二黑"], "place": [3.0], "notes": [["c"]]})
    print_frames([pd.concat([first, second], ignore_index=True)], Format(fmt))
    whole = capsys.readouterr().out
    print_frames([first, second.iloc[:0], second], Format(fmt))
    assert capsys.readouterr().out == whole


def test_a_json_table_of_no_rows_is_an_empty_array(capsys: pytest.CaptureFixture[str]) -> None:
    from pipeline.cli.common import Format
    from pipeline.cli.tables import print_frames

    print_frames([pd.DataFrame({"player": []})], Format.json)
    assert json.loads(capsys.readouterr().out) == []
