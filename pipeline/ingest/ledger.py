"""ledger: the listing of the shelf's last complete save, so that a run finds what changed without
reading a cached row.

A run that ends with every file parsed and none to read again leaves the shelf holding the rows of the
files it found, all of them and nothing else; the shelf then keeps that run's listing as its *ledger*
(:func:`entries`): each discovered entry's key (:func:`pipeline.ingest.listing.listing_of`), whether
it stands for an archive's members (``archive``: its rows are ``<rel>`` and ``<rel>!...``) and how many
files it stands for (``members``). The next run compares its own listing with the ledger
(:func:`compare`): entries with an equal key are kept, the ledger's others are ``gone`` (their rows
are dropped), and the run's others are parsed; an archive of the ledger whose key is unchanged is not
opened (:func:`known`). With a ledger a run reads no cached key, whatever the number of rows (the key
columns alone grow with the rows: docs/design.md#ledger). Without one (the last run left files to read
again, was interrupted, or a shelf written before ledgers) the rows' keys decide
(:mod:`pipeline.ingest.cache`).

Knows nothing of what the rows hold or how the shelf keeps them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.ingest.cache import same_keys
from pipeline.ingest.discover import DEFERRED, FileEntry, Known, files_behind, is_unlisted, standing_for


def entries(listing: pa.Table, files: list[FileEntry], members: Mapping[str, int]) -> pa.Table:
    """The ledger of a run: ``listing`` (of ``files``) with ``archive`` and ``members`` (an unlisted
    archive's count, a deferred archive's from ``members`` by its rel, 1 for any other entry)."""
    whole = [is_unlisted(f.member) or f.member is DEFERRED for f in files]
    counts = [_members(f, members) for f in files]
    listing = listing.append_column("archive", pa.array(whole, pa.bool_()))
    return listing.append_column("members", pa.array(counts, pa.int64()))


def _members(entry: FileEntry, members: Mapping[str, int]) -> int:
    if entry.member is DEFERRED:
        return members.get(entry.rel, 1)  # (not listed: its key matched the ledger's own entry)
    return files_behind(entry)


def known(ledger: pa.Table) -> Known:
    """The :data:`~pipeline.ingest.discover.Known` of a ledger: each archive whose ledger entry has its
    current key, as one entry standing for its members (never read)."""
    return functools.partial(_known, ledger.filter(ledger["archive"]))


def _known(archives: pa.Table, found: list[FileEntry]) -> dict[str, list[FileEntry] | None]:
    rows = {rel: i for i, rel in enumerate(archives["rel"].to_pylist())}
    stat = [archives[c].to_pylist() for c in ("file_size", "file_mtime_ns", "file_inode", "file_ctime_ns")]
    counts = archives["members"].to_pylist()
    entries: dict[str, list[FileEntry] | None] = {}
    for a in found:
        i = rows.get(a.rel)
        if i is not None and tuple(column[i] for column in stat) == (a.size, a.mtime_ns, a.inode, a.ctime_ns):
            entries[a.rel] = [standing_for(a, counts[i])]
    return entries


@dataclass(frozen=True, slots=True)
class Compared:
    """A run's listing against the ledger: the entries to parse (in order), and the ledger's entries
    that are ``gone`` (columns ``rel``, ``archive``: their rows are to be dropped)."""

    todo: list[FileEntry]
    gone: pa.Table


def compare(ledger: pa.Table, listing: pa.Table, files: list[FileEntry]) -> Compared:
    """Compare ``listing`` (of ``files``) with ``ledger``: see :class:`Compared`. Columnar: one hash of
    the paths, the keys compared as numbers."""
    where = pc.index_in(ledger["rel"], value_set=listing["rel"])
    same = same_keys(ledger, listing, where)
    hit = np.zeros(len(files), dtype=bool)
    hit[pc.fill_null(where, 0).to_numpy(zero_copy_only=False)[same]] = True
    todo = [f for f, have in zip(files, hit, strict=True) if not have]
    gone = ledger.filter(pa.array(~same)).select(["rel", "archive"])
    return Compared(todo, gone)
