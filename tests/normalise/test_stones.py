"""Tests for pipeline.ingest.normalise.stones: the handicap that a root's black setup stones show."""

from __future__ import annotations

import pytest

from pipeline.ingest.normalise.stones import stones_handicap

# The fixed placements as servers write them (19x19: 4-4 points; 13x13: 4-4; 9x9: 3-3), by number.
FIXED_19 = {
    2: ("pd", "dp"),
    3: ("pd", "dp", "pp"),
    4: ("pd", "dp", "pp", "dd"),
    5: ("pd", "dp", "pp", "dd", "jj"),
    6: ("pd", "dp", "pp", "dd", "dj", "pj"),
    7: ("pd", "dp", "pp", "dd", "dj", "pj", "jj"),
    8: ("pd", "dp", "pp", "dd", "dj", "pj", "jd", "jp"),
    9: ("pd", "dp", "pp", "dd", "dj", "pj", "jd", "jp", "jj"),
}
FIXED_13 = {
    2: ("jd", "dj"),
    4: ("jd", "dj", "jj", "dd"),
    5: ("jd", "dj", "jj", "dd", "gg"),
    9: ("jd", "dj", "jj", "dd", "dg", "jg", "gd", "gj", "gg"),
}
FIXED_9 = {2: ("gc", "cg"), 3: ("gc", "cg", "gg"), 5: ("gc", "cg", "gg", "cc", "ee")}


@pytest.mark.parametrize(("count", "stones"), sorted(FIXED_19.items()))
def test_fixed_placement_on_19x19_gives_its_number(count: int, stones: tuple[str, ...]) -> None:
    assert stones_handicap(stones, 19, "W") == count


@pytest.mark.parametrize(("count", "stones"), sorted(FIXED_13.items()))
def test_fixed_placement_on_13x13_gives_its_number(count: int, stones: tuple[str, ...]) -> None:
    assert stones_handicap(stones, 13, "W") == count


@pytest.mark.parametrize(("count", "stones"), sorted(FIXED_9.items()))
def test_fixed_placement_on_9x9_gives_its_number(count: int, stones: tuple[str, ...]) -> None:
    assert stones_handicap(stones, 9, "W") == count


def test_board_size_absent_is_read_as_19() -> None:
    assert stones_handicap(FIXED_19[4], None, "W") == 4


@pytest.mark.parametrize("stones", [("dd", "pp"), ("pd", "dp", "dd"), ("dp", "pp", "pd", "dd", "jj")])
def test_fixed_placement_in_another_orientation_counts(stones: tuple[str, ...]) -> None:
    assert stones_handicap(stones, 19, "") == len(stones)


def test_fixed_placement_counts_when_the_record_has_no_move() -> None:
    assert stones_handicap(FIXED_19[3], 19, "") == 3


@pytest.mark.parametrize(
    "stones",
    [
        ("pd", "pp"),  # two corners on one side
        ("pd", "dp", "pp", "dd", "dj"),  # five without the centre
        ("pd", "dp", "pp", "dd", "dj", "jd"),  # six with two sides that are not opposite
        ("pd", "dp", "qq"),  # a stone off the star points
        ("cc", "qq"),  # 3-3 points on 19x19
    ],
)
def test_other_points_without_moves_are_no_handicap(stones: tuple[str, ...]) -> None:
    assert stones_handicap(stones, 19, "") is None


@pytest.mark.parametrize("stones", [("pd", "pp"), ("qd", "dp", "pq"), ("cc", "qq", "jj", "cq")])
def test_free_placement_before_whites_first_move_gives_its_number(stones: tuple[str, ...]) -> None:
    assert stones_handicap(stones, 19, "W") == len(stones)


def test_free_placement_counts_on_any_board_size() -> None:
    assert stones_handicap(("cc", "kk", "ck"), 15, "W") == 3


@pytest.mark.parametrize("stones", [FIXED_19[2], FIXED_19[9], ("pd", "pp")])
def test_stones_before_blacks_first_move_are_no_handicap(stones: tuple[str, ...]) -> None:
    assert stones_handicap(stones, 19, "B") is None


def test_one_stone_is_no_handicap() -> None:
    assert stones_handicap(("jj",), 19, "W") is None


def test_a_rectangle_of_points_counts_each_point() -> None:
    assert stones_handicap(("dd:de", "pp"), 19, "W") == 3


def test_a_point_written_twice_counts_once() -> None:
    assert stones_handicap(("pd", "dp", "pd"), 19, "W") == 2


@pytest.mark.parametrize("bad", ["tt", "p", "pdd", "", "p1", "zz"])
def test_a_point_off_the_board_or_unreadable_makes_the_stones_say_nothing(bad: str) -> None:
    assert stones_handicap(("pd", "dp", bad), 19, "W") is None


def test_more_than_99_stones_is_no_handicap() -> None:
    assert stones_handicap(("aa:js",), 19, "W") is None  # 10 x 19 = 190 points
