"""discover: every entry under the raw folder, each with the key of its cache entry.

Walks by descriptor (``os.scandir(fd)``, ``os.stat(name, dir_fd=fd)``): one ``stat`` an entry, no
recursion, one folder open at a time, and folders are listed however long their path. Decisions:

- Every entry is accounted for. A regular file is to be read; anything else gives a :class:`FileEntry`
  whose ``error_kind``/``error`` say why, and no worker opens it: a folder that cannot be listed
  (``unreadable``, ``rel`` ending in ``/``), an entry whose ``stat`` fails or a file whose path is too
  long to open (``unreadable``), a FIFO, socket or device (``not_a_file``: opening a FIFO blocks), a
  dangling symbolic link (``unreadable``), a link loop (``link_loop``). A readable folder has no entry.
- Symbolic links to files and folders are followed, inside the raw folder or outside it. A link to a
  folder being read (one holding the link: same ``st_dev, st_ino``) is a loop. A file or folder reached
  by two paths is read under both: nothing is lost, and the audit drops the duplicate games.
- ``rel`` is valid UTF-8, one-to-one with the path's bytes: a byte that is not part of valid UTF-8 is
  written ``\\xNN`` (lower-case hex) and a literal backslash ``\\\\``, every other character is itself
  (``caf\\xe9.sgf`` holds byte 0xE9, ``caf\\\\xe9.sgf`` a backslash). ``name_bytes`` keeps the bytes.
- An archive (:func:`pipeline.ingest.archives.is_archive`: by suffix, or by its first bytes) gives an
  entry per member file instead of one for itself, ``rel`` ``<archive rel>!<member name>`` (the name
  escaped as above; the n-th member of a name the archive already holds gets ``#n`` after it), in the
  archive's order, together where the archive sorts; the archive itself has an entry only when it is
  empty or damaged (:func:`~pipeline.ingest.archives.listing` says which entries are flagged). Every
  entry of an archive carries the archive's ``stat``: its key changes, and its members are read again,
  exactly when the archive changes (incremental by archive). An archive whose cached entries
  ``known`` gives back (its key unchanged) is not opened at all. Members that are archives are not
  opened: one level is read.
- A raw folder holding no file (empty, only empty folders, an unmounted share) is an
  :class:`IngestError`: a nightly run must not publish empty standings over the last good ones.

Knows nothing of what a file holds, nor of the cache beyond the key. A file named like a member of an
archive beside it (``a.zip!b.sgf`` next to ``a.zip`` holding ``b.sgf``) shares that member's ``rel``.
"""

from __future__ import annotations

import errno
import heapq
import operator
import os
import stat
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from pipeline.ingest import archives
from pipeline.ingest.archives import Listed, Member

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_KEPT = "nothing to rate; the previous output is kept"
_NOT_FILES = {
    stat.S_IFIFO: "named pipe (FIFO)",
    stat.S_IFSOCK: "socket",
    stat.S_IFCHR: "character device",
    stat.S_IFBLK: "block device",
}


class IngestError(Exception):
    """Raised when the raw folder cannot be read at all, or holds no file: nothing is written."""


class FileEntry(NamedTuple):
    """One entry found under the raw folder: where it is and the key of its cache entry.

    ``path`` opens it (``str``, with surrogate escapes for bytes that are not UTF-8); ``rel`` is its
    path relative to the raw folder as stored in ``source_path`` (valid UTF-8, see the module);
    ``name_bytes`` the relative path's bytes when they are not valid UTF-8 (else None). ``size``,
    ``mtime_ns``, ``inode`` (as a signed 64-bit number) and ``ctime_ns`` are its ``stat``; all -1 when
    ``error_kind``/``error`` are set: discovery already knows it cannot be read (no worker opens it).
    An entry of an archive has the archive's ``path`` and ``stat`` (even when flagged), and ``member``
    says where it is in the archive (None for the archive's own entry and for files).

    A named tuple (immutable): a million are made and pickled per run, and a frozen dataclass costs
    four times as much to make.
    """

    path: str
    rel: str
    size: int
    mtime_ns: int
    name_bytes: bytes | None = None
    error_kind: str | None = None
    error: str | None = None
    inode: int = -1
    ctime_ns: int = -1
    member: Member | None = None

    def row_columns(self) -> dict[str, Any]:
        """Columns every row of this file carries: its cache key and raw name (schema ``CACHE``)."""
        return {
            "file_size": self.size,
            "file_mtime_ns": self.mtime_ns,
            "file_inode": self.inode,
            "file_ctime_ns": self.ctime_ns,
            "source_path_bytes": self.name_bytes,
        }

    def key(self) -> str:
        """The cache key as one string: equal for a file that did not change since it was cached.

        The :data:`KEY_COLUMNS` joined by NUL, then the error of an entry discovery flagged (its one
        row is nothing but that error: a dangling link that points elsewhere tomorrow must say so).
        """
        known = f"{self.error_kind}\x00{self.error}" if self.size < 0 else ""
        return f"{self.rel}\x00{self.size}\x00{self.mtime_ns}\x00{self.inode}\x00{self.ctime_ns}\x00{known}"


