"""rules.base: the one interface every rule set implements, and the values that cross it.

A rule set declares its validity defaults (:class:`Validity`) and turns one period's counted games
plus the standings at the period's start into the standings at its end and the per-game changes
(:meth:`RuleSet.rate_period`). It knows nothing of SGF, files or Parquet: games arrive as
:class:`Game` values, already audited, in their deterministic order.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from pipeline.config.events import Award, Event
from pipeline.config.roster import Player, Roster
from pipeline.core.ranks import Rank, parse_rank
from pipeline.core.reasons import Validity
from pipeline.core.standings import PlayerState


@dataclass(frozen=True, slots=True)
class Game:
    """One counted game as a rule set sees it. Names are canonical (roster aliases resolved).

    ``winner`` is ``B``, ``W`` or ``draw``; ``speed`` ``slow`` or ``fast`` (the configured default when
    the record did not say); ``black_rank``/``white_rank`` the ranks written in the record;
    ``black_rated``/``white_rated`` whether the rule set rates that side (members); ``stage`` is
    ``qualifier`` or ``main`` inside a configured event, else None; ``streak_reset`` the players
    whose run of wins in this event an uncounted game (a draw, a forfeit loss, ...) ended since their
    last counted game in it; ``closes_event`` is True for the last counted game of its event.
    """

    game_id: str
    seq: int
    date: dt.date
    black: str
    white: str
    winner: str
    speed: str
    black_rank: Rank | None = None
    white_rank: Rank | None = None
    black_rated: bool = True
    white_rated: bool = True
    handicap: int = 0
    komi: float | None = None
    event: Event | None = None
    stage: str | None = None
    round: str | None = None
    no_show: bool = False
    streak_reset: frozenset[str] = frozenset()
    closes_event: bool = False

    def side(self, color: str) -> tuple[str, str, Rank | None, bool]:
        """(player, opponent, opponent's record rank, opponent rated) for the player of ``color`` B or W."""
        if color == "B":
            return self.black, self.white, self.white_rank, self.white_rated
        return self.white, self.black, self.black_rank, self.black_rated

    def rated(self, color: str) -> bool:
        """True if the rule set rates the player of ``color`` (B or W)."""
        return self.black_rated if color == "B" else self.white_rated

    def rank(self, color: str) -> Rank | None:
        """The rank the record gives the player of ``color`` (B or W)."""
        return self.black_rank if color == "B" else self.white_rank

    def score(self, color: str) -> float:
        """1.0 if ``color`` won, 0.0 if it lost, 0.5 for a draw."""
        return 0.5 if self.winner == "draw" else float(self.winner == color)


@dataclass(frozen=True, slots=True)
class Change:
    """What one counted game did to one rated player. ``detail`` holds the rule set's own quantities
    (the columns of :attr:`RuleSet.change_fields`); ``deviation``: the player's rating deviation the game
    was rated from, as ``rating_before`` is their rating (None under a rule set without a deviation)."""

    game_id: str
    player: str
    opponent: str
    color: str
    score: float
    rating_before: float
    points: float
    bonus: float = 0.0
    bonus_rule: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)
    deviation: float | None = field(default=None, repr=False)  # (out of repr: the pinned digests hold)

    @property
    def delta(self) -> float:
        """The change the game made: ``points + bonus``."""
        return self.points + self.bonus


@dataclass(frozen=True, slots=True)
class AwardGiven:
    """An award (champion, runner-up, manual) applied in a period, with the points it gave."""

    award: Award
    kind: str
    points: float


@dataclass(frozen=True, slots=True)
class Promotion:
    """A rank change with its evidence: ``rule`` names the rule applied (e.g. ``cga-dan 70 over 12``),
    ``evidence`` says in words and numbers why (games used, average or criterion, threshold)."""

    player: str
    date: dt.date
    game_id: str | None
    rule: str
    from_rank: str
    to_rank: str
    evidence: str
    event: str | None = None
    value: float | None = None
    threshold: float | None = None
    games: int | None = None


@dataclass(frozen=True, slots=True)
class PeriodOutcome:
    """A period's result: the standings at its end; at its start, the state of every player it added
    or moved (a rule set may give every player: one not in ``start`` started as they end); the
    changes, awards, and the promotions (rank changes with evidence) of rule sets that have them.

    ``deviation``: the hook of every rule set whose rating has an uncertainty (glicko2, whr): each
    player's rating deviation at the period's end, in the order of ``end`` (a sequence of floats or a
    numpy array, one per player; None: the rule set has none). The ``deviation`` column of ``ratings``
    is written from it, and the standings, the site and the workbook show ``rating ± 2·deviation`` and
    mark a player provisional above ``[output] provisional_deviation`` wherever it is not null; the
    ``deviation`` of a game's :class:`Change` fills the column of ``changes``."""

    start: dict[str, PlayerState]
    end: dict[str, PlayerState]
    changes: list[Change]
    awards: list[AwardGiven]
    promotions: list[Promotion] = field(default_factory=list)
    deviation: Sequence[float] | npt.NDArray[np.float64] | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class DueAward:
    """An award that falls in the period being rated: ``kind`` champion, runner_up or manual;
    ``event_kind`` the kind of the event that gives it."""

    award: Award
    kind: str
    event_kind: str


