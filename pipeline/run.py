"""run: the stages in order, each configured once, writing the contract's outputs (README.md, "Outputs").

:func:`plan` turns a configuration into everything the stages need (it checks the folders and the
rule-set name, reads the roster and events files, so a bad configuration fails before any output is
touched, and picks each player's starting rating on the rule set's scale); :func:`run_all` runs
ingest -> audit -> rate -> write. Knows nothing of the command line: options come in, a report goes out.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pipeline import __version__, rules
from pipeline.audit import audit
from pipeline.config import ConfigError, RunConfig
from pipeline.config.events import Events, load_events
from pipeline.config.roster import Roster, load_roster
from pipeline.ingest import IngestOptions, IngestResult, ingest, parser_version
from pipeline.output import snapshots
from pipeline.reports.leaderboards import leaderboards
from pipeline.reports.summary import audit_counts, ingest_counts
from pipeline.rules.base import RuleSet, Validity
from pipeline.rules.replay import Rated, rate
from pipeline.rules.scales import RATING_KEYS, SCALES, starting_ratings

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
        "roster": _digest(config.roster_path),
        "events": _digest(config.events_path),
    }
    return Plan(config.raw, config.out, name, valid, rule_set_, roster, events, settings, warnings)


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


def run_all(plan_: Plan, options: IngestOptions) -> RunReport:
    """Run every stage for ``plan_`` and switch the output folder to the new generation.

    Raises :class:`pipeline.ingest.IngestError` if the raw folder is missing, OSError if the output
    cannot be written (the previous output then stays in place).
    """
    timings: dict[str, float] = {}
    started = time.perf_counter()
    ingested = ingest(plan_.raw, plan_.out, options)
    timings["ingest"] = ingested.seconds
    games = audit(ingested.games, plan_.roster, plan_.events, plan_.validity)
    rated = rate(games, plan_.rules, plan_.roster, plan_.events)
    boards = leaderboards(rated.changes.to_pandas())
    timings["audit_rate"] = time.perf_counter() - started - ingested.seconds
    counts = ingest_counts(ingested.games) | audit_counts(games)
    manifest = _manifest(plan_, ingested, counts, rated, timings)
    reports = plan_.rules.reports(rated.changes, rated.promotions)
    snapshots.write_generation(
        plan_.out,
        {"games.parquet": games, "promotions.parquet": rated.promotions, **reports},
        {"ratings": rated.ratings, "changes": rated.changes, "awards": rated.awards, "leaderboards": boards},
        manifest,
        {name: rated.periods for name in ("ratings", "changes")},  # the contract wants their partitions
    )
    players = len(set(rated.ratings.column("player").to_pylist()))
    warnings = [*plan_.warnings, *rated.warnings]
    return RunReport(ingested, counts, rated.periods, players, plan_.out, warnings, sorted(reports))


def _manifest(
    plan_: Plan, ingested: IngestResult, counts: dict[str, Any], rated: Rated, timings: dict[str, float]
) -> dict[str, Any]:
    return {
        "package_version": __version__,
        "parser_version": parser_version(),
        "rule_set": plan_.rule_set,
        "raw": str(plan_.raw),
        "settings": plan_.settings,
        "config_digest": _digest_of(plan_.settings),
        "input_files": ingested.files,
        "files_parsed": ingested.parsed,
        "files_reused": ingested.reused,
        "games": counts["games"],
        "counts": counts,
        "periods": rated.periods,
        "warnings": [*plan_.warnings, *rated.warnings],
        "timings_s": {k: round(v, 3) for k, v in timings.items()},
    }


def _digest(path: Path | None) -> str | None:
    """A digest of the file at ``path`` (None for no file): part of the configuration digest."""
    return hashlib.blake2b(path.read_bytes(), digest_size=8).hexdigest() if path else None


def _digest_of(settings: dict[str, Any]) -> str:
    return hashlib.blake2b(
        json.dumps(settings, sort_keys=True, default=str).encode(), digest_size=8
    ).hexdigest()
