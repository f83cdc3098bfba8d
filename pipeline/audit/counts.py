"""counts: what a games table holds, for the manifest and the end-of-run table (files, records, parse
errors by kind, encodings, unknown values, speeds; counted and excluded games by reason).

Knows the games and awards tables' columns; nothing of how they were filled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.audit.pieces import Source
from pipeline.core.tables import GAMES


@dataclass(frozen=True, slots=True)
class Unknown:
    """Games (rows without a parse error) whose result, date, time setting or a player is unknown."""

    result: int = 0
    date: int = 0
    time_setting: int = 0
    players: int = 0


@dataclass(frozen=True, slots=True)
class IngestCounts:
    """What an ingested games table holds (:func:`ingest_counts`): ``records`` every row (a game tree, or
    a file without one), ``games`` the rows without a parse error, ``parse_errors`` the others by kind,
    ``encodings`` the files by codec (``none``: not decoded), ``speed`` the games by class, ``warnings``
    the rows with a parse warning; each tally by count (highest first), then key."""

    files: int = 0
    records: int = 0
    games: int = 0
    parse_errors: Mapping[str, int] = field(default_factory=dict)
    encodings: Mapping[str, int] = field(default_factory=dict)
    unknown: Unknown = Unknown()
    speed: Mapping[str, int] = field(default_factory=dict)
    warnings: int = 0

    def as_json(self) -> dict[str, Any]:
        """The manifest's ``counts`` (the fields in order, tallies as objects)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> IngestCounts:
        """The counts a manifest wrote (:meth:`as_json`). Raises KeyError or TypeError if they are not."""
        return cls(**_typed(cls, data))


@dataclass(frozen=True, slots=True)
class Counts(IngestCounts):
    """:class:`IngestCounts` and the audit's: ``counted`` and ``excluded`` games, ``reasons`` the excluded
    ones by reason code (a game with several reasons counted under each)."""

    counted: int = 0
    excluded: int = 0
    reasons: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Counts:
        """The counts a manifest wrote (:meth:`as_json`). Raises KeyError or TypeError if they are not."""
        return cls(**_typed(cls, data))


def _typed(cls: type[IngestCounts], data: Mapping[str, Any]) -> dict[str, Any]:
    """``data``'s values for the fields of ``cls``, the unknown counts as :class:`Unknown`."""
    found = {name: data[name] for name in cls.__dataclass_fields__}
    return found | {"unknown": Unknown(**found["unknown"])}


class Tally:
    """:func:`ingest_counts` and :func:`audit_counts` of a games table given piece by piece (each file's
    rows in one piece): :meth:`add` each piece, then :attr:`counts` (the two merged)."""

    def __init__(self) -> None:
        self.found: dict[str, Any] = {}

    def add(self, games: pa.Table) -> None:
        """Add the counts of ``games`` (schema GAMES) to the counts so far."""
        _add(self.found, ingest_counts(games) | audit_counts(games))

    @property
    def counts(self) -> Counts:
        """The counts of every piece added (of an empty table when none was)."""
        found = (
            _sorted(self.found)
            if self.found
            else ingest_counts(GAMES.empty_table()) | audit_counts(GAMES.empty_table())
        )
        return Counts.from_json(found)


def source_counts(source: Source) -> IngestCounts:
    """:func:`ingest_counts` of an ingested source (:class:`~pipeline.ingest.Games`), read a month at a
    time (``source.months()``, ``source.read([month])``)."""
    found: dict[str, Any] = {}
    for month in source.months():
        _add(found, ingest_counts(source.read([month])))
    return IngestCounts.from_json(_sorted(found) if found else ingest_counts(GAMES.empty_table()))


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
    that was not decoded: empty or binary); ``warnings`` the rows with a parse warning. Columnar: masks
    over the columns it reads, no row as a Python value and no copy of the table.
    """
    parsed = pc.is_null(games["parse_error"])
    first = pc.equal(games["game_index"], 0)  # a file's first row
    return {
        "files": _count(first),
        "records": games.num_rows,
        "games": _count(parsed),
        "parse_errors": _tally(games["error_kind"], pc.invert(parsed)),
        "encodings": _tally(games["encoding"], first),
        "unknown": {
            "result": _nulls(games["winner"], parsed),
            "date": _nulls(games["date"], parsed),
            "time_setting": _nulls(games["main_time_s"], parsed),
            "players": _count(
                pc.and_(parsed, pc.or_(pc.is_null(games["black"]), pc.is_null(games["white"])))
            ),
        },
        "speed": _tally(games["speed"], parsed),
        "warnings": pc.count(games["warning"]).as_py(),
    }


def _count(mask: pa.ChunkedArray) -> int:
    """The rows where ``mask`` is true (null: not)."""
    return int(pc.sum(mask).as_py() or 0)


def _nulls(column: pa.ChunkedArray, where: pa.ChunkedArray) -> int:
    """The rows ``where`` whose ``column`` is null."""
    return _count(pc.and_(where, pc.is_null(column)))


def _tally(column: pa.ChunkedArray, where: pa.ChunkedArray | None = None) -> dict[str, int]:
    """How often each value of ``column`` (text; null counted as ``none``) occurs in the rows ``where``
    (None: every row), by count (highest first), then value."""
    values = pc.fill_null(column if where is None else pc.filter(column, where), "none")
    found = pc.value_counts(values)
    return _by_count(
        dict(zip(found.field("values").to_pylist(), found.field("counts").to_pylist(), strict=True))
    )


def audit_counts(games: pa.Table) -> dict[str, Any]:
    """Counts of an audited games table (schema GAMES): ``{"counted": n, "excluded": n,
    "reasons": {code: n}}``, a game with several reasons counted under each."""
    counted = _count(games["counted"])
    return {
        "counted": counted,
        "excluded": games.num_rows - counted,
        "reasons": _tally(pc.list_flatten(games["reasons"])),
    }
