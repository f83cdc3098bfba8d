"""A batch's files are read with plain system calls and its table built by columns (issue 11, item 3).

- :func:`pipeline.ingest.sources.read_file` reads a file to its end whatever the size it was listed
  with (it asks for that size and one byte more first).
- :func:`pipeline.ingest.workers.batch_columns` repeats each file's key columns for its rows and takes
  a row's values at once; a row that lacks columns gets None in them.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.core.schema import CACHE
from pipeline.ingest import sources, workers
from pipeline.ingest.discover import FileEntry
from pipeline.ingest.record import error_row


def test_a_file_that_grew_since_it_was_listed_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.sgf"
    path.write_bytes(b"(;GM[1]" + b"x" * 3_000_000 + b")")
    assert sources.read_file(str(path), 10) == path.read_bytes()


def test_a_file_that_shrank_since_it_was_listed_is_read_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "a.sgf"
    path.write_bytes(b"(;GM[1])")
    assert sources.read_file(str(path), 1000) == b"(;GM[1])"


def entry(rel: str, size: int) -> FileEntry:
    return FileEntry(path=rel, rel=rel, size=size, mtime_ns=size * 10, inode=size * 100, ctime_ns=size * 1000)


def test_each_row_carries_its_files_key_columns() -> None:
    batch = [entry("a.sgf", 1), entry("b.sgf", 2)]
    files = [[error_row("a.sgf", "empty", "empty file")], [error_row("b.sgf", "empty", "x")] * 2]
    columns = workers.batch_columns(batch, files)
    assert list(columns) == CACHE.names
    assert columns["file_size"] == [1, 2, 2] and columns["file_inode"] == [100, 200, 200]
    assert columns["source_path"] == ["a.sgf", "b.sgf", "b.sgf"]


def test_a_row_without_some_columns_gets_none_in_them() -> None:
    row = error_row("a.sgf", "empty", "empty file")
    columns = workers.batch_columns([entry("a.sgf", 1)], [[row]])
    assert columns["error_kind"] == ["empty"] and columns["black"] == [None] and columns["moves"] == [None]


def test_a_row_of_as_many_columns_but_other_ones_gets_none_in_those_it_lacks() -> None:
    names = [name for name in CACHE.names if not name.startswith("file_") and name != "source_path_bytes"]
    odd = dict.fromkeys(names[1:], "v") | {"not_a_column": 1}  # as many as a full row, not the same
    columns = workers.batch_columns([entry("a.sgf", 1)], [[odd]])
    assert columns[names[0]] == [None] and columns[names[1]] == ["v"] and "not_a_column" not in columns
