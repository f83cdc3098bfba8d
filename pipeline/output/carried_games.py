"""carried_games: the audited games of the pieces whose audit inputs did not change since the previous
generation, read back from its ``games.parquet`` instead of being audited again.

A piece (one period's rows, or the undated ones: :func:`pipeline.audit.pieces.groups`) is audited from
nothing but its rows, the roster, the events, the validity and the ``seq`` it starts at
(:mod:`pipeline.audit.pieces`). Its *audit digest* ``H(configuration digest, key, the source's version
of its months, its first seq)`` is kept in the state index with its row count
(:attr:`pipeline.output.state.Index.pieces`). While a run's pieces have the digests of the previous
generation's, in the same order from the first, their rows are read back: the configuration digest
covers the settings, the parser and the audit's own code, so they are the rows an audit would give.
From the first piece that differs on, everything is audited. A source that cannot give a version
(None), a previous file that cannot be read or does not hold the rows the index says: audited.

Knows nothing of what the audit does, nor of how pieces are formed.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.output.tables import GAMES

#: A piece as the state index keeps it: its key, its audit digest (None: unknown), its row count.
Piece = tuple[str, str | None, int]


def audit_digest(config: str, key: str, version: str | None, start: int) -> str | None:
    """The audit digest of the piece ``key`` whose months' rows have ``version`` (None: unknown, and
    so is the digest), audited with ``seq`` from ``start`` under the configuration digest ``config``."""
    if version is None:
        return None
    text = f"{config}\0{key}\0{version}\0{start}"
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class CarriedGames:
    """The previous generation's audited games (``games``: its ``games.parquet``, None: no previous
    generation, or one made under another configuration) and its ``pieces``, given back piece by
    piece while the pieces match, for a run under the configuration digest ``config``; ``taken``
    counts the pieces given back."""

    def __init__(self, games: Path | None, pieces: Sequence[Piece], config: str = "") -> None:
        self.pieces, self.matching, self.config = list(pieces), bool(pieces) and games is not None, config
        self.taken = 0  # pieces given back so far
        self.file: pq.ParquetFile | None = None
        self.starts: list[int] = []
        if self.matching and games is not None:
            self._open(games)

    def _open(self, games: Path) -> None:
        try:
            self.file = pq.ParquetFile(games)
        except (OSError, pa.ArrowException):
            self.matching = False
            return
        sizes = [self.file.metadata.row_group(i).num_rows for i in range(self.file.num_row_groups)]
        self.starts = [0, *itertools.accumulate(sizes)]

    def take(self, position: int, key: str, digest: str | None, start: int) -> pa.Table | None:
        """The audited games (schema GAMES) of the ``position``-th piece, ``key``, whose audit digest
        this run computed as ``digest`` and whose rows start at ``start`` (its first seq); None when it
        must be audited, and from then on for every later piece."""
        if not self.matching or position >= len(self.pieces) or digest is None:
            self.matching = False
            return None
        before = self.pieces[position]
        if (before[0], before[1]) != (key, digest):
            self.matching = False
            return None
        table = self._rows(start, before[2])
        self.matching = table is not None
        self.taken += self.matching
        return table

    def _rows(self, start: int, count: int) -> pa.Table | None:
        """Rows ``start`` to ``start + count`` of the previous file as schema GAMES (None: unreadable)."""
        assert self.file is not None
        end = start + count
        if end > self.starts[-1] or count <= 0:
            return None
        first = bisect.bisect_right(self.starts, start) - 1
        last = bisect.bisect_left(self.starts, end)
        try:
            table = self.file.read_row_groups(list(range(first, last)))
            return table.slice(start - self.starts[first], count).cast(GAMES)
        except (OSError, pa.ArrowException):
            return None
