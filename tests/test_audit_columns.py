"""pipeline.core.arrays: per-distinct mapping, group codes, window functions and list columns."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from pipeline.core.arrays import (
    array,
    codes,
    groups,
    later_copies,
    listed,
    mapped,
    mapped_together,
    nth_in_group,
    stacked,
    text,
    true,
)


def test_mapped_calls_the_function_once_per_distinct_value_and_keeps_nulls() -> None:
    calls: list[str] = []

    def upper(name: str) -> str:
        calls.append(name)
        return name.upper()

    got = mapped(pa.chunked_array([["a", None, "b"], ["a", "b", "a"]]), upper, pa.string())
    assert (got.to_pylist(), sorted(calls)) == (["A", None, "B", "A", "B", "A"], ["a", "b"])


def test_mapped_together_calls_the_function_once_per_distinct_combination() -> None:
    calls: list[tuple[str | None, int | None]] = []

    def joined(text: str | None, number: int | None) -> str:
        calls.append((text, number))
        return f"{text}{number}"

    columns = [pa.array(["x", "x", "y", "x", None]), pa.array([1, 2, 1, 1, None])]
    got = mapped_together(columns, joined, pa.string())
    assert got.to_pylist() == ["x1", "x2", "y1", "x1", "NoneNone"]
    assert len(calls) == 4


def test_codes_are_equal_for_equal_values_and_give_null_a_code_of_its_own() -> None:
    got = codes(pa.array(["b", None, "a", "b", None, ""]))
    assert got[0] == got[3] and got[1] == got[4]
    assert len({got[0], got[1], got[2], got[5]}) == 4


def test_groups_are_equal_only_when_every_key_is() -> None:
    first, second = np.array([0, 0, 1, 1, 0]), np.array([5, 6, 5, 5, 5])
    got = groups([first, second])
    assert got[2] == got[3] and got[0] == got[4]
    assert len({got[0], got[1], got[2]}) == 3


def test_later_copies_are_every_row_but_the_first_of_its_group() -> None:
    assert later_copies(np.array([3, 1, 3, 3, 1, 0])).tolist() == [False, False, True, True, True, False]


def test_nth_in_group_counts_the_earlier_rows_of_the_same_group() -> None:
    assert nth_in_group(np.array([2, 0, 2, 2, 0, 1])).tolist() == [0, 0, 1, 2, 1, 0]


def test_listed_gives_the_set_labels_in_label_order() -> None:
    flags = [np.array([True, False, True]), np.array([True, False, False])]
    got = listed(flags, ["first", "second"], 3)
    assert got.to_pylist() == [["first", "second"], [], ["first"]]
    assert got.type == pa.list_(pa.string())


def test_listed_without_labels_gives_empty_lists() -> None:
    assert listed([], [], 2).to_pylist() == [[], []]


def test_stacked_puts_the_columns_one_after_another() -> None:
    got = stacked([pa.chunked_array([["a"], ["b"]]), pa.chunked_array([["c"]])])
    assert got.to_pylist() == ["a", "b", "c"]


def test_a_column_of_no_chunks_is_an_empty_array_of_its_type() -> None:
    found = array(pa.chunked_array([], pa.string()))
    assert found.equals(pa.array([], pa.string()))


def test_a_column_of_several_chunks_is_one_array() -> None:
    found = array(pa.chunked_array([[1, 2], [3]], pa.int64()))
    assert isinstance(found, pa.Array) and found.to_pylist() == [1, 2, 3]


def test_text_decodes_a_dictionary_and_casts_a_column_of_nulls() -> None:
    assert text(pa.array(["a", None, "a"]).dictionary_encode()).to_pylist() == ["a", None, "a"]
    assert text(pa.nulls(2)).type == pa.string()


def test_true_takes_a_null_for_false() -> None:
    assert true(pa.array([True, None, False])).to_pylist() == [True, False, False]
    assert true(pa.nulls(1)).to_pylist() == [False]
