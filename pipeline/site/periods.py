"""site.periods: the pages of each period, written in one pass over the output's tables.

Period by period, in time order: the ratings partition gives the standings page(s) (its active players,
under the run's ``[output] active_within``), ``games.parquet``'s
rows of the period (:func:`pipeline.site.source.games_by_period`) and the changes partition give the
ledger page(s); the same rows (the players' sides of the games, their ratings rows where they moved or
first appear, the changes and awards) go to the player buckets (:class:`pipeline.site.spill.Buckets`)
for their pages. The records without a period come last, on a ledger page of their own. A page holds
at most :data:`PAGE_ROWS` rows; a longer table is split over numbered pages. Every page has the period
picker (:func:`picker`): a year, then the periods of that year. Knows nothing of HTML beyond the
template names, or of the players' pages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from markupsafe import Markup, escape

from pipeline.core.activity import span_words
from pipeline.core.i18n import gettext
from pipeline.core.periods import year_of
from pipeline.core.progress import SILENT, Steps
from pipeline.core.reasons import phrase
from pipeline.output.memory import release_unused_memory
from pipeline.reports.asof import run_span as activity_span
from pipeline.reports.numbers import NumberFormat, number_format
from pipeline.site import pages, speech
from pipeline.site import rows as rows_mod
from pipeline.site.slugs import period_file
from pipeline.site.source import Source, games_by_period, partition
from pipeline.site.spill import Buckets
from pipeline.site.spliced import Rows

#: The most rows a standings or ledger page holds; a period with more is split over numbered pages.
PAGE_ROWS = 2500
#: The games whose ledger rows are made at once (:class:`_Ledgers`): their frames are the period
#: pass's peak of memory (docs/design.md#site-memory).
BATCH_ROWS = 5_000
#: The games of a batch whose game frame (pandas) is made at once (:meth:`_Ledgers.flush`).
FRAME_ROWS = PAGE_ROWS
#: The ledger page of the records without a period.
UNDATED = "games/undated.html"

#: Writes a page: (file relative to the site's root, template, context).
Write = Callable[[str, str, dict[str, Any]], None]


@dataclass
class PeriodsWritten:
    """What the period pass found: ``standings`` and ``ledger`` pages written, games per ledger
    period (``counts``: label -> (games, counted); ``None`` the records without a period), and the
    latest rated period's standings (``latest``)."""

    standings: int = 0
    ledger: int = 0
    counts: dict[str | None, tuple[int, int]] = field(default_factory=dict)
    latest: pa.Table | None = None

    def take_latest(self) -> pa.Table | None:
        """``latest``, no longer held here (its last reader keeps what it needs of it)."""
        latest, self.latest = self.latest, None
        return latest


def ledger_file(label: str) -> str:
    """The (first) ledger page of the period ``label``: ``games/2024-05.html``."""
    return "games/" + period_file(label).removeprefix("period-")


def paged(name: str, page: int) -> str:
    """The file of page ``page`` (from 1) of a table whose first page is ``name``."""
    return name if page == 1 else name.removesuffix(".html") + f"-p{page}.html"


class Picker:
    """The period picker of a set of pages, one per period ``labels`` (in time order) at ``files``:
    a year (the select's options, written once per year shown), that year's periods, the periods
    before and after, and the page listing ``everything``."""

    def __init__(self, labels: Sequence[str], files: Mapping[str, str], everything: str) -> None:
        self.labels, self.files, self.everything = list(labels), files, everything
        self.position = {label: i for i, label in enumerate(self.labels)}
        self.years: dict[str, list[str]] = {}
        for label in self.labels:
            self.years.setdefault(year_of(label), []).append(label)
        self._options: dict[tuple[str, str], Markup] = {}

    def __call__(self, current: str | None, root: str) -> dict[str, Any]:
        """The picker of the page of ``current`` (None: a page of no period; the latest year shown)."""
        year = year_of(current) if current else (year_of(self.labels[-1]) if self.labels else "")
        where = self.position.get(current) if current is not None else None
        labels, files = self.labels, self.files
        return {
            "options": self.options(year, root),
            "year": year,
            "current": current,
            "periods": [(label, files[label]) for label in self.years.get(year, [])],
            "previous": files[labels[where - 1]] if where else None,
            "next": files[labels[where + 1]] if where is not None and where + 1 < len(labels) else None,
            "all": self.everything,
        }

    def options(self, year: str, root: str) -> Markup:
        """The year select's options (latest first, ``year`` selected), each the file of its latest period."""
        key = (year, root)
        if key not in self._options:
            self._options[key] = Markup(
                "".join(
                    f'<option value="{escape(root + self.files[labels[-1]])}"'
                    f"{' selected' if y == year else ''}>{escape(y)}</option>"
                    for y, labels in reversed(self.years.items())
                )
            )
        return self._options[key]


