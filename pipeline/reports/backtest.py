"""backtest: replay the same games under several rule sets and score how well each one's ratings before
a game predicted it (``ratings backtest``).

Ingests once (the normal cache under ``out/.cache``), then for each rule set audits and rates period by
period with :func:`pipeline.run.plan`'s settings (:mod:`pipeline.reports.predicted`), keeping of each
period only the numbers the scores need; nothing of the snapshot generations is written or read. The
configuration's roster and events apply to every rule set; its ``[validity]``, ``[run] period`` and
``[rules]`` were written for the configured rule set (``[run] rule_set``, default club) and apply to that
one only; every other rule set runs with its own defaults. A configuration read back from an output folder
(:mod:`pipeline.config.readback`: ``ratings backtest --out O`` alone) is the run's, its roster and events
the tables the run recorded (:func:`plan_for`).

Evaluation set: the decisive games (``B`` or ``W`` won, not a no-show by the audit) that every compared
rule set counted and rated for both players, so all are scored on the same games. A game is known by its
``seq``, the same under every rule set (:mod:`pipeline.run.stream`): each rule set's predictions (some 25
bytes a game) wait on disk while the next rule set replays, the evaluation set is a mask over ``seq``
narrowed by each, and a second pass scores each rule set's predictions on it. A rule set that rated
none of the games (tga on Go records: it counts Gomoku only) is left out of the intersection and reported
with ``n = 0``. A rule set's ``games_rated`` is its own count of such games; ``n`` is how many it was
scored on.

Too few games (:data:`MIN_SCORED`, 200 decisive games): with n games the share of higher-rated wins has a
standard error of up to sqrt(0.25 / n), 0.035 at 200 (a 95% interval of +-0.07), and the rule sets of
the synthetic league differ in log-loss by 0.01 to 0.08: below 200 games a ranking of rule sets is mostly
noise. A rule set scored on 1 to 199 games is flagged ``too_few`` and named in a warning; one scored on
none is reported as left out of the comparison (the command line says so).

Prediction of P(Black wins) from both players' ``rating_before`` in ``changes``: rule sets whose changes
carry ``se`` (the GoR family and cga; any rule set that writes there the expected score before the game)
use it, the points systems (club, cga-dan, tga) an expanding-window logistic fit on the rating difference
(:mod:`pipeline.reports.forecast`). The window is the calendar month of the game's date whatever the rule
set's period: a fit uses only outcomes of earlier months, and yearly rule
sets still get eleven refits a year instead of predicting 0.5 all year. Games of the first month get 0.5.

Outputs (:func:`write`): ``<out>/backtest/summary.parquet`` (:data:`SUMMARY`) and
``<out>/backtest/calibration.parquet`` (:data:`CALIBRATION`), written atomically beside the snapshot
generations, not in them: a backtest never changes what ``ratings run`` published, and a run never removes
a backtest. Knows nothing of the command line.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa

from pipeline import rules
from pipeline.config import RunConfig, readback
from pipeline.core import store
from pipeline.core.backtest_tables import CALIBRATION, SUMMARY
from pipeline.core.i18n import _
from pipeline.core.progress import SILENT, Steps
from pipeline.ingest import IngestOptions, IngestResult, ingest
from pipeline.reports import forecast, predicted
from pipeline.rules.scales import SCALES, starting_ratings
from pipeline.run import DEFAULT_RULE_SET, Plan, plan

FOLDER = "backtest"
#: Fewer decisive games than this and a rule set's figures mean little (see the module docstring).
MIN_SCORED = 200
#: A mask over ``seq`` (a game of the source: :mod:`pipeline.run.stream`).
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class Backtest:
    """The result: ``summary`` and ``calibration`` (schemas :data:`SUMMARY`, :data:`CALIBRATION`), the
    evaluation set's size ``n``, the ingest result and the warnings: each plan's, prefixed by its rule
    set (starting ratings set aside), and one for the rule sets scored on too few games."""

    summary: pa.Table
    calibration: pa.Table
    n: int
    ingest: IngestResult
    warnings: list[str]


def parse_names(text: str | None, config: RunConfig | None = None) -> list[str]:
    """The rule-set names of a comma-separated list (duplicates dropped); for None, every registered rule
    set that rates a game type the configured one (``config``'s ``[run] rule_set``, default club) rates:
    Go rule sets are compared with Go rule sets, and ``tga`` only with itself, so that the common
    evaluation set is not empty by construction.

    Raises ValueError if ``text`` names none or the configured rule set is not registered.
    """
    if text is None:
        config = config or RunConfig()
        try:
            mine = rules.validity(config.rule_set or DEFAULT_RULE_SET, config.validity).game_types
        except rules.UnknownRuleSet as e:
            raise ValueError(str(e)) from None
        return [name for name in rules.names() if set(rules.validity(name).game_types) & set(mine)]
    names = list(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    if not names:
        raise ValueError(_("--rules names no rule set: {text!r}").format(text=text))
    return names


def plans(config: RunConfig, names: Sequence[str]) -> list[Plan]:
    """One checked plan per rule set of ``names`` (see the module docstring for which settings apply).

    Raises :class:`~pipeline.config.ConfigError` if a name is unknown or the roster, events or the
    configured rule set's ``[rules]`` are bad.
    """
    configured = config.rule_set or DEFAULT_RULE_SET
    others = dataclasses.replace(config, validity={}, period=None, rules=None)
    return [plan_for(config if name == configured else others, name) for name in names]


def plan_for(config: RunConfig, name: str) -> Plan:
    """:func:`pipeline.run.plan` of ``config`` for rule set ``name``; for a configuration read back from
    an output folder (:func:`pipeline.config.readback.read_setup`), the same plan with the roster and the
    events the run recorded in place of configuration files (the roster's starting ratings chosen for
    ``name`` again, as :func:`~pipeline.run.plan` chooses them from a roster file).

    Raises :class:`~pipeline.config.ConfigError` as :func:`~pipeline.run.plan` does, or if a recorded
    table cannot be read.
    """
    recorded = readback.tables_of(config)
    if recorded is None:
        return plan(config, name)
    bare = plan(dataclasses.replace(config, roster_path=None, events_path=None), name)
    roster, warnings = starting_ratings(recorded[0], SCALES.get(name))
    events = recorded[1] if recorded[1] is not None else bare.events
    rule_set = rules.create(name, roster, bare.validity, config.rules)
    return dataclasses.replace(bare, rules=rule_set, roster=roster, events=events, warnings=warnings)


def backtest(plans_: Sequence[Plan], options: IngestOptions | None = None, steps: Steps = SILENT) -> Backtest:
    """Ingest ``plans_[0]``'s raw folder once, replay it under every plan (each told to ``steps``),
    score the predictions (see the module docstring).

    Raises :class:`~pipeline.ingest.IngestError` if the raw folder is missing; ValueError if no plan given;
    OSError if the output folder cannot hold the predictions while they wait.
    """
    if not plans_:
        raise ValueError(_("no rule set to backtest"))
    ingested = ingest(plans_[0].raw, plans_[0].out, options)
    with tempfile.TemporaryDirectory(prefix=".backtest-", dir=plans_[0].out) as folder:
        waiting, common = Waiting(Path(folder)), None
        with steps.step(_("rule sets"), len(plans_)) as advance:
            for checked in plans_:
                found = predicted.predictions(checked, ingested.source, steps)
                common = evaluated(common, found)
                waiting.put(checked.rule_set, found)
                del found
                advance(1)
        n = int(common.sum()) if common is not None else 0
        summary, bins = [], []
        for name in waiting.names:
            found = waiting.take(name)
            used = common[found.seq] if common is not None else np.zeros(len(found), dtype=bool)
            p, y, diff = found.p[used], found.black_won[used], found.diff[used]
            n_used = int(used.sum())
            scored = {"games_rated": len(found), "n": n_used, "too_few": 0 < n_used < MIN_SCORED}
            row = {"rules": name, "predictor": found.predictor, **scored}
            summary.append(row | forecast.scores(p, y, diff))
            bins.append(forecast.calibration(p, y).assign(rules=name))
    calibration = pd.concat(bins, ignore_index=True)
    table = pa.Table.from_pandas(calibration[CALIBRATION.names], schema=CALIBRATION, preserve_index=False)
    warnings = [f"{p.rule_set}: {w}" for p in plans_ for w in p.warnings] + _too_few(summary)
    return Backtest(_summary(summary), table, n, ingested, warnings)


def evaluated(common: Mask | None, found: predicted.Predictions) -> Mask | None:
    """The evaluation set so far (a mask over ``seq``; None: no rule set rated a game yet) narrowed to
    the games ``found`` scored; a rule set that scored none leaves it as it is."""
    if not len(found):
        return common
    mine = np.zeros(found.rows, dtype=bool)
    mine[found.seq] = True
    return mine if common is None else common & mine


class Waiting:
    """Each rule set's predictions on disk in ``folder`` (one uncompressed ``.npz`` each) until every
    rule set has replayed: :meth:`put`, then :meth:`take`; ``names`` in the order put."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.names: list[str] = []

    def put(self, name: str, found: predicted.Predictions) -> None:
        """Keep ``found`` as rule set ``name``'s (a name put twice keeps the last)."""
        if name not in self.names:
            self.names.append(name)
        arrays = {k: getattr(found, k) for k in ("seq", "black_won", "diff", "p")}
        np.savez(self._path(name), **arrays, rows=np.int64(found.rows), predictor=np.array(found.predictor))

    def take(self, name: str) -> predicted.Predictions:
        """Rule set ``name``'s predictions, read back."""
        with np.load(self._path(name)) as kept:
            arrays = {k: kept[k] for k in ("seq", "black_won", "diff", "p")}
            return predicted.Predictions(**arrays, predictor=str(kept["predictor"]), rows=int(kept["rows"]))

    def _path(self, name: str) -> Path:
        return self.folder / f"{self.names.index(name):03d}.npz"  # (names need not be file names)


def _too_few(summary: list[dict[str, object]]) -> list[str]:
    """One warning naming the rule sets flagged ``too_few`` (none: no warning)."""
    flagged = [row for row in summary if row["too_few"]]
    if not flagged:
        return []
    counts = ", ".join(f"{row['rules']} {row['n']}" for row in flagged)
    return [
        _(
            "too few decisive games to rank these rule sets ({counts}; at least {least} wanted): "
            "their differences are mostly noise"
        ).format(counts=counts, least=MIN_SCORED)
    ]


def _summary(rows: list[dict[str, object]]) -> pa.Table:
    frame = pd.DataFrame(rows, columns=SUMMARY.names)
    return pa.Table.from_pandas(frame, schema=SUMMARY, preserve_index=False)


def write(result: Backtest, out: Path) -> tuple[Path, Path]:
    """Write the summary and the calibration under ``out/backtest/`` atomically; return both paths.

    Raises OSError if the folder cannot be written.
    """
    summary, calibration = out / FOLDER / "summary.parquet", out / FOLDER / "calibration.parquet"
    store.write_parquet(result.summary, summary)
    store.write_parquet(result.calibration, calibration)
    return summary, calibration
