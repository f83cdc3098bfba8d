"""`ratings run` as a person sees it: the end-of-run summary's numbers and labels, Ctrl-C, and the
command a "no output yet" message suggests (which must work as printed)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

pytestmark = pytest.mark.slow

runner = CliRunner()


def run(tmp_path: Path, files: dict[str, bytes], config: str = "", out: str = "out") -> tuple[int, str]:
    """Write ``files`` under tmp_path/raw and a ratings.toml of ``config``; `ratings run`; code, output."""
    raw = tmp_path / "raw"
    raw.mkdir(exist_ok=True)
    for name, data in files.items():
        (raw / name).write_bytes(data)
    (tmp_path / "ratings.toml").write_text(config, encoding="utf-8")
    args = [
        "run",
        "--config",
        str(tmp_path / "ratings.toml"),
        "--raw",
        str(raw),
        "--out",
        str(tmp_path / out),
    ]
    result = runner.invoke(app, [*args, "--workers", "1"], env={"COLUMNS": "200"})
    return result.exit_code, " ".join(result.output.split())


GAME = sgf("甲", "乙", "B+R", "2024-05-01").encode()


# --- the summary ---------------------------------------------------------------------------------


def test_summary_counts_records_and_says_which_could_not_be_read(tmp_path: Path) -> None:
    code, text = run(
        tmp_path, {"a.sgf": GAME, "b.sgf": sgf("甲", "乙", "0", "2024-05-02").encode(), "c.sgf": b""}
    )
    assert code == 0, text
    # three records: two games and an empty file; a counted, b (a draw) and c excluded
    assert "records │ 3 (2 games, 1 with a parse error)" in text
    assert "counted │ 1 of 3 records" in text
    assert "excluded │ 2 (draw 1, parse_error 1)" in text


def test_summary_names_a_file_without_an_encoding_none(tmp_path: Path) -> None:
    code, text = run(tmp_path, {"a.sgf": GAME, "c.sgf": b""})
    assert code == 0, text
    assert "encodings │ none 1, utf-8 1 (files)" in text
    assert "None" not in text


def test_summary_shows_one_period_once(tmp_path: Path) -> None:
    code, text = run(tmp_path, {"a.sgf": GAME})
    assert code == 0, text
    assert "periods │ 1 (2024-05) │" in text


def test_summary_counts_the_runs_warnings_with_the_records(tmp_path: Path) -> None:
    events = tmp_path / "events.toml"
    events.write_text('[[event]]\nname = "Cup"\nkind = "server_open"\nchampion = "甲"\nends = 2024-05-30\n')
    code, text = run(
        tmp_path, {"a.sgf": GAME}, '[run]\nrule_set = "club"\nevents = "events.toml"\nroster = ""\n'
    )
    assert code == 0, text
    # the Cup has no game in the records, yet its champion gets +500: a warning, and it is counted
    assert "warnings │ 1 (0 in records, 1 from the run)" in text
    assert "event 'Cup': titles awarded on its 'ends' date 2024-05-30 with no game of the event" in text


# --- Ctrl-C --------------------------------------------------------------------------------------


def test_ctrl_c_exits_130_saying_the_previous_output_is_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(tmp_path, {"a.sgf": GAME})[0] == 0
    before = (tmp_path / "out" / "games.parquet").read_bytes()

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("pipeline.cli.run.run_all", interrupted)
    code, text = run(tmp_path, {"b.sgf": GAME})
    assert code == 130
    assert text == f"interrupted: nothing was published; the previous output in {tmp_path / 'out'} is intact"
    assert (tmp_path / "out" / "games.parquet").read_bytes() == before


def test_ctrl_c_once_the_new_output_is_switched_in_says_it_was_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:  # (removing older generations)
        raise KeyboardInterrupt

    monkeypatch.setattr("pipeline.output.snapshots._prune", interrupted)
    code, text = run(tmp_path, {"a.sgf": GAME})
    assert code == 130
    assert text == f"interrupted once the run was done: {tmp_path / 'out'} holds its new output"
    assert (tmp_path / "out" / "games.parquet").exists()


@pytest.mark.parametrize("where", ["pipeline.run.plan", "pipeline.output.lock.held"])
def test_ctrl_c_before_the_stages_start_says_what_was_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(where, interrupted)
    code, text = run(tmp_path, {"a.sgf": GAME})
    assert code == 130
    assert text == f"interrupted: nothing was published; {tmp_path / 'out'} is as it was"


# --- suggested commands --------------------------------------------------------------------------


def suggested(output: str) -> list[str]:
    """The arguments of the `ratings ...` command a message suggests (without `ratings`)."""
    found = re.search(r"`ratings ([^`]*)`", " ".join(output.split()))
    assert found, output
    return shlex.split(found.group(1))


def test_no_output_suggests_a_run_that_works_as_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "data" / "raw").mkdir(parents=True)
    (tmp_path / "data" / "raw" / "a.sgf").write_bytes(GAME)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(tmp_path)
    shown = runner.invoke(app, ["show"])
    assert shown.exit_code == 2
    command = suggested(shown.output)
    monkeypatch.chdir(elsewhere)  # absolute paths: the command works from any folder
    done = runner.invoke(app, [*command, "--workers", "1"])
    assert done.exit_code == 0, done.output
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["show"]).exit_code == 0


def test_no_output_and_no_records_says_the_raw_folder_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shown = runner.invoke(app, ["audit"])
    assert shown.exit_code == 2
    text = " ".join(shown.output.split())
    assert f"no folder of records at {tmp_path / 'data' / 'raw'}" in text
    assert "--raw DIR" in text


def test_rules_in_capitals_name_the_rule_set(tmp_path: Path) -> None:
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "a.sgf").write_bytes(GAME)
    args = ["run", "--raw", str(tmp_path / "raw"), "--out", str(tmp_path / "hk"), "--rules", "HKGA"]
    done = runner.invoke(app, [*args, "--workers", "1"])
    assert done.exit_code == 0, done.output
    assert json.loads((tmp_path / "hk" / "manifest.json").read_text(encoding="utf-8"))["rule_set"] == "hkga"
