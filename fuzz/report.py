"""report: the findings of the batches as per-input failures and as a Markdown report (with a JSON twin).

Counted as findings (the fuzz run then exits 1): crashed runs, hung runs, ``internal`` rows, inputs the
reader raised on, inputs without a row, rows of no input and names not rendered as written. Reported
without counting: hangs the pipeline contained (``timeout`` rows) and slow files.

Knows nothing of how the batches ran; reads :class:`fuzz.driver.BatchResult` only.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fuzz.crashers import Failure, signature

if TYPE_CHECKING:
    from fuzz.driver import BatchResult, Settings

_TAIL = 25  # lines of a crashed run's stderr shown


def stderr_tail(text: str, lines: int = _TAIL) -> str:
    """The last ``lines`` lines of ``text``."""
    return "\n".join(text.rstrip().splitlines()[-lines:])


def failures(result: BatchResult, budget_s: float) -> list[Failure]:
    """Every failing input of ``result``, one :class:`Failure` each (an input may fail in two ways)."""

    def fail(kind: str, index: int, detail: str) -> Failure:
        return Failure(kind, index, result.names[index], result.ops[index], detail)

    out = [fail("hang", i, f"over {budget_s:g} s alone in the reader") for i in result.hangs]
    for group in result.crash_groups:
        alone = "" if len(group) == 1 else f" (only with {len(group) - 1} other inputs of its batch)"
        out += [
            fail("crash", i, f"ratings run crashed{alone}:\n{stderr_tail(result.first.stderr)}")
            for i in group
        ]
    reader = _reader_errors(result)
    acc = result.accounting
    if acc is not None:
        out += [fail("internal", i, f"{e}\n{reader.pop(i, '')}".strip()) for i, e in acc.internal.items()]
        out += [fail("timeout", i, e) for i, e in acc.timeouts.items()]
        out += [fail("missing", i, "no row in games.parquet") for i in acc.missing]
        out += [fail("renamed", i, f"source_path {p!r}") for i, p in acc.renamed.items()]
    return out + [fail("reader", i, e) for i, e in reader.items()]


def _reader_errors(result: BatchResult) -> dict[int, str]:
    """Index -> traceback, for the inputs on which the probe saw the reader raise (or its process die)."""
    if result.probed is None:
        return {}
    order = sorted(result.names)
    return {order[t.position]: t.error for t in result.probed.timings if t.error}


def slow(result: BatchResult, threshold_s: float) -> list[tuple[float, int]]:
    """(seconds, index) of the inputs taking ``threshold_s`` or more alone (hangs included), slowest first."""
    if result.probed is None:
        return []
    order = sorted(result.names)
    return sorted(
        ((t.seconds, order[t.position]) for t in result.probed.timings if t.seconds >= threshold_s),
        reverse=True,
    )


def findings_count(results: list[BatchResult]) -> int:
    """Crashed and hung runs plus the failing inputs that count (not timeouts, not slow files)."""
    runs = sum(r.first.crashed or r.first.hung for r in results)
    inputs = sum(f.kind not in ("timeout", "crash", "hang") for r in results for f in failures(r, 0))
    strays = sum(len(r.accounting.stray) for r in results if r.accounting)
    unaccounted = sum(r.accounting is None for r in results)
    return runs + inputs + strays + unaccounted


def batch_line(result: BatchResult) -> str:
    """One line on a finished batch, for the terminal."""
    acc, first = result.accounting, result.first
    state = "hung" if first.hung else f"exit {first.exit}" + (" (traceback)" if first.crashed else "")
    counts = (
        f"{len(acc.internal)} internal, {len(acc.missing)} missing, {len(acc.timeouts)} timeout"
        if acc
        else "no accounting"
    )
    head = f"batch {result.number}: {len(result.names)} inputs, {state} in {first.seconds:.0f} s"
    return f"{head}; {counts}; {len(result.hangs)} hang culprits; {result.seconds:.0f} s in all"


def summary(results: list[BatchResult], settings: Settings, source: str) -> dict[str, Any]:
    """The totals of ``results`` as plain values (the JSON report)."""
    found = [f for r in results for f in failures(r, settings.file_budget_s)]
    kinds = Counter(f.kind for f in found)
    accs = [r.accounting for r in results if r.accounting is not None]
    return {
        "seed": settings.seed,
        "seeds": source,
        "inputs": sum(len(r.names) for r in results),
        "batches": len(results),
        "seconds": round(sum(r.seconds for r in results), 1),
        "runs_crashed": sum(r.first.crashed for r in results),
        "runs_hung": sum(r.first.hung for r in results),
        "runs_unaccounted": sum(r.accounting is None for r in results),
        "failures": dict(kinds),
        "stray_rows": sum(len(a.stray) for a in accs),
        "slow_files": sum(len(slow(r, settings.slow_s)) for r in results),
        "unprobed": sum(r.probed.unprobed for r in results if r.probed),
        "rows": sum(a.rows for a in accs),
        "error_kinds": dict(sum((Counter(a.kinds) for a in accs), Counter())),
        "signatures": dict(Counter(signature(f) for f in found).most_common()),
        "findings": findings_count(results),
    }


def write(results: list[BatchResult], settings: Settings, source: str, path: Path) -> None:
    """Write the Markdown report at ``path`` and its JSON summary beside it (``.json``)."""
    data = summary(results, settings, source)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    path.with_suffix(".json").write_text(text, encoding="utf-8", errors="backslashreplace")
    path.write_text(markdown(results, settings, data), encoding="utf-8", errors="backslashreplace")


def markdown(results: list[BatchResult], settings: Settings, data: dict[str, Any]) -> str:
    """The report: totals, one row a batch, then every failure grouped by signature, and the slow files."""
    parts = [_head(settings, data), _batches(results), _failures(results, settings), _slow(results, settings)]
    return "\n\n".join(parts) + "\n"


def _head(settings: Settings, data: dict[str, Any]) -> str:
    rows = [
        ("inputs", f"{data['inputs']} in {data['batches']} batches, {data['seconds']} s"),
        ("seeds", data["seeds"]),
        ("rule sets", ", ".join(settings.rules)),
        ("crashed runs (exit != 0 or a traceback)", data["runs_crashed"]),
        (f"hung runs (over {settings.limit_s:g} s)", data["runs_hung"]),
        ("batches without accounting (no games.parquet)", data["runs_unaccounted"]),
        *((f"failing inputs: {k}", v) for k, v in sorted(data["failures"].items())),
        ("stray rows (no input)", data["stray_rows"]),
        (f"slow files (>= {settings.slow_s:g} s alone)", data["slow_files"]),
        ("files left unprobed (probe out of time)", data["unprobed"]),
        ("rows by error_kind", ", ".join(f"{k} {v}" for k, v in sorted(data["error_kinds"].items()))),
        ("findings (exit 1 when > 0)", data["findings"]),
    ]
    table = "\n".join(f"| {k} | {v} |" for k, v in rows)
    return f"# Fuzz report (seed {settings.seed})\n\n| | |\n|---|---|\n{table}"


def _batches(results: list[BatchResult]) -> str:
    lines = [
        "## Batches",
        "",
        "| batch | inputs | rules | first run | run s | rows | internal | missing | timeout | hang culprits"
        " | crash groups | total s |",
    ]
    lines.append("|" + "---|" * 12)
    for r in results:
        acc, first = r.accounting, r.first
        state = (
            "killed at limit"
            if first.hung
            else f"exit {first.exit}" + (" + traceback" if first.crashed else "")
        )
        counts = (acc.rows, len(acc.internal), len(acc.missing), len(acc.timeouts)) if acc else ("-",) * 4
        cells = [
            r.number,
            len(r.names),
            r.rules,
            state,
            f"{first.seconds:.0f}",
            *counts,
            len(r.hangs),
            len(r.crash_groups),
            f"{r.seconds:.0f}",
        ]
        lines.append("| " + " | ".join(map(str, cells)) + " |")
    return "\n".join(lines)


def _failures(results: list[BatchResult], settings: Settings) -> str:
    groups: dict[str, list[tuple[BatchResult, Failure]]] = {}
    for r in results:
        for f in failures(r, settings.file_budget_s):
            groups.setdefault(signature(f), []).append((r, f))
    lines = ["## Failing inputs, by signature", ""]
    for key, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        lines += [f"### {key} ({len(items)})", ""]
        lines += [
            f"- batch {r.number}, input {f.index} `{os.fsdecode(f.name)!r}` ops {'+'.join(f.ops)}"
            for r, f in items[:10]
        ]
        lines += ["", "```", items[0][1].detail[-3000:], "```", ""]
    return "\n".join(lines if groups else [*lines, "none"])


def _slow(results: list[BatchResult], settings: Settings) -> str:
    rows = sorted(((s, i, r) for r in results for s, i in slow(r, settings.slow_s)), key=lambda t: -t[0])
    lines = [
        f"## Slow files (>= {settings.slow_s:g} s alone; hangs at the {settings.file_budget_s:g} s budget)",
        "",
    ]
    lines += [
        f"- {s:.2f} s: batch {r.number}, input {i} ops {'+'.join(r.ops[i])}, {r.sizes[i]} bytes,"
        f" `{os.fsdecode(r.names[i])!r}`"
        for s, i, r in rows[:30]
    ]
    return "\n".join(lines if rows else [*lines, "none"])
