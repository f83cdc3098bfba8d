"""Who is the same player (pipeline/reports/identity, `ratings players`): each kind of evidence on a small
games table, pairs that met marked against and never grouped, the roster snippet read back by the roster
loader, and the command end to end on the sample and on a copy with a late record."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from seasons import rate
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config.roster import Player, Roster, load_roster
from pipeline.reports import identity

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
MONDAY = dt.date(2024, 5, 6)


def game(black: str, white: str, week: int = 0, black_rank: str | None = None, white_rank: str | None = None):
    """One record's row: names as written, canonical as a run without a roster gives them."""
    return (black, white, MONDAY + dt.timedelta(weeks=week), black_rank, white_rank)


def table(*rows: tuple[Any, ...], roster: Roster | None = None) -> pd.DataFrame:
    """A games table with the columns identity reads (canonical names through ``roster``)."""
    resolve = (roster or Roster()).resolve
    return pd.DataFrame(
        {
            "game_id": [f"g{i}" for i in range(len(rows))],
            "date": [r[2] for r in rows],
            "counted": True,
            "black": [r[0] for r in rows],
            "white": [r[1] for r in rows],
            "black_player": [resolve(r[0]) for r in rows],
            "white_player": [resolve(r[1]) for r in rows],
            "black_rank": [r[3] for r in rows],
            "white_rank": [r[4] for r in rows],
        }
    )


def pair(found: identity.Suggestions, a: str, b: str) -> dict[str, Any] | None:
    """The suggested pair of ``a`` and ``b`` (either order), or None."""
    rows = found.pairs[
        ((found.pairs["a"] == a) & (found.pairs["b"] == b))
        | ((found.pairs["a"] == b) & (found.pairs["b"] == a))
    ]
    return None if rows.empty else {str(k): v for k, v in rows.iloc[0].items()}


def kinds_of(*rows: tuple[Any, ...], a: str, b: str) -> list[str]:
    found = pair(identity.suggest_games(table(*rows), list_score=0.0, min_score=0.0), a, b)
    return [] if found is None else list(found["kinds"])


@pytest.mark.slow
def test_full_width_and_case_are_the_same_name() -> None:
    kinds = kinds_of(game("Ｆｉｓｈ", "甲"), game("fish", "乙"), a="Fish", b="fish")
    assert kinds[0] == "case_width"


@pytest.mark.slow
def test_traditional_and_simplified_chinese_are_the_same_name() -> None:
    assert kinds_of(game("李昌鎬", "甲"), game("李昌镐", "乙"), a="李昌鎬", b="李昌镐")[0] == "script"


def test_a_romanisation_appended_to_a_cjk_name_is_a_tail() -> None:
    assert (
        kinds_of(game("李昌镐leechanghoo", "甲"), game("李昌鎬", "乙"), a="李昌镐leechanghoo", b="李昌鎬")[0]
        == "tail"
    )


@pytest.mark.slow
def test_a_country_code_after_a_name_is_a_tail() -> None:
    assert kinds_of(
        game("Lee Sedol (KOR)", "甲"), game("Lee Sedol", "乙"), a="Lee Sedol (KOR)", b="Lee Sedol"
    )[0] == ("tail")
    assert (
        kinds_of(game("Lee Sedol KOR", "甲"), game("lee-sedol", "乙"), a="Lee Sedol KOR", b="lee-sedol")[0]
        == "tail"
    )


@pytest.mark.slow
def test_a_nickname_in_brackets_beside_the_name_is_a_nickname() -> None:
    assert kinds_of(game("Kim[tiger]", "甲"), game("tiger", "乙"), a="Kim[tiger]", b="tiger")[0] == "nickname"
    assert (
        kinds_of(
            game("GnuGo (GNU Go 3.1.27)", "甲"), game("GnuGo", "乙"), a="GnuGo", b="GnuGo (GNU Go 3.1.27)"
        )[0]
        == "nickname"
    )


@pytest.mark.slow
def test_the_pinyin_of_a_chinese_name_is_a_romanisation() -> None:
    assert kinds_of(game("牛蛙", "甲"), game("niuwa", "乙"), a="niuwa", b="牛蛙")[0] == "romanisation"


@pytest.mark.slow
def test_unrelated_names_are_no_pair() -> None:
    assert kinds_of(game("李昌镐", "甲"), game("fish", "乙"), a="fish", b="李昌镐") == []


