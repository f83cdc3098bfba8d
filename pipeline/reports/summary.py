"""summary: counts that describe a games table, for the manifest and the end-of-run table, and the
warnings a finished run's tables call for.

Knows the games and awards tables' columns; nothing of how they were filled.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.audit.pieces import Source
from pipeline.output.tables import GAMES


class Counts:
    """:func:`ingest_counts` and :func:`audit_counts` of a games table given piece by piece (each file's
    rows in one piece): :meth:`add` each piece, then :attr:`counts` (the two merged)."""

    def __init__(self) -> None:
        self.found: dict[str, Any] = {}

    def add(self, games: pa.Table) -> None:
        """Add the counts of ``games`` (schema GAMES) to the counts so far."""
        _add(self.found, ingest_counts(games) | audit_counts(games))

    @property
    def counts(self) -> dict[str, Any]:
        """The counts of every piece added (of an empty table when none was)."""
        return (
            _sorted(self.found)
            if self.found
            else ingest_counts(GAMES.empty_table()) | audit_counts(GAMES.empty_table())
        )


def source_counts(source: Source) -> dict[str, Any]:
    """:func:`ingest_counts` of an ingested source (:class:`~pipeline.ingest.Games`), read a month at a
    time (``source.months()``, ``source.read([month])``)."""
    found: dict[str, Any] = {}
    for month in source.months():
        _add(found, ingest_counts(source.read([month])))
    return _sorted(found) if found else ingest_counts(GAMES.empty_table())


def _add(into: dict[str, Any], found: dict[str, Any]) -> None:
    for key, value in found.items():
        if isinstance(value, dict):
            _add(into.setdefault(key, {}), value)
        else:
            into[key] = into.get(key, 0) + value


def _sorted(counts: dict[str, Any]) -> dict[str, Any]:
    """``counts`` with each tally (a dict of numbers) by count (highest first), then key, as
    :func:`_tally` orders them; the fixed dicts (``unknown``) keep their order."""
    return {
        key: (_sorted(value) if key == "unknown" else _by_count(value)) if isinstance(value, dict) else value
        for key, value in counts.items()
    }


def _by_count(tally: dict[str, int]) -> dict[str, int]:
    return dict(sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])))


def ingest_counts(games: pa.Table) -> dict[str, Any]:
    """Counts of a games table (schema GAMES_INGEST).

    Returns ``{"files", "records", "games", "parse_errors": {kind: n}, "encodings": {codec: n},
    "unknown": {"result", "date", "time_setting", "players"}, "speed": {class: n}, "warnings": n}``:
    ``records`` counts every row (a game tree, or a file without one), ``games`` the rows without a
    parse error, ``parse_errors`` the others by kind; ``encodings`` counts files (``none`` for a file
    that was not decoded: empty or binary); ``warnings`` the rows with a parse warning.
    """
    ok = games.filter(pc.is_null(games.column("parse_error")))
    return {
        "files": pc.sum(pc.equal(games.column("game_index"), 0)).as_py() or 0,  # a file's first row
        "records": games.num_rows,
        "games": ok.num_rows,
        "parse_errors": _tally(games.filter(pc.is_valid(games.column("parse_error"))), "error_kind"),
        "encodings": _tally(games.filter(pc.equal(games.column("game_index"), 0)), "encoding"),
        "unknown": {
            "result": _nulls(ok, "winner"),
            "date": _nulls(ok, "date"),
            "time_setting": _nulls(ok, "main_time_s"),
            "players": ok.num_rows
            - ok.filter(pc.and_(pc.is_valid(ok["black"]), pc.is_valid(ok["white"]))).num_rows,
        },
        "speed": _tally(ok, "speed"),
        "warnings": pc.count(games.column("warning")).as_py(),
    }


def _tally(table: pa.Table, column: str) -> dict[str, int]:
    counts = Counter("none" if v is None else str(v) for v in table.column(column).to_pylist())
    return _by_count(counts)


def _nulls(table: pa.Table, column: str) -> int:
    return int(table.column(column).null_count)


def audit_counts(games: pa.Table) -> dict[str, Any]:
    """Counts of an audited games table (schema GAMES): ``{"counted": n, "excluded": n,
    "reasons": {code: n}}``, a game with several reasons counted under each."""
    counted = pc.sum(games.column("counted")).as_py() or 0
    reasons = Counter(code for codes in games.column("reasons").to_pylist() for code in codes)
    return {
        "counted": counted,
        "excluded": games.num_rows - counted,
        "reasons": _by_count(reasons),
    }