@dataclass(frozen=True, slots=True)
class Context:
    """What a rule set is configured with once: the roster and the events (both may be empty)."""

    roster: Roster
    validity: Validity


class RosterRules:
    """What the rule sets share about players: the validity they were configured with, names resolved
    through the roster, who is rated, and a player's declared rank. Subclassed by each family."""

    def __init__(self, context: Context) -> None:
        self.validity = context.validity
        self._roster = context.roster

    def resolve(self, name: str) -> str:
        """The canonical name of ``name`` (roster aliases)."""
        return self._roster.resolve(name)

    def rates(self, name: str) -> bool:
        """True if ``name`` is rated: a member (everyone without a roster), or anyone if non-members count."""
        return self._roster.is_member(name) or not self.validity.excludes("non_member")

    def declared(self, name: str) -> tuple[Rank | None, Player | None]:
        """``name``'s declared rank (None if the roster gives none) and roster entry (None if absent)."""
        player = self._roster.get(name)
        return (parse_rank(player.rank) if player is not None and player.rank else None), player

    def awarded(self, due: DueAward) -> tuple[Award, bool]:
        """``due``'s award with its player's canonical name, and whether the rule set rates them."""
        name = self.resolve(due.award.player)
        return dataclasses.replace(due.award, player=name), self.rates(name)


class Closed(dict[str, PlayerState]):
    """The standings at a period's end as the rule set named ``by`` closed them: every player exactly as
    that rule set's close would rebuild them, so that its next period may take a player it does not touch
    as is, without looking at them (where a state from anywhere else is rebuilt whole); and ``carry``,
    what the rule set hands itself with them (the GoR family: who holds each event open), never changed.

    What a rule set carries from one period to the next is in the standings it returns, never in the
    rule-set object (:meth:`RuleSet.rate_period` is pure). Read-only, since a change would make them say
    what is no longer so; a copy (``dict(closed)``, a pickle) is plain standings. ``changed``: players to
    set over ``players`` (keeping their place when already there)."""

    __slots__ = ("by", "carry")

    def __init__(
        self,
        players: Mapping[str, PlayerState],
        by: str,
        carry: object = None,
        changed: Mapping[str, PlayerState] | None = None,
    ) -> None:
        super().__init__(players)
        if changed:
            dict.update(self, changed)
        self.by, self.carry = by, carry

    def __reduce__(self) -> tuple[type[dict[str, PlayerState]], tuple[dict[str, PlayerState]]]:
        return dict, (dict(self),)

    def __setitem__(self, name: str, state: PlayerState) -> NoReturn:
        _read_only()

    def __delitem__(self, name: str) -> NoReturn:
        _read_only()

    def __ior__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        _read_only()

    def clear(self) -> NoReturn:
        _read_only()

    def pop(self, *args: Any) -> NoReturn:
        _read_only()

    def popitem(self) -> NoReturn:
        _read_only()

    def setdefault(self, *args: Any) -> NoReturn:
        _read_only()

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        _read_only()


def closed_by(state: Mapping[str, PlayerState], name: str) -> Closed | None:
    """``state`` when the rule set ``name`` closed it (:class:`Closed`), else None."""
    return state if type(state) is Closed and state.by == name else None


def _read_only() -> NoReturn:
    raise TypeError("closed standings are read-only: change a copy, dict(standings)")


def noted(award: Award, why: str) -> Award:
    """``award`` with ``why`` added to its note (``note: why``, or ``why`` alone)."""
    return dataclasses.replace(award, note=f"{award.note}: {why}" if award.note else why)


def by_date(games: Sequence[Game], awards: Sequence[DueAward]) -> list[Game | DueAward]:
    """``games`` in order, each award placed after the games of its date (before the first game of a
    later day), the awards after the last game at the end."""
    due = sorted(awards, key=lambda a: a.award.date)
    merged: list[Game | DueAward] = []
    for game in games:
        while due and due[0].award.date < game.date:
            merged.append(due.pop(0))
        merged.append(game)
    return merged + due


class RuleSet(Protocol):
    """The pluggable part. Implementations are configured once (constructor) and then pure: what they carry
    from one period to the next is in the standings they return (:class:`Closed`), never in the object."""

    name: str
    validity: Validity
    change_fields: pa.Schema
    #: The columns of ``changes`` that :meth:`reports` reads (none: it is given the ``period`` only),
    #: so that a run reads back no more of every period's changes than the reports use.
    report_columns: tuple[str, ...]

    def rate_period(
        self, period: str, games: Sequence[Game], awards: Sequence[DueAward], state: Mapping[str, PlayerState]
    ) -> PeriodOutcome:
        """Rate ``games`` (the period's counted games, in order) from ``state`` (standings at the
        period's start; players not in it are newcomers) and apply ``awards``."""
        ...

    def reports(self, changes: pa.Table, promotions: pa.Table) -> dict[str, pa.Table]:
        """The rule set's own report tables by file name (e.g. ``fees.parquet``), from every period's
        ``changes`` and ``promotions`` (with their ``period`` column); empty for most rule sets."""
        ...
