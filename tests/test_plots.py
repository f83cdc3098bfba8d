"""`ratings plot` and pipeline.reports.plots: PNG charts of rating histories and distributions,
CJK names legible.

The corpus (club rule set; roster 羽焰 1d alias YuYan, 凝兰 5k, 陳志明 2d, さくら 1d, 김민준 1d):

    a  2024-05-01 slow  yuyan (B) beats 凝兰   羽焰 +1 (凝兰's coefficient 0.1) x 10 = +1 -> 101;
                                               凝兰 -0.1 x 10 = -1 -> 9
    b  2024-06-02 fast  羽焰 loses to 陳志明   羽焰 -1 (own coefficient) x 5 = -5 -> 96;
                                               陳志明 +1 (羽焰's coefficient) x 5 = +5 -> 205
    c  2024-06-03 slow  さくら beats 김민준     さくら +1 x 10 = +10 -> 110; 김민준 -1 x 10 = -10 -> 90

May ends 羽焰 101, 凝兰 9 (the others have not played yet). June ends 凝兰 9, 김민준 90, 羽焰 96,
さくら 110, 陳志明 205.

The tga corpus (Gomoku, no roster, no events file: every EV a recognised event; yearly periods): 甲 2d,
乙 3d and 丙 4d play three games in 2024 and 2025, too few to promote anyone: their ratings are their dan
numbers 2, 3 and 4 in both years.
"""

from __future__ import annotations

import datetime as dt
import struct
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ft2font import FT2Font
from rosters import roster
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config.roster import load_roster
from pipeline.reports import ReportError, fonts, plots

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ROSTER = roster("羽焰", "凝兰", "陳志明", "さくら", "김민준")
GAMES = {
    "a.sgf": sgf("yuyan", "凝兰", "B+R", "2024-05-01"),
    "b.sgf": sgf("羽焰", "陳志明", "W+R", "2024-06-02", slow=False),
    "c.sgf": sgf("さくら", "김민준", "B+R", "2024-06-03"),
}
NAMES = "羽焰 凝兰 陳志明 さくら 김민준"


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


def run(folder: Path, games: dict[str, str], rules: str, roster: str = "") -> Path:
    """``games`` (and ``roster`` when given) under ``folder``, run under ``rules``; the output folder."""
    (folder / "raw").mkdir()
    for name, text in games.items():
        (folder / "raw" / name).write_text(text, encoding="utf-8")
    (folder / "roster.toml").write_text(roster, encoding="utf-8")
    config = folder / "ratings.toml"
    config.write_text(
        f'[run]\nrule_set = "{rules}"\nroster = "{"roster.toml" if roster else ""}"\nevents = ""\n'
    )
    args = ["run", "--config", str(config), "--raw", str(folder / "raw"), "--out", str(folder / "out")]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return folder / "out"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus above, run once for the module (the tests only read it)."""
    return run(tmp_path_factory.mktemp("plots"), GAMES, "club", ROSTER)


@pytest.fixture(scope="module")
def tga_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tga corpus above, run once for the module."""
    return run(tmp_path_factory.mktemp("tga"), TGA_GAMES, "tga")


def tick_labels(axis: Any) -> list[str]:
    return [label.get_text() for label in axis.get_ticklabels()]


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (after the signature, length and type: 16 bytes)."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def glyph_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if "missing from font" in str(w.message)]


def test_cjk_font_has_every_sample_roster_name_and_traditional_kana_hangul() -> None:
    roster = load_roster(ROOT / "config" / "roster.toml")
    text = "".join(p.name for p in roster.players) + "陳志明 鄭龍 ひらがな カタカナ 김민준"
    charmap = FT2Font(str(fonts.cjk_font())).get_charmap()
    assert [c for c in text if not c.isspace() and ord(c) not in charmap] == []


def test_cjk_font_is_registered_with_matplotlib() -> None:
    path = fonts.cjk_font()
    assert str(path) in {entry.fname for entry in font_manager.fontManager.ttflist}


