"""compare: the impact of a rule change before anyone adopts it (``ratings compare``).

Two configurations (:mod:`pipeline.reports.compare.settings`: two rule sets, or one with other
parameters, validity or period) run over the same ingested games: ingested once from the raw folder with
the output folder's cache, then, for each side, audited with its own validity (another opponent cap or
draw rule changes which games count) and rated period by period, once: the predictions and the standings
are read from the same replay (:func:`pipeline.reports.predicted.predictions`), and the standings wait
on disk until both sides are done (:mod:`pipeline.reports.compare.stream`). Nothing of the output
folder's generations is read or written; only the ingest cache is refreshed, as ``ratings run`` and
``ratings backtest`` do.

What comes back (:class:`Comparison`): per period and overall, the players whose place, rank or promotions
differ and by how much, the largest movers, Kendall's τ of the two standings
(:mod:`pipeline.reports.compare.standings`), and which side predicts the results better with the
backtest's scoring (:mod:`pipeline.reports.compare.verdict`).

Knows nothing of the command line or of rendering.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from pipeline.core.i18n import _
from pipeline.core.progress import SILENT, Steps
from pipeline.ingest import IngestOptions, IngestResult, ingest
from pipeline.reports.compare.settings import Side, label, parse_assignments, side
from pipeline.reports.compare.standings import OVERALL, movers, ranked
from pipeline.reports.compare.stream import Kept, Rows, merged
from pipeline.reports.compare.verdict import Verdict, verdict
from pipeline.reports.predicted import predictions
from pipeline.rules.scales import SCALES

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
    (ratings compared, not only places), ``rows`` (per period and overall, one row per player either
    side rated: :data:`~pipeline.reports.compare.standings.PLAYER_COLUMNS`, on disk as long as the
    comparison lives; :attr:`players` reads them all), ``periods``
    (:data:`~pipeline.reports.compare.standings.PERIOD_COLUMNS`), ``movers`` (the changed players, the
    largest movers first: :meth:`movers_in` of the overall rows), the prediction ``verdict``, the ingest
    result and the ``warnings`` (each plan's, prefixed by its side's label; no period in common)."""

    labels: dict[str, str]
    same_scale: bool
    rows: Rows
    periods: pd.DataFrame
    movers: pd.DataFrame
    verdict: Verdict
    ingest: IngestResult
    warnings: list[str]
    peaks: pd.DataFrame
    changed: pd.Series

    @property
    def players(self) -> pd.DataFrame:
        """Every row of :attr:`rows` at once (a server's archive has millions: prefer :attr:`rows`)."""
        return self.rows.all()

    def movers_in(self, period: str = OVERALL) -> pd.DataFrame:
        """The changed players, the largest movers in ``period`` first
        (:func:`~pipeline.reports.compare.standings.movers`)."""
        return ranked(self.rows.of(period), self.peaks, self.changed)


def compare(a: Side, b: Side, options: IngestOptions | None = None, steps: Steps = SILENT) -> Comparison:
    """Ingest ``a``'s raw folder once (with its output folder's cache) and compare the two sides on it.
    The rows of the comparison wait in a folder under ``a``'s output folder, removed when the
    comparison is freed.

    Raises :class:`~pipeline.ingest.IngestError` if the raw folder is missing; OSError if the output
    folder cannot hold the rows while they wait.
    """
    ingested = ingest(a.plan.raw, a.plan.out, options)
    labels = _labels(a.label, b.label)
    folder = tempfile.TemporaryDirectory(prefix=".compare-", dir=a.plan.out)
    root = Path(folder.name)
    kept, found = {}, {}
    for key, chosen in (("a", a), ("b", b)):
        (root / key).mkdir()
        kept[key] = Kept(root / key)
        found[key] = predictions(chosen.plan, ingested.source, steps, labels[key], also=[kept[key]])
    scale = same_scale(a.plan.rule_set, b.plan.rule_set)
    (root / "rows").mkdir()
    rows = Rows(root / "rows", folder)
    done = merged(kept["a"], kept["b"], scale, rows)
    for side_ in kept.values():
        side_.store.clear()  # (their rows are in ``rows`` now)
    warnings = [f"{labels[s]}: {w}" for s, p in (("a", a), ("b", b)) for w in p.plan.warnings]
    if (done.periods["period"] != OVERALL).sum() == 0:
        said = _("the two sides rate no period in common ({a} and {b}): compared overall only")
        warnings.append(said.format(a=a.plan.validity.period, b=b.plan.validity.period))
    shown = ranked(rows.of(OVERALL), done.peaks, done.changed)
    return Comparison(
        labels,
        scale,
        rows,
        done.periods,
        shown,
        verdict(found, labels),
        ingested,
        warnings,
        done.peaks,
        done.changed,
    )


def same_scale(a: str, b: str) -> bool:
    """True if ratings of rule sets ``a`` and ``b`` are on one scale (one rule set, or one scale family)."""
    return a == b or (a in SCALES and b in SCALES and SCALES[a].family == SCALES[b].family)


def _labels(a: str, b: str) -> dict[str, str]:
    """The sides' labels, ``(A)`` and ``(B)`` added when they are the same."""
    return {"a": a, "b": b} if a != b else {"a": f"{a} (A)", "b": f"{b} (B)"}
