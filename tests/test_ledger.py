"""The ledger (pipeline/ingest/ledger.py): after a complete run the shelf keeps its listing, and the next
run finds what changed from it, reading no cached row, with the table of a run from scratch."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline.ingest import IngestOptions, cache, ingest
from pipeline.ingest.shelf import Shelf

GAME = b"(;GM[1]PB[b%d]PW[w]RE[B+R]DT[2024-05-%02d];B[pd])"


def write_zip(path: Path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    folder = tmp_path / "raw"
    folder.mkdir()
    write_zip(folder / "2024-05.zip", {f"{i}.sgf": GAME % (i, i + 1) for i in range(4)})
    write_zip(folder / "2024-06.zip", {"a.sgf": GAME % (7, 7)})
    (folder / "loose.sgf").write_bytes(GAME % (9, 9))
    (folder / "other.sgf").write_bytes(GAME % (10, 10))
    return folder


def _ingest(raw: Path, out: Path) -> tuple[int, int, pa.Table]:
    result = ingest(raw, out, IngestOptions(workers=1))
    return result.files, result.parsed, result.games


KEYS = Shelf.keys


def _refuse(self: Shelf) -> pa.Table:
    if self.parts:  # (a shelf without rows has no key to read: a run from scratch)
        raise AssertionError("a cached key was read")
    return KEYS(self)


@pytest.fixture
def ingested(raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``raw`` ingested once into ``tmp_path/out``; from then on, reading a cached key fails the test."""
    ingest(raw, tmp_path / "out", IngestOptions(workers=1))
    monkeypatch.setattr(Shelf, "keys", _refuse)
    return raw


def _scratch(raw: Path, tmp_path: Path) -> pa.Table:
    return ingest(raw, tmp_path / "scratch", IngestOptions(workers=1)).games


def test_complete_run_leaves_a_ledger_of_its_entries(raw: Path, tmp_path: Path) -> None:
    _ingest(raw, tmp_path / "out")
    ledger = Shelf.open(tmp_path / "out", cache.parser_version()).ledger()
    assert ledger is not None
    rows = zip(*(ledger[c].to_pylist() for c in ("rel", "archive", "members")), strict=True)
    assert sorted(rows) == [("2024-05.zip", True, 4), ("2024-06.zip", True, 1), ("loose.sgf", False, 1),
                            ("other.sgf", False, 1)]  # fmt: skip


def test_new_file_is_found_through_the_ledger(ingested: Path, tmp_path: Path) -> None:
    raw = ingested
    (raw / "new.sgf").write_bytes(GAME % (11, 11))
    files, parsed, games = _ingest(raw, tmp_path / "out")
    assert (files, parsed) == (8, 1)
    assert games.equals(_scratch(raw, tmp_path))


def test_changed_archive_is_read_again_through_the_ledger(ingested: Path, tmp_path: Path) -> None:
    raw = ingested
    write_zip(raw / "2024-05.zip", {f"{i}.sgf": GAME % (20 + i, i + 1) for i in range(2)})
    files, parsed, games = _ingest(raw, tmp_path / "out")
    assert (files, parsed) == (5, 2)
    assert games.equals(_scratch(raw, tmp_path))


def test_removed_file_and_archive_lose_their_rows_through_the_ledger(ingested: Path, tmp_path: Path) -> None:
    raw = ingested
    (raw / "loose.sgf").unlink()
    (raw / "2024-06.zip").unlink()
    files, parsed, games = _ingest(raw, tmp_path / "out")
    assert (files, parsed) == (5, 0)
    assert games.equals(_scratch(raw, tmp_path))


def test_run_with_rows_to_read_again_leaves_no_ledger(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def loose_timed_out(table: pa.Table) -> pa.ChunkedArray:
        flagged = [p == "loose.sgf" for p in table["source_path"].to_pylist()]
        return pa.chunked_array([pa.array(flagged, pa.bool_())])

    monkeypatch.setattr(cache, "retried", loose_timed_out)
    ingest(raw, tmp_path / "out", IngestOptions(workers=1))
    assert Shelf.open(tmp_path / "out", cache.parser_version()).ledger() is None


def test_replaced_ledger_file_is_removed(raw: Path, tmp_path: Path) -> None:
    ingest(raw, tmp_path / "out", IngestOptions(workers=1))
    (raw / "new.sgf").write_bytes(GAME % (11, 11))
    ingest(raw, tmp_path / "out", IngestOptions(workers=1))
    assert len(list((tmp_path / "out" / ".cache" / "ingest").glob("ledger-*.parquet"))) == 1