def test_cjk_font_falls_back_to_a_system_font_that_has_the_glyphs(monkeypatch: pytest.MonkeyPatch) -> None:
    packaged = fonts.cjk_font()
    latin = font_manager.findfont("DejaVu Sans")  # matplotlib's own font: no CJK glyphs
    monkeypatch.setattr(fonts, "PACKAGED_FONT", ("mplfonts", "fonts/none.otf"))
    monkeypatch.setattr(font_manager, "findSystemFonts", lambda *a, **k: [latin, str(packaged)])
    assert fonts.cjk_font() == packaged


def test_no_cjk_font_raises_plot_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts, "PACKAGED_FONT", ("mplfonts", "fonts/none.otf"))
    monkeypatch.setattr(
        font_manager, "findSystemFonts", lambda *a, **k: [font_manager.findfont("DejaVu Sans")]
    )
    with pytest.raises(fonts.PlotError, match="pip install mplfonts"):
        fonts.cjk_font()


def test_covered_lists_the_characters_a_font_lacks() -> None:
    assert fonts.covered(Path(font_manager.findfont("DejaVu Sans")), "ab 羽焰 羽") == "羽焰"


def test_latin_font_warns_of_missing_glyphs_so_the_check_below_can_fail() -> None:
    figure = Figure()
    FigureCanvasAgg(figure)
    figure.add_subplot().set_title(NAMES, fontfamily="DejaVu Sans")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figure.canvas.draw()
    assert glyph_warnings(caught)


@pytest.mark.slow
def test_history_chart_renders_cjk_names_without_missing_glyphs(out: Path, tmp_path: Path) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plots.history_chart(out, NAMES.split(), tmp_path / "h.png")
    assert glyph_warnings(caught) == []


@pytest.mark.slow
def test_history_chart_writes_a_png_of_two_players(out: Path, tmp_path: Path) -> None:
    target = plots.history_chart(out, ["羽焰", "凝兰"], tmp_path / "sub" / "h.png")
    assert target == tmp_path / "sub" / "h.png"
    assert target.stat().st_size > 10_000  # axes, two lines, a legend: far more than an empty PNG
    assert png_size(target) == (1000, 600)  # 10 x 6 inches at 100 dpi


def test_history_points_are_period_ends_after_the_first_day(out: Path) -> None:
    points = plots.history(out, ["羽焰", "凝兰"])
    assert points == {
        "羽焰": [(dt.date(2024, 5, 1), 100.0), (dt.date(2024, 5, 31), 101.0), (dt.date(2024, 6, 30), 96.0)],
        "凝兰": [(dt.date(2024, 5, 1), 10.0), (dt.date(2024, 5, 31), 9.0), (dt.date(2024, 6, 30), 9.0)],
    }


def test_history_starts_at_a_players_first_rated_period(out: Path) -> None:
    assert plots.history(out, ["さくら"]) == {
        "さくら": [(dt.date(2024, 6, 1), 100.0), (dt.date(2024, 6, 30), 110.0)]
    }


def test_history_finds_a_player_by_alias_in_any_case(out: Path) -> None:
    assert list(plots.history(out, ["YUYAN", "羽焰"])) == ["羽焰"]


def test_history_of_an_unknown_player_raises_naming_them(out: Path) -> None:
    with pytest.raises(ReportError, match="nobody"):
        plots.history(out, ["nobody"])


def test_distribution_is_of_the_latest_period_by_default(out: Path) -> None:
    assert plots.distribution(out, None) == ("2024-06", [9.0, 90.0, 96.0, 110.0, 205.0])


def test_distribution_of_a_named_period(out: Path) -> None:
    assert plots.distribution(out, "2024-05") == ("2024-05", [9.0, 101.0])


