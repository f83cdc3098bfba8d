"""The club's web site in a real browser: headless Chromium from the system's packages, driven by
selenium with the system's chromedriver. Pages load without console errors, every link resolves, the
games filter filters, CJK names render, and screenshots are written for a person to look at: into
$SITE_SCREENSHOTS when set, else <pytest basetemp>/site-screenshots (the test's output says where).

Skips, saying why, when selenium, chromium or chromedriver is missing (.ci/run installs them)."""

from __future__ import annotations

import os
import shutil
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import pytest
from site_fixtures import rated_sample, rated_years, site_of

from pipeline import reports
from pipeline.site import build_site

webdriver = pytest.importorskip(
    "selenium.webdriver", reason="selenium is not installed (pip install selenium)"
)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

pytestmark = pytest.mark.slow

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
)
DESKTOP, PHONE = (1280, 900), (390, 844)


def _found(names: tuple[str, ...]) -> str | None:
    return next((path for path in map(shutil.which, names) if path), None)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    browser, chromedriver = _found(BROWSERS), _found(("chromedriver",))
    if browser is None or chromedriver is None:
        missing = " and ".join(
            n for n, p in (("chromium", browser), ("chromedriver", chromedriver)) if p is None
        )
        why = f"{missing} not found on PATH (Debian: apt-get install chromium chromium-driver; .ci/run does)"
        if os.environ.get("CI"):  # .ci/run installs them: in CI a missing browser is a failure, not a skip
            pytest.fail(why)
        pytest.skip(why)
    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
    options.binary_location = browser
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    found = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=chromedriver))
    yield found
    found.quit()


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    paths = rated_sample(tmp_path_factory.mktemp("browser"))
    return paths | {"site": site_of(paths)}


@pytest.fixture(scope="module")
def years(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("years")
    cwd = Path.cwd()
    os.chdir(folder)  # no config/ here: the defaults
    try:
        out = rated_years(folder)
    finally:
        os.chdir(cwd)
    build_site(out, folder / "site")
    yield folder / "site"


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("SITE_SCREENSHOTS") or tmp_path_factory.getbasetemp() / "site-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _open(driver: Any, page: Path, query: str = "") -> list[dict[str, Any]]:
    """Load ``page`` (a file of the site); return the browser's console entries it logged."""
    driver.get_log("browser")  # drop what earlier pages logged
    driver.get(page.as_uri() + query)
    return list(driver.get_log("browser"))


def _targets(driver: Any) -> list[str]:
    """Every URL the loaded page links to or loads (a, link, img, script)."""
    script = (
        "return Array.from(document.querySelectorAll('a[href], link[href], img[src], script[src]'))"
        ".map(e => e.href || e.src);"
    )
    return list(driver.execute_script(script))


def _crawl(driver: Any, start: Path) -> dict[Path, list[dict[str, Any]]]:
    """Every page reachable from ``start`` by links -> its console entries."""
    seen: dict[Path, list[dict[str, Any]]] = {}
    todo = [start]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen[page] = _open(driver, page)
        todo += [p for p in map(_file, _targets(driver)) if p.suffix == ".html" and p not in seen]
    return seen


def _file(url: str) -> Path:
    parts = urlsplit(url)
    assert parts.scheme == "file", f"not a relative link to a file: {url}"
    return Path(url2pathname(parts.path))


def _visible_rows(driver: Any) -> int:
    return len([r for r in driver.find_elements(By.CSS_SELECTOR, "#ledger tbody tr") if r.is_displayed()])


def _fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).lower()


def test_every_page_loads_without_console_errors(driver: Any, club: dict[str, Path]) -> None:
    pages = _crawl(driver, club["site"] / "index.html")
    errors = {page.name: log for page, log in pages.items() if any(e["level"] == "SEVERE" for e in log)}
    assert len(pages) == len(list(club["site"].rglob("*.html"))) and not errors


def test_reports_page_loads_without_console_errors(driver: Any, tmp_path: Path) -> None:
    site = site_of(rated_sample(tmp_path, "cga-dan"))
    log = _open(driver, site / "reports.html")
    rows = driver.find_elements(By.CSS_SELECTOR, "#promotions tbody tr")
    assert rows and not [e for e in log if e["level"] == "SEVERE"]


def test_every_link_of_every_page_resolves(driver: Any, club: dict[str, Path]) -> None:
    broken = []
    for page in sorted(club["site"].rglob("*.html")):
        _open(driver, page)
        broken += [(page.name, url) for url in _targets(driver) if not _file(url).is_file()]
    assert not broken


