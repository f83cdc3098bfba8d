"""run.indexing: the player index of a run (:mod:`pipeline.output.player_index`): its chunks, which of them
the previous generation holds already, and the rows about each player of the others, from what the run
wrote.

A chunk's fingerprint is a digest of what its rows come from, for each of its periods: the audited piece
(its audit digest, which covers the configuration and the code; its first ``seq`` and its row count) and
the rated period's chained digest (:func:`pipeline.output.state.chained`: the same ratings, changes and
awards, and the same players before it). Equal fingerprints, equal rows: the chunk is linked. A piece
whose source cannot give a version has no digest, and its chunk is always written.

The rows of a chunk that is written, read back from the run's generation:

- ``games``: each game record's sides, one row per side whose canonical name is known (a player on both
  sides of a record once), with the columns :data:`~pipeline.output.player_index.SIDE_COLUMNS`;
- ``changes``: each changes row twice, under its player and under its opponent, so that a player's key
  finds both rows of each of their counted games;
- ``ratings``: the ratings rows in which a player first appears (not rated in the period before) or
  moved (a counted game, a change of rating or rank, an award), with ``period`` and ``moved``;
- ``names``: the name key (:func:`pipeline.config.roster.name_key`) of every spelling of the chunk's
  records (as written, and canonical) and of its rated players, with the canonical name it stands for.

Knows nothing of how the files are laid out or found again (the writer's business).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.config.roster import name_key
from pipeline.core import tables
from pipeline.core.i18n import _
from pipeline.core.periods import UNDATED, bounds
from pipeline.core.progress import SILENT, Steps
from pipeline.core.tables import GAMES
from pipeline.output import index_writer, memory
from pipeline.output.carried_games import CarriedGames, Piece
from pipeline.output.carry import PartitionWriter
from pipeline.output.index_writer import IndexWriter, Part, plan, runs
from pipeline.output.player_index import CHANGE_COLUMNS, SIDE_COLUMNS, Chunk


def index_players(
    writer: PartitionWriter,
    games: Path,
    pieces: Sequence[Piece],
    periods: Sequence[tuple[str, str]],
    steps: Steps = SILENT,
) -> None:
    """Write the player index of ``writer``'s generation, whose ``games`` (its ``games.parquet``) holds
    ``pieces`` in order, and whose rated periods are ``periods`` (each label with its chained digest, in
    order): its chunks are runs (:func:`~pipeline.output.index_writer.runs`) of blocks of at most
    :data:`~pipeline.output.index_writer.CHUNK_RECORDS` records (:func:`~pipeline.output.index_writer.plan`);
    each is linked from the previous generation when it holds it, else built, or merged from the parts of
    it the previous generation holds and the rows of the other blocks.

    Raises OSError if a file cannot be read or written."""
    starts = itertools.accumulate((rows for _, _, rows in pieces), initial=0)
    found = {key: (digest, start, rows) for (key, digest, rows), start in zip(pieces, starts, strict=False)}
    rated = dict(periods)
    labels = sorted({*found, *rated}, key=_time)
    weights = [(label, found[label][2] if label in found else 0) for label in labels]
    blocks = plan(weights, index_writer.CHUNK_RECORDS)

    def chunk(run: range) -> Chunk:
        names = [label for block in run for label in blocks[block]]
        return Chunk(names[0], tuple(names), _fingerprint(names, found, rated))

    index = IndexWriter(writer.generation, writer.before)
    source = _Source(writer, CarriedGames(games, pieces), [label for label, _ in periods])
    with steps.step(_("indexing players"), len(blocks)) as advance:
        for run in runs(len(blocks)):
            whole = chunk(run)
            if index.reusable(whole):
                index.link(whole)
                advance(len(run))
            elif len(run) == 1:
                index.write(whole, source.rows(whole.labels))
                advance(1)
            else:
                try:
                    index.merge(whole, list(_parts(index, source, run, chunk, advance)))  # (advanced by part)
                except OSError:
                    # (a file of the previous generation that cannot be read: every block's rows made again)
                    index.merge(whole, list(_parts(index, source, run, chunk, _quiet, held=False)))
            memory.release_unused_memory()
    index.finish()


def _parts(
    index: IndexWriter,
    source: _Source,
    run: range,
    chunk: Callable[[range], Chunk],
    advance: Callable[[int], None],
    held: bool = True,
) -> Iterator[Part]:
    """The parts of the index's chunk of ``run`` (blocks of :func:`plan`), in order: from each block on,
    the longest run of them the previous generation holds as a chunk (unless not ``held``), else that
    block's rows, written."""
    at = run.start
    while at < run.stop:
        ends = range(run.stop, at, -1) if held else ()
        end = next((end for end in ends if index.reusable(chunk(range(at, end)))), None)
        if end is not None:
            yield index.held(chunk(range(at, end)))
        else:
            end, block = at + 1, chunk(range(at, at + 1))
            yield index.part(block, source.rows(block.labels))
        memory.release_unused_memory()
        advance(end - at)
        at = end