#: The cache columns that make up :meth:`FileEntry.key`, in its order (then error_kind, parse_error).
KEY_COLUMNS = ("source_path", "file_size", "file_mtime_ns", "file_inode", "file_ctime_ns")

#: Given the entries of archive files (their own ``stat``), by the archive's ``rel``: the entries each
#: gave when it was cached, for those whose key is unchanged (:func:`pipeline.ingest.cache.known`), or
#: None for one that has cached rows to compare member by member (it is listed at once).
Known = Callable[[list[FileEntry]], dict[str, list[FileEntry] | None]]

#: The member of an archive's own entry whose listing :func:`discover` left to :func:`expand`.
DEFERRED = Member("", -2, "", -1)


def discover(raw: Path, known: Known | None = None, defer: bool = False) -> list[FileEntry]:
    """Every entry under ``raw`` (recursively, following links; see the module), sorted by ``rel``
    but for the members of an archive, which come in the archive's order where it sorts.

    ``known`` gives the entries of unchanged archives, which are then not opened (None: list every
    archive). With ``defer``, an archive with no cached rows is not listed either: it gives one entry of
    member :data:`DEFERRED`, for the caller to :func:`expand` when its turn comes (so that the members
    of millions are never all held at once). Raises :class:`IngestError` if ``raw`` does not exist, is
    not a folder or cannot be listed, or if it holds no file (an entry that is not a file, such as an
    unreadable sub-folder, does not count; an archive does).
    """
    walk = _Walk(_path_limit(raw))
    walk.run(raw)
    if not walk.files:
        raise IngestError(_empty(raw, walk.found))
    walk.found.sort(key=operator.attrgetter("rel"))  # in place: no second list of 10^6 entries
    if not walk.archives:
        return walk.found
    blocks = sorted(_archive_blocks(walk.archives, known, defer), key=operator.itemgetter(0))
    files = ((e.rel, [e]) for e in walk.found)
    return [entry for _, block in heapq.merge(files, blocks, key=operator.itemgetter(0)) for entry in block]


def expand(archive: FileEntry) -> list[FileEntry]:
    """The entries of the archive whose entry (member :data:`DEFERRED`) :func:`discover` gave: one per
    member, or its own flagged entry when it is empty or damaged (as :func:`discover` lists it)."""
    raw_rel = archive.name_bytes if archive.name_bytes is not None else archive.rel.replace("\\\\", "\\")
    plain = archive._replace(member=None)
    return _members(plain, os.fsencode(raw_rel), archives.listing(archive.path, archive.size))


def _archive_blocks(
    found: list[tuple[FileEntry, bytes]], known: Known | None, defer: bool
) -> list[tuple[str, list[FileEntry]]]:
    """Each archive's rel and entries: its cached ones (``known``), a deferred one, or its listing."""
    cached = known([archive for archive, _ in found]) if known and found else {}
    blocks = []
    for archive, raw_rel in found:
        entries = cached.get(archive.rel)
        if entries is None and defer and archive.rel not in cached:
            entries = [archive._replace(member=DEFERRED)]
        elif entries is None:
            entries = _members(archive, raw_rel, archives.listing(archive.path, archive.size))
        blocks.append((archive.rel, entries))
    return blocks


def _members(archive: FileEntry, raw_rel: bytes, listed: list[Listed]) -> list[FileEntry]:
    """The entries of an archive (its own entry, ``raw_rel`` the bytes of its rel) from its listing."""
    seen: Counter[str] = Counter()
    entries = []
    for item in listed:
        rel, name = archive.rel, archive.name_bytes
        if item.name is not None:
            text, clean = readable(item.name)
            seen[text] += 1
            suffix = f"#{seen[text]}" if seen[text] > 1 else ""
            rel = f"{archive.rel}!{text}{suffix}"
            if name is not None or not clean:
                name = raw_rel + b"!" + os.fsencode(item.name) + suffix.encode()
        a, kind, error = archive, item.error_kind, item.error
        entries.append(
            FileEntry(a.path, rel, a.size, a.mtime_ns, name, kind, error, a.inode, a.ctime_ns, item.member)
        )
    return entries


