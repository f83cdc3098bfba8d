"""The write stage (pipeline/snapshots.py) through `ratings run`: one generation switched in atomically,
runs that are idempotent and incremental, Parquet datasets that pandas reads with their periods."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from sgfmake import sgf
from typer.testing import CliRunner, Result

from pipeline.cli import app
from pipeline.core import store
from pipeline.output import snapshots

pytestmark = pytest.mark.slow

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
CHECKER = ROOT.parent / "shared" / "tools" / "check_output.py"
TABLES = ("games.parquet", "ratings", "changes", "awards", "leaderboards")
DATASETS = ("ratings", "changes", "awards", "leaderboards")
RATINGS_CONTRACT = ["player", "rank", "rating", "rating_before", "delta", "games", "wins", "losses", "draws"]


def _game(black: str, white: str, result: str, date: str, seed: int = 0) -> str:
    return sgf(black, white, result, date, black_rank="1d", white_rank="1d", seed=seed)


# A and B, both declared 1d (club: base 100, coefficient 1), slow games (10 points); July has no game.
SEASON = {
    "may.sgf": _game("A", "B", "B+R", "2024-05-03"),  # A 100 + 1*10 = 110; B 100 - 1*10 = 90 (1k)
    "jun.sgf": _game("B", "A", "B+R", "2024-06-03"),  # B 90 + A's coef 1 * 10 = 100; A 110 - 1*10 = 100
    "aug.sgf": _game("A", "B", "W+R", "2024-08-03"),  # B 100 + 10 = 110; A 100 - 10 = 90
}


@pytest.fixture
def season(write) -> None:
    for name, text in SEASON.items():
        write(name, text.encode())


def _written(folder: Path, records: dict[str, str]) -> Path:
    """``records`` (name -> text) written into folder/raw, as the ``write`` fixture writes; ``folder``."""
    (folder / "raw").mkdir(parents=True, exist_ok=True)
    for name, text in records.items():
        (folder / "raw" / name).write_bytes(text.encode())
    return folder


# The module's fixtures below are runs read (never written) by every test that takes them.


@pytest.fixture(scope="module")
def season_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output folder of one run of SEASON."""
    folder = _written(tmp_path_factory.mktemp("season"), SEASON)
    good_run(folder, folder / "out")
    return folder / "out"


