"""Sorted Parquet files merged a row group at a time (pipeline/output/sorted_merge.py) give what a stable
sort of their rows concatenated gives, and the index writes them as it writes a sorted table
(pipeline/output/index_writer.py: ``write_rows`` and ``write_sorted``)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.output import index_writer, sorted_merge

ORDER = ("key", "seq")
KEYS = st.one_of(st.none(), st.sampled_from(["", "a", "b", "bb", "羽焰", "凝兰", "z"]))
ROWS = st.lists(st.tuples(KEYS, st.integers(0, 5), st.integers(-(2**63), 2**63 - 1)), max_size=40)


def _sorted_file(rows: list[tuple[str | None, int, int]], target: Path, row_group: int) -> pq.ParquetFile:
    table = pa.table(
        {
            "key": pa.array([r[0] for r in rows], pa.string()),
            "seq": pa.array([r[1] for r in rows], pa.int64()),
            "value": pa.array([r[2] for r in rows], pa.int64()),
        }
    )
    table = table.take(pc.sort_indices(table, sort_keys=[(c, "ascending") for c in ORDER]))
    pq.write_table(table, target, row_group_size=row_group)
    return pq.ParquetFile(target)


def _expected(files: list[pq.ParquetFile], order: tuple[str, ...], distinct: bool) -> pa.Table:
    whole = pa.concat_tables([f.read() for f in files])
    whole = whole.take(pc.sort_indices(whole, sort_keys=[(c, "ascending") for c in order]))
    if distinct:
        rows = whole.to_pylist()
        whole = pa.Table.from_pylist(
            [r for i, r in enumerate(rows) if i == 0 or r != rows[i - 1]], schema=whole.schema
        )
    return whole


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(ROWS, min_size=1, max_size=5), st.integers(1, 7))
def test_merged_files_are_their_rows_stably_sorted(
    parts: list[list[tuple[str | None, int, int]]], group: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        files = [_sorted_file(rows, Path(folder) / f"{i}.parquet", group) for i, rows in enumerate(parts)]
        found = list(sorted_merge.merged(files, ORDER))
        merged = pa.concat_tables(found) if found else files[0].schema_arrow.empty_table()
        assert merged.equals(_expected(files, ORDER, distinct=False))
        assert all(batch.num_rows for batch in found)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(ROWS, min_size=1, max_size=5), st.integers(1, 7))
def test_merged_distinct_rows_come_once(parts: list[list[tuple[str | None, int, int]]], group: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        rows = [[(key, seq, 0) for key, seq, _ in part] for part in parts]  # (whole rows repeat)
        files = [_sorted_file(r, Path(folder) / f"{i}.parquet", group) for i, r in enumerate(rows)]
        order = ("key", "seq", "value")
        found = list(sorted_merge.merged(files, order, distinct=True))
        merged = pa.concat_tables(found) if found else files[0].schema_arrow.empty_table()
        assert merged.equals(_expected(files, order, distinct=True))


def test_a_column_one_file_lacks_is_null_in_its_rows(tmp_path: Path) -> None:
    one = _sorted_file([("a", 1, 1), ("c", 1, 3)], tmp_path / "one.parquet", 4)
    pq.write_table(pa.table({"key": ["b"], "seq": pa.array([2], pa.int32())}), tmp_path / "other.parquet")
    files = [one, pq.ParquetFile(tmp_path / "other.parquet")]
    merged = pa.concat_tables(sorted_merge.merged(files, ORDER))
    assert merged.to_pylist() == [
        {"key": "a", "seq": 1, "value": 1},
        {"key": "b", "seq": 2, "value": None},
        {"key": "c", "seq": 1, "value": 3},
    ]
    assert merged.schema.field("seq").type == pa.int64()


def test_files_of_columns_no_table_holds_are_not_merged(tmp_path: Path) -> None:
    one = _sorted_file([("a", 1, 1)], tmp_path / "one.parquet", 4)
    pq.write_table(pa.table({"key": ["a"], "seq": ["one"]}), tmp_path / "other.parquet")
    with pytest.raises(ValueError, match="seq int64"):
        list(sorted_merge.merged([one, pq.ParquetFile(tmp_path / "other.parquet")], ORDER))


def test_the_index_writes_merged_rows_as_it_writes_them_sorted(tmp_path: Path) -> None:
    rows = [(f"p{i % 97:02d}", i, i * 7) for i in range(10_000)]
    halves = [rows[: len(rows) // 3], rows[len(rows) // 3 :]]
    files = [
        _sorted_file(half, tmp_path / f"{i}.parquet", index_writer.ROW_GROUP) for i, half in enumerate(halves)
    ]
    index_writer.write_rows(
        sorted_merge.merged(files, ORDER), files[0].schema_arrow, tmp_path / "merged.parquet"
    )
    whole = pa.concat_tables([f.read() for f in files])
    index_writer.write_sorted(whole, ORDER, tmp_path / "sorted.parquet")
    assert (tmp_path / "merged.parquet").read_bytes() == (tmp_path / "sorted.parquet").read_bytes()
