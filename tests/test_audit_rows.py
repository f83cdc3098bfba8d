"""The audit's changes held by column (:mod:`pipeline.reports.audit_rows`) give the lists of dicts the
row-by-row code gave: the changes of the counted games, Black's first, missing values None."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.reports.audit_query import error_kinds
from pipeline.reports.audit_rows import CHANGE_KEYS, AuditRows, game_changes


def _old_records(changes: pd.DataFrame, games: pd.DataFrame) -> list[list[dict[str, Any]]]:
    """The changes of each row of ``games`` as the audit made them before (a dict per change)."""
    counted = set(games.loc[games["counted"].astype(bool), "game_id"])
    found: dict[str, list[dict[str, Any]]] = {}
    chosen = changes[changes["game_id"].isin(counted)].sort_values(["game_id", "color"], kind="stable")
    for row in chosen[["game_id", *CHANGE_KEYS]].to_dict("records"):
        found.setdefault(str(row["game_id"]), []).append(
            {k: None if _missing(row[k]) else row[k] for k in CHANGE_KEYS}
        )
    return [found.get(g, []) for g in games["game_id"]]


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _table(frame: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(frame, preserve_index=False)


def _changes(rows: list[tuple[str, str, str, float, float | None, float | None, str | None]]) -> pd.DataFrame:
    frame = pd.DataFrame(
        rows, columns=["game_id", "player", "color", "delta", "points", "bonus", "bonus_rule"]
    )
    return frame.astype({"delta": float, "points": float, "bonus": float})


_CHANGE = st.tuples(
    st.sampled_from(["g1", "g2", "g3", "g4"]),
    st.sampled_from(["羽焰", "凝兰", "ann", "bo"]),
    st.sampled_from(["B", "W"]),
    st.floats(-50, 50, allow_nan=False).map(lambda v: round(v * 4) / 4),
    st.one_of(st.none(), st.floats(0, 5, allow_nan=False)),
    st.one_of(st.none(), st.just(0.0), st.floats(1, 10, allow_nan=False)),
    st.one_of(st.none(), st.sampled_from(["team_win", "event_win"])),
)


@settings(max_examples=80, deadline=None)
@given(
    changes=st.lists(_CHANGE, max_size=12),
    ids=st.lists(st.sampled_from(["g1", "g2", "g3", "g4", "g5"]), max_size=6),
    counted=st.lists(st.booleans(), min_size=6, max_size=6),
)
def test_the_columnar_changes_are_the_dicts_the_row_by_row_code_gave(
    changes: list[Any], ids: list[str], counted: list[bool]
) -> None:
    games = pd.DataFrame({"game_id": ids, "counted": counted[: len(ids)]}, dtype=object)
    found = game_changes(_table(_changes(changes)), _table(games)).records()
    assert repr(found) == repr(_old_records(_changes(changes), games))


def test_a_missing_points_or_bonus_is_none_in_the_dicts() -> None:
    changes = _changes([("g1", "a", "W", 1.0, None, None, None), ("g1", "b", "B", -1.0, 2.0, np.nan, "x")])
    found = game_changes(
        _table(changes), _table(pd.DataFrame({"game_id": ["g1"], "counted": [True]}))
    ).records()
    assert found == [
        [
            {"player": "b", "color": "B", "delta": -1.0, "points": 2.0, "bonus": None, "bonus_rule": "x"},
            {"player": "a", "color": "W", "delta": 1.0, "points": None, "bonus": None, "bonus_rule": None},
        ]
    ]


def test_a_game_not_counted_has_no_changes_though_the_table_has_rows_of_it() -> None:
    changes = _changes([("g1", "a", "B", 1.0, 1.0, None, None)])
    found = game_changes(
        _table(changes), _table(pd.DataFrame({"game_id": ["g1", "g2"], "counted": [False, True]}))
    )
    assert found.records() == [[], []]
    assert found.offsets.tolist() == [0, 0, 0]


def test_the_audit_frame_has_the_changes_column_before_source_path() -> None:
    games = pd.DataFrame({"game_id": ["g1"], "counted": [True], "source_path": ["a.sgf"], "game_index": [0]})
    changes = _changes([("g1", "a", "B", 1.0, 1.0, None, None)])
    frame = AuditRows(_table(games), game_changes(_table(changes), _table(games))).frame()
    assert list(frame.columns) == ["game_id", "counted", "changes", "source_path", "game_index"]
    assert frame["changes"].dtype == object


def test_error_kinds_are_those_of_the_unreadable_records_across_row_groups(tmp_path: Path) -> None:
    seq = list(range(40))
    table = pa.table(
        {
            "seq": seq,
            "game_id": [f"g{s}" for s in seq],
            "error_kind": [("truncated" if s % 2 else "empty") if s % 3 == 0 else None for s in seq],
        }
    )
    pq.write_table(table, tmp_path / "games.parquet", row_group_size=7)
    games = pa.table(
        {
            "seq": [3, 6, 10, 33, 39],
            "game_id": ["g3", "g6", "g10", "g33", "g39"],
            "parse_error": ["bad", "bad", None, "bad", "bad"],
        }
    )
    assert error_kinds(tmp_path, games) == {
        "g3": "truncated",
        "g6": "empty",
        "g33": "truncated",
        "g39": "truncated",
    }
    assert error_kinds(tmp_path, games.set_column(2, "parse_error", pa.nulls(5, pa.string()))) == {}
