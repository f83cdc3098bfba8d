"""site.rows: the standings tables' rows as HTML, built column by column with Arrow.

A period's standings are every player rated by then: 5 million rows over the 120 periods of the 10^6-game
bench archive. A template loop costs about 60 µs a row there (5 minutes); joining the columns' texts
with :func:`pyarrow.compute.binary_join_element_wise` costs well under 1 µs. The cells are the ones
:func:`pipeline.site.pages.standings_rows` gives (numbers to two places with trailing zeros dropped, a
change signed with a true minus, ``yes``/``no``), every text escaped for HTML; the player's cell is
written once per name (:class:`NameCells`). Knows nothing of the page around the rows.
"""

from __future__ import annotations

from collections.abc import Mapping

import pyarrow as pa
import pyarrow.compute as pc
from markupsafe import Markup, escape

_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&#34;"), ("'", "&#39;"))


class NameCells:
    """Each player's standings cell (a link to their page, or the name), escaped, made once per name."""

    def __init__(self, links: Mapping[str, str], root: str = "") -> None:
        self.links, self.root = links, root
        self._made: dict[str, str] = {}

    def __call__(self, names: list[str]) -> pa.Array:
        made = self._made
        for name in names:
            if name not in made:
                link = self.links.get(name)
                shown = str(escape(name))
                made[name] = f'<a href="{escape(self.root + link)}">{shown}</a>' if link else shown
        return pa.array([made[n] for n in names], pa.string())


def escaped(values: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Text values escaped for HTML (missing values as empty text)."""
    found = pc.fill_null(values.cast(pa.string()), "")
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


def standings_html(table: pa.Table, names: NameCells, show_bonus: bool) -> Markup:
    """The ``<tr>`` rows of a standings table (ratings rows, best first), joined."""
    if not table.num_rows:
        return Markup("")

    def column(name: str) -> pa.Array:
        return table.column(name).combine_chunks()

    record = pc.binary_join_element_wise(
        *(column(c).cast(pa.string()) for c in ("wins", "losses", "draws")), "\u2013"
    )
    num, plain = '</td><td class="num">', "</td><td>"
    parts = [
        '<tr><td class="num">',
        column("place").cast(pa.string()),
        '</td><td class="name">',
        names(column("player").to_pylist()),
        plain,
        escaped(column("rank")),
        num,
        number(column("rating")),
        num,
        signed(column("delta")),
        num,
        column("games").cast(pa.string()),
        num,
        record,
    ]
    if show_bonus:
        parts += [num, number(column("bonus"))]
    parts += [plain, pc.if_else(column("member"), "yes", "no"), "</td></tr>\n"]
    rows = pc.binary_join_element_wise(*parts, "")
    return Markup("".join(rows.to_pylist()))
