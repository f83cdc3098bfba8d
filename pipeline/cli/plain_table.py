"""cli.plain_table: a :func:`~pipeline.cli.tables.fitted` table drawn line by line, for a console that
writes no colours or styles.

rich's ``Table`` measures and renders every cell through its layout engine (a ``Text``, a ``Padding``
and a few lists of segments per cell): the audit of a player with thousands of games took seconds to
print. A fitted table's columns have fixed widths (no wrapping by rich) and its cells are wrapped
already, so when the console writes no styles (output piped or captured: scripts, tests, benchmarks)
its lines are simple to compute: each cell line padded to its column's width (right-justified ones
with their trailing spaces dropped, as rich does), a header's lines at the bottom of its row, a body
cell's at the top, framed by the table's box. :func:`plain` computes those lines and gives None for a
table it cannot draw exactly as rich would (any layout but :func:`~pipeline.cli.tables.fitted`'s, a
cell with markup, an emoji code, a tab or a control character, a line wider than its column): rich
draws that one. The title and caption are rendered by rich, as its table renders them (a line or
a few). ``tests/test_plain_table.py`` checks that the lines are rich's, character for character.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING, cast

from rich._emoji_replace import _emoji_replace
from rich.cells import cell_len
from rich.control import strip_control_codes
from rich.segment import Segment
from rich.style import Style

if TYPE_CHECKING:
    from rich.box import Box
    from rich.console import Console, ConsoleOptions, JustifyMethod, RenderResult
    from rich.style import StyleType
    from rich.table import Column, Table
    from rich.text import TextType

_PADDING = (0, 1, 0, 1)  # rich's default: a space either side of a cell
_JUSTIFIED = ("left", "right", "center")


class PlainTable:
    """A table's lines (:func:`plain`), printed by a console as rich prints the table."""

    def __init__(self, table: Table, cells: list[list[str]]) -> None:
        self._table = table
        self._cells = cells

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from _Part(self._table, "title").__rich_console__(console, options)
        for line in self._lines(console):
            yield Segment(line)
            yield Segment.line()
        yield from _Part(self._table, "caption").__rich_console__(console, options)

    def print(self, console: Console) -> None:
        """Print the table on ``console`` as ``console.print(self)`` does: the title and caption by
        rich, the box and the cells written to its file as they are (rich would measure each line
        again to crop it to the console's width; :func:`plain` checked that they fit)."""
        if self._table.title:
            console.print(_Part(self._table, "title"))
        console.file.write("".join(line + "\n" for line in self._lines(console)))
        if self._table.caption:
            console.print(_Part(self._table, "caption"))

    def _lines(self, console: Console) -> Iterator[str]:
        table = self._table
        assert table.box is not None  # (checked by plain)
        box = table.box.substitute(
            _shown(table, console.options),
            safe=table.safe_box if table.safe_box is not None else console.safe_box,
        )
        return body_lines(box, table.columns, self._cells)


class _Part:
    """A table's title or caption (``part``), rendered as rich's table renders it."""

    def __init__(self, table: Table, part: str) -> None:
        self._table = table
        self._part = part

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table, shown = self._table, _shown(self._table, options)
        if self._part == "title" and table.title:
            title_style = Style.pick_first(table.title_style, "table.title")
            yield from _annotation(console, shown, table.title, title_style, table.title_justify)
        if self._part == "caption" and table.caption:
            caption_style = Style.pick_first(table.caption_style, "table.caption")
            yield from _annotation(console, shown, table.caption, caption_style, table.caption_justify)


def _shown(table: Table, options: ConsoleOptions) -> ConsoleOptions:
    """The options a table's parts are rendered with: as wide as the table."""
    widths = [(c.width or 0) + 2 for c in table.columns]
    return options.update(width=sum(widths) + len(widths) + 1, highlight=table.highlight, height=None)


def _annotation(
    console: Console, options: ConsoleOptions, text: TextType, style: StyleType, justify: JustifyMethod
) -> RenderResult:
    """A title or caption, rendered as rich's table renders it."""
    rendered = console.render_str(text, style=style, highlight=False) if isinstance(text, str) else text
    return console.render(rendered, options=options.update(justify=justify))


@functools.lru_cache(maxsize=1 << 16)
def cells(text: str) -> int:
    """The terminal cells ``text`` takes, as :func:`rich.cells.cell_len` counts them (remembered for
    many more texts than rich remembers: a table of thousands of names measures each several times)."""
    return len(text) if text.isascii() and text.isprintable() else cell_len(text)


def plain(table: Table, console: Console) -> PlainTable | None:
    """``table`` (made by :func:`~pipeline.cli.tables.fitted`) as lines that ``console`` prints exactly
    as it would print the table, when ``console`` writes no styles; else None (rich draws it)."""
    if console.color_system is not None or not _fitted_layout(table):
        return None
    found: list[list[str]] = []
    for column in table.columns:
        texts = [column.header, *column.cells]
        width = column.width or 0
        if not all(issubclass(kind, str) for kind in set(map(type, texts))):
            return None
        strings = cast("list[str]", texts)
        if not all(_plain_text(t, width, column.justify) for t in set(strings)):
            return None
        found.append(strings)
    return PlainTable(table, found)


