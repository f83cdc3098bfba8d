"""`ratings run`, `show`, `audit`, `show --report` and their help in simplified Chinese, traditional
Chinese and English (issue 22): no English word of the interface left, every line within 80 cells,
the csv/json output the same in every language; the language chosen by --lang, the locale and
`[output] language`.

The outputs are the shipped sample (data/raw, config/) rated under club and under hkga, run once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from pipeline import reports
from pipeline.cli import app, boards
from pipeline.cli.reports import REASON_HELP, REPORT_HELP
from pipeline.core.reasons import REASONS
from tests.i18n_words import english_left

REPORT_NAMES = ["promotions", "fees", "certification", "leaderboards"]

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
WIDTH = 80
LANGUAGES = ("zh-Hans", "zh-Hant", "en")
CHINESE = ("zh-Hans", "zh-Hant")
#: The sample's player names written in Latin letters.
NAMES = ["fish", "daigo"]
#: Files whose messages are this test's concern; the others' (the lead's --lang and click's own
#: words) are allowed while their catalog entries are still untranslated.
MINE = (
    "pipeline/cli/run.py",
    "pipeline/cli/common.py",
    "pipeline/cli/tables.py",
    "pipeline/cli/lock.py",
    "pipeline/cli/reports.py",
    "pipeline/cli/standings.py",
    "pipeline/cli/boards.py",
    "pipeline/core/reasons.py",
    "pipeline/rules/hkga_reports.py",
)


def invoke(*args: str, env: dict[str, str] | None = None) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": str(WIDTH), **(env or {})})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """The sample rated under club (in simplified Chinese), hkga (in English) and glicko2 (in traditional
    Chinese: its standings write rating ± 2·deviation): rule set -> (output folder, the run's summary)."""
    found = {}
    for rules, lang in (("club", "zh-Hans"), ("hkga", "en"), ("glicko2", "zh-Hant")):
        # the folder's name is no English word, wherever a narrow table wraps its path
        out = tmp_path_factory.mktemp(rules) / "输出"
        config, raw = str(ROOT / "config" / "ratings.toml"), str(ROOT / "data" / "raw")
        args = [
            "run",
            "--config",
            config,
            "--raw",
            raw,
            "--out",
            str(out),
            "--rules",
            rules,
            "--workers",
            "1",
        ]
        found[rules] = (out, invoke(*args, "--lang", lang))
    return found


def untranslated_elsewhere() -> list[str]:
    """The English of the messages outside :data:`MINE` that have no simplified translation yet."""
    from i18n.catalogs import read

    left = []
    for message in read("zh_Hans"):
        if message.id and not message.string and not any(path in MINE for path, _ in message.locations):
            left += list(message.id) if isinstance(message.id, tuple | list) else [message.id]
    return left


def assert_fits(output: str) -> None:
    wide = [line for line in output.splitlines() if cell_len(line) > WIDTH]
    assert not wide, "\n".join(wide)


def assert_chinese(output: str) -> None:
    assert english_left(output, allowed=[*NAMES, *untranslated_elsewhere()]) == []
    assert_fits(output)


SURFACES: list[tuple[str, ...]] = [
    ("show",),
    ("show", "--date", "2024-06-15"),
    ("audit",),
    ("audit", "--excluded"),
    ("audit", "--counted"),
    ("audit", "--player", "fish"),
    ("audit", "--player", "太阳熊", "--period", "2024-08"),
    ("show", "--report", "fees"),
    ("show", "--report", "certification"),
    ("show", "--report", "promotions"),
    ("show", "--report", "leaderboards"),
]


@pytest.mark.slow
def test_the_run_summary_speaks_simplified_chinese(rated: dict[str, tuple[Path, str]]) -> None:
    summary = rated["club"][1]
    assert_chinese(summary)
    assert "等级分" in summary and "计入" in summary and "和棋" in summary  # the reasons as phrases


@pytest.mark.slow
def test_the_run_summary_in_english_keeps_its_words(rated: dict[str, tuple[Path, str]]) -> None:
    summary = rated["hkga"][1]
    assert "counted" in summary and "players rated" in summary and "parse_error" in summary
    assert_fits(summary)


@pytest.mark.slow
@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("rules", ["club", "hkga", "glicko2"])
@pytest.mark.parametrize("args", SURFACES, ids=" ".join)
def test_every_table_speaks_chinese_within_80_columns(
    rated: dict[str, tuple[Path, str]], rules: str, args: tuple[str, ...], lang: str
) -> None:
    assert_chinese(invoke(*args, "--out", str(rated[rules][0]), "--lang", lang))


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["club", "hkga", "glicko2"])
@pytest.mark.parametrize("args", SURFACES, ids=" ".join)
def test_every_table_in_english_fits_80_columns(
    rated: dict[str, tuple[Path, str]], rules: str, args: tuple[str, ...]
) -> None:
    output = invoke(*args, "--out", str(rated[rules][0]), "--lang", "en")
    assert_fits(output)
    assert not any("\u4e00" <= c <= "\u9fff" for c in _without_data(output))


