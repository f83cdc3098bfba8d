"""cli.row_text: rows as CSV or JSON text from their columns' plain values, without pandas.

:func:`json_value` writes a value as :func:`json.dumps` does (``ensure_ascii=False, indent=1``) at a
row's nesting, a :class:`JsonText` as it is; :func:`json_rows` joins a table's rows from each column's
JSON texts (each row's text made by one ``str.format``); :func:`csv_rows` writes rows as pandas'
``to_csv`` writes a frame whose columns hold those values (Python's :mod:`csv` writer, as pandas uses
it: minimal quoting, ``\\n`` between rows, a missing value empty). :mod:`pipeline.cli.frame_text`
writes a pandas frame with these; a command that has its rows as Arrow columns (the audit of one
player) writes them without importing pandas. Knows nothing of what the rows are.
"""

from __future__ import annotations

import csv
import io
import json.encoder
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

#: How :func:`json.dumps` writes a text (``ensure_ascii=False``).
JSON_STRING: Callable[[str], str] = json.encoder.encode_basestring
#: Characters other than ``\n`` at which :func:`textwrap.indent` starts a line (JSON leaves them as
#: they are): a row holding one is indented by :func:`textwrap.indent` itself.
_OTHER_BREAKS = ("\x85", "\u2028", "\u2029")


class JsonText(str):
    """A value already written as JSON at a row's level (as :func:`json_value` writes it at level 1):
    :func:`json_value` writes it as it is. A frame's column of them (``dtype=object``) is JSON made by
    column by its maker (the audit's changes: :mod:`pipeline.cli.audit_cells`)."""

    __slots__ = ()


def json_rows(names: Sequence[str], texts: Sequence[Sequence[str]], rows: int) -> str:
    """``rows`` rows as :func:`json.dumps` writes each row's dict (``ensure_ascii=False, indent=1``),
    each indented a space and joined by ``,\\n``: ``names`` the keys, ``texts`` each column's values as
    :func:`json_value` writes them at level 1."""
    if not rows:
        return ""
    if not texts:
        return ",\n".join([" {}"] * rows)
    keys = [(JSON_STRING(name) + ": ").replace("{", "{{").replace("}", "}}") + "{}" for name in names]
    row = "{{\n " + ",\n ".join(keys) + "\n}}"  # (a row's text: its values' texts put in)
    made = list(map(row.format, *texts))
    text = ",\n".join(made)
    if any(c in text for c in _OTHER_BREAKS):
        return ",\n".join(textwrap.indent(r, " ") for r in made)
    return " " + text.replace("\n", "\n ")


def csv_rows(names: Sequence[str], columns: Sequence[Sequence[Any]], header: bool) -> str:
    """The rows of ``columns`` (each a column's values: texts, whole numbers, booleans or None, none
    of them missing in a column of numbers or booleans) as pandas' ``to_csv(index=False)`` writes the
    frame they make: ``names`` the header (when ``header``), None empty."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if header:
        writer.writerow(names)
    writer.writerows(["" if v is None else v for v in row] for row in zip(*columns, strict=True))
    return out.getvalue()


def json_value(value: Any, level: int = 0) -> str:
    """``value`` (None, a boolean, a number, a text, or a list or dict of them) as :func:`json.dumps`
    writes it with ``ensure_ascii=False, indent=1``, at nesting ``level`` (its own lines, after the
    first, indented so). Raises TypeError for another value, as :func:`json.dumps` does."""
    if isinstance(value, str):
        return value if type(value) is JsonText else JSON_STRING(value)
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
        return JSON_STRING(key)
    if isinstance(key, float):
        return JSON_STRING(_float(key))
    if key is True or key is False or key is None:
        return JSON_STRING(json_value(key))
    if isinstance(key, int):
        return JSON_STRING(int.__repr__(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)
