"""The shipped sample through `ratings run` with the shipped config/ (rule set club): the story docs/sample.md
tells of the club season (the Gomoku sample has a folder of its own, data/gomoku/raw: none of it is here).

Every number here is worked by hand in docs/sample.md (the rules: docs/rules.md ("club")), not copied from
the program.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import ROOT
from typer.testing import CliRunner

from pipeline.cli import app

pytestmark = pytest.mark.slow

CHECKER = ROOT.parent / "shared" / "tools" / "check_output.py"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("season") / "out"
    args = ["run", "--config", str(ROOT / "config" / "ratings.toml"), "--raw", str(ROOT / "data" / "raw")]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.output
    return out


def rating(out: Path, period: str, player: str) -> float:
    df = pd.read_parquet(out / "ratings")
    return float(df[(df["period"].astype(str) == period) & (df["player"] == player)]["rating"].iloc[0])


@pytest.mark.parametrize(("period", "expected"), [("2024-05", 128), ("2024-06", 143), ("2024-08", 143)])
def test_yuyan_follows_the_seed_example(out: Path, period: str, expected: float) -> None:
    assert rating(out, period, "羽焰") == expected


def test_erhei_is_3d_after_may(out: Path) -> None:
    df = pd.read_parquet(out / "ratings")
    row = df[(df["period"].astype(str) == "2024-05") & (df["player"] == "二黑")].iloc[0]
    assert (row["rating"], row["rank"]) == (310, "3d")


def test_every_reason_code_occurs_as_the_docs_say(out: Path) -> None:
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    # The one Gomoku record of the season (2024-07, Fox) is wrong_game_type; the Gomoku sample is not here.
    expected = {
        "parse_error": 3,
        "no_result": 3,
        "draw": 2,
        "handicap": 2,
        "no_show": 2,
        "non_member": 2,
        "opponent_cap": 2,
        "duplicate": 1,
        "missing_date": 1,
        "self_play": 1,
        "wrong_game_type": 1,
    }
    assert (manifest["counts"]["reasons"], manifest["counts"]["counted"]) == (expected, 84)


@pytest.mark.parametrize(
    ("period", "player", "bonus"),
    [
        ("2024-06", "fish", 10),
        ("2024-07", "小猪乐乐", 45),
        ("2024-08", "fish", 600),
        ("2024-08", "西方失败", 540),
    ],
)
def test_bonuses_follow_the_docs(out: Path, period: str, player: str, bonus: float) -> None:
    df = pd.read_parquet(out / "ratings")
    assert df[(df["period"].astype(str) == period) & (df["player"] == player)]["bonus"].iloc[0] == bonus


def test_the_output_contract_holds(out: Path) -> None:
    if not CHECKER.exists():
        pytest.skip(f"the contract checker is not at {CHECKER}")
    done = subprocess.run([sys.executable, str(CHECKER), str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