def write_periods(
    source: Source, index: rows_mod.NameIndex, write: Write, buckets: Buckets, steps: Steps = SILENT
) -> PeriodsWritten:
    """Every period's standings and ledger pages through ``write`` (the players of ``index`` linked to
    their pages), the players' rows into ``buckets``."""
    done = PeriodsWritten()
    rated, played = set(source.rated), set(source.played)
    standings_files = {label: period_file(label) for label in source.rated}
    ledger_files = {label: ledger_file(label) for label in source.played}
    stream = games_by_period(source.out)
    seen = np.zeros(len(index), dtype=bool)  # the players rated in a period before, by position
    pickers = (
        Picker(source.rated, standings_files, "periods.html"),
        Picker(source.played, ledger_files, "games.html"),
    )
    cap = pages.cap_of(source.manifest)
    style = number_format(source.rule_set)
    ledgers = _Ledgers(cap, index, write, pickers[1], done, buckets, style)
    names = rows_mod.NameCells(index)
    with steps.step(gettext("writing the pages of each period"), total=len(source.periods)) as advance:
        for label in source.periods:
            changes = partition(source.out, "changes", label)
            if label in rated:
                done.latest = _standings(source, label, names, write, pickers[0], done)
                _keep_ratings(done.latest, label, index, seen, buckets)
            if label in played:
                found, games = next(stream)
                assert found == label, (found, label)  # both in time order
                ledgers.add(label, games, changes)
            _keep(buckets, "changes", changes, label)
            _keep(buckets, "awards", partition(source.out, "awards", label), label)
            release_unused_memory()  # the period's tables, kept by the allocators otherwise
            advance(1)
        for found, games in stream:  # the records without a period
            ledgers.add(found, games, None)
        ledgers.flush()
    return done


def _standings(
    source: Source, label: str, names: rows_mod.NameCells, write: Write, pick: Picker, done: PeriodsWritten
) -> pa.Table | None:
    """The standings pages of ``label``; return its ratings, best first."""
    table = partition(source.out, "ratings", label)
    table = pages.ordered(table) if table is not None else None
    style = number_format(source.rule_set)
    for name, context in standings_pages(table, label, names, pick, style, activity_words(source)):
        write(name, "standings.html.j2", context)
        done.standings += 1
    return table


def activity_words(source: Source) -> str:
    """The run's span of activity in the language spoken (``24 months``), "" when it set none."""
    span = activity_span(source.out)
    return span_words(span) if span is not None else ""


def _listed(table: pa.Table | None) -> tuple[pa.Table | None, int]:
    """The active players' rows of a ratings ``table`` (every row of a table without ``active``, written
    before the activity columns), and how many were left out."""
    if table is None or "active" not in table.column_names:
        return table, 0
    active = table.column("active")
    left = int(pc.sum(pc.invert(active)).as_py() or 0)
    return (table.filter(active) if left else table), left


