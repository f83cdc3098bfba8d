"""What the rule sets write in English into the data (a promotion's rule and evidence, an award's or a
change's note, a bonus's rule) said in simplified and traditional Chinese wherever a person reads it
(issue 22), by :mod:`pipeline.reports.rule_words`.

- Every text the rule sets write fits one of the module's forms, and every form is written: each rule
  set is made to write them all by :meth:`rate_period` on hand-made games and awards. The functions of
  the rule sets that write those texts hold no English the forms do not (a census of their string
  literals), and no other function writes a promotion, a note or a change: a form a rule set gains
  fails here until the module can say it.
- `ratings show --report promotions` and `ratings explain` of promoted players leave no English word of
  the interface in zh-Hans and zh-Hant, at 80 columns, under cga-dan (a hand-made season) and tga (the
  Gomoku sample, config/examples/tga.toml); the English output shows the data as written. The workbook's
  Promotions and Awards sheets and the site's reports page and player pages likewise.
"""

from __future__ import annotations

import ast
import datetime as dt
import html
import re
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import pandas as pd
import pytest
from i18n_words import english_left
from rich.cells import cell_len
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline import rules
from pipeline.cli import app
from pipeline.config.events import Award, Event, Events, load_events
from pipeline.config.roster import Player, Roster
from pipeline.core import i18n
from pipeline.core.ranks import parse_rank
from pipeline.reports import export, rule_words
from pipeline.reports.export import shown
from pipeline.rules.awards import due_awards
from pipeline.rules.base import DueAward, Game
from pipeline.site import build_site

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "pipeline" / "rules"
WIDTH = 80
CHINESE = ("zh-Hans", "zh-Hant")
runner = CliRunner()

# ------------------------------------------------------------------ every form, written and recognised
DAY = dt.date(2024, 5, 1)


def game(
    n: int,
    black: str,
    white: str,
    winner: str = "B",
    ranks: tuple[str, str] = ("1d", "1d"),
    event: Event | None = None,
    stage: str | None = None,
    no_show: bool = False,
) -> Game:
    """Game number ``n``, on day ``n`` of the period."""
    day = DAY + dt.timedelta(days=n)
    black_rank, white_rank = map(parse_rank, ranks)
    return Game(
        f"g{n:04d}", n, day, black, white, winner, "slow", black_rank, white_rank,
        event=event, stage=stage, no_show=no_show,
    )  # fmt: skip


def award(
    player: str, kind: str = "manual", rank: str | None = None, note: str = "", points: float | None = None
) -> DueAward:
    """An award of the events file's event ``Board`` (kind ``other``) on day 60."""
    return DueAward(Award(player, DAY + dt.timedelta(days=60), points, rank, note, "Board"), kind, "other")


def titles(champion: str, runner_up: str) -> list[DueAward]:
    """The titles of an event of kind ``other`` that ended on day 60, as :func:`due_awards` gives them."""
    final = Event("Final", (), "other", champion=champion, runner_up=runner_up)
    due, _ = due_awards(Events((final,)), {"Final": DAY + dt.timedelta(days=60)}, [], "year", Roster())
    return due["2024"]


def written(
    name: str,
    games: Sequence[Game],
    awards: Sequence[DueAward] = (),
    roster: Roster | None = None,
    **validity: str,
) -> list[tuple[str, str, str | None]]:
    """(column, text, the promotion's rule for an evidence) of every text rule set ``name`` writes for
    ``games`` and ``awards``: promotions' rules and evidence, the awards' notes but those of the events
    file's manual awards, the changes' bonus rules and notes."""
    rule_set = rules.create(name, roster or Roster(), rules.validity(name, validity))
    outcome = rule_set.rate_period("2024", games, awards, {})
    notes = {a.award.note for a in awards if a.kind == "manual"}  # the events file's
    found: list[tuple[str, str, str | None]] = [("rule", p.rule, None) for p in outcome.promotions]
    found += [("evidence", p.evidence, p.rule) for p in outcome.promotions]
    found += [("note", a.award.note, None) for a in outcome.awards if a.award.note not in notes]
    found += [("bonus_rule", c.bonus_rule, None) for c in outcome.changes if c.bonus_rule]
    found += [("note", str(c.detail["note"]), None) for c in outcome.changes if c.detail.get("note")]
    return found


