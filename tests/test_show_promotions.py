"""`ratings show --report promotions`: every promotion of the run with its evidence, in the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

pytestmark = pytest.mark.slow


def test_promotions_report_shows_the_evidence(tmp_path: Path) -> None:
    raw, out = tmp_path / "raw", tmp_path / "out"
    raw.mkdir()
    # docs/rules.md ("cga-dan") example: 8 straight wins of a 1d over 1d players -> 2d at the 8th
    for i in range(8):
        text = sgf("P", f"o{i}", "B+R", f"2024-05-{i + 1:02d}", black_rank="1d", white_rank="1d", seed=i)
        (raw / f"g{i}.sgf").write_text(text, encoding="utf-8")
    config = tmp_path / "ratings.toml"
    config.write_text('[run]\nrule_set = "cga-dan"\nroster = ""\nevents = ""\n', encoding="utf-8")
    runner = CliRunner()
    assert (
        runner.invoke(app, ["run", "--config", str(config), "--raw", str(raw), "--out", str(out)]).exit_code
        == 0
    )
    shown = runner.invoke(app, ["show", "--report", "promotions", "--out", str(out)])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    assert "cga-dan: 75 over 8" in text and "2d" in text and "1 row" in text
