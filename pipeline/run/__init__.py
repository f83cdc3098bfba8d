"""run: the stages in order, each configured once, writing the contract's outputs (README.md, "Outputs").

:func:`plan` turns a configuration into everything the stages need (it checks the folders and the
rule-set name, reads the roster and events files, so a bad configuration fails before any output is
touched, and picks each player's starting rating on the rule set's scale); :func:`run_all` runs
ingest -> audit -> rate -> write. Knows nothing of the command line: options come in, a report goes out.
"""

from __future__ import annotations

import gc
import hashlib
import json
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pipeline import __version__, rules
from pipeline.audit import audit, pieces
from pipeline.audit.counts import Counts
from pipeline.config import ConfigError, RunConfig, recorded
from pipeline.config.events import Events, load_events
from pipeline.config.roster import Roster, load_roster
from pipeline.core import store as store_
from pipeline.core import tables
from pipeline.core.periods import year_of
from pipeline.core.progress import SILENT, Steps
from pipeline.core.reasons import Validity
from pipeline.core.tables import GAMES
from pipeline.ingest import IngestOptions, IngestResult, cache, ingest
from pipeline.output import memory, snapshots, state
from pipeline.output.carried_games import CarriedGames, Piece, audit_digest
from pipeline.output.carry import PartitionWriter
from pipeline.output.spill import PeriodFiles
from pipeline.rules.base import RuleSet
from pipeline.rules.prepare import Prepared, Preparer
from pipeline.rules.replay import schemas_of
from pipeline.rules.scales import RATING_KEYS, SCALES, starting_ratings
from pipeline.run import rating

DEFAULT_RULE_SET = "club"


@dataclass(frozen=True, slots=True)
class Plan:
    """A checked configuration: folders, the rule set's name and validity, the roster (each player's
    ``rating`` the one the rule set starts them at), the events, and the warnings of planning (starting
    ratings set aside or out of range), which a run adds to its own."""

    raw: Path
    out: Path
    rule_set: str
    validity: Validity
    rules: RuleSet
    roster: Roster
    events: Events
    settings: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    keep_generations: int = snapshots.KEEP


@dataclass(frozen=True, slots=True)
class RunReport:
    """What a run did: the ingest result, the counts written to the manifest, the periods, where it is."""

    ingest: IngestResult
    counts: dict[str, Any]
    periods: list[str]
    players: int
    out: Path
    warnings: list[str]
    reports: list[str]


def plan(config: RunConfig, rule_set: str | None = None) -> Plan:
    """Check ``config`` (``rule_set`` overrides its ``[run] rule_set``) and load its roster and events.

    Raises :class:`ConfigError` if the rule set is unknown, the raw folder is not an existing folder, the
    output folder exists but is not a folder (each named by where its value came from: the file and key,
    the flag or the default), or the roster or events file is bad.
    """
    name = rule_set or config.rule_set or DEFAULT_RULE_SET
    where = f"{config.source}: [run] rule_set" if config.source and not rule_set else "--rules"
    try:
        valid = rules.validity(name, config.validity, config.period)
    except rules.UnknownRuleSet as e:
        raise ConfigError(f"{where}: {e}") from None
    check_folders(config)
    roster = load_roster(config.roster_path, RATING_KEYS) if config.roster_path else Roster()
    roster, warnings = starting_ratings(roster, SCALES.get(name))
    events = (
        load_events(config.events_path) if config.events_path else Events((), rules.implicit_event_kind(name))
    )
    rule_set_ = rules.create(name, roster, valid, config.rules)
    settings = {
        "rule_set": name,
        "validity": asdict(valid) | {"excluded": sorted(valid.excluded)},
        "rules": dict(config.rules.data) if config.rules else {},
        "speed_threshold_s": config.speed_threshold_s,
        "provisional_games": config.provisional_games,
        "roster": _digest(config.roster_path),
        "events": _digest(config.events_path),
    }
    keep = config.keep_generations  # not a setting: keeping more generations changes no output
    return Plan(config.raw, config.out, name, valid, rule_set_, roster, events, settings, warnings, keep)


def check_folders(config: RunConfig) -> None:
    """Check ``config``'s folders (also for ``ratings ingest``, which needs no plan).

    Raises :class:`ConfigError` if ``raw`` is not an existing folder or ``out`` exists but is not one, the
    message starting with where the value came from (:meth:`~pipeline.config.RunConfig.origin`).
    """
    raw, out = config.origin("raw"), config.origin("out")
    if not config.raw.is_dir():
        found = (
            f"{config.raw.absolute()} is a file"
            if config.raw.exists()
            else f"looked for {config.raw.absolute()}"
        )
        raise ConfigError(f"{raw.place} must be an existing folder, got {raw.written!r} ({found})")
    if config.out.exists() and not config.out.is_dir():
        found = f"{config.out.absolute()} is a file"
        raise ConfigError(f"{out.place} must be a folder (or not exist yet), got {out.written!r} ({found})")


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
    config = state.config_digest(plan_.settings, cache.parser_version())
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
        generation.commit(manifest)
    warnings = [*plan_.warnings, *done.warnings]
    return RunReport(ingested, done.counts, done.periods, done.players, plan_.out, warnings, done.reports)


