"""`ratings audit` and `ratings show`, through the command line, on the output of `ratings run`.

The corpus (club rule set, roster 羽焰 1d alias YuYan, 凝兰 5k, 二黑 2d; one team-match event):

    a  2024-05-01 slow  yuyan (B) beats 凝兰    羽焰 +1 x 0.1 x 10 = +1; 凝兰 -0.1 x 10 = -1
    b  2024-05-02 slow  羽焰 vs 凝兰 draw       excluded: draw
    c  2024-06-02 fast  羽焰 loses to 二黑 (team match)
                        羽焰 (101, still 1d) -1 x 5 = -5; 二黑 +1 x 5 = +5, +10 team match win = +15
    d  2024-06-03 slow  凝兰 (9: below 5k) beats 二黑 (2d, coefficient 2)
                        凝兰 +2 x 10 = +20; 二黑 -2 x 10 = -20
    e  broken.sgf       empty file: excluded, parse_error

May ends 羽焰 100 + 1 = 101, 凝兰 10 - 1 = 9. June ends 二黑 200 + 15 - 20 = 195, 羽焰 101 - 5 = 96,
凝兰 9 + 20 = 29.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from rosters import TEAM_MATCH, roster
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

runner = CliRunner()
ROSTER = roster("羽焰", "凝兰", "二黑")
EVENTS = TEAM_MATCH
GAMES: dict[str, str | bytes] = {
    "a.sgf": sgf("yuyan", "凝兰", "B+R", "2024-05-01"),
    "b.sgf": sgf("羽焰", "凝兰", "0", "2024-05-02"),
    "c.sgf": sgf("羽焰", "二黑", "W+R", "2024-06-02", slow=False, event="飞扬对弈林 第1轮"),
    "d.sgf": sgf("凝兰", "二黑", "B+R", "2024-06-03"),
}


def _run(folder: Path, games: dict[str, str | bytes]) -> Path:
    """Write ``games`` and the configuration under ``folder``, run the pipeline, return the output."""
    (folder / "raw").mkdir()
    for name, data in games.items():
        (folder / "raw" / name).write_bytes(data.encode() if isinstance(data, str) else data)
    (folder / "roster.toml").write_text(ROSTER, encoding="utf-8")
    (folder / "events.toml").write_text(EVENTS, encoding="utf-8")
    config = folder / "ratings.toml"
    config.write_text('[run]\nrule_set = "club"\nroster = "roster.toml"\nevents = "events.toml"\n')
    out = folder / "out"
    args = ["run", "--config", str(config), "--raw", str(folder / "raw"), "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus above, run once for the module (the tests only read it)."""
    return _run(tmp_path_factory.mktemp("reports"), {**GAMES, "broken.sgf": b""})


def invoke(*args: str) -> tuple[int, str]:
    """Run ``ratings args`` on a wide terminal (so table cells do not wrap); exit code and output."""
    result = runner.invoke(app, list(args), env={"COLUMNS": "250"})
    return result.exit_code, result.output


def rows(output: str) -> list[dict[str, str]]:
    """The body rows of the rich table in ``output``: header -> cell text (lines of a cell joined by \\n).

    A line whose first key column (``counted`` for audit, ``place`` for show) is empty continues the row
    above it."""
    header = next(line for line in output.splitlines() if line.startswith("┃"))
    names = [c.strip() for c in header.split("┃")[1:-1]]
    key = "counted" if "counted" in names else "place"
    found: list[dict[str, str]] = []
    for line in output.splitlines():
        if not line.startswith("│"):
            continue
        cells = dict(zip(names, (c.strip() for c in line.split("│")[1:-1]), strict=True))
        if cells[key] or not found:
            found.append(cells)
        else:
            for name, text in cells.items():
                if text:
                    found[-1][name] = f"{found[-1][name]}\n{text}".strip("\n")
    return found


# --- audit ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_audit_lists_every_record_and_ends_with_the_count(out: Path) -> None:
    code, output = invoke("audit", "--out", str(out))
    assert code == 0, output
    assert len(rows(output)) == 5
    assert output.strip().splitlines()[-1] == "5 games, 3 counted"  # a, c, d counted; b, broken not


def test_audit_player_finds_an_alias_in_any_case_and_width(out: Path) -> None:
    code, output = invoke("audit", "--out", str(out), "--player", "ＹＵＹＡＮ")
    assert code == 0, output
    # a spells 羽焰 "yuyan", b and c spell "羽焰": all three are 羽焰's; d (凝兰 vs 二黑) is not
    assert [(r["black"], r["white"], r["date"]) for r in rows(output)] == [
        ("羽焰", "凝兰", "2024-05-01"),
        ("羽焰", "凝兰", "2024-05-02"),
        ("羽焰", "二黑", "2024-06-02"),
    ]


def test_audit_period_keeps_only_that_periods_games(out: Path) -> None:
    code, output = invoke("audit", "--out", str(out), "--period", "2024-06")
    assert code == 0, output
    assert [r["date"] for r in rows(output)] == ["2024-06-02", "2024-06-03"]
    assert output.strip().splitlines()[-1] == "2 games, 2 counted"


def test_audit_reason_keeps_only_games_the_rule_applies_to(out: Path) -> None:
    code, output = invoke("audit", "--out", str(out), "--reason", "draw")
    assert code == 0, output
    assert [(r["date"], r["result"]) for r in rows(output)] == [("2024-05-02", "0")]


def test_audit_counted_game_shows_points_for_both_players(out: Path) -> None:
    code, output = invoke("audit", "--out", str(out), "--period", "2024-05", "--player", "凝兰")
    assert code == 0, output
    game = rows(output)[0]
    assert game["counted"] == "yes"
    # 羽焰 wins against a 5k: +0.1 x 10 = +1; 凝兰 loses: -0.1 x 10 = -1
    assert game["points"].splitlines() == ["羽焰 +1", "凝兰 -1"]


