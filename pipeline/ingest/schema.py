"""schema: the explicit Arrow schemas of every output table.

Columns named in DESIGN.md's output contract are a promise to analysts; the rest are extras that
explain the contract columns (raw values, how the encoding was found, ...). Knows nothing of how
the values are computed.
"""

from __future__ import annotations

import pyarrow as pa

#: One row per game tree found, or per file that holds none (``parse_error`` set). Ingest columns.
GAMES_INGEST = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("source_path", pa.string(), nullable=False),
        pa.field("source_path_bytes", pa.binary()),
        pa.field("game_index", pa.int32(), nullable=False),
        pa.field("parse_error", pa.string()),
        pa.field("error_kind", pa.string()),
        pa.field("warning", pa.string()),
        pa.field("encoding", pa.string()),
        pa.field("encoding_how", pa.string()),
        pa.field("encoding_declared", pa.string()),
        pa.field("black", pa.string()),
        pa.field("white", pa.string()),
        pa.field("black_raw", pa.string()),
        pa.field("white_raw", pa.string()),
        pa.field("black_rank", pa.string()),
        pa.field("white_rank", pa.string()),
        pa.field("black_rank_uncertain", pa.bool_()),
        pa.field("white_rank_uncertain", pa.bool_()),
        pa.field("black_rank_raw", pa.string()),
        pa.field("white_rank_raw", pa.string()),
        pa.field("winner", pa.string()),
        pa.field("result", pa.string()),
        pa.field("result_how", pa.string()),
        pa.field("margin", pa.float64()),
        pa.field("date", pa.date32()),
        pa.field("date_precision", pa.string()),
        pa.field("time_of_day", pa.string()),
        pa.field("date_raw", pa.string()),
        pa.field("speed", pa.string()),
        pa.field("main_time_s", pa.float64()),
        pa.field("byoyomi_s", pa.float64()),
        pa.field("byoyomi_periods", pa.int32()),
        pa.field("time_raw", pa.string()),
        pa.field("handicap", pa.int32()),
        pa.field("komi", pa.float64()),
        pa.field("komi_raw", pa.string()),
        pa.field("event", pa.string()),
        pa.field("round", pa.string()),
        pa.field("game_type", pa.int32()),
        pa.field("board_size", pa.int32()),
        pa.field("moves", pa.int32()),
        pa.field("move_signature", pa.string()),
        pa.field("implicit_root", pa.bool_()),
        pa.field("place", pa.string()),
        pa.field("application", pa.string()),
    ]
)

#: The incremental cache: the ingest columns (without ``speed``) plus the key of the file they came from.
CACHE = pa.schema(
    [f for f in GAMES_INGEST if f.name != "speed"]
    + [
        pa.field("file_size", pa.int64()),
        pa.field("file_mtime_ns", pa.int64()),
        pa.field("file_inode", pa.int64()),
        pa.field("file_ctime_ns", pa.int64()),
    ]
)
