"""Backtest benchmark: wall time and peak memory of ``ratings backtest`` and ``ratings compare`` beside
``ratings run`` of the same server archive, and what each rule set scores on it.

The archive is the scale benchmark's (:func:`scale_bench.corpus`: ``bench/out/scale-N/raw``, generated
once; ``--zip`` for monthly ``.zip`` archives), whose results are drawn from hidden strengths that stay
the same all along (:mod:`pipeline.synth.server`): a league with known true strengths. Its output folder
is ``bench/out/backtest-N/out``; a first ``ratings run`` fills the ingest cache, so that every command
measured after it reads the same cache and no command is timed parsing SGF.

Then, ``--repeat`` times (medians are printed): one ``ratings backtest --rules <all of them>``, one
``ratings compare --rules A --against B`` (``--compare A,B``, default club,hkga), and one
``ratings run --rules R`` per rule set R of ``--rules`` (the generations removed before each, the cache
kept: each run audits, rates and writes every period, as a first run does after its ingest). Each command is a
child process measured by ``os.wait4`` (peak RSS of its largest process). The goals (issue 23): each
command's peak within that of ``ratings run``'s bound (1 GB); the backtest within three times the
sum of the runs of the rule sets it compares; the compare within three times its two sides' runs.

Prints a Markdown table and the backtest's summary (log-loss, Brier, higher-rated wins per rule set),
and writes ``bench/out/backtest-N/results.json``.

``--runs`` measures the runs of some rule sets only (at 10^6 games each run takes minutes); the first
run's manifest gives its ingest and audit-and-rate seconds.

Usage: python bench/backtest_bench.py [--n 100000] [--rules club,hkga,...] [--compare club,hkga]
[--runs club,hkga] [--repeat 3] [--zip] [--seed 1] [--out bench/out]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from scale_bench import corpus

RATINGS = str(Path(sys.executable).parent / "ratings")
GOAL_MB = 1024
GOAL_RATIO = 3.0


def measured(args: list[str], cwd: Path) -> dict[str, float]:
    """``ratings ARGS`` as a child process: wall and CPU seconds (its own and its workers': on a shared
    machine the CPU time varies less) and peak RSS (MB) of its largest process."""
    started = time.perf_counter()
    child = subprocess.Popen([RATINGS, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"ratings {' '.join(args)} failed:\n{errors.decode(errors='replace')[-3000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "peak_mb": round(usage.ru_maxrss / 1024)}


def fresh(out: Path) -> None:
    """Remove every generation of ``out``, keeping its ingest cache (and the backtest's folder)."""
    import shutil

    for entry in out.iterdir() if out.exists() else []:
        if entry.name in (".cache", ".lock", "backtest"):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()


def median(found: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(statistics.median(r[k] for r in found), 2) for k in found[0]}


def bench(
    raw: Path, root: Path, names: list[str], pair: list[str], ran: list[str], repeat: int
) -> dict[str, Any]:
    """The measurements of the module docstring (``ran``: the rule sets whose runs are measured)."""
    out, cwd = root / "out", root
    where = ["--raw", str(raw), "--out", str(out)]
    first = measured(["run", "--rules", names[0], *where], cwd)
    timings = json.loads((out / "manifest.json").read_text()).get("timings_s", {})
    first |= {f"{k}_s": v for k, v in timings.items()}
    print(f"first run (ingest included): {first}", file=sys.stderr)
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in ran}
    backtests, compares = [], []
    for k in range(repeat):
        backtests.append(measured(["backtest", "--rules", ",".join(names), *where], cwd))
        print(f"round {k + 1}: backtest {backtests[-1]}", file=sys.stderr)
        compares.append(measured(["compare", "--rules", pair[0], "--against", pair[1], *where], cwd))
        print(f"round {k + 1}: compare {compares[-1]}", file=sys.stderr)
        for name in ran:
            fresh(out)
            runs[name].append(measured(["run", "--rules", name, *where], cwd))
            print(f"round {k + 1}: run {name} {runs[name][-1]}", file=sys.stderr)
    summary = pq.read_table(out / "backtest" / "summary.parquet").to_pylist()
    return {
        "first_run": first,
        "runs": {name: median(found) for name, found in runs.items()},
        "backtest": median(backtests),
        "compare": median(compares),
        "all": {"runs": runs, "backtest": backtests, "compare": compares},
        "summary": summary,
    }


def _cells(found: dict[str, float]) -> str:
    return f"{found['wall_s']} | {found['cpu_s']} | {found['peak_mb']}"


def report(n: int, found: dict[str, Any], names: list[str], pair: list[str], repeat: int) -> str:
    runs, bt, cmp = found["runs"], found["backtest"], found["compare"]
    total = {k: sum(runs[name][k] for name in names if name in runs) for k in ("wall_s", "cpu_s")}
    sides = {k: sum(runs[name][k] for name in pair if name in runs) for k in ("wall_s", "cpu_s")}
    partly = "" if set(names) <= set(runs) else " (those measured)"
    lines = [
        f"### {n:,} games (medians of {repeat})",
        "",
        "| command | wall s | CPU s | peak MB |",
        "|---|---|---|---|",
        *(f"| run --rules {name} | {_cells(runs[name])} |" for name in names if name in runs),
        f"| backtest --rules {','.join(names)} | {_cells(bt)} |",
        f"| compare --rules {pair[0]} --against {pair[1]} | {_cells(cmp)} |",
        "",
        f"first run (ingest included): {found['first_run']['wall_s']} s, {found['first_run']['peak_mb']} MB",
        f"backtest / sum of its rule sets' runs{partly}: wall {bt['wall_s'] / total['wall_s']:.2f}, CPU "
        f"{bt['cpu_s'] / total['cpu_s']:.2f} (goal <= {GOAL_RATIO}); peak {bt['peak_mb']} MB "
        f"(goal <= {GOAL_MB})",
    ]
    if set(pair) <= set(runs):
        lines.append(
            f"compare / its two sides' runs: wall {cmp['wall_s'] / sides['wall_s']:.2f}, CPU "
            f"{cmp['cpu_s'] / sides['cpu_s']:.2f} (goal <= {GOAL_RATIO}); peak {cmp['peak_mb']} MB "
            f"(goal <= {GOAL_MB})"
        )
    lines += ["", "| rule set | predictor | rated | scored | higher-rated wins | log-loss | Brier |"]
    lines.append("|---|---|---|---|---|---|---|")
    for row in found["summary"]:
        metrics = [row[k] for k in ("higher_rated_wins", "log_loss", "brier")]
        shown = ["" if v is None or v != v else f"{v:.4f}" for v in metrics]
        counts = f"{row['rules']} | {row['predictor']} | {row['games_rated']} | {row['n']}"
        lines.append(f"| {counts} | {' | '.join(shown)} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--rules", default="club,hkga,egf,egf2021,cga,cga-dan,tga")
    parser.add_argument("--compare", default="club,hkga")
    parser.add_argument("--runs", default=None, help="rule sets whose runs are measured (default: --rules)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--zip", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("bench/out"))
    args = parser.parse_args()
    names, pair = args.rules.split(","), args.compare.split(",")
    raw = corpus(args.out / f"scale-{args.n}", args.n, args.seed, args.zip)
    root = (args.out / f"backtest-{args.n}").absolute()
    root.mkdir(parents=True, exist_ok=True)
    ran = args.runs.split(",") if args.runs else names
    found = bench(raw.absolute(), root, names, pair, ran, args.repeat)
    (root / "results.json").write_text(json.dumps(found, indent=1))
    print(report(args.n, found, names, pair, args.repeat))


if __name__ == "__main__":
    main()
