"""spill: a period's prepared rows go to disk and come back equal, under any label."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from pipeline.output.spill import PeriodFiles

ROWS = pa.table(
    {
        "game_id": ["a", None, "c"],
        "seq": pa.array([1, 2, None], pa.int64()),
        "resets": pa.array([["ann"], [], None], pa.list_(pa.string())),
    }
)


def test_a_table_comes_back_equal(tmp_path: Path) -> None:
    store = PeriodFiles(tmp_path)
    store["2024-05"] = ROWS
    assert store["2024-05"].equals(ROWS)


def test_a_label_that_is_no_file_name_is_kept(tmp_path: Path) -> None:
    store = PeriodFiles(tmp_path)
    store["2024/H1 ../x"] = ROWS
    assert list(store) == ["2024/H1 ../x"]
    assert [p.parent for p in tmp_path.iterdir()] == [tmp_path]


def test_a_table_read_back_outlives_its_file(tmp_path: Path) -> None:
    store = PeriodFiles(tmp_path)
    store["2024-05"] = ROWS
    rows = store["2024-05"]
    del store["2024-05"]
    assert not list(tmp_path.iterdir())
    assert rows.equals(ROWS)