def _ledger(club: dict[str, Path], period: str) -> Path:
    return club["site"] / "games" / f"{period}.html"


def test_filter_by_player_shows_only_their_games(driver: Any, club: dict[str, Path]) -> None:
    period = reports.rated_periods(club["out"])[0]
    _open(driver, _ledger(club, period))
    name = str(reports.standings(club["out"], period)["player"].iloc[0])
    driver.find_element(By.ID, "f-player").send_keys(name)
    games = reports.audit_games(club["out"], period=period)
    expected = sum(
        any(_fold(name) in _fold(str(n)) for n in (b, w) if isinstance(n, str))
        for b, w in zip(games["black"], games["white"], strict=True)
    )
    assert 0 < _visible_rows(driver) == expected < len(games)
    assert driver.find_element(By.ID, "f-shown").text == f"{expected} of {len(games)} games"


def test_filter_by_reason_shows_the_games_it_applies_to(driver: Any, club: dict[str, Path]) -> None:
    period = str(reports.audit_games(club["out"], reasons=["draw"])["period"].iloc[0])
    _open(driver, _ledger(club, period))
    Select(driver.find_element(By.ID, "f-reason")).select_by_value("draw")
    assert _visible_rows(driver) == len(reports.audit_games(club["out"], period=period, reasons=["draw"])) > 0


def test_filters_combine(driver: Any, club: dict[str, Path]) -> None:
    period = reports.rated_periods(club["out"])[0]
    _open(driver, _ledger(club, period))
    Select(driver.find_element(By.ID, "f-counted")).select_by_value("no")
    assert _visible_rows(driver) == len(reports.audit_games(club["out"], period=period, counted=False)) > 0


def test_player_query_presets_the_ledger_filter(driver: Any, club: dict[str, Path]) -> None:
    period = reports.rated_periods(club["out"])[0]
    name = str(reports.standings(club["out"], period)["player"].iloc[1])
    _open(driver, _ledger(club, period), f"?player={name}")
    assert 0 < _visible_rows(driver) < len(reports.audit_games(club["out"], period=period))
    assert driver.find_element(By.ID, "f-player").get_attribute("value") == name


def test_ledger_on_a_phone_shows_result_counted_and_reasons(driver: Any, club: dict[str, Path]) -> None:
    driver.set_window_size(*PHONE)
    try:
        _open(driver, _ledger(club, reports.rated_periods(club["out"])[0]))
        width = driver.execute_script("return document.documentElement.clientWidth")
        for label in ("result", "counted", "reasons", "points"):
            cell = driver.find_element(By.CSS_SELECTOR, f'#ledger tbody tr td[data-label="{label}"]')
            box = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", cell)
            assert cell.is_displayed() and box["left"] >= 0 and box["right"] <= width, (label, box, width)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
    finally:
        driver.set_window_size(*DESKTOP)


def test_year_picker_opens_the_latest_period_of_the_year(driver: Any, years: Path) -> None:
    _open(driver, years / "index.html")
    Select(driver.find_element(By.CSS_SELECTOR, "select.year-picker")).select_by_visible_text("2021")
    assert _file(driver.current_url).name == "period-2021-12.html"
    assert driver.find_element(By.TAG_NAME, "h1").text == "Standings at the end of 2021-12"


def test_cjk_names_render(driver: Any, club: dict[str, Path]) -> None:
    _open(driver, club["site"] / "index.html")
    shown = {e.text: e.size["width"] for e in driver.find_elements(By.CSS_SELECTOR, "td.name a")}
    names = list(reports.standings(club["out"])["player"])
    assert any(not n.isascii() for n in names) and all(shown.get(n, 0) > 0 for n in names)


def test_screenshots_of_the_standings_and_a_player_page(
    driver: Any, club: dict[str, Path], shots: Path
) -> None:
    written = [_shot(driver, club["site"] / "index.html", shots / "standings.png", DESKTOP)]
    written.append(_shot(driver, club["site"] / "index.html", shots / "standings-phone.png", PHONE))
    _open(driver, club["site"] / "index.html")
    player = _file(driver.find_element(By.CSS_SELECTOR, "td.name a").get_attribute("href"))
    written.append(_shot(driver, player, shots / "player.png", DESKTOP))
    written.append(_shot(driver, player, shots / "player-phone.png", PHONE))
    ledger = _ledger(club, reports.rated_periods(club["out"])[0])
    written.append(_shot(driver, ledger, shots / "ledger-phone.png", PHONE))
    written.append(_shot(driver, club["site"] / "leaderboards.html", shots / "leaderboards.png", DESKTOP))
    print(f"screenshots: {shots}")
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in written)


