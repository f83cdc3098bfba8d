"""rules.cga_dan: Chinese Weiqi Association dan tournaments, scoring and promotion (docs/rules.md
("cga-dan")).

Ranks are professional dans 1..9 (``9p``, ``P9``, ``9d`` and ``九段`` all mean dan 9; kyu or unknown: 1),
labelled ``1d`` .. ``9d``. A player starts at the roster's declared rank, else the rank the record gives
them in their first counted game. Each game scores by the dan difference table (:data:`POINTS`; above 3
the 3 row) from both players' dans at that moment. After every game a player of dan d is promoted to
d + 1 when a run of consecutive games since their last promotion, ending at that game, has at least n
games averaging at least t for one of the dan's standards (:func:`standards`: 6 + 2d at 75, +4 at 70,
+8 at 67.5); the new dan applies from the next game and scoring restarts. 9d is the top. The points
since the last promotion carry across periods in ``PlayerState.extra`` (``dan``, ``points``).

Decisions: ``PlayerState.rating`` is the average of the points since the last promotion (0.0 with
none), so ``ratings`` shows progress; a changes row's ``delta`` is the game's points, not a rating
move. Periods are years (dan tournaments are yearly editions). Draws score by the table; no-shows and
handicap games (pro dan tournaments are even) are excluded by default; non-members count. Of the
standards met, the first in table order (75, 70, 67.5) is reported, with the shortest qualifying run.
A manual award with a ``rank`` sets that dan (a promotion with rule ``manual award``) after the games
of its date, and scoring restarts; an award of the dan already held changes nothing; points-only
awards and titles are ignored. A roster ``rating`` is ignored; a ``fixed`` player is never promoted.
An opponent the rule set does not rate plays at the dan of their record's rank.
Knows nothing of SGF or files.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate
from types import MappingProxyType

import pyarrow as pa

from pipeline.config.toml import Table
from pipeline.core.ranks import Rank, parse_rank
from pipeline.core.reasons import Validity
from pipeline.core.schema import described as _f
from pipeline.core.standings import PlayerState
from pipeline.rules.base import (
    AwardGiven,
    Change,
    Closed,
    Context,
    DueAward,
    Game,
    PeriodOutcome,
    Promotion,
    RosterRules,
    by_date,
    closed_by,
    noted,
)
from pipeline.rules.family import Family
from pipeline.rules.gor import cga_dan

TOP_DAN = 9
#: dan difference (0..3) -> (stronger win/draw/loss, weaker win/draw/loss) (段位赛记分标准).
POINTS: tuple[tuple[tuple[float, float, float], tuple[float, float, float]], ...] = (
    ((90, 60, 30), (90, 60, 30)),
    ((85, 55, 25), (95, 65, 35)),
    ((80, 50, 20), (100, 70, 40)),
    ((75, 45, 15), (105, 75, 45)),
)
#: score -> its column of a :data:`POINTS` row.
_COLUMN = MappingProxyType({1.0: 0, 0.5: 1, 0.0: 2})
#: Yearly editions; draws scored; no-shows and handicap games excluded; non-members counted.
DEFAULTS = Validity(period="year", excluded=frozenset({"no_show", "handicap"}))


@dataclass(frozen=True, slots=True)
class Met:
    """A promotion standard met: ``n`` games at average ``threshold``, by the last ``games`` games
    (``games`` >= ``n``) averaging ``average``."""

    n: int
    threshold: float
    games: int
    average: float


def standards(dan: int) -> tuple[tuple[int, float], ...]:
    """The (games, average) standards of ``dan`` (升段标准): ``n = 6 + 2 dan`` at 75, ``n + 4`` at 70,
    ``n + 8`` at 67.5; none at the top dan."""
    if dan >= TOP_DAN:
        return ()
    n = 6 + 2 * dan
    return ((n, 75.0), (n + 4, 70.0), (n + 8, 67.5))


def met_standard(dan: int, points: Sequence[float]) -> Met | None:
    """The first standard of ``dan`` (in :func:`standards` order) that some run of the last games of
    ``points`` (the points since the last promotion, oldest first) meets, with the shortest such run;
    None if none is met (always None at 9d)."""
    sums = list(accumulate(reversed(points)))  # sums[k - 1]: the total of the last k games
    for n, threshold in standards(dan):
        for k in range(n, len(points) + 1):
            if sums[k - 1] >= threshold * k:
                return Met(n, threshold, k, sums[k - 1] / k)
    return None


def game_points(own: int, other: int, score: float) -> tuple[float, str]:
    """(points, role) of a player of dan ``own`` against dan ``other`` scoring ``score`` (1, 0.5, 0);
    role ``stronger``, ``weaker`` or ``equal``."""
    row = POINTS[min(abs(own - other), 3)]
    role = "equal" if own == other else "stronger" if own > other else "weaker"
    return row[role == "weaker"][_COLUMN[score]], role


def label(dan: int) -> str:
    """The rank label of ``dan``: ``1d`` .. ``9d``."""
    return f"{dan}d"


def build(context: Context, params: Table) -> CgaDanRules:
    """The rule set for the registry. Raises ConfigError if ``[rules]`` holds any key (it takes none)."""
    params.check_keys(())
    return CgaDanRules(context)


#: The record (:mod:`pipeline.rules.family`): no roster rating (the rating is the rank's progress).
FAMILY = Family(
    "cga-dan",
    build,
    DEFAULTS,
    "China's dan tournaments: points for each game by the difference in dans, and promotion after a run of "
    "games averaging enough points",
    promotes=True,
    explanation="dan-points",
)


class CgaDanRules(RosterRules):
    """The ``cga-dan`` rule set, configured once with the run's context; :meth:`rate_period` is pure.

    It returns its standings :class:`~pipeline.rules.base.Closed`: from those, a player the next period
    does not meet is carried as is (rebuilding gives it again); standings from anywhere else are rebuilt."""

    name = "cga-dan"
    report_columns: tuple[str, ...] = ()
    change_fields = pa.schema(
        [
            _f("dan", pa.int32(), "the player's dan at the game"),
            _f("opponent_dan", pa.int32(), "the opponent's dan at the game"),
            _f("dan_difference", pa.int32(), "how many dans apart they are"),
            _f("role", pa.string(), "the player's side of the points table: stronger, weaker or equal"),
            _f(
                "games_since_promotion",
                pa.int32(),
                "the player's games since their last promotion, this one in",
            ),
            _f("average_since_promotion", pa.float64(), "their average points over those games"),
        ]
    )

    def rate_period(
        self, period: str, games: Sequence[Game], awards: Sequence[DueAward], state: Mapping[str, PlayerState]
    ) -> PeriodOutcome:
        """Score the period's games in order, promoting as the standards are met; rank awards apply
        after the games of their date. ``period`` is only a label here."""
        same = closed_by(state, self.name) is not None
        ledger = _Ledger(self, dict(state))
        ranks = [a for a in awards if a.kind == "manual" and a.award.rank]
        changes: list[Change] = []
        given: list[AwardGiven] = []
        for item in by_date(games, ranks):
            if isinstance(item, Game):
                changes += ledger.rate(item)
            else:
                given.append(ledger.award(item))
        end = ledger.close(changes, same)
        return PeriodOutcome(ledger.start, end, changes, given, ledger.promotions)

    def reports(self, changes: pa.Table, promotions: pa.Table) -> dict[str, pa.Table]:
        """No report tables of its own."""
        return {}

    def newcomer(self, name: str, recorded: Rank | None) -> PlayerState:
        """A first-seen player at the roster's declared dan, else the dan of ``recorded``; no points yet."""
        declared, player = self.declared(name)
        dan = cga_dan(declared or recorded)
        return PlayerState(
            0.0, label(dan), fixed=player is not None and player.fixed, extra={"dan": dan, "points": ()}
        )