def cga_dan() -> Iterator[tuple[str, str, str | None]]:
    games = [game(i, "甲", f"a{i}") for i in range(8)]  # 8 wins: 8 games at 90 >= 75
    games += [game(10 + i, "乙", f"b{i}", "W" if i < 3 else "B") for i in range(9)]  # the last 8 of 9
    awards = [
        award("丙", rank="3d", note="title"),
        award("丁", rank="2d"),
        award("甲", rank="2d", note="again"),
    ]
    yield from written("cga-dan", games, awards)
    outsider = Roster((Player("戊", member=False),))
    yield from written("cga-dan", [], [award("戊", rank="3d")], outsider, non_member="exclude")


def tga() -> Iterator[tuple[str, str, str | None]]:
    open_, promo = Event("Open", (), "recognised"), Event("Promo", (), "promotion", rounds=5)
    low, named = Event("Low", (), "low_dan"), Event("Low2", (), "low_dan", champion="m3")
    kyu = Event("Kyu", (), "kyu", group="standard_a", rounds=5)
    dans, kyus = ("2d", "2d"), ("5k", "5k")
    games = [game(i, "P", f"p{i}", event=open_, ranks=dans) for i in range(5)]  # Article 8
    games += [game(5 + i, "Q", f"q{i}", event=open_, ranks=dans, no_show=i == 4) for i in range(5)]  # 8.6
    pairs = [("k1", f"k{i}") for i in range(2, 7)] + [("k2", f"k{i}") for i in (3, 4, 5, 7)] + [("k7", "k8")]
    games += [game(20 + i, b, w, event=promo, ranks=kyus) for i, (b, w) in enumerate(pairs)]  # 4 and 10
    games += [game(40 + i, "l1", f"l{i}", event=low) for i in range(2, 7)]  # Article 9, the top
    games += [game(50 + i, "m1", f"m{i}", event=named) for i in range(2, 7)]  # Article 9, named
    games += [game(60 + i, "j1", f"j{i}", event=kyu, ranks=("10k", "10k")) for i in range(2, 7)]  # 10
    awards = [award("R", rank="5d", note="Asian Cup"), award("S", rank="4d"), award("P", rank="1d")]
    yield from written("tga", games, [*awards, *titles("l1", "l2")])
    outsider = Roster((Player("T", member=False),))
    yield from written("tga", [], [award("T", rank="3d")], outsider, non_member="exclude")


def club() -> Iterator[tuple[str, str, str | None]]:
    team, arena = Event("Team", (), "team_match"), Event("Arena", (), "arena")
    server, qualifiers = Event("Open", (), "server_open"), Event("Cup", (), "server_qualifiers")
    games = [
        game(1, "c1", "c2", event=team),
        game(2, "c1", "c2", event=arena),
        game(3, "c1", "c3", event=arena),
    ]
    games += [game(4, "c1", "c2", event=server), game(5, "c1", "c2", event=qualifiers, stage="qualifier")]
    games += [game(6, "c1", "c2", event=qualifiers, stage="main"), game(7, "F", "c1", event=team)]
    roster = Roster(
        (Player("F", fixed=True), Player("c1"), Player("c2"), Player("c3"), Player("N", member=False))
    )
    awards = [*titles("c1", "c2"), award("F", points=50), award("N", points=50)]
    yield from written("club", games, awards, roster, non_member="exclude")


def gor() -> Iterator[tuple[str, str, str | None]]:
    roster = Roster((Player("F", fixed=True, rating=2000), Player("g1"), Player("g2")))
    games = [game(1, "g1", "g2", no_show=True), game(2, "F", "g1")]
    yield from written("hkga", games, roster=roster, no_show="count")
    yield from written("egf2021", [game(3, "g1", "g2", ranks=("5k", "5k"))])


SCENARIOS = {"cga-dan": cga_dan, "tga": tga, "club": club, "gor": gor}


@pytest.fixture(scope="module")
def every_text() -> list[tuple[str, str, str | None]]:
    return [found for write in SCENARIOS.values() for found in write()]