def standings_pages(
    table: pa.Table | None,
    label: str | None,
    names: rows_mod.NameCells,
    pick: Picker,
    style: NumberFormat = rows_mod.TRIMMED,
    span: str = "",
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The standings pages (file, context) of the period ``label`` from its ratings ``table``, best
    first, the numbers written in ``style`` (the rule set's): the active players' rows, with how many
    inactive ones were left out (no counted game in the last ``span``, the run's span of activity in
    words). Each page's rows are made when it is asked: one page's are held at a time."""
    table, inactive = _listed(table)
    total = table.num_rows if table is not None else 0
    show_bonus = (
        table is not None and total > 0 and bool(pc.any(pc.not_equal(table.column("bonus"), 0)).as_py())
    )
    show_deviation = (
        table is not None
        and "deviation" in table.column_names
        and table.column("deviation").null_count < total
    )
    first = pick.files[label] if label is not None else "index.html"
    size = PAGE_ROWS
    count = max(1, -(-total // size))
    for page in range(1, count + 1):
        part = table.slice((page - 1) * size, size) if table is not None else None
        html = Rows(rows_mod.standings_cells(part, names, show_bonus, style) if part is not None else [])
        context: dict[str, Any] = {
            "section": "standings",
            "period": label,
            "rows": html,
            "picker": pick(label, ""),
        }
        context |= {
            "pager": _pager(first, page, count, ""),
            "total": total + inactive,
            "show_bonus": show_bonus,
        }
        context |= {"inactive": inactive, "span": span, "show_deviation": show_deviation}
        yield paged(first, page), context


def standings_index(source: Source, latest: pa.Table | None, index: rows_mod.NameIndex) -> dict[str, Any]:
    """The context of ``index.html``: the latest rated period's standings (its first page)."""
    label = source.rated[-1] if source.rated else None
    pick = Picker(source.rated, {p: period_file(p) for p in source.rated}, "periods.html")
    style = number_format(source.rule_set)
    names = rows_mod.NameCells(index)
    return next(standings_pages(latest, label, names, pick, style, activity_words(source)))[1]


class _Ledgers:
    """The ledger pages of periods given one at a time (:meth:`add`), written a batch of periods at a
    time: the frames' work costs as much for a period of ten games as of a thousand, and an archive of
    two centuries has thousands of periods of a few games. A batch holds :data:`BATCH_ROWS` games or one
    period, whichever is more."""

    def __init__(
        self,
        cap: str,
        index: rows_mod.NameIndex,
        write: Write,
        pick: Picker,
        done: PeriodsWritten,
        buckets: Buckets,
        style: NumberFormat,
    ) -> None:
        self.cap, self.write, self.pick, self.done, self.buckets = (
            cap,
            write,
            pick,
            done,
            buckets,
        )
        self.pending: list[tuple[str | None, pa.Table, pa.Table | None]] = []
        self.rows = 0
        self.names, self.data = rows_mod.NameCells(index, "../"), rows_mod.NameData(index)
        self.style = style  # how the points are written: the rule set's

    def add(self, label: str | None, games: pa.Table, changes: pa.Table | None) -> None:
        """The games of ``label`` (None: the records without a period) and its changes."""
        self.pending.append((label, games, changes))
        self.rows += games.num_rows
        if self.rows >= BATCH_ROWS:
            self.flush()

    def flush(self) -> None:
        """Write the pages of the periods given since the last flush; keep their players' sides."""
        if not self.pending:
            return
        games = pa.concat_tables([g for _, g, _ in self.pending], promote_options="permissive")
        found = [c for _, _, c in self.pending if c is not None and c.num_rows]
        changes = pa.concat_tables(found, promote_options="permissive") if found else None
        made = [
            self._cells(games.slice(at, FRAME_ROWS), changes) for at in range(0, games.num_rows, FRAME_ROWS)
        ]
        rows = pa.concat_arrays([m[0] for m in made]) if made else pa.array([], pa.string())
        codes, counted, black, white = (
            np.concatenate([m[i] for m in made]) if made else np.zeros(0, object) for i in range(1, 5)
        )
        del made
        start = 0
        for label, table, _ in self.pending:
            end = start + table.num_rows
            self._pages(
                label, rows.slice(start, end - start), codes[start:end], [black[start:end], white[start:end]]
            )
            self.done.counts[label] = (end - start, int(counted[start:end].sum()))
            start = end
        self.pending, self.rows = [], 0
        release_unused_memory()  # the batch's frames, kept by the allocators otherwise

    def _cells(self, games: pa.Table, changes: pa.Table | None) -> tuple[pa.Array, *tuple[np.ndarray, ...]]:
        """The ledger rows of ``games`` (part of a batch, with the batch's ``changes``), their reason
        codes, counted flags and sides' names (Black's, White's); their players' sides into the buckets.
        The game frame is made :data:`FRAME_ROWS` games at a time: its pandas objects were the period
        pass's peak of memory (docs/design.md#site-memory)."""
        if changes is not None:
            changes = changes.filter(pc.is_in(changes.column("game_id"), value_set=games.column("game_id")))
        frame = pages.game_frame(games, changes, self.cap, self.style)
        self.buckets.add("games", pages.player_sides(frame))
        rows = rows_mod.ledger_cells(frame, self.names, self.data)
        codes, counted = frame["codes"].to_numpy(), frame["counted"].to_numpy(dtype=bool)
        return rows, codes, counted, frame["black"].to_numpy(), frame["white"].to_numpy()

    def _pages(self, label: str | None, rows: pa.Array, codes: np.ndarray, sides: list[np.ndarray]) -> None:
        """The ledger pages of ``label``: its games' ``rows``, their ``codes`` and the names of their
        ``sides`` (Black's, White's), a page of :data:`PAGE_ROWS` at a time."""
        first = self.pick.files[label] if label is not None else UNDATED
        nav = self.pick(label, "../")
        total, size = len(rows), PAGE_ROWS
        count = max(1, -(-total // size))
        shown = [(code, phrase(code)) for code in pages.reason_codes(list(codes))]
        words = speech.script_messages("filter.js")
        for page in range(1, count + 1):
            part = rows.slice((page - 1) * size, size)
            context: dict[str, Any] = {
                "section": "games",
                "period": label,
                "rows": Rows(part),
            }
            context |= {"shown": len(part), "picker": nav, "codes": shown, "root": "../"}
            context |= {"script_messages": words}
            context |= {"pager": _pager(first, page, count, "../"), "total": total}
            named = {n for s in sides for n in s[(page - 1) * size : page * size] if isinstance(n, str) and n}
            context |= {"names": sorted(named)}
            self.write(paged(first, page), "ledger.html.j2", context)
            self.done.ledger += 1


def _keep_ratings(
    table: pa.Table | None, label: str, index: rows_mod.NameIndex, seen: np.ndarray, buckets: Buckets
) -> None:
    """The ratings rows of ``label`` a player's page reads: where the player moved (games, rating or
    rank) or first appears (``seen``: the players of ``index`` rated in the periods before, by
    position, updated; a player outside ``index`` is kept as if new)."""
    if table is None or not table.num_rows:
        return
    rank, before = (pc.fill_null(table.column(c).cast(pa.string()), "") for c in ("rank", "rank_before"))
    moved = pc.or_(
        pc.or_(pc.greater(table.column("games"), 0), pc.not_equal(table.column("delta"), 0)),
        pc.not_equal(rank, before),
    )
    where = index.where(table.column("player"))
    known = where.drop_null().to_numpy()
    new = np.ones(len(where), dtype=bool)
    new[np.flatnonzero(where.is_valid().to_numpy(zero_copy_only=False))] = ~seen[known]
    seen[known] = True
    keep = pc.or_(moved, pa.array(new))
    kept = table.filter(keep)
    kept = kept.append_column("period", pa.array([label] * kept.num_rows, pa.string()))
    buckets.add("ratings", kept.append_column("moved", moved.filter(keep)))


def _keep(buckets: Buckets, kind: str, table: pa.Table | None, label: str) -> None:
    """``table`` (a partition) into ``buckets`` under ``kind``, with its ``period``."""
    if table is not None and table.num_rows:
        buckets.add(kind, table.append_column("period", pa.array([label] * table.num_rows, pa.string())))


def _pager(first: str, page: int, count: int, root: str) -> dict[str, Any] | None:
    """The links to the other pages of a table split in ``count`` (None: one page)."""
    if count <= 1:
        return None
    name = first.rsplit("/", 1)[-1]
    return {
        "page": page,
        "pages": [(n, root + paged(first, n) if root else paged(name, n)) for n in range(1, count + 1)],
    }


def archive(labels: Sequence[str], files: Mapping[str, str]) -> list[tuple[str, list[tuple[str, str]]]]:
    """``labels`` by year: (year, [(label, file)]), latest year first."""
    years: dict[str, list[tuple[str, str]]] = {}
    for label in labels:
        years.setdefault(year_of(label), []).append((label, files[label]))
    return list(reversed(years.items()))
