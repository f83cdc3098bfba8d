"""core.frozen.built: the values a column a field gives are those of ``cls(*row)``, and it refuses what it
cannot build that way."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.core.frozen import built
from pipeline.rules.base import Change


@dataclasses.dataclass(frozen=True, slots=True)
class _Pair:
    name: str
    rating: float
    games: int = 0


@dataclasses.dataclass(frozen=True)
class _Unslotted:
    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class _Checked:
    name: str

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("empty")


_ROWS = st.lists(st.tuples(st.text(max_size=5), st.floats(allow_nan=False), st.integers()), max_size=20)


@given(_ROWS)
def test_built_values_equal_those_of_the_constructor(rows: list[tuple[str, float, int]]) -> None:
    columns = [list(column) for column in zip(*rows, strict=True)] if rows else [[], [], []]
    assert built(_Pair, columns) == [_Pair(*row) for row in rows]


def test_built_values_have_the_constructors_repr() -> None:
    assert [repr(v) for v in built(_Pair, [["a"], [1.5], [3]])] == [repr(_Pair("a", 1.5, 3))]


def test_built_values_stay_frozen() -> None:
    (value,) = built(_Pair, [["a"], [1.5], [3]])
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.name = "b"  # type: ignore[misc]


def test_built_changes_equal_the_rules_own_changes() -> None:
    names = [f.name for f in dataclasses.fields(Change)]
    row = tuple(range(len(names)))
    assert built(Change, [[value] for value in row]) == [Change(*row)]


def test_built_refuses_an_unslotted_dataclass_naming_it() -> None:
    with pytest.raises(TypeError, match=r"_Unslotted\.name: not a slot"):
        built(_Unslotted, [["a"]])


def test_built_refuses_a_dataclass_with_post_init() -> None:
    with pytest.raises(TypeError, match="_Checked: not a dataclass without __post_init__"):
        built(_Checked, [["a"]])


def test_built_refuses_a_class_that_is_not_a_dataclass() -> None:
    with pytest.raises(TypeError, match="int: not a dataclass"):
        built(int, [[1]])


def test_built_refuses_a_missing_column_naming_the_fields() -> None:
    with pytest.raises(ValueError, match=r"_Pair: 2 columns for 3 fields"):
        built(_Pair, [["a"], [1.0]])


def test_built_refuses_a_column_of_another_length_naming_its_field() -> None:
    with pytest.raises(ValueError, match=r"_Pair.games: 2 values, the first column has 1"):
        built(_Pair, [["a"], [1.0], [1, 2]])
