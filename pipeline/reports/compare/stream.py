"""compare.stream: the two sides' standings gathered period by period as each side replays, then set side
by side one period at a time, so that a comparison of a server's archive holds one period's rows at once.

Each side's :class:`Kept` reads its replay (a :class:`~pipeline.reports.predicted.Listener`): the
counted games of each audited piece by period, and each period's standings (``player place rank rating
promotions``, :func:`~pipeline.reports.compare.standings.standings` of that period alone), which wait
on disk (:class:`~pipeline.output.spill.PeriodFiles`). :func:`merged` then sets the two sides' standings
of each period both rated side by side (:func:`~pipeline.reports.compare.standings.players`), in the
order of the labels, then overall (each side's last period, with its promotions over the whole run),
and writes each period's rows to a :class:`Rows` store; the periods table, each player's largest move
and whether the player changed at all are gathered on the way, so that the movers of any period are
read from that period's rows alone.

Knows nothing of how the ratings were made, nor of rendering.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.output.spill import PeriodFiles
from pipeline.reports.compare.standings import (
    OVERALL,
    PERIOD_COLUMNS,
    PLAYER_COLUMNS,
    period_row,
    players,
)
from pipeline.rules.replay import PeriodTables


class Kept:
    """One side's standings by period on disk in ``folder`` (which must exist), its counted games by
    period (``games``), its promotions per player over the run and its last period with standings."""

    def __init__(self, folder: Path) -> None:
        self.store = PeriodFiles(folder)
        self.games: dict[str, int] = {}
        self.promotions: dict[str, int] = {}
        self.last: str | None = None

    def audited(self, games: pa.Table) -> None:
        """Count the counted games of an audited piece by period."""
        counted = games["period"].filter(pc.fill_null(games["counted"], False))
        for row in pc.value_counts(counted).to_pylist():
            self.games[row["values"]] = self.games.get(row["values"], 0) + row["counts"]

    def rated(self, period: PeriodTables) -> None:
        """Keep a period's standings (none kept for a period without ratings)."""
        ratings = period.tables["ratings"].select(["period", "player", "rating_place", "rank", "rating"])
        promoted = period.tables["promotions"].select(["period", "player"]).to_pandas()
        for player, count in promoted["player"].value_counts().items():
            self.promotions[str(player)] = self.promotions.get(str(player), 0) + int(count)
        if not ratings.num_rows:
            return
        shown = ratings.to_pandas().rename(columns={"rating_place": "place"})
        counts = promoted["player"].value_counts()
        shown["promotions"] = shown["player"].map(counts).fillna(0).astype("int64")
        self.store[period.label] = pa.Table.from_pandas(shown, preserve_index=False)
        self.last = period.label

    def period(self, label: str) -> pd.DataFrame:
        """The standings of period ``label`` (``period player place rank rating promotions``)."""
        found: pd.DataFrame = self.store[label].to_pandas()
        return found

    def overall(self) -> pd.DataFrame:
        """The standings at the end of the last period, with the promotions over the whole run."""
        if self.last is None:
            return pd.DataFrame(columns=["period", "player", "place", "rank", "rating", "promotions"])
        last = self.period(self.last).assign(period=OVERALL)
        totals = last["player"].map(self.promotions).fillna(0).astype("int64")
        return last.assign(promotions=totals)


class Rows:
    """The rows of :func:`~pipeline.reports.compare.standings.players` by period (overall last), on disk
    in ``folder`` (kept while ``owner``, the folder's remover, lives): :meth:`of` one period, :meth:`frames`
    each in order, :meth:`all` of them."""

    def __init__(self, folder: Path, owner: object = None) -> None:
        self.store = PeriodFiles(folder)
        self.owner = owner  # (what removes the folder when freed: it lives as long as the rows)

    def put(self, label: str, rows: pd.DataFrame) -> None:
        """Keep period ``label``'s rows."""
        self.store[label] = pa.Table.from_pandas(rows, preserve_index=False)

    def of(self, label: str) -> pd.DataFrame:
        """The rows of period ``label`` (none for a period not compared)."""
        return self.store[label].to_pandas() if label in self.store else self._empty()

    def frames(self) -> Iterator[pd.DataFrame]:
        """Each period's rows, in order, one at a time."""
        for label in self.store:
            yield self.of(label)

    def all(self) -> pd.DataFrame:
        """Every row, in order (a whole server's: mind the memory)."""
        found = list(self.frames())
        return pd.concat(found, ignore_index=True) if found else self._empty()

    @staticmethod
    def _empty() -> pd.DataFrame:
        return pd.DataFrame(columns=list(PLAYER_COLUMNS))


@dataclass(frozen=True, slots=True)
class Merged:
    """What :func:`merged` gathers: the periods table, each player's largest move in one period
    (``largest``, ``largest_in``: the first of its size) and whether each player changed anywhere
    (``changed``, indexed by player)."""

    periods: pd.DataFrame
    peaks: pd.DataFrame
    changed: pd.Series


def merged(a: Kept, b: Kept, same_scale: bool, rows: Rows) -> Merged:
    """Both sides' standings side by side, period by period, into ``rows`` (see the module docstring)."""
    common = sorted(set(a.store) & set(b.store))
    table, peaks, changed = [], _no_peaks(), pd.Series(dtype=bool)
    for label in [*common, OVERALL]:
        left, right = (a.overall(), b.overall()) if label == OVERALL else (a.period(label), b.period(label))
        found = players(left, right, same_scale)
        if not len(found):
            continue
        rows.put(label, found)
        table.append(period_row(label, found))
        if label != OVERALL:
            peaks = _peaked(peaks, found)
        flagged = (found["changed"] | (found["rating_diff"].fillna(0) != 0)).groupby(found["player"]).any()
        every = changed.index.union(flagged.index)
        changed = changed.reindex(every, fill_value=False) | flagged.reindex(every, fill_value=False)
        del found
    frame = pd.DataFrame(table, columns=[c for c in PERIOD_COLUMNS if not c.startswith("games")])
    totals = {OVERALL: (sum(a.games.values()), sum(b.games.values()))}
    counts = [totals.get(p, (a.games.get(p, 0), b.games.get(p, 0))) for p in frame["period"]]
    frame.insert(1, "games_a", [int(x) for x, _ in counts])
    frame.insert(2, "games_b", [int(y) for _, y in counts])
    return Merged(frame[list(PERIOD_COLUMNS)], peaks, changed.astype(bool))


def _no_peaks() -> pd.DataFrame:
    return pd.DataFrame({"largest": pd.Series(dtype="Int64"), "largest_in": pd.Series(dtype=object)})


def _peaked(peaks: pd.DataFrame, found: pd.DataFrame) -> pd.DataFrame:
    """``peaks`` with the moves of one period's rows ``found``: a player's largest move is replaced only
    by a strictly larger one (the first of its size stays), a player's first move is taken as it is."""
    moved = found[found["moved"].notna()].set_index("player")["moved"].astype("int64")
    if moved.empty:
        return peaks
    before = peaks["largest"].reindex(moved.index)
    larger = before.isna() | (moved.abs() > before.abs().fillna(-1))
    taken = pd.DataFrame({"largest": moved[larger].astype("Int64"), "largest_in": found["period"].iloc[0]})
    return pd.concat([peaks.drop(index=taken.index, errors="ignore"), taken])
