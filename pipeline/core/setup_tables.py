"""setup_tables: the schemas of the setup a run records beside its outputs, ``roster.parquet`` and
``events.parquet`` (so that a reader of the output needs no configuration), with their column
descriptions (docs/columns.md is generated from them). Knows nothing of the files they are read from.
"""

from __future__ import annotations

import pyarrow as pa

from pipeline.core.schema import described as _f

ROSTER_FILE = "roster.parquet"
EVENTS_FILE = "events.parquet"

#: One row per player of the roster file, in file order (none without a roster).
ROSTER_SCHEMA = pa.schema(
    [
        _f("name", pa.string(), "the player's name as the roster gives it (the canonical name)", False),
        _f("aliases", pa.list_(pa.string()), "other names of the player in the records", False),
        _f("rank", pa.string(), "the declared rank, canonical (1d, 5k, 3p)"),
        _f("member", pa.bool_(), "a member of the club (a non-member's games count only if allowed)", False),
        _f("rating", pa.float64(), "the starting rating the run's rule set chose (null: from the rank)"),
        _f(
            "ratings",
            pa.map_(pa.string(), pa.float64()),
            "starting ratings by scale or rule set, as the roster wrote them (club, gor, cga, hkga ...)",
            False,
        ),
        _f(
            "fixed", pa.bool_(), "a fixed player: the rating does not change (cga's reference players)", False
        ),
    ]
)
#: An award of an event: to whom, on which day, the points or the rank it gives, and a note.
AWARD_TYPE = pa.struct(
    [
        pa.field("player", pa.string(), nullable=False),
        pa.field("date", pa.date32(), nullable=False),
        pa.field("points", pa.float64()),
        pa.field("rank", pa.string()),
        pa.field("note", pa.string(), nullable=False),
    ]
)
#: One row per event of the events file, in file order (none without an events file).
EVENTS_SCHEMA = pa.schema(
    [
        _f("name", pa.string(), "the event's name", False),
        _f("match", pa.list_(pa.string()), "the EV patterns that name its games", False),
        _f(
            "kind",
            pa.string(),
            "team_match, arena, server_qualifiers, server_open, other, promotion, low_dan, recognised or kyu",
            False,
        ),
        _f("class", pa.string(), "its class (GoR rule sets: A, B, C)"),
        _f("champion", pa.string(), "the player who won it"),
        _f("runner_up", pa.string(), "the player placed second"),
        _f("ends", pa.date32(), "its last day, when given"),
        _f("qualifier_rounds", pa.list_(pa.string()), "the rounds that are its qualifier stage", False),
        _f(
            "group",
            pa.string(),
            "the kyu-award group of a kyu event (tga): promotion, japanese, standard_a or standard_b",
        ),
        _f("rounds", pa.int32(), "its scheduled rounds, when given"),
        _f("awards", pa.list_(AWARD_TYPE), "its manual awards: player, date, points or rank, note", False),
    ]
)
