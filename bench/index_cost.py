"""The player index's cost in a run: the time of its step (``run.indexing.index_players``) and of the whole
run, and the run's peak, for each code tree named.

Each measurement rates again a copy of a rated output folder (``--out``, e.g. the 10^6 bench output of
``bench/site_bench.py``) from its raw folder (``--raw``), by the code tree ``--code`` (``PYTHONPATH``;
repeat to compare trees). With ``--scratch`` (the default) the copy's index is removed first, so every
chunk is built, as in a run from scratch; with ``--keep`` the copy keeps it (a run whose code and inputs
did not change links every chunk; a run of other code rebuilds them all: the audit digest covers the
code). The copy is removed after. It is no test: the figures depend on the machine and its load.

Usage: python bench/index_cost.py --out OUT --raw RAW --code DIR [--code DIR ...] [--keep]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: Runs ``ratings`` with the index step timed (its wall and CPU seconds printed on standard error).
_ENTRY = """
import sys, time
from pipeline.run import indexing
step = indexing.index_players
def timed(*args, **kwargs):
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        return step(*args, **kwargs)
    finally:
        print(f"INDEX {time.perf_counter() - wall:.1f} {time.process_time() - cpu:.1f}", file=sys.stderr)
indexing.index_players = timed
from pipeline.cli import app
sys.argv[0] = "ratings"
app()
"""


def measured(code: Path, out: Path, raw: Path, scratch: bool) -> dict[str, float]:
    """Rate a copy of ``out`` from ``raw`` by the tree ``code``: the index step's wall and CPU seconds, the
    run's wall seconds and peak MB, and the chunks (files a kind) of the index written."""
    with tempfile.TemporaryDirectory(prefix="index-cost-") as folder:
        copy = Path(folder) / "out"
        shutil.copytree(out, copy, symlinks=True)
        if scratch:
            for index in (copy / ".gen").glob("*/index"):
                shutil.rmtree(index)
        done = subprocess.run(
            [
                "/usr/bin/time",
                "-f",
                "TIME %e %M",
                sys.executable,
                "-c",
                _ENTRY,
                "run",
                "--raw",
                str(raw),
                "--out",
                str(copy),
            ],
            env=os.environ | {"PYTHONPATH": str(code)},
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"the run of {code} exited {done.returncode}: {done.stderr[-2000:]}")
        index = re.search(r"INDEX (\S+) (\S+)", done.stderr)
        run = re.search(r"TIME (\S+) (\S+)", done.stderr)
        assert index is not None and run is not None, done.stderr[-2000:]
        chunks = len(list((copy / ".gen" / "current" / "index" / "games").glob("*.parquet")))
    return {
        "index_wall_s": float(index[1]),
        "index_cpu_s": float(index[2]),
        "run_wall_s": float(run[1]),
        "peak_mb": round(int(run[2]) / 1024),
        "chunks": chunks,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="a rated output folder (copied)")
    parser.add_argument("--raw", type=Path, required=True, help="its raw folder")
    parser.add_argument("--code", type=Path, action="append", required=True, help="a code tree; repeat")
    parser.add_argument("--keep", action="store_true", help="keep the copy's index (default: remove it)")
    options = parser.parse_args()
    print("| code | index wall s | index CPU s | run wall s | peak MB | chunks |")
    print("|---|---|---|---|---|---|")
    for code in options.code:
        found = measured(code.resolve(), options.out.resolve(), options.raw.resolve(), not options.keep)
        print(f"| {code} | " + " | ".join(str(v) for v in found.values()) + " |", flush=True)
    print(f"(load: {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
