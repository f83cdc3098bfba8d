"""ingest: every file accounted for, incremental runs equal runs from scratch, workers do not matter."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from pipeline.ingest import IngestError, IngestOptions, discover, ingest
from pipeline.ingest import cache as cache_mod
from pipeline.ingest.shelf import SHELF

pytestmark = pytest.mark.slow

GAME = "(;GM[1]PB[{b}]PW[{w}]RE[B+R]DT[2024-05-{d:02d}]TM[{t}];B[pd];W[dd];B[pp])"


def populate(write, n: int = 12) -> None:
    for i in range(n):
        write(f"2024-05/g{i:03d}.sgf", GAME.format(b=f"p{i}", w=f"q{i}", d=i % 28 + 1, t=600 * i).encode())
    write("2024-05/both.sgf", (GAME.format(b="a", w="b", d=3, t=60) * 2).encode("gbk"))
    write("notes.txt", b"not a record")
    write("empty.sgf", b"")


def test_every_file_is_accounted_for(write, tmp_path: Path) -> None:
    populate(write)
    result = ingest(tmp_path / "raw", tmp_path / "out", IngestOptions(workers=1))
    paths = set(result.games.column("source_path").to_pylist())
    assert paths == {e.rel for e in discover(tmp_path / "raw")}
    assert result.games.num_rows == 12 + 2 + 1 + 1


def test_speed_uses_the_threshold(write, tmp_path: Path) -> None:
    populate(write, 5)
    games = ingest(tmp_path / "raw", tmp_path / "out", IngestOptions(workers=1, speed_threshold_s=1800)).games
    speeds = dict(
        zip(games.column("source_path").to_pylist(), games.column("speed").to_pylist(), strict=True)
    )
    assert (speeds["2024-05/g002.sgf"], speeds["2024-05/g003.sgf"], speeds["empty.sgf"]) == (
        "fast",
        "slow",
        "unknown",
    )


def test_unchanged_files_are_not_parsed_again(write, tmp_path: Path) -> None:
    populate(write)
    ingest(tmp_path / "raw", tmp_path / "out")
    again = ingest(tmp_path / "raw", tmp_path / "out")
    assert (again.parsed, again.reused) == (0, 15)


def test_incremental_run_equals_run_from_scratch(write, tmp_path: Path) -> None:
    populate(write)
    raw = tmp_path / "raw"
    ingest(raw, tmp_path / "out")
    write("2024-05/g001.sgf", GAME.format(b="changed", w="x", d=9, t=1).encode())
    (raw / "2024-05" / "g002.sgf").unlink()
    write("2024-06/new.sgf", GAME.format(b="new", w="y", d=1, t=1).encode())
    incremental = ingest(raw, tmp_path / "out")
    scratch = ingest(raw, tmp_path / "fresh")
    assert incremental.parsed == 2
    assert incremental.games.equals(scratch.games)


def test_touched_file_is_parsed_again(write, tmp_path: Path) -> None:
    populate(write, 3)
    ingest(tmp_path / "raw", tmp_path / "out")
    path = tmp_path / "raw" / "2024-05" / "g000.sgf"
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    assert ingest(tmp_path / "raw", tmp_path / "out").parsed == 1


def test_new_parser_version_parses_everything(write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    populate(write, 3)
    ingest(tmp_path / "raw", tmp_path / "out")
    monkeypatch.setattr(cache_mod, "parser_version", lambda: "another")
    assert ingest(tmp_path / "raw", tmp_path / "out").parsed == 6


def test_worker_count_does_not_change_the_output(write, tmp_path: Path) -> None:
    populate(write, 200)
    one = ingest(tmp_path / "raw", tmp_path / "o1", IngestOptions(workers=1))
    two = ingest(tmp_path / "raw", tmp_path / "o2", IngestOptions(workers=2))
    assert one.games.equals(two.games)


def test_unreadable_file_gives_a_row(write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    populate(write, 2)
    real = os.open

    def failing(path: str, *args: Any, **kwargs: Any) -> int:
        if str(path).endswith("g001.sgf"):
            raise PermissionError(13, "Permission denied")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", failing)
    games = ingest(tmp_path / "raw", tmp_path / "out", IngestOptions(workers=1)).games.to_pylist()
    [row] = [g for g in games if g["source_path"] == "2024-05/g001.sgf"]
    assert (row["error_kind"], row["parse_error"]) == ("unreadable", "unreadable: Permission denied")


def test_missing_raw_folder_raises(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="not found"):
        ingest(tmp_path / "nope", tmp_path / "out")


def test_damaged_cache_means_a_full_parse(write, tmp_path: Path) -> None:
    populate(write, 3)
    ingest(tmp_path / "raw", tmp_path / "out")
    for part in (tmp_path / "out" / SHELF).glob("*/*.parquet"):
        part.write_bytes(part.read_bytes()[:-200] + b"\x00" * 200)
    assert ingest(tmp_path / "raw", tmp_path / "out").parsed == 6


def test_edit_that_keeps_size_and_modification_time_is_parsed_again(write, tmp_path: Path) -> None:
    path = write("g.sgf", GAME.format(b="old", w="w", d=1, t=60).encode())
    ingest(tmp_path / "raw", tmp_path / "out")
    before = path.stat()
    path.write_bytes(GAME.format(b="new", w="w", d=1, t=60).encode())  # same size, same inode
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # `touch -r`: the old time back
    while path.stat().st_ctime_ns == before.st_ctime_ns:  # the change time ticks with a coarse clock
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    games = ingest(tmp_path / "raw", tmp_path / "out").games
    assert games.column("black").to_pylist() == ["new"]


def test_cache_written_without_inode_and_change_time_is_parsed_again(write, tmp_path: Path) -> None:
    populate(write, 3)
    ingest(tmp_path / "raw", tmp_path / "out")
    old = cache_mod.load(tmp_path / "out")
    assert old is not None
    for name in ("file_inode", "file_ctime_ns"):
        index = old.schema.get_field_index(name)
        old = old.set_column(index, old.schema.field(index), pa.nulls(old.num_rows, pa.int64()))
    cache_mod.save(old, tmp_path / "out")
    assert ingest(tmp_path / "raw", tmp_path / "out").parsed == 6


@pytest.mark.parametrize("kind", ["timeout", "crash"])
def test_file_that_timed_out_or_killed_its_worker_is_parsed_again(write, tmp_path: Path, kind: str) -> None:
    populate(write, 3)
    ingest(tmp_path / "raw", tmp_path / "out")
    old = cache_mod.load(tmp_path / "out")
    assert old is not None
    paths, kinds = old.column("source_path").to_pylist(), old.column("error_kind").to_pylist()
    marked = [kind if p == "2024-05/g001.sgf" else k for p, k in zip(paths, kinds, strict=True)]
    index = old.schema.get_field_index("error_kind")
    cache_mod.save(
        old.set_column(index, old.schema.field(index), pa.array(marked, pa.string())), tmp_path / "out"
    )
    again = ingest(tmp_path / "raw", tmp_path / "out")
    [row] = [g for g in again.games.to_pylist() if g["source_path"] == "2024-05/g001.sgf"]
    assert (again.parsed, row["error_kind"]) == (1, None)