def readable(name: str) -> tuple[str, bool]:
    """``name`` (from the OS: surrogate escapes for bytes that are not UTF-8) as text with no loss, and
    whether it is valid UTF-8: see the module for the escapes."""
    if name.isascii():
        return (name.replace("\\", "\\\\") if "\\" in name else name), True
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(name).replace(b"\\", b"\\\\").decode("utf-8", "backslashreplace"), False
    return name.replace("\\", "\\\\"), True


class _Place(NamedTuple):
    """Where an entry is: ``path`` opens it, ``rel``/``raw_rel`` are relative (readable / with surrogate
    escapes), ``clean`` says every name on the way is UTF-8, ``nbytes`` is the length of ``path``'s bytes."""

    path: str
    rel: str
    raw_rel: str
    clean: bool
    nbytes: int

    def child(self, name: str) -> _Place:
        if name.isascii() and "\\" not in name:  # most names: nothing to escape, one byte a character
            return _Place(
                f"{self.path}/{name}",
                self.rel + name,
                self.raw_rel + name,
                self.clean,
                self.nbytes + 1 + len(name),
            )
        text, clean = readable(name)
        size = len(name) if name.isascii() else len(os.fsencode(name))
        path = f"{self.path}/{name}"
        return _Place(
            path, self.rel + text, self.raw_rel + name, self.clean and clean, self.nbytes + 1 + size
        )

    def as_folder(self) -> _Place:
        return _Place(self.path, self.rel + "/", self.raw_rel + "/", self.clean, self.nbytes)

    def name_bytes(self) -> bytes | None:
        return None if self.clean else os.fsencode(self.raw_rel)


class _Folder(NamedTuple):
    """A folder to read: its place, ``(st_dev, st_ino)``, and the folder that holds it (None: raw)."""

    place: _Place
    ident: tuple[int, int]
    parent: _Folder | None


