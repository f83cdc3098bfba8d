"""checks: one boolean column per reason code of docs/rules.md ("Reason codes"), computed over the
whole games table.

:func:`sides` resolves the players once per distinct spelling (canonical names, membership, pairs), for
every check to share. Each check reads the ordered table (ingest columns plus the canonical names and the
event kind) and those sides, and returns a numpy mask: does the rule apply to the row? :func:`flags` gives
them all (the checks other than ``parse_error`` only for rows that were read and name both players, those
of the players only where neither names nobody) and :func:`over_cap` the opponent cap, which depends on
the others. Knows nothing of how the rows were
ordered or of how reasons are listed: masks in table order out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.config.events import INTER_CLUB
from pipeline.config.roster import Roster
from pipeline.core.arrays import (
    Codes,
    Flags,
    codes,
    distinct,
    flag,
    groups,
    later_copies,
    nth_in_group,
    stacked,
)
from pipeline.core.names import names_nobody, placeholder_keys
from pipeline.core.reasons import REASONS, Validity


@dataclass(frozen=True, slots=True)
class Sides:
    """Both sides of every row, each distinct spelling resolved once (:func:`sides`): ``black`` and
    ``white`` the canonical names (null for no name, and for a name that names nobody); ``named``,
    ``nobody`` and ``member`` masks of Black's rows then White's (a name with more than white space; a
    name that names nobody, :func:`~pipeline.core.names.names_nobody`, and no roster player's; a roster
    member, :meth:`Roster.is_member`; null: False); ``pair`` a code per row for its unordered pair of
    canonical names (``a`` v ``b`` and ``b`` v ``a`` share it; no name is a value of its own)."""

    black: pa.Array
    white: pa.Array
    named: Flags
    nobody: Flags
    member: Flags
    pair: Codes


@dataclass(frozen=True, slots=True)
class Rows:
    """The ordered games (``table``, with the canonical names) with what every check reads: the rules,
    the roster and the resolved ``sides``."""

    table: pa.Table
    valid: Validity
    roster: Roster
    sides: Sides


Check = Callable[[Rows], Flags]


def sides(table: pa.Table, roster: Roster, placeholders: Iterable[str] = ()) -> Sides:
    """The :class:`Sides` of ``table``'s ``black`` and ``white`` names: one pass over the distinct
    spellings of both columns (:meth:`Roster.identities`), shared by every check that reads canonical
    names or membership. A spelling that is one of ``placeholders`` (the ``[validity]`` list) or could
    not be decoded names nobody, unless the roster names a player so (docs/rules.md ("Names that name
    nobody")): its canonical name is null."""
    spellings, position = distinct(stacked([table["black"], table["white"]]))
    found = roster.identities(spellings)
    resolved = pa.array([*(name for name, _ in found), None], pa.string())  # a null's position: the last
    nobody = _nobody(spellings, resolved, placeholder_keys(placeholders), roster)
    names = pc.if_else(pa.array(nobody), pa.scalar(None, pa.string()), resolved) if nobody.any() else resolved
    names = names.take(pa.array(position))
    code = codes(names)
    black, white = code[: table.num_rows], code[table.num_rows :]
    member = np.array([*(is_member for _, is_member in found), False], dtype=np.bool_) & ~nobody
    return Sides(
        black=names.slice(0, table.num_rows),
        white=names.slice(table.num_rows),
        named=np.array([*(bool(name.strip()) for name in spellings), False], dtype=np.bool_)[position],
        nobody=nobody[position],
        member=member[position],
        pair=groups([np.minimum(black, white), np.maximum(black, white)]),
    )


def _nobody(spellings: list[str], resolved: pa.Array, keys: frozenset[str], roster: Roster) -> Flags:
    """For each of ``spellings`` (``resolved``: :meth:`Roster.resolve` of each, from the roster's memo,
    and a null after them), whether it names nobody (:func:`~pipeline.core.names.names_nobody`) and no
    roster player; the null: False.

    Columnar first: a name off the roster resolves to itself folded, so the candidates are those whose
    ``resolved`` lowercased is a placeholder key (casefolded, or lowercased: the two differ only for a
    few letters such as ß), or that hold ``?`` or U+FFFD (every undecodable name does); only those are
    looked at one by one, the others were never folded again, period after period."""
    lowered = pa.array(sorted(keys | {key.lower() for key in keys}), pa.string())
    maybe = flag(pc.is_in(pc.utf8_lower(resolved), value_set=lowered))
    maybe |= flag(pc.match_substring(resolved, "?")) | flag(pc.match_substring(resolved, "\ufffd"))
    found = np.zeros(len(resolved), dtype=np.bool_)
    for at in np.flatnonzero(maybe):
        raw = spellings[at]
        found[at] = names_nobody(raw, keys) and roster.get(raw) is None
    return found


def _halves(mask: Flags) -> tuple[Flags, Flags]:
    """A mask of Black's rows then White's, as (Black's, White's)."""
    rows = len(mask) // 2
    return mask[:rows], mask[rows:]


def flags(rows: Rows) -> dict[str, Flags]:
    """The mask of every reason code but ``opponent_cap``, in the order of docs/rules.md ("Reason
    codes"): ``parse_error`` first. ``unknown_player`` for the rows read whose name on a side names
    nobody; the checks of the players (``non_member``, ``self_play``, ``duplicate``) only for the rows
    with two players."""
    black, white = _halves(rows.sides.named)
    parsed = flag(pc.is_null(rows.table["parse_error"])) & black & white
    unknown = parsed & np.logical_or(*_halves(rows.sides.nobody))
    found = {"parse_error": ~parsed}
    for code, check in _CHECKS.items():
        found[code] = check(rows) & (parsed & ~unknown if code in _OF_PLAYERS else parsed)
    found["unknown_player"] = unknown
    return {code: found[code] for code in REASONS if code in found}


def over_cap(rows: Rows, period: pa.Array | pa.ChunkedArray, eligible: Flags) -> Flags:
    """Games beyond the first ``opponent_cap`` (in table order) between the same two players in a
    ``period``, among the ``eligible`` ones with a period; none when the cap is 0."""
    over = np.zeros(len(eligible), dtype=np.bool_)
    if rows.valid.opponent_cap <= 0:
        return over
    where = np.flatnonzero(eligible & flag(pc.is_valid(period)))
    group = groups([codes(pc.take(period, pa.array(where))), rows.sides.pair[where]])
    over[where] = nth_in_group(group) >= rows.valid.opponent_cap
    return over


def _wrong_type(rows: Rows) -> Flags:
    """Not one of the configured game types (no ``GM``: Go, type 1; a ``GM`` that could not be read,
    ``GM[2147483648]``, is none of them)."""
    table = rows.table
    unreadable = pc.and_(pc.is_null(table["game_type"]), pc.is_valid(table["game_type_raw"]))
    game_type = pc.if_else(unreadable, 0, pc.fill_null(table["game_type"], 1).cast(pa.int64()))
    return ~flag(pc.is_in(game_type, value_set=pa.array(rows.valid.game_types, pa.int64())))


def vague(table: pa.Table, period_kind: str) -> Flags:
    """A year only (``DT[2024]``) where the periods (``period_kind``) are shorter than a year: which month?"""
    return flag(pc.equal(table["date_precision"], "year")) & (period_kind != "year")


def _missing_date(rows: Rows) -> Flags:
    return flag(pc.is_null(rows.table["date"])) | vague(rows.table, rows.valid.period)


def _no_result(rows: Rows) -> Flags:
    return flag(pc.is_null(rows.table["winner"]))


def _draw(rows: Rows) -> Flags:
    return flag(pc.equal(rows.table["winner"], "draw"))


def _no_show(rows: Rows) -> Flags:
    """A decisive result by forfeit, or with fewer than ``min_moves`` moves on the main line."""
    decisive = flag(pc.is_in(rows.table["winner"], value_set=pa.array(["B", "W"])))
    forfeit = flag(pc.equal(rows.table["result_how"], "forfeit"))
    return decisive & (forfeit | _short(rows))


def _short(rows: Rows) -> Flags:
    return flag(pc.less(pc.fill_null(rows.table["moves"], 0), rows.valid.min_moves))


def _handicap(rows: Rows) -> Flags:
    return flag(pc.greater_equal(pc.fill_null(rows.table["handicap"], 0), rows.valid.handicap_from))


def _non_member(rows: Rows) -> Flags:
    """A side off the roster (no roster: nobody); an inter-club event needs only one member."""
    table, roster = rows.table, rows.roster
    if not roster.configured:
        return np.zeros(table.num_rows, dtype=np.bool_)
    black, white = _halves(rows.sides.member)
    inter_club = flag(pc.is_in(table["event_kind"], value_set=pa.array(sorted(INTER_CLUB))))
    return ~(black & white) & ~(inter_club & (black | white))


def _self_play(rows: Rows) -> Flags:
    return flag(pc.equal(rows.table["black_player"], rows.table["white_player"]))


def _duplicate(rows: Rows) -> Flags:
    """A later copy (table order) of a game with the same two players, date and main line; for games
    shorter than ``min_moves`` (no moves to compare) the result as written must match too."""
    table = rows.table
    signature = pc.fill_null(table["move_signature"], "")
    result = pc.if_else(pa.array(_short(rows)), pc.fill_null(table["result"], ""), "")
    return later_copies(groups([rows.sides.pair, codes(table["date"]), codes(signature), codes(result)]))


#: The checks that compare or look up the two players: none applies to a side that names nobody.
_OF_PLAYERS = frozenset({"non_member", "self_play", "duplicate"})
_CHECKS: dict[str, Check] = {
    "wrong_game_type": _wrong_type,
    "missing_date": _missing_date,
    "no_result": _no_result,
    "draw": _draw,
    "no_show": _no_show,
    "handicap": _handicap,
    "non_member": _non_member,
    "self_play": _self_play,
    "duplicate": _duplicate,
}
