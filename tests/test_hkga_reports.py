"""The hkga reports (docs/rules.md ("Fees and certification")): non-members' registration fees (the HKGA
introduction §3.1) and certification eligibility (§9).

The corpus (run once with ``ratings run --rules hkga``; roster: members 甲 丙 丁 戊; 乙 is on no roster):

    2024-01-01 .. 01-10, 02-01 .. 02-10, 03-01 .. 03-05   甲 beats 乙, 25 games (10 + 10 + 5: under the
                                                          per-month opponent cap of 10)
    2025-01-01 .. 01-03                                   甲 beats 乙, 3 games
    2025-01-04                                            乙 wins by 甲's no-show (B+F)
    2024-04-01 .. 04-10                                   戊 beats 丁, 10 games
    2024-05-01 .. 05-09                                   丙 beats 丁, 9 games

Fees (non-members only, so only 乙): 2024: 25 rated games -> 30 + 1 x (25 - 20) = 35.
2025: 3 rated games (the no-show win is not rated for 乙) -> 30.
Valid wins: 甲 25 + 3 = 28 (10th: 2024-01-10); 戊 10 (10th: 2024-04-10); 丙 9; 乙 0 (the no-show win is
not a played game); 丁 0.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config.roster import Player, Roster
from pipeline.rules import hkga_reports
from pipeline.rules.hkga_reports import NO_SHOW_WIN, fee, fee_basis, reports

runner = CliRunner()
ROSTER = "".join(f'[[player]]\nname = "{name}"\nrank = "1d"\n' for name in ("甲", "丙", "丁", "戊"))


def _corpus() -> dict[str, str]:
    days = [f"2024-01-{d:02d}" for d in range(1, 11)] + [f"2024-02-{d:02d}" for d in range(1, 11)]
    days += [f"2024-03-{d:02d}" for d in range(1, 6)] + [f"2025-01-{d:02d}" for d in range(1, 4)]
    games = {f"yi{i:02d}.sgf": sgf("乙", "甲", "W+R", day, seed=i) for i, day in enumerate(days)}
    games["yi_noshow.sgf"] = sgf("乙", "甲", "B+F", "2025-01-04")
    games |= {f"wu{d:02d}.sgf": sgf("戊", "丁", "B+R", f"2024-04-{d:02d}", seed=d) for d in range(1, 11)}
    games |= {f"bing{d}.sgf": sgf("丙", "丁", "B+R", f"2024-05-{d:02d}", seed=d) for d in range(1, 10)}
    return games


def _run(folder: Path, games: dict[str, str], rules: str, out: Path | None = None) -> Path:
    """Write ``games`` and a roster config under ``folder``, run ``--rules rules``, return the output."""
    raw = folder / "raw"
    raw.mkdir(exist_ok=True)
    for name, text in games.items():
        (raw / name).write_text(text, encoding="utf-8")
    (folder / "roster.toml").write_text(ROSTER, encoding="utf-8")
    config = folder / "ratings.toml"
    config.write_text('[run]\nroster = "roster.toml"\nevents = ""\n', encoding="utf-8")
    out = out or folder / "out"
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--rules", rules]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus above under hkga, run once for the module (the tests only read it)."""
    return _run(tmp_path_factory.mktemp("hkga"), _corpus(), "hkga")


def _fees(out: Path) -> list[tuple[str, int, int, int, str]]:
    frame = pd.read_parquet(out / "fees.parquet")
    return list(frame[["player", "year", "rated_games", "fee", "basis"]].itertuples(index=False, name=None))


def _certification(out: Path) -> dict[str, tuple[int, bool, dt.date | None]]:
    frame = pd.read_parquet(out / "certification.parquet")
    return {
        r.player: (
            r.valid_wins,
            bool(r.eligible),
            None if pd.isna(r.first_eligible_date) else r.first_eligible_date.date(),
        )
        for r in frame.itertuples(index=False)
    }


