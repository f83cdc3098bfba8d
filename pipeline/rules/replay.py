"""rate: replay the audited games period by period under one rule set, into the output tables.

:func:`prepare` turns the audited games table into what the replay feeds the rule set, columnar: the
counted rows in ``seq`` order (the columns :func:`_game` reads, plus each game's ``streak_reset`` and
``closes_event``), where each period's rows start, the awards that fall in each period (an event's
titles in the period it ends) and every period label from the first to the last. :func:`replay` hands
the periods to the rule set one at a time, from any period and the standings at its start, and yields
each period's tables as they are produced (Game values are built for one period at a time).
:func:`rate` replays every period from scratch. A period's outcome depends only on its prepared rows,
its awards and the standings at its start (rule sets keep no state between periods), which is what
makes a replay from the middle (:mod:`pipeline.output.state`) equal to one from scratch.

Knows nothing of SGF or files; what a rating means is the rule set's business.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.audit import periods
from pipeline.config.events import Event, Events
from pipeline.config.roster import Roster
from pipeline.ingest.normalise.ranks import Rank, parse_rank
from pipeline.output.tables import AWARDS, CHANGES, PROMOTIONS, RATINGS
from pipeline.rules.awards import due_awards
from pipeline.rules.base import NOT_A_GAME, DueAward, Game, PlayerState, RuleSet
from pipeline.rules.collect import period_tables

#: The columns of the games table a Game is built from (with ``resets`` and ``closes``, added here).
GAME_COLUMNS = (
    "game_id", "seq", "date", "black_player", "white_player", "winner", "speed_used", "black_rank",
    "white_rank", "handicap", "komi", "event_name", "stage", "round", "notes", "period",
)  # fmt: skip
DATASETS = ("ratings", "changes", "awards", "promotions")


@dataclass(frozen=True, slots=True)
class Prepared:
    """What the replay feeds the rule set, period by period.

    ``counted``: the counted rows in ``seq`` order, columns :data:`GAME_COLUMNS` plus ``resets``
    (list of names, sorted) and ``closes`` (bool); ``spans``: label -> (first row, rows) in ``counted``;
    ``due``: label -> the awards due in it; ``labels``: every period from the first to the last;
    ``warnings``: awards that could not be placed.
    """

    counted: pa.Table
    spans: dict[str, tuple[int, int]]
    due: dict[str, list[DueAward]]
    labels: list[str]
    warnings: list[str]

    def rows(self, label: str) -> pa.Table:
        """The counted rows of period ``label`` (none for a period without counted games)."""
        start, length = self.spans.get(label, (0, 0))
        return self.counted.slice(start, length)


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


def rate(games: pa.Table, rules: RuleSet, roster: Roster, events: Events) -> Rated:
    """Replay the counted rows of ``games`` (schema :data:`~pipeline.output.tables.GAMES`) under ``rules``."""
    prepared = prepare(games, rules, roster, events)
    found: dict[str, list[pa.Table]] = {name: [] for name in DATASETS}
    for period in replay(prepared, rules, roster, events, 0, {}):
        for name, table in period.tables.items():
            found[name].append(table)
    schemas = schemas_of(rules)
    tables = {name: pa.concat_tables([schemas[name].empty_table(), *found[name]]) for name in DATASETS}
    return Rated(**tables, periods=prepared.labels, warnings=prepared.warnings)


def schemas_of(rules: RuleSet) -> dict[str, pa.Schema]:
    """The schema (with ``period``) of each dataset of :data:`DATASETS` under ``rules``."""
    found = {"ratings": RATINGS, "changes": pa.schema([*CHANGES, *rules.change_fields])}
    found |= {"awards": AWARDS, "promotions": PROMOTIONS}
    return {
        name: pa.schema([pa.field("period", pa.string(), nullable=False), *s]) for name, s in found.items()
    }


def prepare(games: pa.Table, rules: RuleSet, roster: Roster, events: Events) -> Prepared:
    """``games`` (schema :data:`~pipeline.output.tables.GAMES`, in ``seq`` order) ready to replay under
    ``rules``: see :class:`Prepared`. Python runs once per game of an event (the streak resets), once
    per distinct player name and once per event, not once per game."""
    mask = pc.fill_null(games["counted"], False)
    counted = games.filter(mask).select(list(GAME_COLUMNS))
    counted = counted.append_column("resets", _streak_resets(games, mask))
    counted = counted.append_column("closes", _closes(counted))
    due, warnings = due_awards(events, _award_rows(games), rules.validity.period, roster)
    spans = _spans(counted["period"])
    labels = _labels([*spans, *due, *_played_periods(games)])
    return Prepared(counted, spans, dict(due), labels, warnings)


def replay(
    prepared: Prepared,
    rules: RuleSet,
    roster: Roster,
    events: Events,
    first: int,
    state: Mapping[str, PlayerState],
) -> Iterator[PeriodTables]:
    """Rate the periods ``prepared.labels[first:]`` in order from ``state`` (the standings at the end of
    the period before ``first``; empty for ``first`` 0), yielding each period's tables as it is done."""
    names = pc.unique(prepared.counted["event_name"]).drop_null().to_pylist()
    named = {name: events.get(name) for name in names}  # each event looked up once, not once a game
    ranks: dict[str, Rank | None] = {}
    schemas = schemas_of(rules)
    current = dict(state)
    member = functools.cache(roster.is_member)  # once per name, not once per name and period
    for label in prepared.labels[first:]:
        rows = prepared.rows(label).to_pylist()
        games = [_game(row, rules, roster, named.get(row["event_name"]), ranks) for row in rows]
        outcome = rules.rate_period(label, games, prepared.due.get(label, []), current)
        tables = period_tables(label, outcome, {g.game_id: g for g in games}, member, schemas)
        yield PeriodTables(label, tables, outcome.end)
        current = outcome.end


