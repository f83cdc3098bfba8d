"""archives: the members of ``.zip`` and ``.tar`` archives (plain, gzip, bzip2, xz), listed and read in
place: nothing is unpacked to disk.

Decisions:

- What is an archive (:func:`is_archive`): a name ending in one of :data:`SUFFIXES` (any case), or, for
  a name not ending in ``.sgf``, first bytes that are a zip, gzip, bzip2, xz or ustar header. The
  content then decides the format (zip first, then tar with any compression): a name with an archive
  suffix whose content is neither is a ``bad_archive``.
- :func:`listing` gives a :class:`Listed` per member file, in the archive's order; folders give none.
  Inside a tar a symbolic or hard link (its target is read under its own name), a device or a FIFO,
  inside a zip a symbolic link: ``not_a_file``. A member over :data:`MEMBER_LIMIT` bytes, a zip member
  that is encrypted or compressed by a method ``zipfile`` cannot read, or an archive inside the archive
  (named like one: one level is read, nested archives are not opened): ``unreadable``.
- The archive itself gets a Listed (``name`` None) when it holds no file (``empty``), or cannot be
  opened, or is damaged or truncated after some members (those stay), or declares more than
  :data:`RATIO_LIMIT` times its own size, at least :data:`EXPANSION_FLOOR` (a zip bomb: nothing of it is
  read): ``bad_archive``. With the member limit this bounds the memory and time an archive can take.
- Reading (:class:`Reader`): a zip member by its header's offset (random access); a tar member's data
  where the listing found it in the (decompressed) stream, so that members read in the archive's
  order cost one forward pass over a compressed tar and no header is parsed twice (reading backwards
  starts the decompression again). A sparse member (never an SGF) is ``unreadable``.

Knows nothing of folders, caches, names as stored in ``source_path`` or what a member holds. Does not
detect a plain (uncompressed) tar cut exactly between two members.
"""

from __future__ import annotations

import bz2
import errno
import gzip
import io
import lzma
import stat
import tarfile
import zipfile
from dataclasses import dataclass

SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz")
MEMBER_LIMIT = 64 * 2**20
RATIO_LIMIT = 200
EXPANSION_FLOOR = 2**30
_MAGIC = (b"PK\x03\x04", b"PK\x05\x06", b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00")
_ZIP_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}
_TAR_KINDS = {
    tarfile.CHRTYPE: "character device",
    tarfile.BLKTYPE: "block device",
    tarfile.FIFOTYPE: "named pipe (FIFO)",
}


@dataclass(frozen=True, slots=True)
class Member:
    """Where a member is: its archive's ``fmt`` (``zip`` or ``tar``), ``offset`` (zip: of its header;
    tar: of its data in the uncompressed stream), its ``name`` as the library gives it (surrogate
    escapes for bytes that are not UTF-8) and ``size`` uncompressed. ``offset`` -1: not listed."""

    fmt: str
    offset: int
    name: str
    size: int


@dataclass(frozen=True, slots=True)
class Listed:
    """One entry of a listing: the member's ``name`` (surrogate escapes; None: the archive itself), and
    where to read it (``member``), or, when it is not to be read, ``error_kind``/``error`` saying why."""

    name: str | None
    member: Member | None
    error_kind: str | None = None
    error: str | None = None


def is_archive(path: str, name: str) -> bool:
    """Whether the file at ``path``, named ``name``, is to be listed as an archive (see the module).

    Reads the first bytes of a file whose name neither has an archive suffix nor ends in ``.sgf``; a
    file that cannot be read is no archive (its reader says why).
    """
    lower = name.lower()
    if lower.endswith(SUFFIXES):
        return True
    if lower.endswith(".sgf"):
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(512)
    except OSError:
        return False
    return head.startswith(_MAGIC) or head[257:262] == b"ustar"


def listing(path: str, size: int) -> list[Listed]:
    """The entries of the archive at ``path`` (``size`` bytes), in its order; never raises.

    Whatever a damaged archive raises while it is listed becomes a ``bad_archive`` entry.
    """
    try:
        if zipfile.is_zipfile(path):
            return _zip_listing(path, size)
        return _tar_listing(path, size)
    except Exception as e:  # a damaged archive raises anything; it must give a row, never stop the run
        return [_bad(f"bad archive: {_why(e)}")]