def test_every_text_the_rule_sets_write_fits_a_form(every_text: list[tuple[str, str, str | None]]) -> None:
    assert [t for t in every_text if rule_words.form_of(*t) is None] == []


def test_every_form_is_written_by_a_rule_set(every_text: list[tuple[str, str, str | None]]) -> None:
    assert set(rule_words.forms()) - {rule_words.form_of(*t) for t in every_text} == set()


@pytest.mark.parametrize("lang", CHINESE)
def test_every_text_the_rule_sets_write_is_said_without_english(
    every_text: list[tuple[str, str, str | None]], lang: str
) -> None:
    names = ["Open", "Promo", "Low", "Low2", "Kyu", "Board", "Asian Cup", "title", "again", "EGD"]
    with i18n.speaking(lang):
        said = [rule_words.said(*t) for t in every_text]
    assert [s for s in said if english_left(s, allowed=names)] == []


def test_english_is_shown_as_written(every_text: list[tuple[str, str, str | None]]) -> None:
    with i18n.speaking(i18n.ENGLISH):
        assert [rule_words.said(*t) for t in every_text] == [t[1] for t in every_text]


def test_a_text_that_fits_no_form_is_shown_as_it_is() -> None:
    with i18n.speaking("zh-Hans"):
        assert rule_words.said("evidence", "a board decision", "cga-dan: 75 over 8") == "a board decision"
        assert rule_words.said("rule", "tga article 11 title") == "tga article 11 title"


def test_a_note_that_adds_the_rule_sets_reason_says_the_reason() -> None:
    with i18n.speaking("zh-Hant"):
        assert rule_words.said("note", "Asian Cup: keeps 3d") == "Asian Cup：保持 3d"


# ------------------------------------------------------------------ the census of the rule sets' English
#: The functions of pipeline/rules that write a promotion, an award's note or a change (module, name).
TEXT_WRITERS = {
    ("awards.py", "due_awards"),
    ("cga_dan.py", "_Ledger._change"),
    ("cga_dan.py", "_Ledger._promote"),
    ("cga_dan.py", "_Ledger.award"),
    ("club.py", "_Month._change"),
    ("club.py", "_Month._bonus"),
    ("club.py", "_Month._arena"),
    ("club.py", "_Month.award"),
    ("gor_rules.py", "_Ledger._change"),
    ("glicko2_rules.py", "_Sheet._changes"),
    ("tga.py", "TgaRules.reports"),
    ("tga.py", "_Ledger._change"),
    ("tga.py", "_Ledger.award"),
    ("tga_rules.py", "Criterion.text"),
    ("tga_rules.py", "Unit.offer"),
    ("tga_rules.py", "_points"),
    ("tga_rules.py", "_tournament"),
    ("tga_rules.py", "_champion"),
    ("tga_rules.py", "_kyu"),
    ("whr.py", "WhrRules._changes"),
    ("base.py", "noted"),
}
#: The calls that make what the rule sets write.
_MAKERS = {"Promotion", "noted", "offer", "Change", "Award", "AwardGiven"}