def record_setup(generation: snapshots.Generation, plan_: Plan) -> None:
    """Record in ``generation`` the roster and the events the run used (:mod:`pipeline.config.recorded`),
    so that a reader of the output needs no configuration; the rule set's parameters are the manifest's
    ``settings``. A generation carried whole already holds them, linked from the previous one (its
    configuration was the same): they are not written again."""
    tables_ = {
        recorded.ROSTER_FILE: recorded.roster_table(plan_.roster),
        recorded.EVENTS_FILE: recorded.events_table(plan_.events),
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

    counts: dict[str, Any]
    periods: list[str]
    players: int
    warnings: list[str]
    reports: list[str]
    incremental: dict[str, Any]


def _carried_whole(generation: snapshots.Generation, before: Path, index: state.Index) -> Done:
    """Nothing changed: every file of ``before`` (its manifest aside) hard-linked into ``generation``."""
    for path in sorted(before.rglob("*")):
        relative = path.relative_to(before)
        if path.is_file() and relative.as_posix() != "manifest.json":
            entry = relative.parts[0]
            generation.link(before, relative, None if entry == state.FOLDER else entry)
    state.write_index(generation.path, index)  # unchanged; written anew, not linked: it is this run's
    old = json.loads((before / "manifest.json").read_text(encoding="utf-8"))
    labels = [label for label, _ in index.periods]
    carried = {"reused_generation": True, "periods_replayed": 0, "periods_carried": len(labels)}
    return Done(old["counts"], labels, index.players, old["rated_warnings"], index.reports, carried)


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
        with steps.step("digesting periods"):
            periods = state.chained(digests[0], prepared)
        memory.release_unused_memory()  # (every period's rows were read to digest them)
        labels = prepared.labels
        first = state.first_changed(previous.index, digests[0], periods) if previous.path else 0
        begin = state.restart(previous.index, labels, first)
        writer = PartitionWriter(generation, previous, labels[:first], schemas_of(plan_.rules))
        gc.freeze()  # objects so far are never garbage: the collector skips them (docs/design.md#gc-freeze)
        try:
            start = state.load_standings(previous.path, labels[begin - 1]) if begin and previous.path else {}
            setup = (plan_.roster, plan_.events)
            players = len(
                rating.rate_periods(writer, prepared, plan_.rules, setup, (begin, first), start, steps)
            )
            del start  # (10^6 standings are not held through the leaderboards)
        finally:
            gc.unfreeze()  # a caller that runs again (a test, a notebook) collects them as before
    empty = writer.finish(labels)
    touched = {year_of(label) for label in labels[first:]}
    touched |= {year_of(label) for label, _ in (previous.index.periods[first:] if previous.index else [])}
    rating.leaderboards(writer, touched if first else None, plan_.settings["provisional_games"], steps)
    with steps.step("writing reports"):
        reports = rating.reports(writer, plan_.rules)
    kept = [label for label in labels if state.standings_path(generation.path, label).exists()]
    index = state.Index(digests[0], digests[1], periods, kept, empty, players, sorted(reports), audited)
    state.write_index(generation.path, index)
    taken = carried.taken
    incremental = {"reused_generation": False, "periods_replayed": len(labels) - first}
    incremental |= {"periods_carried": first, "pieces_audited": len(audited) - taken, "pieces_carried": taken}
    return Done(counts, labels, players, prepared.warnings, sorted(reports), incremental)


def _audited(
    generation: snapshots.Generation,
    plan_: Plan,
    source: pieces.Source,
    store: PeriodFiles,
    carried: CarriedGames,
    steps: Steps,
) -> tuple[Prepared, dict[str, Any], list[Piece]]:
    """Audit ``source`` one piece (period) at a time (:mod:`pipeline.audit.pieces`), or take a piece's
    games from the previous generation (``carried``) when its inputs are unchanged: each piece's games
    written to ``games.parquet`` as they come, its counted rows to ``store``; returns the prepared
    periods, the manifest's counts and the pieces (key, audit digest, rows) for the state index."""
    preparer, counts, seq, done = Preparer(store), Counts(), 0, []
    empty = tables.stored("games.parquet", GAMES.empty_table())
    groups = pieces.groups(source, plan_.validity.period)
    with (
        store_.ParquetStream(generation.file_path("games.parquet"), empty) as games_file,
        steps.step("auditing periods", len(groups)) as advance,
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
    with steps.step("preparing the rating"):
        return preparer.finish(plan_.rules, plan_.roster, plan_.events), counts.counts, done


def _carried(previous: Previous, config: str) -> CarriedGames:
    """The previous generation's audited games by piece, when it was made under ``config``."""
    index, path = previous.index, previous.path
    if index is None or path is None or index.config != config:
        return CarriedGames(None, [], config)
    return CarriedGames(path / "games.parquet", index.pieces, config)


def _manifest(
    plan_: Plan, ingested: IngestResult, done: Done, config: str, timings: dict[str, float]
) -> dict[str, Any]:
    return {
        "package_version": __version__,
        "parser_version": cache.parser_version(),
        "rule_set": plan_.rule_set,
        "raw": str(plan_.raw.absolute()),  # (a reader elsewhere finds it: ratings backtest --out O)
        "settings": plan_.settings,
        "config_digest": _digest_of(plan_.settings),
        "state_digest": config,
        "input_files": ingested.files,
        "files_parsed": ingested.parsed,
        "files_reused": ingested.reused,
        "games": done.counts["games"],
        "counts": done.counts,
        "periods": done.periods,
        "warnings": [*plan_.warnings, *done.warnings],
        "rated_warnings": done.warnings,
        "incremental": done.incremental,
        "timings_s": {k: round(v, 3) for k, v in timings.items()},
    }


def _digest(path: Path | None) -> str | None:
    """A digest of the file at ``path`` (None for no file): part of the configuration digest."""
    return hashlib.blake2b(path.read_bytes(), digest_size=8).hexdigest() if path else None


def _digest_of(settings: dict[str, Any]) -> str:
    return hashlib.blake2b(
        json.dumps(settings, sort_keys=True, default=str).encode(), digest_size=8
    ).hexdigest()
