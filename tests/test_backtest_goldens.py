"""ratings backtest and compare, streaming period by period, give what they gave holding every game.

tests/backtest_goldens.json holds the summary and calibration tables of the backtest, and the periods
table, the prediction scores and the sizes of compare, as commit 0724b40 computed them with every game
of every rule set in memory: on the sample (with its configuration), the Gomoku sample (tga's), and a
3,000-game server archive of the bench generator (every rule set, no configuration).
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import pytest

from pipeline import config as config_mod
from pipeline.config import RunConfig
from pipeline.ingest import IngestOptions
from pipeline.reports import backtest, compare
from pipeline.synth.records import write_records
from pipeline.synth.server import server_archive

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = json.loads((Path(__file__).parent / "backtest_goldens.json").read_text(encoding="utf-8"))
EVERY = "club,hkga,egf,egf2021,cga,cga-dan,tga"
SAMPLES = {
    "sample": ("config/ratings.toml", "data/raw"),
    "gomoku": ("config/examples/tga.toml", "data/gomoku/raw"),
}


def same(found: Any, golden: Any) -> bool:
    """Equal, floats to 1e-9 relative (a missing value is NaN or None)."""
    if isinstance(golden, float) or isinstance(found, float):
        if golden is None or found is None:
            return (golden is None or math.isnan(golden)) and (found is None or math.isnan(found))
        return math.isclose(found, golden, rel_tol=1e-9, abs_tol=1e-12)
    return bool(found == golden)


def assert_rows(found: list[dict[str, Any]], golden: list[dict[str, Any]]) -> None:
    assert len(found) == len(golden)
    for row, want in zip(found, golden, strict=True):
        differ = {k: (row[k], v) for k, v in want.items() if not same(row[k], v)}
        assert not differ, (want.get("rules") or want.get("period") or want.get("side"), differ)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("server")
    write_records(server_archive(3000, seed=5), folder / "raw")
    return folder


def configured(case: str, server: Path, tmp_path: Path) -> tuple[RunConfig, str | None]:
    if case == "server":
        return RunConfig(raw=server / "raw", out=tmp_path / "out"), EVERY
    path, raw = SAMPLES[case]
    loaded = config_mod.load(ROOT / path)
    return dataclasses.replace(loaded, raw=ROOT / raw, out=tmp_path / "out"), None


def backtested(case: str, server: Path, out: Path) -> backtest.Backtest:
    config, names = configured(case, server, out)
    plans = backtest.plans(config, backtest.parse_names(names, config))
    return backtest.backtest(plans, IngestOptions(workers=1))


@pytest.fixture(scope="module")
def server_backtest(server: Path) -> backtest.Backtest:
    return backtested("server", server, server)


@pytest.mark.parametrize("case", ["sample", "gomoku", "server"])
def test_backtest_gives_the_tables_it_gave_holding_every_game(
    case: str, server: Path, server_backtest: backtest.Backtest, tmp_path: Path
) -> None:
    result = server_backtest if case == "server" else backtested(case, server, tmp_path)
    golden = GOLDENS["backtest"][case]
    assert result.n == golden["n"]
    assert_rows(_pinned(result.summary.to_pylist(), golden["summary"]), golden["summary"])
    assert_rows(_pinned(result.calibration.to_pylist(), golden["calibration"]), golden["calibration"])


def _pinned(found: list[dict[str, Any]], golden: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of the rule sets the goldens pin (rule sets registered since, such as glicko2, are
    pinned by their own tests)."""
    pinned = {row["rules"] for row in golden}
    return [row for row in found if row["rules"] in pinned]


def test_elo_rule_sets_predict_the_generated_server_better_than_the_points_systems(
    server_backtest: backtest.Backtest,
) -> None:
    # The generator draws each result from hidden strengths (Elo, 400 scale): rating systems with an
    # expected score fitted to results (the GoR family) must predict them better than points systems.
    summary = server_backtest.summary
    loss = dict(zip(summary["rules"].to_pylist(), summary["log_loss"].to_pylist(), strict=True))
    assert max(loss["hkga"], loss["egf"], loss["egf2021"]) < min(loss["club"], loss["cga-dan"]) < math.log(2)


@pytest.mark.parametrize(
    ("case", "a", "b"),
    [
        ("club-hkga", ("club", {}), ("hkga", {})),
        ("cga-k", ("cga", {"k": 10}), ("cga", {"k": 40})),
        ("egf-half", ("egf", {}), ("egf", {"period": "half"})),
    ],
)
def test_compare_gives_the_tables_it_gave_holding_every_game(
    case: str, a: tuple[str, dict[str, Any]], b: tuple[str, dict[str, Any]], server: Path, tmp_path: Path
) -> None:
    config = RunConfig(raw=server / "raw", out=tmp_path / "out")
    left = compare.side(config, a[0], a[1], ("--rules", "--set"))
    right = compare.side(config, b[0], b[1], ("--against", "--against-set"))
    result = compare.compare(left, right, IngestOptions(workers=1))
    golden = GOLDENS["compare"][case]
    assert (result.verdict.n, result.verdict.better) == (golden["n"], golden["better"])
    assert (len(result.players), len(result.movers)) == (golden["players_rows"], golden["movers_rows"])
    assert_rows(json.loads(result.periods.to_json(orient="records")), golden["periods"])
    assert_rows(json.loads(result.verdict.scores.to_json(orient="records")), golden["scores"])
