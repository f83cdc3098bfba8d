"""walk: every entry under the raw folder, found by descriptor.

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
- ``rel`` is escaped as :mod:`~pipeline.ingest.entry` says.
- A file that is an archive (:func:`pipeline.ingest.archives.is_archive`) is set aside with the bytes
  of its ``rel``, for :mod:`~pipeline.ingest.discover` to list.

Knows nothing of what a file holds, nor of what becomes of an archive.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import NamedTuple

from pipeline.core.i18n import N_, _
from pipeline.ingest import archives
from pipeline.ingest.entry import FileEntry, IngestError, readable

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
#: What a run says when it stops before any output is touched.
KEPT = N_("nothing to rate; the previous output is kept")
_NOT_FILES = {
    stat.S_IFIFO: "named pipe (FIFO)",
    stat.S_IFSOCK: "socket",
    stat.S_IFCHR: "character device",
    stat.S_IFBLK: "block device",
}


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


class Skip(NamedTuple):
    """What a walk leaves out, unlisted (the run's own output folder inside the raw folder): the
    ``folders`` of these ``(st_dev, st_ino)`` wherever they are reached, and with ``own_root`` the
    output's own entries at the top of the raw folder itself (:func:`_own`)."""

    folders: frozenset[tuple[int, int]] = frozenset()
    own_root: bool = False


#: A walk that leaves nothing out.
NO_SKIP = Skip()
#: The hidden entries an output folder makes: its generations, its cache, its lock (the names of
#: pipeline.output.snapshots.GENERATIONS, pipeline.ingest.shelf.SHELF and pipeline.output.lock.LOCK_FILE).
OWN_HIDDEN = frozenset({".gen", ".cache", ".lock"})
#: The folder ``ratings backtest`` writes into an output folder, and the files it writes there.
OWN_BACKTEST = ("backtest", frozenset({"summary.parquet", "calibration.parquet"}))


class Walk:
    """One walk of a raw folder: the entries found, how many are files, the folders still to read;
    what ``skip`` names is left out."""

    def __init__(self, limit: int, skip: Skip = NO_SKIP) -> None:
        self.limit, self.skip = limit, skip
        self.skipped: list[str] = []  # the rel of each entry left out, as it was met
        self.found: list[FileEntry] = []
        self.archives: list[tuple[FileEntry, bytes]] = []  # an archive's entry and its rel's bytes
        self.files = 0
        self.pending: list[_Folder] = []

    def run(self, raw: Path) -> None:
        """Find every entry under ``raw``. Raises IngestError if ``raw`` itself cannot be listed."""
        fd, entries = _root(raw, self.limit)
        if self.skip.own_root:
            self.skipped += sorted(e.name for e in entries if _own(raw, fd, e))
            entries = [e for e in entries if e.name not in self.skipped]
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
            for entry in self._plain_files(folder.place, fd, entries):
                self._visit(folder, fd, entry)
        finally:
            os.close(fd)

    def _plain_files(self, place: _Place, fd: int, entries: list[os.DirEntry[str]]) -> list[os.DirEntry[str]]:
        """Add the entries of the folder at ``place`` that are plain files (most: a regular ``.sgf`` file
        whose name is ASCII without a backslash, in a folder whose path is clean, short enough to open):
        what :meth:`_visit` would add for each, without its steps for every other kind of entry.
        Returns the other entries, for :meth:`_visit`."""
        if not place.clean:
            return entries
        others, limit, made = [], self.limit - place.nbytes - 1, FileEntry._make  # (_make: a third the cost)
        found, top, rel = self.found, f"{place.path}/", place.rel
        for entry in entries:
            name = entry.name
            if not (name.endswith(".sgf") and name.isascii() and "\\" not in name and len(name) < limit):
                others.append(entry)
                continue
            try:
                st = os.stat(name, dir_fd=fd)
            except OSError:
                others.append(entry)  # (stat again there, and flagged)
                continue
            if not stat.S_ISREG(st.st_mode):
                others.append(entry)
                continue
            key = (st.st_size, st.st_mtime_ns, None, None, None, _inode(st), st.st_ctime_ns, None)
            found.append(made((top + name, rel + name, *key)))
        self.files += len(entries) - len(others)
        return others

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
        name = None if place.clean else os.fsencode(place.raw_rel)
        entry = FileEntry(
            place.path, place.rel, st.st_size, st.st_mtime_ns, name, None, None, _inode(st), st.st_ctime_ns
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
        if ident in self.skip.folders:
            self.skipped.append(place.rel)
            return
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


def _own(raw: Path, fd: int, entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` of the raw folder ``raw`` (open as ``fd``) is an output folder's own: one of
    :data:`OWN_HIDDEN`, a symbolic link into its ``.gen/``, or a backtest folder that holds nothing but
    the backtest's files (a folder of records of that name is records)."""
    if entry.name in OWN_HIDDEN:
        return True
    if entry.is_symlink():
        return _target(fd, entry.name).startswith(".gen/")
    folder, files = OWN_BACKTEST
    if entry.name != folder or not entry.is_dir():
        return False
    try:
        return set(os.listdir(raw / folder)) <= files
    except OSError:
        return False


def _root(raw: Path, limit: int) -> tuple[int, list[os.DirEntry[str]]]:
    """The open descriptor and the entries of the raw folder. Raises IngestError if it cannot be listed."""
    shown = readable(os.fspath(raw))[0]
    try:
        return _listing(os.fspath(raw), limit)
    except FileNotFoundError:
        raise IngestError(
            _("raw folder not found: {folder}: {kept}").format(folder=shown, kept=_(KEPT))
        ) from None
    except NotADirectoryError:
        message = _("raw folder is not a folder: {folder}: {kept}")
        raise IngestError(message.format(folder=shown, kept=_(KEPT))) from None
    except OSError as e:
        message = _("raw folder {folder} cannot be read: {why}: {kept}")
        raise IngestError(message.format(folder=shown, why=_why(e), kept=_(KEPT))) from None


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


def path_limit(raw: Path) -> int:
    """The longest path (in bytes, with its final NUL) the system opens under ``raw``."""
    try:
        return os.pathconf(raw, "PC_PATH_MAX")
    except (OSError, ValueError):
        return 4096


def _why(e: OSError) -> str:
    return e.strerror or str(e)


def _inode(st: os.stat_result) -> int:
    """``st``'s inode number as a signed 64-bit one (the int64 column), with no loss."""
    return st.st_ino - (1 << 64) if st.st_ino >= 1 << 63 else st.st_ino


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
