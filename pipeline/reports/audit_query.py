"""reports.audit_query: the audit's rows of an output folder, filtered, as Arrow tables.

:func:`audit_rows` reads the game records (one player's from the player index, else ``games.parquet``
whole), keeps those the filters ask for and makes the audit's columns (:data:`AUDIT_COLUMNS`) with
compute functions, a column at a time; the changes of the counted games come by column too
(:func:`pipeline.reports.audit_rows.game_changes`). Imports no pandas: ``ratings audit --player`` needs
none (:func:`pipeline.reports.audit_games`, the frame, is :meth:`~pipeline.reports.audit_rows.AuditRows.frame`
of these rows).

Knows nothing of the rule sets (only of the tables they wrote) or of rendering.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.config.roster import Roster
from pipeline.core import arrays, buffers, strings
from pipeline.core.i18n import _
from pipeline.core.reasons import REASONS
from pipeline.output import folder as outputs
from pipeline.output.folder import GAMES_FILE, ReportError, check_period, game_periods
from pipeline.reports import player_rows
from pipeline.reports.audit_rows import CHANGE_KEYS, AuditRows, game_changes
from pipeline.reports.explain.names import resolve_player

#: The columns of :func:`pipeline.reports.audit_games`, in order.
AUDIT_COLUMNS = (
    "seq",
    "game_id",
    "source",
    "date",
    "period",
    "black",
    "white",
    "result",
    "speed",
    "speed_known",
    "event",
    "event_listed",
    "stage",
    "counted",
    "reasons",
    "notes",
    "parse_error",
    "changes",
    "source_path",
    "game_index",
)
#: The speed classes a record said (the others were assumed).
_SAID_SPEEDS = ("slow", "fast")


def audit_rows(
    out: Path,
    player: str | None = None,
    period: str | None = None,
    reasons: Sequence[str] | None = None,
    counted: bool | None = None,
    roster: Roster | None = None,
) -> AuditRows:
    """:func:`pipeline.reports.audit_games`'s rows as Arrow tables, with the changes of their games by
    column (no dict per change); :meth:`~pipeline.reports.audit_rows.AuditRows.frame` is
    :func:`~pipeline.reports.audit_games`'s frame. The arguments and errors are
    :func:`~pipeline.reports.audit_games`'s."""
    outputs.require_output(out)
    unknown = [r for r in reasons or () if r not in REASONS]
    if unknown:
        raise ReportError(
            _("unknown reason {reason!r} (reason codes: {codes})").format(
                reason=unknown[0], codes=", ".join(REASONS)
            )
        )
    index = player_rows.index_of(out) if player is not None else None
    if index is not None and player is not None:
        try:
            return _indexed_audit(out, index, player, period, (reasons, counted), roster)
        except player_rows.Unreadable:
            pass  # (the tables read whole below give the same rows)
    games = outputs.read_games_table(out)
    if period is not None:
        check_period(period, game_periods(out, games), out)
    if player is not None:
        name = strings.text(resolve_player(out, player, roster, games))
        sides = [arrays.text(games.column(c)) for c in ("black_player", "white_player")]
        games = games.filter(arrays.true(pc.or_kleene(*(pc.equal(s, name) for s in sides))))
    chosen = _filtered(games, period, reasons, counted)
    return _audit_rows(chosen, _changes_of(out, chosen))


def _indexed_audit(
    out: Path,
    index: player_rows.PlayerIndex,
    player: str,
    period: str | None,
    which: tuple[Sequence[str] | None, bool | None],
    roster: Roster | None,
) -> AuditRows:
    """:func:`audit_rows` of one ``player``, from the player index ``index``; ``which`` the reasons
    and ``counted`` filters."""
    if period is not None:
        check_period(period, player_rows.known_periods(index, out), out)
    name = resolve_player(out, player, roster)
    games = player_rows.games_table(index, name)
    chosen = _filtered(games, period, *which)
    return _audit_rows(chosen, player_rows.changes_table(index, name, games))


def _filtered(
    games: pa.Table, period: str | None, reasons: Sequence[str] | None, counted: bool | None
) -> pa.Table:
    """The rows of ``games`` in ``period``, to which one of ``reasons`` applies (among its ``reasons``
    or ``notes``), counted or not as ``counted`` says (None: any period, reason, either)."""
    keep = np.ones(games.num_rows, dtype=bool)
    if period is not None:
        same = pc.equal(arrays.text(games.column("period")), strings.text(period))
        keep &= buffers.numpy_of(arrays.true(same))
    if reasons:
        applies = np.zeros(games.num_rows, dtype=bool)
        wanted = strings.texts(sorted(set(reasons)))
        for name in ("reasons", "notes"):
            lists = arrays.array(games.column(name))
            found = pc.is_in(arrays.text(pc.list_flatten(lists)), value_set=wanted)
            applies[buffers.numpy_of(pc.list_parent_indices(lists).filter(found)).astype(np.int64)] = True
        keep &= applies
    if counted is not None:
        keep &= buffers.numpy_of(arrays.true(games.column("counted"))) == counted
    return games.filter(buffers.flags(keep))


