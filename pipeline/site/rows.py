"""site.rows: the standings tables' rows as HTML, built column by column with Arrow.

A period's standings are every player rated by then, so a server's site has millions of rows: they are
the columns' texts joined with :func:`pyarrow.compute.binary_join_element_wise`, not a template loop
(docs/design.md#site-rows). The cells are the ones :func:`pipeline.site.pages.standings_rows` gives
(numbers to two places with trailing zeros dropped, a change signed with a true minus, ``yes``/``no``
and dates in the language built, reasons as phrases with their codes: :mod:`pipeline.site.speech`),
every text escaped for HTML; the player's cell is written once per name (:class:`NameCells`). The data
the filter reads (``data-codes``, ``data-counted``) stays in codes. Knows nothing of the page around
the rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup, escape

from pipeline.core.i18n import N_, gettext
from pipeline.reports.numbers import NumberFormat
from pipeline.site import speech

#: How the site wrote every number before the rule sets had formats: two places, trailing zeros dropped.
TRIMMED = NumberFormat(2, trim=True)

#: The characters that :data:`_ESCAPES` replaces, as a pattern.
_SPECIAL = "[&<>\"']"
_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&#34;"), ("'", "&#39;"))


class NameIndex:
    """The players with a page (``links``: name -> page, relative to the site's root) by position, made
    once for a site: their names (as they are and escaped for HTML) and their pages as Arrow columns
    (their names as JSON, for a ``data-names`` attribute, made when asked: :meth:`data`), and each
    name's position (:meth:`positions`,
    :meth:`where`). The cells of a table are taken from these columns by the positions of its names
    (:class:`NameCells`, :class:`NameData`), not made and kept per name as Python strings (a cell kept
    per name held 16 MB per kind at 81,308 players: docs/design.md#site-memory)."""

    def __init__(self, links: Mapping[str, str]) -> None:
        self.links = links
        self._position = {name: i for i, name in enumerate(links)}
        self.names = pa.array(list(links), pa.string())
        self.shown = escaped(self.names)
        self.pages = _escaped_valid(pa.array(list(links.values()), pa.string()))

    def __len__(self) -> int:
        return len(self._position)

    def position(self, name: str) -> int | None:
        """The position of ``name`` (None: a name without a page)."""
        return self._position.get(name)

    def positions(self, names: Sequence[str | None]) -> pa.Array:
        """The position of each of ``names`` (null for a name without a page, or None)."""
        get = self._position.get
        return pa.array([get(n) if n is not None else None for n in names], pa.int32())

    def where(self, names: pa.ChunkedArray | pa.Array) -> pa.Array:
        """:meth:`positions` of a column of names, found without making them Python strings."""
        found = pc.index_in(names, value_set=self.names)
        return found.combine_chunks() if isinstance(found, pa.ChunkedArray) else found

    def data(self) -> pa.Array:
        """Each name as JSON (``"&lt;"`` and quotes escaped as Jinja's ``tojson`` does), made anew at
        each call (kept by :class:`NameData`, which the period pass alone holds)."""
        return pa.array([str(htmlsafe_json_dumps(n)) for n in self.links], pa.string())


class NameCells:
    """Each player's standings cell (a link to their page, ``root`` before it, or the name), escaped:
    ``kept``, the cells of every name of ``index`` made once, as one column, and taken by position (a
    pass that asks for millions of cells); else made from the index's columns at each call (a pass that
    asks for each name a few times: the column not held, docs/design.md#site-memory)."""

    def __init__(self, index: NameIndex, root: str = "", kept: bool = True) -> None:
        self.index, self.before = index, '<a href="' + str(escape(root))
        self.cells = self._made(None) if kept else None

    def _made(self, where: pa.Array | None) -> pa.Array:
        """The cells of the names at the positions ``where`` (None: every name), null where it is null."""
        pages, shown = (c if where is None else c.take(where) for c in (self.index.pages, self.index.shown))
        found: pa.Array = pc.binary_join_element_wise(self.before, pages, '">', shown, "</a>", "")
        return found

    def __call__(self, names: list[str]) -> pa.Array:
        where = self.index.positions(names)
        found: pa.Array = self.cells.take(where) if self.cells is not None else self._made(where)
        if where.null_count:  # a name without a page (or "", no name): the name alone
            found = pc.if_else(pc.is_valid(where), found, escaped(pa.array(names, pa.string())))
        return found


def escaped(values: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Text values escaped for HTML (missing values as empty text)."""
    return _escaped_valid(pc.fill_null(values.cast(pa.string()), ""))


def _escaped_valid(values: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Text values escaped for HTML, missing values left missing; one pass when none needs escaping."""
    found = values
    if not pc.any(pc.match_substring_regex(found, _SPECIAL)).as_py():
        return found
    for old, new in _ESCAPES:
        found = pc.replace_substring(found, old, new)
    return found


def number(values: pa.Array | pa.ChunkedArray, places: int = 2) -> pa.Array | pa.ChunkedArray:
    """Numbers rounded to ``places`` with trailing zeros dropped (``128``, ``−`` not used), as
    :func:`pipeline.reports.explain.terms.number` writes them; missing values empty."""
    found = pc.cast(pc.round(values.cast(pa.float64()), places), pa.string())
    found = pc.if_else(pc.equal(found, "-0"), "0", found)
    return pc.fill_null(found, "")


def signed(values: pa.Array | pa.ChunkedArray, places: int = 2) -> pa.Array | pa.ChunkedArray:
    """``+30``, ``−5`` (a true minus sign), ``0``, as :func:`pipeline.reports.explain.terms.signed`."""
    rounded = pc.round(values.cast(pa.float64()), places)
    text = number(values, places)
    minus = pc.replace_substring(text, "-", "\u2212")
    return pc.if_else(pc.greater(rounded, 0), pc.binary_join_element_wise("+", text, ""), minus)


def written(
    values: pa.Array | pa.ChunkedArray, style: NumberFormat, sign: bool = False
) -> pa.Array | pa.ChunkedArray:
    """Numbers as the rule set's :class:`~pipeline.reports.numbers.NumberFormat` writes them, a column
    at a time (``sign``: as changes, ``+5.00``, with a true minus sign); missing values empty."""
    if style.trim:
        return signed(values, style.places) if sign else number(values, style.places)
    rounded = pc.round(values.cast(pa.float64()), style.places, round_mode="half_towards_infinity")
    parts = pc.extract_regex(pc.cast(pc.abs(rounded), pa.string()), r"^(?P<whole>\d+)(?:\.(?P<part>\d*))?$")
    whole, part = pc.struct_field(parts, "whole"), pc.struct_field(parts, "part")
    text = whole
    if style.places:
        part = pc.utf8_rpad(pc.fill_null(part, ""), style.places, "0")
        text = pc.binary_join_element_wise(whole, part, ".")
    negative = pc.less(rounded, 0)
    if sign:
        prefix = pc.if_else(negative, "\u2212", pc.if_else(pc.greater(rounded, 0), "+", ""))
    else:
        prefix = pc.if_else(negative, "\u2212", "")
    return pc.fill_null(pc.binary_join_element_wise(prefix, text, ""), "")


def standings_html(
    table: pa.Table, names: NameCells, show_bonus: bool, style: NumberFormat = TRIMMED
) -> Markup:
    """:func:`standings_cells` joined."""
    return Markup(joined(standings_cells(table, names, show_bonus, style)))


def standings_cells(
    table: pa.Table, names: NameCells, show_bonus: bool, style: NumberFormat = TRIMMED
) -> pa.Array:
    """The ``<tr>`` row of each ratings row of a standings table (best first), as one Arrow array of
    text; ratings, deltas and bonus points written in ``style``, the rule set's; a rating
    ``rating ± 2·deviation`` where the rule set has a deviation."""
    if not table.num_rows:
        return pa.array([], pa.string())

    def column(name: str) -> pa.Array:
        return table.column(name).combine_chunks()

    record = pc.binary_join_element_wise(
        *(column(c).cast(pa.string()) for c in ("wins", "losses", "draws")), "\u2013"
    )
    rating = written(column("rating"), style)
    if "deviation" in table.column_names:  # rating ± 2·deviation where the rule set has one
        deviation = column("deviation")
        spread = pc.binary_join_element_wise(rating, written(pc.multiply(deviation, 2.0), style), " ± ")
        rating = pc.if_else(pc.is_null(deviation), rating, spread)
    num, plain = '</td><td class="num">', "</td><td>"
    parts = [
        '<tr><td class="num">',
        column("rating_place").cast(pa.string()),
        '</td><td class="name">',
        names(column("player").to_pylist()),
        plain,
        escaped(column("rank")),
        num,
        rating,
        num,
        written(column("delta"), style, sign=True),
        num,
        column("games").cast(pa.string()),
        num,
        record,
    ]
    if show_bonus:
        parts += [num, written(column("bonus"), style)]
    parts += [plain, _yes_no(column("member")), "</td></tr>\n"]
    rows: pa.Array = pc.binary_join_element_wise(*parts, "")
    return rows


class NameData:
    """Each name as JSON for a ``data-names`` attribute (``"&lt;"`` and quotes escaped as Jinja's
    ``tojson`` does), null for no name: taken from ``index`` by position (a name without a page made
    when asked)."""

    def __init__(self, index: NameIndex) -> None:
        self.index = index
        self._data: pa.Array | None = None  # every name's JSON, made when first asked

    def __call__(self, names: list[str | None]) -> pa.Array:
        names = [n or None for n in names]
        where = self.index.positions(names)
        if self._data is None:
            self._data = self.index.data()
        found: pa.Array = self._data.take(where)
        if where.null_count > names.count(None):  # a name without a page
            made = pa.array([str(htmlsafe_json_dumps(n)) if n else None for n in names], pa.string())
            found = pc.if_else(pc.is_valid(where), found, made)
        return found


def _yes_no(values: pa.Array) -> pa.Array:
    """Booleans as ``yes``/``no`` in the language built."""
    return pc.if_else(values, speech.yes_no(True), speech.yes_no(False))


def _note(values: pa.Array, before: str, after: str, safe: bool = False) -> pa.Array:
    """``before value after`` where there is a value, else empty (``safe``: a value already HTML)."""
    text = pc.fill_null(values, "") if safe else escaped(values)
    return pc.if_else(pc.equal(text, ""), "", pc.binary_join_element_wise(before, text, after, ""))


def _notes(values: pa.Array) -> pa.Array:
    """Notes (codes, comma-separated) as `` (notes: phrase)``, or empty."""
    before = ' <span class="note">(' + str(escape(gettext("notes:"))) + " "
    return _note(speech.reason_cells(values), before, ")</span>", safe=True)


def joined(values: pa.Array) -> str:
    """The texts of ``values`` (none missing) joined into one, without a Python string per value."""
    if not len(values):
        return ""
    lists = pa.ListArray.from_arrays(pa.array([0, len(values)], pa.int32()), values)
    found: str = pc.binary_join(lists, "")[0].as_py()
    return found


def ledger_cells(frame: pd.DataFrame, names: NameCells, data: NameData) -> pa.Array:
    """The ``<tr>`` row of each game of a :func:`pipeline.site.pages.game_frame`, as the ledger shows it:
    the data the filter reads, then date, period, black, white, result, counted, reasons (with notes and
    the parse error), points, event and file; as one Arrow array of text (a period's rows kept as one
    buffer, not as Python strings: :func:`joined` makes a page of them)."""
    if not len(frame):
        return pa.array([], pa.string())
    black, white = ([v if isinstance(v, str) and v else None for v in frame[c]] for c in ("black", "white"))
    black_data, white_data = data(black), data(white)
    both = pc.binary_join_element_wise(black_data, white_data, ",")
    listed = pc.coalesce(both, black_data, white_data, pa.scalar("", pa.string()))
    is_counted = pa.array(frame["counted"].astype(bool).to_numpy())
    counted = pc.if_else(is_counted, "yes", "no")  # the filter's value: a code
    period = escaped(_strings(frame["period"]))
    text = {c: escaped(_strings(frame[c])) for c in ("result", "event", "source", "codes")}
    points = escaped(pa.array(["; ".join(p) for p in frame["points"]], pa.string()))
    td, name = "</td><td", '</td><td class="name"'
    label = {c: f' data-label="{escape(gettext(c))}">' for c in _LEDGER_LABELS}
    parts = [
        "<tr data-names='[",
        listed,
        "]' data-period=\"",
        period,
        '" data-codes="',
        text["codes"],
        '" data-counted="',
        counted,
        '">\n<td' + label["date"],
        escaped(speech.days(_strings(frame["date_text"]))),
        td + label["period"],
        period,
        name + label["black"],
        names([b or "" for b in black]),
        name + label["white"],
        names([w or "" for w in white]),
        td + label["result"],
        text["result"],
        td + label["counted"],
        _yes_no(is_counted),
        td + label["reasons"],
        speech.reason_cells(_strings(frame["reasons"])),
        _notes(_strings(frame["notes"])),
        _note(_strings(frame["parse_error"]), ' <span class="note" data-words="parser">', "</span>"),
        td + label["points"],
        points,
        td + label["event"],
        text["event"],
        '</td><td class="file"' + label["file"],
        text["source"],
        "</td></tr>\n",
    ]
    found: pa.Array = pc.binary_join_element_wise(*parts, "")
    return found


#: The ledger's columns, each cell's ``data-label`` (its column's name in the language built, shown
#: before the cell on a phone).
_LEDGER_LABELS = (
    N_("date"),
    N_("period"),
    N_("black"),
    N_("white"),
    N_("result"),
    N_("counted"),
    N_("reasons"),
    N_("points"),
    N_("event"),
    N_("file"),
)


def _strings(values: pd.Series) -> pa.Array:
    """A column of text (missing values null) as an Arrow array."""
    return pa.array([v if isinstance(v, str) else None for v in values], pa.string())


def player_games_html(sides: pa.Table, names: NameCells) -> list[str]:
    """The ``<tr>`` row of each player's side of a game (:data:`pipeline.site.pages.SIDE_COLUMNS`), as
    their page lists it: date, period, colour, opponent, result, event, counted, reasons (their phrases,
    the code on hover) with the notes, and the points the game gave them."""
    found: list[str] = player_games_cells(sides, names).to_pylist()
    return found


def player_games_cells(sides: pa.Table, names: NameCells) -> pa.Array:
    """:func:`player_games_html`'s rows as one Arrow array of text (a bucket's rows kept as one buffer,
    not as Python strings)."""
    if not sides.num_rows:
        return pa.array([], pa.string())

    def column(name: str) -> pa.Array:
        return escaped(sides.column(name).combine_chunks())

    colours = sides.column("colour").combine_chunks()
    colour = pc.if_else(
        pc.equal(colours, "B"), speech.colour("B"), pc.if_else(pc.equal(colours, "W"), speech.colour("W"), "")
    )
    td = "</td><td>"
    parts = [
        "<tr><td>",
        escaped(speech.days(sides.column("date"))),
        td,
        column("period"),
        td,
        colour,
        '</td><td class="name">',
        names(sides.column("opponent").to_pylist()),
        td,
        column("result"),
        td,
        column("event"),
        td,
        _yes_no(sides.column("counted").combine_chunks()),
        td,
        speech.reason_cells(sides.column("reasons")),
        _notes(sides.column("notes").combine_chunks()),
        td,
        column("own_points"),
        "</td></tr>\n",
    ]
    found: pa.Array = pc.binary_join_element_wise(*parts, "")
    return found
