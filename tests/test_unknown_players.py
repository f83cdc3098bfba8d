"""Names that name nobody (docs/rules.md ("Names that name nobody")): placeholders such as ``Black``, ``黑``
or ``?``, and names that lost their bytes in decoding, give their side no player and their game the reason
``unknown_player``, through the audit, the rating and the reports. Every record here is made by hand."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import CHECKER, check_output
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

runner = CliRunner()


def run(tmp_path: Path, validity: str = "", roster: str | None = None) -> pd.DataFrame:
    """`ratings run` on tmp_path/raw (a config with ``validity`` and ``roster``); games.parquet read back."""
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    if roster is not None:
        (config / "roster.toml").write_text(roster, encoding="utf-8")
    (config / "ratings.toml").write_text(
        f'[run]\nroster = "{"roster.toml" if roster is not None else ""}"\nevents = ""\n'
        f"[validity]\n{validity}\n",
        encoding="utf-8",
    )
    args = ["run", "--config", str(config / "ratings.toml"), "--raw", str(tmp_path / "raw")]
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "out"), "--workers", "1"])
    assert result.exit_code == 0, result.output
    return pd.read_parquet(tmp_path / "out" / "games.parquet")


def put(write, path: str, black: str, white: str, result: str | None = "B+R", **kwargs) -> None:
    write(path, sgf(black, white, result, **kwargs).encode())


def row(games: pd.DataFrame, path: str) -> pd.Series:
    found = games[games["source_path"] == path]
    assert len(found) == 1, found
    return found.iloc[0]


def values(found: pd.Series, *columns: str) -> tuple[object, ...]:
    """The values of ``columns`` in ``found``, a missing one as None."""
    return tuple(None if pd.isna(found[c]) else found[c] for c in columns)


def reasons(games: pd.DataFrame, path: str) -> list[str]:
    return list(row(games, path)["reasons"])


PLACEHOLDERS = [
    "Black",
    "white",
    "BLACK",
    "\uff22\uff4c\uff41\uff43\uff4b",  # full-width Black
    "  Black\u3000",
    "黑",
    "白",
    "黒",
    "黑方",
    "白方",
    "黑棋",
    "白棋",
    "先手",
    "後手",
    "后手",
    "흑",
    "백",
    "?",
    "-",
    "Unknown",
    "anonymous",
]


@pytest.mark.parametrize("name", PLACEHOLDERS)
def test_a_placeholder_name_gives_the_game_the_reason_unknown_player(
    name: str, write, tmp_path: Path
) -> None:
    put(write, "g.sgf", name, "b")
    assert reasons(run(tmp_path), "g.sgf") == ["unknown_player"]


def test_a_placeholder_side_has_no_player_and_its_name_as_written_stays_in_raw(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", " White ")
    found = row(run(tmp_path), "g.sgf")
    assert values(found, "white", "white_player", "white_raw") == (None, None, "White")


def test_the_other_side_of_a_placeholder_keeps_its_player(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "黑", "b")
    found = row(run(tmp_path), "g.sgf")
    assert values(found, "white", "white_player", "white_raw") == ("b", "b", None)


def test_a_placeholder_with_a_rank_in_it_keeps_the_whole_name_as_written(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "Black 3d", "b")
    found = row(run(tmp_path), "g.sgf")
    assert values(found, "black", "black_raw", "black_rank") == (None, "Black 3d", "3d")


@pytest.mark.parametrize(
    "data",
    [
        b"(;CA[UTF-8]PB[\xe6\x9d\x8e\xe6]PW[\xe7\x8e\x8b\xe4\xba\x94]DT[2024-05-01]RE[B+R]TM[3600];B[aa];W[bb];B[cc])",
        "(;CA[UTF-8]PB[李\ufffd\ufffd]PW[b]DT[2024-05-01]RE[B+R]TM[3600];B[aa];W[bb];B[cc])".encode(),
        b"(;CA[UTF-8]PB[???]PW[b]DT[2024-05-01]RE[B+R]TM[3600];B[aa];W[bb];B[cc])",
        "(;CA[UTF-8]PB[寮犱笁涓?]PW[b]DT[2024-05-01]RE[B+R]TM[3600];B[aa];W[bb];B[cc])".encode(),
    ],
    ids=["cut-mid-character", "replacement-characters", "question-marks-only", "lossy-mojibake"],
)
def test_a_name_that_could_not_be_decoded_is_unknown_player(data: bytes, write, tmp_path: Path) -> None:
    write("g.sgf", data)
    assert reasons(run(tmp_path), "g.sgf") == ["unknown_player"]


@pytest.mark.parametrize("name", ["李?", "Lee?", "José?", "Blackie", "白石", "黑猫", "Black Cat"])
def test_a_name_that_only_looks_like_a_placeholder_is_a_player(name: str, write, tmp_path: Path) -> None:
    put(write, "g.sgf", name, "b")
    assert reasons(run(tmp_path), "g.sgf") == []


def test_a_roster_player_named_like_a_placeholder_is_a_player(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "黑", "b")
    roster = '[[player]]\nname = "黑"\n\n[[player]]\nname = "b"\n'
    found = row(run(tmp_path, roster=roster), "g.sgf")
    assert (list(found["reasons"]), found["black_player"]) == ([], "黑")


def test_a_roster_alias_spelled_like_a_placeholder_names_its_player(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "Anonymous", "b")
    roster = '[[player]]\nname = "Anon Li"\naliases = ["anonymous"]\n\n[[player]]\nname = "b"\n'
    found = row(run(tmp_path, roster=roster), "g.sgf")
    assert (list(found["reasons"]), found["black_player"]) == ([], "Anon Li")


def test_placeholder_names_replaces_the_list(write, tmp_path: Path) -> None:
    put(write, "black.sgf", "Black", "b")
    put(write, "nobody.sgf", "Nobody", "b", seed=1)
    games = run(tmp_path, validity='placeholder_names = ["nobody"]')
    assert (reasons(games, "black.sgf"), reasons(games, "nobody.sgf")) == ([], ["unknown_player"])


def test_an_empty_placeholder_list_still_finds_undecodable_names(write, tmp_path: Path) -> None:
    put(write, "black.sgf", "Black", "b")
    put(write, "lost.sgf", "???", "b", seed=1)
    games = run(tmp_path, validity="placeholder_names = []")
    assert (reasons(games, "black.sgf"), reasons(games, "lost.sgf")) == ([], ["unknown_player"])


def test_unknown_player_is_listed_with_the_other_reasons_that_apply(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "Black", "b", "Draw", date=None, handicap=3)
    assert reasons(run(tmp_path), "g.sgf") == ["missing_date", "draw", "handicap", "unknown_player"]


def test_two_placeholder_sides_are_neither_non_members_nor_self_play(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "Black", "White")
    roster = '[[player]]\nname = "a"\n'
    assert reasons(run(tmp_path, roster=roster), "g.sgf") == ["unknown_player"]


def test_a_copy_of_a_placeholder_game_is_not_a_duplicate(write, tmp_path: Path) -> None:
    put(write, "one.sgf", "Black", "b")
    put(write, "two.sgf", "Black", "b")
    games = run(tmp_path)
    assert (reasons(games, "one.sgf"), reasons(games, "two.sgf")) == (["unknown_player"], ["unknown_player"])


def test_a_placeholder_beside_a_missing_name_is_a_parse_error_naming_the_missing_one(
    write, tmp_path: Path
) -> None:
    write("g.sgf", b"(;PB[Black]DT[2024-05-01]RE[B+R];B[aa];W[bb];B[cc])")
    found = row(run(tmp_path), "g.sgf")
    assert (list(found["reasons"]), found["parse_error"], found["black_raw"]) == (
        ["parse_error"],
        "no player name for White: PW is missing or empty",
        "Black",
    )


def test_a_game_against_a_placeholder_rates_nobody(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "Black")
    put(write, "h.sgf", "a", "b", "W+R", seed=1)
    run(tmp_path)
    changes = pd.read_parquet(tmp_path / "out" / "changes")
    assert sorted(changes["game_id"].map(len).tolist()) == [16, 16] and set(changes["opponent"]) == {"a", "b"}


def test_the_audit_lists_unknown_player_games_by_their_reason(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "Black")
    put(write, "h.sgf", "a", "b", seed=1)
    run(tmp_path)
    args = ["audit", "--reason", "unknown_player", "--format", "csv", "--out", str(tmp_path / "out")]
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and result.output.count("unknown_player") == 1, result.output


def test_the_audit_table_shows_an_unknown_player_game(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "Black")
    run(tmp_path)
    result = runner.invoke(app, ["audit", "--wide", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0 and "unknown_player" in result.output, result.output


@pytest.mark.slow
def test_the_site_has_no_page_for_a_placeholder(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "Black")
    put(write, "h.sgf", "a", "b", seed=1)
    run(tmp_path)
    result = runner.invoke(app, ["site", str(tmp_path / "site"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    pages = {p.name.split("-")[0] for p in (tmp_path / "site" / "players").glob("*.html")}
    assert pages == {"a", "b"}


@pytest.mark.slow
def test_the_workbook_is_written_with_a_placeholder_game(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "a", "Black")
    run(tmp_path)
    book = tmp_path / "ratings.xlsx"
    result = runner.invoke(app, ["export", "--xlsx", str(book), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0 and book.is_file(), result.output


def test_a_new_placeholder_list_audits_the_kept_periods_again(write, tmp_path: Path) -> None:
    put(write, "g.sgf", "黑", "b")
    first = run(tmp_path)
    again = run(tmp_path, validity='placeholder_names = ["Black"]')  # the same output folder: a later run
    assert (reasons(first, "g.sgf"), reasons(again, "g.sgf")) == (["unknown_player"], [])


@pytest.mark.skipif(not CHECKER.is_file(), reason=f"the output contract checker is not at {CHECKER}")
def test_an_output_with_an_unknown_player_holds_the_contract_as_its_checker_states(write, tmp_path) -> None:
    put(write, "g.sgf", "a", "Black")
    run(tmp_path)
    code, said = check_output(tmp_path / "out")
    assert (code, "unknown_player" in said) == (0, True)
