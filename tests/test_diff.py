"""`ratings diff` (pipeline/reports/diff.py, pipeline/cli/diff.py): what the last run changed and why,
from real runs of the pipeline on small seasons and on a copy of the shipped sample."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.output import snapshots
from pipeline.reports import diff

pytestmark = pytest.mark.slow

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
ROSTER = "".join(f'[[player]]\nname = "{p}"\nrank = "1d"\n\n' for p in "ABCD")
#: Five months of games among A, B, C and D (club: slow games, everyone 1d).
SEASON = {
    "03/0.sgf": ("A", "B", "B+R", "2024-03-03"),
    "03/1.sgf": ("C", "D", "W+R", "2024-03-05"),
    "04/0.sgf": ("B", "C", "B+R", "2024-04-04"),
    "04/1.sgf": ("A", "D", "W+R", "2024-04-09"),
    "05/0.sgf": ("A", "C", "B+R", "2024-05-02"),
    "06/0.sgf": ("C", "A", "W+R", "2024-06-06"),
    "07/0.sgf": ("B", "A", "B+R", "2024-07-01"),
}


def _game(black: str, white: str, result: str, date: str, seed: int = 0) -> bytes:
    return sgf(black, white, result, date, black_rank="1d", white_rank="1d", seed=seed).encode()


def _write(raw: Path, rel: str, data: bytes) -> None:
    (raw / rel).parent.mkdir(parents=True, exist_ok=True)
    (raw / rel).write_bytes(data)


def _config(folder: Path, rule_set: str = "club", rules: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "roster.toml").write_text(ROSTER, encoding="utf-8")
    text = f"[run]\nrule_set = '{rule_set}'\nevents = ''\n\n[rules]\n{rules}"
    (folder / "ratings.toml").write_text(text, encoding="utf-8")
    return folder / "ratings.toml"


def _case(folder: Path) -> dict[str, Path]:
    """The season in folder/raw, its configuration, and one run into folder/out already done."""
    for rel, (black, white, result, date) in SEASON.items():
        _write(folder / "raw", rel, _game(black, white, result, date, seed=len(rel)))
    found = {"raw": folder / "raw", "config": _config(folder / "cfg"), "out": folder / "out"}
    _run(found)
    return found


@pytest.fixture
def case(tmp_path: Path) -> dict[str, Path]:
    """The season in tmp_path/raw, its configuration, and one run into tmp_path/out already done."""
    return _case(tmp_path)


# The fixtures below are a case changed and run again once, read (never written) by every test of that
# change: a module's tests share the run.


@pytest.fixture(scope="module")
def rerun(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A case run a second time with no change; ``second``: the id of the generation that run wrote."""
    found: dict[str, Any] = _case(tmp_path_factory.mktemp("rerun"))
    return found | {"second": _run(found)}


