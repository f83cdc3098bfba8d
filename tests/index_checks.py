"""Checks of the player index shared by its tests (test_player_index.py, test_index_runs.py)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from pipeline.output import player_index, snapshots


def assert_same_index(out: Path, scratch: Path) -> None:
    """The index of ``out``'s current generation has the files of ``scratch``'s, with equal rows (and
    schemas, metadata included)."""
    again, fresh = (snapshots.current(o) for o in (out, scratch))
    assert again is not None and fresh is not None
    files = sorted(p.relative_to(fresh).as_posix() for p in (fresh / player_index.FOLDER).rglob("*.parquet"))
    assert files == sorted(
        p.relative_to(again).as_posix() for p in (again / player_index.FOLDER).rglob("*.parquet")
    )
    for name in files:
        assert pq.read_table(again / name).equals(pq.read_table(fresh / name), check_metadata=True), name