class _Ledger:
    """The working state of one ``rate_period`` call: standings at its start (newcomers added as they
    come), each player's current dan and points since their last promotion, and the promotions."""

    def __init__(self, rules: CgaDanRules, start: dict[str, PlayerState]) -> None:
        self.rules, self.start = rules, start
        self.dan: dict[str, int] = {}  # the players met this period; the others are as they started
        self.points: dict[str, Run] = {}
        self.promotions: list[Promotion] = []

    def enter(self, name: str, recorded: Rank | None) -> None:
        """Add ``name`` as a newcomer from ``recorded`` unless already known; then their dan and points
        since the last promotion are in :attr:`dan` and :attr:`points`."""
        if name not in self.dan:
            if name not in self.start:
                self.start[name] = self.rules.newcomer(name, recorded)
            extra = self.start[name].extra
            self.dan[name] = dan = int(extra["dan"])
            self.points[name] = Run(dan, extra["points"])

    def rate(self, game: Game) -> list[Change]:
        """The changes of ``game`` for its rated sides, both scored from the dans before it; then
        each side's promotion check."""
        black, white = game.black, game.white
        dan_black = self._dan_now(black, game.black_rank, game.black_rated)
        dan_white = self._dan_now(white, game.white_rank, game.white_rated)
        changes = []
        if game.black_rated:
            changes.append(self._change(game, "B", (black, white), dan_black, dan_white))
        if game.white_rated:
            changes.append(self._change(game, "W", (white, black), dan_white, dan_black))
        return changes

    def _dan_now(self, name: str, recorded: Rank | None, rated: bool) -> int:
        """The dan of player ``name`` now: a rated player's current dan (entered from ``recorded`` if
        new), else the dan of ``recorded``, the record's rank."""
        if not rated:
            return cga_dan(recorded)
        self.enter(name, recorded)
        return self.dan[name]

    def _change(self, game: Game, color: str, players: tuple[str, str], own: int, other: int) -> Change:
        """The change of ``color``'s player (``players``: they and their opponent) at dan ``own``
        against dan ``other``; then their promotion check."""
        player, opponent = players
        history = self.points[player]
        before = history.average()
        winner = game.winner
        score = 0.5 if winner == "draw" else float(winner == color)
        points, role = game_points(own, other, score)
        history.append(points)
        detail = {
            "dan": own,
            "opponent_dan": other,
            "dan_difference": abs(own - other),
            "role": role,
            "games_since_promotion": len(history.points),
            "average_since_promotion": history.average(),
        }
        met = (
            None if self.start[player].fixed or not history.may_meet() else met_standard(own, history.points)
        )
        if met is not None:
            self._promote(game, player, own, len(history.points), met)
        return Change(game.game_id, player, opponent, color, score, before, points, detail=detail)

    def _promote(self, game: Game, player: str, dan: int, since: int, met: Met) -> None:
        run = f"{met.games} games" if met.games == since else f"the last {met.games} of {since} games"
        evidence = (
            f"{run} since the last promotion averaging {round(met.average, 2)} >= {met.threshold:g}"
            f" (needs {met.n} at {met.threshold:g} for {label(dan)})"
        )
        rule, event = f"cga-dan: {met.threshold:g} over {met.n}", game.event.name if game.event else None
        moved = Promotion(player, game.date, game.game_id, rule, label(dan), label(dan + 1), evidence, event)
        self.promotions.append(replace(moved, value=met.average, threshold=met.threshold, games=met.games))
        self.dan[player], self.points[player] = dan + 1, Run(dan + 1, ())

    def award(self, due: DueAward) -> AwardGiven:
        """Apply a manual rank award: the player's dan becomes the award's, scoring restarts. An award
        to a player not rated, or of the dan already held, changes nothing (its note says why)."""
        award, rated = self.rules.awarded(due)
        name = award.player
        if not rated:
            return AwardGiven(noted(award, "not a member, not rated"), due.kind, 0.0)
        self.enter(name, None)
        dan, new = self.dan[name], cga_dan(parse_rank(award.rank))
        if dan == new:
            return AwardGiven(noted(award, f"already {label(dan)}"), due.kind, 0.0)
        note = f": {award.note}" if award.note else ""
        evidence = f"manual award of {award.event} on {award.date}{note}"
        self.promotions.append(
            Promotion(name, award.date, None, "manual award", label(dan), label(new), evidence, award.event)
        )
        self.dan[name], self.points[name] = new, Run(new, ())
        return AwardGiven(award, due.kind, 0.0)

    def close(self, changes: list[Change], same: bool) -> Closed:
        """The standings at the period's end: dan, average since the last promotion, history carried.
        ``same``: the period started from standings this rule set closed, so a player not met this period
        is carried as is (rebuilding it gives it again); else every player is rebuilt."""
        played = Counter(change.player for change in changes)
        start, name = self.start, self.rules.name
        if same:  # in start order; the players met are replaced in place
            return Closed(start, name, changed={m: self._closed(m, start[m], played[m]) for m in self.dan})
        return Closed({m: self._closed(m, s, played[m]) for m, s in start.items()}, name)

    def _closed(self, name: str, s: PlayerState, played: int) -> PlayerState:
        self.enter(name, None)
        points = self.points[name]
        extra = {"dan": self.dan[name], "points": tuple(points.points)}
        return PlayerState(points.average(), label(self.dan[name]), s.games_total + played, s.fixed, extra)


