"""cli.frame_text: a frame's rows as CSV or JSON text, made a column at a time.

:func:`pipeline.cli.tables.print_frames` writes a frame as its rows' dicts would be written (each value
as JSON holds it, by the ``plain`` function it is given; CSV cells joined from lists and dicts by its
``cell`` function; JSON as :func:`json.dumps` with ``indent=1`` writes each row, indented a space).
Written so a row at a time, an audit of thousands of games took seconds: here the values of a column
of numbers, booleans or text are taken whole (numpy and Arrow give them as Python values), and only a
column of other objects (dates, lists, dicts) goes value by value (texts, empty lists and dates without
a call); each JSON value is written by the encoder's own rules (:func:`json_value`; a
:class:`JsonText` as it is), a column at a time, and the rows by :func:`pipeline.cli.row_text.json_rows`.
The text is byte for byte what the row-by-row writing gave (``tests/test_audit_frame_text.py``).

Imports pandas and pyarrow: imported by :mod:`pipeline.cli.tables` when it is given a frame to print.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from pandas.api import types

from pipeline.cli.row_text import JSON_STRING, JsonText, json_rows, json_value

__all__ = ["JsonText", "csv_text", "json_text", "json_value", "plain_columns"]

#: Values :meth:`pandas.DataFrame.to_dict` gives as they are (no number, boolean, numpy date or NA).
_AS_THEY_ARE = (str, list, dict, tuple, dt.date)


def plain_columns(frame: pd.DataFrame, plain: Callable[[Any], Any]) -> list[list[Any]]:
    """Each column of ``frame`` as the values of its rows' dicts (``frame.to_dict("records")``)
    passed through ``plain``, a list per column."""
    return [_plain_column(frame.iloc[:, k], plain) for k in range(frame.shape[1])]


def csv_text(frame: pd.DataFrame, columns: list[list[Any]], cell: Callable[[Any], Any], header: bool) -> str:
    """``frame``'s rows as CSV (its header when ``header``), ``columns`` its values
    (:func:`plain_columns`), each through ``cell`` (lists and dicts as text)."""
    cells = [
        col if _scalars(frame.iloc[:, k]) else [v if v is None or type(v) is str else cell(v) for v in col]
        for k, col in enumerate(columns)
    ]
    flat = pd.DataFrame(list(zip(*cells, strict=True)), columns=frame.columns)
    return flat.to_csv(index=False, header=header)


def json_text(frame: pd.DataFrame, columns: list[list[Any]]) -> str:
    """``frame``'s rows as :func:`json.dumps` writes each row's dict (``ensure_ascii=False, indent=1``),
    each indented a space and joined by ``,\\n``; ``columns`` its values (:func:`plain_columns`)."""
    texts = [_json_column(frame.iloc[:, k], c) for k, c in enumerate(columns)]
    return json_rows([str(k) for k in frame.columns], texts, len(frame))


def _plain_column(values: pd.Series[Any], plain: Callable[[Any], Any]) -> list[Any]:
    """One column's values as a row's dict holds them, through ``plain``."""
    dtype = values.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "biu":
        return list(values.to_numpy().tolist())
    if isinstance(dtype, np.dtype) and dtype.kind == "f":
        found = values.to_numpy().tolist()
        return [None if v != v else v for v in found]
    if isinstance(dtype, pd.StringDtype):
        return list(pa.array(values, from_pandas=True).to_pylist())
    if dtype != np.dtype(object) and not isinstance(dtype, pd.api.extensions.ExtensionDtype):
        return [plain(v) for v in values]
    return [_plain_object(v, plain) for v in values]


def _plain_object(value: Any, plain: Callable[[Any], Any]) -> Any:
    """``plain`` of a value of an object or extension column as a row's dict holds it (texts, empty
    lists and dates without a call)."""
    kind = type(value)
    if value is None or isinstance(value, str):
        return value
    if kind is list and not value:
        return []
    if kind is dt.date:
        return value.isoformat()
    return plain(_native(value))


def _native(value: Any) -> Any:
    """``value`` as :meth:`pandas.DataFrame.to_dict` gives a value of an object or extension column:
    numpy's numbers and booleans as Python's, its dates as pandas', pandas' NA as None."""
    if value is None or isinstance(value, _AS_THEY_ARE):
        return value
    if types.is_float(value):
        return float(value)
    if types.is_integer(value):
        return int(value)
    if types.is_bool(value):
        return bool(value)
    if isinstance(value, np.datetime64):
        return pd.Timestamp(value)
    if isinstance(value, np.timedelta64):
        return pd.Timedelta(value)
    return None if value is pd.NA else value


def _scalars(values: pd.Series[Any]) -> bool:
    """Whether a column's values are all numbers, booleans, texts or missing (no list or dict)."""
    dtype = values.dtype
    return (isinstance(dtype, np.dtype) and dtype.kind in "biuf") or isinstance(dtype, pd.StringDtype)


def _json_column(values: pd.Series[Any], column: list[Any]) -> list[str]:
    """:func:`json_value` of each of a column's values (``column``, of ``values``), at level 1."""
    if isinstance(values.dtype, pd.StringDtype):
        return ["null" if v is None else JSON_STRING(v) for v in column]
    if values.dtype == np.dtype(bool):
        return ["true" if v else "false" for v in column]
    if isinstance(values.dtype, np.dtype) and values.dtype.kind in "iu":
        return [int.__repr__(v) for v in column]
    return [json_value(v, 1) for v in column]
