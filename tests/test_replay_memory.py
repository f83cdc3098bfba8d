"""A replayed period's games share one Python object per distinct repeated value (names, dates, ...)."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa

from pipeline.rules import replay


def test_repeated_values_of_a_column_are_one_object_each() -> None:
    column = pa.chunked_array([["甲", "乙"], ["甲", None, "乙"]])
    found = replay._values(column, repeated=True)
    assert found == ["甲", "乙", "甲", None, "乙"]
    assert found[0] is found[2] and found[1] is found[4]


def test_repeated_dates_are_one_object_each() -> None:
    day = dt.date(2024, 5, 3)
    found = replay._values(pa.chunked_array([[day, day]], pa.date32()), repeated=True)
    assert found == [day, day] and found[0] is found[1]


def test_a_column_not_marked_repeated_reads_as_it_is() -> None:
    assert replay._values(pa.chunked_array([["g1", "g2"]]), repeated=False) == ["g1", "g2"]


def test_an_empty_repeated_column_reads_as_an_empty_list() -> None:
    assert replay._values(pa.chunked_array([], pa.string()), repeated=True) == []
