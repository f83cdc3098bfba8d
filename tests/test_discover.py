"""discover: every entry under the raw folder is accounted for; odd names, folders, links and special files
never crash the run, hang it or vanish."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.ingest import FileEntry, IngestError, IngestOptions, discover, ingest

GAME = b"(;GM[1]PB[x]PW[y]RE[B+R]DT[2024-05-01];B[pd])"
KEPT = "nothing to rate; the previous output is kept"


@pytest.fixture
def raw(write) -> Path:
    """A raw folder holding one ordinary record, a.sgf."""
    return write("a.sgf", GAME).parent


def by_rel(raw: Path) -> dict[str, FileEntry]:
    return {e.rel: e for e in discover(raw)}


def rows(raw: Path, out: Path) -> dict[str, dict[str, Any]]:
    games = ingest(raw, out, IngestOptions(workers=1)).games.to_pylist()
    return {g["source_path"]: g for g in games}


def write_bytes_name(raw: Path, name: bytes, data: bytes = GAME) -> None:
    path = os.fsencode(raw) + b"/" + name
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        (b"caf\xe9.sgf", "caf\\xe9.sgf"),
        ("棋谱.sgf".encode("gbk"), "\\xc6\\xe5\\xc6\\xd7.sgf"),
        (b"\xff.sgf", "\\xff.sgf"),
    ],
)
def test_name_that_is_not_utf8_is_read_under_a_readable_name(raw: Path, name: bytes, shown: str) -> None:
    write_bytes_name(raw, name)
    row = rows(raw, raw.parent / "out")[shown]
    assert (row["source_path_bytes"], row["black"], row["parse_error"]) == (name, "x", None)


def test_literal_backslash_in_a_name_does_not_collide_with_an_escaped_byte(raw: Path) -> None:
    write_bytes_name(raw, b"caf\\xe9.sgf")
    write_bytes_name(raw, b"caf\xe9.sgf")
    found = by_rel(raw)
    assert {k: found[k].name_bytes for k in found} == {
        "a.sgf": None,
        "caf\\\\xe9.sgf": None,
        "caf\\xe9.sgf": b"caf\xe9.sgf",
    }


def test_folder_name_that_is_not_utf8_gives_the_whole_relative_path_bytes(raw: Path) -> None:
    write_bytes_name(raw, b"\xff/g.sgf")
    assert by_rel(raw)["\\xff/g.sgf"].name_bytes == b"\xff/g.sgf"


def test_folder_that_cannot_be_listed_gives_a_row_naming_it(
    write, raw: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("locked/b.sgf", GAME)
    locked, real_scandir, real_stat = (raw / "locked").stat().st_ino, os.scandir, os.stat

    def scandir(path: Any) -> Any:
        if real_stat(path).st_ino == locked:
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    entry = by_rel(raw)["locked/"]
    assert (entry.error_kind, entry.error) == ("unreadable", "unreadable: folder locked/: Permission denied")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a folder of mode 000: the test above simulates it")
def test_folder_without_permission_gives_a_row(write, raw: Path) -> None:
    write("locked/b.sgf", GAME)
    (raw / "locked").chmod(0)
    try:
        assert set(by_rel(raw)) == {"a.sgf", "locked/"}
    finally:
        (raw / "locked").chmod(0o755)


def test_entry_whose_stat_fails_gives_a_row(write, raw: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write("b.sgf", GAME)
    real_stat = os.stat

    def failing(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if isinstance(path, str | bytes) and os.fsdecode(path).endswith("b.sgf"):
            raise PermissionError(13, "Permission denied")
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", failing)
    entry = by_rel(raw)["b.sgf"]
    assert (entry.error_kind, entry.error) == ("unreadable", "unreadable: cannot stat: Permission denied")


def make_deep(raw: Path, names: list[str]) -> None:
    """Folders ``names`` nested under ``raw`` (made by descriptor: the whole path may exceed PATH_MAX),
    with a record g.sgf at the bottom."""
    fd = os.open(raw, os.O_RDONLY)
    for name in names:
        os.mkdir(name, dir_fd=fd)
        fd, old = os.open(name, os.O_RDONLY, dir_fd=fd), fd
        os.close(old)
    with open(os.open("g.sgf", os.O_WRONLY | os.O_CREAT, dir_fd=fd), "wb") as f:  # open() closes the new file
        f.write(GAME)
    os.close(fd)


def test_path_longer_than_path_max_gives_a_row(raw: Path) -> None:
    make_deep(raw, ["d" * 250] * 17)
    [deep] = [e for e in discover(raw) if e.rel.endswith("/g.sgf")]
    assert (deep.error_kind, deep.error.split(" (")[0]) == ("unreadable", "unreadable: path too long to open")


@pytest.fixture
def deeper_than_recursion(raw: Path) -> Iterator[list[str]]:
    """Folders nested deeper than the recursion limit (removed from the bottom: rmtree recurses)."""
    names = ["d"] * (sys.getrecursionlimit() + 50)
    make_deep(raw, names)
    yield names
    os.remove(raw.joinpath(*names, "g.sgf"))
    for depth in range(len(names), 0, -1):
        os.rmdir(raw.joinpath(*names[:depth]))


@pytest.mark.slow
def test_folders_deeper_than_the_recursion_limit_are_read(
    raw: Path, deeper_than_recursion: list[str]
) -> None:
    entry = by_rel(raw)["/".join([*deeper_than_recursion, "g.sgf"])]
    assert (entry.error_kind, entry.size) == (None, len(GAME))


def test_link_to_a_folder_outside_raw_is_followed(raw: Path) -> None:
    outside = raw.parent / "elsewhere"
    outside.mkdir()
    (outside / "g.sgf").write_bytes(GAME)
    (raw / "linked").symlink_to(outside)
    assert by_rel(raw)["linked/g.sgf"].error_kind is None


def test_link_to_a_file_is_read_with_the_target_s_size(raw: Path) -> None:
    (raw.parent / "outside.sgf").write_bytes(GAME * 2)
    (raw / "l.sgf").symlink_to("../outside.sgf")
    assert by_rel(raw)["l.sgf"].size == 2 * len(GAME)


def test_file_reached_through_two_paths_is_read_under_both(write, raw: Path) -> None:
    write("a/g.sgf", GAME)
    (raw / "b").symlink_to("a")
    assert {"a/g.sgf", "b/g.sgf"} <= set(rows(raw, raw.parent / "out"))


@pytest.mark.parametrize(
    ("link", "target", "rel", "says"),
    [
        ("sub/up", "..", "sub/up/", "symbolic link loop: -> .. leads back to the raw folder"),
        ("self", "self", "self", "symbolic link loop: -> self"),
    ],
)
def test_symbolic_link_loop_gives_a_row(
    write, raw: Path, link: str, target: str, rel: str, says: str
) -> None:
    write("sub/b.sgf", GAME)
    (raw / link).symlink_to(target)
    entry = by_rel(raw)[rel]
    assert entry.error_kind == "link_loop"
    assert entry.error is not None and entry.error.startswith(says)


def test_folder_named_like_a_record_is_read_as_a_folder(write, raw: Path) -> None:
    write("2024.sgf/a.sgf", GAME)
    assert set(by_rel(raw)) == {"a.sgf", "2024.sgf/a.sgf"}


def test_dangling_link_gives_a_row_naming_its_target(raw: Path) -> None:
    (raw / "gone.sgf").symlink_to("missing.sgf")
    entry = by_rel(raw)["gone.sgf"]
    assert (entry.error_kind, entry.error) == ("unreadable", "dangling symbolic link -> missing.sgf")


def test_retargeted_dangling_link_shows_its_new_target_on_the_next_run(raw: Path) -> None:
    (raw / "gone.sgf").symlink_to("missing.sgf")
    rows(raw, raw.parent / "out")
    (raw / "gone.sgf").unlink()
    (raw / "gone.sgf").symlink_to("elsewhere.sgf")
    row = rows(raw, raw.parent / "out")["gone.sgf"]
    assert row["parse_error"] == "dangling symbolic link -> elsewhere.sgf"


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_socket(path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(path.name)  # relative (the caller is in its folder): AF_UNIX paths are short


def make_device_link(path: Path) -> None:
    path.symlink_to(os.devnull)


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (make_fifo, "named pipe (FIFO)"),
        (make_socket, "socket"),
        (make_device_link, "character device"),
    ],
)
def test_special_file_gives_a_row_and_is_never_opened(
    raw: Path, monkeypatch: pytest.MonkeyPatch, make: Any, what: str
) -> None:
    monkeypatch.chdir(raw)
    make(raw / "special.sgf")
    row = rows(raw, raw.parent / "out")["special.sgf"]
    assert (row["error_kind"], row["parse_error"]) == ("not_a_file", f"not a file: {what}")


def test_empty_raw_folder_raises_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "raw").mkdir()
    with pytest.raises(IngestError, match=f"^raw folder {tmp_path}/raw holds no files: {KEPT}$"):
        discover(tmp_path / "raw")


def test_raw_folder_holding_only_empty_folders_raises(tmp_path: Path) -> None:
    (tmp_path / "raw" / "a" / "b").mkdir(parents=True)
    with pytest.raises(IngestError, match="holds no files"):
        discover(tmp_path / "raw")


def test_missing_raw_folder_raises_saying_the_output_is_kept(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match=f"^raw folder not found: {tmp_path}/nope: {KEPT}$"):
        discover(tmp_path / "nope")


@pytest.mark.slow
def test_run_on_an_emptied_raw_folder_exits_2_and_keeps_the_previous_output(
    raw: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(raw.parent)  # no config/ratings.toml here: the defaults apply
    args = ["run", "--raw", str(raw), "--out", str(raw.parent / "out")]
    assert CliRunner().invoke(app, args).exit_code == 0
    before = (raw.parent / "out" / "games.parquet").read_bytes()
    (raw / "a.sgf").unlink()
    assert CliRunner().invoke(app, args).exit_code == 2
    assert (raw.parent / "out" / "games.parquet").read_bytes() == before


def test_key_changes_with_inode_and_change_time() -> None:
    keys = {FileEntry("p", "r", 1, 2, inode=i, ctime_ns=c).key() for i, c in [(3, 4), (5, 4), (3, 6)]}
    assert len(keys) == 3


def test_inode_beyond_int64_is_stored_without_overflow(raw: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_stat = os.stat

    def huge_inode(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        st = real_stat(path, *args, **kwargs)
        hidden = {k: getattr(st, k) for k in ("st_atime_ns", "st_mtime_ns", "st_ctime_ns", "st_blksize")}
        return os.stat_result((st[0], 2**64 - 5, *st[2:]), hidden)

    monkeypatch.setattr(os, "stat", huge_inode)
    assert rows(raw, raw.parent / "out")["a.sgf"]["black"] == "x"
    assert discover(raw)[0].inode == -5
