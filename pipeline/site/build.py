"""site.build: write the club's static web site of a finished output folder.

Pages (Jinja2 templates of this package, autoescaped, undefined names an error), one folder::

    index.html                 the standings of the latest rated period (period-<label>.html: each period)
    players.html               every player; players/<slug>.html one page each (pipeline.site.slugs),
                               players/<slug>.svg the rating history chart (pipeline.reports.plots)
    games.html                 the games ledger, filtered in the browser (static/filter.js)
    rules.html                 the rule set and the run's settings (the manifest)
    reports.html               the rule set's reports (promotions, fees, certification), when it has any
    static/site.css, static/filter.js

Every link is relative, so the folder can be posted anywhere as it is. The site is written into a new
folder beside the target and swapped in when complete: a failure leaves the previous site as it was. A
target that exists, is not empty and holds no site of this command (no :data:`MARKER` file) is refused,
so that no other folder is ever replaced. Knows nothing of how the rows are chosen
(:mod:`pipeline.site.pages`).
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from pipeline import __version__
from pipeline.reports import ReportError, plots
from pipeline.reports import explain as explain_mod
from pipeline.site import pages
from pipeline.site.pages import Links, SiteData

#: The file that marks a folder as a site written by :func:`build_site` (it may be replaced).
MARKER = ".ratings-site"
STATIC = ("site.css", "filter.js")
TITLE = "Club ratings"


class SiteError(ValueError):
    """A target folder the site cannot be written to; the message names it and says why."""


@dataclass(frozen=True, slots=True)
class SiteSummary:
    """What :func:`build_site` wrote: the ``target`` folder, its ``pages`` (HTML files), ``players``
    with a page, ``charts`` drawn and ``periods`` with a standings page."""

    target: Path
    pages: int
    players: int
    charts: int
    periods: int


def build_site(out: Path, target: Path, title: str = TITLE) -> SiteSummary:
    """Write the site of the output folder ``out`` into the folder ``target`` (created, or replaced
    when it holds a site written before), its pages titled ``title``.

    Raises:
        ReportError: if ``out`` holds no output of ``ratings run``.
        SiteError: if ``target`` is a file, or a folder that is neither empty nor a site of this command.
        PlotError: if no CJK font is installed for the charts.
        OSError: if the folder cannot be written.
    """
    check_target(target)
    data = pages.collect(out)
    with staging(target) as folder:
        written = _write_all(data, folder, title)
    return SiteSummary(target, written, len(data.players), len(data.rated), len(data.periods))


def check_target(target: Path) -> None:
    """Return if the site may be written to ``target``; else raise SiteError saying why not."""
    if target.exists() and not target.is_dir():
        raise SiteError(f"site folder {target} is a file: name a folder")
    if target.is_dir() and any(target.iterdir()) and not (target / MARKER).exists():
        raise SiteError(
            f"site folder {target} is not empty and holds no site of `ratings site` (no {MARKER}): "
            "name a new or empty folder, so that nothing else is replaced"
        )


@contextmanager
def staging(target: Path) -> Iterator[Path]:
    """Yield a new empty folder beside ``target``; when the block succeeds, put it in ``target``'s
    place (the previous site removed); when it raises, remove it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_hex(6)
    new, old = (target.with_name(f".{target.name}.{token}.{kind}") for kind in ("new", "old"))
    new.mkdir()
    try:
        yield new
        (new / MARKER).write_text("written by `ratings site`; the whole folder is replaced on each run\n")
        if target.exists():
            os.replace(target, old)
        os.replace(new, target)
    finally:
        shutil.rmtree(new, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


def environment() -> jinja2.Environment:
    """The templates of this package: autoescaped, an undefined name an error, blocks trimmed."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("pipeline.site", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _write_all(data: SiteData, folder: Path, title: str) -> int:
    """Every page, chart and static file of ``data`` into ``folder``; return the number of pages."""
    people, periods = pages.player_links(data), pages.period_links(data)
    page = _Pages(environment(), folder, _common(data, title))
    for label in data.periods:
        page.write(periods[label], "standings.html.j2", _standings(data, label, people, periods))
    latest = data.periods[-1] if data.periods else None
    page.write("index.html", "standings.html.j2", _standings(data, latest, people, periods))
    rated = [(n, people[n]) for n in data.players if n in data.rated]
    unrated = [(n, people[n]) for n in data.players if n not in data.rated]
    page.write("players.html", "players.html.j2", {"section": "players", "rated": rated, "unrated": unrated})
    page.write("games.html", "games.html.j2", _games(data, people))
    page.write("rules.html", "rules.html.j2", _rules(data))
    if data.reports:
        tables = pages.report_tables(data, people)
        page.write("reports.html", "reports.html.j2", {"section": "reports", "tables": tables})
    for name in data.players:
        page.write(people[name], "player.html.j2", _player(data, name, folder, people), root="../")
    _copy_static(folder / "static")
    return page.count


def _copy_static(folder: Path) -> None:
    """The stylesheet and the script of this package's ``static/`` into ``folder``."""
    folder.mkdir(exist_ok=True)
    for name in STATIC:
        (folder / name).write_bytes(resources.files("pipeline.site").joinpath("static", name).read_bytes())


class _Pages:
    """Renders templates into files of one folder, counting them."""

    def __init__(self, env: jinja2.Environment, folder: Path, common: dict[str, Any]) -> None:
        self.env, self.folder, self.common, self.count = env, folder, common, 0

    def write(self, name: str, template: str, context: dict[str, Any], root: str = "") -> None:
        html = self.env.get_template(template).render(self.common | context | {"root": root})
        path = self.folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")
        self.count += 1


def _common(data: SiteData, title: str) -> dict[str, Any]:
    return {
        "site_title": title,
        "lang": "en",
        "rule_set": data.rule_set,
        "periods": data.periods,
        "version": __version__,
        "has_reports": bool(data.reports),
        "section": "",
    }


def _standings(data: SiteData, label: str | None, people: Links, periods: Links) -> dict[str, Any]:
    """The standings page of the period ``label`` (None: the run rated no period)."""
    table = data.standings[label] if label else None
    rows = [] if table is None else pages.standings_rows(table, people)
    show_bonus = table is not None and bool((table["bonus"] != 0).any())
    context = {"section": "standings", "period": label, "rows": rows, "period_links": periods}
    return context | {"show_bonus": show_bonus}


def _games(data: SiteData, people: Links) -> dict[str, Any]:
    labels = sorted({str(p) for p in data.games["period"].dropna()})
    return {
        "section": "games",
        "rows": pages.ledger_rows(data.games, people),
        "players": data.players,
        "game_periods": labels,
        "codes": pages.reason_codes(data.games),
    }


def _rules(data: SiteData) -> dict[str, Any]:
    cap = str(data.manifest.get("settings", {}).get("validity", {}).get("opponent_cap", "N"))
    reasons = [(code, words.format(cap=cap)) for code, words in explain_mod.REASON_WORDS.items()]
    settings = data.manifest.get("settings", {})
    return {
        "section": "rules",
        "settings": settings,
        "reasons": reasons,
        "run": pages.run_facts(data.manifest),
    }


def _player(data: SiteData, name: str, folder: Path, people: Links) -> dict[str, Any]:
    """The page of ``name``: their standing, chart, games and derivations. A derivation or chart the
    output cannot give (a name that two players share) is left out with the reason on the page."""
    summary = pages.player_summary(data, name)
    chart = Path(people[name]).with_suffix(".svg")
    problems = []
    try:
        if summary is not None:
            plots.history_chart(data.out, [name], folder / chart)
        explained = pages.explanations(data, name)
    except ReportError as e:
        problems.append(str(e))
        explained = []
    shown = {e.period for e in explained}
    return {
        "section": "players",
        "name": name,
        "summary": summary if not problems else None,
        "problems": problems,
        "chart": chart.name,
        "games": pages.player_games(data, name, people),
        "explanations": explained,
        "carried": [p for p in data.rated.get(name, []) if p not in shown],
        "links": people,
    }
