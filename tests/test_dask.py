"""The parse stage on a Dask cluster (``--scheduler``, ``[ingest] scheduler``): the same tables as a local
run, a file that kills Dask workers ends as a ``crash`` row instead of looping, the per-file budget holds
in the workers' threads, and a cluster that cannot be used stops the run with a message. Each cluster is
a ``LocalCluster`` the test starts: nothing outside the machine."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import ConfigError, load
from pipeline.ingest import IngestError, IngestOptions, cluster, ingest, workers
from pipeline.ingest.cache import parser_version

pytestmark = pytest.mark.slow

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "raw"
GOOD = sgf("甲", "乙", "B+R", "2024-05-01").encode()


def local_cluster() -> Any:
    return distributed.LocalCluster(  # every port on the loopback interface, none chosen in advance
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with local_cluster() as running:
        yield running.scheduler_address


@pytest.fixture
def mixed(write: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small folder of good and bad files, two a batch (several tasks)."""
    write("a.sgf", GOOD)
    write("b/empty.sgf", b"")
    write("b/binary.sgf", b"\x00\x01\x02 not text")
    write("c.sgf", b"(;GM[1]PB[x]PW[y]RE[W+3.5];B[aa]")  # truncated
    write("d.sgf", b"not an sgf file at all")
    write("e.sgf", sgf("丙", "丁", "W+R", "2024-05-03").encode())
    monkeypatch.setattr(workers, "BATCH", 2)
    return tmp_path / "raw"


def test_sample_table_on_the_cluster_equals_a_local_run(scheduler: str, tmp_path: Path) -> None:
    remote = ingest(SAMPLE, tmp_path / "remote", IngestOptions(scheduler=scheduler)).games
    assert remote.equals(ingest(SAMPLE, tmp_path / "local", IngestOptions(workers=2)).games)


def test_folder_with_bad_files_on_the_cluster_equals_a_local_run(
    scheduler: str, mixed: Path, tmp_path: Path
) -> None:
    remote = ingest(mixed, tmp_path / "remote", IngestOptions(scheduler=scheduler)).games
    assert remote.equals(ingest(mixed, tmp_path / "local", IngestOptions(workers=2)).games)


def test_ratings_run_with_scheduler_writes_the_games_of_a_local_run(scheduler: str, tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["run", "--raw", str(SAMPLE), "--config", str(ROOT / "config" / "ratings.toml")]
    remote = runner.invoke(app, [*args, "--out", str(tmp_path / "remote"), "--scheduler", scheduler])
    assert remote.exit_code == 0, remote.output
    assert runner.invoke(app, [*args, "--out", str(tmp_path / "local"), "--workers", "2"]).exit_code == 0
    games = [pq.read_table(tmp_path / side / "games.parquet") for side in ("remote", "local")]
    assert games[0].equals(games[1])


# --- workers that die, files that take too long ---------------------------------------------------


def rows_on_workers(data: bytes, source_path: str) -> list[dict[str, Any]]:
    """rows_for_bytes, but killer.sgf ends its process and slow.sgf keeps the processor busy."""
    if source_path == "killer.sgf":
        os._exit(9)
    end = time.monotonic() + 60
    while source_path == "slow.sgf" and time.monotonic() < end:
        pass
    return ORIGINAL(data, source_path)


ORIGINAL = workers.rows_for_bytes


class Patched(distributed.WorkerPlugin):  # type: ignore[misc]
    """Puts :func:`rows_on_workers` in every worker process, also in those started after a death."""

    def setup(self, worker: Any) -> None:
        workers.rows_for_bytes = rows_on_workers


@pytest.fixture(scope="module")
def patched_scheduler() -> Iterator[str]:
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}), local_cluster() as running:
        with distributed.Client(running.scheduler_address) as client:
            client.register_plugin(Patched())
        yield running.scheduler_address


