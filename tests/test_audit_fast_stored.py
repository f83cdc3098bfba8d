"""tables.stored works out the pandas metadata of a schema once: a run stores every period's games table
under the same schema (issue 11)."""

from __future__ import annotations

import uuid

import pyarrow as pa
import pytest

import pipeline.core.tables as tables


def test_storing_tables_of_one_schema_again_works_out_no_dtype(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = tables.pandas_dtype

    def counting(field: pa.Field) -> str:
        calls.append(field.name)
        return real(field)

    monkeypatch.setattr(tables, "pandas_dtype", counting)
    schema = pa.schema([pa.field(f"n-{uuid.uuid4().hex}", pa.int32()), pa.field("s", pa.string())])
    first = tables.stored(
        "ratings", pa.Table.from_arrays([pa.array([1], pa.int32()), pa.array(["x"])], schema=schema)
    )
    worked_out = len(calls)
    second = tables.stored(
        "ratings",
        pa.Table.from_arrays([pa.array([2], pa.int32()), pa.array([None], pa.string())], schema=schema),
    )
    assert worked_out == 2 and len(calls) == worked_out
    assert second.schema.metadata == first.schema.metadata
