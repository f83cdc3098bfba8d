"""cli.audit_cells: the ``ratings audit`` table's cells and its CSV's points, a column at a time.

The audit of the most active player of a large club has thousands of rows: each cell made by a call per
row and the points by a dict per change took seconds. Here each column is made whole: texts that
depend on one value or a few (a speed, an event and its stage, a number as the rule set writes it, a
bonus) are made once per distinct value and looked up; the points of every change are joined by
Arrow (:func:`change_texts`, :func:`points_texts`), a game's from the changes table of
:class:`~pipeline.reports.audit_rows.AuditRows`; only the games with reasons, notes or a parse error
get a call each. The texts are those one row at a time gave (``tests/test_audit_cells.py``).

Imported by :func:`pipeline.cli.reports.audit_command` when it runs (it imports pyarrow); the table's
cells, CSV and JSON import no pandas (:func:`audit_columns`; JSON written by :mod:`pipeline.cli.row_text`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.cli.common import ERROR_KINDS, reason_word, speed_word, worded
from pipeline.cli.tables import yes_no
from pipeline.core import arrays, buffers, i18n, strings
from pipeline.core.i18n import N_, _
from pipeline.reports.audit_rows import AFTER_CHANGES, CHANGES, AuditRows, GameChanges
from pipeline.reports.numbers import NumberFormat
from pipeline.reports.rule_words import bonus_words

if TYPE_CHECKING:
    from pipeline.cli.row_text import JsonText

#: An event's stages (:meth:`pipeline.config.events.Events.stage`) as a person reads them.
STAGES = {"qualifier": N_("qualifier"), "main": N_("main stage")}
_SHORT_ID = 8  # hex digits of a game id in the table (csv and json have all 16)


def change_texts(changes: pa.Table, written: NumberFormat, bonus: bool = True) -> pa.Array:
    """Each change of ``changes`` (a :class:`~pipeline.reports.audit_rows.GameChanges` table) as the
    audit writes it: ``羽焰 +30``, with a bonus (when ``bonus``) ``羽焰 +30 (+10 team match win)``;
    numbers as the rule set writes them (``written``)."""
    deltas = _numbers(changes.column("delta"))
    text = pc.binary_join_element_wise(
        changes.column("player").cast(pa.string()), _each(deltas, written.delta), strings.text(" ")
    )
    if not bonus or not len(changes):
        return arrays.array(text)
    bonuses = _numbers(changes.column("bonus"))
    rules = changes.column("bonus_rule").to_pylist()
    given = np.flatnonzero(np.nan_to_num(bonuses, nan=0.0) != 0)
    tails: list[str] = [""] * len(changes)
    said: dict[tuple[float, Any], str] = {}
    for k in given.tolist():
        key = (float(bonuses[k]), rules[k])
        if key not in said:
            said[key] = f" ({written.delta(key[0])} {bonus_words(key[1])})"
        tails[k] = said[key]
    return arrays.array(pc.binary_join_element_wise(text, strings.texts(tails), strings.text("")))


def points_texts(changes: GameChanges, texts: pa.Array, separator: str) -> list[str]:
    """Each game's ``texts`` (one per change: :func:`change_texts`) joined by ``separator``, a text
    per game (empty for a game without changes)."""
    joined = pc.binary_join(changes.grouped(texts), strings.text(separator))
    return [t or "" for t in joined.to_pylist()]


def changes_json(changes: GameChanges) -> list[JsonText]:
    """Each game's changes (:meth:`~pipeline.reports.audit_rows.GameChanges.records`) as
    :func:`~pipeline.cli.row_text.json_value` writes that list in a row (level 1), made a column at
    a time: each value's text once per distinct value, the dicts and lists joined by Arrow."""
    from pipeline.cli.row_text import JsonText, json_value

    table = changes.table
    if not len(table):
        return [JsonText("[]")] * (len(changes.offsets) - 1)
    fields = [strings.texts(_json_texts(table.column(k).to_pylist())) for k in table.column_names]
    keyed = [
        pc.binary_join_element_wise(strings.text(json_value(k) + ": "), f, strings.text(""))
        for k, f in zip(table.column_names, fields, strict=True)
    ]
    dicts = pc.binary_join_element_wise(*keyed, strings.text(",\n   "))
    lists = pc.binary_join(changes.grouped(dicts), strings.text("\n  },\n  {\n   "))
    return [JsonText("[\n  {\n   " + t + "\n  }\n ]" if t else "[]") for t in lists.to_pylist()]


def audit_columns(rows: AuditRows, written: NumberFormat, as_json: bool) -> tuple[list[str], list[list[Any]]]:
    """The audit's columns for csv or json, each value as a row's dict holds it (days as ISO text):
    every column (the record's ``source_path`` and ``game_index`` last); for csv the changes as a
    ``points`` text (``羽焰 +1;凝兰 -1``) after them, for json as the JSON text of their dicts
    (:func:`changes_json`) before ``source_path``. Their names, and the columns."""
    games = rows.games
    names = list(games.column_names)
    columns = [_plain(games.column(name)) for name in names]
    if as_json:
        at = names.index(AFTER_CHANGES)
        return [*names[:at], CHANGES, *names[at:]], [
            *columns[:at],
            list(changes_json(rows.changes)),
            *columns[at:],
        ]
    texts = change_texts(rows.changes.table, written)
    return [*names, "points"], [*columns, points_texts(rows.changes, texts, ";")]


def _plain(column: pa.ChunkedArray) -> list[Any]:
    """A column's values as Python's (days as ISO text)."""
    values: list[Any] = column.to_pylist()
    if pa.types.is_date(column.type):
        return [None if v is None else v.isoformat() for v in values]
    return values