def _shot(driver: Any, page: Path, target: Path, size: tuple[int, int]) -> Path:
    """A screenshot of the whole of ``page`` at the width of ``size`` into ``target``."""
    driver.set_window_size(*size)
    _open(driver, page)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(size[0], max(size[1], min(int(height) + 120, 8000)))
    driver.save_screenshot(str(target))
    driver.set_window_size(*DESKTOP)
    return target


#: The languages of the site (issue 22), with what the standings' heading and the filter's count say.
LANGUAGES = {
    "zh-Hans": ("期末排名", "显示 {shown} 局，共 {total} 局"),
    "zh-Hant": ("期末排名", "顯示 {shown} 局，共 {total} 局"),
    "en": ("Standings at the end of", "{shown} of {total} games"),
}


@pytest.fixture(scope="module")
def languages(club: dict[str, Path]) -> Path:
    target = club["out"].parent / "site-languages"
    build_site(club["out"], target, languages=tuple(LANGUAGES))
    return target


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_languages_standings_player_page_and_filter(
    driver: Any, club: dict[str, Path], languages: Path, lang: str
) -> None:
    heading, count = LANGUAGES[lang]
    log = _open(driver, languages / lang / "index.html")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
    assert heading in driver.find_element(By.TAG_NAME, "h1").text
    assert not [e for e in log if e["level"] == "SEVERE"]
    player = _file(driver.find_element(By.CSS_SELECTOR, "td.name a").get_attribute("href"))
    log = _open(driver, player)
    assert driver.find_element(By.CSS_SELECTOR, "figure.chart img").is_displayed()
    assert not [e for e in log if e["level"] == "SEVERE"]
    period = reports.rated_periods(club["out"])[0]
    _open(driver, languages / lang / "games" / f"{period}.html")
    Select(driver.find_element(By.ID, "f-counted")).select_by_value("no")
    games = reports.audit_games(club["out"], period=period)
    shown = len(reports.audit_games(club["out"], period=period, counted=False))
    assert _visible_rows(driver) == shown > 0
    expected = count.replace("{shown}", str(shown)).replace("{total}", str(len(games)))
    assert driver.find_element(By.ID, "f-shown").text == expected
    labels = [o.text for o in Select(driver.find_element(By.ID, "f-counted")).options]
    assert labels == {"en": ["any", "yes", "no"]}.get(lang, ["全部", "是", "否"])


def test_the_language_switch_opens_the_same_page(driver: Any, languages: Path) -> None:
    _open(driver, languages / "zh-Hans" / "rules.html")
    driver.find_element(By.CSS_SELECTOR, 'nav.languages a[hreflang="zh-Hant"]').click()
    assert _file(driver.current_url) == (languages / "zh-Hant" / "rules.html").resolve()
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-Hant"
    _open(driver, languages / "index.html")
    chosen = driver.find_elements(By.CSS_SELECTOR, "ul.languages li a")
    assert [a.get_attribute("hreflang") for a in chosen] == list(LANGUAGES)
    assert all(_file(a.get_attribute("href")).is_file() for a in chosen)


def test_every_link_of_every_language_resolves(driver: Any, languages: Path) -> None:
    broken = []
    for lang in LANGUAGES:
        for page in [
            languages / lang / "index.html",
            *sorted((languages / lang / "players").glob("*.html"))[:3],
        ]:
            _open(driver, page)
            broken += [(page.name, url) for url in _targets(driver) if not _file(url).is_file()]
    assert not broken


def test_screenshots_of_the_chinese_standings_and_a_player_page(
    driver: Any, languages: Path, shots: Path
) -> None:
    written = []
    for lang in ("zh-Hans", "zh-Hant"):
        _open(driver, languages / lang / "index.html")
        player = _file(driver.find_element(By.CSS_SELECTOR, "td.name a").get_attribute("href"))
        for size, suffix in ((DESKTOP, ""), (PHONE, "-phone")):
            written.append(
                _shot(driver, languages / lang / "index.html", shots / f"standings-{lang}{suffix}.png", size)
            )
            written.append(_shot(driver, player, shots / f"player-{lang}{suffix}.png", size))
    print(f"screenshots: {shots}")
    assert len(written) == 8 and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in written)
