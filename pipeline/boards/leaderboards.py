"""leaderboards: the per-period and yearly boards of games played, wins, win rate and longest winning streak.

The club proposal's boards (月度和年度对局数榜、胜率榜、胜局榜、连胜榜; docs/rules.md ("club")). Input is the
changes table: one row per counted game x rated player. Knows nothing of validity, ratings, points or bonuses:
every row it is given is a counted game, and ``score`` (1 win, 0 loss, 0.5 draw) is all it reads of the
result. Provisional players (fewer than ``provisional_games`` counted games by the end of a board's period,
all periods, or a deviation above ``provisional_deviation``: :class:`pipeline.core.provisional.Provisional`)
are left off the board, and so are inactive players (no counted game within ``[output] active_within``
before its end) when asked: how many games a player has, their deviation and whether they are active are
read from the ratings' ``games_total``, ``deviation`` and ``active`` it is given, not counted here.
:class:`Boards` takes the changes a chunk (a period) at a time and keeps only each open year's tally
(:mod:`pipeline.boards.tally`), so a server's year of games is never held at once; :func:`leaderboards` is
the same over one table. Does no I/O. pandas is imported when boards are computed. The boards' schema is
:data:`pipeline.core.tables.LEADERBOARD`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import pyarrow as pa

from pipeline.boards.tally import joined, ranked, tally
from pipeline.core.provisional import Provisional
from pipeline.core.tables import LEADERBOARD

if TYPE_CHECKING:
    import pandas as pd

_REQUIRED = ("period", "seq", "player", "score", "date")
_SCORES = (0.0, 0.5, 1.0)


def leaderboards(
    changes: pd.DataFrame,
    min_games: int = 5,
    provisional_games: int = 0,
    totals: pd.DataFrame | None = None,
    provisional_deviation: float = 0.0,
    active_only: bool = False,
) -> pa.Table:
    """The period boards of every period in ``changes`` and the yearly boards of every calendar year.

    Args:
        changes: one row per counted game x rated player, with at least the columns ``period`` (str),
            ``seq`` (int, global game order), ``player`` (str), ``score`` (1 win, 0 loss, 0.5 draw) and
            ``date`` (datetime.date). Other columns are ignored.
        min_games: players with fewer games than this on a board get a null ``win_rate_place``.
        provisional_games: players with fewer counted games (all periods) than this by the end of a
            board's period (a year board: the year's last period) are provisional and left off the board;
            0 (the default) leaves everyone on.
        totals: the ratings rows of every period of ``changes``: columns ``period``, ``player``,
            ``games_total`` (counted games up to the end of the period), ``deviation`` when the rule set
            has one and ``active`` (a counted game within ``[output] active_within`` before its end;
            absent: everyone active); read only when ``provisional_games`` or ``provisional_deviation``
            is above 0 or with ``active_only``.
        provisional_deviation: players whose ``deviation`` is above this at the end of a board's period
            (a year board: the year's last period) are provisional too; 0 (the default) tests none.
        active_only: players inactive at the end of a board's period (a year board: the year's last
            period) are left off the board.

    Returns:
        A table with schema LEADERBOARD: one row per player per period (scope "period") and per player per
        calendar year of ``date`` (scope "year"), sorted by period, scope, games_place, player. A year
        already present as a period string (the periods are years) gets no second, yearly board.
        ``longest_streak`` is the longest run of consecutive wins in ``seq`` order within the board; a
        loss or a draw ends a run. Places rank the players on the board only. Input without rows
        (whatever its columns) gives an empty table.

    Raises:
        ValueError: if ``min_games`` or ``provisional_games`` is negative, a required column is missing,
            a ``score`` is not 0, 0.5 or 1, a ``date`` is missing, or ``provisional_games`` is above 0
            (or ``active_only``) and ``totals`` is None or lacks a player of a period's board (the
            message names them).
    """
    boards = Boards(min_games, provisional_games, provisional_deviation, active_only)
    table = pa.concat_tables([boards.add(changes, totals), boards.finish()])
    return table.sort_by([("period", "ascending"), ("scope", "ascending")])  # (stable)


class Boards:
    """The boards of changes given a chunk at a time (:meth:`add`), in ``seq`` order: each chunk's
    period boards at once, the year boards at :meth:`finish`. Every period's changes come in one chunk;
    a chunk may hold several periods. Holds each year's tally and, with ``provisional_games`` or
    ``active_only``, the totals of each year's latest period given; no games. Arguments as
    :func:`leaderboards`.

    Raises ValueError if ``min_games`` or ``provisional_games`` is negative."""

    def __init__(
        self,
        min_games: int = 5,
        provisional_games: int = 0,
        provisional_deviation: float = 0.0,
        active_only: bool = False,
    ) -> None:
        if min_games < 0 or provisional_games < 0 or provisional_deviation < 0:
            raise ValueError(
                "min_games, provisional_games and provisional_deviation must be >= 0, got "
                f"{min_games}, {provisional_games} and {provisional_deviation}"
            )
        self.min_games, self.active_only = min_games, active_only
        self.provisional = Provisional(provisional_games, provisional_deviation)
        self.least = self.provisional.on
        self.periods: set[str] = set()  # the periods given so far
        self.years: dict[str, pd.DataFrame] = {}  # year -> the tally of its games so far
        self.known: dict[str, pd.DataFrame] = {}  # year -> its latest period's totals, by player
        self.last = -1  # the last seq given

    @property
    def _limited(self) -> bool:
        """Whether some players may be left off a board (provisional or inactive ones)."""
        return bool(self.least) or self.active_only

    def add(self, changes: pd.DataFrame, totals: pd.DataFrame | None = None) -> pa.Table:
        """The boards (schema LEADERBOARD) of the periods of ``changes`` (columns as :func:`leaderboards`),
        sorted by period, games_place, player; ``totals``: the ratings rows of those periods, read only
        with ``provisional_games`` or ``active_only``.

        Raises ValueError as :func:`leaderboards` does, and if a period of ``changes`` was given before
        or a ``seq`` is not after every ``seq`` given before."""
        if len(changes) == 0:
            if self._limited and totals is not None:
                self._known(totals)  # (a year's last totals may come with a period without games)
            return LEADERBOARD.empty_table()
        _check(changes)
        known = self._known(totals) if self._limited else None
        games = _games(changes, self.last, self.periods)
        self.last = int(games["seq"].iloc[-1])
        players, scores = games["player"], games["score"].to_numpy()
        boards = []
        for label, where in sorted(games.groupby("period", sort=False).indices.items()):
            label = str(label)
            self.periods.add(label)
            mine = tally(players.iloc[where], scores[where])
            boards.append(ranked(self._listed(mine, known, "period", label), label, "period", self.min_games))
        for year, where in games.groupby("year", sort=False).indices.items():
            self.years[str(year)] = joined(
                self.years.get(str(year)), tally(players.iloc[where], scores[where])
            )
        return _table(boards)

    def finish(self) -> pa.Table:
        """The year boards (schema LEADERBOARD) of every year given, sorted by period, games_place,
        player; a year that is itself a period gets none. Raises ValueError if the totals lack a
        player of a year's board."""
        known = self.known if self._limited else None
        boards = [
            ranked(self._listed(found, known, "year", year), year, "year", self.min_games)
            for year, found in sorted(self.years.items())
            if year not in self.periods
        ]
        return _table(boards)

    def _known(self, totals: pd.DataFrame | None) -> dict[str, pd.DataFrame]:
        """Each period's standing per player (``established``, from ``games_total`` and ``deviation`` by
        :class:`Provisional`, and ``active``, by player, from the ratings' ``totals``; a table without
        ``active``: everyone active), and per year those of the latest period given: the ratings of a
        period hold every player rated so far, with their counted games so far, so the year's last
        period says what the year's board needs. Raises ValueError if ``totals`` is None."""
        if totals is None:
            raise ValueError(
                "provisional_games and active_only need the totals (period, player, games_total, active)"
                " of the ratings"
            )
        deviation = totals["deviation"] if "deviation" in totals.columns else None
        counts = totals.assign(established=~self.provisional.marks(totals["games_total"], deviation))
        if "active" not in counts.columns:
            counts = counts.assign(active=True)
        found = {
            str(label): _by_player(rows)
            for label, rows in counts.groupby(counts["period"].astype(str), sort=True)
        }
        for label in found:  # (in order: a year's latest period is given last)
            self.known[label[:4]] = found[label]
        return found

    def _listed(
        self, tallied: pd.DataFrame, known: Mapping[str, pd.DataFrame] | None, scope: str, label: str
    ) -> pd.DataFrame:
        """The players of ``tallied`` established (not provisional) by the end of the board ``label``
        and, with ``active_only``, active at its end (all of them when ``known`` is None). Raises
        ValueError if ``known`` lacks one."""
        if known is None:
            return tallied
        import pandas as pd

        mine = known.get(label, pd.DataFrame({"games_total": [], "established": [], "active": []}))
        found = mine.reindex(tallied.index)
        missing = found["games_total"].isna().to_numpy()
        if missing.any():
            raise ValueError(
                f"totals lack player {tallied.index[missing][0]!r} of the {scope} board {label!r}"
            )
        keep = found["established"].astype(bool).to_numpy()
        if self.active_only:
            keep = keep & found["active"].astype(bool).to_numpy()
        return tallied[keep]


