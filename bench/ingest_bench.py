"""Ingest benchmark: files/s for a plain sgfmill loop and for the pipeline, on synthetic and real corpora.

(a) a plain loop of ``sgfmill.sgf.Sgf_game.from_bytes`` reading the same header fields and the main line;
(b) the pipeline from scratch with 1 worker (decode, parse, normalise, cache, games.parquet, manifest);
(c) the same with every core; (d) a re-run with nothing changed; (e) the whole ``ratings run`` (club
rules, no roster) with nothing changed to parse: ingest from the cache, audit, rate, write the snapshots.

Usage: python bench/ingest_bench.py [--n 20000] [--seed 1] [--corpora ../shared/corpora] [--out bench/out]
[--ratio 3]. Prints a Markdown table and writes bench/out/results.json. Goals: b >= 5a (issue 11),
c >= 1.7b, d <= 5% of b's time. ``--ratio K`` measures only (a) and (b), interleaved K times, and prints
the median of b/a in CPU time and in wall time (the machine may be shared: side by side is fair).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sgfmill import sgf

from pipeline.config import RunConfig
from pipeline.core import store
from pipeline.ingest import IngestOptions, discover, ingest
from pipeline.run import plan, run_all
from pipeline.synth import synthetic_corpus, write_records

FIELDS = ("PB", "PW", "BR", "WR", "RE", "DT", "KM", "HA", "TM", "OT", "EV", "RO")


def sgfmill_loop(raw: Path) -> None:
    """(a): what a hand-written script with sgfmill would do for the same fields."""
    for entry in discover(raw):
        data = Path(entry.path).read_bytes()
        try:
            game = sgf.Sgf_game.from_bytes(data)
        except ValueError:
            continue
        root = game.get_root()
        _ = [root.get_raw(p) for p in FIELDS if root.has_property(p)]
        _ = len(game.get_main_sequence())


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def ingest_only(raw: Path, out: Path, workers: int) -> None:
    """The ingest stage and its games table written to Parquet (what (b)-(d) measure)."""
    store.write_parquet(ingest(raw, out, IngestOptions(workers=workers)).games, out / "games-ingest.parquet")


def measure(raw: Path, out: Path) -> dict[str, float]:
    """Seconds for (a)-(e) on the folder ``raw``; outputs go under ``out`` (emptied first)."""
    shutil.rmtree(out, ignore_errors=True)
    cores = os.cpu_count() or 1
    seconds = {"a": timed(lambda: sgfmill_loop(raw))}
    seconds["b"] = timed(lambda: ingest_only(raw, out / "one", 1))
    seconds["c"] = timed(lambda: ingest_only(raw, out / "all", cores))
    seconds["d"] = timed(lambda: ingest_only(raw, out / "one", 1))
    whole = plan(RunConfig(raw=raw, out=out / "one"))
    seconds["e"] = timed(lambda: run_all(whole, IngestOptions(workers=1)))
    return seconds


def cpu_and_wall(fn: Callable[[], object]) -> tuple[float, float]:
    """CPU seconds (of this process) and wall seconds that ``fn()`` took."""
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - cpu, time.perf_counter() - wall


def one(stage: str, raw: Path, out: Path) -> tuple[float, float]:
    """(a) or (b) in a fresh process (nothing cached, nothing imported yet): its CPU and wall seconds."""
    code = (
        "import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; import ingest_bench as b;"
        "from pathlib import Path;"
        "raw, out = Path(sys.argv[4]), Path(sys.argv[5]);"
        "f = (lambda: b.sgfmill_loop(raw)) if sys.argv[3] == 'a' else (lambda: b.ingest_only(raw, out, 1));"
        "print(*b.cpu_and_wall(f))"
    )
    here = Path(__file__).resolve().parent
    shutil.rmtree(out, ignore_errors=True)
    args = [sys.executable, "-c", code, str(here), str(here.parent), stage, str(raw), str(out)]
    cpu, wall = subprocess.run(args, check=True, capture_output=True, text=True).stdout.split()
    return float(cpu), float(wall)


def ratio(raw: Path, out: Path, rounds: int) -> str:
    """The median over ``rounds`` interleaved runs of (a) and (b) of b's speed over a's, CPU and wall."""
    runs = []
    for _ in range(rounds):
        a, b = one("a", raw, out), one("b", raw, out)
        runs.append((a[0] / b[0], a[1] / b[1]))
    cpu, wall = (statistics.median(r[k] for r in runs) for k in (0, 1))
    return f"b/a median of {rounds}: {cpu:.2f}x in CPU time, {wall:.2f}x in wall time"


def report(name: str, files: int, s: dict[str, float]) -> list[str]:
    rate = {k: files / v for k, v in s.items()}
    return [
        f"| {name} | {files} | {rate['a']:.0f} | {rate['b']:.0f} | {rate['c']:.0f} | {s['d']:.2f} s "
        f"| {rate['b'] / rate['a']:.2f}x | {rate['c'] / rate['b']:.2f}x | {100 * s['d'] / s['b']:.1f}% "
        f"| {s['e']:.2f} s |"
    ]


def ensure_corpus(folder: Path, n: int, seed: int) -> Path:
    """The synthetic corpus of ``n`` records in ``folder`` (written once, reused while n and seed match)."""
    stamp = folder / ".stamp"
    if stamp.exists() and stamp.read_text() == f"{n} {seed}":
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    write_records(synthetic_corpus(n, seed), folder)
    stamp.write_text(f"{n} {seed}")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpora"
    )
    parser.add_argument("--out", type=Path, default=Path("bench/out"))
    parser.add_argument("--ratio", type=int, default=0, help="only b/a, median of this many rounds")
    args = parser.parse_args()
    targets = {f"synthetic ({args.n})": ensure_corpus(args.out / "corpus", args.n, args.seed)}
    if args.corpora.is_dir():
        targets["shared corpora"] = args.corpora
    if args.ratio:
        for name, raw in targets.items():
            print(f"{name}: {ratio(raw, args.out / 'runs', args.ratio)}")
        return
    lines = [
        "| corpus | files | (a) sgfmill files/s | (b) 1 worker | (c) all workers | (d) re-run "
        "| b/a (goal >= 5) | c/b (goal >= 1.7) | d/b (goal <= 5%) | (e) whole run, cached |",
        "|---" * 10 + "|",
    ]
    results = {}
    for name, raw in targets.items():
        files = len(discover(raw))
        results[name] = measure(raw, args.out / "runs")
        lines += report(name, files, results[name])
    print(f"cores: {os.cpu_count()}")
    print("\n".join(lines))
    (args.out / "results.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
