"""cli.boards: ``ratings show --report leaderboards``: the leaderboards a run wrote, as tables.

The boards of one period (``--period``, default the latest rated) and of its calendar year
(``leaderboards/``, :data:`pipeline.core.tables.LEADERBOARD`): games played, wins, win rate
and the longest winning streak, each with its place; provisional players are not on them. A table per
board, best by games first, ``--top N`` rows each, fitted to the terminal; ``--format csv|json`` gives
both boards' rows with every column. Knows nothing of how the boards are computed.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.cli.common import Format, console, fail
from pipeline.cli.tables import Column, cell_text, missing, print_fitted, print_frame
from pipeline.core.i18n import N_, _

if TYPE_CHECKING:
    import pandas as pd

#: The leaderboard table's columns: each count with its place on the board in brackets.
BOARD_TABLE = (
    Column(N_("player"), names=True),
    Column(N_("games"), right=True),
    Column(N_("wins"), right=True),
    Column(N_("losses"), right=True, drop=2),
    Column(N_("draws"), right=True, drop=3),
    Column(N_("win rate"), right=True),
    Column(N_("streak"), right=True, drop=1),
)
NAME = "leaderboards"
_MIN_GAMES = (
    5  # the least games of a placed win rate: pipeline.boards.leaderboards.Boards' default, the run's
)
_PLACES = ("games_place", "wins_place", "win_rate_place", "streak_place")


def show_boards(out: Path, period: str | None, top: int | None, fmt: Format, wide: bool) -> None:
    """Print the boards of ``period`` (None: the latest rated) and of its year in ``out``; exit 2
    for a period with no board or a ``top`` below 1."""
    from pipeline.output import folder as outputs

    if top is not None and top < 1:
        fail(_("--top must be 1 or more, got {top}").format(top=top), 2)
    rated = outputs.rated_periods(out)
    chosen = period or (rated[-1] if rated else None)
    if chosen is None or chosen not in rated:
        known = ", ".join(rated) or _("none: no game was counted")
        fail(
            _("no leaderboards for period {period!r} in {out} (rated periods: {known})").format(
                period=chosen, out=out, known=known
            ),
            2,
        )
    boards = _boards(out, chosen)
    if fmt is not Format.table:
        print_frame(boards, fmt)
        return
    for label, board in boards.groupby(["scope", "period"], sort=False):
        scope, shown = label
        rows = [board_cells(r) for r in (board if top is None else board.head(top)).to_dict("records")]
        if scope == "year":
            title = _("leaderboards, year {year}: {out}").format(year=shown, out=out)
        else:
            title = _("leaderboards, period {period}: {out}").format(period=shown, out=out)
        print_fitted(title, BOARD_TABLE, rows, wide)
    if boards.empty:
        console().print(_("no player on the boards of {period}").format(period=chosen))
    else:
        legend = _("(n): the place on that board; a win rate is placed from {n} games on")
        console().print(legend.format(n=_MIN_GAMES), markup=False)


def _boards(out: Path, period: str) -> pd.DataFrame:
    """The period board of ``period`` and the year board of its year, with ``period`` a column, each
    sorted by games place, then player."""
    import pandas as pd

    from pipeline.core.periods import year_of
    from pipeline.output import folder as outputs

    year = year_of(period)
    parts = []
    for label, scope in ((period, "period"), (year, "year")):
        board = outputs.read_partition(out, NAME, label)
        if len(board) and "scope" in board:
            board = board[board["scope"] == scope]
            parts.append(board.assign(period=label)[["period", *board.columns]])
    if not parts:
        return pd.DataFrame(columns=["period", "scope", "player"])
    found = pd.concat(parts, ignore_index=True).drop_duplicates(["period", "scope", "player"])
    found = found.astype({p: "Int32" for p in _PLACES if p in found})
    return found.sort_values(["scope", "games_place", "player"], kind="stable", ignore_index=True)


def board_cells(row: Mapping[Hashable, Any]) -> list[str]:
    """player, games, wins, losses, draws, win rate (two decimals) and streak, each count with its
    place in brackets (a win rate without a place: too few games)."""
    rate = "" if missing(row["win_rate"]) else f"{float(row['win_rate']):.2f}"
    return [
        str(row["player"]),
        _placed(row["games"], row["games_place"]),
        _placed(row["wins"], row["wins_place"]),
        cell_text(row["losses"]),
        cell_text(row["draws"]),
        _placed(rate, row["win_rate_place"]),
        _placed(row["longest_streak"], row["streak_place"]),
    ]


def _placed(value: Any, place: Any) -> str:
    return cell_text(value) if missing(place) else f"{cell_text(value)} ({int(place)})"
