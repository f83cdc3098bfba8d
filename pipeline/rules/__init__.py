"""rules: the registry of rule sets by name. Each family lives in a module of its own.

Knows nothing of SGF or files: :func:`create` builds a rule set from the roster, the run's validity
and the ``[rules]`` parameters (checked by the family); the stages before it hand over audited
:class:`~pipeline.rules.base.Game` values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pipeline.config.roster import Roster
from pipeline.config.toml import Table, number
from pipeline.core.reasons import Validity
from pipeline.rules import cga_dan, club, gor, gor_rules, hkga_reports, tga
from pipeline.rules.base import Context, RuleSet

Build = Callable[[Context, Table], RuleSet]
GOR_KEYS = ("class_weights", "default_class", "stage_weights", "batch_events")


@dataclass(frozen=True, slots=True)
class Family:
    """A registered rule set: its validity defaults, how to build it from its ``[rules]`` table, and
    the kind of event every ``EV`` is when there is no events file (None: no event at all)."""

    defaults: Validity
    build: Build
    implicit_event_kind: str | None = None


def _club(context: Context, params: Table) -> RuleSet:
    params.check_keys(())
    return club.ClubRules(context)


def _classic(
    name: str,
    epsilon: float,
    split: bool,
    report: gor_rules.Report | None = None,
    columns: tuple[str, ...] = (),
) -> Build:
    def build(context: Context, params: Table) -> RuleSet:
        params.check_keys(("epsilon", *GOR_KEYS))
        formula = gor.Classic(params.get("epsilon", number(), epsilon), split)
        weights = gor_rules.params_from(params)
        return gor_rules.GorRules(name, formula, weights, context, report=report, report_columns=columns)

    return build


def _egf2021(context: Context, params: Table) -> RuleSet:
    params.check_keys(GOR_KEYS)
    return gor_rules.GorRules("egf2021", gor.Egd2021(), gor_rules.params_from(params), context)


def _cga(context: Context, params: Table) -> RuleSet:
    params.check_keys(("k", "scale", *GOR_KEYS))
    k, scale = params.get("k", number(positive=True), 10.0), params.get("scale", number(positive=True), 400.0)
    return gor_rules.GorRules("cga", gor.Elo(k, scale), gor_rules.params_from(params), context)


#: name -> family. Read-only.
REGISTRY: Mapping[str, Family] = MappingProxyType(
    {
        "club": Family(club.DEFAULTS, _club),
        "hkga": Family(
            gor.DEFAULTS,
            _classic("hkga", 0.014, split=False, report=hkga_reports.reports, columns=hkga_reports.COLUMNS),
        ),
        "egf": Family(gor.DEFAULTS, _classic("egf", 0.016, split=True)),
        "egf2021": Family(gor.DEFAULTS, _egf2021),
        "cga": Family(gor.CGA_DEFAULTS, _cga),
        "cga-dan": Family(cga_dan.DEFAULTS, cga_dan.build),
        "tga": Family(tga.DEFAULTS, tga.build, implicit_event_kind="recognised"),
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
    return _family(name).defaults.overridden(overrides or {}, period)


def implicit_event_kind(name: str) -> str | None:
    """The kind of event each ``EV`` is for rule set ``name`` when no events file is configured.

    Raises :class:`UnknownRuleSet` if ``name`` is not registered.
    """
    return _family(name).implicit_event_kind


def create(name: str, roster: Roster, valid: Validity, params: Table | None = None) -> RuleSet:
    """The rule set ``name`` configured with ``roster``, ``valid`` and its ``[rules]`` ``params``.

    Raises :class:`UnknownRuleSet` if ``name`` is not registered, and
    :class:`~pipeline.config.toml.ConfigError` if a parameter is unknown or bad for it.
    """
    table = params if params is not None else Table(Path("(no configuration)"), "[rules]", {})
    return _family(name).build(Context(roster, valid), table)


def _family(name: str) -> Family:
    try:
        return REGISTRY[name]
    except KeyError:
        raise UnknownRuleSet(f"unknown rule set: {name!r} (known: {', '.join(names())})") from None
