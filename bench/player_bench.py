"""Per-player benchmark: wall and CPU time and peak memory of the commands that answer about one player.

For each output folder named (``--out DIR``, repeatable), or made here (``--n 100000``: the server
archive of N games, :mod:`pipeline.synth.server`, generated once into ``bench/out/site-N/raw`` and rated
once into ``bench/out/site-N/out``, as ``bench/site_bench.py`` makes them; ``--corpora``:
``../shared/corpora`` rated with no configuration), players are chosen from its ``games.parquet``: the
most active (most game records), the one whose records are nearest 300 (issue 25's player; when someone
has that many) and a typical one (the median number of records among the players with at least one
counted game); and a day: the 15th of the latest rated month (or the middle of the latest rated
period). Each command is then run ``--runs`` times (default 3) as a child process of the code tree
``--code`` (default this checkout: ``PYTHONPATH=DIR``, the Python that runs this script; ``--code``
repeated: a row each, for a before and after), in rounds (each round runs every command with every tree
once, so that a loaded machine's changes fall on all of them alike), and measured
by ``os.wait4`` (wall seconds, user + system CPU seconds) and GNU ``time`` (peak RSS: :func:`measured`
says why); the medians are printed:

- ``floor``: ``ratings --help`` (the interpreter and the imports every command pays);
- ``floor-plot``: ``ratings plot --player`` of the most active player of a server archive of
  :data:`TINY` games rated here (what any chart costs: the imports, matplotlib's figure and one PNG);
- ``explain``: ``ratings explain PLAYER`` (the latest period in which the player moved);
- ``audit``: ``ratings audit --player PLAYER`` (a table), and ``audit-csv``: the same ``--format csv``
  (the query without rich's table);
- ``plot``: ``ratings plot --player PLAYER --image F.png``;
- ``show-date``: ``ratings show --date DAY --top 20`` (the standings on a day: not about one player, but
  asked as often).

The goal (issue 25): each answers in <= 1 s and <= 300 MB on a 10^6-game output. It is not a test: the
figures depend on the machine and its load (the project's machine has 2 cores, often shared: CPU
seconds vary less than wall seconds there; quote the load). Prints a Markdown table and, with
``--json FILE``, writes the figures.

Usage: python bench/player_bench.py [--n 100000] [--corpora] [--out DIR] [--code DIR[=OUT] ...] [--runs 3]
       [--json FILE] [--only COMMAND]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from site_bench import generated, rated

ROOT = Path(__file__).resolve().parent.parent
#: GNU time, which starts each command and reports its peak (:func:`measured`).
TIME = "/usr/bin/time"
_ENTRY = "import sys; from pipeline.cli import app; sys.argv[0] = 'ratings'; app()"
#: Games of the archive whose chart is ``floor-plot``: a chart of a few points, read from a few rows.
TINY = 50


def measured(args: list[str], code: Path, cwd: Path) -> dict[str, float]:
    """``ratings ARGS`` of the code tree ``code`` as a child process from ``cwd``: wall and CPU seconds
    and peak RSS (MB). The child is started by GNU ``time`` (``/usr/bin/time``), which reports its peak:
    ``wait4``'s of a child started from this process counts this process's own peak too (a forked
    process starts with its parent's high-water mark, and keeps it across ``exec``). Raises SystemExit
    naming the command when it fails."""
    env = os.environ | {"PYTHONPATH": str(code), "COLUMNS": "100"}
    with tempfile.NamedTemporaryFile("r", prefix="player-bench-", suffix=".rss") as peak:
        started = time.perf_counter()
        child = subprocess.Popen(
            [TIME, "-f", "%M", "-o", peak.name, sys.executable, "-c", _ENTRY, *args],
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert child.stderr is not None
        error = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status) != 0:
            said = error.decode("utf-8", "replace")[-2000:]
            raise SystemExit(f"ratings {' '.join(args)} exited {os.waitstatus_to_exitcode(status)}: {said}")
        kb = int(peak.read().split()[-1])
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "peak_mb": kb / 1024}


def players(out: Path) -> dict[str, tuple[str, int]]:
    """``most active``, ``300 records`` (when someone has that many) and ``typical``: (name, game
    records) of the output ``out``."""
    games = pq.read_table(out / "games.parquet", columns=["black_player", "white_player", "counted"])
    sides = pa.concat_arrays(
        [games.column(c).combine_chunks() for c in ("black_player", "white_player")]
    ).drop_null()
    counts = pc.value_counts(sides)
    names, totals = counts.field("values").to_pylist(), counts.field("counts").to_pylist()
    counted = games.filter(games.column("counted"))
    rated = set(counted.column("black_player").to_pylist()) | set(counted.column("white_player").to_pylist())
    ranked = sorted((t, n) for n, t in zip(names, totals, strict=True) if n in rated)
    busiest, typical = ranked[-1], ranked[len(ranked) // 2]
    found = {"most active": (busiest[1], busiest[0])}
    if busiest[0] >= 300:
        near = min(ranked, key=lambda r: (abs(r[0] - 300), r[1]))
        found["300 records"] = (near[1], near[0])
    return found | {"typical": (typical[1], typical[0])}


def day_of(out: Path) -> str:
    """The 15th of the latest rated month, else the middle of the latest rated period (``YYYY-MM-DD``)."""
    labels = sorted(
        p.name.removeprefix("period=") for p in (out / "ratings").iterdir() if p.name.startswith("period=")
    )
    label = [x for x in labels if x != "-"][-1]
    if len(label) == 7 and label[4] == "-":
        return f"{label}-15"
    year = int(label[:4])
    return dt.date(year, 6, 30).isoformat()


def tiny(folder: Path) -> tuple[Path, str]:
    """An output of a server archive of :data:`TINY` games rated in ``folder`` (by this checkout), and
    its most active player: what ``floor-plot`` draws."""
    out = folder / "tiny" / "out"
    rated(generated(folder / "tiny", TINY), out, folder / "tiny")
    return out, players(out)["most active"][0]


def commands(
    out: Path, chosen: dict[str, tuple[str, int]], image: Path, floor: tuple[Path, str] | None = None
) -> list[tuple[str, str, list[str]]]:
    """(command, player, arguments) to measure (``floor``: the tiny output and its player of
    ``floor-plot``)."""
    found: list[tuple[str, str, list[str]]] = [("floor", "", ["--help"])]
    if floor is not None:
        found.append(
            ("floor-plot", "", ["plot", "--player", floor[1], "--image", str(image), "--out", str(floor[0])])
        )
    where = ["--out", str(out)]
    for who, (name, _) in chosen.items():
        found += [
            ("explain", who, ["explain", name, *where]),
            ("audit", who, ["audit", "--player", name, *where]),
            ("audit-csv", who, ["audit", "--player", name, "--format", "csv", *where]),
            ("plot", who, ["plot", "--player", name, "--image", str(image), *where]),
        ]
    found.append(("show-date", "", ["show", "--date", day_of(out), "--top", "20", *where]))
    return found


def bench(
    out: Path, codes: list[tuple[Path, Path | None]], runs: int, only: list[str] | None = None
) -> list[dict[str, Any]]:
    """The medians of ``runs`` measurements of every command on ``out`` (or of those named ``only``), a row
    per code tree of ``codes`` (each with the output folder it reads instead of ``out``, or None: ``out``;
    the players and the day are ``out``'s). The runs go round: each round runs every command once with
    every tree, so that a change in the machine's load falls on every command and tree alike."""
    chosen = players(out)
    results = []
    with tempfile.TemporaryDirectory(prefix="player-bench-") as folder:
        floor = tiny(Path(folder)) if not only or "floor-plot" in only else None
        asked = [
            (command, who, args)
            for command, who, args in commands(out, chosen, Path(folder) / "chart.png", floor)
            if not only or command in only
        ]
        found: dict[tuple[str, str, Path, Path | None], list[dict[str, float]]] = {}
        for _ in range(runs):
            for command, who, args in asked:
                for code, own in codes:
                    given = [str(own) if own is not None and a == str(out) else a for a in args]
                    found.setdefault((command, who, code, own), []).append(
                        measured(given, code, Path(folder))
                    )
        for (command, who, code, own), measures in found.items():
            row = {
                "out": str(own or out),
                "code": str(code),
                "command": command,
                "player": f"{who}: {chosen[who][0]} ({chosen[who][1]} records)" if who else "",
            }
            row |= {k: round(statistics.median(f[k] for f in measures), 2) for k in measures[0]}
            print(json.dumps(row, ensure_ascii=False), file=sys.stderr)
            results.append(row)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, action="append", default=[], help="games of a generated archive")
    parser.add_argument("--corpora", action="store_true", help="rate ../shared/corpora with no configuration")
    parser.add_argument("--out", type=Path, action="append", default=[], help="an output folder")
    parser.add_argument("--bench-out", type=Path, default=ROOT / "bench" / "out")
    parser.add_argument(
        "--code",
        type=Path,
        action="append",
        default=[],
        help="a code tree to run (default: this one), as DIR or DIR=OUT (reading the output folder OUT "
        "instead: a before and after whose outputs differ); repeat to alternate several, run by run",
    )
    parser.add_argument("--runs", type=int, default=3, help="measurements of each command (the median)")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--only", action="append", help="measure only this command (floor, explain, ...)")
    options = parser.parse_args()
    outs = [o.resolve() for o in options.out]
    work = options.bench_out.resolve()
    if options.corpora:
        folder = work / "site-corpora"
        folder.mkdir(parents=True, exist_ok=True)
        rated(Path(os.environ.get("SGF_CORPORA", ROOT.parent / "shared" / "corpora")), folder / "out", folder)
        outs.append(folder / "out")
    for n in options.n:
        folder = work / f"site-{n}"
        folder.mkdir(parents=True, exist_ok=True)
        rated(generated(folder, n), folder / "out", folder)
        outs.append(folder / "out")
    if not outs:
        parser.error("name an output folder (--out), an archive size (--n) or --corpora")
    codes = [_code(c) for c in options.code] or [(ROOT, None)]
    results = [r for out in outs for r in bench(out, codes, options.runs, options.only)]
    if options.json:
        options.json.write_text(json.dumps(results, indent=1, ensure_ascii=False))
    print("| output | code | command | player | wall s | CPU s | peak MB |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r['out']} | {r['code']} | {r['command']} | {r['player']} | {r['wall_s']} | {r['cpu_s']} "
            f"| {r['peak_mb']} |"
        )


def _code(given: Path) -> tuple[Path, Path | None]:
    """A ``--code`` value: the tree, and the output folder it reads (None: ``--out``'s)."""
    tree, _, own = str(given).partition("=")
    return Path(tree).resolve(), Path(own).resolve() if own else None


if __name__ == "__main__":
    main()
