"""roster: the club's players (``config/roster.toml``) and how SGF player names map to them.

A name matches a player when, NFKC-folded (:func:`pipeline.core.text.fold`) and casefolded, it
equals the player's canonical name or one of their aliases.

A starting ``rating`` is a plain number, or a table of numbers by rule set or scale family
(``rating = { club = 100, gor = 2100 }``): the caller says which keys a table may hold
(:func:`load_roster`) and which apply to the rule set it runs (:meth:`Player.rating_under`). Knows nothing
of games, ratings or rule sets: what a declared rank, a starting rating, a key or a fixed player means is
for the caller and the rule set to decide (:func:`pipeline.run.plan` picks each player's rating).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.config.toml import Kind, Table, boolean, list_of, number, rank, read_toml, text
from pipeline.core.i18n import N_
from pipeline.core.names import name_key as name_key
from pipeline.core.text import fold

PLAYER_KEYS = ("name", "aliases", "rank", "member", "rating", "fixed")


@dataclass(frozen=True, slots=True)
class Player:
    """One roster entry.

    ``name`` is canonical (NFKC-folded); ``aliases`` are other spellings as written; ``rank`` is the declared
    rank in canonical form (``1d``) or None; ``rating`` a starting rating given as a plain number, or None;
    ``ratings`` the starting ratings given as a table, by key (rule set or scale family); ``fixed`` True
    for a reference player whose rating is never updated.
    """

    name: str
    aliases: tuple[str, ...] = ()
    rank: str | None = None
    member: bool = True
    rating: float | None = None
    fixed: bool = False
    ratings: Mapping[str, float] = field(default_factory=dict)

    def rating_under(self, keys: Sequence[str]) -> tuple[float | None, bool]:
        """(the starting rating under the first of ``keys`` the table holds, else the plain number, else
        None; True when it is the plain number)."""
        found = next((self.ratings[key] for key in keys if key in self.ratings), None)
        return (found, False) if found is not None else (self.rating, self.rating is not None)


def _claim(index: dict[str, int], spelling: str, owner: int) -> int | None:
    """Map ``spelling`` to player ``owner`` (a position); return the other position it names, else None."""
    other = index.setdefault(name_key(spelling), owner)
    return other if other != owner else None


#: The spellings a roster's memo holds before it starts again.
MEMO_LIMIT = 1 << 17


@dataclass(frozen=True, slots=True)
class Roster:
    """The players, in file order. ``Roster()`` is no roster: everyone is a member.

    Each spelling is folded and looked up once per instance (:meth:`resolve`, :meth:`get`,
    :meth:`is_member` and :meth:`identities` share a memo of the spellings seen): a run holds one
    roster, so a player who plays in every period costs one look-up, not one per period and check. The
    memo only ever holds what the players (immutable) give a spelling, at most :data:`MEMO_LIMIT` of
    them (it starts again when full: a period's players fit in it many times over, a server's every
    player would not: docs/design.md#roster-memo); it takes no part in equality or ``repr``.

    Raises ValueError if two players share a name, or a spelling names two players.
    """

    players: tuple[Player, ...] = ()
    source: Path | None = field(default=None, compare=False)
    _index: dict[str, int] = field(init=False, repr=False, compare=False)
    _seen: dict[str, tuple[int | None, str, bool]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, int] = {}
        for position, player in enumerate(self.players):
            for spelling in (player.name, *player.aliases):
                other = _claim(index, spelling, position)
                if other is not None:
                    names = f"{self.players[other].name!r} and {player.name!r}"
                    raise ValueError(f"roster: {spelling!r} names both {names}")
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_seen", {})

    def with_ratings(self, ratings: Mapping[str, float | None]) -> Roster:
        """A copy whose players named in ``ratings`` (canonical names) have that plain ``rating``."""
        players = tuple(
            dataclasses.replace(p, rating=ratings[p.name]) if p.name in ratings else p for p in self.players
        )
        return dataclasses.replace(self, players=players)

    @property
    def configured(self) -> bool:
        """True when the roster lists at least one player."""
        return bool(self.players)

    def resolve(self, raw_name: str) -> str:
        """Return the canonical name ``raw_name`` spells, else ``raw_name`` NFKC-folded and stripped."""
        return self._spelling(raw_name)[1]

    def get(self, name: str) -> Player | None:
        """Return the player ``name`` (canonical or an alias, any case or width) spells, or None."""
        position = self._spelling(name)[0]
        return None if position is None else self.players[position]

    def is_member(self, name: str) -> bool:
        """True when ``name`` is a roster player marked ``member``; True for everyone when not configured."""
        if not self.configured:
            return True
        position = self._spelling(name)[0]
        return position is not None and self.players[position].member

    def identities(self, raw_names: Iterable[str]) -> list[tuple[str, bool]]:
        """(:meth:`resolve`, :meth:`is_member` of what it resolves to) of each of ``raw_names``, in order:
        one memo look-up per name."""
        seen, spelling = self._seen, self._spelling
        return [(seen.get(name) or spelling(name))[1:] for name in raw_names]

    def _spelling(self, name: str) -> tuple[int | None, str, bool]:
        """(the position of the player ``name`` spells, or None; what :meth:`resolve` gives it; whether
        that is a member), from the memo, else worked out and kept."""
        found = self._seen.get(name)
        if found is None:
            folded = fold(name)  # name_key(name) is this, casefolded
            position = self._index.get(folded.casefold())
            if position is None:
                found = (None, folded, self._member(folded))
            else:  # a player's own name is theirs in the index (__post_init__), so is_member is theirs
                found = (position, self.players[position].name, self.players[position].member)
            if len(self._seen) >= MEMO_LIMIT:  # a server's millions of players: memory stays bounded
                self._seen.clear()
            self._seen[name] = found
        return found

    def _member(self, name: str) -> bool:
        """:meth:`is_member` of ``name``, without the memo."""
        if not self.configured:
            return True
        position = self._index.get(name_key(name))
        return position is not None and self.players[position].member


def load_roster(path: Path, rating_keys: Collection[str] | None = None) -> Roster:
    """Read the roster file ``path`` (``[[player]]`` tables); a ``rating`` table may hold the keys
    ``rating_keys`` only (None: any key).

    Raises :class:`ConfigError` (naming the file, ``[[player]] #n`` and the key) if the file is missing,
    unreadable, not UTF-8 or not TOML (:func:`~pipeline.config.toml.read_toml`), holds an unknown key, a
    value of the wrong type (a ``rating`` that is neither a number nor a table of numbers under
    ``rating_keys``), rank text that is not a rank, a name used twice or an alias that names two players.
    """
    root = Table(path, "", read_toml(path))
    root.check_keys(["player"])
    index: dict[str, int] = {}
    players: list[Player] = []
    for table in root.tables("player", "player"):
        player = _player(table, rating_keys)
        _check_unique(table.named(player.name), index, players, player)
        players.append(player)
    return Roster(tuple(players), source=path)


def _player(table: Table, rating_keys: Collection[str] | None) -> Player:
    """Build one player from its ``[[player]]`` table. Raises :class:`ConfigError` for a bad key or value."""
    name = fold(table.required("name", text()))
    table = table.named(name)
    table.check_keys(PLAYER_KEYS)
    rating = table.optional("rating", _rating(rating_keys))
    return Player(
        name=name,
        aliases=table.get("aliases", list_of(text(), N_("a list of non-empty strings")), ()),
        rank=table.optional("rank", rank()),
        member=table.get("member", boolean(), True),
        rating=rating if isinstance(rating, float) else None,
        fixed=table.get("fixed", boolean(), False),
        ratings=rating if isinstance(rating, dict) else {},
    )


def _rating(keys: Collection[str] | None) -> Kind[float | dict[str, float]]:
    """A plain number, or a table of numbers whose keys are among ``keys`` (None: any)."""
    plain = number()
    listed = f" (keys: {', '.join(keys)})" if keys is not None else ""

    def accepts(value: object) -> bool:
        if isinstance(value, dict):
            return all((keys is None or k in keys) and plain.accepts(v) for k, v in value.items())
        return plain.accepts(value)

    def convert(value: object) -> float | dict[str, float]:
        if isinstance(value, dict):
            return {str(k): float(v) for k, v in value.items()}
        return plain.convert(value)

    expected = (
        f"a number, or a table of numbers by rule set or scale{listed}, e.g. {{ club = 100, gor = 2100 }}"
    )
    return Kind(expected, accepts, convert)


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