def _quiet(done: int) -> None:
    """No progress to tell (the blocks were told once already)."""


def _time(label: str) -> tuple[int, str, str]:
    """Time order of period labels, the undated records last."""
    return (1, "", label) if label == UNDATED else (0, bounds(label)[0].isoformat(), label)


def _fingerprint(
    labels: Sequence[str], pieces: dict[str, tuple[str | None, int, int]], rated: dict[str, str]
) -> str | None:
    """The digest of what the rows of ``labels`` come from (None: a piece without a digest)."""
    parts = []
    for label in labels:
        piece = pieces.get(label)
        if piece is not None and piece[0] is None:
            return None
        parts.append([label, piece, rated.get(label)])
    return hashlib.blake2b(json.dumps(parts).encode(), digest_size=16).hexdigest()


class _Source:
    """The rows of a chunk's periods, from the generation ``writer`` writes: the games of each piece
    from ``games``, the partitions of the rated periods ``rated`` (in order)."""

    def __init__(self, writer: PartitionWriter, games: CarriedGames, rated: list[str]) -> None:
        self.writer, self.games, self.rated = writer, games, rated
        self.before = {label: i for i, label in enumerate(rated)}
        self.empty = {  # as the partitions store them: a period without rows has the same columns
            name: tables.stored(name, schema.empty_table(), partition="period")
            for name, schema in writer.schemas.items()
        }
        self.players: tuple[str, pa.ChunkedArray] | None = None  # the last period read, and its players

    def rows(self, labels: Sequence[str]) -> Iterator[tuple[str, pa.Table]]:
        """The rows of every kind of the chunk of ``labels``, one kind at a time (the names last: made
        from the players and spellings of the others, which are not held)."""
        pieces = [label for label in labels if label in self.games.found]
        empty = GAMES.empty_table().select(list(SIDE_COLUMNS))
        sides = pa.concat_tables([sides_of(self._games(label)) for label in pieces] or [sides_of(empty)])
        spellings = spellings_of(sides)
        yield "games", sides
        del sides
        rated = [label for label in labels if label in self.before]
        yield "changes", pa.concat_tables([self._changes(label) for label in rated] or [self._changes(None)])
        ratings = pa.concat_tables([self._ratings(label) for label in rated] or [self._ratings(None)])
        players = pc.unique(ratings.column("player"))
        yield "ratings", ratings
        del ratings
        yield (
            "names",
            names_of(pa.concat_tables([spellings, pa.table({"spelling": players, "player": players})])),
        )

    def _games(self, label: str) -> pa.Table:
        found = self.games.piece(label, SIDE_COLUMNS)
        if found is None:
            raise OSError(f"the run's games.parquet does not hold the games of {label}")
        return found

    def _changes(self, label: str | None) -> pa.Table:
        columns = [*CHANGE_COLUMNS, "opponent"]
        found = self.writer.read("changes", label, columns) if label is not None else None
        return keyed(found if found is not None else self.empty["changes"].select(columns), label or "")

    def _ratings(self, label: str | None) -> pa.Table:
        table = self.writer.read("ratings", label) if label is not None else None
        if label is None or table is None:
            return moved_rows(self.empty["ratings"], label or "", None, None)
        awards = self.writer.read("awards", label, ["player"])
        before = self._players(self.rated[self.before[label] - 1]) if self.before[label] else None
        self.players = (label, table.column("player"))
        return moved_rows(table, label, awards.column("player") if awards is not None else None, before)

    def _players(self, label: str) -> pa.ChunkedArray | None:
        """The players of ``label``'s ratings (the period read last: not read again)."""
        if self.players is not None and self.players[0] == label:
            return self.players[1]
        found = self.writer.read("ratings", label, ["player"])
        return found.column("player") if found is not None else None