def _game(
    row: Mapping[str, Any], rules: RuleSet, roster: Roster, event: Event | None, ranks: dict[str, Rank | None]
) -> Game:
    rate_outsiders = not rules.validity.excludes("non_member")  # then visitors of inter-club events too
    return Game(
        game_id=row["game_id"],
        seq=row["seq"],
        date=row["date"],
        black=row["black_player"],
        white=row["white_player"],
        winner=row["winner"],
        speed=row["speed_used"],
        black_rank=_rank(row["black_rank"], ranks),
        white_rank=_rank(row["white_rank"], ranks),
        black_rated=rate_outsiders or roster.is_member(row["black_player"]),
        white_rated=rate_outsiders or roster.is_member(row["white_player"]),
        handicap=row["handicap"] or 0,
        komi=row["komi"],
        event=event,
        stage=row["stage"],
        round=row["round"],
        no_show="no_show" in row["notes"],
        streak_reset=frozenset(row["resets"]),
        closes_event=row["closes"],
    )


def _rank(text: str | None, ranks: dict[str, Rank | None]) -> Rank | None:
    """The rank written ``text`` (parsed once per distinct text of the replay: ``ranks`` keeps them)."""
    if not text:
        return None
    if text not in ranks:
        ranks[text] = parse_rank(text)
    return ranks[text]


