"""rules.gor_rules: the GoR-family rule set — batching by event, weights, newcomers — over a
:class:`~pipeline.rules.gor.Formula`. ``hkga``, ``egf`` and ``egf2021`` are this class with another
formula and name. Knows nothing of SGF or files; the formulas know nothing of games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

import pyarrow as pa

from pipeline.config.roster import Roster, name_key
from pipeline.config.toml import Table, boolean, one_of
from pipeline.core.ranks import Rank
from pipeline.core.schema import described as _f
from pipeline.core.standings import PlayerState
from pipeline.rules.base import Change, Closed, Context, DueAward, Game, PeriodOutcome, RosterRules, closed_by
from pipeline.rules.gor import CLASS_WEIGHTS, Formula

#: A rule set's reports: every period's changes and the roster -> tables by file name.
Report = Callable[[pa.Table, Roster], dict[str, pa.Table]]

CHANGE_FIELDS = pa.schema(
    [
        _f("se", pa.float64(), "Se: the player's expected score against the opponent"),
        _f("a", pa.float64(), "the formula's a, the spread of the expected score at these ratings"),
        _f("con", pa.float64(), "con: how far one game moves the player's rating"),
        _f("event_class", pa.string(), "the event's class (A, B, C; default_class for in-house games)"),
        _f("class_weight", pa.float64(), "the weight of that class (class_weights)"),
        _f("stage_weight", pa.float64(), "the weight of the round's stage (stage_weights; 1 by default)"),
        _f("adjusted_rating", pa.float64(), "the player's rating as the formula took it (handicap added)"),
        _f("opponent_adjusted_rating", pa.float64(), "the opponent's rating as the formula took it"),
        _f("opponent_rating", pa.float64(), "the opponent's rating before the game"),
        _f("note", pa.string(), "why the game moved nothing (a no-show win, a fixed rating), else null"),
    ]
)


@dataclass(frozen=True, slots=True)
class Params:
    """The rule set's parameters: class weights, the class of games in no event, stage weights
    (``RO`` patterns, matched case-insensitively in order, first match wins), and whether the games of
    one event are rated together from the ratings at its start (``batch``)."""

    classes: Mapping[str, float]
    default_class: str = "A"
    stages: tuple[tuple[str, float], ...] = ()
    batch: bool = True

    def of(self, game: Game) -> tuple[str, float, float]:
        """(class, class weight, stage weight) of ``game``."""
        klass = (game.event.klass if game.event else None) or self.default_class
        return klass, self.classes[klass], self._stage(game.round)

    def _stage(self, round_: str | None) -> float:
        key = name_key(round_) if round_ else ""
        return next((w for pattern, w in self.stages if key and fnmatchcase(key, name_key(pattern))), 1.0)


class GorRules(RosterRules):
    """A GoR-family rule set: ``name``, its ``formula`` and ``weights``, configured once; pure after.

    It returns its standings :class:`~pipeline.rules.base.Closed`, carrying who holds each event open in them:
    from those, a player the next period does not touch is carried as is, since the period's close would
    rebuild them equal, and the holders are taken from them instead of a scan of every player. Standings
    from anywhere else (a resumed run's pickle, a copy) are scanned and rebuilt whole, to the same outcome."""

    change_fields = CHANGE_FIELDS

    def __init__(
        self,
        name: str,
        formula: Formula,
        weights: Params,
        context: Context,
        report: Report | None = None,
        report_columns: tuple[str, ...] = (),
    ) -> None:
        """``report`` makes the rule set's report tables from the ``report_columns`` of ``changes``."""
        super().__init__(context)
        self.name, self.formula, self.weights = name, formula, weights
        self._report, self.report_columns = report, report_columns

    def rate_period(
        self, period: str, games: Sequence[Game], awards: Sequence[DueAward], state: Mapping[str, PlayerState]
    ) -> PeriodOutcome:
        """Rate the period's games in order. A game in no event (or with batching off) moves the
        ratings at once; a game of an event is rated from the players' ratings at their first game in
        it, and the event's changes apply together after its last game (``Game.closes_event``), in
        this period or a later one (the open events ride in ``PlayerState.extra["open"]``)."""
        closed = closed_by(state, self.name)
        ledger = _Ledger(self, dict(state), closed.carry if closed is not None else None)
        changes = [c for game in games for c in ledger.rate(game)]
        return PeriodOutcome(ledger.start, ledger.close(changes, closed is not None), changes, [])

    def reports(self, changes: pa.Table, promotions: pa.Table) -> dict[str, pa.Table]:
        """The tables of the ``report`` given at construction (``hkga``: fees, certification), else none."""
        return self._report(changes, self._roster) if self._report else {}

    def newcomer(self, name: str, recorded: Rank | None) -> PlayerState:
        """A first-seen player: the roster's rating (the one :func:`pipeline.run.plan` picked for this rule
        set's scale), else the rating of the declared or recorded rank; never below the formula's floor."""
        declared, player = self.declared(name)
        rating = player.rating if player is not None and player.rating is not None else None
        rank = declared or recorded
        rating = max(self.formula.floor, rating if rating is not None else self.formula.initial(rank))
        label = self.formula.rank_of(rating, self._label(rank))
        return PlayerState(rating, label, fixed=player is not None and player.fixed)

    def _label(self, rank: Rank | None) -> str:
        return str(rank) if rank is not None else "?"


class _Ledger:
    """The working state of one ``rate_period`` call: standings at the start (newcomers added as they
    come), the current ratings of the players who moved (``current``; the others are at their start),
    visitors' ratings, each player's open events once touched (``open``: event -> [rating at their first
    game in it, the changes summed so far]; the others' are in their start state), who has each event
    open (``holders``), and the players the period touched."""

    def __init__(self, rules: GorRules, start: dict[str, PlayerState], holders: object) -> None:
        """``holders``: who holds each event open in ``start`` (event -> players, never changed) when known
        (None: ``start`` is scanned)."""
        self.rules, self.start = rules, start
        self.formula, self.batch = rules.formula, rules.weights.batch
        self.expected, self.con, self.bonus = self.formula.expected, self.formula.con, self.formula.bonus
        self.current: dict[str, float] = {}
        self.guests: dict[str, float] = {}  # visitors not rated: the roster's or the record's rating
        self.open: dict[str, dict[str, list[float]]] = {}
        self.holders: dict[str, dict[str, None]] = defaultdict(dict)  # event -> players, in start order
        self.touched: set[str] = set()
        self.weights: dict[tuple[str | None, str | None], tuple[str, float, float]] = {}
        if isinstance(holders, dict):
            self.holders.update((event, dict(names)) for event, names in holders.items())
            return
        for name, s in start.items():
            for event in s.extra.get("open", {}):
                self.holders[event][name] = None

    def rate(self, game: Game) -> list[Change]:
        """The changes of ``game``; applied now, or with its event's when the event closes."""
        black, white = game.black, game.white
        black_rated, white_rated = game.black_rated, game.white_rated
        self._enter(black, game.black_rank, black_rated)
        self._enter(white, game.white_rank, white_rated)
        event = game.event.name if game.event is not None and self.batch else None
        b, w = self._base(black, event), self._base(white, event)
        weights = self._weights(game)
        changes = []
        if black_rated:
            changes.append(self._change(game, "B", black, white, b, w, weights))
        if white_rated:
            changes.append(self._change(game, "W", white, black, w, b, weights))
        for change in changes:
            delta = change.points + change.bonus  # Change.delta, without the property's call
            if event is None:
                self._apply(change.player, delta)
            else:
                self.open[change.player][event][1] += delta
        if event is not None and game.closes_event:
            self._close_event(event)
        return changes

    def _base(self, name: str, event: str | None) -> float:
        """The rating ``name`` plays at: at their first game of ``event`` (opened now if need be), else
        their current rating (a visitor's when the rule set does not rate them)."""
        if name in self.start:
            if event is not None:
                return self._opened(name, event)
            found = self.current.get(name)
            return self.start[name].rating if found is None else found
        return self.guests[name]

    def _rating(self, name: str) -> float:
        found = self.current.get(name)
        return self.start[name].rating if found is None else found

    def _open_of(self, name: str) -> dict[str, list[float]]:
        """``name``'s open events (from their start state the first time), and ``name`` touched."""
        found = self.open.get(name)
        if found is None:
            found = {e: list(v) for e, v in self.start[name].extra.get("open", {}).items()}
            self.open[name] = found
            self.touched.add(name)
        return found

    def _opened(self, name: str, event: str) -> float:
        """``name``'s rating at their first game of ``event`` (opening it for them now if need be)."""
        events = self._open_of(name)
        if event not in events:
            events[event] = [self._rating(name), 0.0]
            self.holders[event][name] = None
        return events[event][0]

    def _close_event(self, event: str) -> None:
        for name in self.holders.pop(event, {}):
            self._apply(name, self._open_of(name).pop(event)[1])

    def _apply(self, name: str, delta: float) -> None:
        self.touched.add(name)
        state = self.start[name]
        if not state.fixed:
            found = self.current.get(name)
            moved, floor = (state.rating if found is None else found) + delta, self.formula.floor
            self.current[name] = moved if moved > floor else floor  # max(floor, moved), NaN included

    def _enter(self, name: str, recorded: Rank | None, rated: bool) -> None:
        if not rated:  # a visitor: the roster's rating or rank when it lists them, else the record's rank
            if name not in self.guests:
                self.guests[name] = self.rules.newcomer(name, recorded).rating
        else:
            if name not in self.start:
                self.start[name] = self.rules.newcomer(name, recorded)
            self.touched.add(name)

    def _weights(self, game: Game) -> tuple[str, float, float]:
        """(class, class weight, stage weight) of ``game`` (:meth:`Params.of`, once per class and round)."""
        key = (game.event.klass if game.event is not None else None, game.round)
        found = self.weights.get(key)
        if found is None:
            found = self.weights[key] = self.rules.weights.of(game)
        return found

    def _change(
        self,
        game: Game,
        color: str,
        player: str,
        opponent: str,
        rating: float,
        opponent_rating: float,
        weights: tuple[str, float, float],
    ) -> Change:
        """The change of ``color``'s ``player`` at ``rating`` against ``opponent`` at ``opponent_rating``
        (both before the handicap)."""
        handicap = 100 * (game.handicap - 0.5) if game.handicap >= 1 else 0.0
        if color == "B":
            own, other = (rating + handicap if handicap else rating), opponent_rating
        else:
            own, other = rating, (opponent_rating + handicap if handicap else opponent_rating)
        low = own < other or (own == other and color == "B")
        se, a = self.expected(own, other, low)
        con = self.con(rating)
        klass, class_weight, stage_weight = weights
        winner = game.winner
        score = 0.5 if winner == "draw" else float(winner == color)
        points = con * (score - se) * class_weight * stage_weight
        bonus = self.bonus(rating)
        note = None
        if game.no_show and score == 1:  # the HKGA introduction §7 (docs/rules.md ("hkga"))
            points, bonus, note = 0.0, 0.0, "no-show: not rated for the winner"
        elif self.start[player].fixed:
            points, bonus, note = 0.0, 0.0, "fixed rating"
        detail = {
            "se": se,
            "a": a,
            "con": con,
            "event_class": klass,
            "class_weight": class_weight,
            "stage_weight": stage_weight,
            "adjusted_rating": own,
            "opponent_adjusted_rating": other,
            "opponent_rating": opponent_rating,
            "note": note,
        }
        rule = "EGD 2021 bonus" if bonus else None
        return Change(game.game_id, player, opponent, color, score, rating, points, bonus, rule, detail)

    def close(self, changes: list[Change], same: bool) -> Closed:
        """The standings at the period's end, carrying who holds each event open. ``same``: the period
        started from standings this rule set closed, so a player untouched this period is carried as is
        (rebuilding it gives it again); else every player is rebuilt."""
        played: dict[str, int] = defaultdict(int)
        for change in changes:
            played[change.player] += 1
        touched, start, name, holders = self.touched, self.start, self.rules.name, dict(self.holders)
        if same:  # in start order; the touched players are replaced in place
            changed = {p: self._closed(p, start[p], played[p]) for p in list(touched)}
            return Closed(start, name, holders, changed)
        return Closed({p: self._closed(p, s, played[p]) for p, s in start.items()}, name, holders)

    def _closed(self, name: str, s: PlayerState, played: int) -> PlayerState:
        rating = self._rating(name)
        rank = s.rank if s.fixed else self.formula.rank_of(rating, s.rank)
        return PlayerState(rating, rank, s.games_total + played, s.fixed, self._extra(name, s))

    def _extra(self, name: str, s: PlayerState) -> Mapping[str, object]:
        """``name``'s ``extra`` at the period's end: their open events; ``s.extra`` itself (read-only) when
        their events did not move this period and it already holds them as the end would."""
        events = self.open.get(name)
        if events is None:
            kept = s.extra
            if kept.keys() == {"open"} and all(type(v) is tuple for v in kept["open"].values()):
                return kept
            events = kept.get("open", {})
        return {"open": {e: tuple(v) for e, v in events.items()}}


def params_from(table: Table) -> Params:
    """The ``[rules]`` parameters: ``class_weights`` (a table of A/B/C -> number > 0), ``default_class``
    (A, B or C), ``stage_weights`` (a table of RO pattern -> number > 0), ``batch_events`` (bool).

    Raises :class:`~pipeline.config.toml.ConfigError` naming the key if one is bad.
    """
    classes = dict(CLASS_WEIGHTS) | _numbers(table, "class_weights", frozenset(CLASS_WEIGHTS))
    default = table.get("default_class", one_of(*CLASS_WEIGHTS), "A")
    stages = tuple(_numbers(table, "stage_weights", None).items())
    return Params(classes, default, stages, table.get("batch_events", boolean(), True))


def _numbers(table: Table, key: str, known: frozenset[str] | None) -> dict[str, float]:
    value = table.data.get(key, {})
    fine = isinstance(value, dict) and all(
        (known is None or k in known) and isinstance(v, int | float) and not isinstance(v, bool) and v > 0
        for k, v in value.items()
    )
    if not fine:
        keys = f"keys {', '.join(sorted(known))}" if known else "RO patterns as keys"
        table.fail(key, f"a table with {keys} and numbers > 0 as values", value)
    return {str(k): float(v) for k, v in value.items()}
