"""Floors of the scale benchmark: what any run on this machine pays before the pipeline's own work,
measured beside the runs, so that a missed goal says why (``bench/scale_bench.py``).

- ``stat_s``: a bare walk of the raw folder, ``os.scandir`` and one ``stat`` per file and nothing else:
  a run that finds out whether loose files changed cannot do less (an archive is one ``stat``);
- ``cli_s``: starting the command (``ratings --help``: the interpreter and the imports);
- ``rewrite_s``: reading a run's ``games.parquet`` whole and writing it again (zstd), which every run
  that changed anything does, the contract's ``games.parquet`` being one file.

Each is the median of three measurements (the rewrite's: see :func:`rewrite_floor`).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq


def machine_floors(raw: Path, cwd: Path) -> dict[str, float]:
    """``stat_s`` and ``cli_s`` (see the module) for the raw folder ``raw``, the command run in ``cwd``."""
    return {"stat_s": _median(lambda: _bare_walk(raw)), "cli_s": _median(lambda: _cli(cwd))}


def rewrite_floor(games: Path) -> float:
    """Seconds to read ``games`` (a games.parquet) whole and write it again, zstd as the run does (the
    second of two: the first also pays pyarrow's first import of pandas)."""
    seconds = []
    for _ in range(2):
        started = time.perf_counter()
        table = pq.ParquetFile(games).read()  # as the run reads it (no dataset)
        with tempfile.TemporaryDirectory(dir=games.parent) as folder:
            pq.write_table(table, Path(folder) / "games.parquet", compression="zstd")
        del table
        seconds.append(time.perf_counter() - started)
    return round(seconds[-1], 2)


def why(scenario: str, run: dict[str, float], full: float, floors: dict[str, float]) -> str:
    """Why the re-run ``run`` (a scenario's results) costs what it does, against the full run's
    ``full`` seconds: its stages and the floors that it pays, each as a share of the full run."""
    paid = {"stat": floors["stat_s"], "start": floors["cli_s"]}
    if scenario != "no-change":
        paid["games.parquet"] = floors.get("rewrite_s", 0.0)
    shares = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in paid.items())
    stages = (
        f"ingest {run.get('ingest_s', 0):.1f} s + audit, rating, writing {run.get('audit_rate_s', 0):.1f} s"
    )
    return f"{stages}; floors: {shares} = {100 * sum(paid.values()) / full:.1f}% of full"


def _bare_walk(raw: Path) -> None:
    pending = [os.fspath(raw)]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.is_dir():
                    pending.append(entry.path)
                else:
                    entry.stat()


def _cli(cwd: Path) -> None:
    command = [str(Path(sys.executable).parent / "ratings"), "--help"]
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def _median(measure: Callable[[], object]) -> float:
    seconds = []
    for _ in range(3):
        started = time.perf_counter()
        measure()
        seconds.append(time.perf_counter() - started)
    return round(statistics.median(seconds), 2)
