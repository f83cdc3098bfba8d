"""numpy arrays as Arrow arrays and back through their buffers (:mod:`pipeline.core.buffers`) equal what
pyarrow's own conversions give, and make no pandas import (what they are for)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from pipeline.core import buffers

_KINDS = [np.int8, np.int32, np.int64, np.uint16, np.float32, np.float64]


@given(values=st.sampled_from(_KINDS).flatmap(lambda kind: hnp.arrays(kind, st.integers(0, 40))))
def test_numbers_are_the_array_pa_array_makes(values: np.ndarray) -> None:
    made = buffers.numbers(values)
    assert made.type == pa.array(values).type
    np.testing.assert_array_equal(made.to_numpy(), values)  # (NaN equal to NaN)


@given(values=hnp.arrays(np.int64, st.integers(0, 40)), step=st.integers(1, 3))
def test_numbers_of_a_strided_view_are_its_values(values: np.ndarray, step: int) -> None:
    assert buffers.numbers(values[::step]).to_pylist() == values[::step].tolist()


@given(values=hnp.arrays(np.bool_, st.integers(0, 70)))
def test_flags_are_the_array_pa_array_makes(values: np.ndarray) -> None:
    assert buffers.flags(values).equals(pa.array(values))


@given(
    values=st.lists(st.one_of(st.none(), st.integers(-(2**40), 2**40)), max_size=40),
    start=st.integers(0, 5),
)
def test_numpy_of_a_slice_with_nulls_is_what_to_numpy_gives(values: list[int | None], start: int) -> None:
    column = pa.array(values, pa.int64()).slice(start)
    expected = column.to_numpy(zero_copy_only=False)
    np.testing.assert_array_equal(buffers.numpy_of(column), expected)


@given(values=st.lists(st.booleans(), max_size=70), start=st.integers(0, 9))
def test_numpy_of_booleans_is_what_to_numpy_gives(values: list[bool], start: int) -> None:
    column = pa.chunked_array([pa.array(values, pa.bool_()).slice(start)], pa.bool_())
    np.testing.assert_array_equal(buffers.numpy_of(column), column.to_numpy())


def test_numpy_of_booleans_with_nulls_is_refused() -> None:
    with pytest.raises(ValueError, match="1 nulls"):
        buffers.numpy_of(pa.array([True, None]))


def test_a_type_numpy_does_not_share_is_named() -> None:
    with pytest.raises(TypeError, match="string"):
        buffers.numpy_of(pa.array(["a"]))
    with pytest.raises(TypeError, match="object"):
        buffers.numbers(np.array(["a"], dtype=object))


def test_the_conversions_import_no_pandas() -> None:
    code = (
        "import sys; import numpy as np; from pipeline.core import buffers; "
        "a = buffers.numbers(np.arange(4)); f = buffers.flags(np.ones(3, bool)); "
        "buffers.numpy_of(a); buffers.numpy_of(f); buffers.empty(__import__('pyarrow').schema([])); "
        "print('pandas' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "False"), done.stderr


def test_an_empty_table_is_the_one_the_schema_makes() -> None:
    schema = pa.schema(
        [
            pa.field("name", pa.dictionary(pa.int32(), pa.string())),
            pa.field("codes", pa.list_(pa.string())),
            pa.field("day", pa.timestamp("ms")),
        ]
    )
    assert buffers.empty(schema).equals(schema.empty_table())
