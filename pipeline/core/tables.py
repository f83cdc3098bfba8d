"""tables: the explicit Arrow schemas of the tables written after ingest (audit, rating, awards), and how
the output files store them.

Kept apart from :mod:`pipeline.core.schema` (the ingest and cache schemas), whose source is part of the
parser version: changing an output table must not force every file to be parsed again. Every field
carries a short description (:data:`~pipeline.core.schema.DESCRIPTION` in its metadata), from which
``docs/columns.md`` is generated (:mod:`pipeline.reports.columns`).

:func:`stored` gives a table as its output file holds it, for analysts' plain ``pd.read_parquet``: every
day (``date32``: the ``date`` of ``games.parquet``, ``changes``, ``awards``, ``promotions.parquet``, a rule
set's report dates) as one type, a timestamp at midnight (:data:`DAY` ``timestamp[ms]``: pandas gives
``datetime64[ms]`` with ``.dt`` and comparisons with date strings, where a ``date32`` column reads as
Python objects; DuckDB ``TIMESTAMP``, polars ``Datetime``); and pandas metadata that makes a nullable
integer column ``Int32``/``Int64``, a nullable boolean ``boolean`` (not float64 and object when the column
has nulls), and a dataset's ``period`` partition pandas' Arrow string (:data:`PARTITION_DTYPE`), not the
unordered categorical pyarrow's hive discovery would give. Knows nothing of how the values are computed.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

import pyarrow as pa

from pipeline.core.schema import GAMES_INGEST
from pipeline.core.schema import described as _f

#: ``games.parquet``: the ingest columns plus the audit's (the output contract: README.md, "Outputs").
GAMES = pa.schema(
    [
        *GAMES_INGEST,
        _f(
            "black_player",
            pa.string(),
            "Black's canonical name (the roster's, through its aliases); null when black is",
        ),
        _f(
            "white_player",
            pa.string(),
            "White's canonical name (the roster's, through its aliases); null when white is",
        ),
        _f("event_name", pa.string(), "the configured event the record's event matches (events.toml)"),
        _f("event_kind", pa.string(), "that event's kind (team_match, arena, recognised, ...)"),
        _f("stage", pa.string(), "the event's stage the round falls in (e.g. qualifiers, main)"),
        _f("speed_used", pa.string(), "the speed class the rating used (unknown: [validity] unknown_speed)"),
        _f(
            "period",
            pa.string(),
            "rating period of the date: 2024-05, 2024-Q2, 2024-H1 or 2024; null if none",
        ),
        _f("seq", pa.int64(), "order of the games: date, time of day, path, game index", False),
        _f("counted", pa.bool_(), "the game counts for the rating", False),
        _f(
            "reasons",
            pa.list_(pa.string()),
            "why the game does not count (the reason codes of docs/rules.md; empty if counted)",
            False,
        ),
        _f(
            "notes",
            pa.list_(pa.string()),
            "rules that apply but did not exclude it, speed_unknown, missing_player",
            False,
        ),
    ]
)

#: The ``period`` of a dataset (``ratings/``, ``changes/``, ...): the ``period=<P>`` folder a row is in.
PERIOD = _f("period", pa.string(), "rating period: 2024-05, 2024-Q2, 2024-H1 or 2024 (the partition)", False)

#: ``ratings/period=<P>/``: one row per player rated by the end of the period (``period`` is the partition).
RATINGS = pa.schema(
    [
        _f("player", pa.string(), "canonical name", False),
        _f("rank", pa.string(), "rank at the end of the period, under the rule set"),
        _f("rating", pa.float64(), "rating at the end of the period", False),
        _f(
            "rating_before",
            pa.float64(),
            "rating at the start of the period (a newcomer's starting rating)",
            False,
        ),
        _f("delta", pa.float64(), "rating - rating_before: the period's changes plus its awards", False),
        _f("games", pa.int32(), "counted games in the period", False),
        _f("wins", pa.int32(), "games won in the period", False),
        _f("losses", pa.int32(), "games lost in the period", False),
        _f("draws", pa.int32(), "games drawn in the period", False),
        _f("rank_before", pa.string(), "rank at the start of the period"),
        _f("bonus", pa.float64(), "bonus and award points of the period (included in delta)", False),
        _f("games_total", pa.int32(), "counted games up to the end of the period, all periods", False),
        _f("member", pa.bool_(), "a member in the roster (no roster: everyone)", False),
        _f("last_counted", pa.date32(), "the day of the player's last counted game by the period's end"),
        _f(
            "active",
            pa.bool_(),
            "a counted game within [output] active_within before the period's end (not set: everyone)",
            False,
        ),
        _f("inactive_since", pa.date32(), "the day the player became inactive: last_counted + active_within"),
        _f(
            "rating_place",
            pa.int32(),
            "place by rating among the active players (1 = highest; equal ratings share it); null: inactive",
        ),
        _f(
            "deviation",
            pa.float64(),
            "rating deviation at the end of the period: how sure the rating is (rating ± 2 deviations "
            "holds the player's strength with about 95% confidence); null under a rule set without one",
        ),
    ]
)

#: ``changes/period=<P>/``: one row per counted game x rated player; a rule set appends its own columns.
CHANGES = pa.schema(
    [
        _f("game_id", pa.string(), "the game (games.parquet game_id)", False),
        _f("date", pa.date32(), "the day played", False),
        _f("seq", pa.int64(), "the game's order (games.parquet seq)", False),
        _f("player", pa.string(), "the rated player", False),
        _f("opponent", pa.string(), "the opponent", False),
        _f("color", pa.string(), "the player's colour: B or W", False),
        _f("score", pa.float64(), "1 win, 0 loss, 0.5 draw", False),
        _f("rating_before", pa.float64(), "the player's rating the game was rated from", False),
        _f("delta", pa.float64(), "the change the game made: points + bonus", False),
        _f("points", pa.float64(), "the rating points of the game itself", False),
        _f(
            "bonus",
            pa.float64(),
            "bonus points for the game (club: team matches, arenas, server events)",
            False,
        ),
        _f("bonus_rule", pa.string(), "the rule that gave the bonus, or why no points were given"),
        _f("event", pa.string(), "the configured event of the game"),
        _f("speed", pa.string(), "the speed class used: slow or fast"),
        _f(
            "deviation",
            pa.float64(),
            "the player's rating deviation the game was rated from (null under a rule set without one)",
        ),
    ]
)

#: ``awards/period=<P>/``: champion, runner-up and manual awards applied in the period.
AWARDS = pa.schema(
    [
        _f("player", pa.string(), "who received it", False),
        _f("date", pa.date32(), "the day it applies", False),
        _f("event", pa.string(), "the event that gives it", False),
        _f("kind", pa.string(), "champion, runner_up or manual", False),
        _f("points", pa.float64(), "points it gave (0 for a rank award)", False),
        _f("note", pa.string(), "what it is for, or why it changed nothing"),
    ]
)

#: ``promotions.parquet``: one row per promotion or award of rank, with its evidence (empty for rule sets
#: without promotions).
PROMOTIONS = pa.schema(
    [
        _f("player", pa.string(), "who was promoted", False),
        _f("date", pa.date32(), "the day of the promotion", False),
        _f("game_id", pa.string(), "the game that completed it (null for an award or a tournament result)"),
        _f("rule", pa.string(), "the rule applied (e.g. cga-dan 70 over 12, manual award)", False),
        _f("from_rank", pa.string(), "rank before"),
        _f("to_rank", pa.string(), "rank after", False),
        _f(
            "evidence",
            pa.string(),
            "why, in words and numbers (games used, average or criterion, threshold)",
            False,
        ),
        _f("event", pa.string(), "the event it was earned in"),
        _f("value", pa.float64(), "the measured value (average points, score)"),
        _f("threshold", pa.float64(), "the value the rule required"),
        _f("games", pa.int32(), "games the rule counted"),
    ]
)


@dataclass(frozen=True, slots=True)
class Dataset:
    """A table the rating produces for every period: its ``name`` (the folder ``<name>/period=<P>/`` when
    ``partitioned``, else the whole-run file ``<name>.parquet`` with a ``period`` column), its ``schema``
    without ``period`` (a rule set may add columns: ``changes``), and whether a run in which it has no
    row at all writes an empty partition per period (``placeholder``), so that a reader finds every
    period. Adding such a table is its schema, a line in :data:`RATED` and the step that fills it
    (:mod:`pipeline.rules.collect`)."""

    name: str
    schema: pa.Schema
    partitioned: bool = True
    placeholder: bool = False

    @property
    def file(self) -> str:
        """The whole-run file's name (``promotions.parquet``); for a partitioned dataset, its folder's."""
        return self.name if self.partitioned else f"{self.name}.parquet"


#: The tables the rating produces for every period, in the order the run writes them.
RATED: tuple[Dataset, ...] = (
    Dataset("ratings", RATINGS, placeholder=True),
    Dataset("changes", CHANGES, placeholder=True),
    Dataset("awards", AWARDS),
    Dataset("promotions", PROMOTIONS, partitioned=False),
)

#: The type every day of an output file is stored as (a date becomes midnight of its day, no time zone).
DAY = pa.timestamp("ms")
#: The pandas dtype plain ``pd.read_parquet`` gives a dataset's ``period`` (the ``period=<P>`` folders):
#: pandas' Arrow string (``string[pyarrow]``), named in the pandas metadata of every partition file.
#: pyarrow reads hive partitions as an unordered dictionary (a pandas categorical that also holds the
#: ``period=-`` label and on which ``max()`` raises); pyarrow converts a column the metadata names with
#: an extension dtype through that dtype, and pandas' own ``str`` is ignored there for a dictionary.
#: ``utf8[pyarrow]`` (not ``string[pyarrow]``, which pandas parses as its ``StringDtype``) names
#: ``pd.ArrowDtype(pa.string())``: its ``max()`` is the latest period, ``sort_values`` the time order
#: of the labels of one kind, ``==`` and ``isin`` compare with the labels, nulls never occur.
PARTITION_DTYPE = "utf8[pyarrow]"


def stored(name: str, table: pa.Table, partition: str | None = None) -> pa.Table:
    """``table`` as the output file or dataset ``name`` (``games.parquet``, ``ratings``) stores it: every
    ``date32`` column cast to :data:`DAY`, and pandas metadata (replacing any) by which ``pd.read_parquet``
    reads a nullable integer field as pandas' ``Int8`` .. ``UInt64`` and a nullable boolean as ``boolean``.
    ``partition``: the column that is the dataset's hive partition (``period``), left out of the table
    and named in the metadata with :data:`PARTITION_DTYPE`. Raises ArrowInvalid if a cast fails, KeyError
    if ``partition`` is not a column of ``table``."""
    for index, field in enumerate(table.schema):
        if pa.types.is_date32(field.type):
            table = table.set_column(index, field.with_type(DAY), table.column(index).cast(DAY))
    layout = tuple((f.name, f.type, f.nullable) for f in table.schema)
    if partition is not None:
        table = table.drop_columns([partition])
    metadata = {**(table.schema.metadata or {}), b"pandas": _pandas_metadata(layout, partition)}
    return table.replace_schema_metadata(metadata)


def stored_schema(name: str, schema: pa.Schema) -> pa.Schema:
    """The schema of ``schema``'s table as :func:`stored` stores it under ``name`` (without metadata)."""
    return pa.schema([f.with_type(DAY) if pa.types.is_date32(f.type) else f for f in schema])