@pytest.mark.slow
def test_distribution_chart_writes_a_png(out: Path, tmp_path: Path) -> None:
    target = plots.distribution_chart(out, None, tmp_path / "d.png")
    assert target.stat().st_size > 10_000
    assert png_size(target) == (1000, 600)


def test_history_title_names_the_rule_set_and_the_periods(out: Path) -> None:
    title = plots.history_figure(out, ["羽焰"]).axes[0].get_title()
    assert title == "Rating history under club, 2024-05 to 2024-06"


def test_distribution_title_names_the_rule_set_and_the_period(out: Path) -> None:
    title = plots.distribution_figure(out, "2024-05").axes[0].get_title()
    assert title == "Rating distribution under club at the end of 2024-05 (2 players)"


def test_history_without_players_draws_the_top_n_of_the_latest_period(out: Path) -> None:
    legend = plots.history_figure(out, [], top=2).axes[0].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["陳志明", "さくら"]  # June: 205, 110


@pytest.mark.slow
def test_ranks_as_ratings_are_a_rank_scale(tga_out: Path) -> None:
    assert plots.rank_scale(tga_out) == {2.0: "2d", 3.0: "3d", 4.0: "4d"}


def test_points_that_share_a_rank_are_no_rank_scale(out: Path) -> None:
    assert plots.rank_scale(out) is None  # club: 90 and 96 are both 1k


def test_a_tga_history_has_one_tick_per_dan_labelled_as_a_rank(tga_out: Path) -> None:
    axis = plots.history_figure(tga_out, ["甲", "乙", "丙"]).axes[0].yaxis
    assert (list(axis.get_ticklocs()), tick_labels(axis)) == ([2.0, 3.0, 4.0], ["2d", "3d", "4d"])
    assert axis.get_label_text() == "rank"


def test_a_tga_distribution_has_ranks_on_the_x_axis(tga_out: Path) -> None:
    axis = plots.distribution_figure(tga_out, None).axes[0].xaxis
    assert tick_labels(axis) == ["2d", "3d", "4d"]


@pytest.mark.parametrize(
    ("suffix", "magic"),
    [(".svg", b"<?xml"), (".pdf", b"%PDF"), (".jpg", b"\xff\xd8\xff"), (".JPEG", b"\xff\xd8\xff")],
)
@pytest.mark.slow
def test_the_file_suffix_picks_the_chart_format(out: Path, tmp_path: Path, suffix: str, magic: bytes) -> None:
    target = plots.history_chart(out, ["羽焰"], tmp_path / f"h{suffix}")
    assert target.read_bytes().startswith(magic)