@pytest.fixture(scope="module")
def troubled(patched_scheduler: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The rows, by source path, of one ingest on the patched cluster of a.sgf, killer.sgf, slow.sgf and
    z.sgf, one file a batch (the tests of the crash row and of the file budget read the same ingest)."""
    raw = tmp_path_factory.mktemp("troubled") / "raw"
    raw.mkdir()
    for name in ("a.sgf", "killer.sgf", "slow.sgf", "z.sgf"):
        (raw / name).write_bytes(GOOD)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(workers, "BATCH", 1)
        monkeypatch.setattr(workers, "rows_for_bytes", rows_on_workers)  # here too, for the batch read here
        # 5 s: a margin for the others (a.sgf's first parse: imports)
        options = IngestOptions(scheduler=patched_scheduler, file_timeout_s=5)
        games = ingest(raw, raw.parent / "out", options).games.to_pylist()
    return {g["source_path"]: g for g in games}


def test_file_that_kills_dask_workers_ends_as_a_crash_row(troubled: dict[str, dict[str, Any]]) -> None:
    rows = troubled
    assert rows["killer.sgf"]["error_kind"] == "crash" and "killer.sgf" in rows["killer.sgf"]["parse_error"]
    assert (rows["a.sgf"]["black"], rows["z.sgf"]["black"]) == ("甲", "甲")


def test_file_budget_holds_in_a_dask_task(troubled: dict[str, dict[str, Any]]) -> None:
    rows = troubled
    assert rows["slow.sgf"]["error_kind"] == "timeout" and "5 s" in rows["slow.sgf"]["parse_error"]
    assert rows["a.sgf"]["error_kind"] is None


# --- a cluster that cannot be used -----------------------------------------------------------------


def test_unreachable_scheduler_stops_the_run_naming_it(
    write: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("a.sgf", GOOD)
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 0.5)
    with pytest.raises(IngestError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"):
        ingest(tmp_path / "raw", tmp_path / "out", IngestOptions(scheduler="tcp://127.0.0.1:9"))


class Answers:
    """A client whose workers answer ``worker_view`` with ``answer``."""

    def __init__(self, answer: tuple[bool, str]) -> None:
        self.answer = answer

    def run(self, function: Any, path: str | None) -> dict[str, tuple[bool, str]]:
        return {"tcp://10.0.0.7:4000": self.answer}


def test_worker_that_does_not_see_the_files_stops_the_run() -> None:
    with pytest.raises(
        IngestError, match=r"tcp://10\.0\.0\.7:4000 does not see /srv/raw/a\.sgf: every worker"
    ):
        cluster._check_workers(Answers((False, parser_version())), "tcp://s:8786", "/srv/raw/a.sgf")


def test_worker_with_another_parser_stops_the_run() -> None:
    with pytest.raises(IngestError, match="runs parser version 0123456789abcdef"):
        cluster._check_workers(Answers((True, "0123456789abcdef")), "tcp://s:8786", "/srv/raw/a.sgf")


# --- configuration -------------------------------------------------------------------------------


def test_scheduler_in_the_configuration_file(tmp_path: Path) -> None:
    (tmp_path / "ratings.toml").write_text('[ingest]\nscheduler = "tcp://10.0.0.5:8786"\n')
    assert load(tmp_path / "ratings.toml").scheduler == "tcp://10.0.0.5:8786"


def test_bad_scheduler_in_the_configuration_file_names_file_and_key(tmp_path: Path) -> None:
    (tmp_path / "ratings.toml").write_text('[ingest]\nscheduler = "10.0.0.5"\n')
    with pytest.raises(ConfigError) as error:
        load(tmp_path / "ratings.toml")
    assert str(error.value) == (
        f"{tmp_path / 'ratings.toml'}: [ingest] scheduler must be a Dask scheduler address such as "
        "'tcp://HOST:8786' (or \"\" for none), got '10.0.0.5'"
    )


def test_bad_scheduler_flag_exits_2_naming_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["run", "--raw", str(SAMPLE), "--scheduler", "nowhere"])
    assert result.exit_code == 2
    assert "--scheduler must be a Dask scheduler address" in result.output and "'nowhere'" in result.output
