"""leaderboards: the per-period and yearly boards of games played, wins, win rate and longest winning streak.

The club proposal's boards (月度和年度对局数榜、胜率榜、胜局榜、连胜榜; docs/rules.md ("club")). Input is the
changes table: one row per counted game x rated player. Knows nothing of validity, ratings, points or bonuses:
every row it is given is a counted game, and ``score`` (1 win, 0 loss, 0.5 draw) is all it reads of the
result. Provisional players (fewer than ``provisional_games`` counted games by the end of a board's period,
all periods) are left off the board: how many games a player has is read from the ratings' ``games_total``
it is given, not counted here. Does no I/O. pandas is imported when boards are computed: the run's modules
import :data:`LEADERBOARD` to write and carry the boards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyarrow as pa

from pipeline.ingest.schema import described as _f

if TYPE_CHECKING:
    import pandas as pd

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

_REQUIRED = ("period", "seq", "player", "score", "date")
_SCORES = (0.0, 0.5, 1.0)
_BOARD = ["period", "scope"]
_KEYS = [*_BOARD, "player"]
_PLACES = {
    "games": "games_place",
    "wins": "wins_place",
    "win_rate": "win_rate_place",
    "longest_streak": "streak_place",
}


def leaderboards(
    changes: pd.DataFrame,
    min_games: int = 5,
    provisional_games: int = 0,
    totals: pd.DataFrame | None = None,
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
        totals: the ratings rows of every period of ``changes``: columns ``period``, ``player`` and
            ``games_total`` (counted games up to the end of the period); read only when
            ``provisional_games`` is above 0.

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
            and ``totals`` is None or lacks a player of a period's board (the message names them).
    """
    if min_games < 0 or provisional_games < 0:
        raise ValueError(
            f"min_games and provisional_games must be >= 0, got {min_games} and {provisional_games}"
        )
    if len(changes) == 0:
        return LEADERBOARD.empty_table()
    _check(changes)
    rows = _scoped(_games(changes))
    if provisional_games:
        rows = _established(rows, totals, provisional_games)
    board = _totals(rows).join(_streaks(rows)).reset_index()
    board = _places(board, min_games)
    board = board.sort_values([*_BOARD, "games_place", "player"], kind="stable")
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


def _games(changes: pd.DataFrame) -> pd.DataFrame:
    """The columns the boards read, in ``seq`` order: period, player (str), score (float), year (str)."""
    import pandas as pd

    games = pd.DataFrame(
        {
            "period": changes["period"].astype(str),
            "seq": changes["seq"],
            "player": changes["player"].astype(str),
            "score": changes["score"].astype(float),
            "year": pd.to_datetime(changes["date"]).dt.year.astype(str),
        }
    )
    return games.sort_values("seq", kind="stable").reset_index(drop=True)


def _scoped(games: pd.DataFrame) -> pd.DataFrame:
    """Each game row once with scope "period" and once with scope "year" (period = its calendar year).

    Years that are already period strings get no "year" rows. Keeps ``seq`` order within each board.
    """
    import pandas as pd

    by_period = games.assign(scope="period")
    yearly = games[~games["year"].isin(set(games["period"]))]
    by_year = yearly.assign(period=yearly["year"], scope="year")
    return pd.concat([by_period, by_year], ignore_index=True).drop(columns="year")


def _established(rows: pd.DataFrame, totals: pd.DataFrame | None, least: int) -> pd.DataFrame:
    """The board rows (of :func:`_scoped`) of the players with at least ``least`` counted games by the end
    of the board's period: ``totals`` by (period, player) for a period board, the most a player has in
    the year's periods for a year board. Raises ValueError if ``totals`` is None or lacks a player of a
    period board."""
    import pandas as pd

    if totals is None:
        raise ValueError("provisional_games needs the totals (period, player, games_total) of the ratings")
    counts = pd.DataFrame(
        {
            "period": totals["period"].astype(str).to_numpy(),
            "player": totals["player"].astype(str).to_numpy(),
            "games_total": totals["games_total"].to_numpy(),
        }
    )
    by_period = counts.groupby(["period", "player"])["games_total"].max()
    by_year = (
        counts.assign(period=counts["period"].str[:4]).groupby(["period", "player"])["games_total"].max()
    )
    known = pd.concat([by_period, by_year], keys=["period", "year"], names=["scope", "period", "player"])
    index = pd.MultiIndex.from_frame(rows[["scope", "period", "player"]])
    found = known.reindex(index)
    if found.isna().any():
        scope, period, player = index[found.isna().to_numpy()][0]
        raise ValueError(f"totals lack player {player!r} of the {scope} board {period!r}")
    established: pd.DataFrame = rows[found.to_numpy() >= least]
    return established


def _totals(rows: pd.DataFrame) -> pd.DataFrame:
    """Per (period, scope, player): games, wins, losses, draws and win_rate (wins / games)."""
    flags = rows[_KEYS].assign(
        games=1,
        wins=(rows["score"] == 1.0).astype(int),
        losses=(rows["score"] == 0.0).astype(int),
        draws=(rows["score"] == 0.5).astype(int),
    )
    totals = flags.groupby(_KEYS, sort=False).sum()
    return totals.assign(win_rate=totals["wins"] / totals["games"])


def _streaks(rows: pd.DataFrame) -> pd.Series:
    """Per (period, scope, player): the longest run of consecutive wins, in the row order of ``rows``.

    Every non-win opens a new run (a cumulative count of non-wins per player); a run's length is its
    number of wins. Players without a win get 0.
    """
    win = rows["score"] == 1.0
    run = (~win).astype(int).groupby([rows[k] for k in _KEYS], sort=False).cumsum()
    wins = rows[win].assign(run=run[win])
    lengths = wins.groupby([*_KEYS, "run"], sort=False).size()
    longest = lengths.groupby(level=_KEYS, sort=False).max()
    index = rows.groupby(_KEYS, sort=False).size().index
    return longest.reindex(index, fill_value=0).rename("longest_streak")


def _places(board: pd.DataFrame, min_games: int) -> pd.DataFrame:
    """``board`` with the four place columns: rank within (period, scope), higher is better, ties "min".

    ``win_rate_place`` ranks only the players with at least ``min_games`` games; the others get null.
    """
    ranked = board.assign(win_rate=board["win_rate"].where(board["games"] >= min_games))
    groups = ranked.groupby(_BOARD, sort=False)
    places = {
        place: groups[column].rank(method="min", ascending=False).astype("Int32")
        for column, place in _PLACES.items()
    }
    return board.assign(**places)
