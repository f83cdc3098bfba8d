"""rules: the registry of rule sets by name. Each family lives in a module of its own, which defines the
record of each of its rule sets (:class:`~pipeline.rules.family.Family`): the registry lists the records.

Knows nothing of SGF or files: :func:`create` builds a rule set from the roster, the run's validity
and the ``[rules]`` parameters (checked by the family); the stages before it hand over audited
:class:`~pipeline.rules.base.Game` values. Every list of rule sets elsewhere in the package (scales,
report files, explanations, number formats) is read from :data:`REGISTRY`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pipeline.config.roster import Roster
from pipeline.config.toml import Table
from pipeline.core.reasons import Validity
from pipeline.rules import cga_dan, club, glicko2_rules, gor_sets, tga
from pipeline.rules.base import Context, RuleSet
from pipeline.rules.family import Family

#: name -> record, one line per rule set (each record is defined by its rule set's module). Read-only.
REGISTRY: Mapping[str, Family] = MappingProxyType(
    {
        record.name: record
        for record in (
            club.FAMILY,
            gor_sets.HKGA,
            gor_sets.EGF,
            gor_sets.EGF2021,
            gor_sets.CGA,
            cga_dan.FAMILY,
            tga.FAMILY,
            glicko2_rules.FAMILY,
        )
    }
)


class UnknownRuleSet(KeyError):
    """Raised for a name that is not registered; the message lists the known names."""

    def __str__(self) -> str:
        return str(self.args[0])


def names() -> list[str]:
    """The registered rule-set names, sorted."""
    return sorted(REGISTRY)


def validity(name: str, overrides: Mapping[str, Any] | None = None, period: str | None = None) -> Validity:
    """The validity rules of rule set ``name`` with the configuration's ``overrides`` and ``period``.

    Raises :class:`UnknownRuleSet` if ``name`` is not registered.
    """
    return family(name).defaults.overridden(overrides or {}, period)


def implicit_event_kind(name: str) -> str | None:
    """The kind of event each ``EV`` is for rule set ``name`` when no events file is configured.

    Raises :class:`UnknownRuleSet` if ``name`` is not registered.
    """
    return family(name).implicit_event_kind


def create(name: str, roster: Roster, valid: Validity, params: Table | None = None) -> RuleSet:
    """The rule set ``name`` configured with ``roster``, ``valid`` and its ``[rules]`` ``params``.

    Raises :class:`UnknownRuleSet` if ``name`` is not registered, and
    :class:`~pipeline.config.toml.ConfigError` if a parameter is unknown or bad for it.
    """
    table = params if params is not None else Table(Path("(no configuration)"), "[rules]", {})
    return family(name).build(Context(roster, valid), table)


def family(name: str) -> Family:
    """The record of rule set ``name``. Raises :class:`UnknownRuleSet` if ``name`` is not registered."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise UnknownRuleSet(f"unknown rule set: {name!r} (known: {', '.join(names())})") from None
