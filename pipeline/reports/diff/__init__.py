"""diff: what changed between two kept generations of an output folder, and why.

:func:`generations` lists the generations :mod:`pipeline.output.snapshots` keeps; :func:`diff` compares
two of them (the current one and the one before it, or an older one named by id or by a time). A row
per player and period whose rating, rank or place changed, or who was added or removed, with the cause:

- the period's own games (``games.parquet`` of the two, joined on ``game_id``; only games counted in
  either generation matter): ``new games`` (in the previous generation's latest period or a new later
  one), ``late record`` (a new game for an earlier period), ``removed file`` (its file is gone),
  ``corrected file`` (the same file read to other values, or fewer game trees), ``re-audited`` (the
  same record, another audit outcome, with no configuration change to explain it);
- ``cascade from P``: a period after P, the earliest period with such a change of its own games; its
  start changed, whether or not its own games did;
- the run's settings (the manifests): ``roster changed``, ``events changed``, ``rule set A -> B``,
  ``configuration changed (rules.epsilon 0.014 -> 0.02)``, ``parser changed``, ``package version``,
  ``pipeline code changed`` (the digest of the code after ingest alone differs); these apply to every row.

Knows nothing of how a rule set rates (a cause is inferred from what changed, not replayed), nor of how
the generations are written and kept (:mod:`pipeline.output.snapshots`), nor of rendering.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from pipeline.audit import periods as periods_mod
from pipeline.ingest.schema import GAMES_INGEST
from pipeline.output import snapshots
from pipeline.output.folder import GAMES_FILE, ReportError, read_games, read_manifest

#: The columns of :attr:`Diff.changes`, in order.
DIFF_COLUMNS = (
    "period",
    "player",
    "change",
    "old_rating",
    "new_rating",
    "old_rank",
    "new_rank",
    "old_place",
    "new_place",
    "cause",
    "files",
)
#: The columns of :attr:`Diff.files`, in order.
FILE_COLUMNS = ("source_path", "change", "games", "counted", "periods")
#: The columns of :func:`generations`, in order.
GENERATION_COLUMNS = ("id", "written", "current", "rule_set", "games", "periods", "replayed")
#: The audit's columns of ``games.parquet`` whose change re-audits a record (``seq`` aside: it only orders).
_AUDIT = ("period", "counted", "reasons", "black_player", "white_player", "event_name", "stage", "speed_used")
_KEYS = ("game_id", "source_path")
_RATED = ("player", "rating", "rank", "place")
_PREFIX = 4  # the fewest hex digits of an id that name a generation
_TOLERANCE = 1e-9  # ratings closer than this are equal (the same sums in another order)


class DiffError(ReportError):
    """A generation that is not kept (the message lists the kept ones), or none to compare with."""


@dataclass(frozen=True, slots=True)
class Diff:
    """Two generations compared: ``before`` and ``after``, ``causes`` the run-wide ones (the settings),
    ``files`` (:data:`FILE_COLUMNS`) the files whose games appeared, disappeared or changed (``change``
    added, removed, corrected, or re-parsed when the parser changed; ``games`` how many of its games,
    ``counted`` how many of those counted in either generation, ``periods`` theirs), ``changes``
    (:data:`DIFF_COLUMNS`, one row per period and player; ``change`` changed, added or removed;
    ``files`` the period's changed files) by period, then new place."""

    before: snapshots.Kept
    after: snapshots.Kept
    causes: list[str]
    files: pd.DataFrame
    changes: pd.DataFrame


def generations(out: Path) -> pd.DataFrame:
    """The generations kept in ``out``, oldest first: :data:`GENERATION_COLUMNS` (``written`` ISO text in
    UTC, ``periods`` the first and last, ``replayed`` the periods the run rated anew).

    Raises ReportError if ``out`` holds no output.
    """
    kept = _kept(out)
    rows = [_described(k, read_manifest(k.path)) for k in kept]
    return pd.DataFrame(rows, columns=list(GENERATION_COLUMNS))


def _described(kept: snapshots.Kept, manifest: dict[str, Any]) -> dict[str, Any]:
    labels = list(manifest.get("periods") or [])
    return {
        "id": kept.id,
        "written": kept.written.isoformat() if kept.written else None,
        "current": kept.current,
        "rule_set": manifest.get("rule_set"),
        "games": manifest.get("games"),
        "periods": f"{labels[0]}..{labels[-1]}" if labels else "",
        "replayed": (manifest.get("incremental") or {}).get("periods_replayed"),
    }


def diff(out: Path, since: str | None = None) -> Diff:
    """Compare the current generation of ``out`` with the one before it, or with ``since``.

    Args:
        out: an output folder written by ``ratings run``.
        since: a kept generation's id (``g-3f2a9c0e41b7``, or its first 4 or more digits), or a date
            (``2026-11-30``: its midnight) or time (``2026-11-30T22:00``; UTC unless an offset is given)
            naming the latest generation written at or before it.

    Returns:
        A :class:`Diff`; its ``changes`` have no rows when every rating, rank and place is as it was.

    Raises:
        ReportError: if ``out`` holds no output.
        DiffError: if ``since`` names no kept generation, or only one generation is kept and ``since``
            is None, or a generation compared has no ``games.parquet``.
    """
    kept = _kept(out)
    before, after = chosen(kept, since), kept[-1]
    for generation in (before, after):
        if not (generation.path / GAMES_FILE).is_file():
            raise DiffError(f"generation {generation.id} has no {GAMES_FILE}: it cannot be compared")
    manifests = read_manifest(before.path), read_manifest(after.path)
    games = _game_changes(before.path, after.path, _parser_changed(*manifests))
    causes = settings_causes(*manifests)
    changes = _rating_changes(before.path, after.path)
    explained = _explained(changes, games, causes, _latest(before.path))
    return Diff(before, after, causes, _files(games), explained)


def _kept(out: Path) -> list[snapshots.Kept]:
    read_games(out, columns=["seq"])  # the missing-output message, the same for every query
    return snapshots.kept(out)


def chosen(kept: list[snapshots.Kept], since: str | None) -> snapshots.Kept:
    """The generation of ``kept`` (oldest first) that ``since`` names (None: the one before the last).

    Raises DiffError if it names none, or if ``since`` is None and only one is kept."""
    if since is None:
        if len(kept) < 2:
            raise DiffError(
                f"only one generation is kept ({kept[-1].id}): nothing to compare with until the next run"
            )
        return kept[-2]
    digits = since.removeprefix("g-")
    named = [k for k in kept if k.id == since] or [
        k for k in kept if len(digits) >= _PREFIX and k.id.removeprefix("g-").startswith(digits)
    ]
    if len(named) == 1:
        return named[0]
    moment = _moment(since)
    at = [k for k in kept if moment is not None and k.written is not None and k.written <= moment]
    if at:
        return at[-1]
    listed = ", ".join(f"{k.id} ({k.written.isoformat() if k.written else 'no time'})" for k in kept)
    why = "no kept generation written at or before it" if moment else "not a kept generation, date or time"
    raise DiffError(f"unknown generation {since!r}: {why} (kept: {listed})")


def _moment(text: str) -> dt.datetime | None:
    """``text`` as an aware time: a date is its midnight, a time without offset is UTC; None if neither."""
    try:
        found = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return found if found.tzinfo else found.replace(tzinfo=dt.UTC)


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


def _games(generation: Path) -> pd.DataFrame:
    """``generation``'s games: the keys, a digest of the record's values and one of the audit's."""
    path = generation / GAMES_FILE
    names = set(pq.read_schema(path).names)
    table = pq.read_table(path, columns=[c for c in (*GAMES_INGEST.names, *_AUDIT) if c in names])
    if "reasons" in names:  # a list: as one text, to be hashed
        where = table.schema.get_field_index("reasons")
        table = table.set_column(where, "reasons", pc.binary_join(table["reasons"], "|"))
    frame = table.to_pandas()
    record = [c for c in GAMES_INGEST.names if c in names and c not in _KEYS]
    return pd.DataFrame(
        {
            **{k: frame[k] for k in _KEYS},
            "period": frame["period"],
            "counted": frame["counted"].astype(bool),
            "record": pd.util.hash_pandas_object(frame[record], index=False),
            "audit": pd.util.hash_pandas_object(frame[[c for c in _AUDIT if c in names]], index=False),
        }
    )


def _game_changes(before: Path, after: Path, reparsed: bool) -> pd.DataFrame:
    """Each game whose record or audit differs between the two generations: the keys, ``period_before``
    and ``period_after``, ``counted`` (in either), ``status`` (added, removed, corrected, re-audited)."""
    old, new = _games(before), _games(after)
    both = old.merge(new, on="game_id", how="outer", suffixes=("_before", "_after"), indicator=True)
    side = both["_merge"].astype(str)
    corrected = (side == "both") & (both["record_before"] != both["record_after"])
    reaudited = (side == "both") & ~corrected & (both["audit_before"] != both["audit_after"])
    status = np.select(
        [side == "right_only", side == "left_only", corrected, reaudited],
        ["added", "removed", "parser changed" if reparsed else "corrected file", "re-audited"],
        default="",
    )
    path = both["source_path_after"].fillna(both["source_path_before"])
    had, has = path.isin(set(old["source_path"])), path.isin(set(new["source_path"]))
    removed = side == "left_only"
    found = pd.DataFrame(
        {
            "source_path": path,
            "file": np.select([~had, ~has], ["added", "removed"], default="corrected"),
            "period_before": both["period_before"],
            "period_after": both["period_after"],
            "counted": _true(both["counted_before"]) | _true(both["counted_after"]),
            "status": np.where(removed & ~has, "removed file", np.where(removed, "corrected file", status)),
        }
    )
    return found[found["status"] != ""].reset_index(drop=True)


def _true(values: pd.Series[Any]) -> pd.Series[bool]:
    return values.astype("boolean").fillna(False).astype(bool)


def _files(games: pd.DataFrame) -> pd.DataFrame:
    """The :data:`FILE_COLUMNS` of the files whose records changed (not those only re-audited)."""
    changed = games[games["status"] != "re-audited"]
    reparsed = changed["status"] == "parser changed"
    change = changed["file"].where(
        changed["file"] != "corrected", reparsed.map({True: "re-parsed", False: "corrected"})
    )
    grouped = changed.assign(change=change, periods=changed["period_after"].fillna(changed["period_before"]))
    found = grouped.groupby("source_path", sort=True).agg(
        change=("change", "first"),
        games=("status", "size"),
        counted=("counted", "sum"),
        periods=("periods", lambda p: ", ".join(_in_order(p.dropna().unique()))),
    )
    return found.reset_index()[list(FILE_COLUMNS)]


def _ratings(generation: Path) -> pd.DataFrame:
    """``generation``'s ratings of every period: ``period`` (text) and :data:`_RATED`."""
    folder = generation / "ratings"
    schema = pa.schema([("period", pa.string())])
    if not folder.is_dir():
        return pd.DataFrame(columns=["period", *_RATED])
    found = ds.dataset(folder, format="parquet", partitioning=ds.partitioning(schema, flavor="hive"))
    frame: pd.DataFrame = found.to_table(columns=["period", *_RATED]).to_pandas()
    return frame


def _rating_changes(before: Path, after: Path) -> pd.DataFrame:
    """Each period and player whose rating, rank or place differs, or who is in one generation only:
    ``period player change old_rating new_rating old_rank new_rank old_place new_place``."""
    old, new = _ratings(before), _ratings(after)
    both = old.merge(new, on=["period", "player"], how="outer", suffixes=("_old", "_new"), indicator=True)
    side = both["_merge"].astype(str)
    rating = ~np.isclose(both["rating_old"], both["rating_new"], rtol=0, atol=_TOLERANCE)
    rank = both["rank_old"].fillna("") != both["rank_new"].fillna("")
    place = both["place_old"] != both["place_new"]
    changed = (side != "both") | rating | rank | place
    both = both[changed.to_numpy()]
    kinds = np.select(
        [side[changed] == "left_only", side[changed] == "right_only"], ["removed", "added"], "changed"
    )
    return pd.DataFrame(
        {
            "period": both["period"].astype(str),
            "player": both["player"],
            "change": kinds,
            "old_rating": both["rating_old"],
            "new_rating": both["rating_new"],
            "old_rank": both["rank_old"],
            "new_rank": both["rank_new"],
            "old_place": both["place_old"].astype("Int64"),
            "new_place": both["place_new"].astype("Int64"),
        }
    ).reset_index(drop=True)


def _explained(
    changes: pd.DataFrame, games: pd.DataFrame, causes: list[str], latest: str | None
) -> pd.DataFrame:
    """``changes`` with each row's ``cause`` and ``files`` (see the module docstring), sorted: the causes
    are worked out once per period (:func:`by_period`) and merged onto the rows."""
    labels = _in_order(changes["period"])
    periods = by_period(labels, _own(games, bool(causes), latest), causes)
    found = changes.merge(periods, on="period", how="left", validate="many_to_one")
    found = found.sort_values(
        ["order", "new_place", "old_place", "player"], na_position="last", kind="stable"
    )
    return found.reset_index(drop=True)[list(DIFF_COLUMNS)]


def by_period(labels: list[str], own: pd.DataFrame, causes: list[str]) -> pd.DataFrame:
    """For each of ``labels`` (in time order): ``period``, ``order``, ``cause`` (its own causes from
    ``own``, the cascade from the earliest earlier period of ``own``, then ``causes``; ``unexplained``
    when none) and ``files`` (its own changed files)."""
    sources = _in_order(own.index)
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
    found = _in_order(snapshots.partitions(generation, "ratings"))
    return found[-1] if found else None


def _in_order(labels: Any) -> list[str]:
    return sorted({str(label) for label in labels}, key=_start)


def _start(label: str) -> tuple[dt.date, str]:
    """The first day of period ``label`` (then the label), for ordering; not a period: last."""
    try:
        return periods_mod.bounds(label)[0], label
    except periods_mod.PeriodError:
        return dt.date.max, label
