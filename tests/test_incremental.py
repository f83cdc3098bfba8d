"""Incremental runs (pipeline/output/state.py, carry.py): a re-run replays only from the earliest period
whose inputs changed, links the unchanged partitions of the previous generation, and its every output
table equals that of a run from scratch into another folder."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

pytestmark = pytest.mark.slow

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
RULE_SETS = ("club", "hkga", "tga")
ROSTER = '[[player]]\nname = "A"\nrank = "1d"\n\n[[player]]\nname = "B"\nrank = "1d"\n'
EVENTS = '[[event]]\nname = "Cup"\nkind = "server_open"\nclass = "A"\n'


def _game(black: str, white: str, result: str, date: str, **extra: Any) -> bytes:
    return sgf(black, white, result, date, black_rank="1d", white_rank="2d", **extra).encode()


#: Five months of games among A, B, C and D, some in the event Cup (game type 4 for tga: as written).
SEASON = {
    f"{month}/{i}.sgf": (black, white, result, f"2024-{month}-{day:02d}", event)
    for month, games in {
        "03": [("A", "B", "B+R", 3, None), ("C", "D", "W+R", 5, "Cup")],
        "04": [("B", "C", "B+R", 4, "Cup"), ("A", "D", "W+3.5", 9, None)],
        "05": [("A", "C", "B+R", 2, None), ("D", "B", "B+R", 12, "Cup")],
        "06": [("C", "A", "W+R", 6, None)],
        "07": [("B", "A", "B+R", 1, None), ("D", "C", "W+R", 20, "Cup")],
    }.items()
    for i, (black, white, result, day, event) in enumerate(games)
}


def _write_season(raw: Path, rule_set: str) -> None:
    kind = 4 if rule_set == "tga" else None
    for rel, (black, white, result, date, event) in SEASON.items():
        path = raw / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_game(black, white, result, date, event=event, game_type=kind, seed=len(rel)))


def _config(folder: Path, rules: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "roster.toml").write_text(ROSTER, encoding="utf-8")
    (folder / "events.toml").write_text(EVENTS, encoding="utf-8")
    (folder / "ratings.toml").write_text(f"[run]\nrule_set = 'club'\n\n[rules]\n{rules}", encoding="utf-8")
    return folder / "ratings.toml"


@pytest.fixture(params=RULE_SETS)
def case(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """A synthetic raw folder and configuration, and the rule set, with one run already done."""
    raw = tmp_path / "raw"
    _write_season(raw, request.param)
    found = {"raw": raw, "config": _config(tmp_path / "cfg"), "rules": request.param, "tmp": tmp_path}
    _run(found, tmp_path / "out")
    return found


@pytest.fixture(params=RULE_SETS)
def sample(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """A copy of the shipped sample (data/raw, config/) under a rule set, with one run already done."""
    shutil.copytree(ROOT / "data" / "raw", tmp_path / "raw")
    shutil.copytree(ROOT / "config", tmp_path / "cfg")
    found = {"raw": tmp_path / "raw", "config": tmp_path / "cfg" / "ratings.toml", "rules": request.param}
    _run(found | {"tmp": tmp_path}, tmp_path / "out")
    return found | {"tmp": tmp_path}


def _run(case: dict[str, Any], out: Path) -> dict[str, Any]:
    args = ["run", "--config", str(case["config"]), "--raw", str(case["raw"]), "--out", str(out)]
    result = runner.invoke(app, [*args, "--rules", case["rules"], "--workers", "1"])
    assert result.exit_code == 0, result.output
    manifest: dict[str, Any] = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return manifest


def _files(out: Path) -> dict[str, Path]:
    generation = (out / ".gen" / "current").resolve()
    found = {p.relative_to(generation).as_posix(): p for p in generation.rglob("*.parquet")}
    return {name: path for name, path in found.items() if not name.startswith("state/")}


def _rerun_equals_scratch(case: dict[str, Any]) -> dict[str, Any]:
    """Run again into the first output folder and from scratch into a new one; assert every output
    table is equal (same files, same rows, same schemas); return the incremental run's manifest."""
    manifest = _run(case, case["tmp"] / "out")
    _run(case, case["tmp"] / "scratch")
    again, scratch = _files(case["tmp"] / "out"), _files(case["tmp"] / "scratch")
    assert sorted(again) == sorted(scratch)
    for name in again:
        assert pq.read_table(again[name]).equals(pq.read_table(scratch[name]), check_metadata=True), name
    return manifest


def test_late_record_for_an_old_period_replays_from_it(case: dict[str, Any]) -> None:
    (case["raw"] / "03" / "late.sgf").write_bytes(
        _game("A", "B", "B+R", "2024-03-20", seed=99, game_type=4 if case["rules"] == "tga" else None)
    )
    manifest = _rerun_equals_scratch(case)
    assert manifest["incremental"]["periods_carried"] == 0


def test_removed_file_gives_the_scratch_output(case: dict[str, Any]) -> None:
    (case["raw"] / "04" / "1.sgf").unlink()
    manifest = _rerun_equals_scratch(case)
    assert not manifest["incremental"]["reused_generation"]


