"""shelf: the ingest cache's rows on disk, by month of their date, so that no stage holds them all.

Layout of ``out/.cache/ingest/``::

    manifest.json          {"parser_version": ..., "parts": {"2024-05": ["p-1a2b3c.parquet", ...], ...}}
    2024-05/p-1a2b3c.parquet   rows (schema CACHE) of games dated May 2024
    undated/p-....parquet      rows without a date (and every row of a file that holds no game)

A month's rows are in one or more *parts*. New rows are buffered per month and written as new parts
(:meth:`Shelf.add`, every :data:`FLUSH_ROWS` rows); rows that are no longer valid (a changed or removed
file) are removed by rewriting the parts of their months (:meth:`Shelf.drop`); :meth:`Shelf.save`
writes the manifest atomically, after every part it names, so a kill at any point leaves a manifest
naming complete parts only (parts it does not name are removed when the shelf is next opened). A month
with more than :data:`COMPACT_PARTS` parts is merged into one at the save.

Knows nothing of what the rows mean beyond their ``date`` and ``source_path``: which rows to keep is
:mod:`pipeline.ingest.cache`'s decision.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.core import store
from pipeline.core.periods import UNDATED, month_keys
from pipeline.core.schema import CACHE

SHELF = Path(".cache") / "ingest"
MANIFEST = "manifest.json"
#: The columns :meth:`Shelf.keys` reads: what deciding which rows to keep needs.
KEYS = ("source_path", "game_index", "source_path_bytes", "file_size", "file_mtime_ns", "file_inode",
        "file_ctime_ns", "error_kind", "parse_error")  # fmt: skip
FLUSH_ROWS = 65_536  # rows buffered before they are written as parts (memory: a few tens of MB)
COMPACT_PARTS = 8  # parts of one month above which a save merges them


#: The month key of the rows without a date.
class Shelf:
    """The cache's rows in ``out`` for parser version ``version``. Raises OSError if a part cannot be
    written or read (a damaged shelf is detected by :meth:`open`, never by a reader)."""

    def __init__(self, out: Path, version: str, parts: dict[str, list[str]]) -> None:
        self.root, self.version, self.parts = out / SHELF, version, parts
        self.buffer: dict[str, list[pa.Table]] = {}
        self.buffered = 0
        self.garbage: list[Path] = []  # parts no longer named, removed after the next save
        self._keys: pa.Table | None = None  # read once, before the run changes anything
        #: The digest of the discovered files whose rows the shelf holds, all of them and nothing
        #: else (None: unknown, e.g. during a run that changes it), how many files that was, and the
        #: file holding their ledger (:mod:`~pipeline.ingest.ledger`).
        self.listing: str | None = None
        self.files: int | None = None
        self.ledger_name: str | None = None

    @classmethod
    def open(cls, out: Path, version: str) -> Shelf:
        """The shelf in ``out``: empty when there is none, it is damaged (a part missing, or its footer
        unreadable) or another parser wrote it (its files are then removed at the first save). Parts its
        manifest does not name are removed at the first save."""
        root = out / SHELF
        try:
            manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
            same = manifest["parser_version"] == version
            parts = (
                {str(m): [str(p) for p in names] for m, names in manifest["parts"].items()} if same else {}
            )
            for month, names in parts.items():
                for name in names:
                    pq.read_metadata(root / month / name)  # a damaged part fails here, not in a reader
            shelf = cls(out, version, parts)
            if same and isinstance(manifest.get("listing"), str) and isinstance(manifest.get("files"), int):
                shelf.listing, shelf.files = manifest["listing"], manifest["files"]
            if same and isinstance(manifest.get("ledger"), str):
                shelf.ledger_name = manifest["ledger"]
        except (OSError, ValueError, KeyError, TypeError, AttributeError, pa.ArrowException):
            shelf = cls(out, version, {})  # a damaged cache costs a full parse, never the run
        shelf._collect_strays()
        return shelf

    def reset(self) -> None:
        """Forget every row (a damaged part found late): the run parses every file again."""
        self.garbage += [self.root / m / p for m, names in self.parts.items() for p in names]
        self.parts, self._keys = {}, None
        self.forget_listing()

    def forget_listing(self) -> None:
        """Forget which files the rows are of (the run is about to change them)."""
        if self.ledger_name is not None:
            self.garbage.append(self.root / self.ledger_name)
        self.listing, self.files, self.ledger_name = None, None, None

    def ledger(self) -> pa.Table | None:
        """The ledger of the rows (:mod:`~pipeline.ingest.ledger`), None when there is none or it cannot
        be read."""
        if self.ledger_name is None:
            return None
        try:
            return pq.ParquetFile(self.root / self.ledger_name).read()  # (no pyarrow.dataset import)
        except (OSError, pa.ArrowException):
            return None

    def keep_listing(self, listing: str, files: int, ledger: pa.Table) -> None:
        """Record that the rows are those of ``files`` files, whose listing has the digest ``listing``
        and the ledger ``ledger`` (written at once; named by the next :meth:`save`)."""
        self.forget_listing()
        name = f"ledger-{secrets.token_hex(6)}.parquet"
        self.root.mkdir(parents=True, exist_ok=True)
        pq.write_table(ledger, self.root / name, compression="zstd")
        self.listing, self.files, self.ledger_name = listing, files, name

    def _collect_strays(self) -> None:
        """Mark for removal the parts no manifest names, and the cache file of versions before the shelf."""
        named = {self.root / m / p for m, names in self.parts.items() for p in names}
        named |= {self.root / self.ledger_name} if self.ledger_name else set()
        if self.root.is_dir():
            self.garbage += [p for p in self.root.glob("*/*.parquet") if p not in named]
            self.garbage += [p for p in self.root.glob("ledger-*.parquet") if p not in named]
        if (self.root.parent / "ingest.parquet").exists():
            self.garbage.append(self.root.parent / "ingest.parquet")

    def months(self) -> list[str]:
        """The months with rows (``YYYY-MM`` or ``undated``), buffered rows included."""
        return sorted({*self.parts, *self.buffer})

    def keys(self) -> pa.Table:
        """The :data:`KEYS` columns of every row on the shelf (written parts only), and ``month``; a
        part that cannot be read empties the shelf (:meth:`reset`)."""
        if self._keys is None:
            try:
                self._keys = self._read_keys()
            except (OSError, pa.ArrowException):
                self.reset()
                self._keys = self._read_keys()
        return self._keys

    def _read_keys(self) -> pa.Table:
        tables = [
            _with_month(self._read(month, part, KEYS), month)
            for month, names in self.parts.items()
            for part in names
        ]
        return pa.concat_tables([_with_month(_empty(KEYS), UNDATED), *tables])

    def read(self, months: Sequence[str]) -> pa.Table:
        """Every row (schema CACHE) of ``months``, buffered rows included, in no particular order."""
        tables = [self._read(m, p, CACHE.names) for m in months for p in self.parts.get(m, [])]
        tables += [t for m in months for t in self.buffer.get(m, [])]
        return pa.concat_tables([CACHE.empty_table(), *tables])

    def _read(self, month: str, part: str, columns: Sequence[str]) -> pa.Table:
        return pq.ParquetFile(self.root / month / part).read(columns=list(columns)).cast(_schema(columns))

    def months_digest(self, months: Sequence[str]) -> str | None:
        """A digest of the parts that hold the rows of ``months``: a part is written once and never
        changed, so the digest changes whenever a row of theirs does (and, needlessly, when a month's
        parts are merged). None while some of their rows are buffered."""
        if any(m in self.buffer for m in months):
            return None
        named = "\0".join(f"{m}:{','.join(self.parts.get(m, []))}" for m in months)
        return hashlib.blake2b(f"{self.version}\0{named}".encode(), digest_size=16).hexdigest()

    def add(self, table: pa.Table) -> None:
        """Keep ``table``'s rows (schema CACHE); written as parts every :data:`FLUSH_ROWS` rows."""
        if not table.num_rows:
            return
        keys = month_keys(table["date"])
        for month in pc.unique(keys).to_pylist():
            self.buffer.setdefault(month, []).append(table.filter(pc.equal(keys, month)))
        self.buffered += table.num_rows
        self.forget_listing()
        if self.buffered >= FLUSH_ROWS:
            self.flush()

    def flush(self) -> None:
        """Write the buffered rows as one new part per month."""
        for month, tables in self.buffer.items():
            self._write(month, pa.concat_tables(tables))
        self.buffer, self.buffered = {}, 0

    def drop(self, paths: pa.Array, months: Sequence[str]) -> None:
        """Remove every row whose ``source_path`` is in ``paths`` from the parts of ``months`` (the
        months where such rows are), each month's parts rewritten as one."""
        for month in months:
            if month in self.parts:
                table = self._parts_of(month)
                self._replace(month, table.filter(pc.invert(pc.is_in(table["source_path"], value_set=paths))))
                self.forget_listing()

    def drop_entries(self, gone: pa.Table) -> None:
        """Remove the rows of the ledger entries ``gone`` (columns ``rel``, ``archive``: an archive's
        rows are ``rel`` and ``rel!...``), looking at one part's paths at a time; a part holding some
        is written again without them."""
        if not gone.num_rows:
            return
        files = gone.filter(pc.invert(gone["archive"]))["rel"]
        archives = gone.filter(gone["archive"])["rel"].to_pylist()
        for month, names in list(self.parts.items()):
            for name in list(names):
                self._drop_from(month, name, files, archives)
        self.forget_listing()

    def _drop_from(self, month: str, name: str, files: pa.ChunkedArray, archives: list[str]) -> None:
        paths = self._read(month, name, ["source_path"])["source_path"]
        hit = pc.is_in(paths, value_set=files.combine_chunks())
        for rel in archives:
            hit = pc.or_(hit, pc.or_(pc.equal(paths, rel), pc.starts_with(paths, f"{rel}!")))
        if not pc.any(hit).as_py():
            return
        table = self._read(month, name, CACHE.names).filter(pc.invert(hit))
        self.parts[month].remove(name)
        if not self.parts[month]:
            del self.parts[month]
        self.garbage.append(self.root / month / name)
        self._write(month, table)

    def save(self) -> None:
        """Write the buffer, merge months of many parts, then the manifest (atomically); remove the parts
        it no longer names."""
        self.flush()
        for month, names in list(self.parts.items()):
            if len(names) > COMPACT_PARTS:
                self._replace(month, self._parts_of(month))
        manifest: dict[str, object] = {"parser_version": self.version, "parts": self.parts}
        manifest |= {"listing": self.listing, "files": self.files, "ledger": self.ledger_name}
        self.root.mkdir(parents=True, exist_ok=True)
        store.write_json(manifest, self.root / MANIFEST)
        for path in self.garbage:
            path.unlink(missing_ok=True)
        self.garbage = []

    def _parts_of(self, month: str) -> pa.Table:
        parts = [self._read(month, p, CACHE.names) for p in self.parts[month]]
        return pa.concat_tables([CACHE.empty_table(), *parts])

    def _replace(self, month: str, table: pa.Table) -> None:
        """The parts of ``month`` replaced by one holding ``table`` (none for no rows)."""
        self.garbage += [self.root / month / p for p in self.parts.pop(month, [])]
        self._write(month, table)

    def _write(self, month: str, table: pa.Table) -> None:
        if not table.num_rows:
            return
        name = f"p-{secrets.token_hex(6)}.parquet"
        (self.root / month).mkdir(parents=True, exist_ok=True)
        pq.write_table(table.cast(CACHE), self.root / month / name, compression="zstd")
        self.parts.setdefault(month, []).append(name)


def _with_month(table: pa.Table, month: str) -> pa.Table:
    """``table`` with the column ``month`` (a dictionary column: one string, not one per row)."""
    indices = pa.array(np.zeros(table.num_rows, dtype=np.int32))
    return table.append_column("month", pa.DictionaryArray.from_arrays(indices, pa.array([month])))


def _schema(columns: Sequence[str]) -> pa.Schema:
    return pa.schema([CACHE.field(c) for c in columns])


def _empty(columns: Sequence[str]) -> pa.Table:
    return _schema(columns).empty_table()


def load(out: Path, version: str) -> pa.Table | None:
    """Every row of the shelf in ``out`` (schema CACHE), or None when it has none: for tools and tests
    that look at a small cache whole."""
    shelf = Shelf.open(out, version)
    return shelf.read(shelf.months()) if shelf.parts else None


def replace(table: pa.Table, out: Path, version: str) -> None:
    """Make ``table`` (schema CACHE) the whole shelf in ``out``."""
    shelf = Shelf.open(out, version)
    shelf.reset()
    shelf.add(table)
    shelf.save()
