"""site.players: every player's page and chart, written bucket by bucket from the rows the period pass kept.

A bucket (:class:`pipeline.site.spill.Buckets`) holds every row of its players: their sides of the games
(:data:`pipeline.site.pages.SIDE_COLUMNS`), their ratings rows where they first appear or moved, their
changes and awards. Each page shows the player's standing at the end of the latest rated period, the
rating history chart (:mod:`pipeline.site.chart`), every game counted or not with the reasons and the
points, and the derivation of each period in which they moved (:mod:`pipeline.site.explained`). Rows
are grouped once per bucket (sorted, each player's offsets found), not looked up per player, and made
into records a block of players at a time, when the first of them is asked (:class:`_Grouped`): memory
holds a bucket's rows as columns and about :data:`BLOCK_ROWS` of them as records
(docs/design.md#site-memory). Knows nothing of HTML beyond the template names, or
of reading the output folder.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core.i18n import gettext
from pipeline.core.progress import SILENT, Steps
from pipeline.output.memory import release_unused_memory
from pipeline.reports.explain import explanation
from pipeline.site import chart as chart_mod
from pipeline.site import explained, pages
from pipeline.site import rows as rows_mod
from pipeline.site.source import Source
from pipeline.site.spill import Buckets
from pipeline.site.spliced import Rows

KINDS = ("games", "ratings", "changes", "awards")

#: Writes a file: (path relative to the site's root, template, context).
Write = Callable[[str, str, dict[str, Any]], None]


def write_players(
    source: Source,
    index: rows_mod.NameIndex,
    write: Write,
    buckets: Buckets,
    latest: pa.Table | None,
    promotions: pd.DataFrame,
    steps: Steps = SILENT,
) -> int:
    """The page of every player of ``index`` (and the chart of each rated one) through ``write``, from
    ``buckets``; ``latest`` the latest rated period's ratings, ``promotions`` the run's. Return the
    number of charts."""
    summaries = _Summaries(latest, source.rated[-1] if source.rated else "", index)
    del latest  # the columns the summaries show are kept, not the rest of the table
    promoted = _by_player(promotions, ["date"])
    order = {label: i for i, label in enumerate(source.rated)}
    charts = 0
    links = index.links
    names = rows_mod.NameCells(index, "../", kept=False)  # a bucket's opponents: the cells not kept
    with steps.step(gettext("writing player pages"), total=len(links)) as advance:
        for tables in buckets.each(KINDS):
            # each kind's table let go once grouped (popped): a bucket's rows are not held twice
            games, missed = _sides(tables.pop("games", None), names)
            ratings = _ratings(tables.pop("ratings", None), order)
            changes = _by_player(_frame(tables.pop("changes", None)), ["seq", "color"])
            awards = _by_player(_frame(tables.pop("awards", None)), ["date"])
            for name in sorted(set(games) | set(ratings)):
                page = links[name]
                mine = Player(name, games.get(name), ratings.get(name), changes.get(name))
                mine.missed = missed.get(name)
                context = _context(source, mine, awards.get(name), promoted.get(name), summaries, links)
                if context["summary"] is not None:
                    points = chart_mod.history_points(
                        [(r["period"], r["rating_before"], r["rating"]) for r in mine.ratings],
                        source.rated[-1],
                    )
                    write(
                        page.removesuffix(".html") + ".svg",
                        "chart.svg.j2",
                        chart_mod.chart(name, points, source.rule_set),
                    )
                    charts += 1
                write(page, "player.html.j2", context | {"root": "../"})
                advance(1)
            release_unused_memory()  # the bucket's tables, kept by the allocators otherwise
    return charts


class Player:
    """A player's rows: ``sides`` their games' rows of HTML (by ``seq``; an Arrow array of text or a
    list), ``missed`` the records of their
    sides of the games not counted, ``ratings`` rows (by period), ``changes`` (by ``seq`` and colour)."""

    def __init__(
        self,
        name: str,
        sides: pa.Array | list[str],
        ratings: list[dict[str, Any]],
        changes: list[dict[str, Any]],
    ) -> None:
        self.name, self.sides, self.ratings, self.changes = name, sides, ratings, changes
        self.missed: list[dict[str, Any]] = []


def _context(
    source: Source,
    player: Player,
    awards: list[dict[str, Any]],
    promotions: list[dict[str, Any]],
    summaries: _Summaries,
    links: Mapping[str, str],
) -> dict[str, Any]:
    name = player.name
    summary = summaries.get(name)
    if summary is None and player.ratings:
        last = player.ratings[-1]
        summary = {
            "period": last["period"],
            "rank": pages.text(last["rank"]),
            "rating": pages.text(last["rating"]),
            "place": pages.text(last["rating_place"]),
            "inactive_since": "",
        }
    explanations = _Explained(source, player, awards, promotions)
    first = player.ratings[0]["period"] if player.ratings else None
    rated_count = len(source.rated) - source.rated.index(first) if first in source.rated else 0
    return {
        "section": "players",
        "name": name,
        "summary": summary,
        "problems": [],
        "chart": links[name].rsplit("/", 1)[-1].removesuffix(".html") + ".svg",
        "games": Rows(player.sides),
        "game_count": len(player.sides),
        "explanations": explanations,
        "carried": rated_count - len(explanations),
        "links": links,
    }


def _sides(table: pa.Table | None, names: rows_mod.NameCells) -> tuple[_Grouped, _Grouped]:
    """A bucket's sides of games: each player's rows of HTML in ``seq`` order, and the records of their
    games not counted (each made when the player's page asks)."""
    if table is None or not table.num_rows:
        return _Grouped.empty(), _Grouped.empty()
    table = table.sort_by([("player", "ascending"), ("seq", "ascending")])
    html = rows_mod.player_games_cells(table, names)
    rows = _Grouped(table.column("player"), lambda a, b: html.slice(a, b - a))
    missed = table.filter(pc.invert(table.column("counted")))
    return rows, _Grouped(missed.column("player"), lambda a, b: missed.slice(a, b - a).to_pylist())


class _Explained:
    """The derivations of a player's page, latest first, each made when the page's template reaches it
    (a prolific player's, all at once, were the player pass's peak of memory): ``len`` their number,
    true when there is one."""

    def __init__(
        self, source: Source, player: Player, awards: list[dict[str, Any]], promotions: list[dict[str, Any]]
    ) -> None:
        self.source, self.player, self.awards, self.promotions = source, player, awards, promotions
        self.count = sum(1 for row in player.ratings if row["moved"])

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0

    def __iter__(self) -> Iterator[Any]:
        return _explanations(self.source, self.player, self.awards, self.promotions, latest_first=True)


def _explanations(
    source: Source,
    player: Player,
    awards: list[dict[str, Any]],
    promotions: list[dict[str, Any]],
    latest_first: bool = False,
) -> Iterator[Any]:
    """The derivation of each period in which ``player`` moved, in time order (``latest_first``: the
    other way round)."""
    changes = _grouped(player.changes, "period")
    given = _grouped(awards, "period")
    raised = _grouped(promotions, "period")
    missed = _grouped(player.missed, "period")
    for row in reversed(player.ratings) if latest_first else player.ratings:
        if not row["moved"]:
            continue
        label = row["period"]
        rating = explained.clean(row)
        yield explanation(
            source.rule_set,
            player.name,
            rating,
            [explained.clean(r) for r in changes.get(label, [])],
            [explained.clean(r) for r in given.get(label, [])],
            [explained.clean(r) for r in raised.get(label, [])],
            [explained.excluded(s) for s in missed.get(label, [])],
        )


def _grouped(rows: list[dict[str, Any]], key: str) -> dict[Any, list[dict[str, Any]]]:
    found: dict[Any, list[dict[str, Any]]] = {}
    for row in rows:
        found.setdefault(row[key], []).append(row)
    return found


class _Summaries:
    """Each player's row of the latest period's standings, as text cells with the ``period``, made when
    their page asks (not every row at once as dicts of text, nor as Python values: the rows stay
    columns, docs/design.md#site-summaries), found by the player's position in ``index``."""

    def __init__(self, latest: pa.Table | None, label: str, index: rows_mod.NameIndex) -> None:
        self.label, self.index = label, index
        self.columns: list[pa.ChunkedArray] = []
        self.row = np.full(len(index), -1, dtype=np.int64)  # each player's row of ``latest``, or -1
        self.since: pa.ChunkedArray | None = None
        if latest is None:
            return
        chosen = pages.with_deviation(latest).select(list(pages.STANDINGS_COLUMNS))
        self.columns = [c.combine_chunks() for c in chosen.columns]
        where = index.where(chosen.column("player"))
        rows = np.flatnonzero(where.is_valid().to_numpy(zero_copy_only=False))
        self.row[where.drop_null().to_numpy()] = rows
        if "inactive_since" in latest.column_names:
            self.since = latest.column("inactive_since").combine_chunks()

    def get(self, name: str) -> dict[str, Any] | None:
        position = self.index.position(name)
        where = int(self.row[position]) if position is not None else -1
        if where < 0:
            return None
        since = self.since[where].as_py() if self.since is not None else None
        values = tuple(column[where].as_py() for column in self.columns)
        found = pages.standings_row(values, {}) | {"period": self.label}
        return found | {"inactive_since": pages.text(since) if since is not None else ""}


#: The rows made into records at once by :class:`_Grouped`: the players of a bucket a block at a time
#: (a record made per player costs more than the page; a bucket's at once, its memory).
BLOCK_ROWS = 1024


class _Grouped:
    """Rows sorted by player, each player's made when asked (:meth:`get`) by ``make(start, stop)`` from
    their offsets in ``players`` (the rows' ``player`` column, each player's rows together): the rows
    of the players from the one asked to about :data:`BLOCK_ROWS` on are made at once and kept until
    a player outside them is asked (players asked in the rows' order: each row made once)."""

    def __init__(
        self, players: pa.ChunkedArray | pd.Series | None, make: Callable[[int, int], list[Any] | pa.Array]
    ) -> None:
        self.make = make
        self.where: dict[str, tuple[int, int]] = {}
        self.stops = np.zeros(0, dtype=np.int64)
        self.made: list[Any] | pa.Array = []
        self.start = self.stop = 0
        if players is None or not len(players):
            return
        found = players.to_numpy(zero_copy_only=False) if isinstance(players, pa.ChunkedArray) else players
        keys = np.asarray(found, dtype=object)
        starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        self.stops = np.append(starts[1:], len(keys))
        self.where = {str(keys[a]): (int(a), int(b)) for a, b in zip(starts, self.stops, strict=True)}

    @classmethod
    def empty(cls) -> _Grouped:
        """No rows."""
        return cls(None, lambda a, b: [])

    def __iter__(self) -> Iterator[str]:
        return iter(self.where)

    def get(self, name: str) -> Any:
        """``name``'s rows (none: an empty list), a slice of what ``make`` gave (a list, or an Arrow
        array: a slice of it, no copy)."""
        found = self.where.get(name)
        if found is None:
            return []
        start, stop = found
        if not (self.start <= start and stop <= self.stop):
            block = self.stops[min(int(np.searchsorted(self.stops, start + BLOCK_ROWS)), len(self.stops) - 1)]
            self.start, self.stop = start, max(stop, int(block))
            self.made = []  # the block before, freed before the next is made
            self.made = self.make(self.start, self.stop)
        return self.made[start - self.start : stop - self.start]


def _ratings(table: pa.Table | None, order: Mapping[str, int]) -> _Grouped:
    """A bucket's ratings rows by player, in period order."""
    if table is None or not table.num_rows:
        return _Grouped.empty()
    frame = table.to_pandas()
    frame["order"] = frame["period"].map(order)
    return _by_player(frame, ["order"])


def _frame(table: pa.Table | None) -> pd.DataFrame:
    return table.to_pandas() if table is not None else pd.DataFrame({"player": pd.Series(dtype=str)})


def _by_player(frame: pd.DataFrame, order: list[str]) -> _Grouped:
    """``frame``'s records by player, each player's in ``order`` (columns), made when asked."""
    if not len(frame):
        return _Grouped.empty()
    frame = frame.sort_values(["player", *order], kind="stable")

    def records(start: int, stop: int) -> list[dict[str, Any]]:
        return [{str(k): v for k, v in r.items()} for r in frame.iloc[start:stop].to_dict("records")]

    return _Grouped(frame["player"].astype(str), records)
