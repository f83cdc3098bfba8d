"""Equivalence harness: are the outputs of two versions of the code the same, table by table, value by value?

Issue 21 (a refactor of the package's internals) demands that every table of every rule set's output stay
the same, row for row and value for value. This script records what one checkout's pipeline writes, as
digests, and compares two such records.

``record`` runs ``ratings run`` of the checkout ``--code DIR`` (a child process, ``PYTHONPATH=DIR``, with
the Python that runs this script: the code under test is DIR's, whatever this script's checkout holds)
for each case × rule set, each into a fresh output folder ``<work>/<label>/<case>/<rule set>/``
(``<label>``: the name of the JSON file without ``.json``; ``<work>``: ``--work``, by default
``bench/out/equivalence`` beside this script; the run's log beside its folder). The cases:

- ``sample``: the sample, ``data/raw`` (Gomoku: ``data/gomoku/raw``) with ``config/examples/<rule set>.toml``
  (the club's roster and events; tga's register and events), both from the ``--inputs`` checkout (by
  default the ``--code`` one);
- ``corpora``: every file of ``--corpora`` (``$SGF_CORPORA``, else ``../shared/corpora``: the real
  records) as the raw folder, no configuration file (the rule set's defaults: no roster, so every
  player is a member, no events);
- ``scale``: a server archive of ``--scale-n`` games (``pipeline.synth.server.server_archive`` and
  ``write_records`` of the ``--code`` checkout, seed ``--seed``, as ``bench/scale_bench.py`` makes it),
  generated once into ``<work>/scale-raw-<n>-<seed>`` and reused; no configuration file.

Runs without a configuration file run in an empty folder, so that no ``config/ratings.toml`` is found.
Rule sets: ``--rules`` (default: every name of the ``--code`` checkout's ``pipeline.rules`` registry).

For each run the JSON holds a digest of its inputs (the raw folder's files and the configuration files:
a comparison says when the inputs differ, since the outputs then may too), the names the output folder
links, ``manifest.json``'s ``counts``, ``periods``, ``games``, ``warnings`` and ``rated_warnings``, and for
each Parquet file of the current generation (``games.parquet``, ``ratings/period=P/part-0.parquet`` ...,
every file the run wrote, found by walking ``.gen/current``): its rows, its schema (each field's name,
type, nullability), a digest of its pandas metadata without the writer's versions, a digest of its values
independent of the order of its rows and of the Parquet encoding (each row as canonical text, the texts
sorted, hashed), and such a digest of each column. Left out, because they differ between versions
or runs that give the same output: the manifest's digests, timings, generation, settings and incremental
details, ``state/`` (pickles, ``index.json``), ``.gen/history.json``, ``.cache`` and the lock file.

``compare A.json B.json`` prints every difference (case, rule set, file, what differs: missing file, rows,
schema, pandas metadata, values with the columns that differ, manifest entries, inputs) and exits 1 if
there is one, 0 if none, after a line saying how many runs, files and rows it compared. When both runs'
output folders still exist it also prints the first ``--rows`` rows found in one file and not the other.
A run that one record has and the other has not is a difference (``--common``: compare only the runs
both have).

Before and after a refactor::

    git worktree add --detach /work/base-BEFORE BEFORE_COMMIT     # the code before, untouched
    python bench/equivalence.py record --code /work/base-BEFORE --out /work/notes/equivalence-before.json
    # ... the refactor ...
    python bench/equivalence.py record --code /work/main --out /work/notes/equivalence-after.json \\
        --inputs /work/base-BEFORE --work <the before record's --work, to reuse its scale archive>
    python bench/equivalence.py compare /work/notes/equivalence-before.json /work/notes/equivalence-after.json

(``python``: ``.venv/bin/python``, the venv with the pipeline's dependencies: the pipeline runs
in child processes of the same Python.) ``--cases sample,corpora`` and ``--rules club,hkga`` record a
part (then ``compare --common``). Both records keep their output folders, for the rows ``compare`` shows.
A whole record (3 cases × 7 rule sets, 10^5 games) took 6 to 9 minutes on two shared cores (20 under a
heavy load); generating the archive, once, one minute more.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

CASES = ("sample", "corpora", "scale")
#: The Python that runs the pipeline: this script's own (the venv that has the pipeline's dependencies).
PYTHON = Path(sys.executable)
#: The real records: $SGF_CORPORA, else ../shared/corpora beside the repository (as the tests read them).
CORPORA = Path(os.environ.get("SGF_CORPORA") or Path(__file__).resolve().parents[2] / "shared" / "corpora")
GOMOKU = "tga"  # the rule set whose sample is data/gomoku/raw
#: Kept from manifest.json: what the run found and rated (no digests, timings or paths).
MANIFEST_KEYS = ("counts", "periods", "games", "warnings", "rated_warnings")
#: Under the generation folder: not output tables (the run's state for the next incremental run).
SKIPPED_IN_GENERATION = ("state", "manifest.json")
#: Under the output folder: not the output (generations, the ingest cache, the lock).
SKIPPED_IN_OUTPUT = (".gen", ".cache", ".lock")
#: Keys of a pandas metadata entry that name the writer, not the table.
WRITER_KEYS = ("creator", "pandas_version")
#: Error kinds of games.parquet that depend on the machine's load, not on the code alone.
LOAD_DEPENDENT = ("timeout", "crash")

Json = dict[str, Any]


# --- running the pipeline -------------------------------------------------------------------------------


def child_env(code: Path) -> dict[str, str]:
    """The environment of a child process that imports ``pipeline`` from ``code``."""
    return {**os.environ, "PYTHONPATH": str(code)}


def python_in(code: Path, script: str) -> str:
    """Run ``script`` with the shared venv's Python on ``code``'s package; its standard output."""
    done = subprocess.run(
        [str(PYTHON), "-c", script], env=child_env(code), capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"python in {code} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def rule_names(code: Path) -> list[str]:
    """The names of the rule sets ``code``'s registry holds."""
    return python_in(code, "from pipeline import rules; print(','.join(rules.names()))").strip().split(",")


