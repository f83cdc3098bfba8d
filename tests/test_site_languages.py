"""The club's web site in simplified Chinese, traditional Chinese and English (issue 22): built in all
three from the rated sample, each page speaks its language (``<html lang>``, no English word of the
interface left in the visible text of the Chinese pages, the data aside), the language switch of every
page links the same page in the others, the chooser lists the three, and ``ratings site --lang`` takes
one language or a comma list."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from i18n_words import english_left
from site_fixtures import rated_sample, runner, tables

from pipeline.cli import app
from pipeline.core import i18n
from pipeline.site import build_site
from pipeline.site.speech import SCRIPT_MESSAGES

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("zh-Hans", "zh-Hant", "en")
#: Attributes a person reads (``data-label``: the ledger's column names before each cell on a phone).
_READ = ("alt", "placeholder", "aria-label", "data-label")
_VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr"}


class _Visible(HTMLParser):
    """The text a reader sees, without scripts, styles, codes (``<code>``) and the elements marked
    ``data-words`` (the words of other modules: the rule set's own sentence, the parser's errors, each
    checked by its own tests) except explain's derivation, which speaks the page's language, and the
    ``<html lang>``."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.lang: str | None = None
        self._skip: list[str] = []  # the open tags of a skipped element

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = found.get("lang")
        if self._skip:
            if tag not in _VOID:
                self._skip.append(tag)
            return
        if tag in ("script", "style", "code") or found.get("data-words") not in (None, "explain"):
            self._skip.append(tag)
            return
        self.parts += [v for k, v in attrs if k in _READ and v]

    def handle_endtag(self, tag: str) -> None:
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def _visible(page: Path) -> _Visible:
    parser = _Visible()
    parser.feed(page.read_text("utf-8"))
    return parser


def _data_words(out: Path) -> list[str]:
    """The names and texts of the data a page may show as they are: players, events, award rules, the
    placeholder names of the run's settings (the rules page lists them)."""
    games = pd.read_parquet(out / "games.parquet")
    found = [
        v for c in ("black", "white", "black_player", "white_player", "event", "event_name") for v in games[c]
    ]
    changes = pd.read_parquet(out / "changes")
    found += list(changes["bonus_rule"])
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    found += manifest["settings"]["validity"]["placeholder_names"]
    return sorted({str(v) for v in found if isinstance(v, str) and v})


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    paths = rated_sample(tmp_path_factory.mktemp("languages"))
    target = paths["out"].parent / "site"
    written = build_site(paths["out"], target, languages=LANGUAGES)
    assert written.languages == LANGUAGES
    return paths | {"site": target}


def _pages(site: dict[str, Path], lang: str) -> list[Path]:
    return sorted((site["site"] / lang).rglob("*.html"))


pytestmark = pytest.mark.slow