def pandas_dtype(field: pa.Field) -> str:
    """The pandas dtype ``pd.read_parquet`` gives ``field`` in a file :func:`stored` wrote: ``Int32``
    (etc.) or ``boolean`` for a nullable integer or boolean, else numpy's name for the Arrow type
    (``object`` for text, lists, dates and binary)."""
    import pandas as pd

    arrow_type = field.type
    if field.nullable and pa.types.is_integer(arrow_type):
        return f"{'U' if pa.types.is_unsigned_integer(arrow_type) else ''}Int{arrow_type.bit_width}"
    if field.nullable and pa.types.is_boolean(arrow_type):
        return "boolean"
    if pa.types.is_date(arrow_type):
        return "object"  # datetime.date objects
    try:
        return str(pd.api.types.pandas_dtype(arrow_type.to_pandas_dtype()))
    except (NotImplementedError, TypeError):
        return "object"


@functools.lru_cache(maxsize=64)
def _pandas_metadata(layout: tuple[tuple[str, pa.DataType, bool], ...], partition: str | None) -> bytes:
    """pandas' schema metadata (as ``pa.Table.from_pandas`` writes it) with :func:`pandas_dtype`'s dtypes,
    for the fields ``layout`` (name, type, nullable: all it reads of a schema), the field ``partition``
    with :data:`PARTITION_DTYPE`. A pure function of its arguments, kept for the few schemas a run
    writes (each period's table has its file's)."""
    fields = [pa.field(name, arrow_type, nullable) for name, arrow_type, nullable in layout]
    columns = [
        {
            "name": f.name,
            "field_name": f.name,
            "pandas_type": _pandas_type(f.type),
            "numpy_type": PARTITION_DTYPE if f.name == partition else pandas_dtype(f),
        }
        | {"metadata": None}
        for f in fields
    ]
    found = {"index_columns": [], "column_indexes": [], "columns": columns, "attributes": {}}
    return json.dumps(found | {"creator": {"library": "pyarrow", "version": pa.__version__}}).encode()


