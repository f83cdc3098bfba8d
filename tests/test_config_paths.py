"""The [ingest] folders and settings: a path in a configuration file is relative to that file's folder, a
flag's to the working directory; a raw folder that is missing is named by where its value came from (the
file and key, the flag, or the default); file_timeout_seconds."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import ConfigError, RunConfig, load, with_overrides
from pipeline.run import plan

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def _config(tmp_path: Path, content: str) -> Path:
    folder = tmp_path / "cfg"
    folder.mkdir(exist_ok=True)
    path = folder / "ratings.toml"
    path.write_text(f'[run]\nroster = ""\nevents = ""\n{content}', encoding="utf-8")
    return path


def _plan_error(config: RunConfig) -> str:
    with pytest.raises(ConfigError) as error:
        plan(config)
    return str(error.value)


def test_raw_and_out_in_a_file_are_relative_to_its_folder_and_an_absolute_path_is_kept(
    tmp_path: Path,
) -> None:
    path = _config(tmp_path, f'[ingest]\nraw = "../records"\nout = "{tmp_path / "results"}"\n')
    config = load(path)
    assert (config.raw, config.out) == ((path.parent / "../records").resolve(), tmp_path / "results")


def test_the_shipped_configuration_reads_data_raw_of_the_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # from anywhere, not only from the repository's root
    config = load(ROOT / "config" / "ratings.toml")
    assert config.raw.resolve() == (ROOT / "data" / "raw").resolve()
    assert config.out.resolve() == (ROOT / "data" / "processed").resolve()


def test_a_missing_raw_folder_from_the_file_names_the_file_the_key_and_where_it_looked(
    tmp_path: Path,
) -> None:
    path = _config(tmp_path, '[ingest]\nraw = "nope"\n')
    message = _plan_error(load(path))
    looked = (path.parent / "nope").absolute()
    assert message == f"{path}: [ingest] raw must be an existing folder, got 'nope' (looked for {looked})"


def test_a_raw_that_is_a_file_is_named_as_a_file(tmp_path: Path) -> None:
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "records.sgf").write_text("(;)", encoding="utf-8")
    message = _plan_error(load(_config(tmp_path, '[ingest]\nraw = "records.sgf"\n')))
    assert "[ingest] raw must be an existing folder, got 'records.sgf' (" in message
    assert "records.sgf is a file)" in message


def test_a_missing_raw_folder_from_the_flag_names_the_flag(tmp_path: Path) -> None:
    config = with_overrides(load(_config(tmp_path, '[ingest]\nraw = "nope"\n')), raw=Path("gone"))
    message = _plan_error(config)
    assert message == f"--raw must be an existing folder, got 'gone' (looked for {Path('gone').absolute()})"


def test_a_missing_default_raw_folder_says_it_is_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no [ingest] raw in the file: data/raw of the working directory
    message = _plan_error(load(_config(tmp_path, "")))
    assert f"(looked for {tmp_path / 'data' / 'raw'})" in message
    assert message.startswith(
        "[ingest] raw (not set: the default) must be an existing folder, got 'data/raw'"
    )


def test_an_out_that_is_a_file_is_refused_naming_the_key(tmp_path: Path) -> None:
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "raw").mkdir()
    (tmp_path / "cfg" / "taken").write_text("", encoding="utf-8")
    path = _config(tmp_path, '[ingest]\nraw = "raw"\nout = "taken"\n')
    assert _plan_error(load(path)).startswith(f"{path}: [ingest] out must be a folder (or not exist yet)")


def test_overrides_replace_the_values_and_their_origins(tmp_path: Path) -> None:
    config = load(_config(tmp_path, '[ingest]\nraw = "r"\nout = "o"\nworkers = 3\n'))
    changed = with_overrides(config, out=Path("x"), workers=0)
    assert (changed.raw, changed.out, changed.workers) == (config.raw, Path("x"), None)
    assert changed.origins["out"].place == "--out" and changed.origins["raw"] == config.origins["raw"]


def test_ratings_run_with_a_missing_raw_in_the_file_exits_2_naming_file_and_key(tmp_path: Path) -> None:
    path = _config(tmp_path, '[ingest]\nraw = "nope"\n')
    result = runner.invoke(app, ["run", "--config", str(path), "--out", str(tmp_path / "out")])
    message = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert f"{path}: [ingest] raw must be an existing folder, got 'nope'" in message


def test_file_timeout_defaults_to_ten_seconds(tmp_path: Path) -> None:
    assert load(_config(tmp_path, "")).file_timeout_s == 10.0 == RunConfig().file_timeout_s


def test_file_timeout_seconds_is_read(tmp_path: Path) -> None:
    assert load(_config(tmp_path, "[ingest]\nfile_timeout_seconds = 2.5\n")).file_timeout_s == 2.5


@pytest.mark.parametrize("value", ["0", "-1", "true", '"10"'])
def test_a_bad_file_timeout_names_file_and_key(value: str, tmp_path: Path) -> None:
    path = _config(tmp_path, f"[ingest]\nfile_timeout_seconds = {value}\n")
    with pytest.raises(ConfigError) as error:
        load(path)
    assert str(error.value).startswith(f"{path}: [ingest] file_timeout_seconds must be a number > 0, got ")


def test_a_raw_replaced_without_its_origin_is_named_as_the_flag(tmp_path: Path) -> None:
    config = dataclasses.replace(load(_config(tmp_path, '[ingest]\nraw = "nope"\n')), raw=Path("gone"))
    assert _plan_error(config).startswith("--raw must be an existing folder, got 'gone'")
