"""Activity benchmark: the CPU time a period's activity columns add to its ratings table
(:mod:`pipeline.core.activity`, :func:`pipeline.rules.collect.period_tables`).

For a standings of ``--players`` names (a server's at 10^6 games holds about 83,000 by its last month,
at 10^7 about 800,000) and ``--changes`` change rows, the median of ``--repeat`` timings
(``time.process_time``) of each step a period adds: carrying the last counted days on
(:meth:`LastCounted.advance`, when the standings keep the order of the period before and when they do
not), the activity columns under a span (:func:`marks`), and the places among the active players (the
ratings table's ``rating_place``). Prints a Markdown table.

Usage: python bench/activity_bench.py [--players 83000 800000] [--changes 20000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.core.activity import LastCounted, day_number, marks, span_of
from pipeline.rules.collect import _places


def timed(step: Callable[[], Any], repeat: int) -> float:
    """The median CPU seconds of ``repeat`` calls of ``step``."""
    found = []
    for _ in range(repeat):
        started = time.process_time()
        step()
        found.append(time.process_time() - started)
    return statistics.median(found)


def steps(players: int, changes: int, seed: int = 1) -> dict[str, Callable[[], Any]]:
    """Each step a period adds, on ``players`` names and ``changes`` change rows."""
    rng = np.random.default_rng(seed)
    names = [f"player{i:07d}" for i in range(players)]
    array = pa.array(names)
    end = dt.date(2016, 12, 31)
    days = rng.integers(day_number(dt.date(2005, 1, 1)), day_number(end), players).astype(np.int32)
    at = rng.integers(0, players, changes)
    played = np.full(changes, day_number(end) - 3, np.int32)
    kept, shuffled = names[: players - 1000], list(reversed(names[: players - 1000]))
    span = span_of("24 months")
    active = marks(days, end, span)
    table = pa.table({"rating": pa.array(np.sort(rng.normal(1500, 300, players))[::-1]), **active})
    return {
        "carry, same order": lambda: LastCounted(kept, days[: players - 1000]).advance(
            names, array, at, played
        ),
        "carry, new order": lambda: LastCounted(shuffled, days[: players - 1000]).advance(
            names, array, at, played
        ),
        "activity columns": lambda: marks(days, end, span),
        "places among the active": lambda: _places(table),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[83_000, 800_000])
    parser.add_argument("--changes", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print("| players | step | CPU ms (median) |\n|---|---|---|")
    for players in args.players:
        for name, step in steps(players, args.changes).items():
            print(f"| {players:,} | {name} | {1000 * timed(step, args.repeat):.1f} |")


if __name__ == "__main__":
    main()
