"""prepare: the audited games table as what the replay feeds the rule set, columnar (see :class:`Prepared`).

Knows nothing of how a rule set rates; reads the audit's columns only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.config.events import Events
from pipeline.config.roster import Roster
from pipeline.core import periods
from pipeline.core.reasons import NOT_A_GAME
from pipeline.core.tables import GAMES
from pipeline.rules.awards import due_awards
from pipeline.rules.base import DueAward, RuleSet

#: The columns of the games table a Game is built from (with ``resets`` and ``closes``, added here).
GAME_COLUMNS = (
    "game_id", "seq", "date", "black_player", "white_player", "winner", "speed_used", "black_rank",
    "white_rank", "handicap", "komi", "event_name", "stage", "round", "notes", "period",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Prepared:
    """What the replay feeds the rule set, period by period.

    ``periods``: label -> the period's counted rows in ``seq`` order, columns :data:`GAME_COLUMNS` plus
    ``resets`` (list of names, sorted), for the periods with counted rows (a mapping that may hold
    them on disk: :class:`~pipeline.output.spill.PeriodFiles`); ``closing``: the ``seq`` of each
    event's last counted game; ``events``: the events named by counted rows; ``due``: label -> the
    awards due in it; ``labels``: every period from the first to the last; ``warnings``: awards that
    could not be placed.
    """

    periods: Mapping[str, pa.Table]
    closing: pa.Array
    events: list[str]
    due: dict[str, list[DueAward]]
    labels: list[str]
    warnings: list[str]

    def rows(self, label: str) -> pa.Table:
        """The counted rows of period ``label`` with ``closes`` (True for the last counted game of its
        event); none for a period without counted games."""
        rows = self.periods[label] if label in self.periods else COUNTED.empty_table()
        return rows.append_column("closes", pc.is_in(rows["seq"], value_set=self.closing))


#: The schema of a period's counted rows in :attr:`Prepared.periods`.
COUNTED = pa.schema(
    [*(GAMES.field(name) for name in GAME_COLUMNS), pa.field("resets", pa.list_(pa.string()))]
)


def prepare(games: pa.Table, rules: RuleSet, roster: Roster, events: Events) -> Prepared:
    """``games`` (schema :data:`~pipeline.core.tables.GAMES`, in ``seq`` order) ready to replay under
    ``rules``: see :class:`Prepared` (its periods in memory). The same as a :class:`Preparer` given
    the table in one piece."""
    preparer = Preparer({})
    preparer.add(games)
    return preparer.finish(rules, roster, events)


class Preparer:
    """Prepares the audited games piece by piece: :meth:`add` each piece (a table of schema GAMES in
    ``seq`` order, each piece following the one before, no period split between two pieces), then
    :meth:`finish`. Keeps the counted rows of each period in ``store`` and, across pieces, only what
    is a few values per player or event: each piece's distinct names (Arrow arrays), each event's last
    played date and last counted game, and the streak resets still pending. Python runs once per game of an
    event (the streak resets), once per distinct player name and once per event, not once per game."""

    def __init__(self, store: MutableMapping[str, pa.Table]) -> None:
        self.store = store
        self.pending: set[tuple[str, str]] = set()
        self.names: list[pa.Array] = []  # each piece's distinct names: Arrow, not a dict of 10^6 strings
        self.ends: dict[str, Any] = {}
        self.last: dict[str, int] = {}
        self.played: set[str] = set()

    def add(self, games: pa.Table) -> None:
        """Add the next piece ``games``. Raises ValueError if it holds counted rows of a period an
        earlier piece held, or a period's counted rows are not contiguous."""
        mask = pc.fill_null(games["counted"], False)
        counted = games.select(list(GAME_COLUMNS)).filter(mask)
        counted = counted.append_column("resets", _streak_resets(games, mask, self.pending))
        for label, (start, length) in _spans(counted["period"]).items():
            if label in self.store:
                raise ValueError(f"period {label!r}: its counted games are in two pieces")
            self.store[label] = counted.slice(start, length)
        self.names.append(_names(games))
        _merge(self.ends, _event_ends(games), max)
        _merge(self.last, _last_counted(counted), max)
        self.played.update(_played_periods(games))

    def finish(self, rules: RuleSet, roster: Roster, events: Events) -> Prepared:
        """The :class:`Prepared` of every piece added. Raises nothing for any games."""
        ends = {event: date for event, date in self.ends.items() if event and date is not None}
        due, warnings = due_awards(events, ends, _FirstSeen(self.names), rules.validity.period, roster)
        labels = _labels([*self.store.keys(), *due, *self.played])
        closing = pa.array(sorted(self.last.values()), pa.int64())
        return Prepared(self.store, closing, list(self.last), dict(due), labels, warnings)


def _merge(into: dict[str, Any], found: dict[str, Any], keep: Callable[[Any, Any], Any]) -> None:
    for key, value in found.items():
        into[key] = keep(into[key], value) if key in into else value