def _fitted_layout(table: Table) -> bool:
    """Whether ``table`` is laid out as :func:`~pipeline.cli.tables.fitted` lays one out: fixed column
    widths, no wrapping by rich, a header, a box with its edge, no footer, no lines between rows."""
    if (
        table.box is None
        or not table.show_header
        or not table.show_edge
        or table.show_footer
        or table.show_lines
        or table.leading
        or table.padding != _PADDING
        or not table.pad_edge
        or table.collapse_padding
        or table.width is not None
        or table.min_width is not None
        or table.expand
        or any(row.end_section for row in table.rows)
        or not isinstance(table.title or "", str)
        or not isinstance(table.caption or "", str)
    ):
        return False
    return all(
        c.width is not None
        and c.no_wrap
        and c.overflow == "ellipsis"
        and c.vertical == "top"
        and c.justify in _JUSTIFIED
        and c.ratio is None
        and c.min_width is None
        and c.max_width is None
        for c in table.columns
    )


def _plain_text(text: str, width: int, justify: str) -> bool:
    """Whether rich shows ``text`` as it is (no markup, emoji code, tab or control character), each
    line within ``width`` cells once justified."""
    if "[" in text or "\t" in text or strip_control_codes(text) != text:
        return False
    if ":" in text and _emoji_replace(text) != text:
        return False
    return all(cells(line.rstrip() if justify != "left" else line) <= width for line in text.split("\n"))


def body_lines(box: Box, columns: Sequence[Column], cells: list[list[str]]) -> Iterator[str]:
    """The lines of the table's box and cells (``cells[i]``: column ``i``'s header, then its cells).

    A cell's lines are made once per distinct text of its column, and the rows between the header
    and the last are drawn a line index at a time (the n-th line of every row at once)."""
    widths = [(c.width or 0) + 2 for c in columns]
    justify = [c.justify for c in columns]
    rows = len(cells[0])
    drawn = [_drawn(texts[1:], widths[i] - 2, justify[i]) for i, texts in enumerate(cells)]
    yield box.get_top(widths)
    head = [_cell_lines(texts[0], widths[i] - 2, justify[i]) for i, texts in enumerate(cells)]
    yield from _row_lines(head, widths, (box.head_left, box.head_vertical, box.head_right), top=False)
    yield box.get_row(widths, "head", edge=True)
    if rows > 2:
        yield from _middle_lines([d[: rows - 2] for d in drawn], widths, box)
    if rows > 1:
        last = [d[rows - 2] for d in drawn]
        yield from _row_lines(last, widths, (box.foot_left, box.foot_vertical, box.foot_right), top=True)
    yield box.get_bottom(widths)


def _drawn(texts: list[str], width: int, justify: str) -> list[list[str]]:
    """:func:`_cell_lines` of each of a column's ``texts`` (made once per distinct text)."""
    made = {t: _cell_lines(t, width, justify) for t in set(texts)}
    return [made[t] for t in texts]


def _row_lines(
    shown: list[list[str]], widths: list[int], edges: tuple[str, str, str], top: bool
) -> Iterator[str]:
    """One row's lines: its cells' ``shown`` lines at the ``top`` of the row (else at its bottom, as a
    header's), between the ``edges`` (left, divider, right)."""
    left, divider, right = edges
    height = max(len(lines) for lines in shown)
    padded = [
        lines + [" " * widths[i]] * (height - len(lines))
        if top
        else [" " * widths[i]] * (height - len(lines)) + lines
        for i, lines in enumerate(shown)
    ]
    for n in range(height):
        yield left + divider.join(lines[n] for lines in padded) + right


def _middle_lines(drawn: list[list[list[str]]], widths: list[int], box: Box) -> Iterator[str]:
    """The lines of the rows between the header and the last (``drawn[i][k]``: row ``k``'s lines in
    column ``i``), each cell's at the top of its row: the n-th line of every row made at once, the
    rows' texts then joined."""
    line = (box.mid_left + box.mid_vertical.join(["{}"] * len(drawn)) + box.mid_right).replace("{}", "\0")
    line = line.replace("{", "{{").replace("}", "}}").replace("\0", "{}")
    lengths = [list(map(len, column)) for column in drawn]
    heights = list(map(max, *lengths)) if len(lengths) > 1 else lengths[0]
    texts: list[str] = []
    for n in range(max(heights, default=0)):
        nth: list[Iterable[str]] = []
        for i, column in enumerate(drawn):
            blank = " " * widths[i]
            if n == 0:
                nth.append(map(itemgetter(0), column))
            elif max(lengths[i]) <= n:
                nth.append(repeat(blank, len(column)))
            else:
                nth.append([lines[n] if n < len(lines) else blank for lines in column])
        made = list(map(line.format, *nth))
        texts = (
            made
            if n == 0
            else [t + "\n" + m if h > n else t for t, m, h in zip(texts, made, heights, strict=True)]
        )
    if texts:
        yield from "\n".join(texts).split("\n")


def _cell_lines(text: str, width: int, justify: str) -> list[str]:
    """``text``'s lines, each justified to ``width`` cells and padded by a space either side."""
    found = []
    for line in text.split("\n"):
        if justify == "left":
            line = line + " " * (width - cells(line))
        else:
            line = line.rstrip()
            spare = width - cells(line)
            line = (
                " " * spare + line
                if justify == "right"
                else " " * (spare // 2) + line + " " * (spare - spare // 2)
            )
        found.append(f" {line} ")
    return found