@pytest.fixture(scope="module")
def late(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A case with a late record for 2024-03 (03/late.sgf) added, run again."""
    found = _case(tmp_path_factory.mktemp("late"))
    _write(found["raw"], "03/late.sgf", _game("A", "B", "B+R", "2024-03-20", seed=99))
    _run(found)
    return found


@pytest.fixture(scope="module")
def newer(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A case with a new game in the latest period (07/1.sgf) added, run again."""
    found = _case(tmp_path_factory.mktemp("newer"))
    _write(found["raw"], "07/1.sgf", _game("C", "D", "B+R", "2024-07-20", seed=98))
    _run(found)
    return found


def _run(case: dict[str, Path]) -> str:
    """One `ratings run` of ``case``; the id of the generation it switched to."""
    args = ["run", "--config", str(case["config"]), "--raw", str(case["raw"]), "--out", str(case["out"])]
    result = runner.invoke(app, [*args, "--workers", "1"])
    assert result.exit_code == 0, result.output
    return snapshots.kept(case["out"])[-1].id


def _causes(found: diff.Diff) -> dict[str, set[str]]:
    """Each period with a change, and the causes its rows give."""
    by_period: dict[str, set[str]] = {}
    for period, cause in zip(found.changes["period"], found.changes["cause"], strict=True):
        by_period.setdefault(period, set()).add(cause)
    return by_period


def test_a_rerun_with_no_change_shows_nothing_changed(rerun: dict[str, Any]) -> None:
    case = rerun
    found = diff.diff(case["out"])
    assert (len(found.changes), len(found.files), found.causes) == (0, 0, [])


def test_a_late_record_names_its_period_and_the_cascade_after_it(late: dict[str, Path]) -> None:
    case = late
    found = diff.diff(case["out"])
    assert _causes(found) == {
        "2024-03": {"late record"},
        **{p: {"cascade from 2024-03"} for p in ("2024-04", "2024-05", "2024-06", "2024-07")},
    }
    march = found.changes[found.changes["period"] == "2024-03"]
    assert set(march["player"]) >= {"A", "B"} and set(march["files"]) == {"03/late.sgf"}


def test_a_late_record_lists_its_file_as_added(late: dict[str, Path]) -> None:
    case = late
    files = diff.diff(case["out"]).files
    assert files[["source_path", "change", "games", "counted", "periods"]].values.tolist() == [
        ["03/late.sgf", "added", 1, 1, "2024-03"]
    ]


def test_new_games_in_the_latest_period_are_new_games_without_a_cascade(newer: dict[str, Path]) -> None:
    case = newer
    assert _causes(diff.diff(case["out"])) == {"2024-07": {"new games"}}


def test_a_removed_file_is_the_cause_in_its_period(case: dict[str, Path]) -> None:
    (case["raw"] / "04" / "1.sgf").unlink()
    _run(case)
    found = diff.diff(case["out"])
    assert found.files[["source_path", "change"]].values.tolist() == [["04/1.sgf", "removed"]]
    assert _causes(found) == {
        "2024-04": {"removed file"},
        **{p: {"cascade from 2024-04"} for p in ("2024-05", "2024-06", "2024-07")},
    }


def test_a_corrected_file_is_the_cause_in_its_period(case: dict[str, Path]) -> None:
    _write(case["raw"], "05/0.sgf", _game("A", "C", "W+R", "2024-05-02", seed=len("05/0.sgf")))
    _run(case)
    found = diff.diff(case["out"])
    assert found.files[["source_path", "change"]].values.tolist() == [["05/0.sgf", "corrected"]]
    assert _causes(found)["2024-05"] == {"corrected file"}


def test_a_roster_change_is_the_cause_of_every_change(case: dict[str, Path]) -> None:
    (case["config"].parent / "roster.toml").write_text(ROSTER.replace('"1d"', '"3d"', 1), encoding="utf-8")
    _run(case)
    found = diff.diff(case["out"])
    assert found.causes == ["roster changed"]
    assert len(found.changes) and set(found.changes["cause"]) == {"roster changed"}


def test_a_rule_parameter_change_is_named_with_its_values(tmp_path: Path) -> None:
    for rel, (black, white, result, date) in SEASON.items():
        _write(tmp_path / "raw", rel, _game(black, white, result, date, seed=len(rel)))
    case = {"raw": tmp_path / "raw", "config": _config(tmp_path / "cfg", "hkga"), "out": tmp_path / "out"}
    _run(case)
    _config(tmp_path / "cfg", "hkga", "epsilon = 0.05\n")
    _run(case)
    found = diff.diff(case["out"])
    assert found.causes == ["configuration changed (rules.epsilon none -> 0.05)"]
    assert len(found.changes) and set(found.changes["cause"]) == set(found.causes)


def test_a_parser_change_is_named(case: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pipeline.ingest.cache.parser_version", lambda: "0123456789abcdef")
    _run(case)
    assert diff.diff(case["out"]).causes == ["parser changed"]


def test_since_an_older_generation_compares_with_it(case: dict[str, Path]) -> None:
    first = snapshots.kept(case["out"])[-1].id
    _write(case["raw"], "03/late.sgf", _game("A", "B", "B+R", "2024-03-20", seed=99))
    _run(case)
    _write(case["raw"], "07/1.sgf", _game("C", "D", "B+R", "2024-07-20", seed=98))
    _run(case)
    assert "2024-03" not in _causes(diff.diff(case["out"]))
    found = diff.diff(case["out"], since=first)
    assert found.before.id == first
    assert _causes(found)["2024-03"] == {"late record"}
    assert set(found.files["source_path"]) == {"03/late.sgf", "07/1.sgf"}


def _dated_history(out: Path, times: list[str]) -> list[str]:
    """Give the kept generations of ``out`` the written ``times`` (oldest first); return their ids."""
    path = out / snapshots.GENERATIONS / snapshots.HISTORY
    history = json.loads(path.read_text(encoding="utf-8"))
    for entry, written in zip(history["generations"], times, strict=True):
        entry["written"] = written
    path.write_text(json.dumps(history), encoding="utf-8")
    return [e["id"] for e in history["generations"]]


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A case run twice more, each after a new month, its three kept generations given written times
    (``ids``: theirs, oldest first)."""
    case = _case(tmp_path_factory.mktemp("dated"))
    for month in ("08", "09"):
        _write(case["raw"], f"{month}/0.sgf", _game("A", "B", "B+R", f"2024-{month}-03"))
        _run(case)
    times = ["2026-11-29T22:00:00+00:00", "2026-11-30T22:00:00+00:00", "2026-12-01T22:00:00+00:00"]
    return case | {"ids": _dated_history(case["out"], times)}


@pytest.mark.parametrize(
    ("since", "chosen"),
    [("2026-11-30", 0), ("2026-11-30T22:00", 1), ("2026-11-30T23:30+01:00", 1), ("2026-12-01", 1)],
)
def test_since_a_date_or_time_takes_the_latest_generation_at_or_before_it(
    since: str, chosen: int, dated: dict[str, Any]
) -> None:
    case, ids = dated, dated["ids"]
    assert diff.diff(case["out"], since=since).before.id == ids[chosen]


def test_since_a_time_before_every_kept_generation_is_an_error(rerun: dict[str, Any]) -> None:
    case = rerun
    with pytest.raises(diff.DiffError, match="no kept generation written at or before it"):
        diff.diff(case["out"], since="2000-01-01")


def test_generations_lists_the_kept_ones_oldest_first(rerun: dict[str, Any]) -> None:
    case, second = rerun, rerun["second"]
    listed = diff.generations(case["out"])
    assert listed["current"].tolist() == [False, True] and listed["id"].iloc[1] == second
    assert listed["periods"].tolist() == ["2024-03..2024-07"] * 2


def _cli(case: dict[str, Path], *args: str) -> Any:
    return runner.invoke(app, ["diff", "--out", str(case["out"]), *args], env={"COLUMNS": "80"})


def test_diff_help_has_an_example() -> None:
    result = runner.invoke(app, ["diff", "--help"])
    assert result.exit_code == 0 and "Example: ratings diff --since" in " ".join(result.output.split())


def test_an_unknown_generation_exits_2_listing_the_kept_ones(rerun: dict[str, Any]) -> None:
    case = rerun
    result = _cli(case, "--since", "g-nothere")
    kept = snapshots.kept(case["out"])
    assert result.exit_code == 2 and "unknown generation 'g-nothere'" in result.output
    assert all(k.id in result.output for k in kept)


def test_a_single_generation_exits_2_saying_there_is_nothing_to_compare(case: dict[str, Path]) -> None:
    result = _cli(case)
    assert result.exit_code == 2 and "nothing to compare with" in result.output


def test_the_table_fits_80_columns_and_names_the_causes(late: dict[str, Path]) -> None:
    case = late
    result = _cli(case)
    assert result.exit_code == 0, result.output
    table = result.output.split("to ratings, ranks or places", 1)[1]
    assert max(cell_len(line) for line in table.splitlines()) <= 80
    assert "late record" in table and "cascade from" in table and "file added: 03/late.sgf" in result.output


def test_csv_gives_every_column(newer: dict[str, Path]) -> None:
    case = newer
    result = _cli(case, "--format", "csv")
    assert result.exit_code == 0 and result.output.splitlines()[0] == ",".join(diff.DIFF_COLUMNS)


def test_list_shows_the_kept_generations(rerun: dict[str, Any]) -> None:
    case, second = rerun, rerun["second"]
    result = _cli(case, "--list", "--format", "json")
    assert result.exit_code == 0 and [g["id"] for g in json.loads(result.output)][-1] == second


def test_sample_late_record_names_its_period_and_the_cascade(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "data" / "raw", tmp_path / "raw")
    shutil.copytree(ROOT / "config", tmp_path / "cfg")
    case = {"raw": tmp_path / "raw", "config": tmp_path / "cfg" / "ratings.toml", "out": tmp_path / "out"}
    _run(case)
    _write(case["raw"], "2024-05/late.sgf", _game("牛蛙", "莹莹", "W+R", "2024-05-30", seed=97))
    _run(case)
    causes = _causes(diff.diff(case["out"]))
    assert causes["2024-05"] == {"late record"}
    assert set(causes) - {"2024-05"} and all(
        c == {"cascade from 2024-05"} for p, c in causes.items() if p != "2024-05"
    )
