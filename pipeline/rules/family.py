"""rules.family: the record of a rule set, everything the package knows of it in one place.

A rule set's module defines its :class:`Family`: its name, how it is built from the run's context and its
``[rules]`` table, its validity defaults, the scale on which it reads a roster's starting ratings, its own
report files, the kind of event every ``EV`` is without an events file, its rating floor, how its numbers
are written, the shape of its explanation, and a sentence saying what it does. The registry
(:mod:`pipeline.rules`) lists the records, one line each; every other list of rule sets in the package (the
scales, the report files and who writes them, the explanations, the number formats, the site's sentences)
is read from the records. Adding a rule set is its module, with its record, and its line in the registry.

Knows nothing of how a rule set rates, nor of files: a report is named here, written by the run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pipeline.config.toml import Table
from pipeline.core.i18n import N_, Said
from pipeline.core.ranks import Rank
from pipeline.core.reasons import Validity
from pipeline.rules.base import Context, RuleSet

Build = Callable[[Context, Table], RuleSet]
#: The shapes of explanation (:mod:`pipeline.reports.explain.families` gives each its function): ``club``
#: (terms per group of games), ``gor`` (the start plus each game's ``con × (result − Se)``), ``gor-bonus``
#: (the same plus the EGD 2021 bonus), ``elo`` (``K × (result − We)``), ``dan-points`` (the average of the
#: points since the last promotion), ``rank`` (the rank before and after, with each event's criterion) and
#: ``generic`` (the start plus each game's change plus the awards).
Explanation = Literal["club", "gor", "gor-bonus", "elo", "dan-points", "rank", "generic"]


@dataclass(frozen=True, slots=True)
class Scale:
    """The scale on which a rule set reads a roster's starting ratings: ``name`` (the rule set's), ``family``
    (the roster key the rule sets sharing the scale use: ``club``, ``gor``, ``cga``), the plausible range
    ``low``..``high``, ``start`` (the rating a rank starts at; None: no rank known) and ``tolerance``: the
    farthest a plain number may lie from the declared rank's start and still be taken as this scale's
    (see :mod:`pipeline.rules.scales`)."""

    name: str
    family: str
    low: float
    high: float
    start: Callable[[Rank | None], float]
    tolerance: float = 500.0

    @property
    def keys(self) -> tuple[str, ...]:
        """The roster keys that give a rating on this scale, the most specific first."""
        return tuple(dict.fromkeys((self.name, self.family)))

    def fits(self, value: float) -> bool:
        """True if ``value`` lies in the plausible range."""
        return self.low <= value <= self.high

    def label(self) -> Said:
        """``hkga's scale (100 to 3000)``, as messages name it."""
        low, high = f"{self.low:g}", f"{self.high:g}"
        return Said(N_("{name}'s scale ({low} to {high})"), name=self.name, low=low, high=high)


@dataclass(frozen=True, slots=True)
class Report:
    """One of a rule set's own report tables: ``name`` (``ratings show --report NAME``), ``file`` (the one
    :meth:`~pipeline.rules.base.RuleSet.reports` gives it under) and ``rows``: what a row is, in words."""

    name: str
    file: str
    rows: str


@dataclass(frozen=True, slots=True)
class Family:
    """A registered rule set.

    ``name``: the name it is chosen by (``--rules``, ``[run] rule_set``); ``build`` makes it from the run's
    context and its ``[rules]`` table (checking the keys); ``defaults``: its validity defaults; ``about``:
    what it does in a sentence (README.md, "Rule sets"); ``scale``: the scale of the roster's starting
    ratings it reads (None: it reads none, its rating is the rank); ``reports``: its own report tables;
    ``promotes``: its ``promotions.parquet`` has rows (rank changes with evidence); ``implicit_event_kind``:
    the kind of event every ``EV`` is when no events file is configured (None: no event at all); ``floor``:
    the lowest rating it gives (None: none); ``decimals`` and ``trim``: its ratings and changes are written
    for people with that many decimals, trailing zeros dropped when ``trim`` (docs/rules.md ("Numbers"));
    ``explanation``: the shape of its explanation (:data:`Explanation`); ``deviation``: its ratings carry a
    deviation (:attr:`~pipeline.rules.base.PeriodOutcome.deviation`), so that ``[output]
    provisional_deviation`` means something under it.
    """

    name: str
    build: Build
    defaults: Validity
    about: str
    scale: Scale | None = None
    reports: tuple[Report, ...] = ()
    promotes: bool = False
    implicit_event_kind: str | None = None
    floor: float | None = None
    decimals: int = 2
    trim: bool = False
    explanation: Explanation = "generic"
    deviation: bool = False

    def __post_init__(self) -> None:
        if self.scale is not None and self.scale.name != self.name:
            raise ValueError(f"the scale of {self.name!r} is named {self.scale.name!r}")
