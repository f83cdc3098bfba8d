"""An output folder inside the records folder is not records: its cache, generations and links are
left out of the walk, and the summary says so."""

from __future__ import annotations

from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

pytestmark = pytest.mark.slow

runner = CliRunner()


@pytest.fixture
def raw(write) -> Path:  # type: ignore[no-untyped-def]
    write("05/a.sgf", sgf("A", "B", "B+R", "2024-05-03").encode())
    return Path(write("06/b.sgf", sgf("B", "A", "W+R", "2024-06-03").encode())).parent.parent


def _run(raw: Path, out: Path) -> str:
    """`ratings run`; its output with the table's padding folded to single spaces."""
    args = ["run", "--raw", str(raw), "--out", str(out), "--workers", "1"]
    done = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    return " ".join(done.output.split())


def _paths(out: Path) -> list[str]:
    return sorted(pq.read_table(out / "games.parquet", columns=["source_path"])["source_path"].to_pylist())


@pytest.mark.parametrize("inside", ["out", "deep/er/out"])
def test_an_output_folder_inside_the_raw_folder_is_not_read_back(raw: Path, inside: str) -> None:
    out = raw / inside
    _run(raw, out)
    again = _run(raw, out)
    assert _paths(out) == ["05/a.sgf", "06/b.sgf"]
    assert f"skipped │ {inside}/: the output folder's, not records" in again


def test_the_raw_folder_as_its_own_output_folder_reads_only_the_records(raw: Path) -> None:
    _run(raw, raw)
    again = _run(raw, raw)
    assert _paths(raw) == ["05/a.sgf", "06/b.sgf"]
    assert "skipped │ .cache, .gen, .lock, awards, … (" in again


def test_a_link_to_the_output_folder_inside_the_raw_folder_is_left_out(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "elsewhere"
    _run(raw, out)
    (raw / "link").symlink_to(out, target_is_directory=True)
    _run(raw, out)
    again = _run(raw, out)
    table = pq.read_table(out / "games.parquet", columns=["source_path", "error_kind"])
    assert _paths(out) == ["05/a.sgf", "06/b.sgf"]
    assert "skipped │ link/: the output folder's, not records" in again
    assert pc.sum(pc.is_valid(table["error_kind"])).as_py() in (0, None)


def test_an_output_folder_beside_the_raw_folder_is_not_mentioned(raw: Path, tmp_path: Path) -> None:
    done = _run(raw, tmp_path / "out")
    assert "skipped" not in done


def test_a_folder_of_records_named_like_the_backtests_is_read_when_the_raw_folder_is_the_output(
    raw: Path,
) -> None:
    (raw / "backtest").mkdir()
    (raw / "backtest" / "c.sgf").write_text(sgf("A", "B", "B+R", "2024-06-09"), encoding="utf-8")
    _run(raw, raw)
    assert _paths(raw) == ["05/a.sgf", "06/b.sgf", "backtest/c.sgf"]


def test_the_backtests_own_folder_is_left_out_when_the_raw_folder_is_the_output(raw: Path) -> None:
    done = runner.invoke(app, ["backtest", "--rules", "club", "--raw", str(raw), "--out", str(raw)])
    assert done.exit_code == 0, done.output
    _run(raw, raw)
    assert _paths(raw) == ["05/a.sgf", "06/b.sgf"]


def test_the_walks_names_of_an_output_folders_own_entries_are_the_writers() -> None:
    from pipeline.ingest.shelf import SHELF
    from pipeline.ingest.walk import OWN_BACKTEST, OWN_HIDDEN
    from pipeline.output.lock import LOCK_FILE
    from pipeline.output.snapshots import GENERATIONS
    from pipeline.reports.backtest import FOLDER

    assert {GENERATIONS, SHELF.parts[0], LOCK_FILE} == OWN_HIDDEN
    assert OWN_BACKTEST[0] == FOLDER
