"""rules.glicko2_rules: the ``glicko2`` rule set, Glickman's Glicko-2 (docs/rules.md ("glicko2")), over the
arithmetic of :mod:`pipeline.rules.glicko2`.

A Glicko-2 rating period is the run's period: every game of a period is rated from the ratings,
deviations and volatilities at its start, all at once at its end (Glickman: "all games within a rating
period are assumed to occur simultaneously"). Each player carries, in ``PlayerState.extra``, their
deviation (rating points) and volatility after the last period they played and that period's ordinal
(``at``); the periods they sat out grow the deviation in closed form when it is next needed (step 6
``k`` times: ``√(RD² + k(173.7178σ)²)``, never past the starting deviation by growing, the cap of
Glickman's Glicko paper), so an idle player's state is never rewritten. The deviation every player has at
a period's end is the outcome's :attr:`~pipeline.rules.base.PeriodOutcome.deviation`.

Each game's row in ``changes`` splits the period's change exactly: ``points = 173.7178 φ'² g(φ_j)(s − E)``
(the period's ``μ' − μ`` is their sum), so the ratings are their start plus their changes. ``se`` is
Glickman's predicted score of the game, ``1/(1 + e^(−g(√(φ² + φ_j²))·(μ − μ_j)))`` with both players'
deviations (the quantity ``ratings backtest`` scores), ``e`` the one the update uses (the opponent's
deviation only).

Decisions (docs/rules.md ("glicko2"), "Decisions"): the starting rating is the roster's (on this rule
set's scale), else the declared or recorded rank's on OGS's scale
(:func:`~pipeline.rules.glicko2.rating_for_rank`); every newcomer starts with the deviation and
volatility of ``[rules]`` (``deviation``, 350, and ``volatility``, 0.06: the deviation's growth per idle
period); the handicap raises Black's rating by
``H − 0.5`` grades (:func:`~pipeline.rules.glicko2.handicap_offset`); no-shows are not rated by default (a
forfeit says nothing of strength); a draw scores ½; a fixed player (roster ``fixed = true``) keeps their
rating, deviation and volatility and rates their opponents; a visitor the rule set does not rate plays
at their starting rating and deviation; events, classes, stages and awards change nothing. Knows nothing
of SGF or files.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.config.toml import Kind, Table
from pipeline.core import periods
from pipeline.core.frozen import built
from pipeline.core.i18n import N_
from pipeline.core.ranks import Rank
from pipeline.core.reasons import Validity
from pipeline.core.schema import described as _f
from pipeline.core.standings import PlayerState
from pipeline.rules import glicko2 as g2
from pipeline.rules.base import (
    Change,
    Closed,
    Context,
    DueAward,
    Game,
    PeriodOutcome,
    RosterRules,
    RuleSet,
    closed_by,
)
from pipeline.rules.family import Family, Scale
from pipeline.rules.glicko2 import Array

Flags = np.ndarray[Any, np.dtype[np.bool_]]

#: No-shows are not games played (Glicko-2 rates strength from results); everything else counts.
DEFAULTS = Validity(excluded=frozenset({"no_show"}))
#: The ``[rules]`` keys (:func:`params_from`).
KEYS = ("tau", "deviation", "volatility")
#: A plausible starting rating on this scale (a roster's ``rating = { glicko2 = ... }``): OGS's bounds.
LOW, HIGH = 100.0, 6000.0
_POSITIVE = Kind(N_("a number > 0"), lambda v: _finite(v) and v > 0, float)

CHANGE_FIELDS = pa.schema(
    [
        _f("se", pa.float64(), "the predicted score: g of both deviations, Glickman's forecast of the game"),
        _f("e", pa.float64(), "E: the expected score the update uses (the opponent's deviation only)"),
        _f("g", pa.float64(), "g(φ_j): how much the game counts, from the opponent's deviation"),
        _f("opponent_rating", pa.float64(), "the opponent's rating at the period's start"),
        _f("opponent_deviation", pa.float64(), "the opponent's deviation at the period's start"),
        _f("handicap_adjustment", pa.float64(), "rating points added to Black's rating for the handicap"),
        _f("volatility", pa.float64(), "the player's volatility σ after the period"),
        _f("note", pa.string(), "why the game moved nothing (a fixed rating), else null"),
    ]
)


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True, slots=True)
class Params:
    """``tau`` (τ, how fast the volatility may change), ``deviation`` (a newcomer's RD, rating points, and
    the most idle periods can grow one to) and ``volatility`` (a newcomer's σ: the deviation's growth per
    idle period, in Glicko-2 units)."""

    tau: float = g2.TAU
    deviation: float = g2.DEVIATION
    volatility: float = g2.VOLATILITY


def params_from(table: Table) -> Params:
    """The ``[rules]`` parameters of glicko2: ``tau``, ``deviation``, ``volatility``, each a finite number
    > 0. Raises :class:`~pipeline.config.toml.ConfigError` naming the key if one is unknown or bad."""
    table.check_keys(KEYS)
    return Params(
        table.get("tau", _POSITIVE, g2.TAU),
        table.get("deviation", _POSITIVE, g2.DEVIATION),
        table.get("volatility", _POSITIVE, g2.VOLATILITY),
    )


def build(context: Context, params: Table) -> RuleSet:
    """The ``glicko2`` rule set with its ``[rules]`` parameters (checked)."""
    return Glicko2Rules(context, params_from(params))


class Glicko2Rules(RosterRules):
    """The ``glicko2`` rule set, configured once; :meth:`rate_period` is pure. It returns its standings
    :class:`~pipeline.rules.base.Closed`: a player a period does not touch is carried as is, and every
    player's deviation, volatility and last period ride along as arrays (:class:`Carry`), from which the
    next period's end deviations are computed at once; standings from anywhere else (a resumed run's
    pickle) give them once from the players' ``extra``, to the same outcome."""

    name = "glicko2"
    change_fields = CHANGE_FIELDS
    report_columns: tuple[str, ...] = ()

    def __init__(self, context: Context, params: Params) -> None:
        super().__init__(context)
        self.params = params

    def rate_period(
        self, period: str, games: Sequence[Game], awards: Sequence[DueAward], state: Mapping[str, PlayerState]
    ) -> PeriodOutcome:
        """Rate the period's games together from the states at its start (awards change nothing)."""
        now = periods.ordinal(period)
        closed = closed_by(state, self.name)
        found = closed.carry if closed is not None else None
        carry = found if isinstance(found, Carry) and len(found.position) == len(state) else None
        start = dict(state)
        sheet = _Sheet(self, start, now)
        sheet.add(games)
        changes, changed, moved = sheet.rate()
        carried = (carry or Carry.of(state, self.params)).then(sheet.newcomers, moved, self.params)
        end = Closed(start, self.name, carried, changed)
        return PeriodOutcome(
            start, end, changes, [], deviation=carried.deviations(now, self.params.deviation)
        )

    def reports(self, changes: pa.Table, promotions: pa.Table) -> dict[str, pa.Table]:
        """None: glicko2 has no report tables of its own."""
        return {}

    def newcomer(self, name: str, recorded: Rank | None) -> PlayerState:
        """A first-seen player: the roster's rating (on this scale), else the declared or recorded rank's;
        the starting deviation and volatility, as at the end of the period before the one they enter
        (no ``at``: no idle period to grow over)."""
        declared, player = self.declared(name)
        rating = player.rating if player is not None and player.rating is not None else None
        rating = rating if rating is not None else g2.rating_for_rank(declared or recorded)
        fixed = player is not None and player.fixed
        extra = {"deviation": self.params.deviation, "volatility": self.params.volatility}
        return PlayerState(rating, g2.rank_for_rating(rating), fixed=fixed, extra=extra)


