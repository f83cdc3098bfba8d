"""buffers: numpy arrays as Arrow arrays and back through their buffers, without importing pandas.

pyarrow (26) imports pandas the first time a process converts an object to Arrow (``pa.array`` of a
numpy array too, and ``Array.to_numpy``): it checks whether the object is a pandas one. A command that
answers about one player needs no pandas (docs/design.md, "Per-player commands without pandas"; text:
:mod:`pipeline.core.strings`). :func:`numbers` and :func:`flags` make the arrays ``pa.array`` makes of
a numpy array of numbers or booleans, from its bytes, and :func:`empty` a table without rows;
:func:`numpy_of` gives a numeric or boolean Arrow column's values as numpy does, nulls as NaN
(``tests/test_buffers.py``).

Knows nothing of what the numbers are.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

#: The numpy type of each Arrow number type :func:`numbers` and :func:`numpy_of` take.
_NUMPY = {
    pa.int8(): np.int8,
    pa.int16(): np.int16,
    pa.int32(): np.int32,
    pa.int64(): np.int64,
    pa.uint8(): np.uint8,
    pa.uint16(): np.uint16,
    pa.uint32(): np.uint32,
    pa.uint64(): np.uint64,
    pa.float32(): np.float32,
    pa.float64(): np.float64,
}
_ARROW = {np.dtype(kind): arrow for arrow, kind in _NUMPY.items()}


def numbers(values: np.ndarray[Any, Any], valid: np.ndarray[Any, Any] | None = None) -> pa.Array:
    """A one-dimensional numpy array of integers or floats as the Arrow array of its type (NaN stays a
    value), as ``pa.array(values)`` gives it; with ``valid`` (booleans), null where it is False, as
    ``pa.array(values, mask=~valid)`` gives it.

    Raises TypeError naming the type if it is not a number type Arrow shares with numpy."""
    kind = _ARROW.get(values.dtype)
    if kind is None:
        raise TypeError(f"no Arrow number type for numpy {values.dtype}")
    data = np.ascontiguousarray(values)
    bitmap = None if valid is None else pa.py_buffer(np.packbits(np.asarray(valid, bool), bitorder="little"))
    return pa.Array.from_buffers(kind, len(data), [bitmap, pa.py_buffer(data)])


def empty(schema: pa.Schema) -> pa.Table:
    """A table of ``schema`` without rows, as ``schema.empty_table()`` gives it (which imports pandas)."""
    return pa.Table.from_arrays([pa.nulls(0, field.type) for field in schema], schema=schema)


def flags(values: np.ndarray[Any, Any]) -> pa.BooleanArray:
    """A one-dimensional numpy array of booleans as an Arrow boolean array (no nulls)."""
    bits = np.packbits(np.asarray(values, dtype=bool), bitorder="little")
    made: pa.BooleanArray = pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])
    return made


def numpy_of(column: pa.Array | pa.ChunkedArray) -> np.ndarray[Any, Any]:
    """A numeric or boolean Arrow column's values as numpy's array of its type (a copy); a numeric one
    with nulls as floats with NaN for each null (as ``to_numpy(zero_copy_only=False)`` gives an integer
    column with nulls), a column of the null type as NaN.

    Raises TypeError naming the type if it is not a number type Arrow shares with numpy, ValueError if
    a boolean column has nulls."""
    if isinstance(column, pa.ChunkedArray) and column.num_chunks != 1:  # (combine_chunks of none: pandas)
        array = column.combine_chunks() if column.num_chunks else pa.nulls(0, column.type)
    else:
        array = column.chunk(0) if isinstance(column, pa.ChunkedArray) else column
    if pa.types.is_null(array.type):  # (a column of nulls only: a partition that is missing)
        return np.full(len(array), np.nan)
    if pa.types.is_boolean(array.type):
        if array.null_count:
            raise ValueError(f"a boolean column with {array.null_count} nulls has no numpy booleans")
        return _bits(array.buffers()[1], array.offset, len(array))
    kind = _NUMPY.get(array.type)
    if kind is None:
        raise TypeError(f"no numpy type for Arrow {array.type}")
    if not len(array):
        return np.empty(0, dtype=np.float64 if array.null_count else kind)
    validity, data = array.buffers()[:2]
    values = np.frombuffer(data, dtype=kind, count=len(array), offset=array.offset * np.dtype(kind).itemsize)
    if not array.null_count:
        return values.copy()
    return np.where(_bits(validity, array.offset, len(array)), values, np.nan)


def _bits(buffer: pa.Buffer | None, offset: int, length: int) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """The ``length`` bits of an Arrow bitmap from bit ``offset``, as booleans."""
    if buffer is None or not length:
        return np.zeros(length, dtype=bool)
    bits = np.unpackbits(np.frombuffer(buffer, dtype=np.uint8), bitorder="little")
    return bits[offset : offset + length].astype(bool)
