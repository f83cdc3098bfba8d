"""minimise: a failing input cut down (delta debugging on bytes) while the pipeline's per-file reader
still raises the same way (same exception type, same innermost function).

Run as a child, ``python -m fuzz.minimise IN OUT [--tests N]``, under the parent's time limit: the best
input so far is in OUT after every step, so killing the child loses nothing. Used for the inputs whose
rows say ``internal`` (the reader raised); a crash of the whole ``ratings run`` costs a process a test,
so those are kept as they are. Knows nothing of batches or reports.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Callable
from pathlib import Path


def ddmin(
    data: bytes, fails: Callable[[bytes], bool], max_tests: int, keep: Callable[[bytes], None]
) -> bytes:
    """The smallest ``data`` found by removing chunks (halves, quarters, ... single bytes) for which
    ``fails`` stays True; ``keep`` is called with each smaller failing input. At most ``max_tests`` tests."""
    parts, tests = 2, 0
    while len(data) >= 2 and tests < max_tests:
        size = -(-len(data) // parts)
        for start in range(0, len(data), size):
            candidate = data[:start] + data[start + size :]
            tests += 1
            if fails(candidate):
                data, parts = candidate, max(parts - 1, 2)
                keep(data)
                break
            if tests >= max_tests:
                return data
        else:
            if size == 1:
                return data
            parts = min(parts * 2, len(data))
    return data


def failure(data: bytes) -> tuple[str, str] | None:
    """How the reader fails on ``data``: (exception type, innermost function), or None if it does not."""
    from pipeline.ingest.record import rows_for_bytes  # in the child only

    try:
        rows_for_bytes(data, "fuzz.sgf")
    except Exception as e:
        frame = traceback.extract_tb(e.__traceback__)[-1]
        return type(e).__name__, f"{frame.filename}:{frame.name}"
    return None


def main(argv: list[str] | None = None) -> int:
    """Minimise IN into OUT; exit 0 when IN fails in the reader, 3 when it does not (nothing written)."""
    parser = argparse.ArgumentParser(prog="python -m fuzz.minimise", description=main.__doc__)
    parser.add_argument("source", type=Path)
    parser.add_argument("target", type=Path)
    parser.add_argument("--tests", type=int, default=2000)
    args = parser.parse_args(argv)
    data = args.source.read_bytes()
    wanted = failure(data)
    if wanted is None:
        return 3
    args.target.write_bytes(data)
    ddmin(data, lambda d: failure(d) == wanted, args.tests, args.target.write_bytes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
