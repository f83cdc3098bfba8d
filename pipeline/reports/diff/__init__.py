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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline.core.i18n import _
from pipeline.output import snapshots
from pipeline.output.folder import GAMES_FILE, ReportError, in_order, read_games, read_manifest
from pipeline.reports.diff.causes import _latest, _own, _parser_changed, by_period, settings_causes
from pipeline.reports.diff.tables import FILE_COLUMNS as FILE_COLUMNS
from pipeline.reports.diff.tables import _files, _game_changes, _rating_changes

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
#: The columns of :func:`generations`, in order.
GENERATION_COLUMNS = ("id", "written", "current", "rule_set", "games", "periods", "replayed")
#: The audit's columns of ``games.parquet`` whose change re-audits a record (``seq`` aside: it only orders).
_PREFIX = 4  # the fewest hex digits of an id that name a generation


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
            raise DiffError(
                _("generation {id} has no {file}: it cannot be compared").format(
                    id=generation.id, file=GAMES_FILE
                )
            )
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
                _("only one generation is kept ({id}): nothing to compare with until the next run").format(
                    id=kept[-1].id
                )
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
    listed = ", ".join(f"{k.id} ({k.written.isoformat() if k.written else _('no time')})" for k in kept)
    if moment:
        why = _("no kept generation written at or before it")
    else:
        why = _("not a kept generation, date or time")
    raise DiffError(
        _("unknown generation {since!r}: {why} (kept: {listed})").format(since=since, why=why, listed=listed)
    )


def _moment(text: str) -> dt.datetime | None:
    """``text`` as an aware time: a date is its midnight, a time without offset is UTC; None if neither."""
    try:
        found = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return found if found.tzinfo else found.replace(tzinfo=dt.UTC)


def _explained(
    changes: pd.DataFrame, games: pd.DataFrame, causes: list[str], latest: str | None
) -> pd.DataFrame:
    """``changes`` with each row's ``cause`` and ``files`` (see the module docstring), sorted: the causes
    are worked out once per period (:func:`by_period`) and merged onto the rows."""
    labels = in_order(changes["period"])
    periods = by_period(labels, _own(games, bool(causes), latest), causes)
    found = changes.merge(periods, on="period", how="left", validate="many_to_one")
    found = found.sort_values(
        ["order", "new_place", "old_place", "player"], na_position="last", kind="stable"
    )
    return found.reset_index(drop=True)[list(DIFF_COLUMNS)]