def sides_of(games: pa.Table) -> pa.Table:
    """Each game record's sides (``player`` and the :data:`SIDE_COLUMNS` of ``games``): Black's where
    ``black_player`` is known, White's where ``white_player`` is known and is not Black's."""
    games = games.select(list(SIDE_COLUMNS))
    black, white = games.column("black_player"), games.column("white_player")
    other = pc.fill_null(pc.not_equal(white, black), True)
    sides = pa.concat_tables(
        [games.append_column("player", black), games.append_column("player", white).filter(other)]
    )
    return sides.filter(pc.is_valid(sides.column("player")))


def keyed(changes: pa.Table, label: str) -> pa.Table:
    """``changes`` (:data:`CHANGE_COLUMNS` and ``opponent``) under ``key``: each row under its player, and
    again under its opponent (when another player), with ``period`` ``label``."""
    opponent, player = changes.column("opponent"), changes.column("player")
    other = changes.filter(pc.fill_null(pc.not_equal(opponent, player), False))
    found = pa.concat_tables(
        [changes.append_column("key", player), other.append_column("key", other.column("opponent"))]
    ).drop_columns(["opponent"])
    return found.append_column("period", pa.array([label] * found.num_rows, pa.string()))


def moved_rows(
    table: pa.Table, label: str, awarded: pa.ChunkedArray | None, before: pa.ChunkedArray | None
) -> pa.Table:
    """The rows of ``table`` (period ``label``'s ratings) of the players who moved (a counted game, a
    change of rating or rank, an award: ``awarded`` the players of its awards) or who were not rated in
    the period before (``before``: its players; None: it is the first), with ``period`` and ``moved``."""
    rank, rank_before = (pc.fill_null(table.column(c).cast(pa.string()), "") for c in ("rank", "rank_before"))
    moved = pc.or_(
        pc.or_(pc.greater(table.column("games"), 0), pc.not_equal(table.column("delta"), 0)),
        pc.not_equal(rank, rank_before),
    )
    if awarded is not None:
        moved = pc.or_(moved, pc.is_in(table.column("player"), value_set=awarded.combine_chunks()))
    new = (
        pc.invert(pc.is_in(table.column("player"), value_set=before.combine_chunks()))
        if before is not None
        else pa.array([True] * table.num_rows, pa.bool_())
    )
    keep = pc.or_(moved, new)
    rows = table.filter(keep)
    rows = rows.append_column("period", pa.array([label] * rows.num_rows, pa.string()))
    return rows.append_column("moved", moved.filter(keep))


def spellings_of(sides: pa.Table) -> pa.Table:
    """``spelling`` and ``player``: each name of the ``sides``' records (as written, and canonical) with
    the canonical name it stands for; distinct."""
    schema = pa.schema([("spelling", pa.string()), ("player", pa.string())])
    pairs = [
        pa.table({"spelling": sides.column(raw), "player": sides.column(canonical)}).cast(schema)
        for raw, canonical in (("black", "black_player"), ("white", "white_player"))
    ]
    canonical = pc.unique(sides.column("player"))
    pairs.append(pa.table({"spelling": canonical, "player": canonical}).cast(schema))
    found = pa.concat_tables(pairs)
    found = found.filter(pc.and_(pc.is_valid(found.column("spelling")), pc.is_valid(found.column("player"))))
    return found.group_by(["spelling", "player"], use_threads=False).aggregate([])


def names_of(spellings: pa.Table) -> pa.Table:
    """``key`` and ``player``: the name key of each of ``spellings`` (``spelling`` and the ``player`` it
    stands for), distinct."""
    found = spellings.group_by(["spelling", "player"], use_threads=False).aggregate([])
    keys = pa.array([name_key(s) for s in found.column("spelling").to_pylist()], pa.string())
    found = pa.table({"key": keys, "player": found.column("player")})
    return found.group_by(["key", "player"], use_threads=False).aggregate([])
