"""sources: the bytes of the entries discovery found: files, and members of archives read in place.

Decisions:

- A batch is read in its order. A run of consecutive members of one archive (same path and key) is read
  through one open of it (:class:`~pipeline.ingest.archives.Reader`) in the archive's order, and given
  back in the batch's (discovery lists members in the archive's order, so none waits for another).
- The archive a thread read last stays open for the thread's next batch. Batches are consecutive slices
  of the entries, so one large archive spans many batches: reopening would parse a zip's whole central
  directory again (docs/design.md#open-archives) and decompress a tar.gz/bz2/xz from its start
  (quadratic). With it a worker makes one forward pass over a compressed tar, however many batches it
  reads of it. One archive a thread (a forked worker opens its own, never its parent's), closed when the
  thread reads from another one; it is the only state kept between calls, and it changes nothing but
  speed.

- Files are opened :data:`AHEAD` files before their turn, and the system is told their pages will be
  needed (``posix_fadvise(WILLNEED)``), so that when they are not in the page cache (a first ingest) the
  disk reads the next files while this one is parsed, instead of one file at a time between parses.

Knows how to read; nothing of what the bytes mean, nor of how archives are listed.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import io
import itertools
import os
import threading
from collections.abc import Iterator

from pipeline.ingest import archives
from pipeline.ingest.discover import FileEntry

_Key = tuple[int, str, int, int, int, int]
_CHUNK = 1 << 20  # what a read asks for past the size a file was listed with
#: Files opened (and their pages asked for) before their turn.
AHEAD = 32
_ADVISE = getattr(os, "posix_fadvise", None)  # (not on every system)


def contents(batch: list[FileEntry]) -> Iterator[tuple[FileEntry, bytes | OSError]]:
    """Each entry of ``batch``, in order, with its bytes or the OSError that reading them raised.

    An entry that discovery flagged (``error_kind`` set) is never opened: it comes with empty bytes. A
    member of an archive comes with its bytes (never unpacked to disk), or an OSError saying why not.
    """
    for key, run in itertools.groupby(batch, _archive):
        if key is None:
            yield from _files(list(run))
        else:
            yield from _members(key, list(run))


def _files(run: list[FileEntry]) -> Iterator[tuple[FileEntry, bytes | OSError]]:
    """Each of ``run`` (entries that are not archive members to read) with what :func:`_read` gives,
    the files opened :data:`AHEAD` entries before their turn (:func:`_opened`); none is left open."""
    ahead = collections.deque(map(_opened, run[:AHEAD]))
    try:
        for i, entry in enumerate(run):
            if i + AHEAD < len(run):
                ahead.append(_opened(run[i + AHEAD]))
            yield entry, _read(entry, ahead.popleft())
    finally:
        for fd in ahead:
            if isinstance(fd, int):
                os.close(fd)


def _opened(entry: FileEntry) -> int | OSError | None:
    """A descriptor of the file of ``entry``, its pages asked for; the OSError opening it raised; None
    for an entry that is not a file to read (:func:`_read` says what it gives)."""
    if entry.error_kind is not None or entry.member is not None:
        return None
    try:
        fd = os.open(entry.path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as e:
        return e
    if _ADVISE is not None:
        with contextlib.suppress(OSError):  # only advice
            _ADVISE(fd, 0, 0, os.POSIX_FADV_WILLNEED)
    return fd


def _archive(entry: FileEntry) -> _Key | None:
    """The key of the archive ``entry`` is to be read from; None for a file, or an entry not to be read."""
    if entry.member is None or entry.member.offset < 0 or entry.error_kind is not None:
        return None
    return (os.getpid(), entry.path, entry.size, entry.mtime_ns, entry.inode, entry.ctime_ns)


def _read(entry: FileEntry, opened: int | OSError | None) -> bytes | OSError:
    """The bytes of ``entry``'s file from its descriptor ``opened`` (closed here), or the OSError that
    opening or reading it raised; empty bytes for an entry discovery flagged; an OSError for a member
    whose archive was not listed."""
    if entry.error_kind is not None:
        return b""
    if entry.member is not None:  # rebuilt from the cache, its archive unlisted: its rows are reused
        return OSError(errno.ENOENT, f"member {entry.rel} was not listed (its archive is, next run)")
    if isinstance(opened, OSError):
        return opened
    assert opened is not None  # (_opened gives None only for the entries above)
    try:
        with open(opened, "rb", buffering=0) as file:
            return _to_end(file, entry.size)
    except OSError as e:
        return e


def read_file(path: str, size: int) -> bytes:
    """The bytes of the file at ``path``, to its end, whatever ``size`` (its size when it was listed).

    Unbuffered (no buffered reader, no terminal test): one read of ``size`` + 1 bytes, then reads to
    the end (a file that grew is read whole). Raises OSError if the file cannot be opened or read.
    """
    with open(path, "rb", buffering=0) as f:
        return _to_end(f, size)


def _to_end(file: io.RawIOBase, size: int) -> bytes:
    """The bytes of ``file`` to its end: one read of ``size`` + 1 bytes, then reads to the end."""
    chunks = [file.read(max(size, 0) + 1) or b""]
    while chunks[-1]:
        chunks.append(file.read(_CHUNK) or b"")
    return chunks[0] if len(chunks) == 2 else b"".join(chunks)


def _members(key: _Key, run: list[FileEntry]) -> Iterator[tuple[FileEntry, bytes | OSError]]:
    """The members ``run`` of the archive ``key``, read in the archive's order, given in ``run``'s."""
    try:
        reader = _HELD.reader(key, run[0])
    except OSError as e:
        for entry in run:
            yield entry, e
        return
    done: dict[int, bytes | OSError] = {}
    given = 0
    for i in sorted(range(len(run)), key=lambda i: _offset(run[i])):
        done[i] = _read_member(reader, run[i])
        while given in done:
            yield run[given], done.pop(given)
            given += 1


def _offset(entry: FileEntry) -> int:
    return entry.member.offset if entry.member is not None else -1


def _read_member(reader: archives.Reader, entry: FileEntry) -> bytes | OSError:
    assert entry.member is not None  # _archive keys members only
    try:
        return reader.read(entry.member)
    except OSError as e:
        return e


class _Held(threading.local):
    """The archive this thread read last, open (see the module), under its key."""

    def __init__(self) -> None:
        self.key: _Key | None = None
        self.open: archives.Reader | None = None

    def reader(self, key: _Key, entry: FileEntry) -> archives.Reader:
        """The open archive of ``key`` (that of ``entry``). Raises OSError if it cannot be opened."""
        if self.open is None or self.key != key:
            self.release()
            assert entry.member is not None  # _archive keys members only
            self.open = archives.Reader(entry.path, entry.member.fmt)
            self.key = key
        return self.open

    def release(self) -> None:
        """Close the archive held, unless another process (the parent of a fork) opened it."""
        if self.open is not None and self.key is not None and self.key[0] == os.getpid():
            self.open.close()
        self.key, self.open = None, None


_HELD = _Held()
