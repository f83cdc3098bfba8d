"""record: one file's bytes -> one typed row per game tree (the ingest row of ``games.parquet``).

Ties decode, the grammar and the normalisers together for one file, and turns every failure into
a row: a file that holds no game (empty, binary, not SGF, unreadable) gives one row whose
``parse_error`` says why and whose ``error_kind`` is a short code for counting.

Knows nothing of folders, caches, workers or ratings; does not decide the speed class (that
depends on the run's configured threshold: see :mod:`pipeline.ingest`).
"""

from __future__ import annotations

import datetime
import functools
import hashlib
from collections.abc import Mapping
from typing import Any

from pipeline.core.ranks import Rank, read_rank, split_name_rank
from pipeline.core.text import repair_mojibake
from pipeline.ingest.decode import Decoded, decode, utf16_codec
from pipeline.ingest.normalise.dates import GameDate, not_after, parse_date
from pipeline.ingest.normalise.gameinfo import (
    handicap_how,
    parse_board_size,
    parse_event,
    parse_game_type,
    parse_handicap,
    parse_komi,
    parse_round,
)
from pipeline.ingest.normalise.result import parse_result
from pipeline.ingest.normalise.stones import stones_handicap
from pipeline.ingest.normalise.timecontrol import parse_time_control
from pipeline.ingest.sgfprops import Properties
from pipeline.ingest.sgftext import GameTree, SgfSyntaxError, read_collection

Row = dict[str, Any]
#: The longest property value read as a name, rank, result, date, setting or event (1,024 characters):
#: a longer one is no such thing, and read it would be multiplied into every table (a name into every
#: change row) and held by the normalisers' caches. The row's ``warning`` names such properties.
MAX_VALUE_CHARS = 1024
Columns = Mapping[str, Any]
_TIME_PROPS = ("TM", "OT", "TC", "TT", "LT", "LC")
_CONTROLS = bytes(c for c in range(32) if c not in b"\t\n\r\x0c")
#: Files modified before this (nanoseconds since the epoch: 1987-01-01, before SGF) have no modification
#: time to judge a date by: a clock never set, an archive tool that wrote none.
SGF_EPOCH_NS = 536_457_600 * 10**9
_DAY_NS = 86_400 * 10**9
_EPOCH = datetime.date(1970, 1, 1)


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
    """The row of one game tree: identity, encoding, players, result, date, time, game info.

    One dict display of the column groups (each a cached dict, merged at C speed: see below)."""
    truncated = tree.error is not None and tree.error.startswith("truncated")
    first, oversized = _first_values(tree.root)
    get = first.get
    dt, rd = get("DT") or None, get("RD") or None
    dates, date_note = _date_columns(dt, rd)
    if dates["date_precision"] != "day" and (dt or rd):  # the event may choose a corrupt year's reading
        event = _event_text(first)
        if event:
            dates, date_note = _date_columns(dt, rd, event)
    return {
        "game_id": game_id(source_path, tree.index),
        "source_path": source_path,
        "game_index": tree.index,
        "parse_error": tree.error if truncated else None,
        "error_kind": "truncated" if truncated else None,
        "warning": _warning(tree, decoded, truncated, oversized, date_note),
        **_encoding_columns(decoded),
        **_player_columns("black", get("PB") or None, get("BR") or None),
        **_player_columns("white", get("PW") or None, get("WR") or None),
        **_result_columns(get("RE") or None),
        **dates,
        **_time(first),
        **_info(first, tree),
    }


