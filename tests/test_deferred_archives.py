"""Archives listed when their turn comes: discovery gives one deferred entry per archive never read, the
ingest lists it just before its members are parsed, and nothing of a run changes but the memory held."""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.ingest import IngestOptions, archives, discover, ingest
from pipeline.ingest.discover import DEFERRED, expand
from pipeline.ingest.pool import ordered_map

GAME = b"(;GM[1]PB[b%d]PW[w]RE[B+R]DT[2024-05-01];B[pd])"


def write_zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    folder = tmp_path / "raw"
    folder.mkdir()
    write_zip(folder / "2011-05.zip", {f"2011-05/{i}.sgf": GAME % i for i in range(5)})
    write_zip(folder / "2011-06.zip", {"a.sgf": GAME % 7, "a.sgf#": GAME % 8})
    (folder / "broken.zip").write_bytes(b"PK\x03\x04")
    (folder / "loose.sgf").write_bytes(GAME % 9)
    return folder


def test_archive_never_read_is_one_deferred_entry(raw: Path) -> None:
    entries = discover(raw, defer=True)
    assert [(e.rel, e.member is DEFERRED) for e in entries] == [
        ("2011-05.zip", True),
        ("2011-06.zip", True),
        ("broken.zip", True),
        ("loose.sgf", False),
    ]


def test_expanded_archives_equal_the_listing_discovery_gives_at_once(raw: Path) -> None:
    listed = [e for e in discover(raw, defer=True) for e in (expand(e) if e.member is DEFERRED else [e])]
    assert listed == discover(raw)


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses file names that are not UTF-8")
def test_expanded_archive_keeps_a_name_that_is_not_utf8_or_holds_a_backslash(raw: Path) -> None:
    write_zip(Path(os.fsdecode(bytes(raw) + b"/caf\xe9.zip")), {"g.sgf": GAME % 1})
    write_zip(raw / "back\\slash.zip", {"g\\h.sgf": GAME % 2})
    listed = [e for e in discover(raw, defer=True) for e in (expand(e) if e.member is DEFERRED else [e])]
    assert listed == discover(raw)


def test_ingest_of_deferred_archives_counts_every_member(raw: Path) -> None:
    result = ingest(raw, raw.parent / "out", IngestOptions(workers=1))
    assert (result.files, result.parsed, result.reused, result.games.num_rows) == (9, 9, 0, 9)


@pytest.mark.slow
def test_ingest_of_deferred_archives_equals_one_of_listed_archives(
    raw: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deferred = ingest(raw, raw.parent / "deferred", IngestOptions(workers=2)).games
    real = discover

    def listing_at_once(folder: Path, known: object = None, defer: bool = False) -> object:
        return real(folder, known)  # type: ignore[arg-type]

    monkeypatch.setattr("pipeline.ingest.discover", listing_at_once)
    assert deferred.equals(ingest(raw, raw.parent / "listed", IngestOptions(workers=2)).games)


def test_files_to_parse_grow_as_each_archive_is_listed(raw: Path) -> None:
    totals: list[int] = []
    ingest(raw, raw.parent / "out", IngestOptions(workers=1, on_start=totals.append))
    assert totals == [4, 8, 9, 9]


def test_second_ingest_opens_no_archive(raw: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ingest(raw, raw.parent / "out", IngestOptions(workers=1))
    (raw / "loose.sgf").write_bytes(GAME % 10)  # something changed: the cache is compared

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unchanged archive was opened")

    monkeypatch.setattr(archives, "listing", refuse)
    again = ingest(raw, raw.parent / "out", IngestOptions(workers=1))
    assert (again.files, again.parsed) == (9, 1)


def _counted(taken: list[int]) -> Iterator[int]:
    for i in itertools.count():
        taken.append(i)
        yield i


def test_ordered_map_reads_its_items_only_as_the_workers_need_them() -> None:
    taken: list[int] = []
    with contextlib.closing(ordered_map(abs, _counted(taken), 1)) as results:
        first = [next(results) for _ in range(3)]
    assert (first, len(taken) <= 3 + 1 + 4) == ([0, 1, 2], True)


def test_ordered_map_of_a_generator_gives_every_result_in_order() -> None:
    assert list(ordered_map(abs, (-i for i in range(40)), 2)) == list(range(40))