def test_every_language_has_the_same_pages(site: dict[str, Path]) -> None:
    found = {lang: [p.relative_to(site["site"] / lang) for p in _pages(site, lang)] for lang in LANGUAGES}
    assert found["en"] and found["zh-Hans"] == found["zh-Hant"] == found["en"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_page_says_its_language(site: dict[str, Path], lang: str) -> None:
    assert {_visible(p).lang for p in _pages(site, lang)} == {lang}


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_no_english_word_of_the_interface_is_left(site: dict[str, Path], lang: str) -> None:
    allowed = _data_words(site["out"])
    left = {}
    for page in _pages(site, lang):
        words = english_left("\n".join(_visible(page).parts), allowed=allowed)
        if words:
            left[str(page.relative_to(site["site"]))] = sorted(set(words))
    assert left == {}


def test_the_english_site_speaks_english(site: dict[str, Path]) -> None:
    html = (site["site"] / "en" / "index.html").read_text("utf-8")
    assert "Standings at the end of" in html and "排名" not in _strip_switch(html)


def _strip_switch(html: str) -> str:
    return re.sub(r'<nav class="languages".*?</nav>', "", html, flags=re.S)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_switches_to_the_same_page_in_each_language(site: dict[str, Path], lang: str) -> None:
    for page in _pages(site, lang):
        html = page.read_text("utf-8")
        nav = re.search(r'<nav class="languages"[^>]*>(.*?)</nav>', html, flags=re.S)
        assert nav, page
        links = dict(
            (code, href) for href, code in re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', nav[1])
        )
        assert list(links) == list(LANGUAGES), page
        for code, href in links.items():
            target = (page.parent / href).resolve()
            assert target == (site["site"] / code / page.relative_to(site["site"] / lang)).resolve(), href
            assert target.is_file(), href


def test_the_chooser_lists_the_three_languages(site: dict[str, Path]) -> None:
    chooser = site["site"] / "index.html"
    found = re.findall(
        r'<li lang="([^"]+)"><a href="([^"]+)" hreflang="[^"]+"><strong>([^<]+)</strong>',
        chooser.read_text("utf-8"),
    )
    assert [(lang, link) for lang, link, _ in found] == [(lang, f"{lang}/index.html") for lang in LANGUAGES]
    assert [name for *_, name in found] == [i18n.NATIVE_NAMES[lang] for lang in LANGUAGES]
    assert all((site["site"] / link).is_file() for _, link, _ in found)
    assert (site["site"] / "static" / "site.css").is_file()


@pytest.mark.parametrize(
    ("lang", "heading", "yes"),
    [("zh-Hans", "期末排名", "是"), ("zh-Hant", "期末排名", "是"), ("en", "Standings at the end of", "yes")],
)
def test_standings_speak_the_language_and_keep_the_numbers(
    site: dict[str, Path], lang: str, heading: str, yes: str
) -> None:
    html = (site["site"] / lang / "index.html").read_text("utf-8")
    assert heading in html
    rows = {lang: tables(site["site"] / lang / "index.html")[0] for lang in LANGUAGES}
    assert [r[:5] for r in rows[lang][1:]] == [
        r[:5] for r in rows["en"][1:]
    ]  # place, player, rank, rating, change
    assert {r[-1] for r in rows[lang][1:]} <= {yes, "否" if lang != "en" else "no"}


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_ledger_shows_reasons_as_phrases_with_their_codes(site: dict[str, Path], lang: str) -> None:
    html = "".join(p.read_text("utf-8") for p in (site["site"] / lang / "games").glob("*.html"))
    spans = re.findall(r'<span class="reason" data-code="([a-z_]+)" title="([a-z_]+)">([^<]+)</span>', html)
    assert spans and all(code == title and not re.search(r"[a-z]{3}", words) for code, title, words in spans)
    options = re.findall(r'<option value="([a-z_]+)" title="[a-z_]+">([^<]+)</option>', html)
    assert {"draw", "opponent_cap"} <= {code for code, _ in options}
    assert re.search(r'data-codes="[^"]*opponent_cap', html)  # the filter's data stays in codes
    assert re.search(r'data-counted="(yes|no)"', html)


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_dates_are_in_the_languages_format(site: dict[str, Path], lang: str) -> None:
    page = site["site"] / lang / "games" / "2024-05.html"
    dates = [r[0] for r in tables(page)[0][1:]]
    assert dates and all(re.fullmatch(r"2024年5月\d{1,2}日", d) for d in dates if d)


def test_the_filter_scripts_words_are_given_to_it(site: dict[str, Path]) -> None:
    script = (ROOT / "pipeline" / "site" / "static" / "filter.js").read_text("utf-8")
    assert tuple(re.findall(r'\bT\("([^"]+)"\)', script)) == SCRIPT_MESSAGES["filter.js"]
    html = (site["site"] / "zh-Hant" / "games" / "2024-05.html").read_text("utf-8")
    given = re.search(r'<script id="messages" type="application/json">(.*?)</script>', html)
    assert given and json.loads(given[1]) == {"{shown} of {total} games": "顯示 {shown} 局，共 {total} 局"}


def test_cli_builds_one_folder_per_language_and_says_so_in_the_first(
    site: dict[str, Path], tmp_path: Path
) -> None:
    target = tmp_path / "web"
    result = runner.invoke(app, ["site", str(target), "--out", str(site["out"]), "--lang", "zh-Hant,en"])
    assert result.exit_code == 0, result.output
    assert "已寫出" in result.output and "index.html" in result.output
    assert sorted(p.name for p in target.iterdir() if p.is_dir()) == ["en", "static", "zh-Hant"]
    assert _visible(target / "zh-Hant" / "index.html").lang == "zh-Hant"


def test_cli_with_one_language_writes_the_site_in_the_folder(site: dict[str, Path], tmp_path: Path) -> None:
    target = tmp_path / "web"
    result = runner.invoke(app, ["site", str(target), "--out", str(site["out"]), "--lang", "zh-Hans"])
    assert result.exit_code == 0, result.output
    assert _visible(target / "index.html").lang == "zh-Hans" and not (target / "zh-Hans").exists()
    assert 'class="languages"' not in (target / "index.html").read_text("utf-8")  # no switch for one


def test_cli_refuses_a_language_that_is_none(site: dict[str, Path], tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["site", str(tmp_path / "web"), "--out", str(site["out"]), "--lang", "zh-Hans,xx"]
    )
    assert result.exit_code == 2 and not (tmp_path / "web").exists()
