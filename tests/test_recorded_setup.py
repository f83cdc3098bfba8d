"""An output that explains itself: a run records its roster and events beside the manifest, and every
command on ``--out`` alone, from a folder without a configuration, answers as in the run's folder.

The corpus (club rule set; roster 羽焰 1d alias YuYan, which no record uses, 凝兰 5k; one event):

    a  2024-05-01  羽焰 (B) beats 凝兰
    b  2024-05-02  凝兰 (B) beats 羽焰, in the team match
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from rosters import TEAM_MATCH, roster
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

runner = CliRunner()
ROSTER = roster("羽焰", "凝兰")
EVENTS = TEAM_MATCH
GAMES = {
    "a.sgf": sgf("羽焰", "凝兰", "B+R", "2024-05-01", seed=1),
    "b.sgf": sgf("凝兰", "羽焰", "B+R", "2024-05-02", event="飞扬对弈林 第1轮", seed=2),
}


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus above, run once in its own folder with ``config/ratings.toml`` (the default path)."""
    root = tmp_path_factory.mktemp("explains")
    (root / "data" / "raw").mkdir(parents=True)
    for name, text in GAMES.items():
        (root / "data" / "raw" / name).write_text(text, encoding="utf-8")
    (root / "config").mkdir()
    (root / "config" / "roster.toml").write_text(ROSTER, encoding="utf-8")
    (root / "config" / "events.toml").write_text(EVENTS, encoding="utf-8")
    (root / "config" / "ratings.toml").write_text('[run]\nrule_set = "club"\n', encoding="utf-8")
    args = ["run", "--config", str(root / "config" / "ratings.toml"), "--raw", str(root / "data" / "raw")]
    result = runner.invoke(app, [*args, "--out", str(root / "data" / "processed"), "--workers", "1"])
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory: no ``config/ratings.toml``."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def out_of(root: Path) -> str:
    return str(root / "data" / "processed")


@pytest.mark.slow
def test_the_output_records_the_rosters_names_and_aliases(run_folder: Path) -> None:
    roster = pq.read_table(Path(out_of(run_folder)) / "roster.parquet").to_pylist()
    assert [(p["name"], p["aliases"], p["rank"]) for p in roster] == [
        ("羽焰", ["YuYan"], "1d"),
        ("凝兰", [], "5k"),
    ]


def test_the_output_records_the_events(run_folder: Path) -> None:
    events = pq.read_table(Path(out_of(run_folder)) / "events.parquet").to_pylist()
    assert [(e["name"], e["match"], e["kind"]) for e in events] == [
        ("飞扬-弈林对抗赛", ["飞扬对弈林*"], "team_match")
    ]


def test_audit_finds_an_alias_on_out_alone_from_another_folder(run_folder: Path, elsewhere: Path) -> None:
    result = runner.invoke(
        app, ["audit", "--player", "yuyan", "--out", out_of(run_folder), "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.count("2024-05-0") == 2
    assert "note:" not in result.stderr  # no configuration here: nothing differs


def test_explain_finds_an_alias_on_out_alone_from_another_folder(run_folder: Path, elsewhere: Path) -> None:
    result = runner.invoke(app, ["explain", "YuYan", "--period", "2024-05", "--out", out_of(run_folder)])
    assert result.exit_code == 0, result.output
    assert "羽焰" in result.stdout


@pytest.mark.slow
def test_players_suggest_on_out_alone_knows_the_run_had_a_roster(run_folder: Path, elsewhere: Path) -> None:
    snippet = elsewhere / "aliases.toml"
    args = ["players", "--suggest", "--snippet", str(snippet), "--out", out_of(run_folder)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "had no roster" not in snippet.read_text(encoding="utf-8")


def test_another_default_roster_is_set_aside_with_a_note(run_folder: Path, elsewhere: Path) -> None:
    (elsewhere / "config").mkdir()
    (elsewhere / "config" / "ratings.toml").write_text("[run]\n", encoding="utf-8")
    (elsewhere / "config" / "roster.toml").write_text('[[player]]\nname = "凝兰"\n', encoding="utf-8")
    result = runner.invoke(
        app, ["audit", "--player", "yuyan", "--out", out_of(run_folder), "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    assert "using the roster the run recorded" in result.stderr


def test_a_roster_named_by_config_is_used_with_a_note_when_it_differs(
    run_folder: Path, elsewhere: Path
) -> None:
    (elsewhere / "ratings.toml").write_text('[run]\nroster = "other.toml"\n', encoding="utf-8")
    (elsewhere / "other.toml").write_text('[[player]]\nname = "凝兰"\n', encoding="utf-8")
    args = ["audit", "--player", "yuyan", "--out", out_of(run_folder), "--config", "ratings.toml"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "using the roster of ratings.toml" in result.stderr


def test_a_run_with_nothing_changed_carries_the_record(run_folder: Path) -> None:
    args = [
        "run",
        "--config",
        str(run_folder / "config" / "ratings.toml"),
        "--raw",
        str(run_folder / "data" / "raw"),
    ]
    result = runner.invoke(app, [*args, "--out", out_of(run_folder), "--workers", "1"])
    assert result.exit_code == 0, result.output
    roster = pq.read_table(Path(out_of(run_folder)) / "roster.parquet")
    assert roster.column("aliases").to_pylist() == [["YuYan"], []]


def test_in_the_runs_folder_the_configuration_agrees_with_the_record_without_a_note(
    run_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(run_folder)  # config/ratings.toml and data/processed: the defaults
    result = runner.invoke(app, ["audit", "--player", "yuyan", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("2024-05-0") == 2 and "note:" not in result.stderr


def test_a_recorded_roster_reads_back_as_the_roster_it_recorded(tmp_path: Path) -> None:
    from pipeline.config.recorded import read_roster, roster_table
    from pipeline.config.roster import Player, Roster

    players = (
        Player("甲", ("A", "ａ"), "3d", member=False, rating=2300.0, fixed=True, ratings={"gor": 2300.0}),
        Player("乙"),
    )
    pq.write_table(roster_table(Roster(players)), tmp_path / "roster.parquet")
    found = read_roster(tmp_path / "roster.parquet")
    assert found is not None and found.players == players


def test_the_default_configuration_names_the_roster_when_out_is_not_given(
    run_folder: Path, elsewhere: Path
) -> None:
    (elsewhere / "config").mkdir()
    out = out_of(run_folder)
    (elsewhere / "config" / "ratings.toml").write_text(f"[ingest]\nout = {out!r}\n", encoding="utf-8")
    added = roster("羽焰", "凝兰", aliases={"羽焰": ("YuYan", "Feather")})
    (elsewhere / "config" / "roster.toml").write_text(added, encoding="utf-8")
    result = runner.invoke(app, ["audit", "--player", "feather", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert "using the roster of config/ratings.toml" in result.stderr
