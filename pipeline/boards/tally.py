"""tally: each player's counts and winning runs on a leaderboard, from games or from earlier tallies.

A tally is a DataFrame indexed by player with int64 columns ``games``, ``wins``, ``losses``, ``draws``,
``lead`` (the run of wins the player's games open with), ``best`` (the longest run of wins) and
``trail`` (the run of wins they close with). Tallies of consecutive stretches of games combine
(:func:`joined`) into the tally of the whole, so a year's board is built from its periods' tallies
without holding the year's games. Knows nothing of periods, years, files or provisional players: only
scores (1 win, 0 loss, 0.5 draw) in game order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import pandas as pd

COLUMNS = ("games", "wins", "losses", "draws", "lead", "best", "trail")
_PLACES = {"games": "games_place", "wins": "wins_place", "win_rate": "win_rate_place"}


def tally(player: pd.Series, score: npt.NDArray[np.float64]) -> pd.DataFrame:
    """The tally of games given as ``player`` and ``score`` (one row per game x player, in game order).
    Players are grouped by integer codes, not by their names."""
    import pandas as pd

    codes, names = pd.factorize(player, sort=False)
    count = len(names)
    win = score == 1.0
    sums = {
        column: np.bincount(codes, weights=flags, minlength=count).astype(np.int64)
        for column, flags in (("wins", win), ("losses", score == 0.0), ("draws", score == 0.5))
    }
    games = np.bincount(codes, minlength=count).astype(np.int64)
    runs = _runs(codes, win, games - sums["wins"], count)
    return pd.DataFrame({"games": games, **sums, **runs}, index=pd.Index(names, name="player"))


def _runs(
    codes: npt.NDArray[np.intp], win: npt.NDArray[np.bool_], others: npt.NDArray[np.int64], count: int
) -> dict[str, npt.NDArray[np.int64]]:
    """``lead``, ``best`` and ``trail`` per player code; ``others``: each code's games not won.

    Every game not won opens a new run (a cumulative count per player); a run's length is its wins.
    """
    import pandas as pd

    run = pd.Series((~win).astype(np.int64)).groupby(codes, sort=False).cumsum().to_numpy()
    lengths = pd.DataFrame({"code": codes[win], "run": run[win]}).groupby(["code", "run"], sort=False).size()
    code = lengths.index.get_level_values("code").to_numpy()
    number, length = lengths.index.get_level_values("run").to_numpy(), lengths.to_numpy().astype(np.int64)
    found = {name: np.zeros(count, np.int64) for name in ("lead", "best", "trail")}
    np.maximum.at(found["best"], code, length)
    found["lead"][code[number == 0]] = length[number == 0]
    last = number == others[code]
    found["trail"][code[last]] = length[last]
    return found


def joined(first: pd.DataFrame | None, then: pd.DataFrame) -> pd.DataFrame:
    """The tally of the games of ``first`` (None: none) followed by those of ``then``."""
    if first is None:
        return then
    before, after = first.align(then, join="outer", fill_value=0)
    before, after = before.astype(np.int64), after.astype(np.int64)
    whole = before[list(COLUMNS[:4])] + after[list(COLUMNS[:4])]
    all_won = (before["wins"] == before["games"]).to_numpy(), (after["wins"] == after["games"]).to_numpy()
    whole["lead"] = np.where(all_won[0], before["lead"] + after["lead"], before["lead"])
    whole["best"] = np.maximum.reduce([before["best"], after["best"], before["trail"] + after["lead"]])
    whole["trail"] = np.where(all_won[1], before["trail"] + after["trail"], after["trail"])
    return whole


def ranked(tallied: pd.DataFrame, period: str, scope: str, min_games: int) -> pd.DataFrame:
    """The board of ``tallied`` (one row per player): the LEADERBOARD columns, sorted by games_place
    and player. Places rank higher as better, ties share the lowest ("min"); ``win_rate_place`` ranks
    only the players with at least ``min_games`` games, the others get null."""
    board = tallied[list(COLUMNS[:4])].assign(
        win_rate=tallied["wins"] / tallied["games"], longest_streak=tallied["best"]
    )
    eligible = board.assign(win_rate=board["win_rate"].where(board["games"] >= min_games))
    places = {
        place: eligible[column].rank(method="min", ascending=False).astype("Int32")
        for column, place in (*_PLACES.items(), ("longest_streak", "streak_place"))
    }
    board = board.assign(**places, period=period, scope=scope).rename_axis("player").reset_index()
    return board.sort_values(["games_place", "player"], kind="stable")
