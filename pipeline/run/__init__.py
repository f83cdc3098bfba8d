"""run: the stages in order, each configured once, writing the contract's outputs (README.md, "Outputs").

:func:`~pipeline.run.planning.plan` turns a configuration into everything the stages need (a
:class:`~pipeline.run.planning.Plan`); :func:`run_all` runs ingest -> audit -> rate
(:mod:`pipeline.run.rating`: the replay, the leaderboards, the rule set's reports), hands every table
to the writer, then records the run (:mod:`pipeline.run.manifest`). The run drives; each stage is asked
for its tables and knows nothing of the others. Knows nothing of the command line: options come in, a
report goes out.
"""

from __future__ import annotations

import gc
import json
import tempfile
import time
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path

from pipeline import __version__
from pipeline.audit import audit, pieces
from pipeline.audit.counts import Counts, Tally
from pipeline.config import recorded
from pipeline.core import setup_tables, tables
from pipeline.core import store as store_
from pipeline.core.activity_columns import LastCounted
from pipeline.core.i18n import Said, _
from pipeline.core.periods import year_of
from pipeline.core.progress import SILENT, Steps
from pipeline.core.provisional import Provisional
from pipeline.core.tables import GAMES
from pipeline.ingest import IngestOptions, IngestResult, cache, ingest
from pipeline.output import memory, player_index, snapshots, state
from pipeline.output.carried_games import CarriedGames, Piece, audit_digest
from pipeline.output.carry import PartitionWriter
from pipeline.output.spill import PeriodFiles
from pipeline.rules.prepare import Prepared, Preparer
from pipeline.rules.replay import Activity, schemas_of
from pipeline.run import indexing, rating
from pipeline.run.manifest import FILE, Incremental, Manifest
from pipeline.run.planning import DEFAULT_RULE_SET, Plan, Settings, check_folders, plan

#: The folders of a generation that are no entry of the output folder: the state a later run resumes
#: from, and the player index.
HIDDEN = (state.FOLDER, player_index.FOLDER)

__all__ = ["DEFAULT_RULE_SET", "Plan", "RunReport", "Settings", "check_folders", "plan", "run_all"]


@dataclass(frozen=True, slots=True)
class RunReport:
    """What a run did: the ingest result, the counts written to the manifest, the periods, where it is."""

    ingest: IngestResult
    counts: Counts
    periods: list[str]
    players: int
    out: Path
    warnings: list[str]
    reports: list[str]


def run_all(plan_: Plan, options: IngestOptions, steps: Steps = SILENT) -> RunReport:
    """Run every stage for ``plan_`` and switch the output folder to the new generation; the stages
    after ingest report how far they are to ``steps`` (the ingest, to ``options.steps``). The caller
    holds the output folder's lock (:mod:`pipeline.output.lock`): two runs at once would write the
    same generations' folder.

    Incremental (:mod:`pipeline.output.state`): with the same configuration and the same ingested
    table as the previous generation, the new one hard-links every file of it (only the manifest is
    new); otherwise the rule set replays from the earliest period whose inputs changed, the partitions
    of the periods before it are hard links to the previous generation's, and the leaderboards of every
    year with a changed period, ``games.parquet`` and the whole-run reports are written again. The
    output always equals a run from scratch.

    Raises :class:`pipeline.ingest.IngestError` if the raw folder is missing, OSError if the output
    cannot be written (the previous output then stays in place).
    """
    started = time.perf_counter()
    ingested = ingest(plan_.raw, plan_.out, options)
    config = state.config_digest(plan_.settings.as_json(), cache.parser_version())
    inputs = ingested.digest
    before = snapshots.current(plan_.out)
    index = state.read_index(before)
    with snapshots.Generation(plan_.out, keep=plan_.keep_generations) as generation:
        if before is not None and index is not None and (index.config, index.inputs) == (config, inputs):
            done = _carried_whole(generation, before, index)
        else:
            previous = Previous(before, index)
            done = _rated(generation, plan_, ingested.source, previous, (config, inputs), steps)
        record_setup(generation, plan_)
        timings = {"ingest": ingested.seconds, "audit_rate": time.perf_counter() - started - ingested.seconds}
        manifest = _manifest(plan_, ingested, done, config, timings)
        generation.commit(manifest.as_json())
    warnings = [*plan_.warnings, *done.warnings]
    return RunReport(ingested, done.counts, done.periods, done.players, plan_.out, warnings, done.reports)