def _without_data(output: str) -> str:
    """``output`` without the sample's names, results, events and paths (data in Chinese)."""
    return "".join(c for c in output if c.isascii() or c in "│┃━─┏┓┗┛┡┩└┘┌┐╇┳┻┼╋├┤┬┴┣┫ …→")


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("args", SURFACES, ids=" ".join)
def test_csv_and_json_are_the_same_in_every_language(
    rated: dict[str, tuple[Path, str]], args: tuple[str, ...], fmt: str
) -> None:
    out = str(rated["hkga"][0])
    outputs = {lang: invoke(*args, "--out", out, "--format", fmt, "--lang", lang) for lang in LANGUAGES}
    assert outputs["zh-Hans"] == outputs["zh-Hant"] == outputs["en"]
    assert outputs["en"].strip()


@pytest.mark.slow
def test_audit_shows_each_reason_as_a_phrase_in_chinese_and_the_code_in_english(
    rated: dict[str, tuple[Path, str]],
) -> None:
    out = str(rated["club"][0])
    simplified = invoke("audit", "--excluded", "--out", out, "--lang", "zh-Hans")
    traditional = invoke("audit", "--excluded", "--out", out, "--lang", "zh-Hant")
    english = invoke("audit", "--excluded", "--out", out, "--lang", "en")
    assert "本期与同一对手的对局超过上限" in simplified and "opponent_cap" not in simplified
    assert "本期與同一對手的對局超過上限" in traditional and "讓子棋" in traditional
    assert "opponent_cap" in english and "handicap" in english
    assert "棋谱无法读取：棋谱不完整" in simplified  # the parser's English message as its kind


COMMANDS = ["run", "ingest", "show", "audit"]


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("command", COMMANDS)
def test_help_speaks_chinese(command: str, lang: str) -> None:
    output = invoke(command, "--help", "--lang", lang)
    # the codes and the forms of values: reasons, report names, formats, metavars
    codes = [*REASONS, *REPORT_NAMES, "table", "CODE", "tcp://HOST:8786", "YYYY-MM-DD"]
    assert english_left(output, allowed=[*codes, *untranslated_elsewhere()]) == []


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("command", ["show", "audit"])
def test_help_in_chinese_fits_80_columns(command: str, lang: str) -> None:
    assert_fits(invoke(command, "--help", "--lang", lang))


@pytest.mark.parametrize("command", COMMANDS)
def test_help_in_english_is_english(command: str) -> None:
    output = invoke(command, "--help", "--lang", "en")
    assert_fits(output)
    assert not any("\u4e00" <= c <= "\u9fff" for c in output.replace("羽焰", ""))


def test_the_option_helps_name_every_reason_and_report() -> None:
    assert REASON_HELP.endswith(": " + ", ".join(REASONS))
    listed = "; ".join(f"{n} ({', '.join(r)})" for n, r in reports.REPORT_RULE_SETS.items())
    assert (
        f"Show a report table of the run instead: {listed}; {boards.NAME} (every rule set, of --period and "
        "its year)"
    ) == REPORT_HELP


@pytest.mark.slow
def test_the_locale_chooses_traditional(rated: dict[str, tuple[Path, str]]) -> None:
    out = str(rated["club"][0])
    output = invoke("show", "--out", out, env={"LANG": "zh_TW.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""})
    assert "排名" in output and "等級分" in output and "名次" in output


@pytest.mark.slow
def test_the_configuration_chooses_simplified(rated: dict[str, tuple[Path, str]], tmp_path: Path) -> None:
    config = tmp_path / "ratings.toml"
    config.write_text('[output]\nlanguage = "zh-Hans"\n', encoding="utf-8")
    out = str(rated["club"][0])
    output = invoke("audit", "--excluded", "--out", out, "--config", str(config), env={"LANG": "en_US.UTF-8"})
    assert "审核" in output and "和棋" in output
    assert english_left(output, allowed=NAMES) == []


@pytest.mark.slow
def test_a_bad_day_fails_in_the_language_chosen(rated: dict[str, tuple[Path, str]]) -> None:
    out = str(rated["club"][0])
    result = runner.invoke(app, ["show", "--date", "June", "--lang", "zh-Hant", "--out", out])
    assert result.exit_code == 2
    assert "錯誤：--date 須為 YYYY-MM-DD" in result.output


def test_a_folder_without_output_says_so_in_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config/ratings.toml here
    result = runner.invoke(app, ["audit", "--lang", "zh-Hans", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "错误：" in result.output and "中没有输出" in result.output
