"""carry: the partitions of one run, written as the replay produces them or hard-linked from the previous
generation for the periods whose inputs did not change, and the whole-run tables built from both.

A period's ``ratings``, ``changes`` and ``awards`` partitions depend only on the period's chained digest
(:mod:`pipeline.output.state`): the periods before the first changed one are hard links (``os.link``:
nothing is copied, and the new generation is still switched in by one rename). The leaderboards of a
period depend on its changes, a year's board on the changes of every period of the year: every board of
a year with a changed (or removed) period is computed again from the carried and the new changes, one
period's changes at a time, the others are links. ``promotions.parquet`` and the rule set's reports
(hkga fees and certification, tga fees) are whole-run tables: written again from the carried and the
new rows whenever anything changed.

Knows nothing of how the digests are formed, nor of what the tables mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.boards.leaderboards import Boards
from pipeline.core import store
from pipeline.core.progress import SILENT, Steps
from pipeline.core.standings import PlayerState
from pipeline.core.tables import LEADERBOARD
from pipeline.output import memory, snapshots, state
from pipeline.rules.base import RuleSet
from pipeline.rules.replay import PeriodTables, Prepared, replay

if TYPE_CHECKING:
    import pandas as pd

RATED = ("ratings", "changes", "awards")
#: The columns of the changes the leaderboards read (:func:`pipeline.boards.leaderboards.leaderboards`).
_BOARD_COLUMNS = ("seq", "player", "score", "date")
#: Datasets that get one empty partition per period when they have no rows at all.
PLACEHOLDERS = ("ratings", "changes")


class Previous(Protocol):
    """The previous generation (None: none) and its state index (None: none or unreadable)."""

    @property
    def path(self) -> Path | None: ...
    @property
    def index(self) -> state.Index | None: ...


class Configured(Protocol):
    """What the replay needs of a run's plan (:class:`pipeline.run.Plan`)."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def roster(self) -> object: ...
    @property
    def events(self) -> object: ...