def record_setup(generation: snapshots.Generation, plan_: Plan) -> None:
    """Record in ``generation`` the roster and the events the run used (:mod:`pipeline.config.recorded`),
    so that a reader of the output needs no configuration; the rule set's parameters are the manifest's
    ``settings``. A generation carried whole already holds them, linked from the previous one (its
    configuration was the same): they are not written again."""
    tables_ = {
        setup_tables.ROSTER_FILE: recorded.roster_table(plan_.roster),
        setup_tables.EVENTS_FILE: recorded.events_table(plan_.events),
    }
    for name, table in tables_.items():
        if not (generation.path / name).exists():  # (never written through a link: it is the old one's)
            generation.write_file(name, table)


@dataclass(frozen=True, slots=True)
class Previous:
    """The generation the output folder is switched to before the run (None: none) and its state index."""

    path: Path | None
    index: state.Index | None


@dataclass(frozen=True, slots=True)
class Done:
    """What the rate and write stages did: the manifest's counts, the periods, the players rated, the
    rated warnings, the report files, and how much was carried from the previous generation."""

    counts: Counts
    periods: list[str]
    players: int
    warnings: list[str]
    reports: list[str]
    incremental: Incremental


def _carried_whole(generation: snapshots.Generation, before: Path, index: state.Index) -> Done:
    """Nothing changed: every file of ``before`` (its manifest aside) hard-linked into ``generation``."""
    for path in sorted(before.rglob("*")):
        relative = path.relative_to(before)
        if path.is_file() and relative.as_posix() != FILE:
            entry = relative.parts[0]
            generation.link(before, relative, None if entry in HIDDEN else entry)
    state.write_index(generation.path, index)  # unchanged; written anew, not linked: it is this run's
    old = json.loads((before / FILE).read_text(encoding="utf-8"))
    labels = [label for label, _ in index.periods]
    carried = Incremental(reused_generation=True, periods_replayed=0, periods_carried=len(labels))
    counts = Counts.from_json(old["counts"])
    found = old.get("rated_warnings_said") or repeat(None)
    warnings = [
        Said.from_json(said) if isinstance(said, dict) else text
        for text, said in zip(old["rated_warnings"], found, strict=False)
    ]
    return Done(counts, labels, index.players, warnings, index.reports, carried)


