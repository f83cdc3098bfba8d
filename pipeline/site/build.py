"""site.build: write the club's static web site of a finished output folder.

Pages (Jinja2 templates of this package, autoescaped, undefined names an error), one folder::

    index.html                 the standings of the latest rated period, with the period picker (a year,
                               then its periods); period-<label>.html each period's (-p2, -p3: more rows)
    periods.html               every rated period by year
    games.html                 the games ledger's periods by year, with their counts;
                               games/<label>.html each period's games, filtered in the browser
                               (static/filter.js), games/undated.html the records without a period
    players.html               every player; players/<slug>.html one page each (pipeline.site.slugs),
                               players/<slug>.svg the rating history chart (pipeline.site.chart)
    leaderboards.html          the latest boards; boards/<label>.html each period's and year's
    rules.html                 the rules of the run, in words (pipeline.site.rules)
    reports.html               the rule set's reports (promotions, fees, certification), when it has any
    static/site.css, static/filter.js, static/picker.js

Built in one language (:func:`pipeline.core.i18n.current` when none is given), the folder is that
language's site. Built in several, each language's site is a folder of its own (``zh-Hans/``,
``zh-Hant/``, ``en/``), built inside :func:`pipeline.core.i18n.speaking` (the templates' words and the
python's), every page with a switch to the same page in the other languages, and ``index.html`` the
chooser of the languages (:data:`CHOOSER`).

The output is read in one pass (:mod:`pipeline.site.periods`: each period's partitions and games once,
the players' rows kept on disk by player) and the players' pages written from those rows
(:mod:`pipeline.site.players`): memory holds a period's rows or a bucket of players', never a whole
table. Every link is relative, so the folder can be posted anywhere as it is. The site is written into
a new folder beside the target and swapped in when complete: a failure or an interrupt leaves the
previous site as it was and nothing else behind. A target that exists, is not empty and holds no site
of this command (no :data:`MARKER` file) is refused, so that no other folder is ever replaced.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from markupsafe import Markup

from pipeline import __version__
from pipeline.core import i18n
from pipeline.core.i18n import N_, gettext
from pipeline.core.interrupts import held
from pipeline.core.periods import year_of
from pipeline.core.progress import SILENT, Steps
from pipeline.output import folder as outputs
from pipeline.output.memory import release_unused_memory
from pipeline.reports import REPORT_FILES, REPORT_RULE_SETS, rule_set_report
from pipeline.site import boards, pages, periods, players, speech
from pipeline.site import source as source_mod
from pipeline.site.rows import NameIndex
from pipeline.site.rules import rules_context
from pipeline.site.slugs import period_file, slugs
from pipeline.site.spill import Buckets, bucket_count
from pipeline.site.spliced import write_page

#: The file that marks a folder as a site written by :func:`build_site` (it may be replaced).
MARKER = ".ratings-site"
STATIC = ("site.css", "filter.js", "picker.js")
TITLE = N_("Club ratings")
#: The page that lets a reader choose a language, when the site is built in several.
CHOOSER = "chooser.html.j2"
_SPILL = ".spill"


class SiteError(ValueError):
    """A target folder the site cannot be written to; the message names it and says why."""


@dataclass(frozen=True, slots=True)
class SiteSummary:
    """What :func:`build_site` wrote: the ``target`` folder, its ``pages`` (HTML files, of every
    language), ``players`` with a page, ``charts`` drawn and ``periods`` with a standings page (in each
    language), and the ``languages`` built."""

    target: Path
    pages: int
    players: int
    charts: int
    periods: int
    languages: tuple[str, ...] = (i18n.ENGLISH,)


def build_site(
    out: Path,
    target: Path,
    title: str | None = None,
    steps: Steps = SILENT,
    languages: Sequence[str] | None = None,
) -> SiteSummary:
    """Write the site of the output folder ``out`` into the folder ``target`` (created, or replaced
    when it holds a site written before), its pages titled ``title`` (None: "Club ratings" in each
    language), in ``languages`` (None: the language spoken; several: a folder each and a chooser);
    ``steps`` shows how far it is.

    Raises:
        ReportError: if ``out`` holds no output of ``ratings run``.
        SiteError: if ``target`` is a file, or a folder that is neither empty nor a site of this command.
        LanguageError: if one of ``languages`` is no language.
        OSError: if the folder cannot be written.
    """
    chosen = tuple(dict.fromkeys(i18n.language_of(lang) for lang in languages or (i18n.current(),)))
    check_target(target)
    with system_pool():
        return _build(out, target, title, steps, chosen)


@contextmanager
def system_pool() -> Iterator[None]:
    """Arrow's tables made in the block from the C library's allocator, the default pool restored after:
    mimalloc keeps what a pass of many small tables frees even when asked to give it back
    (docs/design.md#site-memory)."""
    before = pa.default_memory_pool()
    pa.set_memory_pool(pa.system_memory_pool())
    try:
        yield
    finally:
        pa.set_memory_pool(before)


def _build(out: Path, target: Path, title: str | None, steps: Steps, chosen: tuple[str, ...]) -> SiteSummary:
    """:func:`build_site` in the languages ``chosen``, ``target`` checked."""
    source = source_mod.open_source(out)
    with steps.step(gettext("reading the players' names")):
        names = source_mod.player_names(source)
        release_unused_memory()  # the games' names columns, kept by the allocators otherwise
    links = {name: f"players/{s}.html" for name, s in slugs(names).items()}
    with staging(target) as folder:
        if len(chosen) == 1:
            with i18n.speaking(chosen[0]):
                written = _write_all(source, links, folder, title, steps, chosen)
        else:
            found = []
            for lang in chosen:
                (folder / lang).mkdir()
                with i18n.speaking(lang):
                    found.append(_write_all(source, links, folder / lang, title, steps, chosen))
            _write_chooser(folder, title, chosen)
            written = dataclasses.replace(found[0], pages=sum(w.pages for w in found) + 1)
    return dataclasses.replace(written, target=target, languages=chosen)


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
    place (the previous site removed); when it raises (an interrupt too), remove it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_hex(6)
    new, old = (target.with_name(f".{target.name}.{token}.{kind}") for kind in ("new", "old"))
    new.mkdir()
    try:
        yield new
        (new / MARKER).write_text("written by `ratings site`; the whole folder is replaced on each run\n")
        with held():  # a stop signal between the renames would leave no site at all
            if target.exists():
                os.replace(target, old)
            os.replace(new, target)
    finally:
        shutil.rmtree(new, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


def environment(language: str | None = None) -> jinja2.Environment:
    """The templates of this package: autoescaped, an undefined name an error, blocks trimmed, speaking
    ``language`` (None: the language spoken) through gettext (``{% trans %}``, ``_()``), with the filters
    ``day`` (a date in the language's format), ``reasons`` (codes as phrases), ``colour``, ``outcome`` and
    ``speed`` (words of the data in the language: :mod:`pipeline.site.speech`)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("pipeline.site", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(  # type: ignore[attr-defined]
        i18n.translations(language or i18n.current()), newstyle=True
    )
    env.filters["day"] = speech.day
    env.filters["reasons"] = lambda codes: Markup(speech.reason_html(list(codes)))
    env.filters["colour"] = speech.colour
    env.filters["outcome"] = speech.outcome
    env.filters["speed"] = speech.speed
    return env


def _write_all(
    source: source_mod.Source,
    links: dict[str, str],
    folder: Path,
    title: str | None,
    steps: Steps,
    languages: Sequence[str],
) -> SiteSummary:
    """Every page, chart and static file of ``source`` into ``folder``, in the language spoken (the
    switch of each page to the others of ``languages``)."""
    reports = {
        n: rule_set_report(source.out, n) for n, sets in REPORT_RULE_SETS.items() if source.rule_set in sets
    }
    common = _common(source, title or gettext(TITLE), bool(reports))
    page = _Pages(environment(), folder, common, languages)
    spill = folder / _SPILL
    spill.mkdir()
    rows = pq.ParquetFile(source.out / outputs.GAMES_FILE).metadata.num_rows
    buckets = Buckets(spill, bucket_count(2 * rows))
    index = NameIndex(links)
    done = periods.write_periods(source, index, page.write, buckets, steps)
    page.write("index.html", "standings.html.j2", periods.standings_index(source, done.latest, index))
    files = {label: period_file(label) for label in source.rated}
    page.write(
        "periods.html",
        "periods.html.j2",
        {"section": "standings", "years": periods.archive(source.rated, files)},
    )
    page.write("games.html", "games.html.j2", _ledger_index(source, done))
    page.write("players.html", "players.html.j2", _players(index, done.latest))
    page.write(
        "rules.html", "rules.html.j2", {"section": "rules"} | rules_context(source.rule_set, source.manifest)
    )
    if reports:
        page.write(
            "reports.html",
            "reports.html.j2",
            {"section": "reports", "tables": pages.report_tables(reports, links)},
        )
    boards.write_boards(source, links, page.write, steps)
    promotions = outputs.read_report(source.out, "promotions", REPORT_FILES)
    # the latest standings handed over, not held here: the player pass keeps the columns it shows
    charts = players.write_players(source, index, page.write, buckets, done.take_latest(), promotions, steps)
    shutil.rmtree(spill)
    _copy_static(folder / "static")
    return SiteSummary(folder, page.count, len(links), charts, len(source.rated))


def _ledger_index(source: source_mod.Source, done: periods.PeriodsWritten) -> dict[str, Any]:
    """``games.html``: each year's periods with their games (counted), and the records without a period."""
    years: dict[str, list[tuple[str, str, int, int]]] = {}
    for label in source.played:
        games, counted = done.counts.get(label, (0, 0))
        years.setdefault(year_of(label), []).append((label, periods.ledger_file(label), games, counted))
    undated = done.counts.get(None)
    total = sum(g for g, _ in done.counts.values())
    return {"section": "games", "years": list(reversed(years.items())), "undated": undated, "total": total}


def _players(index: NameIndex, latest: pa.Table | None) -> dict[str, Any]:
    """``players.html``: every player of ``index``, those of the ``latest`` standings as rated."""
    rated = np.zeros(len(index), dtype=bool)
    if latest is not None:
        rated[index.where(latest.column("player")).drop_null().to_numpy()] = True
    found = list(index.links.items())
    return {
        "section": "players",
        "rated": [f for f, r in zip(found, rated, strict=True) if r],
        "unrated": [f for f, r in zip(found, rated, strict=True) if not r],
    }


def _write_chooser(folder: Path, title: str | None, languages: Sequence[str]) -> None:
    """``index.html`` of a site in several languages: each language's site, named in that language."""
    choices = []
    for lang in languages:
        with i18n.speaking(lang):
            choices.append(
                {
                    "lang": lang,
                    "name": i18n.NATIVE_NAMES[lang],
                    "title": title or gettext(TITLE),
                    "link": f"{lang}/index.html",
                    "prompt": gettext("Read the ratings in this language"),
                }
            )
    html = environment(languages[0]).get_template(CHOOSER).render(lang=languages[0], choices=choices)
    (folder / "index.html").write_text(html, encoding="utf-8")
    (folder / "static").mkdir()
    (folder / "static" / "site.css").write_bytes(
        resources.files("pipeline.site").joinpath("static", "site.css").read_bytes()
    )


def _copy_static(folder: Path) -> None:
    """The stylesheet and the scripts of this package's ``static/`` into ``folder``."""
    folder.mkdir(exist_ok=True)
    for name in STATIC:
        (folder / name).write_bytes(resources.files("pipeline.site").joinpath("static", name).read_bytes())


class _Pages:
    """Renders templates into files of one folder, counting the HTML pages; a table's rows given as
    :class:`pipeline.site.spliced.Rows` are written from their column (:func:`write_page`)."""

    def __init__(
        self, env: jinja2.Environment, folder: Path, common: dict[str, Any], languages: Sequence[str]
    ) -> None:
        self.env, self.folder, self.common, self.count = env, folder, common, 0
        self.languages = tuple(languages)
        self._made: set[Path] = set()

    def write(self, name: str, template: str, context: dict[str, Any]) -> None:
        root = "../" if "/" in name else ""
        switch = speech.switch(self.languages, name, root) if name.endswith(".html") else []
        path = self.folder / name
        if path.parent not in self._made:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._made.add(path.parent)
        chosen = self.common | {"root": root, "switch": switch} | context
        write_page(self.env.get_template(template), chosen, path)
        self.count += name.endswith(".html")


def _common(source: source_mod.Source, title: str, has_reports: bool) -> dict[str, Any]:
    rated = source.rated
    return {
        "site_title": title,
        "lang": i18n.current(),
        "rule_set": source.rule_set,
        "span": (rated[0], rated[-1]) if rated else None,
        "version": __version__,
        "has_reports": has_reports,
        "section": "",
    }
