"""The language a person reads: chosen by --lang, [output] language or the locale; help and argument
errors in it; Chinese help wrapped to the terminal by cells."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.cli.language import LanguageChoiceError, chosen
from pipeline.cli.wrapping import wrap
from pipeline.core import i18n

runner = CliRunner()


@pytest.mark.parametrize(
    ("value", "language"),
    [
        ("zh-Hans", "zh-Hans"),
        ("ZH_hant", "zh-Hant"),
        ("en", "en"),
        ("zh-CN", "zh-Hans"),
        ("zh_SG", "zh-Hans"),
        ("zh-TW", "zh-Hant"),
        ("zh_HK", "zh-Hant"),
        ("zh_MO", "zh-Hant"),
        ("zh", "zh-Hans"),
    ],
)
def test_language_of_reads_each_spelling(value: str, language: str) -> None:
    assert i18n.language_of(value) == language


def test_language_of_names_the_languages_there_are_for_an_unknown_one() -> None:
    with pytest.raises(i18n.LanguageError, match=r"'fr'.*zh-Hans, zh-Hant, en"):
        i18n.language_of("fr")


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh-Hans"),
        ({"LANG": "zh_TW.UTF-8"}, "zh-Hant"),
        ({"LANG": "zh_HK.Big5"}, "zh-Hant"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "zh_TW.UTF-8"}, "zh-Hant"),
        ({"LANG": "zh_TW.UTF-8", "LC_ALL": "zh_CN.UTF-8"}, "zh-Hans"),
        ({}, "en"),
    ],
)
def test_the_locale_chooses_when_nothing_else_does(environ: dict[str, str], language: str) -> None:
    assert i18n.resolve(None, None, environ) == language


def test_the_option_wins_over_the_configuration_and_the_configuration_over_the_locale() -> None:
    environ = {"LANG": "zh_TW.UTF-8"}
    assert i18n.resolve("en", "zh-Hans", environ) == "en"
    assert i18n.resolve(None, "zh-Hans", environ) == "zh-Hans"


def test_the_configuration_file_s_language_is_read_before_parsing(tmp_path: Path) -> None:
    config = tmp_path / "ratings.toml"
    config.write_text('[output]\nlanguage = "zh-Hant"\n', encoding="utf-8")
    assert chosen(["show", "--config", str(config)], {"LANG": "zh_CN.UTF-8"}) == "zh-Hant"
    assert chosen(["show", f"--config={config}", "--lang", "en"], {}) == "en"


def test_a_configured_language_that_is_none_is_an_error_naming_the_file(tmp_path: Path) -> None:
    config = tmp_path / "ratings.toml"
    config.write_text('[output]\nlanguage = "klingon"\n', encoding="utf-8")
    with pytest.raises(LanguageChoiceError, match=r"ratings.toml: \[output\] language: .*'klingon'"):
        chosen(["show", "--config", str(config)], {})


def test_an_unknown_lang_exits_2_naming_the_languages() -> None:
    result = runner.invoke(app, ["show", "--lang", "fr"])
    assert result.exit_code == 2
    assert "zh-Hans, zh-Hant, en" in result.output


def test_the_configuration_rejects_an_unknown_language(tmp_path: Path) -> None:
    from pipeline import config as config_mod

    path = tmp_path / "ratings.toml"
    path.write_text('[output]\nlanguage = "fr"\n', encoding="utf-8")
    with pytest.raises(config_mod.ConfigError, match="language"):
        config_mod.load(path)
    path.write_text('[output]\nlanguage = "zh_TW"\n', encoding="utf-8")
    assert config_mod.load(path).language == "zh-Hant"


def test_speaking_is_english_outside_any_block_and_restored_after_one() -> None:
    assert i18n.current() == "en"
    with i18n.speaking("zh-Hant"):
        assert i18n.current() == "zh-Hant"
        with i18n.speaking("en"):
            assert i18n.gettext("Options") == "Options"
        assert i18n.gettext("Options") != "Options"
    assert i18n.current() == "en"


@pytest.mark.parametrize("language", ["zh-Hans", "zh-Hant"])
def test_help_headings_and_option_help_speak_the_language(language: str) -> None:
    result = runner.invoke(app, ["run", "--help", "--lang", language], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    with i18n.speaking(language):
        assert i18n.gettext("Options") in result.output
        assert i18n.gettext("Show this message and exit.") in result.output
    assert "Options:" not in result.output
    assert all(cell_len(line) <= 80 for line in result.output.splitlines())


def test_the_locale_chooses_the_language_of_the_help() -> None:
    result = runner.invoke(app, ["--help"], env={"LANG": "zh_TW.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""})
    assert "選項" in result.output


@pytest.mark.parametrize(
    ("args", "english"),
    [
        (["run", "--bogus"], "No such option"),
        (["show", "--top"], "requires an argument"),
        (["run", "--workers", "-1"], "Input should be"),
        (["show", "a", "b"], "unexpected extra"),
    ],
)
def test_argument_errors_are_said_in_the_language(args: list[str], english: str) -> None:
    result = runner.invoke(app, [*args, "--lang", "zh-Hans"])
    assert result.exit_code == 2
    assert "错误：" in result.output
    assert english not in result.output
    assert "Error:" not in result.output


def test_argument_errors_stay_english_in_english() -> None:
    result = runner.invoke(app, ["run", "--bogus", "--lang", "en"])
    assert result.exit_code == 2
    assert "Error: No such option: --bogus" in result.output


def test_prose_breaks_between_chinese_characters_but_not_before_a_closing_mark() -> None:
    text = "输出的语言：简体、繁体或英文（默认按系统区域设置）。"
    lines = wrap(text, 12, prose=True)
    assert "".join(lines) == text
    assert all(cell_len(line) <= 12 for line in lines)
    assert not any(line[0] in "，。、：）" for line in lines)


def test_names_are_never_broken_between_characters() -> None:
    assert wrap("李昌鎬 張栩", 7) == ["李昌鎬", "張栩"]


def test_a_missing_catalog_says_how_to_make_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        with pytest.raises(i18n.CatalogMissing, match="make i18n"), i18n.speaking("zh-Hans"):
            pass
    finally:
        i18n.translations.cache_clear()
