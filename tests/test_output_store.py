"""pipeline.core.store: files written atomically get the mode the umask gives, like any other file."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline.core import store


@pytest.fixture(params=[0o022, 0o002], ids=["umask-022", "umask-002"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """Run the test under the umask of the parameter (the process's umask is restored after)."""
    previous = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_an_atomic_parquet_file_gets_the_mode_of_the_umask(umask: int, tmp_path: Path) -> None:
    store.write_parquet(pa.table({"a": [1]}), tmp_path / "t.parquet")
    assert mode(tmp_path / "t.parquet") == 0o666 & ~umask


def test_a_json_file_gets_the_mode_of_the_umask(umask: int, tmp_path: Path) -> None:
    store.write_json({"a": 1}, tmp_path / "m.json")
    assert mode(tmp_path / "m.json") == 0o666 & ~umask


def test_a_file_written_through_atomic_path_gets_the_mode_of_the_umask(umask: int, tmp_path: Path) -> None:
    with store.atomic_path(tmp_path / "x.bin") as temporary:
        temporary.write_bytes(b"x")
    assert mode(tmp_path / "x.bin") == 0o666 & ~umask
