"""`ratings export --parquet DIR`: the current snapshot as a folder of plain files that every reader loads
as it loads the output folder; and the progress `ratings export` reports.

The corpus: 甲 beats 乙 on 2024-05-01 and on 2024-06-01, 乙 beats 丙 on 2024-06-02 (club rule set, no
roster, no events): ratings of two months.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.core.progress import Advance
from pipeline.output import plain_copy, snapshots
from pipeline.reports import ReportError, export

runner = CliRunner()
GAMES = {
    "a.sgf": sgf("甲", "乙", "B+R", "2024-05-01"),
    "b.sgf": sgf("甲", "乙", "B+R", "2024-06-01", seed=2),
    "c.sgf": sgf("乙", "丙", "B+R", "2024-06-02", seed=3),
}
CHECK_OUTPUT = Path(__file__).resolve().parents[2] / "shared" / "tools" / "check_output.py"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("copy")
    raw = root / "raw"
    raw.mkdir()
    for name, text in GAMES.items():
        (raw / name).write_text(text, encoding="utf-8")
    config = root / "ratings.toml"
    config.write_text('[run]\nrule_set = "club"\nroster = ""\nevents = ""\n', encoding="utf-8")
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(root / "out")]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return root / "out"


def _copy(out: Path, target: Path) -> tuple[int, str]:
    result = runner.invoke(app, ["export", "--out", str(out), "--parquet", str(target)])
    return result.exit_code, " ".join(result.output.split())


class Recorded:
    """Steps that record each step's name, total and units advanced."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, int | None, int]] = []

    @contextmanager
    def step(self, what: str, total: int | None = None) -> Iterator[Advance]:
        done = [0]
        yield lambda n: done.__setitem__(0, done[0] + n)
        self.steps.append((what, total, done[0]))


@pytest.mark.slow
def test_the_copy_holds_real_files_and_no_link(out: Path, tmp_path: Path) -> None:
    assert _copy(out, tmp_path / "copy")[0] == 0
    found = list((tmp_path / "copy").rglob("*"))
    assert not [p for p in found if p.is_symlink()]
    assert {p.stat().st_nlink for p in found if p.is_file()} == {1}  # no hard link into the output either


def test_pandas_reads_the_copy_as_the_output_folder(out: Path, tmp_path: Path) -> None:
    plain_copy.export_parquet(out, tmp_path / "copy")
    for name in ("ratings", "changes", "games.parquet"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "copy" / name), pd.read_parquet(out / name))


def test_the_copy_keeps_the_partition_that_types_period_as_text(out: Path, tmp_path: Path) -> None:
    plain_copy.export_parquet(out, tmp_path / "copy")
    assert (tmp_path / "copy" / "ratings" / f"period={snapshots.SCHEMA_PARTITION}").is_dir()
    assert pd.read_parquet(tmp_path / "copy" / "ratings")["period"].max() == "2024-06"


def test_the_copy_holds_the_output_contract(out: Path, tmp_path: Path) -> None:
    plain_copy.export_parquet(out, tmp_path / "copy")
    spec = importlib.util.spec_from_file_location("check_output", CHECK_OUTPUT)
    assert spec is not None and spec.loader is not None
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    assert check.main(str(tmp_path / "copy")) == 0


def test_the_copy_leaves_out_the_runs_state_and_generations(out: Path, tmp_path: Path) -> None:
    copied = plain_copy.export_parquet(out, tmp_path / "copy")
    names = sorted(p.name for p in (tmp_path / "copy").iterdir())
    assert names == sorted(n.rstrip("/") for n in copied.entries)
    assert "state" not in names and snapshots.GENERATIONS not in names


def test_a_second_copy_replaces_the_first(out: Path, tmp_path: Path) -> None:
    plain_copy.export_parquet(out, tmp_path / "copy")
    (tmp_path / "copy" / "stray.txt").write_text("old", encoding="utf-8")
    plain_copy.export_parquet(out, tmp_path / "copy")
    assert not (tmp_path / "copy" / "stray.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy"]  # no temporary folder left


def test_a_folder_that_is_no_copy_is_refused_and_left_as_it_was(out: Path, tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep", encoding="utf-8")
    code, output = _copy(out, tmp_path / "mine")
    assert (code, "not empty" in output) == (2, True)
    assert sorted(os.listdir(tmp_path / "mine")) == ["notes.txt"]


def test_a_copy_inside_the_output_folder_is_refused(out: Path) -> None:
    with pytest.raises(ReportError, match="outside the output folder"):
        plain_copy.export_parquet(out, out / "copy")


def test_a_copy_without_output_exits_2_and_says_to_run_first(tmp_path: Path) -> None:
    code, output = _copy(tmp_path / "nothing", tmp_path / "copy")
    assert (code, "ratings run" in output, (tmp_path / "copy").exists()) == (2, True, False)


def test_export_without_a_target_exits_2_naming_both_options(out: Path) -> None:
    result = runner.invoke(app, ["export", "--out", str(out)])
    assert result.exit_code == 2
    assert "--xlsx" in result.output and "--parquet" in result.output


def test_the_copy_reports_one_unit_a_file(out: Path, tmp_path: Path) -> None:
    steps = Recorded()
    copied = plain_copy.export_parquet(out, tmp_path / "copy", steps)
    assert steps.steps == [("copying the snapshot", copied.files, copied.files)]


@pytest.mark.slow
def test_the_workbook_reports_reading_each_sheet_and_writing_each_row(out: Path, tmp_path: Path) -> None:
    steps = Recorded()
    sheets = export.export_xlsx(out, tmp_path / "r.xlsx", steps)
    tables = export.workbook_tables(out)
    assert steps.steps[0][0] == "reading the output" and steps.steps[0][1] == steps.steps[0][2]
    writing = [(what, total, done) for what, total, done in steps.steps if what.startswith("writing")]
    assert writing == [(f"writing sheet {t}", len(tables[t]), len(tables[t])) for t in sheets]


def test_standings_sheet_is_each_periods_standings_in_time_order(out: Path) -> None:
    from pipeline import reports

    expected = pd.concat(
        [reports.standings(out, period=p).assign(period=p) for p in reports.rated_periods(out)],
        ignore_index=True,
    )
    found = export.standings_table(out)  # (no deviation: the column is left out)
    expected = expected[[c for c in export.STANDINGS_COLUMNS if c != "deviation"]]
    pd.testing.assert_frame_equal(found.astype(object), expected.astype(object))
