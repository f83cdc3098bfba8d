"""driver: the fuzz run: batches of mutants through ``ratings run``, each bounded in time, then a report.

One batch: write its mutants into a temporary raw folder; run ``ratings run`` (no project configuration,
``--workers 2``, killed at the batch's limit); time every file alone (:mod:`fuzz.probe`: slow files, and
the culprits when the run hung); bisect a crash to its inputs (:mod:`fuzz.culprits`); when the run failed,
run again without the culprits so the other inputs are still accounted for; check ``games.parquet``
(:mod:`fuzz.batch`); save the failing inputs (:mod:`fuzz.crashers`). The report (:mod:`fuzz.report`) is
rewritten after every batch.

Usage: ``python -m fuzz.driver --inputs 100000 --batch 10000 --seed 1 --report fuzz/out/report.md``;
``python -m fuzz.driver --seed 1 --replay 1234 --raw /tmp/r`` writes input 1234 alone (under its own
name) and runs ``ratings run`` on it. Exit status 1 when anything was found, else 0.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from fuzz import crashers, report
from fuzz.batch import Accounting, RunOutcome, account, run_ratings, write_inputs
from fuzz.culprits import crash_culprits, link_subset
from fuzz.mutate import mutant
from fuzz.probe import ProbeResult, probe
from fuzz.seeds import pool as seed_pool
from pipeline import rules as registry
from pipeline.run import DEFAULT_RULE_SET


@dataclass(frozen=True, slots=True)
class Settings:
    """How to fuzz: the run's ``seed``, inputs a ``batch``, the rule sets the batches take in turn, workers,
    the wall-clock ``limit_s`` of one ``ratings run``, the probe's budget a file and slow threshold,
    whether to probe every batch (else only a hung one), to bisect crashes and to re-run failed batches,
    and where failing inputs go (None: not saved)."""

    seed: int = 1
    batch: int = 10_000
    rules: tuple[str, ...] = ("club",)
    workers: int = 2
    limit_s: float = 600.0
    file_budget_s: float = 10.0
    slow_s: float = 1.0
    probe: bool = True
    bisect: bool = True
    recheck: bool = True
    crashers: Path | None = None


@dataclass(slots=True)
class BatchResult:
    """One batch: its inputs (index -> name, mutators, size in bytes), the first run, the probe, the culprits
    (crash groups, hangs), the run the accounting comes from, the accounting, and the wall time."""

    number: int
    rules: str
    names: dict[int, bytes]
    ops: dict[int, tuple[str, ...]]
    sizes: dict[int, int]
    first: RunOutcome
    probed: ProbeResult | None = None
    crash_groups: list[list[int]] = field(default_factory=list)
    hangs: list[int] = field(default_factory=list)
    final: RunOutcome | None = None
    accounting: Accounting | None = None
    seconds: float = 0.0
    saved: int = 0


def make_inputs(raw: Path, indexes: range, pool: Sequence[bytes], seed: int) -> BatchResult:
    """Write the mutants ``indexes`` of ``seed`` under ``raw``; a result with their names and mutators."""
    names, ops, sizes = {}, {}, {}
    for index in indexes:
        made = mutant(seed, index, pool)
        write_inputs(raw, {index: (made.name, made.data)})
        names[index], ops[index], sizes[index] = made.name, made.ops, len(made.data)
    return BatchResult(0, "", names, ops, sizes, RunOutcome(None, 0.0, "", None))


def run_batch(
    number: int, indexes: range, pool: Sequence[bytes], settings: Settings, seen: dict[str, int] | None = None
) -> BatchResult:
    """Batch ``number``: the inputs ``indexes`` through every step of the module docstring; ``seen``
    counts the failure signatures saved so far (updated; see :func:`fuzz.crashers.save`)."""
    started, work = time.monotonic(), Path(tempfile.mkdtemp(prefix=f"fuzz-b{number}-"))
    try:
        raw = work / "raw"
        result = make_inputs(raw, indexes, pool, settings.seed)
        result.number, result.rules = number, settings.rules[number % len(settings.rules)]
        result.first = _run(raw, work, result.rules, settings)
        _investigate(result, raw, work, settings)
        result.seconds = time.monotonic() - started
        if settings.crashers is not None:
            found = report.failures(result, settings.file_budget_s)
            run = (settings.seed, settings.batch, result.rules)
            result.saved = len(
                crashers.save(found, raw, settings.crashers, run, {} if seen is None else seen)
            )
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _run(raw: Path, work: Path, rules: str, settings: Settings) -> RunOutcome:
    return run_ratings(raw, work, rules, settings.workers, settings.limit_s)


def _investigate(result: BatchResult, raw: Path, work: Path, settings: Settings) -> None:
    """Probe, bisect, re-run and account for ``result`` (whose first run is done), in that order."""
    order = sorted(result.names)
    if settings.probe or result.first.hung:
        result.probed = probe(raw, [result.names[i] for i in order], settings.file_budget_s, settings.limit_s)
        result.hangs = [order[t.position] for t in result.probed.timings if t.hung]
    hung = set(result.hangs)
    kept = [i for i in order if i not in hung]
    if result.first.crashed and settings.bisect:
        by_name = {result.names[i]: i for i in kept}
        run = (result.rules, settings.workers, settings.limit_s)
        groups = crash_culprits(raw, work, [result.names[i] for i in kept], run)
        result.crash_groups = [[by_name[n] for n in group] for group in groups]
        culprits = {i for group in result.crash_groups if len(group) <= 50 for i in group}
        kept = [i for i in kept if i not in culprits]
    result.final = result.first
    if (result.first.hung or result.first.crashed) and settings.recheck:
        link_subset(raw, [result.names[i] for i in kept], work / "recheck" / "raw")
        result.final = _run(work / "recheck" / "raw", work / "recheck", result.rules, settings)
    accounted = order if result.final is result.first else kept  # a re-run left the culprits out
    if result.final.games is not None:
        result.accounting = account(result.final.games, {i: result.names[i] for i in accounted})


def fuzz(total: int, pool: Sequence[bytes], settings: Settings, report_path: Path, source: str) -> int:
    """Run ``total`` inputs in batches of ``settings.batch``, rewriting the report after each; returns the
    findings count."""
    batch = settings.batch
    results: list[BatchResult] = []
    seen: dict[str, int] = {}
    for number, first in enumerate(range(0, total, batch)):
        results.append(run_batch(number, range(first, min(first + batch, total)), pool, settings, seen))
        report.write(results, settings, source, report_path)
        print(report.batch_line(results[-1]), flush=True)
    return report.findings_count(results)


def replay(index: int, pool: Sequence[bytes], settings: Settings, raw: Path, rules: str) -> int:
    """Write input ``index`` alone under ``raw`` (which must be empty or absent) and run ``ratings run
    --rules rules`` on it; print what happened. Returns 0 clean, 1 a failure, 2 ``raw`` not empty."""
    if raw.exists() and any(raw.iterdir()):
        print(f"error: --raw folder is not empty: {raw}", file=sys.stderr)
        return 2
    result = make_inputs(raw, range(index, index + 1), pool, settings.seed)
    work = raw.parent / f"{raw.name}-work"
    work.mkdir(parents=True, exist_ok=True)
    outcome = _run(raw, work, rules, settings)
    made = f"input {index}: {result.names[index]!r} ops {'+'.join(result.ops[index])}, --rules {rules}"
    print(f"{made} -> exit {outcome.exit}")
    print(outcome.stderr, end="")
    if outcome.games is not None:
        print(account(outcome.games, result.names))
    return 0 if outcome.exit == 0 and not outcome.crashed else 1


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m fuzz.driver", description=__doc__.split("\n\n")[0])
    add = parser.add_argument
    add("--inputs", type=int, default=100_000, help="inputs in all (default 100000)")
    add("--batch", type=int, default=10_000, help="inputs a batch (default 10000)")
    add("--seed", type=int, default=1)
    add("--report", type=Path, default=Path("fuzz/out/report.md"))
    add("--crashers", type=Path, default=None, help="folder of failing inputs (default: beside the report)")
    add(
        "--rules", default="all", help="rule sets the batches take in turn: comma-separated, or all (default)"
    )
    add("--workers", type=int, default=2)
    add("--limit", type=float, default=600.0, help="seconds one ratings run may take (default 600)")
    add("--file-budget", type=float, default=10.0, help="probe: seconds a file may take alone (default 10)")
    add("--slow", type=float, default=1.0, help="probe: a file taking this long alone is reported slow")
    add("--no-probe", action="store_true", help="probe only batches that hung")
    add("--no-corpora", action="store_true", help="seed from the generated records only")
    add("--replay", type=int, default=None, help="write this input alone under --raw and run on it")
    add("--raw", type=Path, default=Path("/tmp/fuzz-replay"), help="folder for --replay")
    return parser.parse_args(argv)


def _settings(args: argparse.Namespace) -> Settings:
    """The :class:`Settings` of the command line's arguments."""
    every = sorted(registry.names(), key=lambda name: name != DEFAULT_RULE_SET)  # the default first
    names = every if args.rules == "all" else [r.strip() for r in args.rules.split(",") if r.strip()]
    return Settings(
        seed=args.seed,
        batch=args.batch,
        rules=tuple(names),
        workers=args.workers,
        limit_s=args.limit,
        file_budget_s=args.file_budget,
        slow_s=args.slow,
        probe=not args.no_probe,
        crashers=args.crashers or args.report.parent / "crashers",
    )


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    args = _arguments(argv)
    settings = _settings(args)
    pool = seed_pool(args.seed, use_corpora=not args.no_corpora)
    if args.replay is not None:
        rules = settings.rules[args.replay // args.batch % len(settings.rules)]  # the rule set of its batch
        return replay(args.replay, pool.records, settings, args.raw, rules)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    found = fuzz(args.inputs, pool.records, settings, args.report, pool.source)
    print(f"{found} finding(s); report: {args.report}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