# --- the fee function ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("games", "owed", "basis"),
    [
        (0, 0, "0"),  # no rated game in the year: nothing due
        (1, 30, "30"),  # the $30 year covers games 1-20
        (20, 30, "30"),
        (21, 31, "30 + 1 × 1"),  # game 21 is the first charged $1
        (50, 60, "30 + 1 × 30"),  # 30 + (50 - 20)
        (90, 100, "30 + 1 × 70"),  # 30 + (90 - 20) = the $100 cap
        (91, 100, "30 + 1 × 70 (games 91+ free)"),  # games after the 90th are free
        (150, 100, "30 + 1 × 70 (games 91+ free)"),
    ],
)
def test_fee_follows_the_seed_table_at_its_boundaries(games: int, owed: int, basis: str) -> None:
    assert (fee(games), fee_basis(games)) == (owed, basis)


def test_fee_of_a_negative_game_count_is_an_error() -> None:
    with pytest.raises(ValueError, match="-1"):
        fee(-1)


# --- reports() on a hand-made changes table ----------------------------------------------------------


def _changes(rows: list[tuple[str, str, int, float, str | None]]) -> pa.Table:
    """A changes table of (player, date, seq, score, note) rows: the columns the reports read."""
    names = ("player", "date", "seq", "score", "note")
    data = [dict(zip(names, (p, dt.date.fromisoformat(d), s, sc, n), strict=True)) for p, d, s, sc, n in rows]
    types = (pa.string(), pa.date32(), pa.int64(), pa.float64(), pa.string())
    schema = pa.schema(list(zip(names, types, strict=True)))
    return pa.Table.from_pylist(data, schema=schema)


def test_without_a_roster_everyone_is_a_member_and_the_fees_table_is_empty() -> None:
    changes = _changes([("乙", "2024-01-01", 1, 0.0, None), ("甲", "2024-01-01", 1, 1.0, None)])
    tables = reports(changes, Roster())
    assert tables["fees.parquet"].num_rows == 0
    assert tables["fees.parquet"].schema == hkga_reports.FEES


def test_a_roster_player_marked_not_member_owes_a_fee() -> None:
    roster = Roster((Player("甲"), Player("乙", member=False)))
    changes = _changes([("乙", "2024-01-01", 1, 0.0, None), ("甲", "2024-01-01", 1, 1.0, None)])
    fees = reports(changes, roster)["fees.parquet"].to_pylist()
    assert fees == [{"player": "乙", "year": 2024, "rated_games": 1, "fee": 30, "basis": "30"}]


def test_tenth_valid_win_is_taken_in_date_then_seq_order() -> None:
    # rows given out of order: the 10th win by (date, seq) is seq 10 on 2024-01-02
    rows = [("甲", "2024-01-02", 10 - i, 1.0, None) for i in range(2)]
    rows += [("甲", "2024-01-01", s, 1.0, None) for s in range(8, 0, -1)]
    table = reports(_changes(rows), Roster())["certification.parquet"]
    assert table.to_pylist() == [
        {"player": "甲", "valid_wins": 10, "eligible": True, "first_eligible_date": dt.date(2024, 1, 2)}
    ]
    assert table.schema == hkga_reports.CERTIFICATION


def test_no_show_win_row_is_recognised_by_the_gor_note() -> None:
    rows = [("乙", "2024-01-01", 1, 1.0, NO_SHOW_WIN), ("乙", "2024-01-02", 2, 1.0, None)]
    table = reports(_changes(rows), Roster((Player("甲"),)))
    assert table["certification.parquet"].column("valid_wins").to_pylist() == [1]  # 2 wins - 1 no-show
    assert table["fees.parquet"].column("rated_games").to_pylist() == [1]


# --- through `ratings run --rules hkga` ----------------------------------------------------------------


@pytest.mark.slow
def test_non_member_with_25_rated_games_owes_35(out: Path) -> None:
    # 30 for games 1-20, then 1 x (25 - 20) = 5
    assert _fees(out)[0] == ("乙", 2024, 25, 35, "30 + 1 × 5")


