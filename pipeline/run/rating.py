"""run.rating: the steps of a run after the audit, each asking one stage for its tables and handing them
to the writer (:class:`~pipeline.output.carry.PartitionWriter`), which only writes.

:func:`rate_periods` replays the periods under the rule set (:func:`pipeline.rules.replay.replay`), one
period's tables at a time; :func:`leaderboards` computes the boards of every year with a changed period
(:class:`pipeline.boards.leaderboards.Boards`) from the changes the writer reads back, a period at a time;
:func:`reports` writes the whole-run datasets (``promotions.parquet``) and the rule set's own reports.
Knows nothing of files or formats: that is the writer's business.
"""

from __future__ import annotations

from collections.abc import Mapping

import pyarrow as pa

from pipeline.boards.leaderboards import Boards
from pipeline.config.events import Events
from pipeline.config.roster import Roster
from pipeline.core.i18n import _
from pipeline.core.periods import year_of
from pipeline.core.progress import SILENT, Steps
from pipeline.core.provisional import Provisional
from pipeline.core.standings import PlayerState
from pipeline.output import memory, state
from pipeline.output.carry import WHOLE, PartitionWriter
from pipeline.rules.base import RuleSet
from pipeline.rules.replay import Activity, Prepared, replay

NONE = Provisional()  # no player provisional
#: The columns of the changes the leaderboards read (:func:`pipeline.boards.leaderboards.leaderboards`).
BOARD_COLUMNS = ("seq", "player", "score", "date")


def rate_periods(
    writer: PartitionWriter,
    prepared: Prepared,
    rules: RuleSet,
    setup: tuple[Roster, Events],
    span: tuple[int, int],
    start: tuple[Mapping[str, PlayerState], Activity],
    steps: Steps = SILENT,
) -> Mapping[str, PlayerState]:
    """Replay ``prepared.labels[begin:]`` under ``rules`` from ``start`` (the standings and the activity
    at the end of the period before ``begin``; ``span`` is ``(begin, first)``) and hand the writer the
    tables of the periods from ``first`` on (those before it only rebuild the standings), with their
    standings when :func:`pipeline.output.state.checkpoints` keeps them; each period told to ``steps``.
    Returns the standings at the end of the last period."""
    (begin, first), (roster, events) = span, setup
    keep, current = state.checkpoints(prepared.labels), start[0]
    writer.link_standings(keep)
    periods = replay(prepared, rules, roster, events, begin, *start)
    position = begin  # (not enumerate(): its result tuple would hold the period while the next is rated)
    with steps.step(_("rating periods"), len(prepared.labels) - begin) as advance:
        for period in periods:
            current = period.end
            if position >= first:
                writer.write_period(period.label, period.tables, period.end, period.label in keep)
            del period  # (its tables are not held while the next period is rated)
            memory.release_unused_memory()
            position += 1
            advance(1)
    return current


def leaderboards(
    writer: PartitionWriter,
    touched: set[str] | None,
    provisional: Provisional = NONE,
    active_only: bool = False,
    steps: Steps = SILENT,
) -> None:
    """The boards of every period and year whose calendar year is in ``touched`` (None: every year),
    computed from the writer's changes a year at a time (each told to ``steps``); the others linked.
    Players ``provisional`` by the end of a board's period (the ratings' ``games_total`` and
    ``deviation``) are left off it, and with ``active_only`` those inactive at its end (the ratings'
    ``active``)."""
    writer.link_boards(touched)
    years: dict[str, list[str]] = {}
    for label in writer.labels:
        if touched is None or year_of(label) in touched:
            years.setdefault(year_of(label), []).append(label)
    with steps.step(_("writing leaderboards"), len(years)) as advance:
        for labels in years.values():
            _year(writer, labels, provisional, active_only)
            advance(1)


def _year(writer: PartitionWriter, labels: list[str], provisional: Provisional, active_only: bool) -> None:
    """Write the boards of one year's ``labels``: each period's as it is computed from that period's
    changes, then the year's (one period's changes are held at a time)."""
    boards = Boards(
        provisional_games=provisional.games,
        provisional_deviation=provisional.deviation,
        active_only=active_only,
    )
    for label in labels:
        changes = writer.changes([label], BOARD_COLUMNS).to_pandas()
        totals = writer.totals([label]) if provisional.on or active_only else None
        writer.write_boards(boards.add(changes, totals))
    writer.write_boards(boards.finish())


def reports(writer: PartitionWriter, rules: RuleSet) -> dict[str, pa.Table]:
    """Write the whole-run datasets (``promotions.parquet``: :data:`pipeline.output.carry.WHOLE`) and the
    rule set's report files; return the reports by name. The changes are read back (only
    :attr:`~pipeline.rules.base.RuleSet.report_columns`) when the rule set has reports at all."""
    whole = {dataset.name: writer.whole(dataset.name) for dataset in WHOLE}
    for dataset in WHOLE:
        writer.write_file(dataset.file, whole[dataset.name])
    empty = {name: writer.schemas[name].empty_table() for name in ("changes", "promotions")}
    if not rules.reports(empty["changes"], empty["promotions"]):
        return {}
    found = rules.reports(writer.changes(writer.labels, rules.report_columns), whole["promotions"])
    for name, table in found.items():
        writer.write_file(name, table)
    return found
