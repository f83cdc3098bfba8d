"""The audit table's cells and the CSV's points made a column at a time (:mod:`pipeline.cli.audit_cells`)
are the texts the row-by-row code gave (kept here as the reference), in every language."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cli import audit_cells
from pipeline.cli.common import ERROR_KINDS, reason_word, speed_word, worded
from pipeline.cli.tables import cell_text, yes_no
from pipeline.core import i18n
from pipeline.core.i18n import _
from pipeline.reports.audit_rows import AuditRows, game_changes
from pipeline.reports.numbers import NumberFormat
from pipeline.reports.rule_words import bonus_words

LANGUAGES = ("en", "zh_Hans", "zh_Hant")
FORMATS = (NumberFormat(2), NumberFormat(2, trim=True), NumberFormat(0))


def _old_points(change: dict[str, Any], written: NumberFormat, bonus: bool = True) -> str:
    text = f"{change['player']} {written.delta(float(change['delta']))}"
    if change["bonus"] and bonus:
        text += f" ({written.delta(float(change['bonus']))} {bonus_words(change['bonus_rule'])})"
    return text


def _old_cells(game: Mapping[str, Any], written: NumberFormat, kinds: Mapping[str, str]) -> list[str]:
    """The cells of one row as ``_audit_cells`` made them."""
    speed = ""
    if isinstance(game["speed"], str):
        word = speed_word(game["speed"])
        speed = word if game["speed_known"] else _("{speed} (assumed)").format(speed=word)
    event = ""
    if isinstance(game["event"], str):
        stage = f" / {worded(game['stage'], audit_cells.STAGES)}" if isinstance(game["stage"], str) else ""
        event = (
            f"{game['event']}{stage}"
            if game["event_listed"]
            else _("{event} (not an event of the run)").format(event=f"{game['event']}{stage}")
        )
    lines = [reason_word(r) for r in game["reasons"]]
    if isinstance(game["parse_error"], str):
        error, kind = game["parse_error"], kinds.get(str(game["game_id"]))
        if i18n.current() != i18n.ENGLISH:
            error = worded(kind, ERROR_KINDS) if kind else ""
        lines = [
            _("{reason}: {error} ({source})").format(
                reason=reason_word("parse_error"), error=error, source=game["source"]
            )
        ]
    lines += [_("note: ") + reason_word(n) for n in game["notes"]]
    return [
        cell_text(game["date"]),
        str(game["game_id"])[:8],
        cell_text(game["period"]),
        cell_text(game["black"]),
        cell_text(game["white"]),
        cell_text(game["result"]),
        speed,
        event,
        yes_no(bool(game["counted"])),
        "\n".join(lines),
        "\n".join(_old_points(c, written) for c in game["changes"]),
        cell_text(game["source"]),
    ]


_GAME_ROW = {
    "date": dt.date(2020, 5, 1),
    "black": "羽焰",
    "white": "bo",
    "result": "B+R",
    "speed": "fast",
    "speed_known": True,
    "event": None,
    "event_listed": False,
    "stage": None,
    "counted": True,
    "reasons": [],
    "notes": [],
    "parse_error": None,
    "game_index": 0,
}

_NAME = st.one_of(st.none(), st.sampled_from(["羽焰", "凝兰", "ann lee", "bo"]))
_GAME = st.fixed_dictionaries(
    {
        "date": st.one_of(st.none(), st.dates(dt.date(2020, 1, 1), dt.date(2020, 12, 31))),
        "black": _NAME,
        "white": _NAME,
        "result": st.one_of(st.none(), st.sampled_from(["B+R", "W+0.5"])),
        "speed": st.one_of(st.none(), st.sampled_from(["fast", "slow"])),
        "speed_known": st.booleans(),
        "event": st.one_of(st.none(), st.sampled_from(["名人战", "Spring Cup"])),
        "event_listed": st.booleans(),
        "stage": st.one_of(st.none(), st.sampled_from(["qualifier", "main", "final"])),
        "counted": st.booleans(),
        "reasons": st.lists(st.sampled_from(["draw", "handicap", "opponent_cap"]), max_size=2),
        "notes": st.lists(st.sampled_from(["speed_unknown", "handicap"]), max_size=2),
        "parse_error": st.one_of(st.none(), st.just("truncated: 1 game tree(s) not closed")),
        "game_index": st.integers(0, 2),
    }
)
_CHANGE = st.tuples(
    st.sampled_from(["羽焰", "凝兰", "bo"]),
    st.sampled_from(["B", "W"]),
    st.sampled_from([0.0, -0.0, 0.25, -0.25, 5.0, -5.0, 1.333, -12.5]),
    st.one_of(st.none(), st.sampled_from([0.0, 2.5, 10.0])),
    st.one_of(st.none(), st.sampled_from(["team_win", "event_win"])),
)


def _rows(games: list[dict[str, Any]], changes: list[list[Any]]) -> AuditRows:
    n = len(games)
    frame = pd.DataFrame(games, columns=list(_GAME_ROW) if not games else None)
    frame.insert(0, "game_id", [f"{k:016x}" for k in range(n)])
    frame["period"] = [d.strftime("%Y-%m") if d else None for d in frame["date"]]
    frame["source_path"] = [f"2020/{k}.sgf" for k in range(n)]
    frame["source"] = [
        p if i == 0 else f"{p}#{i}" for p, i in zip(frame["source_path"], frame["game_index"], strict=True)
    ]
    frame["counted"] = frame["counted"].astype(bool)
    rows = [
        (f"{k:016x}", player, color, delta, 1.0, bonus, rule)
        for k, made in enumerate(changes[:n])
        for player, color, delta, bonus, rule in made
    ]
    table = pd.DataFrame(
        rows, columns=["game_id", "player", "color", "delta", "points", "bonus", "bonus_rule"]
    )
    table = table.astype({"delta": float, "points": float, "bonus": float})
    games_table = pa.Table.from_pandas(frame, preserve_index=False)
    return AuditRows(
        games_table, game_changes(pa.Table.from_pandas(table, preserve_index=False), games_table)
    )


@settings(max_examples=40, deadline=None)
@given(
    games=st.lists(_GAME, max_size=6),
    changes=st.lists(st.lists(_CHANGE, max_size=3), min_size=6, max_size=6),
    language=st.sampled_from(LANGUAGES),
    written=st.sampled_from(FORMATS),
)
def test_the_columnar_cells_are_the_cells_made_a_row_at_a_time(
    games: list[dict[str, Any]], changes: list[list[Any]], language: str, written: NumberFormat
) -> None:
    rows = _rows(games, changes)
    kinds = {str(g): "truncated" for g in rows.games.column("game_id").to_pylist()}
    frame = rows.frame()
    with i18n.speaking(language):
        found = audit_cells.audit_cells(rows, written, kinds)
        expected = [_old_cells(g, written, kinds) for g in frame.to_dict("records")]
    assert found == expected


@pytest.mark.parametrize("written", FORMATS)
def test_the_csv_points_are_each_games_changes_joined_by_semicolons(written: NumberFormat) -> None:
    changes = [
        [("羽焰", "B", 5.0, 10.0, "team_win"), ("bo", "W", -5.0, None, None)],
        [],
        [("凝兰", "W", 0.25, 2.5, None)],
    ]
    rows = _rows([{**_GAME_ROW, "counted": True}] * 3, changes)
    texts = audit_cells.change_texts(rows.changes.table, written)
    found = audit_cells.points_texts(rows.changes, texts, ";")
    expected = [";".join(_old_points(c, written) for c in made) for made in rows.frame()["changes"]]
    assert found == expected
    assert found[1] == ""


def test_a_games_changes_in_json_are_the_dicts_json_dumps_writes() -> None:
    import json

    changes = [[("羽焰", "B", 5.0, 10.0, "team_win"), ("bo", "W", -5.0, None, None)], []]
    rows = _rows([{**_GAME_ROW, "counted": True}] * 2, changes)
    found = audit_cells.changes_json(rows.changes)
    expected = [
        json.dumps({"c": made}, ensure_ascii=False, indent=1)[8:-2] for made in rows.frame()["changes"]
    ]
    assert found == expected


@settings(max_examples=40, deadline=None)
@given(changes=st.lists(st.lists(_CHANGE, max_size=3), min_size=3, max_size=3))
def test_each_games_changes_in_json_are_what_json_dumps_writes(changes: list[list[Any]]) -> None:
    import json

    rows = _rows([{**_GAME_ROW, "counted": True}] * 3, changes)
    expected = [
        json.dumps({"c": made}, ensure_ascii=False, indent=1)[8:-2] for made in rows.frame()["changes"]
    ]
    assert audit_cells.changes_json(rows.changes) == expected
