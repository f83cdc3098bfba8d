"""run: the stages in order, each configured once, writing the outputs of DESIGN.md's contract.

Today: ingest -> ``games.parquet`` and ``manifest.json``. Later stages (audit, rate, snapshots)
plug in here. Knows nothing of the command line: options come in, a report goes out.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline import __version__, store
from pipeline.ingest import IngestOptions, IngestResult, ingest, parser_version
from pipeline.summary import ingest_counts

GAMES_FILE = "games.parquet"
MANIFEST_FILE = "manifest.json"


@dataclass(frozen=True, slots=True)
class RunReport:
    """What a run did: the ingest result, the counts written to the manifest, where the output is."""

    ingest: IngestResult
    counts: dict[str, Any]
    out: Path


def run_ingest(raw: Path, out: Path, options: IngestOptions | None = None) -> RunReport:
    """Ingest ``raw`` and write ``games.parquet`` and ``manifest.json`` into ``out`` (atomically).

    Raises :class:`pipeline.ingest.IngestError` if ``raw`` is not a folder.
    """
    options = options or IngestOptions()
    result = ingest(raw, out, options)
    started = time.perf_counter()
    store.write_parquet(result.games, out / GAMES_FILE)
    counts = ingest_counts(result.games)
    manifest = _manifest(raw, result, counts, options, time.perf_counter() - started)
    store.write_json(manifest, out / MANIFEST_FILE)
    return RunReport(result, counts, out)


def _manifest(
    raw: Path, result: IngestResult, counts: dict[str, Any], options: IngestOptions, write_s: float
) -> dict[str, Any]:
    paths = result.games.column("source_path").unique().to_pylist()
    settings = {"speed_threshold_s": options.speed_threshold_s}  # every setting that shapes the output
    digest = hashlib.blake2b(json.dumps(settings, sort_keys=True).encode(), digest_size=8).hexdigest()
    return {
        "package_version": __version__,
        "parser_version": parser_version(),
        "raw": str(raw),
        "settings": settings,
        "config_digest": digest,
        "input_files": len(paths),
        "files_parsed": result.parsed,
        "files_reused": result.reused,
        "counts": counts,
        "timings_s": {"ingest": round(result.seconds, 3), "write": round(write_s, 3)},
    }
