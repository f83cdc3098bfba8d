"""schema: the explicit Arrow schemas of the ingest tables (``games.parquet``'s ingest columns, the cache).

Columns named in DESIGN.md's output contract are a promise to analysts; the rest are extras that
explain the contract columns (raw values, how the encoding was found, ...). Every field carries a
short description in its metadata (:data:`DESCRIPTION`), from which ``docs/columns.md`` is generated
(:mod:`pipeline.reports.columns`). Knows nothing of how the values are computed.
"""

from __future__ import annotations

import pyarrow as pa

#: The field metadata key of a column's description.
DESCRIPTION = b"description"


def described(name: str, arrow_type: pa.DataType, description: str, nullable: bool = True) -> pa.Field:
    """A field ``name`` of ``arrow_type`` with ``description`` in its metadata (:data:`DESCRIPTION`)."""
    return pa.field(name, arrow_type, nullable=nullable, metadata={DESCRIPTION: description.encode()})


#: One row per game tree found, or per file that holds none (``parse_error`` set). Ingest columns.
GAMES_INGEST = pa.schema(
    [
        described(
            "game_id",
            pa.string(),
            "stable id of the game tree: a digest of source_path and game_index",
            False,
        ),
        described(
            "source_path",
            pa.string(),
            "the file's path relative to the raw folder (archive!member for a member of an archive); bytes"
            " that are not UTF-8 written \\xNN and a backslash \\\\",
            False,
        ),
        described(
            "source_path_bytes", pa.binary(), "the path's bytes when they are not valid UTF-8, else null"
        ),
        described(
            "game_index", pa.int32(), "position of the game tree in its file's collection (0 = first)", False
        ),
        described("parse_error", pa.string(), "why the record could not be read; null when it was"),
        described(
            "error_kind",
            pa.string(),
            "empty, binary, not_sgf, unreadable, not_a_file, link_loop, truncated, timeout, crash,"
            " bad_value, bad_archive or internal; null if none",
        ),
        described(
            "warning",
            pa.string(),
            "what was wrong yet read (syntax repaired, undecodable bytes replaced, a corrupt year read or"
            " not, a date after the file's modification time not believed)",
        ),
        described("encoding", pa.string(), "the codec the file was decoded with"),
        described(
            "encoding_how",
            pa.string(),
            "how it was found: bom, utf-16-pattern, ascii, utf-8, utf-8-broken, ca, detected",
        ),
        described("encoding_declared", pa.string(), "the file's CA property as written, if any"),
        described(
            "black",
            pa.string(),
            "Black's name (PB), a rank written inside the name removed; null when there is none, or when "
            "it names nobody (a placeholder such as Black, or not decoded: docs/rules.md)",
        ),
        described(
            "white",
            pa.string(),
            "White's name (PW), a rank written inside the name removed; null when there is none, or when "
            "it names nobody (a placeholder such as White, or not decoded: docs/rules.md)",
        ),
        described(
            "black_raw",
            pa.string(),
            "PB as written, when black differs (mojibake repaired, rank cut, or a name that names nobody)",
        ),
        described(
            "white_raw",
            pa.string(),
            "PW as written, when white differs (mojibake repaired, rank cut, or a name that names nobody)",
        ),
        described("black_rank", pa.string(), "Black's rank, normalised (e.g. 3d, 18k, 9p)"),
        described("white_rank", pa.string(), "White's rank, normalised (e.g. 3d, 18k, 9p)"),
        described("black_rank_uncertain", pa.bool_(), "Black's rank was marked uncertain (3d?, 18k*)"),
        described("white_rank_uncertain", pa.bool_(), "White's rank was marked uncertain (3d?, 18k*)"),
        described(
            "black_rank_raw", pa.string(), "BR as written in the record (a title or note beside the rank too)"
        ),
        described(
            "white_rank_raw", pa.string(), "WR as written in the record (a title or note beside the rank too)"
        ),
        described("winner", pa.string(), "B, W, draw, or null when there is no readable result"),
        described("result", pa.string(), "RE as written in the record"),
        described(
            "result_how",
            pa.string(),
            "resign, points, time, forfeit, illegal, win, draw, void, suspended, unknown",
        ),
        described(
            "margin", pa.float64(), "the winning margin in points when the result gives one (1 子 = 2 points)"
        ),
        described(
            "date",
            pa.date32(),
            "the day played (first day of a range; first of the month or year if partial)",
        ),
        described(
            "date_precision",
            pa.string(),
            "day, month or year: how much of date the record gave (year alone for a day after the file's"
            " modification time in its year)",
        ),
        described("time_of_day", pa.string(), "HH:MM:SS when the record gives a time with the day"),
        described("date_raw", pa.string(), "DT (else RD) as written in the record"),
        described(
            "speed",
            pa.string(),
            "slow (main time at least the threshold, 30 min by default), fast or unknown",
        ),
        described("main_time_s", pa.float64(), "main thinking time per player, in seconds"),
        described("byoyomi_s", pa.float64(), "length of one byo-yomi period, in seconds"),
        described("byoyomi_periods", pa.int32(), "number of byo-yomi periods"),
        described("time_raw", pa.string(), "the time properties as written (TM, OT, TC, TT, LT, LC)"),
        described(
            "handicap",
            pa.int32(),
            "handicap stones (HA; 1 for no komi), else the root's black setup stones when they are a"
            " handicap; null when neither says",
        ),
        described(
            "handicap_how",
            pa.string(),
            "how handicap was read: HA (a number), HA text (words, a sentence or full-width digits that"
            " name a number: 三子, 让先, 授三子局), setup stones (HA absent or unreadable: AB alone, a fixed"
            " placement or before White's first move); null when handicap is",
        ),
        described("komi", pa.float64(), "komi in points (Fox's x100 undone)"),
        described("komi_raw", pa.string(), "KM (or KO) as written in the record"),
        described("event", pa.string(), "the event: EV, else TE or GN when they name one"),
        described("round", pa.string(), "RO, unless it is a move count"),
        described("game_type", pa.int32(), "GM: 1 Go, 4 Gomoku; null when absent (read as Go) or unreadable"),
        described("game_type_raw", pa.string(), "GM as written (an unreadable GM is no game type counted)"),
        described(
            "board_size",
            pa.int32(),
            "SZ: lines of the square board; null when absent, unreadable or not square",
        ),
        described("moves", pa.int32(), "moves on the main line (passes included)"),
        described("move_signature", pa.string(), "digest of the main line's moves (duplicate detection)"),
        described("implicit_root", pa.bool_(), "game information stood before the first ; (the TOM layout)"),
        described("place", pa.string(), "PC: where the game was played"),
        described("application", pa.string(), "AP: the program or server that wrote the record"),
    ]
)

#: The incremental cache: the ingest columns (without ``speed``) plus the key of the file they came from.
CACHE = pa.schema(
    [f for f in GAMES_INGEST if f.name != "speed"]
    + [
        described(
            "file_size",
            pa.int64(),
            "size of the file in bytes when it was read; -1 for an entry discovery flagged",
        ),
        described("file_mtime_ns", pa.int64(), "modification time of the file, in nanoseconds"),
        described("file_inode", pa.int64(), "inode of the file (as a signed 64-bit number)"),
        described("file_ctime_ns", pa.int64(), "status change time of the file, in nanoseconds"),
    ]
)
