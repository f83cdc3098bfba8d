"""player_rows: one player's rows of an output folder, found through its player index
(:mod:`pipeline.output.player_index`) instead of every game record and every partition.

The same rows as the tables read whole and filtered give (``tests/test_player_index.py``): the player's
game records (either side) as :func:`pipeline.output.folder.read_games` gives them, the changes rows of
their counted games (both players'), their ratings rows where they first appear or moved. :func:`index_of`
is None for an output without an index (written before there was one, or a plain copy of one), and the
callers then read the tables whole; a file of the index that cannot be read raises
:class:`~pipeline.output.player_index.Unreadable`, for which they do the same.

The rows come as Arrow tables (:func:`games_table`, :func:`changes_table`, :func:`ratings_table`): a
command that answers about one player imports no pandas. Knows nothing of the questions asked
of the rows, nor of how the index is laid out.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.config.roster import name_key
from pipeline.core import arrays, strings
from pipeline.core.periods import UNDATED
from pipeline.output import folder as outputs
from pipeline.output.player_index import PlayerIndex, Unreadable

if TYPE_CHECKING:
    pass

__all__ = [
    "PlayerIndex",
    "Unreadable",
    "changes_table",
    "games_table",
    "index_of",
    "known_periods",
    "ratings_table",
]


def index_of(out: Path) -> PlayerIndex | None:
    """The player index of ``out``'s current generation (None: it has none)."""
    return PlayerIndex.of(out)


def players_of(index: PlayerIndex, key: str) -> set[str]:
    """The canonical names that a spelling of name key ``key`` stands for."""
    return set(index.rows("names", key).column("player").to_pylist())


def chunks_of(index: PlayerIndex, player: str) -> list[str]:
    """The chunks of ``index`` that hold rows of ``player`` (a canonical name): those whose names have it
    (the names of a chunk are those of its records' sides and of its ratings rows)."""
    found = index.rows_by_chunk("names", name_key(player))
    return [chunk for chunk, rows in found.items() if player in rows.column("player").to_pylist()]


def games_table(index: PlayerIndex, player: str) -> pa.Table:
    """Every game record of ``player`` (either side), with the columns of
    :data:`~pipeline.output.player_index.SIDE_COLUMNS`, as :func:`~pipeline.output.folder.read_games_table`
    gives them (``seq`` order, days as dates)."""
    rows = index.rows("games", player, chunks_of(index, player))
    return outputs.games_table(rows.drop_columns(["player"]))


def changes_table(index: PlayerIndex, player: str, games: pa.Table) -> pa.Table:
    """The changes rows (:data:`~pipeline.output.player_index.CHANGE_COLUMNS`, ``period``, and the
    ``game_id`` of ``games``, the player's records: :func:`games_table`) of every counted game of
    ``player``: theirs and their opponents'; a change of a game not among ``games`` has a null
    ``game_id``."""
    found = outputs.with_dates(index.rows("changes", player, chunks_of(index, player)).drop_columns(["key"]))
    seqs = games.column("seq")
    where = pc.index_in(found.column("seq").cast(seqs.type), value_set=arrays.array(seqs))
    return found.append_column("game_id", arrays.array(games.column("game_id")).take(where))


def ratings_table(index: PlayerIndex, player: str, rated: list[str]) -> pa.Table:
    """``player``'s ratings rows where they first appear or moved (with ``period`` and ``moved``; days as
    dates), in the order of the periods ``rated`` (the run's rated periods, in time order; a row of
    another period last)."""
    found = outputs.with_dates(index.rows("ratings", player, chunks_of(index, player)))
    place = pc.index_in(found.column("period").cast(pa.string()), strings.texts(rated))
    return found.take(pc.array_sort_indices(place))  # (stable; a period not rated, null, last)


def known_periods(index: PlayerIndex, out: Path) -> list[str]:
    """Every period a game record of ``out`` falls in, or that was rated, in time order (as
    :func:`pipeline.output.folder.game_periods` gives them)."""
    labels = [label for label in index.labels if label != UNDATED]
    return outputs.in_order([*labels, *outputs.rated_periods(out)])