def _functions() -> dict[tuple[str, str], ast.FunctionDef]:
    """Every function and method of pipeline/rules by (module, qualified name)."""
    found: dict[tuple[str, str], ast.FunctionDef] = {}

    def walk(module: str, node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.ClassDef):
                if isinstance(child, ast.FunctionDef):
                    found[(module, prefix + child.name)] = child
                walk(module, child, f"{prefix}{child.name}.")

    for path in sorted(RULES.glob("*.py")):
        walk(path.name, ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def _calls(function: ast.FunctionDef) -> set[str]:
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "built" and node.args:  # built(Change, columns)
                names.add(getattr(node.args[0], "id", ""))
            names.add(
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
    return names


def _literals(function: ast.FunctionDef) -> Iterator[str]:
    """The string literals of ``function`` that may be written (every piece of an f-string too), not its
    docstring, a code (``runner_up``), a dict's keys, a comparison's operands, a subscript, a format spec
    or a warning of the run (``warnings.append``, a message of the catalog: ``N_``, ``Said``)."""
    skip: set[int] = set()
    body = function.body
    if body and isinstance(body[0], ast.Expr):
        skip.add(id(body[0].value))
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and _warns(node):
            skip |= {id(c) for c in ast.walk(node)}
        elif isinstance(node, ast.Dict):
            skip |= {id(k) for k in node.keys if k is not None}
        elif isinstance(node, ast.Compare):
            skip |= {id(c) for c in (node.left, *node.comparators)}
        elif isinstance(node, ast.Subscript):
            skip.add(id(node.slice))
        elif isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            skip |= {id(c) for c in ast.walk(node.format_spec)}
    for node in ast.walk(function):
        literal = isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        if literal and not re.fullmatch(r"[a-z]+(?:_[a-z]+)+", node.value):
            yield node.value


def _warns(call: ast.Call) -> bool:
    """Whether ``call`` makes or keeps a warning of the run, not a text of the data."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in ("N_", "Said")
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "append"
        and getattr(func.value, "id", "") == "warnings"
    )


def test_only_the_listed_functions_write_promotions_notes_or_changes() -> None:
    makers = {key for key, function in _functions().items() if _calls(function) & _MAKERS}
    assert makers <= TEXT_WRITERS


def test_the_rule_sets_write_no_english_the_forms_do_not_hold() -> None:
    functions, forms = _functions(), rule_words.forms()
    assert functions.keys() >= TEXT_WRITERS
    unknown = {
        (key, text)
        for key in TEXT_WRITERS
        for text in _literals(functions[key])
        if re.search("[A-Za-z]{2}", text) and not any(text in form for form in forms)
    }
    assert unknown == set()


# ------------------------------------------------------------------ the surfaces, on two rated seasons
MAY = dt.date(2024, 5, 1)
#: The cga-dan season's events file: manual rank awards (one with a note, one without, one of the dan
#: already held).
DAN_EVENTS = """[[event]]
name = "Board"
kind = "other"
[[event.award]]
player = "丙"
date = 2024-05-03
rank = "3段"
note = "title"
[[event.award]]
player = "丁"
date = 2024-05-03
rank = "2段"
[[event.award]]
player = "甲"
date = 2024-05-20
rank = "2段"
note = "again"
"""
#: Who is promoted, and how: 甲 by 8 wins (and awarded the dan held), 乙 by the last 8 of 9 games.
DAN_PLAYERS = ("甲", "乙", "丙", "丁")
#: The Gomoku sample's promoted players: Articles 8, 4, 10, 9 and a manual award.
TGA_PLAYERS = ("陳志明", "周柏宇", "洪文雄", "林俊傑", "李宗翰")


def _series(player: str, results: str, start: dt.date) -> list[str]:
    """``player`` (1d, Black) against a new 1d opponent each day; ``results`` w or l from Black's view."""
    days = [start + dt.timedelta(i) for i in range(len(results))]
    return [
        sgf(player, f"{player}{i}", "B+R" if r == "w" else "W+R", str(day), black_rank="1d", white_rank="1d",
            seed=day.toordinal() % 9)
        for i, (r, day) in enumerate(zip(results, days, strict=True))
    ]  # fmt: skip


def _invoke(*args: str) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def seasons(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """The two seasons rated: rule set -> (its configuration, its output folder)."""
    root = tmp_path_factory.mktemp("dan")
    raw = root / "raw"
    raw.mkdir()
    records = _series("甲", "w" * 8, MAY) + _series("乙", "lll" + "w" * 6, MAY)
    records += _series("丙", "ww", MAY) + _series("丁", "ww", MAY)
    for i, text in enumerate(records):
        (raw / f"g{i:03d}.sgf").write_text(text, encoding="utf-8")
    (root / "events.toml").write_text(DAN_EVENTS, encoding="utf-8")
    config = root / "ratings.toml"
    config.write_text('[run]\nrule_set = "cga-dan"\nroster = ""\nevents = "events.toml"\n', encoding="utf-8")
    _invoke("run", "--config", str(config), "--raw", str(raw), "--out", str(root / "out"), "--workers", "1")
    gomoku = tmp_path_factory.mktemp("tga") / "out"
    tga_config = ROOT / "config" / "examples" / "tga.toml"
    raw_tga = str(ROOT / "data" / "gomoku" / "raw")
    _invoke("run", "--config", str(tga_config), "--raw", raw_tga, "--out", str(gomoku), "--workers", "1")
    return {"cga-dan": (config, root / "out"), "tga": (tga_config, gomoku)}


def _data_words(out: Path, config: Path) -> list[str]:
    """What the output shows as the data hold it: the players' and events' names, the events file's notes."""
    games = pd.read_parquet(out / "games.parquet", columns=["black", "white", "event"])
    names = [str(v) for c in games.columns for v in games[c].dropna().unique()]
    events = load_events(config.parent / tomllib.loads(config.read_text("utf-8"))["run"]["events"])
    return names + [e.name for e in events.events] + [a.note for e in events.events for a in e.awards]


def _assert_chinese(output: str, allowed: Iterable[str]) -> None:
    assert english_left(output, allowed=allowed) == []
    assert [line for line in output.splitlines() if cell_len(line) > WIDTH] == []


@pytest.mark.slow
@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("rule_set", ["cga-dan", "tga"])
def test_promotions_report_speaks_chinese(
    seasons: dict[str, tuple[Path, Path]], rule_set: str, lang: str
) -> None:
    config, out = seasons[rule_set]
    output = _invoke(
        "show", "--report", "promotions", "--out", str(out), "--config", str(config), "--lang", lang
    )
    _assert_chinese(output, _data_words(out, config))


@pytest.mark.slow
@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize(
    ("rule_set", "player"), [("cga-dan", p) for p in DAN_PLAYERS] + [("tga", p) for p in TGA_PLAYERS]
)
def test_explain_of_a_promoted_player_speaks_chinese(
    seasons: dict[str, tuple[Path, Path]], rule_set: str, player: str, lang: str
) -> None:
    config, out = seasons[rule_set]
    output = _invoke("explain", player, "--out", str(out), "--config", str(config), "--lang", lang)
    assert "→" in output  # the promotion's line
    _assert_chinese(output, _data_words(out, config))


@pytest.mark.slow
@pytest.mark.parametrize("rule_set", ["cga-dan", "tga"])
def test_promotions_report_in_english_shows_the_data_as_written(
    seasons: dict[str, tuple[Path, Path]], rule_set: str
) -> None:
    out = seasons[rule_set][1]
    output = _invoke("show", "--report", "promotions", "--out", str(out), "--wide", "--lang", "en")
    shown_text = " ".join(output.replace("│", " ").split())
    for rule in pd.read_parquet(out / "promotions.parquet")["rule"]:
        assert rule in shown_text


@pytest.mark.slow
@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("rule_set", ["cga-dan", "tga"])
def test_workbook_promotions_and_awards_speak_chinese(
    seasons: dict[str, tuple[Path, Path]], rule_set: str, lang: str
) -> None:
    config, out = seasons[rule_set]
    tables = export.workbook_tables(out)
    with i18n.speaking(lang):
        sheets = {s.name: s.frame for s in shown.shown_sheets(tables)}
    texts = [str(v) for v in sheets["Promotions"][["rule", "evidence"]].to_numpy().ravel()]
    texts += [str(v) for v in sheets["Awards"]["note"].dropna()]
    assert english_left("\n".join(texts), allowed=_data_words(out, config)) == []


def _visible(page: Path) -> str:
    """The text of ``page`` a reader sees (no scripts, styles or code)."""
    text = re.sub(r"<(script|style|code)\b.*?</\1>", " ", page.read_text("utf-8"), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


@pytest.mark.slow
@pytest.mark.parametrize("rule_set", ["cga-dan", "tga"])
def test_site_reports_and_player_pages_speak_chinese(
    seasons: dict[str, tuple[Path, Path]], rule_set: str, tmp_path: Path
) -> None:
    config, out = seasons[rule_set]
    build_site(out, tmp_path / "site", languages=CHINESE)
    allowed = [*_data_words(out, config), "tga", "cga-dan"]
    for lang in CHINESE:
        pages = [
            tmp_path / "site" / lang / "reports.html",
            *(tmp_path / "site" / lang / "players").glob("*.html"),
        ]
        left = {p.name: english_left(_visible(p), allowed=allowed) for p in pages}
        assert {name: words for name, words in left.items() if words} == {}
