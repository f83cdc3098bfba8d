"""tables: the explicit Arrow schemas of the tables written after ingest (audit, rating, awards).

Kept apart from :mod:`pipeline.ingest.schema` (the ingest and cache schemas), whose source is part of the
parser version: changing an output table must not force every file to be parsed again.
Knows nothing of how the values are computed.
"""

from __future__ import annotations

import pyarrow as pa

from pipeline.ingest.schema import GAMES_INGEST

#: ``games.parquet``: the ingest columns plus the audit's (DESIGN.md output contract).
GAMES = pa.schema(
    [
        *GAMES_INGEST,
        pa.field("black_player", pa.string()),
        pa.field("white_player", pa.string()),
        pa.field("event_name", pa.string()),
        pa.field("event_kind", pa.string()),
        pa.field("stage", pa.string()),
        pa.field("speed_used", pa.string()),
        pa.field("period", pa.string()),
        pa.field("seq", pa.int64(), nullable=False),
        pa.field("counted", pa.bool_(), nullable=False),
        pa.field("reasons", pa.list_(pa.string()), nullable=False),
        pa.field("notes", pa.list_(pa.string()), nullable=False),
    ]
)

#: ``ratings/period=<P>/``: one row per player rated by the end of the period (``period`` is the partition).
RATINGS = pa.schema(
    [
        pa.field("player", pa.string(), nullable=False),
        pa.field("rank", pa.string()),
        pa.field("rating", pa.float64(), nullable=False),
        pa.field("rating_before", pa.float64(), nullable=False),
        pa.field("delta", pa.float64(), nullable=False),
        pa.field("games", pa.int32(), nullable=False),
        pa.field("wins", pa.int32(), nullable=False),
        pa.field("losses", pa.int32(), nullable=False),
        pa.field("draws", pa.int32(), nullable=False),
        pa.field("rank_before", pa.string()),
        pa.field("bonus", pa.float64(), nullable=False),
        pa.field("games_total", pa.int32(), nullable=False),
        pa.field("member", pa.bool_(), nullable=False),
        pa.field("place", pa.int32(), nullable=False),
    ]
)

#: ``changes/period=<P>/``: one row per counted game x rated player; a rule set appends its own columns.
CHANGES = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("date", pa.date32(), nullable=False),
        pa.field("seq", pa.int64(), nullable=False),
        pa.field("player", pa.string(), nullable=False),
        pa.field("opponent", pa.string(), nullable=False),
        pa.field("color", pa.string(), nullable=False),
        pa.field("score", pa.float64(), nullable=False),
        pa.field("rating_before", pa.float64(), nullable=False),
        pa.field("delta", pa.float64(), nullable=False),
        pa.field("points", pa.float64(), nullable=False),
        pa.field("bonus", pa.float64(), nullable=False),
        pa.field("bonus_rule", pa.string()),
        pa.field("event", pa.string()),
        pa.field("speed", pa.string()),
    ]
)

#: ``awards/period=<P>/``: champion, runner-up and manual awards applied in the period.
AWARDS = pa.schema(
    [
        pa.field("player", pa.string(), nullable=False),
        pa.field("date", pa.date32(), nullable=False),
        pa.field("event", pa.string(), nullable=False),
        pa.field("kind", pa.string(), nullable=False),
        pa.field("points", pa.float64(), nullable=False),
        pa.field("note", pa.string()),
    ]
)

#: ``promotions.parquet``: one row per promotion or award of rank, with its evidence (empty for rule sets
#: without promotions).
PROMOTIONS = pa.schema(
    [
        pa.field("player", pa.string(), nullable=False),
        pa.field("date", pa.date32(), nullable=False),
        pa.field("game_id", pa.string()),
        pa.field("rule", pa.string(), nullable=False),
        pa.field("from_rank", pa.string()),
        pa.field("to_rank", pa.string(), nullable=False),
        pa.field("evidence", pa.string(), nullable=False),
        pa.field("event", pa.string()),
        pa.field("value", pa.float64()),
        pa.field("threshold", pa.float64()),
        pa.field("games", pa.int32()),
    ]
)
