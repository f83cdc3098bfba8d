"""rules.gor_sets: the records of the GoR-family rule sets, :class:`~pipeline.rules.gor_rules.GorRules` over
one formula each (:mod:`pipeline.rules.gor`): ``hkga``, ``egf``, ``egf2021`` and ``cga``.

Each record (:class:`~pipeline.rules.family.Family`) says how its rule set is built from its ``[rules]``
table (the formula's own parameters, then the family's weights: :func:`~pipeline.rules.gor_rules.params_from`)
and takes its floor from the formula it builds by default. Knows nothing of how a game is rated.
"""

from __future__ import annotations

import dataclasses
import math

from pipeline.config.toml import Table, number
from pipeline.rules import gor, gor_rules, hkga_reports
from pipeline.rules.base import Context, RuleSet
from pipeline.rules.family import Build, Family, Report, Scale

#: The ``[rules]`` keys of the family's weights (:func:`~pipeline.rules.gor_rules.params_from`).
GOR_KEYS = ("class_weights", "default_class", "stage_weights", "batch_events")
HKGA_FORMULA = gor.Classic(0.014, split=False)
EGF_FORMULA = gor.Classic(0.016, split=True)
#: GoR's plausible starting ratings (docs/rules.md ("hkga")): the floor 100 to 9p 2940; EGD 2021's floor is
#: -900 and its formulas end at 3300; cga (docs/rules.md ("cga")): 1d 2240 to 9d 2560, references 2600.
_GOR_HIGH, _EGD_RANGE, _CGA_RANGE = 3000.0, (-900.0, 3300.0), (1000.0, 3500.0)
_ABOUT_GOR = "each game moves both ratings by how far the result was from the one the rating gap expected"


def _classic(
    name: str, default: gor.Classic, report: gor_rules.Report | None = None, columns: tuple[str, ...] = ()
) -> Build:
    """The builder of a rule set over ``default``, whose ``epsilon`` the ``[rules]`` table may change."""

    def build(context: Context, params: Table) -> RuleSet:
        params.check_keys(("epsilon", *GOR_KEYS))
        formula = dataclasses.replace(default, epsilon=params.get("epsilon", number(), default.epsilon))
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


def _floor(formula: gor.Formula) -> float | None:
    """The formula's floor; None when it has none (-inf)."""
    return formula.floor if math.isfinite(formula.floor) else None


HKGA = Family(
    "hkga",
    _classic("hkga", HKGA_FORMULA, hkga_reports.reports, hkga_reports.COLUMNS),
    gor.DEFAULTS,
    f"the Hong Kong Go Association's GoR (2005): {_ABOUT_GOR}, events of class A weighing 1, B 0.75 and "
    "C 0.5",
    scale=Scale("hkga", "gor", HKGA_FORMULA.floor, _GOR_HIGH, gor.rating_for_rank),
    reports=(
        Report("certification", hkga_reports.CERTIFICATION_FILE, "rated player"),
        Report("fees", hkga_reports.FEES_FILE, "non-member x calendar year with rated games"),
    ),
    floor=_floor(HKGA_FORMULA),
    explanation="gor",
)
EGF = Family(
    "egf",
    _classic("egf", EGF_FORMULA),
    gor.DEFAULTS,
    f"the European Go Database's GoR before 2021: {_ABOUT_GOR}",
    scale=Scale("egf", "gor", EGF_FORMULA.floor, _GOR_HIGH, gor.rating_for_rank),
    floor=_floor(EGF_FORMULA),
    explanation="gor",
)
EGF2021 = Family(
    "egf2021",
    _egf2021,
    gor.DEFAULTS,
    f"the European Go Database's GoR since 2021: {_ABOUT_GOR}, with a bonus for weaker players",
    scale=Scale("egf2021", "gor", *_EGD_RANGE, gor.rating_for_rank),
    floor=_floor(gor.Egd2021()),
    explanation="gor-bonus",
)
CGA = Family(
    "cga",
    _cga,
    gor.CGA_DEFAULTS,
    "China's professional rating (1995): an Elo rating, ten points times the difference between the "
    "result and the expected result of each game",
    scale=Scale("cga", "cga", *_CGA_RANGE, gor.Elo().initial),
    floor=_floor(gor.Elo()),
    explanation="elo",
)
