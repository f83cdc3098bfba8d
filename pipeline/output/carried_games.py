"""carried_games: the audited games of the pieces whose audit inputs did not change since the previous
generation, read back from its ``games.parquet`` instead of being audited again.

A piece (one period's rows, or the undated ones: :func:`pipeline.audit.pieces.groups`) is audited from
nothing but its rows, the roster, the events, the validity and the ``seq`` it starts at
(:mod:`pipeline.audit.pieces`), and the ``seq`` it starts at only numbers its rows. Its *audit digest*
``H(configuration digest, key, the source's version of its months)`` is kept in the state index with
its row count (:attr:`pipeline.output.state.Index.pieces`). A piece of this run whose key and digest
are the previous generation's is read back, its ``seq`` moved by the difference of the two starts (a
late record in an early period shifts every later piece by one): the configuration digest covers the
settings, the parser and the audit's own code, so they are the rows an audit would give. A source that
cannot give a version (None), a previous file that cannot be read or does not hold the rows the index
says: audited.

Knows nothing of what the audit does, nor of how pieces are formed.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.core.tables import GAMES

#: A piece as the state index keeps it: its key, its audit digest (None: unknown), its row count.
Piece = tuple[str, str | None, int]


def audit_digest(config: str, key: str, version: str | None) -> str | None:
    """The audit digest of the piece ``key`` whose months' rows have ``version`` (None: unknown, and
    so is the digest), audited under the configuration digest ``config``."""
    if version is None:
        return None
    text = f"{config}\0{key}\0{version}"
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class CarriedGames:
    """The previous generation's audited games (``games``: its ``games.parquet``, None: no previous
    generation, or one made under another configuration) by piece, from its ``pieces`` in file order,
    for a run under the configuration digest ``config``; ``taken`` counts the pieces given back."""

    def __init__(self, games: Path | None, pieces: Sequence[Piece], config: str = "") -> None:
        self.config, self.taken = config, 0
        firsts = itertools.accumulate((rows for _, _, rows in pieces), initial=0)  # (one more than pieces)
        self.found = {
            key: (digest, first, rows) for (key, digest, rows), first in zip(pieces, firsts, strict=False)
        }
        self.file: pq.ParquetFile | None = None
        self.starts: list[int] = []
        if self.found and games is not None:
            self._open(games)

    def _open(self, games: Path) -> None:
        try:
            self.file = pq.ParquetFile(games)
        except (OSError, pa.ArrowException):
            return
        sizes = [self.file.metadata.row_group(i).num_rows for i in range(self.file.num_row_groups)]
        self.starts = [0, *itertools.accumulate(sizes)]

    def take(self, key: str, digest: str | None, start: int) -> pa.Table | None:
        """The audited games (schema GAMES) of the piece ``key``, whose audit digest this run computed
        as ``digest``, with ``seq`` from ``start``; None when it must be audited (a new or changed
        piece, an unknown digest, or previous rows that cannot be read)."""
        before = self.found.get(key)
        if self.file is None or digest is None or before is None or before[0] != digest:
            return None
        table = self._rows(before[1], before[2])
        if table is None:
            return None
        self.taken += 1
        return _moved(table, start - before[1])

    def piece(self, key: str, columns: Sequence[str] | None = None) -> pa.Table | None:
        """The games (schema GAMES, only ``columns``: None for all) of the piece ``key`` as the file holds
        them, ``seq`` unmoved (None: no such piece, or rows that cannot be read): a run's own pieces read
        back from its own file."""
        found = self.found.get(key)
        return None if self.file is None or found is None else self._rows(found[1], found[2], columns)

    def _rows(self, start: int, count: int, columns: Sequence[str] | None = None) -> pa.Table | None:
        """Rows ``start`` to ``start + count`` of the previous file as schema GAMES (only ``columns``:
        None for all; None: unreadable)."""
        assert self.file is not None
        end = start + count
        if end > self.starts[-1] or count <= 0:
            return None
        first = bisect.bisect_right(self.starts, start) - 1
        last = bisect.bisect_left(self.starts, end)
        schema = GAMES if columns is None else pa.schema([GAMES.field(c) for c in columns])
        try:
            table = self.file.read_row_groups(list(range(first, last)), columns=columns)
            return table.slice(start - self.starts[first], count).cast(schema)
        except (OSError, pa.ArrowException):
            return None


def _moved(games: pa.Table, by: int) -> pa.Table:
    """``games`` with ``by`` added to every ``seq``."""
    if not by:
        return games
    at = games.schema.get_field_index("seq")
    return games.set_column(at, games.schema.field(at), pc.add(games["seq"], pa.scalar(by, pa.int64())))
