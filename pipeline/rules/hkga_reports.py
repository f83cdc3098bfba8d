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

import datetime as dt
from collections import defaultdict
from typing import Any

import pyarrow as pa

from pipeline.config.roster import Roster

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
        pa.field("player", pa.string(), nullable=False),
        pa.field("year", pa.int32(), nullable=False),
        pa.field("rated_games", pa.int64(), nullable=False),
        pa.field("fee", pa.int64(), nullable=False),
        pa.field("basis", pa.string(), nullable=False),
    ]
)
CERTIFICATION = pa.schema(
    [
        pa.field("player", pa.string(), nullable=False),
        pa.field("valid_wins", pa.int64(), nullable=False),
        pa.field("eligible", pa.bool_(), nullable=False),
        pa.field("first_eligible_date", pa.date32()),
    ]
)
FEES_FILE = "fees.parquet"
CERTIFICATION_FILE = "certification.parquet"


def reports(changes: pa.Table, roster: Roster) -> dict[str, pa.Table]:
    """The ``hkga`` report tables from every period's ``changes`` and the run's ``roster``.

    Args:
        changes: the ``changes`` table (columns ``player date seq score`` used, ``note`` when present).
        roster: the run's roster (``Roster()`` when none: everyone is a member).

    Returns:
        ``{"fees.parquet": FEES table, "certification.parquet": CERTIFICATION table}``, rows sorted by
        player (then year).
    """
    rows = _rows(changes)
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


def _charged(rated_games: int) -> int:
    """The games charged one by one: those from the 21st to the 90th."""
    return max(0, min(rated_games, FREE_AFTER) - GAMES_COVERED)


def fees_table(rows: list[dict[str, Any]], roster: Roster) -> pa.Table:
    """One row per non-member per calendar year with a change row (schema :data:`FEES`)."""
    games: dict[tuple[str, int], int] = defaultdict(int)
    for row in rows:
        if roster.configured and not roster.is_member(row["player"]):
            games[(row["player"], row["date"].year)] += 0 if _no_show_win(row) else 1
    out = [
        {"player": p, "year": y, "rated_games": n, "fee": fee(n), "basis": fee_basis(n)}
        for (p, y), n in sorted(games.items())
    ]
    return pa.Table.from_pylist(out, schema=FEES)


def certification_table(rows: list[dict[str, Any]]) -> pa.Table:
    """One row per player with a change row (schema :data:`CERTIFICATION`)."""
    wins: dict[str, list[tuple[dt.date, int]]] = {}
    for row in rows:
        found = wins.setdefault(row["player"], [])
        if row["score"] == 1 and not _no_show_win(row):
            found.append((row["date"], row["seq"]))
    out = []
    for player, won in sorted(wins.items()):
        won.sort()
        eligible = len(won) >= WINS_FOR_CERTIFICATE
        out.append(
            {
                "player": player,
                "valid_wins": len(won),
                "eligible": eligible,
                "first_eligible_date": won[WINS_FOR_CERTIFICATE - 1][0] if eligible else None,
            }
        )
    return pa.Table.from_pylist(out, schema=CERTIFICATION)


def _rows(changes: pa.Table) -> list[dict[str, Any]]:
    """The columns the reports use, as dicts (``note`` None when the table has no such column)."""
    names = [c for c in ("player", "date", "seq", "score", "note") if c in changes.column_names]
    return [{"note": None} | row for row in changes.select(names).to_pylist()]


def _no_show_win(row: dict[str, Any]) -> bool:
    return bool(row["score"] == 1 and row["note"] == NO_SHOW_WIN)
