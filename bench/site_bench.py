"""Site benchmark: wall and CPU time and peak memory of ``ratings site``, beside the run that made its output.

For each output folder named (``--out DIR``, repeatable), or each archive made here (``--n 100000``:
:mod:`pipeline.synth.server`'s server archive of N games, generated once into ``bench/out/site-N/raw``
and rated once into ``bench/out/site-N/out``; ``--corpora``: ``../shared/corpora`` rated with no
configuration, as a club would with none), ``ratings site`` is run as a child process into a fresh
folder beside it (``<out>-site``) and measured by ``os.wait4`` (wall seconds, user + system CPU
seconds, peak RSS of its largest process), with the same figures of the ``ratings run`` that made the
output when this script ran it.
Prints a Markdown table (periods, players, pages, MB written) and writes ``bench/out/site-results.json``.

The goal (issue 20): a site in time of the order of the run that produced the output, in memory that
does not grow with the archive. It is not a test: the figures depend on the machine and its load (say
which, when quoting them; CPU seconds vary less than wall seconds on a shared machine).

Usage: python bench/site_bench.py [--n 100000] [--corpora] [--out DIR] [--bench-out bench/out]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_ENTRY = "import sys; from pipeline.cli import app; sys.argv[0] = 'ratings'; app()"


def measured(args: list[str], cwd: Path) -> dict[str, Any]:
    """``ratings ARGS`` as a child process from ``cwd``: wall and CPU seconds, peak RSS (MB), exit status."""
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", _ENTRY, *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    error = child.stderr.read().decode("utf-8", "replace")[-2000:] if child.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"ratings {' '.join(args)} exited {code}: {error}")
    return {
        "wall_s": round(wall, 1),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_mb": round(usage.ru_maxrss / 1024),
    }


def generated(root: Path, n: int) -> Path:
    """The server archive of ``n`` games under ``root/raw``, generated once (a marker records it)."""
    from pipeline.synth.records import write_records
    from pipeline.synth.server import server_archive

    raw, marker = root / "raw", root / f"raw-{n}.done"
    if not marker.exists():
        shutil.rmtree(raw, ignore_errors=True)
        count = write_records(server_archive(n, 1), raw)
        marker.write_text(f"{count} records\n")
    return raw


def rated(raw: Path, out: Path, cwd: Path) -> dict[str, Any] | None:
    """Rate ``raw`` into ``out`` (from ``cwd``, so no configuration applies) unless done before; the run's
    figures, or None when the output was there already."""
    marker = out.with_name(out.name + ".done")
    if marker.exists():
        return json.loads(marker.read_text()) or None
    shutil.rmtree(out, ignore_errors=True)
    figures = measured(["run", "--raw", str(raw), "--out", str(out)], cwd)
    marker.write_text(json.dumps(figures))
    return figures


def site(out: Path, target: Path) -> dict[str, Any]:
    """Build the site of ``out`` into a fresh ``target``: the measured figures and what was written."""
    shutil.rmtree(target, ignore_errors=True)
    figures = measured(["site", str(target), "--out", str(out)], out.parent)
    files = [p for p in target.rglob("*") if p.is_file()]
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return figures | {
        "periods": len(manifest.get("periods", [])),
        "games": manifest.get("games"),
        "players": len(list((target / "players").glob("*.html"))),
        "pages": sum(p.suffix == ".html" for p in files),
        "written_mb": round(sum(p.stat().st_size for p in files) / 2**20),
        "largest_page_kb": round(max(p.stat().st_size for p in files if p.suffix == ".html") / 1024),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, action="append", default=[], help="games of a generated archive")
    parser.add_argument("--corpora", action="store_true", help="rate ../shared/corpora with no configuration")
    parser.add_argument("--out", type=Path, action="append", default=[], help="an output folder to build")
    parser.add_argument("--bench-out", type=Path, default=ROOT / "bench" / "out")
    options = parser.parse_args()
    work = options.bench_out.resolve()
    work.mkdir(parents=True, exist_ok=True)
    cases: list[tuple[str, Path, dict[str, Any] | None]] = [(str(o), o.resolve(), None) for o in options.out]
    if options.corpora:
        folder = work / "site-corpora"
        folder.mkdir(exist_ok=True)
        corpora = Path(os.environ.get("SGF_CORPORA", ROOT.parent / "shared" / "corpora"))
        cases.append(("corpora", folder / "out", rated(corpora, folder / "out", folder)))
    for n in options.n:
        folder = work / f"site-{n}"
        folder.mkdir(exist_ok=True)
        cases.append((f"{n:,} games", folder / "out", rated(generated(folder, n), folder / "out", folder)))
    results = []
    for name, out, run in cases:
        found = site(out, out.with_name(out.name + "-site")) | {"case": name, "run": run}
        results.append(found)
        print(f"{name}: {json.dumps(found)}", file=sys.stderr)
    (work / "site-results.json").write_text(json.dumps(results, indent=1))
    columns = ("case", "games", "periods", "players", "pages", "written_mb", "wall_s", "cpu_s", "peak_mb")
    head = "output games periods players pages MB site-wall-s site-CPU-s site-peak-MB"
    head += " run-wall-s run-CPU-s run-peak-MB"
    print("| " + " | ".join(head.split()) + " |")
    print("|---" * len(head.split()) + "|")
    for r in results:
        run = r["run"] or {}
        cells = [str(r[c]) for c in columns] + [str(run.get(c, "")) for c in ("wall_s", "cpu_s", "peak_mb")]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
