"""causes: why a period's ratings changed: the runs' settings, each period's own games, and the cascade
a change of an earlier period sets off.

Knows nothing of how the tables were read (:mod:`.tables`).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pipeline.core import periods as periods_mod
from pipeline.core.i18n import N_, _
from pipeline.output import snapshots
from pipeline.output.folder import in_order


def settings_causes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The run-wide causes two manifests give (see the module docstring); empty when they agree."""
    old, new = _flat(before.get("settings") or {}), _flat(after.get("settings") or {})
    changed = [k for k in sorted(old.keys() | new.keys()) if old.get(k) != new.get(k)]
    causes = [f"{k} changed" for k in ("roster", "events") if k in changed]
    if "rule_set" in changed:
        causes.append(f"rule set {old.get('rule_set')} -> {new.get('rule_set')}")
    rest = [f"{k} {_shown(old.get(k))} -> {_shown(new.get(k))}" for k in changed if "." in k]
    causes += [f"configuration changed ({', '.join(rest)})"] if rest else []
    causes += ["parser changed"] if _parser_changed(before, after) else []
    if before.get("package_version") != after.get("package_version"):
        causes.append(f"package version {before.get('package_version')} -> {after.get('package_version')}")
    if not causes and before.get("state_digest") != after.get("state_digest"):
        causes.append("pipeline code changed")
    return causes


def _flat(settings: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``settings`` with nested tables as dotted keys (``rules.epsilon``)."""
    found: dict[str, Any] = {}
    for key, value in settings.items():
        if isinstance(value, dict) and value:
            found |= _flat(value, f"{prefix}{key}.")
        else:
            found[f"{prefix}{key}"] = value
    return found


def _shown(value: Any) -> str:
    return "none" if value is None else json.dumps(value, ensure_ascii=False)


def _parser_changed(before: dict[str, Any], after: dict[str, Any]) -> bool:
    return bool(before.get("parser_version") != after.get("parser_version"))


def by_period(labels: list[str], own: pd.DataFrame, causes: list[str]) -> pd.DataFrame:
    """For each of ``labels`` (in time order): ``period``, ``order``, ``cause`` (its own causes from
    ``own``, the cascade from the earliest earlier period of ``own``, then ``causes``; ``unexplained``
    when none) and ``files`` (its own changed files)."""
    sources = in_order(own.index)
    rows = []
    for order, label in enumerate(labels):
        first = next((q for q in sources if _start(q) < _start(label)), None)
        parts = [own["cause"].get(label, ""), f"cascade from {first}" if first else "", *causes]
        cause = "; ".join(p for p in parts if p) or "unexplained"
        rows.append({"period": label, "order": order, "cause": cause, "files": own["files"].get(label, "")})
    return pd.DataFrame(rows, columns=["period", "order", "cause", "files"])


#: The order in which a period's own causes are named.
_OWN_ORDER = ("late record", "new games", "removed file", "corrected file", "parser changed", "re-audited")


def _own(games: pd.DataFrame, settings_changed: bool, latest: str | None) -> pd.DataFrame:
    """By period (the index: each period with a change of its own counted games): ``cause`` its causes
    and ``files`` its changed files. Re-audited games are left to the settings when those changed."""
    counted = games[games["counted"] & ~((games["status"] == "re-audited") & settings_changed)]
    sides = [counted.rename(columns={f"period_{side}": "period"}) for side in ("before", "after")]
    events = pd.concat(sides).dropna(subset=["period"]).drop_duplicates(["source_path", "period", "status"])
    late = {p for p in events["period"].unique() if latest is not None and _start(p) < _start(latest)}
    added = (events["status"] == "added").to_numpy()
    late_rows = events["period"].isin(late).to_numpy()
    status = np.where(added & late_rows, "late record", np.where(added, "new games", events["status"]))
    rank = {cause: i for i, cause in enumerate(_OWN_ORDER)}
    grouped = events.assign(status=status).groupby("period")
    return pd.DataFrame(
        {
            "cause": grouped["status"].agg(lambda s: "; ".join(sorted(set(s), key=rank.__getitem__))),
            "files": grouped["source_path"].agg(lambda s: ", ".join(sorted(set(s)))),
        },
        index=pd.Index(sorted(events["period"].unique()), name="period"),
        dtype=object,
    )


def _latest(generation: Path) -> str | None:
    """The latest period ``generation`` rated (None: none)."""
    found = in_order(snapshots.partitions(generation, "ratings"))
    return found[-1] if found else None


def _start(label: str) -> tuple[dt.date, str]:
    """The first day of period ``label`` (then the label), for ordering; not a period: last."""
    try:
        return periods_mod.bounds(label)[0], label
    except periods_mod.PeriodError:
        return dt.date.max, label


#: The causes that are words alone (the others carry values: :func:`in_words`).
_CAUSE_WORDS = {
    "new games": N_("new games"),
    "late record": N_("late record"),
    "removed file": N_("removed file"),
    "corrected file": N_("corrected file"),
    "parser changed": N_("parser changed"),
    "re-audited": N_("re-audited"),
    "unexplained": N_("unexplained"),
    "roster changed": N_("roster changed"),
    "events changed": N_("events changed"),
    "pipeline code changed": N_("pipeline code changed"),
}
#: The causes that carry values: their English start, and the message they are shown with.
_CAUSE_PATTERNS = (
    ("cascade from ", N_("cascade from {period}")),
    ("rule set ", N_("rule set {change}")),
    ("package version ", N_("package version {change}")),
    ("configuration changed ", N_("configuration changed {change}")),
)


def in_words(cause: str) -> str:
    """A ``cause`` of :func:`by_period` or :func:`settings_causes` (causes joined by ``; ``) in the
    language spoken; the values (periods, settings, versions) as they are. The data keep the English."""
    shown = []
    for part in cause.split("; ") if cause else []:
        if part in _CAUSE_WORDS:
            shown.append(_(_CAUSE_WORDS[part]))
            continue
        for start, message in _CAUSE_PATTERNS:
            if part.startswith(start):
                rest = part.removeprefix(start)
                shown.append(_(message).format(period=rest, change=rest))
                break
        else:
            shown.append(part)
    return _("; ").join(shown)
