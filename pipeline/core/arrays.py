"""columns: the columnar building blocks of the audit, over Arrow arrays and numpy.

- :func:`array`, :func:`text` and :func:`true`: a column as one array, of text, of booleans without nulls;
  :func:`positions`: each value's position among others (``index_in``, -1 for none);
- :func:`distinct`, :func:`mapped` and :func:`mapped_together`: a column's distinct values with each row's
  place among them, and a Python function applied once per *distinct* value of a column, or combination
  of values of several (roster names, events, stages);
- :func:`codes` and :func:`groups`: integer group codes of one or several key columns, nulls a value of
  their own (what a ``GROUP BY`` would form);
- :func:`later_copies` and :func:`nth_in_group`: window functions over rows in table order (``seq``):
  every row but the first of its group, and each row's position in its group (``row_number() - 1``);
- :func:`listed`: a list column from boolean flag columns (``reasons``, ``notes``).

Group codes are formed by hashing (Arrow's dictionary encoding) and the windows by numpy's stable sorts:
documented behaviour only (no reliance on the order a hash table hands out codes). Knows nothing of games
or of the validity rules: columns in, columns out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core import buffers

Flags = npt.NDArray[np.bool_]
Codes = npt.NDArray[np.int64]


def array(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """``column`` as one contiguous array (a chunked array of one chunk is not copied; of none, an empty
    array made without ``combine_chunks``, which imports pandas for it)."""
    if isinstance(column, pa.ChunkedArray):
        if column.num_chunks < 2:
            return column.chunk(0) if column.num_chunks else pa.nulls(0, column.type)
        return column.combine_chunks()
    return column


def text(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """``column`` as one array of text: a dictionary-encoded one decoded, another cast (a column of
    nulls, say)."""
    found = array(column)
    return found.dictionary_decode() if pa.types.is_dictionary(found.type) else found.cast(pa.string())


def true(column: pa.Array | pa.ChunkedArray) -> pa.BooleanArray:
    """A boolean column (or one of nulls) as one boolean array, each null false."""
    found = array(column).cast(pa.bool_())
    flags: pa.BooleanArray = pc.and_kleene(found, pc.is_valid(found))
    return flags


def positions(values: pa.Array | pa.ChunkedArray, among: pa.Array) -> Codes:
    """The position in ``among`` of each of ``values`` (-1: not there), as ``int64``: ``index_in`` read
    into numpy without pandas (:mod:`pipeline.core.buffers`)."""
    found = buffers.numpy_of(pc.index_in(values, value_set=among))
    if found.dtype.kind == "f":  # (some not found: NaN)
        found = np.where(np.isnan(found), -1.0, found)
    placed: Codes = found.astype(np.int64)
    return placed


def stacked(columns: Sequence[pa.ChunkedArray]) -> pa.ChunkedArray:
    """The ``columns`` (of one type) one after another, as one column; nothing is copied."""
    return pa.chunked_array([chunk for column in columns for chunk in column.chunks], columns[0].type)


def distinct(column: pa.Array | pa.ChunkedArray) -> tuple[list[Any], Codes]:
    """The distinct non-null values of ``column`` as Python values, and per row the position of its value
    among them; a null's position is ``len(values)``, one past the end (where a result for null goes)."""
    encoded = pc.dictionary_encode(array(column))
    values = encoded.dictionary.to_pylist()
    position = pc.fill_null(encoded.indices, len(values)).to_numpy(zero_copy_only=False)
    return values, np.asarray(position, dtype=np.int64)


def mapped(column: pa.Array | pa.ChunkedArray, fn: Callable[[Any], Any], arrow_type: pa.DataType) -> pa.Array:
    """``fn`` of each value of ``column``, as an array of ``arrow_type``; null stays null.

    ``fn`` is called once per distinct non-null value (its Python value), whatever the number of rows.
    Raises whatever ``fn`` raises, and ArrowInvalid if a result is not of ``arrow_type``.
    """
    values, position = distinct(column)
    return pa.array([*map(fn, values), None], arrow_type).take(pa.array(position))


def mapped_together(
    columns: Sequence[pa.Array | pa.ChunkedArray], fn: Callable[..., Any], arrow_type: pa.DataType
) -> pa.Array:
    """``fn(*values)`` of each row's values in ``columns`` (nulls as None), as an array of ``arrow_type``.

    ``fn`` is called once per distinct combination of values. Raises whatever ``fn`` raises, and
    ArrowInvalid if a result is not of ``arrow_type``.
    """
    _, first, position = np.unique(
        groups([codes(c) for c in columns]), return_index=True, return_inverse=True
    )
    values = [pc.take(column, pa.array(first)).to_pylist() for column in columns]
    results = pa.array([fn(*row) for row in zip(*values, strict=True)], arrow_type)
    return results.take(pa.array(position))


def flag(mask: pa.Array | pa.ChunkedArray) -> Flags:
    """A boolean Arrow column as a numpy mask, null read as False."""
    return np.asarray(array(pc.fill_null(mask, False)).to_numpy(zero_copy_only=False), dtype=np.bool_)


def codes(column: pa.Array | pa.ChunkedArray) -> Codes:
    """Per row, an integer naming its value: equal values get equal codes, nulls one code of their own."""
    encoded = pc.dictionary_encode(array(column), null_encoding="encode")
    return np.asarray(encoded.indices.to_numpy(zero_copy_only=False), dtype=np.int64)


def groups(keys: Sequence[Codes]) -> Codes:
    """Per row, a code naming the combination of its ``keys`` (each from :func:`codes`); at least one key.

    Each step re-encodes the pairs it forms (codes below the number of rows), so they never overflow.
    """
    combined = keys[0]
    for key in keys[1:]:
        width = int(key.max()) + 1 if len(key) else 1
        combined = codes(pa.array(combined * width + key))
    return combined


def later_copies(group: Codes) -> Flags:
    """True for every row but the first (in table order) of its ``group``."""
    later = np.ones(len(group), dtype=np.bool_)
    later[np.unique(group, return_index=True)[1]] = False
    return later


def nth_in_group(group: Codes) -> Codes:
    """Per row, how many rows of its ``group`` come before it in table order (0 for the first)."""
    order = np.argsort(group, kind="stable")
    sizes = np.bincount(group)
    starts = np.cumsum(sizes) - sizes
    nth = np.empty(len(group), dtype=np.int64)
    nth[order] = np.arange(len(group)) - starts[group[order]]
    return nth


def listed(flags: Sequence[Flags], labels: Sequence[str], rows: int) -> pa.ListArray:
    """Per row, the ``labels`` whose flag (same position in ``flags``) is set, in the order of ``labels``.

    ``rows`` is the length of every flag (it gives empty lists when ``labels`` is empty).
    """
    matrix = np.column_stack(flags) if flags else np.zeros((rows, 0), dtype=np.bool_)
    offsets = np.zeros(rows + 1, dtype=np.int32)
    offsets[1:] = np.cumsum(matrix.sum(axis=1))
    _, column = np.nonzero(matrix)  # row-major: by row, then by position in labels
    values = pa.array(list(labels), pa.string()).take(pa.array(column, pa.int64()))
    return pa.ListArray.from_arrays(pa.array(offsets), values)
