"""outputs: what an output folder of ``ratings run`` looks like, and how to read its parts.

The file and folder names of the DESIGN.md output contract (``games.parquet``, ``manifest.json``,
``promotions.parquet``, the rule sets' report tables, the ``<dataset>/period=<label>/part-0.parquet``
partitions of ``ratings/``, ``changes/``, ``awards/`` and ``leaderboards/``), the ``games.parquet``
columns the queries read, the periods the folder holds, and readers: the games table (a missing one is
a :class:`ReportError`: no run yet), and the partitions and manifest (a part the run did not write reads
as nothing).

Knows nothing of the questions put to the folder (which games counted, the standings: those are
:mod:`pipeline.reports`), of rendering, or of how the run wrote the folder (:mod:`pipeline.output.snapshots`;
the names here must match it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq

from pipeline.audit import periods as periods_mod
from pipeline.output import snapshots

GAMES_FILE = "games.parquet"
MANIFEST_FILE = "manifest.json"
PROMOTIONS_FILE = "promotions.parquet"
#: The one file of a dataset's partition folder ``<dataset>/period=<label>/``, and the file of a
#: dataset folder without partitions (its columns, no rows): as :mod:`pipeline.output.snapshots` writes them.
PART, EMPTY_PART = snapshots.PART, snapshots.EMPTY_PART
#: The rule sets' own report tables (``ratings show --report NAME``) by name -> file in the output folder.
REPORT_FILES = {
    "certification": "certification.parquet",
    "fees": "fees.parquet",
    "promotions": "promotions.parquet",
}
#: The columns of ``games.parquet`` the queries read (:func:`pipeline.reports.read_games`), in order.
GAMES_COLUMNS = (
    "seq",
    "game_id",
    "source_path",
    "game_index",
    "parse_error",
    "date",
    "period",
    "black",
    "white",
    "black_player",
    "white_player",
    "result",
    "speed",
    "speed_used",
    "event",
    "event_name",
    "stage",
    "counted",
    "reasons",
    "notes",
)
_PERIOD_PREFIX = "period="


class ReportError(ValueError):
    """A question the output folder cannot answer: no output yet, or an unknown period, reason or player.

    The message names the bad value and what would have been accepted.
    """


def read_games(out: Path, columns: Iterable[str] = GAMES_COLUMNS) -> pd.DataFrame:
    """``out/games.parquet`` (the ``columns`` named), rows in ``seq`` order, ``reasons``/``notes`` as lists.

    Raises ReportError if the file is missing (no ``ratings run`` into ``out`` yet).
    """
    path = out / GAMES_FILE
    if not path.exists():
        raise ReportError(f"no output in {out} (no {GAMES_FILE}): run `ratings run --out {out}` first")
    games: pd.DataFrame = pq.read_table(path, columns=list(columns)).to_pandas()
    for name in ("reasons", "notes"):
        if name in games:
            games[name] = games[name].map(list)
    if "seq" in games:
        games = games.sort_values("seq", kind="stable").reset_index(drop=True)
    return games


def rated_periods(out: Path) -> list[str]:
    """The periods ``out/ratings`` holds, in time order (empty when the run rated none, or no output)."""
    return _in_order(partition_labels(out, "ratings"))


def game_periods(out: Path, games: pd.DataFrame | None = None) -> list[str]:
    """Every period a game record in ``out`` falls in, or that was rated, in time order.

    ``games`` is ``out``'s games table when already read (any columns including ``period``).
    Raises ReportError if ``out`` holds no output.
    """
    if games is None:
        games = read_games(out, columns=["period"])
    return _in_order([*games["period"].dropna().unique(), *rated_periods(out)])


def check_period(period: str, known: list[str], out: Path) -> None:
    """Return if ``period`` is one of ``known`` (periods of ``out``); else raise ReportError naming
    ``period`` and ``out`` and listing ``known``."""
    if period not in known:
        listed = ", ".join(known) if known else "none"
        raise ReportError(f"unknown period {period!r} in {out} (periods: {listed})")


def partition_path(out: Path, dataset: str, period: str) -> Path:
    """The file of ``period``'s partition of ``dataset`` (``ratings``, ``changes``, ...) in ``out``,
    whether or not it exists."""
    return out / dataset / f"{_PERIOD_PREFIX}{period}" / PART


def partition_labels(out: Path, dataset: str) -> list[str]:
    """The period labels of the partitions ``out/<dataset>`` holds, in no particular order (empty when
    the folder is missing). Entries that are not ``period=<label>`` are passed over."""
    folder = out / dataset
    entries = folder.iterdir() if folder.is_dir() else ()
    return [p.name.removeprefix(_PERIOD_PREFIX) for p in entries if p.name.startswith(_PERIOD_PREFIX)]


def read_partition(
    out: Path, dataset: str, period: str, columns: Iterable[str] | None = None
) -> pd.DataFrame:
    """``period``'s partition of ``dataset`` in ``out`` (only ``columns`` when given), rows as written.

    A missing partition reads as a table without rows: with ``columns`` as its columns when given,
    else with none. Raises what pandas raises for a partition that exists but cannot be read.
    """
    wanted = None if columns is None else list(columns)
    path = partition_path(out, dataset, period)
    if path.exists():
        return pd.read_parquet(path, columns=wanted)
    return pd.DataFrame(columns=wanted) if wanted is not None else pd.DataFrame()


def read_manifest(out: Path) -> dict[str, Any]:
    """``out/manifest.json`` as a dict; an empty dict when it is missing, unreadable, not JSON or not a
    JSON object (never raises for the manifest's content)."""
    try:
        found = json.loads((out / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _in_order(labels: Iterable[str]) -> list[str]:
    """Distinct period labels by their first day (then text); labels that are not periods go last."""

    def key(label: str) -> tuple[int, str, str]:
        try:
            return 0, periods_mod.bounds(label)[0].isoformat(), label
        except periods_mod.PeriodError:
            return 1, "", label

    return sorted({str(label) for label in labels}, key=key)
