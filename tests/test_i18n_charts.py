"""`ratings plot --lang zh-Hans|zh-Hant`: the charts' titles, axes, legends and rank ticks in Chinese.

Two corpora, as in tests/test_plots.py: club points (2024-05 and 2024-06, four players) and tga dans
(甲 2d, 乙 3d, 丙 4d in 2024 and 2025: ratings that are ranks). Every text of a figure but the players'
names, the periods and the rule set is read from the figure and must hold no English word of the
interface; the rank ticks read 2段 3段 4段.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from matplotlib.figure import Figure
from rich.cells import cell_len
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.core import i18n
from pipeline.reports import plots
from tests.i18n_words import english_left, own_help

runner = CliRunner()
CHINESE = ("zh-Hans", "zh-Hant")
GAMES = {
    "a.sgf": sgf("羽焰", "凝兰", "B+R", "2024-05-01", black_rank="1d", white_rank="5k"),
    "b.sgf": sgf("羽焰", "陳志明", "W+R", "2024-06-02", black_rank="1d", white_rank="2d", slow=False),
    "c.sgf": sgf("さくら", "김민준", "B+R", "2024-06-03", black_rank="1d", white_rank="1d"),
}
NAMES = ["羽焰", "凝兰", "陳志明", "さくら", "김민준"]
TGA_GAMES = {
    "a.sgf": sgf(
        "甲", "乙", "B+R", "2024-03-01", black_rank="2d", white_rank="3d", game_type=4, event="Open"
    ),
    "b.sgf": sgf(
        "乙", "丙", "W+R", "2024-03-01", black_rank="3d", white_rank="4d", game_type=4, event="Open"
    ),
    "c.sgf": sgf(
        "甲", "丙", "W+R", "2025-03-01", black_rank="2d", white_rank="4d", game_type=4, event="Open"
    ),
}
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _run(folder: Path, games: dict[str, str], rules: str) -> Path:
    (folder / "raw").mkdir()
    for name, text in games.items():
        (folder / "raw" / name).write_text(text, encoding="utf-8")
    config = folder / "ratings.toml"
    config.write_text(f'[run]\nrule_set = "{rules}"\nroster = ""\nevents = ""\n', encoding="utf-8")
    args = ["run", "--config", str(config), "--raw", str(folder / "raw"), "--out", str(folder / "out")]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return folder / "out"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("club"), GAMES, "club")


@pytest.fixture(scope="module")
def tga_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("tga"), TGA_GAMES, "tga")


def texts(figure: Figure) -> dict[str, list[str]]:
    """The interface's texts of ``figure``'s one axes: title, axis labels, tick labels, legend."""
    ax = figure.axes[0]
    legend = ax.get_legend()
    return {
        "title": [ax.get_title()],
        "axes": [ax.get_xlabel(), ax.get_ylabel()],
        "ticks": [t.get_text() for t in [*ax.get_xticklabels(), *ax.get_yticklabels()]],
        "legend": [legend.get_title().get_text(), *(t.get_text() for t in legend.get_texts())]
        if legend
        else [],
    }


def _all(found: dict[str, list[str]]) -> str:
    return " ".join(t for group in found.values() for t in group)


@pytest.mark.parametrize("lang", CHINESE)
def test_a_history_chart_speaks_chinese(out: Path, lang: str) -> None:
    with i18n.speaking(lang):
        found = texts(plots.history_figure(out, ["羽焰", "凝兰"]))
    assert _HAN.search(found["title"][0]) and "club" in found["title"][0]
    assert all(_HAN.search(t) for t in found["axes"] if t)
    assert found["legend"][1:] == ["羽焰", "凝兰"]
    assert english_left(_all(found), allowed=NAMES) == []


@pytest.mark.parametrize("lang", CHINESE)
def test_a_top_players_history_chart_speaks_chinese(out: Path, lang: str) -> None:
    with i18n.speaking(lang):
        found = texts(plots.history_figure(out, [], top=3))
    assert "3" in found["title"][0] and english_left(_all(found), allowed=NAMES) == []


@pytest.mark.parametrize("lang", CHINESE)
def test_a_distribution_chart_speaks_chinese(out: Path, lang: str) -> None:
    with i18n.speaking(lang):
        found = texts(plots.distribution_figure(out, "2024-06"))
    assert "2024-06" in found["title"][0] and _HAN.search(found["title"][0])
    assert len(found["legend"]) == 3 and all(_HAN.search(t) for t in found["legend"][1:])
    assert english_left(_all(found)) == []


@pytest.mark.parametrize(("lang", "kyu"), [("zh-Hans", "级"), ("zh-Hant", "級")])
def test_rank_ticks_are_dans_and_kyus_in_chinese(tga_out: Path, lang: str, kyu: str) -> None:
    with i18n.speaking(lang):
        history = plots.history_figure(tga_out, ["甲", "乙", "丙"]).axes[0]
        spread = plots.distribution_figure(tga_out, None).axes[0]
        assert plots.rank_label("5k") == f"5{kyu}"
    assert [t.get_text() for t in history.get_yticklabels()] == ["2段", "3段", "4段"]
    assert [t.get_text() for t in spread.get_xticklabels()] == ["2段", "3段", "4段"]
    assert english_left(_all(texts(spread.figure)), allowed=["tga"]) == []  # type: ignore[arg-type]


def test_rank_labels_stay_as_they_are_in_english() -> None:
    assert [plots.rank_label(r) for r in ("2d", "5k", "9p", "?")] == ["2d", "5k", "9p", "?"]


@pytest.mark.slow
@pytest.mark.parametrize("lang", CHINESE)
def test_the_chinese_texts_render_without_missing_glyphs(out: Path, tmp_path: Path, lang: str) -> None:
    with warnings.catch_warnings(record=True) as caught, i18n.speaking(lang):
        warnings.simplefilter("always")
        plots.distribution_chart(out, None, tmp_path / "d.png")
        plots.history_chart(out, NAMES, tmp_path / "h.png")
    assert [str(w.message) for w in caught if "missing from font" in str(w.message)] == []


@pytest.mark.parametrize("lang", CHINESE)
def test_plot_says_what_it_wrote_and_its_errors_in_the_language(out: Path, tmp_path: Path, lang: str) -> None:
    wrote = runner.invoke(
        app, ["plot", "--out", str(out), "--image", str(tmp_path / "a.svg"), "--lang", lang]
    )
    assert wrote.exit_code == 0 and english_left(wrote.output) == []
    wrong = runner.invoke(
        app, ["plot", "--out", str(out), "--image", str(tmp_path / "a.gif"), "--lang", lang]
    )
    assert wrong.exit_code == 2 and english_left(wrong.output, allowed=["error", "jpg"]) == []
    args = ["plot", "--out", str(out), "--image", str(tmp_path / "b.png"), "--kind", "distribution"]
    misfit = runner.invoke(app, [*args, "--player", "羽焰", "--lang", lang])
    assert misfit.exit_code == 2 and english_left(misfit.output, allowed=["error", "distribution"]) == []


@pytest.mark.parametrize("lang", [*CHINESE, "en"])
def test_plot_help_in_each_language_fits_80_columns(lang: str) -> None:
    result = runner.invoke(app, ["plot", "--help", "--lang", lang], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert max(cell_len(line) for line in result.output.splitlines()) <= 80
    text = own_help(result.output)
    if lang == "en":
        assert "Draw a chart" in text and "(.jpeg, .jpg, .pdf, .png, .svg)" in " ".join(text.split())
    else:
        # the --kind choices and the examples' names and values are the command's, in every language
        allowed = ["history", "distribution", "CJK", "jpg", "top5", "spread", *NAMES]
        assert _HAN.search(text) and english_left(text, allowed=allowed) == []


def test_the_image_option_lists_every_chart_format_and_the_top_its_default() -> None:
    """The option help is a literal (to be translated): it must name what plots.FORMATS and
    plots.DEFAULT_TOP say."""
    result = runner.invoke(app, ["plot", "--help"], env={"COLUMNS": "200"})
    assert f"({', '.join(sorted(plots.FORMATS))})" in result.output
    assert f"(default {plots.DEFAULT_TOP})" in result.output
