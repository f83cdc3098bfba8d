"""rules.hkga_reports: the HKGA introduction's two reports (docs/rules.md ("Fees and certification")),
from the ``hkga`` run's changes.

- ``fees.parquet`` (its §3.1): the registration fee a non-member owes for a calendar year.
  Members are free; a non-member pays $30 a year, which covers the first 20 rated games, then $1 a
  game for games 21–90; games after the 90th are free, so at most $100 a year.
- ``certification.parquet`` (its §9): a player may apply for a strength certificate once their
  record holds at least 10 valid wins.

Decisions (the introduction is silent or the data cannot say more):

- A *rated game* of a player is one of their rows in ``changes`` — except a win by the opponent's
  no-show (the row ``pipeline.rules.gor_rules`` notes :data:`NO_SHOW_WIN`): its §7 says the game
  is not rated for the winner, so it is not a rated game for the fee, and not a *valid win* (the
  game was not played). The absentee's loss is rated, so it is a rated game for them. A game a side
  is not rated in (a non-member in an inter-club event) has no row and is no rated game either. A
  reference player's (``fixed``) games are rated games: they are entered, only the rating stays.
- The $30 is due for a year in which the non-member has a rated game: the records show games, not
  registrations, so a year of no rated game owes $0. A non-member appears in the fees table for
  every year in which they have a row in ``changes`` (a year of only no-show wins gives a row with
  0 rated games and fee 0, so the auditor sees why).
- With no roster configured every player is a member: the fees table is empty.
- Certification lists every player with a row in ``changes``, members or not (non-members may
  register too); the 10th valid win is the 10th in ``(date, seq)`` order.

Knows nothing of SGF, files or how the ratings were computed; sees the roster only through
:meth:`~pipeline.config.roster.Roster.is_member`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.config.roster import Roster
from pipeline.core.i18n import _
from pipeline.core.schema import described as _f

#: The ``note`` of a no-show winner's change row (written by :mod:`pipeline.rules.gor_rules`).
NO_SHOW_WIN = "no-show: not rated for the winner"
#: The HKGA introduction §3.1, in dollars.
ANNUAL_FEE = 30
GAMES_COVERED = 20
PER_GAME = 1
FREE_AFTER = 90
#: The HKGA introduction §9: valid wins needed to apply for a certificate.
WINS_FOR_CERTIFICATE = 10

FEES = pa.schema(
    [
        _f("player", pa.string(), "a non-member who played rated games", False),
        _f("year", pa.int32(), "the calendar year", False),
        _f("rated_games", pa.int64(), "their rated games in the year", False),
        _f(
            "fee",
            pa.int64(),
            "the year's registration fee in HK$ ($30 for 20 games, $1 a game to 90, at most $100)",
            False,
        ),
        _f("basis", pa.string(), "how the fee was worked out, in words", False),
    ]
)
CERTIFICATION = pa.schema(
    [
        _f("player", pa.string(), "a rated player", False),
        _f("valid_wins", pa.int64(), "their wins that count toward certification", False),
        _f("eligible", pa.bool_(), "10 valid wins or more", False),
        _f("first_eligible_date", pa.date32(), "the day of the 10th valid win (null: not eligible)"),
    ]
)
#: The columns of ``changes`` the reports read.
COLUMNS = ("player", "date", "seq", "score", "note")
FEES_FILE = "fees.parquet"
CERTIFICATION_FILE = "certification.parquet"


def reports(changes: pa.Table, roster: Roster) -> dict[str, pa.Table]:
    """The ``hkga`` report tables from every period's ``changes`` and the run's ``roster``.

    Columnar over the whole table: Python runs once per player (membership) and once per fee row, never
    once per change row (docs/design.md#hkga-reports).

    Args:
        changes: the ``changes`` table (columns ``player date seq score`` used, ``note`` when present).
        roster: the run's roster (``Roster()`` when none: everyone is a member).

    Returns:
        ``{"fees.parquet": FEES table, "certification.parquet": CERTIFICATION table}``, rows sorted by
        player (then year).
    """
    rows = _used(changes)
    return {FEES_FILE: fees_table(rows, roster), CERTIFICATION_FILE: certification_table(rows)}


def fee(rated_games: int) -> int:
    """A non-member's fee in dollars for a year of ``rated_games`` rated games (0 for none).

    Raises ValueError if ``rated_games`` is negative.
    """
    if rated_games < 0:
        raise ValueError(f"rated games must be 0 or more, got {rated_games}")
    if rated_games == 0:
        return 0
    return ANNUAL_FEE + PER_GAME * _charged(rated_games)


def fee_basis(rated_games: int) -> str:
    """How :func:`fee` is made up: ``"0"``, ``"30"``, ``"30 + 1 × 15"``, ``"30 + 1 × 70 (games 91+ free)"``.

    Raises ValueError if ``rated_games`` is negative.
    """
    total = fee(rated_games)
    charged = _charged(rated_games)
    if not charged:
        return str(total)
    text = f"{ANNUAL_FEE} + {PER_GAME} × {charged}"
    return text + f" (games {FREE_AFTER + 1}+ free)" if rated_games > FREE_AFTER else text


def fee_basis_text(rated_games: int) -> str:
    """:func:`fee_basis` as a person reads it, in the language spoken (the table's ``basis``; the
    stored ``basis`` column is :func:`fee_basis`'s, in English)."""
    total, charged = fee(rated_games), _charged(rated_games)
    if not charged:
        return str(total)
    text = f"{ANNUAL_FEE} + {PER_GAME} × {charged}"
    if rated_games <= FREE_AFTER:
        return text
    return _("{basis} (games {first}+ free)").format(basis=text, first=FREE_AFTER + 1)


def _charged(rated_games: int) -> int:
    """The games charged one by one: those from the 21st to the 90th."""
    return max(0, min(rated_games, FREE_AFTER) - GAMES_COVERED)


def fees_table(rows: pa.Table, roster: Roster) -> pa.Table:
    """One row per non-member per calendar year with a change row (schema :data:`FEES`); ``rows``
    as :func:`_used` gives them."""
    if not roster.configured or not rows.num_rows:
        return FEES.empty_table()
    players = pc.unique(rows["player"])
    outsiders = players.filter(pa.array([not roster.is_member(p) for p in players.to_pylist()], pa.bool_()))
    mine = rows.filter(pc.is_in(rows["player"], value_set=outsiders))
    rated = pc.cast(pc.invert(mine["no_show_win"]), pa.int64())
    years = pa.table(
        {"player": mine["player"], "year": pc.year(mine["date"]).cast(pa.int32()), "rated": rated}
    )
    games = years.group_by(["player", "year"]).aggregate([("rated", "sum")])
    games = games.sort_by([("player", "ascending"), ("year", "ascending")])
    counts = games["rated_sum"].to_pylist()
    return pa.table(
        {
            "player": games["player"],
            "year": games["year"],
            "rated_games": games["rated_sum"],
            "fee": pa.array([fee(n) for n in counts], pa.int64()),
            "basis": pa.array([fee_basis(n) for n in counts], pa.string()),
        },
        schema=FEES,
    )


def certification_table(rows: pa.Table) -> pa.Table:
    """One row per player with a change row (schema :data:`CERTIFICATION`); ``rows`` as :func:`_used`
    gives them. The valid wins are sorted by (player, date, seq), so each player's wins are one run
    and the tenth is the run's first plus nine."""
    players = pc.unique(rows["player"]).sort()
    valid = rows.filter(pc.and_(pc.equal(rows["score"], 1.0), pc.invert(rows["no_show_win"])))
    valid = valid.sort_by([("player", "ascending"), ("date", "ascending"), ("seq", "ascending")])
    first, wins = _runs(valid["player"])
    tenth = first + WINS_FOR_CERTIFICATE - 1
    dates = valid["date"].take(pa.array(tenth, pa.int64(), mask=wins < WINS_FOR_CERTIFICATE))
    at = pc.index_in(players, value_set=valid["player"].take(pa.array(first, pa.int64())))
    count = pc.fill_null(pc.take(pa.array(wins, pa.int64()), at), 0)
    return pa.table(
        {
            "player": players,
            "valid_wins": count,
            "eligible": pc.greater_equal(count, WINS_FOR_CERTIFICATE),
            "first_eligible_date": pc.take(dates, at),
        },
        schema=CERTIFICATION,
    )


def _runs(values: pa.ChunkedArray) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The first position and the length of each run of equal ``values`` (sorted), in order."""
    flat = values.combine_chunks()
    if not len(flat):
        return np.empty(0, np.int64), np.empty(0, np.int64)
    changed = pc.not_equal(flat[1:], flat[:-1]).to_numpy(zero_copy_only=False)
    first = np.flatnonzero(np.r_[True, changed])
    return first, np.diff(np.r_[first, len(flat)])


def _used(changes: pa.Table) -> pa.Table:
    """The columns the reports use (``player date seq score``) and ``no_show_win``: whether the row is a
    win by the opponent's no-show (its ``note`` is :data:`NO_SHOW_WIN`; never without a ``note``)."""
    used = changes.select(["player", "date", "seq", "score"])
    if "note" not in changes.column_names:
        return used.append_column("no_show_win", pa.repeat(pa.scalar(False), changes.num_rows))
    no_show = pc.and_(
        pc.equal(changes["score"], 1.0), pc.fill_null(pc.equal(changes["note"], NO_SHOW_WIN), False)
    )
    return used.append_column("no_show_win", no_show)
