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

``--periods N``: the audit stage of a run instead (``pipeline/run.py``'s ``_audited`` without the writes
and the rule set's preparation): ``N`` records of a server archive (120 months) through the real ingest,
made once into ``<out>/audit/server-N.parquet``, audited a month at a time with one roster per repeat (as
a run holds one), each period's table then given to ``tables.stored`` and ``summary.Counts.add``. Reports
the median CPU seconds (``time.process_time``, less disturbed by other work than wall time) of each step
per 100,000 games. ``--against DIR`` measures the source tree ``DIR`` (e.g. ``git archive HEAD`` unpacked:
the code before a change) too, the two alternating in fresh child processes, and gives the ratio.

Usage: python bench/audit_bench.py --periods 100000 [--roster synthetic|none] [--against DIR] [--repeat 5]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
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
from pipeline.core.reasons import Validity  # noqa: E402

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


def stage_child(path: Path, roster_kind: str, repeat: int) -> dict[str, Any]:
    """In the child process: ``repeat`` times the audit stage over the games at ``path``, month by month;
    the median CPU seconds of each step per 100,000 games and which ``pipeline`` package ran."""
    import pipeline
    from pipeline.audit import pieces
    from pipeline.audit.counts import Tally
    from pipeline.config.roster import Roster
    from pipeline.core import tables

    games = pq.read_table(path)
    base = roster_for(games) if roster_kind == "synthetic" else Roster()
    events, valid = events_for(games), Validity()
    months = list(pieces.by_period(pieces.TableSource(games), valid.period))
    runs: dict[str, list[float]] = {"audit": [], "stored": [], "counts": []}
    for _ in range(repeat):
        roster, spent, seq = dataclasses.replace(base), dict.fromkeys(runs, 0.0), 0  # a fresh memo
        counts = Tally()
        for piece in months:
            started = time.process_time()
            audited = audit(piece, roster, events, valid, seq)
            seq, step = seq + audited.num_rows, time.process_time()
            tables.stored("games.parquet", audited)
            stored = time.process_time()
            counts.add(audited)
            spent["audit"] += step - started
            spent["stored"] += stored - step
            spent["counts"] += time.process_time() - stored
        for name, seconds in spent.items():
            runs[name].append(seconds * 100_000 / games.num_rows)
    total = [sum(r) for r in zip(*runs.values(), strict=True)]
    medians = {name: round(statistics.median(r), 3) for name, r in runs.items()}
    return {
        "games": games.num_rows,
        "package": pipeline.__file__,
        "total": round(statistics.median(total), 3),
    } | medians


def stage_measured(tree: Path, path: Path, roster_kind: str, repeat: int) -> dict[str, Any]:
    """:func:`stage_child` in a fresh process importing ``pipeline`` from the source tree ``tree``."""
    command = [sys.executable, __file__, "--stage-child", str(path), roster_kind, "--repeat", str(repeat)]
    env = os.environ | {"PYTHONPATH": str(tree)}
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise SystemExit(f"audit stage of {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def stage(args: argparse.Namespace) -> None:
    """``--periods``: the audit stage, this tree and (``--against``) another, alternating; prints a table."""
    out = args.out / "audit"
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"server-{args.periods}.parquet"
    if not path.exists():
        pq.write_table(ingested_sample(args.periods, out / f"server-{args.periods}"), path)
    trees = {"this tree": ROOT, **({"against": args.against.resolve()} if args.against else {})}
    found: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            found[name].append(stage_measured(tree, path, args.roster, args.repeat))
    steps = ("audit", "stored", "counts", "total")
    medians = {
        name: {s: statistics.median(r[s] for r in runs) for s in steps} for name, runs in found.items()
    }
    print(f"CPU s per 100,000 games ({args.roster} roster, median of {args.rounds} x {args.repeat} runs)")
    print("| tree | " + " | ".join(steps) + " |\n|" + "---|" * (len(steps) + 1))
    for name, by_step in medians.items():
        print(f"| {name} ({trees[name]}) | " + " | ".join(f"{by_step[s]:.3f}" for s in steps) + " |")
    if args.against:
        ratios = " | ".join(
            f"{medians['against'][s] / max(medians['this tree'][s], 1e-9):.2f}x" for s in steps
        )
        print(f"| against / this tree | {ratios} |")
    (out / f"stage-{args.periods}.json").write_text(json.dumps(found, indent=2) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out")
    parser.add_argument("--periods", type=int, metavar="N", help="the audit stage of a run over N records")
    parser.add_argument("--roster", choices=("synthetic", "none"), default="synthetic")
    parser.add_argument("--against", type=Path, metavar="DIR", help="another source tree to measure too")
    parser.add_argument("--rounds", type=int, default=3, help="child processes per tree (--periods)")
    parser.add_argument("--child", nargs=2, metavar=("IMPLEMENTATION", "PARQUET"), help=argparse.SUPPRESS)
    parser.add_argument("--stage-child", nargs=2, metavar=("PARQUET", "ROSTER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], Path(args.child[1]), args.repeat)))
        return
    if args.stage_child:
        print(json.dumps(stage_child(Path(args.stage_child[0]), args.stage_child[1], args.repeat)))
        return
    if args.periods:
        stage(args)
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
