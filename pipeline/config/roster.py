"""roster: the club's players (``config/roster.toml``) and how SGF player names map to them.

A name matches a player when, NFKC-folded (:func:`pipeline.ingest.normalise.text.fold`) and casefolded, it
equals
the player's canonical name or one of their aliases. Knows nothing of games, ratings or rule sets: what a
declared rank, a starting rating or a fixed player means is for the rule set to decide.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.config.toml import Table, boolean, list_of, number, rank, read_toml, text
from pipeline.ingest.normalise.text import fold

PLAYER_KEYS = ("name", "aliases", "rank", "member", "rating", "fixed")


def name_key(name: str) -> str:
    """The form names are compared in: NFKC, white space collapsed, ends stripped, casefolded."""
    return fold(name).casefold()


@dataclass(frozen=True, slots=True)
class Player:
    """One roster entry.

    ``name`` is canonical (NFKC-folded); ``aliases`` are other spellings as written; ``rank`` is the declared
    rank in canonical form (``1d``) or None; ``rating`` a starting rating or None; ``fixed`` True for a
    reference player whose rating is never updated.
    """

    name: str
    aliases: tuple[str, ...] = ()
    rank: str | None = None
    member: bool = True
    rating: float | None = None
    fixed: bool = False


def _claim(index: dict[str, int], spelling: str, owner: int) -> int | None:
    """Map ``spelling`` to player ``owner`` (a position); return the other position it names, else None."""
    other = index.setdefault(name_key(spelling), owner)
    return other if other != owner else None


@dataclass(frozen=True, slots=True)
class Roster:
    """The players, in file order. ``Roster()`` is no roster: everyone is a member.

    Raises ValueError if two players share a name, or a spelling names two players.
    """

    players: tuple[Player, ...] = ()
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, int] = {}
        for position, player in enumerate(self.players):
            for spelling in (player.name, *player.aliases):
                other = _claim(index, spelling, position)
                if other is not None:
                    names = f"{self.players[other].name!r} and {player.name!r}"
                    raise ValueError(f"roster: {spelling!r} names both {names}")
        object.__setattr__(self, "_index", index)

    @property
    def configured(self) -> bool:
        """True when the roster lists at least one player."""
        return bool(self.players)

    def resolve(self, raw_name: str) -> str:
        """Return the canonical name ``raw_name`` spells, else ``raw_name`` NFKC-folded and stripped."""
        player = self.get(raw_name)
        return fold(raw_name) if player is None else player.name

    def get(self, name: str) -> Player | None:
        """Return the player ``name`` (canonical or an alias, any case or width) spells, or None."""
        position = self._index.get(name_key(name))
        return None if position is None else self.players[position]

    def is_member(self, name: str) -> bool:
        """True when ``name`` is a roster player marked ``member``; True for everyone when not configured."""
        if not self.configured:
            return True
        player = self.get(name)
        return player is not None and player.member


def load_roster(path: Path) -> Roster:
    """Read the roster file ``path`` (``[[player]]`` tables).

    Raises :class:`ConfigError` (naming the file, ``[[player]] #n`` and the key) if the file is missing or
    not TOML, holds an unknown key, a value of the wrong type, rank text that is not a rank, a name used
    twice or an alias that names two players.
    """
    root = Table(path, "", read_toml(path))
    root.check_keys(["player"])
    index: dict[str, int] = {}
    players: list[Player] = []
    for table in root.tables("player", "player"):
        player = _player(table)
        _check_unique(table.named(player.name), index, players, player)
        players.append(player)
    return Roster(tuple(players))


def _player(table: Table) -> Player:
    """Build one player from its ``[[player]]`` table. Raises :class:`ConfigError` for a bad key or value."""
    name = fold(table.required("name", text()))
    table = table.named(name)
    table.check_keys(PLAYER_KEYS)
    return Player(
        name=name,
        aliases=table.get("aliases", list_of(text(), "a list of non-empty strings"), ()),
        rank=table.optional("rank", rank()),
        member=table.get("member", boolean(), True),
        rating=table.optional("rating", number()),
        fixed=table.get("fixed", boolean(), False),
    )


def _check_unique(table: Table, index: dict[str, int], before: list[Player], player: Player) -> None:
    """Claim the name and aliases of ``player`` (number ``len(before)``) in ``index``.

    Raises :class:`ConfigError` if the name or an alias already names a player in ``before``.
    """
    owner = len(before)
    other = _claim(index, player.name, owner)
    if other is not None:
        table.fail("name", f"unique (player #{other + 1} is {before[other].name!r})", player.name)
    for alias in player.aliases:
        other = _claim(index, alias, owner)
        if other is not None:
            table.fail("aliases", f"spellings no other player uses ({before[other].name!r} has it)", alias)