def dated_before(rows: list[Row], mtime_ns: int) -> list[Row]:
    """``rows`` (of one file), each date after the file's modification time ``mtime_ns`` not believed
    (:func:`~pipeline.ingest.normalise.dates.not_after`: one day's grace for time zones); the row's
    ``warning`` says so. A time before :data:`SGF_EPOCH_NS` (or -1, none) judges no date."""
    if mtime_ns < SGF_EPOCH_NS:
        return rows
    last_day = _last_day(mtime_ns // _DAY_NS)
    for row in rows:
        date = row.get("date")
        if date is not None and date > last_day:
            found = not_after(GameDate(date, row["date_precision"], None), last_day)
            row.update(_columns_of(found, row["date_raw"]))
            row["warning"] = "; ".join(filter(None, (row["warning"], found.note)))
    return rows


@functools.lru_cache(maxsize=1024)
def _last_day(days: int) -> datetime.date:
    """The last day believed of a file modified ``days`` days after 1970-01-01 (UTC): the next one."""
    return _EPOCH + datetime.timedelta(days=days + 1)


def _event_text(first: First) -> str | None:
    """The root's EV, GN and TE, as one text: where a corrupt year's readings are looked for."""
    return " ".join(filter(None, (first.get("EV"), first.get("GN"), first.get("TE")))) or None


#: A root's first values (:func:`_first_values`): identifier -> its first value, stripped; read with
#: ``.get(ident) or None``, so that a blank value reads as absent.
First = dict[str, str]


def _first_values(root: Properties) -> tuple[First, list[str]]:
    """The first value of each identifier of ``root``, stripped, except those longer than
    :data:`MAX_VALUE_CHARS` (no name, date or setting is that long), and the identifiers of those
    (:func:`_warning` names them). One pass over the root for every column of the row."""
    first = {ident: values[0].strip() for ident, values in root.items() if values}
    if max(map(len, first.values()), default=0) <= MAX_VALUE_CHARS:
        return first, []
    oversized = [ident for ident, value in first.items() if len(value) > MAX_VALUE_CHARS]
    return {ident: value for ident, value in first.items() if len(value) <= MAX_VALUE_CHARS}, oversized


def _looks_binary(data: bytes) -> bool:
    """More than 10% control bytes in the first KiB, and not UTF-16 (which has a NUL in every ASCII pair)."""
    head = data[:1024]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or utf16_codec(head) is not None:
        return False
    controls = len(head) - len(head.translate(None, _CONTROLS))
    return controls * 10 > len(head)


def _warning(
    tree: GameTree, decoded: Decoded, truncated: bool, oversized: list[str], date_note: str | None
) -> str | None:
    notes = [] if truncated or tree.error is None else [tree.error]
    if decoded.replaced:
        notes.append(f"{decoded.replaced} undecodable byte sequence(s) replaced by U+FFFD")
    if oversized:
        notes.append(f"values over {MAX_VALUE_CHARS} characters not read: {', '.join(oversized)}")
    if date_note:
        notes.append(date_note)
    return "; ".join(notes) or None


def _encoding_columns(decoded: Decoded | None) -> Row:
    if decoded is None:
        return {"encoding": None, "encoding_how": None, "encoding_declared": None}
    return {"encoding": decoded.encoding, "encoding_how": decoded.how, "encoding_declared": decoded.declared}


def _player(name: str | None, rank_raw: str | None) -> tuple[str | None, Rank | None]:
    rank = read_rank(rank_raw)
    if name is None:
        return None, rank
    bare, in_name = split_name_rank(name)
    return bare or name, rank or in_name


# The column groups below are cached on the raw strings (players, results, dates and time settings
# repeat across a server's records): each returns its columns as a dict, for row.update (a dict is
# merged at C speed). Those dicts are shared by every row that repeats the strings: never change one.
@functools.lru_cache(maxsize=65536)
def _player_columns(who: str, raw: str | None, raw_rank: str | None) -> Columns:
    name, rank = _player(repair_mojibake(raw) or raw if raw else None, raw_rank)
    return {
        who: name,
        f"{who}_raw": raw if raw != name else None,
        f"{who}_rank": str(rank) if rank else None,
        f"{who}_rank_uncertain": rank.uncertain if rank else None,
        f"{who}_rank_raw": raw_rank,
    }


@functools.lru_cache(maxsize=65536)
def _result_columns(raw: str | None) -> Columns:
    result = parse_result(raw)
    return {"result": raw, "winner": result.winner, "result_how": result.how, "margin": result.margin}


@functools.lru_cache(maxsize=65536)
def _date_columns(dt: str | None, rd: str | None, event: str | None = None) -> tuple[Columns, str | None]:
    """The date columns of the raw DT and RD (``event``: the root's EV, GN and TE, for a corrupt year),
    and the date's note for the row's warning (:func:`~pipeline.ingest.normalise.dates.parse_date`)."""
    found = parse_date(dt, rd, event)
    return _columns_of(found, dt if dt is not None else rd), found.note


def _columns_of(found: GameDate, raw: str | None) -> Columns:
    time_of_day = found.time.strftime("%H:%M:%S") if found.time else None
    return {
        "date": found.date,
        "date_precision": found.precision,
        "time_of_day": time_of_day,
        "date_raw": raw,
    }


def _time(first: First) -> Columns:
    return _time_columns(tuple([(p, v) for p in _TIME_PROPS if (v := first.get(p))]))


@functools.lru_cache(maxsize=65536)
def _time_columns(items: tuple[tuple[str, str], ...]) -> Columns:
    props = dict(items)
    tc = parse_time_control(props)
    raw = " ".join(f"{p}[{v}]" for p, v in props.items()) or None
    return {
        "main_time_s": tc.main_time_s,
        "byoyomi_s": tc.byoyomi_s,
        "byoyomi_periods": tc.byoyomi_periods,
        "time_raw": raw,
    }


def _info(first: First, tree: GameTree) -> Row:
    app = " ".join(tree.root.get("AP", [])).strip()[:MAX_VALUE_CHARS]
    komi_raw = first.get("KM") or first.get("KO") or None
    game_type_raw = first.get("GM") or None
    size_raw = first.get("SZ") or None
    handicap, how, komi, event, game_type, board_size = _game_values(
        first.get("HA") or None,
        size_raw,
        komi_raw,
        "fox" in app.lower(),
        (first.get("EV") or None, first.get("GN") or None, first.get("TE") or None),
        game_type_raw,
    )
    if handicap is None and "AB" in tree.root:
        handicap = _setup_handicap(tree, game_type_raw is None or game_type == 1, size_raw, board_size)
        how = "setup stones" if handicap is not None else None
    return {
        "handicap": handicap,
        "handicap_how": how,
        "komi": komi,
        "komi_raw": komi_raw,
        "event": event,
        "round": parse_round(first.get("RO") or None, tree.moves),
        "game_type": game_type,
        "game_type_raw": game_type_raw,
        "board_size": board_size,
        "moves": tree.moves,
        "move_signature": tree.signature,
        "implicit_root": tree.implicit_root,
        "place": first.get("PC") or None,
        "application": app or None,
    }


def _setup_handicap(tree: GameTree, go: bool, size_raw: str | None, board_size: int | None) -> int | None:
    """The handicap of the root's black setup stones (:mod:`~pipeline.ingest.normalise.stones`), for a
    record of Go (``go``) whose board size is read or absent, and whose root places no white stone."""
    if not go or "AW" in tree.root or (board_size is None and size_raw is not None):
        return None
    return stones_handicap(tuple(tree.root["AB"]), board_size, tree.first_colour)


@functools.lru_cache(maxsize=65536)
def _game_values(
    handicap: str | None,
    size: str | None,
    komi: str | None,
    fox: bool,
    event: tuple[str | None, str | None, str | None],
    game_type: str | None,
) -> tuple[int | None, str | None, float | None, str | None, int | None, int | None]:
    """(handicap, how it was written, komi, event, game type, board size) of the raw HA, SZ, KM (Fox's
    or not), (EV, GN, TE) and GM: one cache look-up for the game information that repeats across a
    server's records."""
    board_size = parse_board_size(size)
    stones = parse_handicap(handicap, board_size=board_size)
    return (
        stones,
        handicap_how(handicap) if handicap is not None and stones is not None else None,
        parse_komi(komi, fox=fox),
        parse_event(*event),
        parse_game_type(game_type),
        board_size,
    )
