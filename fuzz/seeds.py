"""seeds: the records the mutants start from: the real corpora (read in place, never copied) and the
project's own generated records, so the fuzzer also works where the corpora are absent.

Knows nothing of mutation or of the pipeline; reads the corpora folder and calls :mod:`pipeline.synth`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pipeline.synth import club_sample, gomoku_sample, synthetic_corpus

ROOT = Path(__file__).resolve().parent.parent
SYNTHETIC = 400  # generated records in every pool
_MAX_SEED_BYTES = 2_000_000  # a corpus file larger than this is left out (none is, today)


@dataclass(frozen=True, slots=True)
class Pool:
    """The seed records (``records``, in a fixed order) and where they came from (``source``, for reports)."""

    records: tuple[bytes, ...]
    source: str


def corpora_dir() -> Path:
    """The real corpora: ``$SGF_CORPORA``, else ``../shared/corpora`` beside the repository."""
    return Path(os.environ.get("SGF_CORPORA", ROOT.parent / "shared" / "corpora"))


def corpus_records(folder: Path) -> list[bytes]:
    """The bytes of every file under ``folder`` but its README, sorted by relative path ([] if absent)."""
    if not folder.is_dir():
        return []
    paths = sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "README.md")
    return [data for p in paths if len(data := p.read_bytes()) <= _MAX_SEED_BYTES]


def generated_records(seed: int) -> list[bytes]:
    """The project's own records: SYNTHETIC of the benchmark corpus (seven server styles), then 60 each of
    the club season and the Gomoku sample (events, rounds, GM[4])."""
    records = [r.data for r in synthetic_corpus(SYNTHETIC, seed=seed)]
    return records + [r.data for r in club_sample()[:60]] + [r.data for r in gomoku_sample()[:60]]


def pool(seed: int, corpora: Path | None = None, *, use_corpora: bool = True) -> Pool:
    """The seed pool of run ``seed``: the corpora at ``corpora`` (default :func:`corpora_dir`) when
    ``use_corpora`` and present, then the generated records."""
    folder = corpora or corpora_dir()
    real = corpus_records(folder) if use_corpora else []
    generated = generated_records(seed)
    source = f"{len(real)} files of {folder}" if real else "no corpora"
    return Pool(tuple(real + generated), f"{source} + {len(generated)} generated records (seed {seed})")
