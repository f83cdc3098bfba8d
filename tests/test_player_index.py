"""The player index (pipeline/output/player_index.py, pipeline/run/indexing.py): its filtered reads give
exactly the rows a full read of the tables filtered in pandas gives, and the answers about one player
(audit, explain, history) are those of the tables read whole, also after an incremental run.

One hand-made season: members with roster aliases, a non-member, a handicap game, a self-play record, a
record without a date, one without a result, an event with a champion (an award); chunks of at most three
records (``CHUNK_RECORDS``), so that it has several.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from conftest import check_output
from index_checks import assert_same_index
from rosters import roster
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline import reports
from pipeline.cli import app
from pipeline.config.roster import load_roster
from pipeline.output import index_writer, player_index, snapshots
from pipeline.reports import explain, player_rows, plots

pytestmark = pytest.mark.slow

runner = CliRunner()
ROSTER = roster("羽焰", "凝兰", "牛蛙", "阿扬", lines={"阿扬": "rating = { club = 300 }"})
EVENTS = '[[event]]\nname = "Cup"\nkind = "server_open"\nchampion = "凝兰"\nends = 2024-04-30\n'
SEASON = [
    ("YuYan", "凝兰", "B+R", "2024-03-03", {}),
    ("牛蛙", "羽焰", "W+3.5", "2024-03-09", {"event": "Cup"}),
    ("凝兰", "牛蛙", "B+R", "2024-04-02", {"event": "Cup"}),
    ("羽焰", "stranger", "B+R", "2024-04-05", {}),
    ("阿扬", "牛蛙", "B+R", "2024-05-20", {}),
    ("羽焰", "凝兰", "W+R", "2024-04-20", {"handicap": 3}),
    ("牛蛙", "牛蛙", "B+R", "2024-05-01", {}),
    ("凝兰", "羽焰", None, "2024-05-11", {}),
    ("羽焰", "牛蛙", "B+R", None, {}),
    ("YuYan", "牛蛙", "W+R", "2024-06-12", {}),
    ("凝兰", "羽焰", "B+R", "2024-06-13", {}),
]
PLAYERS = ("羽焰", "凝兰", "牛蛙", "阿扬", "stranger")
GAMERS = ("羽焰", "凝兰", "牛蛙", "stranger")  # (阿扬, on the roster, played no game)
RATED = ("羽焰", "凝兰", "牛蛙")  # (stranger is no member)


def _write(
    root: Path, season: list[tuple[str, str, str | None, str | None, dict[str, Any]]], first: int = 0
) -> None:
    for i, (black, white, result, date, extra) in enumerate(season, start=first):
        path = root / "raw" / f"g{i:03d}.sgf"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(sgf(black, white, result, date, black_rank="1d", white_rank="2d", seed=i, **extra))


def _run(root: Path, out: str = "out") -> Path:
    config = root / "ratings.toml"
    if not config.exists():
        (root / "roster.toml").write_text(ROSTER, encoding="utf-8")
        (root / "events.toml").write_text(EVENTS, encoding="utf-8")
        config.write_text('[run]\nroster = "roster.toml"\nevents = "events.toml"\n', encoding="utf-8")
    args = ["run", "--config", str(config), "--raw", str(root / "raw"), "--out", str(root / out)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(index_writer, "CHUNK_RECORDS", 3)
        result = runner.invoke(app, [*args, "--workers", "1"])
    assert result.exit_code == 0, result.output
    return root / out


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output folder of the season."""
    root = tmp_path_factory.mktemp("season")
    _write(root, SEASON)
    return _run(root)


