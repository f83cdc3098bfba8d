"""A frame written as CSV or JSON a column at a time (:mod:`pipeline.cli.frame_text`, behind
:func:`pipeline.cli.tables.print_frames`, which writes the audit's ``--format csv|json``) is the text the
row-by-row writing gave (kept here as the reference), byte for byte."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import textwrap
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cli.common import Format
from pipeline.cli.frame_text import JsonText, json_value
from pipeline.cli.tables import _csv_cell, _plain, print_frames


def _old_text(frames: list[pd.DataFrame], fmt: Format) -> str:
    """What ``print_frames`` printed when it wrote each row's dict."""
    out, first = [], True
    for frame in frames:
        records = [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict("records")]
        if fmt is Format.json:
            if records:
                text = ",\n".join(
                    textwrap.indent(json.dumps(r, ensure_ascii=False, indent=1), " ") for r in records
                )
                out.append(("[\n" if first else ",\n") + text)
                first = False
            continue
        flat = pd.DataFrame([{k: _csv_cell(v) for k, v in r.items()} for r in records], columns=frame.columns)
        out.append(flat.to_csv(index=False, header=first))
        first = False
    if fmt is Format.json:
        out.append("[]" if first else "\n]")
    return "".join(out) + ("\n" if fmt is Format.json else "")


def _printed(frames: list[pd.DataFrame], fmt: Format, capsys: pytest.CaptureFixture[str]) -> str:
    print_frames(frames, fmt)
    return capsys.readouterr().out


_TEXT = st.text(alphabet=st.sampled_from(list('ab羽焰 ,;"\n\\{}\u2028\x85\u3000é')), max_size=6)
_COLUMNS = {
    "ints": st.integers(-(2**40), 2**40),
    "floats": st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.just(0.25)),
    "bools": st.booleans(),
    "texts": st.one_of(st.none(), _TEXT),
    "dates": st.one_of(st.none(), st.dates(dt.date(1990, 1, 1), dt.date(2030, 1, 1))),
    "lists": st.lists(_TEXT, max_size=3),
    "dicts": st.lists(
        st.fixed_dictionaries(
            {"player": _TEXT, "delta": st.floats(-9, 9), "rule": st.one_of(st.none(), _TEXT)}
        ),
        max_size=2,
    ),
}


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.fixed_dictionaries(_COLUMNS), max_size=5),
    fmt=st.sampled_from([Format.csv, Format.json]),
    cut=st.integers(0, 5),
)
def test_a_frame_is_written_as_its_rows_dicts_were(rows: list[dict[str, Any]], fmt: Format, cut: int) -> None:
    frame = pd.DataFrame(rows, columns=list(_COLUMNS))
    frame["texts"] = frame["texts"].astype("str")
    parts = [frame.iloc[:cut], frame.iloc[cut:]]
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        print_frames(parts, fmt)
    assert buffer.getvalue() == _old_text(parts, fmt)


@pytest.mark.parametrize("fmt", [Format.csv, Format.json])
def test_numpy_and_pandas_columns_are_written_as_their_rows_dicts_were(
    fmt: Format, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = pd.DataFrame(
        {
            "i32": np.array([1, 2, 3], dtype=np.int32),
            "f": [0.5, np.nan, 3.0],
            "masked": pd.array([1, None, 3], dtype="Int64"),
            "when": pd.to_datetime(["2024-05-01 00:00", None, "2024-06-02 10:00"]),
            "cat": pd.Categorical(["a", "b", None]),
            "objects": [np.int64(4), np.float64("nan"), None],
            "{brace}": ["x", "y", "z"],
        }
    )
    assert _printed([frame], fmt, capsys) == _old_text([frame], fmt)


@pytest.mark.parametrize("fmt", [Format.csv, Format.json])
def test_a_frame_of_no_rows_is_written_as_before(fmt: Format, capsys: pytest.CaptureFixture[str]) -> None:
    frame = pd.DataFrame({"a": pd.Series([], dtype="int64"), "b": pd.Series([], dtype="str")})
    assert _printed([frame, frame], fmt, capsys) == _old_text([frame, frame], fmt)


@pytest.mark.filterwarnings("ignore:DataFrame columns are not unique")
def test_a_frame_with_repeated_labels_is_written_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    frame = pd.DataFrame([[1, 2], [3, 4]], columns=["a", "a"])
    assert _printed([frame], Format.json, capsys) == _old_text([frame], Format.json)


def test_json_text_values_are_written_as_they_are() -> None:
    assert json_value([JsonText("[\n  1\n ]"), "x"], 0) == '[\n [\n  1\n ],\n "x"\n]'


@settings(max_examples=100, deadline=None)
@given(
    value=st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), _TEXT),
        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_TEXT, inner, max_size=3)),
        max_leaves=8,
    ),
    level=st.integers(0, 3),
)
def test_a_value_is_written_as_json_dumps_writes_it(value: Any, level: int) -> None:
    nested: Any = value
    for _ in range(level):
        nested = [nested]
    found = json_value(nested)
    assert found == json.dumps(nested, ensure_ascii=False, indent=1)