class Reader:
    """An open archive: :meth:`read` gives a member's bytes; :meth:`close` (or ``with``) ends it.

    A zip is opened at once (raises OSError if it cannot be). A tar's stream is opened at the first
    read, decompressed (gzip, bzip2, xz: by its first bytes) as it is read, and a member's data is read
    where its listing found it: no header is parsed again.
    """

    def __init__(self, path: str, fmt: str) -> None:
        self.path, self.fmt = path, fmt
        self._zip: zipfile.ZipFile | None = None
        self._stream: io.BufferedIOBase | None = None
        self._at: dict[int, zipfile.ZipInfo] = {}
        if fmt == "zip":
            try:
                self._zip = zipfile.ZipFile(path)
            except OSError:
                raise
            except Exception as e:  # BadZipFile, ValueError, EOFError, ...: the archive changed since
                raise _error(f"bad archive: {_why(e)}") from None
            self._at = {info.header_offset: info for info in self._zip.infolist()}

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the archive (again: nothing)."""
        if self._zip is not None:
            self._zip.close()
            self._zip = None
        self._restart()

    def read(self, member: Member) -> bytes:
        """The bytes of ``member``. Raises OSError if it is not where the listing found it, or is damaged."""
        try:
            data = self._read_zip(member) if self.fmt == "zip" else self._read_tar(member)
        except Exception as e:  # zlib.error, BadZipFile (CRC), EOFError, lzma.LZMAError, OSError ...
            self._restart()
            if isinstance(e, OSError):
                raise
            raise _error(f"bad member {member.name}: {_why(e)}") from None
        if len(data) > MEMBER_LIMIT:
            raise _error(f"member {member.name} is larger than the limit of {MEMBER_LIMIT} bytes")
        return data

    def _restart(self) -> None:
        """Forget the tar stream (after an error): the next read opens it again."""
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def _read_zip(self, member: Member) -> bytes:
        info = self._at.get(member.offset)
        if self._zip is None or info is None or info.filename != member.name:
            raise _error(f"member {member.name} is no longer in the archive")
        with self._zip.open(info) as f:
            return f.read(MEMBER_LIMIT + 1)

    def _read_tar(self, member: Member) -> bytes:
        """Forward: decompress up to the member; backward: the compressed stream starts again."""
        if self._stream is None:
            self._stream = _decompressed(self.path)
        self._stream.seek(member.offset)
        data = self._stream.read(member.size)
        if len(data) != member.size:
            raise _error(f"member {member.name} is cut short: the archive is truncated")
        return data


def _decompressed(path: str) -> io.BufferedIOBase:
    """The stream of the tar at ``path``, decompressed by its first bytes. Raises OSError if unreadable."""
    with open(path, "rb") as f:
        head = f.read(6)
    if head.startswith(b"\x1f\x8b"):
        return gzip.GzipFile(path, "rb")
    if head.startswith(b"BZh"):
        return bz2.BZ2File(path, "rb")
    if head.startswith(b"\xfd7zXZ"):
        return lzma.LZMAFile(path, "rb")
    return open(path, "rb")  # the reader's stream: closed by Reader.close


def _zip_listing(path: str, size: int) -> list[Listed]:
    with zipfile.ZipFile(path) as archive:
        infos = [info for info in archive.infolist() if not info.is_dir()]
    declared = sum(info.file_size for info in infos)
    if declared > _expansion(size):
        return [_bad(_bomb(declared, size))]
    return [_zip_member(info) for info in infos] or [_empty()]


def _zip_member(info: zipfile.ZipInfo) -> Listed:
    raw = info.filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437")
    name = raw.decode("utf-8", "surrogateescape")
    if stat.S_ISLNK(info.external_attr >> 16):
        return Listed(name, None, "not_a_file", "not a file: symbolic link inside the archive")
    if info.flag_bits & 0x1:
        return Listed(name, None, "unreadable", "unreadable: password-protected member")
    if info.compress_type not in _ZIP_METHODS:
        why = f"unreadable: compression method {info.compress_type} is not supported"
        return Listed(name, None, "unreadable", why)
    return _checked(name, Member("zip", info.header_offset, info.filename, info.file_size))


def _tar_listing(path: str, size: int) -> list[Listed]:
    with open(path, "rb") as f:
        head = f.read(6)
    try:
        with tarfile.open(path, "r:*") as archive:
            return _tar_entries(archive, size)
    except tarfile.ReadError as e:  # from the opening: what follows it cannot raise ReadError
        return [_bad(_not_tar(head, e))]


def _tar_entries(archive: tarfile.TarFile, size: int) -> list[Listed]:
    found: list[Listed] = []
    try:
        while (info := _next(archive)) is not None:
            if archive.offset > _expansion(size):
                return [_bad(_bomb(archive.offset, size))]
            if not info.isdir():
                found.append(_tar_member(info))
    except Exception as e:  # what follows a damaged block cannot be found; what precedes it stays
        found.append(_bad(f"bad archive: damaged after {len(found)} members: {_why(e)}"))
    return found or [_empty()]


def _tar_member(info: tarfile.TarInfo) -> Listed:
    if info.issym():
        return Listed(info.name, None, "not_a_file", f"not a file: symbolic link -> {info.linkname}")
    if info.islnk():
        why = f"not a file: hard link to {info.linkname} (read under that name)"
        return Listed(info.name, None, "not_a_file", why)
    if not info.isreg():
        kind = _TAR_KINDS.get(info.type, f"tar member type {info.type!r}")
        return Listed(info.name, None, "not_a_file", f"not a file: {kind} inside the archive")
    if info.sparse is not None:
        return Listed(info.name, None, "unreadable", "unreadable: a sparse file inside the archive")
    return _checked(info.name, Member("tar", info.offset_data, info.name, info.size))


def _next(tar: tarfile.TarFile) -> tarfile.TarInfo | None:
    """The next member of ``tar``, which then forgets it: a pass keeps nothing per member (a tar of
    millions of members would keep a TarInfo each; the list is tarfile's, undocumented but stable)."""
    info = tar.next()
    tar.members.clear()  # type: ignore[attr-defined]
    return info


def _checked(name: str, member: Member) -> Listed:
    """The Listed of a member file: readable unless it is too large or an archive itself."""
    if member.size > MEMBER_LIMIT:
        why = f"unreadable: {member.size} bytes, over the limit of {MEMBER_LIMIT} bytes for one member"
        return Listed(name, None, "unreadable", why)
    if name.lower().endswith(SUFFIXES):
        why = "unreadable: an archive inside the archive is not opened (unpack it beside the others)"
        return Listed(name, None, "unreadable", why)
    return Listed(name, member)


def _not_tar(head: bytes, e: tarfile.ReadError) -> str:
    """Why a file listed as an archive (first bytes ``head``) is neither a zip nor a tar."""
    if head.startswith(_MAGIC[:2]):
        return "bad archive: a zip archive without its central directory (truncated?)"
    if head.startswith(_MAGIC[2:]):
        return f"bad archive: compressed, but not a tar archive or damaged at its start ({_why(e)})"
    return "bad archive: neither a zip nor a tar archive (damaged or truncated?)"


def _expansion(size: int) -> int:
    return max(RATIO_LIMIT * size, EXPANSION_FLOOR)


def _bomb(declared: int, size: int) -> str:
    return (
        f"bad archive: it declares {declared} bytes from {size}, over {RATIO_LIMIT} times its size"
        " (a zip bomb?): not read"
    )


def _bad(message: str) -> Listed:
    return Listed(None, None, "bad_archive", message)


def _empty() -> Listed:
    return Listed(None, None, "empty", "empty archive: it holds no file")


def _why(e: BaseException) -> str:
    """``e`` as one short line (tarfile's messages span lines)."""
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _error(message: str) -> OSError:
    return OSError(errno.EIO, message)
