"""Starting ratings from the roster belong to a rule set's scale (club points, GoR, cga's Elo): a table gives
one per family or rule set, a plain number is read only where it fits the scale and the declared rank,
and every rating set aside or out of range is a run warning (summary and manifest)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import ConfigError, load
from pipeline.run import Plan, plan

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def _planned(tmp_path: Path, roster: str, rules: str) -> Plan:
    folder = tmp_path / "cfg"
    (folder / "raw").mkdir(parents=True, exist_ok=True)
    (folder / "roster.toml").write_text(roster, encoding="utf-8")
    config = folder / "ratings.toml"
    config.write_text('[run]\nevents = ""\n[ingest]\nraw = "raw"\n', encoding="utf-8")
    return plan(load(config), rules)


def _start(planned: Plan, name: str) -> float:
    return float(planned.rules.newcomer(name, None).rating)  # type: ignore[attr-defined]


def _player(rating: str, rank: str | None = "1d", name: str = "A") -> str:
    declared = f'rank = "{rank}"\n' if rank else ""
    return f'[[player]]\nname = "{name}"\n{declared}rating = {rating}\n'


def test_the_sample_roster_under_hkga_starts_the_declared_1d_at_2100() -> None:
    planned = plan(load(ROOT / "config" / "ratings.toml"), "hkga")
    assert _start(planned, "羽焰") == 2100


def test_the_hkga_example_starts_the_declared_1d_at_2100(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the example reads the default data/raw of the working directory
    assert _start(plan(load(ROOT / "config" / "examples" / "hkga.toml")), "羽焰") == 2100


def test_a_plain_rating_far_from_the_declared_rank_is_set_aside_under_hkga(tmp_path: Path) -> None:
    planned = _planned(tmp_path, _player("100"), "hkga")  # club points: 1d = 100; GoR 1d = 2100
    assert _start(planned, "A") == 2100
    assert len(planned.warnings) == 1
    assert (
        "A 100 (1d starts at 2100)" in planned.warnings[0] and "rating = { gor = ... }" in planned.warnings[0]
    )


def test_a_plain_gor_rating_is_not_read_as_club_points(tmp_path: Path) -> None:
    planned = _planned(tmp_path, _player("2100"), "club")
    assert _start(planned, "A") == 100
    assert "A 2100 (1d starts at 100)" in planned.warnings[0]


def test_a_plain_rating_outside_the_scale_without_a_rank_is_set_aside(tmp_path: Path) -> None:
    planned = _planned(tmp_path, _player("-300", rank=None), "hkga")
    assert _start(planned, "A") == 100
    assert "outside hkga's scale (100 to 3000)" in planned.warnings[0] and "A -300" in planned.warnings[0]


def test_a_plain_rating_that_fits_the_scale_and_the_rank_is_kept_without_a_word(tmp_path: Path) -> None:
    planned = _planned(tmp_path, _player("2150") + _player("{ gor = 2150 }", name="B"), "egf")
    assert (_start(planned, "A"), _start(planned, "B"), planned.warnings) == (2150, 2150, [])


@pytest.mark.parametrize(
    ("rules", "expected"),
    [("club", 150), ("hkga", 2150), ("egf2021", 2150), ("cga", 2300), ("glicko2", 1950)],
)
def test_a_table_gives_each_family_its_own_rating(rules: str, expected: float, tmp_path: Path) -> None:
    planned = _planned(tmp_path, _player("{ club = 150, gor = 2150, cga = 2300, glicko2 = 1950 }"), rules)
    assert (_start(planned, "A"), planned.warnings) == (expected, [])


@pytest.mark.parametrize(("rules", "expected"), [("egf", 2250), ("hkga", 2150)])
def test_a_rule_set_key_wins_over_its_family(rules: str, expected: float, tmp_path: Path) -> None:
    assert _start(_planned(tmp_path, _player("{ gor = 2150, egf = 2250 }"), rules), "A") == expected


def test_a_table_without_the_rule_sets_scale_starts_from_the_declared_rank(tmp_path: Path) -> None:
    planned = _planned(tmp_path, _player("{ club = 100 }"), "cga")
    assert (_start(planned, "A"), planned.warnings) == (2240, [])


def test_a_table_value_outside_the_scale_is_used_with_a_warning(tmp_path: Path) -> None:
    planned = _planned(tmp_path, _player("{ cga = 500 }"), "cga")
    assert _start(planned, "A") == 500
    assert (
        "outside cga's scale (1000 to 3500)" in planned.warnings[0] and "used as given" in planned.warnings[0]
    )


def test_one_warning_names_the_first_five_players_and_counts_the_rest(tmp_path: Path) -> None:
    roster = "".join(_player("100", name=f"P{k}") for k in range(7))
    planned = _planned(tmp_path, roster, "hkga")
    assert len(planned.warnings) == 1
    assert "7 plain ratings" in planned.warnings[0] and "P4 100" in planned.warnings[0]
    assert "P5" not in planned.warnings[0] and "and 2 more" in planned.warnings[0]


@pytest.mark.parametrize("table", ["{ hgka = 2100 }", '{ gor = "2100" }', "{ gor = true }"])
def test_a_bad_rating_table_names_the_file_the_player_and_the_keys_allowed(
    table: str, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError) as error:
        _planned(tmp_path, _player(table), "hkga")
    message = str(error.value)
    assert message.startswith(f"{tmp_path / 'cfg' / 'roster.toml'}: [[player]] #1 (A) rating must be ")
    assert "club, gor, cga, glicko2, hkga, egf, egf2021" in message


@pytest.mark.slow
def test_warnings_reach_the_summary_and_the_manifest(tmp_path: Path) -> None:
    folder = tmp_path / "cfg"
    (folder / "raw").mkdir(parents=True)
    (folder / "raw" / "a.sgf").write_text(sgf("A", "B", "B+R", black_rank="1d", white_rank="1d"))
    (folder / "roster.toml").write_text(
        _player("100") + _player("{ gor = 2100 }", name="B"), encoding="utf-8"
    )
    (folder / "ratings.toml").write_text('[run]\nevents = ""\n[ingest]\nraw = "raw"\nout = "out"\n')
    result = runner.invoke(
        app, ["run", "--config", str(folder / "ratings.toml"), "--rules", "hkga", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    manifest = json.loads((folder / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert any("A 100 (1d starts at 2100)" in w for w in manifest["warnings"])
    shown = re.sub(r"[│\s]+", " ", result.output)  # the summary table wraps the warning in its cell
    assert "warning" in shown and "A 100 (1d starts at 2100)" in shown


@pytest.mark.slow
def test_warnings_are_said_in_the_language_spoken_also_when_a_run_reuses_the_generation(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "cfg"
    (folder / "raw").mkdir(parents=True)
    (folder / "raw" / "a.sgf").write_text(sgf("A", "B", "B+R", black_rank="1d", white_rank="1d"))
    (folder / "roster.toml").write_text(_player("100"), encoding="utf-8")
    (folder / "ratings.toml").write_text('[run]\nevents = ""\n[ingest]\nraw = "raw"\nout = "out"\n')
    args = [
        "run",
        "--config",
        str(folder / "ratings.toml"),
        "--rules",
        "hkga",
        "--workers",
        "1",
        "--lang",
        "zh-Hans",
    ]
    for _run in range(2):  # the second reuses the first's generation whole, its warnings from the manifest
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        shown = re.sub(r"[│\s]+", "", result.output)
        assert "A100（1d的起始等级分为2100）" in shown and "starts at" not in shown
    manifest = json.loads((folder / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert any("A 100 (1d starts at 2100)" in w for w in manifest["warnings"])
