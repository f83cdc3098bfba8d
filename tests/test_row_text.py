"""Rows written from their columns without pandas (:mod:`pipeline.cli.row_text`,
:func:`pipeline.cli.tables.print_columns`) are the text pandas' frames gave: ``to_csv`` for CSV, the
frame writer's JSON."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cli.common import Format
from pipeline.cli.row_text import csv_rows
from pipeline.cli.tables import print_columns, print_frame

_TEXT = st.one_of(st.none(), st.text(alphabet='ab ,;"\n\r羽焰-=', max_size=6))
_ROWS = st.integers(0, 5)


def _columns(rows: int) -> st.SearchStrategy[list[list[Any]]]:
    return st.tuples(
        st.lists(_TEXT, min_size=rows, max_size=rows),
        st.lists(st.integers(-5, 10**12), min_size=rows, max_size=rows),
        st.lists(st.booleans(), min_size=rows, max_size=rows),
        st.lists(st.lists(st.sampled_from(["draw", "handicap"]), max_size=2), min_size=rows, max_size=rows),
    ).map(list)


@settings(max_examples=60, deadline=None)
@given(columns=_ROWS.flatmap(_columns))
def test_csv_rows_are_what_pandas_to_csv_writes(columns: list[list[Any]]) -> None:
    names = ["text", "number", "flag", "codes"]
    cells = [*columns[:3], [";".join(v) for v in columns[3]]]
    frame = pd.DataFrame(list(zip(*cells, strict=True)), columns=names)
    assert csv_rows(names, cells, header=True) == frame.to_csv(index=False)


@pytest.mark.parametrize("fmt", [Format.csv, Format.json])
@settings(max_examples=30, deadline=None)
@given(columns=_ROWS.flatmap(_columns))
def test_columns_print_as_their_frame_prints(fmt: Format, columns: list[list[Any]]) -> None:
    names = ["text", "number", "flag", "codes"]
    frame = pd.DataFrame(dict(zip(names, columns, strict=True)), columns=names)
    expected = _printed(lambda: print_frame(frame, fmt))
    assert expected  # (a header, or "[]", at least: the output is caught)
    assert _printed(lambda: print_columns(names, columns, fmt)) == expected


def _printed(call: Callable[[], None]) -> str:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        call()
    return out.getvalue()
