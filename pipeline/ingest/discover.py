"""discover: every entry under the raw folder, each with the key of its cache entry.

The folders are walked by :mod:`~pipeline.ingest.walk` (which says how every kind of entry is
accounted for); ``rel`` is escaped as :mod:`~pipeline.ingest.entry` says. Decisions here:

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

import heapq
import operator
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core.i18n import _, ngettext
from pipeline.ingest import archives
from pipeline.ingest.archives import Listed, Member
from pipeline.ingest.entry import KEY_COLUMNS, FileEntry, IngestError, readable
from pipeline.ingest.listing import listing_of
from pipeline.ingest.walk import KEPT, NO_SKIP, Skip, Walk, path_limit

__all__ = [
    "DEFERRED",
    "KEY_COLUMNS",
    "FileEntry",
    "IngestError",
    "Known",
    "discover",
    "discover_listed",
    "expand",
    "files_behind",
    "is_unlisted",
    "readable",
    "standing_for",
]


#: Given the entries of archive files (their own ``stat``), by the archive's ``rel``: the entries each
#: gave when it was cached, for those whose key is unchanged (:func:`pipeline.ingest.cache.known`), or
#: None for one that has cached rows to compare member by member (it is listed at once).
Known = Callable[[list[FileEntry]], dict[str, list[FileEntry] | None]]

#: The member of an archive's own entry whose listing :func:`discover` left to :func:`expand`.
DEFERRED = Member("", -2, "", -1)


def standing_for(archive: FileEntry, members: int) -> FileEntry:
    """The one entry of the unchanged ``archive`` that stands for all its ``members`` files: it is not
    listed, nor ever read, and its member's ``size`` is their number (:func:`is_unlisted`)."""
    return archive._replace(error_kind=None, error=None, member=Member("", -1, "", members))


def is_unlisted(member: Member | None) -> bool:
    """Whether ``member`` is that of an entry :func:`standing_for` made."""
    return member is not None and member.offset == -1


def files_behind(entry: FileEntry) -> int:
    """How many files ``entry`` stands for: an unchanged archive's members (:func:`standing_for`), else 1."""
    return entry.member.size if entry.member is not None and is_unlisted(entry.member) else 1


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
    walk = _walked(raw)
    walk.found.sort(key=operator.attrgetter("rel"))  # in place: no second list of 10^6 entries
    return _with_archives(walk, known, defer)


def discover_listed(
    raw: Path, known: Known | None = None, defer: bool = False, skip: Skip = NO_SKIP
) -> tuple[list[FileEntry], pa.Table, list[str]]:
    """:func:`discover`'s entries and their :func:`~pipeline.ingest.listing.listing_of`, row by row;
    and the ``rel`` of each entry that ``skip`` left out (:class:`~pipeline.ingest.walk.Skip`).

    Without archives the listing is read in the order the walk made the entries, which is their order
    in memory, then both are sorted by Arrow: faster than reading the listing in sorted order, where
    every entry is a cache miss (docs/design.md#listing-order). Raises as :func:`discover` does.
    """
    walk = _walked(raw, skip)
    if walk.archives:
        walk.found.sort(key=operator.attrgetter("rel"))
        files = _with_archives(walk, known, defer)
        return files, listing_of(files), walk.skipped
    listing = listing_of(walk.found)
    order = pc.sort_indices(listing["rel"])  # stable; UTF-8 bytes sort as the code points of the text
    return [walk.found[i] for i in order.to_pylist()], listing.take(order), walk.skipped


def _walked(raw: Path, skip: Skip = NO_SKIP) -> Walk:
    """The walk of ``raw``, its entries as found. Raises IngestError as :func:`discover` says."""
    walk = Walk(path_limit(raw), skip)
    walk.run(raw)
    if not walk.files:
        raise IngestError(_empty(raw, walk.found))
    return walk


def _with_archives(walk: Walk, known: Known | None, defer: bool) -> list[FileEntry]:
    """The walk's entries (sorted by rel) merged with each archive's, where the archive sorts."""
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


def _empty(raw: Path, found: list[FileEntry]) -> str:
    """The message for a raw folder that holds no file (``found``: what it holds instead)."""
    shown = readable(os.fspath(raw))[0]
    if not found:
        return _("raw folder {folder} holds no files: {kept}").format(folder=shown, kept=_(KEPT))
    first = min(found, key=lambda e: e.rel)
    others = ngettext(
        "{n} other entry, e.g. {path}: {error}", "{n} other entries, e.g. {path}: {error}", len(found)
    ).format(n=len(found), path=first.rel, error=first.error)
    return _("raw folder {folder} holds no files ({others}): {kept}").format(
        folder=shown, others=others, kept=_(KEPT)
    )
