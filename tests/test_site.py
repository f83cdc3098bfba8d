"""The club's web site (pipeline/site, `ratings site DIR`): the pages built from a rated copy of the
shipped sample, checked as files. tests/test_site_browser.py opens them in a real browser."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from site_fixtures import LATE, add_late_record, links, rated_sample, runner, site_of, tables

from pipeline import reports
from pipeline.cli import app
from pipeline.reports import explain as explain_mod
from pipeline.site import MARKER, SiteError, build_site
from pipeline.site.slugs import slug, slugs


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    paths = rated_sample(tmp_path_factory.mktemp("club"))
    return paths | {"site": site_of(paths)}


def _player_page(club: dict[str, Path], name: str) -> Path:
    found = [
        p
        for p in (club["site"] / "players").glob("*.html")
        if f'<h1 class="name">{name}</h1>' in p.read_text("utf-8")
    ]
    assert len(found) == 1, name
    return found[0]


@pytest.mark.slow
def test_index_shows_the_standings_of_the_latest_period(club: dict[str, Path]) -> None:
    latest = reports.rated_periods(club["out"])[-1]
    rows = tables(club["site"] / "index.html")[0][1:]
    assert [r[1] for r in rows] == list(reports.standings(club["out"], latest)["player"])


@pytest.mark.slow
def test_every_rated_period_has_a_standings_page(club: dict[str, Path]) -> None:
    for period in reports.rated_periods(club["out"]):
        rows = tables(club["site"] / f"period-{period}.html")[0][1:]
        assert [r[1] for r in rows] == list(reports.standings(club["out"], period)["player"])


@pytest.mark.slow
def test_period_picker_links_every_period(club: dict[str, Path]) -> None:
    found = links(club["site"] / "index.html")
    assert all(f"period-{p}.html" in found for p in reports.rated_periods(club["out"]))


@pytest.mark.slow
def test_player_pages_have_ascii_file_names_and_the_real_name_as_link_text(club: dict[str, Path]) -> None:
    html = (club["site"] / "index.html").read_text("utf-8")
    linked = dict(re.findall(r'<a href="(players/[^"]+)">([^<]+)</a>', html))
    assert "西方失败" in linked.values()
    assert all(re.fullmatch(r"players/[a-z0-9-]+-[0-9a-f]{8}\.html", link) for link in linked)


@pytest.mark.slow
def test_player_page_lists_every_game_counted_or_not(club: dict[str, Path]) -> None:
    excluded = reports.audit_games(club["out"], counted=False)
    rated = reports.standings(club["out"])["player"]
    name = next(n for n in rated if n in set(excluded["black"]) | set(excluded["white"]))
    rows = tables(_player_page(club, name))[0][1:]
    assert len(rows) == len(reports.audit_games(club["out"], player=name))
    assert {r[6] for r in rows} == {"yes", "no"}


@pytest.mark.slow
def test_player_page_shows_the_points_each_counted_game_gave(club: dict[str, Path]) -> None:
    rows = tables(_player_page(club, "fish"))[0][1:]
    counted = [r for r in rows if r[6] == "yes"]
    assert counted and all(re.fullmatch(r"[+−]\d+(\.\d+)?( \(.*\))?|0", r[8]) for r in counted)


@pytest.mark.slow
def test_player_page_has_the_derivation_of_each_period_they_played(club: dict[str, Path]) -> None:
    html = _player_page(club, "fish").read_text("utf-8")
    for period in ("2024-05", "2024-08"):
        equation = explain_mod.explain(club["out"], "fish", period).equation
        assert f"<code>{equation}</code>" in html


@pytest.mark.slow
def test_player_page_shows_the_rating_history_chart(club: dict[str, Path]) -> None:
    page = _player_page(club, "fish")
    chart = page.with_suffix(".svg")
    assert chart.name in links(page) and chart.read_text("utf-8").lstrip().startswith("<?xml")


@pytest.mark.slow
def test_unrated_player_page_says_why(club: dict[str, Path]) -> None:
    rated = set(reports.standings(club["out"])["player"])
    games = reports.audit_games(club["out"], counted=False)
    name = next(n for n in games["black"].dropna() if n not in rated)
    html = _player_page(club, name).read_text("utf-8")
    assert "Not rated" in html and not _player_page(club, name).with_suffix(".svg").exists()


@pytest.mark.slow
def test_ledger_has_every_record_with_what_the_filter_reads(club: dict[str, Path]) -> None:
    html = "".join(p.read_text("utf-8") for p in (club["site"] / "games").glob("*.html"))
    rows = re.findall(
        r'<tr data-names=\'([^\']*)\' data-period="([^"]*)" data-codes="([^"]*)" data-counted="(yes|no)">',
        html,
    )
    assert len(rows) == len(reports.audit_games(club["out"]))
    assert sum(c == "yes" for *_, c in rows) == len(reports.audit_games(club["out"], counted=True))


@pytest.mark.slow
def test_rules_page_names_the_rule_set_and_its_settings(club: dict[str, Path]) -> None:
    html = (club["site"] / "rules.html").read_text("utf-8")
    assert "<code>club</code>" in html and "At most 10 games against the same opponent count" in html


@pytest.mark.slow
def test_rules_page_says_the_settings_in_words(club: dict[str, Path]) -> None:
    html = (club["site"] / "rules.html").read_text("utf-8")
    assert "at least 30 minutes of main time" in html and "roster names the members" in html
    assert not [
        k for k in ("speed_threshold_s", "config_digest", "parser_version", "docs/rules.md") if k in html
    ]


@pytest.mark.slow
def test_links_are_relative(club: dict[str, Path]) -> None:
    found = {link for page in club["site"].rglob("*.html") for link in links(page)}
    assert found and not [link for link in found if re.match(r"(/|[a-z]+:)", link)]


@pytest.mark.slow
def test_a_rule_set_without_reports_has_no_reports_page(club: dict[str, Path]) -> None:
    assert not (club["site"] / "reports.html").exists()
    assert "reports.html" not in links(club["site"] / "index.html")


@pytest.mark.parametrize(
    ("rules", "names"), [("cga-dan", ["promotions"]), ("hkga", ["certification", "fees"])]
)
@pytest.mark.slow
def test_reports_page_shows_the_rule_sets_reports(tmp_path: Path, rules: str, names: list[str]) -> None:
    paths = rated_sample(tmp_path, rules)
    page = site_of(paths) / "reports.html"
    shown = tables(page)
    for table, name in zip(shown, names, strict=True):
        assert len(table) - 1 == len(reports.rule_set_report(paths["out"], name)) > 0


@pytest.mark.slow
def test_names_are_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sgfmake import sgf

    monkeypatch.chdir(tmp_path)  # no configuration: the defaults, every player a member
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "a.sgf").write_text(sgf("<b>x</b>", "y&z", "B+R", "2024-05-02"), encoding="utf-8")
    result = runner.invoke(app, ["run", "--raw", str(raw), "--out", str(tmp_path / "out"), "--workers", "1"])
    assert result.exit_code == 0, result.output
    build_site(tmp_path / "out", tmp_path / "site")
    for page in ("index.html", "games/2024-05.html", "players.html"):
        html = (tmp_path / "site" / page).read_text("utf-8")
        assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html and "y&amp;z" in html


@pytest.mark.slow
def test_rebuild_replaces_the_previous_site(club: dict[str, Path], tmp_path: Path) -> None:
    target = tmp_path / "site"
    build_site(club["out"], target)
    (target / "players" / "stale.html").write_text("old", encoding="utf-8")
    build_site(club["out"], target)
    assert not (target / "players" / "stale.html").exists() and (target / MARKER).exists()


@pytest.mark.slow
def test_a_folder_that_is_not_a_site_is_refused(club: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(SiteError, match="not empty"):
        build_site(club["out"], tmp_path)
    assert (tmp_path / "keep.txt").read_text(encoding="utf-8") == "mine"


@pytest.mark.slow
def test_cli_writes_the_site(club: dict[str, Path], tmp_path: Path) -> None:
    result = runner.invoke(app, ["site", str(tmp_path / "web"), "--out", str(club["out"])])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "web" / "index.html").exists() and "index.html" in result.output


@pytest.mark.slow
def test_cli_interrupted_once_the_site_is_in_place_says_it_holds_the_new_site(
    club: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def built_then_interrupted(*args: Any, **kwargs: Any) -> Any:
        build_site(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr("pipeline.site.build_site", built_then_interrupted)
    result = runner.invoke(app, ["site", str(tmp_path / "web"), "--out", str(club["out"])])
    assert result.exit_code == 130
    said = " ".join(result.output.split())
    assert said == f"error: interrupted once the site was written: {tmp_path / 'web'} holds the new site"
    assert (tmp_path / "web" / "index.html").exists()


def test_cli_without_output_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["site", str(tmp_path / "web"), "--out", str(tmp_path / "none")])
    assert result.exit_code == 2 and not (tmp_path / "web").exists()


@pytest.mark.slow
def test_cli_refusing_a_folder_exits_2(club: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    result = runner.invoke(app, ["site", str(tmp_path), "--out", str(club["out"])])
    assert result.exit_code == 2 and "not empty" in result.output


@pytest.mark.slow
def test_late_record_for_an_early_period_shows_in_every_later_period(tmp_path: Path) -> None:
    paths = rated_sample(tmp_path)
    add_late_record(paths)
    site = site_of(paths)
    for period in reports.rated_periods(paths["out"]):
        rows = tables(site / f"period-{period}.html")[0][1:]
        expected = reports.standings(paths["out"], period)
        assert [(r[1], r[3]) for r in rows] == [
            (p, _number(v)) for p, v in zip(expected["player"], expected["rating"], strict=True)
        ]
    fish = [r for r in tables(_player_page(paths | {"site": site}, LATE[0]))[0][1:] if r[0] == LATE[3]]
    assert len(fish) == 1 and fish[0][6] == "yes"


def _number(value: Any) -> str:
    return explain_mod.number(float(value), 2)


def test_slug_of_a_cjk_name_is_ascii_with_a_hash() -> None:
    assert re.fullmatch(r"player-[0-9a-f]{8}", slug("西方失败"))


def test_names_folding_alike_get_different_slugs() -> None:
    found = slugs(["Fish", "fish", "ｆｉｓｈ"])
    assert len(set(found.values())) == 3 and all(s.startswith("fish-") for s in found.values())


@pytest.mark.slow
def test_leaderboards_page_shows_the_latest_boards(club: dict[str, Path]) -> None:
    import pandas as pd

    boards = pd.read_parquet(club["out"] / "leaderboards")
    latest = sorted(str(p) for p in boards["period"].unique())[-1]
    board = boards[boards["period"] == latest].sort_values(["games_place", "player"], kind="stable")
    shown = tables(club["site"] / "leaderboards.html")
    assert len(shown) == 4 and [r[1] for r in shown[0][1:]] == list(board["player"].head(10))


@pytest.mark.slow
def test_every_page_links_the_leaderboards(club: dict[str, Path]) -> None:
    assert "leaderboards.html" in links(club["site"] / "index.html")
    assert "../leaderboards.html" in links(next((club["site"] / "players").glob("*.html")))


@pytest.mark.slow
def test_ledger_cells_carry_their_column_names_for_narrow_screens(club: dict[str, Path]) -> None:
    page = next((club["site"] / "games").glob("2024-05.html"))
    cells = re.findall(r"<td[^>]*>", page.read_text("utf-8"))
    css = (club["site"] / "static" / "site.css").read_text("utf-8")
    assert cells and all("data-label=" in c for c in cells)
    assert 'table.cards td::before { content: attr(data-label) ": "' in css


@pytest.mark.slow
def test_player_pages_derivations_are_those_of_explain(club: dict[str, Path]) -> None:
    for name in reports.standings(club["out"])["player"]:
        html = _player_page(club, name).read_text("utf-8")
        shown = re.findall(r'<section class="period" id="period-([^"]+)">', html)
        for period in shown:
            explained = explain_mod.explain(club["out"], name, period)
            assert f"<code>{explained.equation}</code>" in html and explained.summary in html, (name, period)


@pytest.mark.parametrize(
    ("rule_set", "values", "expected"),
    [
        ("hkga", [2454.5, -5.0, 0.0, 12.345, None], ["2454.50", "−5.00", "0.00", "12.35", ""]),
        ("club", [913.5, 270.0, -5.0], ["913.5", "270", "-5"]),
        ("tga", [5.0, 3.0], ["5", "3"]),
    ],
)
def test_the_site_writes_a_rule_sets_ratings_as_the_command_line_does(
    rule_set: str, values: list[float | None], expected: list[str]
) -> None:
    import pyarrow as pa

    from pipeline.reports.numbers import number_format
    from pipeline.site.rows import written

    style = number_format(rule_set)
    assert written(pa.array(values, pa.float64()), style).to_pylist() == expected
    shown = [style.rating(v) for v in values if v is not None and v >= 0]
    assert shown == [e for e, v in zip(expected, values, strict=True) if v is not None and v >= 0]


@pytest.mark.parametrize(("rule_set", "shown"), [("hkga", "A +0.40"), ("club", "A +0.4"), ("tga", "A 0")])
def test_the_ledger_writes_a_games_points_in_the_rule_sets_format(rule_set: str, shown: str) -> None:
    import pandas as pd
    import pyarrow as pa

    from pipeline.reports.numbers import number_format
    from pipeline.site.pages import _with_points

    changes = pa.table(
        {
            "game_id": ["g"],
            "player": ["A"],
            "color": ["B"],
            "delta": [0.4],
            "bonus": [0.0],
            "bonus_rule": [None],
        }
    )
    frame = _with_points(pd.DataFrame({"game_id": ["g"]}), changes, number_format(rule_set))
    assert frame["points"].iloc[0] == [shown]
