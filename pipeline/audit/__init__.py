"""audit: the validity rules of docs/rules.md ("Validity") over the ingested games table.

Adds to every row its canonical player names (roster aliases), configured event and stage, the
period, a deterministic order (``seq``), whether it is counted and every reason it is not. Pure:
a table, the roster, the events and the :class:`~pipeline.core.reasons.Validity` in, a table out.

Knows nothing of SGF text or of ratings: it reads the normalised columns of ingest and decides
which games count. Decisions (the sources are silent; docs/rules.md ("Reason codes") states each):

- a parse error is the only reason given for a game that could not be parsed;
- a game without a player name on either side (no ``PB``/``PW``) cannot be rated: it gets
  ``parse_error`` (docs/rules.md ("Reason codes") has no code of its own for it) and the note
  ``missing_player``, and is told apart from a record that could not be read by its own ``error_kind``,
  ``no_players``, and a ``parse_error`` text naming what is missing (:func:`_nameless`), so that every
  count of parse errors by kind shows it on its own;
- a name that names nobody (a placeholder of ``[validity] placeholder_names``, ``Black``, ``黑``, ``?``
  ..., or a name that could not be decoded: :mod:`pipeline.core.names`) is no player, unless the roster
  names a player so: its side's ``black``/``white`` and ``*_player`` are null, the name as written stays
  in ``black_raw``/``white_raw`` (:func:`_unnamed`), and a game read with such a side gets
  ``unknown_player`` (not ``parse_error``: a game was played, by someone) with every other reason that
  applies, but none of those that compare players (``non_member``, ``self_play``, ``duplicate``, the cap);
- a record without ``GM`` is Go (GM 1), as the SGF specification says;
- a date of year precision only (``DT[2024]``) is ``missing_date`` unless the periods are years;
- an inter-club event exempts a game from ``non_member`` only when one side is a member;
- ``duplicate`` compares the two players (either colour), the date and the main-line moves; for
  games with fewer than ``min_moves`` moves (no moves to compare) the result must match too; the
  earlier copy in ``seq`` order is kept; a missing name matches no name (such rows are ``parse_error``);
- the opponent cap counts only games that pass every other rule, per unordered pair and period.

How: columnar work over the whole table (Arrow compute and numpy, :mod:`~pipeline.core.arrays`): one
sort for ``seq``, Python only once per distinct name, event, (event, round) and date, the duplicates and
the cap as window functions over integer group codes, ``reasons``/``notes`` built from flag columns
(Arrow and numpy rather than pandas, polars or DuckDB: docs/design.md#columnar-audit). The players are
resolved in one pass per table (:func:`~pipeline.audit.checks.sides`: canonical names, membership and
pairs for every check), through the roster's memo, so a run that audits period by period folds each
spelling once, not once per period and check (docs/design.md#roster-memo). A table already in ``seq``
order is not copied.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.audit.checks import Rows, Sides, flags, over_cap, sides, vague
from pipeline.config.events import Event, Events
from pipeline.config.roster import Roster
from pipeline.core.arrays import Flags, distinct, flag, listed, mapped_together
from pipeline.core.periods import periods_of
from pipeline.core.reasons import REASONS, Validity
from pipeline.core.schema import GAMES_INGEST
from pipeline.core.tables import GAMES


def audit(games: pa.Table, roster: Roster, events: Events, valid: Validity, seq_start: int = 0) -> pa.Table:
    """``games`` (schema :data:`~pipeline.core.schema.GAMES_INGEST`) with the audit columns of
    :data:`~pipeline.core.tables.GAMES`, in ``seq`` order, ``seq`` counting from ``seq_start`` (for
    one period's rows of a run audited period by period: :mod:`~pipeline.audit.pieces`). Never raises
    for any row's values.

    Raises :class:`~pipeline.core.periods.PeriodError` if ``valid.period`` is not a period kind, and
    KeyError if ``games`` lacks a column of the schema.
    """
    ordered = _ordered(games.select(list(GAMES_INGEST.names)))
    players = sides(ordered, roster, valid.placeholder_names)
    table = _identified(_unnamed(ordered, players.nobody), players, events)
    undated = pa.array(vague(table, valid.period))
    period = pc.if_else(undated, pa.scalar(None, pa.string()), periods_of(table["date"], valid.period))
    added = {
        "speed_used": pc.if_else(pa.array(_unknown_speed(table)), valid.unknown_speed, table["speed"]),
        "period": period,
        "seq": pa.array(np.arange(seq_start, seq_start + table.num_rows, dtype=np.int64)),
    }
    found = _flagged(Rows(table, valid, roster, players), period)
    table = _nameless(table, found["missing_player"], players.named)
    return _assembled(table, added | _listed(found, valid, table.num_rows))


def _flagged(rows: Rows, period: pa.Array | pa.ChunkedArray) -> dict[str, Flags]:
    """The mask of every reason code (:func:`~pipeline.audit.checks.flags`, then the opponent cap over
    the games no other excluding rule removed) and of the notes ``speed_unknown`` and ``missing_player``."""
    found = flags(rows)
    blocking = [found[code] for code in REASONS[:-1] if rows.valid.excludes(code)]  # all but the cap
    found["opponent_cap"] = over_cap(rows, period, ~np.any(blocking, axis=0))
    found["speed_unknown"] = _unknown_speed(rows.table) & ~found["parse_error"]
    found["missing_player"] = flag(pc.is_null(rows.table["parse_error"])) & found["parse_error"]
    return found


#: The ``error_kind`` of a record read without both player names (it has the reason ``parse_error``).
NO_PLAYERS = "no_players"
_MISSING = {
    (False, False): "no player names: PB and PW are both missing or empty",
    (False, True): "no player name for Black: PB is missing or empty",
    (True, False): "no player name for White: PW is missing or empty",
}


def _nameless(table: pa.Table, nameless: Flags, named: Flags) -> pa.Table:
    """``table`` with each record read without both player names (``nameless``) given the
    ``error_kind`` :data:`NO_PLAYERS` and a ``parse_error`` saying which name is missing (``named``:
    Black's rows then White's, :class:`~pipeline.audit.checks.Sides`)."""
    if not nameless.any():
        return table
    rows = table.num_rows
    black, white = named[:rows], named[rows:]
    said = np.full(rows, None, dtype=object)
    for (b, w), text in _MISSING.items():
        said[nameless & (black == b) & (white == w)] = text
    error = pc.if_else(pa.array(nameless), pa.array(said, pa.string()), table["parse_error"])
    kind = pc.if_else(pa.array(nameless), NO_PLAYERS, table["error_kind"])
    table = table.set_column(table.schema.get_field_index("parse_error"), "parse_error", error)
    return table.set_column(table.schema.get_field_index("error_kind"), "error_kind", kind)


def _unnamed(table: pa.Table, nobody: Flags) -> pa.Table:
    """``table`` with each side whose name names nobody (``nobody``: Black's rows then White's,
    :class:`~pipeline.audit.checks.Sides`) given a null name, the name as written kept in its ``_raw``
    column (which holds it already when the ingest changed the name: a rank cut, a repair)."""
    if not nobody.any():
        return table
    rows = table.num_rows
    for side, gone in (("black", nobody[:rows]), ("white", nobody[rows:])):
        if gone.any():
            mask = pa.array(gone)
            raw = pc.if_else(mask, pc.coalesce(table[f"{side}_raw"], table[side]), table[f"{side}_raw"])
            name = pc.if_else(mask, pa.scalar(None, pa.string()), table[side])
            table = table.set_column(table.schema.get_field_index(side), side, name)
            table = table.set_column(table.schema.get_field_index(f"{side}_raw"), f"{side}_raw", raw)
    return table


def _unknown_speed(table: pa.Table) -> Flags:
    """No time setting in the record, or none the speed classes know."""
    speed = table["speed"]
    return flag(pc.or_kleene(pc.is_null(speed), pc.equal(speed, "unknown")))


def _ordered(games: pa.Table) -> pa.Table:
    """Rows by date (undated last), time of day (unknown first), path and index: the ``seq`` order."""
    date = games["date"]
    keys = pa.table(
        {
            "undated": pc.is_null(date),
            "date": pc.fill_null(date, pa.scalar(0, pa.date32())),  # any day: the undated sort last anyway
            "time": pc.fill_null(games["time_of_day"], ""),
            "path": games["source_path"],
            "index": games["game_index"],
        }
    )
    order = pc.sort_indices(keys, [(name, "ascending") for name in keys.column_names]).to_numpy()
    if np.array_equal(order, np.arange(len(order))):
        return games  # already in seq order: no copy of the table
    return games.take(order)


def _identified(table: pa.Table, players: Sides, events: Events) -> pa.Table:
    """``table`` with the canonical player names (``players``), the configured event, its kind and the
    stage (each resolved once per distinct event and event with round)."""
    texts, position = distinct(table["event"])
    found = {ev: events.match(ev) for ev in texts}
    matched = [*found.values(), None]  # a null event matches none

    def stage(ev: str | None, round_: str | None) -> str | None:
        event = found[ev] if ev is not None else None
        return events.stage(event, round_) if event else None

    at = pa.array(position)
    added = {
        "black_player": players.black,
        "white_player": players.white,
        "event_name": pa.array([_name(e) for e in matched], pa.string()).take(at),
        "event_kind": pa.array([_kind(e) for e in matched], pa.string()).take(at),
        "stage": mapped_together([table["event"], table["round"]], stage, pa.string()),
    }
    for name, column in added.items():
        table = table.append_column(name, column)
    return table


def _name(event: Event | None) -> str | None:
    return None if event is None else event.name


def _kind(event: Event | None) -> str | None:
    return None if event is None else event.kind


def _listed(found: dict[str, Flags], valid: Validity, rows: int) -> dict[str, pa.Array]:
    """``reasons`` (the excluding codes that apply, in the order of docs/rules.md ("Reason codes")),
    ``notes`` (the codes that apply but do not exclude, then ``speed_unknown`` and ``missing_player``)
    and ``counted``."""
    reasons = [code for code in REASONS if valid.excludes(code)]
    notes = [*(code for code in REASONS if not valid.excludes(code)), "speed_unknown", "missing_player"]
    counted = ~np.any([found[code] for code in reasons], axis=0)
    return {
        "reasons": listed([found[code] for code in reasons], reasons, rows),
        "notes": listed([found[code] for code in notes], notes, rows),
        "counted": pa.array(counted, pa.bool_()),
    }


def _assembled(table: pa.Table, added: dict[str, pa.Array]) -> pa.Table:
    """The table of schema GAMES: ``table``'s columns and the ``added`` ones, in the schema's order."""
    columns = dict(zip(table.column_names, table.columns, strict=True)) | added
    return pa.Table.from_arrays([columns[name] for name in GAMES.names], schema=GAMES)