def _by_player(rows: pd.DataFrame) -> pd.DataFrame:
    """One period's totals (``player``, ``games_total``, ``established``, ``active``) by player: a player
    given twice has the most games and the last standing and activity."""
    found = rows.set_index(rows["player"].astype(str))[["games_total", "established", "active"]]
    if found.index.is_unique:
        return found
    return found.groupby(level=0).agg(
        games_total=("games_total", "max"), established=("established", "last"), active=("active", "last")
    )


def _table(boards: list[pd.DataFrame]) -> pa.Table:
    """``boards`` (LEADERBOARD columns) as one table, in their order; empty if there are none."""
    import pandas as pd

    rows = [board for board in boards if len(board)]
    if not rows:
        return LEADERBOARD.empty_table()
    board = pd.concat(rows, ignore_index=True)
    return pa.Table.from_pandas(board[LEADERBOARD.names], schema=LEADERBOARD, preserve_index=False)


def _check(changes: pd.DataFrame) -> None:
    """Raise ValueError naming the missing columns, a score not in {0, 0.5, 1}, or a row without a date."""
    missing = [c for c in _REQUIRED if c not in changes.columns]
    if missing:
        raise ValueError(f"changes lacks column(s) {missing}")
    bad = changes.loc[~changes["score"].isin(_SCORES), "score"]
    if not bad.empty:
        raise ValueError(f"score must be 0, 0.5 or 1, got {bad.tolist()[0]!r}")
    if changes["date"].isna().any():
        raise ValueError(f"date missing in {int(changes['date'].isna().sum())} row(s) of changes")


def _games(changes: pd.DataFrame, after: int, given: set[str]) -> pd.DataFrame:
    """The columns the boards read, in ``seq`` order: period, seq, player (str), score (float), year.
    Raises ValueError if a seq is not above ``after`` or a period is in ``given``."""
    import pandas as pd

    games = pd.DataFrame(
        {
            "period": changes["period"].astype(str),
            "seq": changes["seq"],
            "player": changes["player"].astype(str),
            "score": changes["score"].astype(float),
            "year": pd.to_datetime(changes["date"]).dt.year,  # a number: no string a row
        }
    )
    games = games.sort_values("seq", kind="stable").reset_index(drop=True)
    if int(games["seq"].iloc[0]) <= after:
        raise ValueError(f"changes out of order: seq {int(games['seq'].iloc[0])} after seq {after}")
    again = sorted(given & set(games["period"].unique()))
    if again:
        raise ValueError(f"the changes of period {again[0]!r} were given before (one chunk a period)")
    return games
