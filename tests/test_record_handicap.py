"""record: a game's handicap from HA, from HA's words, else from the root's black setup stones, and how."""

from __future__ import annotations

from typing import Any

import pytest
from sgfmake import sgf

from pipeline.ingest.record import rows_for_bytes

FOUR = "AB[pd][dp][pp][dd]"


def row(text: str) -> dict[str, Any]:
    [found] = rows_for_bytes(text.encode(), "h.sgf")
    return found


def handicap(text: str) -> tuple[int | None, str | None]:
    found = row(text)
    return found["handicap"], found["handicap_how"]


def test_ha_as_a_number_is_read_as_ha() -> None:
    assert handicap(sgf("A", "B", "W+R", handicap=3, setup="AB[pd][dp][pp]", first="W")) == (3, "HA")


def test_ha_wins_over_stones_that_say_otherwise() -> None:
    assert handicap(sgf("A", "B", "W+R", handicap=3, setup=FOUR, first="W")) == (3, "HA")


@pytest.mark.parametrize(
    ("ha", "stones"), [("三子", 3), ("让三", 3), ("讓三子", 3), ("授三子局", 3), ("\uff13", 3)]
)
def test_ha_in_words_is_read_as_ha_text(ha: str, stones: int) -> None:
    assert handicap(sgf("A", "B", "W+R", setup=f"HA[{ha}]")) == (stones, "HA text")


def test_ha_in_words_wins_over_the_stones() -> None:
    assert handicap(sgf("A", "B", "W+R", setup=f"HA[本局为授三子局]{FOUR}", first="W")) == (3, "HA text")


@pytest.mark.parametrize(
    ("size", "stones", "count"),
    [(19, FOUR, 4), (19, "AB[pd][dp]", 2), (13, "AB[jd][dj][jj][dd][gg]", 5), (9, "AB[gc][cg]", 2)],
)
def test_fixed_placement_without_ha_gives_the_handicap(size: int, stones: str, count: int) -> None:
    assert handicap(sgf("A", "B", "W+R", size=size, setup=stones, first="W")) == (count, "setup stones")


def test_fixed_placement_without_any_move_gives_the_handicap() -> None:
    assert handicap(sgf("A", "B", None, moves=0, setup=FOUR)) == (4, "setup stones")


@pytest.mark.parametrize("ha", ["abc", "-", "P99"])
def test_stones_give_the_handicap_when_ha_is_unreadable(ha: str) -> None:
    assert handicap(sgf("A", "B", "W+R", setup=f"HA[{ha}]{FOUR}", first="W")) == (4, "setup stones")


def test_free_placement_before_whites_first_move_gives_the_handicap() -> None:
    assert handicap(sgf("A", "B", "W+R", setup="AB[qd][dp][pq]", first="W")) == (3, "setup stones")


def test_free_placement_without_a_move_is_no_handicap() -> None:
    assert handicap(sgf("A", "B", None, moves=0, setup="AB[qd][dp][pq]")) == (None, None)


def test_stones_before_blacks_first_move_are_no_handicap() -> None:
    assert handicap(sgf("A", "B", "B+R", setup=FOUR, first="B")) == (None, None)


def test_white_setup_stones_make_a_position_not_a_handicap() -> None:
    assert handicap(sgf("A", "B", "W+R", setup=f"{FOUR}AW[jj]", first="W")) == (None, None)


def test_stones_of_a_game_other_than_go_are_no_handicap() -> None:
    assert handicap(sgf("A", "B", "W+R", game_type=4, setup=FOUR, first="W")) == (None, None)


def test_stones_on_an_unreadable_board_size_are_no_handicap() -> None:
    text = sgf("A", "B", "W+R", setup=FOUR, first="W").replace("SZ[19]", "SZ[19:25]")
    assert handicap(text) == (None, None)


def test_stones_without_sz_are_read_on_19x19() -> None:
    text = sgf("A", "B", "W+R", setup=FOUR, first="W").replace("SZ[19]", "")
    assert handicap(text) == (4, "setup stones")


def test_stones_written_in_ff3_long_names_give_the_handicap() -> None:
    text = sgf("A", "B", "W+R", first="W", setup="AddBlack[pd][dp]")
    assert handicap(text) == (2, "setup stones")


def test_no_ha_and_no_stones_is_no_handicap() -> None:
    assert handicap(sgf("A", "B", "B+R")) == (None, None)


def test_stones_in_a_game_tree_of_a_collection_count_for_that_tree_alone() -> None:
    text = sgf("A", "B", "W+R", setup=FOUR, first="W") + sgf("C", "D", "B+R")
    rows = rows_for_bytes(text.encode(), "c.sgf")
    assert [(r["handicap"], r["handicap_how"]) for r in rows] == [(4, "setup stones"), (None, None)]