def _pandas_type(arrow_type: pa.DataType) -> str:
    """pandas' logical type name of ``arrow_type`` (``unicode``, ``int32``, ``date``, ``list[unicode]``)."""
    from pyarrow import pandas_compat

    return str(pandas_compat.get_logical_type(arrow_type))


#: One row per player x board. ``scope`` is "period" (``period`` is a rating period such as "2024-05") or
#: "year" (``period`` is a calendar year such as "2024"). Places: 1 = best, ties share the lowest place.
LEADERBOARD = pa.schema(
    [
        _f(
            "period",
            pa.string(),
            "the board's period: a rating period, or a calendar year (scope year)",
            False,
        ),
        _f("scope", pa.string(), "period (the rating period's board) or year (the calendar year's)", False),
        _f("player", pa.string(), "the player", False),
        _f("games", pa.int32(), "counted games on the board", False),
        _f("wins", pa.int32(), "games won", False),
        _f("losses", pa.int32(), "games lost", False),
        _f("draws", pa.int32(), "games drawn", False),
        _f("win_rate", pa.float64(), "wins / games", False),
        _f("longest_streak", pa.int32(), "longest run of consecutive wins (a loss or a draw ends it)", False),
        _f("games_place", pa.int32(), "place by games (1 = most; ties share the lowest place)", False),
        _f("wins_place", pa.int32(), "place by wins", False),
        _f("win_rate_place", pa.int32(), "place by win rate; null below the minimum of games (5)"),
        _f("streak_place", pa.int32(), "place by longest streak", False),
    ]
)
