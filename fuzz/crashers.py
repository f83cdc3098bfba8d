"""crashers: every failing input saved under ``fuzz/out/crashers/`` so that a developer can reproduce it.

Each is ``<kind>-s<seed>-m<index>.sgf`` (the bytes; the name is plain ASCII whatever the input's was) with
a ``.json`` beside it: the original name (hex and readable), the mutators, what went wrong and the
command that regenerates the input under its own name. Inputs the reader raised on are also minimised
(``.min.sgf``) by :mod:`fuzz.minimise`, in a child process under a time limit. At most
``PER_SIGNATURE`` inputs are kept for one kind of failure (same kind, same message with digits masked).

Knows nothing of how a failure was found.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from fuzz.probe import ROOT

PER_SIGNATURE = 5
MINIMISE_S = 30.0


@dataclass(frozen=True, slots=True)
class Failure:
    """One failing input: ``kind`` (crash, hang, internal, timeout, missing, reader, renamed), its index,
    name and mutators, and ``detail`` (the message or traceback)."""

    kind: str
    index: int
    name: bytes
    ops: tuple[str, ...]
    detail: str


def signature(failure: Failure) -> str:
    """The failure's kind and the last line of its detail with digits masked: equal for one bug."""
    lines = failure.detail.strip().splitlines() or [""]
    return f"{failure.kind}: {re.sub(r'[0-9]+', 'N', lines[-1])[:160]}"


def save(
    failures: list[Failure], raw: Path, target: Path, run: tuple[int, int, str], seen: dict[str, int]
) -> list[Path]:
    """Save ``failures`` (files under ``raw``) of a run (seed, batch size, rule set) in ``target``, skipping
    signatures already saved PER_SIGNATURE times (``seen`` counts them across batches and is updated).
    Returns the paths saved."""
    target.mkdir(parents=True, exist_ok=True)
    saved = []
    for failure in failures:
        key = signature(failure)
        if seen.get(key, 0) >= PER_SIGNATURE:
            continue
        seen[key] = seen.get(key, 0) + 1
        path = target / f"{failure.kind}-s{run[0]}-m{failure.index:07d}.sgf"
        if _copy(os.path.join(os.fsencode(raw), failure.name), path):
            _describe(path, failure, run)
            saved.append(path)
            if failure.kind in ("internal", "reader") and seen[key] == 1:
                minimise(path, path.with_suffix(".min.sgf"))
    return saved


def _copy(source: bytes, path: Path) -> bool:
    try:
        with open(source, "rb") as f:
            path.write_bytes(f.read())
    except OSError:
        return False
    return True


def _describe(path: Path, failure: Failure, run: tuple[int, int, str]) -> None:
    seed, batch, rules = run
    meta = {
        "kind": failure.kind,
        "index": failure.index,
        "seed": seed,
        "name": failure.name.decode("utf-8", "backslashreplace"),
        "name_hex": failure.name.hex(),
        "ops": list(failure.ops),
        "detail": failure.detail,
        "rules": rules,
        "regenerate": f"python -m fuzz.driver --seed {seed} --batch {batch} --replay {failure.index}",
        "run": f"mkdir /tmp/r && cp {path} /tmp/r/ && ratings run --raw /tmp/r --out /tmp/o --rules {rules}",
    }
    text = json.dumps(meta, ensure_ascii=False, indent=1) + "\n"
    path.with_suffix(".json").write_text(text, encoding="utf-8", errors="backslashreplace")


def minimise(source: Path, target: Path) -> bool:
    """Minimise ``source`` into ``target`` in a child within MINIMISE_S; True if the reader failed on it."""
    env = os.environ | {
        "PYTHONPATH": os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(ROOT)]))
    }
    command = [sys.executable, "-m", "fuzz.minimise", str(source), str(target)]
    try:
        done = subprocess.run(command, env=env, timeout=MINIMISE_S, capture_output=True, check=False)
    except subprocess.TimeoutExpired:
        return target.exists()
    return done.returncode == 0
