"""shelf: the ingest cache on disk by month (parts, manifest, drops, compaction, strays)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from pipeline.core.periods import UNDATED, month_keys
from pipeline.ingest import IngestOptions, cache, ingest
from pipeline.ingest import shelf as shelf_mod
from pipeline.ingest.shelf import SHELF, Shelf

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> pa.Table:
    out = tmp_path_factory.mktemp("shelf")
    ingest(ROOT / "data" / "raw", out, IngestOptions(workers=1))
    found = cache.load(out)
    assert found is not None
    return found


def _sorted(table: pa.Table) -> pa.Table:
    return table.sort_by([("source_path", "ascending"), ("game_index", "ascending")])


@pytest.mark.slow
def test_rows_are_kept_by_month_of_their_date(rows: pa.Table, tmp_path: Path) -> None:
    shelf = Shelf.open(tmp_path, "v1")
    shelf.add(rows)
    shelf.save()
    months = sorted(set(month_keys(rows["date"]).to_pylist()))
    assert Shelf.open(tmp_path, "v1").months() == months and UNDATED in months
    may = Shelf.open(tmp_path, "v1").read(["2024-05"])
    assert set(pc.strftime(may["date"], format="%Y-%m").to_pylist()) == {"2024-05"}


def test_a_saved_shelf_reads_back_every_row(rows: pa.Table, tmp_path: Path) -> None:
    shelf = Shelf.open(tmp_path, "v1")
    shelf.add(rows)
    shelf.save()
    again = Shelf.open(tmp_path, "v1")
    assert _sorted(again.read(again.months())).equals(_sorted(rows))
    assert again.keys().num_rows == rows.num_rows


def test_rows_added_but_not_saved_are_not_on_the_shelf_and_their_parts_are_removed(
    rows: pa.Table, tmp_path: Path
) -> None:
    shelf = Shelf.open(tmp_path, "v1")
    shelf.add(rows)
    shelf.save()
    killed = Shelf.open(tmp_path, "v1")
    killed.add(rows.slice(0, 5))
    killed.flush()  # parts written, then a kill before the manifest
    parts = set((tmp_path / SHELF).glob("*/*.parquet"))
    again = Shelf.open(tmp_path, "v1")
    assert again.keys().num_rows == rows.num_rows
    again.save()
    assert set((tmp_path / SHELF).glob("*/*.parquet")) < parts


def test_drop_removes_the_rows_of_the_paths_given(rows: pa.Table, tmp_path: Path) -> None:
    shelf = Shelf.open(tmp_path, "v1")
    shelf.add(rows)
    shelf.save()
    gone = pa.array(sorted(set(rows["source_path"].to_pylist()))[:3])
    months = sorted(set(month_keys(rows.filter(pc.is_in(rows["source_path"], gone))["date"]).to_pylist()))
    shelf = Shelf.open(tmp_path, "v1")
    shelf.drop(gone, months)
    shelf.save()
    left = Shelf.open(tmp_path, "v1").keys()
    expected = rows.filter(pc.invert(pc.is_in(rows["source_path"], gone)))
    assert (left.num_rows, pc.any(pc.is_in(left["source_path"], gone)).as_py()) == (expected.num_rows, False)


def test_another_parser_version_finds_an_empty_shelf_and_its_save_removes_the_old_parts(
    rows: pa.Table, tmp_path: Path
) -> None:
    shelf = Shelf.open(tmp_path, "v1")
    shelf.add(rows)
    shelf.save()
    other = Shelf.open(tmp_path, "v2")
    assert other.months() == [] and other.keys().num_rows == 0
    other.save()
    assert list((tmp_path / SHELF).glob("*/*.parquet")) == []


@pytest.mark.slow
def test_a_month_of_many_parts_is_merged_into_one_at_the_save(
    rows: pa.Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shelf_mod, "FLUSH_ROWS", 1)  # a part for every row added
    shelf = Shelf.open(tmp_path, "v1")
    for i in range(rows.num_rows):
        shelf.add(rows.slice(i, 1))
    many = {m for m, names in shelf.parts.items() if len(names) > shelf_mod.COMPACT_PARTS}
    assert many
    shelf.save()
    assert {len(shelf.parts[m]) for m in many} == {1}
    assert _sorted(shelf.read(shelf.months())).equals(_sorted(rows))


@pytest.mark.slow
def test_a_run_over_the_very_files_of_the_last_one_reads_no_cached_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = ingest(ROOT / "data" / "raw", tmp_path, IngestOptions(workers=1))

    def refuse(self: Shelf) -> pa.Table:
        raise AssertionError("the cache's keys were read although no file changed")

    monkeypatch.setattr(Shelf, "keys", refuse)
    again = ingest(ROOT / "data" / "raw", tmp_path, IngestOptions(workers=1))
    assert (again.parsed, again.files, again.digest) == (0, first.files, first.digest)
    assert again.games.equals(first.games)


def test_a_part_unreadable_when_the_keys_are_read_empties_the_shelf(rows: pa.Table, tmp_path: Path) -> None:
    shelf = Shelf.open(tmp_path, "v1")
    shelf.add(rows)
    shelf.save()
    part = next((tmp_path / SHELF).glob("*/*.parquet"))
    data = bytearray(part.read_bytes())
    data[4:2000] = b"\xff" * 1996  # the pages, not the footer: opening still works
    part.write_bytes(bytes(data))
    again = Shelf.open(tmp_path, "v1")
    assert again.keys().num_rows == 0 and again.months() == []
