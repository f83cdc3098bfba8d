"""Interrupted runs keep their work: the cache is checkpointed while parsing and on Ctrl-C, so the next
run parses only the files not yet kept, and its table equals a run's from scratch."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from sgfmake import sgf

from pipeline.ingest import IngestOptions, Interrupted, cache, ingest, workers
from pipeline.ingest.shelf import MANIFEST, SHELF, Shelf

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
FILES = 10


@pytest.fixture
def raw(write: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Ten games, one file each, two files a batch."""
    for i in range(FILES):
        write(f"g{i:02}.sgf", sgf(f"P{i}", f"Q{i}", "B+R", f"2024-05-{i + 1:02}").encode())
    monkeypatch.setattr(workers, "BATCH", 2)
    return tmp_path / "raw"


def stop_after(batches: int) -> Callable[[int], None]:
    """A progress callback that raises KeyboardInterrupt (as Ctrl-C does) after ``batches`` batches."""
    seen = []

    def progress(n: int) -> None:
        seen.append(n)
        if len(seen) == batches:
            raise KeyboardInterrupt

    return progress


def cached_files(out: Path) -> list[str]:
    table = cache.load(out)
    assert table is not None
    return sorted(set(table.column("source_path").to_pylist()))


def from_scratch(raw: Path, out: Path) -> pa.Table:
    return ingest(raw, out, IngestOptions(workers=1)).games


@pytest.mark.parametrize("count", [1, 2], ids=["in-process", "two-workers"])
def test_ctrl_c_keeps_the_batches_parsed_so_far_in_the_cache(raw: Path, tmp_path: Path, count: int) -> None:
    with pytest.raises(Interrupted) as stopped:
        ingest(raw, tmp_path / "out", IngestOptions(workers=count, progress=stop_after(2)))
    assert stopped.value.kept == 4
    assert cached_files(tmp_path / "out") == [f"g{i:02}.sgf" for i in range(4)]


def test_interrupted_is_a_keyboard_interrupt(raw: Path, tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt):
        ingest(raw, tmp_path / "out", IngestOptions(workers=1, progress=stop_after(1)))


@pytest.mark.parametrize("count", [1, 2], ids=["in-process", "two-workers"])
def test_run_after_ctrl_c_parses_only_the_files_not_kept(raw: Path, tmp_path: Path, count: int) -> None:
    with pytest.raises(Interrupted):
        ingest(raw, tmp_path / "out", IngestOptions(workers=count, progress=stop_after(3)))
    again = ingest(raw, tmp_path / "out", IngestOptions(workers=count))
    assert (again.parsed, again.reused) == (FILES - 6, 6)


def test_run_after_ctrl_c_gives_the_table_of_a_run_from_scratch(raw: Path, tmp_path: Path) -> None:
    with pytest.raises(Interrupted):
        ingest(raw, tmp_path / "out", IngestOptions(workers=2, progress=stop_after(3)))
    again = ingest(raw, tmp_path / "out", IngestOptions(workers=2)).games
    assert again.equals(from_scratch(raw, tmp_path / "scratch"))


