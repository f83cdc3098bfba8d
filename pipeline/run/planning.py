"""run.planning: a configuration checked and turned into everything the stages need (:class:`Plan`), and the
run's settings as the manifest records them (:class:`Settings`).

:func:`plan` checks the folders and the rule-set name, reads the roster and events files (so a bad
configuration fails before any output is touched) and picks each player's starting rating on the rule
set's scale. Knows nothing of the command line, nor of how the stages run.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pipeline import rules
from pipeline.config import ConfigError, RunConfig
from pipeline.config.events import Events, load_events
from pipeline.config.roster import Roster, load_roster
from pipeline.core.activity import Span
from pipeline.core.i18n import _
from pipeline.core.reasons import Validity
from pipeline.output import snapshots
from pipeline.rules.base import RuleSet
from pipeline.rules.scales import RATING_KEYS, SCALES, starting_ratings


@dataclass(frozen=True, slots=True)
class Settings:
    """What the output depends on besides the games: the rule set, its validity, its ``[rules]``
    parameters (as the configuration wrote them), the speed threshold, the provisional games and
    deviation, the span of activity (``active_within`` as :attr:`pipeline.core.activity.Span.text` writes
    it; None: everyone active), and the digests of the roster and events files (None: no file). The
    manifest's ``settings``
    (:meth:`as_json`); its digest is the manifest's ``config_digest``."""

    rule_set: str
    validity: Validity
    rules: Mapping[str, Any]
    speed_threshold_s: float
    provisional_games: int
    active_within: str | None = None
    roster: str | None = None
    events: str | None = None
    provisional_deviation: float = 0.0

    def as_json(self) -> dict[str, Any]:
        """The manifest's ``settings``: the fields in order, the validity's excluded reasons sorted."""
        validity = asdict(self.validity) | {"excluded": sorted(self.validity.excluded)}
        found: dict[str, Any] = {"rule_set": self.rule_set, "validity": validity, "rules": dict(self.rules)}
        found |= {"speed_threshold_s": self.speed_threshold_s, "provisional_games": self.provisional_games}
        found |= {"provisional_deviation": self.provisional_deviation}
        found |= {"active_within": self.active_within}
        return found | {"roster": self.roster, "events": self.events}

    def digest(self) -> str:
        """A digest of :meth:`as_json` (16 hex digits)."""
        text = json.dumps(self.as_json(), sort_keys=True, default=str)
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


DEFAULT_RULE_SET = "club"


@dataclass(frozen=True, slots=True)
class Plan:
    """A checked configuration: folders, the rule set's name and validity, the roster (each player's
    ``rating`` the one the rule set starts them at), the events, and the warnings of planning (starting
    ratings set aside or out of range), which a run adds to its own; ``active_within``, the span of
    activity (None: everyone active)."""

    raw: Path
    out: Path
    rule_set: str
    validity: Validity
    rules: RuleSet
    roster: Roster
    events: Events
    settings: Settings
    warnings: list[str] = field(default_factory=list)
    keep_generations: int = snapshots.KEEP
    active_within: Span | None = None


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
    params = dict(config.rules.data) if config.rules else {}
    digests = _digest(config.roster_path), _digest(config.events_path)
    span = config.active_within.text if config.active_within else None
    settings = Settings(
        name, valid, params, config.speed_threshold_s, config.provisional_games, span, *digests,
        provisional_deviation=config.provisional_deviation,
    )  # fmt: skip
    keep = config.keep_generations  # not a setting: keeping more generations changes no output
    found = Plan(config.raw, config.out, name, valid, rule_set_, roster, events, settings, warnings, keep)
    return dataclasses.replace(found, active_within=config.active_within)


def check_folders(config: RunConfig) -> None:
    """Check ``config``'s folders (also for ``ratings ingest``, which needs no plan).

    Raises :class:`ConfigError` if ``raw`` is not an existing folder or ``out`` exists but is not one, the
    message starting with where the value came from (:meth:`~pipeline.config.RunConfig.origin`).
    """
    raw, out = config.origin("raw"), config.origin("out")
    if not config.raw.is_dir():
        found = (_("{path} is a file") if config.raw.exists() else _("looked for {path}")).format(
            path=config.raw.absolute()
        )
        message = _("{place} must be an existing folder, got {value} ({found})")
        raise ConfigError(message.format(place=raw.place, value=repr(raw.written), found=found))
    if config.out.exists() and not config.out.is_dir():
        found = _("{path} is a file").format(path=config.out.absolute())
        message = _("{place} must be a folder (or not exist yet), got {value} ({found})")
        raise ConfigError(message.format(place=out.place, value=repr(out.written), found=found))


def _digest(path: Path | None) -> str | None:
    """A digest of the file at ``path`` (None for no file): part of the configuration digest."""
    return hashlib.blake2b(path.read_bytes(), digest_size=8).hexdigest() if path else None
