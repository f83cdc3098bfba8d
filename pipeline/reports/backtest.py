"""backtest: replay the same games under several rule sets and score how well each one's ratings before
a game predicted it (``ratings backtest``).

Ingests once (the normal cache under ``out/.cache``), then for each rule set audits and rates in memory
with :func:`pipeline.run.plan`'s settings; nothing of the snapshot generations is written or read. The
configuration's roster and events apply to every rule set; its ``[validity]``, ``[run] period`` and
``[rules]`` were written for the configured rule set (``[run] rule_set``, default club) and apply to that
one only; every other rule set runs with its own defaults. A configuration read back from an output folder
(:mod:`pipeline.config.readback`: ``ratings backtest --out O`` alone) is the run's, its roster and events
the tables the run recorded (:func:`plan_for`).

Evaluation set: the decisive games (``B`` or ``W`` won, not a no-show by the audit) that every compared
rule set counted and rated for both players, so all are scored on the same games. A rule set that rated
none of the games (tga on Go records: it counts Gomoku only) is left out of the intersection and reported
with ``n = 0``. A rule set's ``games_rated`` is its own count of such games; ``n`` is how many it was
scored on.

Too few games (:data:`MIN_SCORED`, 200 decisive games): with n games the share of higher-rated wins has a
standard error of up to sqrt(0.25 / n), 0.035 at 200 (a 95% interval of +-0.07), and the rule sets of
the synthetic league differ in log-loss by 0.01 to 0.08: below 200 games a ranking of rule sets is mostly
noise. A rule set scored on 1 to 199 games is flagged ``too_few`` and named in a warning; one scored on
none is reported as left out of the comparison (the command line says so).

Prediction of P(Black wins) from both players' ``rating_before`` in ``changes``: rule sets whose changes
carry ``se`` (the GoR family and cga) use it, the points systems (club, cga-dan, tga) an expanding-window
logistic fit on the rating difference (:mod:`pipeline.reports.forecast`). The window is the calendar month of
the
game's date whatever the rule set's period: a fit uses only outcomes of earlier months, and yearly rule
sets still get eleven refits a year instead of predicting 0.5 all year. Games of the first month get 0.5.

Outputs (:func:`write`): ``<out>/backtest/summary.parquet`` (:data:`SUMMARY`) and
``<out>/backtest/calibration.parquet`` (:data:`CALIBRATION`), written atomically beside the snapshot
generations, not in them: a backtest never changes what ``ratings run`` published, and a run never removes
a backtest. Knows nothing of the command line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline import rules
from pipeline.audit import audit
from pipeline.config import RunConfig, readback
from pipeline.core import periods, store
from pipeline.core.backtest_tables import CALIBRATION, SUMMARY
from pipeline.core.i18n import _
from pipeline.core.progress import SILENT, Steps
from pipeline.ingest import IngestOptions, IngestResult, ingest
from pipeline.reports import forecast
from pipeline.rules.replay import rate
from pipeline.rules.scales import SCALES, starting_ratings
from pipeline.run import DEFAULT_RULE_SET, Plan, plan

FOLDER = "backtest"
#: Fewer decisive games than this and a rule set's figures mean little (see the module docstring).
MIN_SCORED = 200
_PER_GAME = ["game_id", "month", "black_won", "rating_black", "rating_white", "p"]


@dataclass(frozen=True, slots=True)
class Backtest:
    """The result: ``summary`` and ``calibration`` (schemas :data:`SUMMARY`, :data:`CALIBRATION`), the
    evaluation set's size ``n``, every rule set's per-game ``predictions`` (columns ``rules game_id month
    black_won rating_black rating_white p evaluated``), the ingest result and the warnings: each plan's,
    prefixed by its rule set (starting ratings set aside), and one for the rule sets scored on too few
    games."""

    summary: pa.Table
    calibration: pa.Table
    n: int
    predictions: pd.DataFrame
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
    score the predictions.

    Raises :class:`~pipeline.ingest.IngestError` if the raw folder is missing; ValueError if no plan given.
    """
    if not plans_:
        raise ValueError(_("no rule set to backtest"))
    ingested = ingest(plans_[0].raw, plans_[0].out, options)
    games, frames = ingested.games, dict[str, pd.DataFrame]()
    with steps.step(_("rule sets"), len(plans_)) as advance:
        for checked in plans_:
            frames[checked.rule_set] = predictions(checked, games, steps)
            advance(1)
    rated = [set(f["game_id"]) for f in frames.values() if len(f)]
    common = set.intersection(*rated) if rated else set()
    summary, bins, shown = [], [], []
    for name, frame in frames.items():
        frame = frame.assign(rules=name, evaluated=frame["game_id"].isin(common))
        used = frame[frame["evaluated"]]
        diff = (used["rating_black"] - used["rating_white"]).to_numpy()
        p, y = used["p"].to_numpy(), used["black_won"].to_numpy()
        predictor = "se" if "se_black" in frame else "logistic"
        scored = {"games_rated": len(frame), "n": len(used), "too_few": 0 < len(used) < MIN_SCORED}
        summary.append({"rules": name, "predictor": predictor, **scored} | forecast.scores(p, y, diff))
        bins.append(forecast.calibration(p, y).assign(rules=name))
        shown.append(frame)
    calibration = pd.concat(bins, ignore_index=True)
    table = pa.Table.from_pandas(calibration[CALIBRATION.names], schema=CALIBRATION, preserve_index=False)
    predicted = pd.concat(shown, ignore_index=True)[["rules", *_PER_GAME, "evaluated"]]
    warnings = [f"{p.rule_set}: {w}" for p in plans_ for w in p.warnings] + _too_few(summary)
    return Backtest(_summary(summary), table, len(common), predicted, ingested, warnings)


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


