"""Audit benchmark: the columnar audit against the pandas one it replaced, side by side, per table size.

The games: ``--records`` records of a synthetic server archive (:mod:`pipeline.synth.server`) through
the real ingest, once, then tiled and perturbed to each ``--rows`` size (paths, ids and player names
carry the copy's number; every reason code occurs; 1.5% second copies): ``games_table`` of
``tests/test_audit_equivalence.py``, which also holds the pandas version (``reference_audit``). The
roster names most players (aliases, a tenth no members) and every ``EV`` text is a configured event.

Each measurement is a child process of its own: it reads the table, runs the audit ``--repeat`` times
and reports the median wall time, the peak RSS while auditing and its rise over the RSS before (Linux:
``VmHWM`` of ``/proc/self/status``, reset through ``/proc/self/clear_refs`` once the table is loaded;
elsewhere ``ru_maxrss``, which includes the loading). Goal (issue 11): the audit of 10^6 games in a few
seconds, memory about flat.

Usage: python bench/audit_bench.py [--rows 100000 1000000] [--records 20000] [--repeat 3] [--out bench/out]
Prints a Markdown table and writes <out>/audit/results.json.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_audit_equivalence import (  # noqa: E402  (the reference lives beside the test that pins it)
    events_for,
    games_table,
    ingested_sample,
    reference_audit,
    roster_for,
)

from pipeline.audit import audit  # noqa: E402
from pipeline.rules.base import Validity  # noqa: E402

IMPLEMENTATIONS = {"pandas (before)": reference_audit, "columnar": audit}


def tables(out: Path, records: int, sizes: list[int]) -> dict[int, Path]:
    """The games table of each size as a Parquet file under ``out`` (made once, kept for later runs)."""
    sample_path = out / f"sample-{records}.parquet"
    if not sample_path.exists():
        started = time.perf_counter()
        pq.write_table(ingested_sample(records, out / f"sample-{records}"), sample_path)
        print(f"ingested {records} records in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    paths = {rows: out / f"games-{records}-{rows}.parquet" for rows in sizes}
    for rows, path in paths.items():
        if not path.exists():
            pq.write_table(games_table(pq.read_table(sample_path), rows), path)
    return paths


def child(name: str, path: Path, repeat: int) -> dict[str, Any]:
    """In the child process: ``repeat`` audits of the table at ``path`` by the implementation ``name``."""
    games = pq.read_table(path)
    roster, events = roster_for(games), events_for(games)
    loaded = memory_mb(reset=True)["rss"]
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        IMPLEMENTATIONS[name](games, roster, events, Validity())
        seconds.append(time.perf_counter() - started)
    peak = memory_mb()["peak"]
    return {
        "rows": games.num_rows,
        "median_s": round(statistics.median(seconds), 3),
        "runs_s": [round(s, 3) for s in seconds],
        "peak_mb": round(peak),
        "rise_mb": round(peak - loaded),
    }


def memory_mb(reset: bool = False) -> dict[str, float]:
    """This process's resident set now (``rss``) and at its peak (``peak``), in MB; ``reset`` first
    starts the peak afresh where the system allows it (Linux)."""
    status = Path("/proc/self/status")
    if not status.exists():
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return {"rss": peak, "peak": peak}
    if reset:
        Path("/proc/self/clear_refs").write_text("5")  # 5: reset the peak RSS (VmHWM) to the current RSS
    fields = dict(line.split(":", 1) for line in status.read_text().splitlines())
    return {"rss": int(fields["VmRSS"].split()[0]) / 1024, "peak": int(fields["VmHWM"].split()[0]) / 1024}


def measured(name: str, path: Path, repeat: int) -> dict[str, Any]:
    """One measurement in a fresh child process (so that its peak RSS is its own)."""
    command = [sys.executable, __file__, "--child", name, str(path), "--repeat", str(repeat)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{name} on {path} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def table(found: dict[int, dict[str, dict[str, Any]]]) -> str:
    """The results as a Markdown table: one line per size, both implementations side by side."""
    names = list(IMPLEMENTATIONS)
    head = "| rows | " + " | ".join(f"{n}: median s | peak MB (rise)" for n in names) + " | speed-up |"
    lines = [head, "|" + "---|" * (2 * len(names) + 2)]
    for by_name in found.values():
        cells = [
            f"{by_name[n]['median_s']:.2f} | {by_name[n]['peak_mb']} ({by_name[n]['rise_mb']})" for n in names
        ]
        ratio = by_name[names[0]]["median_s"] / max(by_name[names[1]]["median_s"], 1e-9)
        per_game = by_name[names[1]]["median_s"] / by_name[names[1]]["rows"] * 1e6
        lines.append(
            f"| {by_name[names[1]]['rows']:,} | "
            + " | ".join(cells)
            + f" | {ratio:.0f}x ({per_game:.1f} µs/game) |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out")
    parser.add_argument("--child", nargs=2, metavar=("IMPLEMENTATION", "PARQUET"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], Path(args.child[1]), args.repeat)))
        return
    out = args.out / "audit"
    out.mkdir(parents=True, exist_ok=True)
    paths = tables(out, args.records, args.rows)
    found = {
        rows: {name: measured(name, path, args.repeat) for name in IMPLEMENTATIONS}
        for rows, path in paths.items()
    }
    (out / "results.json").write_text(json.dumps({str(k): v for k, v in found.items()}, indent=2) + "\n")
    print(table(found))


if __name__ == "__main__":
    main()