def _changes_of(out: Path, games: pa.Table) -> pa.Table:
    """The changes rows (``game_id`` and :data:`CHANGE_KEYS`) of the periods of the counted ``games``."""
    columns = ["game_id", *CHANGE_KEYS]
    periods = arrays.text(games.column("period")).filter(arrays.true(games.column("counted")))
    labels = sorted({p for p in periods.to_pylist() if p is not None})
    parts = [outputs.read_partition_table(out, "changes", label, columns=columns) for label in labels]
    if not parts:
        return buffers.empty(pa.schema([(c, pa.string()) for c in columns]))
    return pa.concat_tables(parts, promote_options="permissive")


def _audit_rows(games: pa.Table, changes: pa.Table) -> AuditRows:
    """The :class:`AuditRows` of ``games`` (rows of ``games.parquet``, as
    :func:`~pipeline.output.folder.read_games_table` gives them) and the ``changes`` rows of their games
    (and maybe others'), by column."""
    paths, places = arrays.text(games.column("source_path")), arrays.array(games.column("game_index"))
    numbered = pc.binary_join_element_wise(paths, places.cast(pa.string()), strings.text("#"))
    speed = arrays.text(games.column("speed"))
    event_name = arrays.text(games.column("event_name"))
    columns: dict[str, Any] = {
        "seq": games.column("seq"),
        "game_id": games.column("game_id"),
        "source": pc.if_else(places.cast(pa.bool_()), numbered, paths),
        "date": games.column("date"),
        "period": games.column("period"),
        "black": pc.coalesce(arrays.text(games.column("black_player")), arrays.text(games.column("black"))),
        "white": pc.coalesce(arrays.text(games.column("white_player")), arrays.text(games.column("white"))),
        "result": games.column("result"),
        "speed": pc.if_else(
            pc.is_null(games.column("parse_error")),
            arrays.text(games.column("speed_used")),
            pa.nulls(len(speed), pa.string()),
        ),
        "speed_known": pc.is_in(speed, value_set=strings.texts(_SAID_SPEEDS)),
        "event": pc.coalesce(event_name, arrays.text(games.column("event"))),
        "event_listed": pc.is_valid(event_name),
        "stage": games.column("stage"),
        "counted": games.column("counted"),
        "reasons": games.column("reasons"),
        "notes": games.column("notes"),
        "parse_error": games.column("parse_error"),
        "source_path": games.column("source_path"),
        "game_index": games.column("game_index"),
    }
    rows = pa.Table.from_arrays([arrays.array(v) for v in columns.values()], names=list(columns))
    return AuditRows(rows, game_changes(changes, rows))


def error_kinds(out: Path, games: pa.Table) -> dict[str, str]:
    """The ``error_kind`` (``games.parquet``) of each unreadable record of ``games`` (audit rows:
    ``seq``, ``game_id``, ``parse_error``), by game id: read from the row groups whose ``seq`` range
    holds one of those records, not from every record of the run."""
    import pyarrow.parquet as pq

    unreadable = games.column("seq").filter(pc.is_valid(games.column("parse_error")))
    if not len(unreadable):
        return {}
    outputs.require_output(out)
    seqs = sorted({int(s) for s in unreadable.to_pylist()})
    file = pq.ParquetFile(out / GAMES_FILE)
    groups = [g for g in range(file.metadata.num_row_groups) if _holds(file.metadata.row_group(g), seqs)]
    found = file.read_row_groups(groups, columns=["seq", "game_id", "error_kind"], use_threads=False)
    wanted = buffers.numbers(np.array(seqs, dtype=np.int64))
    found = found.filter(pc.is_in(found.column("seq").cast(pa.int64()), value_set=wanted))
    ids, kinds = found.column("game_id").to_pylist(), found.column("error_kind").to_pylist()
    return {str(g): str(k) for g, k in zip(ids, kinds, strict=True) if g is not None and k is not None}


def _holds(group: Any, seqs: list[int]) -> bool:
    """Whether a row group of ``games.parquet`` may hold one of the (sorted) ``seqs``: its ``seq``
    statistics say so, or it has none."""
    for k in range(group.num_columns):
        column = group.column(k)
        if column.path_in_schema == "seq":
            stats = column.statistics
            if stats is None or not stats.has_min_max:
                return True
            at = bisect.bisect_left(seqs, stats.min)
            return at < len(seqs) and seqs[at] <= stats.max
    return True
