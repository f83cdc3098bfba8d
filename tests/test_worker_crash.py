"""A worker process that dies (os._exit, SIGKILL: a segfault or the OOM killer) never stops the run: the
unfinished batches are read again in fresh processes, a batch that kills its worker again is split until
the file that does it is found; that file gets one ``crash`` row naming it and how its worker ended, and
every other file keeps its rows."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pipeline.ingest import IngestOptions, ingest, workers

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
GOOD = b"(;GM[1]PB[Li]PW[Wang]RE[B+R]DT[2024-05-12];B[pd];W[dd])"
NAMES = [f"{c}.sgf" for c in "abcdefgh"]


def kill_self() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def exit_nine() -> None:
    os._exit(9)


def dying(bad: set[str], die: Callable[[], None] = kill_self) -> Callable[[bytes, str], list[dict[str, Any]]]:
    """rows_for_bytes, but reading a file named in ``bad`` ends its process with ``die``."""
    real = workers.rows_for_bytes

    def rows(data: bytes, source_path: str) -> list[dict[str, Any]]:
        if source_path in bad:
            die()
        return real(data, source_path)

    return rows


@pytest.fixture
def raw(write: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Eight good files, two a batch (four batches for two workers)."""
    for name in NAMES:
        write(name, GOOD)
    monkeypatch.setattr(workers, "BATCH", 2)
    return tmp_path / "raw"


def rows_by_path(raw: Path, out: Path) -> dict[str, dict[str, Any]]:
    games = ingest(raw, out, IngestOptions(workers=2)).games.to_pylist()
    return {g["source_path"]: g for g in games}


def test_file_that_kills_its_worker_gets_a_crash_row_naming_the_file_and_the_signal(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "rows_for_bytes", dying({"c.sgf"}))
    row = rows_by_path(raw, tmp_path / "out")["c.sgf"]
    assert row["error_kind"] == "crash"
    assert "c.sgf" in row["parse_error"] and "SIGKILL" in row["parse_error"]


def test_crash_row_of_a_worker_that_exits_names_its_exit_code(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "rows_for_bytes", dying({"c.sgf"}, exit_nine))
    row = rows_by_path(raw, tmp_path / "out")["c.sgf"]
    assert row["error_kind"] == "crash" and "exit code 9" in row["parse_error"]


def test_every_other_file_keeps_its_rows_when_a_worker_dies(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "rows_for_bytes", dying({"c.sgf"}))
    rows = rows_by_path(raw, tmp_path / "out")
    assert sorted(rows) == NAMES
    assert {name: (rows[name]["black"], rows[name]["error_kind"]) for name in NAMES if name != "c.sgf"} == {
        name: ("Li", None) for name in NAMES if name != "c.sgf"
    }


def test_two_files_that_kill_their_workers_in_one_batch_each_get_a_crash_row(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "BATCH", 4)
    monkeypatch.setattr(workers, "rows_for_bytes", dying({"b.sgf", "d.sgf"}))
    rows = rows_by_path(raw, tmp_path / "out")
    assert [name for name in NAMES if rows[name]["error_kind"] == "crash"] == ["b.sgf", "d.sgf"]


def test_worker_killed_once_from_outside_costs_no_rows(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "killed-once"
    real = workers.rows_for_bytes

    def killed_once(data: bytes, source_path: str) -> list[dict[str, Any]]:
        if source_path == "c.sgf" and not marker.exists():
            marker.touch()
            kill_self()
        return real(data, source_path)

    monkeypatch.setattr(workers, "rows_for_bytes", killed_once)
    rows = rows_by_path(raw, tmp_path / "out")
    assert marker.exists()
    assert [rows[name]["error_kind"] for name in NAMES] == [None] * len(NAMES)


# One batch left to parse (a nightly run) with two workers: read in a worker, not in the caller's process.
_ONE_BATCH = """
import os, signal, sys
from pathlib import Path
from pipeline.ingest import IngestOptions, ingest, workers
real = workers.rows_for_bytes
def dying(data, source_path):
    if source_path == "b.sgf":
        os.kill(os.getpid(), signal.SIGKILL)
    return real(data, source_path)
workers.rows_for_bytes = dying
games = ingest(Path(sys.argv[1]), Path(sys.argv[2]), IngestOptions(workers=2)).games.to_pylist()
print(*sorted((g["source_path"], g["error_kind"]) for g in games))
"""


def test_run_with_a_single_batch_to_parse_survives_a_file_that_kills_its_worker(
    write: Any, tmp_path: Path
) -> None:
    write("a.sgf", GOOD)
    write("b.sgf", GOOD)
    run = subprocess.run(
        [sys.executable, "-c", _ONE_BATCH, str(tmp_path / "raw"), str(tmp_path / "out")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (run.returncode, run.stdout.strip()) == (0, "('a.sgf', None) ('b.sgf', 'crash')"), run.stderr