def commit_of(code: Path) -> str | None:
    """The commit checked out at ``code`` (None: not a git checkout), with ``+dirty`` if it has changes."""
    try:
        head = subprocess.run(["git", "-C", str(code), "rev-parse", "HEAD"], capture_output=True, text=True)
        status = subprocess.run(
            ["git", "-C", str(code), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
        )
    except OSError:
        return None
    if head.returncode:
        return None
    return head.stdout.strip() + ("+dirty" if status.stdout.strip() else "")


def scale_raw(code: Path, work: Path, n: int, seed: int) -> Path:
    """The server archive of ``n`` games under ``work``, generated once by ``code``'s synth (a marker file
    says it is complete)."""
    raw = work / f"scale-raw-{n}-{seed}"
    marker = raw.with_name(raw.name + ".done")
    if marker.exists():
        return raw
    shutil.rmtree(raw, ignore_errors=True)
    started = time.perf_counter()
    script = (
        "from pathlib import Path\n"
        "from pipeline.synth.records import write_records\n"
        "from pipeline.synth.server import server_archive\n"
        f"print(write_records(server_archive({n}, {seed}), Path({str(raw)!r})))\n"
    )
    count = python_in(code, script).strip()
    marker.write_text(f"{count} records in {time.perf_counter() - started:.1f} s\n")
    print(f"generated {count} records in {time.perf_counter() - started:.1f} s -> {raw}", file=sys.stderr)
    return raw


def run_pipeline(code: Path, raw: Path, out: Path, rule_set: str, config: Path | None) -> Json:
    """One ``ratings run`` of ``code`` into the fresh folder ``out`` (its log in ``out.log``); the seconds it
    took and, if it failed, its exit code and the end of its log."""
    shutil.rmtree(out, ignore_errors=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    command = [str(PYTHON), "-c", "from pipeline.cli import app; app()", "run"]
    command += ["--raw", str(raw), "--out", str(out), "--rules", rule_set]
    command += ["--config", str(config)] if config is not None else []
    log = out.with_name(out.name + ".log")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as empty, log.open("wb") as written:
        done = subprocess.run(command, cwd=empty, env=child_env(code), stdout=written, stderr=written)
    found: Json = {"seconds": round(time.perf_counter() - started, 2)}
    if done.returncode:
        found["failed"] = {"exit": done.returncode, "log": log.read_text(errors="replace")[-2000:]}
    return found


@dataclass(frozen=True)
class Sources:
    """Where the cases' records come from: ``checkout`` holds the sample's data/ and config/, ``corpora``
    the real records, ``scale`` the server archive (None: not generated, the case is not recorded)."""

    checkout: Path
    corpora: Path
    scale: Path | None


def case_inputs(case: str, rule_set: str, sources: Sources) -> tuple[Path, Path | None]:
    """The raw folder and the configuration file (None: none) of ``case`` under ``rule_set``."""
    if case == "sample":
        raw = sources.checkout / "data" / ("gomoku/raw" if rule_set == GOMOKU else "raw")
        config = sources.checkout / "config" / "examples" / f"{rule_set}.toml"
        return raw, config if config.exists() else None
    if case == "corpora":
        return sources.corpora, None
    assert sources.scale is not None
    return sources.scale, None


# --- digests ------------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A JSON-able stand-in for a value ``json`` cannot write (dates and times, bytes)."""
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return {"t": value.isoformat()}
    if isinstance(value, dt.timedelta):
        return {"td": str(value)}
    if isinstance(value, bytes):
        return {"b": value.hex()}
    raise TypeError(f"cannot write {type(value).__name__} {value!r}")


def cell_text(value: Any) -> str:
    """A value of a cell as canonical text: JSON (floats exact, NaN and null apart), on one line."""
    return json.dumps(value, default=_plain, ensure_ascii=False, separators=(",", ":"))


def row_texts(table: pa.Table) -> list[str]:
    """Each row of ``table`` as readable text (its cells' :func:`cell_text`, tab-separated), sorted: what
    a comparison shows of rows that differ."""
    columns = [[cell_text(v) for v in column.to_pylist()] for column in table.columns]
    return sorted("\t".join(row) for row in zip(*columns, strict=True))


#: Arrow's escapes that make a text cell's canonical form hold no tab or newline (the separators).
_ESCAPES = (("\\", "\\\\"), ("\t", "\\t"), ("\n", "\\n"))
_SAME_WIDTH_INT = {16: pa.int16(), 32: pa.int32(), 64: pa.int64()}


def column_text(column: pa.ChunkedArray) -> pa.Array:
    """Each cell of ``column`` as canonical text, computed by Arrow where it can (a 10^5 games' output
    in seconds, not minutes): null ``null``; text quoted, with ``\\``, tab and newline escaped; integers
    and booleans in decimal and ``true``/``false``; floats, dates and times by their bits as integers
    (exact: -0.0 and NaN too); anything else (binary, lists, structs, maps) as :func:`cell_text`. No
    text holds a tab or a newline."""
    array = column.combine_chunks()
    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    kind = array.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        for old, new in _ESCAPES:
            array = pc.replace_substring(array, old, new)
        text = pc.binary_join_element_wise('"', array, '"', "")
    elif pa.types.is_integer(kind) or pa.types.is_boolean(kind):
        text = pc.cast(array, pa.string())
    elif (pa.types.is_floating(kind) or pa.types.is_temporal(kind)) and kind.bit_width in _SAME_WIDTH_INT:
        text = pc.cast(array.view(_SAME_WIDTH_INT[kind.bit_width]), pa.string())
    else:
        text = pa.array([cell_text(v) for v in array.to_pylist()], pa.string())
    return pc.fill_null(text, "null")


def multiset_digest(texts: pa.Array) -> str:
    """A digest of the texts ``texts`` (none null, none holding a newline) that their order does not
    change: sorted, joined by newlines, hashed."""
    ordered = texts.take(pc.sort_indices(texts)).to_pylist()
    return hashlib.sha256("\n".join(ordered).encode()).hexdigest()[:32]


def schema_of(schema: pa.Schema) -> list[str]:
    """Each field of ``schema`` as ``name: type`` (``not null`` when it is)."""
    return [f"{f.name}: {f.type}" + ("" if f.nullable else " not null") for f in schema]


def pandas_digest(schema: pa.Schema) -> str | None:
    """A digest of ``schema``'s pandas metadata without the writer's versions (None: it has none)."""
    raw = (schema.metadata or {}).get(b"pandas")
    if raw is None:
        return None
    meta = {k: v for k, v in json.loads(raw).items() if k not in WRITER_KEYS}
    return hashlib.sha256(json.dumps(meta, sort_keys=True).encode()).hexdigest()[:16]


def read_file(path: Path) -> pa.Table:
    """The table of one Parquet file alone (no partition columns from the folder names)."""
    return pq.ParquetFile(path).read()


def file_digest(path: Path) -> Json:
    """Rows, schema, pandas metadata, values and each column's values of one Parquet file."""
    table = read_file(path)
    columns = [column_text(column) for column in table.columns]
    rows = pc.binary_join_element_wise(*columns, "\t") if columns else pa.array([], pa.string())
    return {
        "rows": table.num_rows,
        "schema": schema_of(table.schema),
        "pandas": pandas_digest(table.schema),
        "values": multiset_digest(rows),
        "columns": {
            name: multiset_digest(texts) for name, texts in zip(table.column_names, columns, strict=True)
        },
    }


def generation_files(generation: Path) -> Iterator[Path]:
    """Every file of ``generation`` but its state and manifest, as paths relative to it, in order."""
    for path in sorted(generation.rglob("*")):
        relative = path.relative_to(generation)
        if path.is_file() and relative.parts[0] not in SKIPPED_IN_GENERATION:
            yield relative


def output_digest(out: Path) -> Json:
    """The record of one run's output folder: its links, manifest entries and files."""
    generation = (out / ".gen" / "current").resolve()
    manifest = json.loads((generation / "manifest.json").read_text(encoding="utf-8"))
    files: Json = {}
    for relative in generation_files(generation):
        if relative.suffix == ".parquet":
            files[str(relative)] = file_digest(generation / relative)
        else:
            files[str(relative)] = {"bytes": hashlib.sha256((generation / relative).read_bytes()).hexdigest()}
    return {
        "entries": sorted(p.name for p in out.iterdir() if p.name not in SKIPPED_IN_OUTPUT),
        "manifest": {key: manifest.get(key) for key in MANIFEST_KEYS},
        "files": files,
    }


@functools.cache
def folder_digest(folder: Path) -> str:
    """A digest of every file under ``folder``: relative paths and contents."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(folder)).encode(errors="surrogateescape") + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:32]


def config_files(config: Path) -> list[Path]:
    """``config`` and the roster and events files its ``[run]`` names (those that exist)."""
    run = tomllib.loads(config.read_text(encoding="utf-8")).get("run", {})
    named = [config.parent / run[key] for key in ("roster", "events") if run.get(key)]
    return [config, *(p for p in named if p.is_file())]


def inputs_digest(raw: Path, config: Path | None) -> Json:
    """Digests of a run's raw folder and of its configuration files (by name)."""
    found: Json = {"raw": folder_digest(raw)}
    for path in config_files(config) if config is not None else []:
        found[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()[:32]
    return found


# --- record -------------------------------------------------------------------------------------------


def record_run(code: Path, rule_set: str, raw: Path, config: Path | None, out: Path) -> Json:
    """Run one case under one rule set and digest what it wrote."""
    found = run_pipeline(code, raw, out, rule_set, config)
    started = time.perf_counter()
    found["inputs"] = inputs_digest(raw, config)
    found["out"] = str(out)
    if "failed" not in found:
        found |= output_digest(out)
    found["digest_seconds"] = round(time.perf_counter() - started, 2)
    return found


def load_dependent(found: Json) -> list[str]:
    """The error kinds of a run's records that a busier or quieter machine could change."""
    errors = (found.get("manifest") or {}).get("counts", {}).get("parse_errors", {})
    return [f"{kind} {errors[kind]}" for kind in LOAD_DEPENDENT if errors.get(kind)]


def record(args: argparse.Namespace) -> int:
    """Record every case × rule set of ``args`` into ``args.out``; 1 if a run failed, else 0."""
    code, inputs = args.code.resolve(), (args.inputs or args.code).resolve()
    work = args.work.resolve()
    names = args.rules.split(",") if args.rules else rule_names(code)
    cases = args.cases.split(",")
    unknown = sorted(set(cases) - set(CASES))
    if unknown:
        raise SystemExit(f"unknown cases {unknown}: the cases are {', '.join(CASES)}")
    work.mkdir(parents=True, exist_ok=True)
    scale = scale_raw(code, work, args.scale_n, args.seed) if "scale" in cases else None
    sources = Sources(inputs, args.corpora.resolve(), scale)
    label = args.out.name.removesuffix(".json")
    runs: Json = {}
    started = time.perf_counter()
    for case in cases:
        for rule_set in names:
            raw, config = case_inputs(case, rule_set, sources)
            out = work / label / case / rule_set
            found = record_run(code, rule_set, raw, config, out)
            runs.setdefault(case, {})[rule_set] = found
            say = f"failed ({found['failed']['exit']}), see {out}.log" if "failed" in found else "ok"
            timed = f"run {found['seconds']} s, digests {found['digest_seconds']} s"
            print(f"{case} {rule_set}: {say}, {timed}", file=sys.stderr, flush=True)
            if load_dependent(found):
                print(
                    f"  warning: records with {', '.join(load_dependent(found))}: they depend on the "
                    "machine's load, not only on the code",
                    file=sys.stderr,
                )
    document = {
        "code": str(code),
        "commit": commit_of(code),
        "inputs": str(inputs),
        "corpora": str(sources.corpora),
        "scale_n": args.scale_n,
        "seed": args.seed,
        "recorded": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - started, 1),
        "runs": runs,
    }
    args.out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"recorded {_tally(runs)} in {document['seconds']} s -> {args.out}", file=sys.stderr)
    return 1 if any("failed" in r for case in runs.values() for r in case.values()) else 0


def _tally(runs: Json) -> str:
    """``N runs, F files, R rows`` of a record's runs."""
    files = [f for case in runs.values() for r in case.values() for f in r.get("files", {}).values()]
    count = sum(len(case) for case in runs.values())
    return f"{count} runs, {len(files)} files, {sum(f.get('rows', 0) for f in files):,} rows"


# --- compare ------------------------------------------------------------------------------------------


def file_differences(a: Json, b: Json) -> list[str]:
    """What differs between the records of one file in two runs (empty: nothing)."""
    if "bytes" in a or "bytes" in b:
        return [] if a.get("bytes") == b.get("bytes") else ["contents differ"]
    found = []
    if a["rows"] != b["rows"]:
        found.append(f"rows {a['rows']} -> {b['rows']}")
    if a["schema"] != b["schema"]:
        gone = [f for f in a["schema"] if f not in b["schema"]]
        new = [f for f in b["schema"] if f not in a["schema"]]
        found.append(f"schema: only in A {gone}, only in B {new}" if gone or new else "schema: column order")
    if a["pandas"] != b["pandas"]:
        found.append("pandas metadata differs")
    if a["values"] != b["values"]:
        columns = [c for c, d in a["columns"].items() if c in b["columns"] and b["columns"][c] != d]
        which = ", ".join(columns) or "no column alone: the rows pair the values differently"
        found.append(f"values differ (columns: {which})")
    return found


def run_differences(a: Json, b: Json) -> list[tuple[str, str]]:
    """(where, what) for each difference between two records of one run."""
    found: list[tuple[str, str]] = []
    if a.get("inputs") != b.get("inputs"):
        found.append(("inputs", f"differ ({a.get('inputs')} -> {b.get('inputs')}): outputs may differ too"))
    if "failed" in a or "failed" in b:
        if ("failed" in a) != ("failed" in b):
            found.append(("run", f"failed in {'A' if 'failed' in a else 'B'} only"))
        return found
    if a["entries"] != b["entries"]:
        found.append(("output folder", f"entries {a['entries']} -> {b['entries']}"))
    for key in sorted(set(a["manifest"]) | set(b["manifest"])):
        if a["manifest"].get(key) != b["manifest"].get(key):
            found.append((f"manifest {key}", f"{a['manifest'].get(key)} -> {b['manifest'].get(key)}"))
    for name in sorted(set(a["files"]) | set(b["files"])):
        if name not in b["files"] or name not in a["files"]:
            found.append((name, f"only in {'A' if name in a['files'] else 'B'}"))
            continue
        found += [(name, what) for what in file_differences(a["files"][name], b["files"][name])]
    return found


def differing_rows(a: Path, b: Path, limit: int) -> list[str]:
    """Up to ``limit`` rows of each file that the other lacks (as canonical text), with how many there
    are in all; nothing unless both files still exist."""
    if not (a.is_file() and b.is_file()) or limit <= 0:
        return []
    table_a, table_b = read_file(a), read_file(b)
    rows_a, rows_b = Counter(row_texts(table_a)), Counter(row_texts(table_b))
    lines = [f"columns: {', '.join(table_a.column_names)}"]
    for side, only in (("A", rows_a - rows_b), ("B", rows_b - rows_a)):
        rows = list(only.elements())
        lines += [f"{side} only: {row}" for row in rows[:limit]]
        lines += [f"{side} only: {len(rows)} in all"] if rows else []
    return lines


def compare(args: argparse.Namespace) -> int:
    """Print every difference between two records; 1 if there is one, else 0."""
    a, b = (json.loads(p.read_text(encoding="utf-8"))["runs"] for p in (args.a, args.b))
    keys_a = {(c, r) for c, rs in a.items() for r in rs}
    keys_b = {(c, r) for c, rs in b.items() for r in rs}
    differences = 0
    if not args.common:
        for case, rule_set in sorted(keys_a ^ keys_b):
            print(f"{case} {rule_set}: recorded in {'A' if (case, rule_set) in keys_a else 'B'} only")
            differences += 1
    files = rows = 0
    for case, rule_set in sorted(keys_a & keys_b):
        run_a, run_b = a[case][rule_set], b[case][rule_set]
        found = run_differences(run_a, run_b)
        for where, what in found:
            print(f"{case} {rule_set} {where}: {what}")
            if what.startswith("values differ"):
                shown = differing_rows(
                    _generation_file(run_a, where), _generation_file(run_b, where), args.rows
                )
                print("".join(f"    {line}\n" for line in shown), end="")
        uncertain = sorted({*load_dependent(run_a), *load_dependent(run_b)})
        if found and uncertain:
            print(
                f"{case} {rule_set}: note: records with {', '.join(uncertain)} (the machine's load decides)"
            )
        differences += len(found)
        common = set(run_a.get("files", {})) & set(run_b.get("files", {}))
        files += len(common)
        rows += sum(run_a["files"][f].get("rows", 0) for f in common)
    compared = len(keys_a & keys_b)
    verdict = "identical" if not differences else f"{differences} difference{'s' * (differences != 1)}"
    print(f"compared {compared} runs, {files} files, {rows:,} rows: {verdict}")
    return 1 if differences else 0


def _generation_file(run: Json, relative: str) -> Path:
    """The file ``relative`` of the current generation of a run's output folder (it may be gone)."""
    return Path(run["out"]) / ".gen" / "current" / relative


# --- command line -------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    """The command line: ``record`` and ``compare``."""
    top = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record", help="run the pipeline of a checkout and record its outputs' digests")
    rec.add_argument("--code", type=Path, required=True, help="the checkout whose pipeline runs")
    rec.add_argument("--out", type=Path, required=True, help="the JSON file to write")
    rec.add_argument("--inputs", type=Path, help="the checkout whose data/ and config/ the sample case reads")
    rec.add_argument("--corpora", type=Path, default=CORPORA, help="the corpora case's raw folder")
    work = Path(__file__).resolve().parent / "out" / "equivalence"
    rec.add_argument("--work", type=Path, default=work, help="output folders and the scale archive go here")
    rec.add_argument("--scale-n", type=int, default=100_000, help="games of the scale case's archive")
    rec.add_argument("--seed", type=int, default=1, help="seed of the scale case's archive")
    rec.add_argument("--rules", help="rule sets, separated by commas (default: every registered one)")
    rec.add_argument("--cases", default=",".join(CASES), help="cases, separated by commas")
    cmp = commands.add_parser("compare", help="print every difference between two records")
    cmp.add_argument("a", type=Path)
    cmp.add_argument("b", type=Path)
    cmp.add_argument("--rows", type=int, default=5, help="rows shown of each differing file (0: none)")
    cmp.add_argument("--common", action="store_true", help="compare only the runs both records hold")
    return top


def main() -> None:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `compare ... | head` ends quietly
    args = parser().parse_args()
    raise SystemExit(record(args) if args.command == "record" else compare(args))


if __name__ == "__main__":
    main()
