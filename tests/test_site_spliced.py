"""A page's rows written from their Arrow column and its text in parts (pipeline.site.spliced), the
ledger's game frames made a part of a batch at a time, the player pass's blocks and its derivations made
as the page is written: the same bytes as the page rendered whole."""

from __future__ import annotations

import filecmp
from pathlib import Path

import jinja2
import pyarrow as pa
import pytest
from markupsafe import Markup, escape
from site_fixtures import rated_sample

from pipeline.site import build_site, periods, players, spliced
from pipeline.site.spliced import Rows, write_page

_ENV = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
_PAGE = _ENV.from_string(
    "<h1>{{ title }}</h1>{% if rows %}<table>{{ rows }}</table>{% endif %}{{ more }}·end\n"
)


def test_rows_print_joined_and_are_true_when_there_is_a_row() -> None:
    rows = Rows(pa.array(["<tr>a</tr>", "<tr>ü</tr>"]))
    assert str(escape(rows)) == "<tr>a</tr><tr>ü</tr>" and rows and len(rows) == 2
    assert not Rows([]) and Rows(["<tr>x"]).encoded() == b"<tr>x"


@pytest.mark.parametrize(
    "values",
    [
        pa.array(["<tr>1", "<tr>羽焰", "<tr>−3"]).slice(1, 2),
        pa.array(["a", None, "b"]),
        pa.array(["", ""]),
        pa.array([], pa.string()),
        pa.array(["x", "yz"], pa.large_string()),
    ],
)
def test_encoded_is_the_joined_rows_in_utf8(values: pa.Array) -> None:
    expected = "".join(v for v in values.to_pylist() if v is not None).encode("utf-8")
    assert bytes(Rows(values).encoded()) == expected


@pytest.mark.parametrize("part", [1 << 20, 3])
@pytest.mark.parametrize("rows", [["<tr>a", "<tr>b&c"], []])
def test_write_page_is_the_rendered_page_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rows: list[str], part: int
) -> None:
    monkeypatch.setattr(spliced, "PART_CHARS", part)
    monkeypatch.setattr(spliced, "_CHUNKS", 2 if part < 10 else 4096)  # a marker in every second batch
    context = {"title": "<x> ü", "rows": Rows(pa.array(rows, pa.string())), "more": Rows(["<p>更多"])}
    write_page(_PAGE, context, tmp_path / "page.html")
    rendered = _PAGE.render(context)
    assert (tmp_path / "page.html").read_bytes() == rendered.encode("utf-8")
    assert "\x00" not in rendered


def test_write_page_without_rows_renders_as_before(tmp_path: Path) -> None:
    write_page(_PAGE, {"title": "t", "rows": "", "more": Markup("<b>")}, tmp_path / "page.html")
    assert (tmp_path / "page.html").read_text(encoding="utf-8") == "<h1>t</h1><b>·end"


def test_the_site_is_the_same_with_small_frames_and_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = rated_sample(tmp_path)
    build_site(paths["out"], tmp_path / "whole")
    monkeypatch.setattr(periods, "FRAME_ROWS", 3)
    monkeypatch.setattr(players, "BLOCK_ROWS", 2)
    monkeypatch.setattr(spliced, "PART_CHARS", 100)
    build_site(paths["out"], tmp_path / "parts")
    compared = filecmp.dircmp(tmp_path / "whole", tmp_path / "parts")
    assert _same(compared), "the sites differ"


def _same(compared: filecmp.dircmp[str]) -> bool:
    """Every file of both folders the same, byte for byte (``dircmp`` compares by stat only)."""
    if compared.left_only or compared.right_only or compared.funny_files:
        return False
    left, right = Path(compared.left), Path(compared.right)
    for name in compared.common_files:
        if (left / name).read_bytes() != (right / name).read_bytes():
            return False
    return all(_same(sub) for sub in compared.subdirs.values())