def _rated(
    generation: snapshots.Generation,
    plan_: Plan,
    source: pieces.Source,
    previous: Previous,
    digests: tuple[str, str],
    steps: Steps,
) -> Done:
    """Audit ``source`` period by period, rate from the earliest changed period and write every table
    into ``generation``; one period's games are held at a time."""
    with tempfile.TemporaryDirectory(prefix=".prepared-", dir=generation.root) as folder:
        carried = _carried(previous, digests[0])
        store = PeriodFiles(Path(folder))
        prepared, counts, audited = _audited(generation, plan_, source, store, carried, steps)
        with steps.step(_("digesting periods")):
            periods = state.chained(digests[0], prepared)
        memory.release_unused_memory()  # (every period's rows were read to digest them)
        labels = prepared.labels
        first = state.first_changed(previous.index, digests[0], periods) if previous.path else 0
        begin = state.restart(previous.index, labels, first)
        writer = PartitionWriter(generation, previous, labels[:first], schemas_of(plan_.rules))
        gc.freeze()  # objects so far are never garbage: the collector skips them (docs/design.md#gc-freeze)
        try:
            resumed = begin > 0 and previous.path is not None
            start = state.load_standings(previous.path, labels[begin - 1]) if previous.path and begin else {}
            last = LastCounted.of(writer.last_counted(labels[begin - 1])) if resumed else LastCounted()
            setup, activity = (plan_.roster, plan_.events), Activity(plan_.active_within, last)
            ended = rating.rate_periods(
                writer, prepared, plan_.rules, setup, (begin, first), (start, activity), steps
            )
            players = len(ended)
            del start, last, activity, ended  # (10^6 standings are not held through the leaderboards)
        finally:
            gc.unfreeze()  # a caller that runs again (a test, a notebook) collects them as before
    empty = writer.finish(labels)
    touched = {year_of(label) for label in labels[first:]}
    touched |= {year_of(label) for label, _ in (previous.index.periods[first:] if previous.index else [])}
    settings = plan_.settings
    provisional = Provisional(settings.provisional_games, settings.provisional_deviation)
    active_only = plan_.active_within is not None
    rating.leaderboards(writer, touched if first else None, provisional, active_only, steps)
    with steps.step(_("writing reports")):
        reports = rating.reports(writer, plan_.rules)
    indexing.index_players(writer, generation.path / "games.parquet", audited, periods, steps)
    kept = [label for label in labels if state.standings_path(generation.path, label).exists()]
    index = state.Index(digests[0], digests[1], periods, kept, empty, players, sorted(reports), audited)
    state.write_index(generation.path, index)
    taken = carried.taken
    incremental = Incremental(False, len(labels) - first, first, len(audited) - taken, taken)
    return Done(counts, labels, players, prepared.warnings, sorted(reports), incremental)


def _audited(
    generation: snapshots.Generation,
    plan_: Plan,
    source: pieces.Source,
    store: PeriodFiles,
    carried: CarriedGames,
    steps: Steps,
) -> tuple[Prepared, Counts, list[Piece]]:
    """Audit ``source`` one piece (period) at a time (:mod:`pipeline.audit.pieces`), or take a piece's
    games from the previous generation (``carried``) when its inputs are unchanged: each piece's games
    written to ``games.parquet`` as they come, its counted rows to ``store``; returns the prepared
    periods, the manifest's counts and the pieces (key, audit digest, rows) for the state index."""
    preparer, counts, seq, done = Preparer(store), Tally(), 0, []
    empty = tables.stored("games.parquet", GAMES.empty_table())
    groups = pieces.groups(source, plan_.validity.period)
    with (
        store_.ParquetStream(generation.file_path("games.parquet"), empty) as games_file,
        steps.step(_("auditing periods"), len(groups)) as advance,
    ):
        for key, months in groups:
            digest = audit_digest(carried.config, key, source.version(months))
            games = carried.take(key, digest, seq)
            if games is None:
                games = audit(source.read(months), plan_.roster, plan_.events, plan_.validity, seq)
            done.append((key, digest, games.num_rows))
            seq += games.num_rows
            games_file.write(tables.stored("games.parquet", games))
            preparer.add(games)
            counts.add(games)
            del games
            memory.release_unused_memory()
            advance(1)
    with steps.step(_("preparing the rating")):
        return preparer.finish(plan_.rules, plan_.roster, plan_.events), counts.counts, done


def _carried(previous: Previous, config: str) -> CarriedGames:
    """The previous generation's audited games by piece, when it was made under ``config``."""
    index, path = previous.index, previous.path
    if index is None or path is None or index.config != config:
        return CarriedGames(None, [], config)
    return CarriedGames(path / "games.parquet", index.pieces, config)


def _manifest(
    plan_: Plan, ingested: IngestResult, done: Done, config: str, timings: dict[str, float]
) -> Manifest:
    return Manifest(
        package_version=__version__,
        parser_version=cache.parser_version(),
        settings=plan_.settings,
        raw=str(plan_.raw.absolute()),
        state_digest=config,
        input_files=ingested.files,
        files_parsed=ingested.parsed,
        files_reused=ingested.reused,
        counts=done.counts,
        periods=done.periods,
        warnings=[*plan_.warnings, *done.warnings],
        rated_warnings=done.warnings,
        incremental=done.incremental,
        timings=timings,
    )
