"""One writer at a time per output folder: the lock of pipeline.output.lock, held by real processes,
and the commands that write (run, ingest, backtest, compare) waiting for it or exiting 75."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from sgfmake import sgf

from pipeline.output.lock import Holder, OutputBusy, held

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
CLI = "import sys; from pipeline.cli import app; sys.argv[0] = 'ratings'; app()"
HOLD = """
import sys, time
from pathlib import Path
from pipeline.output.lock import held
with held(Path(sys.argv[1]), "ratings run --out somewhere"):
    print("held", flush=True)
    if sys.argv[2] == "until-told":
        sys.stdin.readline()
    else:
        time.sleep(float(sys.argv[2]))
print("released", flush=True)
"""
PLAYERS = ["Ann", "Bob", "Cho", "Dai", "Eve", "Fan"]


def _holder(out: Path, seconds: float | str = 60) -> subprocess.Popen[str]:
    """A process that holds ``out``'s lock for ``seconds`` (``"until-told"``: until a line on its
    standard input), returned once it holds it."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(out), str(seconds)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "held"
    return process


def _ratings(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CLI, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def raw(write) -> Path:  # type: ignore[no-untyped-def]
    """Three months of games between six players, one file each."""
    day = 0
    for month in ("05", "06", "07"):
        for i, black in enumerate(PLAYERS):
            white = PLAYERS[(i + 1) % len(PLAYERS)]
            day = day % 27 + 1
            result = "B+R" if i % 2 else "W+3.5"
            write(f"{month}/{i}.sgf", sgf(black, white, result, f"2024-{month}-{day:02}").encode())
    return Path(write("x.sgf", sgf("Ann", "Eve", "B+R", "2024-07-28").encode())).parent


def _tables(out: Path) -> dict[str, object]:
    """Every output table of ``out``'s current generation (the run's own state aside), by path."""
    generation = (out / ".gen" / "current").resolve()
    found = {p.relative_to(generation).as_posix(): p for p in generation.rglob("*.parquet")}
    return {name: pq.read_table(p) for name, p in sorted(found.items()) if not name.startswith("state/")}


def test_a_second_holder_that_will_not_wait_is_told_who_holds_the_folder(tmp_path: Path) -> None:
    holder = _holder(tmp_path / "out")
    try:
        with pytest.raises(OutputBusy) as busy, held(tmp_path / "out", "second", wait=False):
            pass
        assert busy.value.holder.pid == holder.pid
        assert busy.value.holder.command == "ratings run --out somewhere"
        assert f"process {holder.pid}" in str(busy.value)
    finally:
        holder.kill()
        holder.wait()


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    holder = _holder(tmp_path / "out")
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    with held(tmp_path / "out", "after the kill", wait=False):
        assert (tmp_path / "out" / ".lock").read_text(encoding="utf-8").count(str(os.getpid())) == 1


def test_a_waiting_holder_is_told_once_and_goes_on_when_the_first_ends(tmp_path: Path) -> None:
    holder = _holder(tmp_path / "out", seconds="until-told")
    assert holder.stdin is not None and holder.stdout is not None
    told: list[Holder] = []

    def waiting(found: Holder) -> None:  # told while the first holds it; only then does the first end
        told.append(found)
        holder.stdin.write("end\n")
        holder.stdin.flush()

    with held(tmp_path / "out", "second", waiting=waiting):
        said = holder.stdout.readline().strip()
    holder.wait()
    assert [h.pid for h in told] == [holder.pid]
    assert said == "released"


def test_the_lock_makes_a_new_output_folder(tmp_path: Path) -> None:
    with held(tmp_path / "new" / "out", "first"):
        assert (tmp_path / "new" / "out").is_dir()


@pytest.mark.parametrize(
    "command",
    [
        ["run"],
        ["ingest"],
        ["backtest", "--rules", "club"],
        ["compare", "--rules", "club", "--against", "hkga"],
    ],
    ids=["run", "ingest", "backtest", "compare"],
)
def test_a_command_that_writes_exits_75_naming_the_holder_with_no_wait(
    raw: Path, tmp_path: Path, command: list[str]
) -> None:
    out = tmp_path / "out"
    holder = _holder(out)
    try:
        done = _ratings(*command, "--raw", str(raw), "--out", str(out), "--no-wait")
        _, stderr = done.communicate(timeout=120)
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 75, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and f"process {holder.pid}" in lines[0], stderr


def test_a_run_waits_for_the_holder_saying_so_then_runs(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    holder = _holder(out)
    done = _ratings("run", "--raw", str(raw), "--out", str(out), "--workers", "1")
    assert done.stderr is not None
    said = done.stderr.readline()  # (said before it waits: the holder holds on until killed)
    holder.kill()
    holder.wait()
    _, rest = done.communicate(timeout=120)
    assert done.returncode == 0, said + rest
    assert said.startswith(f"waiting: {out} is in use by process {holder.pid}"), said
    assert (out / "games.parquet").exists()


@pytest.fixture(scope="module")
def from_scratch(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Path]:
    """from_scratch(raw) -> the output folder of one run from scratch of the files in ``raw``: made once
    per set of files (relative paths and bytes), for every test that races runs on the same files (the
    tables do not depend on where the folder is)."""
    made: dict[tuple[tuple[str, bytes], ...], Path] = {}

    def _of(raw: Path) -> Path:
        files = tuple(
            sorted((p.relative_to(raw).as_posix(), p.read_bytes()) for p in raw.rglob("*") if p.is_file())
        )
        if files not in made:
            scratch = tmp_path_factory.mktemp("scratch") / "out"
            args = ["run", "--raw", str(raw), "--workers", "1", "--out"]
            assert _ratings(*args, str(scratch)).wait(timeout=120) == 0
            made[files] = scratch
        return made[files]

    return _of


def _same_as_from_scratch(out: Path, scratch: Path) -> None:
    again, fresh = _tables(out), _tables(scratch)
    assert sorted(again) == sorted(fresh)
    for name, table in again.items():
        assert table.equals(fresh[name]), name
    assert not list((out / ".gen").glob(".prepared-*"))


@pytest.mark.parametrize("existing", [False, True], ids=["new-folder", "existing-folder"])
def test_two_runs_that_both_waited_leave_the_output_a_run_from_scratch_gives(
    raw: Path, tmp_path: Path, existing: bool, from_scratch: Callable[[Path], Path]
) -> None:
    out = tmp_path / "out"
    args = ["run", "--raw", str(raw), "--workers", "1", "--out", str(out)]
    if existing:
        assert _ratings(*args).wait(timeout=120) == 0
        (raw / "07" / "late.sgf").write_text(sgf("Cho", "Fan", "W+R", "2024-05-30"), encoding="utf-8")
    holder = _holder(out)
    runs = [_ratings(*args), _ratings(*args)]
    said = [run.stderr.readline() for run in runs if run.stderr is not None]  # both wait, then race
    holder.kill()
    holder.wait()
    results = [run.communicate(timeout=240) for run in runs]
    assert all(line.startswith("waiting:") for line in said), said
    assert [run.returncode for run in runs] == [0, 0], results
    assert not any("Traceback" in err for _, err in results), results
    _same_as_from_scratch(out, from_scratch(raw))


@pytest.mark.parametrize("delay", [0.0, 0.3, 1.0, 2.5])
@pytest.mark.parametrize("existing", [False, True], ids=["new-folder", "existing-folder"])
def test_two_runs_at_once_leave_the_output_a_run_from_scratch_gives(
    raw: Path, tmp_path: Path, delay: float, existing: bool, from_scratch: Callable[[Path], Path]
) -> None:
    out = tmp_path / "out"
    args = ["run", "--raw", str(raw), "--workers", "1", "--out"]
    if existing:
        first = _ratings(*args, str(out))
        assert first.wait(timeout=120) == 0
        (raw / "07" / "late.sgf").write_text(sgf("Cho", "Fan", "W+R", "2024-05-30"), encoding="utf-8")
    a = _ratings(*args, str(out))
    time.sleep(delay)
    b = _ratings(*args, str(out))
    results = [p.communicate(timeout=240) for p in (a, b)]
    assert [a.returncode, b.returncode] == [0, 0], results
    assert not any("Traceback" in err for _, err in results), results
    _same_as_from_scratch(out, from_scratch(raw))
