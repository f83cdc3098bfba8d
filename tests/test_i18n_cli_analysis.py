"""`explain`, `diff`, `compare`, `players` and `backtest` in simplified Chinese, traditional Chinese and
English: every command and its help, at 80 columns, on the shipped sample run into a temporary folder.

In Chinese no English word of the interface is left (tests/i18n_words.py: names, codes, paths and
commands aside); in every language every line fits 80 cells; the ``--format csv|json`` outputs are the
same whatever the language (the data keep their English codes and column names)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from rich.cells import cell_len
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.core import i18n
from pipeline.reports import explain as explain_mod
from tests.i18n_words import english_left

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "config" / "ratings.toml"
LANGUAGES = ("zh-Hans", "zh-Hant", "en")
CHINESE = ("zh-Hans", "zh-Hant")
#: A file of the sample removed before the second run: `diff` then has a cause to give.
REMOVED = "2024-07"
runner = CliRunner()


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sample's records copied, with two games of 凝蘭 (凝兰 in traditional characters: a pair for
    `players --suggest`), run; then a file of a counted game removed and run again (two generations,
    `diff` has a cause to give)."""
    folder = tmp_path_factory.mktemp("sample")
    raw, out = folder / "raw", folder / "out"
    shutil.copytree(ROOT / "data" / "raw", raw)
    for day, opponent in ((10, "阿扬"), (12, "雪茄")):
        game = sgf("凝蘭", opponent, "W+R", f"2024-08-{day}", black_rank="4k", white_rank="3d", seed=day)
        (raw / "2024-08" / f"extra_{day}.sgf").write_text(game, encoding="utf-8")
    run = ["run", "--config", str(CONFIG), "--raw", str(raw), "--out", str(out), "--workers", "1"]
    _invoke("en", *run)
    games = pd.read_parquet(out / "games.parquet")
    counted = games[games["counted"] & (games["period"] == REMOVED) & (games["game_index"] == 0)]
    (raw / str(counted["source_path"].iloc[0])).unlink()
    _invoke("en", *run)
    return {"raw": raw, "out": out}


def _invoke(language: str, *args: str) -> str:
    result = runner.invoke(app, [*args, "--lang", language], env={"COLUMNS": "80"})
    assert result.exit_code == 0, (args, language, result.output)
    return result.output


@pytest.fixture(scope="module")
def names(sample: dict[str, Path]) -> list[str]:
    """Every player's name and every spelling of the sample (they are data, in any language)."""
    games = pd.read_parquet(sample["out"] / "games.parquet")
    columns = ["black", "white", "black_player", "white_player", "event", "event_name"]
    found = {str(v) for c in columns if c in games for v in games[c].dropna()}
    return sorted(found)


def _commands(sample: dict[str, Path]) -> dict[str, list[str]]:
    out, raw = str(sample["out"]), str(sample["raw"])
    common = ["--config", str(CONFIG)]
    return {
        "explain": ["explain", "羽焰", "--out", out, *common],
        "explain May": ["explain", "羽焰", "--period", "2024-05", "--out", out, *common],
        "explain fish": ["explain", "fish", "--period", "2024-06", "--out", out, *common],
        "diff": ["diff", "--out", out, *common],
        "diff --files": ["diff", "--files", "--out", out, *common],
        "diff --list": ["diff", "--list", "--out", out, *common],
        "compare": ["compare", "--rules", "club", "--against", "hkga", "--out", out, "--raw", raw, *common],
        "players": ["players", "--out", out, *common],
        "players --suggest": ["players", "--suggest", "--out", out, *common],
        "backtest": ["backtest", "--rules", "club,hkga", "--raw", raw, "--out", out, *common],
    }


@pytest.fixture(scope="module")
def outputs(sample: dict[str, Path]) -> dict[tuple[str, str], str]:
    """(command, language) -> what the command printed at 80 columns."""
    return {
        (name, language): _invoke(language, *args)
        for name, args in _commands(sample).items()
        for language in LANGUAGES
    }


COMMANDS = (
    "explain",
    "explain May",
    "explain fish",
    "diff",
    "diff --files",
    "diff --list",
    "compare",
    "players",
    "players --suggest",
    "backtest",
)
HELPS = ("explain", "diff", "compare", "players", "backtest")


#: The caption of a table too wide for the terminal (pipeline/cli/tables.py: shared, not this surface).
_CAPTION = "(--wide shows every column)"
#: A line of the roster snippet that is TOML, not a comment: code (its keys are the roster file's).
_TOML = re.compile(r"\[\[player\]\]$|[a-z]+ = ")


def _words_left(output: str, names: list[str]) -> list[str]:
    """:func:`english_left` of ``output``, the names of the sample, the rule sets and UTC allowed."""
    mine = "\n".join(line for line in output.splitlines() if _CAPTION not in line and not _TOML.match(line))
    return english_left(mine, allowed=[*names, "club", "hkga", "egf", "UTC", "roster"])


def _too_wide(output: str) -> list[str]:
    return [line for line in output.splitlines() if cell_len(line) > 80]


@pytest.mark.parametrize("language", CHINESE)
@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_speaks_chinese_with_no_english_left(
    command: str, language: str, outputs: dict[tuple[str, str], str], names: list[str]
) -> None:
    output = outputs[(command, language)]
    assert _words_left(output, names) == [], output
    assert output != outputs[(command, "en")]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_fits_80_columns(
    command: str, language: str, outputs: dict[tuple[str, str], str]
) -> None:
    output = outputs[(command, language)]
    assert _too_wide(output) == [], output


