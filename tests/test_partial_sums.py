"""The sums of a period up to a day (:mod:`pipeline.reports.partial`) are pandas' grouped sums to the
last bit (Kahan's compensated addition, in row order; the sign of a zero aside), and places are
competition ranks."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

from pipeline.reports.partial import places, sums

_VALUES = st.floats(-1e4, 1e4, allow_nan=False).map(lambda v: round(v, 6))


@given(
    rows=st.lists(st.tuples(st.integers(-1, 4), st.one_of(st.none(), _VALUES)), max_size=60),
)
def test_grouped_sums_are_pandas_to_the_last_bit(rows: list[tuple[int, float | None]]) -> None:
    where = np.array([w for w, _ in rows], dtype=np.int64)
    values = [v for _, v in rows]
    found = sums(where, pa.array(values, pa.float64()), 5)
    series = pd.Series([np.nan if v is None else v for v in values], dtype=float)
    kept = where >= 0
    expected = np.zeros(5)
    grouped = series[kept].groupby(where[kept]).sum()
    expected[grouped.index.to_numpy()] = grouped.to_numpy()
    assert found.tolist() == expected.tolist()  # (exact: equal floats; 0.0 and -0.0 alike)


def test_a_position_without_values_sums_to_zero() -> None:
    found = sums(np.array([2, -1], np.int64), pa.array([1.5, 7.0]), 3)
    assert found.tolist() == [0.0, 0.0, 1.5]


@given(ratings=st.lists(st.sampled_from([1500.0, 1490.25, 1510.0, 1400.0]), max_size=12))
def test_places_are_pandas_min_ranks_highest_first(ratings: list[float]) -> None:
    rating = np.array(ratings, dtype=np.float64)
    expected = pd.Series(rating).rank(method="min", ascending=False).to_numpy()
    assert places(rating).tolist() == expected.astype(np.int64).tolist()


def test_places_among_the_counted_rows_leave_the_others_out() -> None:
    rating = np.array([1500.0, 1600.0, 1550.0])
    assert places(rating, np.array([True, False, True])).tolist()[::2] == [2, 1]