class _Walk:
    """One walk of a raw folder: the entries found, how many are files, the folders still to read."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.found: list[FileEntry] = []
        self.archives: list[tuple[FileEntry, bytes]] = []  # an archive's entry and its rel's bytes
        self.files = 0
        self.pending: list[_Folder] = []

    def run(self, raw: Path) -> None:
        """Find every entry under ``raw``. Raises IngestError if ``raw`` itself cannot be listed."""
        fd, entries = _root(raw, self.limit)
        top = os.fspath(raw)
        root = _Folder(_Place(top, "", "", True, len(os.fsencode(top))), _ident(os.fstat(fd)), None)
        self._read(root, fd, entries)
        while self.pending:
            folder = self.pending.pop()
            try:
                fd, entries = _listing(folder.place.path, self.limit)
            except OSError as e:
                self._flag(folder.place, "unreadable", f"unreadable: folder {folder.place.rel}: {_why(e)}")
                continue
            self._read(folder, fd, entries)

    def _read(self, folder: _Folder, fd: int, entries: list[os.DirEntry[str]]) -> None:
        try:
            for entry in entries:
                self._visit(folder, fd, entry)
        finally:
            os.close(fd)

    def _visit(self, folder: _Folder, fd: int, entry: os.DirEntry[str]) -> None:
        place = folder.place.child(entry.name)
        try:
            st = os.stat(entry.name, dir_fd=fd)
        except OSError as e:
            self._stat_failed(place, fd, entry, e)
            return
        if stat.S_ISDIR(st.st_mode):
            self._subfolder(folder, place.as_folder(), fd, entry, st)
        elif stat.S_ISREG(st.st_mode):
            self._file(place, st, entry.name)
        else:
            mode = stat.S_IFMT(st.st_mode)
            self._flag(place, "not_a_file", f"not a file: {_NOT_FILES.get(mode, f'file type {mode:o}')}")

    def _file(self, place: _Place, st: os.stat_result, basename: str) -> None:
        self.files += 1
        if place.nbytes >= self.limit:
            why = f"path too long to open ({place.nbytes} bytes; the system's limit is {self.limit})"
            self._flag(place, "unreadable", f"unreadable: {why}")
            return
        inode = st.st_ino - (1 << 64) if st.st_ino >= 1 << 63 else st.st_ino  # int64 column, no loss
        name = None if place.clean else os.fsencode(place.raw_rel)
        entry = FileEntry(
            place.path, place.rel, st.st_size, st.st_mtime_ns, name, None, None, inode, st.st_ctime_ns
        )
        if not basename.endswith(".sgf") and archives.is_archive(
            place.path, basename
        ):  # (the common case first)
            self.archives.append((entry, os.fsencode(place.raw_rel)))
        else:
            self.found.append(entry)

    def _subfolder(
        self, parent: _Folder, place: _Place, fd: int, entry: os.DirEntry[str], st: os.stat_result
    ) -> None:
        ident = _ident(st)
        again: _Folder | None = parent
        while again is not None and again.ident != ident:
            again = again.parent
        if again is None:
            self.pending.append(_Folder(place, ident, parent))
            return
        where = f"the folder {again.place.rel}" if again.place.rel else "the raw folder"
        link = f"symbolic link loop: -> {_target(fd, entry.name)}" if _listed(entry)[0] else "folder loop:"
        self._flag(place, "link_loop", f"{link} leads back to {where}, already being read")

    def _stat_failed(self, place: _Place, fd: int, entry: os.DirEntry[str], e: OSError) -> None:
        link, file = _listed(entry)
        if not link:
            self.files += file
            self._flag(place, "unreadable", f"unreadable: cannot stat: {_why(e)}")
            return
        target = _target(fd, entry.name)
        if e.errno == errno.ELOOP:
            self._flag(place, "link_loop", f"symbolic link loop: -> {target} ({_why(e)})")
        elif e.errno == errno.ENOENT:
            self._flag(place, "unreadable", f"dangling symbolic link -> {target}")
        else:
            self._flag(place, "unreadable", f"unreadable: symbolic link -> {target}: {_why(e)}")

    def _flag(self, place: _Place, kind: str, message: str) -> None:
        self.found.append(FileEntry(place.path, place.rel, -1, -1, place.name_bytes(), kind, message))


def _root(raw: Path, limit: int) -> tuple[int, list[os.DirEntry[str]]]:
    """The open descriptor and the entries of the raw folder. Raises IngestError if it cannot be listed."""
    shown = readable(os.fspath(raw))[0]
    try:
        return _listing(os.fspath(raw), limit)
    except FileNotFoundError:
        raise IngestError(f"raw folder not found: {shown}: {_KEPT}") from None
    except NotADirectoryError:
        raise IngestError(f"raw folder is not a folder: {shown}: {_KEPT}") from None
    except OSError as e:
        raise IngestError(f"raw folder {shown} cannot be read: {_why(e)}: {_KEPT}") from None


def _listing(path: str, limit: int) -> tuple[int, list[os.DirEntry[str]]]:
    """An open descriptor of the folder at ``path`` and its entries. Raises OSError if it cannot be listed."""
    fd = _open_folder(os.fsencode(path), limit)
    try:
        with os.scandir(fd) as entries:
            return fd, list(entries)
    except BaseException:
        os.close(fd)
        raise


def _open_folder(path: bytes, limit: int) -> int:
    """A descriptor of the folder at ``path``, opened piece by piece when the path is ``limit`` or longer.

    Raises OSError if it cannot be opened.
    """
    fd: int | None = None
    try:
        while True:
            cut = path.rfind(b"/", 1, limit - 1) if len(path) >= limit else len(path)
            if cut <= 0:  # one name longer than the limit: no system makes one
                raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG))
            opened = os.open(path[:cut], _DIR_FLAGS, dir_fd=fd)
            if fd is not None:
                os.close(fd)
            fd, path = opened, path[cut + 1 :].lstrip(b"/")
            if not path:
                return fd
    except BaseException:
        if fd is not None:
            os.close(fd)
        raise


def _path_limit(raw: Path) -> int:
    """The longest path (in bytes, with its final NUL) the system opens under ``raw``."""
    try:
        return os.pathconf(raw, "PC_PATH_MAX")
    except (OSError, ValueError):
        return 4096


def _why(e: OSError) -> str:
    return e.strerror or str(e)


def _ident(st: os.stat_result) -> tuple[int, int]:
    return st.st_dev, st.st_ino


def _listed(entry: os.DirEntry[str]) -> tuple[bool, bool]:
    """Whether ``entry`` is, by its listed type, a symbolic link and a regular file (both False on error)."""
    try:
        return entry.is_symlink(), entry.is_file(follow_symlinks=False)
    except OSError:
        return False, False


def _target(fd: int, name: str) -> str:
    """Where the link ``name`` in the folder ``fd`` points, as readable text ('?' if it cannot be read)."""
    try:
        return readable(os.readlink(name, dir_fd=fd))[0]
    except OSError:
        return "?"


def _empty(raw: Path, found: list[FileEntry]) -> str:
    """The message for a raw folder that holds no file (``found``: what it holds instead)."""
    shown = readable(os.fspath(raw))[0]
    if not found:
        return f"raw folder {shown} holds no files: {_KEPT}"
    first = min(found, key=lambda e: e.rel)
    others = f"{len(found)} other entr{'y' if len(found) == 1 else 'ies'}, e.g. {first.rel}: {first.error}"
    return f"raw folder {shown} holds no files ({others}): {_KEPT}"
