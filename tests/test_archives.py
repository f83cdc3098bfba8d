"""archives: members of .zip and .tar(.gz/.bz2/.xz) archives are read in place, each accounted for like a
file; damaged archives give rows saying so; an unchanged archive is not opened again."""

from __future__ import annotations

import io
import lzma
import os
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline.ingest import IngestOptions, archives, discover, ingest, sources
from pipeline.ingest import cache as cache_mod
from pipeline.ingest.discover import is_unlisted

GAME = "(;GM[1]PB[{b}]PW[w]RE[B+R]DT[2024-05-01];B[pd];W[dd])"


def game(black: str) -> bytes:
    return GAME.format(b=black).encode()


def write_zip(path: Path, members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def tar_info(name: str, size: int = 0, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.type, info.linkname = size, kind, link
    return info


def write_tar(path: Path, members: dict[str, bytes], mode: str = "w:gz", extra=()) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, mode) as archive:
        for name, data in members.items():
            archive.addfile(tar_info(name, len(data)), io.BytesIO(data))
        for info in extra:
            archive.addfile(info)
    return path


def rows(raw: Path, out: Path, workers: int = 1) -> dict[str, dict[str, Any]]:
    """source_path -> row (of the first game) of an ingest of ``raw``."""
    games = ingest(raw, out, IngestOptions(workers=workers)).games.to_pylist()
    return {g["source_path"]: g for g in reversed(games)}


def outcome(row: dict[str, Any]) -> tuple[Any, Any]:
    return row["error_kind"], row["parse_error"]


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    (tmp_path / "raw").mkdir()
    return tmp_path / "raw"


def test_zip_members_are_rows_named_by_archive_and_member(raw: Path) -> None:
    write_zip(raw / "2011-05.zip", {"2011-05/123.sgf": game("a"), "2011-05/124.sgf": game("b")})
    found = rows(raw, raw.parent / "out")
    assert {p: r["black"] for p, r in found.items()} == {
        "2011-05.zip!2011-05/123.sgf": "a",
        "2011-05.zip!2011-05/124.sgf": "b",
    }


@pytest.mark.parametrize(
    ("name", "mode"),
    [
        ("a.tar", "w"),
        ("a.tar.gz", "w:gz"),
        ("a.tgz", "w:gz"),
        ("a.tar.bz2", "w:bz2"),
        ("a.tbz2", "w:bz2"),
        ("a.tar.xz", "w:xz"),
        ("a.txz", "w:xz"),
    ],
)
def test_tar_members_are_read_whatever_the_compression(raw: Path, name: str, mode: str) -> None:
    write_tar(raw / name, {"x/1.sgf": game("one"), "x/2.sgf": game("two")}, mode)
    found = rows(raw, raw.parent / "out")
    assert {p: r["black"] for p, r in found.items()} == {f"{name}!x/1.sgf": "one", f"{name}!x/2.sgf": "two"}


@pytest.mark.parametrize("name", ["records", "records.dat", "records.sgfs"])
def test_archive_is_recognised_by_its_content_not_only_its_name(raw: Path, name: str) -> None:
    write_zip(raw / name, {"g.sgf": game("a")})
    assert rows(raw, raw.parent / "out")[f"{name}!g.sgf"]["black"] == "a"


def test_folders_inside_an_archive_give_no_row(raw: Path) -> None:
    write_zip(raw / "a.zip", {"d/": b"", "d/g.sgf": game("a")})
    write_tar(raw / "b.tgz", {"g.sgf": game("b")}, extra=[tar_info("d", kind=tarfile.DIRTYPE)])
    assert sorted(rows(raw, raw.parent / "out")) == ["a.zip!d/g.sgf", "b.tgz!g.sgf"]


def test_empty_archive_gives_a_row_saying_so(raw: Path) -> None:
    write_zip(raw / "a.zip", {})
    assert outcome(rows(raw, raw.parent / "out")["a.zip"]) == ("empty", "empty archive: it holds no file")


@pytest.mark.parametrize(
    ("info", "message"),
    [
        (tar_info("s.sgf", kind=tarfile.SYMTYPE, link="g.sgf"), "not a file: symbolic link -> g.sgf"),
        (
            tar_info("h.sgf", kind=tarfile.LNKTYPE, link="g.sgf"),
            "not a file: hard link to g.sgf (read under that name)",
        ),
        (tar_info("dev", kind=tarfile.CHRTYPE), "not a file: character device inside the archive"),
        (tar_info("fifo", kind=tarfile.FIFOTYPE), "not a file: named pipe (FIFO) inside the archive"),
    ],
)
def test_link_or_device_inside_a_tar_gives_a_row_saying_so(
    raw: Path, info: tarfile.TarInfo, message: str
) -> None:
    write_tar(raw / "a.tgz", {"g.sgf": game("a")}, extra=[info])
    found = rows(raw, raw.parent / "out")
    assert (outcome(found[f"a.tgz!{info.name}"]), found["a.tgz!g.sgf"]["black"]) == (
        ("not_a_file", message),
        "a",
    )


def test_symbolic_link_inside_a_zip_gives_a_row_saying_so(raw: Path) -> None:
    info = zipfile.ZipInfo("s.sgf")
    info.external_attr = 0o120777 << 16
    with zipfile.ZipFile(raw / "a.zip", "w") as archive:
        archive.writestr(info, "g.sgf")
    found = rows(raw, raw.parent / "out")
    assert outcome(found["a.zip!s.sgf"]) == ("not_a_file", "not a file: symbolic link inside the archive")


def test_zip_member_name_that_is_not_utf8_is_escaped_like_a_file_name(raw: Path) -> None:
    name = "棋谱.sgf".encode("gbk")
    path = write_zip(raw / "a.zip", {"XXXX.sgf": game("a")})
    path.write_bytes(path.read_bytes().replace(b"XXXX.sgf", name))  # no UTF-8 flag: these bytes, as written
    row = rows(raw, raw.parent / "out")["a.zip!\\xc6\\xe5\\xc6\\xd7.sgf"]
    assert (row["source_path_bytes"], row["black"]) == (b"a.zip!" + name, "a")


def test_tar_member_name_that_is_not_utf8_is_escaped_like_a_file_name(raw: Path) -> None:
    write_tar(raw / "a.tgz", {b"caf\xe9.sgf".decode("utf-8", "surrogateescape"): game("a")})
    row = rows(raw, raw.parent / "out")["a.tgz!caf\\xe9.sgf"]
    assert (row["source_path_bytes"], row["black"]) == (b"a.tgz!caf\xe9.sgf", "a")


def test_member_of_an_archive_whose_name_is_not_utf8_carries_the_whole_name_bytes(raw: Path) -> None:
    path = os.fsencode(raw) + b"/\xff.zip"
    write_zip(Path(os.fsdecode(path)), {"g.sgf": game("a")})
    assert rows(raw, raw.parent / "out")["\\xff.zip!g.sgf"]["source_path_bytes"] == b"\xff.zip!g.sgf"


def test_two_members_of_one_name_are_both_read(raw: Path) -> None:
    path = write_tar(raw / "a.tar", {"g.sgf": game("old")}, "w")
    with tarfile.open(path, "a") as archive:
        data = game("new")
        archive.addfile(tar_info("g.sgf", len(data)), io.BytesIO(data))
    found = rows(raw, raw.parent / "out")
    assert (found["a.tar!g.sgf"]["black"], found["a.tar!g.sgf#2"]["black"]) == ("old", "new")


def test_one_record_per_line_text_member_gives_a_row_per_line(raw: Path) -> None:
    lines = b"\n".join(game(f"p{i}") for i in range(3)) + b"\n"
    write_tar(raw / "fox.tar.gz", {"fox.txt": lines})
    games = ingest(raw, raw.parent / "out", IngestOptions(workers=1)).games
    assert games.select(["game_index", "black"]).to_pylist() == [
        {"game_index": i, "black": f"p{i}"} for i in range(3)
    ]


def test_truncated_zip_gives_a_bad_archive_row(raw: Path) -> None:
    path = write_zip(raw / "a.zip", {"g.sgf": game("a") * 50})
    path.write_bytes(path.read_bytes()[:-40])
    assert rows(raw, raw.parent / "out")["a.zip"]["error_kind"] == "bad_archive"


def test_damaged_tar_gz_keeps_the_members_before_the_damage(raw: Path) -> None:
    members = {f"{i}.sgf": os.urandom(3000).hex().encode() for i in range(20)}
    path = write_tar(raw / "a.tgz", {"first.sgf": game("a"), **members})
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    found = rows(raw, raw.parent / "out")
    assert (found["a.tgz!first.sgf"]["black"], found["a.tgz"]["error_kind"]) == ("a", "bad_archive")


def test_member_cut_short_by_a_truncated_tar_gives_an_unreadable_row(raw: Path) -> None:
    path = write_tar(raw / "a.tar", {"g.sgf": game("a"), "h.sgf": game("b") * 40}, "w")
    path.write_bytes(path.read_bytes()[:2048])  # the second member's header, half of its data
    found = rows(raw, raw.parent / "out")
    assert (
        found["a.tar!g.sgf"]["black"],
        found["a.tar!h.sgf"]["error_kind"],
        found["a.tar"]["error_kind"],
    ) == (
        "a",
        "unreadable",
        "bad_archive",
    )


def test_file_with_an_archive_suffix_that_is_no_archive_gives_a_bad_archive_row(raw: Path) -> None:
    (raw / "a.tar.gz").write_bytes(game("a"))
    assert outcome(rows(raw, raw.parent / "out")["a.tar.gz"]) == (
        "bad_archive",
        "bad archive: neither a zip nor a tar archive (damaged or truncated?)",
    )


def test_zip_bomb_is_not_read(raw: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archives, "EXPANSION_FLOOR", 0)
    write_zip(raw / "a.zip", {"g.sgf": game("a"), "zeros.sgf": bytes(10**6)})
    [entry] = discover(raw)
    assert (entry.rel, entry.error_kind, "zip bomb" in (entry.error or "")) == ("a.zip", "bad_archive", True)


def test_member_over_the_size_limit_gives_a_row(raw: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archives, "MEMBER_LIMIT", 1000)
    write_tar(raw / "a.tgz", {"big.sgf": game("a") * 100, "g.sgf": game("b")})
    found = rows(raw, raw.parent / "out")
    assert (found["a.tgz!big.sgf"]["error_kind"], found["a.tgz!g.sgf"]["black"]) == ("unreadable", "b")


def patch_zip(path: Path, at_local: int, at_central: int, value: bytes) -> None:
    """Overwrite a field of every local and central header of the zip at ``path``."""
    data = bytearray(path.read_bytes())
    for signature, at in ((b"PK\x03\x04", at_local), (b"PK\x01\x02", at_central)):
        start = data.find(signature)
        while start >= 0:
            data[start + at : start + at + len(value)] = value
            start = data.find(signature, start + 1)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("local", "central", "value", "message"),
    [
        (6, 8, b"\x01\x00", "unreadable: password-protected member"),
        (8, 10, b"\x09\x00", "unreadable: compression method 9 is not supported"),
    ],
)
def test_zip_member_that_cannot_be_read_gives_a_row(
    raw: Path, local: int, central: int, value: bytes, message: str
) -> None:
    patch_zip(write_zip(raw / "a.zip", {"g.sgf": game("a")}), local, central, value)
    assert outcome(rows(raw, raw.parent / "out")["a.zip!g.sgf"]) == ("unreadable", message)


