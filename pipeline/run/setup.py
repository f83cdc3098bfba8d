"""run.setup: what a configuration sets otherwise than the setup a run recorded in its output folder
(:mod:`pipeline.config.readback`), for the commands that rate again from ``--out`` and must say when the
configuration given disagrees. Knows nothing of the command line.
"""

from __future__ import annotations

from typing import Any

from pipeline import rules
from pipeline.config import ConfigError, RunConfig
from pipeline.config.events import load_events
from pipeline.config.readback import tables_of
from pipeline.config.recorded import events_table, same_names
from pipeline.config.roster import Roster, load_roster
from pipeline.run import DEFAULT_RULE_SET


def differences(configured: RunConfig, kept: RunConfig) -> list[str]:
    """What the configuration ``configured`` sets otherwise than the run's setup ``kept`` (from
    :func:`pipeline.config.readback.read_setup`): among ``rule set``, ``validity``, ``[rules]``,
    ``speed threshold``, ``provisional games``, ``provisional deviation``, ``active within``, ``raw
    folder``, ``roster``, ``events``; empty when they agree. A roster or events file of ``configured``
    that cannot be read differs (using it fails later, saying why)."""
    names = [c.rule_set or DEFAULT_RULE_SET for c in (configured, kept)]
    try:
        valid = [
            rules.validity(n, c.validity, c.period) for n, c in zip(names, (configured, kept), strict=True)
        ]
    except rules.UnknownRuleSet:
        valid = []
    found = {
        "rule set": names[0] != names[1],
        "validity": len(valid) == 2 and valid[0] != valid[1],
        "[rules]": _params(configured) != _params(kept),
        "speed threshold": configured.speed_threshold_s != kept.speed_threshold_s,
        "provisional games": configured.provisional_games != kept.provisional_games,
        "provisional deviation": configured.provisional_deviation != kept.provisional_deviation,
        "active within": configured.active_within != kept.active_within,
        "raw folder": configured.raw.resolve() != kept.raw.resolve(),
    }
    found |= _setup_differences(configured, kept)
    return [what for what, differs in found.items() if differs]


def _params(config: RunConfig) -> dict[str, Any]:
    return dict(config.rules.data) if config.rules is not None else {}


def _setup_differences(configured: RunConfig, kept: RunConfig) -> dict[str, bool]:
    """Whether the roster and the events of ``configured`` (files) differ from those ``kept`` recorded."""
    tables = tables_of(kept) or (Roster(), None)
    try:
        roster = load_roster(configured.roster_path) if configured.roster_path else None
        mine = load_events(configured.events_path) if configured.events_path else None
    except ConfigError:
        return {"roster": True, "events": True}
    same_events = (mine is None) == (tables[1] is None) and (
        mine is None or tables[1] is None or events_table(mine).equals(events_table(tables[1]))
    )
    return {"roster": not same_names(roster, tables[0]), "events": not same_events}
