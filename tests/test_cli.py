"""The ratings command: help with examples, exit codes, outputs where they belong."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from typer.main import get_command
from typer.testing import CliRunner

from pipeline.cli import app

runner = CliRunner()
COMMANDS = sorted(get_command(app).commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "Example: ratings " + command in " ".join(result.output.split())


def test_run_writes_games_and_manifest(write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config/ratings.toml here: the defaults apply
    write("a.sgf", b"(;PB[x]PW[y]RE[B+R]DT[2024-05-01];B[pd])")
    write("bad.sgf", b"")
    result = runner.invoke(app, ["run", "--raw", str(tmp_path / "raw"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    games = pd.read_parquet(tmp_path / "out" / "games.parquet")
    assert sorted(games["source_path"]) == ["a.sgf", "bad.sgf"]
    assert (tmp_path / "out" / "manifest.json").exists()
    assert "parse errors" in result.output


def test_ingest_fills_the_cache_and_writes_no_outputs(write, tmp_path: Path) -> None:
    write("a.sgf", b"(;PB[x]PW[y]RE[B+R]DT[2024-05-01];B[pd])")
    result = runner.invoke(app, ["ingest", "--raw", str(tmp_path / "raw"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / ".cache" / "ingest.parquet").exists()
    assert not (tmp_path / "out" / "games.parquet").exists()
    assert "games" in result.output


def test_missing_raw_folder_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["ingest", "--raw", str(tmp_path / "nope"), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[ingest\n", "not valid TOML"),
        ("[ingest]\nworkers = -1\n", "workers"),
        ("[ingest]\nworkers = 'two'\n", "workers must be of type int"),
        ("[ingest]\nspeed_threshold_minutes = 0\n", "speed_threshold_minutes"),
        ("ingest = 3\n", "[ingest] must be a table"),
    ],
)
def test_bad_config_exits_2_naming_file_and_key(content: str, message: str, write, tmp_path: Path) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text(content)
    result = runner.invoke(
        app, ["run", "--config", str(cfg), "--raw", str(tmp_path), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2
    assert str(cfg) in result.output and message in result.output
    assert not (tmp_path / "o").exists()


def test_missing_config_file_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", "--config", str(tmp_path / "none.toml")])
    assert result.exit_code == 2
    assert "not found" in result.output
