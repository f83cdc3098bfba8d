"""Progress on every long step: the stages tell a pipeline.core.progress.Steps what they do and how far they
are; the command line draws them as rich bars on standard error, and nothing when it is not a terminal."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from rich.console import Console
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.cli import progress as cli_progress
from pipeline.config import RunConfig
from pipeline.core.progress import SILENT, Advance
from pipeline.ingest import IngestOptions
from pipeline.reports import backtest
from pipeline.run import plan, run_all


class Recorded:
    """Steps that keep what they were told: each step's name, total and the units advanced."""

    def __init__(self) -> None:
        self.steps: list[list[object]] = []

    def step(self, what: str, total: int | None = None) -> AbstractContextManager[Advance]:
        return self._step(what, total)

    @contextmanager
    def _step(self, what: str, total: int | None) -> Iterator[Advance]:
        told: list[object] = [what, total, 0]
        self.steps.append(told)

        def advance(n: int, total: int | None = None) -> None:
            told[2] = int(told[2]) + n  # type: ignore[call-overload]
            if total is not None:
                told[1] = total

        yield advance

    def named(self) -> dict[str, tuple[object, object]]:
        return {str(what): (total, done) for what, total, done in self.steps}


@pytest.fixture
def raw(write) -> Path:  # type: ignore[no-untyped-def]
    for month in ("05", "06", "07"):
        write(f"{month}.sgf", sgf("A", "B", "B+R", f"2024-{month}-03").encode())
    return Path(write("x.sgf", sgf("B", "A", "W+R", "2024-07-09").encode())).parent


def _plan(raw: Path, tmp_path: Path, rules: str = "club"):  # type: ignore[no-untyped-def]
    return plan(RunConfig(raw=raw, out=tmp_path / "out"), rules)


@pytest.mark.slow
def test_a_run_tells_every_stage_with_its_total_and_how_far_it_went(raw: Path, tmp_path: Path) -> None:
    steps = Recorded()
    run_all(_plan(raw, tmp_path), IngestOptions(workers=1, steps=steps), steps)
    named = steps.named()
    assert named["parsing"] == (4, 4)
    assert named["auditing periods"] == (3, 3)
    assert named["rating periods"] == (3, 3)
    assert named["writing leaderboards"] == (1, 1)
    assert {"listing files", "preparing the rating", "writing reports"} <= set(named)


def test_a_backtest_tells_each_rule_set_and_its_periods(raw: Path, tmp_path: Path) -> None:
    steps = Recorded()
    plans = [_plan(raw, tmp_path, "club"), _plan(raw, tmp_path, "hkga")]
    backtest.backtest(plans, IngestOptions(workers=1), steps)
    named = steps.named()
    assert named["rule sets"] == (2, 2)
    assert named["club: rating periods"] == (3, 3)
    assert named["hkga: rating periods"] == (3, 3)


def test_the_silent_steps_take_any_advance() -> None:
    with SILENT.step("anything", 3) as advance:
        advance(1)
        advance(2, total=5)


def test_bars_are_drawn_on_a_terminal() -> None:
    written = io.StringIO()
    console = Console(file=written, force_terminal=True, width=80)
    with cli_progress.shown(console) as steps, steps.step("rating periods", 4) as advance:
        advance(2)
    assert "rating periods" in written.getvalue()


def test_no_bars_are_drawn_when_standard_error_is_not_a_terminal() -> None:
    written = io.StringIO()
    console = Console(file=written, force_terminal=False, width=80)
    with cli_progress.shown(console) as steps, steps.step("rating periods", 4) as advance:
        advance(4)
    assert written.getvalue() == ""


@pytest.mark.slow
def test_a_captured_run_prints_no_progress(raw: Path, tmp_path: Path) -> None:
    args = ["run", "--raw", str(raw), "--out", str(tmp_path / "out"), "--workers", "1"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    assert "auditing periods" not in done.output and "parsing" not in done.output
