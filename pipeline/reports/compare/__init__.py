"""compare: the impact of a rule change before anyone adopts it (``ratings compare``).

Two configurations (:mod:`pipeline.reports.compare.settings`: two rule sets, or one with other
parameters, validity or period) run over the same ingested games: ingested once from the raw folder with
the output folder's cache, then, for each side, audited with its own validity (another opponent cap or
draw rule changes which games count) and rated, in memory. Nothing of the output folder's generations is
read or written; only the ingest cache is refreshed, as ``ratings run`` and ``ratings backtest`` do.

What comes back (:class:`Comparison`): per period and overall, the players whose place, rank or promotions
differ and by how much, the largest movers, Kendall's τ of the two standings
(:mod:`pipeline.reports.compare.standings`), and which side predicts the results better with the
backtest's scoring (:mod:`pipeline.reports.compare.verdict`).

Knows nothing of the command line or of rendering.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.audit import audit
from pipeline.core.i18n import _
from pipeline.core.progress import SILENT, Steps
from pipeline.ingest import IngestOptions, IngestResult, ingest
from pipeline.reports.backtest import predictions
from pipeline.reports.compare.settings import Side, label, parse_assignments, side
from pipeline.reports.compare.standings import OVERALL, movers, periods, players, standings
from pipeline.reports.compare.verdict import Verdict, verdict
from pipeline.rules.replay import rate
from pipeline.rules.scales import SCALES
from pipeline.run import Plan

__all__ = [
    "OVERALL",
    "Comparison",
    "Side",
    "Verdict",
    "compare",
    "label",
    "movers",
    "parse_assignments",
    "same_scale",
    "side",
]


@dataclass(frozen=True, slots=True)
class Comparison:
    """The result: ``labels`` (``a``, ``b`` -> the side's label, told apart when equal), ``same_scale``
    (ratings compared, not only places), ``players`` (per period and overall, one row per player either
    side rated: :data:`~pipeline.reports.compare.standings.PLAYER_COLUMNS`), ``periods``
    (:data:`~pipeline.reports.compare.standings.PERIOD_COLUMNS`), ``movers`` (the changed players, the
    largest movers first: :func:`~pipeline.reports.compare.standings.movers`), the prediction
    ``verdict``, the ingest result and the ``warnings`` (each plan's, prefixed by its side's label; no
    period in common)."""

    labels: dict[str, str]
    same_scale: bool
    players: pd.DataFrame
    periods: pd.DataFrame
    movers: pd.DataFrame
    verdict: Verdict
    ingest: IngestResult
    warnings: list[str]


def compare(a: Side, b: Side, options: IngestOptions | None = None, steps: Steps = SILENT) -> Comparison:
    """Ingest ``a``'s raw folder once (with its output folder's cache) and compare the two sides on it.

    Raises :class:`~pipeline.ingest.IngestError` if the raw folder is missing.
    """
    ingested = ingest(a.plan.raw, a.plan.out, options)
    labels = _labels(a.label, b.label)
    games = ingested.games
    rated = {"a": _rated(a.plan, games, steps, labels["a"]), "b": _rated(b.plan, games, steps, labels["b"])}
    scale = same_scale(a.plan.rule_set, b.plan.rule_set)
    compared = players(rated["a"][0], rated["b"][0], scale)
    table = periods(compared, rated["a"][1], rated["b"][1])
    sides = (("a", a), ("b", b))
    found = verdict({s: predictions(p.plan, games, steps, labels[s]) for s, p in sides}, labels)
    warnings = [f"{labels[s]}: {w}" for s, p in (("a", a), ("b", b)) for w in p.plan.warnings]
    if (table["period"] != OVERALL).sum() == 0:
        said = _("the two sides rate no period in common ({a} and {b}): compared overall only")
        warnings.append(said.format(a=a.plan.validity.period, b=b.plan.validity.period))
    return Comparison(labels, scale, compared, table, movers(compared), found, ingested, warnings)


def same_scale(a: str, b: str) -> bool:
    """True if ratings of rule sets ``a`` and ``b`` are on one scale (one rule set, or one scale family)."""
    return a == b or (a in SCALES and b in SCALES and SCALES[a].family == SCALES[b].family)


def _labels(a: str, b: str) -> dict[str, str]:
    """The sides' labels, ``(A)`` and ``(B)`` added when they are the same."""
    return {"a": a, "b": b} if a != b else {"a": f"{a} (A)", "b": f"{b} (B)"}


def _rated(
    plan_: Plan, games: pa.Table, steps: Steps = SILENT, label: str = ""
) -> tuple[pd.DataFrame, pd.Series]:
    """``games`` audited and rated under ``plan_``: its :func:`standings` and its counted games per
    period; each told to ``steps`` under the side's ``label``."""
    with steps.step(_("{side}: auditing").format(side=label)):
        audited = audit(games, plan_.roster, plan_.events, plan_.validity)
    rated = rate(
        audited,
        plan_.rules,
        plan_.roster,
        plan_.events,
        steps,
        _("{side}: rating periods").format(side=label),
    )
    shown = standings(rated.ratings.to_pandas(), rated.promotions.select(["period", "player"]).to_pandas())
    counted = audited.filter(pc.fill_null(audited["counted"], False))["period"].to_pandas()
    return shown, counted.value_counts()