def audit_cells(
    rows: AuditRows, written: NumberFormat, kinds: Mapping[str, str] | None = None
) -> list[list[str]]:
    """The texts of :data:`pipeline.cli.reports.AUDIT_TABLE` for each row of ``rows``: the date, the
    game id's first digits, the period, the players, the result, the speed (``(assumed)``), the event
    and stage (``(not an event of the run)``), counted or not, the reasons (:func:`reasons_text`;
    ``kinds`` the unreadable records' error kinds by game id), the points (a line per change) and
    the record's source."""
    games = rows.games
    points = points_texts(rows.changes, change_texts(rows.changes.table, written), "\n")

    def values(name: str) -> list[Any]:
        found: list[Any] = games.column(name).to_pylist()
        return found

    columns = [
        _texts(values("date")),
        [str(g)[:_SHORT_ID] for g in values("game_id")],
        _texts(values("period")),
        _texts(values("black")),
        _texts(values("white")),
        _texts(values("result")),
        _looked_up(speed_text, values("speed"), values("speed_known")),
        _looked_up(event_text, values("event"), values("stage"), values("event_listed")),
        _looked_up(lambda c: yes_no(bool(c)), values("counted")),
        _reasons_column(games, kinds or {}),
        points,
        _texts(values("source")),
    ]
    return [list(r) for r in zip(*columns, strict=True)]


def speed_text(speed: Any, known: Any) -> str:
    """The speed class used (``fast``, ``slow``) in the language spoken, ``(assumed)`` when the
    record did not say (not ``known``); empty for none."""
    if not isinstance(speed, str):
        return ""
    word = speed_word(speed)
    return word if known else _("{speed} (assumed)").format(speed=word)


def event_text(event: Any, stage: Any, listed: Any) -> str:
    """The event with its stage (``名人战 / main stage``), ``(not an event of the run)`` when it is
    not ``listed``; empty for none."""
    if not isinstance(event, str):
        return ""
    staged = f" / {worded(stage, STAGES)}" if isinstance(stage, str) else ""
    if listed:
        return f"{event}{staged}"
    return _("{event} (not an event of the run)").format(event=f"{event}{staged}")


def reasons_text(
    reasons: Iterable[str], notes: Iterable[str], error: Any, source: Any, kind: str | None = None
) -> str:
    """The reasons of a game (codes in English, phrases in another language), the parser's ``error``
    (in English its message, in another language what ``kind`` of error it was) with the record's
    ``source``, and the notes, a line each."""
    lines = [reason_word(r) for r in reasons]
    if isinstance(error, str):
        if i18n.current() != i18n.ENGLISH:
            error = worded(kind, ERROR_KINDS) if kind else ""
        lines = [
            _("{reason}: {error} ({source})").format(
                reason=reason_word("parse_error"), error=error, source=source
            )
        ]
    lines += [_("note: ") + reason_word(n) for n in notes]
    return "\n".join(lines)


def _reasons_column(games: pa.Table, kinds: Mapping[str, str]) -> list[str]:
    """:func:`reasons_text` of each game (audit rows): a call for the games with reasons, notes or a
    parse error, nothing for the rest."""
    reasons, notes = games.column("reasons").to_pylist(), games.column("notes").to_pylist()
    errors = games.column("parse_error").to_pylist()
    found = [""] * games.num_rows
    said = [k for k in range(games.num_rows) if reasons[k] or notes[k] or errors[k] is not None]
    if said:
        ids, sources = games.column("game_id").to_pylist(), games.column("source").to_pylist()
        for k in said:
            kind = kinds.get(str(ids[k]))
            found[k] = reasons_text(reasons[k], notes[k], errors[k], sources[k], kind)
    return found


def _texts(values: list[Any]) -> list[str]:
    """Each of a column's ``values`` (texts or dates) as :func:`~pipeline.cli.tables.cell_text` writes
    it: missing values blank."""
    return ["" if v is None else str(v) for v in values]


def _json_texts(values: list[Any]) -> list[str]:
    """:func:`~pipeline.cli.row_text.json_value` of each of a column's ``values`` (None, numbers or
    texts of one type), made once per distinct value (``0.0`` and ``-0.0`` apart)."""
    from pipeline.cli.row_text import json_value

    said: dict[Any, str] = {}
    found = []
    for value in values:
        key = (value, math.copysign(1.0, value)) if isinstance(value, float) else value
        text = said.get(key)
        if text is None:
            text = said[key] = json_value(value)
        found.append(text)
    return found


def _looked_up(text: Callable[..., str], *columns: list[Any]) -> list[str]:
    """``text`` of each row's values in ``columns``, made once per distinct values (those that cannot
    be looked up, each time): for values that equal ones are written alike (texts, booleans, None;
    not ``0.0`` and ``-0.0``, nor ``1`` and ``True``)."""
    said: dict[tuple[Hashable, ...], str] = {}
    found = []
    for values in zip(*columns, strict=True):
        try:
            found.append(said[values])
        except KeyError:
            found.append(said.setdefault(values, text(*values)))
        except TypeError:  # (an unhashable value)
            found.append(text(*values))
    return found


def _numbers(column: pa.ChunkedArray | pa.Array) -> np.ndarray[Any, np.dtype[np.float64]]:
    """A numeric column's values as floats, missing ones NaN."""
    return np.asarray(buffers.numpy_of(pc.cast(column, pa.float64())), dtype=np.float64)


def _each(values: np.ndarray[Any, np.dtype[np.float64]], text: Callable[[float], str]) -> pa.Array:
    """``text`` of each of ``values``, made once per distinct value."""
    if not len(values):
        return strings.texts([])
    distinct, where = np.unique(values, return_inverse=True)
    said = np.array([text(float(v)) for v in distinct.tolist()], dtype=object)
    return strings.texts(said[where.reshape(-1)].tolist())