class PartitionWriter:
    """Writes one run's datasets into ``generation``: the partitions of ``carried`` (the unchanged
    periods, in order) linked from ``previous`` at once, the others as :meth:`replay` produces them.
    ``schemas``: each dataset's schema with ``period`` (:func:`pipeline.rules.replay.schemas_of`)."""

    def __init__(
        self,
        generation: snapshots.Generation,
        previous: Previous,
        carried: Sequence[str],
        schemas: dict[str, pa.Schema],
    ) -> None:
        self.generation, self.before, self.carried, self.schemas = generation, previous.path, carried, schemas
        self.rows = dict.fromkeys(RATED, 0)  # rows written, or partitions carried (each has rows)
        self.new: dict[str, list[pa.Table]] = {"promotions": []}
        self.written: list[str] = []  # the labels replayed and written, in order
        skip = set(previous.index.placeholders) if previous.index else set()
        for name in RATED:
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

    def replay(
        self,
        prepared: Prepared,
        plan: Configured,
        begin: int,
        first: int,
        start: dict[str, PlayerState],
        steps: Steps = SILENT,
    ) -> dict[str, PlayerState]:
        """Replay ``prepared.labels[begin:]`` from ``start``; write the partitions and kept standings of
        the periods from ``first`` on (those before it only rebuild the standings), each period told
        to ``steps``. Returns the standings at the end of the last period."""
        keep, current = state.checkpoints(prepared.labels), start
        self._link_standings(keep)
        periods = replay(prepared, plan.rules, plan.roster, plan.events, begin, start)  # type: ignore[arg-type]
        position = begin  # (not enumerate(): its result tuple would hold the period while the next is rated)
        with steps.step("rating periods", len(prepared.labels) - begin) as advance:
            for period in periods:
                current = period.end
                if position >= first:
                    self._write(period, keep)
                del period  # (its tables are not held while the next period is rated)
                memory.release_unused_memory()
                position += 1
                advance(1)
        return current

    def _write(self, period: PeriodTables, keep: set[str]) -> None:
        """Write ``period``'s partitions, and its standings when its label is in ``keep``."""
        self.written.append(period.label)
        for name in RATED:
            if period.tables[name].num_rows:
                self.generation.write_partition(name, period.label, period.tables[name])
                self.rows[name] += period.tables[name].num_rows
        for name, tables in self.new.items():
            tables.append(period.tables[name])
        if period.label in keep:
            state.save_standings(self.generation.path, period.label, period.end)

    def _link_standings(self, keep: set[str]) -> None:
        if self.before is None:
            return
        for label in self.carried:
            if label in keep and state.standings_path(self.before, label).exists():
                self.generation.link(self.before, Path(state.FOLDER) / f"{label}.pickle", None)

    def finish(self, labels: Sequence[str]) -> list[str]:
        """Write each dataset's partition without rows, and one empty partition per label of ``labels``
        for a dataset of :data:`PLACEHOLDERS` with no rows at all; return those datasets."""
        empty = [name for name in PLACEHOLDERS if not self.rows[name]]
        for name in RATED:
            table = self.schemas[name].empty_table()
            for label in [snapshots.SCHEMA_PARTITION, *(labels if name in empty else ())]:
                self.generation.write_partition(name, label, table)
        return empty

    def leaderboards(
        self, touched: set[str] | None, provisional_games: int = 0, steps: Steps = SILENT
    ) -> None:
        """The boards of every period and year whose year is in ``touched`` (None: every year) computed
        from the changes, a year at a time (each told to ``steps``), the others linked. Players with
        fewer than ``provisional_games`` counted games by the end of a board's period (the ratings'
        ``games_total``) are left off it."""
        labels = [*self.carried, *self.written]
        if touched is not None and self.before is not None:
            kept = [p for p in snapshots.partitions(self.before, "leaderboards") if p[:4] not in touched]
            self._link("leaderboards", [p for p in kept if p != snapshots.SCHEMA_PARTITION])
        years: dict[str, list[str]] = {}
        for label in labels:
            if touched is None or label[:4] in touched:
                years.setdefault(label[:4], []).append(label)
        self.generation.write_partition("leaderboards", snapshots.SCHEMA_PARTITION, LEADERBOARD.empty_table())
        with steps.step("writing leaderboards", len(years)) as advance:
            for year in years.values():
                self._boards(year, provisional_games)
                advance(1)

    def _boards(self, labels: Sequence[str], provisional_games: int) -> None:
        """Write the boards of one year's ``labels``: each period's as it is computed from that period's
        changes, then the year's (one period's changes are held at a time)."""
        boards = Boards(provisional_games=provisional_games)
        for label in labels:
            changes = self._changes([label], _BOARD_COLUMNS).to_pandas()
            totals = self._totals([label]) if provisional_games else None
            snapshots.write_partitions(self.generation, "leaderboards", boards.add(changes, totals))
        snapshots.write_partitions(self.generation, "leaderboards", boards.finish())

    def _totals(self, labels: Sequence[str]) -> pd.DataFrame:
        """``period``, ``player`` and ``games_total`` of this generation's ratings (written or linked) of
        the periods ``labels``."""
        import pandas as pd

        found = [
            pd.read_parquet(path, columns=["player", "games_total"]).assign(period=label)
            for label in labels
            if (path := snapshots.partition(self.generation.path, "ratings", label)).exists()
        ]
        return (
            pd.concat(found, ignore_index=True)
            if found
            else pd.DataFrame(columns=["period", "player", "games_total"])
        )

    def _changes(self, labels: Sequence[str], columns: Sequence[str] | None = None) -> pa.Table:
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

    def reports(self, rules: RuleSet) -> dict[str, pa.Table]:
        """Write ``promotions.parquet`` and the rule set's report files; return the reports by name."""
        promotions = pa.concat_tables([self._carried_promotions(), *self.new["promotions"]])
        self.generation.write_file("promotions.parquet", promotions)
        empty = {name: self.schemas[name].empty_table() for name in ("changes", "promotions")}
        if not rules.reports(empty["changes"], empty["promotions"]):
            return {}
        changes = self._changes([*self.carried, *self.written], rules.report_columns)
        found = rules.reports(changes, promotions)
        for name, table in found.items():
            self.generation.write_file(name, table)
        return found

    def _carried_promotions(self) -> pa.Table:
        schema = self.schemas["promotions"]
        path = self.before / "promotions.parquet" if self.before else None
        if path is None or not self.carried or not path.exists():
            return schema.empty_table()
        table = store.read_parquet(path, schema)
        return table.filter(pc.is_in(table["period"], pa.array(list(self.carried), pa.string())))
