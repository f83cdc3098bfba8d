"""probe: each input timed alone through the pipeline's per-file reader, with a wall-clock budget a file.

A child process (``python -m fuzz.probe``) reads the files named in a list, calls
:func:`pipeline.ingest.record.rows_for_bytes` on each and writes one JSON line per file: its position,
the seconds taken and the traceback if it raised. The parent (:func:`probe`) follows those lines; when
the child is silent for longer than the budget, the file in progress is a hang: the child is killed and
a new one goes on from the next file. A child that dies (a crash of the interpreter) names its file too.

Knows nothing of mutants or of ``ratings run``: only names, bytes and time.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_STARTUP_S = 20.0  # allowance for the child's imports before its first line


@dataclass(frozen=True, slots=True)
class Timing:
    """One file's probe: its ``position`` in the list, ``seconds`` taken, the ``error`` (a traceback, or
    ``process died ...``) if reading it failed, and ``hung`` when it overran the budget (then killed)."""

    position: int
    seconds: float
    error: str | None = None
    hung: bool = False


@dataclass(frozen=True, slots=True)
class ProbeResult:
    """The timings, in list order, and how many files were left unprobed when the total budget ran out."""

    timings: list[Timing]
    unprobed: int


def probe(raw: Path, names: list[bytes], budget_s: float, total_s: float) -> ProbeResult:
    """Time every file ``raw/name`` of ``names`` alone, each within ``budget_s``, all within ``total_s``.

    Returns a :class:`ProbeResult`. Raises OSError if the list file cannot be written beside ``raw``.
    """
    listing = raw.parent / "probe.list"
    listing.write_text("".join(name.hex() + "\n" for name in names))
    timings: list[Timing] = []
    deadline, start = time.monotonic() + total_s, 0
    while start < len(names) and time.monotonic() < deadline:
        start = _follow(_spawn(raw, listing, start), start, budget_s, deadline, timings)
    return ProbeResult(timings, len(names) - start)


def _spawn(raw: Path, listing: Path, start: int) -> subprocess.Popen[bytes]:
    env = os.environ | {
        "PYTHONPATH": os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(ROOT)]))
    }
    command = [sys.executable, "-m", "fuzz.probe", str(raw), str(listing), str(start)]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, start_new_session=True
    )


def _follow(
    child: subprocess.Popen[bytes], position: int, budget_s: float, deadline: float, timings: list[Timing]
) -> int:
    """Collect the child's lines into ``timings`` until it ends or overruns; the next position to probe."""
    assert child.stdout is not None
    fd, pending, wait = child.stdout.fileno(), b"", budget_s + _STARTUP_S
    try:
        while True:
            ready, _, _ = select.select([fd], [], [], max(0.0, min(wait, deadline - time.monotonic())))
            if not ready:
                hung = time.monotonic() < deadline
                timings.extend([Timing(position, budget_s, None, True)] if hung else [])
                return position + 1 if hung else position
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return _ended(child, position, timings)
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in filter(None, map(_timing, lines)):
                timings.append(line)
                position = line.position + 1
            wait = budget_s
    finally:
        _stop(child)


def _timing(line: bytes) -> Timing | None:
    """The :class:`Timing` a line of the child holds, or None for anything else it printed."""
    try:
        return Timing(**json.loads(line))
    except (ValueError, TypeError):
        return None


def _ended(child: subprocess.Popen[bytes], position: int, timings: list[Timing]) -> int:
    """The child closed its output: done (exit 0: ``position`` is past the last file), or it died on
    the file at ``position``."""
    code = child.wait()
    if code == 0:
        return position
    timings.append(Timing(position, 0.0, f"probe process died (exit status {code}) reading this file"))
    return position + 1


def _stop(child: subprocess.Popen[bytes]) -> None:
    if child.poll() is None:
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    if child.stdout is not None:
        child.stdout.close()


def _time_one(path: bytes, name: bytes) -> tuple[float, str | None]:
    """Seconds to read the file at ``path`` through the pipeline's reader, and the traceback if it raised."""
    from pipeline.ingest.record import rows_for_bytes  # in the child only: the parent never parses

    started = time.perf_counter()
    try:
        with open(path, "rb") as f:
            data = f.read()
        started = time.perf_counter()
        rows_for_bytes(data, name.decode("utf-8", "backslashreplace"))  # names are the real run's business
    except Exception:
        return time.perf_counter() - started, traceback.format_exc()
    return time.perf_counter() - started, None


def main(argv: list[str] | None = None) -> int:
    """The child: ``python -m fuzz.probe RAW LIST START`` writes a JSON line per file from START on."""
    parser = argparse.ArgumentParser(prog="python -m fuzz.probe", description=main.__doc__)
    parser.add_argument("raw", type=Path)
    parser.add_argument("listing", type=Path)
    parser.add_argument("start", type=int)
    args = parser.parse_args(argv)
    names = [bytes.fromhex(line) for line in args.listing.read_text().split()]
    raw = os.fsencode(args.raw)
    for position in range(args.start, len(names)):
        seconds, error = _time_one(os.path.join(raw, names[position]), names[position])
        line = {"position": position, "seconds": round(seconds, 4), "error": error}
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