def test_the_traditional_output_is_traditional(outputs: dict[tuple[str, str], str]) -> None:
    assert "等级分" in outputs[("explain", "zh-Hans")] and "等級分" in outputs[("explain", "zh-Hant")]
    assert "计入的对局" in outputs[("explain", "zh-Hans")] and "計入的對局" in outputs[("explain", "zh-Hant")]


def test_explain_shows_the_club_proposal_s_terms(outputs: dict[tuple[str, str], str]) -> None:
    """The worked example's words (seed 001): 局分, 段级位系数, 胜局分 and 败局分."""
    may = outputs[("explain May", "zh-Hans")]
    assert "单局胜局分 = 对手段级位系数 × 局分" in may and "单局败局分 = 自身段级位系数 × 局分" in may
    assert "胜：对手系数" in may and "负：自身系数" in may
    assert "單局勝局分 = 對手段級位係數 × 局分" in outputs[("explain May", "zh-Hant")]


def test_diff_gives_its_causes_in_words(outputs: dict[tuple[str, str], str]) -> None:
    assert "removed file" in outputs[("diff", "en")]
    assert "文件被删除" in outputs[("diff", "zh-Hans")] and "檔案被刪除" in outputs[("diff", "zh-Hant")]


def _own_help(command: str) -> list[str]:
    """The help messages of ``command``'s own: its docstring's paragraphs (i18n/extract.py) and its
    module's option helps (the shared options, ``Usage:`` and ``Options`` are pipeline/cli's)."""
    import typer.main

    from i18n.extract import help_paragraphs

    chosen = typer.main.get_command(app).commands[command]  # type: ignore[attr-defined]
    module = chosen.callback.__wrapped__.__module__  # type: ignore[union-attr]
    shown = [p for p in chosen.params if p.help and not getattr(p, "hidden", False)]
    own = [p.help for p in shown if _defined_in(module, p.help)]
    return [*help_paragraphs(chosen.callback.__wrapped__.__doc__ or ""), *own]  # type: ignore[union-attr]


def _defined_in(module: str, text: str) -> bool:
    import importlib
    import inspect

    return text in inspect.getsource(importlib.import_module(module))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("command", HELPS)
def test_each_help_speaks_the_language(command: str, language: str) -> None:
    """Each paragraph and option help of the command's own is shown in the language (its first words
    in the output), none left in English; English help fits 80 columns."""
    output = " ".join(_invoke(language, command, "--help").split())
    messages = _own_help(command)
    assert len(messages) >= 2
    for message in messages:
        with i18n.speaking(language):
            shown = i18n.gettext(message)
        assert shown != message or language == "en", message
        assert " ".join(shown.split())[:12] in output, (message, output)
    if language == "en":
        assert _too_wide(_invoke(language, command, "--help")) == []


@pytest.mark.parametrize("language", CHINESE)
@pytest.mark.parametrize("command", HELPS)
def test_each_chinese_help_fits_80_columns(command: str, language: str) -> None:
    output = _invoke(language, command, "--help")
    assert _too_wide(output) == [], output


def _scripts(sample: dict[str, Path]) -> dict[str, list[str]]:
    out, raw = str(sample["out"]), str(sample["raw"])
    common = ["--out", out, "--config", str(CONFIG)]
    against = ["compare", "--rules", "club", "--against", "hkga", "--raw", raw, *common]
    return {
        "diff csv": ["diff", "--format", "csv", *common],
        "diff --files json": ["diff", "--files", "--format", "json", *common],
        "diff --list csv": ["diff", "--list", "--format", "csv", *common],
        "players csv": ["players", "--format", "csv", *common],
        "players --suggest json": ["players", "--suggest", "--format", "json", *common],
        "compare movers csv": [*against, "--table", "movers", "--format", "csv"],
        "compare prediction json": [*against, "--table", "prediction", "--format", "json"],
    }


def test_csv_and_json_are_the_same_in_every_language(sample: dict[str, Path]) -> None:
    for name, args in _scripts(sample).items():
        english = _invoke("en", *args)
        assert english.strip(), name
        for language in CHINESE:
            assert _invoke(language, *args) == english, (name, language)


def test_the_suggestions_evidence_is_english_in_json_and_chinese_in_the_table(
    sample: dict[str, Path],
) -> None:
    common = ["--out", str(sample["out"]), "--config", str(CONFIG)]
    found = _invoke("zh-Hans", "players", "--suggest", "--format", "json", *common)
    assert "the same name in traditional and simplified Chinese" in found
    assert "同一名字的繁体与简体" in _invoke("zh-Hans", "players", "--suggest", *common)
    assert "同一名字的繁體與簡體" in _invoke("zh-Hant", "players", "--suggest", *common)


def test_explain_s_words_are_the_language_s_and_english_by_default(sample: dict[str, Path]) -> None:
    """The library speaks the language around it (the derivation, the reasons); English outside."""
    english = explain_mod.explain(sample["out"], "羽焰", "2024-05")
    with i18n.speaking("zh-Hant"):
        chinese = explain_mod.explain(sample["out"], "羽焰", "2024-05")
    assert "counted game" in english.summary and "計入對局" in chinese.summary
    assert chinese.equation == english.equation  # the numbers are the same
    assert [g.result for g in chinese.games] == [g.result for g in english.games]  # the values stay codes
