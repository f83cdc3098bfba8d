"""Every registered rule set runs end to end on the shipped sample and on the real corpora, and the
output contract holds (../shared/tools/check_output.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CHECKER, ROOT, check_output
from typer.testing import CliRunner

from pipeline import rules
from pipeline.cli import app

pytestmark = pytest.mark.slow


def run_and_check(raw: Path, out: Path, name: str, config: Path) -> None:
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--rules", name]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    if not CHECKER.exists():
        pytest.skip(f"the contract checker is not at {CHECKER}")
    code, printed = check_output(out)
    assert code == 0, printed


@pytest.mark.parametrize("name", rules.names())
def test_rule_set_runs_on_the_sample(name: str, tmp_path: Path) -> None:
    config = tmp_path / "ratings.toml"
    config.write_text('[run]\nroster = ""\nevents = ""\n', encoding="utf-8")
    run_and_check(ROOT / "data" / "raw", tmp_path / "out", name, config)


@pytest.mark.parametrize("name", rules.names())
def test_rule_set_runs_on_the_real_corpora(name: str, corpora: Path, tmp_path: Path) -> None:
    config = tmp_path / "ratings.toml"
    # the corpora hold Go records only: a Gomoku rule set is run on them as if they were Gomoku
    config.write_text("[validity]\ngame_types = [1, 4]\n" if name == "tga" else "", encoding="utf-8")
    run_and_check(corpora, tmp_path / "out", name, config)
