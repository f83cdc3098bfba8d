"""cli.frame_text: a frame's rows as CSV or JSON text, made a column at a time.

:func:`pipeline.cli.tables.print_frames` writes a frame as its rows' dicts would be written (each value
as JSON holds it, by the ``plain`` function it is given; CSV cells joined from lists and dicts by its
``cell`` function; JSON as :func:`json.dumps` with ``indent=1`` writes each row, indented a space).
Written so a row at a time, an audit of thousands of games took seconds: here the values of a column
of numbers, booleans or text are taken whole (numpy and Arrow give them as Python values), and only a
column of other objects (dates, lists, dicts) goes value by value (texts, empty lists and dates without
a call); each JSON value is written by the encoder's own rules (:func:`json_value`; a
:class:`JsonText` as it is), a column at a time, and each row's text made by one ``str.format``. The
text is byte for byte what the row-by-row writing gave (``tests/test_audit_frame_text.py``).

Imports pandas and pyarrow: imported by :mod:`pipeline.cli.tables` when it is given a frame to print.
"""

from __future__ import annotations

import datetime as dt
import json.encoder
import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from pandas.api import types

#: How :func:`json.dumps` writes a text (``ensure_ascii=False``).
_TEXT: Callable[[str], str] = json.encoder.encode_basestring
#: Characters other than ``\n`` at which :func:`textwrap.indent` starts a line (JSON leaves them as
#: they are): a row holding one is indented by :func:`textwrap.indent` itself.
_OTHER_BREAKS = ("\x85", "\u2028", "\u2029")
#: Values :meth:`pandas.DataFrame.to_dict` gives as they are (no number, boolean, numpy date or NA).
_AS_THEY_ARE = (str, list, dict, tuple, dt.date)


class JsonText(str):
    """A value already written as JSON at a row's level (as :func:`json_value` writes it at level 1):
    :func:`json_text` writes it as it is. A frame's column of them (``dtype=object``) is JSON made by
    column by its maker (the audit's changes: :mod:`pipeline.cli.audit_cells`)."""

    __slots__ = ()


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
    if not len(frame):
        return ""
    if not columns:
        return ",\n".join([" {}"] * len(frame))
    keys = [(_TEXT(str(k)) + ": ").replace("{", "{{").replace("}", "}}") + "{}" for k in frame.columns]
    row = "{{\n " + ",\n ".join(keys) + "\n}}"  # (a row's text: its values' texts put in)
    rows = list(map(row.format, *(_json_column(frame.iloc[:, k], c) for k, c in enumerate(columns))))
    text = ",\n".join(rows)
    if any(c in text for c in _OTHER_BREAKS):
        return ",\n".join(textwrap.indent(r, " ") for r in rows)
    return " " + text.replace("\n", "\n ")


def json_value(value: Any, level: int = 0) -> str:
    """``value`` (None, a boolean, a number, a text, or a list or dict of them) as :func:`json.dumps`
    writes it with ``ensure_ascii=False, indent=1``, at nesting ``level`` (its own lines, after the
    first, indented so). Raises TypeError for another value, as :func:`json.dumps` does."""
    if isinstance(value, str):
        return value if type(value) is JsonText else _TEXT(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    inner = "\n" + " " * (level + 1)
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        return (
            "["
            + inner
            + ("," + inner).join(json_value(v, level + 1) for v in value)
            + "\n"
            + " " * level
            + "]"
        )
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = (_key(k) + ": " + json_value(v, level + 1) for k, v in value.items())
        return "{" + inner + ("," + inner).join(items) + "\n" + " " * level + "}"
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _key(key: Any) -> str:
    """A dict's key as :func:`json.dumps` writes it."""
    if isinstance(key, str):
        return _TEXT(key)
    if isinstance(key, float):
        return _TEXT(_float(key))
    if key is True or key is False or key is None:
        return _TEXT(json_value(key))
    if isinstance(key, int):
        return _TEXT(int.__repr__(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


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
        return ["null" if v is None else _TEXT(v) for v in column]
    if values.dtype == np.dtype(bool):
        return ["true" if v else "false" for v in column]
    if isinstance(values.dtype, np.dtype) and values.dtype.kind in "iu":
        return [int.__repr__(v) for v in column]
    return [json_value(v, 1) for v in column]