def test_removed_latest_period_gives_the_scratch_output(case: dict[str, Any]) -> None:
    shutil.rmtree(case["raw"] / "07")
    _rerun_equals_scratch(case)


def test_changed_roster_gives_the_scratch_output(case: dict[str, Any]) -> None:
    roster = case["config"].parent / "roster.toml"
    roster.write_text(ROSTER.replace('rank = "1d"', 'rank = "3d"', 1), encoding="utf-8")
    manifest = _rerun_equals_scratch(case)
    assert manifest["incremental"]["periods_carried"] == 0


def test_changed_events_give_the_scratch_output(case: dict[str, Any]) -> None:
    events = case["config"].parent / "events.toml"
    events.write_text(EVENTS + 'champion = "D"\nends = 2024-05-30\n', encoding="utf-8")
    manifest = _rerun_equals_scratch(case)
    assert manifest["incremental"]["periods_carried"] == 0


def test_changed_rule_parameter_gives_the_scratch_output(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    _write_season(raw, "hkga")
    case = {"raw": raw, "config": _config(tmp_path / "cfg"), "rules": "hkga", "tmp": tmp_path}
    _run(case, tmp_path / "out")
    _config(tmp_path / "cfg", "epsilon = 0.02\n")
    manifest = _rerun_equals_scratch(case)
    assert manifest["incremental"]["periods_carried"] == 0


def test_parser_version_change_gives_the_scratch_output(
    case: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pipeline.ingest.cache.parser_version", lambda: "0123456789abcdef")
    manifest = _rerun_equals_scratch(case)
    assert manifest["parser_version"] == "0123456789abcdef"
    assert manifest["incremental"]["periods_carried"] == 0


def test_no_change_reuses_the_generation(case: dict[str, Any]) -> None:
    manifest = _rerun_equals_scratch(case)
    assert manifest["incremental"]["reused_generation"]


def test_new_record_in_the_latest_period_replays_only_it(case: dict[str, Any]) -> None:
    (case["raw"] / "07" / "new.sgf").write_bytes(
        _game("A", "B", "W+R", "2024-07-25", seed=98, game_type=4 if case["rules"] == "tga" else None)
    )
    manifest = _rerun_equals_scratch(case)
    assert manifest["incremental"]["periods_replayed"] == 1


def test_unchanged_partitions_are_hard_links_to_the_previous_generation(case: dict[str, Any]) -> None:
    before = {name: os.stat(path).st_ino for name, path in _files(case["tmp"] / "out").items()}
    (case["raw"] / "07" / "new.sgf").write_bytes(
        _game("A", "B", "W+R", "2024-07-25", seed=98, game_type=4 if case["rules"] == "tga" else None)
    )
    _run(case, case["tmp"] / "out")
    after = {name: os.stat(path).st_ino for name, path in _files(case["tmp"] / "out").items()}
    kept = {name for name in after if "period=2024-0" in name and "period=2024-07" not in name}
    if case["rules"] == "tga":  # yearly: one period, nothing to carry but the partitions without rows
        return
    kept = {name for name in kept if not name.startswith("leaderboards/")} | {
        name for name in after if name.startswith("leaderboards/") and "period=2023" in name
    }
    assert kept and all(after[name] == before[name] for name in kept)
    assert after["games.parquet"] != before["games.parquet"]


def test_sample_no_change_equals_scratch(sample: dict[str, Any]) -> None:
    assert _rerun_equals_scratch(sample)["incremental"]["reused_generation"]


def test_sample_late_record_equals_scratch(sample: dict[str, Any]) -> None:
    first = sorted(p for p in sample["raw"].rglob("*.sgf"))[0]
    shutil.copy(first, first.with_name("zz-late-copy.sgf"))  # a second copy: a duplicate, a new seq
    (sample["raw"] / "2024-05" / "late.sgf").write_bytes(_game("A", "B", "B+R", "2024-05-30", seed=97))
    _rerun_equals_scratch(sample)


def test_sample_new_record_in_latest_period_equals_scratch(sample: dict[str, Any]) -> None:
    latest = sorted(p for p in sample["raw"].iterdir() if p.is_dir())[-1]
    (latest / "new.sgf").write_bytes(_game("A", "B", "W+R", f"{latest.name}-28", seed=96))
    _rerun_equals_scratch(sample)


def test_activity_of_a_resumed_run_equals_scratch(tmp_path: Path) -> None:
    raw, folder = tmp_path / "raw", tmp_path / "cfg"
    _write_season(raw, "club")
    (raw / "03" / "e.sgf").write_bytes(_game("E", "A", "B+R", "2024-03-20", seed=95))  # E's only game
    config = _config(folder)
    config.write_text(config.read_text(encoding="utf-8") + '\n[output]\nactive_within = "2 months"\n')
    case = {"raw": raw, "config": config, "rules": "club", "tmp": tmp_path}
    _run(case, tmp_path / "out")
    (raw / "07" / "new.sgf").write_bytes(_game("A", "B", "W+R", "2024-07-25", seed=98))
    manifest = _rerun_equals_scratch(case)  # E's last counted day carried from June into July
    assert manifest["incremental"]["periods_replayed"] == 1
