"""The site's memory helpers (issue 25): the allocator switched for a build, rows made a block at a time,
the players' cells taken from columns made once."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import escape

from pipeline.site import periods, players, rows
from pipeline.site.build import system_pool


def test_system_pool_is_the_default_inside_and_restored_after_an_error() -> None:
    before = pa.default_memory_pool().backend_name
    with pytest.raises(RuntimeError), system_pool():
        assert pa.default_memory_pool().backend_name == "system"
        raise RuntimeError("inside")
    assert pa.default_memory_pool().backend_name == before


def test_grouped_gives_each_player_their_rows_across_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(players, "BLOCK_ROWS", 2)
    names = pa.chunked_array([["ann", "ann", "bob", "cy", "cy", "cy"]])
    grouped = players._Grouped(names, lambda start, stop: list(range(start, stop)))
    assert list(grouped) == ["ann", "bob", "cy"]
    assert [grouped.get(n) for n in ("cy", "ann", "bob", "dee")] == [[3, 4, 5], [0, 1], [2], []]


def _index() -> rows.NameIndex:
    return rows.NameIndex({"ann": "players/ann.html", "<b>&'": 'players/b".html'})


def test_name_cells_link_a_name_with_a_page_under_the_root() -> None:
    cells = rows.NameCells(_index(), "../")
    assert cells(["ann", "ann"]).to_pylist() == ['<a href="../players/ann.html">ann</a>'] * 2


def test_name_cells_escape_the_name_and_the_page() -> None:
    cells = rows.NameCells(_index())
    assert cells(["<b>&'"]).to_pylist() == ['<a href="players/b&#34;.html">&lt;b&gt;&amp;&#39;</a>']


def test_name_cells_show_a_name_without_a_page_escaped_and_no_name_empty() -> None:
    cells = rows.NameCells(_index())
    assert cells(["ann", "x<y", ""]).to_pylist() == ['<a href="players/ann.html">ann</a>', "x&lt;y", ""]


def test_name_data_is_each_names_json_as_jinja_writes_it_and_null_for_no_name() -> None:
    data = rows.NameData(_index())
    names = ["<b>&'", "ann", "zoë<", None, ""]
    expected = [str(htmlsafe_json_dumps(n)) for n in names[:3]] + [None, None]
    assert data(names).to_pylist() == expected


@pytest.mark.parametrize(
    ("text", "shown"), [("plain", "plain"), ("a&b<c>\"d'", "a&amp;b&lt;c&gt;&#34;d&#39;")]
)
def test_escaped_writes_the_five_special_characters_as_markupsafe_does(text: str, shown: str) -> None:
    assert rows.escaped(pa.array([text, None])).to_pylist() == [shown, ""]
    assert str(escape(text)) == shown


def test_name_index_finds_a_column_of_names_and_null_for_a_name_without_a_page() -> None:
    where = _index().where(pa.chunked_array([["<b>&'", "x"], ["ann"]]))
    assert where.to_pylist() == [1, None, 0]


class _Kept:
    """Buckets that keep what is added, by kind."""

    def __init__(self) -> None:
        self.added: dict[str, list[pa.Table]] = {}

    def add(self, kind: str, table: pa.Table) -> None:
        self.added.setdefault(kind, []).append(table)


def _ratings(rows: list[tuple[str, int, float, str]]) -> pa.Table:
    names, games, delta, rank = (list(c) for c in zip(*rows, strict=True))
    return pa.table({"player": names, "games": games, "delta": delta, "rank": rank, "rank_before": rank})


def test_ratings_rows_are_kept_where_the_player_first_appears_or_moved() -> None:
    index, kept = _index(), _Kept()
    seen = np.zeros(len(index), dtype=bool)
    still = [("ann", 0, 0.0, "1k"), ("<b>&'", 0, 0.0, "2k")]
    periods._keep_ratings(_ratings(still), "2024-01", index, seen, kept)
    periods._keep_ratings(_ratings([still[0], ("<b>&'", 2, 5.0, "2k")]), "2024-02", index, seen, kept)
    first, second = kept.added["ratings"]
    assert first.column("player").to_pylist() == ["ann", "<b>&'"]
    assert second.column("player").to_pylist() == ["<b>&'"]
    assert second.column("period").to_pylist() == ["2024-02"] and second.column("moved").to_pylist() == [True]


def test_joined_is_the_texts_of_a_slice_in_order() -> None:
    assert rows.joined(pa.array(["<tr>a", "<tr>b", "<tr>c"]).slice(1, 2)) == "<tr>b<tr>c"


def test_joined_of_no_texts_is_empty() -> None:
    assert rows.joined(pa.array([], pa.string())) == ""
