"""Every table, explanation and help screen in an 80-column terminal (issue 20, item 5): no line wider
than the terminal, no value cut to an ellipsis or split mid-word, the columns that carry the answer
kept; and the numbers written one way per rule set (docs/rules.md ("Numbers")).

The outputs are the shipped sample (data/raw, config/) rated under club and under hkga, run once.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from rich.cells import cell_len
from sgfmake import sgf
from typer.main import get_command
from typer.testing import CliRunner

from pipeline.cli import app, example_lines
from pipeline.cli.tables import Column, fitted, table_width
from pipeline.cli.wrapping import wrap
from pipeline.output import folder as outputs
from pipeline.reports import explain as explain_mod
from pipeline.reports.numbers import NumberFormat, number_format

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
COMMANDS = sorted(get_command(app).commands)  # type: ignore[attr-defined]
WIDTH = 80


@pytest.fixture(scope="module")
def rate(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """rate(rules) -> the output folder of the sample rated under ``rules``: one run per rule set, made
    when a test first asks for it and read by every test that asks again."""
    found: dict[str, Path] = {}

    def _rated(rules: str) -> Path:
        if rules not in found:
            out = tmp_path_factory.mktemp(rules) / "out"
            config, raw = str(ROOT / "config" / "ratings.toml"), str(ROOT / "data" / "raw")
            args = ["run", "--config", config, "--raw", raw]
            result = runner.invoke(app, [*args, "--out", str(out), "--rules", rules, "--workers", "1"])
            assert result.exit_code == 0, result.output
            found[rules] = out
        return found[rules]

    return _rated


@pytest.fixture(scope="module")
def rated(rate: Callable[[str], Path]) -> dict[str, Path]:
    """The sample rated under club, hkga and glicko2 (rating ± 2·deviation): rule set -> output folder."""
    return {rules: rate(rules) for rules in ("club", "hkga", "glicko2")}


def shown(*args: str, columns: int = WIDTH) -> str:
    """``ratings args`` on a terminal ``columns`` wide: its output (exit 0 asserted)."""
    result = runner.invoke(app, list(args), env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.output


def assert_fits(output: str) -> None:
    """No line wider than :data:`WIDTH` cells, no value cut to an ellipsis."""
    wide = [line for line in output.splitlines() if cell_len(line) > WIDTH]
    assert not wide, "\n".join(wide)
    assert "…" not in output


def assert_whole(output: str, values: list[str]) -> None:
    """Every word of every value (split at spaces) is in ``output`` whole: none split mid-word."""
    words = {w for v in values for w in str(v).split() if w}
    tokens = set(re.split(r"[\s│┃]+", output))
    missing = sorted(w for w in words if w not in tokens and w not in output)
    assert not missing, missing


def frame(*args: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(shown(*args, "--format", "csv")), keep_default_na=False, dtype=str)


# --- tables ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["club", "hkga", "glicko2"])
@pytest.mark.parametrize(
    "args",
    [
        ("audit",),
        ("audit", "--excluded"),
        ("audit", "--counted"),
        ("show",),
        ("players",),
        ("players", "--suggest"),
        ("show", "--report", "leaderboards"),
        ("show", "--report", "fees"),
        ("show", "--report", "certification"),
        ("show", "--report", "promotions"),
    ],
)
@pytest.mark.slow
def test_every_table_fits_80_columns_without_a_cut_value(
    rated: dict[str, Path], rules: str, args: tuple[str, ...]
) -> None:
    assert_fits(shown(*args, "--out", str(rated[rules])))


@pytest.mark.parametrize("rules", ["club", "hkga"])
@pytest.mark.slow
def test_audit_excluded_shows_every_reason_code_and_name_whole(rated: dict[str, Path], rules: str) -> None:
    out = str(rated[rules])
    output = shown("audit", "--excluded", "--out", out)
    games = frame("audit", "--excluded", "--out", out)
    codes = [c for r in games["reasons"] for c in r.split(";") if c]
    assert codes and all(re.search(rf"(?<![\w]){c}(?![\w])", output) for c in codes)
    assert_whole(output, [*games["black"], *games["white"], *games["date"]])


@pytest.mark.slow
def test_audit_excluded_leaves_out_the_counted_column_its_title_answers(rated: dict[str, Path]) -> None:
    output = shown("audit", "--excluded", "--out", str(rated["club"]))
    assert "counted" not in output.splitlines()[2] and "--excluded" in output.splitlines()[0]


@pytest.mark.parametrize("rules", ["club", "hkga", "glicko2"])
@pytest.mark.slow
def test_show_writes_every_name_and_rating_whole(rated: dict[str, Path], rules: str) -> None:
    out = str(rated[rules])
    output = shown("show", "--out", out)
    table = frame("show", "--out", out)
    written = number_format(rules)
    assert_whole(output, [*table["player"], *(written.rating(float(v)) for v in table["rating"])])


@pytest.mark.slow
def test_players_suggest_keeps_the_partner_and_the_evidence(tmp_path: Path) -> None:
    raw, out = tmp_path / "raw", tmp_path / "out"
    raw.mkdir()
    long_name = "GNU Go 3.3.12 (random seed 1085649908)"
    pairs = [(long_name, "Lee Sedol"), ("GNU GO 3.3.12 (RANDOM SEED 1085649908)", "Cho Hunhyun")]
    for i, (black, white) in enumerate(pairs * 3):
        (raw / f"g{i}.sgf").write_text(sgf(black, white, "B+R", f"2024-05-{i + 1:02d}", seed=i), "utf-8")
    args = [
        "run",
        "--raw",
        str(raw),
        "--out",
        str(out),
        "--workers",
        "1",
        "--config",
        str(tmp_path / "x.toml"),
    ]
    (tmp_path / "x.toml").write_text('[run]\nroster = ""\nevents = ""\n', encoding="utf-8")
    assert runner.invoke(app, args).exit_code == 0
    output = shown("players", "--suggest", "--out", str(out), "--config", str(tmp_path / "x.toml"))
    assert_fits(output)
    header = next(line for line in output.splitlines() if line.startswith("┃"))
    assert "same as" in header and "evidence" in header
    assert_whole(output, [long_name, "case or width"])


@pytest.mark.slow
def test_backtest_fits_80_columns_with_every_rule_set_and_score(tmp_path: Path) -> None:
    rules = "club,hkga,egf,egf2021,cga,cga-dan,glicko2"
    config = str(ROOT / "config" / "ratings.toml")
    args = ["backtest", "--rules", rules, "--raw", str(ROOT / "data" / "raw"), "--config", config]
    output = shown(*args, "--out", str(tmp_path / "out"))
    assert_fits(output)
    summary = pd.read_parquet(tmp_path / "out" / "backtest" / "summary.parquet")
    assert_whole(output, [*rules.split(","), "higher-rated wins", "log-loss", "Brier"])
    assert_whole(output, [f"{v:.4f}" for v in summary["log_loss"]])


def test_a_table_whose_answer_columns_outgrow_the_terminal_is_wider_not_cut() -> None:
    columns = [Column("code"), Column("name", names=True)]
    table = fitted("t", columns, [["wrong_game_type", "Chun-Chieh"]], width=20, wide=False)
    assert table_width(table) > 20 and [c.width for c in table.columns] == [15, 10]


def test_free_text_wraps_at_spaces_and_a_path_after_its_slashes() -> None:
    assert wrap("the same name in another case", 12) == ["the same", "name in", "another case"]
    assert wrap("no_result non_member", 3) == ["no_result", "non_member"]  # never cut, however narrow
    assert wrap("(herzbube__littlego/sgf/x.sgf)", 20, paths=True) == ["(herzbube__littlego/", "sgf/x.sgf)"]
    assert wrap("1又3/4子", 3) == ["1又3/4子"]  # a result is no path


# --- explain -------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["club", "hkga", "glicko2"])
@pytest.mark.slow
def test_explain_fits_80_columns(rated: dict[str, Path], rules: str) -> None:
    out = rated[rules]
    for player in outputs.read_partition(out, "ratings", outputs.rated_periods(out)[-1])["player"]:
        assert_fits(shown("explain", str(player), "--out", str(out)))


def added(equation: str) -> tuple[float, float]:
    """An equation ``end = start ± terms`` as printed: (end, the sum of its right-hand side)."""
    end, right = equation.split(" = ", 1)
    right = re.sub(r" \([^)]*\)", "", right).replace("−", "-").replace("×", "*")
    assert re.fullmatch(r"[\d.+\-* ]+", right), right
    return float(end.replace("−", "-")), float(eval(right))  # digits and operators only


@pytest.mark.parametrize("rules", ["club", "hkga", "egf", "egf2021", "cga", "glicko2"])
@pytest.mark.slow
def test_explain_terms_add_up_to_the_result_as_printed(rate: Callable[[str], Path], rules: str) -> None:
    out = rate(rules)  # (the run's exit code asserted)
    checked = 0
    for period in outputs.rated_periods(out):
        for player in outputs.read_partition(out, "ratings", period)["player"]:
            found = explain_mod.explain(out, str(player), period)
            if any("the terms sum to" in w for w in found.workings):
                continue  # the terms do not make the rating: the note says why
            end, summed = added(found.equation)
            assert abs(end - summed) < 1e-6, found.equation
            checked += 1
    assert checked > 20


# --- help ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_fits_80_columns(command: str | None) -> None:
    assert_fits(shown(*([command] if command else []), "--help"))


def test_a_long_example_continues_between_arguments() -> None:
    line = 'Example: ratings site /var/www/club --out /srv/club/processed --title "飞扬围棋 ratings"'
    assert example_lines(line, 64) == [
        "Example: ratings site /var/www/club --out /srv/club/processed \\",
        '           --title "飞扬围棋 ratings"',
    ]
    assert example_lines(line, 200) == [line]


# --- numbers -------------------------------------------------------------------------------------


def test_club_writes_points_exactly_without_trailing_zeros() -> None:
    club = number_format("club")
    assert [club.rating(v) for v in (913.5, 270.0, 0.25)] == ["913.5", "270", "0.25"]
    assert [club.delta(v) for v in (650.0, -0.5, 0.0)] == ["+650", "-0.5", "0"]


def test_the_gor_rule_sets_write_two_decimals() -> None:
    for rules in ("hkga", "egf", "egf2021", "cga", "cga-dan", "glicko2"):
        written = number_format(rules)
        assert [written.rating(v) for v in (2454.525001, 2100.0)] == ["2454.53", "2100.00"]
        assert [written.delta(v) for v in (0.4, -24.375001, 0.0, -0.001)] == [
            "+0.40",
            "-24.38",
            "0.00",
            "0.00",
        ]


def test_tga_writes_whole_dans_and_a_missing_value_blank() -> None:
    assert (number_format("tga").rating(5.0), number_format("tga").delta(1.0)) == ("5", "+1")
    assert NumberFormat(2).rating(None) == "" and NumberFormat(2).delta(-3.0, minus="−") == "−3.00"


@pytest.mark.slow
def test_show_and_audit_write_one_format_per_rule_set(rated: dict[str, Path]) -> None:
    hkga = shown("show", "--out", str(rated["hkga"]))
    assert re.search(r"│\s+\d{3,4}\.\d\d │\s+([+-]\d+\.\d\d|0\.00) │", hkga)
    club = shown("audit", "--counted", "--out", str(rated["club"]), columns=200)
    points = [
        r["points"]
        for r in csv.DictReader(
            io.StringIO(shown("audit", "--counted", "--out", str(rated["club"]), "--format", "csv"))
        )
    ]
    assert points and not any(re.search(r"\.\d*0\b", p) for p in points)  # no trailing zero
    assert_whole(club, [p.split(" (")[0] for ps in points for p in ps.split(";")])
