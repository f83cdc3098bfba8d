"""pipeline.output.folder.read_report: a report answers the same way under every rule set, a table
(without rows when there is nothing to report), whether the rule set computes it or not.

Corpus: one game, 乙 (B, 1d) loses to 甲 (W, 1d). Under hkga without a roster everyone is a member:
no fee is due, and fees.parquet has no rows; club computes no fees at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.output import folder
from pipeline.reports import REPORT_FILES

pytestmark = pytest.mark.slow

runner = CliRunner()


def run(tmp_path: Path, rules: str) -> Path:
    raw = tmp_path / "raw"
    raw.mkdir(exist_ok=True)
    (raw / "g.sgf").write_text(
        sgf("乙", "甲", "W+R", "2024-01-01", black_rank="1d", white_rank="1d"), "utf-8"
    )
    out, config = tmp_path / rules, tmp_path / "ratings.toml"
    config.write_text('[run]\nroster = ""\nevents = ""\n', encoding="utf-8")  # no roster: all members
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--rules", rules]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def test_a_report_the_rule_set_does_not_compute_is_a_table_without_rows(tmp_path: Path) -> None:
    fees = folder.read_report(run(tmp_path, "club"), "fees", REPORT_FILES)
    assert (len(fees), list(fees.columns)) == (0, ["player"])


def test_a_report_with_nothing_to_report_is_the_rule_sets_table_without_rows(tmp_path: Path) -> None:
    fees = folder.read_report(run(tmp_path, "hkga"), "fees", REPORT_FILES)
    assert (len(fees), list(fees.columns)) == (0, ["player", "year", "rated_games", "fee", "basis"])


def test_an_unknown_report_name_raises_naming_it(tmp_path: Path) -> None:
    with pytest.raises(folder.ReportError, match="'bills'"):
        folder.read_report(run(tmp_path, "club"), "bills", REPORT_FILES)


def test_a_report_of_a_folder_without_output_raises_saying_to_run_first(tmp_path: Path) -> None:
    with pytest.raises(folder.ReportError, match="ratings run"):
        folder.read_report(tmp_path / "none", "fees", REPORT_FILES)