def test_audit_shows_a_bonus_with_its_rule(out: Path) -> None:
    code, output = invoke("audit", "--out", str(out), "--period", "2024-06", "--player", "羽焰")
    assert code == 0, output
    game = rows(output)[0]
    assert game["event/stage"] == "飞扬-弈林对抗赛 / main"
    # 羽焰 loses: -1 x 5 = -5; 二黑 wins: +1 x 5 = +5, plus 10 for a team-match win = +15
    assert game["points"].splitlines() == ["羽焰 -5", "二黑 +15 (+10 team match win)"]


def test_audit_excluded_game_shows_its_reasons_and_no_points(out: Path) -> None:
    code, output = invoke("audit", "--out", str(out), "--reason", "draw")
    assert code == 0, output
    game = rows(output)[0]
    assert (game["counted"], game["reasons"], game["points"]) == ("no", "draw", "")


def test_audit_unparsable_record_names_the_error_and_its_file(out: Path) -> None:
    code, output = invoke("audit", "--out", str(out), "--reason", "parse_error")
    assert code == 0, output
    (game,) = rows(output)
    assert game["counted"] == "no"
    assert game["reasons"].startswith("parse_error: ") and game["reasons"].endswith("(broken.sgf)")


def test_audit_unknown_reason_exits_2_listing_the_codes(out: Path) -> None:
    code, output = invoke("audit", "--out", str(out), "--reason", "drawn")
    assert code == 2
    assert "'drawn'" in output and "no_show" in output and "opponent_cap" in output


def test_audit_unknown_period_exits_2_listing_the_periods(out: Path) -> None:
    code, output = invoke("audit", "--out", str(out), "--period", "2024-07")
    assert code == 2
    assert "'2024-07'" in output and "2024-05, 2024-06" in output


def test_audit_unknown_player_exits_2_naming_them(out: Path) -> None:
    code, output = invoke("audit", "--out", str(out), "--player", "牛蛙")
    assert code == 2
    assert "'牛蛙'" in output


@pytest.mark.slow
def test_audit_marks_a_speed_assumed_for_a_record_without_time_control(tmp_path: Path) -> None:
    out = _run(tmp_path, {"a.sgf": sgf("羽焰", "凝兰", "B+R", tm=-1)})
    code, output = invoke("audit", "--out", str(out))
    assert code == 0, output
    (game,) = rows(output)
    assert game["speed"] == "fast (assumed)"  # the club default for an unknown time control
    assert game["reasons"] == "note: speed_unknown"
    # fast game points 5: 羽焰 beats a 5k, +0.1 x 5 = +0.5; 凝兰 loses, -0.1 x 5 = -0.5
    assert game["points"].splitlines() == ["羽焰 +0.5", "凝兰 -0.5"]


# --- show ----------------------------------------------------------------------------------------


def test_show_defaults_to_the_latest_period_ordered_by_rating(out: Path) -> None:
    code, output = invoke("show", "--out", str(out))
    assert code == 0, output
    assert "2024-06" in output.splitlines()[0]
    # June: 二黑 200 + 15 - 20 = 195, 羽焰 101 - 5 = 96, 凝兰 9 + 20 = 29
    assert [(r["place"], r["player"], r["rating"]) for r in rows(output)] == [
        ("1", "二黑", "195"),
        ("2", "羽焰", "96"),
        ("3", "凝兰", "29"),
    ]


def test_show_top_limits_the_rows(out: Path) -> None:
    code, output = invoke("show", "--out", str(out), "--period", "2024-05", "--top", "1")
    assert code == 0, output
    # May: 羽焰 100 + 1 = 101 before 凝兰 10 - 1 = 9
    assert [(r["player"], r["rating"], r["delta"]) for r in rows(output)] == [("羽焰", "101", "+1")]


def test_show_has_a_bonus_column_only_when_someone_has_a_bonus(out: Path) -> None:
    may, june = (invoke("show", "--out", str(out), "--period", p)[1] for p in ("2024-05", "2024-06"))
    assert "bonus" not in rows(may)[0]
    assert [r["bonus"] for r in rows(june)] == ["+10", "", ""]  # 二黑's team-match win


def test_show_unknown_period_exits_2_listing_the_periods(out: Path) -> None:
    code, output = invoke("show", "--out", str(out), "--period", "2024-09")
    assert code == 2
    assert "'2024-09'" in output and "2024-05, 2024-06" in output


def test_show_reads_a_month_written_without_its_zero(out: Path) -> None:
    assert invoke("show", "--out", str(out), "--period", "2024-5") == invoke(
        "show", "--out", str(out), "--period", "2024-05"
    )


@pytest.mark.slow
def test_audit_reads_a_period_label_in_another_spelling(out: Path) -> None:
    assert invoke("audit", "--out", str(out), "--period", "2024/6") == invoke(
        "audit", "--out", str(out), "--period", "2024-06"
    )


@pytest.mark.parametrize("command", ["audit", "show"])
def test_missing_output_exits_2_saying_to_run_first(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no data/processed here: the default --out is missing
    code, output = invoke(command)
    assert code == 2
    assert "data/processed" in output and "ratings run" in output


def test_show_reads_what_the_run_wrote(out: Path) -> None:
    _, output = invoke("show", "--out", str(out), "--period", "2024-06")
    written = pd.read_parquet(out / "ratings" / "period=2024-06")
    assert [r["player"] for r in rows(output)] == list(written.sort_values("rating_place")["player"])
