"""outputs: what an output folder of ``ratings run`` looks like, and how to read its parts.

The file and folder names of the output contract (README.md, "Outputs": ``games.parquet``, ``manifest.json``,
``promotions.parquet``, the ``<dataset>/period=<label>/part-0.parquet`` partitions of ``ratings/``,
``changes/``, ``awards/`` and ``leaderboards/``; the rule sets' report tables are named by the caller of
:func:`read_report`, from the rule sets' records), the ``games.parquet`` columns the queries read, the
periods the folder holds, and readers: the games table (a missing one is a :class:`ReportError`: no run yet),
and the partitions and manifest (a part the run did not write reads as nothing).

Reading the folder with other tools: every dataset (``ratings``, ``changes``, ``awards``, ``leaderboards``)
reads with its ``period`` column as text (the labels ``2024-05``, ``2024-Q2``, ``2024-H1``, ``2024``, as in
``games.parquet``) whose largest value is the latest period and whose order is the time order (of the
labels of one kind: a leaderboard's year ``2024`` sorts before its months), for every period kind, with
these calls (tested in ``tests/test_output_periods.py``)::

    pd.read_parquet("out/ratings")                      # string[pyarrow]: .max(), sort_values, filters
    ds.dataset("out/ratings", partitioning="hive")      # string (without partitioning: no period column)
    pq.read_table("out/ratings")                        # dictionary<string> (pyarrow's hive default)
    duckdb.sql("select * from read_parquet('out/ratings/**/*.parquet', hive_partitioning=true)")  # VARCHAR
    pl.read_parquet("out/ratings"); pl.scan_parquet("out/ratings", hive_partitioning=True)        # String

They hold because each dataset has the partition ``period=-`` without rows
(:data:`pipeline.output.snapshots.SCHEMA_PARTITION`): with only all-digit labels (a yearly run) each
reader would infer an integer type; and because every file's pandas metadata names ``period`` with
:data:`pipeline.core.tables.PARTITION_DTYPE` (else pandas gives an unordered categorical, ``-`` among
its categories). ``-`` is no period: :func:`partition_labels` passes over it, and a script that lists
the folders must too. Naming the type also works, with or without it: ``hive_types={'period':
'VARCHAR'}`` (DuckDB), ``hive_schema={"period": pl.String}`` (polars), ``partitioning=ds.partitioning(
pa.schema([("period", pa.string())]), flavor="hive")`` (pyarrow, pandas). Plain ``pd.read_parquet`` gives
every day (``date``) as datetime64 and nullable integers as ``Int32`` (:func:`pipeline.core.tables.stored`);
:func:`read_games`, :func:`read_partition` and :func:`read_report` give days as ``datetime.date``.

Knows nothing of the questions put to the folder (which games counted, the standings: those are
:mod:`pipeline.reports`), of rendering, or of how the run wrote the folder (:mod:`pipeline.output.snapshots`;
the names here must match it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.core import periods as periods_mod
from pipeline.core.i18n import _
from pipeline.output import snapshots

if TYPE_CHECKING:
    import pandas as pd

GAMES_FILE = "games.parquet"
MANIFEST_FILE = "manifest.json"
PROMOTIONS_FILE = "promotions.parquet"
#: The one file of a dataset's partition folder ``<dataset>/period=<label>/``, and the label of the
#: partition without rows that every dataset has (no period): as :mod:`pipeline.output.snapshots` writes them.
PART, SCHEMA_PARTITION = snapshots.PART, snapshots.SCHEMA_PARTITION
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
    """``out/games.parquet`` (the ``columns`` named), rows in ``seq`` order, ``reasons``/``notes`` as lists,
    ``date`` as ``datetime.date`` (None when missing) whether the file stores a date or a timestamp.

    Raises ReportError if the file is missing (no ``ratings run`` into ``out`` yet).
    """

    return games_frame(pq.read_table(_games_path(out), columns=list(columns)))


def read_games_table(out: Path, columns: Iterable[str] = GAMES_COLUMNS) -> pa.Table:
    """:func:`read_games` as an Arrow table (:func:`games_table`), for a caller that needs no pandas.

    Raises ReportError if the file is missing (no ``ratings run`` into ``out`` yet).
    """
    return games_table(pq.ParquetFile(_games_path(out)).read(columns=list(columns)))  # (read_table: pandas)


def games_table(table: pa.Table) -> pa.Table:
    """Rows of ``games.parquet`` (any of its columns) in ``seq`` order (when it has that column), days as
    dates (:func:`with_dates`): the rows of :func:`games_frame` without pandas (``reasons`` and
    ``notes`` read as lists by ``to_pylist``)."""
    table = with_dates(table)
    return table.sort_by("seq") if "seq" in table.column_names else table


def games_frame(table: pa.Table) -> pd.DataFrame:
    """Rows of ``games.parquet`` (any of its columns) as :func:`read_games` gives them: in ``seq`` order,
    ``reasons``/``notes`` as lists, ``date`` as ``datetime.date``."""
    games: pd.DataFrame = games_table(table).to_pandas()
    for name in ("reasons", "notes"):
        if name in games:
            games[name] = games[name].map(list)
    return games


def require_output(out: Path) -> None:
    """Return if ``out`` holds the output of a run; else raise ReportError saying so (no
    ``games.parquet``: no ``ratings run`` into ``out`` yet)."""
    _games_path(out)


def rated_periods(out: Path) -> list[str]:
    """The periods ``out/ratings`` holds, in time order (empty when the run rated none, or no output)."""
    return in_order(partition_labels(out, "ratings"))


def game_periods(out: Path, games: pa.Table | pd.DataFrame | None = None) -> list[str]:
    """Every period a game record in ``out`` falls in, or that was rated, in time order.

    ``games`` is ``out``'s games table when already read (any columns including ``period``; an Arrow
    table or a pandas frame). Raises ReportError if ``out`` holds no output.
    """
    if games is None:
        games = read_games_table(out, columns=["period"])
    if isinstance(games, pa.Table):
        column = games.column("period")
        found = column.unique() if column.num_chunks else column.combine_chunks()
        labels = [p for p in found.to_pylist() if p is not None]
    else:
        labels = list(games["period"].dropna().unique())
    return in_order([*labels, *rated_periods(out)])


def check_period(period: str, known: list[str], out: Path) -> None:
    """Return if ``period`` is one of ``known`` (periods of ``out``); else raise ReportError naming
    ``period`` and ``out`` and listing ``known``."""
    if period not in known:
        listed = ", ".join(known) if known else "none"
        message = _("unknown period {period} in {out} (periods: {listed})")
        raise ReportError(message.format(period=repr(period), out=out, listed=listed))


def partition_path(out: Path, dataset: str, period: str) -> Path:
    """The file of ``period``'s partition of ``dataset`` (``ratings``, ``changes``, ...) in ``out``,
    whether or not it exists."""
    return out / dataset / f"{_PERIOD_PREFIX}{period}" / PART


def partition_labels(out: Path, dataset: str) -> list[str]:
    """The period labels of the partitions ``out/<dataset>`` holds, in no particular order (empty when
    the folder is missing). Entries that are not ``period=<label>``, and the partition without rows
    :data:`SCHEMA_PARTITION`, are passed over."""
    folder = out / dataset
    entries = folder.iterdir() if folder.is_dir() else ()
    labels = [p.name.removeprefix(_PERIOD_PREFIX) for p in entries if p.name.startswith(_PERIOD_PREFIX)]
    return [label for label in labels if label != SCHEMA_PARTITION]


def read_partition(
    out: Path, dataset: str, period: str, columns: Iterable[str] | None = None
) -> pd.DataFrame:
    """``period``'s partition of ``dataset`` in ``out`` (only ``columns`` when given), rows as written, days
    (``date``) as ``datetime.date``.

    A missing partition reads as a table without rows: with ``columns`` as its columns when given,
    else with none. Raises what pandas raises for a partition that exists but cannot be read.
    """
    import pandas as pd

    wanted = None if columns is None else list(columns)
    path = partition_path(out, dataset, period)
    if path.exists():
        return as_frame(pq.ParquetFile(path).read(columns=wanted))
    return pd.DataFrame(columns=wanted) if wanted is not None else pd.DataFrame()


def read_partition_table(
    out: Path, dataset: str, period: str, columns: Iterable[str] | None = None
) -> pa.Table:
    """:func:`read_partition` as an Arrow table (days as dates: :func:`with_dates`), for a caller that
    needs no pandas. A missing partition reads as a table without rows: with ``columns`` as its columns
    (of no type) when given, else with none."""
    wanted = None if columns is None else list(columns)
    path = partition_path(out, dataset, period)
    if path.exists():
        return with_dates(pq.ParquetFile(path).read(columns=wanted))
    return pa.table({name: pa.nulls(0) for name in wanted or ()})


def read_dataset(
    out: Path,
    dataset: str,
    columns: Iterable[str] | None = None,
    key: Callable[[str], Any] | None = None,
) -> pd.DataFrame:
    """Every partition of ``dataset`` in ``out`` in one scan: the columns ``columns`` (None: all) and
    ``period`` (text), the periods in time order (``key`` of a label; None: :func:`rated_periods`' order,
    by first day, labels that are no periods last), each period's rows as written, days as
    ``datetime.date``.

    A dataset without partitions but :data:`SCHEMA_PARTITION` reads as no rows with its columns; a
    missing one as no rows with the columns ``columns`` and ``period`` (none but ``period`` when
    ``columns`` is None). One scan of the folder (pyarrow's threads), not one read per period: a run of
    two centuries of months has thousands of partitions. Raises what pyarrow raises for a partition
    that exists but cannot be read.
    """
    import pandas as pd
    import pyarrow.compute as pc
    import pyarrow.dataset as ds

    wanted = None if columns is None else list(columns)
    folder = out / dataset
    if not folder.is_dir():
        return pd.DataFrame(columns=[*(wanted or []), "period"])
    partitioning = ds.partitioning(pa.schema([("period", pa.string())]), flavor="hive")
    found = ds.dataset(folder, format="parquet", partitioning=partitioning)
    table = found.to_table(columns=None if wanted is None else [*wanted, "period"])
    labels = pc.unique(table["period"]).to_pylist()
    order = in_order(labels) if key is None else sorted(labels, key=key)
    ranks = pc.index_in(table["period"], pa.array(order, pa.string()))
    rows = pa.table({"rank": ranks, "row": pa.array(range(table.num_rows), pa.int64())})
    return as_frame(table.take(pc.sort_indices(rows, [("rank", "ascending"), ("row", "ascending")])))


def read_report(out: Path, name: str, files: Mapping[str, str]) -> pd.DataFrame:
    """The rule set's report table ``name`` of the run in ``out``, from its file ``files[name]`` (the report
    names and files, which the rule sets' records give: :data:`pipeline.reports.REPORT_FILES`).

    The same answer under every rule set: the table as the run's rule set wrote it (its columns, days as
    ``datetime.date``, rows in its order, none when there is nothing to report: no fee due, no
    promotion); a rule set that computes no such report (``fees`` under ``club``) has nothing to report
    either, and gives a table without rows whose one column is ``player`` (every report's first column).

    Raises ReportError if ``out`` holds no output, or ``name`` is not a key of ``files``.
    """
    import pandas as pd

    _games_path(out)  # the missing-output message, the same for every query
    if name not in files:
        message = _("unknown report {name} (reports: {names})")
        raise ReportError(message.format(name=repr(name), names=", ".join(sorted(files))))
    path = out / files[name]
    return (
        as_frame(pq.ParquetFile(path).read())
        if path.exists()
        else pd.DataFrame({"player": pd.Series(dtype=str)})
    )


def read_manifest(out: Path) -> dict[str, Any]:
    """``out/manifest.json`` as a dict; an empty dict when it is missing, unreadable, not JSON or not a
    JSON object (never raises for the manifest's content)."""
    try:
        found = json.loads((out / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def run_rule_set(out: Path) -> str:
    """The rule set named in ``out/manifest.json``, or ``unknown`` if it cannot be read."""
    return str(read_manifest(out).get("rule_set", "unknown"))


def as_frame(table: pa.Table) -> pd.DataFrame:
    """``table`` in pandas with its days as ``datetime.date`` (:func:`with_dates`)."""
    frame: pd.DataFrame = with_dates(table).to_pandas()
    return frame


def with_dates(table: pa.Table) -> pa.Table:
    """``table`` with its timestamps as dates: the files store every day as a timestamp at midnight
    (:data:`pipeline.core.tables.DAY`), the tables were computed with dates."""
    for index, field in enumerate(table.schema):
        if pa.types.is_timestamp(field.type):
            table = table.set_column(index, field.name, table.column(index).cast(pa.date32()))
    return table


def _games_path(out: Path) -> Path:
    """``out/games.parquet``. Raises ReportError if it is missing (no ``ratings run`` into ``out`` yet)."""
    path = out / GAMES_FILE
    if not path.exists():
        message = _("no output in {out} (no {file}): run `ratings run --out {out}` first")
        raise ReportError(message.format(out=out, file=GAMES_FILE))
    return path


def in_order(labels: Iterable[str]) -> list[str]:
    """Distinct period labels by their first day (then text); labels that are not periods go last (the
    order of :func:`rated_periods` and :func:`game_periods`)."""

    def key(label: str) -> tuple[int, str, str]:
        try:
            return 0, periods_mod.bounds(label)[0].isoformat(), label
        except periods_mod.PeriodError:
            return 1, "", label

    return sorted({str(label) for label in labels}, key=key)
