"""A fitted table drawn line by line (pipeline.cli.plain_table) is what rich draws,: every character."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table

from pipeline.cli.plain_table import plain
from pipeline.cli.tables import Column, fitted, table_width


def printed(table: Table, lines: bool) -> str:
    """``table`` printed by a console that writes no styles, as rich draws it or line by line."""
    written = io.StringIO()
    console = Console(file=written, width=table_width(table) + 7, color_system=None)
    drawn = plain(table, console) if lines else table
    assert drawn is not None
    console.print(drawn)
    return written.getvalue()


COLUMNS = [
    Column("date"),
    Column("black", names=True),
    Column("points", right=True),
    Column("reasons", wrap=True, drop=1),
]
ROWS = [
    ["2024-05-01", "羽焰", "+12.50", "a reason long enough to wrap over a few lines of its column"],
    ["2024-05-02", "Lee Sedol", "-3", ""],
    ["", "", "", ""],
    ["2024-05-03", "a b\nc", "0.00 ", "two\nlines"],
]


@pytest.mark.parametrize("width", [40, 60, 100, 200])
@pytest.mark.parametrize("rows", [ROWS, ROWS[:1], []])
def test_a_fitted_table_drawn_line_by_line_is_rich_s(width: int, rows: list[list[str]]) -> None:
    table = fitted("audit: some/where (--player 羽焰)", COLUMNS, rows, width, False)
    assert printed(table, lines=True) == printed(table, lines=False)


def test_a_caption_and_a_long_title_are_rich_s() -> None:
    table = fitted(
        "a title much wider than the narrow table it stands over " * 3, COLUMNS[:1], [["x"]], 40, False
    )
    table.caption = "not shown: this and that (--wide shows every column)"
    assert printed(table, lines=True) == printed(table, lines=False)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=12), min_size=3, max_size=3),
        max_size=6,
    ),
    st.integers(20, 120),
)
def test_any_cells_are_drawn_as_rich_draws_them_or_left_to_rich(rows: list[list[str]], width: int) -> None:
    columns = [Column("name", names=True), Column("n", right=True), Column("why", wrap=True)]
    table = fitted("t", columns, rows, width, False)
    written = io.StringIO()
    console = Console(file=written, width=table_width(table) + 7, color_system=None)
    if plain(table, console) is not None:
        assert printed(table, lines=True) == printed(table, lines=False)


@pytest.mark.parametrize("cell", ["[bold]x[/bold]", "a\tb", "bell\x07", ":smile:"])
def test_a_cell_rich_would_change_is_left_to_rich(cell: str) -> None:
    table = fitted("t", COLUMNS[:2], [["2024-05-01", cell]], 80, False)
    assert plain(table, Console(file=io.StringIO(), color_system=None)) is None


def test_a_console_that_writes_styles_gets_rich_s_table() -> None:
    table = fitted("t", COLUMNS[:1], [["2024-05-01"]], 80, False)
    assert plain(table, Console(file=io.StringIO(), force_terminal=True, color_system="truecolor")) is None