@pytest.mark.slow
def test_the_same_opponents_in_the_same_weeks_without_meeting_is_evidence() -> None:
    rows = [game(p, o, week) for week in (0, 1, 2) for p in ("阿甲", "阿乙") for o in ("丙", "丁")]
    assert kinds_of(*rows, a="阿乙", b="阿甲") == ["co_opponents"]


def test_team_mates_of_one_week_are_no_pair() -> None:
    rows = [game(p, o) for p in ("阿甲", "阿乙") for o in ("丙", "丁")]  # one team match: one week
    assert kinds_of(*rows, a="阿乙", b="阿甲") == []


def _rank_pair(black_rank: str | None, white_rank: str | None) -> dict[str, Any]:
    rows = (game("fish", "甲", 0, black_rank), game("Fish", "乙", 0, white_rank))
    found = pair(identity.suggest_games(table(*rows)), "Fish", "fish")
    assert found is not None
    return found


@pytest.mark.slow
def test_the_same_declared_rank_adds_to_the_score() -> None:
    same, unknown = _rank_pair("3d", "3d"), _rank_pair(None, None)
    assert "same_rank" in same["kinds"] and same["score"] > unknown["score"]


@pytest.mark.slow
def test_different_declared_ranks_lower_the_score() -> None:
    other, unknown = _rank_pair("3d", "1k"), _rank_pair(None, None)
    assert "ranks_differ" in other["kinds"] and other["score"] < unknown["score"]


@pytest.mark.slow
def test_players_who_played_each_other_are_marked_against_and_not_grouped() -> None:
    found = identity.suggest_games(table(game("fish", "Fish"), game("fish", "甲")))
    met = pair(found, "Fish", "fish")
    assert met is not None and met["score"] == 0 and "met" in met["kinds"] and met["against"]
    assert met["group"] == 0 and found.groups == ()
    assert "[[player]]" not in identity.roster_snippet(found, None, "out")


def test_a_crowded_key_is_reported_not_paired() -> None:
    rows = [game(f"Bot ({i})", f"甲{i}") for i in range(3)] + [game("Bot", "乙")]
    found = identity.suggest_games(table(*rows), max_bucket=2)
    assert list(found.skipped["key"]) == ["bot"]
    assert pair(found, "Bot", "Bot (1)") is None


@pytest.mark.slow
def test_the_snippet_is_read_by_the_roster_loader(tmp_path: Path) -> None:
    rows = [
        game("Ｆｉｓｈ", "甲", 0, "3d"),
        game("fish", "乙", 1, "3d"),
        game("fish", "丙", 2),
        game("李昌鎬", "丙"),
        game("李昌镐", "丁"),
    ]
    found = identity.suggest_games(table(*rows))
    path = tmp_path / "snippet.toml"
    path.write_text(identity.roster_snippet(found, None, "out"), encoding="utf-8")
    loaded = load_roster(path)
    # the name kept is the one with more records; Fish differs from it in case only: no alias needed
    assert {p.name: p.aliases for p in loaded.players} == {"fish": (), "李昌鎬": ("李昌镐",)}
    assert all(p.member for p in loaded.players)  # no roster: everyone was a member


def test_the_snippet_repeats_a_roster_entry_with_the_new_aliases(tmp_path: Path) -> None:
    roster = Roster((Player("fish", ("FishGo",), rank="3d", ratings={"club": 100.0}),))
    found = identity.suggest_games(table(game("fish", "甲"), game("Fish (CHN)", "乙"), roster=roster), roster)
    path = tmp_path / "snippet.toml"
    path.write_text(identity.roster_snippet(found, roster, "out"), encoding="utf-8")
    (entry,) = load_roster(path).players
    assert (entry.name, entry.aliases, entry.rank, dict(entry.ratings)) == (
        "fish",
        ("FishGo", "Fish (CHN)"),
        "3d",
        {"club": 100.0},
    )


def test_a_group_outside_the_roster_stays_non_members(tmp_path: Path) -> None:
    roster = Roster((Player("甲"),))
    found = identity.suggest_games(
        table(game("李昌鎬", "甲"), game("李昌镐", "甲", 1), roster=roster), roster
    )
    path = tmp_path / "snippet.toml"
    path.write_text(identity.roster_snippet(found, roster, "out"), encoding="utf-8")
    assert [(p.name, p.member) for p in load_roster(path).players] == [("李昌鎬", False)]


