"""An output folder inside the records folder is not records: its cache, generations and links are
left out of the walk, and the summary says so."""

from __future__ import annotations

from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from sgfmake import sgf
from typer.testing import CliRunner, Result

from pipeline.cli import app

runner = CliRunner()


@pytest.fixture
def raw(write) -> Path:  # type: ignore[no-untyped-def]
    write("05/a.sgf", sgf("A", "B", "B+R", "2024-05-03").encode())
    return Path(write("06/b.sgf", sgf("B", "A", "W+R", "2024-06-03").encode())).parent.parent


def _run(raw: Path, out: Path) -> Result:
    done = runner.invoke(app, ["run", "--raw", str(raw), "--out", str(out), "--workers", "1"])
    assert done.exit_code == 0, done.output
    return done


def _paths(out: Path) -> list[str]:
    return sorted(pq.read_table(out / "games.parquet", columns=["source_path"])["source_path"].to_pylist())


@pytest.mark.parametrize("inside", ["out", "deep/er/out"])
def test_an_output_folder_inside_the_raw_folder_is_not_read_back(raw: Path, inside: str) -> None:
    out = raw / inside
    _run(raw, out)
    again = _run(raw, out)
    assert _paths(out) == ["05/a.sgf", "06/b.sgf"]
    assert "skipped" in again.output and f"{inside}/ in the raw folder" in again.output


def test_the_raw_folder_as_its_own_output_folder_reads_only_the_records(raw: Path) -> None:
    _run(raw, raw)
    again = _run(raw, raw)
    assert _paths(raw) == ["05/a.sgf", "06/b.sgf"]
    assert "the raw folder itself" in again.output


def test_a_link_to_the_output_folder_inside_the_raw_folder_is_left_out(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "elsewhere"
    _run(raw, out)
    (raw / "link").symlink_to(out, target_is_directory=True)
    _run(raw, out)
    table = pq.read_table(out / "games.parquet", columns=["source_path", "error_kind"])
    assert _paths(out) == ["05/a.sgf", "06/b.sgf"]
    assert pc.sum(pc.is_valid(table["error_kind"])).as_py() in (0, None)


def test_an_output_folder_beside_the_raw_folder_is_not_mentioned(raw: Path, tmp_path: Path) -> None:
    done = _run(raw, tmp_path / "out")
    assert "skipped" not in done.output
