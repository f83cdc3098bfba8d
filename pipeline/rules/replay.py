"""rate: replay the audited games period by period under one rule set, into the output tables.

:func:`~pipeline.rules.prepare.prepare` (or a :class:`~pipeline.rules.prepare.Preparer` fed piece by
piece) turns the audited games into what the replay feeds the rule set: each period's counted rows,
the awards due in each period and every period label from the first to the last. :func:`replay` hands
the periods to the rule set one at a time, from any period and the standings at its start, and yields
each period's tables as they are produced (Game values are built for one period at a time; the tables
by :mod:`~pipeline.rules.collect`). :func:`rate` replays every period from scratch. A period's outcome
depends only on its prepared rows, its awards and the standings at its start (rule sets keep no state
between periods), which is what makes a replay from the middle (:mod:`pipeline.output.state`) equal to
one from scratch.

Knows nothing of SGF or files; what a rating means is the rule set's business.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.config.events import Event, Events
from pipeline.config.roster import Roster
from pipeline.core.progress import SILENT, Steps
from pipeline.core.ranks import Rank, parse_rank
from pipeline.core.standings import PlayerState
from pipeline.core.tables import CHANGES, RATED
from pipeline.rules.base import Game, RuleSet
from pipeline.rules.collect import Activity, period_tables
from pipeline.rules.prepare import GAME_COLUMNS, Prepared, prepare

__all__ = [
    "DATASETS",
    "GAME_COLUMNS",
    "Activity",
    "PeriodTables",
    "Prepared",
    "Rated",
    "prepare",
    "rate",
    "replay",
    "schemas_of",
]

#: The names of the tables each replayed period gives (:data:`pipeline.core.tables.RATED`).
DATASETS = tuple(dataset.name for dataset in RATED)


@dataclass(frozen=True, slots=True)
class PeriodTables:
    """One replayed period: its label, its rows of each dataset (:data:`DATASETS`, with ``period``),
    and the standings at its end."""

    label: str
    tables: dict[str, pa.Table]
    end: dict[str, PlayerState]


@dataclass(frozen=True, slots=True)
class Rated:
    """The rate stage's tables (each with a ``period`` column) and the periods they cover, in order.

    ``warnings`` lists awards that could not be placed (an event with no games and no ``ends``).
    """

    ratings: pa.Table
    changes: pa.Table
    awards: pa.Table
    promotions: pa.Table
    periods: list[str]
    warnings: list[str]


def rate(
    games: pa.Table,
    rules: RuleSet,
    roster: Roster,
    events: Events,
    steps: Steps = SILENT,
    what: str = "rating periods",
) -> Rated:
    """Replay the counted rows of ``games`` (schema :data:`~pipeline.core.tables.GAMES`) under
    ``rules``, each period told to ``steps`` as the step ``what``."""
    prepared = prepare(games, rules, roster, events)
    found: dict[str, list[pa.Table]] = {name: [] for name in DATASETS}
    with steps.step(what, len(prepared.labels)) as advance:
        for period in replay(prepared, rules, roster, events, 0, {}):
            for name, table in period.tables.items():
                found[name].append(table)
            advance(1)
    schemas = schemas_of(rules)
    tables = {name: pa.concat_tables([schemas[name].empty_table(), *found[name]]) for name in DATASETS}
    return Rated(**tables, periods=prepared.labels, warnings=prepared.warnings)


def schemas_of(rules: RuleSet) -> dict[str, pa.Schema]:
    """The schema (with ``period``) of each dataset of :data:`DATASETS` under ``rules``."""
    found = {d.name: d.schema for d in RATED} | {"changes": pa.schema([*CHANGES, *rules.change_fields])}
    return {
        name: pa.schema([pa.field("period", pa.string(), nullable=False), *s]) for name, s in found.items()
    }


def replay(
    prepared: Prepared,
    rules: RuleSet,
    roster: Roster,
    events: Events,
    first: int,
    state: Mapping[str, PlayerState],
    activity: Activity | None = None,
) -> Iterator[PeriodTables]:
    """Rate the periods ``prepared.labels[first:]`` in order from ``state`` (the standings at the end of
    the period before ``first``; empty for ``first`` 0), yielding each period's tables as it is done.
    ``activity``: the span of activity and the last counted days at the end of the period before
    ``first`` (None: no span, no day), carried on from period to period."""
    named = {name: events.get(name) for name in prepared.events}  # each event looked up once, not once a game
    ranks: dict[str, Rank | None] = {}
    schemas = schemas_of(rules)
    current = state  # (rule sets do not change the standings they are given)
    member = _membership(roster)
    activity = Activity() if activity is None else activity
    for label in prepared.labels[first:]:
        games = _games(prepared.rows(label), rules, member, named, ranks)
        outcome = rules.rate_period(label, games, prepared.due.get(label, []), current)
        tables = period_tables(label, outcome, {g.game_id: g for g in games}, member, schemas, activity)
        done, current = PeriodTables(label, tables, outcome.end), outcome.end
        del games, outcome, tables  # (not held while the caller writes the period and the next is rated)
        yield done
        del done


def _membership(roster: Roster) -> Callable[[str], bool]:
    """:meth:`Roster.is_member`, remembered once per name (not once per name and period) when there is a
    roster; without one everyone is a member, and 800,000 names are not kept to say so."""
    return functools.cache(roster.is_member) if roster.configured else _everyone


def _everyone(name: str) -> bool:
    return True


def _games(
    rows: pa.Table,
    rules: RuleSet,
    member: Callable[[str], bool],
    named: Mapping[str, Event | None],
    ranks: dict[str, Rank | None],
) -> list[Game]:
    """The Game of each of ``rows`` (a period's counted rows: :meth:`Prepared.rows`), in order, read column
    by column (not a dict per row); ``member`` tells a roster member, ``named`` holds the events by name."""
    rate_outsiders = not rules.validity.excludes("non_member")  # then visitors of inter-club events too
    names = ("game_id", "seq", "date", "black_player", "white_player", "winner", "speed_used",
             "black_rank", "white_rank", "handicap", "komi", "event_name", "stage", "round", "notes",
             "resets", "closes")  # fmt: skip
    found = []
    for values in zip(*(_values(rows[name], name in _REPEATED) for name in names), strict=True):
        (game_id, seq, date, black, white, winner, speed, black_rank, white_rank, handicap, komi, event,
         stage, round_, notes, resets, closes) = values  # fmt: skip
        found.append(
            Game(
                game_id=game_id,
                seq=seq,
                date=date,
                black=black,
                white=white,
                winner=winner,
                speed=speed,
                black_rank=_rank(black_rank, ranks),
                white_rank=_rank(white_rank, ranks),
                black_rated=rate_outsiders or member(black),
                white_rated=rate_outsiders or member(white),
                handicap=handicap or 0,
                komi=komi,
                event=named.get(event),
                stage=stage,
                round=round_,
                no_show="no_show" in notes,
                streak_reset=frozenset(resets) if resets else _NONE,
                closes_event=closes,
            )
        )
    return found


#: The columns of a period's rows with few distinct values (or one per player): each value is made once.
_REPEATED = frozenset({"date", "black_player", "white_player", "winner", "speed_used", "stage", "round"})
_NONE: frozenset[str] = frozenset()  # the streak resets of most games


def _values(column: pa.ChunkedArray, repeated: bool) -> list[Any]:
    """The Python values of ``column``; when ``repeated``, one object per distinct value shared by its
    rows (a period names each player many times: docs/design.md#replay-values)."""
    if not repeated or not len(column):
        found: list[Any] = column.to_pylist()
        return found
    encoded = pc.dictionary_encode(column.combine_chunks())
    values = encoded.dictionary.to_pylist()
    return [None if i is None else values[i] for i in encoded.indices.to_pylist()]


def _rank(text: str | None, ranks: dict[str, Rank | None]) -> Rank | None:
    """The rank written ``text`` (parsed once per distinct text of the replay: ``ranks`` keeps them)."""
    if not text:
        return None
    if text not in ranks:
        ranks[text] = parse_rank(text)
    return ranks[text]