def test_ctrl_c_inside_a_file_keeps_the_files_before_it(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = workers.rows_for_bytes

    def interrupted_at_g05(data: bytes, source_path: str) -> list[dict[str, Any]]:
        if source_path == "g05.sgf":
            raise KeyboardInterrupt
        return real(data, source_path)

    monkeypatch.setattr(workers, "rows_for_bytes", interrupted_at_g05)
    with pytest.raises(Interrupted) as stopped:
        ingest(raw, tmp_path / "out", IngestOptions(workers=1))
    assert stopped.value.kept == 4 and len(cached_files(tmp_path / "out")) == 4


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_just_as_a_batch_is_kept_counts_it_among_the_files_kept(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Shelf.add

    def add_then_ctrl_c(self: Shelf, table: pa.Table) -> None:  # the signal lands before the count
        real(self, table)
        if "g04.sgf" in table["source_path"].to_pylist():
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(Shelf, "add", add_then_ctrl_c)
    with pytest.raises(Interrupted) as stopped:
        ingest(raw, tmp_path / "out", IngestOptions(workers=1))
    assert (stopped.value.kept, len(cached_files(tmp_path / "out"))) == (6, 6)


def test_checkpoint_is_written_while_parsing(raw: Path, tmp_path: Path) -> None:
    seen: list[list[str]] = []

    def progress(n: int) -> None:  # what the cache holds as each batch is done
        table = cache.load(tmp_path / "out")
        seen.append([] if table is None else sorted(set(table.column("source_path").to_pylist())))

    ingest(raw, tmp_path / "out", IngestOptions(workers=1, progress=progress, checkpoint_s=0))
    assert [len(files) for files in seen] == [0, 2, 4, 6, 8]


# The start of a script run as ``python -c SCRIPT RAW OUT``: parsing blocks at g05.sgf, after touching
# OUT/../reading-g05, one file a batch.
_BLOCKED_AT_G05 = """
import signal, sys, time
from pathlib import Path
from pipeline.ingest import IngestOptions, ingest, workers
raw, out = Path(sys.argv[1]), Path(sys.argv[2])
real = workers.rows_for_bytes
def blocked(data, source_path):
    if source_path == "g05.sgf":
        (out.parent / "reading-g05").touch()
        time.sleep(120)
    return real(data, source_path)
workers.rows_for_bytes = blocked
workers.BATCH = 1
"""

# A run killed by SIGKILL while it reads g05.sgf: ingest in the caller's process, a checkpoint every batch.
_KILLED = (
    _BLOCKED_AT_G05 + "ingest(raw, out, IngestOptions(workers=1, checkpoint_s=0, file_timeout_s=3600))\n"
)


def _wait_for(path: Path, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < end:
        time.sleep(0.05)
    return path.exists()


def _start(script: str, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", script, *args], cwd=ROOT, stderr=subprocess.PIPE)


def test_sigkill_loses_only_the_work_since_the_last_checkpoint(raw: Path, tmp_path: Path) -> None:
    run = _start(_KILLED, str(raw), str(tmp_path / "out"))
    try:
        assert _wait_for(tmp_path / "reading-g05", 60), "the run did not reach g05.sgf"
    finally:
        run.kill()
        run.wait()
    assert cached_files(tmp_path / "out") == [f"g{i:02}.sgf" for i in range(5)]
    again = ingest(raw, tmp_path / "out", IngestOptions(workers=1))
    assert again.parsed == FILES - 5
    assert again.games.equals(from_scratch(raw, tmp_path / "scratch"))


# `ratings run` with two workers, stopped by a signal while one of them reads g05.sgf.
_RUN = (
    _BLOCKED_AT_G05
    + """
signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal (a background job ignores it)
from pipeline.cli import app
app(["run", "--raw", str(raw), "--out", str(out), "--workers", "2"])
"""
)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_signal_to_ratings_run_exits_130_saying_how_many_files_are_kept(
    raw: Path, tmp_path: Path, signum: signal.Signals
) -> None:
    (tmp_path / "config" / "config").mkdir(parents=True)  # (g05 blocked past the file budget would be a row)
    (tmp_path / "config" / "config" / "ratings.toml").write_text("[ingest]\nfile_timeout_seconds = 3600\n")
    run = subprocess.Popen(
        [sys.executable, "-c", _RUN, str(raw), str(tmp_path / "out")],
        cwd=tmp_path / "config",
        stderr=subprocess.PIPE,
    )
    try:
        assert _wait_for(tmp_path / "reading-g05", 60), "the run did not reach g05.sgf"
        run.send_signal(signum)
        _, err = run.communicate(timeout=60)
    finally:
        run.kill()
        run.wait()
    text = " ".join(err.decode().split())
    assert run.returncode == 130, text
    found = re.search(
        r"interrupted: (\d+) files? parsed so far (?:are|is) kept in the cache; nothing was published", text
    )
    assert found, text
    assert len(cached_files(tmp_path / "out")) == int(found.group(1))


def test_an_interrupted_ingest_leaves_no_listing_for_the_next_run_to_trust(raw: Path, tmp_path: Path) -> None:
    ingest(raw, tmp_path / "out", IngestOptions(workers=1))
    (raw / "late.sgf").write_text(sgf("X", "Y", "B+R", "2024-05-30"), encoding="utf-8")
    with pytest.raises(Interrupted):
        ingest(raw, tmp_path / "out", IngestOptions(workers=1, progress=stop_after(1)))
    manifest = json.loads((tmp_path / "out" / SHELF / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["listing"] is None
    (raw / "late.sgf").unlink()
    assert ingest(raw, tmp_path / "out", IngestOptions(workers=1)).games.equals(
        from_scratch(raw, tmp_path / "new")
    )
