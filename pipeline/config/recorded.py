"""config.recorded: the roster and events of a run as the tables its output keeps, and the roster back.

A run records beside its manifest what a reader needs without the configuration
(:func:`pipeline.run.record_setup`): ``roster.parquet`` (:data:`ROSTER_SCHEMA`, a row per roster player
in file order: the canonical ``name``, the ``aliases`` as written, the declared ``rank``, ``member``,
``rating`` the starting rating the run used (null: from the rank), ``ratings`` the file's table of
starting ratings by rule set or scale, ``fixed``) and ``events.parquet`` (:data:`EVENTS_SCHEMA`, a row
per configured event, its awards in a list). A run without a roster writes a roster table without rows;
one without an events file an events table without rows. The rule set's parameters are the manifest's
``settings``.

:func:`read_roster` gives the recorded roster back as a :class:`~pipeline.config.roster.Roster`, for the
commands that resolve aliases from the output folder alone (:func:`pipeline.cli.common.roster_of`);
:func:`read_events` the recorded events as :class:`~pipeline.config.events.Events`, for the commands that
rate again (:mod:`pipeline.config.readback`); :func:`same_names` says whether two rosters name the same
players the same way. Knows nothing of where the output folder is or how its files are switched in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.config.events import Award, Event, Events
from pipeline.config.roster import Player, Roster
from pipeline.core.setup_tables import EVENTS_SCHEMA, ROSTER_SCHEMA


def roster_table(roster: Roster) -> pa.Table:
    """``roster``'s players as a table of :data:`ROSTER_SCHEMA`, in file order."""
    players = roster.players
    return pa.table(
        {
            "name": [p.name for p in players],
            "aliases": [list(p.aliases) for p in players],
            "rank": [p.rank for p in players],
            "member": [p.member for p in players],
            "rating": [p.rating for p in players],
            "ratings": [list(p.ratings.items()) for p in players],
            "fixed": [p.fixed for p in players],
        },
        schema=ROSTER_SCHEMA,
    )


def events_table(events: Events) -> pa.Table:
    """``events``' configured events as a table of :data:`EVENTS_SCHEMA`, in file order (none for an
    implicit kind: those events are the records' ``EV`` texts, in ``games.parquet``'s ``event_name``)."""
    found = events.events
    awards = [
        [
            {"player": a.player, "date": a.date, "points": a.points, "rank": a.rank, "note": a.note}
            for a in e.awards
        ]
        for e in found
    ]
    return pa.table(
        {
            "name": [e.name for e in found],
            "match": [list(e.patterns) for e in found],
            "kind": [e.kind for e in found],
            "class": [e.klass for e in found],
            "champion": [e.champion for e in found],
            "runner_up": [e.runner_up for e in found],
            "ends": [e.ends for e in found],
            "qualifier_rounds": [list(e.qualifier_rounds) for e in found],
            "group": [e.group for e in found],
            "rounds": [e.rounds for e in found],
            "awards": awards,
        },
        schema=EVENTS_SCHEMA,
    )


def read_roster(path: Path) -> Roster | None:
    """The roster recorded at ``path`` (a ``roster.parquet`` of :data:`ROSTER_SCHEMA`); None when there
    is no such file (an output written before runs recorded it) or it lists no player (the run had no
    roster). Raises OSError or ArrowInvalid if the file cannot be read, ValueError if two of its
    players share a spelling."""
    if not path.is_file():
        return None
    with pq.ParquetFile(path) as file:  # (not read_table: it imports pyarrow.dataset, a third of a second)
        rows = file.read(columns=list(ROSTER_SCHEMA.names), use_threads=False).to_pylist()
    players = tuple(
        Player(
            name=row["name"],
            aliases=tuple(row["aliases"]),
            rank=row["rank"],
            member=row["member"],
            rating=row["rating"],
            fixed=row["fixed"],
            ratings=dict(row["ratings"]),
        )
        for row in rows
    )
    return Roster(players, source=path) if players else None


def same_names(a: Roster | None, b: Roster | None) -> bool:
    """True when ``a`` and ``b`` (None: no roster) list the same players, in the same order, with the
    same aliases, declared ranks and membership (starting ratings aside: a run records the one its rule
    set used, not the file's)."""

    def names(roster: Roster | None) -> list[tuple[object, ...]]:
        players = roster.players if roster is not None else ()
        return [(p.name, p.aliases, p.rank, p.member) for p in players]

    return names(a) == names(b)


def read_events(path: Path) -> Events:
    """The events recorded at ``path`` (an ``events.parquet`` of :data:`EVENTS_SCHEMA`), in file order.
    Raises OSError or ArrowInvalid if the file cannot be read."""
    with pq.ParquetFile(path) as file:  # (not read_table: it imports pyarrow.dataset, a third of a second)
        rows = file.read(columns=list(EVENTS_SCHEMA.names), use_threads=False).to_pylist()
    return Events(tuple(_event(row) for row in rows))


def _event(row: dict[str, Any]) -> Event:
    name = row["name"]
    awards = tuple(
        Award(a["player"], a["date"], a["points"], a["rank"], a["note"], name) for a in row["awards"]
    )
    return Event(
        name=name,
        patterns=tuple(row["match"]),
        kind=row["kind"],
        klass=row["class"],
        champion=row["champion"],
        runner_up=row["runner_up"],
        ends=row["ends"],
        qualifier_rounds=tuple(row["qualifier_rounds"]),
        awards=awards,
        group=row["group"],
        rounds=row["rounds"],
    )
