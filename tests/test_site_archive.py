"""The club's web site of an archive over several years (pipeline/site): the year picker, the ledger a
page per period (split into pages of at most PAGE_ROWS rows), progress, and an interrupted build that
leaves nothing behind (a real `ratings site` process killed with SIGTERM)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from site_fixtures import ROOT, links, rated_years, tables

from pipeline import reports
from pipeline.core.progress import Advance
from pipeline.site import build_site, periods

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("years")
    cwd = Path.cwd()
    os.chdir(folder)  # no config/ here: the defaults, every player a member
    try:
        out = rated_years(folder)
    finally:
        os.chdir(cwd)
    build_site(out, folder / "site")
    return {"out": out, "site": folder / "site"}


def _options(page: Path) -> list[tuple[str, str]]:
    """The year picker's options of ``page``: (file it opens, year)."""
    return re.findall(r'<option value="([^"]+)"(?: selected)?>(\d{4})</option>', page.read_text("utf-8"))


def test_year_picker_offers_every_year_with_its_latest_period(archive: dict[str, Path]) -> None:
    rated = reports.rated_periods(archive["out"])
    latest = {p[:4]: p for p in rated}
    found = _options(archive["site"] / "index.html")
    assert sorted(year for _, year in found) == sorted(latest)
    assert all(link == f"period-{latest[year]}.html" for link, year in found)


def test_period_links_of_a_page_are_those_of_its_year(archive: dict[str, Path]) -> None:
    rated = reports.rated_periods(archive["out"])
    first = rated[0]
    shown = {link for link in links(archive["site"] / f"period-{first}.html") if link.startswith("period-")}
    assert shown == {f"period-{p}.html" for p in rated if p[:4] == first[:4]}


def test_every_period_page_lists_all_years(archive: dict[str, Path]) -> None:
    rated = reports.rated_periods(archive["out"])
    html = (archive["site"] / "periods.html").read_text("utf-8")
    assert all(f'href="period-{p}.html"' in html for p in rated)


def test_ledger_has_a_page_per_period_with_its_games(archive: dict[str, Path]) -> None:
    played = sorted({str(p) for p in reports.audit_games(archive["out"])["period"].dropna()})
    for period in played:
        rows = tables(archive["site"] / "games" / f"{period}.html")[0][1:]
        expected = reports.audit_games(archive["out"], period=period)
        assert [r[0] for r in rows] == [d.isoformat() for d in expected["date"]]


def test_records_without_a_period_have_a_ledger_page(archive: dict[str, Path]) -> None:
    games = reports.audit_games(archive["out"])
    rows = tables(archive["site"] / "games" / "undated.html")[0][1:]
    assert len(rows) == int(games["period"].isna().sum()) > 0


def test_ledger_index_links_each_period_page(archive: dict[str, Path]) -> None:
    found = links(archive["site"] / "games.html")
    played = {str(p) for p in reports.audit_games(archive["out"])["period"].dropna()}
    assert {f"games/{p}.html" for p in played} | {"games/undated.html"} <= set(found)


def test_a_period_longer_than_a_page_is_split(
    archive: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(periods, "PAGE_ROWS", 2)
    build_site(archive["out"], tmp_path / "site")
    busiest = reports.audit_games(archive["out"])["period"].value_counts().idxmax()  # 2022-02, 3 games
    first, second = (tmp_path / "site" / "games" / f"{busiest}{s}.html" for s in ("", "-p2"))
    assert [len(tables(p)[0]) - 1 for p in (first, second)] == [2, 1]
    assert f"{busiest}-p2.html" in " ".join(links(first))


class _Recorded:
    """Steps that record each step's name, total and units advanced."""

    def __init__(self) -> None:
        self.seen: dict[str, list[int | None]] = {}

    def step(self, what: str, total: int | None = None) -> AbstractContextManager[Advance]:
        return self._step(what, total)

    @contextmanager
    def _step(self, what: str, total: int | None) -> Iterator[Advance]:
        self.seen[what] = [total, 0]
        yield lambda n: self.seen[what].__setitem__(1, (self.seen[what][1] or 0) + n)


def test_progress_counts_the_periods_and_the_players(archive: dict[str, Path], tmp_path: Path) -> None:
    steps = _Recorded()
    written = build_site(archive["out"], tmp_path / "site", steps=steps)
    assert steps.seen["writing player pages"] == [written.players, written.players]
    total, done = steps.seen["writing the pages of each period"]
    assert total == done == len(reports.game_periods(archive["out"]))


_SLOW = """
import sys, time
sys.path.insert(0, {root!r})
from pipeline.site import players
def slow(*args, **kwargs):
    print("writing players", flush=True)
    time.sleep(60)
players.write_players = slow
from pipeline.cli import app
sys.argv = ["ratings", "site", {target!r}, "--out", {out!r}]
app()
"""


def test_sigterm_leaves_the_previous_site_and_nothing_else(archive: dict[str, Path], tmp_path: Path) -> None:
    target = tmp_path / "web"
    build_site(archive["out"], target)
    before = sorted(p.relative_to(target) for p in target.rglob("*"))
    script = _SLOW.format(root=str(ROOT), target=str(target), out=str(archive["out"]))
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "writing players"  # the staging folder is half written
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".web.")]
    child.send_signal(signal.SIGTERM)
    started = time.monotonic()
    _, err = child.communicate(timeout=30)
    assert child.returncode == 130 and time.monotonic() - started < 30, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["web"]
    assert sorted(p.relative_to(target) for p in target.rglob("*")) == before