@dataclass(frozen=True, slots=True)
class Carry:
    """Every player of some standings, in their order (``position``: name -> index), with their deviation
    (rating points) and volatility after their last period played, that period's ordinal (``at``; NaN:
    none, no growth) and whether they are fixed. Never changed: :meth:`then` makes the next."""

    position: dict[str, int]
    deviation: Array
    volatility: Array
    at: Array
    fixed: np.ndarray[Any, np.dtype[np.bool_]]

    @staticmethod
    def of(states: Mapping[str, PlayerState], params: Params) -> Carry:
        """The carry of ``states``, read from each player's ``extra`` (the starting values when absent)."""
        values = list(states.values())
        return Carry(
            {name: i for i, name in enumerate(states)},
            np.array([s.extra.get("deviation", params.deviation) for s in values], np.float64),
            np.array([s.extra.get("volatility", params.volatility) for s in values], np.float64),
            np.array([s.extra.get("at", math.nan) for s in values], np.float64),
            np.array([s.fixed for s in values], np.bool_),
        )

    def then(self, newcomers: Sequence[str], changed: Carry, params: Params) -> Carry:
        """The carry of these standings with ``newcomers`` added at their end (the starting values) and the
        players of ``changed`` (each already here or a newcomer) set to its values."""
        position = dict(self.position)
        position.update(zip(newcomers, range(len(position), len(position) + len(newcomers)), strict=True))
        grow = len(position) - len(self.position)
        deviation = np.concatenate([self.deviation, np.full(grow, params.deviation)])
        volatility = np.concatenate([self.volatility, np.full(grow, params.volatility)])
        at = np.concatenate([self.at, np.full(grow, math.nan)])
        fixed = np.concatenate([self.fixed, np.zeros(grow, np.bool_)])
        where = np.array(list(map(position.__getitem__, changed.position)), np.intp)
        deviation[where], volatility[where], at[where] = changed.deviation, changed.volatility, changed.at
        fixed[where] = changed.fixed
        return Carry(position, deviation, volatility, at, fixed)

    def deviations(self, now: int, cap: float) -> Array:
        """Each player's deviation at the end of the period ``now``, grown over the periods since their
        last game (never past ``cap`` by growing; a fixed player's, or one never rated, does not grow)."""
        idle = np.where(self.fixed | np.isnan(self.at), 0.0, now - np.nan_to_num(self.at))
        return g2.grown(self.deviation, self.volatility, idle, cap)


