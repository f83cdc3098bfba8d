"""batch: one folder of inputs through ``ratings run`` (a subprocess, no project configuration, a
wall-clock limit), and the accounting of its ``games.parquet`` against the files written.

A run *crashed* when it exited non-zero or printed a traceback; it *hung* when it overran its limit (it
is then killed with its workers). The accounting finds, per input index (read from the ``m<index>``
stem of each ``source_path``, which survives any escaping of a non-UTF-8 name): rows with
``error_kind == "internal"``, rows with ``error_kind == "timeout"`` (hangs the pipeline contained),
inputs without a row (lost), rows of no input (stray) and names not rendered as written.

Knows nothing of how the inputs were made or of the report.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

TRACEBACK = "Traceback (most recent call last)"
MINIMAL_CONFIG = (
    '# fuzz: no roster, no events, the defaults of the rule set given by --rules\n[run]\nperiod = "month"\n'
)
_STEM = re.compile(rb"m(\d{7})")
_COLUMNS = ("source_path", "source_path_bytes", "error_kind", "parse_error")


@dataclass(frozen=True, slots=True)
class RunOutcome:
    """What one ``ratings run`` did: ``exit`` status (None: killed at the limit), ``seconds``, its
    ``stderr`` and the columns of ``games.parquet`` the accounting needs (None when none was written)."""

    exit: int | None
    seconds: float
    stderr: str
    games: pa.Table | None

    @property
    def hung(self) -> bool:
        return self.exit is None

    @property
    def crashed(self) -> bool:
        return (self.exit is not None and self.exit != 0) or TRACEBACK in self.stderr


@dataclass(slots=True)
class Accounting:
    """Per input index: ``internal`` and ``timeouts`` (index -> parse_error of the first such row),
    ``missing`` (indexes without a row), ``stray`` (source paths of no input), ``renamed`` (index ->
    source_path, for a name not rendered as written) and ``kinds`` (error_kind -> rows; None as "none")."""

    rows: int = 0
    internal: dict[int, str] = field(default_factory=dict)
    timeouts: dict[int, str] = field(default_factory=dict)
    missing: list[int] = field(default_factory=list)
    stray: list[str] = field(default_factory=list)
    renamed: dict[int, str] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=dict)


def write_inputs(raw: Path, files: Mapping[int, tuple[bytes, bytes]]) -> None:
    """Write each ``index -> (name, data)`` of ``files`` at ``raw/name`` (name: bytes, maybe not UTF-8)."""
    root = os.fsencode(raw)
    for name, data in files.values():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def ratings_command() -> list[str]:
    """The ``ratings`` entry point of this interpreter's environment."""
    script = Path(sys.executable).parent / "ratings"
    return [str(script)] if script.exists() else [sys.executable, "-c", "from pipeline.cli import app; app()"]


def run_ratings(raw: Path, work: Path, rules: str, workers: int, limit_s: float) -> RunOutcome:
    """``ratings run`` on ``raw`` with a minimal configuration in ``work`` (also its working directory,
    so no ``config/ratings.toml`` is read) into ``work/out``, killed after ``limit_s`` seconds."""
    out, config, err = work / "out", work / "fuzz.toml", work / "stderr.txt"
    shutil.rmtree(out, ignore_errors=True)
    config.write_text(MINIMAL_CONFIG)
    command = [*ratings_command(), "run", "--config", str(config), "--raw", str(raw), "--out", str(out)]
    command += ["--rules", rules, "--workers", str(workers)]
    env = os.environ | {"_TYPER_STANDARD_TRACEBACK": "1"}  # a plain traceback, not rich's boxes
    started = time.monotonic()
    with open(err, "wb") as stderr:
        child = subprocess.Popen(command, cwd=work, stdout=subprocess.DEVNULL, stderr=stderr, env=env)
        code = _wait(child, limit_s)
    stderr_text = err.read_bytes().decode("utf-8", "replace")
    games = read_games(out / "games.parquet") if code == 0 else None
    return RunOutcome(code, time.monotonic() - started, stderr_text, games)


def _wait(process: subprocess.Popen[bytes], limit_s: float) -> int | None:
    """The exit status of ``process``, or None after killing it and its children at ``limit_s``."""
    try:
        return process.wait(limit_s)
    except subprocess.TimeoutExpired:
        _kill_tree(process.pid)
        process.wait()
        return None


def _kill_tree(pid: int) -> None:
    """SIGKILL ``pid`` and the processes it started (its worker pool), by their ids."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    kids = [int(k) for k in children.read_text().split()] if children.exists() else []
    for child in kids:
        _kill_tree(child)
    for target in [pid, *kids]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(target, signal.SIGKILL)


def read_games(path: Path) -> pa.Table | None:
    """The accounting columns of ``games.parquet`` at ``path`` (those it has), or None if it is missing."""
    if not path.exists():
        return None
    names = pq.read_schema(path).names
    return pq.read_table(path, columns=[c for c in _COLUMNS if c in names])


def account(games: pa.Table, names: Mapping[int, bytes]) -> Accounting:
    """Check ``games`` against the inputs written (``index -> name``); returns the :class:`Accounting`."""
    result, seen = Accounting(rows=len(games)), set()
    column = games.column
    raws = column("source_path_bytes").to_pylist() if "source_path_bytes" in games.column_names else None
    for i, (path, kind, error) in enumerate(
        zip(
            column("source_path").to_pylist(),
            column("error_kind").to_pylist(),
            column("parse_error").to_pylist(),
            strict=True,
        )
    ):
        index = _index(path)
        result.kinds[kind or "none"] = result.kinds.get(kind or "none", 0) + 1
        if index is None or index not in names:
            result.stray.append(path)
            continue
        seen.add(index)
        if not _same_name(path, raws[i] if raws else None, names[index]):
            result.renamed.setdefault(index, path)
        if kind in ("internal", "timeout"):
            (result.internal if kind == "internal" else result.timeouts).setdefault(index, error or "")
    result.missing = sorted(set(names) - seen)
    return result


def _index(source_path: str) -> int | None:
    found = _STEM.search(source_path.encode("utf-8", "surrogateescape"))
    return int(found[1]) if found else None


def _same_name(source_path: str, raw: bytes | None, name: bytes) -> bool:
    """A UTF-8 name must come back as written; any other name through its raw bytes (or, lacking those,
    as the surrogate-escaped string)."""
    try:
        return source_path == name.decode("utf-8")
    except UnicodeDecodeError:
        return raw == name or source_path.encode("utf-8", "surrogateescape") == name
