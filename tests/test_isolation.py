"""Isolation: whatever one file does, it gets its own row (error_kind and a message naming what was
wrong) and the run goes on; worker processes end with their parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline.ingest import IngestOptions, budget, discover, ingest, record, workers

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
GOOD = b"(;GM[1]PB[Li]PW[Wang]RE[B+R]HA[2]DT[2024-05-12];B[pd];W[dd])"


def rows_by_path(tmp_path: Path, options: IngestOptions) -> dict[str, dict[str, Any]]:
    games = ingest(tmp_path / "raw", tmp_path / "out", options).games.to_pylist()
    return {g["source_path"]: g for g in games}


def three_files(write: Callable[[str, bytes], Path], middle: bytes = GOOD) -> None:
    write("a.sgf", GOOD)
    write("b.sgf", middle)
    write("c.sgf", GOOD)


@pytest.fixture(params=[1, 2], ids=["in-process", "two-workers"])
def worker_count(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """1 (the caller's process) or 2 worker processes, one file a batch so that both work."""
    monkeypatch.setattr(workers, "BATCH", 1)
    return int(request.param)


def test_value_arrow_cannot_hold_gives_a_bad_value_row(
    write: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    three_files(write, b"(;PB[x]HA[99])")
    real = record.parse_handicap
    monkeypatch.setattr(record, "parse_handicap", lambda raw, **kw: 2**40 if raw == "99" else real(raw, **kw))
    rows = rows_by_path(tmp_path, IngestOptions(workers=1))
    bad = rows["b.sgf"]
    assert (bad["error_kind"], bad["black"]) == ("bad_value", None)
    assert (
        "b.sgf" in bad["parse_error"]
        and "handicap" in bad["parse_error"]
        and str(2**40) in bad["parse_error"]
    )


def test_other_files_of_a_batch_with_a_bad_value_keep_their_rows(
    write: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    three_files(write, b"(;PB[x]HA[99])")
    real = record.parse_handicap
    monkeypatch.setattr(record, "parse_handicap", lambda raw, **kw: 2**40 if raw == "99" else real(raw, **kw))
    rows = rows_by_path(tmp_path, IngestOptions(workers=1))
    assert [(rows[p]["black"], rows[p]["handicap"], rows[p]["error_kind"]) for p in ("a.sgf", "c.sgf")] == [
        ("Li", 2, None),
        ("Li", 2, None),
    ]


@pytest.mark.parametrize("prop", ["LC[2147483648]", "TC[2147483648]", "OT[9999999999]"])
def test_huge_time_numbers_do_not_stop_the_run(write: Any, tmp_path: Path, prop: str) -> None:
    three_files(write, f"(;PB[x]{prop})".encode())
    rows = rows_by_path(tmp_path, IngestOptions(workers=1))
    assert sorted(rows) == ["a.sgf", "b.sgf", "c.sgf"]
    assert rows["b.sgf"]["error_kind"] in (None, "bad_value")


def test_unexpected_error_row_names_the_file(
    write: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, worker_count: int
) -> None:
    three_files(write)
    real = workers.rows_for_bytes

    def failing(data: bytes, source_path: str) -> list[dict[str, Any]]:
        if source_path == "b.sgf":
            raise RuntimeError("boom")
        return real(data, source_path)

    monkeypatch.setattr(workers, "rows_for_bytes", failing)
    rows = rows_by_path(tmp_path, IngestOptions(workers=worker_count))
    assert (rows["b.sgf"]["error_kind"], rows["b.sgf"]["parse_error"]) == (
        "internal",
        "internal error while reading b.sgf: RuntimeError('boom')",
    )
    assert rows["a.sgf"]["black"] == rows["c.sgf"]["black"] == "Li"


def sleeping(seconds: float) -> Callable[[bytes, str], list[dict[str, Any]]]:
    """rows_for_bytes, but b.sgf sleeps ``seconds`` first."""
    real = workers.rows_for_bytes

    def rows(data: bytes, source_path: str) -> list[dict[str, Any]]:
        if source_path == "b.sgf":
            time.sleep(seconds)
        return real(data, source_path)

    return rows


def spinning(seconds: float) -> Callable[[bytes, str], list[dict[str, Any]]]:
    """rows_for_bytes, but b.sgf keeps the processor busy for ``seconds`` first."""
    real = workers.rows_for_bytes

    def rows(data: bytes, source_path: str) -> list[dict[str, Any]]:
        end = time.monotonic() + seconds
        while source_path == "b.sgf" and time.monotonic() < end:
            pass
        return real(data, source_path)

    return rows


@pytest.mark.parametrize("slow", [sleeping, spinning], ids=["sleeping", "spinning"])
def test_file_over_its_time_budget_gives_a_timeout_row(
    write: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, worker_count: int, slow: Any
) -> None:
    three_files(write)
    monkeypatch.setattr(workers, "rows_for_bytes", slow(8.0))
    rows = rows_by_path(tmp_path, IngestOptions(workers=worker_count, file_timeout_s=0.2))
    assert rows["b.sgf"]["error_kind"] == "timeout"
    assert "b.sgf" in rows["b.sgf"]["parse_error"] and "0.2 s" in rows["b.sgf"]["parse_error"]
    assert rows["a.sgf"]["black"] == rows["c.sgf"]["black"] == "Li"


def test_file_over_its_time_budget_gives_a_timeout_row_off_the_main_thread(
    write: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    three_files(write)
    monkeypatch.setattr(workers, "rows_for_bytes", spinning(5.0))
    entries, tables = discover(tmp_path / "raw"), []
    thread = threading.Thread(target=lambda: tables.append(workers.parse_batch(entries, file_timeout_s=0.2)))
    thread.start()
    thread.join()
    rows = {row["source_path"]: row for row in tables[0].to_pylist()}
    assert rows["b.sgf"]["error_kind"] == "timeout" and "0.2 s" in rows["b.sgf"]["parse_error"]
    assert rows["a.sgf"]["black"] == rows["c.sgf"]["black"] == "Li"


def test_time_budget_restores_the_previous_alarm_handler(
    write: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    three_files(write)
    monkeypatch.setattr(workers, "rows_for_bytes", sleeping(8.0))

    def mine(signum: int, frame: object) -> None:
        pass

    previous = signal.signal(signal.SIGALRM, mine)
    try:
        rows_by_path(tmp_path, IngestOptions(workers=1, file_timeout_s=0.2))
        assert signal.getsignal(signal.SIGALRM) is mine
    finally:
        signal.signal(signal.SIGALRM, previous)


# The run killed below: ingest with 2 workers over files whose parsing blocks; each worker writes its pid.
_RUN = """
import os, sys, time
from pathlib import Path
from pipeline.ingest import IngestOptions, ingest, pool, workers
raw, out, mode = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
def blocked(data, source_path):
    (out.parent / f"worker-{os.getpid()}").touch()
    time.sleep(120)
    return []
workers.rows_for_bytes = blocked
workers.BATCH = 1
if mode == "thread only":
    pool.set_parent_death_signal = lambda: None
ingest(raw, out, IngestOptions(workers=2))
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_for(check: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return check()


@pytest.fixture
def killed_run_workers(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[list[int]]:
    """Start the run of :data:`_RUN` (mode ``request.param``), wait for its two workers, SIGKILL it;
    yield the workers' pids (killed at the end if still there)."""
    raw = tmp_path / "raw"
    raw.mkdir()
    for i in range(4):
        (raw / f"g{i}.sgf").write_bytes(GOOD)
    run = subprocess.Popen(
        [sys.executable, "-c", _RUN, str(raw), str(tmp_path / "out"), request.param], cwd=ROOT
    )
    pids: list[int] = []
    try:
        assert _wait_for(lambda: len(list(tmp_path.glob("worker-*"))) == 2, 60), "the workers did not start"
        pids = [int(p.name.split("-")[1]) for p in tmp_path.glob("worker-*")]
        run.kill()
        run.wait()
        yield pids
    finally:
        run.kill()
        run.wait()
        for pid in filter(_alive, pids):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("killed_run_workers", ["kernel and thread", "thread only"], indirect=True)
def test_workers_end_when_their_parent_is_killed(killed_run_workers: list[int]) -> None:
    assert _wait_for(lambda: not any(map(_alive, killed_run_workers)), 10)


def test_a_large_file_gets_a_budget_in_proportion_to_its_size(
    write: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # b.sgf is 3 x BUDGET_BYTES (a long collection, no pathological input): 3 x 1 s, so a 1.5 s read
    # is within its budget where a small file's would not be (1.5 s of margin for a loaded machine)
    three_files(write, GOOD + b" " * (3 * budget.BUDGET_BYTES))
    monkeypatch.setattr(workers, "rows_for_bytes", sleeping(1.5))
    rows = rows_by_path(tmp_path, IngestOptions(workers=1, file_timeout_s=1.0))
    assert rows["b.sgf"]["error_kind"] is None