def _unindexed(answer: Callable[[], Any]) -> Any:
    """``answer()`` with the index passed over: from the tables read whole."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(player_rows, "index_of", lambda out: None)
        return answer()


def _index(out: Path) -> player_index.PlayerIndex:
    found = player_index.PlayerIndex.of(out)
    assert found is not None
    return found


def _sorted(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    return frame.sort_values(by, kind="stable").reset_index(drop=True)


def test_the_season_has_several_chunks(season: Path) -> None:
    assert len(_index(season).chunks) > 2


@pytest.mark.parametrize("player", GAMERS)
def test_games_read_through_the_index_are_the_players_rows_of_games_parquet(
    season: Path, player: str
) -> None:
    games = pd.read_parquet(season / "games.parquet")
    full = games[(games["black_player"] == player) | (games["white_player"] == player)]
    found = _index(season).rows("games", player).to_pandas()
    columns = list(player_index.SIDE_COLUMNS)
    expected = _sorted(full[columns], ["seq"])
    assert len(found) and (found["player"] == player).all()
    pd.testing.assert_frame_equal(_sorted(found[columns], ["seq"]).astype(expected.dtypes), expected)


@pytest.mark.parametrize("player", GAMERS)
def test_changes_read_through_the_index_are_both_rows_of_the_players_games(season: Path, player: str) -> None:
    changes = pd.read_parquet(season / "changes")
    full = changes[(changes["player"] == player) | (changes["opponent"] == player)]
    columns = [*player_index.CHANGE_COLUMNS, "period"]
    found = _index(season).rows("changes", player).to_pandas()
    expected = _sorted(full[columns].astype({"period": str}), ["seq", "color"])
    assert (found["key"] == player).all()
    pd.testing.assert_frame_equal(_sorted(found[columns], ["seq", "color"]), expected, check_dtype=False)


@pytest.mark.parametrize("player", RATED)
def test_ratings_read_through_the_index_are_the_rows_where_the_player_appears_or_moved(
    season: Path, player: str
) -> None:
    ratings = pd.read_parquet(season / "ratings").astype({"period": str})
    awards = pd.read_parquet(season / "awards").astype({"period": str})
    mine = _sorted(ratings[ratings["player"] == player], ["period"])
    awarded = mine["period"].isin(awards.loc[awards["player"] == player, "period"])
    moved = (mine["games"] > 0) | (mine["delta"] != 0) | (mine["rank"] != mine["rank_before"]) | awarded
    expected = mine[moved | (mine.index == 0)]
    found = _sorted(_index(season).rows("ratings", player).to_pandas(), ["period"])
    assert list(found["period"]) == list(expected["period"]) and len(found)
    assert list(found["moved"]) == list(moved[moved | (mine.index == 0)])
    pd.testing.assert_frame_equal(
        found[list(mine.columns)], expected.reset_index(drop=True), check_dtype=False
    )


def test_every_spelling_finds_its_player_in_the_names(season: Path) -> None:
    from pipeline.config.roster import name_key

    games = pd.read_parquet(season / "games.parquet")
    for side in ("black", "white"):
        for raw, canonical in zip(games[side], games[f"{side}_player"], strict=True):
            if isinstance(canonical, str):
                assert canonical in player_rows.players_of(_index(season), name_key(raw)), raw


@pytest.mark.parametrize("player", [*GAMERS, "yuyan", "ＹｕＹａｎ"])
def test_audit_of_a_player_is_that_of_the_tables_read_whole(season: Path, player: str) -> None:
    roster = load_roster(season.parent / "roster.toml")
    found = reports.audit_games(season, player=player, roster=roster)
    pd.testing.assert_frame_equal(
        found, _unindexed(lambda: reports.audit_games(season, player, roster=roster))
    )
    assert len(found)


@pytest.mark.parametrize("filters", [{"period": "2024-04"}, {"counted": False}, {"reasons": ["handicap"]}])
def test_filtered_audit_of_a_player_is_that_of_the_tables_read_whole(
    season: Path, filters: dict[str, Any]
) -> None:
    found = reports.audit_games(season, player="羽焰", **filters)
    pd.testing.assert_frame_equal(found, _unindexed(lambda: reports.audit_games(season, "羽焰", **filters)))


@pytest.mark.parametrize("player", RATED)
@pytest.mark.parametrize("period", [None, "2024-03", "2024-05", "2024-06"])
def test_explanation_is_that_of_the_tables_read_whole(season: Path, player: str, period: str | None) -> None:
    def answer() -> Any:
        try:
            return explain.explain(season, player, period)
        except reports.ReportError as e:
            return str(e)

    assert answer() == _unindexed(answer)


@pytest.mark.parametrize("player", RATED)
def test_history_is_that_of_the_tables_read_whole(season: Path, player: str) -> None:
    assert plots.history(season, [player]) == _unindexed(lambda: plots.history(season, [player]))


@pytest.mark.parametrize("name", ["nobody", "牛", "stranger"])
def test_unknown_or_unrated_players_are_told_as_by_the_tables_read_whole(season: Path, name: str) -> None:
    def answer() -> str:
        try:
            explain.explain(season, name)
        except reports.ReportError as e:
            return f"{type(e).__name__}: {e}"
        return "explained"

    assert answer() == _unindexed(answer)


def test_an_unreadable_index_file_gives_the_answer_of_the_tables_read_whole(
    season: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "out"
    shutil.copytree(season, copy, symlinks=True)
    generation = snapshots.current(copy)
    assert generation is not None
    for file in (generation / player_index.FOLDER / "games").iterdir():
        file.unlink()
        file.write_bytes(b"not parquet")
    expected = _unindexed(lambda: reports.audit_games(copy, "羽焰"))
    pd.testing.assert_frame_equal(reports.audit_games(copy, "羽焰"), expected)


def test_the_output_with_its_index_passes_check_output(season: Path) -> None:
    assert check_output(season)[0] == 0


@pytest.fixture
def rerun(tmp_path: Path) -> Iterator[tuple[Path, dict[str, int]]]:
    """The season rated, then a record added in its latest month and rated again into the same folder:
    the output and the index files' inode numbers before the second run."""
    _write(tmp_path, SEASON)
    out = _run(tmp_path)
    generation = snapshots.current(out)
    assert generation is not None
    folder = generation / player_index.FOLDER
    before = {p.relative_to(folder).as_posix(): os.stat(p).st_ino for p in folder.rglob("*.parquet")}
    _write(tmp_path, [("牛蛙", "凝兰", "B+R", "2024-06-20", {})], first=len(SEASON))
    _run(tmp_path)
    yield out, before