def test_players_lists_games_dates_ranks_and_spellings() -> None:
    roster = Roster((Player("fish", ("FishGo",), rank="3d"),))
    rows = [game("fish", "甲", 0, "3d"), game("FishGo", "乙", 2, "2d")]
    listed = identity.records.players(identity.records.appearances(table(*rows, roster=roster)), roster)
    fish = listed.set_index("player").loc["fish"]
    assert (fish["games"], fish["first"], fish["last"]) == (2, MONDAY, MONDAY + dt.timedelta(weeks=2))
    assert (fish["ranks"], fish["roster_rank"], fish["spellings"]) == (["2d", "3d"], "3d", ["FishGo", "fish"])


def test_players_command_has_help_with_suggest() -> None:
    result = runner.invoke(app, ["players", "--help"])
    assert result.exit_code == 0 and "--suggest" in result.output and "--snippet" in result.output


def test_snippet_without_suggest_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["players", "--snippet", str(tmp_path / "s.toml"), "--out", str(tmp_path)])
    assert result.exit_code == 2 and "--suggest" in result.output


# End to end: the shipped sample, rated with its configuration, and without its roster.


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sample rated with config/ (roster and all) and with the same configuration but no roster."""
    tmp = tmp_path_factory.mktemp("identity")
    shutil.copytree(ROOT / "data" / "raw", tmp / "raw")
    shutil.copytree(ROOT / "config", tmp / "cfg")
    text = (tmp / "cfg" / "ratings.toml").read_text(encoding="utf-8")
    (tmp / "cfg" / "bare.toml").write_text(
        text.replace("[run]\n", '[run]\nroster = ""\n', 1), encoding="utf-8"
    )
    rate(tmp / "raw", tmp / "cfg" / "ratings.toml", tmp / "out")
    rate(tmp / "raw", tmp / "cfg" / "bare.toml", tmp / "bare")
    return {"tmp": tmp, "config": tmp / "cfg" / "ratings.toml", "bare": tmp / "cfg" / "bare.toml"}


def _players(out: Path, config: Path, *args: str) -> Any:
    result = runner.invoke(app, ["players", *args, "--out", str(out), "--config", str(config)])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.slow
def test_sample_players_show_the_roster_spellings(sample: dict[str, Path]) -> None:
    listed = json.loads(_players(sample["tmp"] / "out", sample["config"], "--format", "json"))
    fish = next(p for p in listed if p["player"] == "fish")
    assert fish["spellings"] == ["Fish", "FishGo", "fish"] and fish["roster_rank"] == "3d"


@pytest.mark.slow
def test_sample_without_roster_suggests_fish_and_marks_niuwa_against(sample: dict[str, Path]) -> None:
    snippet = sample["tmp"] / "bare-snippet.toml"
    _players(sample["tmp"] / "bare", sample["bare"], "--suggest", "--snippet", str(snippet))
    entries = {p.name: p.aliases for p in load_roster(snippet).players}
    assert entries == {"fish": ()}  # Fish is the same name to the roster: no alias needed
    pairs = json.loads(_players(sample["tmp"] / "bare", sample["bare"], "--suggest", "--format", "json"))
    niuwa = next(p for p in pairs if {p["a"], p["b"]} == {"niuwa", "牛蛙"})
    assert niuwa["score"] == 0 and "met" in niuwa["kinds"]  # the July record 牛蛙 vs niuwa


@pytest.mark.slow
def test_sample_with_a_late_record_suggests_its_new_spelling(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "data" / "raw", tmp_path / "raw")
    shutil.copytree(ROOT / "config", tmp_path / "cfg")
    config, out = tmp_path / "cfg" / "ratings.toml", tmp_path / "out"
    rate(tmp_path / "raw", config, out)
    late = sgf("李昌鎬", "阿扬", "B+R", "2024-05-20", black_rank="9d", white_rank="4d", seed=91)
    (tmp_path / "raw" / "2024-05" / "late-1.sgf").write_text(late, encoding="utf-8")
    late = sgf("凝兰", "李昌镐leechanghoo", "W+R", "2024-05-27", black_rank="5k", white_rank="9d", seed=92)
    (tmp_path / "raw" / "2024-05" / "late-2.sgf").write_text(late, encoding="utf-8")
    rate(tmp_path / "raw", config, out)
    snippet, roster = tmp_path / "snippet.toml", (tmp_path / "cfg" / "roster.toml").read_bytes()
    output = _players(out, config, "--suggest", "--snippet", str(snippet))
    assert (tmp_path / "cfg" / "roster.toml").read_bytes() == roster  # never merged by itself
    assert "李昌镐leechanghoo" in output and "9d" in output
    assert {p.name: p.aliases for p in load_roster(snippet).players} == {"李昌鎬": ("李昌镐leechanghoo",)}
