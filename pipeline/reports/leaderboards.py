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

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
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
    import pandas as pd

    if len(changes) == 0:
        return LEADERBOARD.empty_table()
    _check(changes)
    known = _known(totals) if provisional_games else None
    games = _games(changes)
    players, scores = games["player"], games["score"].to_numpy()  # (names stay Arrow strings)
    boards = []
    for period, scope, where in _scoped(games):  # one board at a time: a year of a server is 10^6 games
        player, score = players.iloc[where], scores[where]
        if known is not None:
            keep = _established(player, known, scope, period, provisional_games)
            player, score = player[keep], score[keep]
        if len(player):
            boards.append(_board(player, score, period, scope, min_games))
    if not boards:
        return LEADERBOARD.empty_table()
    board = pd.concat(boards, ignore_index=True)
    board = board.sort_values([*_BOARD, "games_place", "player"], kind="stable")
    return pa.Table.from_pandas(board[LEADERBOARD.names], schema=LEADERBOARD, preserve_index=False)


def _board(
    player: pd.Series, score: npt.NDArray[np.float64], period: str, scope: str, min_games: int
) -> pd.DataFrame:
    """One board (its games' ``player`` and ``score``, in ``seq`` order): each player's totals,
    longest streak and places. Players are grouped by integer codes, not by their names."""
    import pandas as pd

    codes, names = pd.factorize(player, sort=False)  # codes 0.. in the order first seen
    board = _totals(codes, score).join(_streaks(codes, score)).sort_index()
    board.insert(0, "player", names[board.index.to_numpy()])
    board = board.reset_index(drop=True).assign(period=period, scope=scope)
    return _places(board, min_games)


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
            "year": pd.to_datetime(changes["date"]).dt.year,  # a number: no string a row
        }
    )
    return games.sort_values("seq", kind="stable").reset_index(drop=True)


def _scoped(games: pd.DataFrame) -> Iterator[tuple[str, str, npt.NDArray[np.intp]]]:
    """Each board as (period, scope, the positions of its rows in ``games``), one at a time: each
    period's (scope "period"), then each calendar year's (scope "year", period = the year). Years that
    are already period strings get no "year" board."""
    import pandas as pd

    period, year = games["period"], games["year"].to_numpy()
    labels = [str(p) for p in period.unique()]
    for label in labels:
        yield label, "period", np.flatnonzero((period == label).to_numpy())
    for number in pd.unique(year):
        if str(number) not in set(labels):
            yield str(number), "year", np.flatnonzero(year == number)


def _known(totals: pd.DataFrame | None) -> pd.Series:
    """From the ratings' ``totals``: the most counted games of each player by the end of each period
    (index scope, period, player), and by the end of each year's last period. Raises ValueError if
    ``totals`` is None."""
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
    found: pd.Series = pd.concat(
        [by_period, by_year], keys=["period", "year"], names=["scope", "period", "player"]
    )
    return found


def _established(
    player: pd.Series, known: pd.Series, scope: str, period: str, least: int
) -> npt.NDArray[np.bool_]:
    """Which games of one board (their ``player``) are of players with at least ``least`` counted games
    by the end of the board's period (``known``: :func:`_known`). Raises ValueError if ``known`` lacks a
    player of the board."""
    try:
        mine = known.loc[(scope, period)]
    except KeyError:
        mine = known.iloc[:0].droplevel(["scope", "period"])
    found = mine.reindex(player.to_numpy())
    missing = found.isna().to_numpy()
    if missing.any():
        raise ValueError(f"totals lack player {player[missing].iloc[0]!r} of the {scope} board {period!r}")
    established: npt.NDArray[np.bool_] = found.to_numpy() >= least
    return established


def _totals(codes: npt.NDArray[np.intp], score: npt.NDArray[np.float64]) -> pd.DataFrame:
    """Per player code: games, wins, losses, draws and win_rate (wins / games)."""
    import pandas as pd

    flags = pd.DataFrame(
        {
            "games": 1,
            "wins": (score == 1.0).astype(int),
            "losses": (score == 0.0).astype(int),
            "draws": (score == 0.5).astype(int),
        }
    )
    totals = flags.groupby(codes, sort=False).sum()
    return totals.assign(win_rate=totals["wins"] / totals["games"])


def _streaks(codes: npt.NDArray[np.intp], score: npt.NDArray[np.float64]) -> pd.Series:
    """Per player code: the longest run of consecutive wins, in the order of the rows.

    Every non-win opens a new run (a cumulative count of non-wins per player); a run's length is its
    number of wins. Players without a win get 0.
    """
    import pandas as pd

    win = score == 1.0
    run = pd.Series((~win).astype(int)).groupby(codes, sort=False).cumsum().to_numpy()
    lengths = pd.DataFrame({"code": codes[win], "run": run[win]}).groupby(["code", "run"], sort=False).size()
    longest = lengths.groupby(level="code", sort=False).max()
    return longest.reindex(range(int(codes.max()) + 1), fill_value=0).rename("longest_streak")


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
