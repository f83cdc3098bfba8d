"""explain.names: which player a name typed on the command line means, the same way for every command.

:func:`resolve_player` (re-exported as :func:`pipeline.reports.resolve_player`) is the one resolver of
``ratings audit --player``, ``ratings explain PLAYER`` and the plot and export helpers: a name matches a
rated player's name, any spelling a record used, or a roster name or alias, compared NFKC-folded and
casefolded (:func:`pipeline.config.roster.name_key`: full-width letters, case and spaces aside); a name
that matches none gets the closest names as suggestions (:class:`UnknownPlayer`). The spellings are looked
up in the output's index by player (:mod:`pipeline.reports.player_rows`: the names of the chunks that
hold the key), or, for an output without one, gathered from every game record and every rated period.

Knows nothing of what the caller does with the name, nor of the configuration beyond the roster it is
given (for aliases no record used).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from pipeline.config.roster import Roster, name_key
from pipeline.core.i18n import _
from pipeline.core.text import fold
from pipeline.output import folder as outputs
from pipeline.output.folder import ReportError
from pipeline.reports import player_rows

if TYPE_CHECKING:
    import pandas as pd

#: The games columns :func:`resolve_player` reads.
NAME_COLUMNS = ("black", "white", "black_player", "white_player")


class UnknownPlayer(ReportError):
    """No player of the output folder is spelled that way; ``suggestions`` the closest names (may be
    empty), already named in the message."""

    def __init__(self, message: str, suggestions: Sequence[str]) -> None:
        super().__init__(message)
        self.suggestions = tuple(suggestions)


def resolve_player(
    out: Path, name: str, roster: Roster | None = None, games: pa.Table | pd.DataFrame | None = None
) -> str:
    """The canonical name of the player ``name`` spells in the output folder ``out``.

    Args:
        out: an output folder written by ``ratings run``.
        name: as typed: a rated player's name, a spelling a record used, or a ``roster`` name or alias,
            compared by :func:`~pipeline.config.roster.name_key`; when that finds two players, the one
            spelled exactly as ``name`` (NFKC-folded) is meant (``Fish`` and ``fish`` both played).
        roster: the run's roster, for aliases no record used (None: the records' spellings only); only
            its entries for players of ``out`` count.
        games: ``out``'s games table when already read (the :data:`NAME_COLUMNS` at least; an Arrow
            table or a pandas frame).

    Returns:
        The player's canonical name, as the output tables write it.

    Raises:
        ReportError: if ``out`` holds no output, or ``name`` spells two players.
        UnknownPlayer: if ``name`` spells no player (the message names up to five close names).
    """
    if games is None:
        found = _indexed(out, name, roster)
        if found is not None:
            return found
        games = outputs.read_games_table(out, columns=NAME_COLUMNS)
    spellings = _spellings(out, games, roster)
    return _chosen(out, name, spellings.get(name_key(name), set()), lambda: spellings)


def _indexed(out: Path, name: str, roster: Roster | None) -> str | None:
    """:func:`resolve_player` through ``out``'s player index (None: ``out`` has none, or it cannot be
    read: the caller reads the games instead)."""
    index = player_rows.index_of(out)
    if index is None:
        return None
    try:
        key = name_key(name)
        found = player_rows.players_of(index, key)
        for entry in roster.players if roster is not None else ():
            keys = {name_key(s) for s in (entry.name, *entry.aliases)}
            if key in keys and entry.name in player_rows.players_of(index, name_key(entry.name)):
                found.add(entry.name)
        if found:
            return _chosen(out, name, found, dict)

        def spellings() -> dict[str, set[str]]:
            table = index.table("names")
            every: dict[str, set[str]] = {}
            for k, player in zip(
                table.column("key").to_pylist(), table.column("player").to_pylist(), strict=True
            ):
                every.setdefault(k, set()).add(player)
            return _with_roster(every, roster)

        return _chosen(out, name, found, spellings)
    except player_rows.Unreadable:
        return None


def _chosen(out: Path, name: str, found: set[str], spellings: Callable[[], dict[str, set[str]]]) -> str:
    """The one player of ``found`` (the canonical names ``name``'s key stands for) ``name`` means; when
    there is none, raise UnknownPlayer with the close names of ``spellings()`` (every key with its
    names). Raises ReportError when ``name`` spells two players."""
    if len(found) > 1 and fold(name) in found:
        return fold(name)
    if len(found) > 1:
        raise ReportError(
            _("{name!r} names more than one player in {out}: {players}").format(
                name=name, out=out, players=", ".join(sorted(found))
            )
        )
    if found:
        return found.pop()
    every = spellings()
    close = difflib.get_close_matches(name_key(name), list(every), n=5, cutoff=0.5)
    names = list(dict.fromkeys(sorted(every[k])[0] for k in close))
    if names:
        said = _("no player {name!r} in {out} (did you mean: {names}?)")
    else:
        said = _("no player {name!r} in {out}")
    raise UnknownPlayer(said.format(name=name, out=out, names=", ".join(names)), names)


def _spellings(out: Path, games: pa.Table | pd.DataFrame, roster: Roster | None) -> dict[str, set[str]]:
    """name_key of every spelling -> the canonical names it stands for: the records' spellings, the
    rated players' names, and the roster's names and aliases of those players (a roster entry of no
    player of the output, from another run's roster say, adds nothing)."""
    spellings: dict[str, set[str]] = {}

    def add(spelling: Any, canonical: Any) -> None:
        if isinstance(spelling, str) and isinstance(canonical, str):
            spellings.setdefault(name_key(spelling), set()).add(canonical)

    for side in ("black", "white"):
        for raw, canonical in zip(_values(games, side), _values(games, f"{side}_player"), strict=True):
            add(raw, canonical)
            add(canonical, canonical)
    for label in outputs.rated_periods(out):
        for rated in _values(
            outputs.read_partition_table(out, "ratings", label, columns=["player"]), "player"
        ):
            add(rated, rated)
    return _with_roster(spellings, roster)


def _values(table: pa.Table | pd.DataFrame, column: str) -> list[Any]:
    """The values of ``table``'s ``column`` as Python objects, whether ``table`` is Arrow's or pandas'."""
    if isinstance(table, pa.Table):
        values: list[Any] = table.column(column).to_pylist()
        return values
    return list(table[column])


def _with_roster(spellings: dict[str, set[str]], roster: Roster | None) -> dict[str, set[str]]:
    """``spellings`` (name key -> canonical names) with the roster's names and aliases of its players."""
    players = {name for names in spellings.values() for name in names}
    for entry in roster.players if roster is not None else ():
        for spelling in (entry.name, *entry.aliases) if entry.name in players else ():
            spellings.setdefault(name_key(spelling), set()).add(entry.name)
    return spellings
