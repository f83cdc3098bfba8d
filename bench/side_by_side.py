"""Two source trees side by side: ingest_bench.py's step (b) (the pipeline from scratch, 1 worker) on one
folder, with each tree's ``pipeline`` in fresh processes, run alternately.

Usage: python bench/side_by_side.py BEFORE_TREE AFTER_TREE [--raw FOLDER] [--rounds 10] [--out bench/out]
[--instructions]. ``--raw synthetic`` uses ingest_bench.py's synthetic corpus of ``--n`` records in
``--out``/corpus (written with the AFTER tree's generator). Each tree runs its own
``bench/ingest_bench.py``; the order within a round alternates, so neither tree always runs second.

Prints each round and the medians of the run's CPU and wall seconds (``ingest_bench.cpu_and_wall`` of
``ingest_only``: what ``--ratio`` times) and of the whole process's CPU seconds (interpreter start-up and
imports too). On a shared machine the seconds of one build vary by 10-20%.

``--instructions`` counts instead, once a tree, the instructions of a process that imports
``ingest_bench`` and of one that also runs step (b) (valgrind's callgrind, some 40 times slower); the
difference is the run's. To count alike run after run, whatever the load: hashes seeded alike, Arrow's
pools of one thread, no checkpoint of the cache (``checkpoint_s``: every 30 s of the slowed run, else).
Python compiles every module that has no up-to-date ``__pycache__`` at import, which a process started
with ``PYTHONDONTWRITEBYTECODE`` does each time: the import's count then includes compiling the tree.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_IMPORT = "import sys; sys.path[:0] = [sys.argv[1] + '/bench', sys.argv[1]]; import ingest_bench as b;"
_CODE = (
    _IMPORT + "from pathlib import Path; import time;"
    "run = b.cpu_and_wall(lambda: b.ingest_only(Path(sys.argv[2]), Path(sys.argv[3]), 1));"
    "print(*run, time.process_time())"
)
# ingest_only without the checkpoints of the cache, which come every 30 s: under callgrind, several.
_COUNTED = (
    _IMPORT + "from pathlib import Path; raw, out = Path(sys.argv[2]), Path(sys.argv[3]);"
    "options = b.IngestOptions(workers=1, checkpoint_s=1e9);"
    "b.store.write_parquet(b.ingest(raw, out, options).games, out / 'games-ingest.parquet')"
)
_COLLECTED = re.compile(r"Collected : (\d+)")
# Counted runs: hashes seeded alike, Arrow's CPU and I/O pools of one thread (with more, the count of
# one build varies by 5%; with one, and no checkpoint, by 0.2%).
_ONE_THREAD = {"PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1", "ARROW_IO_THREADS": "1"}


def one(tree: Path, raw: Path, out: Path) -> tuple[float, float, float]:
    """Step (b) of ``tree`` on ``raw`` in a fresh process, the cache in ``out`` emptied first: its CPU and
    wall seconds, and the CPU seconds of the whole process (start-up and imports too)."""
    shutil.rmtree(out, ignore_errors=True)
    done = _python(tree, ["-c", _CODE, str(tree), str(raw), str(out)])
    cpu, wall, process = done.stdout.split()[-3:]
    return float(cpu), float(wall), float(process)


def instructions(tree: Path, raw: Path, out: Path) -> tuple[int, int]:
    """The instructions (callgrind's count) of a process that imports ``tree``'s ingest_bench, and of one
    that also runs step (b) on ``raw`` (the cache in ``out`` emptied first)."""
    counts = []
    for code in (_IMPORT, _COUNTED):
        shutil.rmtree(out, ignore_errors=True)
        with tempfile.TemporaryDirectory() as scratch:
            grind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/callgrind.out"]
            done = _python(tree, ["-c", code, str(tree), str(raw), str(out)], grind, _ONE_THREAD)
        found = _COLLECTED.search(done.stderr)
        if found is None:
            raise RuntimeError(f"no instruction count in valgrind's output: {done.stderr[-500:]!r}")
        counts.append(int(found.group(1)))
    return counts[0], counts[1]


def _python(
    tree: Path, args: list[str], before: list[str] | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python args`` (after the command ``before``, if any) with ``tree`` first on the path."""
    environment = {**os.environ, "PYTHONPATH": str(tree), **(env or {})}
    command = [*(before or []), sys.executable, *args]
    return subprocess.run(command, check=True, capture_output=True, text=True, cwd=tree, env=environment)


def synthetic(tree: Path, out: Path, n: int, seed: int) -> Path:
    """ingest_bench.py's synthetic corpus of ``n`` records, written (once) by ``tree``'s generator."""
    code = (
        _IMPORT
        + "from pathlib import Path; b.ensure_corpus(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))"
    )
    folder = out / "corpus"
    _python(tree, ["-c", code, str(tree), str(folder), str(n), str(seed)])
    return folder


def seconds(trees: dict[str, Path], raw: Path, out: Path, rounds: int) -> None:
    """Print ``rounds`` alternating runs of step (b) of each tree, then the medians and their ratio."""
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in trees}
    for i in range(rounds):
        for name in list(trees) if i % 2 == 0 else list(reversed(trees)):
            runs[name].append(one(trees[name], raw, out / f"side-{name}"))
        print(f"round {i + 1}: " + "  ".join(f"{n} {_figures(runs[n][-1])}" for n in trees), flush=True)
    medians = {name: tuple(statistics.median(r[k] for r in runs[name]) for k in range(3)) for name in trees}
    for name in trees:
        print(f"{name} ({trees[name]}): medians of {rounds}: {_figures(medians[name])}")
    ratios = tuple(a / b for a, b in zip(medians["after"], medians["before"], strict=True))
    print("after/before: " + _figures(ratios, "x"))


def counted(trees: dict[str, Path], raw: Path, out: Path) -> None:
    """Print the instructions of each tree's import and step (b), and their ratio."""
    counts = {name: instructions(tree, raw, out / f"side-{name}") for name, tree in trees.items()}
    for name, (imported, whole) in counts.items():
        parts = {"import": imported, "run": whole - imported, "whole": whole}
        print(f"{name}: instructions: " + ", ".join(f"{k} {v / 1e6:,.0f} M" for k, v in parts.items()))
    (bi, bw), (ai, aw) = counts.values()
    print(f"after/before: import {ai / bi:.3f}x, run {(aw - ai) / (bw - bi):.3f}x, whole {aw / bw:.3f}x")


def _figures(run: tuple[float, ...], unit: str = "") -> str:
    return f"run CPU {run[0]:.3f}{unit} wall {run[1]:.3f}{unit}, process CPU {run[2]:.3f}{unit}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--raw", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpora"))
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("bench/out"))
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind)")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    out = args.out.resolve()
    raw = synthetic(trees["after"], out, args.n, args.seed) if args.raw == "synthetic" else Path(args.raw)
    print(f"{raw}; PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    if args.instructions:
        counted(trees, raw.resolve(), out)
    else:
        seconds(trees, raw.resolve(), out, args.rounds)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
