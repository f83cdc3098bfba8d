"""record: one file's bytes -> one typed row per game tree (the ingest row of ``games.parquet``).

Ties decode, the grammar and the normalisers together for one file, and turns every failure into
a row: a file that holds no game (empty, binary, not SGF, unreadable) gives one row whose
``parse_error`` says why and whose ``error_kind`` is a short code for counting.

Knows nothing of folders, caches, workers or ratings; does not decide the speed class (that
depends on the run's configured threshold: see :mod:`pipeline.ingest`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from pipeline.ingest.decode import Decoded, decode, utf16_codec
from pipeline.ingest.normalise.dates import parse_date
from pipeline.ingest.normalise.gameinfo import (
    parse_board_size,
    parse_event,
    parse_game_type,
    parse_handicap,
    parse_komi,
    parse_round,
)
from pipeline.ingest.normalise.ranks import Rank, parse_rank, split_name_rank
from pipeline.ingest.normalise.result import parse_result
from pipeline.ingest.normalise.text import repair_mojibake
from pipeline.ingest.normalise.timecontrol import parse_time_control
from pipeline.ingest.sgftext import GameTree, Properties, SgfSyntaxError, read_collection

Row = dict[str, Any]
_TIME_PROPS = ("TM", "OT", "TC", "TT", "LT", "LC")
_CONTROLS = bytes(c for c in range(32) if c not in b"\t\n\r\x0c")


def game_id(source_path: str, index: int) -> str:
    """A stable identifier for game tree ``index`` of the file at ``source_path`` (16 hex digits)."""
    return hashlib.blake2b(f"{source_path}\x00{index}".encode(), digest_size=8).hexdigest()


def rows_for_bytes(data: bytes, source_path: str) -> list[Row]:
    """Every row for one file's ``data``; ``source_path`` is its path relative to the raw folder.

    Returns at least one row; never raises for any ``data``.
    """
    if not data.strip():
        return [error_row(source_path, "empty", "empty file")]
    if _looks_binary(data):
        return [error_row(source_path, "binary", "binary file: not SGF text")]
    decoded = decode(data)
    try:
        trees = read_collection(decoded.text)
    except SgfSyntaxError as e:
        return [error_row(source_path, "not_sgf", f"not SGF: {e}", decoded)]
    if not trees:  # e.g. an unterminated TOM-layout root: nothing to row, but the file is accounted for
        return [error_row(source_path, "not_sgf", "not SGF: no complete game tree found", decoded)]
    return [tree_row(tree, source_path, decoded) for tree in trees]


def error_row(source_path: str, kind: str, message: str, decoded: Decoded | None = None) -> Row:
    """The single row of a file that holds no readable game tree."""
    row: Row = {"game_id": game_id(source_path, 0), "source_path": source_path, "game_index": 0}
    row.update(parse_error=message, error_kind=kind, **_encoding_columns(decoded))
    return row


def tree_row(tree: GameTree, source_path: str, decoded: Decoded) -> Row:
    """The row of one game tree: identity, encoding, players, result, date, time, game info."""
    row: Row = {"game_id": game_id(source_path, tree.index), "source_path": source_path}
    row["game_index"] = tree.index
    truncated = tree.error is not None and tree.error.startswith("truncated")
    row["parse_error"] = tree.error if truncated else None
    row["error_kind"] = "truncated" if truncated else None
    row["warning"] = _warning(tree, decoded, truncated)
    row.update(_encoding_columns(decoded))
    root = tree.root
    for part in (_players(root), _result(root), _date(root), _time(root), _info(root, tree)):
        row.update(part)
    return row


def _first(root: Properties, ident: str) -> str | None:
    values = root.get(ident)
    return values[0].strip() if values and values[0].strip() else None


def _looks_binary(data: bytes) -> bool:
    """More than 10% control bytes in the first KiB, and not UTF-16 (which has a NUL in every ASCII pair)."""
    head = data[:1024]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or utf16_codec(head) is not None:
        return False
    controls = sum(head.count(c) for c in _CONTROLS)
    return controls * 10 > len(head)


def _warning(tree: GameTree, decoded: Decoded, truncated: bool) -> str | None:
    notes = [] if truncated or tree.error is None else [tree.error]
    if decoded.replaced:
        notes.append(f"{decoded.replaced} undecodable byte sequence(s) replaced by U+FFFD")
    return "; ".join(notes) or None


def _encoding_columns(decoded: Decoded | None) -> Row:
    if decoded is None:
        return {"encoding": None, "encoding_how": None, "encoding_declared": None}
    return {"encoding": decoded.encoding, "encoding_how": decoded.how, "encoding_declared": decoded.declared}


def _player(name: str | None, rank_raw: str | None) -> tuple[str | None, Rank | None]:
    rank = parse_rank(rank_raw)
    if name is None:
        return None, rank
    bare, in_name = split_name_rank(name)
    return bare or name, rank or in_name


def _players(root: Properties) -> Row:
    row: Row = {}
    for colour, who in (("B", "black"), ("W", "white")):
        raw_rank, raw = _first(root, f"{colour}R"), _first(root, f"P{colour}")
        name, rank = _player(repair_mojibake(raw) or raw if raw else None, raw_rank)
        row[who], row[f"{who}_raw"] = name, raw if raw != name else None
        row[f"{who}_rank"] = str(rank) if rank else None
        row[f"{who}_rank_uncertain"] = rank.uncertain if rank else None
        row[f"{who}_rank_raw"] = raw_rank
    return row


def _result(root: Properties) -> Row:
    raw = _first(root, "RE")
    result = parse_result(raw)
    return {"result": raw, "winner": result.winner, "result_how": result.how, "margin": result.margin}


def _date(root: Properties) -> Row:
    dt, rd = _first(root, "DT"), _first(root, "RD")
    found = parse_date(dt, rd)
    time_of_day = found.time.strftime("%H:%M:%S") if found.time else None
    return {
        "date": found.date,
        "date_precision": found.precision,
        "time_of_day": time_of_day,
        "date_raw": dt if dt is not None else rd,
    }


def _time(root: Properties) -> Row:
    props = {p: v for p in _TIME_PROPS if (v := _first(root, p)) is not None}
    tc = parse_time_control(props)
    raw = " ".join(f"{p}[{v}]" for p, v in props.items()) or None
    return {
        "main_time_s": tc.main_time_s,
        "byoyomi_s": tc.byoyomi_s,
        "byoyomi_periods": tc.byoyomi_periods,
        "time_raw": raw,
    }


def _info(root: Properties, tree: GameTree) -> Row:
    app = " ".join(root.get("AP", [])).strip()
    komi_raw = _first(root, "KM") or _first(root, "KO")
    return {
        "handicap": parse_handicap(_first(root, "HA"), board_size=parse_board_size(_first(root, "SZ"))),
        "komi": parse_komi(komi_raw, fox="fox" in app.lower()),
        "komi_raw": komi_raw,
        "event": parse_event(_first(root, "EV"), _first(root, "GN"), _first(root, "TE")),
        "round": parse_round(_first(root, "RO"), tree.moves),
        "game_type": parse_game_type(_first(root, "GM")),
        "board_size": parse_board_size(_first(root, "SZ")),
        "moves": tree.moves,
        "move_signature": tree.signature,
        "implicit_root": tree.implicit_root,
        "place": _first(root, "PC"),
        "application": app or None,
    }