def _in_event(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """True where the row names an event (a null or empty ``event_name`` is none)."""
    return pc.fill_null(pc.not_equal(column, ""), False)


def _not_a_game(games: pa.Table) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """True for the rows whose ``reasons`` hold a code of :data:`~pipeline.core.reasons.NOT_A_GAME`."""
    reasons = games["reasons"].combine_chunks()
    hit = pc.is_in(pc.list_flatten(reasons), pa.array(sorted(NOT_A_GAME))).to_numpy(zero_copy_only=False)
    found = np.zeros(games.num_rows, dtype=bool)
    found[pc.list_parent_indices(reasons).to_numpy()[hit]] = True
    return found


def _streak_resets(games: pa.Table, counted: pa.ChunkedArray, pending: set[tuple[str, str]]) -> pa.Array:
    """For each counted row (in ``seq`` order), the players (sorted) whose run of wins in its event an
    uncounted game of that event ended since their last counted one: a draw, a forfeit or handicap loss,
    ... (a game that did not happen twice: a duplicate or a broken file, ends nothing). ``pending`` holds
    the (event, player) runs ended and not yet reset, from the pieces before; it is updated for the next.

    Python runs over the rows of the events where a run can end (an uncounted decided game in this
    piece, or a run pending from before) only: in every other event no counted game resets anything."""
    is_counted = counted.to_numpy(zero_copy_only=False)
    in_event = _in_event(games["event_name"]).to_numpy(zero_copy_only=False)
    decided = pc.is_in(games["winner"], pa.array(["B", "W", "draw"])).to_numpy(zero_copy_only=False)
    enders = in_event & ~is_counted & decided & ~_not_a_game(games)
    ending = set(games["event_name"].filter(pa.array(enders)).to_pylist()) | {e for e, _ in pending}
    live = pa.array(sorted(ending), pa.string())
    # (every live event is a named one: these rows are all in events)
    where = np.flatnonzero(pc.is_in(games["event_name"], live).to_numpy(zero_copy_only=False))
    position = np.cumsum(is_counted) - 1
    lengths, names = np.zeros(int(is_counted.sum()), dtype=np.int32), []
    columns = ["event_name", "black_player", "white_player", "counted", "winner"]
    for index, row, ends in zip(
        where, games.take(where).select(columns).to_pylist(), enders[where], strict=True
    ):
        event, players = row["event_name"], (row["black_player"], row["white_player"])
        if row["counted"]:
            reset = sorted(n for n in players if (event, n) in pending)
            lengths[position[index]] = len(reset)
            names += reset
            pending.difference_update((event, n) for n in players)
        elif ends:
            lost = zip(players, "BW", strict=True)  # (a side that names nobody has no run to end)
            pending.update({(event, n) for n, c in lost if n is not None and row["winner"] != c})
    offsets = pa.array(np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(names, pa.string()))


def _last_counted(counted: pa.Table) -> dict[str, int]:
    """Each event's last counted game (its ``seq``) among ``counted``."""
    events = counted.filter(_in_event(counted["event_name"]))
    last = events.group_by("event_name").aggregate([("seq", "max")])
    return dict(zip(last["event_name"].to_pylist(), last["seq_max"].to_pylist(), strict=True))


def _names(games: pa.Table) -> pa.Array:
    """The distinct player names of ``games`` in the order first seen (black before white), allocated
    by the system's allocator: they live to the end of the audit, and each piece's left among the freed
    tables in Arrow's (mimalloc) kept whole segments of it (docs/design.md#prepared-names)."""
    black, white = games["black_player"].combine_chunks(), games["white_player"].combine_chunks()
    order = np.arange(2 * games.num_rows) // 2 + np.tile([0, games.num_rows], games.num_rows)
    found = pc.unique(pa.concat_arrays([black, white]).take(pa.array(order))).drop_null()
    return pa.concat_arrays([found], memory_pool=pa.system_memory_pool())  # (a copy in that pool)


class _FirstSeen:
    """The distinct names of ``pieces`` (each in the order first seen) in the order first seen over all,
    worked out when iterated (most runs never ask)."""

    def __init__(self, pieces: list[pa.Array]) -> None:
        self.pieces = pieces

    def __iter__(self) -> Iterator[str]:
        if not self.pieces:
            return iter([])
        found: list[str] = pc.unique(pa.concat_arrays(self.pieces)).to_pylist()
        return iter(found)


def _event_ends(games: pa.Table) -> dict[str, Any]:
    """The date of each event's last game (excluded games included: :func:`_played`)."""
    where = _played(games) & _in_event(games["event_name"]).to_numpy(zero_copy_only=False)
    ends = games.filter(pa.array(where)).group_by("event_name").aggregate([("date", "max")])
    return dict(zip(ends["event_name"].to_pylist(), ends["date_max"].to_pylist(), strict=True))


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
