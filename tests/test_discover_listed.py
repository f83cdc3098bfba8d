"""discover_listed: the entries of discover, in its order, with the listing of exactly those entries,
whatever the names (the listing is sorted by Arrow, the entries by Python: both must agree)."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest

from pipeline.ingest.discover import discover, discover_listed
from pipeline.ingest.listing import listing_of

GAME = b"(;GM[1]PB[x]PW[y]RE[B+R]DT[2024-05-01];B[pd])"
#: Names whose order differs between a sort by folder and a sort by path ("a.sgf" < "a/b.sgf" <
#: "a0.sgf"), by bytes and by code points outside ASCII, with an escaped backslash and a name that is
#: not UTF-8.
NAMES = [b"a.sgf", b"a/b.sgf", b"a0.sgf", b"a/c/d.sgf", "é.sgf".encode(), "中/z.sgf".encode(),
         "z\U0001f600.sgf".encode(), b"back\\slash.sgf", b"bad\xff.sgf", b"Z.sgf", b"a-1.sgf"]  # fmt: skip


def _write(raw: Path, name: bytes, data: bytes = GAME) -> None:
    path = os.fsencode(raw) + b"/" + name
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    for name in NAMES:
        _write(tmp_path / "raw", name)
    os.mkfifo(tmp_path / "raw" / "a" / "pipe.sgf")  # a flagged entry: its listing row holds its error
    return tmp_path / "raw"


def test_entries_are_those_of_discover_in_its_order(raw: Path) -> None:
    files, _, _ = discover_listed(raw)
    assert files == discover(raw)


def test_listing_is_the_listing_of_the_entries_row_by_row(raw: Path) -> None:
    files, listing, _ = discover_listed(raw)
    assert listing.equals(listing_of(files))


def test_listing_holds_the_error_of_a_flagged_entry(raw: Path) -> None:
    files, listing, _ = discover_listed(raw)
    row = [f.rel for f in files].index("a/pipe.sgf")
    assert listing["error_kind"][row].as_py() == "not_a_file"


def test_with_an_archive_the_listing_follows_the_merged_entries(raw: Path) -> None:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as z:
        z.writestr("y.sgf", GAME)
        z.writestr("x.sgf", GAME)
    _write(raw, b"a/m.zip", packed.getvalue())
    files, listing, _ = discover_listed(raw)
    assert files == discover(raw)
    assert listing.equals(listing_of(files))