def test_member_whose_data_is_damaged_gives_an_unreadable_row(raw: Path) -> None:
    path = write_zip(raw / "a.zip", {"g.sgf": game("a"), "h.sgf": game("b")}, zipfile.ZIP_STORED)
    data = path.read_bytes()
    at = data.index(b"PB[a]") + 3
    path.write_bytes(data[:at] + b"z" + data[at + 1 :])  # same size, wrong CRC
    found = rows(raw, raw.parent / "out")
    assert (found["a.zip!g.sgf"]["error_kind"], found["a.zip!h.sgf"]["black"]) == ("unreadable", "b")
    assert "CRC" in found["a.zip!g.sgf"]["parse_error"]


def test_archive_inside_an_archive_is_not_opened(raw: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("g.sgf", game("a"))
    write_zip(raw / "a.zip", {"inner.zip": inner.getvalue()})
    error_kind, message = outcome(rows(raw, raw.parent / "out")["a.zip!inner.zip"])
    assert (error_kind, "not opened" in message) == ("unreadable", True)


def test_members_come_in_the_archives_order_where_it_sorts(raw: Path) -> None:
    write_tar(raw / "b.tgz", {"z.sgf": game("z"), "a.sgf": game("a")})
    (raw / "a.sgf").write_bytes(game("loose"))
    (raw / "c.sgf").write_bytes(game("loose"))
    assert [e.rel for e in discover(raw)] == ["a.sgf", "b.tgz!z.sgf", "b.tgz!a.sgf", "c.sgf"]


def test_archive_removed_after_discovery_gives_unreadable_members(raw: Path) -> None:
    write_zip(raw / "gone.zip", {"g.sgf": game("a"), "h.sgf": game("b")})
    batch = discover(raw)
    (raw / "gone.zip").unlink()
    assert [isinstance(data, OSError) for _, data in sources.contents(batch)] == [True, True]


class CountingReader(archives.Reader):
    opened = 0

    def __init__(self, path: str, fmt: str) -> None:
        CountingReader.opened += 1
        super().__init__(path, fmt)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> type[CountingReader]:
    CountingReader.opened = 0
    monkeypatch.setattr(archives, "Reader", CountingReader)
    return CountingReader


def read_all(batches: list[list[Any]]) -> Iterator[tuple[str, bytes | OSError]]:
    for batch in batches:
        for entry, data in sources.contents(batch):
            yield entry.rel, data


def test_members_of_one_archive_are_read_through_one_open_across_batches(
    raw: Path, counting: type[CountingReader]
) -> None:
    write_zip(raw / "a.zip", {f"{i}.sgf": game(str(i)) for i in range(10)})
    entries = discover(raw)
    got = dict(read_all([entries[:4], entries[4:]]))
    assert (counting.opened, got["a.zip!7.sgf"]) == (1, game("7"))


def test_compressed_tar_is_read_in_one_forward_pass_across_batches(
    raw: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tar(raw / "a.tar.xz", {f"{i}.sgf": game(str(i)) for i in range(10)}, "w:xz")
    entries, seeks = discover(raw), []

    class Watched(lzma.LZMAFile):
        def seek(self, offset: int, whence: int = 0) -> int:
            seeks.append((id(self), offset))
            return super().seek(offset, whence)

    monkeypatch.setattr(lzma, "LZMAFile", Watched)
    got = dict(read_all([entries[i : i + 3] for i in range(0, 10, 3)]))
    offsets = [offset for _, offset in seeks]
    assert (len({s for s, _ in seeks}), offsets == sorted(offsets), got["a.tar.xz!9.sgf"]) == (
        1,
        True,
        game("9"),
    )


def test_members_are_given_in_the_batchs_order_whatever_the_archives(raw: Path) -> None:
    write_tar(raw / "a.tgz", {f"{i}.sgf": game(str(i)) for i in range(5)})
    batch = list(reversed(discover(raw)))
    assert [(rel, data) for rel, data in read_all([batch])] == [
        (f"a.tgz!{i}.sgf", game(str(i))) for i in reversed(range(5))
    ]


@pytest.mark.slow
def test_worker_count_does_not_change_the_output_of_archives(raw: Path) -> None:
    for month in range(3):
        write_zip(raw / f"2011-0{month + 1}.zip", {f"m/{i}.sgf": game(f"{month}.{i}") for i in range(150)})
    write_tar(raw / "b.tgz", {f"{i}.sgf": game(str(i)) for i in range(300)})
    one = ingest(raw, raw.parent / "o1", IngestOptions(workers=1)).games
    two = ingest(raw, raw.parent / "o2", IngestOptions(workers=2)).games
    assert (one.equals(two), one.num_rows) == (True, 750)


def populate(raw: Path) -> None:
    write_zip(raw / "2011-05.zip", {f"2011-05/{i}.sgf": game(str(i)) for i in range(4)})
    write_tar(raw / "2011-06.tar.bz2", {f"{i}.sgf": game(str(i)) for i in range(3)}, "w:bz2")
    write_zip(raw / "broken.zip", {"g.sgf": game("a")}).write_bytes(b"PK\x03\x04")
    (raw / "loose.sgf").write_bytes(game("loose"))


def test_unchanged_archive_is_not_opened_again(raw: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    populate(raw)
    first = discover(raw)
    ingest(raw, raw.parent / "out", IngestOptions(workers=1))
    previous = cache_mod.load(raw.parent / "out")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unchanged archive was opened")

    monkeypatch.setattr(archives, "listing", refuse)
    again = discover(raw, cache_mod.known(previous))
    assert previous is not None
    reuse = cache_mod.reusable(previous, again)
    assert [e.rel for e in again] == ["2011-05.zip", "2011-06.tar.bz2", "broken.zip", "loose.sgf"]
    assert [is_unlisted(e.member) for e in again] == [True, True, True, False]
    assert (reuse.todo, reuse.members + 1, all(reuse.keep.to_pylist())) == ([], len(first), True)


def test_changed_archive_is_listed_and_read_again(raw: Path) -> None:
    populate(raw)
    ingest(raw, raw.parent / "out", IngestOptions(workers=1))
    write_zip(raw / "2011-05.zip", {f"2011-05/{i}.sgf": game(f"new{i}") for i in range(5)})
    previous = cache_mod.load(raw.parent / "out")
    entries = discover(raw, cache_mod.known(previous))
    assert previous is not None
    assert sorted(e.rel for e in cache_mod.reusable(previous, entries).todo) == [
        f"2011-05.zip!2011-05/{i}.sgf" for i in range(5)
    ]


def test_incremental_run_over_archives_equals_a_run_from_scratch(raw: Path) -> None:
    populate(raw)
    ingest(raw, raw.parent / "out", IngestOptions(workers=1))
    write_tar(raw / "2011-06.tar.bz2", {"0.sgf": game("changed"), "9.sgf": game("9")}, "w:bz2")
    write_zip(raw / "2011-07.zip", {"g.sgf": game("new")})
    (raw / "broken.zip").unlink()
    incremental = ingest(raw, raw.parent / "out", IngestOptions(workers=1))
    scratch = ingest(raw, raw.parent / "fresh", IngestOptions(workers=1))
    assert (incremental.parsed, incremental.games.equals(scratch.games)) == (3, True)


@pytest.mark.parametrize("defer", [False, True])
def test_archive_with_a_member_that_timed_out_is_listed_again(raw: Path, defer: bool) -> None:
    populate(raw)
    ingest(raw, raw.parent / "out", IngestOptions(workers=1))
    previous = cache_mod.load(raw.parent / "out")
    assert previous is not None
    kinds = [
        "timeout" if p == "2011-05.zip!2011-05/2.sgf" else k
        for p, k in zip(previous["source_path"].to_pylist(), previous["error_kind"].to_pylist(), strict=True)
    ]
    previous = previous.set_column(previous.schema.get_field_index("error_kind"), "error_kind", [kinds])
    entries = discover(raw, cache_mod.known(previous), defer=defer)  # listed at once, deferred or not
    todo = cache_mod.reusable(previous, entries).todo
    assert [(e.rel, e.member.offset >= 0) for e in todo if e.member] == [("2011-05.zip!2011-05/2.sgf", True)]
