"""The ratings command: help with examples, exit codes, outputs where they belong."""

from __future__ import annotations

import itertools
import re
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_ingest_fills_the_cache_and_writes_no_outputs(write, tmp_path: Path) -> None:
    write("a.sgf", b"(;PB[x]PW[y]RE[B+R]DT[2024-05-01];B[pd])")
    result = runner.invoke(app, ["ingest", "--raw", str(tmp_path / "raw"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / ".cache" / "ingest" / "manifest.json").exists()
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


# --- help ----------------------------------------------------------------------------------------

HELP_WIDTH = 78  # click wraps help text at the terminal width (80) less its margin of 2


def description(output: str) -> list[list[str]]:
    """The paragraphs of the text above the options of a help screen, each a list of its lines."""
    text = re.split(r"\n(?:╭─ )?(?:Options|Arguments)", output)[0]
    text = "\n".join(line.rstrip() for line in text.splitlines())
    paragraphs = [p for p in text.split("\n\n")[1:] if p.strip()]  # the first is the usage line
    return [p.splitlines() for p in paragraphs]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_at_80_columns_breaks_lines_only_where_the_next_word_would_not_fit(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    for lines in description(result.output):
        if lines[0].lstrip().startswith("Example:"):
            continue
        for line, after in itertools.pairwise(lines):
            next_word = after.split()[0]
            assert len(line) + 1 + len(next_word) > HELP_WIDTH, f"broken early: {line!r} / {after!r}"


@pytest.mark.parametrize("command", COMMANDS)
def test_help_metavars_are_plain_words(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    for typed in ("<bool>", "<int", "<str>", "<path>", "<text>"):
        assert typed not in result.output


@pytest.mark.parametrize("command", [*COMMANDS, None])
def test_dash_h_shows_the_help(command: str | None) -> None:
    result = runner.invoke(app, [command, "-h"] if command else ["-h"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output


def test_version_prints_the_package_version() -> None:
    from pipeline import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert __version__ in result.output


def test_show_report_help_names_the_rule_sets_that_write_each_report() -> None:
    text = " ".join(runner.invoke(app, ["show", "--help"]).output.split())
    for report in ("promotions (cga-dan, tga)", "fees (hkga, tga)", "certification (hkga)"):
        assert report in text
    assert "promotions (hkga)" not in text


def test_workers_0_means_one_per_core(write, tmp_path: Path) -> None:
    write("a.sgf", b"(;PB[x]PW[y]RE[B+R]DT[2024-05-01];B[pd])")
    args = ["ingest", "--raw", str(tmp_path / "raw"), "--out", str(tmp_path / "out"), "--workers", "0"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