def predictions(
    plan_: Plan, games: pa.Table, steps: Steps = SILENT, label: str | None = None
) -> pd.DataFrame:
    """The games ``plan_``'s rule set rated for both players, decisive and not a no-show, one row each
    (columns of :data:`_PER_GAME`), with its prediction of the module docstring, in ``seq`` order;
    the audit and the rating told to ``steps`` under ``label`` (default: the rule set's name)."""
    label = label or plan_.rule_set
    with steps.step(_("{side}: auditing").format(side=label)):
        audited = audit(games, plan_.roster, plan_.events, plan_.validity)
    what = _("{side}: rating periods").format(side=label)
    rated = rate(audited, plan_.rules, plan_.roster, plan_.events, steps, what)
    frame = candidates(audited, rated.changes)
    if "se_black" in frame:
        frame["p"] = forecast.from_expected(frame["se_black"].to_numpy(), frame["se_white"].to_numpy())
    else:
        diff = (frame["rating_black"] - frame["rating_white"]).to_numpy()
        frame["p"] = forecast.expanding_logistic(frame["month"], diff, frame["black_won"].to_numpy())
    return frame


def candidates(audited: pa.Table, changes: pa.Table) -> pd.DataFrame:
    """Per game counted, decisive, not a no-show and with a ``changes`` row for each colour:
    ``game_id month black_won rating_black rating_white`` (and ``se_black se_white`` when the changes
    have ``se``), in ``seq`` order."""
    games = audited.select(["game_id", "winner", "notes"]).to_pandas()
    decisive = games["winner"].isin(["B", "W"]) & ~games["notes"].map(lambda notes: "no_show" in list(notes))
    winners = games[decisive].set_index("game_id")["winner"]
    kept = [c for c in ("game_id", "seq", "date", "rating_before", "se") if c in changes.column_names]
    rows = changes.select([*kept, "color"]).to_pandas()
    sides = [
        rows[rows["color"] == c].drop(columns="color").set_index("game_id").add_suffix(f"_{s}")
        for c, s in (("B", "black"), ("W", "white"))
    ]
    both = sides[0].join(sides[1], how="inner")
    both = both[both.index.isin(winners.index)].sort_values("seq_black")
    return pd.DataFrame(
        {
            "game_id": both.index.to_numpy(),
            "month": [periods.period_of(d, "month") for d in both["date_black"]],
            "black_won": (winners.reindex(both.index) == "B").to_numpy(dtype=np.float64),
            "rating_black": both["rating_before_black"].to_numpy(),
            "rating_white": both["rating_before_white"].to_numpy(),
            **({"se_black": both["se_black"].to_numpy()} if "se" in kept else {}),
            **({"se_white": both["se_white"].to_numpy()} if "se" in kept else {}),
        }
    )


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