@pytest.fixture(scope="module")
def twice(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two runs of SEASON into one folder (``out``, as the second left it), and the tables and the
    manifest the first left (``first_tables``, ``first_manifest``)."""
    folder = _written(tmp_path_factory.mktemp("twice"), SEASON)
    out = folder / "out"
    good_run(folder, out)
    first_tables, first_manifest = tables(out), manifest(out)
    good_run(folder, out)
    return {"out": out, "first_tables": first_tables, "first_manifest": first_manifest}


@pytest.fixture(scope="module")
def four_generations(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """Four runs of SEASON into one folder, each after a new month: the folder, and the id of the current
    generation after each run."""
    folder = _written(tmp_path_factory.mktemp("four"), SEASON)
    out = folder / "out"
    return out, _runs_with_a_new_month_each(folder, out, 4)


@pytest.fixture(scope="module")
def nothing_counted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output folder of a run on one draw (club: a draw is not a valid game)."""
    folder = _written(tmp_path_factory.mktemp("draw"), {"draw.sgf": sgf("A", "B", "0", "2024-05-03")})
    good_run(folder, folder / "out")
    return folder / "out"


def ratings_run(tmp_path: Path, out: Path) -> Result:
    """`ratings run` on tmp_path/raw into ``out`` with a config file that names only the rule set."""
    config = tmp_path / "ratings.toml"
    config.write_text('[run]\nrule_set = "club"\n')
    args = ["run", "--config", str(config), "--raw", str(tmp_path / "raw"), "--out", str(out)]
    return runner.invoke(app, [*args, "--workers", "1"])


def good_run(tmp_path: Path, out: Path) -> None:
    result = ratings_run(tmp_path, out)
    assert result.exit_code == 0, result.output


def tables(out: Path) -> dict[str, pd.DataFrame]:
    return {name: pd.read_parquet(out / name) for name in TABLES}


def manifest(out: Path) -> dict[str, Any]:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def assert_same_tables(left: dict[str, pd.DataFrame], right: dict[str, pd.DataFrame]) -> None:
    assert left.keys() == right.keys()
    for name in left:
        pd.testing.assert_frame_equal(left[name], right[name], obj=name)


def generations(out: Path) -> list[str]:
    return sorted(os.listdir(out / snapshots.GENERATIONS))


def folders(out: Path) -> list[str]:
    """The generation folders under out/.gen (not the current link, nor the history)."""
    return sorted(p.name for p in (out / snapshots.GENERATIONS).iterdir() if p.name.startswith("g-"))


def current_id(out: Path) -> str:
    return os.readlink(out / snapshots.GENERATIONS / snapshots.CURRENT)


def periods(out: Path, name: str) -> list[str]:
    return sorted(set(pd.read_parquet(out / name)["period"].astype(str)))


def test_a_run_failing_midway_leaves_the_previous_output(
    season, write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    good_run(tmp_path, out)
    before, before_manifest, before_gens = tables(out), manifest(out), generations(out)
    write("sep.sgf", _game("A", "B", "B+R", "2024-09-03").encode())  # a leaked write would show
    real, written = store.write_parquet, []

    def third_write_fails(table: Any, path: Path, metadata: Any = None, **options: Any) -> None:
        if snapshots.GENERATIONS in path.parts:  # games.parquet, promotions.parquet, then ratings 2024-05
            written.append(path)
            if len(written) == 3:
                raise OSError("disk full (test)")
        real(table, path, metadata, **options)

    monkeypatch.setattr(store, "write_parquet", third_write_fails)
    result = ratings_run(tmp_path, out)
    assert result.exit_code == 1 and isinstance(result.exception, OSError)
    assert len(written) == 3
    assert_same_tables(tables(out), before)
    assert manifest(out) == before_manifest
    assert generations(out) == before_gens


class _ReplaceFailsOnce:
    """Stands in for the ``os`` module inside pipeline.output.snapshots: its first ``replace`` raises."""

    def __init__(self) -> None:
        self.failed = False

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def replace(self, src: Any, dst: Any) -> None:
        if not self.failed:
            self.failed = True
            raise OSError("rename failed (test)")
        os.replace(src, dst)


def test_a_failed_switch_leaves_the_previous_output(
    season, write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    good_run(tmp_path, out)
    before, before_manifest = tables(out), manifest(out)
    current = os.readlink(out / snapshots.GENERATIONS / snapshots.CURRENT)
    write("sep.sgf", _game("A", "B", "B+R", "2024-09-03").encode())
    monkeypatch.setattr(snapshots, "os", _ReplaceFailsOnce())  # the first replace is the switch
    result = ratings_run(tmp_path, out)
    assert result.exit_code == 1 and isinstance(result.exception, OSError)
    assert os.readlink(out / snapshots.GENERATIONS / snapshots.CURRENT) == current
    assert_same_tables(tables(out), before)
    assert manifest(out) == before_manifest


def test_the_next_run_cleans_up_after_a_failed_switch(
    season, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    good_run(tmp_path, out)
    with monkeypatch.context() as patch:
        patch.setattr(snapshots, "os", _ReplaceFailsOnce())
        assert ratings_run(tmp_path, out).exit_code == 1
    assert len(generations(out)) > 3  # the unused generation (and the link the switch did not rename)
    first = current_id(out)
    good_run(tmp_path, out)
    assert generations(out) == sorted(["current", first, current_id(out), "history.json"])


def half_written_generation(out: Path) -> Path:
    """What a kill during a run leaves: a generation folder with a truncated Parquet file."""
    stray = out / snapshots.GENERATIONS / "g-0000deadbeef"
    part = stray / "ratings" / "period=2024-05" / snapshots.PART
    part.parent.mkdir(parents=True)
    part.write_bytes(b"PAR1\x00\x01truncated")
    return stray


def test_a_half_written_generation_is_not_read(season, tmp_path: Path) -> None:
    out = tmp_path / "out"
    good_run(tmp_path, out)
    before = tables(out)
    half_written_generation(out)
    assert_same_tables(tables(out), before)


def test_the_next_run_removes_a_half_written_generation(season, tmp_path: Path) -> None:
    out = tmp_path / "out"
    good_run(tmp_path, out)
    stray = half_written_generation(out)
    good_run(tmp_path, out)
    assert not stray.exists()
    assert len(folders(out)) == 2  # the current generation and the one before it


def test_two_runs_on_the_same_input_give_the_same_tables(twice: dict[str, Any]) -> None:
    out, first = twice["out"], twice["first_tables"]
    assert_same_tables(tables(out), first)


def test_two_runs_on_the_same_input_give_the_same_manifest_but_timings(twice: dict[str, Any]) -> None:
    first, second = twice["first_manifest"], manifest(twice["out"])
    assert (first["files_parsed"], first["files_reused"]) == (3, 0)
    assert (second["files_parsed"], second["files_reused"]) == (0, 3)
    varying = ("timings_s", "files_parsed", "files_reused", "incremental", "generation")
    assert {k: v for k, v in second.items() if k not in varying} == {
        k: v for k, v in first.items() if k not in varying
    }


def test_an_incremental_run_equals_a_run_from_scratch(season, write, tmp_path: Path) -> None:
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    good_run(tmp_path, out)
    # One file, two games: one in June (a month with games), one in April (a new month, before all others).
    write(
        "extra.sgf",
        (_game("A", "B", "B+R", "2024-06-20", 1) + _game("B", "A", "W+R", "2024-04-10", 2)).encode(),
    )
    good_run(tmp_path, out)
    good_run(tmp_path, fresh)
    assert periods(out, "ratings")[0] == "2024-04"
    assert_same_tables(tables(out), tables(fresh))


def test_read_parquet_gives_every_rating_period_with_its_ratings(season_out: Path) -> None:
    out = season_out
    ratings = pd.read_parquet(out / "ratings")
    a = ratings[ratings["player"] == "A"]
    # SEASON: A 110 after May, 100 after June, unchanged in the empty July, 90 after August.
    assert dict(zip(a["period"].astype(str), a["rating"], strict=True)) == {
        "2024-05": 110.0,
        "2024-06": 100.0,
        "2024-07": 100.0,
        "2024-08": 90.0,
    }


def test_read_parquet_gives_every_change_period(season_out: Path) -> None:
    out = season_out
    assert periods(out, "changes") == ["2024-05", "2024-06", "2024-08"]  # July has no game


def test_read_parquet_gives_every_leaderboard_period(season_out: Path) -> None:
    out = season_out
    assert periods(out, "leaderboards") == ["2024", "2024-05", "2024-06", "2024-08"]  # + the yearly board


def test_the_output_contract_checker_accepts_the_output(season_out: Path) -> None:
    if not CHECKER.is_file():
        pytest.skip(f"the output contract checker is not at {CHECKER}")
    out = season_out
    venv_python = ROOT / ".venv" / "bin" / "python"
    python = str(venv_python) if venv_python.exists() else sys.executable
    done = subprocess.run([python, str(CHECKER), str(out)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_older_output_folder_is_replaced_by_links(season, tmp_path: Path) -> None:
    out = tmp_path / "out"
    old = pd.DataFrame({"player": ["old"], "rating": [1.0]})
    (out / "ratings" / "period=2023-01").mkdir(parents=True)
    old.to_parquet(out / "ratings" / "period=2023-01" / "part-0.parquet")
    old.to_parquet(out / "games.parquet")
    good_run(tmp_path, out)
    assert (out / "ratings").is_symlink() and (out / "games.parquet").is_symlink()
    assert periods(out, "ratings") == ["2024-05", "2024-06", "2024-07", "2024-08"]
    assert sorted(pd.read_parquet(out / "games.parquet")["source_path"]) == sorted(SEASON)


@pytest.mark.parametrize("name", DATASETS)
def test_a_run_without_counted_games_writes_readable_empty_datasets(name: str, nothing_counted: Path) -> None:
    out = nothing_counted
    frame = pd.read_parquet(out / name)
    assert len(frame) == 0
    assert "period" in frame.columns


def test_a_run_without_counted_games_gives_ratings_with_the_contract_columns(nothing_counted: Path) -> None:
    out = nothing_counted
    assert set(RATINGS_CONTRACT) <= set(pd.read_parquet(out / "ratings").columns)


def _runs_with_a_new_month_each(folder: Path, out: Path, runs: int) -> list[str]:
    """``runs`` runs of folder/raw into ``out``, each after a new record; the current generation's id
    after each."""
    ids = []
    for month in range(runs):
        record = _game("A", "B", "B+R", f"2024-{9 + month:02d}-03", seed=month)
        _written(folder, {f"new{month}.sgf": record})
        good_run(folder, out)
        ids.append(current_id(out))
    return ids


def test_runs_keep_the_current_generation_and_the_two_before_it(
    four_generations: tuple[Path, list[str]],
) -> None:
    out, ids = four_generations
    assert snapshots.KEEP == 3
    assert folders(out) == sorted(ids[1:])


def test_kept_lists_the_generations_oldest_first_the_current_last(
    four_generations: tuple[Path, list[str]],
) -> None:
    out, ids = four_generations
    found = snapshots.kept(out)
    assert [(k.id, k.current) for k in found] == [(ids[1], False), (ids[2], False), (ids[3], True)]
    assert all(k.written is not None and k.written.tzinfo is not None for k in found)


def test_a_generation_count_of_one_keeps_only_the_current(season, tmp_path: Path) -> None:
    out = tmp_path / "out"
    games = pd.DataFrame({"game_id": ["g"]})
    for _ in range(3):
        snapshots.write_generation(out, {"games.parquet": pa.Table.from_pandas(games)}, {}, {}, keep=1)
    assert folders(out) == [current_id(out)]


def test_a_generation_count_below_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="got 0"):
        snapshots.Generation(tmp_path / "out", keep=0)


def test_the_manifest_names_its_generation_and_when_it_was_written(season_out: Path) -> None:
    out = season_out
    entry = manifest(out)["generation"]
    assert entry["id"] == current_id(out)
    assert dt.datetime.fromisoformat(entry["written"]).utcoffset() == dt.timedelta(0)
