"""compare.settings: the two configurations of ``ratings compare``, each a checked plan.

A side is a rule set (its name, default the configured one) and ``KEY=VALUE`` assignments on top of the
configuration: ``period`` replaces ``[run] period``, a ``[validity]`` key (``opponent_cap``, ``draw``,
``game_types``, ...) replaces that key, any other key is a ``[rules]`` parameter of the rule set (``k``,
``epsilon``, ``stage_weights``, ...), which the rule set checks itself. A value is read as a TOML value
(``20``, ``true``, ``{ "决赛*" = 2.0 }``, ``[1, 4]``), else as plain text (``count``, ``quarter``); the value
``default`` removes the key, so the rule set's default applies (``stage_weights=default``: no stage weights).

As ``ratings backtest`` decides (:mod:`pipeline.reports.backtest`): the configuration's ``[validity]``,
``[run] period`` and ``[rules]`` were written for the configured rule set (``[run] rule_set``, default club)
and apply to that one only; another rule set starts from its own defaults. The roster and events apply to
both sides. A configuration read back from an output folder (:mod:`pipeline.config.readback`) is the
run's: its roster and events are the tables the run recorded (:func:`pipeline.reports.backtest.plan_for`).

Knows nothing of games, ratings or the command line beyond the flag a message names.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline import config as config_mod
from pipeline import rules
from pipeline.config import ConfigError, RunConfig
from pipeline.config.toml import Table, one_of
from pipeline.core.i18n import _
from pipeline.core.reasons import OPTIONAL_REASONS, Validity
from pipeline.reports.backtest import plan_for
from pipeline.run import DEFAULT_RULE_SET, Plan

#: The value of an assignment that removes its key (the rule set's default applies).
DEFAULT = "default"
#: The ``[validity]`` keys an assignment may replace (the fields of Validity, and the optional reasons).
VALIDITY_KEYS = frozenset(
    {f.name for f in dataclasses.fields(Validity)} - {"period", "excluded"} | set(OPTIONAL_REASONS)
)


@dataclass(frozen=True, slots=True)
class Side:
    """One configuration compared: ``label`` (the rule set and the assignments, ``club opponent_cap=3``)
    and its checked ``plan``."""

    label: str
    plan: Plan


def parse_assignments(items: Sequence[str], flag: str) -> dict[str, Any]:
    """``KEY=VALUE`` texts as a mapping (a later key wins), each value read as the module docstring says
    (:data:`DEFAULT` kept as it is, for :func:`side` to remove the key).

    Raises :class:`ConfigError` naming ``flag`` and the text if one has no ``=`` or an empty key.
    """
    found: dict[str, Any] = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise ConfigError(
                _("{flag} must be KEY=VALUE (e.g. opponent_cap=5), got {item!r}").format(flag=flag, item=item)
            )
        found[key.strip()] = _value(value.strip())
    return found


def _value(text: str) -> Any:
    """``text`` as a TOML value, else the text itself."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def side(config: RunConfig, name: str | None, assignments: Mapping[str, Any], flags: tuple[str, str]) -> Side:
    """The side running rule set ``name`` (None: the configured one) with ``assignments`` (from
    :func:`parse_assignments`) on top of ``config`` as the module docstring says; ``flags`` are the
    flags that gave the name and the assignments (``--against``, ``--against-set``), for messages.

    Raises :class:`ConfigError` if the rule set is unknown, a value is bad for its key, a ``[rules]`` key
    is not one the rule set takes (the message names the flag and what keys it takes), or the
    configuration is bad (:func:`pipeline.run.plan`).
    """
    configured = config.rule_set or DEFAULT_RULE_SET
    chosen = name or configured
    try:
        rules.validity(chosen)
    except rules.UnknownRuleSet as e:
        where = flags[0] if name else f"{config.source}: [run] rule_set"
        raise ConfigError(f"{where}: {e}") from None
    flag = flags[1]
    base = (
        config if chosen == configured else dataclasses.replace(config, validity={}, period=None, rules=None)
    )
    changed = _assigned(dataclasses.replace(base, rule_set=chosen), assignments, flag)
    try:
        checked = plan_for(changed, chosen)
    except ConfigError as e:
        if not _rules_part(assignments):
            raise
        keys = ", ".join(sorted(VALIDITY_KEYS))
        hint = _("{flag} takes [validity] keys ({keys}), period, or {rule_set}'s [rules]")
        raise ConfigError(f"{e} ({hint.format(flag=flag, keys=keys, rule_set=chosen)})") from None
    return Side(label(chosen, assignments), checked)


def label(name: str, assignments: Mapping[str, Any]) -> str:
    """``name`` and the assignments as given, ``club opponent_cap=3``."""
    return " ".join([name, *(f"{k}={_shown(v)}" for k, v in assignments.items())])


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={_shown(v)}" for k, v in value.items()) + "}"
    return str(value)


def _assigned(config: RunConfig, assignments: Mapping[str, Any], flag: str) -> RunConfig:
    """``config`` with ``assignments`` applied to ``[run] period``, ``[validity]`` and ``[rules]``."""
    period = assignments.get("period", config.period)
    if period is not None and period != DEFAULT:
        period = Table(Path(flag), "[run]", {"period": period}).required(
            "period", one_of(*config_mod.PERIODS)
        )
    validity = _merged(config.validity, _validity_part(assignments), flag, checked=True)
    rules = _rules_part(assignments)
    table = config.rules
    if rules:
        data = _merged(dict(config.rules.data) if config.rules else {}, rules, flag, checked=False)
        table = Table(Path(flag), "[rules]", data)
    return dataclasses.replace(
        config, period=None if period == DEFAULT else period, validity=validity, rules=table
    )


def _validity_part(assignments: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in assignments.items() if k in VALIDITY_KEYS}


def _rules_part(assignments: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in assignments.items() if k not in VALIDITY_KEYS and k != "period"}


def _merged(old: Mapping[str, Any], new: Mapping[str, Any], flag: str, checked: bool) -> dict[str, Any]:
    """``old`` with ``new``'s keys set (:data:`DEFAULT`: removed); ``[validity]`` values (``checked``)
    checked as the configuration file's are. Raises :class:`ConfigError` for a bad value."""
    given = {k: v for k, v in new.items() if v != DEFAULT}
    if checked:
        given = config_mod.validity_section(Table(Path(flag), "[validity]", given))
    kept = {k: v for k, v in old.items() if k not in new}
    return kept | given
