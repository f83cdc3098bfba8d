"""rules: the registry of rule sets by name. Each family lives in a module of its own.

Knows nothing of SGF or files: :func:`create` builds a rule set from the roster and the run's
validity overrides; the stages before it hand over audited :class:`~pipeline.rules.base.Game` values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from pipeline.roster import Roster
from pipeline.rules.base import Context, RuleSet, Validity
from pipeline.rules.club import DEFAULTS as CLUB_DEFAULTS
from pipeline.rules.club import ClubRules

Factory = Callable[[Context], RuleSet]

#: name -> (validity defaults, factory). Read-only.
REGISTRY: Mapping[str, tuple[Validity, Factory]] = MappingProxyType({"club": (CLUB_DEFAULTS, ClubRules)})


class UnknownRuleSet(KeyError):
    """Raised by :func:`create` for a name that is not registered; the message lists the known names."""

    def __str__(self) -> str:
        return str(self.args[0])


def names() -> list[str]:
    """The registered rule-set names, sorted."""
    return sorted(REGISTRY)


def validity(name: str, overrides: Mapping[str, Any] | None = None, period: str | None = None) -> Validity:
    """The validity rules of rule set ``name`` with the configuration's ``overrides`` and ``period``.

    Raises :class:`UnknownRuleSet` if ``name`` is not registered.
    """
    return _entry(name)[0].overridden(overrides or {}, period)


def create(name: str, roster: Roster, valid: Validity) -> RuleSet:
    """The rule set ``name`` configured with ``roster`` and ``valid``.

    Raises :class:`UnknownRuleSet` if ``name`` is not registered.
    """
    return _entry(name)[1](Context(roster, valid))


def _entry(name: str) -> tuple[Validity, Factory]:
    try:
        return REGISTRY[name]
    except KeyError:
        raise UnknownRuleSet(f"unknown rule set: {name!r} (known: {', '.join(names())})") from None
