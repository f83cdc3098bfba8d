"""rules.tga: the Taiwan Gomoku Association's dan and kyu certification (docs/rules.md ("tga")).

Yearly periods; Gomoku (GM 4) only; draws, handicap games, non-members and no-shows reach the rule set (a
forfeit is never a valid game, but it shows a bye or an incomplete event: Articles 8.6, 10); no per-opponent
cap (the TGA rules have none). A player starts at the roster's declared rank, else the rank the record gives
them in their first counted game, else ``?`` (dan 0 in the formulas). ``PlayerState.rating`` is the rank's
sortable number (:func:`~pipeline.rules.tga_rules.rating_of`: dan, ``1 − kyu``, −20 for ``?``) and ``rank``
its label; ranks change only by the promotions and awards below.

The games of one configured event in a period form a unit, evaluated at the unit's last game in the period
from every player's rank at their first game of the unit (promotions apply to later units). Games in no
event form one unit per period, which gives change rows but no promotion. By event ``kind``:

- ``recognised`` and ``low_dan``: Article 8, promotion by points (one dan, not beyond 7d);
- ``promotion`` (晉段賽, Article 4): the top ``round(players / 8)`` of the standings below 1d become 1d;
- ``low_dan`` (Article 9): with at least 6 players the champion (``champion`` of the events file, else the
  top of the standings) gains one dan;
- ``kyu`` (by its ``group``) and ``promotion`` (group ``promotion``): Article 10 kyu awards.

Of several promotions one event gives a player, the highest applies (Articles 8.10 and 9.4: 擇優), and only if
better than the rank held. A manual award with a ``rank`` applies after the games of its date under the same
rule (rule ``manual award``); titles and points-only awards change nothing. A ``fixed`` player's rank never
changes. A change row's ``points`` is the game's part of the Article 8 criterion.

Decisions: standings are score, then the sum of the opponents' scores; players still tied at the cut are all
promoted. A kyu award's rate is the score over the event's ``rounds`` (events file), else over ``max(5,
games played)``. A round of the event's ``rounds`` with no record of the player counts as a bye. Games with
a forfeit (unseen if the configuration excludes no-shows) are not valid games: a forfeit win (or a bye) lets
four valid games qualify (Article 8.6), a forfeit loss means the player did not complete their games and is
not evaluated. Every promoted rank is treated as held (Article 12's fee is not in the records). An opponent
of unknown rank plays at the Article 8.8 estimate from their games in the unit (a draw bounds from both
sides; 0 if they met no known rank); a player of unknown rank is dan 0 and so may become 1d. A promotion is
dated at the unit's last game and cites the player's last game in it; a configured low-dan champion must
have played in it. Kyus beyond 20k are 20k, professional dans are dans; 20k has no fee.

With no events file every ``EV`` is an event of kind ``recognised`` (the registry's
``implicit_event_kind``). Not derivable from the records: byes are invisible without ``rounds``, forfeits
when the configuration excludes no-shows; whether an event was announced a month ahead, refereed, or a
player paid a fee. ``reports()`` gives ``fees.parquet`` from the run's promotions (manual awards included),
one row per new rank with its Article 13 fee.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

import pyarrow as pa

from pipeline.config.toml import Table
from pipeline.core.ranks import Rank, parse_rank
from pipeline.core.reasons import Validity
from pipeline.core.schema import described as _f
from pipeline.core.standings import PlayerState
from pipeline.rules import tga_rules as t
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
from pipeline.rules.family import Family, Report

#: No-shows are counted so that the rule set sees forfeits and byes (Articles 8.6, 10): they are never
#: valid games for Article 8, but a forfeit loss means a player did not complete the event.
DEFAULTS = Validity(period="year", excluded=frozenset(), opponent_cap=0, game_types=(4,))
FEES_FILE = "fees.parquet"


def build(context: Context, params: Table) -> TgaRules:
    """The rule set for the registry. Raises ConfigError if ``[rules]`` holds any key (it takes none)."""
    params.check_keys(())
    return TgaRules(context)


#: The record (:mod:`pipeline.rules.family`): no roster rating (the rating is the rank's number); every
#: ``EV`` is a recognised event without an events file; ratings are dan numbers, written whole.
FAMILY = Family(
    "tga",
    build,
    DEFAULTS,
    "the Taiwan Gomoku Association's dan promotions (2013, amended 2023): points from the games of "
    "recognised events, promotion when they reach the criterion",
    reports=(Report("fees", FEES_FILE, "promotion, with the fee of its certificate"),),
    promotes=True,
    implicit_event_kind="recognised",
    decimals=0,
    explanation="rank",
)


class TgaRules(RosterRules):
    """The ``tga`` rule set, configured once with the run's context; :meth:`rate_period` and
    :meth:`reports` are pure (the fees come from the run's promotions table).

    It returns its standings :class:`~pipeline.rules.base.Closed`: from those, a player whose rank and games
    the next period does not change is carried as is (rebuilding gives it again); standings from anywhere
    else are rebuilt."""

    name = "tga"
    report_columns: tuple[str, ...] = ()
    change_fields = pa.schema(
        [
            _f("dan", pa.float64(), "the player's dan in the formulas (1 - kyu for a kyu rank; unknown: 0)"),
            _f("opponent_dan", pa.float64(), "the opponent's (estimated from their results when unknown)"),
            _f("delta_dan", pa.float64(), "opponent_dan - dan, at least -5 (Article 8.7)"),
            _f("estimated_opponent", pa.bool_(), "the opponent's dan was estimated (no rank of theirs)"),
            _f(
                "article8",
                pa.bool_(),
                "the game counts toward Article 8's points (a recognised event, played)",
            ),
        ]
    )

    def rate_period(
        self, period: str, games: Sequence[Game], awards: Sequence[DueAward], state: Mapping[str, PlayerState]
    ) -> PeriodOutcome:
        """Evaluate the period's units as their last games come; awards apply after the games of their
        date."""
        ledger = _Ledger(self, dict(state))
        last = {_key(game): game.seq for game in games}
        changes: list[Change] = []
        given: list[AwardGiven] = []
        for item in by_date(games, awards):
            if not isinstance(item, Game):
                given.append(ledger.award(item))
                continue
            ledger.add(item)
            if last[_key(item)] == item.seq:
                changes += ledger.close(_key(item))
        order = {game.game_id: game.seq for game in games}
        changes.sort(key=lambda c: order[c.game_id])
        end = ledger.end(changes, closed_by(state, self.name) is not None)
        return PeriodOutcome(ledger.start, end, changes, given, ledger.promotions)

    def reports(self, changes: pa.Table, promotions: pa.Table) -> dict[str, pa.Table]:
        """``fees.parquet``: one row per promotion or award with its Article 13 fee."""
        fields = {f.name for f in dataclasses.fields(Promotion)}
        rows = promotions.to_pylist()
        return {FEES_FILE: fees_table(Promotion(**{k: v for k, v in r.items() if k in fields}) for r in rows)}

    def newcomer(self, name: str, recorded: Rank | None) -> PlayerState:
        """A first-seen player at the roster's declared rank, else ``recorded`` (no roster rating used)."""
        declared, player = self.declared(name)
        label = t.label_of(declared or recorded)
        return PlayerState(t.rating_of(label), label, fixed=player is not None and player.fixed)


def _key(game: Game) -> str | None:
    return game.event.name if game.event is not None else None


class _Ledger:
    """The working state of one ``rate_period`` call: standings at its start (newcomers added as they
    come), every player's current rank, the players added or given a rank, the open units and the promotions
    given."""

    def __init__(self, rules: TgaRules, start: dict[str, PlayerState]) -> None:
        self.rules, self.start = rules, start
        self.rank = {name: s.rank for name, s in start.items()}
        self.moved: set[str] = set()  # the players added or given a rank this period
        self.units: dict[str | None, t.Unit] = {}
        self.promotions: list[Promotion] = []

    def add(self, game: Game) -> None:
        """Enter ``game`` in its unit, and its players (at their current rank) if new to it."""
        key = _key(game)
        unit = self.units.get(key)
        if unit is None:
            unit = self.units[key] = t.Unit(game.event)
        self._seat(unit, game, game.black, game.black_rank, game.black_rated)
        self._seat(unit, game, game.white, game.white_rank, game.white_rated)
        unit.add(game)

    def _seat(self, unit: t.Unit, game: Game, name: str, recorded: Rank | None, rated: bool) -> None:
        """Enter player ``name`` of ``game`` (``recorded``: the record's rank; ``rated``: the rule set rates
        them) in the standings if new and in ``unit`` at their current rank if new to it."""
        if rated:
            self._enter(name, recorded)
            unit.last[name] = game.game_id
        if name not in unit.labels:
            label = self.rank[name] if rated else t.label_of(recorded)
            unit.labels[name], unit.dans[name] = label, t.dan_of(label)

    def _enter(self, name: str, recorded: Rank | None) -> None:
        if name not in self.start:
            self.start[name] = self.rules.newcomer(name, recorded)
            self.rank[name] = self.start[name].rank
            self.moved.add(name)

    def close(self, key: str | None) -> list[Change]:
        """The change rows of a finished unit; then, for an event, its promotions."""
        unit = self.units.pop(key)
        dan = {name: float(d) if d is not None else t.estimated(unit, name) for name, d in unit.dans.items()}
        recognised = unit.event is not None and unit.event.kind in t.RECOGNISED
        changes = []
        for game in unit.games:
            if game.black_rated:
                changes.append(self._change(unit, game, ("B", game.black, game.white), dan, recognised))
            if game.white_rated:
                changes.append(self._change(unit, game, ("W", game.white, game.black), dan, recognised))
        self._promote(unit, changes)
        return changes

    def _change(
        self, unit: t.Unit, game: Game, side: tuple[str, str, str], dan: Mapping[str, float], recognised: bool
    ) -> Change:
        """The change row of ``side`` (colour, player, opponent) of ``game``; ``recognised``: the unit's
        event counts toward Article 8."""
        color, player, opponent = side
        own, other = unit.own(player), dan[opponent]
        winner = game.winner
        score = 0.5 if winner == "draw" else float(winner == color)
        delta = t.capped(other - own)
        detail = {
            "dan": float(own),
            "opponent_dan": other,
            "delta_dan": delta,
            "estimated_opponent": unit.dans[opponent] is None,
            "article8": recognised and not game.no_show,
        }
        points = 0.0 if game.no_show else t.contribution(score, delta)
        before = t.rating_of(unit.labels[player])
        return Change(game.game_id, player, opponent, color, score, before, points, detail=detail)

    def _promote(self, unit: t.Unit, changes: list[Change]) -> None:
        """Apply the best promotion the event offers each rated player, if better than their rank (the
        event's own rule is cited first among equal offers)."""
        deltas = {(c.game_id, c.player): c.detail["delta_dan"] for c in changes}
        event = unit.event
        champion = self.rules.resolve(event.champion) if event and event.champion else None
        best: dict[str, Promotion] = {}
        for offer in t.offers(unit, deltas, champion):
            held = best.get(offer.player)
            if held is None or t.rating_of(offer.to_rank) > t.rating_of(held.to_rank):
                best[offer.player] = offer
        for name, offer in best.items():
            current = self.rank[name]
            if not self.start[name].fixed and t.rating_of(offer.to_rank) > t.rating_of(current):
                self.rank[name] = offer.to_rank
                self.moved.add(name)
                self.promotions.append(replace(offer, from_rank=current))

    def award(self, due: DueAward) -> AwardGiven:
        """A title or award (no points); a manual award's ``rank`` applies if better than the rank held."""
        award, rated = self.rules.awarded(due)
        name = award.player
        if due.kind != "manual" or not due.award.rank:
            return AwardGiven(award, due.kind, 0.0)
        if not rated:
            return AwardGiven(noted(award, "not a member, not rated"), due.kind, 0.0)
        self._enter(name, None)
        label, current = t.label_of(parse_rank(due.award.rank)), self.rank[name]
        if self.start[name].fixed or t.rating_of(label) <= t.rating_of(current):
            return AwardGiven(noted(award, f"keeps {current}"), due.kind, 0.0)
        self.rank[name] = label
        self.moved.add(name)
        evidence = f"{award.event}: {award.note or 'manual award'}"
        self.promotions.append(
            Promotion(name, award.date, None, "manual award", current, label, evidence, award.event)
        )
        return AwardGiven(award, due.kind, 0.0)

    def end(self, changes: list[Change], same: bool) -> Closed:
        """The standings at the period's end: every player at their current rank. ``same``: the period
        started from standings this rule set closed, so a player whose rank and games did not change is
        carried as is (rebuilding gives it again); else every player is rebuilt."""
        played: dict[str, int] = defaultdict(int)
        for change in changes:
            played[change.player] += 1
        start, name = self.start, self.rules.name
        if same:  # in start order; the players moved are replaced in place
            moved = played.keys() | self.moved
            return Closed(start, name, changed={p: self._closed(p, start[p], played[p]) for p in moved})
        return Closed({p: self._closed(p, s, played[p]) for p, s in start.items()}, name)

    def _closed(self, name: str, s: PlayerState, played: int) -> PlayerState:
        rank = self.rank[name]
        return replace(s, rating=t.rating_of(rank), rank=rank, games_total=s.games_total + played)


#: Article 13 (NT$): (lowest, highest rank number, fee) of the new rank (:func:`~tga_rules.rating_of`).
FEES = ((-18, -10, 400), (-9, 0, 500), (1, 3, 600), (4, 6, 1100), (7, 9, 2100))
FEES_SCHEMA = pa.schema(
    [
        _f("player", pa.string(), "who was promoted", False),
        _f("date", pa.date32(), "the day of the promotion", False),
        _f("rule", pa.string(), "the rule that promoted them (as in promotions.parquet)", False),
        _f("event", pa.string(), "the event it was earned in"),
        _f("from_rank", pa.string(), "rank before"),
        _f("to_rank", pa.string(), "rank after", False),
        _f("fee", pa.int64(), "the certificate fee in NT$ of the new rank (Article 13; null for 20k and ?)"),
    ]
)


def fee(label: str) -> int | None:
    """Article 13: the certificate fee in NT$ of the new rank ``label``; None for 20k and ``?``."""
    number = t.rating_of(label)
    return next((amount for low, high, amount in FEES if low <= number <= high), None)


def fees_table(promotions: Iterable[Promotion]) -> pa.Table:
    """One row per promotion or award with its new rank's fee, by date then player (:data:`FEES_SCHEMA`)."""
    rows = [
        {"player": p.player, "date": p.date, "rule": p.rule, "event": p.event, "from_rank": p.from_rank}
        | {"to_rank": p.to_rank, "fee": fee(p.to_rank)}
        for p in sorted(promotions, key=lambda p: (p.date, p.player))
    ]
    return pa.Table.from_pylist(rows, schema=FEES_SCHEMA)