class _Sheet:
    """One period's games as arrays: the players met (rated or visitors), in the order they first appear
    (Black before White), with their values at the period's start; and one row per game and rated side,
    in game order, Black's first. Built column by column (comprehensions that read the fields, numpy for
    the rest): no loop body runs once a game or a player but for a newcomer or a handicap game."""

    def __init__(self, rules: Glicko2Rules, start: dict[str, PlayerState], now: int) -> None:
        self.rules, self.start, self.now = rules, start, now
        self.newcomers: list[str] = []  # rated players added to the standings, in order
        self.own = self.opp = np.zeros(0, np.intp)  # per row: the player's index and the opponent's

    def add(self, games: Sequence[Game]) -> None:
        """Enter the period's ``games`` (once): their players, and a row for each side the rule set rates."""
        if not games:
            return
        ids, blacks, whites = [g.game_id for g in games], [g.black for g in games], [g.white for g in games]
        handicaps, winners = [g.handicap for g in games], [g.winner for g in games]
        sides = _paired(blacks, whites)
        rated = _paired([g.black_rated for g in games], [g.white_rated for g in games])
        # (name -> the place of their first side: the later places are written first)
        first = dict(zip(reversed(sides), range(len(sides) - 1, -1, -1), strict=True))
        self.names = names = list(dict.fromkeys(sides))
        where = list(map(first.__getitem__, names))
        ranks = _paired([g.black_rank for g in games], [g.white_rank for g in games])
        entered = [rated[i] for i in where]
        self.states = states = self._states(names, [ranks[i] for i in where], entered)
        index = dict(zip(names, range(len(names)), strict=True))
        params, now = self.rules.params, self.now
        extras = [state.extra for state in states]
        fixed = np.array([state.fixed for state in states], np.bool_)
        self.rating = np.array([state.rating for state in states], np.float64)
        self.before = np.array([e.get("deviation", params.deviation) for e in extras], np.float64)
        self.sigma = np.array([e.get("volatility", params.volatility) for e in extras], np.float64)
        idle = now - np.array([e.get("at", now - 1) for e in extras], np.float64) - 1
        self.idle = np.where(fixed | ~(idle > 0), 0.0, idle)
        self.updated = np.array(entered, np.bool_) & ~fixed
        side = np.array(list(map(index.__getitem__, sides)), np.intp).reshape(-1, 2)  # (Black, White)
        score = np.array([1.0 if w == "B" else 0.0 if w == "W" else 0.5 for w in winners], np.float64)
        offset = np.zeros(len(ids))
        for i in [i for i, stones in enumerate(handicaps) if stones]:
            offset[i] = g2.handicap_offset(states[index[blacks[i]]].rating, handicaps[i])
        keep = np.array(rated, np.bool_)
        self.own, self.opp = side.reshape(-1)[keep], side[:, ::-1].reshape(-1)[keep]
        self.score = np.stack((score, 1.0 - score), 1).reshape(-1)[keep]
        self.offset = np.stack((offset, -offset), 1).reshape(-1)[keep]  # (negative for White)
        self.games, self.colors = _paired(ids, ids), ["B", "W"] * len(ids)
        if not keep.all():
            self.games, self.colors = list(compress(self.games, rated)), list(compress(self.colors, rated))

    def _states(self, names: list[str], ranks: list[Rank | None], rated: list[bool]) -> list[PlayerState]:
        """The state of each of ``names`` at the period's start: a rated one's in the standings, else a
        newcomer's (entered into the standings when rated; a visitor's only for this period)."""
        get = self.start.get
        found = [get(name) if entered else None for name, entered in zip(names, rated, strict=True)]
        for i in [i for i, state in enumerate(found) if state is None]:
            found[i] = state = self.rules.newcomer(names[i], ranks[i])
            if rated[i]:
                self.start[names[i]] = state
                self.newcomers.append(names[i])
        return [state for state in found if state is not None]  # (every one: None was replaced)

    def rate(self) -> tuple[list[Change], dict[str, PlayerState], Carry]:
        """The period's changes (in game order, Black's row first), the new states of the rated and their
        carry."""
        own, opp, scale = self.own, self.opp, g2.SCALE
        if not len(own):
            return [], {}, Carry.of({}, self.rules.params)
        rating, sigma = self.rating, self.sigma
        deviation = g2.grown(self.before, sigma, self.idle, self.rules.params.deviation)
        mu, phi = (rating - g2.CENTRE) / scale, deviation / scale
        shift = self.offset / scale
        found = g2.update(
            (mu, phi, sigma), own, (mu[opp], phi[opp]), self.score, shift, self.rules.params.tau
        )
        moves = self.updated[own]
        se = g2.expected(mu[own] + shift - mu[opp], np.sqrt(phi[own] ** 2 + phi[opp] ** 2))
        new_sigma = np.where(self.updated, found.sigma, sigma)
        detail = (se, found.e, found.g, rating[opp], deviation[opp], np.abs(self.offset), new_sigma[own])
        changes = self._changes(
            (np.where(moves, found.moved * scale, 0.0), rating[own], deviation[own]), detail, moves
        )
        return changes, *self._closed(found)

    def _changes(self, values: tuple[Array, ...], detail: tuple[Array, ...], moves: Flags) -> list[Change]:
        """The change of each row from its ``values`` (points, rating and deviation before) and ``detail``
        (the columns of :data:`CHANGE_FIELDS` but the note, a fixed player's row's, where not ``moves``)."""
        details = [
            {
                "se": se,
                "e": e,
                "g": g,
                "opponent_rating": opp_rating,
                "opponent_deviation": opp_deviation,
                "handicap_adjustment": handicap,
                "volatility": sigma,
            }
            for se, e, g, opp_rating, opp_deviation, handicap, sigma in zip(
                *(c.tolist() for c in detail), strict=True
            )
        ]
        for row in np.flatnonzero(~moves).tolist():  # (none without a fixed player)
            details[row]["note"] = "fixed rating"
        names = np.array(self.names, object)  # (each row's two names in one take each)
        points, rating, deviation = (c.tolist() for c in values)
        count = len(details)
        player, opponent = names[self.own].tolist(), names[self.opp].tolist()
        scores = self.score.tolist()
        columns = (self.games, player, opponent, self.colors, scores, rating, points)
        return built(Change, (*columns, [0.0] * count, [None] * count, details, deviation))

    def _closed(self, found: g2.Period) -> tuple[dict[str, PlayerState], Carry]:
        """The new state of every rated player of the period, in the order of their first row (a fixed
        one: their games counted only), and their carry."""
        own = self.own
        players, first = np.unique(own, return_index=True)
        order = players[np.argsort(first, kind="stable")]
        played = np.bincount(own, minlength=len(self.names))[order].tolist()
        chosen = order.tolist()
        names, before = [self.names[i] for i in chosen], [self.states[i] for i in chosen]
        ratings = g2.CENTRE + g2.SCALE * found.mu[order]
        rating, ranks = ratings.tolist(), g2.rank_labels(ratings)
        deviation, sigma, now = g2.SCALE * found.phi[order], found.sigma[order], self.now
        extra: list[Mapping[str, Any]] = [
            {"deviation": d, "volatility": s, "at": now}
            for d, s in zip(deviation.tolist(), sigma.tolist(), strict=True)
        ]
        fixed, at, params = ~self.updated[order], np.full(len(names), float(now)), self.rules.params
        for i in np.flatnonzero(fixed).tolist():  # (they keep all but their count of games)
            state = before[i]
            rating[i], ranks[i], extra[i] = state.rating, state.rank, state.extra
            deviation[i] = state.extra.get("deviation", params.deviation)
            sigma[i] = state.extra.get("volatility", params.volatility)
            at[i] = state.extra.get("at", math.nan)
        total = [state.games_total + count for state, count in zip(before, played, strict=True)]
        states = built(PlayerState, (rating, ranks, total, fixed.tolist(), extra))
        position = dict(zip(names, range(len(names)), strict=True))
        return dict(zip(names, states, strict=True)), Carry(position, deviation, sigma, at, fixed)


def _paired(black: Sequence[Any], white: Sequence[Any]) -> list[Any]:
    """``black[0], white[0], black[1], white[1], ...``: a game's two sides one after the other."""
    found: list[Any] = [None] * (2 * len(black))
    found[::2], found[1::2] = black, white
    return found


FAMILY = Family(
    "glicko2",
    build,
    DEFAULTS,
    N_(
        "Mark Glickman's Glicko-2, the rating of the largest Go and chess servers: a rating, a deviation "
        "that says how sure it is and a volatility, updated from all of a period's games at its end"
    ),
    scale=Scale("glicko2", "glicko2", LOW, HIGH, g2.rating_for_rank),
    deviation=True,
)