def _in_event(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """True where the row names an event (a null or empty ``event_name`` is none)."""
    return pc.fill_null(pc.not_equal(column, ""), False)


def _not_a_game(games: pa.Table) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """True for the rows whose ``reasons`` hold a code of :data:`~pipeline.rules.base.NOT_A_GAME`."""
    reasons = games["reasons"].combine_chunks()
    hit = pc.is_in(pc.list_flatten(reasons), pa.array(sorted(NOT_A_GAME))).to_numpy(zero_copy_only=False)
    found = np.zeros(games.num_rows, dtype=bool)
    found[pc.list_parent_indices(reasons).to_numpy()[hit]] = True
    return found


def _streak_resets(games: pa.Table, counted: pa.ChunkedArray) -> pa.Array:
    """For each counted row (in ``seq`` order), the players (sorted) whose run of wins in its event an
    uncounted game of that event ended since their last counted one: a draw, a forfeit or handicap loss,
    ... (a game that did not happen twice: a duplicate or a broken file, ends nothing). Python runs over
    the rows of an event only."""
    where = np.flatnonzero(_in_event(games["event_name"]).to_numpy(zero_copy_only=False))
    position = np.cumsum(counted.to_numpy(zero_copy_only=False)) - 1
    found: list[list[str]] = [[] for _ in range(int(position[-1]) + 1 if len(position) else 0)]
    columns = ["event_name", "black_player", "white_player", "counted", "winner"]
    rows = games.take(where).select(columns).to_pylist()
    blocked = _not_a_game(games)[where]
    pending: set[tuple[str, str]] = set()
    for index, row, skip in zip(where, rows, blocked, strict=True):
        event, names = row["event_name"], (row["black_player"], row["white_player"])
        if row["counted"]:
            found[position[index]] = sorted(n for n in names if (event, n) in pending)
            pending -= {(event, n) for n in names}
        elif row["winner"] in ("B", "W", "draw") and not skip:
            pending |= {(event, n) for n, c in zip(names, "BW", strict=True) if row["winner"] != c}
    return pa.array(found, pa.list_(pa.string()))


def _closes(counted: pa.Table) -> pa.ChunkedArray:
    """True for the last counted game (in ``seq`` order) of each event."""
    events = counted.filter(_in_event(counted["event_name"]))
    last = events.group_by("event_name").aggregate([("seq", "max")])["seq_max"]
    return pc.is_in(counted["seq"], value_set=last.combine_chunks())


def _award_rows(games: pa.Table) -> list[dict[str, Any]]:
    """What :func:`~pipeline.rules.awards.due_awards` reads of the games, without a dict per game: one
    row per distinct player name in the order first seen (black before white), then one per event
    holding the date of its last game (excluded games included: :func:`_played`)."""
    black, white = games["black_player"].combine_chunks(), games["white_player"].combine_chunks()
    order = np.arange(2 * games.num_rows) // 2 + np.tile([0, games.num_rows], games.num_rows)
    names = pc.unique(pa.concat_arrays([black, white]).take(pa.array(order))).drop_null().to_pylist()
    rows = [_row(None, None, None, name) for name in names]
    where = _played(games) & _in_event(games["event_name"]).to_numpy(zero_copy_only=False)
    played = games.filter(pa.array(where))
    ends = played.group_by("event_name").aggregate([("date", "max")]).to_pylist()
    return rows + [_row(e["event_name"], e["date_max"], "-", None) for e in ends]


def _row(event: str | None, date: Any, period: str | None, name: str | None) -> dict[str, Any]:
    return {"event_name": event, "date": date, "period": period, "reasons": [], "black_player": name,
            "white_player": None}  # fmt: skip


def _played(games: pa.Table) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """The rows of games this rule set could rate (dated, of its game type, readable)."""
    dated: np.ndarray[Any, np.dtype[np.bool_]] = pc.is_valid(games["period"]).to_numpy(zero_copy_only=False)
    found: np.ndarray[Any, np.dtype[np.bool_]] = dated & pc.is_valid(games["date"]).to_numpy(
        zero_copy_only=False
    )
    return found & ~_not_a_game(games)


def _played_periods(games: pa.Table) -> list[str]:
    """The periods of the games this rule set could rate: a period whose games were all excluded still
    gets its snapshot."""
    return list(pc.unique(games["period"].filter(pa.array(_played(games)))).to_pylist())


def _spans(period: pa.ChunkedArray) -> dict[str, tuple[int, int]]:
    """label -> (first row, rows) of the runs of ``period`` (each label's rows are one run: the rows are
    in ``seq`` order, which follows the date). Raises ValueError if a label has two runs."""
    if not len(period):
        return {}
    runs = pc.run_end_encode(period.combine_chunks())
    ends = runs.run_ends.to_pylist()
    spans = {}
    for label, start, end in zip(runs.values.to_pylist(), [0, *ends[:-1]], ends, strict=True):
        if label in spans:
            raise ValueError(f"period {label!r}: its counted games are not contiguous in seq order")
        spans[label] = (start, end - start)
    return spans


def _labels(found: Iterable[str]) -> list[str]:
    """Every period from the first to the last found (periods without games keep the standings)."""
    present = sorted(set(found), key=lambda label: periods.bounds(label)[0])
    return periods.span(present[0], present[-1]) if present else []
