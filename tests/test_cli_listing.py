"""cli.listing.Listing: a counted list that breaks lines between its items only."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console

from pipeline.cli.listing import Listing

ITEMS = ["棋谱没有结果 3", "和棋 2", "让子棋 2", "未实际对弈（缺席或弃权） 2", "重复的棋谱 1"]


def test_a_line_breaks_after_a_separator_never_inside_an_item() -> None:
    lines = Listing(ITEMS, "、", "19（", "）").lines(20)
    assert lines == [
        "19（棋谱没有结果 3、",
        "和棋 2、让子棋 2、",
        "未实际对弈（缺席或弃权） 2、",
        "重复的棋谱 1）",
    ]


def test_a_space_after_the_separator_is_dropped_at_the_end_of_a_line() -> None:
    assert Listing(["draw 2", "handicap 2"], ", ").lines(12) == ["draw 2,", "handicap 2"]


def test_the_separator_ending_a_line_counts_in_its_width() -> None:
    assert Listing(["ab", "cd", "ef", "gh"], "、").lines(6) == ["ab、", "cd、", "ef、gh"]


def test_the_whole_text_on_one_line_when_it_fits() -> None:
    listing = Listing(["draw 2", "handicap 2"], ", ", "4 (", ")")
    assert listing.lines(80) == ["4 (draw 2, handicap 2)"] and str(listing) == "4 (draw 2, handicap 2)"


def test_rendered_in_a_table_cell_each_item_stays_on_one_line() -> None:
    console = Console(width=50, record=True)
    from rich.table import Table

    table = Table(show_header=False)
    table.add_row("不计入", Listing(ITEMS, "、", "19（", "）"))
    console.print(table)
    text = console.export_text()
    assert all(item in text for item in ITEMS)


@given(st.lists(st.text(alphabet="ab让子 ", min_size=1, max_size=8), min_size=1), st.integers(1, 30))
def test_the_lines_joined_are_the_text_and_fit_unless_one_item_is_wider(items: list[str], width: int) -> None:
    listing = Listing(items, "、", "(", ")")
    lines = listing.lines(width)
    assert "".join(lines) == str(listing)
    pieces = ["(" + items[0], *items[1:]]
    pieces[-1] += ")"
    for line in lines:
        assert cell_len(line) <= width or line.removesuffix("、") in pieces
