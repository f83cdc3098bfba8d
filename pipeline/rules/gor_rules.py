"""rules.gor_rules: the GoR-family rule set — batching by event, weights, newcomers — over a
:class:`~pipeline.rules.gor.Formula`. ``hkga``, ``egf`` and ``egf2021`` are this class with another
formula and name. Knows nothing of SGF or files; the formulas know nothing of games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase

import pyarrow as pa

from pipeline.config.roster import Roster, name_key
from pipeline.config.toml import Table, boolean, one_of
from pipeline.ingest.normalise.ranks import Rank
from pipeline.rules.base import Change, Context, DueAward, Game, PeriodOutcome, PlayerState, RosterRules
from pipeline.rules.gor import CLASS_WEIGHTS, Formula

#: A rule set's reports: every period's changes and the roster -> tables by file name.
Report = Callable[[pa.Table, Roster], dict[str, pa.Table]]

CHANGE_FIELDS = pa.schema(
    [
        pa.field("se", pa.float64()),
        pa.field("a", pa.float64()),
        pa.field("con", pa.float64()),
        pa.field("event_class", pa.string()),
        pa.field("class_weight", pa.float64()),
        pa.field("stage_weight", pa.float64()),
        pa.field("adjusted_rating", pa.float64()),
        pa.field("opponent_adjusted_rating", pa.float64()),
        pa.field("opponent_rating", pa.float64()),
        pa.field("note", pa.string()),
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
    """A GoR-family rule set: ``name``, its ``formula`` and ``weights``, configured once; pure after."""

    change_fields = CHANGE_FIELDS

    def __init__(
        self, name: str, formula: Formula, weights: Params, context: Context, report: Report | None = None
    ) -> None:
        super().__init__(context)
        self.name, self.formula, self.weights = name, formula, weights
        self._report = report

    def rate_period(
        self, period: str, games: Sequence[Game], awards: Sequence[DueAward], state: Mapping[str, PlayerState]
    ) -> PeriodOutcome:
        """Rate the period's games in order. A game in no event (or with batching off) moves the
        ratings at once; a game of an event is rated from the players' ratings at their first game in
        it, and the event's changes apply together after its last game (``Game.closes_event``), in
        this period or a later one (the open events ride in ``PlayerState.extra["open"]``)."""
        ledger = _Ledger(self, dict(state))
        changes = [c for game in games for c in ledger.rate(game)]
        return PeriodOutcome(ledger.start, ledger.close(changes), changes, [])

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
    come), the current ratings, visitors' ratings, and each player's open events: event -> [rating at
    their first game in it, the changes summed so far]."""

    def __init__(self, rules: GorRules, start: dict[str, PlayerState]) -> None:
        self.rules, self.start = rules, start
        self.current = {name: s.rating for name, s in start.items()}
        self.guests: dict[str, float] = {}  # visitors not rated: the roster's or the record's rating
        self.open: dict[str, dict[str, list[float]]] = {
            name: {e: list(v) for e, v in s.extra.get("open", {}).items()} for name, s in start.items()
        }

    def rate(self, game: Game) -> list[Change]:
        """The changes of ``game``; applied now, or with its event's when the event closes."""
        for color in "BW":
            self._enter(game.side(color)[0], game.rank(color), game.rated(color))
        event = game.event.name if game.event is not None and self.rules.weights.batch else None
        base = self.guests | self.current
        if event is not None:
            players = [name for name in (game.black, game.white) if name in self.open]
            base |= {name: self._opened(name, event) for name in players}
        changes = [self._change(game, color, base) for color in "BW" if game.rated(color)]
        for change in changes:
            if event is None:
                self._apply(change.player, change.delta)
            else:
                self.open[change.player][event][1] += change.delta
        if event is not None and game.closes_event:
            self._close_event(event)
        return changes

    def _opened(self, name: str, event: str) -> float:
        """``name``'s rating at their first game of ``event`` (opening it for them now if need be)."""
        return self.open[name].setdefault(event, [self.current[name], 0.0])[0]

    def _close_event(self, event: str) -> None:
        for name, events in self.open.items():
            if event in events:
                self._apply(name, events.pop(event)[1])

    def _apply(self, name: str, delta: float) -> None:
        if not self.start[name].fixed:
            self.current[name] = max(self.rules.formula.floor, self.current[name] + delta)

    def _enter(self, name: str, recorded: Rank | None, rated: bool) -> None:
        if not rated:  # a visitor: the roster's rating or rank when it lists them, else the record's rank
            self.guests.setdefault(name, self.rules.newcomer(name, recorded).rating)
        elif name not in self.start:
            self.start[name] = self.rules.newcomer(name, recorded)
            self.current[name] = self.start[name].rating
            self.open[name] = {}

    def _change(self, game: Game, color: str, base: Mapping[str, float]) -> Change:
        player, opponent, _, _ = game.side(color)
        own, other = _adjusted(game, color, base)
        low = own < other or (own == other and color == "B")
        formula = self.rules.formula
        se, a = formula.expected(own, other, low)
        con = formula.con(base[player])
        klass, class_weight, stage_weight = self.rules.weights.of(game)
        score = game.score(color)
        points = con * (score - se) * class_weight * stage_weight
        bonus = formula.bonus(base[player])
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
            "opponent_rating": base[opponent],
            "note": note,
        }
        rule = "EGD 2021 bonus" if bonus else None
        return Change(game.game_id, player, opponent, color, score, base[player], points, bonus, rule, detail)

    def close(self, changes: list[Change]) -> dict[str, PlayerState]:
        """The standings at the period's end."""
        played: dict[str, int] = defaultdict(int)
        for change in changes:
            played[change.player] += 1
        return {
            name: replace(
                s,
                rating=self.current[name],
                rank=s.rank if s.fixed else self.rules.formula.rank_of(self.current[name], s.rank),
                games_total=s.games_total + played[name],
                extra={"open": {e: tuple(v) for e, v in self.open[name].items()}},
            )
            for name, s in self.start.items()
        }


def _adjusted(game: Game, color: str, base: Mapping[str, float]) -> tuple[float, float]:
    """(own, opponent) ratings with the handicap receiver (Black) raised by ``100 × (H − 0.5)``."""
    black, white = base[game.black], base[game.white]
    if game.handicap >= 1:
        black += 100 * (game.handicap - 0.5)
    return (black, white) if color == "B" else (white, black)


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