def test_an_incremental_run_links_the_chunks_before_the_changed_period(
    rerun: tuple[Path, dict[str, int]],
) -> None:
    out, before = rerun
    generation = snapshots.current(out)
    assert generation is not None
    index = _index(out)
    changed = [c.name for c in index.chunks if "2024-06" in c.labels or "undated" in c.labels]
    for kind in player_index.KINDS:
        for chunk in index.chunks:
            inode = os.stat(player_index.path(generation, kind, chunk.name)).st_ino
            assert (inode == before.get(f"{kind}/{chunk.name}.parquet")) == (chunk.name not in changed), chunk


def test_the_index_after_an_incremental_run_is_that_of_a_run_from_scratch(
    rerun: tuple[Path, dict[str, int]],
) -> None:
    out, _ = rerun
    assert_same_index(out, _run(out.parent, "scratch"))


@pytest.fixture(scope="module")
def unindexed(season: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the season's output whose generation has no index (as one written before it existed)."""
    copy = tmp_path_factory.mktemp("unindexed") / "out"
    shutil.copytree(season, copy, symlinks=True)
    generation = snapshots.current(copy)
    assert generation is not None
    shutil.rmtree(generation / player_index.FOLDER)
    assert player_rows.index_of(copy) is None
    return copy


def _told(answer: Callable[[Path], Any], out: Path) -> Any:
    """``answer(out)``, or the error it raised (its kind and message, the folder's path as ``OUT``)."""
    try:
        return answer(out)
    except reports.ReportError as e:
        return f"{type(e).__name__}: {e}".replace(str(out), "OUT")


QUESTIONS: dict[str, Callable[[Path, str], Any]] = {
    "audit": lambda out, player: reports.audit_games(out, player=player),
    "explain": lambda out, player: explain.explain(out, player),
    "history": lambda out, player: plots.history(out, [player]),
}


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("player", PLAYERS)
def test_an_output_without_an_index_answers_as_the_index_does(
    season: Path, unindexed: Path, player: str, question: str
) -> None:
    def asked(out: Path) -> Any:
        return QUESTIONS[question](out, player)

    found, expected = _told(asked, season), _told(asked, unindexed)
    if isinstance(found, pd.DataFrame):
        pd.testing.assert_frame_equal(found, expected)
    else:
        assert found == expected


@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("player", GAMERS)
def test_audit_of_a_player_in_csv_or_json_is_that_of_the_tables_read_whole(
    season: Path, unindexed: Path, player: str, fmt: str
) -> None:
    said = [
        runner.invoke(app, ["audit", "--player", player, "--format", fmt, "--out", str(out)])
        for out in (season, unindexed)
    ]
    assert [s.exit_code for s in said] == [0, 0]
    assert said[0].stdout.replace(str(season), "OUT") == said[1].stdout.replace(str(unindexed), "OUT")
    assert "source_path" in said[0].stdout
