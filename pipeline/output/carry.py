"""carry: the partitions of one run, written as the run hands them over or hard-linked from the previous
generation for the periods whose inputs did not change, and read back for the steps that need them.

A period's ``ratings``, ``changes`` and ``awards`` partitions depend only on the period's chained digest
(:mod:`pipeline.output.state`): the periods before the first changed one are hard links (``os.link``:
nothing is copied, and the new generation is still switched in by one rename). The leaderboards of the
years without a changed period are links too (:meth:`PartitionWriter.link_boards`); the others, and the
whole-run files (``promotions.parquet``, a rule set's reports), are written from what the run computes,
reading the carried and the new changes back through :meth:`PartitionWriter.changes`.

Knows nothing of how the digests are formed, of how a rating or a board is computed, nor of what the
tables mean: it writes, links and reads back the tables it is given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.core import store
from pipeline.core.periods import year_of
from pipeline.core.standings import PlayerState
from pipeline.core.tables import LEADERBOARD
from pipeline.core.tables import RATED as TABLES
from pipeline.output import snapshots, state

if TYPE_CHECKING:
    import pandas as pd

#: The datasets written a partition per period (:data:`pipeline.core.tables.RATED`).
PARTITIONED = tuple(d.name for d in TABLES if d.partitioned)
#: Datasets that get one empty partition per period when they have no rows at all.
PLACEHOLDERS = tuple(d.name for d in TABLES if d.placeholder)
#: The datasets written as one whole-run file, gathered from every period (``promotions``).
WHOLE = tuple(d for d in TABLES if not d.partitioned)


class Previous(Protocol):
    """The previous generation (None: none) and its state index (None: none or unreadable)."""

    @property
    def path(self) -> Path | None: ...
    @property
    def index(self) -> state.Index | None: ...


class PartitionWriter:
    """Writes one run's datasets into ``generation``: the partitions of ``carried`` (the unchanged
    periods, in order) linked from ``previous`` at once, the others as the run hands them over
    (:meth:`write_period`).
    ``schemas``: each dataset's schema with ``period`` (:func:`pipeline.rules.replay.schemas_of`)."""

    def __init__(
        self,
        generation: snapshots.Generation,
        previous: Previous,
        carried: Sequence[str],
        schemas: dict[str, pa.Schema],
    ) -> None:
        self.generation, self.before, self.carried, self.schemas = generation, previous.path, carried, schemas
        self.rows = dict.fromkeys(PARTITIONED, 0)  # rows written, or partitions carried (each has rows)
        self.new: dict[str, list[pa.Table]] = {d.name: [] for d in WHOLE}
        self.written: list[str] = []  # the labels replayed and written, in order
        skip = set(previous.index.placeholders) if previous.index else set()
        for name in PARTITIONED:
            if name not in skip and self.before is not None:
                self.rows[name] += self._link(name, carried)

    def _link(self, dataset: str, labels: Sequence[str]) -> int:
        """Link the partitions of ``labels`` that the previous generation has; return how many."""
        assert self.before is not None
        have = set(snapshots.partitions(self.before, dataset)) & set(labels)
        for label in sorted(have):
            relative = snapshots.partition(self.before, dataset, label).relative_to(self.before)
            self.generation.link(self.before, relative, dataset)
        return len(have)

    def write_period(
        self, label: str, tables: Mapping[str, pa.Table], end: Mapping[str, PlayerState], keep: bool
    ) -> None:
        """Write period ``label``'s partitions of ``tables`` (each dataset of :data:`PARTITIONED` with rows;
        those of :data:`WHOLE` are kept for :meth:`whole`), and the standings ``end`` when ``keep``."""
        self.written.append(label)
        for name in PARTITIONED:
            if tables[name].num_rows:
                self.generation.write_partition(name, label, tables[name])
                self.rows[name] += tables[name].num_rows
        for name, found in self.new.items():
            found.append(tables[name])
        if keep:
            state.save_standings(self.generation.path, label, end)

    def link_standings(self, keep: set[str]) -> None:
        """Link the kept standings of the carried periods whose label is in ``keep``."""
        if self.before is None:
            return
        for label in self.carried:
            if label in keep and state.standings_path(self.before, label).exists():
                self.generation.link(self.before, Path(state.FOLDER) / f"{label}.pickle", None)

    def finish(self, labels: Sequence[str]) -> list[str]:
        """Write each dataset's partition without rows, and one empty partition per label of ``labels``
        for a dataset of :data:`PLACEHOLDERS` with no rows at all; return those datasets."""
        empty = [name for name in PLACEHOLDERS if not self.rows[name]]
        for name in PARTITIONED:
            table = self.schemas[name].empty_table()
            for label in [snapshots.SCHEMA_PARTITION, *(labels if name in empty else ())]:
                self.generation.write_partition(name, label, table)
        return empty

    @property
    def labels(self) -> list[str]:
        """Every period of the run so far: the carried ones, then those written, in order."""
        return [*self.carried, *self.written]

    def link_boards(self, touched: set[str] | None) -> None:
        """Link the previous generation's leaderboards of every calendar year not in ``touched`` (None:
        none is linked: every board is written again), and write the boards' schema partition."""
        if touched is not None and self.before is not None:
            found = snapshots.partitions(self.before, "leaderboards")
            kept = [p for p in found if p != snapshots.SCHEMA_PARTITION and year_of(p) not in touched]
            self._link("leaderboards", kept)
        self.generation.write_partition("leaderboards", snapshots.SCHEMA_PARTITION, LEADERBOARD.empty_table())

    def write_boards(self, boards: pa.Table) -> None:
        """Write ``boards`` (schema LEADERBOARD) into a partition per period."""
        snapshots.write_partitions(self.generation, "leaderboards", boards)

    def totals(self, labels: Sequence[str]) -> pd.DataFrame:
        """``period``, ``player``, ``games_total``, ``deviation`` and ``active`` of this generation's
        ratings (written or linked) of the periods ``labels``."""
        import pandas as pd

        columns = ["player", "games_total", "deviation", "active"]
        found = [
            pq.ParquetFile(path).read(columns=columns, use_threads=False).to_pandas().assign(period=label)
            for label in labels
            if (path := snapshots.partition(self.generation.path, "ratings", label)).exists()
        ]
        return pd.concat(found, ignore_index=True) if found else pd.DataFrame(columns=["period", *columns])

    def last_counted(self, label: str) -> pa.Table:
        """``player`` and ``last_counted`` of this generation's ratings (linked) of the period ``label``:
        what a replay from the period after it carries on (no rows when it has no ratings)."""
        path = snapshots.partition(self.generation.path, "ratings", label)
        schema = pa.schema([self.schemas["ratings"].field(n) for n in ("player", "last_counted")])
        return store.read_parquet(path, schema, schema.names) if path.exists() else schema.empty_table()

    def changes(self, labels: Sequence[str], columns: Sequence[str] | None = None) -> pa.Table:
        """The changes of the periods ``labels`` (only ``columns`` and ``period``; None: every column),
        read back from this generation (written or linked)."""
        schema = self.schemas["changes"]
        if columns is not None:
            schema = pa.schema([schema.field("period"), *(schema.field(c) for c in columns)])
        found = [schema.empty_table()]
        for label in labels:
            path = snapshots.partition(self.generation.path, "changes", label)
            if path.exists():
                table = store.read_parquet(path, pa.schema(list(schema)[1:]), columns=schema.names[1:])
                period = pa.array([label] * table.num_rows, pa.string())
                found.append(table.add_column(0, schema.field(0), period))
        return pa.concat_tables(found)

    def read(self, dataset: str, label: str, columns: Sequence[str] | None = None) -> pa.Table | None:
        """Period ``label``'s partition of ``dataset`` as this generation stores it (written or linked; only
        ``columns``, None: all; without ``period``, types as stored); None when it has none."""
        path = snapshots.partition(self.generation.path, dataset, label)
        if not path.exists():
            return None
        return pq.ParquetFile(path).read(
            columns=None if columns is None else list(columns), use_threads=False
        )

    def whole(self, name: str) -> pa.Table:
        """The whole-run dataset ``name`` (one of :data:`WHOLE`: ``promotions``) of every period: the
        carried periods' rows (from the previous generation's file), then those written."""
        return pa.concat_tables([self._carried_whole(name), *self.new[name]])

    def write_file(self, name: str, table: pa.Table) -> None:
        """Write the whole-run file ``name`` (``promotions.parquet``, a rule set's report)."""
        self.generation.write_file(name, table)

    def _carried_whole(self, name: str) -> pa.Table:
        schema = self.schemas[name]
        path = self.before / f"{name}.parquet" if self.before else None
        if path is None or not self.carried or not path.exists():
            return schema.empty_table()
        table = store.read_parquet(path, schema)
        return table.filter(pc.is_in(table["period"], pa.array(list(self.carried), pa.string())))
