"""Helpers for the site's tests (tests/test_site.py, tests/test_site_browser.py): a rated copy of the
shipped sample, its site, and the links of a page."""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path

from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.site import build_site

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
#: A game of two roster members for the sample's first rated month, added after the first run.
LATE = ("fish", "二黑", "B+R", "2024-05-30")


def rated_sample(folder: Path, rules: str = "club") -> dict[str, Path]:
    """Copy data/raw and config/ into ``folder`` and rate them under ``rules`` into ``folder/out``;
    return the paths (``raw``, ``config``, ``out``)."""
    shutil.copytree(ROOT / "data" / "raw", folder / "raw")
    shutil.copytree(ROOT / "config", folder / "cfg")
    paths = {"raw": folder / "raw", "config": folder / "cfg" / "ratings.toml", "out": folder / "out"}
    rate(paths, rules)
    return paths


def rate(paths: dict[str, Path], rules: str = "club") -> None:
    """``ratings run`` of ``paths`` under ``rules`` (asserts it succeeds)."""
    args = ["run", "--config", str(paths["config"]), "--raw", str(paths["raw"]), "--out", str(paths["out"])]
    result = runner.invoke(app, [*args, "--rules", rules, "--workers", "1"])
    assert result.exit_code == 0, result.output


def add_late_record(paths: dict[str, Path]) -> None:
    """Write :data:`LATE` into the sample's first month and rate again (an incremental run)."""
    black, white, result, date = LATE
    record = sgf(black, white, result, date, black_rank="2d", white_rank="2d", seed=91)
    (paths["raw"] / "2024-05" / "zz-late.sgf").write_text(record, encoding="utf-8")
    rate(paths)


def site_of(paths: dict[str, Path], name: str = "site") -> Path:
    """Build the site of ``paths['out']`` into a folder beside it; return the folder."""
    target = paths["out"].parent / name
    build_site(paths["out"], target)
    return target


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []  # (attribute, value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if key in ("href", "src") and value is not None:
                self.found.append((key, value))


def links(page: Path) -> list[str]:
    """Every ``href`` and ``src`` of the HTML file ``page``, as written."""
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return [value for _, value in parser.found]


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables(page: Path) -> list[list[list[str]]]:
    """Every table of the HTML file ``page``: rows (the header row first) of cell texts."""
    parser = _Tables()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.tables


#: Games of an archive over three years (black, white, result, date), for the year picker and the ledger.
YEARS = (
    ("ann", "bob", "B+R", "2021-03-04"),
    ("bob", "cat", "W+R", "2021-11-20"),
    ("cat", "ann", "B+2.5", "2022-02-02"),
    ("ann", "bob", "W+R", "2022-02-09"),
    ("bob", "ann", "B+R", "2022-02-16"),
    ("cat", "bob", "B+R", "2023-07-01"),
)


def rated_years(folder: Path) -> Path:
    """Rate :data:`YEARS` (and a record without a date) with no configuration into ``folder/out``
    (run from ``folder``, so no ``config/`` applies); return the output folder."""
    raw = folder / "raw"
    raw.mkdir()
    for i, (black, white, result, date) in enumerate(YEARS):
        record = sgf(black, white, result, date, black_rank="2d", white_rank="2d", seed=i)
        (raw / f"{i:02d}.sgf").write_text(record, encoding="utf-8")
    (raw / "undated.sgf").write_text(sgf("ann", "cat", "B+R", None, seed=9), encoding="utf-8")
    out = folder / "out"
    result = runner.invoke(app, ["run", "--raw", str(raw), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.output
    return out