@pytest.mark.slow
def test_games_in_two_years_give_two_fee_rows(out: Path) -> None:
    # 2025: 3 played games (the no-show win is not rated for 乙) -> the $30 year
    assert [(p, y, n, f) for p, y, n, f, _ in _fees(out)] == [("乙", 2024, 25, 35), ("乙", 2025, 3, 30)]


@pytest.mark.slow
def test_members_owe_nothing_and_have_no_fee_row(out: Path) -> None:
    assert {row[0] for row in _fees(out)} == {"乙"}  # 甲 丙 丁 戊 are members


@pytest.mark.slow
def test_nine_valid_wins_are_not_enough_for_certification(out: Path) -> None:
    assert _certification(out)["丙"] == (9, False, None)


@pytest.mark.slow
def test_ten_valid_wins_make_a_player_eligible_on_the_date_of_the_tenth(out: Path) -> None:
    assert _certification(out)["戊"] == (10, True, dt.date(2024, 4, 10))


@pytest.mark.slow
def test_win_by_no_show_is_not_a_valid_win(out: Path) -> None:
    assert _certification(out)["乙"] == (0, False, None)  # its only win: 甲's no-show
    assert _certification(out)["甲"] == (28, True, dt.date(2024, 1, 10))  # 25 + 3; 10th on Jan 10


# --- ratings show --report ------------------------------------------------------------------------------


def invoke(*args: str) -> tuple[int, str]:
    """Run ``ratings args`` on a wide terminal (so table cells do not wrap); exit code and output."""
    result = runner.invoke(app, list(args), env={"COLUMNS": "250"})
    return result.exit_code, result.output


def cells(output: str) -> list[list[str]]:
    """The body rows of the rich table in ``output``, each a list of stripped cell texts."""
    lines = [line for line in output.splitlines() if line.startswith("│")]
    return [[cell.strip() for cell in line.split("│")[1:-1]] for line in lines]


@pytest.mark.slow
def test_show_report_fees_prints_the_fee_rows(out: Path) -> None:
    code, output = invoke("show", "--report", "fees", "--out", str(out))
    assert code == 0, output
    assert cells(output) == [["乙", "2024", "25", "35", "30 + 1 × 5"], ["乙", "2025", "3", "30", "30"]]


@pytest.mark.slow
def test_show_report_certification_prints_eligibility(out: Path) -> None:
    code, output = invoke("show", "--report", "certification", "--out", str(out))
    assert code == 0, output
    by_player = {row[0]: row[1:] for row in cells(output)}
    assert by_player["戊"] == ["10", "yes", "2024-04-10"]
    assert by_player["丙"] == ["9", "no", ""]


@pytest.mark.slow
def test_show_report_of_a_club_run_is_empty_naming_the_rule_set(tmp_path: Path) -> None:
    out = _run(tmp_path, {"a.sgf": sgf("甲", "丙", "B+R", "2024-05-01")}, "club")
    code, output = invoke("show", "--report", "fees", "--out", str(out))
    assert code == 0, output
    assert "0 rows: the run's rule set (club) computes no fees report" in " ".join(output.split())


@pytest.mark.slow
def test_show_report_after_a_club_run_replaced_an_hkga_run_is_empty(tmp_path: Path) -> None:
    games = {"a.sgf": sgf("甲", "乙", "B+R", "2024-05-01")}
    out = _run(tmp_path, games, "hkga")
    assert (out / "fees.parquet").exists()
    _run(tmp_path, games, "club", out)  # fees.parquet is now a link to nothing
    code, output = invoke("show", "--report", "fees", "--out", str(out))
    assert code == 0, output
    assert "0 rows: the run's rule set (club) computes no fees report" in " ".join(output.split())


@pytest.mark.slow
def test_show_report_with_an_unknown_name_exits_2(out: Path) -> None:
    code, output = invoke("show", "--report", "prizes", "--out", str(out))
    assert code == 2
    assert "'prizes'" in output and "certification, fees" in output


@pytest.mark.slow
def test_show_report_with_a_period_exits_2(out: Path) -> None:
    code, output = invoke("show", "--report", "fees", "--period", "2024", "--out", str(out))
    assert code == 2
    assert "--period does not apply" in output
