"""events: the configured events (``config/events.toml``) and how SGF ``EV``/``RO`` values map to them.

An ``EV`` value belongs to the first event one of whose ``match`` patterns it fits (fnmatch-style, both sides
NFKC-folded and casefolded); an ``RO`` value fitting one of the event's ``qualifier_rounds`` is the
qualifying stage. Knows nothing of games, points or rule sets: what a kind, a class, a champion or an
award is worth is for the rule set to decide; player names are kept as written (the roster resolves them).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

from pipeline.config.roster import name_key
from pipeline.config.toml import Table, date, integer, list_of, number, one_of, rank, read_toml, text
from pipeline.core.i18n import N_
from pipeline.core.text import fold

#: The last four are the ``tga`` rule set's: promotion tournament (晉段賽), low-dan event (1–3d), an event
#: recognised for promotion by points, an event giving kyu awards by ``group``.
KINDS = (
    "team_match",
    "arena",
    "server_qualifiers",
    "server_open",
    "other",
    "promotion",
    "low_dan",
    "recognised",
    "kyu",
)
INTER_CLUB = frozenset({"team_match", "arena"})
CLASSES = ("A", "B", "C")
#: Kyu-award groups (``tga``, Article 10): 晉段組, 日規組, 普規甲組, 普規乙組.
GROUPS = ("promotion", "japanese", "standard_a", "standard_b")
DEFAULT_QUALIFIER_ROUNDS = ("外围*", "预选*", "qualif*", "prelim*")
EVENT_KEYS = (
    "name",
    "match",
    "kind",
    "class",
    "champion",
    "runner_up",
    "ends",
    "qualifier_rounds",
    "award",
    "group",
    "rounds",
)
AWARD_KEYS = ("player", "date", "points", "rank", "note")
_GLOB_CHARS = re.compile(r"([*?\[])")


@dataclass(frozen=True, slots=True)
class Award:
    """A manual award: ``player`` as written, on ``date``, ``points`` and/or canonical ``rank`` (or None)."""

    player: str
    date: dt.date
    points: float | None
    rank: str | None
    note: str
    event: str


@dataclass(frozen=True, slots=True)
class Event:
    """One event: canonical ``name``, ``EV`` ``patterns``, ``kind`` (one of :data:`KINDS`), ``klass`` (A/B/C
    or None), ``champion``/``runner_up`` as written (or None), ``ends`` (None: its last counted game's date),
    ``qualifier_rounds`` (``RO`` patterns of the qualifying stage), ``awards``, ``group`` (one of
    :data:`GROUPS` or None; required for kind ``kyu``) and ``rounds`` (the scheduled rounds, or None).
    """

    name: str
    patterns: tuple[str, ...]
    kind: str
    klass: str | None = None
    champion: str | None = None
    runner_up: str | None = None
    ends: dt.date | None = None
    qualifier_rounds: tuple[str, ...] = DEFAULT_QUALIFIER_ROUNDS
    awards: tuple[Award, ...] = ()
    group: str | None = None
    rounds: int | None = None

    @property
    def inter_club(self) -> bool:
        """True for a team match or an arena: games in it count although a player is not on the roster."""
        return self.kind in INTER_CLUB


def _fits(value: str, patterns: tuple[str, ...]) -> bool:
    """True when ``value`` fits one of ``patterns`` (fnmatch-style, both NFKC-folded and casefolded)."""
    key = name_key(value)
    return any(fnmatchcase(key, name_key(pattern)) for pattern in patterns)


@dataclass(frozen=True, slots=True)
class Events:
    """The events, in file order. ``Events()`` is no events file: nothing matches, unless
    ``implicit_kind`` is set (a rule set for which, with no events file, every ``EV`` is an event of
    that kind: ``tga``): then each distinct ``EV`` is an event of its own, named by its text."""

    events: tuple[Event, ...] = ()
    implicit_kind: str | None = None
    _keys: tuple[tuple[str, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        keys = tuple(tuple(name_key(p) for p in event.patterns) for event in self.events)
        object.__setattr__(self, "_keys", keys)

    def match(self, ev: str | None) -> Event | None:
        """Return the first event one of whose patterns ``ev`` fits, or None (also for no or blank ``ev``)."""
        if not ev or not ev.strip():
            return None
        key = name_key(ev)
        for event, patterns in zip(self.events, self._keys, strict=True):
            if any(fnmatchcase(key, pattern) for pattern in patterns):
                return event
        return self._implicit(ev)

    def get(self, name: str) -> Event | None:
        """Return the event called ``name`` (compared NFKC-folded and casefolded), or None."""
        key = name_key(name)
        return next((event for event in self.events if name_key(event.name) == key), None) or self._implicit(
            name
        )

    def _implicit(self, ev: str) -> Event | None:
        if self.implicit_kind is None or self.events:
            return None
        name = fold(ev)
        return Event(name, (_GLOB_CHARS.sub(r"[\1]", name),), self.implicit_kind)

    def stage(self, event: Event, round_: str | None) -> str:
        """``"qualifier"`` when ``round_`` (an ``RO`` value) is a qualifier round, else ``"main"``."""
        return "qualifier" if round_ and _fits(round_, event.qualifier_rounds) else "main"


def load_events(path: Path) -> Events:
    """Read the events file ``path`` (``[[event]]`` tables, each with optional ``[[event.award]]`` tables).

    Raises :class:`ConfigError` (naming the file, ``[[event]] #n`` and the key) if the file is missing,
    unreadable, not UTF-8 or not TOML (:func:`~pipeline.config.toml.read_toml`), holds an unknown key or
    kind, a bad class, a value that is not a TOML date where one is due, rank text that is not a rank, a
    value of the wrong type, or a name used twice.
    """
    root = Table(path, "", read_toml(path))
    root.check_keys(["event"])
    seen: dict[str, int] = {}
    events: list[Event] = []
    for position, table in enumerate(root.tables("event", "event"), 1):
        event = _event(table)
        first = seen.setdefault(name_key(event.name), position)
        if first != position:
            table.named(event.name).fail("name", f"unique (event #{first} has it)", event.name)
        events.append(event)
    return Events(tuple(events))


def _event(table: Table) -> Event:
    """Build one event from its ``[[event]]`` table. Raises :class:`ConfigError` for a bad key or value."""
    name = fold(table.required("name", text()))
    table = table.named(name)
    table.check_keys(EVENT_KEYS)
    patterns = list_of(text(), N_("a list of non-empty strings (fnmatch-style patterns)"))
    return Event(
        name=name,
        patterns=table.get("match", patterns, (_GLOB_CHARS.sub(r"[\1]", name),)),
        kind=table.required("kind", one_of(*KINDS)),
        klass=table.optional("class", one_of(*CLASSES)),
        champion=table.optional("champion", text()),
        runner_up=table.optional("runner_up", text()),
        ends=table.optional("ends", date()),
        qualifier_rounds=table.get("qualifier_rounds", patterns, DEFAULT_QUALIFIER_ROUNDS),
        awards=tuple(_award(award, name) for award in table.tables("award", "event.award")),
        group=_group(table),
        rounds=table.optional("rounds", integer(1)),
    )


def _group(table: Table) -> str | None:
    """The kyu-award ``group``. Raises :class:`ConfigError` if it is bad, or missing for kind ``kyu``."""
    if table.data.get("kind") == "kyu":
        return table.required("group", one_of(*GROUPS))
    return table.optional("group", one_of(*GROUPS))


def _award(table: Table, event: str) -> Award:
    """Build one award of ``event`` from its ``[[event.award]]`` table.

    Raises :class:`ConfigError` for a bad key or value.
    """
    table.check_keys(AWARD_KEYS)
    return Award(
        player=table.required("player", text()),
        date=table.required("date", date()),
        points=table.optional("points", number()),
        rank=table.optional("rank", rank()),
        note=table.get("note", text(empty=True), ""),
        event=event,
    )
