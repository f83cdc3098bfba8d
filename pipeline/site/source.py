"""site.source: an output folder of ``ratings run`` read once, a period at a time, for the site.

What the site reads and in which order: the manifest, the periods (``rated`` from ``ratings/``, ``played``
from the ``period`` column of ``games.parquet``), every player's name, one partition of a dataset
(:func:`partition`), and ``games.parquet`` period by period in one pass over its row groups
(:func:`games_by_period`). Memory holds one period's rows (and the records without a period, shown last),
never a whole table, when ``games.parquet`` is written period by period as ``ratings run`` writes it;
a file written in another order is still read correctly, a period's rows then waiting in memory until no
later row group can hold more of them. This helper reads the folder as the output contract lays it out
and could move to :mod:`pipeline.output.folder`; it knows nothing of pages.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.core import periods as periods_mod
from pipeline.output import folder as outputs

#: The columns of ``games.parquet`` the site reads.
GAME_COLUMNS = (
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
    "winner",
    "result",
    "speed_used",
    "event",
    "event_name",
    "stage",
    "counted",
    "reasons",
    "notes",
)


@dataclass(frozen=True, slots=True)
class Source:
    """The folder ``out``: its ``manifest``, ``rule_set``, ``rated`` periods (with a ratings partition)
    and ``played`` periods (with a game record), each in time order."""

    out: Path
    manifest: dict[str, Any]
    rule_set: str
    rated: list[str]
    played: list[str]

    @property
    def periods(self) -> list[str]:
        """Every period rated or played, in time order."""
        return in_order([*self.played, *self.rated])


def open_source(out: Path) -> Source:
    """The :class:`Source` of ``out``. Raises ReportError if ``out`` holds no output of ``ratings run``."""
    periods = pq.read_table(_games(out), columns=["period"]).column("period")
    played = [str(p) for p in pc.unique(periods.drop_null()).to_pylist()]
    manifest = outputs.read_manifest(out)
    return Source(
        out=out,
        manifest=manifest,
        rule_set=str(manifest.get("rule_set", "unknown")),
        rated=outputs.rated_periods(out),
        played=in_order(played),
    )


def player_names(source: Source) -> list[str]:
    """Every name the site shows a page for, sorted: the canonical names of both sides of every record
    (the name as written where the run gave none) and every player of the latest rated period (the
    replay carries every rated player into each later period, so the latest holds them all).
    ``games.parquet`` is read a row group at a time."""
    file = _parquet(_games(source.out))
    found: set[str] = set()
    for index in range(file.num_row_groups):  # a row group at a time: never the whole column
        table = file.read_row_group(index, columns=["black", "white", "black_player", "white_player"])
        for side in ("black", "white"):
            names = pc.coalesce(table.column(f"{side}_player"), table.column(side))
            found.update(str(n) for n in pc.unique(names.drop_null()).to_pylist())
    if source.rated:
        latest = partition(source.out, "ratings", source.rated[-1], ["player"])
        if latest is not None:
            found.update(str(n) for n in latest.column("player").to_pylist())
    return sorted(found)


def partition(out: Path, dataset: str, label: str, columns: Sequence[str] | None = None) -> pa.Table | None:
    """``label``'s partition of ``dataset`` in ``out`` (only ``columns`` when given), or None when the run
    wrote none. One file, read on this thread (faster than ``pq.read_table`` for a small partition:
    docs/design.md#site-partitions)."""
    path = outputs.partition_path(out, dataset, label)
    if not path.exists():
        return None
    wanted = None if columns is None else list(columns)
    return _parquet(path).read(columns=wanted, use_threads=False)


def games_by_period(
    out: Path, columns: Sequence[str] = GAME_COLUMNS
) -> Iterator[tuple[str | None, pa.Table]]:
    """``out/games.parquet`` (``columns``, which must hold ``period`` and ``seq``) as ``(period, rows)``
    in period order, each period once and its rows in ``seq`` order; the records without a period last,
    as ``(None, rows)`` (nothing when there are none). ``date`` is read as a date."""
    file = _parquet(_games(out))
    bounds = _period_bounds(file)
    later = [min((b for b in bounds[i:] if b is not None), default=None) for i in range(len(bounds) + 1)]
    waiting: dict[str, list[pa.Table]] = {}
    undated: list[pa.Table] = []
    for index in range(file.num_row_groups):
        table = _dated(file.read_row_group(index, columns=list(columns), use_threads=False))
        undated.append(table.filter(pc.is_null(table.column("period"))))
        dated = table.filter(pc.is_valid(table.column("period")))
        for label in pc.unique(dated.column("period")).to_pylist():
            waiting.setdefault(label, []).append(dated.filter(pc.equal(dated.column("period"), label)))
        ready = sorted(p for p in waiting if later[index + 1] is None or p < str(later[index + 1]))
        for label in ready:
            yield label, _in_order(waiting.pop(label))
    for label in sorted(waiting):
        yield label, _in_order(waiting.pop(label))
    rest = [t for t in undated if t.num_rows]
    if rest:
        yield None, _in_order(rest)


def _parquet(path: Path) -> pq.ParquetFile:
    """``path`` opened to be read on this thread: its column chunks read as they are decoded, not
    buffered ahead by Arrow's I/O threads (``pre_buffer``), whose allocator keeps what they read for
    good (docs/design.md#site-memory)."""
    return pq.ParquetFile(path, pre_buffer=False)


def _period_bounds(file: pq.ParquetFile) -> list[str | None]:
    """The least period of each row group, from its statistics (None: no period, or no statistics,
    read as "may hold any period": the rows seen so far then wait for the end of the file)."""
    column = file.schema_arrow.get_field_index("period")
    found: list[str | None] = []
    for index in range(file.num_row_groups):
        stats = file.metadata.row_group(index).column(column).statistics
        if stats is None or not stats.has_min_max:
            nulls_only = stats is not None and stats.null_count == file.metadata.row_group(index).num_rows
            found.append(None if nulls_only else "")
        else:
            found.append(str(stats.min))
    return found


def _in_order(tables: list[pa.Table]) -> pa.Table:
    """``tables`` as one, sorted by ``seq``."""
    table = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
    return table.sort_by("seq")


def _dated(table: pa.Table) -> pa.Table:
    """``table`` with ``date`` (a date or a timestamp in the file) as a date."""
    if "date" not in table.column_names:
        return table
    index = table.column_names.index("date")
    return table.set_column(index, "date", table.column(index).cast(pa.date32()))


def _games(out: Path) -> Path:
    """``out/games.parquet``; raises ReportError when there is none (no run yet), as the queries do."""
    path = out / outputs.GAMES_FILE
    if not path.exists():
        raise outputs.ReportError(
            f"no output in {out} (no {outputs.GAMES_FILE}): run `ratings run --out {out}` first"
        )
    return path


def in_order(labels: Iterable[str]) -> list[str]:
    """Distinct period labels by their first day (then text); labels that are not periods go last."""

    def key(label: str) -> tuple[int, str, str]:
        try:
            return 0, periods_mod.bounds(label)[0].isoformat(), label
        except periods_mod.PeriodError:
            return 1, "", label

    return sorted(set(labels), key=key)