def test_an_unknown_suffix_raises_naming_the_file_and_writes_nothing(out: Path, tmp_path: Path) -> None:
    with pytest.raises(ReportError, match=r"'h\.gif'.*\.png"):
        plots.history_chart(out, ["羽焰"], tmp_path / "h.gif")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_draw_leaves_the_previous_chart(
    out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "h.png"
    target.write_bytes(b"old chart")

    def half_written(self: Figure, fname: Any, **options: Any) -> None:
        Path(fname).write_bytes(b"half")
        raise OSError("disk full (test)")

    monkeypatch.setattr(Figure, "savefig", half_written)
    with pytest.raises(OSError, match="disk full"):
        plots.history_chart(out, ["羽焰"], target)
    assert [p.name for p in tmp_path.iterdir()] == ["h.png"]
    assert target.read_bytes() == b"old chart"


def test_importing_plots_loads_no_matplotlib() -> None:
    code = "import sys, pipeline.reports.plots; print(any(m.startswith('matplotlib') for m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def plot(out: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["plot", "--out", str(out), *args], env={"COLUMNS": "250"})
    return result.exit_code, result.output


@pytest.mark.slow
def test_cli_history_of_two_players_writes_the_png(out: Path, tmp_path: Path) -> None:
    code, output = plot(out, "--player", "羽焰", "--player", "陳志明", "--png", str(tmp_path / "h.png"))
    assert code == 0, output
    assert (tmp_path / "h.png").read_bytes()[:8] == PNG_SIGNATURE
    assert "h.png" in output


@pytest.mark.slow
def test_cli_distribution_defaults_to_the_latest_period(out: Path, tmp_path: Path) -> None:
    code, output = plot(out, "--kind", "distribution", "--png", str(tmp_path / "d.png"))
    assert code == 0, output
    assert (tmp_path / "d.png").read_bytes()[:8] == PNG_SIGNATURE


def test_cli_unknown_player_exits_2(out: Path, tmp_path: Path) -> None:
    code, output = plot(out, "--player", "nobody", "--png", str(tmp_path / "h.png"))
    assert code == 2
    assert "nobody" in output
    assert not (tmp_path / "h.png").exists()


def test_cli_missing_output_exits_2(tmp_path: Path) -> None:
    code, output = plot(tmp_path / "none", "--player", "羽焰", "--png", str(tmp_path / "h.png"))
    assert code == 2
    assert "no output" in output


def test_cli_without_png_exits_2(out: Path) -> None:
    code, output = plot(out, "--player", "羽焰")
    assert code == 2
    assert "--png" in output


@pytest.mark.slow
def test_cli_history_without_a_player_draws_the_top_players(out: Path, tmp_path: Path) -> None:
    code, output = plot(out, "--top", "3", "--png", str(tmp_path / "h.png"))
    assert code == 0, output
    assert (tmp_path / "h.png").read_bytes()[:8] == PNG_SIGNATURE


@pytest.mark.slow
def test_cli_image_writes_the_format_of_its_suffix(out: Path, tmp_path: Path) -> None:
    code, output = plot(out, "--player", "羽焰", "--image", str(tmp_path / "h.svg"))
    assert code == 0, output
    assert (tmp_path / "h.svg").read_bytes().startswith(b"<?xml")


def test_cli_unknown_suffix_exits_2(out: Path, tmp_path: Path) -> None:
    code, output = plot(out, "--player", "羽焰", "--image", str(tmp_path / "z.bmp"))
    assert code == 2
    assert "z.bmp" in output
    assert not (tmp_path / "z.bmp").exists()


def test_cli_unknown_period_exits_2(out: Path, tmp_path: Path) -> None:
    code, output = plot(
        out, "--kind", "distribution", "--period", "2023-01", "--png", str(tmp_path / "d.png")
    )
    assert code == 2
    assert "2023-01" in output


@pytest.mark.parametrize(
    "args",
    [
        ["--period", "2024-05", "--player", "羽焰"],
        ["--kind", "distribution", "--player", "羽焰"],
        ["--top", "3", "--player", "羽焰"],
        ["--kind", "distribution", "--top", "3"],
    ],
    ids=["period-with-history", "player-with-distribution", "top-with-player", "top-with-distribution"],
)
def test_cli_option_that_does_not_apply_exits_2(args: list[str], out: Path, tmp_path: Path) -> None:
    code, output = plot(out, *args, "--png", str(tmp_path / "x.png"))
    assert code == 2
    assert "does not apply" in output


@pytest.mark.slow
def test_plot_player_by_a_roster_alias_no_record_used(tmp_path: Path) -> None:
    feather = roster("羽焰", "凝兰", "陳志明", "さくら", "김민준", aliases={"羽焰": ("YuYan", "Feather")})
    out = run(tmp_path, GAMES, "club", feather)
    config, image = tmp_path / "ratings.toml", tmp_path / "feather.png"
    args = ["plot", "--player", "feather", "--image", str(image), "--out", str(out), "--config", str(config)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert image.read_bytes()[:8] == PNG_SIGNATURE


def test_plot_unknown_player_exits_2_suggesting_close_names(out: Path, tmp_path: Path) -> None:
    args = ["plot", "--player", "羽炎", "--image", str(tmp_path / "x.png"), "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "羽焰" in result.output