class Run:
    """A player's points since their last promotion (``points``, oldest first) at ``dan``, with what
    makes the average and the promotion check cost O(1) a game: the running total and, per standard
    ``(n, t)`` of the dan, the lowest ``P[j] − t·j`` over ``j <= len − n`` (``P[j]``: the total of the
    first ``j`` points). A run of the last ``k >= n`` games averages at least ``t`` exactly when
    ``P[len] − t·len >= P[len − k] − t·(len − k)``, so :meth:`may_meet` is False only when no standard
    can be met; :func:`met_standard` then decides (and is only called then)."""

    def __init__(self, dan: int, points: Sequence[float]) -> None:
        self.points: list[float] = list(points)
        self.exact = all(type(value) is int for value in self.points)  # then the total is exactly sum()
        self.prefix: list[float] = [0, *accumulate(self.points)]
        self.total: float = self.prefix[-1]
        self.standards = standards(dan)
        self.mean: tuple[int, float] = (-1, 0.0)  # (length, average) of the last :meth:`average`
        m, prefix = len(self.points), self.prefix
        self.lows = [
            min((prefix[j] - t * j for j in range(m - n + 1)), default=math.inf) for n, t in self.standards
        ]

    def append(self, value: float) -> None:
        """Add the points of one more game."""
        self.points.append(value)
        if type(value) is not int:
            self.exact = False
        self.total += value
        self.prefix.append(self.total)
        m, lows = len(self.points), self.lows
        for i, (n, t) in enumerate(self.standards):
            j = m - n
            if j >= 0:
                low = self.prefix[j] - t * j
                if low < lows[i]:
                    lows[i] = low

    def may_meet(self) -> bool:
        """False if no standard of the dan is met by any run of the last games (with a margin for
        rounding: True may still mean none is met)."""
        m, total = len(self.points), self.total
        margin = 1e-9 * (1.0 + abs(total) + 105.0 * m)
        for low, (_, t) in zip(self.lows, self.standards, strict=True):
            if low <= total - t * m + margin:
                return True
        return False

    def average(self) -> float:
        """The mean of the points (0.0 for none), rounded to 6 places (as ``round(sum / len, 6)``);
        computed once per length of the run (the change rows ask for it before and after each game)."""
        count = len(self.points)
        if self.mean[0] != count:
            total = self.total if self.exact else sum(self.points)
            self.mean = (count, round(total / count, 6) if count else 0.0)
        return self.mean[1]
