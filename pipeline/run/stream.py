"""run.stream: audit and rate an ingested source under one plan, period by period, writing nothing.

What ``ratings backtest`` and ``ratings compare`` replay, the way :func:`pipeline.run.run_all` does
without its writer: the source is audited one piece (period) at a time (:mod:`pipeline.audit.pieces`),
each piece handed to the caller and its counted rows spilled to disk (:mod:`pipeline.output.spill`),
then the periods are replayed in order (:func:`pipeline.rules.replay.replay`) and each period's tables
handed on as it is done. Memory holds one piece or one period's tables at a time, besides the standings.

``seq`` is the same under every plan: the audit orders rows by date, time, path and index whatever the
validity or the period kind, and pieces are whole months in date order, so a game's ``seq`` is its
place in the source (0 to :attr:`Replay.rows` − 1), a compact index shared by several plans' replays.

Knows nothing of what the caller does with the tables.
"""

from __future__ import annotations

import gc
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from pipeline.audit import audit, pieces
from pipeline.core.i18n import _
from pipeline.core.progress import SILENT, Steps
from pipeline.output import memory
from pipeline.output.spill import PeriodFiles
from pipeline.rules.prepare import Preparer
from pipeline.rules.replay import PeriodTables, replay
from pipeline.run.planning import Plan


@dataclass(frozen=True, slots=True)
class Replay:
    """An audited source ready to replay: ``rows`` audited (every ``seq`` is below it), the period
    labels, the awards that could not be placed (``warnings``) and ``periods``, each period's tables in
    order (to be iterated once, inside :func:`replayed`)."""

    rows: int
    labels: list[str]
    warnings: list[str]
    periods: Iterator[PeriodTables]


@contextmanager
def replayed(
    plan_: Plan,
    source: pieces.Source,
    seen: Callable[[pa.Table], None] | None = None,
    steps: Steps = SILENT,
    label: str | None = None,
) -> Iterator[Replay]:
    """Audit ``source`` under ``plan_`` a piece at a time (each audited piece, schema
    :data:`~pipeline.core.tables.GAMES` in ``seq`` order, handed to ``seen``), then give the
    :class:`Replay` of its periods; the audit and the replay told to ``steps`` under ``label``
    (default: the rule set's name). The spilled periods live in a folder under ``plan_.out``, removed
    on leaving.

    Raises :class:`~pipeline.core.periods.PeriodError` for a bad period kind, OSError if the folder
    cannot be written.
    """
    label = label or plan_.rule_set
    plan_.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".replay-", dir=plan_.out) as folder:
        preparer, seq = Preparer(PeriodFiles(Path(folder))), 0
        groups = pieces.groups(source, plan_.validity.period)
        with steps.step(_("{side}: auditing").format(side=label), len(groups)) as advance:
            for _key, months in groups:
                games = audit(source.read(months), plan_.roster, plan_.events, plan_.validity, seq)
                seq += games.num_rows
                preparer.add(games)
                if seen is not None:
                    seen(games)
                del games
                memory.release_unused_memory()
                advance(1)
        prepared = preparer.finish(plan_.rules, plan_.roster, plan_.events)
        what = _("{side}: rating periods").format(side=label)
        with steps.step(what, len(prepared.labels)) as advance:
            periods = replay(prepared, plan_.rules, plan_.roster, plan_.events, 0, {})
            gc.freeze()  # as the run does (docs/design.md#gc-freeze)
            try:
                yield Replay(seq, prepared.labels, prepared.warnings, _told(periods, advance))
            finally:
                gc.unfreeze()


def _told(periods: Iterator[PeriodTables], advance: Callable[[int], None]) -> Iterator[PeriodTables]:
    """``periods``, each told to ``advance`` and the memory it leaves given back once the caller is done
    with it."""
    for period in periods:
        yield period
        del period
        memory.release_unused_memory()
        advance(1)
